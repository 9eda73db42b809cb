/*-------------------------------------------------------------------------
 *
 * labeling.c
 *	  Where the label of a new tuple comes from.
 *
 * A new row gets the session's insert label; an updated row keeps its
 * label (write.c).  The exception is a table rewrite by ALTER TABLE (column
 * type changes, volatile defaults, ...): ATRewriteTable scans the old
 * relation and inserts each row, as a plain set of values, into a transient
 * relation named pg_temp_<old relation's OID>.  Those rows must keep their
 * labels.  While an ALTER TABLE runs, the first sequential scan of each
 * labelheap relation is remembered as that relation's rewrite source, and an
 * insert into its transient relation takes the label of the tuple the
 * source scan returned last: ATRewriteTable strictly alternates the two.
 * Scans begun later (say, by a function in a volatile default) are not
 * sources.  SET ACCESS METHOD labelheap from heap has no labeled source, so
 * its rows get the insert label.
 *
 * An UPDATE that moves a row to another partition deletes it from one and
 * inserts it, within the same command, through the partitioned table into
 * another: the insert takes the deleted row's label.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/partition.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/labelheap.h"

int			labelheap_debug_insert_secid = 0;

typedef struct RewriteSource
{
	Oid			relid;
	TableScanDesc scan;
	Oid			secid;			/* label of the tuple it returned last */
} RewriteSource;

/* while ALTER TABLE runs: List of RewriteSource, in TopTransactionContext */
static int	alter_table_depth = 0;
static List *rewrite_sources = NIL;
bool		labelheap_rewrite_active = false;

/* a row being moved to another partition (labelheap_row_moving) */
static bool row_moving = false;
static Oid	row_moving_secid;
static Oid	row_moving_root;
static CommandId row_moving_cid;

static ProcessUtility_hook_type prev_ProcessUtility = NULL;

static Oid
partition_root(Relation rel)
{
	List	   *ancestors = get_partition_ancestors(RelationGetRelid(rel));
	Oid			root = llast_oid(ancestors);

	list_free(ancestors);
	return root;
}

void
labelheap_row_moving(Relation from, Oid secid)
{
	row_moving = true;
	row_moving_secid = secid;
	row_moving_root = partition_root(from);
	row_moving_cid = GetCurrentCommandId(false);
}

static void
forget_rewrite_sources(void)
{
	rewrite_sources = NIL;		/* the memory goes with its context */
	labelheap_rewrite_active = false;
}

void
labelheap_rewrite_scan_begin(TableScanDesc scan)
{
	Oid			relid = RelationGetRelid(scan->rs_rd);
	RewriteSource *src;
	ListCell   *lc;
	MemoryContext oldcxt;

	if (alter_table_depth == 0 || (scan->rs_flags & SO_TYPE_SEQSCAN) == 0)
		return;
	foreach(lc, rewrite_sources)
	{
		if (((RewriteSource *) lfirst(lc))->relid == relid)
			return;
	}
	oldcxt = MemoryContextSwitchTo(TopTransactionContext);
	src = palloc(sizeof(RewriteSource));
	src->relid = relid;
	src->scan = scan;
	src->secid = InvalidOid;
	rewrite_sources = lappend(rewrite_sources, src);
	MemoryContextSwitchTo(oldcxt);
	labelheap_rewrite_active = true;
}

void
labelheap_rewrite_scan_tuple(TableScanDesc scan, TupleTableSlot *slot)
{
	ListCell   *lc;

	foreach(lc, rewrite_sources)
	{
		RewriteSource *src = lfirst(lc);

		if (src->scan == scan)
		{
			HeapTuple	tuple = ((BufferHeapTupleTableSlot *) slot)->base.tuple;

			src->secid = labelheap_header_secid(tuple->t_data, tuple->t_len);
			return;
		}
	}
}

void
labelheap_rewrite_scan_end(TableScanDesc scan)
{
	ListCell   *lc;

	foreach(lc, rewrite_sources)
	{
		RewriteSource *src = lfirst(lc);

		if (src->scan == scan)
		{
			/* keep the entry: the relation has had its rewrite source */
			src->scan = NULL;
			return;
		}
	}
}

/* The rewrite source whose transient relation rel is, if any. */
static RewriteSource *
rewrite_source_for(Relation rel)
{
	const char *name = RelationGetRelationName(rel);
	Oid			oldrelid;
	char	   *end;
	ListCell   *lc;

	if (rel->rd_createSubid == InvalidSubTransactionId ||
		strncmp(name, "pg_temp_", 8) != 0)
		return NULL;
	oldrelid = (Oid) strtoul(name + 8, &end, 10);
	if (*end != '\0')
		return NULL;
	foreach(lc, rewrite_sources)
	{
		RewriteSource *src = lfirst(lc);

		if (src->relid == oldrelid && src->scan != NULL)
			return src;
	}
	return NULL;
}

Oid
labelheap_new_secid(Relation rel)
{
	if (unlikely(labelheap_rewrite_active))
	{
		RewriteSource *src = rewrite_source_for(rel);

		if (src != NULL)
		{
			if (!OidIsValid(src->secid))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg("cannot rewrite relation with OID %u: a row has no valid security label",
								src->relid),
						 errhint("labelam.verify_labels() lists every such tuple.")));
			return src->secid;
		}
	}

	if (unlikely(row_moving) && rel->rd_rel->relispartition &&
		row_moving_cid == GetCurrentCommandId(false) &&
		partition_root(rel) == row_moving_root)
	{
		row_moving = false;
		return row_moving_secid;
	}

	if (labelheap_debug_insert_secid == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("no security label for new rows of relation \"%s\"",
						RelationGetRelationName(rel)),
				 errhint("Set labelam.debug_insert_secid.")));
	return (Oid) labelheap_debug_insert_secid;
}

static void
labeling_ProcessUtility(PlannedStmt *pstmt, const char *queryString,
						bool readOnlyTree, ProcessUtilityContext context,
						ParamListInfo params, QueryEnvironment *queryEnv,
						DestReceiver *dest, QueryCompletion *qc)
{
	bool		is_alter = IsA(pstmt->utilityStmt, AlterTableStmt);

	if (is_alter)
		alter_table_depth++;
	PG_TRY();
	{
		if (prev_ProcessUtility)
			prev_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
		else
			standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
									params, queryEnv, dest, qc);
	}
	PG_FINALLY();
	{
		if (is_alter && --alter_table_depth == 0)
			forget_rewrite_sources();
	}
	PG_END_TRY();
}

static void
labeling_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		alter_table_depth = 0;
		forget_rewrite_sources();
		row_moving = false;
	}
}

void
labelheap_labeling_init(void)
{
	DefineCustomIntVariable("labelam.debug_insert_secid",
							"Label (secid) given to new rows (testing aid until the label dictionary and policy supply it).",
							NULL,
							&labelheap_debug_insert_secid,
							0, 0, INT_MAX,
							PGC_SUSET, 0,
							NULL, NULL, NULL);

	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = labeling_ProcessUtility;
	RegisterXactCallback(labeling_xact_callback, NULL);
}
