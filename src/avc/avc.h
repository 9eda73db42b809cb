/*-------------------------------------------------------------------------
 *
 * src/avc/avc.h
 *	  Access decisions for the storage engine: the session's subject label,
 *	  cached db_tuple decisions with per-statement audit, a table's label
 *	  and the policy's label for new rows in it (which label a new row gets
 *	  is decided in am/write/new_label.c), and the canonical form of labels.
 *
 * Everything here is backend-local.  The policy itself comes from a
 * provider (provider.h): the SELinux kernel, or a binary policy file
 * evaluated with libsepol.  Object labels are dictionary secids
 * (label_store.h); the subject is the session's label, which need not be
 * in the dictionary.  Labels given as text are canonicalized here, before
 * anyone hands them to label_store, which never calls back.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_H
#define LABELAM_AVC_H

#include "access/xact.h"
#include "pg_compat.h"
#include "utils/relcache.h"

/*
 * Permissions of the SELinux class db_tuple, as labelam's own bits (each
 * provider maps them to its policy's numbering).
 */
#define AVC_DB_TUPLE_SELECT			(1U << 0)
#define AVC_DB_TUPLE_INSERT			(1U << 1)
#define AVC_DB_TUPLE_UPDATE			(1U << 2)
#define AVC_DB_TUPLE_DELETE			(1U << 3)
#define AVC_DB_TUPLE_RELABELFROM	(1U << 4)
#define AVC_DB_TUPLE_RELABELTO		(1U << 5)
#define AVC_DB_TUPLE_USE			(1U << 6)
#define AVC_DB_TUPLE_ALL			((1U << 7) - 1)

/* Registers GUCs, loads the policy; called from _PG_init. */
extern void avc_init(void);

/*
 * boundaries.c: called by src/hooks.c at the server's boundaries
 * (statements, executor runs, utility commands, authentication,
 * transaction end).
 */
struct Port;
extern void avc_client_authentication(struct Port *port, int status);
extern void avc_statement_start(void);
extern void avc_enter(bool routine, bool utility);
extern void avc_leave(bool routine);
extern void avc_statement_done(void);
extern void avc_xact(XactEvent event);

/*
 * trusted.c and maintenance.c: a trusted session (a label whose MLS range
 * the policy honours with an exemption, such as labelam_maint_t's) decides
 * with its label narrowed to its clearance, except around a maintenance
 * command's own checks: avc_maintenance_begin(depth) lets its own label
 * decide if the outermost call running is a utility command the client
 * sent, depth calls deep (1: the command itself, nothing nested), or,
 * depth 0, if the process is a logical replication worker running nothing
 * (the checks of a row it applies itself), and returns true; pass the
 * result to avc_maintenance_end (also on error).  Does nothing (false) for
 * other sessions and elsewhere.
 */
extern bool avc_maintenance_begin(int depth);
extern void avc_maintenance_end(bool widened);

/* Is the session's own label a trusted subject (trusted.c; subject.c)? */
extern bool avc_session_trusted(void);

/*
 * The session's subject label (canonical text), or NULL in a process that
 * has none: processes without a user session (autovacuum, physical
 * walsenders, the checkpointer ...), and background workers for which
 * neither labelam.role_label nor labelam.default_client_label names one.
 * Client backends never run without one (their connection is refused).
 */
extern const char *avc_client_label(void);

/* The session's own label (labelam.session_label), whatever decides now. */
extern const char *avc_session_label_text(void);

/*
 * labelam.set_client_label's checks and effect (client.c): the session
 * changes its subject to label (canonicalized as a subject, so completed
 * from the current one) if the policy lets it (process { setcurrent
 * dyntransition }), where no rollback could undo a change it could not
 * make back, and with no cursor open.
 */
extern void avc_set_client_label(const char *label);

/*
 * Does the session's subject hold all of "perms" on rows labeled
 * object_secid?  Denied when the process has no subject, when the secid
 * names no label, or when the policy says so.  The decision is recorded
 * for the statement's audit (one LOG line per relation, permission, object
 * label and decision at end of statement); rel may be NULL when no
 * relation is involved.  Cheap when the same object_secid repeats: the
 * enforcement filter may call it for every tuple.
 */
extern bool avc_check_tuple(Relation rel, Oid object_secid, uint32 perms);

