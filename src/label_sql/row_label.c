/*-------------------------------------------------------------------------
 *
 * src/label_sql/row_label.c
 *	  labelam.row_label(tableoid, ctid): the label of a row as text, which
 *	  is what t.security_label reads (see parse.c); and the stub of
 *	  pg_catalog.security_label(record) that exists only to be rewritten.
 *
 * row_label reads the label from the header of the tuple version at ctid.
 * It must not tell anyone more than the row itself would, so it returns
 * NULL unless the caller may select that version:
 *
 *	- the version must be committed, or written by the caller's own
 *	  transaction (INSERT/UPDATE ... RETURNING t.security_label reads the
 *	  new version).  Versions of transactions in progress or aborted are
 *	  never described.  A committed version the caller's snapshot does not
 *	  see (READ COMMITTED rechecks of a concurrently updated row read the
 *	  newest version) is data any later snapshot could select, so it is
 *	  not held back;
 *	- the policy must grant db_tuple select on its label
 *	  (avc_check_tuple(), audited like the row filter's decisions);
 *	- a missing, unused or redirected line pointer, or a header whose label
 *	  is damaged, gives NULL too.
 *
 * NULL rather than an error: a hidden row reads as no row, as it does in a
 * scan, and a caller cannot tell "hidden" from "absent".  Errors are kept
 * for what the caller names: a relation that is not a labelheap table
 * (42809), or one the current user may not SELECT from, directly or
 * through a table it inherits from (42501; for a view
 * owned by someone else the check is still the current user's, as for any
 * function the view calls).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/relation.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_inherits.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "avc/avc.h"
#include "label_store/label_store.h"

PG_FUNCTION_INFO_V1(labelam_row_label);
PG_FUNCTION_INFO_V1(labelam_security_label);

/*
 * Per call site (fn_extra): the relation last read, whether the current
 * user's SELECT privilege on it was checked, and its size in blocks, so
 * that a query reading many rows pays for neither on every row.
 */
typedef struct RowLabelCache
{
	Oid			relid;
	Oid			userid;			/* SELECT privilege checked for this user */
	BlockNumber nblocks;		/* relation size when last looked at */
} RowLabelCache;

/*
 * May userid SELECT from relid or from a table it inherits from?  A query
 * on a partitioned table or inheritance parent checks privileges on that
 * table only, and row_label is then called with each row's own table:
 * whoever may read the parent may read the rows of its members through
 * it.
 */
static bool
may_select(Oid relid, Oid userid)
{
	List	   *pending = list_make1_oid(relid);
	List	   *seen = NIL;
	Relation	inherits = NULL;
	bool		result = false;

	while (pending != NIL && !result)
	{
		Oid			cur = linitial_oid(pending);
		ScanKeyData key;
		SysScanDesc scan;
		HeapTuple	tup;

		pending = list_delete_first(pending);
		if (list_member_oid(seen, cur))
			continue;
		seen = lappend_oid(seen, cur);
		if (pg_class_aclcheck(cur, userid, ACL_SELECT) == ACLCHECK_OK)
		{
			result = true;
			break;
		}

		if (inherits == NULL)
			inherits = table_open(InheritsRelationId, AccessShareLock);
		ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber,
					F_OIDEQ, ObjectIdGetDatum(cur));
		scan = systable_beginscan(inherits, InheritsRelidSeqnoIndexId, true,
								  NULL, 1, &key);
		while (HeapTupleIsValid(tup = systable_getnext(scan)))
			pending = lappend_oid(pending,
								  ((Form_pg_inherits) GETSTRUCT(tup))->inhparent);
		systable_endscan(scan);
	}
	if (inherits != NULL)
		table_close(inherits, AccessShareLock);
	list_free(pending);
	list_free(seen);
	return result;
}

/* Committed, or inserted by this transaction (not by an aborted part). */
static bool
version_committed_or_own(HeapTupleHeader tup)
{
	TransactionId xmin;

	if (HeapTupleHeaderXminCommitted(tup))	/* also frozen */
		return true;
	if (HeapTupleHeaderXminInvalid(tup))
		return false;
	xmin = HeapTupleHeaderGetRawXmin(tup);
	if (TransactionIdIsCurrentTransactionId(xmin))
		return true;
	if (TransactionIdIsInProgress(xmin))
		return false;
	return TransactionIdDidCommit(xmin);
}

/*
 * Secid of the tuple version at tid if the caller may see it (see the
 * file header), else InvalidOid.
 */
static Oid
selectable_version_secid(Relation rel, ItemPointer tid, RowLabelCache *cache)
{
	BlockNumber blkno = ItemPointerGetBlockNumber(tid);

	/* the relation may have grown since (RETURNING of new rows) */
	if (blkno >= cache->nblocks)
	{
		cache->nblocks = RelationGetNumberOfBlocks(rel);
		if (blkno >= cache->nblocks)
			return InvalidOid;
	}
	return labelheap_version_secid(rel, tid, version_committed_or_own, NULL);
}

/*
 * row_label(tableoid, ctid) returns text: the security label of the tuple
 * version at ctid, or NULL if the caller may not select it.
 */
Datum
labelam_row_label(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	ItemPointer tid = (ItemPointer) PG_GETARG_POINTER(1);
	RowLabelCache *cache = fcinfo->flinfo->fn_extra;
	Oid			userid = GetUserId();
	Relation	rel;
	Oid			secid;
	char	   *label = NULL;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
									   sizeof(RowLabelCache));
		fcinfo->flinfo->fn_extra = cache;
	}

	rel = try_relation_open(relid, AccessShareLock);
	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("relation with OID %u does not exist", relid)));

	if (cache->relid != relid)
	{
		cache->relid = relid;
		cache->userid = InvalidOid;
		cache->nblocks = 0;
	}
	if (cache->userid != userid)
	{
		if (!may_select(relid, userid))
			aclcheck_error(ACLCHECK_NO_PRIV,
						   get_relkind_objtype(rel->rd_rel->relkind),
						   RelationGetRelationName(rel));
		cache->userid = userid;
	}
	if (!RELKIND_HAS_TABLE_AM(rel->rd_rel->relkind) ||
		!is_labelheap_relation(rel))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("relation \"%s\" has no security labels",
						RelationGetRelationName(rel)),
				 errdetail("Only tables that use access method labelheap store a label with each row."),
				 (rel->rd_rel->relispartition || has_superclass(relid)) ?
				 errhint("A partitioned table or inheritance tree can show security_label only if every table in it uses labelheap.") : 0));

	/*
	 * Parse analysis only lets a row's own ctid get here, but an invalid
	 * tid would name no row (16+ asserts on it)
	 */
	secid = ItemPointerIsValid(tid) ?
		selectable_version_secid(rel, tid, cache) : InvalidOid;
	if (OidIsValid(secid) &&
		avc_check_tuple(rel, secid, AVC_DB_TUPLE_SELECT))
		label = label_text(secid);
	relation_close(rel, AccessShareLock);

	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

/*
 * security_label(record): the parse-analysis hook replaces every call it
 * can answer.  A call that gets here is one parse analysis never saw (a
 * column default, CHECK constraint, rule action, policy expression or
 * SQL-standard function body): it must not produce a value.
 */
Datum
labelam_security_label(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("security_label() is not supported here"),
			 errdetail("Column defaults, constraints, rules, policies and SQL-standard function bodies are not analyzed the way queries are."),
			 errhint("Write labelam.row_label(t.tableoid, t.ctid) instead of t.security_label there.")));
	PG_RETURN_NULL();			/* keep the compiler quiet */
}
