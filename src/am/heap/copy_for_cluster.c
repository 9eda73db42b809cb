/*-------------------------------------------------------------------------
 *
 * src/am/heap/copy_for_cluster.c
 *	  VACUUM FULL and CLUSTER for labelheap: heap's algorithm, with every
 *	  copied tuple formed with its label and toasted by labelheap.
 *
 * Heap's relation_copy_for_cluster re-forms each tuple with a plain header
 * (to drop values of dropped columns) and lets rewriteheap's toaster
 * rebuild tuples with out-of-line values: both lose the label.  The scan,
 * the visibility decisions (recently-dead tuples and update chains are
 * kept exactly as heap keeps them) and rewriteheap's chain bookkeeping are
 * heap's; only forming and toasting the copies is labelheap's, and they
 * are written by labelheap's copy of rewriteheap.c (rewriteheap.c), whose
 * raw_heap_insert has no toaster.  The scan
 * reads with SnapshotAny, unfiltered, but every tuple it copies must be one
 * the session may select (42501 otherwise): the copies go through the
 * sort's index expressions and into rebuilt indexes, which user code and
 * messages can show.
 *
 * labelheap_relation_copy_for_cluster() and reform_and_rewrite_tuple() are
 * heapam_relation_copy_for_cluster() and the static function of that name
 * of PostgreSQL 15.18, src/backend/access/heap/heapam_handler.c, with the
 * labelheap changes above (the copy's forming and toasting, the check of
 * every copied tuple, rewriteheap.c's labelheap_ functions) and comments
 * shortened; 18.6's differ in index_beginscan()'s arguments
 * (labelam_index_beginscan, pg_compat.h) and TupleDescCompactAttr() for
 * TupleDescAttr() (the same attisdropped).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam_handler.c
 *	  heapam_relation_copy_for_cluster()
 *		15: 7ee99382a558d72f, 18: 32a088d5873e50cb
 *	  reform_and_rewrite_tuple() 15: 3bcc88d1ad34771f, 18: 546c48a365907c10
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "catalog/catalog.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "am/ddl/ddl.h"
#include "am/heap/heap.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "am/write/toast.h"
#include "pg_compat.h"

/*
 * upstream reform_and_rewrite_tuple()
 *
 * Copy one live or recently-dead tuple into the new heap, keeping its label
 * and dropping values of dropped columns.
 */
static void
reform_and_rewrite_tuple(HeapTuple tuple,
						 Relation OldHeap, Relation NewHeap,
						 Datum *values, bool *isnull, LabelheapRewriteState rwstate)
{
	TupleDesc	newdesc = RelationGetDescr(NewHeap);
	Oid			secid = labelheap_header_secid(tuple->t_data, tuple->t_len);
	HeapTuple	copy;
	LabelheapToast *toast = NULL;
	int			i;

	heap_deform_tuple(tuple, RelationGetDescr(OldHeap), values, isnull);
	for (i = 0; i < newdesc->natts; i++)
	{
		/* labelam: TupleDescAttr, which 15 has too (the same attisdropped) */
		if (TupleDescAttr(newdesc, i)->attisdropped)
			isnull[i] = true;
	}

	copy = labelheap_form_tuple(newdesc, values, isnull, secid);
	if (labelheap_needs_toast(copy, false))
	{
		heap_freetuple(copy);
		/* with the options rewriteheap's raw_heap_insert toasts with */
		copy = labelheap_toast_tuple(NewHeap, values, isnull, NULL,
									 HEAP_INSERT_SKIP_FSM | HEAP_INSERT_NO_LOGICAL,
									 secid, &toast);
	}

	labelheap_rewrite_heap_tuple(rwstate, tuple, copy);

	if (toast != NULL)
		labelheap_toast_finish(toast, true);
	heap_freetuple(copy);
}

