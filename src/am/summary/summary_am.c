/*-------------------------------------------------------------------------
 *
 * src/am/summary/summary_am.c
 *	  The labelsummary index access method: label summaries (summary.c)
 *	  stored as indexes, so that PostgreSQL builds, rebuilds, moves, drops
 *	  and dumps them with their table.  Never scanned; its key is ignored.
 *	  Also labelam.label_summary(), which lists a summary's entries.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "access/genam.h"
#include "access/xloginsert.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/vacuum.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "utils/array.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "am/relcache.h"
#include "am/summary/summary.h"
#include "am/tuple_label.h"
#include "pg_compat.h"

PG_FUNCTION_INFO_V1(labelsummary_handler);
PG_FUNCTION_INFO_V1(labelam_label_summary);

/* ----------------------------------------------------------------
 * The index access method
 * ----------------------------------------------------------------
 */

static void
write_metapage(Relation index)
{
	Buffer		buf;
	GenericXLogState *state;
	Page		page;

	LockRelationForExtension(index, ExclusiveLock);
	buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW, RBM_NORMAL, NULL);
	UnlockRelationForExtension(index, ExclusiveLock);
	if (BufferGetBlockNumber(buf) != LABELSUMMARY_METAPAGE)
		elog(ERROR, "label summary \"%s\" is not empty",
			 RelationGetRelationName(index));
	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	state = GenericXLogStart(index);
	page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
	summary_init_page(page, LS_KIND_META);
	GenericXLogFinish(state);
	UnlockReleaseBuffer(buf);
}

/* counts the label summaries of heap (at most LABELSUMMARY_MAX_INDEXES) */
static void
check_summary_count(Relation heap, Relation index)
{
	List	   *indexes = RelationGetIndexList(heap);
	ListCell   *lc;
	int			n = 0;

	foreach(lc, indexes)
	{
		HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(lfirst_oid(lc)));

		if (HeapTupleIsValid(tup))
		{
			if (((Form_pg_class) GETSTRUCT(tup))->relam == index->rd_rel->relam)
				n++;
			ReleaseSysCache(tup);
		}
	}
	list_free(indexes);
	if (n > LABELSUMMARY_MAX_INDEXES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("relation \"%s\" may have at most %d label summaries",
						RelationGetRelationName(heap),
						LABELSUMMARY_MAX_INDEXES)));
}

/*
 * Reads every heap block (every tuple with storage, whatever its
 * visibility) and merges the labels into the summary, a summary page's
 * worth of ranges at a time.  Only labels are read: no tuple reaches any
 * expression, so this build, unlike others, is not a strict read.
 */
