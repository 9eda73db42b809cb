/*-------------------------------------------------------------------------
 *
 * src/am/summary.c
 *	  Label summaries of labelheap tables: for each range of
 *	  LABELSUMMARY_PAGES_PER_RANGE heap blocks, the labels its tuples carry,
 *	  stored in an index of access method labelsummary (CREATE INDEX ...
 *	  USING labelsummary (any column)) and kept by labelheap's writers.
 *
 * The index is storage only: it is never scanned and its key is ignored.
 * Being an index gives the summary PostgreSQL's lifecycle for free: it is
 * built from the table by CREATE INDEX (also CONCURRENTLY), rebuilt after
 * every rewrite (CLUSTER, VACUUM FULL, ALTER TABLE rewrites, SET ACCESS
 * METHOD) and TRUNCATE, follows the table's persistence and tablespace,
 * is dropped with it and dumped by pg_dump.
 *
 * Layout: block 0 is a metapage; block 1 + r / ENTRIES_PER_PAGE holds
 * range r's entry (LabelSummaryEntry, 16 bytes: up to three secids, or
 * "any label").  Every change is WAL-logged with generic WAL
 * (access/generic_xlog.h), so crash recovery and standbys replay it with
 * nothing from labelam loaded in the startup process.
 *
 * The one invariant: every tuple physically present in a heap block
 * (live, dead, in progress, aborted) has its label in its range's entry,
 * or the entry says "any", by the time any snapshot other than the
 * writer's own can see the tuple.  Writers add the label after heap's
 * writer placed the tuple (labelheap_summary_note, from write.c) and
 * before their transaction can commit; the window in between is visible
 * to no one (the tuple's inserter is in progress, and its own backend is
 * busy writing).  Entries only grow: nothing removes a label except a
 * rebuild (REINDEX, or the rebuild that follows a rewrite), which reads
 * every tuple present.  A range past the end of the summary is read, never
 * skipped.
 *
 * The build (CREATE INDEX, REINDEX, [CONCURRENTLY]) writes the metapage
 * first, then merges what it reads from the heap into the entries, which
 * concurrent writers (CONCURRENTLY) may be adding to at the same time:
 * a writer that finds no metapage yet placed its tuple before the build
 * began reading, so the build sees the tuple.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/generic_xlog.h"
#include "access/genam.h"
#include "access/relation.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "commands/defrem.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "nodes/pathnodes.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/lmgr.h"
#include "storage/smgr.h"
#include "access/xloginsert.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/builtins.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "am/labelheap_int.h"
#include "am/summary.h"

PG_FUNCTION_INFO_V1(labelsummary_handler);

#define LABELSUMMARY_MAGIC		0x4C53554D	/* "LSUM" */
#define LABELSUMMARY_VERSION	1
#define LABELSUMMARY_METAPAGE	0

/* special space of every summary page */
typedef struct LabelSummaryOpaque
{
	uint32		magic;
	uint16		kind;			/* LS_KIND_* */
	uint16		unused;
} LabelSummaryOpaque;

#define LS_KIND_META	1
#define LS_KIND_ENTRIES	2

typedef struct LabelSummaryMeta
{
	uint32		version;
	uint32		pages_per_range;
	uint32		slots;
} LabelSummaryMeta;

#define LS_CONTENTS_SIZE \
	(BLCKSZ - MAXALIGN(SizeOfPageHeaderData) - MAXALIGN(sizeof(LabelSummaryOpaque)))
#define LS_ENTRIES_PER_PAGE \
	((int) (LS_CONTENTS_SIZE / sizeof(LabelSummaryEntry)))

#define LS_OPAQUE(page)	((LabelSummaryOpaque *) PageGetSpecialPointer(page))
#define LS_ENTRIES(page) ((LabelSummaryEntry *) PageGetContents(page))

static inline BlockNumber
range_block(BlockNumber range)
{
	return 1 + range / LS_ENTRIES_PER_PAGE;
}

static inline int
range_slot(BlockNumber range)
{
	return range % LS_ENTRIES_PER_PAGE;
}

static void
init_page(Page page, uint16 kind)
{
	LabelSummaryOpaque *opaque;

	PageInit(page, BLCKSZ, sizeof(LabelSummaryOpaque));
	opaque = LS_OPAQUE(page);
	opaque->magic = LABELSUMMARY_MAGIC;
	opaque->kind = kind;
	if (kind == LS_KIND_META)
	{
		LabelSummaryMeta *meta = (LabelSummaryMeta *) PageGetContents(page);

		meta->version = LABELSUMMARY_VERSION;
		meta->pages_per_range = LABELSUMMARY_PAGES_PER_RANGE;
		meta->slots = LABELSUMMARY_SLOTS;
		((PageHeader) page)->pd_lower =
			((char *) meta + sizeof(LabelSummaryMeta)) - (char *) page;
	}
	else
	{
		/* all entries zero: ranges with no tuples */
		((PageHeader) page)->pd_lower =
			((char *) (LS_ENTRIES(page) + LS_ENTRIES_PER_PAGE)) - (char *) page;
	}
}

