/*-------------------------------------------------------------------------
 *
 * src/am/replication/replication.h
 *	  Logical replication of labelheap tables: what the rest of labelam
 *	  calls (the write path, src/hooks.c).
 *
 * Publisher: every decoding context filters by the decoding session's
 * label (rmgr.c wraps rm_decode: decode.c notes labels, output.c wraps
 * the output plugin's callbacks); labels travel as the value of the table's declared label
 * column.  The labels heap's WAL records lose (the old version of an
 * UPDATE or DELETE, a truncated table's label set, a logical message's
 * writer) are written into the WAL by label_wal.c.  Subscriber: a
 * replicated row takes the label it carries (new_label.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_REPLICATION_H
#define LABELHEAP_REPLICATION_H

#include "catalog/objectaccess.h"
#include "fmgr.h"
#include "storage/itemptr.h"
#include "utils/elog.h"
#include "utils/relcache.h"

struct Port;

/*
 * label_wal.c, for the write path: the label of the version an UPDATE or
 * DELETE of rel is about to replace, at tid (write.c, before heap's
 * writer), and the labels a TRUNCATE of rel removes (label_set_checks.c).
 * Nothing is written unless rel is logically logged.
 */
extern void labelheap_wal_old_label(Relation rel, ItemPointer tid, Oid secid);
extern void labelheap_wal_truncate_labels(Relation rel, int nsecids,
										  const Oid *secids);

/* rmgr.c: wraps the resource managers' rm_decode (src/hooks.c, once) */
extern void labelheap_decoding_install(void);

/*
 * walsender.c: what a walsender may do (src/hooks.c): physical replication
 * connections at authentication, physical commands on logical connections
 * as they are logged, and the setting that makes them logged.
 */
extern void labelheap_walsender_client_auth(struct Port *port, int status);
extern void labelheap_walsender_emit_log(ErrorData *edata);

/* publication.c: publishing a labelheap table needs its label column */
extern void labelheap_publication_object_access(ObjectAccessType access,
												Oid classId, Oid objectId,
												int subId, void *arg);

/*
 * message.c: pg_logical_emit_message reached without its checked twin
 * (labelheap.h's labelheap_message_before_write is the twin's part)
 */
extern void labelheap_message_object_access(ObjectAccessType access,
											Oid classId, Oid objectId);

/*
 * apply.c: is this write a row a logical replication worker applies, and
 * its checks (new_label.c: it carries a label, secid); no query in code a
 * worker runs (src/hooks.c, ExecutorStart)
 */
extern bool labelheap_replicated_write(void);
extern void labelheap_replicated_row(Relation rel, Oid secid);
extern void labelheap_apply_executor_start(void);

#endif							/* LABELHEAP_REPLICATION_H */
