/*-------------------------------------------------------------------------
 *
 * src/am/tuple_label.h
 *	  Reading the security label of a labelheap tuple header (tuple.c
 *	  writes it), inline: the row filter reads one for every row.
 *
 * See labelheap.h for the layout.  The check value makes a header whose
 * label area was overwritten or never written (for instance a tuple that
 * some foreign code path rebuilt with a plain heap header, keeping the
 * infomask bit) read as unlabeled rather than as whatever bytes happen to
 * sit at t_hoff - 4.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_TUPLE_LABEL_H
#define LABELHEAP_TUPLE_LABEL_H

#include "access/htup_details.h"

#include "am/labelheap.h"

/* mixes the secid so that neither zeroes nor copies of it pass the check */
#define LABEL_CHECK_MAGIC	0x4C424850	/* "LBHP" */

static inline uint32
label_check_value(Oid secid)
{
	return (secid * 0x9E3779B1U) ^ LABEL_CHECK_MAGIC;
}

/* t_hoff a labeled tuple with this header must have */
static inline uint32
labeled_hoff(HeapTupleHeader tup)
{
	Size		len = SizeofHeapTupleHeader;

	if (tup->t_infomask & HEAP_HASNULL)
		len += BITMAPLEN(HeapTupleHeaderGetNatts(tup));
	return MAXALIGN(len) + LABELHEAP_LABEL_SIZE;
}

/*
 * Why the header holds no valid label, or NULL if it does (then *secid is
 * set).  len is the tuple's length (the item's length on the page).
 */
static inline const char *
label_status(HeapTupleHeader tup, uint32 len, Oid *secid)
{
	char	   *label;

	if ((tup->t_infomask & LABELHEAP_HAS_LABEL) == 0)
		return "label missing";
	if (tup->t_hoff != labeled_hoff(tup) || tup->t_hoff > len)
		return "header has no room for a label";
	label = (char *) tup + tup->t_hoff - LABELHEAP_LABEL_SIZE;
	*secid = *(Oid *) (label + sizeof(uint32));
	if (*(uint32 *) label != label_check_value(*secid))
		return "label check value mismatch";
	if (!OidIsValid(*secid))
		return "label is the invalid secid 0";
	return NULL;
}

/* The tuple's label, or InvalidOid if it has no valid one. */
static inline Oid
labelheap_header_secid(HeapTupleHeader tup, uint32 len)
{
	Oid			secid;

	if (label_status(tup, len, &secid) != NULL)
		return InvalidOid;
	return secid;
}

#endif							/* LABELHEAP_TUPLE_LABEL_H */
