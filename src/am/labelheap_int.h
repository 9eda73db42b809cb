/*-------------------------------------------------------------------------
 *
 * src/am/labelheap_int.h
 *	  Declarations private to the labelheap access method (src/am): one
 *	  section per file.  Other subsystems include labelheap.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_INT_H
#define LABELHEAP_INT_H

#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/toast_helper.h"

#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/summary/summary.h"
#include "am/tuple_label.h"
#include "pg_compat.h"

struct HeapScanDescData;

/* tuple.c: the label in a tuple header */
extern HeapTuple labelheap_form_tuple(TupleDesc desc, Datum *values,
									  bool *isnull, Oid secid);
extern HeapTuple labelheap_copy_with_label(HeapTuple src, TupleDesc desc,
										   Oid secid);
extern HeapTuple labelheap_label_in_place(HeapTuple tuple, TupleDesc desc,
										   Oid secid);
extern const char *labelheap_header_problem(HeapTupleHeader tup, uint32 len);
typedef void (*LabelheapStoredFn) (HeapTupleHeader tup, uint32 len,
								   ItemPointer tid, void *arg);
extern void labelheap_walk_stored(Relation rel, LabelheapStoredFn fn,
								  void *arg);

/* frames.c: who reads, and how rows beyond the session's reach are treated */
extern PGDLLIMPORT LabelheapReadMode labelheap_current_read_mode;

/* how the innermost frame treats a row the session may not select */
static inline LabelheapReadMode
labelheap_frame_mode(void)
{
	return labelheap_current_read_mode;
}
extern uint64 labelheap_frame_id(void);
extern uint64 labelheap_frame_outer_id(void);
extern bool labelheap_frame_is_utility(NodeTag stmt);
extern LABELAM_NORETURN_BEFORE void labelheap_beyond_reach(Relation rel,
														 const char *action) LABELAM_NORETURN_AFTER;

/* refuse.c: DDL after which rows would leave labelheap */
extern bool labelheap_allow_unlabel;
extern void labelheap_refuse_init(void);

/* messages.c: what error messages may show */
extern void labelheap_note_conflict_row(Oid secid);

/*
 * new_label.c: which label a new tuple version gets (declared label column,
 * carried labels, labelam.insert_label/update_label, the policy's label),
 * its checks done
 */
typedef struct LabelheapBatchLabel
{
	Oid			secid;			/* the label of the batch's rows */
	uint32		perms;			/* what it needs */
	bool		checked;
	AttrNumber	attnum;			/* the table's label column, 0 if none */
} LabelheapBatchLabel;

extern Oid	labelheap_insert_secid(Relation rel, TupleTableSlot *slot);
extern void labelheap_batch_label_begin(Relation rel,
										LabelheapBatchLabel *batch);
extern Oid	labelheap_batch_row_secid_slow(Relation rel,
										   LabelheapBatchLabel *batch,
										   TupleTableSlot *slot);

/*
 * Label of one row of a batch, its checks done: the batch's label, checked
 * once, unless the table has a label column.
 */
static inline Oid
labelheap_batch_row_secid(Relation rel, LabelheapBatchLabel *batch,
						  TupleTableSlot *slot)
{
	if (likely(batch->attnum == 0 && batch->checked))
		return batch->secid;
	return labelheap_batch_row_secid_slow(rel, batch, slot);
}
extern Oid	labelheap_update_secid(Relation rel, Oid oldsecid,
								   TupleTableSlot *slot);
extern void labelheap_labeling_init(void);
extern void labelheap_rewrite_scan_begin(TableScanDesc scan);
extern void labelheap_rewrite_scan_end(TableScanDesc scan);
extern void labelheap_rewrite_scan_tuple(TableScanDesc scan, Oid secid);
extern void labelheap_row_moving(Relation from, Oid secid);
extern PGDLLIMPORT bool labelheap_rewrite_active LABELAM_HIDDEN;

/* toast.c: labelheap's own TOAST preparation */
typedef struct LabelheapToast
{
	ToastTupleContext ttc;
	Datum	   *values;
	bool	   *isnull;
	Datum	   *oldvalues;
	bool	   *oldisnull;
	ToastAttrInfo *attr;
	bool	   *fresh;			/* values this preparation pushed out */
} LabelheapToast;

extern bool labelheap_debug_own_write;
extern bool labelheap_needs_toast(HeapTuple newtup, bool old_has_external);
extern HeapTuple labelheap_toast_tuple(Relation rel, Datum *values,
									   bool *isnull, HeapTuple oldtup,
									   int options, Oid secid,
									   LabelheapToast **state);
extern void labelheap_toast_finish(LabelheapToast *state, bool written);


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

/* write.c: tuple-writing callbacks */
extern void labelheap_tuple_insert(Relation rel, TupleTableSlot *slot,
								   CommandId cid, int options,
								   struct BulkInsertStateData *bistate);
