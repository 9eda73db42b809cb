/*-------------------------------------------------------------------------
 *
 * src/am/replication/label_wal.c
 *	  Writing into the WAL the labels that heap's records do not carry, so
 *	  that logical decoding can decide every change by its labels.
 *
 * A decoded INSERT or UPDATE carries the new version's label in its tuple
 * header (heap logs the header's infomask and t_hoff and the bytes from
 * the null bitmap on, the label included).  What heap does not log:
 *
 *	- the label of the version an UPDATE or DELETE replaces: heap logs at
 *	  most the replica identity's columns, formed into a new tuple without
 *	  the label (with REPLICA IDENTITY FULL the whole old version, but
 *	  flattened, hence re-formed, when it has out-of-line values);
 *	- the labels a TRUNCATE removes: the record names only relations;
 *	- who wrote a logical message.
 *
 * So the write path notes them here, in the writing transaction, just
 * before the heap record they describe: a logical message with prefix
 * LABEL_NOTE_PREFIX (replication_int.h), which redo ignores and decode.c
 * consumes.  Only when the relation is logically logged (wal_level =
 * logical, a permanent user table): otherwise nothing decodes its
 * changes.  The note is transactional: like the change it describes, it
 * belongs to the transaction's xid (taken here if the transaction has
 * none yet), which is how decode.c matches the two.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/catalog.h"
#include "access/xlog.h"
#include "replication/message.h"
#include "utils/rel.h"

#include "am/replication/replication.h"
#include "am/replication/replication_int.h"

void
labelheap_wal_note(const LabelNoteHeader *note, Size size)
{
	/* the note and the change it describes must share an xid */
	(void) GetCurrentTransactionId();
	(void) labelam_LogLogicalMessage(LABEL_NOTE_PREFIX, (const char *) note,
									 size, true);
}

void
labelheap_wal_old_label(Relation rel, ItemPointer tid, Oid secid)
{
	LabelNoteOld note;

	if (!RelationIsLogicallyLogged(rel))
		return;
	MemSet(&note, 0, sizeof(note));
	note.hdr.magic = LABEL_NOTE_MAGIC;
	note.hdr.kind = LABEL_NOTE_OLD;
	note.file = *labelam_rel_file_id(rel);
	note.block = ItemPointerGetBlockNumber(tid);
	note.offset = ItemPointerGetOffsetNumber(tid);
	note.secid = secid;
	labelheap_wal_note(&note.hdr, sizeof(note));
}

void
labelheap_wal_truncate_labels(Relation rel, int nsecids, const Oid *secids)
{
	LabelNoteTruncate *note;
	Size		size;

	if (!RelationIsLogicallyLogged(rel))
		return;
	size = offsetof(LabelNoteTruncate, secids) + nsecids * sizeof(Oid);
	note = palloc0(size);
	note->hdr.magic = LABEL_NOTE_MAGIC;
	note->hdr.kind = LABEL_NOTE_TRUNCATE;
	note->relid = RelationGetRelid(rel);
	note->nsecids = nsecids;
	if (nsecids > 0)
		memcpy(note->secids, secids, nsecids * sizeof(Oid));
	labelheap_wal_note(&note->hdr, size);
	pfree(note);
}
