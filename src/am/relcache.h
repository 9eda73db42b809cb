/*-------------------------------------------------------------------------
 *
 * src/am/relcache.h
 *	  What a labelheap relation's relcache entry caches in rd_amcache: its
 *	  label column (write/label_column.c), its label summaries
 *	  (summary/summary.c) and its label set (label_set/label_set_checks.c).
 *
 * The relcache frees rd_amcache with a single pfree whenever the entry is
 * rebuilt or invalidated, and the struct is reallocated when the label set
 * is loaded: never keep a pointer to it across calls that may do either.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_RELCACHE_H
#define LABELHEAP_RELCACHE_H

#include "storage/block.h"
#include "utils/relcache.h"

#include "am/summary/format.h"

/* what a table's relcache entry caches about its summaries */
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

typedef struct LabelheapRelCache
{
	bool		attnum_valid;	/* attnum computed */
	AttrNumber	attnum;			/* the label column, 0 if none */
	LabelSummaryRelCache summary;	/* its label summaries */
	bool		set_valid;		/* secids loaded */
	int			nsecids;
	Oid			secids[FLEXIBLE_ARRAY_MEMBER];	/* the label set */
} LabelheapRelCache;

extern LabelheapRelCache *labelheap_relcache(Relation rel);
extern void labelheap_relcache_set_labels(Relation rel, int nsecids,
										  const Oid *secids);

#endif							/* LABELHEAP_RELCACHE_H */
