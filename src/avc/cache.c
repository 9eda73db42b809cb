/*-------------------------------------------------------------------------
 *
 * src/avc/cache.c
 *	  The backend-local decision cache (an "access vector cache").
 *
 * Decisions are cached by (subject, object, class).  The subject is a
 * backend-local label id: the session's label need not be in the label
 * dictionary (a client's label is only interned when it writes a row, and
 * interning at connection time would fail on a hot standby).  Objects are
 * dictionary secids (rows) or local ids (labels given as text).  The cache
 * holds the whole decision (allowed, auditallow, auditdeny) for every
 * permission of the class, so one miss answers all later questions about
 * the pair.
 *
 * The cache is reset when the policy's sequence number or labelam.enforcing
 * changes (checked at the first decision of each statement), when the
 * session's label changes, and when it is full (it is bounded; a reset is
 * cheaper than bookkeeping for eviction and a working set that overflows
 * is rare).
 *
 * In front of it sits a one-entry fast path for the session's subject and
 * db_tuple: a scan mostly sees runs of rows with the same label, so the
 * filter's per-row cost is a compare and a few bit operations (two: one
 * for reads, one for writes).  ANALYZE's statistics subject has its own,
 * in statistics.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"
#include "label_store/label_store.h"

/* more entries than this and the cache starts over */
#define AVC_CACHE_MAX	8192
/*
 * more local labels than this and they start over (with the cache), at the
 * next statement
 */
#define AVC_LABELS_MAX	4096

typedef struct AvcKey
{
	uint32		subject;		/* local id */
	uint32		object;			/* secid or local id, per kind */
	uint16		tclass;
	uint16		kind;			/* AvcObjKind, or AVC_KIND_CREATE + kind */
} AvcKey;

/* kinds of entry holding the label of a new object rather than a decision */
#define AVC_KIND_CREATE		16

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
									 ((uint32) key.kind << 16)));
}

#define SH_PREFIX		avch
#define SH_ELEMENT_TYPE AvcEntry
#define SH_KEY_TYPE		AvcKey
#define SH_KEY			key
#define SH_HASH_KEY(tb, k)	avc_key_hash(k)
#define SH_EQUAL(tb, a, b)	((a).subject == (b).subject && (a).object == (b).object && \
							 (a).tclass == (b).tclass && (a).kind == (b).kind)
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/* local labels: canonical text -> local id */
typedef struct AvcLabel
{
	const char *text;
	uint32		lid;
	char		status;
} AvcLabel;

#define SH_PREFIX		avcl
#define SH_ELEMENT_TYPE AvcLabel
#define SH_KEY_TYPE		const char *
#define SH_KEY			text
#define SH_HASH_KEY(tb, k)	hash_bytes((const unsigned char *) (k), strlen(k))
#define SH_EQUAL(tb, a, b)	(strcmp(a, b) == 0)
#define SH_SCOPE		static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

static MemoryContext avc_cxt = NULL;	/* everything below */
static MemoryContext avc_dec_cxt = NULL;	/* decisions, new-object labels */
static avch_hash *avc_cache = NULL;
static avcl_hash *avc_labels = NULL;

/* local id -> text, for ids of the current generation of avc_labels */
static const char **avc_label_texts = NULL;
static uint32 avc_label_first = 1;	/* first id of the current generation */
static uint32 avc_label_count = 0;
static uint32 avc_label_alloc = 0;
static uint32 avc_label_next = 1;	/* never reused: 0 is "none" */

/* the session's subject */
static char *avc_subject = NULL;	/* canonical text, TopMemoryContext */
static uint32 avc_subject_lid = 0;	/* 0: not looked up yet */

/* trusted procedures running (avc_push_subject) */
static int	avc_pushed = 0;

/*
 * The fast path: the last db_tuple decision for the session's subject, one
 * for reads and one for writes, so that a statement that reads rows of one
 * label and writes rows of another (INSERT ... SELECT, UPDATE) does not
 * evict one with the other on every row.
 */
