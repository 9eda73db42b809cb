/*-------------------------------------------------------------------------
 *
 * src/am/read/ios.c
 *	  Index-only scans of labelheap relations without the visibility-map
 *	  shortcut (and, before 17, bitmap heap scans without theirs).
 *
 * An index-only scan returns index data for every TID whose heap page the
 * visibility map calls all-visible, without asking the table AM: rows the
 * session may not select would leak.  Forbidding index-only plans (clearing
 * the indexes' canreturn) would change the planner's choices far beyond
 * these scans.  Instead the plan stays as the planner made it, and when the
 * executor starts, each index-only scan of a labelheap relation is given
 * this file's access method, which is nodeIndexonlyscan.c's less the
 * visibility-map test: every TID is fetched through the table AM, which
 * filters, and the values still come from the index.  EXPLAIN ANALYZE
 * counts every such fetch as a heap fetch.
 *
 * Plan trees built outside ExecutorStart (EvalPlanQual's) never run an
 * index-only scan of a relation for fetching new rows: EvalPlanQual
 * substitutes the rows it rechecks.
 *
 * ios_next(), store_index_tuple(), ios_recheck() and ios_exec() are
 * IndexOnlyNext(), StoreIndexTuple(), IndexOnlyRecheck() and
 * ExecIndexOnlyScan() of PostgreSQL 15.18,
 * src/backend/executor/nodeIndexonlyscan.c, without the visibility-map
 * test and its predicate lock (the table AM's fetch takes heap's), with
 * comments shortened.  18.6's differ in index_beginscan()'s instrumentation
 * argument, in ScanDirectionCombine() for the same direction flip, and in
 * StoreIndexTuple() deforming a heap-format tuple with xs_hitupdesc: the
 * copies follow the first and the last in #if PG_VERSION_NUM blocks (the
 * flip is the same).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/executor/nodeIndexonlyscan.c
 *	  IndexOnlyNext() 15: ef4444130117e5f9, 18: 68484c4dff3c9a4c
 *	  StoreIndexTuple() 15: 0574646785563e16, 18: 077bf08b6405da93
 *	  IndexOnlyRecheck() 15: df152624ddfe1590, 18: df152624ddfe1590
 *	  ExecIndexOnlyScan() 15: ce1c9d3517ba4b35, 18: ce1c9d3517ba4b35
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "executor/executor.h"
#include "executor/nodeIndexonlyscan.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "pg_compat.h"


/*
 * upstream StoreIndexTuple()
 *
 * nodeIndexonlyscan.c's StoreIndexTuple, with IndexOnlyNext's choice
 * between the index AM's heap-format and index tuples: 18 deforms a heap-
 * format tuple with the descriptor the index AM formed it with
 * (xs_hitupdesc), 15 and 17 store it as it is.
 */
static void
store_index_tuple(IndexOnlyScanState *node, TupleTableSlot *slot,
				  IndexScanDesc scandesc)
{
	if (scandesc->xs_hitup)
	{
#if PG_VERSION_NUM >= 180000
		ExecClearTuple(slot);
		heap_deform_tuple(scandesc->xs_hitup, scandesc->xs_hitupdesc,
						  slot->tts_values, slot->tts_isnull);
		ExecStoreVirtualTuple(slot);
#else
		ExecForceStoreHeapTuple(scandesc->xs_hitup, slot, false);
#endif
		return;
	}
	if (scandesc->xs_itup == NULL)
		elog(ERROR, "no data returned for index-only scan");

	ExecClearTuple(slot);
	index_deform_tuple(scandesc->xs_itup, scandesc->xs_itupdesc,
					   slot->tts_values, slot->tts_isnull);

	/* name columns come back as cstrings: give them NAMEDATALEN bytes */
	if (unlikely(node->ioss_NameCStringAttNums != NULL))
	{
		for (int idx = 0; idx < node->ioss_NameCStringCount; idx++)
		{
			int			attnum = node->ioss_NameCStringAttNums[idx];
			Name		name;

			if (slot->tts_isnull[attnum])
				continue;
			name = (Name) MemoryContextAlloc(node->ss.ps.ps_ExprContext->ecxt_per_tuple_memory,
											 NAMEDATALEN);
			namestrcpy(name, DatumGetCString(slot->tts_values[attnum]));
			slot->tts_values[attnum] = NameGetDatum(name);
		}
	}
	ExecStoreVirtualTuple(slot);
}

