/*-------------------------------------------------------------------------
 *
 * src/avc/avc_internal.h
 *	  Declarations shared by the files of src/avc; not for other subsystems
 *	  (they use avc.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_INTERNAL_H
#define LABELAM_AVC_INTERNAL_H

#include "avc/avc.h"
#include "avc/provider.h"
#include "utils/guc.h"

/*
 * Objects are named either by a dictionary secid (rows) or by a
 * backend-local label id (labels given as text: the session's subject,
 * the arguments of the SQL functions), which needs no dictionary row, so
 * works for labels never stored and on a hot standby.  Local ids are never
 * reused within a process.
 */
typedef enum AvcObjKind
{
	AVC_OBJ_SECID,
	AVC_OBJ_LOCAL
} AvcObjKind;

/* labelam.audit */
typedef enum AvcAuditMode
{
	AVC_AUDIT_NONE,
	AVC_AUDIT_DENIED,			/* as the policy says: denials but dontaudit,
								 * and auditallow'ed grants */
	AVC_AUDIT_ALL				/* every decision */
} AvcAuditMode;

/*
 * globals.c: the values of the settings (settings.c defines them), and
 * what says whether cached decisions hold (avc.h: avc_decision_epoch,
 * avc_revalidate_pending; provider.h: avc_provider, avc_policy_file,
 * avc_policy_booleans)
 */
extern int	avc_audit_mode;
extern char *avc_default_client_label;
extern char *avc_session_label;
extern char *avc_connect_label;
extern bool avc_debug_opaque_labels;
extern char *avc_statistics_label;
extern bool avc_enforcing;
/* depth of CALL and DO statements running (they may COMMIT or ROLLBACK) */
extern int	avc_routine_depth;

/* classes.c: permission names <-> bits */
extern uint32 avc_perms_from_names(AvcClass tclass, const char *const *names,
								   int n);
extern char *avc_perms_text(AvcClass tclass, uint32 perms);
/* the same, separated by sep (SELinux writes "{ read write }") */
extern char *avc_perms_text_sep(AvcClass tclass, uint32 perms,
								const char *sep);

/* labels.c: canonical text, local ids, the session's subject */
extern char *avc_subject;
extern uint32 avc_labels_id(const char *canonical_label);
extern uint32 avc_labels_count(void);
extern bool avc_labels_current(uint32 lid);
extern void avc_labels_reset(void);
extern char *avc_object_text(AvcObjKind kind, uint32 object);
extern const char *avc_local_text(uint32 lid);
/* local ids of the subject and, for a narrowed session, of its own label */
extern uint32 avc_subject_lid;
extern uint32 avc_and_lid;
/* the MLS field of a context, or NULL; the context at another level */
extern const char *avc_labels_mls(const char *label);
extern char *avc_labels_with_level(const char *label, const char *level);

/* cache.c (and cache.h, for decide.c and subject.c) */
extern bool avc_enforcing_in_force;
extern uint32 avc_local_id(const char *canonical_label);
extern void avc_cache_reset(void);
extern void avc_revalidate(void);
extern TimestampTz avc_revalidated_statement;

/* subject.c */
extern uint32 avc_subject_local_id(void);
/* avc_subject_local_id, or ERROR 42501 if the process has no subject */
extern uint32 avc_require_subject(void);
extern void avc_set_subject(const char *label);
/* a trusted session's narrowed subject (trusted.c, maintenance.c) */
extern bool avc_subject_is_narrowed(void);
extern void avc_subject_widen(void);
extern void avc_subject_narrow(void);

/* decide.c */
extern bool avc_decide(AvcClass tclass, uint32 subject_lid, AvcObjKind kind,
					   uint32 object, AvcDecision *avd);
extern const char *avc_create_local(uint32 subject_lid, uint32 parent_lid);
extern Oid	avc_create_label(Oid table_secid);
extern double avc_bench(const char *const *objects, int nobjects, int64 n,
						bool misses);

/* audit.c */
extern void avc_audit_record(Relation rel, AvcClass tclass, AvcObjKind kind,
							 uint32 object, const AvcDecision *avd,
							 uint32 perms);
extern void avc_audit_record_rows(Relation rel, AvcClass tclass,
								  AvcObjKind kind, uint32 object,
								  const AvcDecision *avd, uint32 perms,
								  uint64 nrows);
extern void avc_audit_discard(void);

/* denials.c */
extern int	avc_max_denials;
extern void avc_denials_note(Relation rel, AvcClass tclass, AvcObjKind kind,
							 uint32 object, const AvcDecision *avd,
							 uint32 perms, uint64 nrows);
extern void avc_denials_publish(void);
extern void avc_denials_discard(void);

/* sepol_shared.c: labelam.shared_decisions */
extern int	avc_shared_decisions;

/* statistics.c */
extern void avc_statistics_subject_changed(const char *newval, void *extra);

/* table_label.c */
extern void avc_table_label_init(void);

/* trusted.c */
extern char *avc_trusted_narrowed(const char *label);

/* boundaries.c */
extern bool avc_under_utility(int depth);
extern bool avc_outside_commands(void);

/* client.c */
extern void avc_client_auth(Port *port);
extern void avc_client_resolve(void);
extern bool avc_session_label_check(char **newval, void **extra,
									GucSource source);
extern void avc_session_label_assign(const char *newval, void *extra);

#endif							/* LABELAM_AVC_INTERNAL_H */
