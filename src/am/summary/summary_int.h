/*-------------------------------------------------------------------------
 *
 * src/am/summary/summary_int.h
 *	  The page layout of label summaries, shared by summary.c (storage,
 *	  writers, scans' reads) and summary_am.c (the index access method).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SUMMARY_INT_H
#define LABELHEAP_SUMMARY_INT_H

#include "storage/block.h"
#include "storage/bufpage.h"
#include "utils/relcache.h"

#include "am/summary/summary.h"
#include "pg_compat.h"

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

extern void summary_init_page(Page page, uint16 kind);
extern bool summary_page_is(Page page, uint16 kind);
extern LABELAM_NORETURN_BEFORE void summary_report_corrupt(Relation index,
														   BlockNumber blkno) LABELAM_NORETURN_AFTER;
extern bool summary_entry_add(LabelSummaryEntry *entry, Oid secid);
extern bool summary_merge_into_block(Relation heap, Relation index,
									 BlockNumber blkno, int first,
									 const LabelSummaryEntry *add, int n,
									 LabelSummaryEntry *result);
extern Oid	summary_am_oid(void);

#endif							/* LABELHEAP_SUMMARY_INT_H */
