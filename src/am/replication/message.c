/*-------------------------------------------------------------------------
 *
 * src/am/replication/message.c
 *	  Logical messages (pg_logical_emit_message) carry their writer's
 *	  label to logical decoding.
 *
 * A logical message is data its writer chose, decoded for whoever reads
 * the slot: a session at s3 could otherwise write down to a subscriber at
 * s0 with it.  So a message is labeled like a row its writer creates
 * (avc_create_label_text: the label of its rows in a table labeled as the
 * policy labels a new one, avc_message_table_label), noted in the WAL just before the message, in
 * its transaction (label_wal.c), and output.c sends it only to sessions
 * that may select that label.  A message without a note (written by C
 * code, or in a database without labelam) is decided as unlabeled.
 *
 * pg_logical_emit_message is a built-in, which fmgr calls without asking
 * any hook, and the note must be written at each call, with the label the
 * session has then: its calls are rewritten into calls of a checked twin
 * (objects/functions.c's mechanism, rewritten whether object checks are on
 * or not), which calls labelheap_message_before_write and then the
 * built-in.  Reached without its twin (an expression that is not planned
 * as a query, such as a column default of COPY FROM) in a database with
 * labelam, it is refused here.  The prefix of labelam's own notes is
 * refused to everyone: decode.c consumes such messages as notes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xlog.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "am/replication/replication.h"
#include "am/replication/replication_int.h"
#include "avc/avc.h"

void
labelheap_message_before_write(const char *prefix)
{
	char	   *table_label;
	char	   *label;
	LabelNoteWriter *note;
	Size		size;

	if (strcmp(prefix, LABEL_NOTE_PREFIX) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_RESERVED_NAME),
				 errmsg("logical message prefix \"%s\" is reserved for labelam",
						prefix)));
	/* nothing decodes messages written below wal_level logical */
	if (!XLogLogicalInfoActive())
		return;

	table_label = avc_message_table_label();
	label = avc_create_label_text(table_label);
	pfree(table_label);
	size = offsetof(LabelNoteWriter, label) + strlen(label) + 1;
	note = palloc0(size);
	note->hdr.magic = LABEL_NOTE_MAGIC;
	note->hdr.kind = LABEL_NOTE_WRITER;
	strcpy(note->label, label);
	labelheap_wal_note(&note->hdr, size);
	pfree(note);
	pfree(label);
}

/* the built-in, or a superuser's own LANGUAGE internal declaration of it */
static bool
is_emit_message(Oid funcid)
{
	HeapTuple	tuple;
	bool		result = false;

	if (funcid == LABELAM_F_EMIT_MESSAGE_TEXT ||
		funcid == LABELAM_F_EMIT_MESSAGE_BYTEA)
		return true;
	if (funcid < FirstNormalObjectId)
		return false;
	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return false;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == INTERNALlanguageId)
	{
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc,
										  &isnull);

		if (!isnull)
		{
			char	   *prosrc = TextDatumGetCString(src);

			result = strncmp(prosrc, "pg_logical_emit_message", 23) == 0;
			pfree(prosrc);
		}
	}
	ReleaseSysCache(tuple);
	return result;
}

void
labelheap_message_object_access(ObjectAccessType access, Oid classId,
								Oid objectId)
{
	if (access != OAT_FUNCTION_EXECUTE || classId != ProcedureRelationId ||
		!is_emit_message(objectId) ||
		!OidIsValid(get_extension_oid("labelam", true)))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("%s() cannot be called here while labelam is loaded",
					get_func_name(objectId)),
			 errdetail("labelam labels logical messages with their writer's label where they are called in queries; this expression is not planned as a query."),
			 errhint("Call it in an SQL query.")));
}