extern void labelheap_tuple_insert_speculative(Relation rel,
											   TupleTableSlot *slot,
											   CommandId cid, int options,
											   struct BulkInsertStateData *bistate,
											   uint32 specToken);
extern void labelheap_multi_insert(Relation rel, TupleTableSlot **slots,
								   int ntuples, CommandId cid, int options,
								   struct BulkInsertStateData *bistate);
extern TM_Result labelheap_tuple_update(Relation rel, ItemPointer otid,
										TupleTableSlot *slot, CommandId cid,
										Snapshot snapshot, Snapshot crosscheck,
										bool wait, TM_FailureData *tmfd,
										LockTupleMode *lockmode,
										LabelamUpdateIndexes * update_indexes);
extern TM_Result labelheap_tuple_delete(Relation rel, ItemPointer tid,
										CommandId cid, Snapshot snapshot,
										Snapshot crosscheck, bool wait,
										TM_FailureData *tmfd,
										bool changingPart);

/*
 * label_column.c: the declared label column, and what a labelheap
 * relation's rd_amcache holds (freed by the relcache whenever the entry is
 * rebuilt or invalidated).  The struct is reallocated when the label set is
 * loaded: never keep a pointer to it across calls that may do either.
 */
typedef struct LabelheapRelCache
{
	bool		attnum_valid;	/* attnum computed */
	AttrNumber	attnum;			/* the label column, 0 if none */
	LabelSummaryRelCache summary;	/* its label summaries (summary.c) */
	bool		set_valid;		/* secids loaded (label_set.c) */
	int			nsecids;
	Oid			secids[FLEXIBLE_ARRAY_MEMBER];	/* the label set */
} LabelheapRelCache;

extern LabelheapRelCache *labelheap_relcache(Relation rel);
extern void labelheap_relcache_set_labels(Relation rel, int nsecids,
										  const Oid *secids);
extern Oid	labelheap_label_column_take(TupleTableSlot *slot, AttrNumber attnum);

/* filter.c: rows the session may not select never reach the executor */
extern bool labelheap_scan_getnextslot(TableScanDesc scan,
									   ScanDirection direction,
									   TupleTableSlot *slot);
extern bool labelheap_scan_getnextslot_tidrange(TableScanDesc scan,
												ScanDirection direction,
												TupleTableSlot *slot);
extern bool labelheap_index_fetch_tuple(struct IndexFetchTableData *scan,
										ItemPointer tid, Snapshot snapshot,
										TupleTableSlot *slot, bool *call_again,
										bool *all_dead);
extern bool labelheap_tuple_fetch_row_version(Relation rel, ItemPointer tid,
											  Snapshot snapshot,
											  TupleTableSlot *slot);
extern TM_Result labelheap_tuple_lock(Relation rel, ItemPointer tid,
									  Snapshot snapshot, TupleTableSlot *slot,
									  CommandId cid, LockTupleMode mode,
									  LockWaitPolicy wait_policy, uint8 flags,
									  TM_FailureData *tmfd);
#if PG_VERSION_NUM < 180000
extern bool labelheap_scan_bitmap_next_block(TableScanDesc scan,
											 struct TBMIterateResult *tbmres);
extern bool labelheap_scan_bitmap_next_tuple(TableScanDesc scan,
											 struct TBMIterateResult *tbmres,
											 TupleTableSlot *slot);
#else
extern bool labelheap_scan_bitmap_next_tuple(TableScanDesc scan,
											 TupleTableSlot *slot,
											 bool *recheck,
											 uint64 *lossy_pages,
											 uint64 *exact_pages);
#endif
extern bool labelheap_scan_sample_next_tuple(TableScanDesc scan,
											 struct SampleScanState *scanstate,
											 TupleTableSlot *slot);

/* analyze.c: ANALYZE samples rows the statistics label may select */
extern bool labelheap_scan_analyze_next_tuple(TableScanDesc scan,
											  TransactionId OldestXmin,
											  double *liverows,
											  double *deadrows,
											  TupleTableSlot *slot);

/* label_set.c: checks of whole-table operations (see label_set.h) */
extern void labelheap_relation_set_new_filenode(Relation rel,
												const LabelamRelFileId *newrnode,
												char persistence,
												TransactionId *freezeXid,
												MultiXactId *minmulti);
extern void labelheap_relation_nontransactional_truncate(Relation rel);
extern bool labelheap_label_set_contents(Relation rel, Oid **secids, int *n);

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

/* index_scan.c: what they share */
extern void labelheap_require_readable(Relation rel, HeapTuple tuple,
									   const char *action);
extern HeapTuple labelheap_build_getnext(TableScanDesc scan,
										 TupleTableSlot *scratch);
extern BlockNumber labelheap_build_blocks_done(struct HeapScanDescData *hscan);

/* rewrite.c: VACUUM FULL and CLUSTER */
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

/* handler.c */
extern const TableAmRoutine *labelheap_routine(void);

#endif							/* LABELHEAP_INT_H */
