/*-------------------------------------------------------------------------
 *
 * src/am/write/label_column.h
 *	  Taking a written value out of a table's declared label column
 *	  (label_column.c).  Which column it is, and its type, are asked
 *	  through labelheap.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_LABEL_COLUMN_H
#define LABELHEAP_LABEL_COLUMN_H

#include "executor/tuptable.h"

extern Oid	labelheap_label_column_take(TupleTableSlot *slot, AttrNumber attnum);

#endif							/* LABELHEAP_LABEL_COLUMN_H */
