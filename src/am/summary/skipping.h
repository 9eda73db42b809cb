/*-------------------------------------------------------------------------
 *
 * src/am/summary/skipping.h
 *	  Scans that skip the block ranges whose label summary lists no label
 *	  the session may select: what the scan callbacks (read/filter.c,
 *	  handler.c) call.
 *
 * Sequential scans: on 15 skip.c moves heap's scan past skippable ranges;
 * 17 and 18 read blocks through a read stream, and labelheap's
 * (skip_stream.c) leaves them out.  Bitmap heap scans: up to 17 the AM
 * declines a skippable block (skip.c); 18 iterates the bitmap inside
 * heap's read stream, and labelheap's (skip_bitmap.c) leaves them out.
 * The two streams decide ahead; skip_ahead.c keeps what they share.
 * Whether a range may be skipped is skip_range.c's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SKIPPING_H
#define LABELHEAP_SKIPPING_H

#include "access/heapam.h"
#include "access/tableam.h"

struct TBMIterateResult;

#if PG_VERSION_NUM < 170000
extern bool labelheap_skip_advance(TableScanDesc scan);
#define labelheap_skip_stream_begin(sscan) ((void) 0)
#define labelheap_skip_ahead_end(sscan) ((void) 0)
#else
extern void labelheap_skip_stream_begin(TableScanDesc sscan);
extern void labelheap_skip_stream_sync(TableScanDesc sscan, bool allowed);
/* skip_ahead.c: the end of a scan that skipped ahead (either kind) */
extern void labelheap_skip_ahead_end(TableScanDesc sscan);
#endif

/*
 * Called by every sequential scan_getnextslot before heap's; skipping: the
 * call is a filtered forward read.  false when the scan is over.  Only when
 * heap may move to another block is there work to do.
 */
static inline bool
labelheap_skip_position(TableScanDesc sscan, ScanDirection direction,
						bool skipping)
{
	HeapScanDesc scan = (HeapScanDesc) sscan;

	if (likely(ScanDirectionIsForward(direction) && scan->rs_inited &&
			   scan->rs_cindex + 1 < scan->rs_ntuples))
		return true;
#if PG_VERSION_NUM < 170000
	return !skipping || labelheap_skip_advance(sscan);
#else
	labelheap_skip_stream_sync(sscan, skipping);
	return true;
#endif
}

#if PG_VERSION_NUM < 180000
extern bool labelheap_skip_bitmap_block(TableScanDesc scan,
										struct TBMIterateResult *tbmres);
#define labelheap_skip_bitmap_begin(sscan) ((void) 0)
#define labelheap_skip_bitmap_rescan(sscan) ((void) 0)
#else
/* skip_bitmap.c: 18's bitmap heap scans, whose heap iterates the bitmap */
extern void labelheap_skip_bitmap_begin(TableScanDesc sscan);
extern void labelheap_skip_bitmap_rescan(TableScanDesc sscan);
extern void labelheap_skip_bitmap_sync(TableScanDesc sscan, bool allowed,
									   uint64 *lossy_pages,
									   uint64 *exact_pages);
extern void labelheap_skip_bitmap_ended(TableScanDesc sscan);
#endif

#endif							/* LABELHEAP_SKIPPING_H */
