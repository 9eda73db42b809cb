/*-------------------------------------------------------------------------
 *
 * src/am/summary/summary.h
 *	  Label summaries: for each range of a labelheap table's blocks, the
 *	  labels its tuples carry (summary.c keeps them, summary_am.c is their
 *	  index access method; scans that skip ranges are skipping.h's).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SUMMARY_H
#define LABELHEAP_SUMMARY_H

#include "executor/tuptable.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "utils/relcache.h"

#include "am/summary/format.h"
#include "pg_compat.h"

/* storage, writers, scans' reads */
extern void labelheap_summary_note(Relation rel, BlockNumber blk, Oid secid);
extern void labelheap_summary_note_batch(Relation rel,
										 TupleTableSlot **slots,
										 const Oid *secids, int n);
extern bool labelheap_summary_entry(Relation index, BlockNumber heapblk,
									LabelSummaryEntry *entry);
extern Oid	labelheap_summary_scan_index(Relation rel);
extern int	labelheap_summary_indexes(Relation rel, Oid *indexes);
extern bool labelheap_summary_covers(const LabelSummaryEntry *entry,
									 Oid secid);
extern bool labelheap_summary_corrupt(Relation index, BlockNumber heapblk,
									  Oid secid);

/* entries labelheap's writers widened in this backend */
extern uint64 labelheap_summary_writes;

/* pages and entries, for the index access method (summary_am.c) */
extern void summary_init_page(Page page, uint16 kind);
extern bool summary_page_is(Page page, uint16 kind);
extern LABELAM_NORETURN_BEFORE void summary_report_corrupt(Relation index,
														   BlockNumber blkno) LABELAM_NORETURN_AFTER;
extern bool summary_entry_add(LabelSummaryEntry *entry, Oid secid);
extern bool summary_merge_into_block(Relation index, BlockNumber blkno,
									 int first, const LabelSummaryEntry *add,
									 int n, LabelSummaryEntry *result);
extern Oid	summary_am_oid(void);

#endif							/* LABELHEAP_SUMMARY_H */
