/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set_checks.c
 *	  The checks that use a labelheap relation's label set (label_set.c):
 *	  whether the session reaches every label of a relation, and the
 *	  operations that destroy rows without reading them: TRUNCATE (also
 *	  ON COMMIT DELETE ROWS), DROP of the relation, DROP COLUMN, REFRESH
 *	  MATERIALIZED VIEW.
 *
 * Checks run after the command took its lock on the relation and before it
 * changes anything; with the lock held no writer can add a label, so the
 * set read is the relation's.  A refusal never names a label nor counts
 * rows: it only says that some row is beyond the session's reach.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "lib/qunique.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "commands/tablecmds.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "am/label_set/label_set.h"
#include "am/label_set/label_set_int.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/relcache.h"
#include "am/replication/replication.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "avc/avc.h"
#include "pg_compat.h"

/* ---------------------------------------------------------------------
 * Checks
 * ---------------------------------------------------------------------
 */

/*
 * Labels of every tuple version in rel's storage, live or dead, sorted
 * and unique; InvalidOid for a tuple without a valid label.  For when the
 * catalog is missing (DROP EXTENSION ... CASCADE may drop it before the
 * tables): slow but never wrong.
 */
typedef struct ScannedLabels
{
	Oid		   *secids;
	int			count;
	int			alloc;
} ScannedLabels;

static void
note_scanned(HeapTupleHeader tup, uint32 len, ItemPointer tid, void *arg)
{
	ScannedLabels *sl = arg;
	Oid			secid = labelheap_header_secid(tup, len);

	if (sl->count > 0 && secid == sl->secids[sl->count - 1])
		return;
	if (sl->count >= sl->alloc)
	{
		sl->alloc *= 2;
		sl->secids = repalloc(sl->secids, sl->alloc * sizeof(Oid));
	}
	sl->secids[sl->count++] = secid;
}

static Oid *
labels_by_scanning(Relation rel, int *n)
{
	ScannedLabels sl;

	sl.count = 0;
	sl.alloc = 16;
	sl.secids = palloc(sl.alloc * sizeof(Oid));
	labelheap_walk_stored(rel, note_scanned, &sl);

	if (sl.count > 1)
	{
		qsort(sl.secids, sl.count, sizeof(Oid), oid_cmp);
		sl.count = qunique(sl.secids, sl.count, sizeof(Oid), oid_cmp);
	}
	*n = sl.count;
	return sl.secids;
}

/*
 * rel's label set (palloc'd copy, since rd_amcache may be freed by any
 * catalog access), from rd_amcache or loaded into it.
 */
static Oid *
label_set_get(Relation rel, int *n)
{
	LabelheapRelCache *cache = (LabelheapRelCache *) rel->rd_amcache;
	uint64		inval_count;
	Oid		   *secids;

	if (cache != NULL && cache->set_valid)
	{
		*n = cache->nsecids;
		secids = palloc((cache->nsecids + 1) * sizeof(Oid));
		memcpy(secids, cache->secids, cache->nsecids * sizeof(Oid));
		return secids;
	}

	inval_count = labelheap_set_inval_count;
	if (!labelheap_set_catalog_load(RelationGetRelid(rel), SnapshotSelf, &secids, n))
		return labels_by_scanning(rel, n);

	/*
	 * An invalidation processed while loading may mean a pair added
	 * meanwhile: use what was read, but do not keep it.
	 */
	if (inval_count == labelheap_set_inval_count)
		labelheap_relcache_set_labels(rel, *n, secids);
	return secids;
}

/*
 * rel's label set with the pairs of transactions in progress (a dirty
 * snapshot of the catalog; the cached set holds committed pairs only).
 */
static Oid *
label_set_get_in_progress(Relation rel, int *n)
{
	SnapshotData dirty;
	Oid		   *secids;

	InitDirtySnapshot(dirty);
	if (!labelheap_set_catalog_load(RelationGetRelid(rel), &dirty, &secids, n))
		return labels_by_scanning(rel, n);
	return secids;
}

/*
 * Does the session hold perms on every label of rel's set (with
 * in_progress, also on those of writers in progress)?
 */
