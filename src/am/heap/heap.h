/*-------------------------------------------------------------------------
 *
 * src/am/heap/heap.h
 *	  PostgreSQL's heap code, copied where heap's own would toast, label or
 *	  check nothing for labelheap: the entry points of the copies in this
 *	  folder.  (heap_next.h is a copy of its own, inline.)
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_HEAP_H
#define LABELHEAP_HEAP_H

#include "access/heapam.h"
#include "access/tableam.h"

#include "pg_compat.h"

struct IndexInfo;
struct ValidateIndexState;

/* insert.c: heap_insert for tuples toasted by labelheap (no toaster) */
extern void labelheap_insert_final(Relation relation, HeapTuple tup,
								   CommandId cid, int options,
								   struct BulkInsertStateData *bistate);
extern XLogRecPtr labelheap_log_heap_new_cid(Relation relation, HeapTuple tup);

/* update.c: heap_update for new versions toasted by labelheap (no toaster) */
extern TM_Result labelheap_update_final(Relation relation, ItemPointer otid,
										HeapTuple newtup, CommandId cid,
										Snapshot crosscheck, bool wait,
										TM_FailureData *tmfd,
										LockTupleMode *lockmode,
										LabelamUpdateIndexes * update_indexes);

/* index_build.c, index_validate.c: index builds and validation, strict */
extern double labelheap_index_build_range_scan(Relation heapRelation,
											   Relation indexRelation,
											   struct IndexInfo *indexInfo,
											   bool allow_sync,
											   bool anyvisible,
											   bool progress,
											   BlockNumber start_blockno,
											   BlockNumber numblocks,
											   IndexBuildCallback callback,
											   void *callback_state,
											   TableScanDesc scan);
extern void labelheap_index_validate_scan(Relation heapRelation,
										  Relation indexRelation,
										  struct IndexInfo *indexInfo,
										  Snapshot snapshot,
										  struct ValidateIndexState *state);

/* copy_for_cluster.c: VACUUM FULL and CLUSTER */
extern void labelheap_relation_copy_for_cluster(Relation OldHeap,
												Relation NewHeap,
												Relation OldIndex,
												bool use_sort,
												TransactionId OldestXmin,
												TransactionId *xid_cutoff,
												MultiXactId *multi_cutoff,
												double *num_tuples,
												double *tups_vacuumed,
												double *tups_recently_dead);

/*
 * rewriteheap.c: rewriteheap.c's interface, writing the caller's tuples
 * without heap's toaster
 */
typedef struct LabelheapRewriteStateData *LabelheapRewriteState;

extern LabelheapRewriteState labelheap_begin_heap_rewrite(Relation old_heap,
														  Relation new_heap,
														  TransactionId oldest_xmin,
														  TransactionId freeze_xid,
														  MultiXactId cutoff_multi);
extern void labelheap_end_heap_rewrite(LabelheapRewriteState state);
extern void labelheap_rewrite_heap_tuple(LabelheapRewriteState state,
										 HeapTuple old_tuple,
										 HeapTuple new_tuple);
extern bool labelheap_rewrite_heap_dead_tuple(LabelheapRewriteState state,
											  HeapTuple old_tuple);

#endif							/* LABELHEAP_HEAP_H */
