/*-------------------------------------------------------------------------
 *
 * src/am/verify.c
 *	  SQL functions that inspect labels as stored: labelam.tuple_secid()
 *	  and labelam.verify_labels(), labelheap's counterpart of amcheck
 *	  (contrib's tools refuse relations that are not heap).
 *
 * Both read every tuple version on the page, live or dead, without regard
 * to visibility or policy: they are for superusers.  verify_labels also
 * reports tuple versions whose label is missing from the relation's label
 * set (label_set.c), except those of aborted transactions, whose set rows
 * may rightly be gone with them.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/transam.h"
#include "access/xact.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/rel.h"

#include "am/labelheap.h"

PG_FUNCTION_INFO_V1(labelam_tuple_secid);
PG_FUNCTION_INFO_V1(labelam_verify_labels);

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
	return rel;
}

Datum
labelam_tuple_secid(PG_FUNCTION_ARGS)
{
	Relation	rel = open_labelheap(PG_GETARG_OID(0));
	ItemPointer tid = (ItemPointer) PG_GETARG_POINTER(1);
	Oid			secid = InvalidOid;

	if (ItemPointerGetBlockNumber(tid) < RelationGetNumberOfBlocks(rel))
		secid = labelheap_version_secid(rel, tid, NULL, NULL);
	relation_close(rel, AccessShareLock);

	if (!OidIsValid(secid))
		PG_RETURN_NULL();
	PG_RETURN_OID(secid);
}

/* Did the transaction that inserted tup abort (or crash)? */
static bool
inserter_aborted(HeapTupleHeader tup)
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

Datum
labelam_verify_labels(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel = open_labelheap(PG_GETARG_OID(0));
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BlockNumber blkno;
	Oid		   *set = NULL;
	int			nset = 0;
	bool		have_set;

	InitMaterializedSRF(fcinfo, 0);
	have_set = labelheap_label_set_contents(rel, &set, &nset);

	for (blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buf;
		Page		page;
		OffsetNumber offnum,
					maxoff;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		maxoff = PageGetMaxOffsetNumber(page);
		for (offnum = FirstOffsetNumber; offnum <= maxoff; offnum++)
		{
			ItemId		lp = PageGetItemId(page, offnum);
			HeapTupleHeader tup;
			const char *problem;
			Datum		values[2];
			bool		nulls[2] = {false, false};
			ItemPointerData tid;

			if (!ItemIdIsNormal(lp))
				continue;
			tup = (HeapTupleHeader) PageGetItem(page, lp);
			problem = labelheap_header_problem(tup, ItemIdGetLength(lp));
			if (problem == NULL)
			{
				Oid			secid = labelheap_header_secid(tup, ItemIdGetLength(lp));

				if ((have_set &&
					 bsearch(&secid, set, nset, sizeof(Oid), oid_cmp) != NULL) ||
					inserter_aborted(tup))
					continue;
				problem = have_set ? "label missing from the relation's label set" :
					"the table labelam.table_labels is missing";
			}
			ItemPointerSet(&tid, blkno, offnum);
			values[0] = PointerGetDatum(&tid);
			values[1] = CStringGetTextDatum(problem);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
								 values, nulls);
		}
		UnlockReleaseBuffer(buf);
	}
	FreeAccessStrategy(strategy);
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}
