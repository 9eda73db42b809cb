/*-------------------------------------------------------------------------
 *
 * src/label_store/catalog.c
 *	  The dictionary table labelam.pg_security: finding it, reading it and
 *	  adding labels to it.
 *
 * Reads use SnapshotSelf, not the transaction's snapshot: dictionary rows
 * are only ever inserted, and the text of a secid never changes, so a row
 * committed after our snapshot was taken is as good as an older one, and
 * must be found (a repeatable-read transaction that misses a committed
 * label would otherwise try to intern it again).  SnapshotSelf also shows
 * the rows this transaction inserted, and never rows of transactions that
 * are in progress or aborted.
 *
 * Interning a new label must leave one row per text even when sessions race
 * to intern the same new text.  The exclusion constraint on seclabel would
 * make the second inserter wait for the first and then fail, so inserters
 * first serialize on a heavyweight lock named after a hash of the text
 * (held only while checking and inserting), look for the text with a dirty
 * snapshot, and if an uncommitted row holds it, wait for its transaction
 * and look again: the waiter ends up with the committed secid, or inserts
 * its own if the other transaction aborted.  The lock is released right
 * after the insertion, since the new row itself (seen by the dirty
 * snapshot) then tells later inserters whom to wait for; holding it until
 * commit would cost a lock-table entry per new label.
 *
 * Secids come from the sequence labelam.pg_security_secid_seq rather than
 * the OID counter (GetNewOidWithIndex): sequence values are never handed
 * out twice, not even those of aborted transactions (a backend may keep
 * decisions about a secid it saw in its own aborted transaction), whereas
 * the OID counter wraps around and could hand an aborted secid to another
 * label.  The sequence is dumped by pg_dump along with the table.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "commands/sequence.h"
#include "common/hashfn.h"
#include "executor/executor.h"
#include "nodes/execnodes.h"
#include "storage/lmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "label_store/label_store_int.h"
#include "pg_compat.h"

#define DICT_SCHEMA			"labelam"
#define DICT_TABLE			"pg_security"
#define DICT_SECID_INDEX	"pg_security_pkey"
#define DICT_LABEL_INDEX	"pg_security_seclabel_key"
#define DICT_SEQUENCE		"pg_security_secid_seq"

#define Anum_secid			1
#define Anum_seclabel		2

/*
 * Oids of this database's dictionary, looked up by name once and forgotten
 * when any of those relations is invalidated (DROP EXTENSION).  Absence is
 * not remembered: the extension may be created at any moment.
 */
static LabelDict dict_cache;
static bool dict_valid = false;
static bool dict_callback_registered = false;

/* bumped whenever dict_cache is forgotten, for caches keyed by secid */
uint64		label_dict_generation = 0;

static void
dict_invalidate(Datum arg, Oid relid)
{
	if (!dict_valid)
		return;
	if (relid == InvalidOid ||
		relid == dict_cache.relid ||
		relid == dict_cache.secid_index ||
		relid == dict_cache.label_index ||
		relid == dict_cache.seqid)
	{
		dict_valid = false;
		label_dict_generation++;
	}
}

/*
 * Fills *dict with the Oids of the current database's dictionary; false if
 * the extension is not installed here.
 */
bool
label_dict_get(LabelDict *dict)
{
	Oid			nsp;
	LabelDict	d;

	if (dict_valid)
	{
		*dict = dict_cache;
		return true;
	}

	if (!dict_callback_registered)
	{
		CacheRegisterRelcacheCallback(dict_invalidate, (Datum) 0);
		dict_callback_registered = true;
	}

	nsp = get_namespace_oid(DICT_SCHEMA, true);
	if (!OidIsValid(nsp))
		return false;
	d.relid = get_relname_relid(DICT_TABLE, nsp);
	d.secid_index = get_relname_relid(DICT_SECID_INDEX, nsp);
	d.label_index = get_relname_relid(DICT_LABEL_INDEX, nsp);
	d.seqid = get_relname_relid(DICT_SEQUENCE, nsp);
	if (!OidIsValid(d.relid) || !OidIsValid(d.secid_index) ||
		!OidIsValid(d.label_index) || !OidIsValid(d.seqid))
		return false;			/* e.g. while CREATE EXTENSION runs */

	dict_cache = d;
	dict_valid = true;
	*dict = d;
	return true;
}

/*
 * Scans one of the dictionary's indexes for a row with the given key, using
 * the given snapshot.  The label index is a hash index, whose matches are
 * only candidates: the text is compared here.  Returns the row's secid,
 * text (palloc'd, if wanted), TID and inserting transaction.
 */
