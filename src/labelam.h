/*-------------------------------------------------------------------------
 *
 * src/labelam.h
 *	  Module-wide declarations of the labelam extension.
 *
 * Subsystems am, label_store and avc have an init function (their settings)
 * that _PG_init calls while shared_preload_libraries is being processed;
 * then src/hooks.c installs every server hook and callback.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_H
#define LABELAM_H

/* true once _PG_init ran during shared_preload_libraries processing */
extern bool labelam_preloaded;


#endif							/* LABELAM_H */
