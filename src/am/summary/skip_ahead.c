/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_ahead.c
 *	  This backend's scans whose read stream decides ahead which blocks to
 *	  skip (skip_stream.c, skip_bitmap.c): found by scan, their key kept,
 *	  their ranges decided.
 *
 * A scan's state lives in the scan's memory context.  It is forgotten at
 * scan end, and also when that context goes without a scan end (an error,
 * a portal dropped), so that a later scan given the same address never
 * finds it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 170000

#include "access/genam.h"
#include "access/relscan.h"
#include "utils/memutils.h"

#include "am/summary/skip_ahead.h"
#include "am/summary/skip_range.h"
#include "am/summary/skipping.h"

SkipAhead  *skip_ahead_scans = NULL;

static void
skip_ahead_unlink(SkipAhead *sa)
{
	SkipAhead **p;

	for (p = &skip_ahead_scans; *p != NULL; p = &(*p)->next)
	{
		if (*p == sa)
		{
			*p = sa->next;
			return;
		}
	}
}

/* the scan's memory goes (an error, a portal dropped): forget the scan */
static void
skip_ahead_forget(void *arg)
{
	skip_ahead_unlink((SkipAhead *) arg);
}

/*
 * At scan begin: a zeroed state of size bytes (a struct whose first member
 * is a SkipAhead) for scan, whose table's summary is indexoid, registered.
 * Its decisions skip nothing until a call allows it (skip_ahead_rekey).
 */
SkipAhead *
skip_ahead_register(HeapScanDesc scan, Oid indexoid, Size size)
{
	SkipAhead  *sa;

	Assert(size >= sizeof(SkipAhead));
	sa = palloc0(size);
	sa->scan = scan;
	sa->indexoid = indexoid;
	sa->allowed = false;		/* the first call decides */
	sa->writes = labelheap_summary_writes;
	sa->epoch = avc_decision_epoch;
	sa->range = InvalidBlockNumber;

	sa->forget.func = skip_ahead_forget;
	sa->forget.arg = sa;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, &sa->forget);
	sa->next = skip_ahead_scans;
	skip_ahead_scans = sa;
	return sa;
}

SkipAhead *
skip_ahead_find(TableScanDesc sscan)
{
	SkipAhead  *sa;

	for (sa = skip_ahead_scans; sa != NULL; sa = sa->next)
	{
		if ((TableScanDesc) sa->scan == sscan)
			return sa;
	}
	return NULL;
}

/*
 * At scan end (every labelheap scan): the summary is closed, the scan
 * forgotten.
 */
void
labelheap_skip_ahead_end(TableScanDesc sscan)
{
	SkipAhead  *sa = skip_ahead_of(sscan,
								   SO_TYPE_SEQSCAN | SO_TYPE_BITMAPSCAN);

	if (sa == NULL)
		return;
	if (sa->index != NULL)
		index_close(sa->index, NoLock);
	sa->index = NULL;
	skip_ahead_unlink(sa);
	/* the reset callback stays registered; unlinking twice is harmless */
}

/*
 * The scan's decisions from now on are made under allowed and epoch, with
 * no range decided yet.  The summary is opened here, not in the stream's
 * callback (which must not accept invalidations).
 */
void
skip_ahead_rekey(SkipAhead *sa, bool allowed, uint64 epoch)
{
	if (allowed && sa->index == NULL)
		sa->index = index_open(sa->indexoid, AccessShareLock);
	sa->allowed = allowed;
	sa->writes = labelheap_summary_writes;
	sa->epoch = epoch;
	sa->range = InvalidBlockNumber;
}

/*
 * May the range of heap block blk be skipped under the scan's key?  Decided
 * once per range (skip.c's labelheap_range_unreadable: the row filter's
 * cached decisions), only while the key allows skipping.
 */
bool
skip_ahead_skippable(SkipAhead *sa, BlockNumber blk)
{
	BlockNumber range = blk / LABELSUMMARY_PAGES_PER_RANGE;

	Assert(sa->allowed && sa->index != NULL);
	if (range != sa->range)
	{
		sa->range_skipped =
			labelheap_range_unreadable(sa->scan->rs_base.rs_rd, sa->index,
									   blk);
		sa->range = range;
	}
	return sa->range_skipped;
}

#endif							/* 17+ */
