/*-------------------------------------------------------------------------
 *
 * src/shared_state/notify.c
 *	  Notifications carry their sender's write label and reach only the
 *	  listeners whose label may read it.
 *
 * A trigger that calls pg_notify('x', NEW.body), planted by a low author
 * and fired by a high session's INSERT, would otherwise deliver the high
 * row to every low session listening on "x".  PostgreSQL has no hook
 * between the notification queue and the listener: async.c queues
 * (channel, payload, sender pid, xid) in shared memory at commit, and each
 * listener copies the entries of its channels into NotificationResponse
 * messages (NotifyMyFrontEnd), in both 15 and 18.  The label must
 * therefore travel inside the entry, and the one field that can hold it is
 * the payload:
 *
 *	- sending: every way into Async_Notify is labeled: the NOTIFY statement
 *	  (ProcessUtility: direct, in functions, in rule actions) gets a payload
 *	  of "\x1f<write label>\x1f<payload>"; calls of pg_notify() are
 *	  rewritten, when a query is planned, into calls of its checked twin
 *	  labelam.checked_pg_notify (objects/functions.c's mechanism), which
 *	  labels the payload likewise; pg_notify reached without its twin (the
 *	  fast-path interface, expressions that are never planned, a database
 *	  without the extension) is refused (twins.c); and contrib/tcn's
 *	  trigger, which calls Async_Notify from C, is refused (needs_fmgr_hook).
 *	- delivering: src/hooks.c wraps the backend's protocol output
 *	  (PqCommMethods), so every NotificationResponse passes
 *	  shared_state_notification_out before it is sent: a labeled one goes
 *	  out with the label removed if the listener may read it (the session's
 *	  current label: notifications are delivered between statements), and
 *	  is dropped otherwise; an unlabeled one (some other C code calling
 *	  Async_Notify) is dropped.  A label cannot be forged: the sender's
 *	  own prefix comes first, and only the first is read.
 *
 * A trusted session (avc/trusted.c) sends no notifications at all, its
 * own statements included: it reads rows of every level and runs code
 * other users wrote (triggers, defaults, index expressions).  Its write
 * label is its narrowed one, its clearance, so a labeled notification
 * would reach only listeners at the top; but a maintenance session has
 * nothing to notify, and refusing (42501) fails closed whatever its
 * subject is at the moment (widened for a maintenance command's own
 * checks, a trusted procedure's).  LISTEN is a read and stays allowed.
 * The refusal is made where every notification is labeled, so no path
 * that labels one escapes it, and a path that cannot label one is refused
 * anyway.
 *
 * The channel name travels with the payload and is dropped with it.  The
 * label takes room in the payload: a payload may be that many bytes (plus
 * two) shorter than PostgreSQL's limit.  Single-user mode, which writes
 * notifications to the server log, is outside (storage-level trust).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/async.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "avc/avc.h"
#include "objects/objects.h"
#include "shared_state/shared_state.h"

/* the marks around the label at the head of a payload */
#define LABEL_MARK	'\x1f'

/* async.c's NOTIFY_PAYLOAD_MAX_LENGTH (15 and 18), which it keeps private */
#define PAYLOAD_MAX_LENGTH	(BLCKSZ - NAMEDATALEN - 128)

/*
 * payload (may be NULL) with the current subject's write label in front;
 * refused in a trusted session (see above)
 */
static char *
labeled_payload(const char *payload)
{
	char	   *label;
	size_t		len = payload ? strlen(payload) : 0;
	char	   *result;

	if (avc_session_trusted())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("a trusted session may not send notifications"),
				 errdetail("Session label \"%s\" reads rows of several levels; a notification would carry what it read to listeners below its clearance.",
						   avc_session_label_text()),
				 errhint("Send notifications from a session with an ordinary label.")));
	label = shared_state_compute_write_label();
	if (label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot send a notification without a security label"),
				 errdetail("Notifications carry the label of their sender's rows, and this session has none (no label of its own, or no default table label in the policy)."),
				 errhint("Give the session a label (under provider lbac: an authorization, lbac.set_levels()); under SELinux the policy must give tables a default label, or set labelam.default_table_label.")));
	/* PostgreSQL's own message for a payload too long in itself */
	if (len < PAYLOAD_MAX_LENGTH &&
		len + strlen(label) + 2 >= PAYLOAD_MAX_LENGTH)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("payload string too long"),
				 errdetail("labelam stores the sender's security label (%zu bytes) in each notification's payload; the payload may have at most %zu bytes.",
						   strlen(label),
						   (size_t) PAYLOAD_MAX_LENGTH - strlen(label) - 3)));
	result = psprintf("%c%s%c%s", LABEL_MARK, label, LABEL_MARK,
					  payload ? payload : "");
	pfree(label);
	return result;
}

