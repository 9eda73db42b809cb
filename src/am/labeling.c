/*-------------------------------------------------------------------------
 *
 * labeling.c
 *	  Where the label of a new tuple comes from.
 *
 * A new row gets the label the session asks for with labelam.insert_label
 * (which needs relabelto besides insert), else the policy's label for rows
 * the session creates in the table (type_transition from the session's
 * label and the table's); an updated row keeps its label (write.c).  The exception is a table rewrite by ALTER TABLE (column
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

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "commands/defrem.h"
#include "nodes/parsenodes.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "avc/avc.h"
#include "label_store/label_store.h"

bool		labelheap_allow_unlabel = false;

/* the policy's label for new rows, per relation and statement */
static Oid	default_relid = InvalidOid;
static TimestampTz default_stmt = 0;
static Oid	default_secid = InvalidOid;

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

/* Is scan a rewrite source?  If so, remember its tuple's label. */
bool
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
			return true;
		}
	}
	return false;
}

bool
labelheap_in_alter_table(void)
{
	return alter_table_depth > 0;
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

static Oid
policy_row_secid(Relation rel)
{
	TimestampTz stmt = GetCurrentStatementStartTimestamp();

	if (RelationGetRelid(rel) != default_relid || stmt != default_stmt)
	{
		char	   *table_label = avc_table_label_text(rel);

		default_secid = avc_create_label(label_intern(table_label));
		default_relid = RelationGetRelid(rel);
		default_stmt = stmt;
		pfree(table_label);
	}
	return default_secid;
}

/*
 * Label of a new row of rel, and in *perms the db_tuple permissions its
 * insertion needs: none when the row keeps a label it already had (table
 * rewrites, partition moves).
 */
Oid
labelheap_new_secid(Relation rel, uint32 *perms)
{
	Oid			secid;

	*perms = 0;
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

	secid = label_insert_secid();
	if (OidIsValid(secid))
	{
		*perms = AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_RELABELTO;
		return secid;
	}
	*perms = AVC_DB_TUPLE_INSERT;
	return policy_row_secid(rel);
}

/*
 * ALTER TABLE ... SET ACCESS METHOD away from labelheap would drop every
 * label: refused unless a superuser allowed it for the session.
 */
static void
refuse_unlabeling(AlterTableStmt *stmt)
{
	ListCell   *lc;
	Oid			relid;
	Relation	rel;
	bool		labeled;

	foreach(lc, stmt->cmds)
	{
		AlterTableCmd *cmd = lfirst(lc);

		if (cmd->subtype != AT_SetAccessMethod ||
			(cmd->name != NULL && strcmp(cmd->name, "labelheap") == 0))
			continue;
		relid = RangeVarGetRelid(stmt->relation, AccessShareLock, stmt->missing_ok);
		if (!OidIsValid(relid))
			return;
		rel = relation_open(relid, NoLock);
		labeled = RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) &&
			is_labelheap_relation(rel);
		relation_close(rel, NoLock);
		if (labeled && !labelheap_allow_unlabel)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("cannot change the access method of \"%s\": its rows would lose their security labels",
							stmt->relation->relname),
					 errhint("A superuser may SET labelam.allow_unlabel = on for the session to allow it.")));
	}
}

static void
labeling_ProcessUtility(PlannedStmt *pstmt, const char *queryString,
						bool readOnlyTree, ProcessUtilityContext context,
						ParamListInfo params, QueryEnvironment *queryEnv,
						DestReceiver *dest, QueryCompletion *qc)
{
	bool		is_alter = IsA(pstmt->utilityStmt, AlterTableStmt);

	if (is_alter)
	{
		refuse_unlabeling((AlterTableStmt *) pstmt->utilityStmt);
		alter_table_depth++;
	}
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
		default_relid = InvalidOid;
	}
}

void
labelheap_labeling_init(void)
{
	DefineCustomBoolVariable("labelam.allow_unlabel",
							 "Allows ALTER TABLE ... SET ACCESS METHOD away from labelheap, which drops every row's label.",
							 NULL,
							 &labelheap_allow_unlabel,
							 false,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);

	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = labeling_ProcessUtility;
	RegisterXactCallback(labeling_xact_callback, NULL);
}
