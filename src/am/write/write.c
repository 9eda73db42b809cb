/*-------------------------------------------------------------------------
 *
 * src/am/write/write.c
 *	  labelheap's tuple-writing callbacks: every new tuple version is formed
 *	  with a labeled header and written by heap's own writers (or, for
 *	  tuples labelheap toasted itself, by its copies of heap_insert and
 *	  heap_update), so that
 *	  page layout, locking, HOT, WAL records and redo are heap's.
 *
 * Every write is checked before heap's writer runs, and a denial (ERROR
 * 42501) changes nothing: a new row needs insert on its label (new_label.c
 * decides the label; a row that keeps the label it had, in a rewrite or a
 * partition move, needs update, checked there or at its delete), an update
 * needs update on the old version's label, and relabelfrom/relabelto
 * when the label changes (through the label column or
 * labelam.update_label), a delete needs delete (update when it moves the
 * row to another partition).  Every label written is noted in the
 * relation's label set (label_set.c), and each new version's block in the
 * relation's label summaries once heap's writer placed it (summary.c).
 *
 * A tuple that needs TOAST work is toasted by toast.c first; a new one is
 * then written by labelheap_insert_final (insert.c: heap_insert without
 * the toaster), a new version by labelheap_update_final (update.c:
 * heap_update without the toaster); see toast.c.  A delete changes the old
 * version in place: labelheap_tuple_delete checks its label and calls
 * heap's callback.  Row locks are filter.c's (labelheap_tuple_lock).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/detoast.h"
#include "access/heaptoast.h"
#include "catalog/catalog.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "am/heap/heap.h"
#include "am/label_set/label_set.h"
#include "am/labelheap.h"
#include "am/replication/replication.h"
#include "am/summary/summary.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "am/write/new_label.h"
#include "am/write/toast.h"
#include "am/write/write.h"
#include "avc/avc.h"
#include "pg_compat.h"

/*
 * Make the slot hold the tuple that heap's writer will fill in (xmin, cmin,
 * t_self, ...), as heap's callbacks do, so that RETURNING and triggers see
 * the stored row's system columns.  The tuple is in the slot's memory
 * context.  A slot of another kind than heap's could not keep the header;
 * it keeps its values, and the caller frees the tuple.
 */
static HeapTuple
tuple_into_slot(Relation rel, TupleTableSlot *slot, HeapTuple tuple)
{
	tuple->t_tableOid = RelationGetRelid(rel);
	if (TTS_IS_HEAPTUPLE(slot))
		ExecStoreHeapTuple(tuple, slot, true);
	else if (TTS_IS_BUFFERTUPLE(slot))
	{
		/*
		 * ExecForceStoreHeapTuple less its copy: the tuple was formed in the
		 * slot's memory context for the slot to own.
		 */
		ExecClearTuple(slot);
		slot->tts_flags &= ~TTS_FLAG_EMPTY;
		((BufferHeapTupleTableSlot *) slot)->base.tuple = tuple;
		slot->tts_flags |= TTS_FLAG_SHOULDFREE;
	}
	slot->tts_tableOid = tuple->t_tableOid;
	return tuple;
}

/*
 * A slot that holds a formed tuple (COPY materializes its slots) need not
 * be deformed, unless the table has a label column: new_label.c then
 * replaced its value by NULL in the slot's values only.  A tuple the slot
 * owns takes the label where it is (*in_slot is set: the slot keeps it,
 * deformed again when next read, as its data moved); another is copied
 * with the label.  NULL if the slot holds no tuple of that shape.
 */
static HeapTuple
label_slot_tuple(Relation rel, TupleTableSlot *slot, Oid secid,
				 AttrNumber label_attnum, bool *in_slot)
{
	HeapTupleTableSlot *hslot = (HeapTupleTableSlot *) slot;
	HeapTuple	tuple;

	*in_slot = false;
	if (!(TTS_IS_BUFFERTUPLE(slot) || TTS_IS_HEAPTUPLE(slot)) ||
		hslot->tuple == NULL || label_attnum != 0)
		return NULL;
	if (!TTS_SHOULDFREE(slot))
		return labelheap_copy_with_label(hslot->tuple, RelationGetDescr(rel),
										 secid);

	/* owned, so not a tuple in a shared buffer */
	tuple = labelheap_label_in_place(hslot->tuple, RelationGetDescr(rel),
									 secid);
	if (tuple == NULL)
		return NULL;
	hslot->tuple = tuple;
	hslot->off = 0;
	slot->tts_nvalid = 0;
	tuple->t_tableOid = slot->tts_tableOid = RelationGetRelid(rel);
	*in_slot = true;
	return tuple;
}