/* ProcessUtility: a NOTIFY statement sends a labeled payload */
PlannedStmt *
shared_state_notify_utility(PlannedStmt *pstmt, bool *readOnlyTree)
{
	NotifyStmt *stmt;
	NotifyStmt *labeled;

	if (!IsA(pstmt->utilityStmt, NotifyStmt))
		return pstmt;
	stmt = (NotifyStmt *) pstmt->utilityStmt;
	labeled = makeNode(NotifyStmt);
	labeled->conditionname = stmt->conditionname;
	labeled->payload = labeled_payload(stmt->payload);
	pstmt = copyObject(pstmt);
	pstmt->utilityStmt = (Node *) labeled;
	*readOnlyTree = false;
	return pstmt;
}

/*
 * labelam.checked_pg_notify(channel, payload), pg_notify's checked twin:
 * the same arguments and errors, with the payload labeled.
 */
PG_FUNCTION_INFO_V1(labelam_pg_notify);
Datum
labelam_pg_notify(PG_FUNCTION_ARGS)
{
	text	   *channel;
	char	   *payload = NULL;

	objects_twin_enter(fcinfo, F_PG_NOTIFY);
	channel = PG_ARGISNULL(0) ? cstring_to_text("") : PG_GETARG_TEXT_PP(0);
	if (!PG_ARGISNULL(1))
		payload = text_to_cstring(PG_GETARG_TEXT_PP(1));
	return DirectFunctionCall2(pg_notify, PointerGetDatum(channel),
							   CStringGetTextDatum(labeled_payload(payload)));
}

/*
 * The body of a NotificationResponse (int32 sender pid, channel, payload)
 * as the listener may see it: true with *out filled (the payload without
 * its label), false to drop it.  Called for every such message the
 * backend sends.
 */
bool
shared_state_notification_out(const char *msg, size_t len, StringInfo out)
{
	const char *channel = msg + 4;
	const char *end = msg + len;
	const char *payload;
	const char *label;
	const char *label_end;
	char	   *write_label;
	bool		allowed;

	if (len < 4)
		return false;
	payload = memchr(channel, '\0', end - channel);
	if (payload == NULL)
		return false;
	payload++;
	if (payload >= end || memchr(payload, '\0', end - payload) == NULL)
		return false;

	/* unlabeled: not sent through labelam; no one may read it */
	if (*payload != LABEL_MARK)
		return false;
	label = payload + 1;
	label_end = strchr(label, LABEL_MARK);
	if (label_end == NULL)
		return false;

	write_label = pnstrdup(label, label_end - label);
	allowed = shared_state_may_read(write_label);
	pfree(write_label);
	if (!allowed)
		return false;

	initStringInfo(out);
	appendBinaryStringInfo(out, msg, payload - msg);
	appendBinaryStringInfo(out, label_end + 1, end - (label_end + 1));
	return true;
}

/*
 * contrib/tcn's trigger calls Async_Notify itself, so its notifications
 * could not be labeled: it is refused (when it is called, shared_state_fmgr)
 * rather than let through unlabeled and dropped.  Known by its library.
 */
bool
shared_state_needs_fmgr(Oid functionId)
{
	HeapTuple	tuple;
	Datum		probin;
	bool		isnull;
	bool		result = false;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(functionId));
	if (!HeapTupleIsValid(tuple))
		return false;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == ClanguageId)
	{
		probin = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_probin, &isnull);
		if (!isnull)
		{
			char	   *lib = TextDatumGetCString(probin);

			result = strcmp(lib, "$libdir/tcn") == 0;
			pfree(lib);
		}
	}
	ReleaseSysCache(tuple);
	return result;
}

void
shared_state_fmgr(FmgrHookEventType event, FmgrInfo *flinfo)
{
	if (event != FHET_START || !shared_state_needs_fmgr(flinfo->fn_oid))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s() sends notifications that labelam cannot label",
					get_func_name(flinfo->fn_oid)),
			 errdetail("Every notification carries its sender's security label, so that only listeners that may read it receive it; this function queues notifications itself."),
			 errhint("Call pg_notify() from a PL/pgSQL trigger instead.")));
}