/* upstream IndexOnlyNext() */
static TupleTableSlot *
ios_next(IndexOnlyScanState *node)
{
	EState	   *estate = node->ss.ps.state;
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	ScanDirection direction = estate->es_direction;
	IndexScanDesc scandesc;

	if (ScanDirectionIsBackward(((IndexOnlyScan *) node->ss.ps.plan)->indexorderdir))
	{
		if (ScanDirectionIsForward(direction))
			direction = BackwardScanDirection;
		else if (ScanDirectionIsBackward(direction))
			direction = ForwardScanDirection;
	}

	scandesc = node->ioss_ScanDesc;
	if (scandesc == NULL)
	{
		/* not parallel, or a parallel plan executed serially */
		scandesc = index_beginscan(node->ss.ss_currentRelation,
								   node->ioss_RelationDesc,
								   estate->es_snapshot,
#if PG_VERSION_NUM >= 180000
								   &node->ioss_Instrument,
#endif
								   node->ioss_NumScanKeys,
								   node->ioss_NumOrderByKeys);
		node->ioss_ScanDesc = scandesc;
		scandesc->xs_want_itup = true;
		node->ioss_VMBuffer = InvalidBuffer;
		if (node->ioss_NumRuntimeKeys == 0 || node->ioss_RuntimeKeysReady)
			index_rescan(scandesc,
						 node->ioss_ScanKeys, node->ioss_NumScanKeys,
						 node->ioss_OrderByKeys, node->ioss_NumOrderByKeys);
	}

	while (index_getnext_tid(scandesc, direction) != NULL)
	{
		CHECK_FOR_INTERRUPTS();

		/* always through the table AM: it decides what the session sees */
		InstrCountTuples2(node, 1);
		if (!index_fetch_heap(scandesc, node->ioss_TableSlot))
			continue;
		ExecClearTuple(node->ioss_TableSlot);
		if (scandesc->xs_heap_continue)
			elog(ERROR, "non-MVCC snapshots are not supported in index-only scans");

		store_index_tuple(node, slot, scandesc);

		if (scandesc->xs_recheck)
		{
			econtext->ecxt_scantuple = slot;
			if (!ExecQualAndReset(node->recheckqual, econtext))
			{
				InstrCountFiltered2(node, 1);
				continue;
			}
		}
		if (scandesc->numberOfOrderBys > 0 && scandesc->xs_recheckorderby)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("lossy distance functions are not supported in index-only scans")));
		return slot;
	}
	return ExecClearTuple(slot);
}

/* upstream IndexOnlyRecheck() */
static bool
ios_recheck(IndexOnlyScanState *node, TupleTableSlot *slot)
{
	elog(ERROR, "EvalPlanQual recheck is not supported in index-only scans");
	return false;				/* keep compiler quiet */
}

/* upstream ExecIndexOnlyScan() */
static TupleTableSlot *
ios_exec(PlanState *pstate)
{
	IndexOnlyScanState *node = castNode(IndexOnlyScanState, pstate);

	if (node->ioss_NumRuntimeKeys != 0 && !node->ioss_RuntimeKeysReady)
		ExecReScan((PlanState *) node);
	return ExecScan(&node->ss, (ExecScanAccessMtd) ios_next,
					(ExecScanRecheckMtd) ios_recheck);
}

static bool
replace_index_only_scans(PlanState *ps, void *context)
{
	if (ps == NULL)
		return false;
	if (IsA(ps, IndexOnlyScanState))
	{
		IndexOnlyScanState *node = (IndexOnlyScanState *) ps;
		Relation	rel = node->ss.ss_currentRelation;

		if (rel != NULL && is_labelheap_relation(rel))
			ps->ExecProcNodeReal = ios_exec;
	}
#if PG_VERSION_NUM < 170000
	/*
	 * Not an index-only scan, but the same shortcut: before 15.13 a bitmap
	 * heap scan that needs no column returns one empty tuple per bitmap
	 * entry of an all-visible page without asking the table AM, so hidden
	 * rows would be counted.  15.13 switched the shortcut off; switching it
	 * off here makes labelheap independent of the minor release.  (17 asks
	 * the table AM: labelheap_scan_begin sets SO_NEED_TUPLES there.)
	 */
	else if (IsA(ps, BitmapHeapScanState))
	{
		BitmapHeapScanState *node = (BitmapHeapScanState *) ps;
		Relation	rel = node->ss.ss_currentRelation;

		if (rel != NULL && is_labelheap_relation(rel))
			node->can_skip_fetch = false;
	}
#endif
	return planstate_tree_walker(ps, replace_index_only_scans, context);
}

/* Called by src/hooks.c after standard_ExecutorStart. */
void
labelheap_ios_executor_start(QueryDesc *queryDesc)
{
	ListCell   *lc;

	replace_index_only_scans(queryDesc->planstate, NULL);
	foreach(lc, queryDesc->estate->es_subplanstates)
		replace_index_only_scans((PlanState *) lfirst(lc), NULL);
}
