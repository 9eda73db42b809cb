/*-------------------------------------------------------------------------
 *
 * src/am/channels/notify.c
 *	  A trusted session sends no notifications (NOTIFY, pg_notify()).
 *
 * A notification's channel and payload reach every session listening on
 * the channel, whatever its label: no policy decides them.  A trusted
 * session (avc/trusted.c, labelam's policy module) reads rows of every
 * level, and so may code it runs for other users (a trigger, a default, an
 * index expression); a NOTIFY in that code would hand a row it read, or a
 * value the client wrote, to a listener of any level.  Rows that code
 * writes are held to the session's clearance; notifications cannot be, so
 * they are refused (42501) in a trusted session, its own statements
 * included: a maintenance session has nothing to notify.  LISTEN is a
 * read and stays allowed.
 *
 * NOTIFY is a utility command, seen by ProcessUtility at any depth;
 * pg_notify() is a built-in that fmgr calls without needs_fmgr_hook, but
 * every call is set up through object_access_hook's OAT_FUNCTION_EXECUTE
 * (ExecInitFunc, also for plpgsql's simple expressions, and fastpath.c for
 * the protocol's function call), before it runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "nodes/parsenodes.h"
#include "utils/fmgroids.h"

#include "am/channels/notify.h"
#include "avc/avc.h"

static void
refuse_notify(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("a trusted session may not send notifications"),
			 errdetail("Session label \"%s\" reads rows of several levels; a notification would reach listeners of any level.",
					   avc_session_label_text()),
			 errhint("Send notifications from a session with an ordinary label.")));
}

void
labelheap_notify_utility(PlannedStmt *pstmt)
{
	if (IsA(pstmt->utilityStmt, NotifyStmt) && avc_session_trusted())
		refuse_notify();
}

void
labelheap_notify_object_access(ObjectAccessType access, Oid classId,
							   Oid objectId)
{
	if (access == OAT_FUNCTION_EXECUTE && classId == ProcedureRelationId &&
		objectId == F_PG_NOTIFY && avc_session_trusted())
		refuse_notify();
}
