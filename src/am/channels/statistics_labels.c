/*-------------------------------------------------------------------------
 *
 * src/am/channels/statistics_labels.c
 *	  Statistics carry the labels of the rows they were computed from, and
 *	  are shown only to sessions that may select every one of them.
 *
 * ANALYZE samples the rows that labelam.statistics_label may select
 * (analyze.c), and pg_stats, pg_stats_ext, pg_stats_ext_exprs and the
 * planner's estimates then show what it found to every role that may
 * select the column.  That is safe only while the statistics label is
 * the lowest label among the readers; an administrator whose label is
 * high (labelam.statistics_label defaults to labelam.default_client_label)
 * made ANALYZE publish high rows' values to everyone.  So the statistics
 * themselves carry labels, and a reader sees them only if its label may
 * select each one, whatever the configuration was when they were made:
 *
 *	- Recording: each row handed to ANALYZE (analyze.c) notes its label
 *	  for the statistics it goes into: those of the table being analyzed,
 *	  or its inherited statistics (a parent's sample gathers its children's
 *	  rows), as ANALYZE's progress report says (target relation, phase).
 *	  When the transaction commits, labelam.statistics_labels (relid, inh,
 *	  secid) gets the labels: they replace the recorded ones if every
 *	  statistics row of that relation (column, index expression and
 *	  extended statistics, of that inh) was written by this transaction,
 *	  since then nothing computed from an older sample is left; otherwise
 *	  (a column ANALYZE skipped, a sample that found no row) they are
 *	  added.  Without a progress report (track_activities = off) the labels
 *	  go to the sampled table and, as inherited statistics, to every
 *	  ancestor, and are only ever added.  So the recorded set is always a
 *	  superset of the labels of the rows the statistics in the catalogs
 *	  were computed from.  Statistics with no recorded label were computed
 *	  from no labelheap row (heap tables) and are shown as before.
 *	- Reading: pg_statistic and pg_statistic_ext_data, whoever reads them
 *	  (the pg_stats views, a superuser's query), get a security qual when a
 *	  query is planned (labelam.statistics_visible), as row-level security
 *	  adds its policies; COPY of either catalog is refused when anything
 *	  recorded is beyond the session's reach.  The planner's estimates see
 *	  no statistics the session may not read (get_relation_stats_hook,
 *	  get_index_stats_hook, get_attavgwidth_hook, and no extended
 *	  statistics in get_relation_info): it estimates as for a table never
 *	  analyzed.  Counts (reltuples, relpages) are not filtered, as before.
 *
 * Recorded rows go with their relation (DROP).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/relation.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_statistic_ext.h"
#include "catalog/pg_statistic_ext_data.h"
#include "catalog/pg_type.h"
#include "commands/progress.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/plannodes.h"
#include "parser/parse_func.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "am/channels/statistics_labels.h"
#include "avc/avc.h"

#define STATS_SCHEMA	"labelam"
#define STATS_TABLE		"statistics_labels"
#define STATS_INDEX		"statistics_labels_relid_idx"

#define Anum_stats_relid	1
#define Anum_stats_inh		2
#define Anum_stats_secid	3

typedef struct StatsKey
{
	Oid			relid;
	bool		inh;
} StatsKey;

/* the labels a transaction's samples found, per statistics they go to */
typedef struct PendingEntry
{
	StatsKey	key;
	bool		replace;		/* the statistics' owner is known */
	int			n;
	Oid			secids[64];		/* more distinct labels: replace is off */
} PendingEntry;

/* the recorded labels of a relation's statistics, as this backend read them */
typedef struct CachedEntry
{
	StatsKey	key;
	int			n;
	Oid		   *secids;
} CachedEntry;

static HTAB *pending = NULL;	/* in TopTransactionContext */
static HTAB *cached = NULL;
static MemoryContext cached_cxt = NULL;

