/*-------------------------------------------------------------------------
 *
 * src/am/ddl/ddl.h
 *	  Whole-table operations: DDL after which rows would leave labelheap
 *	  (refuse.c), and what the copies of heap's index builds and rewrites
 *	  share (index_scan.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_DDL_H
#define LABELHEAP_DDL_H

#include "access/htup.h"
#include "access/tableam.h"

struct HeapScanDescData;

/* refuse.c: DDL after which rows would leave labelheap */
extern bool labelheap_allow_unlabel;
extern void labelheap_refuse_init(void);

/* index_scan.c: what index builds and rewrites share */
extern void labelheap_require_readable(Relation rel, HeapTuple tuple,
									   const char *action);
extern HeapTuple labelheap_build_getnext(TableScanDesc scan,
										 TupleTableSlot *scratch);
extern BlockNumber labelheap_build_blocks_done(struct HeapScanDescData *hscan);

#endif							/* LABELHEAP_DDL_H */
