/*-------------------------------------------------------------------------
 *
 * label_set.h
 *	  TEMPORARY until sec-labelset merges: the one declaration of the label
 *	  set API (src/am/label_set.h on sec-labelset) that sec-stats uses.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_LABEL_SET_H
#define LABELHEAP_LABEL_SET_H

#include "utils/relcache.h"

/* the session holds perms (AVC_DB_TUPLE_* bits) on every label in rel */
extern bool labelheap_label_set_allowed(Relation rel, uint32 perms);

#endif							/* LABELHEAP_LABEL_SET_H */
