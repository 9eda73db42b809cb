/*-------------------------------------------------------------------------
 *
 * src/lbac/lbac_int.h
 *	  Declarations shared by the files of src/lbac: the model (levels,
 *	  compartments, groups, authorizations), labels and subjects parsed
 *	  against it, and the decisions of Oracle Label Security's algorithms.
 *
 * Components are held in arrays sorted by their number (num), so that an
 * index compares as the component's num does: a level's index is its
 * sensitivity, and compartments and groups are written in index order.
 * Sets of compartments and groups are Bitmapsets of indexes.  Everything
 * of a model lives in its own memory context, replaced whole when the
 * model is read again.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_LBAC_INT_H
#define LABELAM_LBAC_INT_H

#include "nodes/bitmapset.h"
#include "utils/hsearch.h"

#include "lbac/lbac.h"

/* longest short name of a component (Oracle Label Security's limit) */
#define LBAC_NAME_MAX		30

/* privileges (lbac.grant_privileges), in lbac_priv_names' order */
#define LBAC_PRIV_READ				(1U << 0)
#define LBAC_PRIV_FULL				(1U << 1)
#define LBAC_PRIV_COMPACCESS		(1U << 2)
#define LBAC_PRIV_WRITEUP			(1U << 3)
#define LBAC_PRIV_WRITEDOWN			(1U << 4)
#define LBAC_PRIV_WRITEACROSS		(1U << 5)
#define LBAC_PRIV_PROFILE_ACCESS	(1U << 6)
#define LBAC_NPRIVS					7
extern const char *const lbac_priv_names[LBAC_NPRIVS];

typedef enum LbacKind
{
	LBAC_LEVEL,
	LBAC_COMPARTMENT,
	LBAC_GROUP,
	LBAC_NKINDS
} LbacKind;

extern const char *const lbac_kind_names[LBAC_NKINDS];

/* the four sets of an authorization, in the tables' column order */
typedef enum LbacSet
{
	LBAC_READ,
	LBAC_WRITE,
	LBAC_DEF,
	LBAC_ROW,
	LBAC_NSETS
} LbacSet;

typedef struct LbacComponent
{
	int32		num;
	char	   *name;			/* short name, upper case */
	char	   *long_name;		/* or NULL */
	bool		has_parent;		/* groups */
	int32		parent_num;
	int			parent;			/* index of the parent group, or -1 */
} LbacComponent;

/*
 * A role's authorization as the tables hold it: components by num.  Sets
 * are arrays of nums.
 */
typedef struct LbacAuthNums
{
	Oid			role;
	bool		has_levels;
	int32		levels[LBAC_NSETS]; /* max, min, def, row */
	int			nsets[2][LBAC_NSETS];	/* [0] compartments, [1] groups */
	int32	   *sets[2][LBAC_NSETS];
	uint32		privs;
} LbacAuthNums;

/* index of each level in LbacAuthNums.levels and LbacAuth.levels */
#define LBAC_MAX	0
#define LBAC_MIN	1
#define LBAC_DEFL	2
#define LBAC_ROWL	3

/* ... and compiled: components by index */
typedef struct LbacAuth
{
	Oid			role;
	bool		has_levels;		/* lbac.set_levels was called */
	int			levels[4];		/* LBAC_MAX, LBAC_MIN, LBAC_DEFL, LBAC_ROWL */
	Bitmapset  *comps[LBAC_NSETS];
	Bitmapset  *groups[LBAC_NSETS];
	uint32		privs;
} LbacAuth;

#define LBAC_NTABLES	5
typedef enum LbacTable
{
	LBAC_T_LEVELS,
	LBAC_T_COMPARTMENTS,
	LBAC_T_GROUPS,
	LBAC_T_AUTHORIZATIONS,
	LBAC_T_ADMINISTRATORS
} LbacTable;

extern const char *const lbac_table_names[LBAC_NTABLES];

typedef struct LbacModel
{
	MemoryContext cxt;
	bool		installed;		/* the extension's tables were found */
	Oid			relids[LBAC_NTABLES];
	int			n[LBAC_NKINDS];
	LbacComponent *comp[LBAC_NKINDS];	/* sorted by num */
	HTAB	   *names[LBAC_NKINDS]; /* short name -> index */
	Bitmapset **group_desc;		/* per group: itself and its descendants */
	int			nauths;
	LbacAuth   *auths;			/* sorted by role */
	List	   *auth_nums;		/* LbacAuthNums *, until lbac_model_finish */
	int			nadmins;
	Oid		   *admins;
	uint64		hash;			/* of everything above: the seqno */
} LbacModel;

