/*-------------------------------------------------------------------------
 *
 * src/am/heap/heap_next.h
 *	  Heap's return of the next visible row of the page its page-at-a-time
 *	  sequential scan is on, for filter.c's rows decided readable.
 *
 * filter.c decides a page's rows when heap reads the page (page_decisions.c)
 * and hands out a row decided readable without asking again.  Calling
 * heap_getnextslot() for it costs two calls a row (heap_getnextslot and
 * heapgettup_pagemode, about 55 instructions) for what is, within a page
 * already read, four stores and ExecStoreBufferHeapTuple(): the step below,
 * which also returns exactly the row filter.c decided (rs_vistuples[next]),
 * not whatever heap's scan state points at.
 *
 * The step is heapgettup_pagemode()'s forward continuation within the
 * current page with no scan keys (15: the forward branch's "continue from
 * previously returned page/tuple", TestForOldSnapshot and the loop's first
 * iteration; 17 and 18: the "continue_page" iteration), followed by what
 * heap_getnextslot() does with the row, src/backend/access/heap/heapam.c,
 * PostgreSQL 15.18 and 18.6 (17 is 18's).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam.c
 *	  heapgettup_pagemode() 15: f0a0bdbfe87909cf, 18: 58fa428b15b6aba7
 *	  heap_getnextslot() 15: d712d872588105a1, 18: d712d872588105a1
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_HEAP_NEXT_H
#define LABELHEAP_HEAP_NEXT_H

#include "access/heapam.h"
#include "executor/tuptable.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"

/*
 * Makes row next (an index into rs_vistuples) of the current page the
 * scan's current row and stores it in slot, as heap_getnextslot() does.
 * The caller has checked that the scan is a forward page-at-a-time scan
 * without keys, on the page it read last, and that next < rs_ntuples.
 */
static pg_attribute_always_inline void
labelheap_heap_next_on_page(HeapScanDesc scan, int next, TupleTableSlot *slot)
{
	HeapTuple	tuple = &(scan->rs_ctup);
	Page		page = BufferGetPage(scan->rs_cbuf);
	OffsetNumber lineoff;
	ItemId		lpp;

	Assert(scan->rs_inited);
	Assert(scan->rs_base.rs_flags & SO_ALLOW_PAGEMODE);
	Assert(scan->rs_base.rs_nkeys == 0);
	Assert(next == scan->rs_cindex + 1);
	Assert(next < scan->rs_ntuples);
	Assert(BufferGetBlockNumber(scan->rs_cbuf) == scan->rs_cblock);

	/* upstream heapgettup_pagemode(): its next row within the page */
#if PG_VERSION_NUM < 170000
	TestForOldSnapshot(scan->rs_base.rs_snapshot, scan->rs_base.rs_rd, page);
#endif
	lineoff = scan->rs_vistuples[next];
	lpp = PageGetItemId(page, lineoff);
	Assert(ItemIdIsNormal(lpp));

	tuple->t_data = (HeapTupleHeader) PageGetItem(page, lpp);
	tuple->t_len = ItemIdGetLength(lpp);
	ItemPointerSet(&(tuple->t_self), scan->rs_cblock, lineoff);
	scan->rs_cindex = next;
	/* end of upstream heapgettup_pagemode() */

	/* upstream heap_getnextslot(): what it does with the row */
	pgstat_count_heap_getnext(scan->rs_base.rs_rd);

	ExecStoreBufferHeapTuple(tuple, slot, scan->rs_cbuf);
}

#endif							/* LABELHEAP_HEAP_NEXT_H */
