/*-------------------------------------------------------------------------
 *
 * src/am/label_set/label_set_repair.c
 *	  labelam.repair_table_labels(rel): a labelheap relation's label set
 *	  rebuilt from the labels its tuples carry.
 *
 * The set (label_set.c) is a superset that only grows: a label stays in it
 * after the last row carrying it is gone, short of a TRUNCATE or DROP, so a
 * table that once held an s1 row stays beyond the reach of an s0 session's
 * TRUNCATE and DROP.  The repair reads the label of every tuple version in
 * the relation's storage and:
 *	- adds to the set every label found there and missing from it (a set
 *	  damaged by hand, or written before the set existed): only ever
 *	  stricter;
 *	- removes from it every label that no tuple version carries and that
 *	  the session may select: what the session could count for itself.
 *	  A label beyond the session's reach stays, whether or not rows carry
 *	  it: the repair tells a session nothing about rows it may not read.
 * It returns the labels it added or removed that the session may select.
 *
 * What counts as carried: every tuple version with storage, live or dead,
 * except those whose inserting transaction aborted (they never became
 * visible; verify_labels ignores them too).  A row deleted but not yet
 * vacuumed still counts: VACUUM first.
 *
 * Safety against writers: the relation is locked in ShareLock until the
 * transaction ends.  Every writer holds RowExclusiveLock, which conflicts,
 * so the lock waits for writers in progress (prepared transactions
 * included) and keeps new ones out: no tuple appears between the scan and
 * the commit.  Removing pairs sends a relcache invalidation, which every
 * backend processes when it takes its lock to write again, and which
 * makes it forget what it knew of the set (label_set.c), so that its next
 * row is noted in the catalog anew.  The labels a removal takes out of the
 * set are kept for the statistics counters first (label_set_counted.c),
 * as TRUNCATE does.
 *
 * Who may run it: the relation's owner (and superusers), as for VACUUM.
 * A session's reach decides which labels it may remove; a trusted session
 * (labelam_maint_t, avc/trusted.c) reaches every label.  Its decisions are
 * the session's ordinary ones: reads.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/tableam.h"
#include "catalog/pg_class.h"
#include "funcapi.h"
#include "lib/qunique.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "am/label_set/label_set.h"
#include "am/label_set/label_set_int.h"
#include "am/labelheap.h"
#include "am/relcache.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "am/verify.h"
#include "avc/avc.h"
#include "label_store/label_store.h"
#include "pg_compat.h"

PG_FUNCTION_INFO_V1(labelam_repair_table_labels);

typedef struct CarriedLabels
{
	Oid		   *secids;
	int			count;
	int			alloc;
	bool		invalid;		/* a tuple version without a valid label */
} CarriedLabels;

static void
note_carried(HeapTupleHeader tup, uint32 len, ItemPointer tid, void *arg)
{
	CarriedLabels *cl = arg;
	Oid			secid;

	if (labelheap_inserter_aborted(tup))
		return;
	if (labelheap_header_problem(tup, len) != NULL)
	{
		cl->invalid = true;
		return;
	}
	secid = labelheap_header_secid(tup, len);
	if (cl->count > 0 && cl->secids[cl->count - 1] == secid)
		return;
	if (cl->count >= cl->alloc)
	{
		cl->alloc *= 2;
		cl->secids = repalloc(cl->secids, cl->alloc * sizeof(Oid));
	}
	cl->secids[cl->count++] = secid;
}

static bool
contains(const Oid *secids, int n, Oid secid)
{
	return n > 0 && bsearch(&secid, secids, n, sizeof(Oid), oid_cmp) != NULL;
}

static void
report(ReturnSetInfo *rsinfo, Oid secid, const char *change)
{
	Datum		values[2];
	bool		nulls[2] = {false, false};
	char	   *text = label_text(secid);

	if (text == NULL || !avc_tuple_allowed(secid, AVC_DB_TUPLE_SELECT))
		return;
	values[0] = CStringGetTextDatum(text);
	values[1] = CStringGetTextDatum(change);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

Datum
labelam_repair_table_labels(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	ReturnSetInfo *rsinfo;
	Relation	rel;
	CarriedLabels cl;
	Oid		   *set;
	int			nset;
	bool		kept = false;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	/* writers hold RowExclusiveLock: wait for them, keep new ones out */
	rel = relation_open(relid, ShareLock);
	if (!RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) ||
		!is_labelheap_relation(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a labelheap relation",
						RelationGetRelationName(rel)),
				 errdetail("Only labelheap tables and materialized views have a label set; a partitioned table's are its partitions'.")));
	if (!labelam_relation_ownercheck(relid, GetUserId()))
		aclcheck_error(ACLCHECK_NOT_OWNER,
					   get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));

	cl.count = 0;
	cl.alloc = 16;
	cl.secids = palloc(cl.alloc * sizeof(Oid));
	cl.invalid = false;
	labelheap_walk_stored(rel, note_carried, &cl);
	if (cl.invalid)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("cannot repair the label set of relation \"%s\": a tuple has no valid security label",
						RelationGetRelationName(rel)),
				 errhint("labelam.verify_labels() lists every such tuple.")));
	if (cl.count > 1)
	{
		qsort(cl.secids, cl.count, sizeof(Oid), oid_cmp);
		cl.count = qunique(cl.secids, cl.count, sizeof(Oid), oid_cmp);
	}

	if (!labelheap_set_catalog_load(relid, SnapshotSelf, &set, &nset))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the table labelam.table_labels is missing"),
				 errhint("Recreate the extension labelam.")));

	/* labels carried but missing: added, whoever runs this */
	for (i = 0; i < cl.count; i++)
	{
		if (contains(set, nset, cl.secids[i]))
			continue;
		labelheap_label_set_forget(relid);
		labelheap_label_set_note_slow(rel, cl.secids[i]);
		report(rsinfo, cl.secids[i], "added");
	}

	/* labels no tuple carries: removed if the session may select them */
	for (i = 0; i < nset; i++)
	{
		if (contains(cl.secids, cl.count, set[i]) ||
			!avc_tuple_allowed(set[i], AVC_DB_TUPLE_SELECT))
			continue;
		if (!kept)
		{
			/* the counters counted scans of those rows (as for TRUNCATE) */
			labelheap_counted_keep(relid);
			kept = true;
		}
		labelheap_label_set_remove_label(relid, set[i]);
		report(rsinfo, set[i], "removed");
	}
	if (rel->rd_amcache != NULL)
		((LabelheapRelCache *) rel->rd_amcache)->set_valid = false;

	/* the lock is kept until the transaction ends */
	relation_close(rel, NoLock);
	return (Datum) 0;
}
