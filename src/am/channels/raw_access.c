/*-------------------------------------------------------------------------
 *
 * src/am/channels/raw_access.c
 *	  Refusing reads that bypass the labelheap access method: the places
 *	  where SQL reaches a labelheap table's rows without going through the
 *	  AM callbacks that filter them (filter.c).
 *
 * Invariant: no SQL-reachable path hands a session the contents of rows of
 * a labelheap table except through the AM (filtered), other than the
 * paths documented as storage-level trust (doc/security-model.md,
 * "Storage-level trust").
 * Four such paths exist in PostgreSQL 15 and its contrib:
 *
 *	1. The TOAST relation of a labelheap table is a plain heap (TOAST rows
 *	   carry no labels, see handler.c), so a query or COPY naming
 *	   pg_toast.pg_toast_NNN would read out-of-line values of every row.
 *	   Refused for everyone in ExecutorCheckPerms_hook, which sees the
 *	   flattened range table of every plan (views, inlined and non-inlined
 *	   SQL functions, sub-queries) at executor start, and the range table
 *	   DoCopy builds for COPY rel TO (copy.c calls ExecCheckRTPerms before
 *	   BeginCopyTo).  The parent is found by pg_class.reltoastrelid, never
 *	   by the TOAST relation's name; the catalog is read only when the
 *	   range table holds a TOAST relation at all.
 *
 *	2. Functions of contrib modules that read relation pages by name or
 *	   OID without the table AM (pageinspect, pgstattuple, pg_visibility,
 *	   pg_surgery) and pageinspect's tuple_data_split with detoasting,
 *	   which fetches whatever TOAST value a hand-built tuple points to.
 *	   These are C functions, never builtins, so needs_fmgr_hook sees them
 *	   (matched by module file and C symbol, which also catches a second
 *	   SQL declaration of the same symbol) and fmgr_hook runs before every
 *	   call.  The hook sees only the call expression (flinfo->fn_expr), not
 *	   the argument values, so the relation argument must be a constant
 *	   (after the planner's constant folding); any other argument is
 *	   refused.  Relations that are labelheap tables, their TOAST relations
 *	   and the indexes of either are refused for everyone.
 *
 * Logical decoding, through SQL or walsenders, is not refused but filtered
 * by the decoding session's label (src/am/replication); what a walsender
 * may do besides is src/am/replication/walsender.c's.
 *
 * What is not refused here and why (doc/security-model.md, "Storage-level
 * trust"):
 * physical replication, server files and programs, C functions and
 * untrusted languages, and configuration are storage-level trust; amcheck
 * reports only where corruption is, not values; pg_relpages reports a
 * size available from pg_relation_size anyway; pg_buffercache and PG 15's
 * pg_walinspect report block numbers and record lengths, not contents;
 * pageinspect's functions that interpret a page given as bytea read no
 * relation (the page must come from get_raw_page, refused here, or from a
 * server file).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/defrem.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "nodes/primnodes.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/varlena.h"

#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "avc/avc.h"
#include "label_store/label_store_int.h"


/* ---- which relations hold a labelheap table's rows ---- */

/* Is this pg_class row a table or materialized view using labelheap? */
static bool
form_is_labelheap(Form_pg_class form)
{
	if (form->relkind != RELKIND_RELATION && form->relkind != RELKIND_MATVIEW)
		return false;
	return is_labelheap_am(form->relam);
}

/*
 * The relation whose pg_class.reltoastrelid is toastrelid, or InvalidOid.
 * pg_class has no index on reltoastrelid: a sequential scan of pg_class,
 * made only when a TOAST relation is involved at all.
 */
