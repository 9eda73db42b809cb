/*-------------------------------------------------------------------------
 *
 * src/am/verify.h
 *	  What verify.c shares with the label set's repair
 *	  (label_set/label_set_repair.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_VERIFY_H
#define LABELHEAP_VERIFY_H

#include "access/htup_details.h"

/*
 * Did the transaction that inserted tup abort (or crash)?  Such a tuple
 * version never became visible, and its label set row may rightly be
 * gone with its transaction.
 */
extern bool labelheap_inserter_aborted(HeapTupleHeader tup);

#endif							/* LABELHEAP_VERIFY_H */
