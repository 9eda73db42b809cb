/*-------------------------------------------------------------------------
 *
 * src/am/replication/replication_int.h
 *	  What the files of src/am/replication share: the label notes that
 *	  label_wal.c writes into the WAL and decode.c reads back, and the
 *	  state decode.c keeps for each decoding context, which output.c
 *	  consults.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_REPLICATION_INT_H
#define LABELHEAP_REPLICATION_INT_H

#include "lib/ilist.h"
#include "replication/decode.h"
#include "replication/logical.h"
#include "replication/output_plugin.h"
#include "storage/block.h"
#include "storage/off.h"
#include "utils/hsearch.h"

#include "pg_compat.h"

/*
 * Label notes: logical messages (RM_LOGICALMSG_ID records, which redo
 * ignores) with this prefix, written in the transaction whose change they
 * describe, before its heap record.  decode.c consumes them; no output
 * plugin ever sees one.  Only labelam writes them: pg_logical_emit_message
 * with this prefix is refused (message.c).  The payload is a struct of
 * this server's own layout (WAL is never read by another build).
 */
#define LABEL_NOTE_PREFIX	"labelam.label"
#define LABEL_NOTE_MAGIC	0x4C424C4E	/* "LBLN" */

typedef enum LabelNoteKind
{
	LABEL_NOTE_OLD = 'o',		/* label of the version an UPDATE or DELETE
								 * replaces */
	LABEL_NOTE_TRUNCATE = 't',	/* label set of a truncated relation */
	LABEL_NOTE_WRITER = 'm'		/* label of the session that writes the
								 * logical messages that follow */
} LabelNoteKind;

typedef struct LabelNoteHeader
{
	uint32		magic;
	char		kind;
} LabelNoteHeader;

typedef struct LabelNoteOld
{
	LabelNoteHeader hdr;
	LabelamRelFileId file;
	BlockNumber block;
	OffsetNumber offset;
	Oid			secid;
} LabelNoteOld;

typedef struct LabelNoteTruncate
{
	LabelNoteHeader hdr;
	Oid			relid;
	int32		nsecids;
	Oid			secids[FLEXIBLE_ARRAY_MEMBER];
} LabelNoteTruncate;

typedef struct LabelNoteWriter
{
	LabelNoteHeader hdr;
	char		label[FLEXIBLE_ARRAY_MEMBER];	/* NUL-terminated */
} LabelNoteWriter;

/* label_wal.c: writes one note (the caller checked that one is needed) */
extern void labelheap_wal_note(const LabelNoteHeader *note, Size size);

/*
 * What decode.c learned about one WAL record, for the change (or changes:
 * a multi-insert record has one a tuple) that record became; keyed by the
 * record's start LSN (a logical message's: its end LSN, as
 * ReorderBufferQueueMessage keys it).
 */
typedef struct RecordNote
{
	XLogRecPtr	lsn;			/* hash key */
	TransactionId xid;			/* the record's */
	Oid			old_secid;		/* UPDATE, DELETE: the replaced version's
								 * label; InvalidOid if not known */
	int			ntuples;		/* INSERT, UPDATE, MULTI_INSERT: new_secids */
	int			next;			/* the next tuple a change takes */
	Oid		   *new_secids;		/* labels in the record's tuple headers */
	char	   *writer;			/* a message's writer, label text */
	int			nrels;			/* TRUNCATE: each relation's label set */
	Oid		   *relids;
	int		   *nsecids;
	Oid		  **secids;
	dlist_node	xid_node;		/* in its XidNotes' records */
} RecordNote;

/* the output side's state of one top-level transaction */
typedef struct TxnOutput
{
	TransactionId xid;			/* hash key */
	bool		begin_pending;	/* begin (or begin prepare) deferred */
	bool		begin_sent;
	bool		prepared;		/* a transaction being prepared */
	bool		stream_pending; /* a stream block deferred */
	bool		stream_open;	/* stream_start sent, stream_stop not yet */
	bool		stream_sent;	/* some stream block was sent */
	bool		prepare_seen;	/* its PREPARE was decoded here */
	bool		prepare_sent;	/* ... and sent */
} TxnOutput;

/* one decoding context's state, in its own memory context */
typedef struct DecodingState
{
	LogicalDecodingContext *ctx;
	OutputPluginCallbacks plugin;	/* the plugin's own callbacks */
	MemoryContext cxt;
	HTAB	   *records;		/* RecordNote by LSN */
	HTAB	   *xids;			/* XidNotes by xid (decode.c's) */
	HTAB	   *txns;			/* TxnOutput by top-level xid */
	Oid			labelam_nsp;	/* schema labelam (output.c) */
	bool		labelam_nsp_known;
	struct DecodingState *next;
} DecodingState;

/*
 * decode.c: a context's state, the notes of each record (rmgr.c, before and
 * after its resource manager decodes it), and what output.c takes of them
 */
extern DecodingState *labelheap_decoding_state(LogicalDecodingContext *ctx);
extern DecodingState *labelheap_decoding_state_new(LogicalDecodingContext *ctx);
extern bool labelheap_decode_before(DecodingState *state,
									XLogRecordBuffer *buf);
extern void labelheap_decode_after(DecodingState *state,
								   XLogRecordBuffer *buf);
extern RecordNote *labelheap_record_note(DecodingState *state, XLogRecPtr lsn);
extern void labelheap_record_note_used(DecodingState *state, RecordNote *note);
extern List *labelheap_xid_tally(DecodingState *state, TransactionId xid,
								 bool *unlabeled);

/* output.c, for rmgr.c: wrap the plugin's callbacks of a new context */
extern void labelheap_output_wrap(DecodingState *state);

/*
 * May the decoding session select rows labeled secid?  InvalidOid (a label
 * not known) never.
 */
extern bool labelheap_decoding_selects(Oid secid);

#endif							/* LABELHEAP_REPLICATION_INT_H */
