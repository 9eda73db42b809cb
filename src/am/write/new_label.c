/*-------------------------------------------------------------------------
 *
 * src/am/write/new_label.c
 *	  Which label a new tuple version gets: the one place that decides it.
 *
 * In order of precedence, a row that INSERT or COPY writes gets:
 *	1. the value of the table's declared label column, when it is not NULL
 *	   (label_column.c takes it out of the slot);
 *	2. the label it carries, if it is a row of a table rewrite or of a
 *	   partition move (below);
 *	3. labelam.insert_label, when set;
 *	4. the policy's label for rows the session creates in the table: the
 *	   type_transition (avc_create_label_text) from the session's label and
 *	   the table's (avc_table_label_text), both text: the table's label is
 *	   never interned.
 * A version that UPDATE writes gets the label column's value, else
 * labelam.update_label, else the old version's label.  The checks follow
 * the choice: insert on a new row's label, update on a carried one, and
 * relabelto on a label that differs from the one the row would have got
 * (with update and relabelfrom on the label it replaces, and, for a
 * provider whose rule needs both labels, avc_require_relabel on the pair:
 * lbac's WRITEUP, WRITEDOWN and WRITEACROSS).  A row inserted at a label
 * of its own (labelam.insert_label, the label column) replaces no label:
 * insert and relabelto on it, nothing more.  Labels given as
 * text are canonicalized by the avc (avc_storable_label) before they are
 * interned: label_store only stores.
 *
 * The policy's label is remembered for the last few relations written
 * (the write path asks for every row or COPY batch), across statements and
 * transactions, while nothing it is derived from changes:
 * avc_table_label_generation() (the table's label, name and schema name,
 * labelam.default_table_label, the policy, the subject, any aborted
 * subtransaction) and the dictionary's generation; and while its
 * dictionary row is not committed, only within the subtransaction that got
 * it: an aborted one takes the row with it.  Not per statement: one
 * statement (a function, a DO block) may relabel the table, roll a
 * relabel back, or wait for another session's relabel to commit between
 * two inserts.  Each statement reads the invalidations that other
 * sessions' commits sent, so that it sees their relabels; a relabel or its
 * rollback in this session invalidates the relation at once (the relcache
 * callback moves the generation).  The settings' secids are remembered
 * while the dictionary stays the same and the label is committed.
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
 * Rows that COPY FROM reads from a server file (src/files/copy.c) take
 * the level of the file: the policy's label (step 4 above) at the file's
 * level, checked for insert.  labelam.insert_label, and a declared label
 * column, relabel from it, checked as restored labels are (below): as the
 * row inserted at the file's level and then relabeled, so that neither
 * lets a session put a file's data at a level it could not have put it in
 * two statements.  Only rows the COPY's own frame inserts are such rows
 * (its target's, or its partitions'): triggers, defaults and functions
 * the COPY runs write from frames of their own, with the session's labels.
 *
 * An UPDATE that moves a row to another partition deletes it from one and
 * inserts it, within the same command, through the partitioned table into
 * another: the insert takes the deleted row's label.
 *
 * Restoring (labelam.restore_labels, label_sql/dump.c): a row restored
 * with a label other than the one it would get is checked as what it is,
 * the session inserting the row with that default label and relabeling it:
 * insert, update and relabelfrom on the default label, relabelto on the
 * restored one.  So the setting lets a session do in one step exactly what
 * INSERT followed by UPDATE with labelam.update_label would let it do in
 * two; under an MLS policy, where insert needs the session's own level, an
 * administrator restores rows of every level this way.  It applies to the
 * declared label column (INSERT and COPY FROM) and to the label field that
 * dump.c's COPY FROM reads for tables without one; dump.c hands that label
 * to the one INSERT it runs for the row (labelheap_restore_next_row), whose
 * executor frame is nested directly in the COPY's: code that INSERT runs
 * (triggers, defaults) has frames of its own and never receives it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/partition.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "nodes/parsenodes.h"
#include "storage/proc.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/read/frames.h"
#include "am/replication/replication.h"
#include "am/write/label_column.h"
#include "am/write/new_label.h"
#include "am/write/source_label.h"
#include "avc/avc.h"
#include "avc/avc_files.h"
#include "label_store/label_store.h"
#include "pg_compat.h"

PG_FUNCTION_INFO_V1(labelam_insert_label_secid);

/* labelam.insert_label and labelam.update_label */
static char *insert_label = NULL;
static char *update_label = NULL;