static bool
page_is(Page page, uint16 kind)
{
	return !PageIsNew(page) &&
		PageGetSpecialSize(page) == MAXALIGN(sizeof(LabelSummaryOpaque)) &&
		LS_OPAQUE(page)->magic == LABELSUMMARY_MAGIC &&
		LS_OPAQUE(page)->kind == kind &&
		(kind != LS_KIND_META ||
		 (((LabelSummaryMeta *) PageGetContents(page))->version == LABELSUMMARY_VERSION &&
		  ((LabelSummaryMeta *) PageGetContents(page))->pages_per_range == LABELSUMMARY_PAGES_PER_RANGE &&
		  ((LabelSummaryMeta *) PageGetContents(page))->slots == LABELSUMMARY_SLOTS));
}

static void
report_corrupt(Relation index, BlockNumber blkno)
{
	ereport(ERROR,
			(errcode(ERRCODE_INDEX_CORRUPTED),
			 errmsg("label summary \"%s\" has a damaged page %u",
					RelationGetRelationName(index), blkno),
			 errhint("REINDEX INDEX %s builds it again.",
					 quote_identifier(RelationGetRelationName(index)))));
}

bool
labelheap_summary_covers(const LabelSummaryEntry *entry, Oid secid)
{
	int			i;

	if (entry->nlabels == LABELSUMMARY_ANY)
		return true;
	for (i = 0; i < entry->nlabels && i < LABELSUMMARY_SLOTS; i++)
	{
		if (entry->secids[i] == secid)
			return true;
	}
	return false;
}

/* adds secid to entry; false if it was there already */
static bool
entry_add(LabelSummaryEntry *entry, Oid secid)
{
	if (labelheap_summary_covers(entry, secid))
		return false;
	/* a tuple without a valid label is read by every scan: "any" */
	if (!OidIsValid(secid) || entry->nlabels >= LABELSUMMARY_SLOTS)
	{
		entry->nlabels = LABELSUMMARY_ANY;
		memset(entry->secids, 0, sizeof(entry->secids));
	}
	else
		entry->secids[entry->nlabels++] = secid;
	return true;
}

/* merges src into dst; false if dst already covered it */
static bool
entry_merge(LabelSummaryEntry *dst, const LabelSummaryEntry *src)
{
	bool		changed = false;
	int			i;

	if (src->nlabels == LABELSUMMARY_ANY)
		return entry_add(dst, InvalidOid);
	for (i = 0; i < src->nlabels && i < LABELSUMMARY_SLOTS; i++)
		changed |= entry_add(dst, src->secids[i]);
	return changed;
}

/*
 * Blocks the index is known to have: a lower bound, cached in the index's
 * rd_amcache (a summary never shrinks while it keeps its relfilenode; a new
 * relfilenode rebuilds the relcache entry, which frees rd_amcache).
 */
static BlockNumber
known_blocks(Relation index, BlockNumber want)
{
	BlockNumber *cached = (BlockNumber *) index->rd_amcache;

	if (cached != NULL && *cached > want)
		return *cached;
	if (cached == NULL)
	{
		cached = MemoryContextAllocZero(index->rd_indexcxt, sizeof(BlockNumber));
		index->rd_amcache = cached;
	}
	*cached = RelationGetNumberOfBlocks(index);
	return *cached;
}

/*
 * Extends the summary to have block blkno; false if it has no metapage (a
 * CONCURRENTLY build that has not begun).
 */
static bool
extend_to(Relation index, BlockNumber blkno)
{
	BlockNumber nblocks = known_blocks(index, blkno);

	if (nblocks == 0)
		return false;
	if (nblocks > blkno)
		return true;

	LockRelationForExtension(index, ExclusiveLock);
	nblocks = RelationGetNumberOfBlocks(index);
	while (nblocks <= blkno)
	{
		Buffer		buf = ReadBufferExtended(index, MAIN_FORKNUM, P_NEW,
											 RBM_NORMAL, NULL);
		GenericXLogState *state;
		Page		page;

		LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
		state = GenericXLogStart(index);
		page = GenericXLogRegisterBuffer(state, buf, GENERIC_XLOG_FULL_IMAGE);
		init_page(page, LS_KIND_ENTRIES);
		GenericXLogFinish(state);
		UnlockReleaseBuffer(buf);
		nblocks++;
	}
	UnlockRelationForExtension(index, ExclusiveLock);
	(void) known_blocks(index, blkno);
	return true;
}

