/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set_int.h
 *	  What label_set.c (the catalog and its writers) shares with
 *	  label_set_checks.c (the checks that use it).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_LABEL_SET_INT_H
#define LABELHEAP_LABEL_SET_INT_H

#include "utils/snapshot.h"

/* bumped by every relcache invalidation: a set loaded meanwhile is stale */
extern uint64 labelheap_set_inval_count;

/*
 * relid's set in the catalog as snapshot sees it (sorted, unique,
 * palloc'd); false if the catalog is missing.
 */
extern bool labelheap_set_catalog_load(Oid relid, Snapshot snapshot,
									   Oid **secids, int *n);

/* Delete relid's set rows (TRUNCATE, DROP). */
extern void labelheap_label_set_remove(Oid relid);

/* label_set_repair.c: delete one pair of relid's set; forget relid's */
extern void labelheap_label_set_remove_label(Oid relid, Oid secid);
extern void labelheap_label_set_forget(Oid relid);

/* label_set_counted.c: the labels a TRUNCATE removed, for the counters */
extern void labelheap_counted_keep(Oid relid);
extern void labelheap_counted_forget(Oid relid);

#endif							/* LABELHEAP_LABEL_SET_INT_H */
