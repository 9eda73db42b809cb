/*-------------------------------------------------------------------------
 *
 * src/avc/maintenance.c
 *	  The one place where a trusted session's own label decides: the
 *	  checks labelam's maintenance commands make themselves (trusted.c says
 *	  which sessions are trusted, subject.c narrows and widens them).
 *
 * The session's own label decides (avc_maintenance_begin) only
 * around checks that labelam's maintenance code makes itself, and only
 * while the one command running is a utility command the client sent
 * (nothing nested: no ExecutorStart, ExecutorRun, ExecutorFinish or
 * utility command inside it, no trusted procedure, no parallel worker),
 * or, for the INSERT that dump.c runs for a restored row, one call inside
 * it.
 * Code that PostgreSQL runs for the user inside such a command reaches
 * tables and DDL only through executors and utility commands of its own,
 * which are nested, so it never decides with the session's own label;
 * what it can do without them (built-in functions in expressions) meets
 * checks that never widen (large objects, sequences, function execution).
 *
 * Logical replication apply is the other place (depth 0): a worker
 * (apply, parallel apply or table synchronization) writes each replicated
 * row with the label the row carries, which its own label decides, at
 * every level its range allows (labelam_replica_t), and so applies a
 * replicated TRUNCATE (the label set's check).  The worker applies
 * rows itself, in no executor or utility command (worker.c's
 * ExecSimpleRelation*, tablesync.c's CopyFrom); what it runs for the user
 * (triggers, defaults, constraints, domain checks, index expressions) runs
 * before or after the row's own checks, never inside them, and whatever of
 * it starts a query is refused (am/replication/apply.c, ExecutorStart).
 * So the own label decides only while nothing is running, and only around
 * the row's own checks, which the caller makes for a row it has
 * established to be the worker's own (am/replication/apply.c: no executor
 * frame); everything else, user code included, decides with the narrowed
 * label.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "replication/logicalworker.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"

/*
 * May the session's own label decide now?  Only in the utility command the
 * client sent, depth calls deep, or in a logical replication worker running
 * nothing, depth 0 (see avc_maintenance_begin); no trusted procedure
 * running, not in a parallel worker.
 */
static bool
maintenance_context(int depth)
{
	if (avc_subject_pushed() || IsParallelWorker())
		return false;
	if (depth == 0)
		return IsLogicalWorker() && avc_outside_commands();
	return avc_under_utility(depth);
}

/*
 * Around a maintenance command's own checks: if the session is trusted and
 * in such a command, its own label decides until avc_maintenance_end
 * (returns true); otherwise nothing changes (false).  Pass the result to
 * avc_maintenance_end, also on error (PG_FINALLY).
 *
 * depth: 1 for checks the utility command makes itself, with nothing
 * nested in it; 2 for checks of a query that labelam's own code runs
 * directly inside it and knows to be its own (dump.c's INSERT of a
 * restored row), which the caller must establish itself; 0 for the checks
 * of a row a logical replication worker applies itself, outside any
 * command (the caller establishes that the row is the worker's own).
 */
bool
avc_maintenance_begin(int depth)
{
	if (!avc_subject_is_narrowed() || !maintenance_context(depth))
		return false;
	avc_subject_widen();
	return true;
}

void
avc_maintenance_end(bool widened)
{
	if (widened)
		avc_subject_narrow();
}
