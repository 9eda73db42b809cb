/*-------------------------------------------------------------------------
 *
 * src/label_sql/parse.c
 *	  Parse-analysis hook that turns t.security_label into a read of the
 *	  label in the header of the tuple version the query returns.
 *
 * When t has no column named security_label, the parser reads
 * t.security_label as the function call security_label(t), with the whole
 * row of t as argument; the extension provides pg_catalog.security_label
 * (record) so that the name resolves whatever the search_path.  After
 * parse analysis each such call, anywhere in the query (target list,
 * WHERE, GROUP BY, ORDER BY, join conditions, RETURNING, sublinks, CTEs,
 * LATERAL items), is replaced by labelam.row_label(t.tableoid, t.ctid)
 * when t is a table whose rows carry labels: a labelheap table, or a
 * partitioned table (whose partitions must then be labelheap; row_label
 * checks each row's own table).  The whole row is then no longer needed,
 * and the plan reads two system columns, as it would for "SELECT ctid".
 *
 * Anything else is refused here, with a message that says why, rather
 * than left to produce a value: a view, subquery, WITH query, function,
 * join or non-labelheap table has no tuple headers to read.
 *
 * row_label() itself is callable in SQL only in the form this hook
 * produces, applied to the tableoid and ctid of one table of the query:
 * that is what a view using t.security_label reads as when pg_dump prints
 * it, and it keeps row_label from being called on made-up TIDs.  (Some
 * expressions never go through parse analysis, such as column defaults
 * and rule actions, so row_label checks what it reveals anyway.)
 *
 * The same pass replaces each Var of a declared label column (column.c)
 * of such a table, and each whole-row Var of a table that has one, by the
 * same read of the header: the column's stored value is always NULL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/sysattr.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/analyze.h"
#include "parser/parse_node.h"
#include "parser/parse_relation.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "label_sql/label_sql.h"
#include "pg_compat.h"


/*
 * OIDs of the extension's two functions in the current database, or
 * InvalidOid when the extension is not installed.  Looked up again after
 * any change to pg_proc, which covers CREATE/DROP EXTENSION.
 */
static bool label_funcs_valid = false;
static Oid	security_label_fn = InvalidOid;
static Oid	row_label_fn = InvalidOid;

typedef struct RewriteContext
{
	ParseState *pstate;
	List	   *queries;		/* Query of each level, the innermost first */
	Oid			label_type;		/* labelam.security_label */
	List	   *label_vars;		/* Vars that read a label column */
	List	   *replacements;	/* ... and what replaces each */
} RewriteContext;

/* src/hooks.c calls this when pg_proc changes */
void
label_sql_functions_changed(void)
{
	label_funcs_valid = false;
}

/*
 * The function called schema.name(argtypes) if it belongs to extension
 * extoid, else InvalidOid.  A function of the same signature that someone
 * else created (in a database without the extension) is not ours to
 * rewrite.  Looked up in the catalog directly, not with LookupFuncName:
 * this is labelam finding its own functions, not the session naming a
 * schema, so no schema search permission is asked (object checks) or
 * audited on the session's behalf.
 */
static Oid
extension_function(Oid extoid, const char *schema, const char *name,
				   int nargs, const Oid *argtypes)
{
	Oid			nspoid;
	Oid			fnoid;

	nspoid = get_namespace_oid(schema, true);
	if (!OidIsValid(nspoid))
		return InvalidOid;
	fnoid = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
							CStringGetDatum(name),
							PointerGetDatum(buildoidvector(argtypes, nargs)),
							ObjectIdGetDatum(nspoid));
	if (!OidIsValid(fnoid) ||
		getExtensionOfObject(ProcedureRelationId, fnoid) != extoid)
		return InvalidOid;
	return fnoid;
}

