/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_range.c
 *	  Whether a scan may skip a block range: its label summary entry lists
 *	  no label the session may select.  Asked by every way of skipping
 *	  (skip.c on 15, skip_ahead.c for the read streams of 17 and 18).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "am/summary/skip_range.h"
#include "am/summary/summary.h"
#include "avc/avc.h"

/* labelam.skip_ranges */
bool		labelheap_skip_ranges = true;

/*
 * Does the label summary say that the range holding heap block blk has no
 * row the session may select?  false when it cannot say (no entry, "any
 * label").  The decisions are the row filter's own, cached per label.
 */
bool
labelheap_range_unreadable(Relation rel, Relation index, BlockNumber blk)
{
	LabelSummaryEntry entry;
	int			i;

	if (!labelheap_summary_entry(index, blk, &entry) ||
		entry.nlabels == LABELSUMMARY_ANY)
		return false;
	for (i = 0; i < entry.nlabels && i < LABELSUMMARY_SLOTS; i++)
	{
		if (avc_check_tuple(rel, entry.secids[i], AVC_DB_TUPLE_SELECT))
			return false;
	}
	return true;
}
