/*-------------------------------------------------------------------------
 *
 * src/am/channels/analyze.c
 *	  ANALYZE's sample of a labelheap table: only rows that the statistics
 *	  subject (labelam.statistics_label) may select.
 *
 * pg_statistic and pg_statistic_ext_data are read by every role that may
 * select the column (pg_stats, pg_stats_ext), and the planner shows what
 * they hold through its estimates.  So what ANALYZE summarizes cannot
 * depend on who runs it: the sample is decided with one fixed subject, a
 * setting that only the server's configuration (or a superuser) chooses,
 * for manual ANALYZE, VACUUM ANALYZE and autovacuum alike.  Invariant: no
 * row the statistics subject may not select is ever handed to ANALYZE.
 *
 * Everything ANALYZE stores is computed from this one sample: column
 * statistics, statistics of index expressions (compute_index_stats
 * evaluates them on the sampled rows) and extended statistics
 * (BuildRelationExtStatistics), and the sample of each labelheap child of
 * an inheritance tree comes through here too.  Row counts are not values:
 * heap's callback counts every live and dead row it passes (liverows,
 * deadrows) before we drop any, so pg_class.reltuples still counts all
 * rows, as the planner needs for costing.
 *
 * ANALYZE reads with its own visibility rules (OldestXmin, no MVCC
 * snapshot), so none of filter.c's exemptions apply here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "executor/tuptable.h"

#include "am/channels/channels.h"
#include "am/tuple_label.h"
#include "avc/avc.h"

bool
labelheap_scan_analyze_next_tuple(TableScanDesc scan,
								  TransactionId OldestXmin,
								  double *liverows, double *deadrows,
								  TupleTableSlot *slot)
{
	const TableAmRoutine *heap = GetHeapamTableAmRoutine();

	while (heap->scan_analyze_next_tuple(scan, OldestXmin, liverows, deadrows,
										 slot))
	{
		HeapTuple	tuple = ((BufferHeapTupleTableSlot *) slot)->base.tuple;

		if (avc_check_tuple_for_statistics(scan->rs_rd,
										   labelheap_header_secid(tuple->t_data,
																  tuple->t_len),
										   AVC_DB_TUPLE_SELECT))
			return true;
	}
	return false;
}
