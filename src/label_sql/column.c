/*-------------------------------------------------------------------------
 *
 * src/label_sql/column.c
 *	  The declared label column: a column of type labelam.security_label
 *	  whose value is the row's label, kept in the tuple header.
 *
 * The data area always holds NULL for the column.  Writes: labelheap's
 * write callbacks (am/write/write.c, am/write/label_column.c) take the column's value
 * out of the slot and label the row with it.  Reads: parse analysis
 * (parse.c) replaces every Var of the column by labelam.row_label(t.tableoid,
 * t.ctid); "COPY t TO", which is never analyzed, is turned into
 * "COPY (SELECT ... FROM ONLY t) TO" here, so that pg_dump carries labels.
 * DDL: an object-access hook refuses a second such column in a table, and
 * indexes and constraints on it in a labelheap or partitioned table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "commands/extension.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "avc/avc.h"
#include "label_sql/label_sql.h"

PG_FUNCTION_INFO_V1(labelam_check_label);


/* check_label(text) returns boolean: the domain's CHECK */
Datum
labelam_check_label(PG_FUNCTION_ARGS)
{
	(void) avc_storable_label(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_BOOL(true);
}

/*
 * The pg_class row of relid, copied, as this command sees it: the hooks
 * below run before the CommandCounterIncrement that makes catalog changes
 * visible, hence SnapshotSelf.  NULL if there is none.
 */
static Form_pg_class
new_pg_class(Oid relid)
{
	Relation	classrel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	Form_pg_class result = NULL;

	classrel = table_open(RelationRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_class_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(classrel, ClassOidIndexId, true,
							  SnapshotSelf, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		result = palloc(sizeof(FormData_pg_class));
		memcpy(result, GETSTRUCT(tup), sizeof(FormData_pg_class));
	}
	systable_endscan(scan);
	table_close(classrel, AccessShareLock);
	return result;
}

/*
 * The label columns of relation relid as this command sees them: the
 * number of them, the attnum of the last one (0 if none), and whether one
 * is NOT NULL.
 */
static int
new_label_columns(Oid relid, AttrNumber *attnum, bool *notnull)
{
	Oid			typoid = labelheap_label_column_type();
	Relation	attrel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	int			count = 0;

	*attnum = 0;
	*notnull = false;
	if (!OidIsValid(typoid))
		return 0;
	attrel = table_open(AttributeRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_attribute_attrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(attrel, AttributeRelidNumIndexId, true,
							  SnapshotSelf, 1, &key);
	while (HeapTupleIsValid(tup = systable_getnext(scan)))
	{
		Form_pg_attribute att = (Form_pg_attribute) GETSTRUCT(tup);

		if (att->attnum > 0 && !att->attisdropped && att->atttypid == typoid)
		{
			count++;
			*attnum = att->attnum;
			*notnull |= att->attnotnull;
		}
	}
	systable_endscan(scan);
	table_close(attrel, AccessShareLock);
	return count;
}

/*
 * NOT NULL on the label column of a table whose rows carry labels: the
 * stored value is always NULL, so the constraint would fail every row.
 * Reached from the column (attnotnull) and, from PostgreSQL 18, where NOT
 * NULL is a pg_constraint row too, from the constraint: one message.
 */
static void
refuse_label_not_null(const char *relname)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("the label column of relation \"%s\" cannot be NOT NULL",
					relname),
			 errdetail("The column's value lives in the tuple header; its stored value is always NULL."),
			 errhint("Every row has a label; a NULL written keeps the default one.")));
}

/*
 * Refuse a second label column in a table, and NOT NULL on it in a table
 * whose rows carry labels (an UPDATE that does not set the column forms
 * the new row from the stored NULL).  Views, composite types and the like
 * may have any number of columns of the type: they store no rows.
 */
static void
check_label_columns(Oid relid)
{
	Form_pg_class classform;
	AttrNumber	attnum;
	bool		notnull;
	int			count = new_label_columns(relid, &attnum, &notnull);

	if (count == 0 || (count == 1 && !notnull))
		return;
	classform = new_pg_class(relid);
	if (classform == NULL ||
		(classform->relkind != RELKIND_RELATION &&
		 classform->relkind != RELKIND_PARTITIONED_TABLE &&
		 classform->relkind != RELKIND_MATVIEW))
		return;
	if (count > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TABLE_DEFINITION),
				 errmsg("relation \"%s\" cannot have more than one column of type labelam.security_label",
						NameStr(classform->relname)),
				 errdetail("A row has one security label, stored in its header."),
				 errhint("Declare one label column, or keep further copies as text.")));
	if (classform->relkind == RELKIND_PARTITIONED_TABLE ||
		classform->relam == get_am_oid("labelheap", true))
		refuse_label_not_null(NameStr(classform->relname));
}

/*
 * Refuse an index on the label column of a table: it would index the
 * stored value, which is always NULL.  An index on a non-labelheap table
 * indexes what that table stores, and is left alone.
 */