/*
 * Merges "add" into the entries of summary block blkno, starting at slot
 * first; one WAL record, only if something changed.  *result, if given,
 * gets the first entry as it is afterwards.
 */
static bool
merge_into_block(Relation index, BlockNumber blkno, int first,
				 const LabelSummaryEntry *add, int n,
				 LabelSummaryEntry *result)
{
	Buffer		buf;
	Page		page;
	LabelSummaryEntry *entries;
	bool		needed = false;
	int			i;

	if (!extend_to(index, blkno))
		return false;

	/* most calls find the labels there already: look with a share lock */
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!page_is(page, LS_KIND_ENTRIES))
		report_corrupt(index, blkno);
	entries = LS_ENTRIES(page);
	for (i = 0; i < n && !needed; i++)
	{
		LabelSummaryEntry probe = entries[first + i];

		needed = entry_merge(&probe, &add[i]);
	}
	if (!needed)
	{
		if (result)
			*result = entries[first];
		UnlockReleaseBuffer(buf);
		return true;
	}
	LockBuffer(buf, BUFFER_LOCK_UNLOCK);

	LockBuffer(buf, BUFFER_LOCK_EXCLUSIVE);
	{
		GenericXLogState *state = GenericXLogStart(index);

		page = GenericXLogRegisterBuffer(state, buf, 0);
		if (!page_is(page, LS_KIND_ENTRIES))
		{
			GenericXLogAbort(state);
			report_corrupt(index, blkno);
		}
		entries = LS_ENTRIES(page);
		needed = false;
		for (i = 0; i < n; i++)
			needed |= entry_merge(&entries[first + i], &add[i]);
		if (result)
			*result = entries[first];
		if (needed)
			GenericXLogFinish(state);
		else
			GenericXLogAbort(state);
	}
	UnlockReleaseBuffer(buf);
	return true;
}

/* ----------------------------------------------------------------
 * Which summaries a table has (cached in its relcache entry)
 * ----------------------------------------------------------------
 */

static Oid labelsummary_am_oid = InvalidOid;

static Oid
summary_am(void)
{
	if (!OidIsValid(labelsummary_am_oid))
		labelsummary_am_oid = get_index_am_oid("labelsummary", true);
	return labelsummary_am_oid;
}

static LabelSummaryRelCache *
summary_cache(Relation rel)
{
	LabelheapRelCache *cache = labelheap_relcache(rel);
	LabelSummaryRelCache sc;
	List	   *indexes;
	ListCell   *lc;
	Oid			amoid;

	if (cache->summary.valid)
		return &cache->summary;

	memset(&sc, 0, sizeof(sc));
	sc.last_range = InvalidBlockNumber;
	amoid = summary_am();
	indexes = OidIsValid(amoid) ? RelationGetIndexList(rel) : NIL;
	foreach(lc, indexes)
	{
		Oid			indexoid = lfirst_oid(lc);
		HeapTuple	tup = SearchSysCache1(RELOID, ObjectIdGetDatum(indexoid));
		bool		mine;

		if (!HeapTupleIsValid(tup))
			continue;
		mine = ((Form_pg_class) GETSTRUCT(tup))->relam == amoid;
		ReleaseSysCache(tup);
		if (!mine)
			continue;
		if (sc.nindexes == LABELSUMMARY_MAX_INDEXES)
			elog(ERROR, "relation \"%s\" has more than %d label summaries",
				 RelationGetRelationName(rel), LABELSUMMARY_MAX_INDEXES);
		sc.indexes[sc.nindexes++] = indexoid;
		if (!OidIsValid(sc.scan_index))
		{
			tup = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(indexoid));
			if (HeapTupleIsValid(tup))
			{
				Form_pg_index ind = (Form_pg_index) GETSTRUCT(tup);

				if (ind->indisvalid && ind->indisready && ind->indislive)
					sc.scan_index = indexoid;
				ReleaseSysCache(tup);
			}
		}
	}
	list_free(indexes);
	sc.valid = true;

	/* the lookups may have rebuilt the relcache entry */
	cache = labelheap_relcache(rel);
	cache->summary = sc;
	return &cache->summary;
}

/* rel's label summaries, ready or not (at most LABELSUMMARY_MAX_INDEXES) */
int
labelheap_summary_indexes(Relation rel, Oid *indexes)
{
	LabelSummaryRelCache *sc = summary_cache(rel);

	memcpy(indexes, sc->indexes, sc->nindexes * sizeof(Oid));
	return sc->nindexes;
}

Oid
labelheap_summary_scan_index(Relation rel)
{
	return summary_cache(rel)->scan_index;
}

/*
 * A tuple labeled secid has just been placed in block blk of rel: every
 * label summary of rel must cover it.  Called by write.c after heap's
 * writer returns, in the writer's transaction.
 */
