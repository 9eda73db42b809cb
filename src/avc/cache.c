/*-------------------------------------------------------------------------
 *
 * src/avc/cache.c
 *	  The backend-local decision cache (an "access vector cache"): where
 *	  decisions are kept, and when they stop holding.
 *
 * Decisions are cached by (subject, object, class).  The subject is a
 * backend-local label id: the session's label need not be in the label
 * dictionary (a client's label is only interned when it writes a row, and
 * interning at connection time would fail on a hot standby).  Objects are
 * dictionary secids (rows) or local ids (labels given as text, labels.c).
 * The cache holds the whole decision (allowed, auditallow, auditdeny) for
 * every permission of the class, so one miss answers all later questions
 * about the pair.  decide.c asks the provider and fills it; subject.c says
 * who the subject is.
 *
 * The cache is reset when the policy's sequence number or labelam.enforcing
 * changes (checked at the first decision of each statement), when the
 * session's label changes, and when it is full (it is bounded; a reset is
 * cheaper than bookkeeping for eviction and a working set that overflows
 * is rare).
 *
 * In front of it sits a one-entry fast path for the session's subject and
 * db_tuple (cache.h): a scan mostly sees runs of rows with the same label,
 * so the filter's per-row cost is a compare and a few bit operations (two:
 * one for reads, one for writes).  ANALYZE's statistics subject has its
 * own, in statistics.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "avc/cache.h"

/* more entries than this and the cache starts over */
#define AVC_CACHE_MAX	8192
/*
 * more local labels than this and they start over (with the cache), at the
 * next statement
 */
#define AVC_LABELS_MAX	4096

typedef struct AvcEntry
{
	AvcKey		key;
	char		status;			/* for simplehash */
	bool		unlabeled;		/* decided as "unlabeled" (object's label
								 * unknown to the policy) */
	AvcDecision avd;
	char	   *created;		/* AVC_KIND_CREATE entries */
} AvcEntry;

static inline uint32
avc_key_hash(AvcKey key)
{
	return hash_combine(murmurhash32(key.subject),
						murmurhash32(key.object ^ ((uint32) key.tclass << 24) ^
									 ((uint32) key.kind << 16)) ^
						key.object2);
}

#define SH_PREFIX		avch
#define SH_ELEMENT_TYPE AvcEntry
#define SH_KEY_TYPE		AvcKey
#define SH_KEY			key
#define SH_HASH_KEY(tb, k)	avc_key_hash(k)
#define SH_EQUAL(tb, a, b)	((a).subject == (b).subject && (a).object == (b).object && \
							 (a).object2 == (b).object2 && \
							 (a).tclass == (b).tclass && (a).kind == (b).kind)
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

static MemoryContext avc_cxt = NULL;	/* everything below */
static MemoryContext avc_dec_cxt = NULL;	/* decisions, new-object labels */
static avch_hash *avc_cache = NULL;

AvcFast		avc_fast[2];

uint64		avc_seqno = 0;

/*
 * Start time of the client statement (GetCurrentStatementStartTimestamp)
 * that last revalidated: avc_statement_start asks for no second look at
 * the policy within the statement the client sent (boundaries.c).
 */
TimestampTz avc_revalidated_statement = 0;

/*
 * labelam.enforcing as the statement started: decisions computed in
 * permissive mode are marked permissive and cached, so the cache starts
 * over when the mode changes, in both directions.
 */
bool		avc_enforcing_in_force = true;

uint64		avc_stat_hits = 0;
static uint64 stat_misses = 0;
static uint64 stat_resets = 0;

static void
avc_cache_create(void)
{
	if (avc_cxt == NULL)
		avc_cxt = AllocSetContextCreate(TopMemoryContext, "labelam avc",
										ALLOCSET_DEFAULT_SIZES);
	avc_dec_cxt = AllocSetContextCreate(avc_cxt, "labelam avc decisions",
										ALLOCSET_DEFAULT_SIZES);
	avc_cache = avch_create(avc_dec_cxt, 256, NULL);
}

/*
 * Forget every decision and every local label (labels.c).  Whatever was
 * derived from them follows avc_decision_epoch (statistics.c,
 * table_label.c, the scans of src/am).
 */
void
avc_cache_reset(void)
{
	avc_decision_epoch++;
	avc_fast_forget();
	if (avc_cache != NULL)
		stat_resets++;
	if (avc_cxt != NULL)
		MemoryContextReset(avc_cxt);	/* deletes avc_dec_cxt too */
	avc_dec_cxt = NULL;
	avc_cache = NULL;
	avc_labels_reset();
}

static inline void
avc_ensure_cache(void)
{
	if (unlikely(avc_cache == NULL))
		avc_cache_create();
}

