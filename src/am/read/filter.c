/*-------------------------------------------------------------------------
 *
 * src/am/read/filter.c
 *	  Row filtering: every labelheap callback that hands a tuple to the
 *	  executor under an MVCC snapshot drops the tuples the session may not
 *	  select, before the executor sees them.
 *
 * How a row the session may not select is treated depends on who reads
 * (frames.c): skipped for queries and COPY TO, an ERROR for the scans
 * utility commands and referential actions make, returned only to
 * referential-integrity checks.  Non-MVCC access (unique checks and ON
 * CONFLICT arbiters with SnapshotDirty, trigger fetches with SnapshotAny)
 * is never filtered: integrity needs every tuple, and those tuples reach
 * no user code.  That uniqueness reveals a hidden row's existence is the
 * covert channel SE-PostgreSQL and RLS also accept.
 * RI_Initial_Check, which validates a new foreign key with one query run as
 * the current user, is steered to the row-by-row check (see
 * labelheap_ri_check_perms).
 *
 * Row locks on a row the session may not select are refused, unless they
 * follow an update chain from a row it could select (EvalPlanQual), where
 * the hidden newest version behaves as deleted: ON CONFLICT DO UPDATE
 * meeting a hidden conflicting row fails at once instead of retrying.
 *
 * Filtered sequential and bitmap heap scans skip block ranges whose label
 * summary lists no label the session may select (skip.c; on 17 and 18
 * skip_stream.c, bitmap heap scans on 18 skip_bitmap.c); filtered forward
 * sequential scans decide a page's rows when heap reads it, and return
 * those of a range whose summary lists only labels the session may select
 * without reading their labels (page_decisions.c).
 *
 * Index-only scans would answer from the index and the visibility map
 * without asking the AM: ios.c makes them ask.  Bitmap heap scans always
 * fetch tuples in PostgreSQL >= 15.13.  ANALYZE's sample is not the
 * session's to filter: see analyze.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "storage/bufmgr.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "catalog/pg_class.h"
#include "commands/defrem.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/snapmgr.h"

#include "am/channels/channels.h"
#include "am/heap/heap_next.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/read/filter.h"
#include "am/read/frames.h"
#include "am/read/page_decisions.h"
#include "am/summary/skipping.h"
#include "am/tuple_label.h"
#include "am/write/new_label.h"
#include "avc/avc.h"


/* How are rows read with this snapshot, here and now, treated? */
static inline LabelheapReadMode
read_mode(Snapshot snapshot)
{
	if (snapshot == NULL || !IsMVCCSnapshot(snapshot))
		return READ_UNFILTERED;
	return labelheap_frame_mode();
}

static inline Oid
slot_secid(TupleTableSlot *slot)
{
	HeapTuple	tuple = ((BufferHeapTupleTableSlot *) slot)->base.tuple;

	return labelheap_header_secid(tuple->t_data, tuple->t_len);
}

static inline bool
slot_readable(Relation rel, TupleTableSlot *slot)
{
	return avc_check_tuple(rel, slot_secid(slot), AVC_DB_TUPLE_SELECT);
}

/*
 * May the slot's tuple go to the caller?  A strict read of a row the
 * session may not select fails here, before anything sees the row.
 */
static inline bool
slot_passes(Relation rel, TupleTableSlot *slot, LabelheapReadMode mode)
{
	if (mode == READ_UNFILTERED || slot_readable(rel, slot))
		return true;
	if (mode == READ_STRICT)
		labelheap_beyond_reach(rel, NULL);
	return false;
}

/* the row heap just returned goes to the caller: what else it needs */
static inline bool
scan_row_found(TableScanDesc scan, TupleTableSlot *slot)
{
	/* ALTER TABLE's rewrite carries labels, see new_label.c */
	if (unlikely(labelheap_rewrite_active))
		labelheap_rewrite_scan_tuple(scan, slot_secid(slot));
	return true;
}