void
labelheap_summary_note(Relation rel, BlockNumber blk, Oid secid)
{
	LabelSummaryRelCache *sc = summary_cache(rel);
	BlockNumber range = blk / LABELSUMMARY_PAGES_PER_RANGE;
	Oid			indexes[LABELSUMMARY_MAX_INDEXES];
	int			nindexes = sc->nindexes;
	int			i;

	if (nindexes == 0)
		return;
	/* the common case: the writer's last range, its label known there */
	if (nindexes == 1 && sc->last_index == sc->indexes[0] &&
		sc->last_range == range &&
		labelheap_summary_covers(&sc->last_entry, secid))
		return;

	memcpy(indexes, sc->indexes, sizeof(indexes));
	for (i = 0; i < nindexes; i++)
	{
		Relation	index = index_open(indexes[i], RowExclusiveLock);
		LabelSummaryEntry add;
		LabelSummaryEntry now;
		bool		done;

		memset(&add, 0, sizeof(add));
		entry_add(&add, secid);
		done = merge_into_block(index, range_block(range), range_slot(range),
								&add, 1, &now);
		index_close(index, NoLock);

		/* remember what the entry holds (rd_amcache may have been rebuilt) */
		sc = summary_cache(rel);
		if (done && i == 0)
		{
			sc->last_index = indexes[0];
			sc->last_range = range;
			sc->last_entry = now;
		}
	}
}

/*
 * Range entry of heap block heapblk in the summary index; false if the
 * summary has none (the range must be read).
 */
bool
labelheap_summary_entry(Relation index, BlockNumber heapblk,
						LabelSummaryEntry *entry)
{
	BlockNumber range = heapblk / LABELSUMMARY_PAGES_PER_RANGE;
	BlockNumber blkno = range_block(range);
	Buffer		buf;
	Page		page;

	if (known_blocks(index, blkno) <= blkno)
		return false;
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!page_is(page, LS_KIND_ENTRIES))
	{
		UnlockReleaseBuffer(buf);
		return false;			/* verify_labels reports it */
	}
	*entry = LS_ENTRIES(page)[range_slot(range)];
	UnlockReleaseBuffer(buf);
	return true;
}

/*
 * For verify_labels: would the summary hide a tuple labeled secid in heap
 * block heapblk?  (A damaged page is read, never skipped, but a range past
 * the end of the summary is fine only if scans read it, which they do.)
 */
bool
labelheap_summary_corrupt(Relation index, BlockNumber heapblk, Oid secid)
{
	LabelSummaryEntry entry;
	Buffer		buf;
	bool		meta_ok;

	if (RelationGetNumberOfBlocks(index) == 0)
		return false;
	buf = ReadBuffer(index, LABELSUMMARY_METAPAGE);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	meta_ok = page_is(BufferGetPage(buf), LS_KIND_META);
	UnlockReleaseBuffer(buf);
	if (!meta_ok)
		return true;
	if (!labelheap_summary_entry(index, heapblk, &entry))
		return false;
	return !labelheap_summary_covers(&entry, secid);
}

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
	init_page(page, LS_KIND_META);
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
			(void) merge_into_block(index, range_block(batch_first), 0,
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
			entry_add(&batch[range - batch_first],
					  labelheap_header_secid((HeapTupleHeader) PageGetItem(page, lp),
											 ItemIdGetLength(lp)));
		}
		UnlockReleaseBuffer(buf);
	}
	if (nblocks > 0)
	{
		BlockNumber last = (nblocks - 1) / LABELSUMMARY_PAGES_PER_RANGE;

		(void) merge_into_block(index, range_block(batch_first), 0, batch,
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
	Page		page = (Page) palloc(BLCKSZ);

	init_page(page, LS_KIND_META);
	PageSetChecksumInplace(page, LABELSUMMARY_METAPAGE);
	smgrwrite(RelationGetSmgr(index), INIT_FORKNUM, LABELSUMMARY_METAPAGE,
			  (char *) page, true);
	log_newpage(&(RelationGetSmgr(index))->smgr_rnode.node, INIT_FORKNUM,
				LABELSUMMARY_METAPAGE, page, true);
	smgrimmedsync(RelationGetSmgr(index), INIT_FORKNUM);
	pfree(page);
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
PG_FUNCTION_INFO_V1(labelam_label_summary);

Datum
labelam_label_summary(PG_FUNCTION_ARGS)
{
	Relation	index = index_open(PG_GETARG_OID(0), AccessShareLock);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	BlockNumber nblocks;
	BlockNumber blkno;

	if (index->rd_rel->relam != summary_am())
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
		if (!page_is(page, LS_KIND_ENTRIES))
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
