/*-------------------------------------------------------------------------
 *
 * src/label_sql/dump.c
 *	  Labels through pg_dump and pg_restore: COPY TO that writes each row's
 *	  label (labelam.dump_labels), COPY FROM that reads it back
 *	  (labelam.restore_labels, whose checks are in am/write/new_label.c).
 *
 * pg_dump has no extension hook; what it runs for a table's data is
 * "COPY schema.t (cols) TO stdout", and pg_restore runs
 * "COPY schema.t (cols) FROM stdin" with the same text.  Both settings are
 * ordinary session settings, given to pg_dump and pg_restore through
 * PGOPTIONS:
 *
 *	labelam.dump_labels = on | partial (default off).  COPY TO of a
 *	labelheap table without a declared label column writes one more field
 *	at the end of every line: the row's label, read through
 *	labelam.row_label(t.tableoid, t.ctid) like t.security_label (column.c
 *	turns the COPY into "COPY (SELECT cols, row_label FROM ONLY t) TO").
 *	A table with a declared label column writes its labels in that column
 *	already.  Nothing is unfiltered: the COPY reads what the session may
 *	select.  So that a dump taken at a label that cannot read every row
 *	does not pass for complete, COPY TO first asks whether the session may
 *	select every label in the table's label set (am/label_set/label_set.c, a
 *	superset of the labels its rows carry): with "on" it fails (42501,
 *	naming no label and counting no rows), with "partial" it warns and
 *	writes the rows the session may select.  The refusal says only what
 *	TRUNCATE's already says: the table holds (or held) a row beyond the
 *	session's reach.
 *
 *	labelam.restore_labels = on (default off).  COPY FROM STDIN into a
 *	labelheap table without a declared label column (or into a
 *	partitioned table whose partitions are labelheap) reads that last field
 *	and inserts each row, through an INSERT of its own, with that label;
 *	for tables with a declared label column, ordinary COPY FROM reads the
 *	labels from the column.  Either way the row's label is checked as an
 *	insert with the session's default label followed by a relabel
 *	(new_label.c): a row the session may not give its label fails with
 *	42501, the COPY with it; no row is ever given another label.  A row
 *	whose label field is missing or NULL is an error too.
 *
 * A safety net, not a boundary: pg_dump connects with application_name
 * "pg_dump" (its fallback_application_name), and its COPY TO of a labelheap
 * table without labelam.dump_labels is refused when the dump would lose
 * labels (no declared label column) or rows (the session may not select
 * every label of the table), so that forgetting PGOPTIONS never produces a
 * dump that looks complete.  Anyone can set that name; doing so only makes
 * their own COPY fail.
 *
 * Neither setting gives anyone a way around the policy: dump_labels reads
 * labels with row_label(), which checks what it reveals; restore_labels
 * writes every row through INSERT (privileges, row-level security,
 * triggers, constraints as for any INSERT) and asks the policy for each
 * label.  The label reaches only the INSERT that this file runs for the
 * row (new_label.c matches it by executor frame), never code that INSERT
 * runs.
 *
 * Only the text and CSV formats carry the label field (pg_dump uses text);
 * with restore_labels, COPY FROM a file or program, with a WHERE clause or
 * in binary format is refused for such tables.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/copy.h"
#include "commands/copyfrom_internal.h"
#include "commands/defrem.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_node.h"
#include "parser/parse_relation.h"
#include "storage/lmgr.h"
#include "tcop/cmdtag.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "avc/avc.h"
#include "label_sql/label_sql.h"
#include "label_store/label_store.h"

typedef enum DumpLabels
{
	DUMP_LABELS_OFF,
	DUMP_LABELS_ON,
	DUMP_LABELS_PARTIAL
} DumpLabels;

static const struct config_enum_entry dump_labels_options[] = {
	{"off", DUMP_LABELS_OFF, false},
	{"on", DUMP_LABELS_ON, false},
	{"partial", DUMP_LABELS_PARTIAL, false},
	{"false", DUMP_LABELS_OFF, true},
	{"true", DUMP_LABELS_ON, true},
	{"no", DUMP_LABELS_OFF, true},
	{"yes", DUMP_LABELS_ON, true},
	{NULL, 0, false}
};

static int	dump_labels = DUMP_LABELS_OFF;

bool
label_sql_dump_labels(void)
{
	return dump_labels != DUMP_LABELS_OFF;
}

/*
 * Before COPY TO of labelheap table rel with dump_labels: fail or warn if
 * the session may not select every row it may hold.
 */