/* upstream heapam_relation_copy_for_cluster() */
void
labelheap_relation_copy_for_cluster(Relation OldHeap, Relation NewHeap,
									Relation OldIndex, bool use_sort,
									TransactionId OldestXmin,
									TransactionId *xid_cutoff,
									MultiXactId *multi_cutoff,
									double *num_tuples,
									double *tups_vacuumed,
									double *tups_recently_dead)
{
	LabelheapRewriteState rwstate;
	IndexScanDesc indexScan = NULL;
	TableScanDesc tableScan = NULL;
	HeapScanDesc heapScan = NULL;
	bool		is_system_catalog = IsSystemRelation(OldHeap);
	Tuplesortstate *tuplesort = NULL;
	TupleTableSlot *slot;
	/* labelam: the variables set where they are declared */
	int			natts = RelationGetDescr(NewHeap)->natts;
	Datum	   *values = palloc(natts * sizeof(Datum));
	bool	   *isnull = palloc(natts * sizeof(bool));
	BufferHeapTupleTableSlot *hslot;
	BlockNumber prev_cblock = InvalidBlockNumber;

	rwstate = labelheap_begin_heap_rewrite(OldHeap, NewHeap, OldestXmin,
										   *xid_cutoff, *multi_cutoff);

	if (use_sort)
		tuplesort = tuplesort_begin_cluster(RelationGetDescr(OldHeap), OldIndex,
											maintenance_work_mem, NULL,
											TUPLESORT_NONE);

	/* SnapshotAny plus HeapTupleSatisfiesVacuum keeps recently-dead rows */
	if (OldIndex != NULL && !use_sort)
	{
		const int	ci_index[] = {
			PROGRESS_CLUSTER_PHASE,
			PROGRESS_CLUSTER_INDEX_RELID
		};
		int64		ci_val[2];

		ci_val[0] = PROGRESS_CLUSTER_PHASE_INDEX_SCAN_HEAP;
		ci_val[1] = RelationGetRelid(OldIndex);
		pgstat_progress_update_multi_param(2, ci_index, ci_val);

		indexScan = labelam_index_beginscan(OldHeap, OldIndex, SnapshotAny, 0, 0);
		index_rescan(indexScan, NULL, 0, NULL, 0);
	}
	else
	{
		pgstat_progress_update_param(PROGRESS_CLUSTER_PHASE,
									 PROGRESS_CLUSTER_PHASE_SEQ_SCAN_HEAP);
		tableScan = table_beginscan(OldHeap, SnapshotAny, 0, (ScanKey) NULL);
		heapScan = (HeapScanDesc) tableScan;
		/* labelam: indexScan is NULL from its declaration */
		pgstat_progress_update_param(PROGRESS_CLUSTER_TOTAL_HEAP_BLKS,
									 heapScan->rs_nblocks);
	}

	slot = table_slot_create(OldHeap, NULL);
	hslot = (BufferHeapTupleTableSlot *) slot;

	for (;;)
	{
		HeapTuple	tuple;
		Buffer		buf;
		bool		isdead;

		CHECK_FOR_INTERRUPTS();

		if (indexScan != NULL)
		{
			if (!index_getnext_slot(indexScan, ForwardScanDirection, slot))
				break;
			if (indexScan->xs_recheck)
				elog(ERROR, "CLUSTER does not support lossy index conditions");
		}
		else
		{
			if (!table_scan_getnextslot(tableScan, ForwardScanDirection, slot))
			{
				pgstat_progress_update_param(PROGRESS_CLUSTER_HEAP_BLKS_SCANNED,
											 heapScan->rs_nblocks);
				break;
			}
			if (prev_cblock != heapScan->rs_cblock)
			{
				pgstat_progress_update_param(PROGRESS_CLUSTER_HEAP_BLKS_SCANNED,
											 (heapScan->rs_cblock +
											  heapScan->rs_nblocks -
											  heapScan->rs_startblock
											  ) % heapScan->rs_nblocks + 1);
				prev_cblock = heapScan->rs_cblock;
			}
		}

		tuple = ExecFetchSlotHeapTuple(slot, false, NULL);
		buf = hslot->buffer;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		switch (HeapTupleSatisfiesVacuum(tuple, OldestXmin, buf))
		{
			case HEAPTUPLE_DEAD:
				isdead = true;
				break;
			case HEAPTUPLE_RECENTLY_DEAD:
				*tups_recently_dead += 1;
				/* fall through */
			case HEAPTUPLE_LIVE:
				isdead = false;
				break;
			case HEAPTUPLE_INSERT_IN_PROGRESS:
				/* we hold AccessExclusiveLock: normally our own insert */
				if (!is_system_catalog &&
					!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)))
					elog(WARNING, "concurrent insert in progress within table \"%s\"",
						 RelationGetRelationName(OldHeap));
				isdead = false;
				break;
			case HEAPTUPLE_DELETE_IN_PROGRESS:
				if (!is_system_catalog &&
					!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetUpdateXid(tuple->t_data)))
					elog(WARNING, "concurrent delete in progress within table \"%s\"",
						 RelationGetRelationName(OldHeap));
				*tups_recently_dead += 1;
				isdead = false;
				break;
			default:
				elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
				isdead = false; /* keep compiler quiet */
				break;
		}
		LockBuffer(buf, BUFFER_LOCK_UNLOCK);

		if (isdead)
		{
			*tups_vacuumed += 1;
			/* the rewrite module still needs to see it for chain tracking */
			if (labelheap_rewrite_heap_dead_tuple(rwstate, tuple))
			{
				*tups_vacuumed += 1;
				*tups_recently_dead -= 1;
			}
			continue;
		}

		/*
		 * Copied rows reach the sort's index expressions and the rebuilt
		 * indexes: only rows the session may select (see index_scan.c).
		 */
		labelheap_require_readable(OldHeap, tuple, "rewrite");

		*num_tuples += 1;
		if (tuplesort != NULL)
		{
			tuplesort_putheaptuple(tuplesort, tuple);
			pgstat_progress_update_param(PROGRESS_CLUSTER_HEAP_TUPLES_SCANNED,
										 *num_tuples);
		}
		else
		{
			const int	ct_index[] = {
				PROGRESS_CLUSTER_HEAP_TUPLES_SCANNED,
				PROGRESS_CLUSTER_HEAP_TUPLES_WRITTEN
			};
			int64		ct_val[2];

			reform_and_rewrite_tuple(tuple, OldHeap, NewHeap,
									 values, isnull, rwstate);
			ct_val[0] = *num_tuples;
			ct_val[1] = *num_tuples;
			pgstat_progress_update_multi_param(2, ct_index, ct_val);
		}
	}

	if (indexScan != NULL)
		index_endscan(indexScan);
	if (tableScan != NULL)
		table_endscan(tableScan);
	ExecDropSingleTupleTableSlot(slot);	/* labelam: never NULL here */

	if (tuplesort != NULL)
	{
		double		n_tuples = 0;

		pgstat_progress_update_param(PROGRESS_CLUSTER_PHASE,
									 PROGRESS_CLUSTER_PHASE_SORT_TUPLES);
		tuplesort_performsort(tuplesort);
		pgstat_progress_update_param(PROGRESS_CLUSTER_PHASE,
									 PROGRESS_CLUSTER_PHASE_WRITE_NEW_HEAP);
		for (;;)
		{
			HeapTuple	tuple;

			CHECK_FOR_INTERRUPTS();
			tuple = tuplesort_getheaptuple(tuplesort, true);
			if (tuple == NULL)
				break;
			n_tuples += 1;
			reform_and_rewrite_tuple(tuple,
									 OldHeap, NewHeap,
									 values, isnull,
									 rwstate);
			pgstat_progress_update_param(PROGRESS_CLUSTER_HEAP_TUPLES_WRITTEN,
										 n_tuples);
		}
		tuplesort_end(tuplesort);
	}

	labelheap_end_heap_rewrite(rwstate);

	pfree(values);
	pfree(isnull);
}
