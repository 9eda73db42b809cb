/*-------------------------------------------------------------------------
 *
 * src/am/replication/output.c
 *	  labelam's filter around an output plugin: what a decoding session
 *	  receives of labelheap tables is what its label may select.
 *
 * decode.c replaces the callbacks of every decoding context's plugin by
 * these (test_decoding, pgoutput or any other: labelheap_output_wrap).  A
 * change of a labelheap table is decided by the labels of its versions
 * (the new one's from its tuple header or decode.c's note, the old one's
 * from decode.c's note), as PostgreSQL's row filters decide by their
 * expression (pgoutput.c, pgoutput_row_filter):
 *
 *	INSERT	sent if the session may select the new version;
 *	DELETE	sent if it may select the old one;
 *	UPDATE	sent as an UPDATE if it may select both, as a DELETE of the old
 *			version if only the old one (a row relabeled out of its reach),
 *			as an INSERT of the new version if only the new one (a row
 *			relabeled into it), and not at all otherwise.
 * A label not known counts as one the session may not select.  An UPDATE
 * that changes the label makes its new version's out-of-line values anew
 * (write.c), so that the INSERT it may become carries every value; the
 * DELETE carries the old version's replica identity, which heap logged or,
 * when the identity did not change (heap then logs none), the new
 * version's identity columns, the same values.  The new version sent
 * carries its label as the value of the table's declared label column
 * (labelam.security_label), which is how labels travel to subscribers;
 * old versions keep what the table stores there (NULL).
 *
 * A TRUNCATE is sent for the labelheap tables whose label set, as the
 * TRUNCATE found it (decode.c's note), holds a label the session may
 * select: it removes rows the session may have received.  A logical
 * message is sent if the session may select its writer's label (decode.c's
 * note, message.c's label; none: decided as unlabeled).
 *
 * A transaction is begun at the plugin only when the first change that
 * passes comes (as pgoutput delays its BEGIN), so that one whose changes
 * all stay hidden sends no BEGIN, COMMIT, PREPARE or gid; a stream block
 * likewise starts with its first change that passes, and the stream of a
 * transaction whose first sent block is not the first one streamed is
 * shown to the plugin as starting there.  COMMIT PREPARED and ROLLBACK
 * PREPARED go where the PREPARE went, decided in this context or, if the
 * PREPARE was decoded before (a restart), by whether the transaction wrote
 * anything the session may see (decode.c's tally).
 *
 * The changes are restored as they were after the plugin returns (or
 * fails): the reorder buffer frees them and counts their size.
 *
 * labelam's own tables (the dictionary, label sets, role labels) are never
 * decoded, for no one: they are this server's bookkeeping, with its secids,
 * and name labels and which tables hold which.
 *
 * This relies on how logical.c sets the output state for BEGIN, how
 * ReorderBufferFinishPrepared decides between replaying and sending COMMIT
 * PREPARED alone, and on pgoutput telling a stream's first segment by
 * RBTXN_IS_STREAMED.  None of that code is copied, but its text is watched
 * as copies' is (a comment "upstream NAME()" marks the code that relies on
 * each):
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/replication/logical/logical.c
 *	  begin_cb_wrapper()	15: ed4f7ea074ce6318, 18: c20411c54fcb1755
 *	src/backend/replication/logical/reorderbuffer.c
 *	  ReorderBufferFinishPrepared() 15: 446d263c3703284b, 18: 69cb696434a2ec19
 *	src/backend/replication/pgoutput/pgoutput.c
 *	  pgoutput_stream_start() 15: 4a606fb08cb65f59, 18: 737fe1ff3c14c19b
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "replication/logical.h"
#include "replication/output_plugin.h"
#include "replication/reorderbuffer.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "am/labelheap.h"
#include "am/tuple_label.h"
#include "am/replication/replication.h"
#include "am/replication/replication_int.h"
#include "avc/avc.h"
#include "label_store/label_store.h"

#if PG_VERSION_NUM >= 170000
typedef HeapTuple ChangeTuple;
#else
typedef ReorderBufferTupleBuf *ChangeTuple;
#endif

bool
labelheap_decoding_selects(Oid secid)
{
	return OidIsValid(secid) && avc_tuple_allowed(secid, AVC_DB_TUPLE_SELECT);
}

static DecodingState *
state_of(LogicalDecodingContext *ctx)
{
	DecodingState *state = labelheap_decoding_state(ctx);

	if (state == NULL)
		elog(ERROR, "labelam: decoding context without its state");
	return state;
}

/*
 * labelam's own tables (the label dictionary, label sets, role labels) are
 * this server's bookkeeping, with this server's secids: never decoded, for
 * no one (their rows name labels and which tables hold which).
 */