/* page_decisions.c decided the row heap just returned: audit it, hand it out? */
static inline bool
page_row_passes(PageDecisions *pd, HeapScanDesc hscan)
{
	int			i = hscan->rs_cindex;

	if (unlikely(pd->flags[i] & PAGE_ROW_AUDITED))
		labelheap_page_audit_rows(pd, hscan, i, i + 1);
	return (pd->flags[i] & PAGE_ROW_READABLE) != 0;
}

/*
 * labelheap_page_next found a readable row, next, after the current one:
 * it is returned from this page, as heap would (heap_next.h).
 */
static pg_attribute_always_inline bool
page_row_next(TableScanDesc scan, TupleTableSlot *slot, PageDecisions *pd,
			  int next)
{
	HeapScanDesc hscan = (HeapScanDesc) scan;

	labelheap_heap_next_on_page(hscan, next, slot);
	if (!page_row_passes(pd, hscan))
		elog(ERROR, "labelheap returned a row not decided readable");
	return scan_row_found(scan, slot);
}

/*
 * scan_getnextslot when the current page's decisions do not decide the
 * next row: reads on (or backward), deciding each page heap reads.
 */
static pg_noinline bool
scan_getnextslot_slow(TableScanDesc scan, ScanDirection direction,
					  TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	HeapScanDesc hscan = (HeapScanDesc) scan;
	LabelheapReadMode mode = read_mode(scan->rs_snapshot);
	bool		skipping = mode == READ_FILTERED &&
		ScanDirectionIsForward(direction);
	bool		by_page = skipping && labelheap_page_decisions &&
		(scan->rs_flags & SO_ALLOW_PAGEMODE) && scan->rs_nkeys == 0;

	if (!ScanDirectionIsForward(direction))
		labelheap_page_forget(hscan);
	for (;;)
	{
		/* skip.c moves the scan past ranges holding no readable label */
		if (!labelheap_skip_position(scan, direction, skipping))
		{
			ExecClearTuple(slot);
			return false;
		}
		if (!heap->scan_getnextslot(scan, direction, slot))
			return false;
		if (by_page && hscan->rs_cindex == 0)
		{
			/* heap returns index 0 right after it read a page, and then only */
			PageDecisions *pd = labelheap_page_decide(hscan);

			if (pd != NULL)
			{
				int			next;

				if (page_row_passes(pd, hscan))
					return scan_row_found(scan, slot);
				/* pass over the page's hidden rows; read on, or the next page */
				next = labelheap_page_pass_hidden(pd, hscan);
				if (next < pd->ntuples)
					return page_row_next(scan, slot, pd, next);
				continue;
			}
		}
		if (slot_passes(scan->rs_rd, slot, mode))
			return scan_row_found(scan, slot);
	}
}

/*
 * scan_getnextslot when the next row is not one heap can simply return:
 * from the current page's decisions if they hold, else reading on.
 */
static pg_noinline bool
scan_getnextslot_page(TableScanDesc scan, ScanDirection direction,
					  TupleTableSlot *slot)
{
	HeapScanDesc hscan = (HeapScanDesc) scan;
	PageDecisions *pd;
	int			next;

	/*
	 * The current page's rows were decided when heap read it, and one to
	 * hand out is left: it is returned next, from this page.
	 */
	if (likely(ScanDirectionIsForward(direction)) &&
		(pd = labelheap_page_find(hscan)) != NULL &&
		(next = labelheap_page_next(pd, hscan)) < pd->ntuples)
		return page_row_next(scan, slot, pd, next);
	return scan_getnextslot_slow(scan, direction, slot);
}

/*
 * The fast path's row out, a function of its own so that the checks before
 * it need no stack frame (both ways out are tail calls).
 */
static pg_noinline bool
page_row_out(HeapScanDesc hscan, int next, TupleTableSlot *slot)
{
	labelheap_heap_next_on_page(hscan, next, slot);
	return true;
}

