/*-------------------------------------------------------------------------
 *
 * src/label_store/shmem.c
 *	  The shared-memory hash of committed labels, in both directions.
 *
 * Two partitioned dynahash tables hold (database, dictionary, secid) ->
 * text and (database, dictionary, text) -> secid; the text itself lives
 * once in an arena that is only ever appended to.  Entries are never
 * removed: a committed dictionary row never changes, secids are never
 * reused, and an entry of a dropped dictionary (its relation Oid is part of
 * the key) is merely dead weight.  Keys include the database because the
 * dictionary is a per-database table: a database created from a template
 * starts with the template's dictionary and diverges from it.
 *
 * Only rows known to be committed are published here; the callers ensure
 * that.  When the tables or the arena are full, publishing is skipped and
 * lookups fall back to the catalog, which is slower but always right.  The
 * number of labels is bounded by labelam.max_labels, and the arena by
 * LABEL_ARENA_PER_LABEL bytes per label, so that we never eat into the
 * shared memory that PostgreSQL keeps spare for its own tables.
 *
 * Publishing never raises an error: it runs in the commit callback, after
 * the transaction is already committed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/hsearch.h"

#include "label_store/label_store.h"
#include "label_store/label_store_int.h"

/* arena bytes per label: labels average well under this */
#define LABEL_ARENA_PER_LABEL	64

#define LABEL_PARTITIONS		16	/* per table; a power of 2 */
#define LABEL_TRANCHE			"labelam_label_store"

typedef struct LabelIdKey
{
	Oid			dbid;
	Oid			dictid;
	Oid			secid;
} LabelIdKey;

typedef struct LabelIdEntry
{
	LabelIdKey	key;
	uint32		len;
	const char *text;			/* in the arena */
} LabelIdEntry;

/*
 * The text key points at the text: into the arena for stored entries, into
 * the caller's memory for a key being looked up.
 */
typedef struct LabelTextKey
{
	Oid			dbid;
	Oid			dictid;
	uint32		len;
	const char *text;
} LabelTextKey;

typedef struct LabelTextEntry
{
	LabelTextKey key;
	Oid			secid;
} LabelTextEntry;

typedef struct LabelShmemHeader
{
	pg_atomic_uint32 nids;		/* entries in (or reserved in) label_ids */
	pg_atomic_uint32 ntexts;	/* same for label_texts */
	pg_atomic_uint64 arena_used;	/* may overshoot arena_size when full */
	uint64		arena_size;
	char		arena[FLEXIBLE_ARRAY_MEMBER];
} LabelShmemHeader;

int			label_max_labels = 10000;

static LabelShmemHeader *header = NULL;
static HTAB *label_ids = NULL;
static HTAB *label_texts = NULL;
static LWLockPadded *label_locks = NULL;	/* ids first, then texts */

static bool full_warned = false;


static uint32
label_text_hash(const void *key, Size keysize)
{
	const LabelTextKey *k = key;
	uint32		h;

	h = hash_bytes((const unsigned char *) k->text, k->len);
	h = hash_combine(h, murmurhash32(k->dbid));
	h = hash_combine(h, murmurhash32(k->dictid));
	return h;
}

static int
label_text_match(const void *key1, const void *key2, Size keysize)
{
	const LabelTextKey *a = key1;
	const LabelTextKey *b = key2;

	if (a->dbid == b->dbid && a->dictid == b->dictid && a->len == b->len &&
		memcmp(a->text, b->text, a->len) == 0)
		return 0;
	return 1;
}

static Size
label_arena_size(void)
{
	return mul_size(label_max_labels, LABEL_ARENA_PER_LABEL);
}

static Size
label_shmem_size(void)
{
	Size		size;

	size = add_size(offsetof(LabelShmemHeader, arena), label_arena_size());
	size = MAXALIGN(size);
	size = add_size(size, hash_estimate_size(label_max_labels,
											 sizeof(LabelIdEntry)));
	size = add_size(size, hash_estimate_size(label_max_labels,
											 sizeof(LabelTextEntry)));
	return size;
}

