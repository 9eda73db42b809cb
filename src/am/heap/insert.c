/*-------------------------------------------------------------------------
 *
 * src/am/heap/insert.c
 *	  labelheap's own writer for new tuples that labelheap toasted itself.
 *
 * heap_insert would run heap's toaster on a tuple with out-of-line values
 * (or one over TOAST_TUPLE_THRESHOLD), which rebuilds the header and drops
 * the label; toast.c has already done that work.  Such a tuple is written
 * here instead: the code below is heap_insert without the toaster, so the
 * tuple is placed (RelationGetBufferForTuple, RelationPutHeapTuple), the
 * visibility map bit cleared and the XLOG_HEAP_INSERT record written
 * exactly as heap_insert does, and heap's redo, standbys and logical
 * decoding replay it as one of heap's own inserts.  Nothing here depends
 * on what the relation claims to be.
 *
 * Copied from src/backend/access/heap/heapam.c, PostgreSQL 18.6
 * (heap_insert, heap_prepare_insert, log_heap_new_cid), with the 15.18
 * visibility-map handling kept under #ifndef HEAP_INSERT_BLKREF_VM (the
 * minor releases that lock the VM page before the critical section and
 * register it in the WAL record define that block reference; 15.18 does
 * neither).
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heapam.c
 *	  heap_insert() 15: 5c121bc7faa36af9, 18: 173bad7d537ff412
 *	  heap_prepare_insert() 15: 254e9bee4ab8f668, 18: 254e9bee4ab8f668
 *	  log_heap_new_cid() 15: 5259c87d069a28be, 18: 934bc0b9c754fe7d
 *
 * Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/hio.h"
#include "access/parallel.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "catalog/catalog.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/inval.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "am/heap/heap.h"
#include "pg_compat.h"

/*
 * upstream heap_prepare_insert()
 *
 * heap_prepare_insert (heapam.c, PostgreSQL 18.6) less the toaster: the
 * caller's tuple is final.
 */
static void
prepare_insert(Relation relation, HeapTuple tup, TransactionId xid,
			   CommandId cid, int options)
{
	/*
	 * To allow parallel inserts, we need to ensure that they are safe to be
	 * performed in workers. We have the infrastructure to allow parallel
	 * inserts in general except for the cases where inserts generate a new
	 * CommandId (eg. inserts into a table having a foreign key column).
	 */
	if (IsParallelWorker())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("cannot insert tuples in a parallel worker")));

	tup->t_data->t_infomask &= ~(HEAP_XACT_MASK);
	tup->t_data->t_infomask2 &= ~(HEAP2_XACT_MASK);
	tup->t_data->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(tup->t_data, xid);
	if (options & HEAP_INSERT_FROZEN)
		HeapTupleHeaderSetXminFrozen(tup->t_data);

	HeapTupleHeaderSetCmin(tup->t_data, cid);
	HeapTupleHeaderSetXmax(tup->t_data, 0); /* for cleanliness */
	tup->t_tableOid = RelationGetRelid(relation);
	/* labelam: no toaster: the caller's tuple is final, nothing returned */
}

/*
 * upstream log_heap_new_cid()
 *
 * log_heap_new_cid (heapam.c, PostgreSQL 18.6): combo CIDs for logical
 * decoding of catalog-like relations (user_catalog_table).  update.c's
 * heap_update uses it too.
 */
XLogRecPtr
labelheap_log_heap_new_cid(Relation relation, HeapTuple tup)
{
	xl_heap_new_cid xlrec;

	XLogRecPtr	recptr;
	HeapTupleHeader hdr = tup->t_data;

	Assert(ItemPointerIsValid(&tup->t_self));
	Assert(tup->t_tableOid != InvalidOid);

	xlrec.top_xid = GetTopTransactionId();
	labelam_xl_new_cid_locator(xlrec) = *labelam_rel_file_id(relation);
	xlrec.target_tid = tup->t_self;

	/*
	 * If the tuple got inserted & deleted in the same TX we definitely have a
	 * combo CID, set cmin and cmax.
	 */
	if (hdr->t_infomask & HEAP_COMBOCID)
	{
		Assert(!(hdr->t_infomask & HEAP_XMAX_INVALID));
		Assert(!HeapTupleHeaderXminInvalid(hdr));
		xlrec.cmin = HeapTupleHeaderGetCmin(hdr);
		xlrec.cmax = HeapTupleHeaderGetCmax(hdr);
		xlrec.combocid = HeapTupleHeaderGetRawCommandId(hdr);
	}
	/* No combo CID, so only cmin or cmax can be set by this TX */
	else
	{
		/*
		 * Tuple inserted.
		 *
		 * We need to check for LOCK ONLY because multixacts might be
		 * transferred to the new tuple in case of FOR KEY SHARE updates in
		 * which case there will be an xmax, although the tuple just got
		 * inserted.
		 */
		if (hdr->t_infomask & HEAP_XMAX_INVALID ||
			HEAP_XMAX_IS_LOCKED_ONLY(hdr->t_infomask))
		{
			xlrec.cmin = HeapTupleHeaderGetRawCommandId(hdr);
			xlrec.cmax = InvalidCommandId;
		}
		/* Tuple from a different tx updated or deleted. */
		else
		{
			xlrec.cmin = InvalidCommandId;
			xlrec.cmax = HeapTupleHeaderGetRawCommandId(hdr);
		}
		xlrec.combocid = InvalidCommandId;
	}

	/*
	 * Note that we don't need to register the buffer here, because this
	 * operation does not modify the page. The insert/update/delete that
	 * called us certainly did, but that's WAL-logged separately.
	 */
	XLogBeginInsert();
	XLogRegisterData((char *) &xlrec, SizeOfHeapNewCid);

	/* will be looked at irrespective of origin */

	recptr = XLogInsert(RM_HEAP2_ID, XLOG_HEAP2_NEW_CID);

	return recptr;
}