typedef struct AvcFast
{
	uint64		object;			/* kind << 32 | object; 0: empty */
	AvcDecision avd;
} AvcFast;

#define AVC_FAST_SLOT(perms)	(((perms) & AVC_DB_TUPLE_SELECT) ? 0 : 1)
static AvcFast avc_fast[2];

static uint64 avc_seqno = 0;

/* changes whenever a cached decision may no longer hold (avc.h) */
uint64		avc_decision_epoch = 0;
bool		avc_revalidate_pending = true;

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

static uint64 stat_hits = 0;
static uint64 stat_misses = 0;
static uint64 stat_resets = 0;

static const AvcDecision avc_deny_all = {
	.allowed = 0,.auditallow = 0,.auditdeny = ~0U,.constrained = 0,
	.permissive = false
};

static void
avc_cache_create(void)
{
	if (avc_cxt == NULL)
		avc_cxt = AllocSetContextCreate(TopMemoryContext, "labelam avc",
										ALLOCSET_DEFAULT_SIZES);
	avc_dec_cxt = AllocSetContextCreate(avc_cxt, "labelam avc decisions",
										ALLOCSET_DEFAULT_SIZES);
	avc_cache = avch_create(avc_dec_cxt, 256, NULL);
	avc_labels = avcl_create(avc_cxt, 64, NULL);
	avc_label_alloc = 64;
	avc_label_texts = MemoryContextAllocZero(avc_cxt,
											 avc_label_alloc * sizeof(char *));
	avc_label_first = avc_label_next;
	avc_label_count = 0;
	avc_subject_lid = 0;
}

/* Forget every decision (and every local label). */
void
avc_cache_reset(void)
{
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
	avc_table_label_forget();	/* new policy or subject */
	avc_statistics_forget(true);
	if (avc_cache != NULL)
		stat_resets++;
	if (avc_cxt != NULL)
		MemoryContextReset(avc_cxt);	/* deletes avc_dec_cxt too */
	avc_dec_cxt = NULL;
	avc_cache = NULL;
	avc_labels = NULL;
	avc_label_texts = NULL;
	avc_subject_lid = 0;
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
	AvcLabel   *l;
	bool		found;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	avc_ensure_cache();
	l = avcl_insert(avc_labels, label, &found);
	if (!found)
	{
		l->text = MemoryContextStrdup(avc_cxt, label);
		l->lid = avc_label_next++;
		if (avc_label_count >= avc_label_alloc)
		{
			avc_label_texts = repalloc(avc_label_texts,
									   avc_label_alloc * 2 * sizeof(char *));
			avc_label_alloc *= 2;
		}
		avc_label_texts[avc_label_count++] = l->text;
	}
	return l->lid;
}

const char *
avc_local_text(uint32 lid)
{
	if (avc_label_texts == NULL || lid < avc_label_first ||
		lid - avc_label_first >= avc_label_count)
		elog(ERROR, "labelam: stale local label id %u", lid);
	return avc_label_texts[lid - avc_label_first];
}

/* Text of an object (palloc'd or cache-owned), or NULL if unknown. */
char *
avc_object_text(AvcObjKind kind, uint32 object)
{
	if (kind == AVC_OBJ_SECID)
		return label_text((Oid) object);
	return (char *) avc_local_text(object);
}

/*
 * The label to decide with for an object: its own, unless it is a stored
 * label that the policy in force does not know (a type removed since the
 * row was written, say), in which case the policy's "unlabeled" context,
 * as SELinux does for files; policies grant little on it, typically only
 * relabeling by administrators.  Labels given as text were validated when
 * they were given.
 */
static char *
avc_decision_text(AvcObjKind kind, uint32 object)
{
	char	   *text = avc_object_text(kind, object);

	if (kind == AVC_OBJ_SECID && text != NULL && !avc_provider->valid(text))
	{
		pfree(text);
		text = avc_provider->unlabeled();
	}
	return text;
}

