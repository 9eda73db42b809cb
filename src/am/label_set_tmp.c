/*-------------------------------------------------------------------------
 *
 * label_set_tmp.c
 *	  TEMPORARY until sec-labelset merges: a stand-in for
 *	  labelheap_label_set_allowed that says "no" (the session is assumed
 *	  not to reach every label of the relation), so that sec-stats builds
 *	  and tests before the label set exists.  Drop with its "TEMP:" commit.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "am/label_set.h"

bool
labelheap_label_set_allowed(Relation rel, uint32 perms)
{
	return false;
}
