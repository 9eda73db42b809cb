/*-------------------------------------------------------------------------
 *
 * src/lbac/guard.c
 *	  Nobody changes the lbac model but lbac's functions, superusers
 *	  included: the tables are written only through admin.c, which checks
 *	  that the session's login role administers the model.
 *
 * Refused, with 42501, on the extension's tables in schema lbac:
 *	 - writes through the executor (INSERT, UPDATE, DELETE, MERGE, COPY
 *	   FROM): ExecutorCheckPerms, whoever asks, whatever the privileges;
 *	 - TRUNCATE (object access hook);
 *	 - ALTER TABLE (ProcessUtility) and everything else that alters the
 *	   tables as objects (object access hook: post-alter, and post-create
 *	   of a column), and CREATE INDEX on them (admin.c
 *	   maintains their indexes itself: an index of its own would take
 *	   expressions it cannot evaluate);
 *	 - ALTER EXTENSION labelam ADD or DROP, which could swap a table of the
 *	   model for one of the caller's;
 *	 - DROP ROLE of a role the model of this database authorizes or lets
 *	   administer (its OID could come back for another role).
 * Only CREATE EXTENSION labelam itself writes them otherwise (its script
 * makes the role running it the first administrator).  What is left to a
 * superuser is the server itself (its settings, its files, its roles'
 * passwords): the model's guarantee against superusers is that no SQL
 * changes it behind its administrators' back, not that the server cannot
 * be reconfigured.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"

#include "lbac/lbac_int.h"
#include "pg_compat.h"

/* CREATE EXTENSION labelam: its script writes the tables */
static bool
creating_labelam(void)
{
	return creating_extension &&
		CurrentExtensionObject == get_extension_oid("labelam", true);
}

static void
refuse(Oid relid, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("cannot %s table \"%s\" of the lbac model", what,
					get_rel_name(relid)),
			 errdetail("The lbac model is changed only through lbac's functions, by its administrators, superusers included."),
			 errhint("Use lbac.create_level(), lbac.set_levels() and the other functions of schema lbac.")));
}

bool
lbac_exec_check_perms(List *rangeTable, List *rtePermInfos,
					  bool ereport_on_violation)
{
	ListCell   *lc;

#if PG_VERSION_NUM >= 160000
	foreach(lc, rtePermInfos)
	{
		RTEPermissionInfo *perm = lfirst(lc);
		Oid			relid = perm->relid;
		AclMode		required = perm->requiredPerms;
#else
	foreach(lc, rangeTable)
	{
		RangeTblEntry *rte = lfirst(lc);
		Oid			relid = rte->relid;
		AclMode		required = rte->requiredPerms;

		if (rte->rtekind != RTE_RELATION)
			continue;
#endif
		if ((required & (ACL_INSERT | ACL_UPDATE | ACL_DELETE)) == 0)
			continue;
		if (lbac_is_model_table(relid) && !creating_labelam())
		{
			if (!ereport_on_violation)
				return false;
			refuse(relid, "write directly to");
		}
	}
	return true;
}

void
lbac_object_access(ObjectAccessType access, Oid classId, Oid objectId,
				   int subId, void *arg)
{
	switch (access)
	{
		case OAT_TRUNCATE:
			if (lbac_is_model_table(objectId))
				refuse(objectId, "truncate");
			break;
		case OAT_POST_CREATE:
			/* a column added (ALTER TABLE ADD COLUMN) */
			if (classId == RelationRelationId && subId != 0 &&
				lbac_is_model_table(objectId) && !creating_labelam())
				refuse(objectId, "alter");
			break;
		case OAT_POST_ALTER:
			if (classId == RelationRelationId &&
				lbac_is_model_table(objectId) && !creating_labelam())
				refuse(objectId, "alter");
			break;
		case OAT_DROP:
			if (classId == AuthIdRelationId)
			{
				const LbacModel *m = lbac_model_in_force();

				if (lbac_find_auth(m, objectId) != NULL ||
					lbac_is_admin(m, objectId))
					ereport(ERROR,
							(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
							 errmsg("role \"%s\" cannot be dropped because the lbac model of this database names it",
									GetUserNameFromId(objectId, false)),
							 errhint("Remove it first with lbac.drop_authorization() or lbac.revoke_administration().")));
			}
			break;
		default:
			break;
	}
}

void
lbac_utility(PlannedStmt *pstmt)
{
	Node	   *stmt = pstmt->utilityStmt;

	if (IsA(stmt, AlterExtensionContentsStmt) &&
		strcmp(((AlterExtensionContentsStmt *) stmt)->extname, "labelam") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot add objects to or drop objects from extension labelam"),
				 errdetail("A table of the lbac model taken out of the extension could be replaced by another.")));
	if (IsA(stmt, IndexStmt) || IsA(stmt, AlterTableStmt))
	{
		RangeVar   *rv = IsA(stmt, IndexStmt) ?
		((IndexStmt *) stmt)->relation : ((AlterTableStmt *) stmt)->relation;
		Oid			relid;
		int			i;

		/*
		 * Names first: looking a name up runs the object access hook's
		 * schema search (an object check, audited), which a statement on
		 * any other table must not pay twice.
		 */
		if (rv->schemaname != NULL && strcmp(rv->schemaname, "lbac") != 0)
			return;
		for (i = 0; i < LBAC_NTABLES; i++)
			if (strcmp(rv->relname, lbac_table_names[i]) == 0)
				break;
		if (i == LBAC_NTABLES)
			return;
		relid = RangeVarGetRelid(rv, NoLock, true);
		if (OidIsValid(relid) && lbac_is_model_table(relid) &&
			!creating_labelam())
			refuse(relid, IsA(stmt, IndexStmt) ? "index" : "alter");
	}
}