static void
lookup_label_funcs(void)
{
	Oid			extoid;

	if (label_funcs_valid)
		return;

	security_label_fn = InvalidOid;
	row_label_fn = InvalidOid;
	extoid = get_extension_oid("labelam", true);
	if (OidIsValid(extoid))
	{
		Oid			record_arg[1] = {RECORDOID};
		Oid			row_label_args[2] = {OIDOID, TIDOID};

		security_label_fn = extension_function(extoid, "pg_catalog",
											   "security_label",
											   1, record_arg);
		row_label_fn = extension_function(extoid, "labelam", "row_label",
										  2, row_label_args);
	}
	label_funcs_valid = true;
}

static const char *
rte_kind_name(RangeTblEntry *rte)
{
	switch (rte->rtekind)
	{
		case RTE_SUBQUERY:
			return "a subquery";
		case RTE_JOIN:
			return "a join";
		case RTE_FUNCTION:
			return "a function";
		case RTE_TABLEFUNC:
			return "a table function";
		case RTE_VALUES:
			return "a VALUES list";
		case RTE_CTE:
			return "a WITH query";
		case RTE_NAMEDTUPLESTORE:
			return "a transition table";
		default:
			return "not a table";
	}
}

/*
 * Refuse unless rte is a table whose rows have labels.  "what" names the
 * construct for the message.
 */
static void
require_labeled_table(RewriteContext *cxt, RangeTblEntry *rte,
					  const char *what, int location)
{
	Relation	rel;
	bool		labeled;

	if (rte->rtekind != RTE_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("%s can only be applied to a row of a table",
						what),
				 errdetail("\"%s\" is %s.", rte->eref->aliasname,
						   rte_kind_name(rte)),
				 rte->rtekind == RTE_SUBQUERY ?
				 errhint("Select the labelheap table's security_label inside the subquery.") :
				 rte->rtekind == RTE_CTE ?
				 errhint("Select the labelheap table's security_label inside the WITH query.") :
				 rte->rtekind == RTE_JOIN ?
				 errhint("Apply it to one of the joined tables.") : 0,
				 parser_errposition(cxt->pstate, location)));

	switch (rte->relkind)
	{
		case RELKIND_PARTITIONED_TABLE:
			/* labelam.row_label checks the partition of each row */
			return;
		case RELKIND_RELATION:
		case RELKIND_MATVIEW:
			/* parse analysis holds a lock on the relation */
			rel = relation_open(rte->relid, NoLock);
			labeled = is_labelheap_relation(rel);
			relation_close(rel, NoLock);
			if (labeled)
				return;
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("relation \"%s\" has no security labels",
							get_rel_name(rte->relid)),
					 errdetail("Only tables that use access method labelheap store a label with each row."),
					 errhint("ALTER TABLE ... SET ACCESS METHOD labelheap labels its rows."),
					 parser_errposition(cxt->pstate, location)));
			break;
		case RELKIND_VIEW:
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("%s can only be applied to a row of a table",
							what),
					 errdetail("\"%s\" is a view.", get_rel_name(rte->relid)),
					 errhint("Select the labelheap table's security_label in the view's definition."),
					 parser_errposition(cxt->pstate, location)));
			break;
		default:
			/* foreign tables; EXCLUDED of INSERT ... ON CONFLICT */
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("%s can only be applied to a row of a table",
							what),
					 errdetail("\"%s\" is not a table whose rows are stored with labels.",
							   rte->eref->aliasname),
					 parser_errposition(cxt->pstate, location)));
	}
}

/* The range table entry a Var refers to. */
static RangeTblEntry *
var_rte(RewriteContext *cxt, Var *var)
{
	Query	   *query;

	if (var->varlevelsup >= list_length(cxt->queries))
		elog(ERROR, "Var refers to query level %u of %d",
			 var->varlevelsup, list_length(cxt->queries));
	query = list_nth(cxt->queries, var->varlevelsup);
	return rt_fetch(var->varno, query->rtable);
}

/*
 * Reading the label of var's row needs what reading its tableoid and ctid
 * would: SELECT on the relation and on those columns.
 */
