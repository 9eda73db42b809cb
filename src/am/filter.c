/*-------------------------------------------------------------------------
 *
 * filter.c
 *	  Row filtering: every labelheap callback that hands a tuple to the
 *	  executor under an MVCC snapshot drops the tuples the session may not
 *	  select, before the executor sees them.
 *
 * Only MVCC reads are filtered.  Non-MVCC access (unique checks and ON
 * CONFLICT arbiters with SnapshotDirty, triggers and VACUUM FULL with
 * SnapshotAny, index builds, which run as heap) must see every tuple, or
 * integrity would suffer: that uniqueness reveals a hidden row's existence
 * is the covert channel SE-PostgreSQL and RLS also accept.  Two MVCC
 * contexts are integrity checks too and read unfiltered:
 *	- referential-integrity queries, which PostgreSQL runs with
 *	  SECURITY_NOFORCE_RLS (they bypass row-level security the same way);
 *	- the scans ALTER TABLE itself makes (rewrites, constraint validation),
 *	  recognized as scans begun while ALTER TABLE runs and no executor does:
 *	  a query run by a function that ALTER TABLE evaluates (say, in a
 *	  volatile default) runs in an executor and is filtered.
 * RI_Initial_Check, which validates a new foreign key with one query of
 * its own, is steered to the row-by-row check (see filter_check_perms).
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
#include "executor/executor.h"
#include "miscadmin.h"
#include "catalog/pg_class.h"
#include "commands/defrem.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/snapmgr.h"

#include "am/labelheap.h"
#include "avc/avc.h"

static int	executor_depth = 0;

static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorCheckPerms_hook_type prev_ExecutorCheckPerms = NULL;

/* Are rows read with this snapshot, here and now, filtered? */
static inline bool
filtered(Snapshot snapshot)
{
	if (snapshot == NULL || !IsMVCCSnapshot(snapshot))
		return false;
	if (InNoForceRLSOperation())
		return false;
	if (labelheap_in_alter_table() && executor_depth == 0)
		return false;
	return true;
}

static inline bool
slot_readable(Relation rel, TupleTableSlot *slot)
{
	HeapTuple	tuple = ((BufferHeapTupleTableSlot *) slot)->base.tuple;

	return avc_check_tuple(rel,
						   labelheap_header_secid(tuple->t_data, tuple->t_len),
						   AVC_DB_TUPLE_SELECT);
}

bool
labelheap_scan_getnextslot(TableScanDesc scan, ScanDirection direction,
						   TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	bool		filter = filtered(scan->rs_snapshot);

	while (heap->scan_getnextslot(scan, direction, slot))
	{
		/* ALTER TABLE's rewrite source is read whole, see labeling.c */
		if (unlikely(labelheap_rewrite_active) &&
			labelheap_rewrite_scan_tuple(scan, slot))
			return true;
		if (!filter || slot_readable(scan->rs_rd, slot))
			return true;
	}
	return false;
}

bool
labelheap_scan_getnextslot_tidrange(TableScanDesc scan,
									ScanDirection direction,
									TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	bool		filter = filtered(scan->rs_snapshot);

	while (heap->scan_getnextslot_tidrange(scan, direction, slot))
	{
		if (!filter || slot_readable(scan->rs_rd, slot))
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
	if (filtered(snapshot) && !slot_readable(scan->rel, slot))
	{
		ExecClearTuple(slot);
		return false;
	}
	return true;
}

bool
labelheap_tuple_fetch_row_version(Relation rel, ItemPointer tid,
								  Snapshot snapshot, TupleTableSlot *slot)
{
	if (!GetHeapamTableAmRoutine()->tuple_fetch_row_version(rel, tid, snapshot,
															slot))
		return false;
	if (filtered(snapshot) && !slot_readable(rel, slot))
	{
		ExecClearTuple(slot);
		return false;
	}
	return true;
}

/*
 * Row locks follow the update chain to the newest version (EvalPlanQual);
 * a newest version the session may not select behaves as deleted.  The
 * lock stays taken, as it would on a row that is then deleted.
 */
TM_Result
labelheap_tuple_lock(Relation rel, ItemPointer tid, Snapshot snapshot,
					 TupleTableSlot *slot, CommandId cid, LockTupleMode mode,
					 LockWaitPolicy wait_policy, uint8 flags,
					 TM_FailureData *tmfd)
{
	TM_Result	result;

	result = GetHeapamTableAmRoutine()->tuple_lock(rel, tid, snapshot, slot,
												   cid, mode, wait_policy,
												   flags, tmfd);
	if (result == TM_Ok && filtered(snapshot) && !slot_readable(rel, slot))
	{
		tmfd->ctid = slot->tts_tid;
		tmfd->xmax = InvalidTransactionId;
		tmfd->cmax = InvalidCommandId;
		ExecClearTuple(slot);
		return TM_Deleted;
	}
	return result;
}

bool
labelheap_scan_bitmap_next_tuple(TableScanDesc scan,
								 struct TBMIterateResult *tbmres,
								 TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	bool		filter = filtered(scan->rs_snapshot);

	while (heap->scan_bitmap_next_tuple(scan, tbmres, slot))
	{
		if (!filter || slot_readable(scan->rs_rd, slot))
			return true;
	}
	return false;
}

bool
labelheap_scan_sample_next_tuple(TableScanDesc scan,
								 struct SampleScanState *scanstate,
								 TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();
	bool		filter = filtered(scan->rs_snapshot);

	while (heap->scan_sample_next_tuple(scan, scanstate, slot))
	{
		if (!filter || slot_readable(scan->rs_rd, slot))
			return true;
	}
	return false;
}

static void
filter_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction,
				   uint64 count, bool execute_once)
{
	executor_depth++;
	PG_TRY();
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		executor_depth--;
	}
	PG_END_TRY();
}

static bool
relid_is_labelheap(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	bool		result = false;

	if (HeapTupleIsValid(tuple))
	{
		Oid			relam = ((Form_pg_class) GETSTRUCT(tuple))->relam;
		char	   *amname = OidIsValid(relam) ? get_am_name(relam) : NULL;

		result = amname != NULL && strcmp(amname, "labelheap") == 0;
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
static bool
filter_check_perms(List *rangeTable, bool ereport_on_violation)
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
	if (prev_ExecutorCheckPerms)
		return prev_ExecutorCheckPerms(rangeTable, ereport_on_violation);
	return true;
}

void
labelheap_filter_init(void)
{
	prev_ExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = filter_ExecutorRun;
	prev_ExecutorCheckPerms = ExecutorCheckPerms_hook;
	ExecutorCheckPerms_hook = filter_check_perms;
}
