/*-------------------------------------------------------------------------
 *
 * src/am/write/new_label.h
 *	  Which label a new tuple version gets (the declared label column,
 *	  carried labels, labelam.insert_label/update_label, the policy's
 *	  label), its checks done (new_label.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_NEW_LABEL_H
#define LABELHEAP_NEW_LABEL_H

#include "access/tableam.h"
#include "executor/tuptable.h"

#include "pg_compat.h"

typedef struct LabelheapBatchLabel
{
	Oid			secid;			/* the label of the batch's rows */
	uint32		perms;			/* what it needs */
	bool		checked;
	AttrNumber	attnum;			/* the table's label column, 0 if none */
} LabelheapBatchLabel;

extern Oid	labelheap_insert_secid(Relation rel, TupleTableSlot *slot);
extern void labelheap_batch_label_begin(Relation rel,
										LabelheapBatchLabel *batch);
extern Oid	labelheap_batch_row_secid_slow(Relation rel,
										   LabelheapBatchLabel *batch,
										   TupleTableSlot *slot);

/*
 * Label of one row of a batch, its checks done: the batch's label, checked
 * once, unless the table has a label column.
 */
static inline Oid
labelheap_batch_row_secid(Relation rel, LabelheapBatchLabel *batch,
						  TupleTableSlot *slot)
{
	if (likely(batch->attnum == 0 && batch->checked))
		return batch->secid;
	return labelheap_batch_row_secid_slow(rel, batch, slot);
}
extern Oid	labelheap_update_secid(Relation rel, Oid oldsecid,
								   TupleTableSlot *slot);
extern void labelheap_labeling_init(void);
extern void labelheap_rewrite_scan_begin(TableScanDesc scan);
extern void labelheap_rewrite_scan_end(TableScanDesc scan);
extern void labelheap_rewrite_scan_tuple(TableScanDesc scan, Oid secid);
extern void labelheap_row_moving(Relation from, Oid secid);
extern PGDLLIMPORT bool labelheap_rewrite_active LABELAM_HIDDEN;

#endif							/* LABELHEAP_NEW_LABEL_H */