void
label_sql_dump_check(Relation rel, bool has_column)
{
	if (dump_labels == DUMP_LABELS_OFF)
	{
		if (application_name == NULL ||
			strcmp(application_name, "pg_dump") != 0 ||
			(has_column && labelheap_selects_every_row(rel)))
			return;
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pg_dump of labelheap table \"%s\" needs labelam.dump_labels",
						RelationGetRelationName(rel)),
				 errdetail("Without it the dump would not carry every row's security label, or every row."),
				 errhint("Run pg_dump with PGOPTIONS='-c labelam.dump_labels=on' at a label that may select every row.")));
	}
	if (labelheap_selects_every_row(rel))
		return;
	if (dump_labels == DUMP_LABELS_ON)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to dump relation \"%s\"",
						RelationGetRelationName(rel)),
				 errdetail("The relation holds rows beyond the reach of the session's security label."),
				 errhint("Dump with a label that may select every row, or set labelam.dump_labels to \"partial\" to dump only the rows this label may select.")));
	ereport(WARNING,
			(errcode(ERRCODE_WARNING),
			 errmsg("dump of relation \"%s\" is partial",
					RelationGetRelationName(rel)),
			 errdetail("The relation holds rows beyond the reach of the session's security label; they are not dumped.")));
}

/* ---- restore ---- */

/* attnum of rel's declared label column, 0 if none (any relkind) */
static AttrNumber
declared_label_column(Relation rel)
{
	Oid			typoid = labelheap_label_column_type();
	TupleDesc	desc = RelationGetDescr(rel);

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && att->atttypid == typoid)
			return att->attnum;
	}
	return 0;
}

/*
 * Do COPY FROM lines for rel carry a label field?  A table whose rows carry
 * labels (labelheap, or partitioned with labelheap partitions) without a
 * declared label column.
 */
static bool
takes_label_field(Relation rel)
{
	if (!OidIsValid(labelheap_label_column_type()))
		return false;			/* no labelam in this database */
	return labelheap_rows_labeled(rel) && declared_label_column(rel) == 0;
}

typedef struct RestoreColumn
{
	AttrNumber	attnum;
	Oid			typid;
	int32		typmod;
	Oid			ioparam;
	FmgrInfo	infunc;
} RestoreColumn;

typedef struct RestoreErrorArg
{
	Relation	rel;
	CopyFromState cstate;
} RestoreErrorArg;

static void
restore_error_callback(void *arg)
{
	RestoreErrorArg *a = arg;

	errcontext("COPY %s, line %llu",
			   RelationGetRelationName(a->rel),
			   (unsigned long long) a->cstate->cur_lineno);
}

/* the columns COPY reads, as CopyGetAttnums chooses them */
static List *
restore_columns(Relation rel, List *attnamelist)
{
	TupleDesc	desc = RelationGetDescr(rel);
	List	   *cols = NIL;
	ListCell   *lc;

	if (attnamelist == NIL)
	{
		for (int i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);

			if (att->attisdropped || att->attgenerated)
				continue;
			cols = lappend_int(cols, att->attnum);
		}
		return cols;
	}
	foreach(lc, attnamelist)
	{
		const char *name = strVal(lfirst(lc));
		AttrNumber	attnum = attnameAttNum(rel, name, false);

		if (attnum <= 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of relation \"%s\" does not exist",
							name, RelationGetRelationName(rel))));
		cols = lappend_int(cols, attnum);
	}
	return cols;
}

/* "INSERT INTO schema.t (cols) OVERRIDING SYSTEM VALUE VALUES ($1, ...)" */
static char *
restore_insert_sql(Relation rel, RestoreColumn *cols, int ncols)
{
	StringInfoData sql;
	TupleDesc	desc = RelationGetDescr(rel);

	initStringInfo(&sql);
	appendStringInfo(&sql, "INSERT INTO %s.%s ",
					 quote_identifier(get_namespace_name(RelationGetNamespace(rel))),
					 quote_identifier(RelationGetRelationName(rel)));
	if (ncols == 0)
	{
		appendStringInfoString(&sql, "DEFAULT VALUES");
		return sql.data;
	}
	appendStringInfoChar(&sql, '(');
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&sql, "%s%s", i ? ", " : "",
						 quote_identifier(NameStr(TupleDescAttr(desc, cols[i].attnum - 1)->attname)));
	appendStringInfoString(&sql, ") OVERRIDING SYSTEM VALUE VALUES (");
	for (int i = 0; i < ncols; i++)
		appendStringInfo(&sql, "%s$%d", i ? ", " : "", i + 1);
	appendStringInfoChar(&sql, ')');
	return sql.data;
}

static bool
copy_option_is(List *options, const char *name, const char *value)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = lfirst(lc);

		if (strcmp(def->defname, name) == 0)
			return value == NULL ||
				pg_strcasecmp(defGetString(def), value) == 0;
	}
	return false;
}

