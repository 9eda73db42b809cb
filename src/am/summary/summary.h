/*-------------------------------------------------------------------------
 *
 * src/am/summary/summary.h
 *	  Label summaries: for each range of a labelheap table's blocks, the
 *	  labels its tuples carry (summary.c keeps them, skip.c uses them).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SUMMARY_H
#define LABELHEAP_SUMMARY_H

#include "access/heapam.h"
#include "access/tableam.h"
#include "utils/relcache.h"

struct TBMIterateResult;

/* heap blocks a summary entry covers */
#define LABELSUMMARY_PAGES_PER_RANGE	8

/* labels an entry lists before it says "any label" */
#define LABELSUMMARY_SLOTS		3

/* nlabels of an entry whose range may hold any label */
#define LABELSUMMARY_ANY		0xFFFF

typedef struct LabelSummaryEntry
{
	uint16		nlabels;		/* used slots, or LABELSUMMARY_ANY */
	uint16		unused;
	Oid			secids[LABELSUMMARY_SLOTS];
} LabelSummaryEntry;

/* label summary indexes of one table a writer keeps (at most) */
#define LABELSUMMARY_MAX_INDEXES	4

/* what a table's relcache entry caches about its summaries (in rd_amcache) */
typedef struct LabelSummaryRelCache
{
	bool		valid;			/* computed */
	int			nindexes;		/* label summary indexes, ready or not */
	Oid			indexes[LABELSUMMARY_MAX_INDEXES];
	Oid			scan_index;		/* a valid one for scans, or InvalidOid */
	/* the writer's last range: labels known to be in its entry */
	Oid			last_index;
	BlockNumber last_range;
	LabelSummaryEntry last_entry;
} LabelSummaryRelCache;

/* summary.c: storage, the index access method, writers */
extern void labelheap_summary_note(Relation rel, BlockNumber blk, Oid secid);
extern void labelheap_summary_note_batch(Relation rel,
										 TupleTableSlot **slots,
										 const Oid *secids, int n);
extern bool labelheap_summary_entry(Relation index, BlockNumber heapblk,
									LabelSummaryEntry *entry);
extern Oid	labelheap_summary_scan_index(Relation rel);
extern int	labelheap_summary_indexes(Relation rel, Oid *indexes);
extern bool labelheap_summary_covers(const LabelSummaryEntry *entry,
									 Oid secid);
extern bool labelheap_summary_corrupt(Relation index, BlockNumber heapblk,
									  Oid secid);

/*
 * skip.c, skip_stream.c and skip_bitmap.c: scans that skip ranges holding
 * no label the session may select.  Sequential scans: on 15 skip.c moves
 * heap's scan past them; 17 and 18 read blocks through a read stream, and
 * labelheap's (skip_stream.c) leaves them out.  Bitmap heap scans: up to
 * 17 the AM declines a skippable block (skip.c); 18 iterates the bitmap
 * inside heap's read stream, and labelheap's (skip_bitmap.c) leaves them
 * out.
 * The two streams decide ahead; skip_ahead.c keeps what they share.
 */
extern bool labelheap_range_unreadable(Relation rel, Relation index,
									   BlockNumber blk);

/* entries labelheap's writers widened in this backend (summary.c) */
extern uint64 labelheap_summary_writes;

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
extern bool labelheap_skip_ranges;

#endif							/* LABELHEAP_SUMMARY_H */
