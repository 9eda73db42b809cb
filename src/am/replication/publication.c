/*-------------------------------------------------------------------------
 *
 * src/am/replication/publication.c
 *	  Publishing a labelheap table needs its declared label column: that
 *	  column's value is how its rows' labels travel to a subscriber.
 *
 * Refused (55000, with a hint saying how to add the column), at the
 * object-access hook's OAT_POST_CREATE:
 *	- CREATE PUBLICATION of a labelheap table without a label column (FOR
 *	  TABLE, FOR TABLES IN SCHEMA, FOR ALL TABLES), or with a column list
 *	  that leaves the label column out; a partitioned table counts as
 *	  labelheap if one of its leaves is;
 *	- ALTER PUBLICATION ... ADD/SET TABLE and ADD TABLES IN SCHEMA alike;
 *	- CREATE TABLE of such a table in a schema a publication publishes, or
 *	  while a publication FOR ALL TABLES exists.
 * The publication's new catalog rows are not visible to the command's
 * catalog snapshot yet: they are read with SnapshotSelf.
 *
 * What is not refused here (ALTER TABLE ... DROP COLUMN of the label
 * column, SET ACCESS METHOD labelheap, SET SCHEMA into a published schema)
 * fails closed later: the publisher sends the table's rows without labels
 * and the subscriber refuses to apply a labelheap row without one
 * (apply.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_publication.h"
#include "catalog/pg_publication_namespace.h"
#include "catalog/pg_publication_rel.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/builtins.h"

#include "am/labelheap.h"
#include "am/replication/replication.h"

/* attnum of the declared label column in desc, 0 if none */
static AttrNumber
label_column(TupleDesc desc)
{
	Oid			typoid = labelheap_label_column_type();
	int			i;

	for (i = 0; OidIsValid(typoid) && i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && att->atttypid == typoid)
			return att->attnum;
	}
	return 0;
}

/* does rel hold labeled rows: a labelheap table, or a parent of one? */
static bool
holds_labeled_rows(Relation rel)
{
	List	   *leaves;
	ListCell   *lc;
	bool		result = false;

	if (is_labelheap_relation(rel))
		return true;
	if (rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
		return false;
	leaves = find_all_inheritors(RelationGetRelid(rel), AccessShareLock, NULL);
	foreach(lc, leaves)
	{
		HeapTuple	tuple = SearchSysCache1(RELOID,
											ObjectIdGetDatum(lfirst_oid(lc)));

		if (!HeapTupleIsValid(tuple))
			continue;
		result = is_labelheap_am(((Form_pg_class) GETSTRUCT(tuple))->relam);
		ReleaseSysCache(tuple);
		if (result)
			break;
	}
	list_free(leaves);
	return result;
}

/*
 * ERROR unless relid, published (by pubname, with the column list attrs or
 * every column if NULL), carries its label column.
 */
static void
check_published(Oid relid, int2vector *attrs, const char *pubname)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	AttrNumber	attnum;

	if (!holds_labeled_rows(rel))
	{
		relation_close(rel, AccessShareLock);
		return;
	}
	attnum = label_column(RelationGetDescr(rel));
	if (attnum == 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot publish table \"%s\" in publication \"%s\": it has no label column",
						RelationGetRelationName(rel), pubname),
				 errdetail("Logical replication carries the security labels of labelheap rows as the value of the table's declared label column."),
				 errhint("Add one: ALTER TABLE %s ADD COLUMN security_label labelam.security_label;",
						 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
													RelationGetRelationName(rel)))));
	if (attrs != NULL)
	{
		int			i;
		bool		listed = false;

		for (i = 0; i < attrs->dim1; i++)
			listed |= attrs->values[i] == attnum;
		if (!listed)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("cannot publish table \"%s\" in publication \"%s\" without its label column \"%s\"",
							RelationGetRelationName(rel), pubname,
							get_attname(relid, attnum, false)),
					 errdetail("Logical replication carries the security labels of labelheap rows as the value of the table's declared label column."),
					 errhint("Add the label column to the publication's column list.")));
	}
	relation_close(rel, AccessShareLock);
}

/* every table of the database (nspid InvalidOid) or of a schema */
static void
check_tables_of(Oid nspid, const char *pubname)
{
	Relation	classrel = table_open(RelationRelationId, AccessShareLock);
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *relids = NIL;
	ListCell   *lc;

	scan = systable_beginscan(classrel, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);

		if ((form->relkind == RELKIND_RELATION ||
			 form->relkind == RELKIND_PARTITIONED_TABLE) &&
			(!OidIsValid(nspid) || form->relnamespace == nspid) &&
			(form->relkind == RELKIND_PARTITIONED_TABLE ||
			 is_labelheap_am(form->relam)) &&
			form->oid >= FirstNormalObjectId)
			relids = lappend_oid(relids, form->oid);
	}
	systable_endscan(scan);
	table_close(classrel, AccessShareLock);

	/* the oldest first: the error names the same table on every run */
	list_sort(relids, list_oid_cmp);
	foreach(lc, relids)
		check_published(lfirst_oid(lc), NULL, pubname);
	list_free(relids);
}