static void
require_select_for_label(RewriteContext *cxt, Var *var, RangeTblEntry *rte)
{
#if PG_VERSION_NUM >= 160000
	Query	   *query = list_nth(cxt->queries, var->varlevelsup);
	RTEPermissionInfo *perm = getRTEPermissionInfo(query->rteperminfos, rte);
#else
	RangeTblEntry *perm = rte;
#endif

	perm->requiredPerms |= ACL_SELECT;
	perm->selectedCols = bms_add_member(perm->selectedCols,
										TableOidAttributeNumber - FirstLowInvalidHeapAttributeNumber);
	perm->selectedCols = bms_add_member(perm->selectedCols,
										SelfItemPointerAttributeNumber - FirstLowInvalidHeapAttributeNumber);
}

static Var *
system_column_var(Var *wholerow, AttrNumber attno, Oid type)
{
	Var		   *var = makeVar(wholerow->varno, attno, type, -1, InvalidOid,
							  wholerow->varlevelsup);

	var->location = wholerow->location;
	return var;
}

/* security_label(t) -> labelam.row_label(t.tableoid, t.ctid), in place */
static void
rewrite_security_label(RewriteContext *cxt, FuncExpr *fexpr)
{
	Node	   *arg = linitial(fexpr->args);
	Var		   *wholerow;
	RangeTblEntry *rte;

	if (!IsA(arg, Var) || ((Var *) arg)->varattno != InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("security_label() can only be applied to a row of a table"),
				 errdetail("Its argument must name a table of the FROM list, as in t.security_label."),
				 parser_errposition(cxt->pstate, exprLocation(arg))));
	wholerow = (Var *) arg;
	rte = var_rte(cxt, wholerow);
	require_labeled_table(cxt, rte, "security_label()", fexpr->location);

	require_select_for_label(cxt, wholerow, rte);

	fexpr->funcid = row_label_fn;
	fexpr->args = list_make2(system_column_var(wholerow, TableOidAttributeNumber, OIDOID),
							 system_column_var(wholerow, SelfItemPointerAttributeNumber, TIDOID));
}

static void
refuse_row_label_call(RewriteContext *cxt, int location)
{
	ereport(ERROR,
			(errcode(ERRCODE_WRONG_OBJECT_TYPE),
			 errmsg("labelam.row_label() can only be applied to the tableoid and ctid of one table of the query"),
			 errhint("Write t.security_label to read the label of a row of table t."),
			 parser_errposition(cxt->pstate, location)));
}

/*
 * Accept labelam.row_label(t.tableoid, t.ctid) for a labeled table t of
 * the query (a view printed by pg_dump reads like that), nothing else.
 */
static void
check_row_label_call(RewriteContext *cxt, FuncExpr *fexpr)
{
	Var		   *relvar = linitial(fexpr->args);
	Var		   *tidvar = lsecond(fexpr->args);

	if (!IsA(relvar, Var) || !IsA(tidvar, Var) ||
		relvar->varattno != TableOidAttributeNumber ||
		tidvar->varattno != SelfItemPointerAttributeNumber ||
		relvar->varno != tidvar->varno ||
		relvar->varlevelsup != tidvar->varlevelsup)
		refuse_row_label_call(cxt, fexpr->location);
	require_labeled_table(cxt, var_rte(cxt, relvar), "labelam.row_label()",
						  fexpr->location);
}

/* labelam.row_label(t.tableoid, t.ctid) as a value of the label column */
static Node *
label_read_expr(Var *var, Oid type, Oid collation)
{
	FuncExpr   *fexpr;

	fexpr = makeFuncExpr(row_label_fn, TEXTOID,
						 list_make2(system_column_var(var, TableOidAttributeNumber, OIDOID),
									system_column_var(var, SelfItemPointerAttributeNumber, TIDOID)),
						 collation, InvalidOid, COERCE_EXPLICIT_CALL);
	fexpr->location = var->location;

	/*
	 * An explicit cast, so that a view's definition as pg_dump prints it
	 * keeps the column's type.
	 */
	return (Node *) makeRelabelType((Expr *) fexpr, type, -1, collation,
									COERCE_EXPLICIT_CAST);
}