/* The session's label changed (or was set at connection): start over. */
void
avc_set_subject(const char *label)
{
	char	   *copy = NULL;

	if (label != NULL && label[0] != '\0')
		copy = MemoryContextStrdup(TopMemoryContext, label);
	if (avc_subject)
		pfree(avc_subject);
	avc_subject = copy;
	avc_cache_reset();
}

const char *
avc_client_label(void)
{
	return avc_subject;
}

/*
 * Local id of the session's subject, or 0 if the process has none.  The
 * first use of the cache in a statement may start it over (avc_revalidate),
 * so that happens before an id is handed out: callers pass it straight to
 * avc_decide.
 */
uint32
avc_subject_local_id(void)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (avc_subject == NULL)
		return 0;
	if (avc_subject_lid == 0 || avc_cache == NULL)
	{
		uint32		lid = avc_local_id(avc_subject);

		avc_subject_lid = lid;
	}
	return avc_subject_lid;
}

/*
 * First use of the cache in a statement: pick up a new policy or mode, and
 * start over if the local labels grew too many.  A new policy file that
 * cannot be loaded leaves the provider's last one in force (provider.h).
 */
void
avc_revalidate(void)
{
	uint64		seqno = avc_provider->policy_seqno();

	if (seqno != avc_seqno || avc_enforcing != avc_enforcing_in_force)
	{
		if (avc_seqno != 0)
			avc_cache_reset();
		avc_seqno = seqno;
		avc_enforcing_in_force = avc_enforcing;
	}
	else if (avc_label_count >= AVC_LABELS_MAX)
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
static void
avc_forget_decisions(void)
{
	MemoryContextReset(avc_dec_cxt);
	avc_cache = avch_create(avc_dec_cxt, 256, NULL);
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
	avc_statistics_forget(false);
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
 * The decision for (subject, object, class), from the cache or the
 * provider.  Denies everything for subject 0 (no subject) and for secids
 * that name no label (maybe not committed yet); returns false for those,
 * which are not to be remembered.
 */
bool
avc_decide(AvcClass tclass, uint32 subject_lid, AvcObjKind kind,
		   uint32 object, AvcDecision *avd)
{
	AvcKey		key;
	AvcEntry   *e;
	bool		found;
	char	   *otext;
	const char *stext;
	AvcDecision d;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (subject_lid == 0)
	{
		*avd = avc_deny_all;
		return false;
	}

	avc_ensure_cache();
	key.subject = subject_lid;
	key.object = object;
	key.tclass = tclass;
	key.kind = kind;
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		stat_hits++;
		*avd = e->avd;
		return true;
	}

	stat_misses++;
	stext = avc_local_text(subject_lid);
	otext = avc_decision_text(kind, object);
	if (otext == NULL)
	{
		*avd = avc_deny_all;
		return false;
	}
	avc_provider->compute_av(stext, otext, tclass, &d);
	if (kind == AVC_OBJ_SECID)
		pfree(otext);
	if (!avc_enforcing_in_force)
		d.permissive = true;

	/* the provider may have looked labels up: insert only now */
	e = avc_lookup(key, &found);
	e->avd = d;
	e->created = NULL;
	e->unlabeled = false;
	*avd = d;
	return true;
}

/*
 * db_tuple decision for the session's subject, through the fast path.
 * nrows: the decision is made for that many rows, and recorded for the
 * statement's audit for each (avc_check_tuple: 1); 0 records nothing.
 * *recorded (when given): whether a call with nrows > 0 would record it.
 */
static pg_attribute_always_inline bool
avc_check_fast(Relation rel, AvcObjKind kind, uint32 object, uint32 perms,
			   uint64 nrows, bool *recorded)
{
	uint64		fkey = ((uint64) kind << 32) | object;
	AvcFast    *fast = &avc_fast[AVC_FAST_SLOT(perms)];
	const AvcDecision *avd;
	bool		allowed;
	bool		record;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (likely(fkey == fast->object && fkey != 0))
	{
		stat_hits++;
		avd = &fast->avd;
	}
	else
	{
		AvcDecision d;

		if (avc_decide(AVC_CLASS_DB_TUPLE, avc_subject_local_id(), kind,
					   object, &d))
		{
			fast->object = fkey;
			fast->avd = d;
			avd = &fast->avd;
		}
		else
		{
			/* not cacheable: decide (and audit) from a local copy */
			bool		ok = (d.allowed & perms) == perms;

			record = avc_audit_mode != AVC_AUDIT_NONE;
			if (recorded)
				*recorded = record;
			if (record && nrows > 0)
				avc_audit_record_rows(rel, AVC_CLASS_DB_TUPLE, kind, object,
									  &d, perms, nrows);
			return ok || d.permissive;
		}
	}

	allowed = (avd->allowed & perms) == perms;
	record = unlikely(avc_audit_mode != AVC_AUDIT_NONE) &&
		(avc_audit_mode == AVC_AUDIT_ALL ||
		 (allowed ? (avd->auditallow & perms) != 0 :
		  (avd->auditdeny & perms & ~avd->allowed) != 0));
	if (recorded)
		*recorded = record;
	if (record && nrows > 0)
		avc_audit_record_rows(rel, AVC_CLASS_DB_TUPLE, kind, object, avd,
							  perms, nrows);
	return allowed || avd->permissive;
}

bool
avc_check_tuple(Relation rel, Oid object_secid, uint32 perms)
{
	return avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, 1, NULL);
}