static bool
labelam_own(DecodingState *state, Relation relation)
{
	if (!state->labelam_nsp_known)
	{
		state->labelam_nsp = get_namespace_oid("labelam", true);
		state->labelam_nsp_known = true;
	}
	return OidIsValid(state->labelam_nsp) &&
		RelationGetNamespace(relation) == state->labelam_nsp;
}

/* ---- transactions ---- */

static TransactionId
top_xid(ReorderBufferTXN *txn)
{
	return txn->toptxn ? txn->toptxn->xid : txn->xid;
}

static TxnOutput *
txn_output(DecodingState *state, ReorderBufferTXN *txn, bool create)
{
	TransactionId xid = top_xid(txn);
	TxnOutput  *t;
	bool		found;

	t = hash_search(state->txns, &xid, create ? HASH_ENTER : HASH_FIND,
					&found);
	if (t != NULL && !found)
		memset(((char *) t) + sizeof(TransactionId), 0,
			   sizeof(TxnOutput) - sizeof(TransactionId));
	return t;
}

static void
txn_forget(DecodingState *state, ReorderBufferTXN *txn)
{
	TransactionId xid = top_xid(txn);

	(void) hash_search(state->txns, &xid, HASH_REMOVE, NULL);
}

/* nothing sent for a transaction: let the walsender move on anyway */
static void
skipped(LogicalDecodingContext *ctx)
{
	OutputPluginUpdateProgress(ctx, true);
}

/*
 * Before the first thing of a transaction that passes: its deferred BEGIN
 * (or BEGIN PREPARE), or in a stream its deferred stream start.
 */
static void
open_transaction(DecodingState *state, LogicalDecodingContext *ctx,
				 ReorderBufferTXN *txn, bool streaming)
{
	TxnOutput  *t = txn_output(state, txn, true);

	if (streaming)
	{
		ReorderBufferTXN *top = txn->toptxn ? txn->toptxn : txn;
		uint32		flags = top->txn_flags;

		if (t->stream_open)
			return;
		/*
		 * the plugin says "first segment" by RBTXN_IS_STREAMED (relies on
		 * upstream pgoutput_stream_start())
		 */
		if (!t->stream_sent)
			top->txn_flags &= ~RBTXN_IS_STREAMED;
		PG_TRY();
		{
			state->plugin.stream_start_cb(ctx, top);
		}
		PG_FINALLY();
		{
			top->txn_flags = flags;
		}
		PG_END_TRY();
		t->stream_open = true;
		t->stream_sent = true;
		return;
	}
	if (t->begin_sent)
		return;
	if (t->begin_pending)
	{
		XLogRecPtr	location = ctx->write_location;

		/* as upstream begin_cb_wrapper() sets it */
		ctx->write_location = txn->first_lsn;
		if (t->prepared)
			state->plugin.begin_prepare_cb(ctx, txn);
		else
			state->plugin.begin_cb(ctx, txn);
		ctx->write_location = location;
	}
	t->begin_sent = true;
}

static void
w_begin(LogicalDecodingContext *ctx, ReorderBufferTXN *txn)
{
	TxnOutput  *t = txn_output(state_of(ctx), txn, true);
	t->begin_pending = true;
	t->begin_sent = false;
	t->prepared = false;
}

static void
w_commit(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
		 XLogRecPtr commit_lsn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, false);

	if (t != NULL && t->begin_sent)
		state->plugin.commit_cb(ctx, txn, commit_lsn);
	else
		skipped(ctx);
	txn_forget(state, txn);
}

static void
w_begin_prepare(LogicalDecodingContext *ctx, ReorderBufferTXN *txn)
{
	TxnOutput  *t = txn_output(state_of(ctx), txn, true);

	t->begin_pending = true;
	t->begin_sent = false;
	t->prepared = true;
}

