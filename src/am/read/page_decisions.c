/*-------------------------------------------------------------------------
 *
 * src/am/read/page_decisions.c
 *	  A filtered sequential scan decides the rows of a page all at once,
 *	  when heap has just read the page, instead of one by one as heap
 *	  returns them.
 *
 * Why: heap's page-at-a-time scan finds a page's visible tuples from line
 * pointers and hint bits, and a count(*) never touches a tuple.  The row
 * filter must read every tuple's label.  Read one by one, each label read
 * waits for memory; read in one loop over the page, the reads overlap.
 * And a row the session may not select then costs that read and a cached
 * decision, not a trip through heap's scan_getnextslot and the slot.
 *
 * How, without changing a result:
 *  - Only forward, page-at-a-time, FILTERED reads (a query's MVCC scan)
 *    use it; strict readers must meet each hidden row to raise their
 *    error, backward scans (cursors) decide row by row, and a backward
 *    call forgets the scan's decisions (heap may have read the page again,
 *    with another set of visible tuples).
 *  - Heap's forward scan returns index 0 of rs_vistuples right after it
 *    reads a page, and only then: the page's decisions are made there,
 *    every time, for the tuples heap found visible (rs_vistuples, fixed
 *    until heap reads another page; the tuples are pinned, so they stay
 *    where they are, as heap's own return of them assumes).
 *  - The decisions are the row filter's own (avc_check_tuple), taken at
 *    one avc epoch; when the epoch moves (new policy, enforcing mode,
 *    subject, a trusted procedure entered or left, see avc.h) they are
 *    dropped and the rest of the page is decided row by row, as before.
 *    User code that runs between two rows can only move the epoch, not
 *    change a pinned tuple's label.
 *  - Hidden rows are passed over by moving rs_cindex, heap's "current
 *    tuple" index, to the entry before the next readable one: heap
 *    continues at rs_cindex + 1, exactly as if it had returned the hidden
 *    ones and the filter had dropped them.  rs_vistuples is not changed.
 *  - The audit counts the rows a scan reaches, not the rows it decided
 *    ahead: each decision says whether the audit takes it, and the rows
 *    the audit takes are recorded when the scan returns them or passes
 *    over them (runs of one label at once), with the decision made ahead,
 *    which is the one avc_check_tuple would give (the epoch holds).
 *
 * Rows that pass unread.  Heap's count(*) never touches a tuple of an
 * all-visible page; the row filter reads every tuple's label, and on a
 * table whose rows the session may all select that read is most of what
 * labelheap adds (the first touch of each tuple).  When the table has a
 * label summary (summary.c) and the entry of the page's range lists one to
 * three labels, each one the session may select and none whose decision
 * the audit takes, the page's visible tuples are all readable without
 * reading one label (range_passes).  A summary that lacked a label would
 * then disclose rows, where for skipping it would hide them, so this rests
 * on the summary's invariant (doc/DESIGN.md) and on when the entry is read:
 *  - every tuple heap found visible on the page was placed before the page
 *    was read, and its label noted in its range's entry within the table
 *    AM callback that placed it (write.c), before any snapshot but its
 *    writer's could see it: a tuple of another transaction that the scan's
 *    snapshot sees was noted before the snapshot was taken; one of the
 *    scan's own transaction was noted before the callback returned, so
 *    before this page was read;
 *  - so an entry read now lists every label of the page's visible tuples.
 *    The answer is kept for the range's other pages while nothing that
 *    could make it wrong has happened: the same scan (a scan beginning or
 *    ending at the same address forgets it, so no later scan with a newer
 *    snapshot reuses it), the same avc epoch, and no entry widened by this
 *    backend since (labelheap_summary_writes: the scan's own transaction
 *    may write into the range, with an older command id, rows its
 *    snapshot sees);
 *  - an entry that says "any label", lists none, is past the summary's
 *    end or sits on a damaged page decides nothing: the labels are read.
 * labelam.verify_labels reports every tuple whose label its range's entry
 * lacks.
 *
 * labelam.page_decisions = off decides every row as heap returns it, with
 * the same results; labelam.pass_ranges = off reads every label.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "am/read/page_decisions.h"
#include "am/relcache.h"
#include "am/summary/summary.h"
#include "am/tuple_label.h"
#include "avc/avc.h"

/* labelam.page_decisions */
bool		labelheap_page_decisions = true;

/* labelam.pass_ranges */
bool		labelheap_pass_ranges = true;

/* a few scans at a time: a nested loop's inner scan keeps its own */
PageDecisions labelheap_page_decisions_slots[PAGE_DECISIONS_SLOTS];
PageDecisions *labelheap_page_last = &labelheap_page_decisions_slots[0];

/* scan's decisions when they are not the last ones used */
PageDecisions *
labelheap_page_find(HeapScanDesc scan)
{
	PageDecisions *pd = labelheap_page_decisions_slot(scan);

	if (!labelheap_page_holds(pd, scan))
		return NULL;
	labelheap_page_last = pd;
	return pd;
}

