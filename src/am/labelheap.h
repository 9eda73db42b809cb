/*-------------------------------------------------------------------------
 *
 * src/am/labelheap.h
 *	  The labelheap table access method, as the rest of labelam sees it:
 *	  the tuple format and the few functions other subsystems use.  The
 *	  access method's own declarations are in the headers beside the files
 *	  that define them, its entry points for src/hooks.c in
 *	  labelheap_hooks.h.
 *
 * Tuple format.  A labelheap tuple is a heap tuple whose header is extended
 * the way pre-12 heap extended it for WITH OIDS: infomask bit 0x0008
 * (HEAP_HASOID_OLD, unused since PostgreSQL 12) says "has label", and 8
 * bytes between the null bitmap and the data, covered by t_hoff, hold
 *
 *		t_hoff - 8:	uint32 check value, derived from the secid
 *		t_hoff - 4:	Oid secid (t_security)
 *
 * Everything in PostgreSQL that finds the data through t_hoff (deforming,
 * JIT, visibility, pruning, vacuum, freezing, WAL redo, standbys) is
 * unaffected.  A tuple whose header lost its label (wrong t_hoff, bit
 * unset, bad check value) reads as unlabeled: never as a random Oid.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_H
#define LABELHEAP_H

#include "access/htup.h"
#include "storage/itemptr.h"
#include "storage/lockdefs.h"
#include "utils/relcache.h"

#define LABELHEAP_HAS_LABEL		0x0008	/* HEAP_HASOID_OLD in PG < 12 */
#define LABELHEAP_LABEL_SIZE	8

/* handler.c: settings (called from _PG_init); is rel a labelheap table? */
extern void labelam_am_init(void);
extern bool is_labelheap_relation(Relation rel);
/* is amoid labelheap's access method (for relations that are not open)? */
extern bool is_labelheap_am(Oid amoid);
/* forget labelheap's access method OID (pg_am changed) */
extern void labelheap_am_forget(void);
/* do rows written into rel carry labels (labelheap, or such partitions)? */
extern bool labelheap_rows_labeled(Relation rel);

/* tuple.c: the label stored in a tuple version, for labelam.row_label() */
extern Oid	labelheap_version_secid(Relation rel, ItemPointer tid,
									bool (*accept) (HeapTupleHeader tup),
									bool *present);

/* label_column.c: the declared label column */
extern Oid	labelheap_label_column_type(void);
extern AttrNumber labelheap_label_column_attnum(Relation rel);

/*
 * Restoring labels (new_label.c, see label_sql/dump.c): the setting
 * labelam.restore_labels, and the label the next row inserted by an
 * executor nested directly in the current frame gets, checked as a row
 * inserted with the session's label for new rows and then relabeled.
 */
extern bool labelheap_restore_labels;
extern void labelheap_restore_next_row(Oid secid);
extern void labelheap_restore_forget(void);

/*
 * replication/message.c, for pg_logical_emit_message's checked twin
 * (objects/functions.c): notes the writer's label before a logical message
 * is written; the prefix of labelam's own notes is refused
 */
extern void labelheap_message_before_write(const char *prefix);

/* may the session select every label rel's rows carry (its label set)? */
extern bool labelheap_selects_every_row(Relation rel);
/* raw_access.c: every label of the database's dictionary (a superset) */
extern bool labelheap_selects_every_label(LOCKMODE lockmode, bool audit);
/* counters.c: statistics counters that count hidden rows */
extern bool labelheap_counters_visible(Oid relid);
extern bool labelheap_db_counters_visible(Oid dbid);

#endif							/* LABELHEAP_H */