static void
w_prepare(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
		  XLogRecPtr prepare_lsn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, true);

	t->prepare_seen = true;
	if (t->begin_sent)
	{
		state->plugin.prepare_cb(ctx, txn, prepare_lsn);
		t->prepare_sent = true;
	}
	else
		skipped(ctx);
}

/*
 * Where did this transaction's PREPARE go?  Decided here, or (decoded
 * before this context started) by what it wrote.
 */
/*
 * Did the transaction write anything the session may see?  Changes with no
 * label (tables of other access methods, catalogs) count as visible.
 * Called within a transaction (labels are looked up).
 */
static bool
xid_may_show(DecodingState *state, TransactionId xid)
{
	bool		unlabeled;
	List	   *tally = labelheap_xid_tally(state, xid, &unlabeled);
	ListCell   *lc;

	if (unlabeled)
		return true;
	foreach(lc, tally)
	{
		if (labelheap_decoding_selects(lfirst_oid(lc)))
			return true;
	}
	return false;
}

/*
 * Was the PREPARE of txn sent?  Relies on how
 * upstream ReorderBufferFinishPrepared() sends COMMIT PREPARED alone when
 * the PREPARE was decoded before: this context may not have decided it.
 */
static bool
prepare_was_sent(DecodingState *state, ReorderBufferTXN *txn)
{
	TxnOutput  *t = txn_output(state, txn, false);
	bool		result;

	if (t != NULL && t->prepare_seen)
		return t->prepare_sent;

	/* labels are looked up in the dictionary: that needs a transaction */
	if (IsTransactionOrTransactionBlock())
		return xid_may_show(state, txn->xid);
	StartTransactionCommand();
	PG_TRY();
	{
		result = xid_may_show(state, txn->xid);
	}
	PG_FINALLY();
	{
		AbortCurrentTransaction();
	}
	PG_END_TRY();
	return result;
}

static void
w_commit_prepared(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				  XLogRecPtr commit_lsn)
{
	DecodingState *state = state_of(ctx);

	if (prepare_was_sent(state, txn))
		state->plugin.commit_prepared_cb(ctx, txn, commit_lsn);
	else
		skipped(ctx);
	txn_forget(state, txn);
}

static void
w_rollback_prepared(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
					XLogRecPtr prepare_end_lsn, TimestampTz prepare_time)
{
	DecodingState *state = state_of(ctx);

	if (prepare_was_sent(state, txn))
		state->plugin.rollback_prepared_cb(ctx, txn, prepare_end_lsn,
										   prepare_time);
	else
		skipped(ctx);
	txn_forget(state, txn);
}

/* ---- streams ---- */

static void
w_stream_start(LogicalDecodingContext *ctx, ReorderBufferTXN *txn)
{
	TxnOutput  *t = txn_output(state_of(ctx), txn, true);

	t->stream_pending = true;
	t->stream_open = false;
}

static void
w_stream_stop(LogicalDecodingContext *ctx, ReorderBufferTXN *txn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, true);

	if (t->stream_open)
		state->plugin.stream_stop_cb(ctx, txn);
	t->stream_open = false;
	t->stream_pending = false;
}

static void
w_stream_abort(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
			   XLogRecPtr abort_lsn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, false);

	if (t != NULL && t->stream_sent)
		state->plugin.stream_abort_cb(ctx, txn, abort_lsn);
	else
		skipped(ctx);
	if (txn->toptxn == NULL)
		txn_forget(state, txn);
}

static void
w_stream_prepare(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				 XLogRecPtr prepare_lsn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, true);

	t->prepare_seen = true;
	if (t->stream_sent)
	{
		state->plugin.stream_prepare_cb(ctx, txn, prepare_lsn);
		t->prepare_sent = true;
	}
	else
		skipped(ctx);
}

static void
w_stream_commit(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				XLogRecPtr commit_lsn)
{
	DecodingState *state = state_of(ctx);
	TxnOutput  *t = txn_output(state, txn, false);

	if (t != NULL && t->stream_sent)
		state->plugin.stream_commit_cb(ctx, txn, commit_lsn);
	else
		skipped(ctx);
	txn_forget(state, txn);
}