static Oid
toast_parent(Oid toastrelid)
{
	Relation	classrel;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;
	Oid			parent = InvalidOid;

	ScanKeyInit(&key, Anum_pg_class_reltoastrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(toastrelid));
	classrel = table_open(RelationRelationId, AccessShareLock);
	scan = systable_beginscan(classrel, InvalidOid, false, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
		parent = ((Form_pg_class) GETSTRUCT(tuple))->oid;
	systable_endscan(scan);
	table_close(classrel, AccessShareLock);
	return parent;
}

/*
 * The labelheap table whose rows relid's pages hold: relid itself, the
 * table whose TOAST relation it is, or the table (or TOAST relation) it
 * indexes.  InvalidOid for anything else.
 */
static Oid
labelheap_owner(Oid relid, int depth)
{
	HeapTuple	tuple;
	Form_pg_class form;
	Oid			result = InvalidOid;

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		return InvalidOid;
	form = (Form_pg_class) GETSTRUCT(tuple);

	if (form_is_labelheap(form))
		result = relid;
	else if (form->relkind == RELKIND_TOASTVALUE)
	{
		Oid			parent = toast_parent(relid);

		if (OidIsValid(parent) && depth == 0)
			result = labelheap_owner(parent, depth + 1);
	}
	else if (form->relkind == RELKIND_INDEX && depth == 0)
	{
		HeapTuple	itup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(relid));

		if (HeapTupleIsValid(itup))
		{
			Oid			indrelid = ((Form_pg_index) GETSTRUCT(itup))->indrelid;

			ReleaseSysCache(itup);
			/* depth 0 again: the indexed relation may be a TOAST relation */
			if (indrelid != relid)
				result = labelheap_owner(indrelid, 0);
		}
	}
	ReleaseSysCache(tuple);
	return result;
}

/* "schema.name" for messages: TOAST relations are named alike everywhere */
static char *
qualified_relname(Oid relid)
{
	char	   *nspname = get_namespace_name(get_rel_namespace(relid));
	char	   *relname = get_rel_name(relid);

	if (nspname == NULL || relname == NULL)
		return psprintf("%u", relid);
	return psprintf("%s.%s", nspname, relname);
}

/* ---- 1. queries and COPY naming a TOAST relation ---- */

bool
labelheap_raw_check_perms(List *rangeTable, bool ereport_on_violation)
{
	ListCell   *lc;

	foreach(lc, rangeTable)
	{
		RangeTblEntry *rte = lfirst(lc);
		Oid			parent;

		/* the cheap test: most range tables name no TOAST relation */
		if (rte->rtekind != RTE_RELATION ||
			rte->relkind != RELKIND_TOASTVALUE)
			continue;
		parent = toast_parent(rte->relid);
		if (OidIsValid(parent) && OidIsValid(labelheap_owner(parent, 1)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied for TOAST relation \"%s\"",
							qualified_relname(rte->relid)),
					 errdetail("Its values belong to labelheap table \"%s\", whose rows are read only through that table, filtered by security label.",
							   qualified_relname(parent))));
	}
	return true;
}

/* ---- 2. contrib functions that read relation pages ---- */

typedef enum RawArgKind
{
	RAW_REL_NAME,				/* text: a possibly qualified relation name */
	RAW_REL_OID,				/* oid or regclass */
	RAW_DETOAST					/* bool: true fetches TOAST values */
} RawArgKind;

typedef struct RawFunction
{
	const char *module;			/* shared library, without directory and
								 * suffix */
	const char *symbol;			/* C function */
	int			argno;			/* the argument that says what is read */
	RawArgKind	kind;
} RawFunction;

/*
 * C symbols of PostgreSQL 15's contrib (every version of each extension
 * script) that read pages of a relation given as an argument, bypassing
 * the table AM, and return something derived from the rows.  Those that
 * refuse non-heap AMs themselves (pgstattuple and pgstattuple_approx on
 * tables, pg_surgery, pgrowlocks, verify_heapam) are still listed: the
 * TOAST relation of a labelheap table is a heap.
 */
