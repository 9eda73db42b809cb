/*-------------------------------------------------------------------------
 *
 * src/label_store/dict.c
 *	  The label dictionary's interface (label_store.h): interning and
 *	  lookups, the labels this transaction created.
 *
 * A lookup tries, in order: shared memory (committed labels), the labels
 * this transaction interned (not yet committed, so not in shared memory),
 * and the catalog.  A committed row found in the catalog is published to
 * shared memory, so each label costs a catalog read at most once per
 * server lifetime while the shared tables have room.
 *
 * New labels are remembered in backend-local tables that live in the
 * transaction's memory; at commit they are published to shared memory, at
 * abort (of the transaction, or of the subtransaction that interned them)
 * they are forgotten, together with the rows that the abort removes.  A
 * prepared transaction's labels are forgotten too: whoever commits it
 * publishes nothing, and the first lookup after that finds the rows in the
 * catalog.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "commands/dbcommands.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "label_store/label_store.h"
#include "label_store/label_store_int.h"

/* A label interned by this transaction, not committed yet. */
typedef struct PendingLabel
{
	char	   *text;			/* hash key of pending_texts */
	Oid			secid;
	Oid			dictid;
	SubTransactionId subid;		/* subtransaction that owns it */
} PendingLabel;

typedef struct PendingId
{
	Oid			secid;			/* hash key */
	PendingLabel *label;
} PendingId;

/* NULL when this transaction interned nothing; live in TopTransactionContext */
static HTAB *pending_texts = NULL;
static HTAB *pending_ids = NULL;

/*
 * No pending label belongs to a subtransaction above this one (subids only
 * grow, and a committing subtransaction hands its labels to its parent), so
 * the many subtransactions of, say, a PL/pgSQL exception block in a loop
 * need not look at the pending labels at all.
 */
static SubTransactionId pending_max_subid = InvalidSubTransactionId;

static uint32
pending_text_hash(const void *key, Size keysize)
{
	const char *s = *(char *const *) key;

	return hash_bytes((const unsigned char *) s, strlen(s));
}

static int
pending_text_match(const void *key1, const void *key2, Size keysize)
{
	return strcmp(*(char *const *) key1, *(char *const *) key2);
}