static Oid	stats_relid = InvalidOid;
static Oid	stats_indexid = InvalidOid;

/* the table and its index; false while the extension is not there */
static bool
stats_oids(void)
{
	Oid			nsp;

	if (OidIsValid(stats_relid) && OidIsValid(stats_indexid))
		return true;
	nsp = get_namespace_oid(STATS_SCHEMA, true);
	if (!OidIsValid(nsp))
		return false;
	stats_relid = get_relname_relid(STATS_TABLE, nsp);
	stats_indexid = get_relname_relid(STATS_INDEX, nsp);
	return OidIsValid(stats_relid) && OidIsValid(stats_indexid);
}

/* ---------------------------------------------------------------------
 * Recording
 * ---------------------------------------------------------------------
 */

static void
note(Oid relid, bool inh, Oid secid, bool replace)
{
	StatsKey	key;
	PendingEntry *e;
	bool		found;
	int			i;

	if (pending == NULL)
	{
		HASHCTL		info;

		info.keysize = sizeof(StatsKey);
		info.entrysize = sizeof(PendingEntry);
		info.hcxt = TopTransactionContext;
		pending = hash_create("labelam sampled labels", 16, &info,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.relid = relid;
	key.inh = inh;
	e = hash_search(pending, &key, HASH_ENTER, &found);
	if (!found)
	{
		e->replace = replace;
		e->n = 0;
	}
	else if (!replace)
		e->replace = false;
	for (i = 0; i < e->n; i++)
		if (e->secids[i] == secid)
			return;
	if (e->n < lengthof(e->secids))
		e->secids[e->n++] = secid;
	else
	{
		/* too many to hold: added one by one, as sampled */
		e->replace = false;
		e->n = 0;
		e->secids[e->n++] = secid;
		elog(DEBUG1, "labelam: more than %d labels in the sample of relation %u",
			 (int) lengthof(e->secids), relid);
	}
}

/* the parents of relid in pg_inherits (palloc'd list of Oids) */
static List *
parents_of(Oid relid)
{
	Relation	inh;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;
	List	   *result = NIL;

	inh = table_open(InheritsRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(inh, InheritsRelidSeqnoIndexId, true, NULL,
							  1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		result = lappend_oid(result,
							 ((Form_pg_inherits) GETSTRUCT(tuple))->inhparent);
	systable_endscan(scan);
	table_close(inh, AccessShareLock);
	return result;
}

void
labelheap_statistics_sampled(Relation rel, Oid secid)
{
	PgBackendStatus *be = MyBEEntry;

	if (be != NULL && be->st_progress_command == PROGRESS_COMMAND_ANALYZE &&
		OidIsValid(be->st_progress_command_target))
	{
		bool		inh = be->st_progress_param[PROGRESS_ANALYZE_PHASE] ==
			PROGRESS_ANALYZE_PHASE_ACQUIRE_SAMPLE_ROWS_INH;

		note(be->st_progress_command_target, inh, secid, true);
	}
	else
	{
		/* whose statistics these are is not known: everyone that may use them */
		List	   *todo = list_make1_oid(RelationGetRelid(rel));
		List	   *done = NIL;

		note(RelationGetRelid(rel), false, secid, false);
		while (todo != NIL)
		{
			Oid			relid = linitial_oid(todo);

			todo = list_delete_first(todo);
			if (list_member_oid(done, relid))
				continue;
			done = lappend_oid(done, relid);
			note(relid, true, secid, false);
			todo = list_concat(todo, parents_of(relid));
		}
		list_free(done);
	}
}

/* were all rows of an index scan of catalog cat on keys written by us? */
static bool
rows_fresh(Oid cat, Oid index, ScanKeyData *keys, int nkeys,
		   int inh_attnum, bool inh)
{
	Relation	rel = table_open(cat, AccessShareLock);
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		fresh = true;

	scan = systable_beginscan(rel, index, true, NULL, nkeys, keys);
	while (fresh && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d = heap_getattr(tuple, inh_attnum, RelationGetDescr(rel),
									 &isnull);

		if (inh_attnum != 0 && (isnull || DatumGetBool(d) != inh))
			continue;
		if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)))
			fresh = false;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return fresh;
}

static bool
column_stats_fresh(Oid relid, bool inh)
{
	ScanKeyData key;

	ScanKeyInit(&key, Anum_pg_statistic_starelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	return rows_fresh(StatisticRelationId, StatisticRelidAttnumInhIndexId,
					  &key, 1, Anum_pg_statistic_stainherit, inh);
}

/*
 * Is every statistic of relid (inh) made by this transaction?  Column
 * statistics, the expression statistics of its indexes (inh = false) and
 * its extended statistics.
 */
static bool
statistics_fresh(Oid relid, bool inh)
{
	Relation	ext;
	SysScanDesc scan;
	ScanKeyData key;
	HeapTuple	tuple;
	bool		fresh;

	if (!column_stats_fresh(relid, inh))
		return false;
	if (!inh)
	{
		Relation	rel = try_relation_open(relid, AccessShareLock);
		List	   *indexes;
		ListCell   *lc;

		if (rel == NULL)
			return false;
		indexes = RelationGetIndexList(rel);
		relation_close(rel, AccessShareLock);
		foreach(lc, indexes)
			if (!column_stats_fresh(lfirst_oid(lc), false))
				return false;
	}

	fresh = true;
	ext = table_open(StatisticExtRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_statistic_ext_stxrelid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(relid));
	scan = systable_beginscan(ext, StatisticExtRelidIndexId, true, NULL, 1,
							  &key);
	while (fresh && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		ScanKeyData dkey;

		ScanKeyInit(&dkey, Anum_pg_statistic_ext_data_stxoid,
					BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(((Form_pg_statistic_ext) GETSTRUCT(tuple))->oid));
		fresh = rows_fresh(StatisticExtDataRelationId,
						   StatisticExtDataStxoidInhIndexId, &dkey, 1,
						   Anum_pg_statistic_ext_data_stxdinherit, inh);
	}
	systable_endscan(scan);
	table_close(ext, AccessShareLock);
	return fresh;
}

/* rows of (relid, inh) in labelam.statistics_labels: delete, or collect */
static void
recorded_scan(Relation srel, Oid relid, bool inh, bool delete,
			  Oid **secids, int *n)
{
	SysScanDesc scan;
	ScanKeyData keys[2];
	HeapTuple	tuple;
	int			alloc = 0;

	if (n)
		*n = 0;
	ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	ScanKeyInit(&keys[1], 2, BTEqualStrategyNumber, F_BOOLEQ,
				BoolGetDatum(inh));
	scan = systable_beginscan(srel, stats_indexid, true, NULL, 2, keys);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d;

		if (delete)
		{
			simple_heap_delete(srel, &tuple->t_self);
			continue;
		}
		d = heap_getattr(tuple, Anum_stats_secid, RelationGetDescr(srel),
						 &isnull);
		if (isnull)
			continue;
		if (*n >= alloc)
		{
			alloc = Max(8, alloc * 2);
			*secids = *secids ? repalloc(*secids, alloc * sizeof(Oid)) :
				palloc(alloc * sizeof(Oid));
		}
		(*secids)[(*n)++] = DatumGetObjectId(d);
	}
	systable_endscan(scan);
}

/* at pre-commit: the labels the transaction's samples found, recorded */
static void
flush_pending(void)
{
	HASH_SEQ_STATUS status;
	PendingEntry *e;
	Relation	srel;

	if (pending == NULL || !stats_oids())
		return;
	srel = table_open(stats_relid, RowExclusiveLock);
	hash_seq_init(&status, pending);
	while ((e = hash_seq_search(&status)) != NULL)
	{
		Oid		   *old = NULL;
		int			nold = 0;
		int			i;

		/* dropped meanwhile (REFRESH ... CONCURRENTLY's diff table) */
		if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(e->key.relid)))
			continue;
		if (e->replace && statistics_fresh(e->key.relid, e->key.inh))
			recorded_scan(srel, e->key.relid, e->key.inh, true, NULL, NULL);
		else
			recorded_scan(srel, e->key.relid, e->key.inh, false, &old, &nold);
		CommandCounterIncrement();
		for (i = 0; i < e->n; i++)
		{
			Datum		values[3];
			bool		nulls[3] = {false, false, false};
			HeapTuple	tuple;
			int			j;
			bool		known = false;

			for (j = 0; j < nold; j++)
				if (old[j] == e->secids[i])
					known = true;
			if (known)
				continue;
			values[Anum_stats_relid - 1] = ObjectIdGetDatum(e->key.relid);
			values[Anum_stats_inh - 1] = BoolGetDatum(e->key.inh);
			values[Anum_stats_secid - 1] = ObjectIdGetDatum(e->secids[i]);
			tuple = heap_form_tuple(RelationGetDescr(srel), values, nulls);
			CatalogTupleInsert(srel, tuple);
			heap_freetuple(tuple);
		}
		/* every backend reads the new set (labelheap_statistics_relcache) */
		CacheInvalidateRelcacheByRelid(e->key.relid);
	}
	table_close(srel, RowExclusiveLock);
}

