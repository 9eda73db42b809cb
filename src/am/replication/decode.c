/*-------------------------------------------------------------------------
 *
 * src/am/replication/decode.c
 *	  What logical decoding needs noted from the records it reads: the
 *	  labels a change will need when it reaches the output plugin, kept
 *	  per decoding context (rmgr.c calls here for every record).
 *
 * Labels are decided when the change reaches the plugin, where the
 * relation is known (a record names only a relfilenode).  What is noted
 * here, keyed by the record's LSN (RecordNote), is what is gone by then:
 *
 *	- the label of the version an UPDATE or DELETE replaces, which heap's
 *	  record does not carry; label_wal.c writes it in a note just before
 *	  the record, matched here by xid, relfilenode and item pointer;
 *	- the labels of new tuples that ReorderBufferToastReplace will re-form
 *	  without the label header: those of a transaction that has inserted
 *	  TOAST chunks since reassembly last started over (it re-forms every
 *	  tuple in between, whether or not the tuple has out-of-line values);
 *	  a multi-insert record's tuples in order (output.c takes them in the
 *	  order the record holds them, which is the order its changes come);
 *	- the label sets of truncated relations and the writer of logical
 *	  messages (label_wal.c, message.c).
 * labelam's own notes are consumed here and never reach a plugin.
 *
 * For COMMIT PREPARED and ROLLBACK PREPARED of a transaction whose PREPARE
 * this context did not decide (it was sent before a restart, or decoded
 * by another session of the slot), output.c asks whether the transaction
 * wrote anything the session may see: the labels of its data changes are
 * tallied here, and changes with no label (tables of other access
 * methods, catalogs) count as visible.
 *
 * Notes live in the decoding context's memory; a transaction's are freed
 * when its commit or abort has been decoded, or when a running-xacts
 * record shows it ended without one (a crash).  They are not counted in
 * logical_decoding_work_mem: one (about 100 bytes) a change of an UPDATE or
 * DELETE of a labelheap table, or of a tuple TOAST reassembly re-forms,
 * until its transaction is decoded.
 *
 * This relies on how PostgreSQL's decoding turns records into changes
 * (their LSN: the record's start, a message's end; a multi-insert's tuples
 * in record order) and on which tuples ReorderBufferToastReplace re-forms.
 * None of that code is copied, but its text is watched as copies' is (a
 * comment "upstream NAME()" marks the code that relies on each):
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/replication/logical/decode.c
 *	  DecodeInsert()		15: 34cd16ae0395473d, 18: df2179716ac1912b
 *	  DecodeUpdate()		15: be80e36e83f0adde, 18: d6c0c6252f485473
 *	  DecodeDelete()		15: b92ef48e02b613fd, 18: 41bf7b174ee6fd43
 *	  DecodeMultiInsert()	15: 3488d8ee73ad30fb, 18: 056c7e9be06fc9f8
 *	  logicalmsg_decode()	15: 50b4cc2262e219cf, 18: 6303549177b82bac
 *	src/backend/replication/logical/reorderbuffer.c
 *	  ReorderBufferToastReplace() 15: 950056c010607e6f, 18: 50b38c092dcf1fcd
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam_xlog.h"
#include "access/rmgr.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "replication/decode.h"
#include "replication/logical.h"
#include "replication/message.h"
#include "replication/reorderbuffer.h"
#include "replication/slot.h"
#include "storage/standbydefs.h"
#include "utils/memutils.h"

#include "am/labelheap.h"
#include "am/tuple_label.h"
#include "am/replication/replication.h"
#include "am/replication/replication_int.h"

/* the states of the decoding contexts of this process */
static DecodingState *states = NULL;

/* an UPDATE's or DELETE's replaced version, noted by label_wal.c */
typedef struct OldLabel
{
	LabelamRelFileId file;
	BlockNumber block;
	OffsetNumber offset;
	Oid			secid;
} OldLabel;

/* a truncated relation's label set, noted by label_wal.c */
typedef struct TruncateLabels
{
	Oid			relid;
	int			nsecids;
	Oid		   *secids;
} TruncateLabels;

/* what is known of one transaction (or subtransaction) id */
typedef struct XidNotes
{
	TransactionId xid;			/* hash key */
	bool		toast_pending;	/* TOAST chunks inserted, not yet used */
	bool		tally_unlabeled;	/* a data change without a label */
	List	   *tally;			/* secids of its data changes */
	List	   *old_labels;		/* OldLabel, not yet matched */
	List	   *truncates;		/* TruncateLabels, not yet matched */
	char	   *writer;			/* the latest writer note's label */
	dlist_head	records;		/* its RecordNotes */
} XidNotes;