/* the secid a label setting resolved to, once that label is committed */
typedef struct SettingCache
{
	char	   *text;
	Oid			secid;
	uint64		generation;
} SettingCache;

static SettingCache insert_cache;
static SettingCache update_cache;

/*
 * The policy's label for new rows of a relation, for as long as the
 * generations stay the same, across statements and transactions; a label
 * whose dictionary row was not committed yet only within the
 * subtransaction that got it (should that abort, the row goes with it).
 * A few relations at a time: a transaction that inserts into several
 * tables in turn (pgbench's TPC-B writes one, an application's often
 * more) would otherwise read pg_seclabel and compute the transition again
 * for every statement.
 */
typedef struct DefaultLabel
{
	Oid			relid;			/* InvalidOid: empty */
	Oid			secid;
	uint64		generation;		/* avc_table_label_generation() */
	uint64		dict_generation;	/* label_store_generation() */
	bool		committed;		/* the dictionary row was committed */
	LocalTransactionId lxid;	/* else: got in this subtransaction */
	SubTransactionId subid;
} DefaultLabel;

#define DEFAULT_LABELS	8
static DefaultLabel default_labels[DEFAULT_LABELS];
static int	default_next = 0;	/* the entry replaced next */
static TimestampTz default_stmt = 0;

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

/* labelam.restore_labels, and the label of the row being restored */
bool		labelheap_restore_labels = false;
static Oid	restore_secid = InvalidOid;
static uint64 restore_frame;

/*
 * COPY FROM a server file (labelheap_source_label_push): its frame,
 * the file's level, and the last label computed at that level
 */
static char *source_level = NULL;
static uint64 source_frame;
static Oid	source_base = InvalidOid;	/* label before the level change */
static Oid	source_secid;		/* ... and after */
static uint64 source_dict_generation;
static bool source_committed;
static SubTransactionId source_subid;

/* a row being moved to another partition (labelheap_row_moving) */
static bool row_moving = false;
static Oid	row_moving_secid;
static Oid	row_moving_root;
static CommandId row_moving_cid;

/*
 * Only the provider-independent checks: a check hook must not fail with an
 * error (it also runs while the postmaster reads postgresql.conf), and the
 * policy provider may not be ready yet.  setting_secid canonicalizes.
 */
static bool
check_label_setting(char **newval, void **extra, GucSource source)
{
	const char *detail;

	if (*newval == NULL || (*newval)[0] == '\0')
		return true;
	if (!label_check(*newval, &detail))
	{
		GUC_check_errcode(ERRCODE_INVALID_PARAMETER_VALUE);
		GUC_check_errmsg("invalid security label \"%s\"", *newval);
		GUC_check_errdetail("%s", _(detail));
		return false;
	}
	return true;
}

/* Secid of a label setting, interning it if new; InvalidOid if empty. */
static Oid
setting_secid(const char *setting, SettingCache *cache)
{
	char	   *canon;
	bool		committed;
	Oid			secid;

	if (setting == NULL || setting[0] == '\0')
		return InvalidOid;

	if (cache->text != NULL &&
		cache->generation == label_store_generation() &&
		strcmp(cache->text, setting) == 0)
		return cache->secid;

	canon = avc_storable_label(setting);
	secid = label_intern_committed(canon, &committed);
	pfree(canon);

	/* a label of this transaction may yet abort: don't remember it */
	if (committed)
	{
		char	   *copy = MemoryContextStrdup(TopMemoryContext, setting);

		if (cache->text)
			pfree(cache->text);
		cache->text = copy;
		cache->secid = secid;
		cache->generation = label_store_generation();
	}
	return secid;
}