void
labelheap_statistics_xact(XactEvent event)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			flush_pending();
			/* FALLTHROUGH */
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_PARALLEL_ABORT:
			/* in TopTransactionContext: gone with it */
			pending = NULL;
			break;
		default:
			break;
	}
}

void
labelheap_statistics_object_access(ObjectAccessType access, Oid classId,
								   Oid objectId, int subId)
{
	Relation	srel;

	if (access != OAT_DROP || classId != RelationRelationId || subId != 0 ||
		!stats_oids())
		return;
	srel = table_open(stats_relid, RowExclusiveLock);
	recorded_scan(srel, objectId, false, true, NULL, NULL);
	recorded_scan(srel, objectId, true, true, NULL, NULL);
	table_close(srel, RowExclusiveLock);
}

/* ---------------------------------------------------------------------
 * Reading
 * ---------------------------------------------------------------------
 */

void
labelheap_statistics_relcache(Oid relid)
{
	StatsKey	key;

	if (!OidIsValid(relid) || relid == stats_relid || relid == stats_indexid)
	{
		stats_relid = stats_indexid = InvalidOid;
		if (cached_cxt != NULL)
			MemoryContextReset(cached_cxt);
		cached = NULL;
		return;
	}
	if (cached == NULL)
		return;
	memset(&key, 0, sizeof(key));
	key.relid = relid;
	key.inh = false;
	(void) hash_search(cached, &key, HASH_REMOVE, NULL);
	key.inh = true;
	(void) hash_search(cached, &key, HASH_REMOVE, NULL);
}