static bool
label_set_check(Relation rel, uint32 perms, bool audit, bool in_progress)
{
	int			n;
	Oid		   *secids;
	bool		ok = true;
	int			i;

	/* other relations hold no labeled rows (partitioned ones: see leaves) */
	if (!RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) ||
		!is_labelheap_relation(rel))
		return true;
	secids = in_progress ? label_set_get_in_progress(rel, &n) :
		label_set_get(rel, &n);
	for (i = 0; i < n && ok; i++)
	{
		/* a label that names no label in the dictionary is denied */
		ok = audit ? avc_check_tuple(rel, secids[i], perms) :
			avc_tuple_allowed(secids[i], perms);
	}
	if (secids)
		pfree(secids);
	return ok;
}

bool
labelheap_label_set_allowed(Relation rel, uint32 perms)
{
	return label_set_check(rel, perms, false, false);
}

/*
 * As labelheap_label_set_allowed, also counting the labels of tuples that
 * transactions in progress are writing, for callers that hold no lock
 * keeping writers out and report what scans counted meanwhile: an index
 * scan counts an in-progress tuple's entry before the heap says it is
 * invisible (instrumented.c, counters.c).  Never audited.
 */
bool
labelheap_label_set_allowed_now(Relation rel, uint32 perms)
{
	return label_set_check(rel, perms, false, true);
}

/* for label_sql (am/labelheap.h): a dump is complete only if this holds */
bool
labelheap_selects_every_row(Relation rel)
{
	return label_set_check(rel, AVC_DB_TUPLE_SELECT, false, false);
}

static void label_set_require_at(Relation rel, uint32 perms,
								 const char *action, int depth);

/*
 * The check of a command that destroys or changes every row of rel without
 * reading it (TRUNCATE, DROP, DROP COLUMN, REFRESH).  A trusted session
 * (avc/trusted.c) makes it with its own label when the command is the one
 * the client sent, its label narrowed to its clearance otherwise.
 */
void
labelheap_label_set_require(Relation rel, uint32 perms, const char *action)
{
	label_set_require_at(rel, perms, action, 1);
}

/*
 * The same, its own label deciding at depth (avc_maintenance_begin): 1 for
 * the command the client sent, 0 for a TRUNCATE that a logical replication
 * worker applies itself (am/replication/apply.c).
 */
static void
label_set_require_at(Relation rel, uint32 perms, const char *action,
					 int depth)
{
	bool		widened = avc_maintenance_begin(depth);
	bool		ok;

	PG_TRY();
	{
		ok = label_set_check(rel, perms, true, false);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s relation \"%s\"",
						action, RelationGetRelationName(rel)),
				 errdetail("The relation holds rows beyond the reach of the session's security label."),
				 errhint("Only a session whose security label may %s every row of the relation can do this.",
						 avc_perm_name(perms))));
}


/*
 * TRUNCATE of rel (or what amounts to one): delete on every label of its set; then the set is
 * empty, as the relation will be (should the truncation roll back, so do
 * the set's rows).  The set cached in rd_amcache is dropped, not emptied:
 * it must never claim less than the catalog after a rollback.
 */
static void
truncate_check(Relation rel, const char *action)
{
	/* a replicated TRUNCATE: as a row a worker applies (new_label.c) */
	label_set_require_at(rel, AVC_DB_TUPLE_DELETE, action,
						 labelheap_replicated_write() ? 0 : 1);
	/* logical decoding shows the truncation to who may see these labels */
	if (RelationIsLogicallyLogged(rel))
	{
		Oid		   *secids = NULL;
		int			n = 0;

		if (labelheap_set_catalog_load(RelationGetRelid(rel), SnapshotSelf,
									   &secids, &n))
			labelheap_wal_truncate_labels(rel, n, secids);
		if (secids)
			pfree(secids);
	}
	/* the counters still count those rows' scans */
	labelheap_counted_keep(RelationGetRelid(rel));
	labelheap_label_set_remove(RelationGetRelid(rel));
	if (rel->rd_amcache != NULL)
		((LabelheapRelCache *) rel->rd_amcache)->set_valid = false;
}

/*
 * The transactional TRUNCATE path (RelationSetNewRelfilenode) and the
 * creation of a relation's storage (heap_create) both come here; only
 * heap_create passes the relation's own rd_node (PostgreSQL 15,
 * catalog/heap.c and utils/cache/relcache.c), and a relation being
 * created has no rows.  Rewrites (make_new_heap) create their transient
 * relation through heap_create too.
 */