/* Is the dictionary's shared memory there (was labelam preloaded)? */
bool
label_shmem_attached(void)
{
	return header != NULL;
}

void
label_shmem_request(void)
{
	RequestAddinShmemSpace(label_shmem_size());
	RequestNamedLWLockTranche(LABEL_TRANCHE, 2 * LABEL_PARTITIONS);
}

void
label_shmem_startup(void)
{
	HASHCTL		info;
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);

	header = ShmemInitStruct("labelam label text",
							 offsetof(LabelShmemHeader, arena) +
							 label_arena_size(),
							 &found);
	if (!found)
	{
		pg_atomic_init_u32(&header->nids, 0);
		pg_atomic_init_u32(&header->ntexts, 0);
		pg_atomic_init_u64(&header->arena_used, 0);
		header->arena_size = label_arena_size();
	}

	/* all entries allocated up front: see label_reserve() */
	info.keysize = sizeof(LabelIdKey);
	info.entrysize = sizeof(LabelIdEntry);
	info.num_partitions = LABEL_PARTITIONS;
	label_ids = ShmemInitHash("labelam labels by secid",
							  label_max_labels, label_max_labels, &info,
							  HASH_ELEM | HASH_BLOBS | HASH_PARTITION);

	info.keysize = sizeof(LabelTextKey);
	info.entrysize = sizeof(LabelTextEntry);
	info.hash = label_text_hash;
	info.match = label_text_match;
	info.num_partitions = LABEL_PARTITIONS;
	label_texts = ShmemInitHash("labelam labels by text",
								label_max_labels, label_max_labels, &info,
								HASH_ELEM | HASH_FUNCTION | HASH_COMPARE |
								HASH_PARTITION);

	label_locks = GetNamedLWLockTranche(LABEL_TRANCHE);

	LWLockRelease(AddinShmemInitLock);
}

/* Registers the shared memory and its locks; from _PG_init. */

static inline LWLock *
id_lock(uint32 hash)
{
	return &label_locks[hash % LABEL_PARTITIONS].lock;
}

static inline LWLock *
text_lock(uint32 hash)
{
	return &label_locks[LABEL_PARTITIONS + hash % LABEL_PARTITIONS].lock;
}

/* Text of a secid (palloc'd), or NULL if not in shared memory. */
char *
label_shmem_text(Oid dictid, Oid secid)
{
	LabelIdKey	key;
	LabelIdEntry *entry;
	uint32		hash;
	LWLock	   *lock;
	char	   *result = NULL;

	if (label_ids == NULL)
		return NULL;

	key.dbid = MyDatabaseId;
	key.dictid = dictid;
	key.secid = secid;
	hash = get_hash_value(label_ids, &key);
	lock = id_lock(hash);

	LWLockAcquire(lock, LW_SHARED);
	entry = hash_search_with_hash_value(label_ids, &key, hash, HASH_FIND,
										NULL);
	if (entry)
		result = pnstrdup(entry->text, entry->len);
	LWLockRelease(lock);

	return result;
}

/* Secid of a text, or InvalidOid if not in shared memory. */
Oid
label_shmem_secid(Oid dictid, const char *label, uint32 len)
{
	LabelTextKey key;
	LabelTextEntry *entry;
	uint32		hash;
	LWLock	   *lock;
	Oid			result = InvalidOid;

	if (label_texts == NULL)
		return InvalidOid;

	key.dbid = MyDatabaseId;
	key.dictid = dictid;
	key.len = len;
	key.text = label;
	hash = get_hash_value(label_texts, &key);
	lock = text_lock(hash);

	LWLockAcquire(lock, LW_SHARED);
	entry = hash_search_with_hash_value(label_texts, &key, hash, HASH_FIND,
										NULL);
	if (entry)
		result = entry->secid;
	LWLockRelease(lock);

	return result;
}

/*
 * Takes one of the table's max_labels slots.  dynahash would otherwise grow
 * a full table into the spare shared memory that the lock manager and
 * others count on.
 */
static bool
label_reserve(pg_atomic_uint32 *counter)
{
	if (pg_atomic_fetch_add_u32(counter, 1) < (uint32) label_max_labels)
		return true;
	pg_atomic_fetch_sub_u32(counter, 1);
	return false;
}

