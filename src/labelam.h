/*-------------------------------------------------------------------------
 *
 * src/labelam.h
 *	  Module-wide declarations of the labelam extension.
 *
 * Each subsystem (am, label_store, avc, label_sql) has an init function that
 * _PG_init calls while shared_preload_libraries is being processed.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_H
#define LABELAM_H

/* true once _PG_init ran during shared_preload_libraries processing */
extern bool labelam_preloaded;

extern void labelam_am_init(void);

#endif							/* LABELAM_H */