static IndexBuildResult *
labelsummary_build(Relation heap, Relation index, IndexInfo *indexInfo)
{
	IndexBuildResult *result = palloc0(sizeof(IndexBuildResult));
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	LabelSummaryEntry *batch = palloc0(LS_ENTRIES_PER_PAGE * sizeof(LabelSummaryEntry));
	BlockNumber nblocks;
	BlockNumber blk;
	BlockNumber batch_first = 0;	/* first range of the batch */
	bool		labelheap = is_labelheap_relation(heap);

	check_summary_count(heap, index);
	write_metapage(index);

	/* a summary of a table of another access method stays empty */
	nblocks = labelheap ? RelationGetNumberOfBlocks(heap) : 0;
	for (blk = 0; blk < nblocks; blk++)
	{
		BlockNumber range = blk / LABELSUMMARY_PAGES_PER_RANGE;
		Buffer		buf;
		Page		page;
		OffsetNumber off,
					maxoff;

		CHECK_FOR_INTERRUPTS();
		if (range - batch_first >= (BlockNumber) LS_ENTRIES_PER_PAGE)
		{
			(void) summary_merge_into_block(index, summary_range_block(batch_first), 0,
									batch, LS_ENTRIES_PER_PAGE, NULL);
			memset(batch, 0, LS_ENTRIES_PER_PAGE * sizeof(LabelSummaryEntry));
			batch_first = range;
		}

		buf = ReadBufferExtended(heap, MAIN_FORKNUM, blk, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		maxoff = PageIsNew(page) ? InvalidOffsetNumber : PageGetMaxOffsetNumber(page);
		for (off = FirstOffsetNumber; off <= maxoff; off = OffsetNumberNext(off))
		{
			ItemId		lp = PageGetItemId(page, off);

			if (!ItemIdIsNormal(lp))
				continue;
			summary_entry_add(&batch[range - batch_first],
					  labelheap_header_secid((HeapTupleHeader) PageGetItem(page, lp),
											 ItemIdGetLength(lp)));
		}
		UnlockReleaseBuffer(buf);
	}
	if (nblocks > 0)
	{
		BlockNumber last = (nblocks - 1) / LABELSUMMARY_PAGES_PER_RANGE;

		(void) summary_merge_into_block(index, summary_range_block(batch_first), 0, batch,
								last - batch_first + 1, NULL);
	}
	FreeAccessStrategy(strategy);
	pfree(batch);

	/* leave the table's reltuples alone (index_update_stats) */
	result->heap_tuples = -1;
	result->index_tuples = 0;
	return result;
}

/* the init fork of an unlogged table's summary: a metapage (bloom's way) */
static void
labelsummary_buildempty(Relation index)
{
	LabelamIOAlignedBlock buf;
	Page		page = (Page) buf.data;

	summary_init_page(page, LS_KIND_META);
	PageSetChecksumInplace(page, LABELSUMMARY_METAPAGE);
	smgrwrite(RelationGetSmgr(index), INIT_FORKNUM, LABELSUMMARY_METAPAGE,
			  (char *) page, true);
	log_newpage(labelam_smgr_locator(RelationGetSmgr(index)), INIT_FORKNUM,
				LABELSUMMARY_METAPAGE, page, true);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
}

/* writers keep the summary (write.c), HOT updates included */
static bool
labelsummary_insert(Relation index, Datum *values, bool *isnull,
					ItemPointer heap_tid, Relation heap,
					IndexUniqueCheck checkUnique, bool indexUnchanged,
					IndexInfo *indexInfo)
{
	return false;
}

static IndexBulkDeleteResult *
labelsummary_bulkdelete(IndexVacuumInfo *info, IndexBulkDeleteResult *stats,
						IndexBulkDeleteCallback callback, void *callback_state)
{
	return stats;
}

static IndexBulkDeleteResult *
labelsummary_vacuumcleanup(IndexVacuumInfo *info, IndexBulkDeleteResult *stats)
{
	return stats;
}

/* never a path: no operators, no scan callbacks */
static void
labelsummary_costestimate(struct PlannerInfo *root, struct IndexPath *path,
						  double loop_count, Cost *indexStartupCost,
						  Cost *indexTotalCost, Selectivity *indexSelectivity,
						  double *indexCorrelation, double *indexPages)
{
	*indexStartupCost = 1.0e10;
	*indexTotalCost = 1.0e10;
	*indexSelectivity = 1.0;
	*indexCorrelation = 0.0;
	*indexPages = 1.0;
}

static bytea *
labelsummary_options(Datum reloptions, bool validate)
{
	if (validate && reloptions != (Datum) 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("label summaries take no storage parameters")));
	return NULL;
}

static bool
labelsummary_validate(Oid opclassoid)
{
	return true;
}

static IndexScanDesc
labelsummary_beginscan(Relation index, int nkeys, int norderbys)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("label summary \"%s\" cannot be scanned",
					RelationGetRelationName(index))));
	return NULL;
}

static void
labelsummary_rescan(IndexScanDesc scan, ScanKey keys, int nkeys,
					ScanKey orderbys, int norderbys)
{
}

static void
labelsummary_endscan(IndexScanDesc scan)
{
}

