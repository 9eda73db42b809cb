/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set.h
 *	  The label set of a labelheap relation: every label that any of its
 *	  tuples carries (a superset is allowed), kept in labelam.table_labels
 *	  by the writers, so that operations that destroy rows without reading
 *	  them (TRUNCATE, DROP TABLE, DROP COLUMN) can be checked against every
 *	  label the relation holds.
 *
 * Invariant: a tuple version with label L in relation R is never visible
 * to anyone (committed, or written by the current transaction) unless a
 * row (R, L) of labelam.table_labels is too.  Writers call
 * labelheap_label_set_note() for each new tuple version, in their own
 * transaction, so that the tuple and the set row commit or abort together.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_LABEL_SET_H
#define LABELHEAP_LABEL_SET_H

#include "utils/rel.h"

#include "pg_compat.h"

/*
 * Writers: rel is about to hold a tuple labeled secid.  Inline, since it
 * runs for every row written: the last pair noted needs no more.
 */
typedef struct LabelheapLastPair
{
	Oid			relid;			/* InvalidOid: none */
	Oid			secid;
} LabelheapLastPair;

extern PGDLLIMPORT LabelheapLastPair labelheap_label_set_last;
extern void labelheap_label_set_note_slow(Relation rel, Oid secid);

static inline void
labelheap_label_set_note(Relation rel, Oid secid)
{
	if (likely(labelheap_label_set_last.secid == secid &&
			   labelheap_label_set_last.relid == RelationGetRelid(rel)))
		return;
	labelheap_label_set_note_slow(rel, secid);
}

/*
 * Does the session hold all of perms (AVC_DB_TUPLE_* bits) on every label
 * of rel's set?  Records no audit lines.  True for relations other than
 * labelheap tables (a partitioned table's rows are in its leaves).  The caller should hold a lock
 * that keeps writers out (AccessExclusiveLock), or the answer may be stale
 * by the time it is used.
 */
extern bool labelheap_label_set_allowed(Relation rel, uint32 perms);
/* the same, with the labels of writers in progress (no lock needed) */
extern bool labelheap_label_set_allowed_now(Relation rel, uint32 perms);
/* every label relid held before a TRUNCATE (label_set_counted.c) */
extern bool labelheap_counted_allowed(Oid relid);

/*
 * ERROR 42501 "permission denied to <action> relation" unless
 * labelheap_label_set_allowed(rel, perms); the denial is audited.
 */
extern void labelheap_label_set_require(Relation rel, uint32 perms,
										const char *action);

/*
 * The callbacks that destroy storage without reading it (label_set_checks.c),
 * which handler.c installs, and the set's contents (for verify.c)
 */
extern void labelheap_relation_set_new_filenode(Relation rel,
												const LabelamRelFileId *newrnode,
												char persistence,
												TransactionId *freezeXid,
												MultiXactId *minmulti);
extern void labelheap_relation_nontransactional_truncate(Relation rel);
extern bool labelheap_label_set_contents(Relation rel, Oid **secids, int *n);

#endif							/* LABELHEAP_LABEL_SET_H */