static CachedEntry *
recorded(Oid relid, bool inh)
{
	StatsKey	key;
	CachedEntry *e;
	bool		found;
	Relation	srel;
	MemoryContext oldcxt;

	if (cached == NULL)
	{
		HASHCTL		info;

		if (cached_cxt == NULL)
			cached_cxt = AllocSetContextCreate(TopMemoryContext,
											   "labelam statistics labels",
											   ALLOCSET_SMALL_SIZES);
		info.keysize = sizeof(StatsKey);
		info.entrysize = sizeof(CachedEntry);
		info.hcxt = cached_cxt;
		cached = hash_create("labelam statistics labels", 64, &info,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	memset(&key, 0, sizeof(key));
	key.relid = relid;
	key.inh = inh;
	e = hash_search(cached, &key, HASH_FIND, NULL);
	if (e != NULL)
		return e;

	/* read before entering: an invalidation while reading empties it */
	{
		Oid		   *secids = NULL;
		int			n = 0;

		srel = table_open(stats_relid, AccessShareLock);
		recorded_scan(srel, relid, inh, false, &secids, &n);
		table_close(srel, AccessShareLock);
		if (cached == NULL)
			return recorded(relid, inh);
		e = hash_search(cached, &key, HASH_ENTER, &found);
		e->n = n;
		oldcxt = MemoryContextSwitchTo(cached_cxt);
		e->secids = n > 0 ? palloc(n * sizeof(Oid)) : NULL;
		MemoryContextSwitchTo(oldcxt);
		if (n > 0)
			memcpy(e->secids, secids, n * sizeof(Oid));
		if (secids)
			pfree(secids);
	}
	return e;
}

bool
labelheap_statistics_visible(Oid relid, bool inh)
{
	CachedEntry *e;
	int			i;

	if (!stats_oids())
		return true;
	/* an index's statistics (its expressions) come from its table's rows */
	if (get_rel_relkind(relid) == RELKIND_INDEX)
	{
		Oid			table = IndexGetRelation(relid, true);

		if (!OidIsValid(table))
			return true;
		relid = table;
		inh = false;
	}
	/* its own statistics (read while its index is built) hold no label */
	if (relid == stats_relid)
		return true;
	e = recorded(relid, inh);
	for (i = 0; i < e->n; i++)
		if (!avc_tuple_allowed(e->secids[i], AVC_DB_TUPLE_SELECT))
			return false;
	return true;
}

/* labelam.statistics_visible(starelid, stainherit), pg_statistic's qual */
PG_FUNCTION_INFO_V1(labelam_statistics_visible);
Datum
labelam_statistics_visible(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(labelheap_statistics_visible(PG_GETARG_OID(0),
												PG_GETARG_BOOL(1)));
}

/* labelam.statistics_ext_visible(stxoid, stxdinherit), pg_statistic_ext_data's */
PG_FUNCTION_INFO_V1(labelam_statistics_ext_visible);
Datum
labelam_statistics_ext_visible(PG_FUNCTION_ARGS)
{
	HeapTuple	tuple;
	Oid			relid;

	tuple = SearchSysCache1(STATEXTOID, PG_GETARG_DATUM(0));
	if (!HeapTupleIsValid(tuple))
		PG_RETURN_BOOL(false);
	relid = ((Form_pg_statistic_ext) GETSTRUCT(tuple))->stxrelid;
	ReleaseSysCache(tuple);
	PG_RETURN_BOOL(labelheap_statistics_visible(relid, PG_GETARG_BOOL(1)));
}

/* ---- the planner ---- */

bool
labelheap_statistics_relation_hook(PlannerInfo *root, RangeTblEntry *rte,
								   AttrNumber attnum, VariableStatData *vardata)
{
	if (rte->rtekind != RTE_RELATION ||
		labelheap_statistics_visible(rte->relid, rte->inh))
		return false;
	vardata->statsTuple = NULL;
	return true;
}

bool
labelheap_statistics_index_hook(PlannerInfo *root, Oid indexOid,
								AttrNumber indexattnum,
								VariableStatData *vardata)
{
	if (labelheap_statistics_visible(indexOid, false))
		return false;
	vardata->statsTuple = NULL;
	return true;
}

/* the width the planner assumes of a column without statistics, or 0 */
int32
labelheap_statistics_attavgwidth(Oid relid, AttrNumber attnum)
{
	Oid			type;
	int32		typmod;
	Oid			collation;

	if (labelheap_statistics_visible(relid, false))
		return 0;
	get_atttypetypmodcoll(relid, attnum, &type, &typmod, &collation);
	return get_typavgwidth(type, typmod);
}

void
labelheap_statistics_relation_info(Oid relid, bool inhparent, RelOptInfo *rel)
{
	if (rel->statlist != NIL && !labelheap_statistics_visible(relid, inhparent))
		rel->statlist = NIL;
}

/* ---- pg_statistic and pg_statistic_ext_data in queries ---- */

static Oid
qual_function(const char *name)
{
	Oid			argtypes[2] = {OIDOID, BOOLOID};

	return LookupFuncName(list_make2(makeString(STATS_SCHEMA),
									 makeString(pstrdup(name))),
						  2, argtypes, true);
}

static bool
add_quals_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Query))
	{
		Query	   *query = (Query *) node;
		ListCell   *lc;
		Index		rti = 0;

		foreach(lc, query->rtable)
		{
			RangeTblEntry *rte = lfirst(lc);
			AttrNumber	relid_att;
			AttrNumber	inh_att;
			const char *fname;
			Oid			func;
			List	   *args;

			rti++;
			if (rte->rtekind != RTE_RELATION)
				continue;
			if (rte->relid == StatisticRelationId)
			{
				relid_att = Anum_pg_statistic_starelid;
				inh_att = Anum_pg_statistic_stainherit;
				fname = "statistics_visible";
			}
			else if (rte->relid == StatisticExtDataRelationId)
			{
				relid_att = Anum_pg_statistic_ext_data_stxoid;
				inh_att = Anum_pg_statistic_ext_data_stxdinherit;
				fname = "statistics_ext_visible";
			}
			else
				continue;
			func = qual_function(fname);
			if (!OidIsValid(func))
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("function labelam.%s is missing", fname),
						 errhint("Recreate the extension labelam.")));
			args = list_make2(makeVar(rti, relid_att, OIDOID, -1, InvalidOid, 0),
							  makeVar(rti, inh_att, BOOLOID, -1, InvalidOid, 0));
			rte->securityQuals = lappend(rte->securityQuals,
										 makeFuncExpr(func, BOOLOID, args,
													  InvalidOid, InvalidOid,
													  COERCE_EXPLICIT_CALL));
		}
		return query_tree_walker(query, add_quals_walker, context, 0);
	}
	return expression_tree_walker(node, add_quals_walker, context);
}

