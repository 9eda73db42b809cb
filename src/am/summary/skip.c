/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip.c
 *	  Filtered scans skip the block ranges whose label summary (summary.c)
 *	  lists no label the session may select: forward sequential scans
 *	  (parallel ones too) and bitmap heap scans.
 *
 * Skipping must never change a result.  A range is skipped only when
 *  - the read is filtered (a query's MVCC scan: read mode FILTERED; strict
 *	  readers must meet hidden rows to raise their error, non-MVCC readers
 *	  see everything), and
 *  - the table has a valid label summary whose entry for the range exists,
 *	  does not say "any label", and lists no label the session may select
 *	  (the same cached decision the row filter makes for each row).
 * Every tuple a snapshot can see was placed, and its label added to the
 * summary, before the snapshot was taken, except tuples the scan's own
 * transaction writes later with an older command id (an outer INSERT
 * interleaved with a cursor opened by a function it calls).  So the
 * decision to skip a range is made afresh each time the scan reaches it,
 * within the call that would otherwise read its first block, when nothing
 * else runs in between: a tuple placed after that moment is one heap's
 * page-at-a-time scan would not have returned either, since it reads each
 * block's visible tuples when it reaches the block.  Only decisions to
 * read are remembered across calls (reading is always safe).
 *
 * Sequential scans: heap's scan_getnextslot moves to the next block by
 * itself once the current one is exhausted.  labelheap_skip_position moves
 * it first, past skippable blocks, to the next block with visible tuples,
 * and leaves heap's scan state (rs_cblock, rs_cindex, rs_inited, the
 * parallel scan's allocation, syncscan reports) exactly as heap's own
 * forward advance would have left it there; heap then returns the tuples
 * of that block.  Backward scans are heap's own, unskipped (they return
 * the same rows: a skipped block has none the session may select).
 *
 * The advance below follows heap's forward step in heapgettup_pagemode(),
 * src/backend/access/heap/heapam.c, PostgreSQL 15.18; of the supported
 * majors it is compiled against 15 only (#if PG_VERSION_NUM < 170000: 17
 * and 18 read through a read stream, skip_stream.c).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam.c
 *	  heapgettup_pagemode() 15: f0a0bdbfe87909cf, 18: none
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/relscan.h"
#include "access/syncscan.h"
#include "access/tableam.h"
#include "nodes/tidbitmap.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "am/summary/skip_range.h"
#include "am/summary/skipping.h"
#include "am/summary/summary.h"

#if PG_VERSION_NUM < 180000
/*
 * The last range found readable, by scan: reusing it is always safe (a
 * false match only means a range is read), so nothing needs resetting.
 */
static const void *readable_scan = NULL;
static Oid	readable_relid = InvalidOid;
static BlockNumber readable_range = InvalidBlockNumber;

typedef struct SkipContext
{
	Relation	rel;
	Oid			indexoid;
	Relation	index;			/* opened on first use */
	const void *scan;
	BlockNumber skip_range;		/* a range found skippable in this call */
} SkipContext;

/* May the range of heap block blk be skipped, now? */
static bool
range_skippable(SkipContext *cx, BlockNumber blk)
{
	BlockNumber range = blk / LABELSUMMARY_PAGES_PER_RANGE;

	/* decided within this call */
	if (range == cx->skip_range)
		return true;
	if (readable_scan == cx->scan && readable_range == range &&
		readable_relid == RelationGetRelid(cx->rel))
		return false;
	if (cx->index == NULL)
		cx->index = index_open(cx->indexoid, AccessShareLock);
	if (labelheap_range_unreadable(cx->rel, cx->index, blk))
	{
		cx->skip_range = range;
		return true;
	}
	readable_scan = cx->scan;
	readable_relid = RelationGetRelid(cx->rel);
	readable_range = range;
	return false;
}

static bool
skip_context(TableScanDesc sscan, SkipContext *cx)
{
	if (!labelheap_skip_ranges)
		return false;
	cx->rel = sscan->rs_rd;
	cx->indexoid = labelheap_summary_scan_index(cx->rel);
	cx->index = NULL;
	cx->scan = sscan;
	cx->skip_range = InvalidBlockNumber;
	return OidIsValid(cx->indexoid);
}

