/*-------------------------------------------------------------------------
 *
 * src/am/read/frames.c
 *	  Who is reading: the innermost executor or utility command that runs,
 *	  and how the rows it reads are treated.
 *
 * Every ExecutorRun, ExecutorFinish and ProcessUtility pushes a frame for
 * its duration (src/hooks.c calls the enter and leave functions here).
 * Table access method callbacks ask the innermost frame how to treat a row
 * the session may not select (labelheap_frame_mode()):
 *
 *	READ_FILTERED	it is skipped, as if absent: every query, and COPY TO.
 *	READ_STRICT		it is an ERROR (42501): scans a utility command makes
 *					itself (ALTER TABLE rewrites and constraint validation,
 *					a default partition's check, a domain constraint's
 *					check) and referential actions (cascaded DELETE and
 *					UPDATE): these must see every row or fail, and user
 *					code (triggers, defaults, expressions) may run on what
 *					they return, so a hidden row must stop them before it
 *					reaches anything.
 *	READ_UNFILTERED	it is returned: referential-integrity checks only
 *					(SELECT 1 ... FOR KEY SHARE), which hand rows to no user
 *					code: their quals use the operators of the key's
 *					operator family, which only superusers can create.
 *
 * Code a frame runs on behalf of the user (functions, triggers, defaults,
 * index expressions) reaches tables only through an executor or a utility
 * command of its own, so it gets a frame of its own and is filtered: no
 * exemption spreads to it.  A referential-integrity query is recognized by
 * the SECURITY_NOFORCE_RLS flag, which only ri_triggers.c sets, around
 * that one query; the flag is cleared while the query runs, so code nested
 * in it (a trigger on a cascaded table) is an ordinary query again unless
 * ri_triggers.c sets the flag anew for its own nested query.
 *
 * A frame also says whether its buffer or WAL usage is reported (EXPLAIN
 * ANALYZE or BUFFERS, a query instrumented for buffers): everything nested
 * in it counts there, so instrumented.c refuses nested queries that read
 * rows beyond the session's reach.
 *
 * Non-MVCC reads (unique checks and ON CONFLICT arbiters with
 * SnapshotDirty, trigger fetches with SnapshotAny) are never filtered: they
 * serve integrity and hand the rows to no user code.  Index builds,
 * CLUSTER and VACUUM FULL read with SnapshotAny and are strict by
 * themselves (index_build.c, copy_for_cluster.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/rel.h"

#include "am/labelheap_hooks.h"
#include "am/read/frames.h"
#include "avc/avc.h"


static LabelheapFrame *current_frame = NULL;
static uint64 frame_counter = 0;


/* the innermost frame's mode, read inline for every row (frames.h) */
LabelheapReadMode labelheap_current_read_mode = READ_FILTERED;

uint64
labelheap_frame_id(void)
{
	return current_frame ? current_frame->id : 0;
}

/* the id of the frame the innermost one is nested in, 0 if none */
uint64
labelheap_frame_outer_id(void)
{
	return current_frame && current_frame->outer ? current_frame->outer->id : 0;
}

bool
labelheap_frame_is_utility(NodeTag stmt)
{
	return current_frame != NULL && current_frame->utility == stmt;
}

/*
 * The error of a READ_STRICT read (or of index builds, CLUSTER and VACUUM
 * FULL, which are strict by themselves) that met a row the session may not
 * select.  It names neither the row's label nor how many there are.
 */
void
labelheap_beyond_reach(Relation rel, const char *action)
{
	if (action == NULL)
		action = current_frame && current_frame->action ?
			current_frame->action : "read every row of";
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to %s relation \"%s\"",
					action, RelationGetRelationName(rel)),
			 errdetail("The relation holds rows beyond the reach of the session's security label."),
			 errhint("Only a session whose label may select (and, for changes, update or delete) every row of the relation can do this.")));
}

static void
frame_push(LabelheapFrame *frame)
{
	frame->id = ++frame_counter;
	frame->outer = current_frame;
	current_frame = frame;
	labelheap_current_read_mode = frame->mode;
}

static void
frame_pop(LabelheapFrame *frame)
{
	current_frame = frame->outer;
	labelheap_current_read_mode = current_frame ? current_frame->mode :
		READ_FILTERED;
}

/*
 * The mode of an executor frame: a referential-integrity query if
 * ri_triggers.c runs it (*ri set, and the flag is to be cleared), else an
 * ordinary, filtered query.
 */
