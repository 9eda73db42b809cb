/*-------------------------------------------------------------------------
 *
 * src/am/labeling.c
 *	  Where the label of a new tuple comes from.
 *
 * A new row gets the label the session asks for with labelam.insert_label
 * (which needs relabelto besides insert), else the policy's label for rows
 * the session creates in the table (type_transition from the session's
 * label and the table's); an updated row keeps its label (write.c).
 *
 * Rows of a table rewrite by ALTER TABLE (column type changes, volatile
 * defaults, ...) keep theirs: ATRewriteTable scans the old
 * relation and inserts each row, as a plain set of values, into a transient
 * relation named pg_temp_<old relation's OID>.  Those rows must keep their
 * labels.  The carry is tied to ALTER TABLE's own frame (frames.c): a
 * sequential scan that the ALTER TABLE command itself begins is a rewrite
 * source, and an insert that the same frame makes into the source's
 * transient relation (created in this transaction) takes the label of the
 * tuple the source returned last: ATRewriteTable strictly alternates the
 * two.  Code that ALTER TABLE runs for the user (a volatile default, a
 * USING expression) reads and writes in frames of its own, so it never
 * becomes a source nor receives a carried label.  The scan is strict
 * (every row must be one the session may select), and a carried row needs
 * update on its label: the rewrite changes it.  SET ACCESS METHOD
 * labelheap from heap has no labeled source, so its rows get the label of
 * new rows.
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
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/labelheap_int.h"
#include "avc/avc.h"
#include "label_store/label_store.h"


/* the policy's label for new rows, per relation and statement */
static Oid	default_relid = InvalidOid;
static TimestampTz default_stmt = 0;
static Oid	default_secid = InvalidOid;

typedef struct RewriteSource
{
	uint64		frame;			/* the ALTER TABLE's frame (frames.c) */
	Oid			relid;
	TableScanDesc scan;			/* NULL once ended */
	Oid			secid;			/* label of the tuple it returned last */
} RewriteSource;

/* List of RewriteSource, in TopTransactionContext, until transaction end */
static List *rewrite_sources = NIL;
bool		labelheap_rewrite_active = false;

/* a row being moved to another partition (labelheap_row_moving) */
static bool row_moving = false;
static Oid	row_moving_secid;
static Oid	row_moving_root;
static CommandId row_moving_cid;

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
	RewriteSource *src;
	MemoryContext oldcxt;

	if ((scan->rs_flags & SO_TYPE_SEQSCAN) == 0 ||
		!labelheap_frame_is_utility(T_AlterTableStmt))
		return;
	oldcxt = MemoryContextSwitchTo(TopTransactionContext);
	src = palloc(sizeof(RewriteSource));
	src->frame = labelheap_frame_id();
	src->relid = RelationGetRelid(scan->rs_rd);
	src->scan = scan;
	src->secid = InvalidOid;
	rewrite_sources = lappend(rewrite_sources, src);
	MemoryContextSwitchTo(oldcxt);
	labelheap_rewrite_active = true;
}

/* If scan is a rewrite source, remember the label of its tuple. */
void
labelheap_rewrite_scan_tuple(TableScanDesc scan, Oid secid)
{
	ListCell   *lc;

	foreach(lc, rewrite_sources)
	{
		RewriteSource *src = lfirst(lc);

		if (src->scan == scan)
		{
			src->secid = secid;
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
			src->scan = NULL;
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

		if (src->relid == oldrelid && src->scan != NULL &&
			src->frame == labelheap_frame_id())
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
 * rewrites, checked here for update, and partition moves, checked for
 * update when the row was deleted).
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
			if (!avc_check_tuple(rel, src->secid, AVC_DB_TUPLE_UPDATE))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to rewrite relation \"%s\"",
								get_rel_name(src->relid)),
						 errdetail("The relation holds rows beyond the reach of the session's security label."),
						 errhint("A rewrite changes every row: only a session whose label may update every row of the relation can do this.")));
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

void
labelheap_labeling_xact(XactEvent event)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		forget_rewrite_sources();
		row_moving = false;
		default_relid = InvalidOid;
	}
}