/*
 * The slot's values, out-of-line ones (those a new version would share
 * with the old one) fetched from the TOAST relation, so that the new
 * version's are written anew (palloc'd in the current context).
 */
static Datum *
values_fetched(TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	Datum	   *values = palloc(desc->natts * sizeof(Datum));
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Datum		value = slot->tts_values[i];

		if (att->attlen == -1 && !slot->tts_isnull[i] &&
			VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(value)))
			value = PointerGetDatum(detoast_external_attr((struct varlena *) DatumGetPointer(value)));
		values[i] = value;
	}
	return values;
}

/*
 * The slot's values as a labeled tuple ready for heap's writers: toasted by
 * us if heap would otherwise toast it (then *toast is set).  label_attnum
 * is labelheap_label_column_attnum(rel), which COPY looks up once a batch.
 */
static HeapTuple
prepare_tuple(Relation rel, TupleTableSlot *slot, Oid secid,
			  AttrNumber label_attnum, HeapTuple oldtup,
			  bool old_has_external, bool fresh_values, int options,
			  LabelheapToast **toast)
{
	HeapTuple	tuple;
	bool		in_slot;
	MemoryContext oldcxt;

	*toast = NULL;
	oldcxt = MemoryContextSwitchTo(slot->tts_mcxt);
	tuple = label_slot_tuple(rel, slot, secid, label_attnum, &in_slot);
	if (tuple == NULL)
	{
		slot_getallattrs(slot);
		tuple = labelheap_form_tuple(RelationGetDescr(rel), slot->tts_values,
									 slot->tts_isnull, secid);
	}
	if (labelheap_needs_toast(tuple, old_has_external))
	{
		if (!in_slot)
			heap_freetuple(tuple);
		in_slot = false;
		slot_getallattrs(slot);
		tuple = labelheap_toast_tuple(rel,
									  fresh_values && old_has_external ?
									  values_fetched(slot) : slot->tts_values,
									  slot->tts_isnull, oldtup, options,
									  secid, toast);
	}
	MemoryContextSwitchTo(oldcxt);
	if (in_slot)
		return tuple;
	return tuple_into_slot(rel, slot, tuple);
}

static inline void
free_unless_slots(TupleTableSlot *slot, HeapTuple tuple)
{
	if (!TTS_IS_BUFFERTUPLE(slot) && !TTS_IS_HEAPTUPLE(slot))
		heap_freetuple(tuple);
}

static void
insert_one(Relation rel, TupleTableSlot *slot, CommandId cid, int options,
		   BulkInsertState bistate, bool speculative, uint32 specToken)
{
	LabelheapToast *toast;
	HeapTuple	tuple;
	Oid			secid = labelheap_insert_secid(rel, slot);

	labelheap_label_set_note(rel, secid);
	tuple = prepare_tuple(rel, slot, secid,
						  labelheap_label_column_attnum(rel), NULL, false,
						  false, options, &toast);
	if (speculative)
	{
		HeapTupleHeaderSetSpeculativeToken(tuple->t_data, specToken);
		options |= HEAP_INSERT_SPECULATIVE;
	}

	if (toast != NULL)
	{
		labelheap_insert_final(rel, tuple, cid, options, bistate);
		labelheap_toast_finish(toast, true);
	}
	else
		heap_insert(rel, tuple, cid, options, bistate);
	labelheap_summary_note(rel, ItemPointerGetBlockNumber(&tuple->t_self),
						   secid);

	ItemPointerCopy(&tuple->t_self, &slot->tts_tid);
	free_unless_slots(slot, tuple);
}

void
labelheap_tuple_insert(Relation rel, TupleTableSlot *slot, CommandId cid,
					   int options, BulkInsertState bistate)
{
	insert_one(rel, slot, cid, options, bistate, false, 0);
}

void
labelheap_tuple_insert_speculative(Relation rel, TupleTableSlot *slot,
								   CommandId cid, int options,
								   BulkInsertState bistate, uint32 specToken)
{
	insert_one(rel, slot, cid, options, bistate, true, specToken);
}

