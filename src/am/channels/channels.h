/*-------------------------------------------------------------------------
 *
 * src/am/channels/channels.h
 *	  What the rest of the access method asks of the channels that keep
 *	  hidden rows out of what a session observes: ANALYZE's sample
 *	  (analyze.c) and error messages (messages.c).  Their hook entry points
 *	  are in labelheap_hooks.h, their SQL-visible checks in labelheap.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_CHANNELS_H
#define LABELHEAP_CHANNELS_H

#include "access/tableam.h"

/* analyze.c: ANALYZE samples rows the statistics label may select */
extern bool labelheap_scan_analyze_next_tuple(TableScanDesc scan,
											  TransactionId OldestXmin,
											  double *liverows,
											  double *deadrows,
											  TupleTableSlot *slot);

/* messages.c: what error messages may show */
extern void labelheap_note_conflict_row(Oid secid);

#endif							/* LABELHEAP_CHANNELS_H */