/* planner_hook: a qual on every read of the two catalogs */
void
labelheap_statistics_planner(Query *parse)
{
	/* no labelheap statistics in a database without the extension */
	if (!stats_oids())
		return;
	(void) add_quals_walker((Node *) parse, NULL);
}

/*
 * ProcessUtility: COPY pg_statistic (or pg_statistic_ext_data) TO reads
 * the catalog without a query: refused unless the session may read every
 * recorded label.
 */
void
labelheap_statistics_copy_utility(PlannedStmt *pstmt)
{
	CopyStmt   *stmt;
	Oid			relid;
	Relation	srel;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		allowed = true;

	if (!IsA(pstmt->utilityStmt, CopyStmt))
		return;
	stmt = (CopyStmt *) pstmt->utilityStmt;
	if (stmt->is_from || stmt->relation == NULL || !stats_oids())
		return;
	relid = RangeVarGetRelid(stmt->relation, NoLock, true);
	if (relid != StatisticRelationId && relid != StatisticExtDataRelationId)
		return;
	srel = table_open(stats_relid, AccessShareLock);
	scan = systable_beginscan(srel, InvalidOid, false, NULL, 0, NULL);
	while (allowed && HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		d = heap_getattr(tuple, Anum_stats_secid,
									 RelationGetDescr(srel), &isnull);

		if (!isnull && !avc_tuple_allowed(DatumGetObjectId(d),
										  AVC_DB_TUPLE_SELECT))
			allowed = false;
	}
	systable_endscan(scan);
	table_close(srel, AccessShareLock);
	if (!allowed)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to copy statistics computed from rows beyond the reach of the session's security label"),
				 errhint("COPY (SELECT * FROM %s) TO shows the statistics the session may read.",
						 get_rel_name(relid))));
}
