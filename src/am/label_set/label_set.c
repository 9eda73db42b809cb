/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set.c
 *	  The label set of each labelheap relation (labelam.table_labels): the
 *	  catalog, what each backend knows of it, and the writers that keep it.
 *	  The checks that use it are in label_set_checks.c.
 *
 * Invariant: for every tuple version of a labelheap relation R that is
 * committed, or written by the current transaction, labelam.table_labels
 * holds a row (R, label) visible to SnapshotSelf.  The set may hold more
 * (labels of rows deleted since, of aborted writes that raced with a
 * committed one, duplicates): a superset only makes checks stricter.
 *
 * Writers (write.c) call labelheap_label_set_note() for each new tuple
 * version.  It must cost about nothing, so each backend remembers the
 * pairs it knows to be in the catalog: a one-entry cache of the last pair
 * noted, in front of a hash table of pairs whose catalog row is committed
 * or pending.  A pending pair is one whose row this transaction inserted
 * (or found inserted by itself), tagged with the subtransaction: it
 * becomes committed at commit, and is forgotten at abort, at the abort of
 * its subtransaction, and at PREPARE (whoever commits a prepared
 * transaction publishes nothing; the next writer finds the row).
 * On a miss the pair is looked up in the catalog (SnapshotSelf: committed
 * rows and this transaction's own) and inserted if absent, in the writer's
 * transaction, so that tuple and set row commit or abort together.  Rows
 * of concurrent first writers are not seen, so both insert: duplicates are
 * harmless, and no writer ever waits for another.
 *
 * Set rows are only ever removed by TRUNCATE and DROP of their relation,
 * which hold AccessExclusiveLock until commit and change the relation's
 * pg_class row.  So every backend receives a relcache invalidation for the
 * relation before it can write to it again (taking its lock processes
 * invalidations), and a relcache invalidation of a relation makes this
 * backend forget the known pairs of that relation.  A writer that adds a
 * pair sends a relcache invalidation too, so that other backends reload
 * the set cached in the relcache entry (rd_amcache, am/relcache.h).
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
#include "am/labelheap_hooks.h"
#include "am/relcache.h"
#include "avc/avc.h"
#include "pg_compat.h"

#define SET_SCHEMA		"labelam"
#define SET_TABLE		"table_labels"
#define SET_INDEX		"table_labels_relid_secid_idx"

#define Anum_set_relid	1
#define Anum_set_secid	2

/* more known pairs than this and they are forgotten (a miss is cheap) */
#define KNOWN_PAIRS_MAX	65536

typedef struct SetKey
{
	Oid			relid;
	Oid			secid;
} SetKey;

typedef struct KnownPair
{
	SetKey		key;
	SubTransactionId subid;		/* pending: the subtransaction that owns
								 * the row; InvalidSubTransactionId:
								 * committed */
} KnownPair;

/* known_pairs, and the set of relations that have entries there */
static MemoryContext known_cxt = NULL;
static HTAB *known_pairs = NULL;
static HTAB *known_rels = NULL;

/* keys of the pending pairs, in TopTransactionContext */
static List *pending_keys = NIL;
static SubTransactionId pending_max_subid = InvalidSubTransactionId;

/* the last pair noted, known or pending */
/* the last pair noted (label_set.h checks it inline); relid 0: none */
LabelheapLastPair labelheap_label_set_last = {InvalidOid, InvalidOid};

/* the catalog's Oids, looked up by name (the extension may come and go) */
static Oid	set_relid = InvalidOid;
static Oid	set_indexid = InvalidOid;
static bool set_oids_valid = false;

/* bumped at every relcache invalidation, to see one arrive during a load */
uint64		labelheap_set_inval_count = 0;


/* ---------------------------------------------------------------------
 * The catalog
 * ---------------------------------------------------------------------
 */

static bool
set_catalog_oids(void)
{
	Oid			nsp;

	if (set_oids_valid)
		return true;
	nsp = get_namespace_oid(SET_SCHEMA, true);
	if (!OidIsValid(nsp))
		return false;
	set_relid = get_relname_relid(SET_TABLE, nsp);
	set_indexid = get_relname_relid(SET_INDEX, nsp);
	if (!OidIsValid(set_relid) || !OidIsValid(set_indexid))
		return false;			/* e.g. while CREATE EXTENSION runs */
	set_oids_valid = true;
	return true;
}

static void
set_catalog_require(void)
{
	if (!set_catalog_oids())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelheap relations cannot be written without the table labelam.table_labels"),
				 errhint("Recreate the extension labelam.")));
}

