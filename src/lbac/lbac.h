/*-------------------------------------------------------------------------
 *
 * src/lbac/lbac.h
 *	  The lbac provider's entry points for src/hooks.c and _PG_init: a
 *	  label model defined in SQL with Oracle Label Security's semantics
 *	  (levels, compartments, a tree of groups, per-role authorizations and
 *	  privileges), kept in the extension's tables in schema lbac.
 *
 * The provider itself (avc_lbac_provider) is declared with the others in
 * avc/provider.h; src/lbac uses the avc, never the other way round.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_LBAC_H
#define LABELAM_LBAC_H

#include "catalog/objectaccess.h"
#include "nodes/pg_list.h"
#include "nodes/plannodes.h"

/* settings (model.c): the model handed to parallel workers */
extern void lbac_init(void);

/* model.c: a relcache invalidation (InvalidOid: all) */
extern void lbac_relcache(Oid relid);

/*
 * guard.c: nobody changes the model's tables but lbac's functions, not
 * superusers either: executor writes (INSERT, UPDATE, DELETE, MERGE, COPY
 * FROM), TRUNCATE, ALTER, CREATE INDEX, ALTER EXTENSION labelam ADD/DROP.
 */
extern bool lbac_exec_check_perms(List *rangeTable, List *rtePermInfos,
								  bool ereport_on_violation);
extern void lbac_object_access(ObjectAccessType access, Oid classId,
							   Oid objectId, int subId, void *arg);
extern void lbac_utility(PlannedStmt *pstmt);

#endif							/* LABELAM_LBAC_H */