/* insert_label_secid() returns oid, NULL if labelam.insert_label is empty */
Datum
labelam_insert_label_secid(PG_FUNCTION_ARGS)
{
	Oid			secid;

	label_store_require_loaded();
	secid = setting_secid(insert_label, &insert_cache);
	if (!OidIsValid(secid))
		PG_RETURN_NULL();
	PG_RETURN_OID(secid);
}

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
	Oid			relid = RelationGetRelid(rel);
	uint64		generation;
	uint64		dict_generation;
	DefaultLabel *d;
	char	   *table_label;
	char	   *created;
	int			i;

	/*
	 * A new statement sees the relabels other sessions committed, as a
	 * fresh snapshot of pg_seclabel would: their invalidations may not
	 * have been read yet, the table being locked by this transaction
	 * already.
	 */
	if (stmt != default_stmt)
	{
		AcceptInvalidationMessages();
		default_stmt = stmt;
	}
	generation = avc_table_label_generation();
	dict_generation = label_store_generation();

	for (i = 0; i < DEFAULT_LABELS; i++)
	{
		d = &default_labels[i];
		if (d->relid == relid && d->generation == generation &&
			d->dict_generation == dict_generation &&
			(d->committed ||
			 (d->lxid == labelam_my_lxid() &&
			  d->subid == GetCurrentSubTransactionId())))
			return d->secid;
	}

	table_label = avc_table_label_text(rel);
	created = avc_create_label_text(table_label);
	d = &default_labels[default_next];
	default_next = (default_next + 1) % DEFAULT_LABELS;
	d->relid = InvalidOid;		/* forgotten, should this fail */
	d->secid = label_intern_committed(created, &d->committed);
	d->lxid = labelam_my_lxid();
	d->subid = GetCurrentSubTransactionId();
	/* the generations as they were before the labels were computed */
	d->generation = generation;
	d->dict_generation = dict_generation;
	d->relid = relid;
	pfree(created);
	pfree(table_label);
	return d->secid;
}

LabelheapSourceSave
labelheap_source_label_push(const char *level_of)
{
	LabelheapSourceSave save;

	save.level_of = source_level;
	save.frame = source_frame;
	source_level = MemoryContextStrdup(TopMemoryContext, level_of);
	source_frame = labelheap_frame_id();
	source_base = InvalidOid;
	return save;
}

void
labelheap_source_label_pop(LabelheapSourceSave save)
{
	if (source_level != NULL)
		pfree(source_level);
	source_level = save.level_of;
	source_frame = save.frame;
	source_base = InvalidOid;
}

/* at transaction end: nothing is pushed any more */
static void
source_label_forget(void)
{
	source_level = NULL;		/* callers pop before this; a backstop */
	source_base = InvalidOid;
}

/* a row the COPY FROM of a server file writes (see the file header)? */
static inline bool
source_active(void)
{
	return source_level != NULL && labelheap_frame_id() == source_frame;
}

static void require_chosen_label(Relation rel, Oid dflt, uint32 perms,
								 Oid target, int depth);

/*
 * base at the file's level, remembered as policy_row_secid remembers its
 * label: a label not committed yet only within the subtransaction that
 * interned it
 */
static Oid
source_row_secid(Oid base)
{
	if (base != source_base ||
		label_store_generation() != source_dict_generation ||
		(!source_committed && source_subid != GetCurrentSubTransactionId()))
	{
		char	   *text = label_text(base);
		char	   *at_level;

		if (text == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("security label with secid %u does not exist", base)));
		at_level = avc_label_at_level(text, source_level);
		source_base = InvalidOid;	/* forgotten, should this fail */
		source_secid = label_intern_committed(at_level, &source_committed);
		source_subid = GetCurrentSubTransactionId();
		source_dict_generation = label_store_generation();
		source_base = base;
		pfree(at_level);
		pfree(text);
	}
	return source_secid;
}

/*
 * May the session update rows labeled secid, as a rewrite carrying them
 * does?  A trusted session (avc/trusted.c) decides with its own label in
 * the ALTER TABLE it sent, nested in nothing.
 */
static bool
carry_allowed(Relation rel, Oid secid)
{
	bool		widened = avc_maintenance_begin(1);
	bool		ok;

	PG_TRY();
	{
		ok = avc_check_tuple(rel, secid, AVC_DB_TUPLE_UPDATE);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
	return ok;
}

/*
 * Label of a new row of rel, and in *perms the db_tuple permissions its
 * insertion needs: none when the row keeps a label it already had (table
 * rewrites, checked here for update, and partition moves, checked for
 * update when the row was deleted).
 */
static Oid
new_secid(Relation rel, uint32 *perms)
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
			if (!carry_allowed(rel, src->secid))
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

	secid = setting_secid(insert_label, &insert_cache);

	/*
	 * A row of a file that COPY FROM reads (the COPY's frame writes nothing
	 * else): the policy's label at the file's level, which insert_label
	 * relabels as a row column would
	 */
	if (unlikely(source_active()))
	{
		Oid			dflt = source_row_secid(policy_row_secid(rel));

		*perms = AVC_DB_TUPLE_INSERT;
		if (!OidIsValid(secid) || secid == dflt)
			return dflt;
		require_chosen_label(rel, dflt, AVC_DB_TUPLE_INSERT, secid, 1);
		*perms = 0;				/* checked, and carried from here */
		return secid;
	}

	if (OidIsValid(secid))
	{
		*perms = AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_RELABELTO;
		return secid;
	}
	*perms = AVC_DB_TUPLE_INSERT;
	return policy_row_secid(rel);
}

