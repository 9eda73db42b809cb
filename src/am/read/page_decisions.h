/*-------------------------------------------------------------------------
 *
 * src/am/read/page_decisions.h
 *	  A filtered sequential scan's decisions for the rows of its current
 *	  page, made when heap reads the page (page_decisions.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_PAGE_DECISIONS_H
#define LABELHEAP_PAGE_DECISIONS_H

#include "access/heapam.h"
#include "am/labelheap_hooks.h"
#include "am/read/frames.h"
#include "avc/avc.h"

typedef struct PageDecisions
{
	const void *scan;			/* whose, or NULL */
	BlockNumber block;			/* the page heap read */
	Buffer		buffer;
	int			ntuples;		/* its visible tuples, rs_vistuples */
	bool		all_readable;	/* every one of them */
	uint64		epoch;			/* avc epoch of the decisions */
	/* the label summary's answer for a range (range_passes) */
	const void *pass_scan;		/* whose, or NULL */
	BlockNumber pass_range;
	uint64		pass_writes;	/* labelheap_summary_writes then */
	uint64		pass_epoch;
	bool		passes;			/* its rows pass unread */
	Oid			secids[MaxHeapTuplesPerPage];
	uint8		flags[MaxHeapTuplesPerPage];	/* PAGE_ROW_* */
} PageDecisions;

#define PAGE_ROW_READABLE	0x01	/* the session may select it */
#define PAGE_ROW_AUDITED	0x02	/* the audit takes the decision */

#define PAGE_DECISIONS_SLOTS	4

extern PGDLLIMPORT bool labelheap_page_decisions;
extern PGDLLIMPORT bool labelheap_pass_ranges;
extern PGDLLIMPORT PageDecisions labelheap_page_decisions_slots[PAGE_DECISIONS_SLOTS];
/* the slot last decided or found: the scan being read, usually */
extern PGDLLIMPORT PageDecisions *labelheap_page_last LABELAM_HIDDEN;

extern PageDecisions *labelheap_page_decide(HeapScanDesc scan);
extern PageDecisions *labelheap_page_find(HeapScanDesc scan);
extern int	labelheap_page_pass_hidden(PageDecisions *pd, HeapScanDesc scan);
extern void labelheap_page_audit_rows(PageDecisions *pd, HeapScanDesc scan,
									  int from, int to);

static inline PageDecisions *
labelheap_page_decisions_slot(HeapScanDesc scan)
{
	uintptr_t	p = (uintptr_t) scan;

	return &labelheap_page_decisions_slots[((p >> 4) ^ (p >> 10)) %
										   PAGE_DECISIONS_SLOTS];
}

/*
 * Are pd's decisions those of the page heap's scan is on?  Made for this
 * scan on this page as heap read it, at the current avc epoch, and the
 * scan is still a page-at-a-time read.  Enough to hand out a row decided
 * readable: every read mode returns a row the session may select.
 */
static inline bool
labelheap_page_current(PageDecisions *pd, HeapScanDesc scan)
{
	return pd->scan == scan && pd->block == scan->rs_cblock &&
		pd->buffer == scan->rs_cbuf && pd->ntuples == scan->rs_ntuples &&
		avc_epoch_holds(pd->epoch) &&
		(scan->rs_base.rs_flags & SO_ALLOW_PAGEMODE);
}

/*
 * Do pd's decisions hold for the page heap's scan is on, hidden rows
 * included?  Passing over a hidden row is right for a filtered read only.
 */
static inline bool
labelheap_page_holds(PageDecisions *pd, HeapScanDesc scan)
{
	return labelheap_page_current(pd, scan) &&
		labelheap_current_read_mode == READ_FILTERED &&
		labelheap_page_decisions;
}

/*
 * The index in rs_vistuples of the page's next row to return, after the
 * current one; pd->ntuples when there is none left.  Moves the scan past
 * the hidden rows before it.
 */
static inline int
labelheap_page_next(PageDecisions *pd, HeapScanDesc scan)
{
	int			next = scan->rs_cindex + 1;

	if (likely(pd->all_readable || next >= pd->ntuples ||
			   (pd->flags[next] & PAGE_ROW_READABLE)))
		return next;
	return labelheap_page_pass_hidden(pd, scan);
}

/*
 * A backward call (heap may read the page again; decide row by row), or a
 * scan beginning or ending at this address: nothing decided for a scan
 * here before holds.
 */
static inline void
labelheap_page_forget(HeapScanDesc scan)
{
	PageDecisions *pd = labelheap_page_decisions_slot(scan);

	if (pd->scan == scan)
		pd->scan = NULL;
	if (pd->pass_scan == scan)
		pd->pass_scan = NULL;
}

#endif							/* LABELHEAP_PAGE_DECISIONS_H */