typedef enum SetScanAction
{
	SET_SCAN_FIND,				/* does the pair exist? */
	SET_SCAN_COLLECT,			/* the relation's secids */
	SET_SCAN_DELETE				/* delete the relation's rows */
} SetScanAction;

typedef struct SetScanResult
{
	bool		found;
	bool		mine;			/* FIND: only rows of this xact were found */
	int			n;
	int			alloc;
	Oid		   *secids;
} SetScanResult;

/*
 * Scans labelam.table_labels (opened by the caller) for the rows of relid
 * (and secid, unless InvalidOid) visible to snapshot.
 */
static void
set_scan(Relation setrel, Snapshot snapshot, Oid relid, Oid secid,
		 SetScanAction action, SetScanResult *res)
{
	Relation	index;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData keys[2];
	int			nkeys = 1;

	memset(res, 0, sizeof(*res));
	index = index_open(set_indexid, AccessShareLock);
	ScanKeyInit(&keys[0], 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	if (OidIsValid(secid))
	{
		ScanKeyInit(&keys[1], 2, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(secid));
		nkeys = 2;
	}

	slot = table_slot_create(setrel, NULL);
	scan = labelam_index_beginscan(setrel, index, snapshot, nkeys, 0);
	index_rescan(scan, keys, nkeys, NULL, 0);

	while (index_getnext_slot(scan, ForwardScanDirection, slot))
	{
		HeapTuple	tuple = ExecFetchSlotHeapTuple(slot, false, NULL);
		bool		isnull;
		Datum		d;

		res->found = true;
		if (action == SET_SCAN_FIND)
		{
			/* a committed row is the better answer: it survives aborts */
			res->mine = TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data));
			if (!res->mine)
				break;
			continue;
		}
		if (action == SET_SCAN_DELETE)
		{
			/*
			 * A row this very command inserted cannot be deleted by it (ON
			 * COMMIT DELETE ROWS truncates at commit with no command
			 * boundary after the INSERT): it stays, as a superset is never
			 * wrong.
			 */
			if (!(TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)) &&
				  HeapTupleHeaderGetCmin(tuple->t_data) >= GetCurrentCommandId(false)))
				simple_heap_delete(setrel, &slot->tts_tid);
			continue;
		}
		d = slot_getattr(slot, Anum_set_secid, &isnull);
		if (isnull)
			continue;
		if (res->n >= res->alloc)
		{
			res->alloc = Max(16, res->alloc * 2);
			res->secids = res->secids ?
				repalloc(res->secids, res->alloc * sizeof(Oid)) :
				palloc(res->alloc * sizeof(Oid));
		}
		res->secids[res->n++] = DatumGetObjectId(d);
	}

	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	index_close(index, AccessShareLock);
}

/*
 * The secids of rel's set in the catalog, sorted and without duplicates
 * (palloc'd; NULL if empty), visible to snapshot.  false if the catalog is
 * missing.
 */
bool
labelheap_set_catalog_load(Oid relid, Snapshot snapshot, Oid **secids, int *n)
{
	Relation	setrel;
	SetScanResult res;

	if (!set_catalog_oids())
		return false;
	setrel = table_open(set_relid, AccessShareLock);
	set_scan(setrel, snapshot, relid, InvalidOid, SET_SCAN_COLLECT, &res);
	table_close(setrel, AccessShareLock);

	if (res.n > 1)
	{
		qsort(res.secids, res.n, sizeof(Oid), oid_cmp);
		res.n = qunique(res.secids, res.n, sizeof(Oid), oid_cmp);
	}
	*secids = res.secids;
	*n = res.n;
	return true;
}

/* ---------------------------------------------------------------------
 * What this backend knows to be in the catalog
 * ---------------------------------------------------------------------
 */