/* the column list of a pg_publication_rel row, or NULL */
static int2vector *
row_attrs(HeapTuple tuple, TupleDesc desc)
{
	bool		isnull;
	Datum		d = heap_getattr(tuple, Anum_pg_publication_rel_prattrs, desc,
								 &isnull);

	return isnull ? NULL : (int2vector *) PG_DETOAST_DATUM_COPY(d);
}

/* one row of pg_publication_rel (ALTER PUBLICATION ... ADD/SET TABLE) */
static void
check_publication_rel(Oid prid)
{
	Relation	rel = table_open(PublicationRelRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_publication_rel_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(prid));
	scan = systable_beginscan(rel, PublicationRelObjectIndexId, true,
							  SnapshotSelf, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_publication_rel form = (Form_pg_publication_rel) GETSTRUCT(tuple);

		check_published(form->prrelid, row_attrs(tuple, RelationGetDescr(rel)),
						get_publication_name(form->prpubid, false));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/* one row of pg_publication_namespace (ADD TABLES IN SCHEMA) */
static void
check_publication_namespace(Oid pnid)
{
	Relation	rel = table_open(PublicationNamespaceRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_publication_namespace_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(pnid));
	scan = systable_beginscan(rel, PublicationNamespaceObjectIndexId, true,
							  SnapshotSelf, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_publication_namespace form =
			(Form_pg_publication_namespace) GETSTRUCT(tuple);

		check_tables_of(form->pnnspid, get_publication_name(form->pnpubid, false));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/* a new publication: all tables, or its tables and schemas */
static void
check_publication(Oid pubid)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *pubname = NULL;
	bool		alltables = false;

	rel = table_open(PublicationRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_publication_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(pubid));
	scan = systable_beginscan(rel, PublicationObjectIndexId, true,
							  SnapshotSelf, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_publication form = (Form_pg_publication) GETSTRUCT(tuple);

		pubname = pstrdup(NameStr(form->pubname));
		alltables = form->puballtables;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (pubname == NULL)
		return;
	if (alltables)
	{
		check_tables_of(InvalidOid, pubname);
		return;
	}

	rel = table_open(PublicationRelRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_publication_rel_prpubid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(pubid));
	scan = systable_beginscan(rel, PublicationRelPrpubidIndexId, true,
							  SnapshotSelf, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		check_published(((Form_pg_publication_rel) GETSTRUCT(tuple))->prrelid,
						row_attrs(tuple, RelationGetDescr(rel)), pubname);
	systable_endscan(scan);
	table_close(rel, AccessShareLock);

	rel = table_open(PublicationNamespaceRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, SnapshotSelf, 0, NULL);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_publication_namespace form =
			(Form_pg_publication_namespace) GETSTRUCT(tuple);

		if (form->pnpubid == pubid)
			check_tables_of(form->pnnspid, pubname);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/*
 * A new table in what a publication publishes.  Its pg_class row is not
 * visible to the command yet; its relcache entry is (heap_create made it).
 */
static void
check_new_table(Oid relid)
{
	Relation	rel = RelationIdGetRelation(relid);
	bool		labeled;
	Oid			nspid;
	List	   *pubs;

	if (!RelationIsValid(rel))
		return;
	labeled = rel->rd_rel->relkind == RELKIND_RELATION &&
		rel->rd_rel->relpersistence == RELPERSISTENCE_PERMANENT &&
		is_labelheap_relation(rel);
	nspid = RelationGetNamespace(rel);
	RelationClose(rel);
	if (!labeled)
		return;

	pubs = list_concat(GetAllTablesPublications(), GetSchemaPublications(nspid));
	if (pubs != NIL)
		check_published(relid, NULL, get_publication_name(linitial_oid(pubs),
														  false));
	list_free(pubs);
}

void
labelheap_publication_object_access(ObjectAccessType access, Oid classId,
									Oid objectId, int subId, void *arg)
{
	if (access != OAT_POST_CREATE)
		return;
	switch (classId)
	{
		case PublicationRelationId:
			check_publication(objectId);
			break;
		case PublicationRelRelationId:
			check_publication_rel(objectId);
			break;
		case PublicationNamespaceRelationId:
			check_publication_namespace(objectId);
			break;
		case RelationRelationId:
			if (subId == 0)
				check_new_table(objectId);
			break;
	}
}