/*
 * Local id of a canonical label, assigning one if new.
 *
 * Ids stay valid until the end of the statement: the cache (labels
 * included) is only ever emptied by avc_revalidate, at the first use of the
 * cache in a statement, which is here or before any id is handed out.
 */
uint32
avc_local_id(const char *label)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_labels_id(label);
}

/*
 * First use of the cache in a statement: pick up a new policy or mode, and
 * start over if the local labels grew too many.  A new policy file that
 * cannot be loaded leaves the provider's last one in force (provider.h).
 */
void
avc_revalidate(void)
{
	static bool revalidating = false;
	uint64		seqno;

	/*
	 * The provider may ask who the subject is while it revalidates (lbac
	 * reads the subject's role for its parallel workers); that question is
	 * answered with the subject as it stands, not by revalidating again.
	 */
	if (revalidating)
		return;
	revalidating = true;
	PG_TRY();
	{
		seqno = avc_provider->policy_seqno();
	}
	PG_FINALLY();
	{
		revalidating = false;
	}
	PG_END_TRY();

	if (seqno != avc_seqno || avc_enforcing != avc_enforcing_in_force)
	{
		if (avc_seqno != 0)
			avc_cache_reset();
		avc_seqno = seqno;
		avc_enforcing_in_force = avc_enforcing;
	}
	else if (avc_labels_count() >= AVC_LABELS_MAX)
		avc_cache_reset();
	avc_revalidate_pending = false;
	avc_revalidated_statement = GetCurrentStatementStartTimestamp();
}

uint64
avc_current_epoch(void)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_decision_epoch;
}

/*
 * Forget the decisions but keep the local labels, so that ids held by
 * callers stay valid.
 */
void
avc_forget_decisions(void)
{
	avc_ensure_cache();
	MemoryContextReset(avc_dec_cxt);
	avc_cache = avch_create(avc_dec_cxt, 256, NULL);
	avc_fast_forget();
	stat_resets++;
}

static AvcEntry *
avc_lookup(AvcKey key, bool *found)
{
	avc_ensure_cache();
	if (avc_cache->members >= AVC_CACHE_MAX)
		avc_forget_decisions();
	return avch_insert(avc_cache, key, found);
}

/*
 * A decision in the cache for key, counted as a hit; false (a miss,
 * counted) if there is none.
 */
bool
avc_cached(AvcKey key, AvcDecision *avd)
{
	AvcEntry   *e;

	avc_ensure_cache();
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		avc_stat_hits++;
		*avd = e->avd;
		return true;
	}
	stat_misses++;
	return false;
}

/*
 * Remember a decision the provider computed (in permissive mode, marked
 * so).  The provider may have looked labels up meanwhile: insert only now.
 */
void
avc_remember(AvcKey key, AvcDecision *d)
{
	AvcEntry   *e;
	bool		found;

	if (!avc_enforcing_in_force)
		d->permissive = true;
	e = avc_lookup(key, &found);
	e->avd = *d;
	e->created = NULL;
	e->unlabeled = false;
}


/* The same for a database object's decision (decide.c's avc_decide_object). */
bool
avc_cached_object(AvcKey key, AvcDecision *avd, bool *unlabeled)
{
	AvcEntry   *e;

	avc_ensure_cache();
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		avc_stat_hits++;
		*avd = e->avd;
		*unlabeled = e->unlabeled;
		return true;
	}
	stat_misses++;
	return false;
}

/* decided as the policy's "unlabeled" context when unlabeled */
void
avc_remember_object(AvcKey key, const AvcDecision *avd, bool unlabeled)
{
	AvcEntry   *e;
	bool		found;

	e = avc_lookup(key, &found);
	e->avd = *avd;
	e->created = NULL;
	e->unlabeled = unlabeled;
}

/* The label of a new object kept for key (AVC_KIND_CREATE), or NULL. */
const char *
avc_cached_created(AvcKey key)
{
	AvcEntry   *e;

	avc_ensure_cache();
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		avc_stat_hits++;
		return e->created;
	}
	stat_misses++;
	return NULL;
}

/* Keep a copy of created for key; returns the copy, valid as the cache is. */
const char *
avc_remember_created(AvcKey key, const char *created)
{
	AvcEntry   *e;
	bool		found;

	e = avc_lookup(key, &found);
	e->created = MemoryContextStrdup(avc_dec_cxt, created);
	e->unlabeled = false;
	memset(&e->avd, 0, sizeof(e->avd));
	return e->created;
}

/* The subject changed, or what it may read: the fast path no longer holds. */
void
avc_fast_forget(void)
{
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
}

void
avc_cache_stats(uint64 *hits, uint64 *misses, uint64 *resets, uint64 *entries)
{
	*hits = avc_stat_hits;
	*misses = stat_misses;
	*resets = stat_resets;
	*entries = avc_cache ? avc_cache->members : 0;
}