static void
pending_add(Oid dictid, Oid secid, const char *label)
{
	PendingLabel *p;
	PendingId  *pid;
	char	   *text;
	bool		found;

	if (pending_texts == NULL)
	{
		HASHCTL		info;
		HTAB	   *texts;

		/* both or neither, should the second fail */
		info.hcxt = TopTransactionContext;
		info.keysize = sizeof(char *);
		info.entrysize = sizeof(PendingLabel);
		info.hash = pending_text_hash;
		info.match = pending_text_match;
		texts = hash_create("labelam pending labels by text", 16, &info,
							HASH_ELEM | HASH_FUNCTION | HASH_COMPARE |
							HASH_CONTEXT);
		info.keysize = sizeof(Oid);
		info.entrysize = sizeof(PendingId);
		pending_ids = hash_create("labelam pending labels by secid", 16,
								  &info, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		pending_texts = texts;
	}

	text = MemoryContextStrdup(TopTransactionContext, label);
	p = hash_search(pending_texts, &text, HASH_ENTER, &found);
	Assert(!found);
	p->text = text;
	p->secid = secid;
	p->dictid = dictid;
	p->subid = GetCurrentSubTransactionId();
	pending_max_subid = Max(pending_max_subid, p->subid);
	pid = hash_search(pending_ids, &secid, HASH_ENTER, &found);
	Assert(!found);
	pid->label = p;
}

static void
pending_forget_all(void)
{
	/* the memory goes with TopTransactionContext */
	pending_texts = NULL;
	pending_ids = NULL;
	pending_max_subid = InvalidSubTransactionId;
}

void
label_store_xact(XactEvent event)
{
	HASH_SEQ_STATUS status;
	PendingLabel *p;

	if (pending_texts == NULL)
		return;

	switch (event)
	{
		case XACT_EVENT_COMMIT:
			/* committed and visible to all: publish (raises no error) */
			hash_seq_init(&status, pending_texts);
			while ((p = hash_seq_search(&status)) != NULL)
				label_shmem_publish(p->dictid, p->secid, p->text);
			pending_forget_all();
			break;
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PREPARE:
			pending_forget_all();
			break;
		default:
			break;
	}
}

void
label_store_subxact(SubXactEvent event, SubTransactionId mySubid,
				   SubTransactionId parentSubid)
{
	HASH_SEQ_STATUS status;
	PendingLabel *p;

	if (pending_texts == NULL || mySubid > pending_max_subid)
		return;
	if (event != SUBXACT_EVENT_COMMIT_SUB && event != SUBXACT_EVENT_ABORT_SUB)
		return;

	hash_seq_init(&status, pending_texts);
	while ((p = hash_seq_search(&status)) != NULL)
	{
		if (p->subid != mySubid)
			continue;
		if (event == SUBXACT_EVENT_COMMIT_SUB)
			p->subid = parentSubid;
		else
		{
			/* the row is gone with the subtransaction; so is the label */
			char	   *text = p->text;

			hash_search(pending_ids, &p->secid, HASH_REMOVE, NULL);
			hash_search(pending_texts, &text, HASH_REMOVE, NULL);
		}
	}
}

static Oid
pending_secid(const char *label)
{
	PendingLabel *p;

	if (pending_texts == NULL)
		return InvalidOid;
	p = hash_search(pending_texts, &label, HASH_FIND, NULL);
	return p ? p->secid : InvalidOid;
}

static char *
pending_text(Oid secid)
{
	PendingId  *pid;

	if (pending_ids == NULL)
		return NULL;
	pid = hash_search(pending_ids, &secid, HASH_FIND, NULL);
	return pid ? pstrdup(pid->label->text) : NULL;
}

/*
 * Secid of canonical text, without interning; *committed says whether the
 * answer can be cached beyond this transaction.
 */
static Oid
lookup_canonical(const LabelDict *dict, const char *label, bool *committed)
{
	size_t		len = strlen(label);
	Oid			secid;

	*committed = true;
	if (len == 0 || len > LABEL_MAX_LEN)
		return InvalidOid;		/* can't be in the dictionary */

	secid = label_shmem_secid(dict->relid, label, len);
	if (OidIsValid(secid))
		return secid;

	secid = pending_secid(label);
	if (OidIsValid(secid))
	{
		*committed = false;
		return secid;
	}

	secid = label_catalog_secid(dict, label, committed);
	if (OidIsValid(secid) && *committed)
		label_shmem_publish(dict->relid, secid, label);
	return secid;
}

/*
 * The dictionary is a table of the current database: using it takes a
 * transaction (so, not during authentication, for instance).
 */
static inline void
require_transaction(void)
{
	if (!IsTransactionState())
		elog(ERROR, "label dictionary used outside a transaction");
}

static Oid
intern_canonical(const char *label, bool *committed)
{
	LabelDict	dict;
	Oid			secid;
	bool		created;

	require_transaction();
	if (!label_dict_get(&dict))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelam's label dictionary does not exist in database \"%s\"",
						get_database_name(MyDatabaseId)),
				 errhint("Run CREATE EXTENSION labelam in this database.")));

	secid = lookup_canonical(&dict, label, committed);
	if (OidIsValid(secid))
		return secid;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot intern new security label \"%s\" during recovery",
						label),
				 errdetail("New labels can only be added to the dictionary on the primary server.")));
	if (XactReadOnly)
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("cannot intern new security label \"%s\" in a read-only transaction",
						label)));
	if (IsInParallelMode())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("cannot intern new security label \"%s\" during a parallel operation",
						label)));

	secid = label_catalog_intern(&dict, label, &created, committed);
	if (created)
		pending_add(dict.relid, secid, label);
	else if (*committed)
		label_shmem_publish(dict.relid, secid, label);	/* raced, lost */
	return secid;
}

Oid
label_intern_committed(const char *label, bool *committed)
{
	label_validate(label);
	return intern_canonical(label, committed);
}

Oid
label_intern(const char *label)
{
	bool		committed;

	return label_intern_committed(label, &committed);
}

uint64
label_store_generation(void)
{
	return label_dict_generation;
}

/*
 * Exact match: the text must be canonical (as label_intern stores it and
 * policy providers produce it); text that is not is simply not found.
 */
Oid
label_lookup(const char *label)
{
	LabelDict	dict;
	bool		committed;

	require_transaction();
	if (!label_dict_get(&dict))
		return InvalidOid;
	return lookup_canonical(&dict, label, &committed);
}

char *
label_text(Oid secid)
{
	LabelDict	dict;
	char	   *label;
	bool		committed;

	require_transaction();
	if (!OidIsValid(secid) || !label_dict_get(&dict))
		return NULL;

	label = label_shmem_text(dict.relid, secid);
	if (label)
		return label;

	label = pending_text(secid);
	if (label)
		return label;

	label = label_catalog_text(&dict, secid, &committed);
	if (label && committed)
		label_shmem_publish(dict.relid, secid, label);
	return label;
}

void
label_store_init(void)
{
	DefineCustomIntVariable("labelam.max_labels",
							"Number of labels the shared label dictionary can hold.",
							"Labels beyond it still work, read from labelam.pg_security. "
							"Each label takes about 170 bytes of shared memory.",
							&label_max_labels,
							10000,
							16,
							64 * 1024 * 1024,
							PGC_POSTMASTER,
							0,
							NULL, NULL, NULL);
}