/*
 * COPY and friends: the labeled tuples replace the slots' contents, and
 * heap_multi_insert places them in batches (one WAL record per page).  A
 * tuple labelheap toasted itself is written by labelheap_insert_final
 * instead, in its place in the order, between the batches before and
 * after it.
 */
void
labelheap_multi_insert(Relation rel, TupleTableSlot **slots, int ntuples,
					   CommandId cid, int options, BulkInsertState bistate)
{
	LabelheapToast **toast = palloc(ntuples * sizeof(LabelheapToast *));
	HeapTuple  *tuples = palloc(ntuples * sizeof(HeapTuple));
	Oid		   *secids = palloc(ntuples * sizeof(Oid));
	bool		noted = false;
	LabelheapBatchLabel batch;
	int			start;
	int			i;

	labelheap_batch_label_begin(rel, &batch);

	for (i = 0; i < ntuples; i++)
	{
		Oid			secid;

		/* heap_multi_insert takes the tuples from the slots */
		if (!TTS_IS_BUFFERTUPLE(slots[i]) && !TTS_IS_HEAPTUPLE(slots[i]))
			elog(ERROR, "labelheap cannot insert from a slot of this kind");
		secid = labelheap_batch_row_secid(rel, &batch, slots[i]);
		secids[i] = secid;
		if (secid != batch.secid)
			labelheap_label_set_note(rel, secid);
		else if (!noted)
		{
			labelheap_label_set_note(rel, secid);
			noted = true;
		}
		tuples[i] = prepare_tuple(rel, slots[i], secid, batch.attnum, NULL,
								  false, false, options, &toast[i]);
	}

	start = 0;
	for (i = 0; i <= ntuples; i++)
	{
		if (i < ntuples && toast[i] == NULL)
			continue;
		if (i > start)
			heap_multi_insert(rel, slots + start, i - start, cid, options,
							  bistate);
		start = i + 1;
		if (i < ntuples)
		{
			labelheap_insert_final(rel, tuples[i], cid, options, bistate);
			ItemPointerCopy(&tuples[i]->t_self, &slots[i]->tts_tid);
		}
	}

	labelheap_summary_note_batch(rel, slots, secids, ntuples);
	for (i = 0; i < ntuples; i++)
	{
		if (toast[i] != NULL)
			labelheap_toast_finish(toast[i], true);
	}
	pfree(toast);
	pfree(tuples);
	pfree(secids);
}

/*
 * Label of the tuple version at tid, and whether it has out-of-line values
 * (if so and oldcopy is given, *oldcopy is a copy of it, else NULL).
 */
static Oid
read_version_label(Relation rel, ItemPointer tid, bool *has_external,
				   HeapTuple *oldcopy)
{
	Buffer		buffer;
	Page		page;
	ItemId		lp;
	HeapTupleData tuple;
	Oid			secid;

	buffer = ReadBuffer(rel, ItemPointerGetBlockNumber(tid));
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	lp = PageGetItemId(page, ItemPointerGetOffsetNumber(tid));
	if (!ItemIdIsNormal(lp))
		elog(ERROR, "tuple (%u,%u) of relation \"%s\" has no storage",
			 ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid),
			 RelationGetRelationName(rel));
	tuple.t_data = (HeapTupleHeader) PageGetItem(page, lp);
	tuple.t_len = ItemIdGetLength(lp);
	tuple.t_self = *tid;
	tuple.t_tableOid = RelationGetRelid(rel);
	secid = labelheap_header_secid(tuple.t_data, tuple.t_len);
	*has_external = HeapTupleHasExternal(&tuple);
	if (oldcopy)
		*oldcopy = *has_external ? heap_copytuple(&tuple) : NULL;
	UnlockReleaseBuffer(buffer);
	return secid;
}

/*
 * The new version keeps the label of the version it replaces, unless the
 * UPDATE sets the table's label column or the session relabels with
 * labelam.update_label (the column wins): then it needs relabelfrom on
 * the old label and relabelto on the new one besides update.  A version's
 * label never changes in place, so reading it before heap_update waits for
 * or loses to a concurrent updater is safe: heap_update then returns
 * TM_Updated and the executor retries on the newer version.
 */
