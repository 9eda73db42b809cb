/*-------------------------------------------------------------------------
 *
 * src/labelam.c
 *	  Module entry point: refuses to work unless preloaded, then lets each
 *	  subsystem register its settings, hooks and shared memory.
 *
 * labelam needs shared memory (the label dictionary) and hooks that must be
 * in place before the first query of every backend, so loading it on demand
 * (as CREATE EXTENSION or a function call would) cannot work.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"

#include "am/labelheap.h"
#include "hooks.h"
#include "labelam.h"
#include "label_store/label_store.h"
#include "avc/avc.h"
#include "label_sql/label_sql.h"
#include "objects/objects.h"
#include "lbac/lbac.h"

PG_MODULE_MAGIC;

bool		labelam_preloaded = false;

void		_PG_init(void);

PG_FUNCTION_INFO_V1(labelam_check_preloaded);

void
_PG_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;

	labelam_preloaded = true;

	/* settings and set-up, subsystem by subsystem */
	labelam_am_init();
	label_store_init();
	avc_init();
	lbac_init();
	objects_init();
	label_sql_dump_init();

	/* every server hook and callback: see src/hooks.c for what runs when */
	labelam_hooks_install();

	MarkGUCPrefixReserved("labelam");
}

/*
 * Called by the extension script, so that CREATE EXTENSION fails cleanly
 * in a server that did not preload the library.
 */
Datum
labelam_check_preloaded(PG_FUNCTION_ARGS)
{
	if (!labelam_preloaded)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelam must be loaded via shared_preload_libraries"),
				 errhint("Add 'labelam' to shared_preload_libraries in postgresql.conf and restart the server.")));
	PG_RETURN_VOID();
}