static void
skip_done(SkipContext *cx)
{
	if (cx->index != NULL)
		index_close(cx->index, NoLock);
}

/* May a filtered bitmap heap scan skip the block tbmres names? */
bool
labelheap_skip_bitmap_block(TableScanDesc sscan,
							struct TBMIterateResult *tbmres)
{
	SkipContext cx;
	bool		skip;

	if (!skip_context(sscan, &cx))
		return false;
	skip = range_skippable(&cx, tbmres->blockno);
	skip_done(&cx);
	return skip;
}

#if PG_VERSION_NUM < 170000
/*
 * labelheap_skip_position (skipping.h) found heap about to move to another
 * block: moves it to the next block that is not skipped and has tuples
 * visible to the snapshot.  false: the scan is over (heap's state says so
 * too).
 *
 * upstream heapgettup_pagemode(): its forward advance from block to block,
 * from "if (!scan->rs_inited)" on; the rest is labelam's, marked.
 */
bool
labelheap_skip_advance(TableScanDesc sscan)
{
	HeapScanDesc scan = (HeapScanDesc) sscan;
	ParallelBlockTableScanDesc pbscan =
	(ParallelBlockTableScanDesc) sscan->rs_parallel;
	SkipContext cx;
	BlockNumber page;
	bool		finished;

	/* tuples left on the current block: heap returns the next one */
	if (scan->rs_inited && scan->rs_cindex + 1 < scan->rs_ntuples)
		return true;
	/* only page-at-a-time scans without keys (all the executor makes) */
	if (!(sscan->rs_flags & SO_ALLOW_PAGEMODE) || sscan->rs_nkeys != 0)
		return true;
	if (!skip_context(sscan, &cx))
		return true;

	if (!scan->rs_inited)
	{
		if (scan->rs_nblocks == 0 || scan->rs_numblocks == 0)
		{
			skip_done(&cx);
			return true;		/* heap ends it */
		}
		if (pbscan != NULL)
		{
			table_block_parallelscan_startblock_init(sscan->rs_rd,
													 scan->rs_parallelworkerdata,
													 pbscan);
			page = table_block_parallelscan_nextpage(sscan->rs_rd,
													 scan->rs_parallelworkerdata,
													 pbscan);
			finished = (page == InvalidBlockNumber);
		}
		else
		{
			page = scan->rs_startblock;
			finished = false;
		}
	}
	else
	{
		page = scan->rs_cblock;
		goto advance;
	}

	for (;;)
	{
		if (finished)
		{
			if (BufferIsValid(scan->rs_cbuf))
				ReleaseBuffer(scan->rs_cbuf);
			scan->rs_cbuf = InvalidBuffer;
			scan->rs_cblock = InvalidBlockNumber;
			scan->rs_ctup.t_data = NULL;
			scan->rs_inited = false;
			skip_done(&cx);
			return false;
		}

		if (!range_skippable(&cx, page))
		{
			heapgetpage(sscan, page);
			TestForOldSnapshot(sscan->rs_snapshot, sscan->rs_rd,
							   BufferGetPage(scan->rs_cbuf));
			scan->rs_inited = true;
			if (scan->rs_ntuples > 0)
			{
				/* heap continues at rs_cindex + 1 */
				scan->rs_cindex = -1;
				skip_done(&cx);
				return true;
			}
		}

advance:
		if (pbscan != NULL)
		{
			page = table_block_parallelscan_nextpage(sscan->rs_rd,
													 scan->rs_parallelworkerdata,
													 pbscan);
			finished = (page == InvalidBlockNumber);
		}
		else
		{
			page++;
			if (page >= scan->rs_nblocks)
				page = 0;
			finished = (page == scan->rs_startblock) ||
				(scan->rs_numblocks != InvalidBlockNumber ? --scan->rs_numblocks == 0 : false);
			if (sscan->rs_flags & SO_ALLOW_SYNC)
				ss_report_location(sscan->rs_rd, page);
		}
	}
}
#endif							/* < 17 */
#endif							/* < 18 */