/*
 * The checks of a row that gets label target instead of the label dflt it
 * would have got with perms: with restore_labels, and for a row of a file,
 * inserting it with dflt and relabeling it (see the file header); else
 * insert and relabelto on target.
 *
 * A trusted session (avc/trusted.c) decides them with its own label when
 * the row is written by the COPY FROM it sent (depth 1) or by the INSERT
 * that dump.c runs directly inside it for a restored row (depth 2): a
 * restore writes rows of every level; and so does a logical replication
 * worker, for a row it applies itself (depth 0).  Its narrowed label,
 * which decides elsewhere, may not relabel onto a label it may not write.
 */
static void
require_chosen_label(Relation rel, Oid dflt, uint32 perms, Oid target,
					 int depth)
{
	bool		widened = avc_maintenance_begin(depth);

	PG_TRY();
	{
		if (labelheap_restore_labels || source_active())
		{
			avc_require_tuple(rel, dflt, perms | AVC_DB_TUPLE_UPDATE |
							  AVC_DB_TUPLE_RELABELFROM);
			avc_require_tuple(rel, target, AVC_DB_TUPLE_RELABELTO);
			avc_require_relabel(rel, dflt, target);
		}
		else
			avc_require_tuple(rel, target,
							  AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_RELABELTO);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
}

void
labelheap_restore_next_row(Oid secid)
{
	restore_secid = secid;
	restore_frame = labelheap_frame_id();
}

void
labelheap_restore_forget(void)
{
	restore_secid = InvalidOid;
}

/*
 * The label the row's declared label column asks for (see
 * label_sql/column.c), InvalidOid if the table has no such column or the
 * value is NULL.  The column's value is set to NULL in the slot: the data
 * area never holds it.  Call before write.c's prepare_tuple().
 */
static Oid
column_secid(Relation rel, TupleTableSlot *slot)
{
	AttrNumber	attnum = labelheap_label_column_attnum(rel);

	if (attnum == 0)
		return InvalidOid;
	return labelheap_label_column_take(slot, attnum);
}

/*
 * Label of a row that tuple_insert writes, its checks done.
 *
 * A label column whose value differs from the label the row would get
 * relabels: that needs relabelto besides insert.  perms == 0 means the row
 * carries a label: a rewrite (whose rows hold NULL in the column) or an
 * UPDATE that moves the row to another partition, where setting the column
 * relabels the old row's label as UPDATE does.
 */
Oid
labelheap_insert_secid(Relation rel, TupleTableSlot *slot)
{
	uint32		perms;
	Oid			secid = new_secid(rel, &perms);
	Oid			colsecid = column_secid(rel, slot);
	int			depth = 1;

	/*
	 * a row a logical replication worker applies carries its label, which
	 * a trusted worker's own label decides (depth 0, avc/maintenance.c)
	 */
	if (unlikely(labelheap_replicated_write()))
	{
		labelheap_replicated_row(rel, colsecid);
		depth = 0;
	}

	/* the row dump.c restores, inserted by its own INSERT */
	if (unlikely(OidIsValid(restore_secid)) &&
		labelheap_frame_outer_id() == restore_frame)
	{
		depth = 2;
		colsecid = restore_secid;
		restore_secid = InvalidOid;
		if (perms == 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("a restored row cannot carry another label")));
	}

	if (OidIsValid(colsecid) && colsecid != secid)
	{
		if (perms == 0)
		{
			avc_require_tuple(rel, secid,
							  AVC_DB_TUPLE_UPDATE | AVC_DB_TUPLE_RELABELFROM);
			avc_require_tuple(rel, colsecid, AVC_DB_TUPLE_RELABELTO);
			avc_require_relabel(rel, secid, colsecid);
		}
		else
			require_chosen_label(rel, secid, perms, colsecid, depth);
		return colsecid;
	}
	if (perms != 0)
		avc_require_tuple(rel, secid, perms);
	return secid;
}

/*
 * Only COPY inserts in batches, and its rows all get the same label unless
 * the table has a label column: the carried labels of rewrites and
 * partition moves come through tuple_insert.  The batch's label is checked
 * once, when the first row that gets it comes.
 */