static const RawFunction raw_functions[] = {
	{"pageinspect", "get_raw_page", 0, RAW_REL_NAME},
	{"pageinspect", "get_raw_page_1_9", 0, RAW_REL_NAME},
	{"pageinspect", "get_raw_page_fork", 0, RAW_REL_NAME},
	{"pageinspect", "get_raw_page_fork_1_9", 0, RAW_REL_NAME},
	{"pageinspect", "bt_metap", 0, RAW_REL_NAME},
	{"pageinspect", "bt_page_stats", 0, RAW_REL_NAME},
	{"pageinspect", "bt_page_stats_1_9", 0, RAW_REL_NAME},
	{"pageinspect", "bt_page_items", 0, RAW_REL_NAME},
	{"pageinspect", "bt_page_items_1_9", 0, RAW_REL_NAME},
	{"pageinspect", "bt_multi_page_stats", 0, RAW_REL_NAME},
	{"pageinspect", "hash_bitmap_info", 0, RAW_REL_OID},
	{"pageinspect", "tuple_data_split", 5, RAW_DETOAST},
	{"pgstattuple", "pgstattuple", 0, RAW_REL_NAME},
	{"pgstattuple", "pgstattuple_v1_5", 0, RAW_REL_NAME},
	{"pgstattuple", "pgstattuplebyid", 0, RAW_REL_OID},
	{"pgstattuple", "pgstattuplebyid_v1_5", 0, RAW_REL_OID},
	{"pgstattuple", "pgstatindex", 0, RAW_REL_NAME},
	{"pgstattuple", "pgstatindex_v1_5", 0, RAW_REL_NAME},
	{"pgstattuple", "pgstatindexbyid", 0, RAW_REL_OID},
	{"pgstattuple", "pgstatindexbyid_v1_5", 0, RAW_REL_OID},
	{"pgstattuple", "pgstatginindex", 0, RAW_REL_OID},
	{"pgstattuple", "pgstatginindex_v1_5", 0, RAW_REL_OID},
	{"pgstattuple", "pgstathashindex", 0, RAW_REL_OID},
	{"pgstattuple", "pgstattuple_approx", 0, RAW_REL_OID},
	{"pgstattuple", "pgstattuple_approx_v1_5", 0, RAW_REL_OID},
	{"pg_visibility", "pg_visibility", 0, RAW_REL_OID},
	{"pg_visibility", "pg_visibility_rel", 0, RAW_REL_OID},
	{"pg_visibility", "pg_visibility_map", 0, RAW_REL_OID},
	{"pg_visibility", "pg_visibility_map_rel", 0, RAW_REL_OID},
	{"pg_visibility", "pg_visibility_map_summary", 0, RAW_REL_OID},
	{"pg_visibility", "pg_check_frozen", 0, RAW_REL_OID},
	{"pg_visibility", "pg_check_visible", 0, RAW_REL_OID},
	{"pg_surgery", "heap_force_kill", 0, RAW_REL_OID},
	{"pg_surgery", "heap_force_freeze", 0, RAW_REL_OID},
	{"pgrowlocks", "pgrowlocks", 0, RAW_REL_NAME},
};

/*
 * The raw_functions entry a function is declared with, or NULL.  Builtins
 * never get here (fmgr_info's fast path), and functions created by initdb
 * are no contrib functions.
 */
static const RawFunction *
raw_function_lookup(Oid fn_oid)
{
	HeapTuple	tuple;
	Form_pg_proc proc;
	const RawFunction *result = NULL;

	if (fn_oid < FirstNormalObjectId)
		return NULL;
	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn_oid));
	if (!HeapTupleIsValid(tuple))
		return NULL;
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	if (proc->prolang == ClanguageId)
	{
		bool		binnull;
		bool		srcnull;
		Datum		bin = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_probin,
										  &binnull);
		Datum		src = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc,
										  &srcnull);
		char	   *probin;
		char	   *prosrc;
		char	   *module;
		size_t		len;

		if (!binnull && !srcnull)
		{
			probin = TextDatumGetCString(bin);
			prosrc = TextDatumGetCString(src);
			/* "$libdir/pageinspect", ".../lib/pageinspect.so", "pageinspect" */
			module = strrchr(probin, '/');
			module = module ? module + 1 : probin;
			len = strlen(module);
			if (len > strlen(DLSUFFIX) &&
				strcmp(module + len - strlen(DLSUFFIX), DLSUFFIX) == 0)
				module[len - strlen(DLSUFFIX)] = '\0';
			for (int i = 0; i < lengthof(raw_functions); i++)
			{
				if (strcmp(raw_functions[i].symbol, prosrc) == 0 &&
					strcmp(raw_functions[i].module, module) == 0)
				{
					result = &raw_functions[i];
					break;
				}
			}
			pfree(probin);
			pfree(prosrc);
		}
	}
	ReleaseSysCache(tuple);
	return result;
}

bool
labelheap_raw_needs_fmgr_hook(Oid fn_oid)
{
	return raw_function_lookup(fn_oid) != NULL;
}

