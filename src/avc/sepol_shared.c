/*-------------------------------------------------------------------------
 *
 * src/avc/sepol_shared.c
 *	  Decisions the sepol provider computed, shared by every backend.
 *
 * libsepol computes a decision in about 175 microseconds with Debian's
 * MLS policy (it formats every constraint expression as text while it
 * evaluates it), and each backend's decision cache (cache.c) starts empty:
 * a session's first scan of a table of 64 labels paid about 13 ms before
 * its first row, every session again.  The kernel's SELinux keeps one
 * access vector cache for the whole system; this is the same for the
 * sepol provider: a decision computed by one backend is found by the
 * others, behind their own caches (they ask here only on a miss).
 *
 * A decision is a function of the policy, the booleans applied to it, the
 * two labels' text and the class, and an entry is keyed by exactly these:
 *  - the policy as a content identity (SepolPolicy.content_id): a hash of
 *    the bytes of the policy file a backend loaded and of the booleans it
 *    applied, so that backends that loaded different policies (one has not
 *    yet noticed a change of the file, or kept its policy because the new
 *    one failed to load) never see each other's decisions, and a policy
 *    loaded again finds its decisions again;
 *  - the subject's and the object's label, as text, compared in full
 *    (labels longer than SHD_LABEL_LEN - 1 bytes are not shared);
 *  - the class.
 * The provider's answer without labelam.enforcing, which cache.c applies
 * after, as it does to a decision computed here.  Errors (a label the
 * policy does not know) are raised before anything is stored.
 *
 * labelam.shared_decisions entries (0: none, every backend computes its
 * own); a full table is emptied at the next insertion, as cache.c's is.
 * One lock: readers share it, and a backend reads here only on its own
 * cache's miss.
 *
 * Only decisions about the session's own subject are shared, looked up
 * and stored: the time of a decision tells whether it had been made
 * before, and a decision for another subject (labelam.check_access takes
 * any) would tell a session which labels the sessions of that subject had
 * met, a flow from one label to another.  As it is, an entry for subject S
 * is made only by a session whose label is S, and found only by one: a
 * session learns which labels other sessions of its own label met, a flow
 * the policy allows.  The counters, which count every session's
 * decisions, are for superusers (sql/30_avc.sql).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"

#include "avc/avc_internal.h"
#include "avc/sepol_internal.h"

#define SHD_LABEL_LEN		256
#define SHD_TRANCHE			"labelam shared decisions"

/* labelam.shared_decisions */
int			avc_shared_decisions = 4096;

typedef struct SharedDecisionKey
{
	uint64		policy[2];		/* SepolPolicy.content_id */
	uint32		tclass;
	char		subject[SHD_LABEL_LEN];
	char		object[SHD_LABEL_LEN];
} SharedDecisionKey;

typedef struct SharedDecision
{
	SharedDecisionKey key;		/* must be first */
	AvcDecision avd;
} SharedDecision;

typedef struct SharedDecisionHeader
{
	LWLock	   *lock;
	pg_atomic_uint64 hits;		/* decisions found here */
	pg_atomic_uint64 computed;	/* decisions stored here */
	pg_atomic_uint64 resets;	/* times the full table was emptied */
} SharedDecisionHeader;

static SharedDecisionHeader *header = NULL;
static HTAB *decisions = NULL;

/* the table is the sepol provider's: none for the kernel's, or when off */
static bool
shared_decisions_wanted(void)
{
	return avc_shared_decisions > 0 && avc_provider != NULL &&
		strcmp(avc_provider->name, "sepol") == 0;
}

static Size
shared_decisions_size(void)
{
	return add_size(MAXALIGN(sizeof(SharedDecisionHeader)),
					hash_estimate_size(avc_shared_decisions,
									   sizeof(SharedDecision)));
}

void
avc_shared_decisions_shmem_request(void)
{
	if (!shared_decisions_wanted())
		return;
	RequestAddinShmemSpace(shared_decisions_size());
	RequestNamedLWLockTranche(SHD_TRANCHE, 1);
}

