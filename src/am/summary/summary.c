/*-------------------------------------------------------------------------
 *
 * src/am/summary/summary.c
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
 * (live, dead, in progress; aborted ones too, unless their transaction
 * failed between placing and noting them, and no snapshot ever sees those)
 * has its label in its range's entry, or the entry says "any", by the time
 * any snapshot other than the writer's own can see the tuple.  Writers add the label after heap's
 * writer placed the tuple (labelheap_summary_note, from write.c) and
 * before their transaction can commit; the window in between is visible
 * to no one (the tuple's inserter is in progress, and its own backend is
 * busy writing).  Entries only grow: nothing removes a label except a
 * rebuild (REINDEX, or the rebuild that follows a rewrite), which reads
 * every tuple present.  A range past the end of the summary is read, never
 * skipped.
 *
 * The build (summary_am.c; CREATE INDEX, REINDEX, [CONCURRENTLY]) writes
 * the metapage first, then merges what it reads from the heap into the
 * entries, which concurrent writers (CONCURRENTLY) may be adding to at the
 * same time: a writer that finds no metapage yet placed its tuple before
 * the build began reading, so the build sees the tuple.
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

#include "am/relcache.h"
#include "am/summary/summary.h"

/* entries widened in this backend (summary.h): read by skip_ahead.c */
uint64		labelheap_summary_writes = 0;

void
summary_init_page(Page page, uint16 kind)
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

bool
summary_page_is(Page page, uint16 kind)
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

void
summary_report_corrupt(Relation index, BlockNumber blkno)
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
bool
summary_entry_add(LabelSummaryEntry *entry, Oid secid)
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
		return summary_entry_add(dst, InvalidOid);
	for (i = 0; i < src->nlabels && i < LABELSUMMARY_SLOTS; i++)
		changed |= summary_entry_add(dst, src->secids[i]);
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
		summary_init_page(page, LS_KIND_ENTRIES);
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
bool
summary_merge_into_block(Relation index, BlockNumber blkno, int first,
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
	if (!summary_page_is(page, LS_KIND_ENTRIES))
		summary_report_corrupt(index, blkno);
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
		if (!summary_page_is(page, LS_KIND_ENTRIES))
		{
			GenericXLogAbort(state);
			summary_report_corrupt(index, blkno);
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

Oid
summary_am_oid(void)
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
	amoid = summary_am_oid();
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
	/* an entry may widen: skip_stream.c's decisions ahead are stale */
	labelheap_summary_writes++;

	memcpy(indexes, sc->indexes, sizeof(indexes));
	for (i = 0; i < nindexes; i++)
	{
		Relation	index = index_open(indexes[i], RowExclusiveLock);
		LabelSummaryEntry add;
		LabelSummaryEntry now;
		bool		done;

		memset(&add, 0, sizeof(add));
		summary_entry_add(&add, secid);
		done = summary_merge_into_block(index, summary_range_block(range), summary_range_slot(range),
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
 * The same for the n tuples a batch placed (COPY), the i-th at
 * slots[i]->tts_tid labeled secids[i]: each run of tuples of one label in
 * one range is noted once (labelheap_summary_note's own shortcut covers
 * only a table with one summary).
 */
void
labelheap_summary_note_batch(Relation rel, TupleTableSlot **slots,
							 const Oid *secids, int n)
{
	BlockNumber last_range = InvalidBlockNumber;
	Oid			last_secid = InvalidOid;
	int			i;

	if (summary_cache(rel)->nindexes == 0)
		return;
	for (i = 0; i < n; i++)
	{
		BlockNumber blk = ItemPointerGetBlockNumber(&slots[i]->tts_tid);

		if (blk / LABELSUMMARY_PAGES_PER_RANGE == last_range &&
			secids[i] == last_secid)
			continue;
		labelheap_summary_note(rel, blk, secids[i]);
		last_range = blk / LABELSUMMARY_PAGES_PER_RANGE;
		last_secid = secids[i];
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
	BlockNumber blkno = summary_range_block(range);
	Buffer		buf;
	Page		page;

	if (known_blocks(index, blkno) <= blkno)
		return false;
	buf = ReadBuffer(index, blkno);
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (!summary_page_is(page, LS_KIND_ENTRIES))
	{
		UnlockReleaseBuffer(buf);
		return false;			/* verify_labels reports it */
	}
	*entry = LS_ENTRIES(page)[summary_range_slot(range)];
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
	meta_ok = summary_page_is(BufferGetPage(buf), LS_KIND_META);
	UnlockReleaseBuffer(buf);
	if (!meta_ok)
		return true;
	if (!labelheap_summary_entry(index, heapblk, &entry))
		return false;
	return !labelheap_summary_covers(&entry, secid);
}
