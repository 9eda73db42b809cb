/*-------------------------------------------------------------------------
 *
 * src/am/channels/counters.c
 *	  Statistics counters that count rows and pages before labelheap
 *	  filters them: shown only to a session that may select every row they
 *	  count.
 *
 * An index scan counts every match the index returns (tuples_returned of
 * the index), a bitmap heap scan every tuple it fetches (tuples_fetched of
 * the table) and every buffer any scan pins (blocks_fetched, blocks_hit of
 * the table and its indexes), hidden rows' included: labelheap filters
 * after.  The counts are the session's own until the transaction ends
 * (pg_stat_get_xact_*), then add up in the cumulative statistics, per
 * relation and per database.  A binary search on the counts of
 * "SELECT ... WHERE v BETWEEN lo AND hi" finds a hidden value.
 *
 * The built-ins that return these counts (counterlist.h) are called through
 * checked twins (objects/functions.c rewrites their calls when a query is
 * planned, the pg_stat_* views' included), which return NULL
 *
 *	- for a labelheap table holding a label the session may not select,
 *	  or that held one before a TRUNCATE (label_set_counted.c), and for
 *	  its indexes (labelheap_counters_visible);
 *	- for the database the session is in, if its label dictionary (a
 *	  superset of the labels its tables hold) holds such a label
 *	  (labelheap_db_counters_visible): every scan's counts add up there;
 *
 * and the same built-ins reached without their twins (the fast-path
 * interface, plans made before the extension), pg_stat_io's, whose reads
 * and hits count every backend's buffers, and pg_stat_statements', whose
 * buffer columns count every statement's, are refused in such a database
 * (labelheap_counters_object_access).
 *
 * labelam.avc_stats() is refused in such a database too: the decision
 * cache's hits and misses count the labels of the rows the row filter
 * decided, hidden ones' included.
 *
 * A table locked by someone else (ALTER TABLE's AccessExclusiveLock) is not
 * waited for: a monitoring query over every table must not block; its
 * counters are NULL meanwhile.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "access/transam.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/label_set/label_set.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "avc/avc.h"


/* the table whose rows relid's counters count: itself, or an index's */
static Oid
counted_table(Oid relid, Oid *relam)
{
	HeapTuple	tuple;
	Form_pg_class form;
	Oid			table = relid;

	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	if (!HeapTupleIsValid(tuple))
		return InvalidOid;
	form = (Form_pg_class) GETSTRUCT(tuple);
	if (form->relkind == RELKIND_INDEX)
	{
		ReleaseSysCache(tuple);
		table = IndexGetRelation(relid, true);
		if (!OidIsValid(table))
			return InvalidOid;
		tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(table));
		if (!HeapTupleIsValid(tuple))
			return InvalidOid;
		form = (Form_pg_class) GETSTRUCT(tuple);
	}
	*relam = form->relam;
	ReleaseSysCache(tuple);
	return table;
}

bool
labelheap_counters_visible(Oid relid)
{
	Oid			relam = InvalidOid;
	Oid			table = counted_table(relid, &relam);
	Relation	rel;
	bool		result;

	/* no such relation: the built-in has nothing to say either */
	if (!OidIsValid(table) || !OidIsValid(relam) || !is_labelheap_am(relam))
		return true;
	if (!ConditionalLockRelationOid(table, AccessShareLock))
		return false;
	rel = try_relation_open(table, NoLock);
	result = rel != NULL &&
		labelheap_label_set_allowed_now(rel, AVC_DB_TUPLE_SELECT) &&
		labelheap_counted_allowed(table);
	if (rel != NULL)
		relation_close(rel, NoLock);
	UnlockRelationOid(table, AccessShareLock);
	return result;
}

bool
labelheap_db_counters_visible(Oid dbid)
{
	/* a session's scans count in its own database's entry only */
	if (dbid != MyDatabaseId)
		return true;
	return labelheap_selects_every_label(AccessShareLock, false);
}

/*
 * The built-ins refused when reached without a twin (see the header): the
 * counters that have twins (counterlist.h), and those that count every
 * backend's buffers, which have none.
 */
static bool
is_counter_builtin(Oid funcid)
{
	switch (funcid)
	{
#define LABELHEAP_COUNTER(name, builtin, database) case builtin:
#include "am/channels/counterlist.h"
#undef LABELHEAP_COUNTER
#ifdef F_PG_STAT_GET_IO
		case F_PG_STAT_GET_IO:
#endif
#ifdef F_PG_STAT_GET_BACKEND_IO
		case F_PG_STAT_GET_BACKEND_IO:
#endif
			return true;
		default:
			return false;
	}
}

/*
 * A function of pg_stat_statements, whose buffer columns count a
 * statement's buffers (its own and its nested queries'), hidden rows'
 * pages included, for every statement of the session's own role?  Known
 * by the library that implements it, not by a name anyone may take.
 */
static bool
is_statement_statistics(Oid funcid)
{
	HeapTuple	tuple;
	Datum		probin;
	bool		isnull;
	bool		result = false;

	/* an extension's function: not a built-in, nor initdb's */
	if (funcid < FirstNormalObjectId)
		return false;
	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return false;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == ClanguageId)
	{
		probin = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_probin, &isnull);
		if (!isnull)
		{
			char	   *lib = TextDatumGetCString(probin);

			result = strcmp(lib, "$libdir/pg_stat_statements") == 0;
			pfree(lib);
		}
	}
	ReleaseSysCache(tuple);
	return result;
}

void
labelheap_counters_object_access(ObjectAccessType access, Oid classId,
								 Oid objectId)
{
	if (access != OAT_FUNCTION_EXECUTE || classId != ProcedureRelationId ||
		!(is_counter_builtin(objectId) || is_statement_statistics(objectId)))
		return;
	if (!labelheap_selects_every_label(AccessShareLock, true))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to call %s() in this database",
						get_func_name(objectId)),
				 errdetail("Its counts include rows and pages of labelheap tables beyond the reach of the session's security label."),
				 errhint("Per-table counters are shown in SQL queries for tables whose every row the session may select; pg_stat_io and pg_stat_statements are for sessions that may select every label.")));
}

/*
 * labelam.avc_stats(): the decision cache's hits, misses, resets and
 * entries (avc/cache.c), for a session that may select every label.
 */
PG_FUNCTION_INFO_V1(labelam_avc_stats);
Datum
labelam_avc_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};
	uint64		hits,
				misses,
				resets,
				entries;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	/*
	 * The session's row filter asks the cache once a row: a hidden row's
	 * label misses where the rows around it hit, so the counts, read around
	 * "SELECT ... WHERE v BETWEEN lo AND hi", count hidden rows (as the
	 * statistics counters do).
	 */
	if (!labelheap_selects_every_label(AccessShareLock, true))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the decision cache's statistics in this database"),
				 errdetail("Its hits and misses count the rows of labelheap tables the session's row filter decided, those beyond the reach of its security label included."),
				 errhint("Only a session that may select every label in labelam.pg_security can read them.")));
	avc_cache_stats(&hits, &misses, &resets, &entries);
	values[0] = Int64GetDatum((int64) hits);
	values[1] = Int64GetDatum((int64) misses);
	values[2] = Int64GetDatum((int64) resets);
	values[3] = Int64GetDatum((int64) entries);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
