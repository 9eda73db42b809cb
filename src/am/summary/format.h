/*-------------------------------------------------------------------------
 *
 * src/am/summary/format.h
 *	  The stored format of label summaries: an entry per range of heap
 *	  blocks, and the pages of the labelsummary index that hold them.
 *	  Read and written by summary.c and summary_am.c; entries are also
 *	  cached in the relcache (am/relcache.h) and read by scans.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SUMMARY_FORMAT_H
#define LABELHEAP_SUMMARY_FORMAT_H

#include "storage/block.h"
#include "storage/bufpage.h"

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

#define LABELSUMMARY_MAGIC		0x4C53554D	/* "LSUM" */
#define LABELSUMMARY_VERSION	1
#define LABELSUMMARY_METAPAGE	0

/* special space of every summary page */
typedef struct LabelSummaryOpaque
{
	uint32		magic;
	uint16		kind;			/* LS_KIND_* */
	uint16		unused;
} LabelSummaryOpaque;

#define LS_KIND_META	1
#define LS_KIND_ENTRIES	2

typedef struct LabelSummaryMeta
{
	uint32		version;
	uint32		pages_per_range;
	uint32		slots;
} LabelSummaryMeta;

#define LS_CONTENTS_SIZE \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - MAXALIGN(sizeof(LabelSummaryOpaque)))
#define LS_ENTRIES_PER_PAGE \
	((int) (LS_CONTENTS_SIZE / sizeof(LabelSummaryEntry)))

#define LS_OPAQUE(page)	((LabelSummaryOpaque *) PageGetSpecialPointer(page))
#define LS_ENTRIES(page) ((LabelSummaryEntry *) PageGetContents(page))

static inline BlockNumber
summary_range_block(BlockNumber range)
{
	return 1 + range / LS_ENTRIES_PER_PAGE;
}

static inline int
summary_range_slot(BlockNumber range)
{
	return range % LS_ENTRIES_PER_PAGE;
}

#endif							/* LABELHEAP_SUMMARY_FORMAT_H */
