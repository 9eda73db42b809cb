/*-------------------------------------------------------------------------
 *
 * src/am/ddl/refuse.c
 *	  DDL after which rows would leave labelheap: refused before it runs.
 *
 * A row never leaves labelheap, because every other access method would
 * store it without its label, readable by anyone with SELECT:
 *	- ALTER TABLE ... SET ACCESS METHOD away from labelheap is refused
 *	  unless a superuser allowed it for the session (labelam.allow_unlabel);
 *	- a partition tree is all labelheap or holds no labelheap partition:
 *	  CREATE [FOREIGN] TABLE ... PARTITION OF and ALTER TABLE ... ATTACH
 *	  PARTITION
 *	  that would mix labelheap leaves with leaves of another access method
 *	  are refused (either way round: a row routed or moved by UPDATE from a
 *	  labelheap partition into another would lose its label).
 * Partitioned tables themselves have no access method in PostgreSQL 15;
 * what counts are the leaves of the whole tree, from its root.  A tree
 * mixed before labelam refused it (or with labelam.allow_unlabel) is not
 * repaired: its rows can still move.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/tableam.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "commands/defrem.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/ddl/ddl.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"

bool		labelheap_allow_unlabel = false;

static void refuse_mixed_tree(Oid parent, Oid except, const char *partname,
							  bool adds_labelheap, bool adds_other);

/* Is the access method named amname labelheap? */
static bool
am_is_labelheap(const char *amname)
{
	return amname != NULL && strcmp(amname, "labelheap") == 0;
}

/*
 * ALTER TABLE ... SET ACCESS METHOD away from labelheap would drop every
 * label: refused unless a superuser allowed it for the session.  On a
 * partition, a change either way would mix its tree: refused always.
 */
static void
refuse_unlabeling(AlterTableStmt *stmt)
{
	ListCell   *lc;
	Oid			relid;
	Relation	rel;
	bool		labeled;
	bool		partition;

	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = lfirst(lc);
		bool		to_labelheap;

		if (cmd->subtype != AT_SetAccessMethod)
			continue;
		to_labelheap = am_is_labelheap(cmd->name);
		relid = RangeVarGetRelid(stmt->relation, AccessShareLock, stmt->missing_ok);
		if (!OidIsValid(relid))
			return;
		rel = relation_open(relid, NoLock);
		labeled = RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) &&
			is_labelheap_relation(rel);
		partition = rel->rd_rel->relispartition;
		relation_close(rel, NoLock);
		if (partition)
			refuse_mixed_tree(get_partition_parent(relid, true), relid,
							  stmt->relation->relname, to_labelheap,
							  !to_labelheap);
		if (to_labelheap)
			continue;
		if (labeled && !labelheap_allow_unlabel)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("cannot change the access method of \"%s\": its rows would lose their security labels",
							stmt->relation->relname),
					 errhint("A superuser may SET labelam.allow_unlabel = on for the session to allow it.")));
	}
}

/*
 * Which kinds of leaves does the partition tree (or single relation) relid
 * have: labelheap ones, others?
 */
static void
leaf_kinds(Oid relid, Oid except, bool *labelheap, bool *other)
{
	List	   *rels = find_all_inheritors(relid, NoLock, NULL);
	ListCell   *lc;

	foreach(lc, rels)
	{
		HeapTuple	tuple;
		Form_pg_class form;

		if (lfirst_oid(lc) == except)
			continue;
		tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(lfirst_oid(lc)));
		if (!HeapTupleIsValid(tuple))
			continue;
		form = (Form_pg_class) GETSTRUCT(tuple);
		if (RELKIND_HAS_TABLE_AM(form->relkind))
		{
			if (is_labelheap_am(form->relam))
				*labelheap = true;
			else
				*other = true;
		}
		else if (form->relkind == RELKIND_FOREIGN_TABLE)
			*other = true;		/* rows routed there leave the server */
		ReleaseSysCache(tuple);
	}
	list_free(rels);
}

/* The root of the partition tree that relid belongs to (relid if none). */
static Oid
tree_root(Oid relid)
{
	List	   *ancestors = get_partition_ancestors(relid);
	Oid			root = ancestors != NIL ? llast_oid(ancestors) : relid;

	list_free(ancestors);
	return root;
}

static void
refuse_mixed_tree(Oid parent, Oid except, const char *partname,
				  bool adds_labelheap, bool adds_other)
{
	bool		has_labelheap = false;
	bool		has_other = false;

	leaf_kinds(tree_root(parent), except, &has_labelheap, &has_other);
	if ((has_labelheap && adds_other) || (has_other && adds_labelheap))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot add partition \"%s\" to \"%s\": rows moved there would lose their security labels",
						partname, get_rel_name(parent)),
				 errdetail("A partition tree that holds labelheap partitions may hold partitions of no other access method, and the other way round."),
				 errhint("Create the partition with USING labelheap, or convert it with ALTER TABLE ... SET ACCESS METHOD labelheap first.")));
}

/* CREATE TABLE ... PARTITION OF */
static void
refuse_create_partition(CreateStmt *stmt)
{
	const char *amname;
	Oid			parent;

	if (stmt->partbound == NULL || stmt->partspec != NULL ||
		list_length(stmt->inhRelations) != 1)
		return;
	parent = RangeVarGetRelid(linitial(stmt->inhRelations), NoLock, true);
	if (!OidIsValid(parent))
		return;
	if (IsA(stmt, CreateForeignTableStmt))
		amname = NULL;
	else
		amname = stmt->accessMethod ? stmt->accessMethod :
			GetConfigOption("default_table_access_method", false, false);
	refuse_mixed_tree(parent, InvalidOid, stmt->relation->relname,
					  am_is_labelheap(amname), !am_is_labelheap(amname));
}

/* ALTER TABLE ... ATTACH PARTITION */
static void
refuse_attach_partition(AlterTableStmt *stmt)
{
	ListCell   *lc;

	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = lfirst(lc);
		PartitionCmd *pc;
		Oid			parent;
		Oid			part;
		bool		labelheap = false;
		bool		other = false;

		if (cmd->subtype != AT_AttachPartition)
			continue;
		pc = (PartitionCmd *) cmd->def;
		parent = RangeVarGetRelid(stmt->relation, NoLock, true);
		part = RangeVarGetRelid(pc->name, NoLock, true);
		if (!OidIsValid(parent) || !OidIsValid(part))
			continue;
		leaf_kinds(part, InvalidOid, &labelheap, &other);
		refuse_mixed_tree(parent, InvalidOid, pc->name->relname, labelheap,
						  other);
	}
}

/* Called by src/hooks.c before every utility command runs. */
void
labelheap_refuse_utility(PlannedStmt *pstmt)
{
	Node	   *stmt = pstmt->utilityStmt;

	if (IsA(stmt, AlterTableStmt))
	{
		refuse_unlabeling((AlterTableStmt *) stmt);
		refuse_attach_partition((AlterTableStmt *) stmt);
	}
	else if (IsA(stmt, CreateStmt) || IsA(stmt, CreateForeignTableStmt))
		refuse_create_partition((CreateStmt *) stmt);
}

void
labelheap_refuse_init(void)
{
	DefineCustomBoolVariable("labelam.allow_unlabel",
							 "Allows ALTER TABLE ... SET ACCESS METHOD away from labelheap, which drops every row's label.",
							 NULL,
							 &labelheap_allow_unlabel,
							 false,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);
}