static void
check_label_index(Oid indexoid)
{
	HeapTuple	tup;
	Form_pg_index index;
	Relation	indexrel;
	SysScanDesc scan;
	ScanKeyData key;
	Oid			heapoid = InvalidOid;
	Bitmapset  *attrs = NULL;
	AttrNumber	attnum;
	bool		notnull;
	Relation	heaprel;
	bool		labeled;
	int			i;

	indexrel = table_open(IndexRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_index_indexrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(indexoid));
	scan = systable_beginscan(indexrel, IndexRelidIndexId, true,
							  SnapshotSelf, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		datum;

		index = (Form_pg_index) GETSTRUCT(tup);
		heapoid = index->indrelid;
		for (i = 0; i < index->indnatts; i++)
			attrs = bms_add_member(attrs, index->indkey.values[i]);
		datum = heap_getattr(tup, Anum_pg_index_indexprs,
							 RelationGetDescr(indexrel), &isnull);
		if (!isnull)
			pull_varattnos(stringToNode(TextDatumGetCString(datum)), 1, &attrs);
		datum = heap_getattr(tup, Anum_pg_index_indpred,
							 RelationGetDescr(indexrel), &isnull);
		if (!isnull)
			pull_varattnos(stringToNode(TextDatumGetCString(datum)), 1, &attrs);
	}
	systable_endscan(scan);
	table_close(indexrel, AccessShareLock);

	if (!OidIsValid(heapoid) || new_label_columns(heapoid, &attnum, &notnull) == 0)
		return;
	/* indkey holds attnums, pull_varattnos offset ones; either refuses */
	if (!bms_is_member(attnum, attrs) &&
		!bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attrs))
		return;

	heaprel = relation_open(heapoid, NoLock);
	labeled = heaprel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE ||
		is_labelheap_relation(heaprel);
	relation_close(heaprel, NoLock);
	if (labeled)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot index the label column of relation \"%s\"",
						get_rel_name(heapoid)),
				 errdetail("The column's value lives in the tuple header; its stored value is always NULL."),
				 errhint("Filter on the column in queries instead.")));
}

/*
 * Refuse a constraint on the label column of a table whose rows carry
 * labels: UPDATE would check it against the stored NULL.
 */
static void
check_label_constraint(Oid conoid)
{
	Relation	conrel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tup;
	Oid			relid = InvalidOid;
	Bitmapset  *attrs = NULL;
	AttrNumber	attnum;
	bool		notnull;
	Relation	rel;
	bool		labeled;
	bool		is_not_null = false;

	conrel = table_open(ConstraintRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_constraint_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(conoid));
	scan = systable_beginscan(conrel, ConstraintOidIndexId, true,
							  SnapshotSelf, 1, &key);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		bool		isnull;
		Datum		datum;

		relid = ((Form_pg_constraint) GETSTRUCT(tup))->conrelid;
#if PG_VERSION_NUM >= 180000
		is_not_null = ((Form_pg_constraint) GETSTRUCT(tup))->contype == CONSTRAINT_NOTNULL;
#endif
		datum = heap_getattr(tup, Anum_pg_constraint_conkey,
							 RelationGetDescr(conrel), &isnull);
		if (!isnull)
		{
			ArrayType  *arr = DatumGetArrayTypeP(datum);
			int16	   *keys = (int16 *) ARR_DATA_PTR(arr);
			int			i;

			for (i = 0; i < ARR_DIMS(arr)[0]; i++)
				attrs = bms_add_member(attrs,
									   keys[i] - FirstLowInvalidHeapAttributeNumber);
		}
		datum = heap_getattr(tup, Anum_pg_constraint_conbin,
							 RelationGetDescr(conrel), &isnull);
		if (!isnull)
			pull_varattnos(stringToNode(TextDatumGetCString(datum)), 1, &attrs);
	}
	systable_endscan(scan);
	table_close(conrel, AccessShareLock);

	if (!OidIsValid(relid) || new_label_columns(relid, &attnum, &notnull) == 0 ||
		!bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, attrs))
		return;

	rel = relation_open(relid, NoLock);
	labeled = rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE ||
		is_labelheap_relation(rel);
	relation_close(rel, NoLock);
	if (labeled && is_not_null)
		refuse_label_not_null(get_rel_name(relid));
	if (labeled)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot constrain the label column of relation \"%s\"",
						get_rel_name(relid)),
				 errdetail("The column's value lives in the tuple header; its stored value is always NULL."),
				 errhint("The security policy decides which labels rows may have.")));
}

