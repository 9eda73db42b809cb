/*-------------------------------------------------------------------------
 *
 * src/avc/hooks.c
 *	  Where the policy subsystem hooks into the server: authentication
 *	  (the client's peer label), statement boundaries (policy reload check,
 *	  audit flush), transaction end, and how deep the session is in CALL
 *	  and DO (set_client_label's one-way changes are refused there).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "executor/executor.h"
#include "libpq/auth.h"
#include "tcop/utility.h"

#include "avc/avc_internal.h"

static ClientAuthentication_hook_type prev_client_auth = NULL;
static ExecutorStart_hook_type prev_executor_start = NULL;
static ExecutorRun_hook_type prev_executor_run = NULL;
static ExecutorFinish_hook_type prev_executor_finish = NULL;
static ExecutorEnd_hook_type prev_executor_end = NULL;
static ProcessUtility_hook_type prev_process_utility = NULL;

/* depth of executor and utility calls, so that we flush at top level */
static int	nesting = 0;

/*
 * Depth of CALL and DO: code they run may end the transaction (COMMIT,
 * ROLLBACK) and go on, so set_client_label refuses one-way changes there.
 */
int			avc_routine_depth = 0;

static void
avc_client_authentication(Port *port, int status)
{
	if (prev_client_auth)
		prev_client_auth(port, status);
	if (status == STATUS_OK)
		avc_client_auth(port);
}

/*
 * A new statement may see a new policy: look at the policy's sequence
 * number at its first decision (not here: most statements decide nothing).
 */
static void
avc_executor_start(QueryDesc *queryDesc, int eflags)
{
	avc_revalidate_pending = true;
	if (prev_executor_start)
		prev_executor_start(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

static void
avc_executor_run(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
				 bool execute_once)
{
	nesting++;
	PG_TRY();
	{
		if (prev_executor_run)
			prev_executor_run(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		nesting--;
	}
	PG_END_TRY();
}

static void
avc_executor_finish(QueryDesc *queryDesc)
{
	nesting++;
	PG_TRY();
	{
		if (prev_executor_finish)
			prev_executor_finish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		nesting--;
	}
	PG_END_TRY();
}

static void
avc_executor_end(QueryDesc *queryDesc)
{
	if (prev_executor_end)
		prev_executor_end(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
	if (nesting == 0)
		avc_audit_flush();
}

static void
avc_process_utility(PlannedStmt *pstmt, const char *queryString,
					bool readOnlyTree, ProcessUtilityContext context,
					ParamListInfo params, QueryEnvironment *queryEnv,
					DestReceiver *dest, QueryCompletion *qc)
{
	bool		routine = IsA(pstmt->utilityStmt, CallStmt) ||
		IsA(pstmt->utilityStmt, DoStmt);

	avc_revalidate_pending = true;
	nesting++;
	if (routine)
		avc_routine_depth++;
	PG_TRY();
	{
		if (prev_process_utility)
			prev_process_utility(pstmt, queryString, readOnlyTree, context,
								 params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		nesting--;
		if (routine)
			avc_routine_depth--;
	}
	PG_END_TRY();
	if (nesting == 0)
		avc_audit_flush();
}

static void
avc_xact_callback(XactEvent event, void *arg)
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
			/* what the statement decided before it ended or failed */
			avc_audit_flush();
			avc_revalidate_pending = true;
			break;
		default:
			break;
	}
}

void
avc_hooks_init(void)
{
	prev_client_auth = ClientAuthentication_hook;
	ClientAuthentication_hook = avc_client_authentication;
	prev_executor_start = ExecutorStart_hook;
	ExecutorStart_hook = avc_executor_start;
	prev_executor_run = ExecutorRun_hook;
	ExecutorRun_hook = avc_executor_run;
	prev_executor_finish = ExecutorFinish_hook;
	ExecutorFinish_hook = avc_executor_finish;
	prev_executor_end = ExecutorEnd_hook;
	ExecutorEnd_hook = avc_executor_end;
	prev_process_utility = ProcessUtility_hook;
	ProcessUtility_hook = avc_process_utility;
	RegisterXactCallback(avc_xact_callback, NULL);
}