/*
 * The whole row of t, whose label column is at attnum, as ROW(...) of its
 * columns with the label read from the header: what ExecEvalWholeRowVar
 * would build from the stored row, where the column holds NULL.
 */
static Node *
label_row_expr(Relation rel, Var *var, AttrNumber attnum)
{
	TupleDesc	desc = RelationGetDescr(rel);
	RowExpr    *row = makeNode(RowExpr);
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Node	   *arg;

		if (att->attisdropped)
			arg = (Node *) makeNullConst(INT4OID, -1, InvalidOid);
		else if (att->attnum == attnum)
			arg = label_read_expr(var, att->atttypid, att->attcollation);
		else
			arg = (Node *) makeVar(var->varno, att->attnum, att->atttypid,
								   att->atttypmod, att->attcollation,
								   var->varlevelsup);
		row->args = lappend(row->args, arg);
		row->colnames = lappend(row->colnames,
								makeString(pstrdup(att->attisdropped ? "" :
												   NameStr(att->attname))));
	}
	row->row_typeid = var->vartype;
	row->row_format = COERCE_IMPLICIT_CAST;
	row->location = var->location;
	return (Node *) row;
}

/*
 * A Var of a declared label column (see column.c) of a table whose rows
 * carry labels, or a whole-row Var of such a table, is to be replaced by
 * an expression that reads the row's label: the column's stored value is
 * always NULL.  Noted here with its replacement, replaced by
 * label_var_mutator() once the walk is over.
 */
static void
note_label_column_var(RewriteContext *cxt, Var *var)
{
	RangeTblEntry *rte;
	Relation	rel;
	TupleDesc	desc;
	AttrNumber	attnum = 0;
	Node	   *replacement = NULL;
	int			i;

	if (var->varattno < 0 || !OidIsValid(cxt->label_type) ||
		(var->varattno > 0 && var->vartype != cxt->label_type))
		return;
	rte = var_rte(cxt, var);
	/* not e.g. EXCLUDED, whose label column holds the proposed value */
	if (rte->rtekind != RTE_RELATION ||
		(rte->relkind != RELKIND_PARTITIONED_TABLE &&
		 rte->relkind != RELKIND_RELATION &&
		 rte->relkind != RELKIND_MATVIEW))
		return;

	/* parse analysis holds a lock on the relation */
	rel = relation_open(rte->relid, NoLock);
	desc = RelationGetDescr(rel);
	if (rte->relkind == RELKIND_PARTITIONED_TABLE || is_labelheap_relation(rel))
	{
		for (i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);

			if (!att->attisdropped && att->atttypid == cxt->label_type)
			{
				attnum = att->attnum;
				break;
			}
		}
	}
	if (attnum != 0 && var->varattno == attnum)
		replacement = label_read_expr(var, var->vartype, var->varcollid);
	else if (attnum != 0 && var->varattno == 0 && var->vartype == rel->rd_rel->reltype)
		replacement = label_row_expr(rel, var, attnum);
	relation_close(rel, NoLock);
	if (replacement == NULL)
		return;

	require_select_for_label(cxt, var, rte);
	cxt->label_vars = lappend(cxt->label_vars, var);
	cxt->replacements = lappend(cxt->replacements, replacement);
}

/*
 * Replace each noted Var.  The range table entries were updated while
 * noting: the mutator copies them.
 */
