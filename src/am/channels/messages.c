/*-------------------------------------------------------------------------
 *
 * src/am/channels/messages.c
 *	  Error messages that would print a row the session may not select.
 *
 * Most of PostgreSQL's messages that quote row values quote the row the
 * session is writing, or a row that it read, which labelam filtered
 * already.  One quotes a row found with a non-MVCC snapshot, which labelam
 * does not filter: an exclusion constraint's conflict,
 *
 *	ERROR:  conflicting key value violates exclusion constraint "..."
 *	DETAIL:  Key (c)=(new) conflicts with existing key (c)=(existing).
 *
 * where the existing row may be hidden.  check_exclusion_or_unique_constraint
 * fetches the conflicting row (SnapshotDirty, through labelheap's
 * index_fetch_tuple, which notes here whether the session may select it)
 * and reports it next, so when the error is emitted the last such fetch is
 * the conflicting row: if it was hidden, the detail becomes PostgreSQL's
 * own wording for a key it may not show ("Key conflicts with existing
 * key.", as with row-level security).
 *
 * Other messages that could carry hidden values are made impossible
 * elsewhere: scans that feed user code are strict (frames.c), unique index
 * builds read no row the session may not select (index_build.c), write
 * denials name a label only to a session that may select it (avc).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/elog.h"
#include "utils/memutils.h"

#include "am/channels/channels.h"
#include "am/labelheap_hooks.h"
#include "avc/avc.h"


/* was the last row fetched with SnapshotDirty one the session may not select? */
static bool conflict_row_hidden = false;

void
labelheap_note_conflict_row(Oid secid)
{
	conflict_row_hidden = !avc_tuple_allowed(secid, AVC_DB_TUPLE_SELECT);
}

void
labelheap_messages_emit_log(ErrorData *edata)
{
	if (edata->sqlerrcode == ERRCODE_EXCLUSION_VIOLATION &&
		conflict_row_hidden && edata->detail != NULL)
	{
		/* ErrorContext is where the error's own strings live */
		edata->detail = MemoryContextStrdup(ErrorContext,
											"Key conflicts with existing key.");
		edata->detail_log = NULL;
	}
}
