/*-------------------------------------------------------------------------
 *
 * src/am/read/frames.h
 *	  Who reads (frames.c): how the innermost frame treats a row the
 *	  session may not select.  Entering and leaving frames is src/hooks.c's
 *	  (labelheap_hooks.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_FRAMES_H
#define LABELHEAP_FRAMES_H

#include "nodes/nodes.h"
#include "utils/relcache.h"

#include "am/labelheap_hooks.h"
#include "pg_compat.h"

extern PGDLLIMPORT LabelheapReadMode labelheap_current_read_mode;

/* how the innermost frame treats a row the session may not select */
static inline LabelheapReadMode
labelheap_frame_mode(void)
{
	return labelheap_current_read_mode;
}

extern uint64 labelheap_frame_id(void);
extern uint64 labelheap_frame_outer_id(void);
extern bool labelheap_frame_is_utility(NodeTag stmt);
extern LABELAM_NORETURN_BEFORE void labelheap_beyond_reach(Relation rel,
														 const char *action) LABELAM_NORETURN_AFTER;

#endif							/* LABELHEAP_FRAMES_H */