static void
executor_frame(QueryDesc *queryDesc, LabelheapFrame *frame, bool *ri)
{
	frame->utility = 0;
	frame->action = NULL;
	*ri = InNoForceRLSOperation();
	if (!*ri)
		frame->mode = READ_FILTERED;
	else if (queryDesc->operation == CMD_SELECT)
		frame->mode = READ_UNFILTERED;
	else
	{
		frame->mode = READ_STRICT;
		frame->action = "update or delete referencing rows of";
	}
}

/*
 * Is the buffer or WAL usage of the innermost frame, or of one it is
 * nested in, reported to the session?  Everything a frame runs counts in
 * its usage, nested queries included (instrumented.c).
 */
bool
labelheap_frame_counts_buffers(void)
{
	LabelheapFrame *frame;

	for (frame = current_frame; frame != NULL; frame = frame->outer)
		if (frame->counts_buffers)
			return true;
	return false;
}

/*
 * Enter the frame of an ExecutorRun or ExecutorFinish (src/hooks.c calls
 * this and labelheap_frame_leave around them).  A referential-integrity
 * query's frame clears SECURITY_NOFORCE_RLS for what runs nested in it.
 */
void
labelheap_frame_enter_executor(LabelheapFrame *frame, QueryDesc *queryDesc)
{
	executor_frame(queryDesc, frame, &frame->ri);
	frame->counts_buffers = (queryDesc->instrument_options &
							 (INSTRUMENT_BUFFERS | INSTRUMENT_WAL)) != 0;
	if (frame->ri)
	{
		GetUserIdAndSecContext(&frame->ri_userid, &frame->ri_sec_context);
		SetUserIdAndSecContext(frame->ri_userid,
							   frame->ri_sec_context & ~SECURITY_NOFORCE_RLS);
	}
	frame_push(frame);
}

void
labelheap_frame_leave(LabelheapFrame *frame)
{
	frame_pop(frame);
	if (frame->ri)
		SetUserIdAndSecContext(frame->ri_userid, frame->ri_sec_context);
}

/*
 * Utility commands read tables themselves only to check or rewrite them,
 * except COPY TO, which reads for the user.
 */
static const char *
utility_action(Node *stmt)
{
	switch (nodeTag(stmt))
	{
		case T_CopyStmt:
			return NULL;
		case T_AlterTableStmt:
			return "alter";
		case T_CreateStmt:
			return "add a partition to";
		case T_AlterDomainStmt:
			return "check a domain constraint on";
		default:
			return "read every row of";
	}
}

/*
 * Does EXPLAIN report buffer or WAL usage (planning's too, even without
 * ANALYZE), or run the query (whose usage PostgreSQL 18 reports by
 * default)?  Read as defGetBoolean reads an option, but never an error
 * here (before the frame is pushed): a value it would reject counts as
 * true, and EXPLAIN itself rejects it.
 */
static bool
explain_option_true(DefElem *opt)
{
	bool		result;

	if (opt->arg == NULL)
		return true;
	if (IsA(opt->arg, Integer))
		return intVal(opt->arg) != 0;
	if (IsA(opt->arg, Boolean))
		return boolVal(opt->arg);
	if (IsA(opt->arg, String) && parse_bool(strVal(opt->arg), &result))
		return result;
	return true;
}

static bool
explain_counts_buffers(ExplainStmt *stmt)
{
	ListCell   *lc;

	foreach(lc, stmt->options)
	{
		DefElem    *opt = (DefElem *) lfirst(lc);

		if ((strcmp(opt->defname, "analyze") == 0 ||
			 strcmp(opt->defname, "buffers") == 0 ||
			 strcmp(opt->defname, "wal") == 0) &&
			explain_option_true(opt))
			return true;
	}
	return false;
}

/* Enter the frame of a utility command. */
void
labelheap_frame_enter_utility(LabelheapFrame *frame, PlannedStmt *pstmt)
{
	frame->utility = nodeTag(pstmt->utilityStmt);
	frame->action = utility_action(pstmt->utilityStmt);
	frame->mode = frame->action ? READ_STRICT : READ_FILTERED;
	frame->ri = false;
	frame->counts_buffers = IsA(pstmt->utilityStmt, ExplainStmt) &&
		explain_counts_buffers((ExplainStmt *) pstmt->utilityStmt);
	frame_push(frame);
}