void
labelheap_batch_label_begin(Relation rel, LabelheapBatchLabel *batch)
{
	batch->secid = new_secid(rel, &batch->perms);
	batch->checked = false;

	/*
	 * Once for the batch: COPY holds a lock that keeps the table's columns
	 * as they are until it ends.
	 */
	batch->attnum = labelheap_label_column_attnum(rel);

	/* a table synchronization worker's COPY: each row carries its label */
	if (unlikely(batch->attnum == 0 && labelheap_replicated_write()))
		labelheap_replicated_row(rel, InvalidOid);
}

/* labelheap_batch_row_secid's rows of a label column, and its first row */
Oid
labelheap_batch_row_secid_slow(Relation rel, LabelheapBatchLabel *batch,
							   TupleTableSlot *slot)
{
	Oid			colsecid = InvalidOid;
	int			depth = 1;

	if (batch->attnum != 0)
		colsecid = labelheap_label_column_take(slot, batch->attnum);
	/* a table synchronization worker's row: as labelheap_insert_secid's */
	if (unlikely(labelheap_replicated_write()))
	{
		labelheap_replicated_row(rel, colsecid);
		depth = 0;
	}
	if (OidIsValid(colsecid) && colsecid != batch->secid)
	{
		require_chosen_label(rel, batch->secid, batch->perms, colsecid, depth);
		return colsecid;
	}
	if (!batch->checked && batch->perms != 0)
		avc_require_tuple(rel, batch->secid, batch->perms);
	batch->checked = true;
	return batch->secid;
}

/*
 * Label of the version that tuple_update writes in place of one labeled
 * oldsecid, its checks done.  The new version keeps the old one's label,
 * unless the UPDATE sets the table's label column or the session relabels
 * with labelam.update_label (the column wins): then it needs relabelfrom
 * on the old label and relabelto on the new one besides update.  An UPDATE
 * that does not set the label column forms the new row from the old
 * version's stored values, where the column is NULL.  (update_checks:
 * the checks; labelheap_update_secid: the label.)
 */
static Oid
update_checks(Relation rel, Oid oldsecid, Oid newsecid)
{
	if (OidIsValid(newsecid) && newsecid != oldsecid)
	{
		avc_require_tuple(rel, oldsecid,
						  AVC_DB_TUPLE_UPDATE | AVC_DB_TUPLE_RELABELFROM);
		avc_require_tuple(rel, newsecid, AVC_DB_TUPLE_RELABELTO);
		avc_require_relabel(rel, oldsecid, newsecid);
		return newsecid;
	}
	avc_require_tuple(rel, oldsecid, AVC_DB_TUPLE_UPDATE);
	return oldsecid;
}

Oid
labelheap_update_secid(Relation rel, Oid oldsecid, TupleTableSlot *slot)
{
	Oid			newsecid = column_secid(rel, slot);

	/* a row a logical replication worker applies: as in insert_secid */
	if (unlikely(labelheap_replicated_write()))
	{
		bool		widened;

		labelheap_replicated_row(rel, newsecid);
		widened = avc_maintenance_begin(0);
		PG_TRY();
		{
			newsecid = update_checks(rel, oldsecid, newsecid);
		}
		PG_FINALLY();
		{
			avc_maintenance_end(widened);
		}
		PG_END_TRY();
		return newsecid;
	}
	if (!OidIsValid(newsecid))
		newsecid = setting_secid(update_label, &update_cache);
	return update_checks(rel, oldsecid, newsecid);
}

/* Called by src/hooks.c at transaction end. */
void
labelheap_labeling_xact(XactEvent event)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_PREPARE)
	{
		forget_rewrite_sources();
		row_moving = false;
		restore_secid = InvalidOid;
		source_label_forget();
	}
}

void
labelheap_labeling_init(void)
{
	DefineCustomStringVariable("labelam.insert_label",
							   "Security label of the rows this session inserts.",
							   "Empty: the policy chooses the label.",
							   &insert_label,
							   "",
							   PGC_USERSET,
							   0,
							   check_label_setting, NULL, NULL);

	DefineCustomBoolVariable("labelam.restore_labels",
							 "Restores labels from the label field that labelam.dump_labels writes, and checks restored labels as relabels.",
							 "A row whose label differs from the one the session gives new rows needs insert, update and relabelfrom on that label and relabelto on its own.",
							 &labelheap_restore_labels,
							 false,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);

	DefineCustomStringVariable("labelam.update_label",
							   "Security label that rows this session updates get (relabeling them).",
							   "Empty: updated rows keep their label.",
							   &update_label,
							   "",
							   PGC_USERSET,
							   0,
							   check_label_setting, NULL, NULL);
}