/*
 * For callers that decide rows before they reach them (am/read/page_decisions.c):
 * avc_check_tuple_ahead gives avc_check_tuple's decision but records
 * nothing, and says in *recorded whether avc_check_tuple would have
 * recorded it for the audit; when the rows are reached (at the same
 * avc_current_epoch()), avc_check_tuple_rows records them, nrows at once,
 * so that the audit counts the rows a scan reached, as the row filter's
 * avc_check_tuple does.
 */
extern bool avc_check_tuple_ahead(Oid object_secid, uint32 perms,
								  bool *recorded);
/*
 * avc_check_tuple_ahead, and in *lasting whether the decision stays the
 * one avc_check_tuple gives for as long as the epoch (avc_current_epoch())
 * does: false for a secid that names no label, decided denied each time it
 * is asked (a label committed since may name it).
 */
extern bool avc_check_tuple_lasting(Oid object_secid, uint32 perms,
									bool *recorded, bool *lasting);
extern bool avc_check_tuple_rows(Relation rel, Oid object_secid,
								 uint32 perms, uint64 nrows);

/*
 * Like avc_check_tuple, but records nothing for the audit: for questions
 * whose answer is not itself an access (may this session destroy every row
 * of a label?  may a message show this row?).
 */
extern bool avc_tuple_allowed(Oid object_secid, uint32 perms);

/*
 * The same for rows labeled with label text, which need not be in the
 * dictionary; no transaction needed (logical decoding decides messages
 * outside any).  An invalid label is decided as the policy's unlabeled
 * label.
 */
extern bool avc_tuple_label_allowed(const char *label, uint32 perms);

/*
 * Does the statistics subject hold all of "perms" on rows labeled
 * object_secid?  That subject is labelam.statistics_label, else
 * labelam.default_client_label (settings only a superuser or the server's
 * configuration chooses), never the session's label: ANALYZE, whoever runs
 * it, autovacuum included, summarizes for every role that may read the
 * statistics.  Denied when neither setting names a label.  Cached like
 * avc_check_tuple; not audited (the decision is not the session's).  ERROR
 * 22023 if the setting in force is not a valid label.
 */
extern bool avc_check_tuple_for_statistics(Relation rel, Oid object_secid,
										   uint32 perms);

/*
 * Called, if set, each time the subject changes (the session's label
 * resolved or changed, a trusted procedure entered or left), after the
 * change.  It runs inside GUC assign hooks, so it must not fail.  Set once
 * by src/hooks.c (src/shared_state publishes the session's label).
 */
extern void (*avc_subject_changed_callback) (void);

/*
 * Changes whenever a decision avc_check_tuple gave may no longer be the one
 * it would give (new policy or enforcing mode, another subject, a trusted
 * procedure entered or left), or would no longer be audited as it was (a
 * new labelam.audit): for callers that decide ahead (skip_stream.c,
 * page_decisions.c).
 */
extern PGDLLIMPORT uint64 avc_decision_epoch LABELAM_HIDDEN;

/*
 * avc_decision_epoch once a new policy or enforcing mode the statement has
 * not yet looked for is taken in (the AVC looks lazily, at its first
 * decision in a statement): a caller that compares epochs before deciding
 * ahead sees the change then, not in the middle of its decisions.
 */
extern uint64 avc_current_epoch(void);

/* a new policy or enforcing mode not yet looked for (see above) */
extern PGDLLIMPORT bool avc_revalidate_pending LABELAM_HIDDEN;

/*
 * Would every decision taken at epoch (avc_current_epoch()) still be the
 * one avc_check_tuple gives now?  Cheap enough for every row.
 */
static inline bool
avc_epoch_holds(uint64 epoch)
{
	return likely(!avc_revalidate_pending && avc_decision_epoch == epoch);
}

/*
 * Like avc_check_tuple, but a denial is an ERROR (SQLSTATE 42501) naming
 * the relation and the permission.  For the write path.
 */
extern void avc_require_tuple(Relation rel, Oid object_secid, uint32 perms);

/*
 * The security label of a table (canonical text, palloc'd): SECURITY LABEL
 * FOR selinux, else the policy's default for tables, else
 * labelam.default_table_label; ERROR if none.
 */
extern char *avc_table_label_text(Relation rel);