static Node *
label_var_mutator(Node *node, RewriteContext *cxt)
{
	if (node == NULL)
		return NULL;

	if (IsA(node, Var))
	{
		ListCell   *lc1,
				   *lc2;

		forboth(lc1, cxt->label_vars, lc2, cxt->replacements)
		{
			if (lfirst(lc1) == (void *) node)
				return (Node *) lfirst(lc2);
		}
		return (Node *) copyObject(node);
	}

	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;

		if (query->commandType != CMD_UTILITY)
			return (Node *) query_tree_mutator(query, label_var_mutator, cxt,
											   QTW_DONT_COPY_QUERY);
		switch (nodeTag(query->utilityStmt))
		{
			case T_ExplainStmt:
				{
					ExplainStmt *stmt = (ExplainStmt *) query->utilityStmt;

					stmt->query = label_var_mutator(stmt->query, cxt);
					break;
				}
			case T_CreateTableAsStmt:
				{
					CreateTableAsStmt *stmt = (CreateTableAsStmt *) query->utilityStmt;

					stmt->query = label_var_mutator(stmt->query, cxt);
					break;
				}
			case T_DeclareCursorStmt:
				{
					DeclareCursorStmt *stmt = (DeclareCursorStmt *) query->utilityStmt;

					stmt->query = label_var_mutator(stmt->query, cxt);
					break;
				}
			default:
				break;
		}
		return node;
	}

	return expression_tree_mutator(node, label_var_mutator, cxt);
}

static bool
is_label_function(Oid fnoid, void *context)
{
	return fnoid == security_label_fn || fnoid == row_label_fn;
}

/*
 * The analyzed query (or CALL's function call) inside a utility statement,
 * if any; EXPLAIN may hold a CREATE TABLE AS that holds the query.
 */
static Node *
utility_queries(Node *stmt)
{
	switch (nodeTag(stmt))
	{
		case T_ExplainStmt:
			return ((ExplainStmt *) stmt)->query;
		case T_CreateTableAsStmt:
			return ((CreateTableAsStmt *) stmt)->query;
		case T_DeclareCursorStmt:
			return ((DeclareCursorStmt *) stmt)->query;
		case T_CallStmt:
			return (Node *) ((CallStmt *) stmt)->funcexpr;
		default:
			return NULL;
	}
}

static bool
rewrite_walker(Node *node, RewriteContext *cxt)
{
	if (node == NULL)
		return false;

	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		bool		result;

		cxt->queries = lcons(query, cxt->queries);
		if (query->commandType == CMD_UTILITY)
			result = rewrite_walker(utility_queries(query->utilityStmt), cxt);
		else
			result = query_tree_walker(query, rewrite_walker, cxt, 0);
		cxt->queries = list_delete_first(cxt->queries);
		return result;
	}

	if (IsA(node, Var))
	{
		note_label_column_var(cxt, (Var *) node);
		return false;
	}

	if (IsA(node, FuncExpr))
	{
		FuncExpr   *fexpr = (FuncExpr *) node;

		if (fexpr->funcid == security_label_fn)
			rewrite_security_label(cxt, fexpr);
		else if (fexpr->funcid == row_label_fn)
			check_row_label_call(cxt, fexpr);
	}
	else if (check_functions_in_node(node, is_label_function, NULL))
	{
		/* an operator (or the like) implemented by one of them */
		refuse_row_label_call(cxt, exprLocation(node));
	}

	return expression_tree_walker(node, rewrite_walker, cxt);
}

void
label_sql_post_parse_analyze(ParseState *pstate, Query *query,
							 JumbleState *jstate)
{
	/*
	 * Utility statements that hold no analyzed query are left alone before
	 * anything else: ROLLBACK is analyzed in an aborted transaction, where
	 * the catalogs cannot be read.
	 */
	if ((query->commandType != CMD_UTILITY ||
		 utility_queries(query->utilityStmt) != NULL) &&
		IsTransactionState())
	{
		lookup_label_funcs();
		if (OidIsValid(security_label_fn) && OidIsValid(row_label_fn))
		{
			RewriteContext cxt;

			cxt.pstate = pstate;
			cxt.queries = NIL;
			cxt.label_type = labelheap_label_column_type();
			cxt.label_vars = NIL;
			cxt.replacements = NIL;
			(void) rewrite_walker((Node *) query, &cxt);
			if (cxt.label_vars != NIL)
				(void) label_var_mutator((Node *) query, &cxt);
		}
	}
}
