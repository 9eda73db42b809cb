/*-------------------------------------------------------------------------
 *
 * src/am/read/filter.h
 *	  The table access method callbacks through which rows reach the
 *	  executor, filtered (filter.c); handler.c installs them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_FILTER_H
#define LABELHEAP_FILTER_H

#include "access/tableam.h"

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

#endif							/* LABELHEAP_FILTER_H */