/*
 * Caching what avc_table_label_text and avc_create_label_text return: the
 * cache holds while avc_table_label_generation() stays the same.
 * avc_table_label_forget() starts a new generation (callers: relcache and
 * schema invalidations, subtransaction abort).
 */
extern uint64 avc_table_label_generation(void);
extern void avc_table_label_forget(void);

/*
 * The label of a new row in a table labeled table_label (canonical text, as
 * avc_table_label_text gives it), created by the session's subject: the
 * policy's type_transition for class db_tuple, as canonical text
 * (palloc'd), computed from text (the table's label need not be in the
 * dictionary) and cached like decisions.  ERROR if the process has no
 * subject.
 */
extern char *avc_create_label_text(const char *table_label);

/*
 * What the session writes into server state other sessions read (src/
 * shared_state) is labeled as a row it would insert, but created by
 * avc_write_subject(): a trusted session's narrowed label (avc/trusted.c),
 * whatever decides at the moment, else the subject deciding now.
 */
extern const char *avc_write_subject(void);
extern char *avc_write_label_text(const char *table_label);
extern bool avc_write_subject_labels_rows(void);

/*
 * The table label that logical messages are decided as written into
 * (canonical text, palloc'd): how the policy labels a new table of the
 * database (sepgsql_contexts' default for pg_catalog.pg_logical_message,
 * else labelam.default_table_label).  ERROR if there is none.  A message's
 * own label is avc_create_label_text of it.
 */
extern char *avc_message_table_label(void);

/*
 * Canonical form of label text (palloc'd), as the policy provider defines
 * it: ERROR 22023 if the text is no valid label (with the provider's
 * hint).  avc_storable_label is the form to intern a label given by a user
 * in (label_store.h's label_intern): the same, except that under
 * labelam.debug_opaque_labels it is the text as given, once it passed
 * label_validate.
 */
extern char *avc_canonicalize(const char *label);
extern char *avc_storable_label(const char *label);

/*
 * Canonical form of a label asked for as a subject (palloc'd): the
 * provider's form of subjects, completed from current (the subject asking,
 * or NULL), for providers whose subjects are more than a label (lbac: a
 * label and a role); avc_canonicalize's for the others.  ERROR 22023 if
 * invalid.
 */
extern char *avc_canonicalize_subject(const char *label, const char *current);

/*
 * Does the provider in force label database objects (SELinux's object
 * classes)?  False for lbac, which labels rows only.
 */
extern bool avc_object_classes(void);

/*
 * For a change of a row's label from one secid to another, besides
 * relabelfrom and relabelto on each: the provider's decision on the pair,
 * for providers whose rule needs both labels (lbac's WRITEUP, WRITEDOWN and
 * WRITEACROSS; nothing for SELinux).  A denial is an ERROR (42501) naming
 * the relation; cached and audited like avc_require_tuple.
 */
extern void avc_require_relabel(Relation rel, Oid from_secid, Oid to_secid);

/*
 * The pair decision for a subject given as canonical text (check_relabel
 * functions); not audited.
 */
extern bool avc_relabel_allowed_text(const char *subject, const char *from,
									 const char *to);

/*
 * The db_tuple decision of a subject on an object, both given as canonical
 * text, through the decision cache (labelam.check_access and its twins);
 * not audited.
 */
extern bool avc_allowed_text(const char *subject, const char *object,
							 uint32 perms);

/*
 * Emit the aggregated audit lines of the statement now (the module does
 * this itself at ExecutorEnd, after utility commands and at transaction
 * end; callers with their own statement boundaries may call it too).
 */
extern void avc_audit_flush(void);

/*
 * denials.c: the shared summary of denials (from the shmem hooks, so only
 * when labelam is preloaded).
 */
extern void avc_denials_shmem_request(void);
extern void avc_denials_shmem_startup(void);

/* sepol_shared.c: the sepol provider's decisions, shared by every backend */
extern void avc_shared_decisions_shmem_request(void);
extern void avc_shared_decisions_shmem_startup(void);

/* Name of a single permission bit ("select"), for messages. */
extern const char *avc_perm_name(uint32 perm);

/* the decision cache's counts, for labelam.avc_stats() (am/channels/counters.c) */
extern void avc_cache_stats(uint64 *hits, uint64 *misses, uint64 *resets,
							uint64 *entries);

#endif							/* LABELAM_AVC_H */
