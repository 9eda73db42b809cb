/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set_counted.c
 *	  The labels a labelheap relation held before a TRUNCATE emptied its
 *	  label set, kept for its statistics counters, which counted scans of
 *	  those rows.
 *
 * TRUNCATE (and REFRESH MATERIALIZED VIEW) empties a relation's label set
 * (label_set_checks.c), so that sessions of lower labels may truncate or
 * drop it again.  PostgreSQL keeps the relation's cumulative statistics
 * across a TRUNCATE, and they still count the scans made while it held
 * those rows: a session that probed ranges of values (repeating each 1, 2,
 * 4 ... times) before a higher session truncated the table would read in
 * one counter in which of them the truncated rows fell.  So a TRUNCATE
 * copies the set's labels into labelam.table_labels_counted, in its own
 * transaction, and counters.c withholds the counters from a session that
 * may not select every label there too.  DROP removes the relation's rows.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "am/label_set/label_set.h"
#include "am/label_set/label_set_int.h"
#include "avc/avc.h"

#define COUNTED_TABLE	"table_labels_counted"
#define COUNTED_INDEX	"table_labels_counted_relid_idx"

/* the table and its index; false while the extension is not there */
static bool
counted_oids(Oid *relid, Oid *indexid)
{
	Oid			nsp = get_namespace_oid("labelam", true);

	if (!OidIsValid(nsp))
		return false;
	*relid = get_relname_relid(COUNTED_TABLE, nsp);
	*indexid = get_relname_relid(COUNTED_INDEX, nsp);
	return OidIsValid(*relid) && OidIsValid(*indexid);
}

typedef bool (*CountedRowFn) (Relation counted, HeapTuple tuple, Oid secid,
							  void *arg);

/* calls fn for each row of relid (stops when it returns false) */
static void
counted_scan(Relation counted, Oid indexid, Oid relid, CountedRowFn fn,
			 void *arg)
{
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(counted, indexid, true, NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		bool		isnull;
		Datum		secid = heap_getattr(tuple, 2, RelationGetDescr(counted),
										 &isnull);

		if (!isnull && !fn(counted, tuple, DatumGetObjectId(secid), arg))
			break;
	}
	systable_endscan(scan);
}

typedef struct SecidList
{
	Oid		   *secids;
	int			n;
} SecidList;

/* a secid of the list already kept for relid is struck from it */
static bool
strike_known(Relation counted, HeapTuple tuple, Oid secid, void *arg)
{
	SecidList  *list = arg;
	int			i;

	for (i = 0; i < list->n; i++)
		if (list->secids[i] == secid)
			list->secids[i] = InvalidOid;
	return true;
}

/* TRUNCATE: before relid's set is emptied, keep its labels */
void
labelheap_counted_keep(Oid relid)
{
	Oid			counted_relid,
				indexid;
	Relation	counted;
	SecidList	list;
	int			i;

	if (!counted_oids(&counted_relid, &indexid) ||
		!labelheap_set_catalog_load(relid, SnapshotSelf, &list.secids, &list.n) ||
		list.n == 0)
		return;
	counted = table_open(counted_relid, RowExclusiveLock);
	counted_scan(counted, indexid, relid, strike_known, &list);
	for (i = 0; i < list.n; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};
		HeapTuple	tuple;

		if (!OidIsValid(list.secids[i]))
			continue;
		values[0] = ObjectIdGetDatum(relid);
		values[1] = ObjectIdGetDatum(list.secids[i]);
		tuple = heap_form_tuple(RelationGetDescr(counted), values, nulls);
		CatalogTupleInsert(counted, tuple);
		heap_freetuple(tuple);
	}
	table_close(counted, RowExclusiveLock);
	pfree(list.secids);
}

static bool
delete_row(Relation counted, HeapTuple tuple, Oid secid, void *arg)
{
	simple_heap_delete(counted, &tuple->t_self);
	return true;
}

/* DROP: relid's rows go with it */
void
labelheap_counted_forget(Oid relid)
{
	Oid			counted_relid,
				indexid;
	Relation	counted;

	if (!counted_oids(&counted_relid, &indexid))
		return;
	counted = table_open(counted_relid, RowExclusiveLock);
	counted_scan(counted, indexid, relid, delete_row, NULL);
	table_close(counted, RowExclusiveLock);
}

static bool
check_allowed(Relation counted, HeapTuple tuple, Oid secid, void *arg)
{
	bool	   *ok = arg;

	*ok = avc_tuple_allowed(secid, AVC_DB_TUPLE_SELECT);
	return *ok;
}

/* May the session select every label relid held before a TRUNCATE? */
bool
labelheap_counted_allowed(Oid relid)
{
	Oid			counted_relid,
				indexid;
	Relation	counted;
	bool		ok = true;

	if (!counted_oids(&counted_relid, &indexid))
		return true;
	counted = table_open(counted_relid, AccessShareLock);
	counted_scan(counted, indexid, relid, check_allowed, &ok);
	table_close(counted, AccessShareLock);
	return ok;
}