void
label_sql_column_object_access(ObjectAccessType access, Oid classId,
						   Oid objectId, int subId, void *arg)
{
	if (!OidIsValid(labelheap_label_column_type()))
		return;

	/* a new relation or column, or a column whose type changed */
	if (classId == RelationRelationId &&
		(access == OAT_POST_CREATE || (access == OAT_POST_ALTER && subId > 0)))
	{
		Form_pg_class classform = NULL;

		check_label_columns(objectId);
		if (access == OAT_POST_CREATE && subId == 0)
			classform = new_pg_class(objectId);
		if (classform != NULL &&
			(classform->relkind == RELKIND_INDEX ||
			 classform->relkind == RELKIND_PARTITIONED_INDEX))
			check_label_index(objectId);
	}
	else if (classId == ConstraintRelationId && access == OAT_POST_CREATE)
		check_label_constraint(objectId);
}

/* a target of the column called name */
static ResTarget *
column_target(const char *name)
{
	ResTarget  *rt = makeNode(ResTarget);
	ColumnRef  *cr = makeNode(ColumnRef);

	cr->fields = list_make1(makeString(pstrdup(name)));
	cr->location = -1;
	rt->val = (Node *) cr;
	rt->location = -1;
	return rt;
}

/* labelam.row_label(alias.tableoid, alias.ctid), dump.c's label field */
static ResTarget *
row_label_target(const char *alias)
{
	ResTarget  *rt = makeNode(ResTarget);
	FuncCall   *fc;
	ColumnRef  *oidref = makeNode(ColumnRef);
	ColumnRef  *tidref = makeNode(ColumnRef);

	oidref->fields = list_make2(makeString(pstrdup(alias)),
								makeString("tableoid"));
	oidref->location = -1;
	tidref->fields = list_make2(makeString(pstrdup(alias)),
								makeString("ctid"));
	tidref->location = -1;
	fc = makeFuncCall(list_make2(makeString("labelam"),
								 makeString("row_label")),
					  list_make2(oidref, tidref), COERCE_EXPLICIT_CALL, -1);
	rt->val = (Node *) fc;
	rt->location = -1;
	return rt;
}

/*
 * "COPY t [(cols)] TO" of a labelheap table with a label column, as
 * "COPY (SELECT cols FROM ONLY t) TO", whose parse analysis reads the
 * labels; with labelam.dump_labels, of any labelheap table, a table
 * without a label column writing its labels in a last field
 * (label_sql/dump.c), after dump.c's check that the dump is complete.
 * NULL if stmt is anything else.
 */
static CopyStmt *
copy_to_as_query(CopyStmt *stmt)
{
	Relation	rel;
	SelectStmt *select;
	RangeVar   *rv;
	List	   *targets = NIL;
	CopyStmt   *newstmt;
	bool		has_column;

	if (stmt->is_from || stmt->relation == NULL || stmt->query != NULL ||
		!OidIsValid(labelheap_label_column_type()))
		return NULL;

	rel = relation_openrv(stmt->relation, AccessShareLock);
	if (!is_labelheap_relation(rel))
	{
		relation_close(rel, AccessShareLock);
		return NULL;
	}
	has_column = labelheap_label_column_attnum(rel) != 0;
	label_sql_dump_check(rel, has_column);
	if (!has_column && !label_sql_dump_labels())
	{
		relation_close(rel, AccessShareLock);
		return NULL;
	}

	if (stmt->attlist != NIL)
	{
		ListCell   *lc;

		foreach(lc, stmt->attlist)
			targets = lappend(targets, column_target(strVal(lfirst(lc))));
	}
	else
	{
		TupleDesc	desc = RelationGetDescr(rel);
		int			i;

		for (i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);

			if (att->attisdropped || att->attgenerated)
				continue;
			targets = lappend(targets, column_target(NameStr(att->attname)));
		}
	}
	if (!has_column)
		targets = lappend(targets, row_label_target("labelam_dumped"));

	/* the table found now, whatever the search_path finds later */
	rv = makeRangeVar(get_namespace_name(RelationGetNamespace(rel)),
					  pstrdup(RelationGetRelationName(rel)), -1);
	rv->inh = false;
	rv->alias = makeAlias("labelam_dumped", NIL);
	relation_close(rel, NoLock);

	select = makeNode(SelectStmt);
	select->targetList = targets;
	select->fromClause = list_make1(rv);

	newstmt = copyObject(stmt);
	newstmt->relation = NULL;
	newstmt->attlist = NIL;
	newstmt->query = (Node *) select;
	return newstmt;
}

/*
 * COPY t TO of a table with a label column runs as COPY (SELECT ...) TO;
 * called by src/hooks.c before every utility command.
 */
PlannedStmt *
label_sql_column_utility(PlannedStmt *pstmt, bool *readOnlyTree)
{
	if (IsA(pstmt->utilityStmt, CopyStmt))
	{
		CopyStmt   *newstmt = copy_to_as_query((CopyStmt *) pstmt->utilityStmt);

		if (newstmt != NULL)
		{
			pstmt = copyObject(pstmt);
			pstmt->utilityStmt = (Node *) newstmt;
			*readOnlyTree = false;
		}
	}
	return pstmt;
}