static void
known_reset(void)
{
	if (known_cxt == NULL)
		known_cxt = AllocSetContextCreate(TopMemoryContext,
										  "labelam label sets",
										  ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(known_cxt);
	known_pairs = NULL;
	known_rels = NULL;
	labelheap_label_set_last.relid = InvalidOid;
}

/* Creates the tables if there are none, or starts over if they are full. */
static void
known_ensure(void)
{
	HASHCTL		info;

	if (known_pairs != NULL &&
		hash_get_num_entries(known_pairs) < KNOWN_PAIRS_MAX)
		return;
	known_reset();
	info.hcxt = known_cxt;
	info.keysize = sizeof(SetKey);
	info.entrysize = sizeof(KnownPair);
	known_pairs = hash_create("labelam known label set pairs", 256, &info,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	info.keysize = sizeof(Oid);
	info.entrysize = sizeof(Oid);
	known_rels = hash_create("labelam known label set relations", 64,
							 &info, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * Remembers a pair: committed (subid invalid), or pending, owned by the
 * subtransaction subid.  Pending pairs are also listed in pending_keys, so
 * that the transaction callbacks, which must not fail, find them without
 * allocating.
 */
static void
pair_add(SetKey key, SubTransactionId subid)
{
	KnownPair  *kp;

	known_ensure();
	if (subid != InvalidSubTransactionId)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(TopTransactionContext);

		pending_keys = lappend(pending_keys, memcpy(palloc(sizeof(SetKey)),
													&key, sizeof(SetKey)));
		MemoryContextSwitchTo(oldcxt);
		pending_max_subid = Max(pending_max_subid, subid);
	}
	(void) hash_search(known_rels, &key.relid, HASH_ENTER, NULL);
	kp = hash_search(known_pairs, &key, HASH_ENTER, NULL);
	kp->subid = subid;
}

/*
 * Forgets every pair of relid, pending ones too (a pending pair forgotten
 * is only looked up again, and found as this transaction's row).
 */
static void
forget_relation(Oid relid)
{
	HASH_SEQ_STATUS status;
	KnownPair  *kp;

	labelheap_label_set_last.relid = InvalidOid;
	if (known_rels == NULL ||
		hash_search(known_rels, &relid, HASH_REMOVE, NULL) == NULL)
		return;
	hash_seq_init(&status, known_pairs);
	while ((kp = hash_seq_search(&status)) != NULL)
		if (kp->key.relid == relid)
			hash_search(known_pairs, &kp->key, HASH_REMOVE, NULL);
}

static inline bool
pair_is_known(SetKey key)
{
	return known_pairs != NULL &&
		hash_search(known_pairs, &key, HASH_FIND, NULL) != NULL;
}

void
labelheap_label_set_relcache(Oid relid)
{
	labelheap_set_inval_count++;
	labelheap_label_set_last.relid = InvalidOid;
	if (!OidIsValid(relid))
	{
		set_oids_valid = false;
		if (known_pairs != NULL)
			known_reset();
		return;
	}
	if (relid == set_relid || relid == set_indexid)
		set_oids_valid = false;
	forget_relation(relid);
}

/*
 * Pending pairs of subtransaction subid (all of them if subid is invalid)
 * become those of newsubid (committed if invalid), or are forgotten if
 * forget.  Never fails: only looks up and removes.
 */
static void
pending_resolve(SubTransactionId subid, SubTransactionId newsubid,
				bool forget)
{
	ListCell   *lc;

	if (known_pairs == NULL)
		return;
	foreach(lc, pending_keys)
	{
		KnownPair  *kp = hash_search(known_pairs, lfirst(lc), HASH_FIND, NULL);

		if (kp == NULL || kp->subid == InvalidSubTransactionId ||
			(subid != InvalidSubTransactionId && kp->subid != subid))
			continue;
		if (forget)
			hash_search(known_pairs, lfirst(lc), HASH_REMOVE, NULL);
		else
			kp->subid = newsubid;
	}
}

void
labelheap_label_set_xact(XactEvent event)
{
	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
			/* the rows are committed and visible to all */
			pending_resolve(InvalidSubTransactionId, InvalidSubTransactionId,
							false);
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			/* gone, or committed later by whoever finishes the prepared one */
			pending_resolve(InvalidSubTransactionId, InvalidSubTransactionId,
							true);
			break;
		default:
			return;
	}
	/* the list goes with TopTransactionContext */
	pending_keys = NIL;
	pending_max_subid = InvalidSubTransactionId;
	labelheap_label_set_last.relid = InvalidOid;
}

void
labelheap_label_set_subxact(SubXactEvent event, SubTransactionId mySubid,
							SubTransactionId parentSubid)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		labelheap_label_set_last.relid = InvalidOid;
	if (mySubid > pending_max_subid)
		return;
	if (event == SUBXACT_EVENT_COMMIT_SUB)
		pending_resolve(mySubid, parentSubid, false);
	else if (event == SUBXACT_EVENT_ABORT_SUB)
		pending_resolve(mySubid, InvalidSubTransactionId, true);	/* rows gone */
}

/* ---------------------------------------------------------------------
 * Writers
 * ---------------------------------------------------------------------
 */

/*
 * The relation whose rows a rewrite's transient relation will hold: the
 * transient is named pg_temp_<OID of that relation> (make_new_heap), was
 * created in this transaction, and that relation is locked
 * AccessExclusive by us.  Its rows' labels must be in that relation's set,
 * since the transient's storage becomes that relation's.  Checking the
 * lock keeps a table that merely has such a name from adding labels to
 * the set of a relation its owner could not lock.
 */
static Oid
rewrite_target(Relation rel)
{
	const char *name = RelationGetRelationName(rel);
	char	   *end;
	Oid			target;
	LOCKTAG		tag;

	if (rel->rd_createSubid == InvalidSubTransactionId ||
		strncmp(name, "pg_temp_", 8) != 0)
		return InvalidOid;
	target = (Oid) strtoul(name + 8, &end, 10);
	if (*end != '\0' || !OidIsValid(target) || target == RelationGetRelid(rel))
		return InvalidOid;
	SET_LOCKTAG_RELATION(tag, MyDatabaseId, target);
	if (!labelam_LockHeldByMe(&tag, AccessExclusiveLock))
		return InvalidOid;
	return target;
}

/* Makes sure the catalog has (relid, secid) for this transaction. */
static void
ensure_pair(Oid relid, Oid secid, Relation rel)
{
	SetKey		key;
	Relation	setrel;
	SetScanResult res;

	key.relid = relid;
	key.secid = secid;
	if (pair_is_known(key))
		return;

	set_catalog_require();
	/* should anyone make the set's own table labelheap: no recursion */
	if (relid == set_relid)
		return;
	setrel = table_open(set_relid, RowExclusiveLock);
	set_scan(setrel, SnapshotSelf, relid, secid, SET_SCAN_FIND, &res);
	if (!res.found)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};
		HeapTuple	tuple;

		values[Anum_set_relid - 1] = ObjectIdGetDatum(relid);
		values[Anum_set_secid - 1] = ObjectIdGetDatum(secid);
		tuple = heap_form_tuple(RelationGetDescr(setrel), values, nulls);
		CatalogTupleInsert(setrel, tuple);
		heap_freetuple(tuple);
	}
	table_close(setrel, RowExclusiveLock);

	/*
	 * A row of this transaction is pending.  One found rather than inserted
	 * may belong to an ancestor subtransaction; tagging it with the current
	 * one can only forget it too early.
	 */
	pair_add(key, (!res.found || res.mine) ?
			 GetCurrentSubTransactionId() : InvalidSubTransactionId);

	if (!res.found)
	{
		/* other backends reload the set cached in their relcache entry */
		CacheInvalidateRelcacheByRelid(relid);
		if (rel != NULL && rel->rd_amcache != NULL)
			((LabelheapRelCache *) rel->rd_amcache)->set_valid = false;
	}
}

