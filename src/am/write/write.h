/*-------------------------------------------------------------------------
 *
 * src/am/write/write.h
 *	  The tuple-writing callbacks of the labelheap routine (write.c);
 *	  handler.c installs them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_WRITE_H
#define LABELHEAP_WRITE_H

#include "access/tableam.h"

#include "pg_compat.h"

extern void labelheap_tuple_insert(Relation rel, TupleTableSlot *slot,
								   CommandId cid, int options,
								   struct BulkInsertStateData *bistate);
extern void labelheap_tuple_insert_speculative(Relation rel,
											   TupleTableSlot *slot,
											   CommandId cid, int options,
											   struct BulkInsertStateData *bistate,
											   uint32 specToken);
extern void labelheap_multi_insert(Relation rel, TupleTableSlot **slots,
								   int ntuples, CommandId cid, int options,
								   struct BulkInsertStateData *bistate);
extern TM_Result labelheap_tuple_update(Relation rel, ItemPointer otid,
										TupleTableSlot *slot, CommandId cid,
										Snapshot snapshot, Snapshot crosscheck,
										bool wait, TM_FailureData *tmfd,
										LockTupleMode *lockmode,
										LabelamUpdateIndexes * update_indexes);
extern TM_Result labelheap_tuple_delete(Relation rel, ItemPointer tid,
										CommandId cid, Snapshot snapshot,
										Snapshot crosscheck, bool wait,
										TM_FailureData *tmfd,
										bool changingPart);

#endif							/* LABELHEAP_WRITE_H */
