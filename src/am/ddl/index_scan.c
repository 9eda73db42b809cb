/*-------------------------------------------------------------------------
 *
 * src/am/ddl/index_scan.c
 *	  What labelheap's copies of heap's index build scans (index_build.c,
 *	  index_validate.c) share: reading without heap_getnext()'s check that
 *	  the relation is heap's, progress, and the strict check on every row
 *	  they index (also used by copy_for_cluster.c for CLUSTER and VACUUM FULL).
 *
 * labelheap_build_blocks_done() is heapam_scan_get_blocks_done() of
 * PostgreSQL 15.18, src/backend/access/heap/heapam_handler.c (the same in
 * 18.6), renamed.
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam_handler.c
 *	  heapam_scan_get_blocks_done() 15: b08cb72ad3a5e1b7, 18: b08cb72ad3a5e1b7
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "utils/rel.h"

#include "am/ddl/ddl.h"
#include "am/read/frames.h"
#include "am/tuple_label.h"
#include "avc/avc.h"

/*
 * The row is about to reach user code or storage that shows it: it must be
 * one the session may select.
 */
void
labelheap_require_readable(Relation rel, HeapTuple tuple, const char *action)
{
	if (!avc_check_tuple(rel,
						 labelheap_header_secid(tuple->t_data, tuple->t_len),
						 AVC_DB_TUPLE_SELECT))
		labelheap_beyond_reach(rel, action);
}

/* heap_getnext() without its check that the relation is heap's */
HeapTuple
labelheap_build_getnext(TableScanDesc scan, TupleTableSlot *scratch)
{
	if (!heap_getnextslot(scan, ForwardScanDirection, scratch))
		return NULL;
	return &((HeapScanDesc) scan)->rs_ctup;
}

/*
 * upstream heapam_scan_get_blocks_done()
 *
 * Return the number of blocks that have been read by this scan since
 * starting.  This is meant for progress reporting rather than be fully
 * accurate: in a parallel scan, workers can be concurrently reading blocks
 * further ahead than what we report.
 */
BlockNumber
labelheap_build_blocks_done(HeapScanDesc hscan)
{
	ParallelBlockTableScanDesc bpscan = NULL;
	BlockNumber startblock;
	BlockNumber blocks_done;

	if (hscan->rs_base.rs_parallel != NULL)
	{
		bpscan = (ParallelBlockTableScanDesc) hscan->rs_base.rs_parallel;
		startblock = bpscan->phs_startblock;
	}
	else
		startblock = hscan->rs_startblock;

	/*
	 * Might have wrapped around the end of the relation, if startblock was
	 * not zero.
	 */
	if (hscan->rs_cblock > startblock)
		blocks_done = hscan->rs_cblock - startblock;
	else
	{
		BlockNumber nblocks;

		nblocks = bpscan != NULL ? bpscan->phs_nblocks : hscan->rs_nblocks;
		blocks_done = nblocks - startblock +
			hscan->rs_cblock;
	}

	return blocks_done;
}