bool
avc_check_tuple_ahead(Oid object_secid, uint32 perms, bool *recorded)
{
	return avc_check_fast(NULL, AVC_OBJ_SECID, object_secid, perms, 0,
						  recorded);
}

bool
avc_check_tuple_rows(Relation rel, Oid object_secid, uint32 perms,
					 uint64 nrows)
{
	return avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, nrows,
						  NULL);
}

bool
avc_tuple_allowed(Oid object_secid, uint32 perms)
{
	AvcDecision d;

	/* not cacheable (no subject, unknown secid) comes back as deny-all */
	(void) avc_decide(AVC_CLASS_DB_TUPLE, avc_subject_local_id(),
					  AVC_OBJ_SECID, object_secid, &d);
	return (d.allowed & perms) == perms || d.permissive;
}

bool
avc_tuple_label_allowed(const char *label, uint32 perms)
{
	AvcDecision d;
	const char *decided_as;

	avc_decide_object(AVC_CLASS_DB_TUPLE, label, &d, &decided_as);
	return (d.allowed & perms) == perms || d.permissive;
}

void
avc_require_tuple(Relation rel, Oid object_secid, uint32 perms)
{
	if (!avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, 1, NULL))
	{
		AvcDecision d;
		char	   *otext = NULL;

		avc_decide(AVC_CLASS_DB_TUPLE, avc_subject_local_id(), AVC_OBJ_SECID,
				   object_secid, &d);
		/* name the row's label only to a session that may read it */
		if ((d.allowed & AVC_DB_TUPLE_SELECT) || d.permissive)
			otext = label_text(object_secid);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s rows of relation \"%s\"",
						avc_perms_text(AVC_CLASS_DB_TUPLE, perms & ~d.allowed),
						rel ? RelationGetRelationName(rel) : "?"),
				 otext ?
				 errdetail("The security policy does not allow { %s } to \"%s\" on rows labeled \"%s\".",
						   avc_perms_text(AVC_CLASS_DB_TUPLE, perms & ~d.allowed),
						   avc_subject ? avc_subject : "(no label)", otext) :
				 errdetail("The security policy does not allow { %s } to \"%s\" on a row beyond the reach of the session's security label.",
						   avc_perms_text(AVC_CLASS_DB_TUPLE, perms & ~d.allowed),
						   avc_subject ? avc_subject : "(no label)")));
	}
}