/* ---- changes ---- */

/*
 * The label of a change's new version: its header's, or, once TOAST
 * reassembly has re-formed it without one, the record's note.
 */
static Oid
new_version_secid(HeapTuple tuple, RecordNote *note)
{
	Oid			secid = InvalidOid;

	if (tuple != NULL)
		secid = labelheap_header_secid(tuple->t_data, tuple->t_len);
	if (!OidIsValid(secid) && note != NULL && note->next < note->ntuples)
		secid = note->new_secids[note->next];
	return secid;
}

static ChangeTuple
change_tuple_of(HeapTuple tuple)
{
#if PG_VERSION_NUM >= 170000
	return tuple;
#else
	ReorderBufferTupleBuf *buf = palloc0(sizeof(ReorderBufferTupleBuf));

	buf->tuple = *tuple;
	buf->alloc_tuple_size = tuple->t_len;
	return buf;
#endif
}

/* the new version with its label as the value of the label column */
static HeapTuple
with_label_column(Relation relation, HeapTuple tuple, Oid secid)
{
	AttrNumber	attnum = labelheap_label_column_attnum(relation);
	TupleDesc	desc = RelationGetDescr(relation);
	Datum	   *values;
	bool	   *nulls;
	char	   *label;
	HeapTuple	result;

	if (attnum <= 0)
		return tuple;
	label = label_text(secid);
	if (label == NULL)
		elog(ERROR, "labelam: security label %u is not in the dictionary",
			 secid);
	values = palloc(desc->natts * sizeof(Datum));
	nulls = palloc(desc->natts * sizeof(bool));
	heap_deform_tuple(tuple, desc, values, nulls);
	values[attnum - 1] = CStringGetTextDatum(label);
	nulls[attnum - 1] = false;
	result = heap_form_tuple(desc, values, nulls);
	result->t_self = tuple->t_self;
	result->t_tableOid = tuple->t_tableOid;
	return result;
}

/*
 * The replica identity of a row whose identity an UPDATE left as it was
 * (heap logged no old key): the new version's identity columns, the rest
 * NULL.  NULL if the table has no identity key.
 */
static HeapTuple
identity_of(Relation relation, HeapTuple tuple)
{
	Bitmapset  *key = RelationGetIdentityKeyBitmap(relation);
	TupleDesc	desc = RelationGetDescr(relation);
	Datum	   *values;
	bool	   *nulls;
	int			i;

	if (key == NULL)
		return NULL;
	values = palloc(desc->natts * sizeof(Datum));
	nulls = palloc(desc->natts * sizeof(bool));
	heap_deform_tuple(tuple, desc, values, nulls);
	for (i = 0; i < desc->natts; i++)
	{
		if (!bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, key))
			nulls[i] = true;
	}
	return heap_form_tuple(desc, values, nulls);
}

static void
pass_change(DecodingState *state, LogicalDecodingContext *ctx,
			ReorderBufferTXN *txn, Relation relation,
			ReorderBufferChange *change, bool streaming)
{
	open_transaction(state, ctx, txn, streaming);
	if (streaming)
		state->plugin.stream_change_cb(ctx, txn, relation, change);
	else
		state->plugin.change_cb(ctx, txn, relation, change);
}

