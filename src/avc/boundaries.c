/*-------------------------------------------------------------------------
 *
 * src/avc/boundaries.c
 *	  What the policy subsystem does at the server's boundaries, called by
 *	  src/hooks.c: authentication (the client's peer label), statement
 *	  boundaries (policy reload check, audit flush), transaction end, and
 *	  how deep the session is in CALL and DO (set_client_label's one-way
 *	  changes are refused there).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/executor.h"
#include "libpq/auth.h"

#include "avc/avc_internal.h"

/*
 * Depth of executor and utility calls, so that we flush at top level, and
 * whether the outermost one is a utility command (trusted.c: maintenance
 * commands decide with the session's own label only while they run alone).
 */
static int	nesting = 0;
static bool outermost_utility = false;

void
avc_client_authentication(Port *port, int status)
{
	if (status == STATUS_OK)
		avc_client_auth(port);
}

/*
 * A new statement (query or utility command) may see a new policy: look at
 * the policy's sequence number at its first decision (not here: most
 * statements decide nothing).
 *
 * "Statement" is what the client sent: the queries and utility commands it
 * runs inside (functions, triggers, a planner's constant folding, the
 * executor after the planner decided) share its start time and decide with
 * the policy it started with, as doc/configuration.md promises ("not within a
 * running one").  That is also one look at the policy file per statement,
 * not one per executor start.  A transaction's end still asks for a look
 * (avc_xact), so that a procedure that commits in a loop sees new policies.
 */
void
avc_statement_start(void)
{
	if (GetCurrentStatementStartTimestamp() != avc_revalidated_statement)
		avc_revalidate_pending = true;

	/*
	 * A provider that hands its policy to parallel workers with the
	 * session's settings (lbac) takes a new one in before the statement
	 * can start any (provider.h).
	 */
	if (avc_revalidate_pending && avc_provider->seqno_at_statement_start)
		avc_revalidate();
}

/*
 * Around ExecutorStart, ExecutorRun, ExecutorFinish and utility commands
 * (routine: CALL, DO; utility: a utility command)
 */
void
avc_enter(bool routine, bool utility)
{
	if (nesting++ == 0)
		outermost_utility = utility;
	if (routine)
		avc_routine_depth++;
}

void
avc_leave(bool routine)
{
	nesting--;
	if (routine)
		avc_routine_depth--;
	/* a maintenance check that an error ended narrows here at the latest */
	avc_subject_narrow();
}

/* Is the outermost call a utility command, depth (>= 1) calls deep now? */
bool
avc_under_utility(int depth)
{
	return depth >= 1 && nesting == depth && outermost_utility;
}

/*
 * Is nothing running: no executor, utility command or routine (a logical
 * replication worker applying a row itself)?
 */
bool
avc_outside_commands(void)
{
	return nesting == 0;
}

/* After ExecutorEnd and utility commands: audit lines of a top-level statement */
void
avc_statement_done(void)
{
	if (nesting == 0)
		avc_audit_flush();
}

void
avc_xact(XactEvent event)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
			avc_client_resolve();
			break;
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_PREPARE:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
			avc_subject_narrow();
			/* what the statement decided before it ended or failed */
			avc_audit_flush();
			avc_revalidate_pending = true;
			break;
		default:
			break;
	}
}