/* Label of a new object of class db_tuple under a parent (cached). */
static const char *
avc_create_cached(uint32 subject_lid, AvcObjKind kind, uint32 parent)
{
	AvcKey		key;
	AvcEntry   *e;
	bool		found;
	char	   *ptext;
	char	   *created;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	avc_ensure_cache();
	key.subject = subject_lid;
	key.object = parent;
	key.tclass = AVC_CLASS_DB_TUPLE;
	key.kind = AVC_KIND_CREATE + kind;
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		stat_hits++;
		return e->created;
	}
	stat_misses++;
	ptext = avc_decision_text(kind, parent);
	if (ptext == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("security label with secid %u does not exist", parent)));
	created = avc_provider->compute_create(avc_local_text(subject_lid), ptext,
										   AVC_CLASS_DB_TUPLE, NULL);
	e = avc_lookup(key, &found);
	e->created = MemoryContextStrdup(avc_dec_cxt, created);
	e->unlabeled = false;
	memset(&e->avd, 0, sizeof(e->avd));
	pfree(created);
	return e->created;
}

const char *
avc_create_local(uint32 subject_lid, uint32 parent_lid)
{
	return avc_create_cached(subject_lid, AVC_OBJ_LOCAL, parent_lid);
}

static uint32
avc_require_subject(void)
{
	uint32		subject = avc_subject_local_id();

	if (subject == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label"),
				 errhint("Processes without a user session get a label from labelam.default_client_label.")));
	return subject;
}

/*
 * The table's label is text (avc_table_label_text): it gets a local id, so
 * the created label is computed and cached without the dictionary.
 */
char *
avc_create_label_text(const char *table_label)
{
	uint32		subject = avc_require_subject();
	uint32		parent = avc_local_id(table_label);

	return pstrdup(avc_create_cached(subject, AVC_OBJ_LOCAL, parent));
}

/* For labelam.create_row_label(table_secid): the same, from a secid. */
Oid
avc_create_label(Oid table_secid)
{
	uint32		subject = avc_require_subject();

	return label_intern(pstrdup(avc_create_cached(subject, AVC_OBJ_SECID,
												  table_secid)));
}

void
avc_cache_stats(uint64 *hits, uint64 *misses, uint64 *resets, uint64 *entries)
{
	*hits = stat_hits;
	*misses = stat_misses;
	*resets = stat_resets;
	*entries = avc_cache ? avc_cache->members : 0;
}

/*
 * For bench/: n decisions of the session's subject, cycling over the
 * given object labels, through the same path as the row filter (one label:
 * the fast path; several: the cache; misses: every decision is a miss, the
 * cache being emptied before each).  Returns seconds.
 */
double
avc_bench(const char *const *objects, int nobjects, int64 n, bool misses)
{
	uint32	   *lids;
	instr_time	start,
				end;
	int64		i;
	int64		allowed = 0;
	int			j;

	lids = palloc(sizeof(uint32) * nobjects);
	for (j = 0; j < nobjects; j++)
		lids[j] = avc_local_id(avc_canonicalize(objects[j]));
	(void) avc_require_subject();

	INSTR_TIME_SET_CURRENT(start);
	for (i = 0, j = 0; i < n; i++)
	{
		if (misses)
			avc_forget_decisions();
		allowed += avc_check_fast(NULL, AVC_OBJ_LOCAL, lids[j],
								  AVC_DB_TUPLE_SELECT, 1, NULL);
		if (++j == nobjects)
			j = 0;
	}
	INSTR_TIME_SET_CURRENT(end);
	INSTR_TIME_SUBTRACT(end, start);
	pfree(lids);
	if (allowed > n)
		elog(ERROR, "unreachable");
	return INSTR_TIME_GET_DOUBLE(end);
}