bool
labelheap_scan_getnextslot(TableScanDesc scan, ScanDirection direction,
						   TupleTableSlot *slot)
{
	HeapScanDesc hscan = (HeapScanDesc) scan;
	PageDecisions *pd = labelheap_page_last;
	int			next = hscan->rs_cindex + 1;

	/*
	 * The most common row of a filtered scan: the next row on the page heap
	 * is on, decided readable (and not audited) when heap read the page.  It
	 * goes out as heap would return it, without a call into heap.
	 */
	if (likely(ScanDirectionIsForward(direction)) &&
		likely(labelheap_page_current(pd, hscan)) &&
		likely(next < pd->ntuples) &&
		likely((pd->flags[next] & (PAGE_ROW_READABLE | PAGE_ROW_AUDITED)) ==
			   PAGE_ROW_READABLE) &&
		likely(!labelheap_rewrite_active))
		return page_row_out(hscan, next, slot);
	return scan_getnextslot_page(scan, direction, slot);
}

bool
labelheap_scan_getnextslot_tidrange(TableScanDesc scan,
									ScanDirection direction,
									TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	LabelheapReadMode mode = read_mode(scan->rs_snapshot);

	while (heap->scan_getnextslot_tidrange(scan, direction, slot))
	{
		if (slot_passes(scan->rs_rd, slot, mode))
			return true;
	}
	return false;
}

bool
labelheap_index_fetch_tuple(struct IndexFetchTableData *scan,
							ItemPointer tid, Snapshot snapshot,
							TupleTableSlot *slot, bool *call_again,
							bool *all_dead)
{
	if (!GetHeapamTableAmRoutine()->index_fetch_tuple(scan, tid, snapshot, slot,
													  call_again, all_dead))
		return false;
	/* an MVCC snapshot sees one version of a HOT chain: no call_again */
	if (!slot_passes(scan->rel, slot, read_mode(snapshot)))
	{
		ExecClearTuple(slot);
		return false;
	}
	/* what an exclusion constraint's conflict message may show */
	if (snapshot->snapshot_type == SNAPSHOT_DIRTY)
		labelheap_note_conflict_row(slot_secid(slot));
	return true;
}

bool
labelheap_tuple_fetch_row_version(Relation rel, ItemPointer tid,
								  Snapshot snapshot, TupleTableSlot *slot)
{
	if (!GetHeapamTableAmRoutine()->tuple_fetch_row_version(rel, tid, snapshot,
															slot))
		return false;
	if (!slot_passes(rel, slot, read_mode(snapshot)))
	{
		ExecClearTuple(slot);
		return false;
	}
	return true;
}

/*
 * Is the tuple version at tid one the session may not select?  (No version
 * there at all is for heap's tuple_lock to report.)
 */
static bool
stored_version_hidden(Relation rel, ItemPointer tid)
{
	bool		present;
	Oid			secid = labelheap_version_secid(rel, tid, NULL, &present);

	return present && !avc_check_tuple(rel, secid, AVC_DB_TUPLE_SELECT);
}

/*
 * Row locks follow the update chain to the newest version (EvalPlanQual);
 * a newest version the session may not select behaves as deleted, or is
 * an error for strict readers.  The lock stays taken, as it would on a row
 * that is then deleted.
 *
 * The version at tid itself must be one the session may select: filtered
 * scans hand out no others, so a hidden one comes from a non-MVCC lookup,
 * i.e. ON CONFLICT DO UPDATE's arbiter.  Locking it would wait for its
 * lockers and then report it as deleted, and the executor would retry the
 * insertion forever; it is refused before anything is locked.
 */
TM_Result
labelheap_tuple_lock(Relation rel, ItemPointer tid, Snapshot snapshot,
					 TupleTableSlot *slot, CommandId cid, LockTupleMode mode,
					 LockWaitPolicy wait_policy, uint8 flags,
					 TM_FailureData *tmfd)
{
	LabelheapReadMode rmode = read_mode(snapshot);
	TM_Result	result;

	if (rmode != READ_UNFILTERED && stored_version_hidden(rel, tid))
	{
		if (rmode == READ_STRICT)
			labelheap_beyond_reach(rel, NULL);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to update a conflicting row of relation \"%s\"",
						RelationGetRelationName(rel)),
				 errdetail("The conflicting row is beyond the reach of the session's security label.")));
	}
	result = GetHeapamTableAmRoutine()->tuple_lock(rel, tid, snapshot, slot,
												   cid, mode, wait_policy,
												   flags, tmfd);
	if (result == TM_Ok && !slot_passes(rel, slot, rmode))
	{
		tmfd->ctid = slot->tts_tid;
		tmfd->xmax = InvalidTransactionId;
		tmfd->cmax = InvalidCommandId;
		ExecClearTuple(slot);
		return TM_Deleted;
	}
	return result;
}

