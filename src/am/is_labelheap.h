/*-------------------------------------------------------------------------
 *
 * src/am/is_labelheap.h
 *	  The labelheap routine's storage (is_labelheap.c), which handler.c
 *	  fills.  Whether a relation is labelheap is asked through labelheap.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_IS_LABELHEAP_H
#define LABELHEAP_IS_LABELHEAP_H

#include "access/tableam.h"

extern TableAmRoutine labelheap_methods;

#endif							/* LABELHEAP_IS_LABELHEAP_H */