static bool
dict_scan(Relation rel, Oid indexid, Snapshot snapshot, Oid secid,
		  const char *label, Oid *secid_out, char **label_out,
		  ItemPointer tid_out, TransactionId *xmin_out)
{
	Relation	index;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData key;
	bool		found = false;
	Datum		labeldatum = (Datum) 0;

	index = index_open(indexid, AccessShareLock);
	if (label != NULL)
	{
		labeldatum = CStringGetTextDatum(label);
		ScanKeyInit(&key, 1, HTEqualStrategyNumber, F_TEXTEQ, labeldatum);
		key.sk_collation = index->rd_indcollation[0];
	}
	else
		ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(secid));

	slot = table_slot_create(rel, NULL);
	scan = labelam_index_beginscan(rel, index, snapshot, 1, 0);
	index_rescan(scan, &key, 1, NULL, 0);

	while (index_getnext_slot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		d;
		HeapTuple	tuple;

		d = slot_getattr(slot, Anum_seclabel, &isnull);
		if (isnull)
			continue;
		if (label != NULL && scan->xs_recheck)
		{
			text	   *t = DatumGetTextPP(d);

			if (VARSIZE_ANY_EXHDR(t) != strlen(label) ||
				memcmp(VARDATA_ANY(t), label, strlen(label)) != 0)
				continue;
		}
		if (label_out)
			*label_out = TextDatumGetCString(d);
		d = slot_getattr(slot, Anum_secid, &isnull);
		*secid_out = isnull ? InvalidOid : DatumGetObjectId(d);
		if (tid_out)
			*tid_out = slot->tts_tid;
		tuple = ExecFetchSlotHeapTuple(slot, false, NULL);
		*xmin_out = HeapTupleHeaderGetXmin(tuple->t_data);
		found = true;
		break;
	}

	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	index_close(index, AccessShareLock);
	if (label != NULL)
		pfree(DatumGetPointer(labeldatum));
	return found;
}

/*
 * Text of a secid, or NULL.  *committed is false if the row was inserted by
 * this transaction (and so must not be published yet).
 */
char *
label_catalog_text(const LabelDict *dict, Oid secid, bool *committed)
{
	Relation	rel;
	char	   *label = NULL;
	Oid			found_secid;
	TransactionId xmin;

	rel = table_open(dict->relid, AccessShareLock);
	if (dict_scan(rel, dict->secid_index, SnapshotSelf, secid, NULL,
				  &found_secid, &label, NULL, &xmin))
		*committed = !TransactionIdIsCurrentTransactionId(xmin);
	table_close(rel, AccessShareLock);
	return label;
}

/* Secid of a label text, or InvalidOid; *committed as above. */
Oid
label_catalog_secid(const LabelDict *dict, const char *label, bool *committed)
{
	Relation	rel;
	Oid			secid = InvalidOid;
	TransactionId xmin;

	rel = table_open(dict->relid, AccessShareLock);
	if (dict_scan(rel, dict->label_index, SnapshotSelf, InvalidOid, label,
				  &secid, NULL, NULL, &xmin))
		*committed = !TransactionIdIsCurrentTransactionId(xmin);
	table_close(rel, AccessShareLock);
	return secid;
}

/* Inserts one dictionary row, with its index entries. */
static void
dict_insert(Relation rel, Oid secid, const char *label)
{
	EState	   *estate;
	ResultRelInfo *rri;
	TupleTableSlot *slot;
	List	   *recheck;

	estate = CreateExecutorState();
	rri = makeNode(ResultRelInfo);
	InitResultRelInfo(rri, rel, 1, NULL, 0);
	ExecOpenIndices(rri, false);

	slot = table_slot_create(rel, NULL);
	ExecClearTuple(slot);
	slot->tts_values[Anum_secid - 1] = ObjectIdGetDatum(secid);
	slot->tts_isnull[Anum_secid - 1] = false;
	slot->tts_values[Anum_seclabel - 1] = CStringGetTextDatum(label);
	slot->tts_isnull[Anum_seclabel - 1] = false;
	ExecStoreVirtualTuple(slot);

	simple_table_tuple_insert(rel, slot);
#if PG_VERSION_NUM >= 160000
	recheck = ExecInsertIndexTuples(rri, slot, estate, false, false, NULL,
									NIL, false);
#else
	recheck = ExecInsertIndexTuples(rri, slot, estate, false, false, NULL,
									NIL);
#endif
	list_free(recheck);

	ExecDropSingleTupleTableSlot(slot);
	ExecCloseIndices(rri);
	FreeExecutorState(estate);
}

/*
 * Secid of a label text, inserting a row for it if there is none (see the
 * file header for how concurrent inserters of one text agree).  *created
 * says whether this call inserted the row; *committed whether the row found
 * was committed (rather than inserted earlier by this transaction).
 */
Oid
label_catalog_intern(const LabelDict *dict, const char *label,
					 bool *created, bool *committed)
{
	Relation	rel;
	uint32		lockid;
	Oid			secid;

	lockid = hash_bytes((const unsigned char *) label, strlen(label));
	rel = table_open(dict->relid, RowExclusiveLock);

	for (;;)
	{
		SnapshotData dirty;
		ItemPointerData tid;
		TransactionId xmin;
		bool		found;

		LockDatabaseObject(dict->relid, lockid, 0, ExclusiveLock);

		InitDirtySnapshot(dirty);
		found = dict_scan(rel, dict->label_index, &dirty, InvalidOid, label,
						  &secid, NULL, &tid, &xmin);
		if (found && TransactionIdIsValid(dirty.xmin))
		{
			/* another transaction is inserting this text: await its fate */
			UnlockDatabaseObject(dict->relid, lockid, 0, ExclusiveLock);
			XactLockTableWait(dirty.xmin, rel, &tid, XLTW_InsertIndexUnique);
			continue;
		}
		if (found)
		{
			*created = false;
			*committed = !TransactionIdIsCurrentTransactionId(xmin);
			break;
		}

		secid = (Oid) nextval_internal(dict->seqid, false);
		dict_insert(rel, secid, label);
		*created = true;
		*committed = false;
		break;
	}

	UnlockDatabaseObject(dict->relid, lockid, 0, ExclusiveLock);
	table_close(rel, RowExclusiveLock);
	return secid;
}