void
avc_shared_decisions_shmem_startup(void)
{
	HASHCTL		ctl;
	bool		found;

	if (!shared_decisions_wanted())
		return;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	header = ShmemInitStruct("labelam shared decisions header",
							 sizeof(SharedDecisionHeader), &found);
	if (!found)
	{
		header->lock = &(GetNamedLWLockTranche(SHD_TRANCHE))->lock;
		pg_atomic_init_u64(&header->hits, 0);
		pg_atomic_init_u64(&header->computed, 0);
		pg_atomic_init_u64(&header->resets, 0);
	}
	ctl.keysize = sizeof(SharedDecisionKey);
	ctl.entrysize = sizeof(SharedDecision);
	decisions = ShmemInitHash("labelam shared decisions",
							  avc_shared_decisions, avc_shared_decisions,
							  &ctl, HASH_ELEM | HASH_BLOBS);
	LWLockRelease(AddinShmemInitLock);
}

/* the key of (policy in force, subject, object, class); false if too long */
static bool
make_key(SharedDecisionKey *key, const char *scon, const char *tcon,
		 AvcClass tclass)
{
	const char *own = avc_client_label();
	size_t		slen;
	size_t		tlen;

	if (decisions == NULL)
		return false;
	/* the session's own decisions only (see the top of the file) */
	if (own == NULL || strcmp(scon, own) != 0)
		return false;
	slen = strlen(scon);
	tlen = strlen(tcon);
	if (slen >= SHD_LABEL_LEN || tlen >= SHD_LABEL_LEN)
		return false;
	/* zeroed: the whole key is hashed and compared */
	memset(key, 0, sizeof(*key));
	key->policy[0] = sp_cur.content_id[0];
	key->policy[1] = sp_cur.content_id[1];
	key->tclass = (uint32) tclass;
	memcpy(key->subject, scon, slen);
	memcpy(key->object, tcon, tlen);
	return true;
}

/*
 * The decision another backend computed for (scon, tcon, tclass) with the
 * policy in force, if there is one.
 */
bool
sp_shared_lookup(const char *scon, const char *tcon, AvcClass tclass,
				 AvcDecision *avd)
{
	SharedDecisionKey key;
	SharedDecision *e;

	if (!make_key(&key, scon, tcon, tclass))
		return false;
	LWLockAcquire(header->lock, LW_SHARED);
	e = hash_search(decisions, &key, HASH_FIND, NULL);
	if (e != NULL)
		*avd = e->avd;
	LWLockRelease(header->lock);
	if (e != NULL)
		pg_atomic_fetch_add_u64(&header->hits, 1);
	return e != NULL;
}

/* Share the decision just computed for (scon, tcon, tclass). */
void
sp_shared_store(const char *scon, const char *tcon, AvcClass tclass,
				const AvcDecision *avd)
{
	SharedDecisionKey key;
	SharedDecision *e;
	bool		found;

	if (!make_key(&key, scon, tcon, tclass))
		return;
	LWLockAcquire(header->lock, LW_EXCLUSIVE);

	/*
	 * Full: start over, as the backends' own caches do.  (A shared hash
	 * table would go on taking entries from the rest of shared memory: the
	 * bound is kept here.)
	 */
	if (hash_get_num_entries(decisions) >= avc_shared_decisions)
	{
		HASH_SEQ_STATUS seq;
		SharedDecision *old;

		hash_seq_init(&seq, decisions);
		while ((old = hash_seq_search(&seq)) != NULL)
			hash_search(decisions, &old->key, HASH_REMOVE, NULL);
		pg_atomic_fetch_add_u64(&header->resets, 1);
	}
	e = hash_search(decisions, &key, HASH_ENTER_NULL, &found);
	if (e != NULL)
	{
		e->avd = *avd;
		if (!found)
			pg_atomic_fetch_add_u64(&header->computed, 1);
	}
	LWLockRelease(header->lock);
}

PG_FUNCTION_INFO_V1(labelam_shared_decisions);

/*
 * labelam.shared_decisions(): capacity, entries, decisions found by a
 * backend that did not compute them, decisions computed and stored, and
 * times the full table was emptied.  All zero when the table is off or the
 * provider is not sepol.
 */
Datum
labelam_shared_decisions(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	int64		entries = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (decisions != NULL)
	{
		LWLockAcquire(header->lock, LW_SHARED);
		entries = (int64) hash_get_num_entries(decisions);
		LWLockRelease(header->lock);
	}
	values[0] = Int32GetDatum(decisions != NULL ? avc_shared_decisions : 0);
	values[1] = Int64GetDatum(entries);
	values[2] = Int64GetDatum(header ? (int64) pg_atomic_read_u64(&header->hits) : 0);
	values[3] = Int64GetDatum(header ? (int64) pg_atomic_read_u64(&header->computed) : 0);
	values[4] = Int64GetDatum(header ? (int64) pg_atomic_read_u64(&header->resets) : 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