Datum
labelsummary_handler(PG_FUNCTION_ARGS)
{
	IndexAmRoutine *amroutine = makeNode(IndexAmRoutine);

	amroutine->amstrategies = 0;
	amroutine->amsupport = 0;
	amroutine->amoptsprocnum = 0;
	amroutine->amcanorder = false;
	amroutine->amcanorderbyop = false;
	amroutine->amcanbackward = false;
	amroutine->amcanunique = false;
	amroutine->amcanmulticol = false;
	amroutine->amoptionalkey = true;
	amroutine->amsearcharray = false;
	amroutine->amsearchnulls = false;
	amroutine->amstorage = false;
	amroutine->amclusterable = false;
	amroutine->ampredlocks = false;
	amroutine->amcanparallel = false;
	amroutine->amcaninclude = false;
	amroutine->amusemaintenanceworkmem = false;
	amroutine->amparallelvacuumoptions = VACUUM_OPTION_NO_PARALLEL;
#if PG_VERSION_NUM >= 160000

	/*
	 * Like BRIN's, a summary points to no tuple: an UPDATE that changes only
	 * its column may stay HOT.  Its insert callback does nothing either way:
	 * the table AM's writers keep the summary, HOT versions included.
	 */
	amroutine->amsummarizing = true;
#endif
	amroutine->amkeytype = InvalidOid;

	amroutine->ambuild = labelsummary_build;
	amroutine->ambuildempty = labelsummary_buildempty;
	amroutine->aminsert = labelsummary_insert;
	amroutine->ambulkdelete = labelsummary_bulkdelete;
	amroutine->amvacuumcleanup = labelsummary_vacuumcleanup;
	amroutine->amcanreturn = NULL;
	amroutine->amcostestimate = labelsummary_costestimate;
	amroutine->amoptions = labelsummary_options;
	amroutine->amproperty = NULL;
	amroutine->ambuildphasename = NULL;
	amroutine->amvalidate = labelsummary_validate;
	amroutine->amadjustmembers = NULL;
	amroutine->ambeginscan = labelsummary_beginscan;
	amroutine->amrescan = labelsummary_rescan;
	amroutine->amgettuple = NULL;
	amroutine->amgetbitmap = NULL;
	amroutine->amendscan = labelsummary_endscan;
	amroutine->ammarkpos = NULL;
	amroutine->amrestrpos = NULL;
	amroutine->amestimateparallelscan = NULL;
	amroutine->aminitparallelscan = NULL;
	amroutine->amparallelrescan = NULL;

	PG_RETURN_POINTER(amroutine);
}

/*
 * labelam.label_summary(index): each range's entry, for superusers (it
 * names labels the caller may not select) and tests.  labels is NULL for
 * "any label".
 */
Datum
labelam_label_summary(PG_FUNCTION_ARGS)
{
	Relation	index = index_open(PG_GETARG_OID(0), AccessShareLock);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	BlockNumber nblocks;
	BlockNumber blkno;

	if (index->rd_rel->relam != summary_am_oid())
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a label summary",
						RelationGetRelationName(index))));
	InitMaterializedSRF(fcinfo, 0);
	nblocks = RelationGetNumberOfBlocks(index);
	for (blkno = 1; blkno < nblocks; blkno++)
	{
		Buffer		buf = ReadBuffer(index, blkno);
		Page		page;
		int			i;

		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		if (!summary_page_is(page, LS_KIND_ENTRIES))
		{
			UnlockReleaseBuffer(buf);
			continue;
		}
		for (i = 0; i < LS_ENTRIES_PER_PAGE; i++)
		{
			LabelSummaryEntry *e = &LS_ENTRIES(page)[i];
			Datum		values[3];
			bool		nulls[3] = {false, false, false};
			BlockNumber range = (blkno - 1) * LS_ENTRIES_PER_PAGE + i;

			if (e->nlabels == 0)
				continue;
			values[0] = Int64GetDatum((int64) range * LABELSUMMARY_PAGES_PER_RANGE);
			values[1] = Int64GetDatum((int64) (range + 1) * LABELSUMMARY_PAGES_PER_RANGE - 1);
			if (e->nlabels == LABELSUMMARY_ANY)
				nulls[2] = true;
			else
			{
				Datum		d[LABELSUMMARY_SLOTS];
				int			j;

				for (j = 0; j < e->nlabels && j < LABELSUMMARY_SLOTS; j++)
					d[j] = ObjectIdGetDatum(e->secids[j]);
				values[2] = PointerGetDatum(construct_array(d, j, OIDOID,
															sizeof(Oid), true,
															TYPALIGN_INT));
			}
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc,
								 values, nulls);
		}
		UnlockReleaseBuffer(buf);
	}
	index_close(index, AccessShareLock);
	return (Datum) 0;
}