/* ---- database objects (avc_objects.h) ---- */

/*
 * The session's subject's decision on an object of tclass labeled tcontext
 * (text from pg_seclabel, or NULL).  A missing label, or one the policy in
 * force does not know, is decided as the policy's "unlabeled", as SELinux
 * and contrib/sepgsql do; *decided_as then names the label the decision is
 * about (for the audit).  Cached like row decisions; the validity of the
 * label is looked at only on a miss.
 */
void
avc_decide_object(AvcClass tclass, const char *tcontext, AvcDecision *avd,
				  const char **decided_as)
{
	uint32		subject;
	uint32		object;
	AvcKey		key;
	AvcEntry   *e;
	bool		found;
	const char *label;
	bool		unlabeled;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	subject = avc_subject_local_id();
	if (subject == 0)
	{
		*avd = avc_deny_all;
		*decided_as = tcontext ? tcontext : "(none)";
		return;
	}
	if (tcontext == NULL)
		tcontext = "";
	object = avc_local_id(tcontext);
	avc_ensure_cache();
	key.subject = subject;
	key.object = object;
	key.tclass = tclass;
	key.kind = AVC_OBJ_LOCAL;
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		stat_hits++;
		*avd = e->avd;
		*decided_as = e->unlabeled ? avc_unlabeled_text() : tcontext;
		return;
	}
	stat_misses++;
	unlabeled = (tcontext[0] == '\0' || !avc_provider->valid(tcontext));
	label = unlabeled ? avc_unlabeled_text() : tcontext;
	avc_provider->compute_av(avc_local_text(subject), label, tclass, avd);
	e = avc_lookup(key, &found);
	e->avd = *avd;
	e->created = NULL;
	e->unlabeled = unlabeled;
	*decided_as = label;
}

/* The policy's label for objects without a valid one (cached). */
const char *
avc_unlabeled_text(void)
{
	static char *unlabeled = NULL;
	static uint64 unlabeled_seqno = 0;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (unlabeled == NULL || unlabeled_seqno != avc_seqno)
	{
		char	   *u = avc_provider->unlabeled();

		if (unlabeled)
			pfree(unlabeled);
		unlabeled = MemoryContextStrdup(TopMemoryContext, u);
		unlabeled_seqno = avc_seqno;
		pfree(u);
	}
	return unlabeled;
}

/* Label of a new object of tclass under tcontext, created by scontext. */
char *
avc_compute_create_text(const char *scontext, const char *tcontext,
						AvcClass tclass, const char *objname)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_provider->compute_create(scontext, tcontext, tclass, objname);
}

bool
avc_policy_defines(AvcClass tclass, uint32 perm)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_provider->defines(tclass, perm);
}

/*
 * A trusted procedure runs with another subject: the row filter, object
 * checks and new labels all follow it until avc_pop_subject.  Decisions
 * stay cached (they are keyed by subject); only the fast path, which is the
 * subject's own, is emptied.
 */
AvcSubjectSave
avc_push_subject(const char *label)
{
	AvcSubjectSave save;

	save.text = avc_subject;
	save.lid = avc_subject_lid;
	avc_subject = MemoryContextStrdup(TopMemoryContext, label);
	avc_subject_lid = 0;
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
	avc_table_label_forget();	/* new rows: the procedure's labels */
	avc_pushed++;
	return save;
}

void
avc_pop_subject(AvcSubjectSave save)
{
	Assert(avc_pushed > 0);
	if (avc_subject)
		pfree(avc_subject);
	avc_subject = save.text;
	/* the cache may have started over meanwhile: look the id up again */
	avc_subject_lid = 0;
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
	avc_table_label_forget();
	avc_pushed--;
}

bool
avc_subject_pushed(void)
{
	return avc_pushed > 0;
}

bool
avc_label_valid(const char *label)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_provider->valid(label);
}
