/*-------------------------------------------------------------------------
 *
 * src/am/write/toast.h
 *	  labelheap's own TOAST preparation (toast.c), for the writers that
 *	  cannot use heap's toaster (write.c, heap/copy_for_cluster.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_TOAST_H
#define LABELHEAP_TOAST_H

#include "access/htup.h"
#include "access/toast_helper.h"
#include "utils/relcache.h"

typedef struct LabelheapToast
{
	ToastTupleContext ttc;
	Datum	   *values;
	bool	   *isnull;
	Datum	   *oldvalues;
	bool	   *oldisnull;
	ToastAttrInfo *attr;
	bool	   *fresh;			/* values this preparation pushed out */
} LabelheapToast;

extern bool labelheap_debug_own_write;
extern bool labelheap_needs_toast(HeapTuple newtup, bool old_has_external);
extern HeapTuple labelheap_toast_tuple(Relation rel, Datum *values,
									   bool *isnull, HeapTuple oldtup,
									   int options, Oid secid,
									   LabelheapToast **state);
extern void labelheap_toast_finish(LabelheapToast *state, bool written);

#endif							/* LABELHEAP_TOAST_H */