/*
 * May the visible tuples of the page heap has just read pass without their
 * labels being read?  Yes when the label summary's entry for the page's
 * range lists one to three labels and the session may select each of them
 * with a decision the audit does not take (see the top of the file for
 * why the entry, read now, lists every label on the page).  pd->epoch is
 * the epoch the decisions are taken at.
 */
static bool
range_passes(PageDecisions *pd, HeapScanDesc scan)
{
	BlockNumber range = scan->rs_cblock / LABELSUMMARY_PAGES_PER_RANGE;
	LabelSummaryEntry entry;
	Relation	index;
	Oid			indexoid;
	bool		passes;
	int			i;

	if (!labelheap_pass_ranges)
		return false;
	if (pd->pass_scan == scan && pd->pass_range == range &&
		pd->pass_writes == labelheap_summary_writes &&
		pd->pass_epoch == pd->epoch)
		return pd->passes;
	indexoid = labelheap_summary_scan_index(scan->rs_base.rs_rd);
	if (!OidIsValid(indexoid))
		return false;

	index = index_open(indexoid, AccessShareLock);
	passes = labelheap_summary_entry(index, scan->rs_cblock, &entry) &&
		entry.nlabels >= 1 && entry.nlabels <= LABELSUMMARY_SLOTS;
	for (i = 0; passes && i < entry.nlabels; i++)
	{
		bool		audited;

		passes = avc_check_tuple_ahead(entry.secids[i], AVC_DB_TUPLE_SELECT,
									   &audited) && !audited;
	}
	index_close(index, NoLock);

	pd->pass_scan = scan;
	pd->pass_range = range;
	pd->pass_writes = labelheap_summary_writes;
	pd->pass_epoch = pd->epoch;
	pd->passes = passes;
	return passes;
}

/*
 * heap has just read a page (and returned its index 0): decide its visible
 * tuples.
 */
PageDecisions *
labelheap_page_decide(HeapScanDesc scan)
{
	PageDecisions *pd = labelheap_page_decisions_slot(scan);
	Page		page = BufferGetPage(scan->rs_cbuf);
	Oid			last_secid = InvalidOid;
	uint8		last_flags = 0;
	uint8		all_flags = PAGE_ROW_READABLE;
	int			i;

	pd->scan = NULL;			/* invalid until complete */
	pd->epoch = avc_current_epoch();
	if (range_passes(pd, scan))
	{
		/* no label read, none audited; pd->secids is read only if audited */
		memset(pd->flags, PAGE_ROW_READABLE, scan->rs_ntuples);
	}
	else
	{
		for (i = 0; i < scan->rs_ntuples; i++)
		{
			ItemId		lp = PageGetItemId(page, scan->rs_vistuples[i]);
			Oid			secid;

			secid = labelheap_header_secid((HeapTupleHeader) PageGetItem(page, lp),
										   ItemIdGetLength(lp));
			if (unlikely(secid != last_secid || i == 0))
			{
				bool		audited;

				last_secid = secid;
				last_flags = avc_check_tuple_ahead(secid, AVC_DB_TUPLE_SELECT,
												   &audited) ? PAGE_ROW_READABLE : 0;
				if (audited)
					last_flags |= PAGE_ROW_AUDITED;
			}
			pd->secids[i] = secid;
			pd->flags[i] = last_flags;
			all_flags &= last_flags;
		}
	}
	/* deciding took in nothing that could move the epoch; be sure */
	if (!avc_epoch_holds(pd->epoch))
		return NULL;
	pd->scan = scan;
	pd->block = scan->rs_cblock;
	pd->buffer = scan->rs_cbuf;
	pd->ntuples = scan->rs_ntuples;
	pd->all_readable = (all_flags & PAGE_ROW_READABLE) != 0;
	labelheap_page_last = pd;
	return pd;
}

/*
 * Rows [from, to) of the page are reached (returned or passed over): the
 * audit records those it takes, as the row filter would have, runs of one
 * label at once.  The decisions are the ones made ahead (the epoch has not
 * moved).
 */
void
labelheap_page_audit_rows(PageDecisions *pd, HeapScanDesc scan,
						  int from, int to)
{
	Relation	rel = scan->rs_base.rs_rd;
	int			i = from;

	while (i < to)
	{
		int			run = i + 1;
		bool		readable PG_USED_FOR_ASSERTS_ONLY;

		if (!(pd->flags[i] & PAGE_ROW_AUDITED))
		{
			i++;
			continue;
		}
		while (run < to && pd->secids[run] == pd->secids[i])
			run++;
		readable = avc_check_tuple_rows(rel, pd->secids[i],
										AVC_DB_TUPLE_SELECT, run - i);
		Assert(readable == ((pd->flags[i] & PAGE_ROW_READABLE) != 0));
		i = run;
	}
}

/*
 * labelheap_page_next found hidden rows after the current one: passes
 * over them.  Returns the index of the next readable row, or ntuples.
 */
int
labelheap_page_pass_hidden(PageDecisions *pd, HeapScanDesc scan)
{
	int			from = scan->rs_cindex + 1;
	int			i = from;

	while (i < pd->ntuples && !(pd->flags[i] & PAGE_ROW_READABLE))
		i++;
	labelheap_page_audit_rows(pd, scan, from, i);
	scan->rs_cindex = i - 1;
	return i;
}
