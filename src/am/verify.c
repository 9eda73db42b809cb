/*-------------------------------------------------------------------------
 *
 * src/am/verify.c
 *	  SQL functions that inspect labels as stored: labelam.tuple_secid()
 *	  and labelam.verify_labels(), labelheap's counterpart of amcheck
 *	  (contrib's tools refuse relations that are not heap), and
 *	  labelam.toast_values(), which counts out-of-line values where
 *	  reading the TOAST relation is refused (raw_access.c).
 *
 * Both read every tuple version on the page, live or dead, without regard
 * to visibility or policy: they are for superusers.  verify_labels also
 * reports tuple versions whose label is missing from the relation's label
 * set (label_set.c), except those of aborted transactions, whose set rows
 * may rightly be gone with them, and tuple versions whose block's range
 * the relation's label summaries do not cover (summary.c), so that a scan
 * would skip them or, where a range's rows pass unread (page_decisions.c),
 * return them unchecked; again except those of aborted transactions.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "executor/tuptable.h"
#include "utils/snapmgr.h"
#include "access/transam.h"
#include "access/xact.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/rel.h"

#include "am/label_set/label_set.h"
#include "am/labelheap.h"
#include "am/summary/summary.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "am/verify.h"

PG_FUNCTION_INFO_V1(labelam_tuple_secid);
PG_FUNCTION_INFO_V1(labelam_verify_labels);
PG_FUNCTION_INFO_V1(labelam_toast_values);

static Relation
open_labelheap(Oid relid)
{
	Relation	rel = relation_open(relid, AccessShareLock);

	if (!RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) ||
		!is_labelheap_relation(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a labelheap relation",
						RelationGetRelationName(rel))));

	/*
	 * Another session's temporary table lives in that session's local
	 * buffers, and after a crash only its catalog entry is left: what the
	 * files hold is nothing to inspect.  (heapam refuses to scan it, with
	 * the same error.)
	 */
	if (RELATION_IS_OTHER_TEMP(rel))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot access temporary tables of other sessions")));
	return rel;
}

Datum
labelam_tuple_secid(PG_FUNCTION_ARGS)
{
	Relation	rel = open_labelheap(PG_GETARG_OID(0));
	ItemPointer tid = (ItemPointer) PG_GETARG_POINTER(1);
	Oid			secid = InvalidOid;

	/* (an invalid tid such as '(0,0)' names no tuple: 16+ asserts on it) */
	if (ItemPointerIsValid(tid) &&
		ItemPointerGetBlockNumber(tid) < RelationGetNumberOfBlocks(rel))
		secid = labelheap_version_secid(rel, tid, NULL, NULL);
	relation_close(rel, AccessShareLock);

	if (!OidIsValid(secid))
		PG_RETURN_NULL();
	PG_RETURN_OID(secid);
}

/* Did the transaction that inserted tup abort (or crash)? (verify.h) */
bool
labelheap_inserter_aborted(HeapTupleHeader tup)
{
	TransactionId xmin;

	if (HeapTupleHeaderXminCommitted(tup))
		return false;
	if (HeapTupleHeaderXminInvalid(tup))
		return true;
	xmin = HeapTupleHeaderGetRawXmin(tup);
	if (!TransactionIdIsNormal(xmin))
		return !TransactionIdIsValid(xmin);
	return !TransactionIdIsCurrentTransactionId(xmin) &&
		!TransactionIdIsInProgress(xmin) &&
		!TransactionIdDidCommit(xmin);
}

typedef struct VerifyState
{
	ReturnSetInfo *rsinfo;
	Oid		   *set;
	int			nset;
	bool		have_set;
	int			nsummaries;
	Relation	summaries[LABELSUMMARY_MAX_INDEXES];
} VerifyState;

static void
verify_one(HeapTupleHeader tup, uint32 len, ItemPointer tid, void *arg)
{
	VerifyState *vs = arg;
	const char *problem = labelheap_header_problem(tup, len);
	Datum		values[2];
	bool		nulls[2] = {false, false};
	int			i;

	/* a summary that would let a scan skip this tuple's range */
	for (i = 0; i < vs->nsummaries; i++)
	{
		if (labelheap_summary_corrupt(vs->summaries[i],
									  ItemPointerGetBlockNumber(tid),
									  labelheap_header_secid(tup, len)) &&
			!labelheap_inserter_aborted(tup))
		{
			values[0] = PointerGetDatum(tid);
			values[1] = CStringGetTextDatum(psprintf("label missing from label summary \"%s\"",
													 RelationGetRelationName(vs->summaries[i])));
			tuplestore_putvalues(vs->rsinfo->setResult, vs->rsinfo->setDesc,
								 values, nulls);
		}
	}

	if (problem == NULL)
	{
		Oid			secid = labelheap_header_secid(tup, len);

		if ((vs->have_set &&
			 bsearch(&secid, vs->set, vs->nset, sizeof(Oid), oid_cmp) != NULL) ||
			labelheap_inserter_aborted(tup))
			return;
		problem = vs->have_set ? "label missing from the relation's label set" :
			"the table labelam.table_labels is missing";
	}
	values[0] = PointerGetDatum(tid);
	values[1] = CStringGetTextDatum(problem);
	tuplestore_putvalues(vs->rsinfo->setResult, vs->rsinfo->setDesc,
						 values, nulls);
}

Datum
labelam_verify_labels(PG_FUNCTION_ARGS)
{
	Relation	rel = open_labelheap(PG_GETARG_OID(0));
	VerifyState vs;

	InitMaterializedSRF(fcinfo, 0);
	vs.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	vs.set = NULL;
	vs.nset = 0;
	vs.have_set = labelheap_label_set_contents(rel, &vs.set, &vs.nset);
	{
		Oid			indexes[LABELSUMMARY_MAX_INDEXES];
		int			i;

		vs.nsummaries = labelheap_summary_indexes(rel, indexes);
		for (i = 0; i < vs.nsummaries; i++)
			vs.summaries[i] = index_open(indexes[i], AccessShareLock);
	}
	labelheap_walk_stored(rel, verify_one, &vs);
	for (int i = 0; i < vs.nsummaries; i++)
		index_close(vs.summaries[i], AccessShareLock);
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

/*
 * labelam.toast_values(rel): how many out-of-line values of rel the
 * transaction's snapshot sees (TOAST chunks numbered 0).  A count, never a
 * value, for checking that writes leave no stray values behind; direct
 * reads of a labelheap table's TOAST relation are refused to everyone.
 */
Datum
labelam_toast_values(PG_FUNCTION_ARGS)
{
	Relation	rel = open_labelheap(PG_GETARG_OID(0));
	Oid			toastrelid = rel->rd_rel->reltoastrelid;
	int64		n = 0;

	if (OidIsValid(toastrelid))
	{
		Relation	toastrel = table_open(toastrelid, AccessShareLock);
		TableScanDesc scan = table_beginscan(toastrel, GetActiveSnapshot(),
											 0, NULL);
		TupleTableSlot *slot = table_slot_create(toastrel, NULL);
		bool		isnull;

		while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			/* attribute 2 of a TOAST relation is chunk_seq */
			if (DatumGetInt32(slot_getattr(slot, 2, &isnull)) == 0)
				n++;
		}
		ExecDropSingleTupleTableSlot(slot);
		table_endscan(scan);
		table_close(toastrel, AccessShareLock);
	}
	relation_close(rel, AccessShareLock);
	PG_RETURN_INT64(n);
}
