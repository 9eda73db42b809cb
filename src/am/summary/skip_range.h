/*-------------------------------------------------------------------------
 *
 * src/am/summary/skip_range.h
 *	  Whether a scan may skip a block range (skip_range.c): what every way
 *	  of skipping asks.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_SKIP_RANGE_H
#define LABELHEAP_SKIP_RANGE_H

#include "storage/block.h"
#include "utils/relcache.h"

/* labelam.skip_ranges */
extern bool labelheap_skip_ranges;

extern bool labelheap_range_unreadable(Relation rel, Relation index,
									   BlockNumber blk);

#endif							/* LABELHEAP_SKIP_RANGE_H */
