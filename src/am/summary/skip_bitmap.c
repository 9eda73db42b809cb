/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_bitmap.c
 *	  Bitmap heap scans skip label-summary ranges on PostgreSQL 18, whose
 *	  heap iterates a scan's TID bitmap itself, inside a read stream.
 *
 * Up to 17 the executor takes each block from the bitmap and asks the
 * table AM to read it (scan_bitmap_next_block, where skip.c says no to a
 * skippable block).  18's heap_beginscan gives a bitmap heap scan a read
 * stream whose callback takes the next entry from the bitmap's iterator
 * into the buffer's per-buffer data (a TBMIterateResult), and heap's
 * scan_bitmap_next_tuple consumes those buffers.  A filtered bitmap heap
 * scan of a table with a label summary gets labelheap's stream instead:
 * heap's callback (below), which keeps taking entries from the iterator
 * past those whose range's summary lists no label the session may select
 * (skip.c's labelheap_range_unreadable, the row filter's cached
 * decisions).  A skipped block never reaches heap, which counts the
 * exact and lossy pages it reads for EXPLAIN ANALYZE ("Heap Blocks"); up
 * to 17 the executor counts every page the bitmap names, read or declined
 * by the AM, so labelheap counts a skipped page when its turn has passed,
 * in the counters heap's scan_bitmap_next_tuple is given: the counts are
 * the same with and without skipping, on every major.
 *
 * What makes it safe.  The TID bitmap is complete before the first entry
 * is taken from it (the index was read to the end: BitmapTableScanSetup
 * runs MultiExecProcNode before tbm_begin_iterate).  Every tuple a
 * snapshot can see was placed, and its label added to the summary, before
 * the snapshot was taken, except tuples the scan's own transaction writes
 * later with an older command id.  Index entries come after the summary
 * too: labelheap's writers (write.c: tuple_insert, multi_insert,
 * tuple_update, and the speculative insert) note the label in the summary
 * as soon as heap's writer has placed the tuple, inside the table AM
 * callback, and the executor inserts the tuple's index entries only after
 * that callback returns (ExecInsertIndexTuples; the summary's own
 * aminsert does nothing).  So every TID the bitmap holds had its label in
 * the summary before the bitmap was built.  What the scan may still
 * return that the bitmap did not name: a lossy page's rows are all read
 * (and rechecked), and an exact page's TIDs are followed along their HOT
 * chains (heap_hot_search_buffer), so a row version the scan's own
 * transaction writes into such a page after the bitmap was built is
 * returned if it is visible and passes the recheck (so is one it writes
 * at a TID of the bitmap that a concurrent VACUUM freed).  Every such
 * write is a labelheap writer's, which counts it in
 * labelheap_summary_writes when it widens a summary entry (one that does
 * not widen one changes no decision), and is handled below.
 *
 * The stream decides ahead: when it hands out a block it may already have
 * decided, and skipped, blocks whose turn comes later.  A decision rests
 * on labelheap_summary_writes (the summary entries this backend's writers
 * widened), on the call being a filtered read (the frame) and on the
 * session's decisions (avc_decision_epoch: policy, enforcing mode,
 * subject, trusted procedure).  None of them changes inside heap's
 * scan_bitmap_next_tuple, which runs no user code, and the AVC's lazy
 * revalidation is done before comparing (avc_current_epoch), so that no
 * new policy is first noticed inside the stream's callback.  So
 * labelheap_skip_bitmap_sync, called before every call of heap's
 * scan_bitmap_next_tuple, compares them with what the pending decisions
 * were made under.  If anything changed, every block whose turn has not
 * come (past the block heap is reading, rs_cblock: the bitmap hands out
 * blocks in ascending order) is decided again: a block skipped before the
 * change whose turn has passed was passed over at a moment when no row in
 * it could be returned (nothing changed between its decision and its
 * turn), which is what reading it then would have found.
 *
 * The stream cannot simply be reset, as skip_stream.c does for sequential
 * scans: the entries it looked ahead to were taken from the bitmap's
 * iterator, which does not go back.  So the callback remembers every
 * entry it takes until the entry's turn has passed (runs of skipped lossy
 * pages as one run: their entries differ only in the block number), and a
 * reset hands the remembered entries out again, in order, before it
 * takes more from the iterator, deciding each afresh.  What is remembered
 * is bounded by the stream's look-ahead plus the skipped entries between
 * two blocks read: at most one entry per exact page of the bitmap (smaller
 * than the bitmap's own entry for the page) and one per run of lossy
 * pages.  Parallel bitmap heap scans share the iterator; each participant
 * remembers and hands out again only what it took itself, so no entry is
 * lost, and parallel mode forbids writes.
 *
 * The stream is created without READ_STREAM_USE_BATCHING (heap's has it):
 * the callback reads summary pages, which a batching stream's callback
 * must not.
 *
 * bitmapheap_stream_read_next below is copied from
 * src/backend/access/heap/heapam.c, PostgreSQL 18.6, and checked against
 * 18 only (15 has no read streams, and 17's bitmap heap scans are
 * skip.c's).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam.c
 *	  bitmapheap_stream_read_next() 15: none, 18: 6805c1d24e29ae12
 *
 * Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 180000

#include "access/genam.h"
#include "access/heapam.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/tidbitmap.h"
#include "storage/read_stream.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/summary/skip_ahead.h"
#include "am/summary/skip_range.h"
#include "am/summary/skipping.h"
#include "am/summary/summary.h"
#include "avc/avc.h"

/* an entry taken from the iterator whose turn has not passed */
typedef struct PendingEntry
{
	TBMIterateResult res;		/* as the iterator gave it (the run's first) */
	BlockNumber nblocks;		/* > 1: a run of skipped lossy pages */
	bool		skipped;
} PendingEntry;

typedef struct BitmapSkip
{
	SkipAhead	sa;				/* scan, key, last range (skip_ahead.h) */
	MemoryContext cxt;			/* the scan's */

	/* entries handed out or skipped, turn not passed, in ascending order */
	PendingEntry *pending;
	int			pending_first;
	int			pending_end;
	int			pending_max;

	/* after a reset: entries to hand out again before the iterator's */
	PendingEntry *replay;
	int			replay_next;
	int			replay_end;
	BlockNumber replay_done;	/* blocks of replay[replay_next] handed out */

	bool		ended;			/* heap's scan returned its last tuple */

	/* the executor's counters, as heap's scan_bitmap_next_tuple gets them */
	uint64	   *lossy_pages;
	uint64	   *exact_pages;
} BitmapSkip;

/* last block of a pending entry */
static inline BlockNumber
entry_last(const PendingEntry *e)
{
	return e->res.blockno + e->nblocks - 1;
}

/* A skipped entry's turn has passed: count its pages as heap would have. */
static inline void
entry_count(BitmapSkip *bs, const PendingEntry *e)
{
	if (!e->skipped)
		return;					/* heap counted it when it read it */
	if (e->res.lossy)
	{
		if (bs->lossy_pages)
			*bs->lossy_pages += e->nblocks;
	}
	else if (bs->exact_pages)
		*bs->exact_pages += e->nblocks;
}

/*
 * Forget the entries whose turn has passed: heap has read a later block
 * (blocks come in ascending order; rs_cblock is the block heap read last,
 * InvalidBlockNumber before the first), or, all, the scan is over.
 */
static void
bitmap_skip_prune(BitmapSkip *bs, bool all)
{
	BlockNumber cblock = bs->sa.scan->rs_cblock;

	if (cblock == InvalidBlockNumber && !all)
		return;
	while (bs->pending_first < bs->pending_end &&
		   (all || entry_last(&bs->pending[bs->pending_first]) <= cblock))
		entry_count(bs, &bs->pending[bs->pending_first++]);
	if (bs->pending_first == bs->pending_end)
		bs->pending_first = bs->pending_end = 0;
}

/* The callback took tbmres and skipped it or handed it out. */
static void
bitmap_skip_remember(BitmapSkip *bs, const TBMIterateResult *tbmres,
					 bool skipped)
{
	PendingEntry *last;

	if (bs->pending_end > bs->pending_first)
	{
		last = &bs->pending[bs->pending_end - 1];
		if (skipped && last->skipped && tbmres->lossy && last->res.lossy &&
			tbmres->recheck == last->res.recheck &&
			tbmres->internal_page == NULL &&
			last->res.internal_page == NULL &&
			entry_last(last) + 1 == tbmres->blockno)
		{
			last->nblocks++;
			return;
		}
	}
	if (bs->pending_end == bs->pending_max)
	{
		int			live = bs->pending_end - bs->pending_first;

		if (bs->pending_first > 0 && live < bs->pending_max / 2)
		{
			memmove(bs->pending, bs->pending + bs->pending_first,
					live * sizeof(PendingEntry));
		}
		else
		{
			PendingEntry *grown;

			bs->pending_max *= 2;
			grown = MemoryContextAlloc(bs->cxt,
									   bs->pending_max * sizeof(PendingEntry));
			memcpy(grown, bs->pending + bs->pending_first,
				   live * sizeof(PendingEntry));
			pfree(bs->pending);
			bs->pending = grown;
		}
		bs->pending_first = 0;
		bs->pending_end = live;
	}
	last = &bs->pending[bs->pending_end++];
	last->res = *tbmres;
	last->nblocks = 1;
	last->skipped = skipped;
}

/* The next entry to hand out again after a reset, if any. */
static bool
bitmap_skip_replay(BitmapSkip *bs, TBMIterateResult *tbmres)
{
	PendingEntry *e;

	if (bs->replay_next == bs->replay_end)
		return false;
	e = &bs->replay[bs->replay_next];
	*tbmres = e->res;
	tbmres->blockno += bs->replay_done;
	if (++bs->replay_done == e->nblocks)
	{
		bs->replay_next++;
		bs->replay_done = 0;
	}
	return true;
}

/*
 * upstream bitmapheap_stream_read_next()
 *
 * bitmapheap_stream_read_next (heapam.c, PostgreSQL 18.6), taking entries
 * handed out before a reset first, and moving on past skippable blocks.
 */
static BlockNumber
bitmap_skip_read_next(ReadStream *pgsr, void *private_data,
					  void *per_buffer_data)
{
	TBMIterateResult *tbmres = per_buffer_data;
	BitmapSkip *bs = (BitmapSkip *) private_data;
	HeapScanDesc hscan = bs->sa.scan;
	TableScanDesc sscan = &hscan->rs_base;

	/* labelam: the entries up to the block heap read last are done */
	bitmap_skip_prune(bs, false);

	for (;;)
	{
		CHECK_FOR_INTERRUPTS();

		/* labelam: entries taken before a reset come first */
		if (!bitmap_skip_replay(bs, tbmres))
		{
			/* no more entries in the bitmap */
			if (!tbm_iterate(&sscan->st.rs_tbmiterator, tbmres))
				return InvalidBlockNumber;
		}

		/*
		 * Ignore any claimed entries past what we think is the end of the
		 * relation. It may have been extended after the start of our scan (we
		 * only hold an AccessShareLock, and it could be inserts from this
		 * backend).  We don't take this optimization in SERIALIZABLE
		 * isolation though, as we need to examine all invisible tuples
		 * reachable by the index.
		 */
		if (!IsolationIsSerializable() &&
			tbmres->blockno >= hscan->rs_nblocks)
			continue;

		/* labelam: past the ranges holding no label the session may select */
		if (bs->sa.allowed && skip_ahead_skippable(&bs->sa, tbmres->blockno))
		{
			bitmap_skip_remember(bs, tbmres, true);
			continue;
		}
		bitmap_skip_remember(bs, tbmres, false);

		return tbmres->blockno;
	}

	/* not reachable */
	Assert(false);
}

/*
 * After heap_beginscan: a bitmap heap scan of a table with a label summary
 * reads through labelheap's stream.  Until a call allows skipping, it
 * skips nothing.
 */
void
labelheap_skip_bitmap_begin(TableScanDesc sscan)
{
	HeapScanDesc scan = (HeapScanDesc) sscan;
	Oid			indexoid;
	BitmapSkip *bs;

	if (!(sscan->rs_flags & SO_TYPE_BITMAPSCAN) ||
		scan->rs_read_stream == NULL)
		return;
	indexoid = labelheap_summary_scan_index(sscan->rs_rd);
	if (!OidIsValid(indexoid))
		return;

	bs = (BitmapSkip *) skip_ahead_register(scan, indexoid,
											sizeof(BitmapSkip));
	bs->cxt = CurrentMemoryContext;
	bs->pending_max = 64;
	bs->pending = palloc(bs->pending_max * sizeof(PendingEntry));

	/* heap's stream has read nothing yet (heap_beginscan makes it last) */
	read_stream_end(scan->rs_read_stream);
	scan->rs_read_stream =
		read_stream_begin_relation(READ_STREAM_DEFAULT,
								   scan->rs_strategy, sscan->rs_rd,
								   MAIN_FORKNUM,
								   bitmap_skip_read_next,
								   bs, sizeof(TBMIterateResult));
}

/*
 * The scan's entries go (a rescan, the scan's end): those whose turn has
 * passed (all: every one) count first, unless the scan ended before.
 */
static void
bitmap_skip_drop_entries(BitmapSkip *bs, bool all)
{
	if (!bs->ended)
		bitmap_skip_prune(bs, all);
	bs->pending_first = bs->pending_end = 0;
	bs->replay_next = bs->replay_end = 0;
	bs->replay_done = 0;
}

/*
 * Before heap's rescan (which resets the stream and the scan's position): a
 * new bitmap follows.  What has had its turn counts.
 */
void
labelheap_skip_bitmap_rescan(TableScanDesc sscan)
{
	BitmapSkip *bs;

	bs = (BitmapSkip *) skip_ahead_of(sscan, SO_TYPE_BITMAPSCAN);
	if (bs == NULL)
		return;
	bitmap_skip_drop_entries(bs, false);
	bs->sa.range = InvalidBlockNumber;
	bs->ended = false;
}

/* Does any entry handed out or skipped, turn not passed, stand skipped? */
static bool
bitmap_skip_any_skipped(BitmapSkip *bs)
{
	int			i;

	for (i = bs->pending_first; i < bs->pending_end; i++)
	{
		if (bs->pending[i].skipped)
			return true;
	}
	/* (entries still to be handed out again are decided when they are) */
	return false;
}

/*
 * The stream drops what it looked ahead to; every entry whose turn has not
 * passed is handed out again, the remembered ones first, then those not
 * yet handed out again from an earlier reset.
 */
static void
bitmap_skip_restart(BitmapSkip *bs)
{
	int			npending = bs->pending_end - bs->pending_first;
	int			nreplay = bs->replay_end - bs->replay_next;
	PendingEntry *replay;

	replay = MemoryContextAlloc(bs->cxt,
								Max(npending + nreplay, 1) * sizeof(PendingEntry));
	memcpy(replay, bs->pending + bs->pending_first,
		   npending * sizeof(PendingEntry));
	if (nreplay > 0)
	{
		memcpy(replay + npending, bs->replay + bs->replay_next,
			   nreplay * sizeof(PendingEntry));
		/* the part of a run handed out again is remembered in pending */
		replay[npending].res.blockno += bs->replay_done;
		replay[npending].nblocks -= bs->replay_done;
	}
	if (bs->replay != NULL)
		pfree(bs->replay);
	bs->replay = replay;
	bs->replay_next = 0;
	bs->replay_end = npending + nreplay;
	bs->replay_done = 0;
	bs->pending_first = bs->pending_end = 0;

	read_stream_reset(bs->sa.scan->rs_read_stream);
}

/*
 * Before heap's scan_bitmap_next_tuple: allowed says whether this call may
 * skip.  If what the pending decisions were made under changed, every
 * block whose turn has not come is decided again.
 */
void
labelheap_skip_bitmap_sync(TableScanDesc sscan, bool allowed,
						   uint64 *lossy_pages, uint64 *exact_pages)
{
	BitmapSkip *bs;
	uint64		epoch;

	bs = (BitmapSkip *) skip_ahead_of(sscan, SO_TYPE_BITMAPSCAN);
	if (bs == NULL)
		return;
	bs->lossy_pages = lossy_pages;
	bs->exact_pages = exact_pages;
	allowed = allowed && labelheap_skip_ranges;
	if (!skip_ahead_key_changed(&bs->sa, allowed, &epoch))
		return;

	bitmap_skip_prune(bs, false);
	if (!bs->ended && bitmap_skip_any_skipped(bs))
		bitmap_skip_restart(bs);
	skip_ahead_rekey(&bs->sa, allowed, epoch);
}

/* heap's scan_bitmap_next_tuple returned false: the scan is over. */
void
labelheap_skip_bitmap_ended(TableScanDesc sscan)
{
	BitmapSkip *bs;

	bs = (BitmapSkip *) skip_ahead_of(sscan, SO_TYPE_BITMAPSCAN);
	if (bs == NULL)
		return;
	/* heap took the stream's end: every entry left has had its turn */
	bitmap_skip_drop_entries(bs, true);
	bs->ended = true;
}

#endif							/* 18+ */