static void
filter_change(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
			  Relation relation, ReorderBufferChange *change, bool streaming)
{
	DecodingState *state = state_of(ctx);
	RecordNote *note;
	HeapTuple	newtup;
	HeapTuple	oldtup;
	Oid			newsecid = InvalidOid;
	Oid			oldsecid = InvalidOid;
	bool		show_new;
	bool		show_old;
	ReorderBufferChangeType action = change->action;
	ReorderBufferChangeType saved_action = change->action;
	ChangeTuple saved_new = change->data.tp.newtuple;
	ChangeTuple saved_old = change->data.tp.oldtuple;
	HeapTuple	send_new = NULL;
	HeapTuple	send_old = NULL;
	MemoryContext old_cxt;
	MemoryContext tmp_cxt;

	if (labelam_own(state, relation))
	{
		/* a note (a TOAST chunk's label, say) is of no use */
		note = labelheap_record_note(state, change->lsn);
		if (note != NULL)
			labelheap_record_note_used(state, note);
		return;
	}
	if (!is_labelheap_relation(relation))
	{
		pass_change(state, ctx, txn, relation, change, streaming);
		return;
	}

	newtup = labelam_change_tuple(change->data.tp.newtuple);
	oldtup = labelam_change_tuple(change->data.tp.oldtuple);
	note = labelheap_record_note(state, change->lsn);
	if (action == REORDER_BUFFER_CHANGE_INSERT ||
		action == REORDER_BUFFER_CHANGE_UPDATE)
		newsecid = new_version_secid(newtup, note);
	if (action == REORDER_BUFFER_CHANGE_UPDATE ||
		action == REORDER_BUFFER_CHANGE_DELETE)
	{
		if (note != NULL)
			oldsecid = note->old_secid;
		/* REPLICA IDENTITY FULL logs the old version, label and all */
		if (!OidIsValid(oldsecid) && oldtup != NULL)
			oldsecid = labelheap_header_secid(oldtup->t_data, oldtup->t_len);
	}
	if (note != NULL)
		labelheap_record_note_used(state, note);

	show_new = labelheap_decoding_selects(newsecid);
	show_old = labelheap_decoding_selects(oldsecid);

	tmp_cxt = AllocSetContextCreate(CurrentMemoryContext,
									"labelam change", ALLOCSET_SMALL_SIZES);
	old_cxt = MemoryContextSwitchTo(tmp_cxt);
	switch (action)
	{
		case REORDER_BUFFER_CHANGE_INSERT:
			if (show_new)
				send_new = with_label_column(relation, newtup, newsecid);
			break;
		case REORDER_BUFFER_CHANGE_DELETE:
			if (show_old)
				send_old = oldtup;
			break;
		case REORDER_BUFFER_CHANGE_UPDATE:
			if (show_new)
				send_new = with_label_column(relation, newtup, newsecid);
			if (show_new && show_old)
				send_old = oldtup;
			else if (show_new)
				action = REORDER_BUFFER_CHANGE_INSERT;
			else if (show_old)
			{
				action = REORDER_BUFFER_CHANGE_DELETE;
				send_old = oldtup ? oldtup : identity_of(relation, newtup);
			}
			break;
		default:
			break;
	}
	MemoryContextSwitchTo(old_cxt);

	if (send_new != NULL ||
		(action == REORDER_BUFFER_CHANGE_DELETE && show_old))
	{
		PG_TRY();
		{
			old_cxt = MemoryContextSwitchTo(tmp_cxt);
			change->data.tp.newtuple = send_new ? change_tuple_of(send_new) : NULL;
			change->data.tp.oldtuple = send_old ? change_tuple_of(send_old) : NULL;
			MemoryContextSwitchTo(old_cxt);
			change->action = action;
			pass_change(state, ctx, txn, relation, change, streaming);
		}
		PG_FINALLY();
		{
			change->action = saved_action;
			change->data.tp.newtuple = saved_new;
			change->data.tp.oldtuple = saved_old;
		}
		PG_END_TRY();
	}
	MemoryContextDelete(tmp_cxt);
}

static void
w_change(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
		 Relation relation, ReorderBufferChange *change)
{
	filter_change(ctx, txn, relation, change, false);
}

static void
w_stream_change(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				Relation relation, ReorderBufferChange *change)
{
	filter_change(ctx, txn, relation, change, true);
}

/* ---- truncations ---- */

/* may the session select a label of relid's set as the TRUNCATE found it? */
static bool
truncation_shows(RecordNote *note, Oid relid)
{
	int			i;
	int			j;

	if (note == NULL)
		return false;
	for (i = 0; i < note->nrels; i++)
	{
		if (note->relids[i] != relid)
			continue;
		for (j = 0; j < note->nsecids[i]; j++)
		{
			if (labelheap_decoding_selects(note->secids[i][j]))
				return true;
		}
		return false;
	}
	return false;
}