/* ---- decoding contexts ---- */

static void
state_forget(void *arg)
{
	DecodingState *state = (DecodingState *) arg;
	DecodingState **p;

	for (p = &states; *p != NULL; p = &(*p)->next)
	{
		if (*p == state)
		{
			*p = state->next;
			break;
		}
	}
}

DecodingState *
labelheap_decoding_state(LogicalDecodingContext *ctx)
{
	DecodingState *state;

	for (state = states; state != NULL; state = state->next)
	{
		if (state->ctx == ctx)
			return state;
	}
	return NULL;
}

/*
 * A new context's state (rmgr.c, at its first record).  It lives in a child
 * of the context's memory, so that it goes when the context does and a
 * later context at the same address starts afresh.
 */
DecodingState *
labelheap_decoding_state_new(LogicalDecodingContext *ctx)
{
	DecodingState *state;
	MemoryContext cxt;
	MemoryContextCallback *cb;
	HASHCTL		hctl;

	cxt = AllocSetContextCreate(ctx->context, "labelam decoding labels",
								ALLOCSET_DEFAULT_SIZES);
	state = MemoryContextAllocZero(cxt, sizeof(DecodingState));
	state->ctx = ctx;
	state->cxt = cxt;

	hctl.hcxt = cxt;
	hctl.keysize = sizeof(XLogRecPtr);
	hctl.entrysize = sizeof(RecordNote);
	state->records = hash_create("labelam record notes", 256, &hctl,
								 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	hctl.keysize = sizeof(TransactionId);
	hctl.entrysize = sizeof(XidNotes);
	state->xids = hash_create("labelam transaction notes", 64, &hctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	hctl.keysize = sizeof(TransactionId);
	hctl.entrysize = sizeof(TxnOutput);
	state->txns = hash_create("labelam transaction output", 64, &hctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);

	cb = MemoryContextAlloc(cxt, sizeof(MemoryContextCallback));
	cb->func = state_forget;
	cb->arg = state;
	MemoryContextRegisterResetCallback(cxt, cb);

	state->next = states;
	states = state;
	return state;
}

/* ---- notes ---- */

static XidNotes *
xid_notes(DecodingState *state, TransactionId xid, bool create)
{
	XidNotes   *xn;
	bool		found;

	xn = hash_search(state->xids, &xid, create ? HASH_ENTER : HASH_FIND,
					 &found);
	if (xn != NULL && !found)
	{
		xn->toast_pending = false;
		xn->tally_unlabeled = false;
		xn->tally = NIL;
		xn->old_labels = NIL;
		xn->truncates = NIL;
		xn->writer = NULL;
		dlist_init(&xn->records);
	}
	return xn;
}

static RecordNote *
record_note_new(DecodingState *state, XidNotes *xn, XLogRecPtr lsn)
{
	RecordNote *note;
	bool		found;

	note = hash_search(state->records, &lsn, HASH_ENTER, &found);
	if (found)					/* the same record decoded again: start over */
		dlist_delete(&note->xid_node);
	memset(((char *) note) + sizeof(XLogRecPtr), 0,
		   sizeof(RecordNote) - sizeof(XLogRecPtr));
	note->xid = xn->xid;
	note->old_secid = InvalidOid;
	dlist_push_tail(&xn->records, &note->xid_node);
	return note;
}

static void
record_note_free(DecodingState *state, RecordNote *note)
{
	int			i;

	dlist_delete(&note->xid_node);
	if (note->new_secids)
		pfree(note->new_secids);
	if (note->writer)
		pfree(note->writer);
	for (i = 0; i < note->nrels; i++)
	{
		if (note->secids[i])
			pfree(note->secids[i]);
	}
	if (note->nrels > 0)
	{
		pfree(note->relids);
		pfree(note->nsecids);
		pfree(note->secids);
	}
	(void) hash_search(state->records, &note->lsn, HASH_REMOVE, NULL);
}

/*
 * The note of the record at lsn, for output.c.  A note of a record with
 * one change (or none of its tuples' labels) serves one change, a
 * multi-insert record's one change per tuple, in order: output.c takes
 * new_secids[note->next] and calls this once per change.
 */
RecordNote *
labelheap_record_note(DecodingState *state, XLogRecPtr lsn)
{
	return hash_search(state->records, &lsn, HASH_FIND, NULL);
}

/* called by output.c when a change has used the note */
void
labelheap_record_note_used(DecodingState *state, RecordNote *note)
{
	note->next++;
	if (note->next >= Max(note->ntuples, 1))
		record_note_free(state, note);
}

static void
xid_notes_free(DecodingState *state, TransactionId xid)
{
	XidNotes   *xn = xid_notes(state, xid, false);
	dlist_mutable_iter it;
	ListCell   *lc;

	if (xn == NULL)
		return;
	dlist_foreach_modify(it, &xn->records)
		record_note_free(state, dlist_container(RecordNote, xid_node, it.cur));
	list_free_deep(xn->old_labels);
	list_free(xn->tally);
	foreach(lc, xn->truncates)
		pfree(((TruncateLabels *) lfirst(lc))->secids);
	list_free_deep(xn->truncates);
	if (xn->writer)
		pfree(xn->writer);
	(void) hash_search(state->xids, &xid, HASH_REMOVE, NULL);
}

static void
tally(DecodingState *state, XidNotes *xn, Oid secid)
{
	MemoryContext old = MemoryContextSwitchTo(state->cxt);

	if (OidIsValid(secid))
		xn->tally = list_append_unique_oid(xn->tally, secid);
	else
		xn->tally_unlabeled = true;
	MemoryContextSwitchTo(old);
}

/*
 * The labels of the transaction's data changes (its subtransactions' notes
 * merged into it at its COMMIT PREPARED), for output.c to decide whether
 * it wrote anything the session may see: NIL if none is known, and
 * *unlabeled set if a change had no label.
 */
List *
labelheap_xid_tally(DecodingState *state, TransactionId xid, bool *unlabeled)
{
	XidNotes   *xn = xid_notes(state, xid, false);

	*unlabeled = xn != NULL && xn->tally_unlabeled;
	return xn != NULL ? xn->tally : NIL;
}

/* ---- reading labels out of records ---- */

/*
 * The label in a tuple header as heap logs it: infomask, t_hoff, and the
 * bytes from the null bitmap on (data, len).  InvalidOid if it has none.
 */
static Oid
logged_secid(uint16 infomask2, uint16 infomask, uint8 hoff,
			 const char *data, Size len)
{
	union
	{
		HeapTupleHeaderData hdr;
		char		bytes[MAXALIGN(SizeofHeapTupleHeader + 256)];
		double		align;
	}			u;
	Size		room = (Size) hoff > SizeofHeapTupleHeader ?
		hoff - SizeofHeapTupleHeader : 0;

	memset(&u, 0, sizeof(u));
	u.hdr.t_infomask2 = infomask2;
	u.hdr.t_infomask = infomask;
	u.hdr.t_hoff = hoff;
	memcpy(u.bytes + SizeofHeapTupleHeader, data, Min(room, len));
	return labelheap_header_secid(&u.hdr, SizeofHeapTupleHeader + len);
}

/* the label of a tuple logged as xl_heap_header + data (data, len) */
static Oid
xl_tuple_secid(const char *data, Size len)
{
	xl_heap_header xlhdr;

	if (len < SizeOfHeapHeader)
		return InvalidOid;
	memcpy(&xlhdr, data, SizeOfHeapHeader);
	return logged_secid(xlhdr.t_infomask2, xlhdr.t_infomask, xlhdr.t_hoff,
						data + SizeOfHeapHeader, len - SizeOfHeapHeader);
}

/*
 * The label a note gave the version at (file, block, offset), forgotten as
 * it is used; InvalidOid if no note did.  The latest note wins: an UPDATE
 * that lost to a concurrent one left its note behind unused.
 */
static Oid
take_old_label(XidNotes *xn, const LabelamRelFileId *file,
			   BlockNumber block, OffsetNumber offset)
{
	int			i;

	for (i = list_length(xn->old_labels) - 1; i >= 0; i--)
	{
		OldLabel   *old = list_nth(xn->old_labels, i);

		if (old->block == block && old->offset == offset &&
			labelam_rel_file_equal(old->file, *file))
		{
			Oid			secid = old->secid;

			xn->old_labels = list_delete_nth_cell(xn->old_labels, i);
			pfree(old);
			return secid;
		}
	}
	return InvalidOid;
}

/* ---- heap records ---- */

static bool
our_database(LogicalDecodingContext *ctx, const LabelamRelFileId *file)
{
	return labelam_rel_file_db(*file) == ctx->slot->data.database;
}

/*
 * relies on upstream DecodeInsert(): the change's LSN is the record's
 * start; and on upstream ReorderBufferToastReplace(): it re-forms every
 * tuple after TOAST chunks, labels lost (toast_pending)
 */
static void
note_insert(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_heap_insert *xlrec = (xl_heap_insert *) XLogRecGetData(r);
	LabelamRelFileId file;
	XidNotes   *xn;
	char	   *data;
	Size		len;
	Oid			secid;

	if (!(xlrec->flags & XLH_INSERT_CONTAINS_NEW_TUPLE))
		return;
	XLogRecGetBlockTag(r, 0, &file, NULL, NULL);
	if (!our_database(state->ctx, &file))
		return;
	xn = xid_notes(state, XLogRecGetXid(r), true);
	if (xlrec->flags & XLH_INSERT_ON_TOAST_RELATION)
	{
		xn->toast_pending = true;
		return;
	}
	data = XLogRecGetBlockData(r, 0, &len);
	secid = data ? xl_tuple_secid(data, len) : InvalidOid;
	tally(state, xn, secid);
	if (xn->toast_pending)
	{
		RecordNote *note = record_note_new(state, xn, buf->origptr);

		note->ntuples = 1;
		note->new_secids = MemoryContextAlloc(state->cxt, sizeof(Oid));
		note->new_secids[0] = secid;
		xn->toast_pending = false;
	}
}

/* relies on upstream DecodeUpdate(): the change's LSN is the record's start */
static void
note_update(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_heap_update *xlrec = (xl_heap_update *) XLogRecGetData(r);
	LabelamRelFileId file;
	BlockNumber newblk;
	BlockNumber oldblk;
	XidNotes   *xn;
	Oid			newsecid = InvalidOid;
	Oid			oldsecid;

	/* only relations that are not logically logged compress the record */
	if (xlrec->flags & (XLH_UPDATE_PREFIX_FROM_OLD | XLH_UPDATE_SUFFIX_FROM_OLD))
		return;
	XLogRecGetBlockTag(r, 0, &file, NULL, &newblk);
	if (!our_database(state->ctx, &file))
		return;
	oldblk = newblk;
	if (XLogRecHasBlockRef(r, 1))
		XLogRecGetBlockTag(r, 1, NULL, NULL, &oldblk);

	xn = xid_notes(state, XLogRecGetXid(r), true);
	if (xlrec->flags & XLH_UPDATE_CONTAINS_NEW_TUPLE)
	{
		Size		len;
		char	   *data = XLogRecGetBlockData(r, 0, &len);

		if (data)
			newsecid = xl_tuple_secid(data, len);
	}
	tally(state, xn, newsecid);
	oldsecid = take_old_label(xn, &file, oldblk, xlrec->old_offnum);
	if (OidIsValid(oldsecid))
		tally(state, xn, oldsecid);
	if (OidIsValid(oldsecid) || xn->toast_pending)
	{
		RecordNote *note = record_note_new(state, xn, buf->origptr);

		note->old_secid = oldsecid;
		if (xn->toast_pending)
		{
			note->ntuples = 1;
			note->new_secids = MemoryContextAlloc(state->cxt, sizeof(Oid));
			note->new_secids[0] = newsecid;
		}
	}
	xn->toast_pending = false;
}

/* relies on upstream DecodeDelete(): the change's LSN is the record's start */
static void
note_delete(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_heap_delete *xlrec = (xl_heap_delete *) XLogRecGetData(r);
	LabelamRelFileId file;
	BlockNumber blk;
	XidNotes   *xn;
	Oid			oldsecid;

	/* a speculative insertion's abort never reaches a plugin */
	if (xlrec->flags & XLH_DELETE_IS_SUPER)
		return;
	XLogRecGetBlockTag(r, 0, &file, NULL, &blk);
	if (!our_database(state->ctx, &file))
		return;
	xn = xid_notes(state, XLogRecGetXid(r), true);
	oldsecid = take_old_label(xn, &file, blk, xlrec->offnum);
	if (OidIsValid(oldsecid))
	{
		RecordNote *note = record_note_new(state, xn, buf->origptr);

		note->old_secid = oldsecid;
		tally(state, xn, oldsecid);
		/* a labelheap row: its deletion ends a tuple's TOAST work */
		xn->toast_pending = false;
	}
	else if (xlrec->flags & XLH_DELETE_CONTAINS_OLD)
		tally(state, xn, InvalidOid);

	/*
	 * A delete with neither is a TOAST chunk's (or a row of a table without
	 * a replica identity, which no plugin can show): nothing to tally, and
	 * reassembly goes on across it.
	 */
}

static void
note_truncate(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_heap_truncate *xlrec = (xl_heap_truncate *) XLogRecGetData(r);
	XidNotes   *xn;
	RecordNote *note = NULL;
	uint32		i;

	if (xlrec->dbId != state->ctx->slot->data.database)
		return;
	xn = xid_notes(state, XLogRecGetXid(r), false);
	if (xn == NULL || xn->truncates == NIL)
		return;
	for (i = 0; i < xlrec->nrelids; i++)
	{
		ListCell   *lc;

		foreach(lc, xn->truncates)
		{
			TruncateLabels *t = lfirst(lc);

			if (t->relid != xlrec->relids[i])
				continue;
			if (note == NULL)
			{
				note = record_note_new(state, xn, buf->origptr);
				note->relids = MemoryContextAlloc(state->cxt,
												  xlrec->nrelids * sizeof(Oid));
				note->nsecids = MemoryContextAlloc(state->cxt,
												   xlrec->nrelids * sizeof(int));
				note->secids = MemoryContextAllocZero(state->cxt,
													  xlrec->nrelids * sizeof(Oid *));
			}
			note->relids[note->nrels] = t->relid;
			note->nsecids[note->nrels] = t->nsecids;
			note->secids[note->nrels] = t->secids;
			note->nrels++;
			xn->truncates = foreach_delete_current(xn->truncates, lc);
			pfree(t);
			break;
		}
	}
}

static void
note_heap(DecodingState *state, XLogRecordBuffer *buf)
{
	switch (XLogRecGetInfo(buf->record) & XLOG_HEAP_OPMASK)
	{
		case XLOG_HEAP_INSERT:
			note_insert(state, buf);
			break;
		case XLOG_HEAP_UPDATE:
		case XLOG_HEAP_HOT_UPDATE:
			note_update(state, buf);
			break;
		case XLOG_HEAP_DELETE:
			note_delete(state, buf);
			break;
		case XLOG_HEAP_TRUNCATE:
			note_truncate(state, buf);
			break;
	}
}

/*
 * relies on upstream DecodeMultiInsert(): one change per tuple, in the
 * record's order, each at the record's start
 */
static void
note_multi_insert(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_heap_multi_insert *xlrec = (xl_heap_multi_insert *) XLogRecGetData(r);
	LabelamRelFileId file;
	XidNotes   *xn;
	RecordNote *note = NULL;
	char	   *data;
	Size		len;
	int			i;

	if (!(xlrec->flags & XLH_INSERT_CONTAINS_NEW_TUPLE))
		return;
	XLogRecGetBlockTag(r, 0, &file, NULL, NULL);
	if (!our_database(state->ctx, &file))
		return;
	data = XLogRecGetBlockData(r, 0, &len);
	if (data == NULL)
		return;
	xn = xid_notes(state, XLogRecGetXid(r), true);
	if (xn->toast_pending)
	{
		note = record_note_new(state, xn, buf->origptr);
		note->ntuples = xlrec->ntuples;
		note->new_secids = MemoryContextAlloc(state->cxt,
											  Max(xlrec->ntuples, 1) * sizeof(Oid));
	}
	/* walked as DecodeMultiInsert walks it */
	for (i = 0; i < xlrec->ntuples; i++)
	{
		xl_multi_insert_tuple *xlhdr = (xl_multi_insert_tuple *) SHORTALIGN(data);
		char	   *tupdata = ((char *) xlhdr) + SizeOfMultiInsertTuple;
		Oid			secid;

		secid = logged_secid(xlhdr->t_infomask2, xlhdr->t_infomask,
							 xlhdr->t_hoff, tupdata, xlhdr->datalen);
		tally(state, xn, secid);
		if (note)
			note->new_secids[i] = secid;
		data = tupdata + xlhdr->datalen;
	}
	if (xlrec->flags & XLH_INSERT_LAST_IN_MULTI)
		xn->toast_pending = false;
}

/* ---- logical messages ---- */

/*
 * A label note (consumed: true), or a message of the session's, whose
 * writer the latest writer note of its transaction names.  Relies on
 * upstream logicalmsg_decode(): a message's change is at the record's end.
 */
static bool
note_message(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_logical_message *message = (xl_logical_message *) XLogRecGetData(r);
	const char *payload;
	const LabelNoteHeader *hdr;
	XidNotes   *xn;
	MemoryContext old;

	if ((XLogRecGetInfo(r) & ~XLR_INFO_MASK) != XLOG_LOGICAL_MESSAGE ||
		message->dbId != state->ctx->slot->data.database)
		return false;

	if (message->prefix_size != sizeof(LABEL_NOTE_PREFIX) ||
		memcmp(message->message, LABEL_NOTE_PREFIX, sizeof(LABEL_NOTE_PREFIX)) != 0)
	{
		/* a message of the session's */
		xn = xid_notes(state, XLogRecGetXid(r), false);
		if (xn != NULL && xn->writer != NULL)
		{
			RecordNote *note = record_note_new(state, xn, buf->endptr);

			note->writer = MemoryContextStrdup(state->cxt, xn->writer);
		}
		return false;
	}

	/* labelam's own: never passed on (its transaction is known, though) */
	ReorderBufferProcessXid(state->ctx->reorder, XLogRecGetXid(r),
							buf->origptr);
	payload = message->message + message->prefix_size;
	hdr = (const LabelNoteHeader *) payload;
	if (message->message_size < sizeof(LabelNoteHeader) ||
		hdr->magic != LABEL_NOTE_MAGIC)
		return true;
	xn = xid_notes(state, XLogRecGetXid(r), true);
	old = MemoryContextSwitchTo(state->cxt);
	switch (hdr->kind)
	{
		case LABEL_NOTE_OLD:
			if (message->message_size == sizeof(LabelNoteOld))
			{
				LabelNoteOld note;
				OldLabel   *ol = palloc(sizeof(OldLabel));

				memcpy(&note, payload, sizeof(note));
				ol->file = note.file;
				ol->block = note.block;
				ol->offset = note.offset;
				ol->secid = note.secid;
				xn->old_labels = lappend(xn->old_labels, ol);
			}
			break;
		case LABEL_NOTE_TRUNCATE:
			if (message->message_size >= offsetof(LabelNoteTruncate, secids))
			{
				LabelNoteTruncate note;
				TruncateLabels *t;

				memcpy(&note, payload, offsetof(LabelNoteTruncate, secids));
				if (note.nsecids < 0 ||
					message->message_size != offsetof(LabelNoteTruncate, secids) +
					note.nsecids * sizeof(Oid))
					break;
				t = palloc(sizeof(TruncateLabels));
				t->relid = note.relid;
				t->nsecids = note.nsecids;
				t->secids = palloc(Max(note.nsecids, 1) * sizeof(Oid));
				memcpy(t->secids, payload + offsetof(LabelNoteTruncate, secids),
					   note.nsecids * sizeof(Oid));
				xn->truncates = lappend(xn->truncates, t);
			}
			break;
		case LABEL_NOTE_WRITER:
			{
				Size		len = message->message_size -
					offsetof(LabelNoteWriter, label);

				if (message->message_size > offsetof(LabelNoteWriter, label) &&
					payload[message->message_size - 1] == '\0')
				{
					if (xn->writer)
						pfree(xn->writer);
					xn->writer = pnstrdup(payload + offsetof(LabelNoteWriter, label),
										  len);
				}
			}
			break;
	}
	MemoryContextSwitchTo(old);
	return true;
}

/* ---- transaction ends ---- */

/* the xid a commit or abort record ends, and its subtransactions */
static bool
xact_ends(XLogRecordBuffer *buf, TransactionId *xid, bool *prepared,
		  TransactionId **subxacts, int *nsubxacts)
{
	XLogReaderState *r = buf->record;
	uint8		info = XLogRecGetInfo(r) & XLOG_XACT_OPMASK;

	switch (info)
	{
		case XLOG_XACT_COMMIT:
		case XLOG_XACT_COMMIT_PREPARED:
			{
				xl_xact_parsed_commit parsed;

				ParseCommitRecord(XLogRecGetInfo(r),
								  (xl_xact_commit *) XLogRecGetData(r), &parsed);
				*prepared = TransactionIdIsValid(parsed.twophase_xid);
				*xid = *prepared ? parsed.twophase_xid : XLogRecGetXid(r);
				*subxacts = parsed.subxacts;
				*nsubxacts = parsed.nsubxacts;
				return true;
			}
		case XLOG_XACT_ABORT:
		case XLOG_XACT_ABORT_PREPARED:
			{
				xl_xact_parsed_abort parsed;

				ParseAbortRecord(XLogRecGetInfo(r),
								 (xl_xact_abort *) XLogRecGetData(r), &parsed);
				*prepared = TransactionIdIsValid(parsed.twophase_xid);
				*xid = *prepared ? parsed.twophase_xid : XLogRecGetXid(r);
				*subxacts = parsed.subxacts;
				*nsubxacts = parsed.nsubxacts;
				return true;
			}
	}
	return false;
}

/*
 * Before a COMMIT PREPARED or ROLLBACK PREPARED is decoded, its
 * subtransactions' tallies join its own (labelheap_xid_may_show).
 */
static void
xact_before(DecodingState *state, XLogRecordBuffer *buf)
{
	TransactionId xid;
	bool		prepared;
	TransactionId *subxacts;
	int			nsubxacts;
	XidNotes   *top;
	int			i;

	if (!xact_ends(buf, &xid, &prepared, &subxacts, &nsubxacts) || !prepared)
		return;
	top = xid_notes(state, xid, true);
	for (i = 0; i < nsubxacts; i++)
	{
		XidNotes   *sub = xid_notes(state, subxacts[i], false);
		ListCell   *lc;

		if (sub == NULL)
			continue;
		if (sub->tally_unlabeled)
			top->tally_unlabeled = true;
		foreach(lc, sub->tally)
			tally(state, top, lfirst_oid(lc));
	}
}

/* once a transaction's end is decoded, its notes are of no more use */
static void
xact_after(DecodingState *state, XLogRecordBuffer *buf)
{
	TransactionId xid;
	bool		prepared;
	TransactionId *subxacts;
	int			nsubxacts;
	int			i;

	if (!xact_ends(buf, &xid, &prepared, &subxacts, &nsubxacts))
		return;
	for (i = 0; i < nsubxacts; i++)
		xid_notes_free(state, subxacts[i]);
	xid_notes_free(state, xid);
}

/* transactions that ended without a record (a crash) */
static void
standby_after(DecodingState *state, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	xl_running_xacts *running;
	HASH_SEQ_STATUS seq;
	XidNotes   *xn;
	TransactionId *gone;
	long		ngone = 0;
	long		i;

	if ((XLogRecGetInfo(r) & ~XLR_INFO_MASK) != XLOG_RUNNING_XACTS)
		return;
	running = (xl_running_xacts *) XLogRecGetData(r);
	gone = palloc(Max(hash_get_num_entries(state->xids), 1) *
				  sizeof(TransactionId));
	hash_seq_init(&seq, state->xids);
	while ((xn = hash_seq_search(&seq)) != NULL)
	{
		if (TransactionIdPrecedes(xn->xid, running->oldestRunningXid))
			gone[ngone++] = xn->xid;
	}
	for (i = 0; i < ngone; i++)
		xid_notes_free(state, gone[i]);
	pfree(gone);
}

/* ---- for rmgr.c ---- */

/*
 * Notes of the record buf before its resource manager decodes it; true if
 * it is labelam's own note, which no plugin sees.
 */
bool
labelheap_decode_before(DecodingState *state, XLogRecordBuffer *buf)
{
	switch (XLogRecGetRmid(buf->record))
	{
		case RM_HEAP_ID:
			note_heap(state, buf);
			break;
		case RM_HEAP2_ID:
			if ((XLogRecGetInfo(buf->record) & XLOG_HEAP_OPMASK) ==
				XLOG_HEAP2_MULTI_INSERT)
				note_multi_insert(state, buf);
			break;
		case RM_LOGICALMSG_ID:
			return note_message(state, buf);
		case RM_XACT_ID:
			xact_before(state, buf);
			break;
	}
	return false;
}

/* notes no longer needed once the record buf has been decoded */
void
labelheap_decode_after(DecodingState *state, XLogRecordBuffer *buf)
{
	switch (XLogRecGetRmid(buf->record))
	{
		case RM_XACT_ID:
			xact_after(state, buf);
			break;
		case RM_STANDBY_ID:
			standby_after(state, buf);
			break;
	}
}