/*
 * upstream heap_insert()
 *
 * heap_insert (heapam.c, PostgreSQL 18.6) for a tuple that needs no TOAST
 * work: labelheap's toasted tuples.  Like heap_insert, it fills in the
 * header fields and tup->t_self.
 */
void
labelheap_insert_final(Relation relation, HeapTuple tup, CommandId cid,
					   int options, BulkInsertState bistate)
{
	TransactionId xid = GetCurrentTransactionId();
	HeapTuple	heaptup;
	Buffer		buffer;
	Page		page;
	Buffer		vmbuffer = InvalidBuffer;
	bool		clear_all_visible = false;
#ifdef HEAP_INSERT_BLKREF_VM
	bool		vmbuffer_modified = false;
#endif

	/* Cheap, simplistic check that the tuple matches the rel's rowtype. */
	Assert(HeapTupleHeaderGetNatts(tup->t_data) <=
		   RelationGetNumberOfAttributes(relation));

	/* labelam: AssertHasSnapshotForToast() of 18, which 15 lacks */
	Assert(!IsNormalProcessingMode() ||
		   !OidIsValid(relation->rd_rel->reltoastrelid) ||
		   HaveRegisteredOrActiveSnapshot());

	/* Fill in tuple header fields; the tuple is final (toasted by us). */
	prepare_insert(relation, tup, xid, cid, options);
	heaptup = tup;

	/*
	 * Find buffer to insert this tuple into.  If the page is all visible,
	 * this will also pin the requisite visibility map page.
	 */
	buffer = labelam_RelationGetBufferForTuple(relation, heaptup->t_len,
											   InvalidBuffer, options, bistate,
											   &vmbuffer, NULL);
	page = BufferGetPage(buffer);

	/*
	 * We're about to do the actual insert -- but check for conflict first, to
	 * avoid possibly having to roll back work we've just done.
	 *
	 * This is safe without a recheck as long as there is no possibility of
	 * another process scanning the page between this check and the insert
	 * being visible to the scan (i.e., an exclusive buffer content lock is
	 * continuously held from this point until the tuple insert is visible).
	 *
	 * For a heap insert, we only need to check for table-level SSI locks. Our
	 * new tuple can't possibly conflict with existing tuple locks, and heap
	 * page locks are only consolidated versions of tuple locks; they do not
	 * lock "gaps" as index page locks do.  So we don't need to specify a
	 * buffer when making the call, which makes for a faster check.
	 */
	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

#ifdef HEAP_INSERT_BLKREF_VM
	/* Lock the vmbuffer before the critical section */
	if (PageIsAllVisible(page))
	{
		LockBuffer(vmbuffer, BUFFER_LOCK_EXCLUSIVE);
		clear_all_visible = true;
	}
#endif

	/* NO EREPORT(ERROR) from here till changes are logged */
	START_CRIT_SECTION();

	RelationPutHeapTuple(relation, buffer, heaptup,
						 (options & HEAP_INSERT_SPECULATIVE) != 0);

#ifdef HEAP_INSERT_BLKREF_VM
	if (clear_all_visible)
	{
		/* It's possible the VM bits were already clear */
		if (visibilitymap_clear_locked(relation,
									   ItemPointerGetBlockNumber(&(heaptup->t_self)),
									   vmbuffer, VISIBILITYMAP_VALID_BITS))
			vmbuffer_modified = true;

		PageClearAllVisible(page);
	}
#else
	if (PageIsAllVisible(page))
	{
		clear_all_visible = true;
		PageClearAllVisible(page);
		visibilitymap_clear(relation,
							ItemPointerGetBlockNumber(&(heaptup->t_self)),
							vmbuffer, VISIBILITYMAP_VALID_BITS);
	}
#endif

	/*
	 * XXX Should we set PageSetPrunable on this page ?
	 *
	 * The inserting transaction may eventually abort thus making this tuple
	 * DEAD and hence available for pruning. Though we don't want to optimize
	 * for aborts, if no other tuple in this page is UPDATEd/DELETEd, the
	 * aborted tuple will never be pruned until next vacuum is triggered.
	 *
	 * If you do add PageSetPrunable here, add it in heap_xlog_insert too.
	 */

	MarkBufferDirty(buffer);

	/* XLOG stuff */
	if (RelationNeedsWAL(relation))
	{
		xl_heap_insert xlrec;
		xl_heap_header xlhdr;
		XLogRecPtr	recptr;
		uint8		info = XLOG_HEAP_INSERT;
		int			bufflags = 0;

		/*
		 * If this is a catalog, we need to transmit combo CIDs to properly
		 * decode, so log that as well.
		 */
		if (RelationIsAccessibleInLogicalDecoding(relation))
			labelheap_log_heap_new_cid(relation, heaptup);

		/*
		 * If this is the single and first tuple on page, we can reinit the
		 * page instead of restoring the whole thing.  Set flag, and hide
		 * buffer references from XLogInsert.
		 */
		if (ItemPointerGetOffsetNumber(&(heaptup->t_self)) == FirstOffsetNumber &&
			PageGetMaxOffsetNumber(page) == FirstOffsetNumber)
		{
			info |= XLOG_HEAP_INIT_PAGE;
			bufflags |= REGBUF_WILL_INIT;
		}

		xlrec.offnum = ItemPointerGetOffsetNumber(&heaptup->t_self);
		xlrec.flags = 0;
		if (clear_all_visible)
			xlrec.flags |= XLH_INSERT_ALL_VISIBLE_CLEARED;
		if (options & HEAP_INSERT_SPECULATIVE)
			xlrec.flags |= XLH_INSERT_IS_SPECULATIVE;
		Assert(ItemPointerGetBlockNumber(&heaptup->t_self) == BufferGetBlockNumber(buffer));

		/*
		 * For logical decoding, we need the tuple even if we're doing a full
		 * page write, so make sure it's included even if we take a full-page
		 * image. (XXX We could alternatively store a pointer into the FPW).
		 */
		if (RelationIsLogicallyLogged(relation) &&
			!(options & HEAP_INSERT_NO_LOGICAL))
		{
			xlrec.flags |= XLH_INSERT_CONTAINS_NEW_TUPLE;
			bufflags |= REGBUF_KEEP_DATA;

			if (IsToastRelation(relation))
				xlrec.flags |= XLH_INSERT_ON_TOAST_RELATION;
		}

		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, SizeOfHeapInsert);

		xlhdr.t_infomask2 = heaptup->t_data->t_infomask2;
		xlhdr.t_infomask = heaptup->t_data->t_infomask;
		xlhdr.t_hoff = heaptup->t_data->t_hoff;

		/*
		 * note we mark xlhdr as belonging to buffer; if XLogInsert decides to
		 * write the whole page to the xlog, we don't need to store
		 * xl_heap_header in the xlog.
		 */
		/* labelam: 0, HEAP_INSERT_BLKREF_HEAP of 17.12 and 18.6 (not in 15) */
		XLogRegisterBuffer(0, buffer, REGBUF_STANDARD | bufflags);
		XLogRegisterBufData(0, (char *) &xlhdr, SizeOfHeapHeader);
		/* PG73FORMAT: write bitmap [+ padding] [+ oid] + data */
		XLogRegisterBufData(0,
							(char *) heaptup->t_data + SizeofHeapTupleHeader,
							heaptup->t_len - SizeofHeapTupleHeader);

		/* filtering by origin on a row level is much more efficient */
		XLogSetRecordFlags(XLOG_INCLUDE_ORIGIN);

#ifdef HEAP_INSERT_BLKREF_VM
		if (vmbuffer_modified)
			XLogRegisterBuffer(HEAP_INSERT_BLKREF_VM, vmbuffer, 0);
#endif

		recptr = XLogInsert(RM_HEAP_ID, info);

		PageSetLSN(page, recptr);

#ifdef HEAP_INSERT_BLKREF_VM
		if (vmbuffer_modified)
			PageSetLSN(BufferGetPage(vmbuffer), recptr);
#endif
	}

	END_CRIT_SECTION();

	UnlockReleaseBuffer(buffer);

#ifdef HEAP_INSERT_BLKREF_VM

	/*
	 * We locked vmbuffer if clear_all_visible was true regardless of whether
	 * or not we ended up modifying the vmbuffer.
	 */
	if (clear_all_visible)
		LockBuffer(vmbuffer, BUFFER_LOCK_UNLOCK);
#endif
	if (BufferIsValid(vmbuffer))
		ReleaseBuffer(vmbuffer);

	/*
	 * If tuple is cachable, mark it for invalidation from the caches in case
	 * we abort.  Note it is OK to do this after releasing the buffer, because
	 * the heaptup data structure is all in local memory, not in the shared
	 * buffer.
	 */
	CacheInvalidateHeapTuple(relation, heaptup, NULL);

	/* Note: speculative insertions are counted too, even if aborted later */
	pgstat_count_heap_insert(relation, 1);
	/* labelam: heaptup is tup (no toaster): nothing to copy back or free */
}
