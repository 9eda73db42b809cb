/*-------------------------------------------------------------------------
 *
 * src/shared_state/shared_state.h
 *	  Server state that one session writes and another reads: what labels
 *	  it, and who may read it (doc/shared-state.md).
 *
 * The rule is the one the row filter applies: information written by a
 * session at level H reaches another session only if that session's label
 * may read H.  What a session writes is labeled with its *write label*,
 * the label its rows would carry in a table the policy labels by default
 * (writer_label.c), and a reader may read it if its label holds db_tuple
 * { select } on that label.  Each channel either filters what a reader
 * gets (notifications, activity and lock views, prepared transactions) or
 * refuses the write (catalogs: catalogs.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_SHARED_STATE_H
#define LABELAM_SHARED_STATE_H

#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "fmgr.h"
#include "lib/stringinfo.h"

struct Port;
struct PlannedStmt;

/* writer_label.c */
extern char *shared_state_compute_write_label(void);
extern bool shared_state_may_read(const char *write_label);

/* backend_labels.c: each backend's write label, in shared memory */
extern void shared_state_shmem_request(void);
extern void shared_state_shmem_startup(void);
extern void shared_state_client_authentication(struct Port *port,
											   int status);
extern void shared_state_subject_changed(void);
extern void shared_state_publish(void);
extern void shared_state_xact(XactEvent event);
extern bool shared_state_backend_visible(int pid);
extern bool shared_state_every_backend_visible(void);

/* notify.c: notifications carry their sender's write label */
extern struct PlannedStmt *shared_state_notify_utility(struct PlannedStmt *pstmt,
														bool *readOnlyTree);
extern bool shared_state_notification_out(const char *msg, size_t len,
										  StringInfo out);
extern bool shared_state_needs_fmgr(Oid functionId);
extern void shared_state_fmgr(FmgrHookEventType event, FmgrInfo *flinfo);

/* prepared.c: prepared transactions keep their writer's label */
extern void shared_state_prepared_shmem_request(void);
extern void shared_state_prepared_shmem_startup(void);
extern void shared_state_prepare_utility(struct PlannedStmt *pstmt);
extern bool shared_state_prepared_visible(TransactionId xid);
extern bool shared_state_every_prepared_visible(void);

/* twins.c: built-ins reached without their checked twins */
extern void shared_state_object_access(ObjectAccessType access, Oid classId,
									   Oid objectId, int subId, void *arg);

/* catalogs.c: catalog writes need the database's level */
extern void shared_state_catalogs_utility_start(struct PlannedStmt *pstmt);
extern void shared_state_catalogs_utility(struct PlannedStmt *pstmt);
extern void shared_state_catalogs_chosen_oid(void);
extern bool shared_state_catalogs_function(Oid functionId);
extern void shared_state_catalogs_object_access(ObjectAccessType access,
												Oid classId, Oid objectId,
												int subId, void *arg);

#endif							/* LABELAM_SHARED_STATE_H */