/* a label, parsed against a model */
typedef struct LbacLabel
{
	int			level;			/* index */
	Bitmapset  *comps;
	Bitmapset  *groups;
} LbacLabel;

/*
 * A subject: a session label and the role whose authorization bounds it
 * ("S:A;role=16390"), a role with no label yet (";role=16390"), or a label
 * alone ("S:A"), which is decided as a user authorized exactly at it.
 */
typedef struct LbacSubject
{
	bool		has_role;
	Oid			role;
	bool		has_label;
	LbacLabel	label;			/* as written, before the authorization
								 * bounds it */
} LbacSubject;

/*
 * A subject as the decisions see it: the session label bounded by the
 * authorization (Oracle Label Security's session label and the maximum
 * read and write sets computed from it).
 */
typedef struct LbacUser
{
	bool		has_label;
	int			level;
	int			min_level;
	int			max_level;
	Bitmapset  *comps;			/* read compartments */
	Bitmapset  *write_comps;
	Bitmapset  *groups;			/* the session label's groups */
	Bitmapset  *groups_desc;	/* ... and their descendants: read */
	Bitmapset  *write_desc;		/* groups written, descendants included */
	uint32		privs;
	const LbacAuth *auth;		/* the role's, or NULL */
	LbacAuth	own;			/* a label alone: its own authorization */
} LbacUser;

/* model.c */
extern LbacModel *lbac_model_new(void);
extern void lbac_model_add_component(LbacModel *m, LbacKind kind, int32 num,
									 const char *name, const char *long_name,
									 bool has_parent, int32 parent_num);
extern void lbac_model_add_auth(LbacModel *m, const LbacAuthNums *a);
extern void lbac_model_add_admin(LbacModel *m, Oid role);
extern void lbac_model_finish(LbacModel *m);
extern void lbac_model_free(LbacModel *m);
extern int	lbac_find_name(const LbacModel *m, LbacKind kind, const char *name);
extern int	lbac_find_num(const LbacModel *m, LbacKind kind, int32 num);
extern const LbacAuth *lbac_find_auth(const LbacModel *m, Oid role);
extern bool lbac_is_admin(const LbacModel *m, Oid role);
extern char *lbac_model_serialize(const LbacModel *m, const Oid *roles,
								  int nroles);
extern LbacModel *lbac_model_parse(const char *text);
extern Bitmapset *lbac_groups_desc(const LbacModel *m, const Bitmapset *groups);

/* model_read.c: the model's tables */
extern bool lbac_tables_find(Oid relids[LBAC_NTABLES]);
extern bool lbac_is_model_table(Oid relid);
extern LbacModel *lbac_model_read(void);

/* session.c: the model a statement decides with */
extern const LbacModel *lbac_model_in_force(void);
extern uint64 lbac_model_generation(void);
extern uint64 lbac_model_revalidate(void);
extern void lbac_model_sync_workers(void);

/* label.c */
extern bool lbac_parse_label(const LbacModel *m, const char *text,
							 LbacLabel *out, bool report);
extern char *lbac_label_text(const LbacModel *m, const LbacLabel *l);
extern bool lbac_parse_subject(const LbacModel *m, const char *text,
							   LbacSubject *out, bool report);
extern char *lbac_subject_text(const LbacModel *m, const LbacSubject *s);
extern bool lbac_parse_names(const LbacModel *m, LbacKind kind,
							 const char *list, Bitmapset **out);
extern bool lbac_valid_name(const char *name);
extern char *lbac_upper_name(const char *name);

/* decide.c */
extern void lbac_user(const LbacModel *m, const LbacSubject *s, LbacUser *u);
extern bool lbac_read(const LbacUser *u, const LbacLabel *row);
extern bool lbac_write(const LbacUser *u, const LbacLabel *row);
extern bool lbac_label_change(const LbacUser *u, const LbacLabel *from,
							  const LbacLabel *to);
extern bool lbac_within(const LbacModel *m, const LbacAuth *a,
						const LbacLabel *l);
extern void lbac_row_label(const LbacUser *u, LbacLabel *out);
extern void lbac_default_label(const LbacAuth *a, LbacLabel *out);
extern bool lbac_dominates(const LbacModel *m, const LbacLabel *a,
						   const LbacLabel *b);

#endif							/* LABELAM_LBAC_INT_H */
