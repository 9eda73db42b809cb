/*-------------------------------------------------------------------------
 *
 * src/hooks.h
 *	  Installing labelam's server hooks and callbacks (src/hooks.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_HOOKS_H
#define LABELAM_HOOKS_H

/* Called once from _PG_init, after every subsystem's init. */
extern void labelam_hooks_install(void);

#endif							/* LABELAM_HOOKS_H */
