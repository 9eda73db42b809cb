/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_stream.c
 *	  Sequential scans skip label-summary ranges on PostgreSQL 17 and 18,
 *	  whose heap reads a scan's blocks through a read stream.
 *
 * heap_beginscan gives a sequential scan a read stream whose callback
 * names the next block to read; heap consumes the stream's buffers in
 * scan_getnextslot.  A labelheap sequential scan whose table has a label
 * summary gets labelheap's stream instead: the same callback (heap's
 * serial or parallel one, below) that moves on past the blocks of ranges
 * whose summary lists no label the session may select (skip.c's
 * labelheap_range_unreadable, the row filter's cached decisions).  Heap's
 * scan state (rs_inited, rs_prefetch_block, rs_numblocks, the parallel
 * allocation, syncscan reports) is kept exactly as heap's callback keeps
 * it; heap ends, rescans and resets the stream as its own.
 *
 * What makes it safe.  The stream decides ahead of the scan (it looks
 * ahead), while skip.c's argument for 15 rests on deciding within the call
 * that would read the block.  Every tuple a snapshot can see was placed,
 * and its label added to the summary, before the snapshot was taken,
 * except tuples the scan's own transaction writes later with an older
 * command id; those are written by labelheap's writers, which count the
 * summary entries they widen (labelheap_summary_writes).  A decision also
 * depends on whether the call is a filtered forward page-at-a-time read
 * (the frame, the direction) and on the session's decisions
 * (avc_decision_epoch: new policy, mode, subject, trusted procedure).
 * Nothing of that changes inside heap's scan_getnextslot, which runs no
 * user code; so labelheap_skip_stream_sync, called by every
 * scan_getnextslot before heap's whenever heap may consult the stream,
 * compares them (the AVC's lazy revalidation done first, avc_current_epoch,
 * so that a new policy is not first noticed inside the callback) with what
 * the stream's decisions were made under and, if anything changed, resets
 * the stream to continue after the current block (as heap does when the
 * direction changes): every block consumed after a change was decided
 * after it.  Parallel scans are never reset (a reset
 * would drop blocks taken from the shared allocation); parallel mode
 * forbids writes, and a decision there follows the current key from the
 * next range on, as on 15.
 *
 * The stream is created without READ_STREAM_USE_BATCHING: the callback
 * reads summary pages, which a batching stream's callback must not.
 *
 * heap_scan_stream_read_next_serial/_parallel and heapgettup_initial_block/
 * heapgettup_advance_block below are copied from
 * src/backend/access/heap/heapam.c, PostgreSQL 18.6, and checked against
 * 18 only (15 has no read streams; no 17 source is reachable here, and
 * 17.12's heapam.h declares the same scan fields).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam.c
 *	  heap_scan_stream_read_next_serial() 15: none, 18: ca0c0c58a9587567
 *	  heap_scan_stream_read_next_parallel() 15: none, 18: 5129fdce744a5d75
 *	  heapgettup_initial_block() 15: none, 18: 055716eed9bdf9a7
 *	  heapgettup_advance_block() 15: none, 18: 8479a6bd842bd196
 *
 * Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 170000

#include "access/heapam.h"
#include "access/relscan.h"
#include "access/syncscan.h"
#include "access/tableam.h"
#include "storage/read_stream.h"
#include "utils/rel.h"

#include "am/summary/skip_ahead.h"
#include "am/summary/skip_range.h"
#include "am/summary/skipping.h"
#include "am/summary/summary.h"

/*
 * upstream heapgettup_initial_block()
 *
 * heapgettup_initial_block (heapam.c, PostgreSQL 18.6)
 */
static BlockNumber
initial_block(HeapScanDesc scan, ScanDirection dir)
{
	Assert(!scan->rs_inited);
	Assert(scan->rs_base.rs_parallel == NULL);

	/* When there are no pages to scan, return InvalidBlockNumber */
	if (scan->rs_nblocks == 0 || scan->rs_numblocks == 0)
		return InvalidBlockNumber;

	if (ScanDirectionIsForward(dir))
	{
		return scan->rs_startblock;
	}
	else
	{
		/*
		 * Disable reporting to syncscan logic in a backwards scan; it's not
		 * very likely anyone else is doing the same thing at the same time,
		 * and much more likely that we'll just bollix things for forward
		 * scanners.
		 */
		scan->rs_base.rs_flags &= ~SO_ALLOW_SYNC;

		/*
		 * Start from last page of the scan.  Ensure we take into account
		 * rs_numblocks if it's been adjusted by heap_setscanlimits().
		 */
		if (scan->rs_numblocks != InvalidBlockNumber)
			return (scan->rs_startblock + scan->rs_numblocks - 1) % scan->rs_nblocks;

		if (scan->rs_startblock > 0)
			return scan->rs_startblock - 1;

		return scan->rs_nblocks - 1;
	}
}

/*
 * upstream heapgettup_advance_block()
 *
 * heapgettup_advance_block (heapam.c, PostgreSQL 18.6)
 */
static inline BlockNumber
advance_block(HeapScanDesc scan, BlockNumber block, ScanDirection dir)
{
	Assert(scan->rs_base.rs_parallel == NULL);

	if (likely(ScanDirectionIsForward(dir)))
	{
		block++;

		/* wrap back to the start of the heap */
		if (block >= scan->rs_nblocks)
			block = 0;

		/*
		 * Report our new scan position for synchronization purposes. We don't
		 * do that when moving backwards, however. That would just mess up any
		 * other forward-moving scanners.
		 *
		 * Note: we do this before checking for end of scan so that the final
		 * state of the position hint is back at the start of the rel.  That's
		 * not strictly necessary, but otherwise when you run the same query
		 * multiple times the starting position would shift a little bit
		 * backwards on every invocation, which is confusing. We don't
		 * guarantee any specific ordering in general, though.
		 */
		if (scan->rs_base.rs_flags & SO_ALLOW_SYNC)
			ss_report_location(scan->rs_base.rs_rd, block);

		/* we're done if we're back at where we started */
		if (block == scan->rs_startblock)
			return InvalidBlockNumber;

		/* check if the limit imposed by heap_setscanlimits() is met */
		if (scan->rs_numblocks != InvalidBlockNumber)
		{
			if (--scan->rs_numblocks == 0)
				return InvalidBlockNumber;
		}

		return block;
	}
	else
	{
		/* we're done if the last block is the start position */
		if (block == scan->rs_startblock)
			return InvalidBlockNumber;

		/* check if the limit imposed by heap_setscanlimits() is met */
		if (scan->rs_numblocks != InvalidBlockNumber)
		{
			if (--scan->rs_numblocks == 0)
				return InvalidBlockNumber;
		}

		/* wrap to the end of the heap when the last page was page 0 */
		if (block == 0)
			block = scan->rs_nblocks;

		block--;

		return block;
	}
}

/*
 * upstream heap_scan_stream_read_next_serial()
 *
 * heap_scan_stream_read_next_serial (heapam.c, PostgreSQL 18.6), moving on
 * past skippable blocks.
 */
static BlockNumber
skip_stream_next_serial(ReadStream *stream, void *callback_private_data,
						void *per_buffer_data)
{
	SkipAhead  *ss = (SkipAhead *) callback_private_data;
	HeapScanDesc scan = ss->scan;

	if (unlikely(!scan->rs_inited))
	{
		scan->rs_prefetch_block = initial_block(scan, scan->rs_dir);
		scan->rs_inited = true;
	}
	else
		scan->rs_prefetch_block = advance_block(scan,
												scan->rs_prefetch_block,
												scan->rs_dir);

	/* labelam: past the ranges holding no label the session may select */
	while (ss->allowed && ScanDirectionIsForward(scan->rs_dir) &&
		   scan->rs_prefetch_block != InvalidBlockNumber &&
		   skip_ahead_skippable(ss, scan->rs_prefetch_block))
		scan->rs_prefetch_block = advance_block(scan,
												scan->rs_prefetch_block,
												scan->rs_dir);

	return scan->rs_prefetch_block;
}

/*
 * upstream heap_scan_stream_read_next_parallel()
 *
 * heap_scan_stream_read_next_parallel (heapam.c, PostgreSQL 18.6), moving
 * on past skippable blocks.
 */
static BlockNumber
skip_stream_next_parallel(ReadStream *stream, void *callback_private_data,
						  void *per_buffer_data)
{
	SkipAhead  *ss = (SkipAhead *) callback_private_data;
	HeapScanDesc scan = ss->scan;
	ParallelBlockTableScanDesc pbscan =
		(ParallelBlockTableScanDesc) scan->rs_base.rs_parallel;

	Assert(ScanDirectionIsForward(scan->rs_dir));
	Assert(scan->rs_base.rs_parallel);

	if (unlikely(!scan->rs_inited))
	{
		/* parallel scan */
		table_block_parallelscan_startblock_init(scan->rs_base.rs_rd,
												 scan->rs_parallelworkerdata,
												 pbscan);

		/* may return InvalidBlockNumber if there are no more blocks */
		scan->rs_prefetch_block =
			table_block_parallelscan_nextpage(scan->rs_base.rs_rd,
											  scan->rs_parallelworkerdata,
											  pbscan);
		scan->rs_inited = true;
	}
	else
	{
		scan->rs_prefetch_block =
			table_block_parallelscan_nextpage(scan->rs_base.rs_rd,
											  scan->rs_parallelworkerdata,
											  pbscan);
	}

	/* labelam: past the ranges holding no label the session may select */
	while (ss->allowed && scan->rs_prefetch_block != InvalidBlockNumber &&
		   skip_ahead_skippable(ss, scan->rs_prefetch_block))
		scan->rs_prefetch_block =
			table_block_parallelscan_nextpage(scan->rs_base.rs_rd,
											  scan->rs_parallelworkerdata,
											  pbscan);

	return scan->rs_prefetch_block;
}

/*
 * After heap_beginscan: a page-at-a-time sequential scan without keys of a
 * table with a label summary reads through labelheap's stream.  Until a
 * call allows skipping, that stream is heap's.
 */
void
labelheap_skip_stream_begin(TableScanDesc sscan)
{
	HeapScanDesc scan = (HeapScanDesc) sscan;
	Oid			indexoid;
	SkipAhead  *ss;

	if (!(sscan->rs_flags & SO_TYPE_SEQSCAN) ||
		!(sscan->rs_flags & SO_ALLOW_PAGEMODE) || sscan->rs_nkeys != 0 ||
		scan->rs_read_stream == NULL)
		return;
	indexoid = labelheap_summary_scan_index(sscan->rs_rd);
	if (!OidIsValid(indexoid))
		return;

	ss = skip_ahead_register(scan, indexoid, sizeof(SkipAhead));

	/* heap's stream has read nothing yet (heap_beginscan makes it last) */
	read_stream_end(scan->rs_read_stream);
	scan->rs_read_stream =
		read_stream_begin_relation(READ_STREAM_SEQUENTIAL,
								   scan->rs_strategy, sscan->rs_rd,
								   MAIN_FORKNUM,
								   sscan->rs_parallel ?
								   skip_stream_next_parallel :
								   skip_stream_next_serial,
								   ss, 0);
}

/*
 * Before heap's scan_getnextslot, whenever heap may consult the stream:
 * allowed says whether this call may skip.  If the stream's decisions were
 * made under anything else, it starts over after the current block.
 */
void
labelheap_skip_stream_sync(TableScanDesc sscan, bool allowed)
{
	HeapScanDesc scan = (HeapScanDesc) sscan;
	SkipAhead  *ss;
	uint64		epoch;

	if ((ss = skip_ahead_of(sscan, SO_TYPE_SEQSCAN)) == NULL)
		return;
	allowed = allowed && labelheap_skip_ranges &&
		(sscan->rs_flags & SO_ALLOW_PAGEMODE) && sscan->rs_nkeys == 0;
	/* a reset below could not redo heap_setscanlimits' countdown */
	allowed = allowed && scan->rs_numblocks == InvalidBlockNumber;
	if (!skip_ahead_key_changed(ss, allowed, &epoch))
		return;

	/*
	 * Blocks the stream has looked ahead to may have been skipped under the
	 * old key: drop them and continue after the current block, as
	 * heap_fetch_next_buffer does when the direction changes.  Not if
	 * nothing could have been skipped (the old key did not allow it), the
	 * scan has not started (nothing decided yet) or has ended (heap does
	 * not restart it), and never in a parallel scan (see the top of this
	 * file).
	 */
	if (ss->allowed && scan->rs_inited && sscan->rs_parallel == NULL &&
		scan->rs_cblock != InvalidBlockNumber)
	{
		scan->rs_prefetch_block = scan->rs_cblock;
		read_stream_reset(scan->rs_read_stream);
	}
	skip_ahead_rekey(ss, allowed, epoch);
}

#endif							/* 17+ */
