/*-------------------------------------------------------------------------
 *
 * src/avc/provider.h
 *	  The policy provider interface: where access decisions come from.
 *
 * A provider answers in labelam's permission bits (avc.h) for the few
 * object classes labelam asks about, given labels as canonical text.  It
 * keeps no PostgreSQL state: caching, audit and client labels are the
 * avc's business.  Mechanism (libselinux, libsepol) stays in the
 * provider's file; everything above is the same for every provider.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_PROVIDER_H
#define LABELAM_AVC_PROVIDER_H

#include "datatype/timestamp.h"
#include "libpq/libpq-be.h"

/* The object classes labelam asks about. */
typedef enum AvcClass
{
	AVC_CLASS_DB_TUPLE,			/* rows */
	AVC_CLASS_PROCESS,			/* the session (set_client_label, trusted
								 * procedures) */
	/* database objects (src/objects) */
	AVC_CLASS_DB_DATABASE,
	AVC_CLASS_DB_SCHEMA,
	AVC_CLASS_DB_TABLE,
	AVC_CLASS_DB_SEQUENCE,
	AVC_CLASS_DB_PROCEDURE,
	AVC_CLASS_DB_COLUMN,
	AVC_CLASS_DB_BLOB,
	AVC_CLASS_DB_LANGUAGE,
	AVC_CLASS_DB_VIEW,
	/* server-side files (src/files): the kernel's classes, by inode type */
	AVC_CLASS_FILE,
	AVC_CLASS_DIR,
	AVC_CLASS_FIFO_FILE,
	AVC_CLASS_CHR_FILE,
	AVC_CLASS_BLK_FILE,
	AVC_NUM_CLASSES
} AvcClass;

/* process permissions that labelam asks about */
#define AVC_PROCESS_SETCURRENT		(1U << 0)
#define AVC_PROCESS_DYNTRANSITION	(1U << 1)
#define AVC_PROCESS_TRANSITION		(1U << 2)

/*
 * Permissions of the database object classes, numbered as contrib/sepgsql
 * numbers them (sepgsql.h): the six of the common "database" first, then
 * each class's own (the names in classes.c, in bit order).
 */
#define AVC_DB_CREATE				(1U << 0)
#define AVC_DB_DROP					(1U << 1)
#define AVC_DB_GETATTR				(1U << 2)
#define AVC_DB_SETATTR				(1U << 3)
#define AVC_DB_RELABELFROM			(1U << 4)
#define AVC_DB_RELABELTO			(1U << 5)

/*
 * The few permissions of the kernel's file classes that labelam asks about
 * (its own bit order: names in avc.c).  file, fifo_file, chr_file and
 * blk_file share theirs, as the kernel's classes share the common "file".
 */
#define AVC_FILE_READ				(1U << 0)
#define AVC_FILE_WRITE				(1U << 1)
#define AVC_FILE_CREATE				(1U << 2)
#define AVC_FILE_GETATTR			(1U << 3)

#define AVC_DIR_SEARCH				(1U << 0)
#define AVC_DIR_WRITE				(1U << 1)
#define AVC_DIR_ADD_NAME			(1U << 2)
#define AVC_DIR_GETATTR				(1U << 3)

#define AVC_MAX_PERMS	16

/* Permission names of each class, indexed by bit number; NULL-terminated. */
extern const char *const avc_class_names[AVC_NUM_CLASSES];
extern const char *const *const avc_perm_names[AVC_NUM_CLASSES];

/* A decision, in labelam's bits of the class asked about. */
typedef struct AvcDecision
{
	uint32		allowed;
	uint32		auditallow;		/* allowed and to be audited */
	uint32		auditdeny;		/* denied and to be audited (not dontaudit) */
	uint32		constrained;	/* denied by a constraint (MLS, say), not for
								 * want of an allow rule; 0 if the provider
								 * cannot tell */
	bool		permissive;		/* denials are logged but not enforced: the
								 * subject's domain is permissive in the
								 * policy, or the provider's whole mode is
								 * (labelam.enforcing is applied above) */
} AvcDecision;