TM_Result
labelheap_tuple_update(Relation rel, ItemPointer otid, TupleTableSlot *slot,
					   CommandId cid, Snapshot snapshot, Snapshot crosscheck,
					   bool wait, TM_FailureData *tmfd,
					   LockTupleMode *lockmode,
					   LabelamUpdateIndexes * update_indexes)
{
	HeapTuple	oldcopy;
	bool		old_has_external;
	Oid			secid;
	Oid			newsecid;
	LabelheapToast *toast;
	HeapTuple	tuple;
	TM_Result	result;

	secid = read_version_label(rel, otid, &old_has_external, &oldcopy);

	if (!OidIsValid(secid))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("tuple (%u,%u) of relation \"%s\" has no valid security label",
						ItemPointerGetBlockNumber(otid),
						ItemPointerGetOffsetNumber(otid),
						RelationGetRelationName(rel)),
				 errhint("labelam.verify_labels('%s') lists every such tuple.",
						 RelationGetRelationName(rel))));

	newsecid = labelheap_update_secid(rel, secid, slot);
	labelheap_label_set_note(rel, newsecid);

	/*
	 * Logical decoding may send a relabeled row as an INSERT (replication/
	 * output.c): its values must all be in the WAL, none left out of line
	 * where the old version put them.  Heap's update path always uses WAL
	 * and the FSM for TOAST.
	 */
	tuple = prepare_tuple(rel, slot, newsecid,
						  labelheap_label_column_attnum(rel), oldcopy,
						  old_has_external,
						  newsecid != secid && RelationIsLogicallyLogged(rel),
						  0, &toast);
	labelheap_wal_old_label(rel, otid, secid);
	if (toast != NULL)
	{
		result = labelheap_update_final(rel, otid, tuple, cid, crosscheck,
										wait, tmfd, lockmode, update_indexes);
		labelheap_toast_finish(toast, result == TM_Ok);
	}
	else
		result = labelam_heap_update(rel, otid, tuple, cid, crosscheck, wait,
									 tmfd, lockmode, update_indexes);

	/* a new version was placed (HOT or not): the summary must cover it */
	if (result == TM_Ok)
		labelheap_summary_note(rel, ItemPointerGetBlockNumber(&tuple->t_self),
							   newsecid);
	ItemPointerCopy(&tuple->t_self, &slot->tts_tid);

#if PG_VERSION_NUM < 160000
	/* HOT updates need no new index entries (16+: heap_update says) */
	*update_indexes = result == TM_Ok && !HeapTupleIsHeapOnly(tuple);
#endif

	free_unless_slots(slot, tuple);
	if (oldcopy)
		heap_freetuple(oldcopy);
	return result;
}

/*
 * DELETE needs delete on the row's label.  An UPDATE that moves a row to
 * another partition deletes it here and inserts it there: that needs
 * update, and the inserted row keeps the deleted one's label.
 */
TM_Result
labelheap_tuple_delete(Relation rel, ItemPointer tid, CommandId cid,
					   Snapshot snapshot, Snapshot crosscheck, bool wait,
					   TM_FailureData *tmfd, bool changingPart)
{
	TM_Result	result;
	bool		has_external;
	Oid			secid = read_version_label(rel, tid, &has_external, NULL);

	if (unlikely(labelheap_replicated_write()))
	{
		/* the worker's own row: a trusted worker's own label decides */
		bool		widened;

		labelheap_replicated_row(rel, secid);
		widened = avc_maintenance_begin(0);
		PG_TRY();
		{
			avc_require_tuple(rel, secid, changingPart ?
							  AVC_DB_TUPLE_UPDATE : AVC_DB_TUPLE_DELETE);
		}
		PG_FINALLY();
		{
			avc_maintenance_end(widened);
		}
		PG_END_TRY();
	}
	else
		avc_require_tuple(rel, secid,
						  changingPart ? AVC_DB_TUPLE_UPDATE : AVC_DB_TUPLE_DELETE);
	labelheap_wal_old_label(rel, tid, secid);
	result = GetHeapamTableAmRoutine()->tuple_delete(rel, tid, cid, snapshot,
													 crosscheck, wait, tmfd,
													 changingPart);
	if (result == TM_Ok && changingPart)
		labelheap_row_moving(rel, secid);
	return result;
}