void
labelheap_relation_set_new_filenode(Relation rel,
									const LabelamRelFileId *newrnode,
									char persistence,
									TransactionId *freezeXid,
									MultiXactId *minmulti)
{
	if (newrnode != labelam_rel_file_id(rel))
		truncate_check(rel, "truncate");
	GetHeapamTableAmRoutine()->labelam_set_new_file(rel, newrnode,
														 persistence,
														 freezeXid, minmulti);
}

/*
 * TRUNCATE of a relation created (or given new storage) in the current
 * subtransaction, and ON COMMIT DELETE ROWS of temporary tables.
 */
void
labelheap_relation_nontransactional_truncate(Relation rel)
{
	truncate_check(rel, "truncate");
	GetHeapamTableAmRoutine()->relation_nontransactional_truncate(rel);
}

/*
 * DROP of a relation (also through DROP SCHEMA ... CASCADE, DROP OWNED,
 * a partitioned parent, DROP EXTENSION ... CASCADE) needs delete on every
 * label of its set, DROP COLUMN update.  Drops the server makes itself
 * (PERFORM_DELETION_INTERNAL: a rewrite's transient relation, temporary
 * tables at session end, ON COMMIT DROP) are not checked; the set of a
 * dropped relation is removed all the same.  Dependency code has locked
 * the relation before calling the hook.
 */
void
labelheap_label_set_object_access(ObjectAccessType access, Oid classId, Oid objectId,
						int subId, void *arg)
{
	Relation	rel;
	bool		internal;

	if (access != OAT_DROP || classId != RelationRelationId)
		return;
	if (!RELKIND_HAS_TABLE_AM(get_rel_relkind(objectId)))
		return;

	rel = relation_open(objectId, NoLock);
	if (!is_labelheap_relation(rel))
	{
		relation_close(rel, NoLock);
		return;
	}
	internal = arg != NULL &&
		(((ObjectAccessDrop *) arg)->dropflags & PERFORM_DELETION_INTERNAL) != 0;
	if (subId == 0)
	{
		if (!internal)
			labelheap_label_set_require(rel, AVC_DB_TUPLE_DELETE, "drop");
		relation_close(rel, NoLock);
		labelheap_label_set_remove(objectId);
		labelheap_counted_forget(objectId);
		return;
	}
	if (!internal)
		labelheap_label_set_require(rel, AVC_DB_TUPLE_UPDATE,
									"drop a column of");
	relation_close(rel, NoLock);
}

/*
 * REFRESH MATERIALIZED VIEW (not CONCURRENTLY) replaces every row of a
 * labelheap materialized view, those the session may not select included,
 * by the rows its query returns: a truncation.  The lock is taken here as
 * ExecRefreshMatView takes it (PostgreSQL 15, commands/matview.c), so that
 * the check holds; the set is emptied, and the refresh's rows, written
 * into a transient relation, note their labels for the view too.
 */
static void
refresh_check(RefreshMatViewStmt *stmt)
{
	Oid			relid;
	Relation	rel;

	relid = RangeVarGetRelidExtended(stmt->relation, AccessExclusiveLock, 0,
									 labelam_RangeVarCallbackForRefresh, NULL);
	rel = table_open(relid, NoLock);
	if (rel->rd_rel->relkind == RELKIND_MATVIEW && is_labelheap_relation(rel))
		truncate_check(rel, "refresh");
	table_close(rel, NoLock);
}

void
labelheap_label_set_utility(PlannedStmt *pstmt)
{
	Node	   *parsetree = pstmt->utilityStmt;

	if (IsA(parsetree, RefreshMatViewStmt) &&
		!((RefreshMatViewStmt *) parsetree)->concurrent)
		refresh_check((RefreshMatViewStmt *) parsetree);
}

/*
 * For labelam.verify_labels: rel's set in the catalog, committed or
 * written by transactions still in progress (sorted, unique, palloc'd);
 * false if the catalog is missing.
 */
bool
labelheap_label_set_contents(Relation rel, Oid **secids, int *n)
{
	SnapshotData dirty;

	InitDirtySnapshot(dirty);
	return labelheap_set_catalog_load(RelationGetRelid(rel), &dirty, secids, n);
}