#if PG_VERSION_NUM < 180000
/* a block in a range holding no label the session may select is skipped */
bool
labelheap_scan_bitmap_next_block(TableScanDesc scan,
								 struct TBMIterateResult *tbmres)
{
	if (read_mode(scan->rs_snapshot) == READ_FILTERED &&
		labelheap_skip_bitmap_block(scan, tbmres))
		return false;
	return GetHeapamTableAmRoutine()->scan_bitmap_next_block(scan, tbmres);
}

bool
labelheap_scan_bitmap_next_tuple(TableScanDesc scan,
								 struct TBMIterateResult *tbmres,
								 TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	LabelheapReadMode mode = read_mode(scan->rs_snapshot);

	while (heap->scan_bitmap_next_tuple(scan, tbmres, slot))
	{
		if (slot_passes(scan->rs_rd, slot, mode))
			return true;
	}
	return false;
}
#else
/*
 * 18: heap iterates the bitmap itself, through a read stream, which
 * skip_bitmap.c gives the scan and which skips blocks in ranges holding no
 * label the session may select; every tuple is filtered.
 */
bool
labelheap_scan_bitmap_next_tuple(TableScanDesc scan, TupleTableSlot *slot,
								 bool *recheck, uint64 *lossy_pages,
								 uint64 *exact_pages)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	HeapScanDesc hscan = (HeapScanDesc) scan;
	LabelheapReadMode mode = read_mode(scan->rs_snapshot);

	for (;;)
	{
		/* heap moves to its stream's next block: decisions ahead still hold? */
		if (hscan->rs_cindex >= hscan->rs_ntuples)
			labelheap_skip_bitmap_sync(scan, mode == READ_FILTERED,
									   lossy_pages, exact_pages);
		if (!heap->scan_bitmap_next_tuple(scan, slot, recheck, lossy_pages,
										  exact_pages))
		{
			labelheap_skip_bitmap_ended(scan);
			return false;
		}
		if (slot_passes(scan->rs_rd, slot, mode))
			return true;
	}
}
#endif

bool
labelheap_scan_sample_next_tuple(TableScanDesc scan,
								 struct SampleScanState *scanstate,
								 TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	LabelheapReadMode mode = read_mode(scan->rs_snapshot);

	while (heap->scan_sample_next_tuple(scan, scanstate, slot))
	{
		if (slot_passes(scan->rs_rd, slot, mode))
			return true;
	}
	return false;
}

static bool
relid_is_labelheap(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	bool		result = false;

	if (HeapTupleIsValid(tuple))
	{
		result = is_labelheap_am(((Form_pg_class) GETSTRUCT(tuple))->relam);
		ReleaseSysCache(tuple);
	}
	return result;
}

/*
 * RI_Initial_Check validates a new foreign key with a single query run as
 * the current user, which would be filtered; it asks first whether that
 * user may run it (the only caller of ExecCheckRTPerms that does not want
 * an error).  Saying no for labelheap relations makes it fall back to the
 * row-by-row check, which runs with SECURITY_NOFORCE_RLS, unfiltered.
 */
bool
labelheap_ri_check_perms(List *rangeTable, bool ereport_on_violation)
{
	if (!ereport_on_violation)
	{
		ListCell   *lc;

		foreach(lc, rangeTable)
		{
			RangeTblEntry *rte = lfirst(lc);

			if (rte->rtekind == RTE_RELATION && relid_is_labelheap(rte->relid))
				return false;
		}
	}
	return true;
}