/* The relation a constant argument names, or InvalidOid if none. */
static Oid
const_relid(Const *c, RawArgKind kind)
{
	List	   *names;

	if (kind == RAW_REL_OID)
		return DatumGetObjectId(c->constvalue);

	/* as the functions resolve it: relation_openrv on the qualified name */
	names = textToQualifiedNameList(DatumGetTextPP(c->constvalue));
	return RangeVarGetRelid(makeRangeVarFromNameList(names), NoLock, true);
}

static void
raw_function_check(const RawFunction *f, FmgrInfo *flinfo)
{
	List	   *args = NIL;
	Node	   *arg;
	Oid			relid;
	Oid			owner;

	if (flinfo->fn_expr && IsA(flinfo->fn_expr, FuncExpr))
		args = ((FuncExpr *) flinfo->fn_expr)->args;
	else if (f->kind != RAW_DETOAST || flinfo->fn_nargs > f->argno)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to call %s() outside of a query",
						get_func_name(flinfo->fn_oid)),
				 errdetail("labelam must see which relation a function reading raw pages is given.")));

	if (f->kind == RAW_DETOAST)
	{
		/* tuple_data_split(rel, data, infomask, infomask2, bits [, detoast]) */
		if (list_length(args) <= f->argno)
			return;
		arg = list_nth(args, f->argno);
		if (IsA(arg, Const) &&
			(((Const *) arg)->constisnull ||
			 !DatumGetBool(((Const *) arg)->constvalue)))
			return;
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to fetch TOAST values with %s()",
						get_func_name(flinfo->fn_oid)),
				 errdetail("A tuple given as bytes may point to values of rows of a labelheap table, which only that table may read."),
				 errhint("Pass false for do_detoast.")));
	}

	if (list_length(args) <= f->argno)
		return;					/* not our declaration: nothing to resolve */
	arg = list_nth(args, f->argno);
	if (!IsA(arg, Const))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to call %s() with a relation that is not a constant",
						get_func_name(flinfo->fn_oid)),
				 errdetail("labelam refuses raw reads of labelheap tables, their TOAST relations and their indexes, so it must see which relation is read before the call."),
				 errhint("Pass the relation's name or OID as a literal.")));
	if (((Const *) arg)->constisnull)
		return;					/* strict functions: no call */
	relid = const_relid((Const *) arg, f->kind);
	if (!OidIsValid(relid))
		return;					/* the function reports the missing relation */
	owner = labelheap_owner(relid, 0);
	if (OidIsValid(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read relation \"%s\" with %s()",
						qualified_relname(relid),
						get_func_name(flinfo->fn_oid)),
				 errdetail("Its pages hold rows of labelheap table \"%s\", which only the table access method may read, filtered by security label.",
						   qualified_relname(owner))));
}

void
labelheap_raw_fmgr_hook(FmgrHookEventType event, FmgrInfo *flinfo)
{
	if (event == FHET_START)
	{
		const RawFunction *f = raw_function_lookup(flinfo->fn_oid);

		if (f)
			raw_function_check(f, flinfo);
	}
}

/* ---- every label of the dictionary ---- */

/*
 * May the session select rows of every label in this database's
 * dictionary (a superset of the labels its labelheap tables hold)?  With
 * ShareLock, the dictionary is locked against new labels until the end of
 * the transaction (ShareLock waits for transactions that interned a label,
 * which hold RowExclusiveLock, to end), so that no label appears between
 * the check and what the caller does; audit records the denial.
 */
bool
labelheap_selects_every_label(LOCKMODE lockmode, bool audit)
{
	LabelDict	dict;
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		result = true;

	if (!label_dict_get(&dict))
		return true;			/* no labelam here, so no labelheap tables */

	rel = table_open(dict.relid, lockmode);
	/* SnapshotSelf: every committed label, also those after our snapshot */
	scan = systable_beginscan(rel, InvalidOid, false, SnapshotSelf, 0, NULL);
	while (result && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		secid = heap_getattr(tuple, 1, RelationGetDescr(rel),
										 &isnull);

		if (isnull)
			continue;
		result = audit ?
			avc_check_tuple(NULL, DatumGetObjectId(secid), AVC_DB_TUPLE_SELECT) :
			avc_tuple_allowed(DatumGetObjectId(secid), AVC_DB_TUPLE_SELECT);
	}
	systable_endscan(scan);
	table_close(rel, NoLock);
	return result;
}
