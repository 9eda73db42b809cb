/*-------------------------------------------------------------------------
 *
 * src/am/channels/instrumented.c
 *	  No instrumented execution over rows beyond the session's reach.
 *
 * The executor's instrumentation counts what the nodes below labelheap's
 * filter touch: a Bitmap Index Scan's "actual rows" are the index's
 * matches, hidden rows' included, and the Bitmap Heap Scan's "Heap Blocks"
 * the pages they are on; BUFFERS counts every buffer a node pinned, and
 * everything it called (functions, their queries) pinned, hidden rows'
 * pages and index pages included.  With a WHERE clause of the attacker's
 * choosing, a binary search on "v BETWEEN lo AND hi" finds a hidden value
 * in a few dozen EXPLAIN ANALYZE runs.  Filtering the counts would mean
 * redoing every node's accounting; such execution is refused instead
 * (42501), before any row is read:
 *
 *	- a query whose plan reads a labelheap table holding a label the
 *	  session may not select (or a writer in progress is writing), when it
 *	  is instrumented: EXPLAIN ANALYZE, auto_explain.log_analyze
 *	  (instrument_options as they are when ExecutorStart returns,
 *	  whichever hook set them);
 *	- such a query nested in a frame whose buffer or WAL usage is reported
 *	  (frames.c): EXPLAIN ANALYZE or EXPLAIN (BUFFERS), whose planning may
 *	  run a function folded into a constant, and a query instrumented for
 *	  buffers or WAL (auto_explain.log_buffers), whose nodes' counts
 *	  include the queries of the functions they call, in a parallel
 *	  worker too (the worker's plan carries the leader's options).
 *
 * It is decided at ExecutorStart, and again each time the query reads or
 * finishes (ExecutorRun, ExecutorFinish): a cursor declared outside may be
 * read inside an instrumented query, and a new label may commit while the
 * query runs; its counts are printed only after ExecutorFinish.
 *
 * A query that reads only tables whose every label the session may select
 * is instrumented as usual: its counts describe rows it may see.  EXPLAIN
 * without ANALYZE starts the executor only to describe the plan
 * (EXEC_FLAG_EXPLAIN_ONLY) and reads nothing; its estimates keep to what
 * the session may see (planner.c, analyze.c).  What remains (timing,
 * pg_stat_statements' buffer columns) is in doc/security-model.md,
 * "Covert channels that remain".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "nodes/parsenodes.h"
#include "utils/rel.h"

#include "am/label_set/label_set.h"
#include "am/labelheap_hooks.h"
#include "am/read/frames.h"
#include "avc/avc.h"


/*
 * Refuse if queryDesc is instrumented, or runs where buffer usage is
 * reported, and its plan reads a labelheap table holding a label the
 * session may not select (committed, or being written).
 */
static void
check_instrumented(QueryDesc *queryDesc)
{
	const char *action = "run an instrumented query (EXPLAIN ANALYZE, BUFFERS, auto_explain) on";
	ListCell   *lc;

	if (queryDesc->instrument_options == 0 &&
		!labelheap_frame_counts_buffers())
		return;

	/* every relation the plan may read, views expanded and partitions too */
	foreach(lc, queryDesc->plannedstmt->rtable)
	{
		RangeTblEntry *rte = (RangeTblEntry *) lfirst(lc);
		Relation	rel;

		if (rte->rtekind != RTE_RELATION ||
			(rte->relkind != RELKIND_RELATION &&
			 rte->relkind != RELKIND_MATVIEW))
			continue;
		/* the executor holds a lock on it already, or takes this one */
		rel = table_open(rte->relid, AccessShareLock);
		/* true for tables of other access methods */
		if (!labelheap_label_set_allowed_now(rel, AVC_DB_TUPLE_SELECT))
		{
			/* audited on the committed labels; an uncommitted one is enough */
			labelheap_label_set_require(rel, AVC_DB_TUPLE_SELECT, action);
			labelheap_beyond_reach(rel, action);
		}
		table_close(rel, NoLock);
	}
}

/* after every ExecutorStart hook has set the options up */
void
labelheap_instrumented_executor_start(QueryDesc *queryDesc, int eflags)
{
	if (!(eflags & EXEC_FLAG_EXPLAIN_ONLY))
		check_instrumented(queryDesc);
}

/*
 * Again whenever the query reads (ExecutorRun, its frame entered): a
 * cursor opened outside the instrumented query may be read inside it, and
 * a label may have arrived since ExecutorStart.  And before its counts
 * are printed (ExecutorFinish, which EXPLAIN ANALYZE and auto_explain's
 * ExecutorEnd follow): a writer that committed a new label while the
 * query ran made its counts include the new rows.
 */
void
labelheap_instrumented_executor_frame(QueryDesc *queryDesc)
{
	check_instrumented(queryDesc);
}
