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
 * From now until labelheap_source_label_clear, the rows that the current
 * frame (the COPY command's own, not the frames of the triggers, defaults
 * and functions it runs) inserts get the label they would otherwise get
 * (labelam.insert_label, else the policy's), at the level of level_of
 * (avc_label_at_level), checked as that label would be.  Forgotten at
 * transaction end too.
 */
extern void labelheap_source_label_set(const char *level_of);
extern void labelheap_source_label_clear(void);

#endif							/* LABELAM_AM_WRITE_SOURCE_LABEL_H */