typedef struct AvcProvider
{
	const char *name;

	/*
	 * Called once, in the postmaster while shared_preload_libraries are
	 * loaded: connect to the policy (FATAL if that is impossible), so that
	 * every backend starts with it.
	 */
	void		(*startup) (void);

	/*
	 * Sequence number of the policy in force.  Cheap (a status page or a
	 * stat() of the policy file): called once a statement, not per row; it
	 * (re)loads the policy when it changed.  A new policy that cannot be
	 * loaded leaves the last one loaded in force (logged once, and
	 * reported by policy_rejected), as SELinux keeps its policy when
	 * load_policy fails.
	 */
	uint64		(*policy_seqno) (void);

	/*
	 * Why the newest policy seen was not loaded, or NULL if the policy in
	 * force is the newest; *when is set to the time of the failure.
	 */
	const char *(*policy_rejected) (TimestampTz *when);

	/* Does the provider enforce (the kernel's enforcing mode)? */
	bool		(*enforcing) (void);

	/*
	 * Label of the peer of a client connection, or NULL (palloc'd).  NULL
	 * itself for a provider that knows no client's label.
	 */
	char	   *(*peer_label) (Port *port);

	/* Canonical form of a label (palloc'd); ERROR 22023 if invalid. */
	char	   *(*canonicalize) (const char *label);

	/* Is a (canonical) label valid in the policy in force?  No ERROR. */
	bool		(*valid) (const char *label);

	/*
	 * Label to decide with for objects whose stored label the policy in
	 * force does not know: the initial SID "unlabeled", as SELinux does
	 * (palloc'd).
	 */
	char	   *(*unlabeled) (void);

	/* Decision on canonical labels; ERROR 22023 if one is invalid. */
	void		(*compute_av) (const char *scon, const char *tcon,
							   AvcClass tclass, AvcDecision *avd);

	/*
	 * Does the policy in force define this permission (one bit) of tclass?
	 * A permission it does not define is never allowed.
	 */
	bool		(*defines) (AvcClass tclass, uint32 perm);

	/*
	 * Label of a new object of tclass under parent tcon (palloc'd); objname,
	 * if not NULL, is the new object's name for the policy's name-based
	 * type_transition rules (e.g. schema "pg_temp").
	 */
	char	   *(*compute_create) (const char *scon, const char *tcon,
								   AvcClass tclass, const char *objname);

	/*
	 * The label of the file open on fd: its security.selinux attribute, as
	 * the kernel reads it (palloc'd), or NULL if it has none (or its file
	 * system keeps none).  ERROR if it cannot be read.
	 */
	char	   *(*file_label) (int fd);

	/*
	 * Give the file open on fd this (canonical) label, in its
	 * security.selinux attribute.  0, or the errno of the failure (no
	 * ERROR: the caller undoes what it did first).
	 */
	int			(*set_file_label) (int fd, const char *label);

	/*
	 * The label of files that carry none: the policy's initial SID "file",
	 * as the kernel gives unlabeled files (palloc'd).
	 */
	char	   *(*file_initial) (void);

	/* Description for labelam.policy_info(). */
	bool		(*mls_enabled) (void);
	const char *(*policy_source) (void);

	/*
	 * Does the policy label database objects (SELinux's object classes:
	 * db_database ... db_view, and process transitions of trusted
	 * procedures)?  Without them labelam.object_checks cannot be turned on
	 * and SECURITY LABEL FOR selinux is refused: only rows are labeled.
	 */
	bool		object_classes;

	/*
	 * policy_seqno costs next to nothing and must be asked at every
	 * statement's start, not at its first decision: the provider reads its
	 * policy from the database and hands it to parallel workers with the
	 * session's settings, which it can only do before the statement enters
	 * parallel mode.
	 */
	bool		seqno_at_statement_start;

	/*
	 * The rest is optional (NULL: as SELinux does it), for providers whose
	 * subjects are more than a label (lbac: a label and the role whose
	 * authorization bounds it).
	 */

	/*
	 * Canonical form of a label asked for as a subject (palloc'd); ERROR
	 * 22023 if invalid.  current is the subject asking (NULL when none),
	 * whose parts the text may leave out.  NULL: canonicalize.
	 */
	char	   *(*canonicalize_subject) (const char *label, const char *current);

	/*
	 * The subject a session of this login role starts with (palloc'd,
	 * canonical), whatever the role: the provider alone decides, labelam's
	 * other sources (labelam.role_label, labelam.default_client_label) are
	 * not asked.  NULL: those sources are.
	 */
	char	   *(*session_subject) (Oid roleid);

	/*
	 * A decision that needs both labels: may scon change a row's label
	 * from "from" to "to"?  Asked besides relabelfrom on "from" and
	 * relabelto on "to", as AVC_DB_TUPLE_RELABELTO in avd->allowed (and
	 * auditdeny).  NULL: the two single-label permissions decide alone.
	 */
	void		(*compute_relabel) (const char *scon, const char *from,
									const char *to, AvcDecision *avd);
} AvcProvider;

extern const AvcProvider avc_selinux_provider;
extern const AvcProvider avc_sepol_provider;
extern const AvcProvider avc_lbac_provider; /* src/lbac/provider.c */

/* The provider in force (chosen by labelam.provider at start-up). */
extern const AvcProvider *avc_provider;

/* settings read by the providers */
extern char *avc_policy_file;
extern char *avc_policy_booleans;

#endif							/* LABELAM_AVC_PROVIDER_H */