/* COPY rel FROM STDIN, each line ending in the row's label */
static uint64
restore_copy(CopyStmt *stmt, Relation rel, const char *queryString)
{
	ParseState *pstate = make_parsestate(NULL);
	List	   *attnums = restore_columns(rel, stmt->attlist);
	int			ncols = list_length(attnums);
	RestoreColumn *cols = palloc0(sizeof(RestoreColumn) * Max(ncols, 1));
	Oid		   *argtypes = palloc0(sizeof(Oid) * Max(ncols, 1));
	Datum	   *values = palloc0(sizeof(Datum) * Max(ncols, 1));
	char	   *nulls = palloc0(Max(ncols, 1));
	CopyFromState cstate;
	SPIPlanPtr	plan;
	MemoryContext rowcxt;
	MemoryContext oldcxt;
	ErrorContextCallback errcb;
	RestoreErrorArg errarg;
	char	   *last_text = NULL;
	Oid			last_secid = InvalidOid;
	uint64		processed = 0;
	char	  **fields;
	int			nfields;
	int			i;
	ListCell   *lc;

	i = 0;
	foreach(lc, attnums)
	{
		Form_pg_attribute att = TupleDescAttr(RelationGetDescr(rel),
											  lfirst_int(lc) - 1);
		Oid			infunc;

		cols[i].attnum = att->attnum;
		cols[i].typid = att->atttypid;
		cols[i].typmod = att->atttypmod;
		getTypeInputInfo(att->atttypid, &infunc, &cols[i].ioparam);
		fmgr_info(infunc, &cols[i].infunc);
		argtypes[i] = att->atttypid;
		i++;
	}

	pstate->p_sourcetext = queryString;
	cstate = BeginCopyFrom(pstate, rel, NULL, NULL, false, NULL,
						   stmt->attlist, stmt->options);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	plan = SPI_prepare(restore_insert_sql(rel, cols, ncols), ncols, argtypes);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));

	errarg.rel = rel;
	errarg.cstate = cstate;
	errcb.callback = restore_error_callback;
	errcb.arg = &errarg;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;

	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "labelam restore row",
								   ALLOCSET_DEFAULT_SIZES);
	for (;;)
	{
		char	   *label;
		int			ret;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(rowcxt);
		oldcxt = MemoryContextSwitchTo(rowcxt);
		if (!NextCopyFromRawFields(cstate, &fields, &nfields))
		{
			MemoryContextSwitchTo(oldcxt);
			break;
		}
		if (nfields != ncols + 1)
			ereport(ERROR,
					(errcode(ERRCODE_BAD_COPY_FILE_FORMAT),
					 errmsg("line has %d fields where %d columns and a security label were expected",
							nfields, ncols),
					 errdetail("labelam.restore_labels reads the row's label from the field after the last column, which labelam.dump_labels writes."),
					 errhint("Restore dumps taken without labelam.dump_labels with labelam.restore_labels off.")));
		label = fields[ncols];
		if (label == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_NOT_NULL_VIOLATION),
					 errmsg("a restored row of relation \"%s\" has no security label",
							RelationGetRelationName(rel))));

		for (i = 0; i < ncols; i++)
		{
			values[i] = InputFunctionCall(&cols[i].infunc, fields[i],
										  cols[i].ioparam, cols[i].typmod);
			nulls[i] = fields[i] == NULL ? 'n' : ' ';
		}
		MemoryContextSwitchTo(oldcxt);

		if (last_text == NULL || strcmp(last_text, label) != 0)
		{
			char	   *canon = avc_storable_label(label);

			last_secid = label_intern(canon);
			pfree(canon);
			if (last_text)
				pfree(last_text);
			last_text = pstrdup(label);
		}

		labelheap_restore_next_row(last_secid);
		PG_TRY();
		{
			ret = SPI_execute_plan(plan, values, nulls, false, 0);
		}
		PG_FINALLY();
		{
			labelheap_restore_forget();
		}
		PG_END_TRY();
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "restoring a row failed: %s",
				 SPI_result_code_string(ret));
		processed += SPI_processed;
	}
	error_context_stack = errcb.previous;

	EndCopyFrom(cstate);
	SPI_finish();
	return processed;
}

/*
 * COPY FROM of a table whose lines carry labels, with restore_labels:
 * runs it and returns true (src/hooks.c then skips the rest of
 * ProcessUtility); false for anything else.
 */
bool
label_sql_restore_utility(PlannedStmt *pstmt, const char *queryString,
						  QueryCompletion *qc)
{
	CopyStmt   *stmt;
	Relation	rel;
	uint64		processed;

	if (!labelheap_restore_labels || !IsA(pstmt->utilityStmt, CopyStmt))
		return false;
	stmt = (CopyStmt *) pstmt->utilityStmt;
	if (!stmt->is_from || stmt->relation == NULL)
		return false;

	rel = table_openrv(stmt->relation, RowExclusiveLock);
	if (!takes_label_field(rel))
	{
		table_close(rel, NoLock);
		return false;
	}
	if (stmt->filename != NULL || stmt->is_program ||
		stmt->whereClause != NULL ||
		copy_option_is(stmt->options, "format", "binary"))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("labelam.restore_labels restores relation \"%s\" only with COPY FROM STDIN in text or CSV format, without WHERE",
						RelationGetRelationName(rel))));

	processed = restore_copy(stmt, rel, queryString);
	table_close(rel, NoLock);
	if (qc)
		SetQueryCompletion(qc, CMDTAG_COPY, processed);
	return true;
}

void
label_sql_dump_init(void)
{
	DefineCustomEnumVariable("labelam.dump_labels",
							 "COPY TO of labelheap tables writes each row's label, and checks that the dump is complete.",
							 "on: a label field after the last column, and an error for a table holding rows the session may not select; partial: a warning instead.",
							 &dump_labels,
							 DUMP_LABELS_OFF,
							 dump_labels_options,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
}
