/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_ahead.h
 *	  Scans whose read stream decides ahead which blocks to skip (17 and
 *	  18's sequential scans, skip_stream.c; 18's bitmap heap scans,
 *	  skip_bitmap.c): what both keep, in skip_ahead.c.
 *
 * A stream decides a block before heap consumes it, so each decision is
 * kept with the key it was made under: whether the call was a filtered
 * read (allowed), the summary entries this backend's writers widened
 * (labelheap_summary_writes) and the session's decisions
 * (avc_decision_epoch).  The two files differ in what they do when the key
 * changes (a sequential stream is reset, a bitmap's entries are handed out
 * again), not in how they find a scan's state, compare keys or decide a
 * range.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SKIP_AHEAD_H
#define LABELHEAP_SKIP_AHEAD_H

#if PG_VERSION_NUM >= 170000

#include "access/heapam.h"
#include "utils/palloc.h"
#include "utils/rel.h"

#include "am/summary/summary.h"
#include "avc/avc.h"

typedef struct SkipAhead
{
	HeapScanDesc scan;
	Oid			indexoid;		/* the table's label summary */
	Relation	index;			/* opened on first use, closed at scan end */

	/* what the stream's decisions are made under */
	bool		allowed;		/* a filtered read that may skip */
	uint64		writes;			/* labelheap_summary_writes */
	uint64		epoch;			/* avc_decision_epoch */

	/* the last range decided under that key, and how */
	BlockNumber range;
	bool		range_skipped;

	MemoryContextCallback forget;
	struct SkipAhead *next;
} SkipAhead;

/* this backend's scans with a skipping stream (skip_ahead.c) */
extern SkipAhead *skip_ahead_scans;

extern SkipAhead *skip_ahead_register(HeapScanDesc scan, Oid indexoid,
									  Size size);
extern SkipAhead *skip_ahead_find(TableScanDesc sscan);
extern void skip_ahead_rekey(SkipAhead *sa, bool allowed, uint64 epoch);
extern bool skip_ahead_skippable(SkipAhead *sa, BlockNumber blk);

/*
 * sscan's state, made by the begin function of sscan's kind of scan, if
 * sscan is of one of the kinds in types (SO_TYPE_SEQSCAN,
 * SO_TYPE_BITMAPSCAN); NULL for a scan without one (most scans: the list
 * is then usually empty).  The two kinds extend SkipAhead differently, and
 * hooks common to every scan (rescan) call both files: the type keeps each
 * file to its own.
 */
static inline SkipAhead *
skip_ahead_of(TableScanDesc sscan, uint32 types)
{
	if (likely(skip_ahead_scans == NULL) || !(sscan->rs_flags & types))
		return NULL;
	return skip_ahead_find(sscan);
}

/*
 * Were sa's decisions made under another key than allowed and the session's
 * decisions now?  *epoch: the current epoch, after the AVC's lazy
 * revalidation (so that a new policy is not first noticed inside the
 * stream's callback, which must not run it).
 */
static inline bool
skip_ahead_key_changed(SkipAhead *sa, bool allowed, uint64 *epoch)
{
	*epoch = avc_current_epoch();
	return allowed != sa->allowed ||
		labelheap_summary_writes != sa->writes ||
		*epoch != sa->epoch;
}

#endif							/* 17+ */

#endif							/* LABELHEAP_SKIP_AHEAD_H */