static void
filter_truncate(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				int nrelations, Relation relations[],
				ReorderBufferChange *change, bool streaming)
{
	DecodingState *state = state_of(ctx);
	RecordNote *note = labelheap_record_note(state, change->lsn);
	Relation   *shown = palloc(Max(nrelations, 1) * sizeof(Relation));
	int			nshown = 0;
	int			i;

	for (i = 0; i < nrelations; i++)
	{
		if (labelam_own(state, relations[i]))
			continue;
		if (!is_labelheap_relation(relations[i]) ||
			truncation_shows(note, RelationGetRelid(relations[i])))
			shown[nshown++] = relations[i];
	}
	if (note != NULL)
		labelheap_record_note_used(state, note);
	if (nshown > 0)
	{
		open_transaction(state, ctx, txn, streaming);
		if (streaming)
			state->plugin.stream_truncate_cb(ctx, txn, nshown, shown, change);
		else
			state->plugin.truncate_cb(ctx, txn, nshown, shown, change);
	}
	pfree(shown);
}

static void
w_truncate(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
		   int nrelations, Relation relations[], ReorderBufferChange *change)
{
	filter_truncate(ctx, txn, nrelations, relations, change, false);
}

static void
w_stream_truncate(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				  int nrelations, Relation relations[],
				  ReorderBufferChange *change)
{
	filter_truncate(ctx, txn, nrelations, relations, change, true);
}

/* ---- messages ---- */

/*
 * Sent if the session may select the label its writer noted (the label a
 * row it writes gets: message.c).  Non-transactional messages come outside
 * any transaction: the decision is made on the label's text.
 */
static bool
message_shows(DecodingState *state, XLogRecPtr lsn)
{
	RecordNote *note = labelheap_record_note(state, lsn);
	bool		result;

	/* "": decided as the policy's unlabeled label */
	result = avc_tuple_label_allowed(note && note->writer ? note->writer : "",
									 AVC_DB_TUPLE_SELECT);
	if (note != NULL)
		labelheap_record_note_used(state, note);
	return result;
}

static void
w_message(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
		  XLogRecPtr message_lsn, bool transactional, const char *prefix,
		  Size message_size, const char *message)
{
	DecodingState *state = state_of(ctx);

	if (!message_shows(state, message_lsn))
		return;
	if (transactional)
		open_transaction(state, ctx, txn, false);
	state->plugin.message_cb(ctx, txn, message_lsn, transactional, prefix,
							 message_size, message);
}

static void
w_stream_message(LogicalDecodingContext *ctx, ReorderBufferTXN *txn,
				 XLogRecPtr message_lsn, bool transactional,
				 const char *prefix, Size message_size, const char *message)
{
	DecodingState *state = state_of(ctx);

	if (!message_shows(state, message_lsn))
		return;
	if (transactional)
		open_transaction(state, ctx, txn, true);
	state->plugin.stream_message_cb(ctx, txn, message_lsn, transactional,
									prefix, message_size, message);
}

/* ---- the wrapping ---- */

/*
 * Put these callbacks in place of the plugin's, where it has one: which of
 * them exist says, to logical.c, whether the plugin streams and decodes
 * two-phase transactions.
 */
#define WRAP(field, fn) \
	do { \
		if (cb->field != NULL) \
			cb->field = fn; \
	} while (0)

void
labelheap_output_wrap(DecodingState *state)
{
	OutputPluginCallbacks *cb = &state->ctx->callbacks;

	state->plugin = *cb;
	WRAP(begin_cb, w_begin);
	WRAP(change_cb, w_change);
	WRAP(truncate_cb, w_truncate);
	WRAP(commit_cb, w_commit);
	WRAP(message_cb, w_message);
	WRAP(begin_prepare_cb, w_begin_prepare);
	WRAP(prepare_cb, w_prepare);
	WRAP(commit_prepared_cb, w_commit_prepared);
	WRAP(rollback_prepared_cb, w_rollback_prepared);
	WRAP(stream_start_cb, w_stream_start);
	WRAP(stream_stop_cb, w_stream_stop);
	WRAP(stream_abort_cb, w_stream_abort);
	WRAP(stream_prepare_cb, w_stream_prepare);
	WRAP(stream_commit_cb, w_stream_commit);
	WRAP(stream_change_cb, w_stream_change);
	WRAP(stream_message_cb, w_stream_message);
	WRAP(stream_truncate_cb, w_stream_truncate);
}
