/*-------------------------------------------------------------------------
 *
 * src/am/tuple.h
 *	  Writing the security label into a labelheap tuple and walking the
 *	  tuples stored in a relation (tuple.c).  Reading the label back is
 *	  tuple_label.h's, inline.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_TUPLE_H
#define LABELHEAP_TUPLE_H

#include "access/htup_details.h"
#include "storage/itemptr.h"
#include "utils/relcache.h"

extern HeapTuple labelheap_form_tuple(TupleDesc tupleDescriptor,
									  Datum *values, bool *isnull, Oid secid);
extern HeapTuple labelheap_copy_with_label(HeapTuple src, TupleDesc desc,
										   Oid secid);
extern HeapTuple labelheap_label_in_place(HeapTuple tuple, TupleDesc desc,
										   Oid secid);
extern const char *labelheap_header_problem(HeapTupleHeader tup, uint32 len);

/* called for every tuple stored in a relation, live or not */
typedef void (*LabelheapStoredFn) (HeapTupleHeader tup, uint32 len,
								   ItemPointer tid, void *arg);
extern void labelheap_walk_stored(Relation rel, LabelheapStoredFn fn,
								  void *arg);

#endif							/* LABELHEAP_TUPLE_H */