static const char *
label_arena_alloc(const char *label, uint32 len)
{
	uint64		off;

	off = pg_atomic_fetch_add_u64(&header->arena_used, len);
	if (off + len > header->arena_size)
		return NULL;
	memcpy(header->arena + off, label, len);
	return header->arena + off;
}

static void
label_full(void)
{
	if (full_warned)
		return;
	full_warned = true;
	ereport(WARNING,
			(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			 errmsg("labelam's shared label dictionary is full"),
			 errdetail("Labels that do not fit are read from labelam.pg_security, which is slower."),
			 errhint("Increase labelam.max_labels (currently %d) and restart the server.",
					 label_max_labels)));
}

/*
 * Makes a committed dictionary row known to every backend.  Either
 * direction may already be present (another backend published the row
 * first), or may not fit; lookups cope with both.
 */
void
label_shmem_publish(Oid dictid, Oid secid, const char *label)
{
	uint32		len = strlen(label);
	const char *stored = NULL;
	bool		full = false;
	uint32		hash;
	LWLock	   *lock;

	if (label_ids == NULL)
		return;

	/* secid -> text */
	{
		LabelIdKey	key;
		LabelIdEntry *entry;

		key.dbid = MyDatabaseId;
		key.dictid = dictid;
		key.secid = secid;
		hash = get_hash_value(label_ids, &key);
		lock = id_lock(hash);

		LWLockAcquire(lock, LW_EXCLUSIVE);
		entry = hash_search_with_hash_value(label_ids, &key, hash,
											HASH_FIND, NULL);
		if (entry)
			stored = entry->text;
		else if (!label_reserve(&header->nids))
			full = true;
		else if ((stored = label_arena_alloc(label, len)) == NULL)
		{
			pg_atomic_fetch_sub_u32(&header->nids, 1);
			full = true;
		}
		else
		{
			entry = hash_search_with_hash_value(label_ids, &key, hash,
												HASH_ENTER_NULL, NULL);
			if (entry)
			{
				entry->len = len;
				entry->text = stored;
			}
			else
			{
				pg_atomic_fetch_sub_u32(&header->nids, 1);
				full = true;
			}
		}
		LWLockRelease(lock);
	}

	/* text -> secid */
	{
		LabelTextKey key;
		LabelTextEntry *entry;
		bool		found;

		key.dbid = MyDatabaseId;
		key.dictid = dictid;
		key.len = len;
		key.text = label;
		hash = get_hash_value(label_texts, &key);
		lock = text_lock(hash);

		LWLockAcquire(lock, LW_EXCLUSIVE);
		entry = hash_search_with_hash_value(label_texts, &key, hash,
											HASH_FIND, NULL);
		if (entry == NULL)
		{
			if (stored == NULL)
				stored = label_arena_alloc(label, len);
			if (stored == NULL || !label_reserve(&header->ntexts))
				full = true;
			else
			{
				entry = hash_search_with_hash_value(label_texts, &key, hash,
													HASH_ENTER_NULL, &found);
				if (entry)
				{
					/* the key copied in points at our text: use the arena's */
					entry->key.text = stored;
					entry->secid = secid;
				}
				else
				{
					pg_atomic_fetch_sub_u32(&header->ntexts, 1);
					full = true;
				}
			}
		}
		LWLockRelease(lock);
	}

	if (full)
		label_full();
}

void
label_shmem_stats(int64 *nids, int64 *ntexts, int64 *text_bytes,
				  int64 *text_bytes_max, int64 *shmem_bytes)
{
	uint64		used;

	*shmem_bytes = label_shmem_size();
	if (header == NULL)
	{
		*nids = *ntexts = *text_bytes = *text_bytes_max = 0;
		return;
	}
	*nids = pg_atomic_read_u32(&header->nids);
	*ntexts = pg_atomic_read_u32(&header->ntexts);
	used = pg_atomic_read_u64(&header->arena_used);
	*text_bytes = Min(used, header->arena_size);
	*text_bytes_max = header->arena_size;
}