/* the part of labelheap_label_set_note() (label_set.h) that is not inline */
void
labelheap_label_set_note_slow(Relation rel, Oid secid)
{
	Oid			relid = RelationGetRelid(rel);
	Oid			target;

	ensure_pair(relid, secid, rel);
	target = rewrite_target(rel);
	if (OidIsValid(target))
		ensure_pair(target, secid, NULL);
	labelheap_label_set_last.relid = relid;
	labelheap_label_set_last.secid = secid;
}


/* Removes rel's set (transactionally), in the catalog and here. */
void
labelheap_label_set_remove(Oid relid)
{
	Relation	setrel;
	SetScanResult res;

	forget_relation(relid);
	if (!set_catalog_oids())
		return;
	setrel = table_open(set_relid, RowExclusiveLock);
	set_scan(setrel, SnapshotSelf, relid, InvalidOid, SET_SCAN_DELETE, &res);
	table_close(setrel, RowExclusiveLock);
	/* TRUNCATE and DROP invalidate it anyway; this says why it matters */
	CacheInvalidateRelcacheByRelid(relid);
}

/*
 * Removes the pair (relid, secid) from rel's set (transactionally), for
 * label_set_repair.c, which holds a lock that keeps writers out until
 * commit.  Every backend forgets what it knew of relid's set before it
 * writes again: the invalidation reaches it when it takes its lock.
 */
void
labelheap_label_set_remove_label(Oid relid, Oid secid)
{
	Relation	setrel;
	SetScanResult res;

	forget_relation(relid);
	set_catalog_require();
	setrel = table_open(set_relid, RowExclusiveLock);
	set_scan(setrel, SnapshotSelf, relid, secid, SET_SCAN_DELETE, &res);
	table_close(setrel, RowExclusiveLock);
	CacheInvalidateRelcacheByRelid(relid);
}

/* Forgets what this backend knows of relid's set (label_set_repair.c). */
void
labelheap_label_set_forget(Oid relid)
{
	forget_relation(relid);
}
