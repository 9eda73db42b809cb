/*-------------------------------------------------------------------------
 *
 * src/am/write/source_label.h
 *	  Rows written from a source that has a label of its own: a server
 *	  file that COPY FROM reads (src/files/copy.c).  Their labels are
 *	  decided in new_label.c with every other new row's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AM_WRITE_SOURCE_LABEL_H
#define LABELAM_AM_WRITE_SOURCE_LABEL_H

/*
 * From now until labelheap_source_label_pop, the rows that the current
 * frame (the COPY command's own, not the frames of the triggers, defaults
 * and functions it runs) inserts get the policy's label for the session's
 * rows at the level of level_of (avc_label_at_level), which
 * labelam.insert_label and a declared label column relabel (new_label.c).
 * A COPY run by a trigger of another pushes its own and pops back to the
 * outer one; pop in a PG_FINALLY.  Forgotten at transaction end too.
 */
typedef struct LabelheapSourceSave
{
	char	   *level_of;
	uint64		frame;
} LabelheapSourceSave;

extern LabelheapSourceSave labelheap_source_label_push(const char *level_of);
extern void labelheap_source_label_pop(LabelheapSourceSave save);

#endif							/* LABELAM_AM_WRITE_SOURCE_LABEL_H */
