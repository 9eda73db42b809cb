/*-------------------------------------------------------------------------
 *
 * src/avc/cache.c
 *	  The backend-local decision cache (an "access vector cache").
 *
 * Decisions are cached by (subject, object, class).  The subject is a
 * backend-local label id: the session's label need not be in the label
 * dictionary (a client's label is only interned when it writes a row, and
 * interning at connection time would fail on a hot standby).  Objects are
 * dictionary secids (rows) or local ids (labels given as text, labels.c).
 * The cache holds the whole decision (allowed, auditallow, auditdeny) for
 * every permission of the class, so one miss answers all later questions
 * about the pair.
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

#include "avc/avc_files.h"
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
	uint32		object2;		/* AVC_KIND_RELABEL: the label changed to */
	uint16		tclass;
	uint16		kind;			/* AvcObjKind, or AVC_KIND_CREATE + kind, or
								 * AVC_KIND_RELABEL + kind */
} AvcKey;

/* kinds of entry holding the label of a new object rather than a decision */
#define AVC_KIND_CREATE		16
/* kinds of entry holding the decision on a pair of labels (relabel) */
#define AVC_KIND_RELABEL	32
/* a narrowed session's decision: its narrowed label's AND its own (trusted.c) */
#define AVC_KIND_AND		256

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

/* the local id of the session's subject (labels.c's avc_subject) */
static uint32 avc_subject_lid = 0;	/* 0: not looked up yet */

/*
 * A trusted session (trusted.c): avc_session_subject is its own label, and
 * avc_subject its narrowed label, with whose decisions the own label's
 * are ANDed (avc_subject_and; avc_and_lid its local id), except while
 * avc_subject_widen() lets the own label decide alone.  Whether the
 * session is trusted is known (avc_trust_known) for the policy with
 * sequence number avc_trust_seqno, and settled again under a new one.  For
 * other sessions avc_subject is avc_session_subject and nothing is ANDed.
 */
static char *avc_session_subject = NULL;	/* TopMemoryContext */
static char *avc_narrowed_subject = NULL;	/* TopMemoryContext */
static bool avc_subject_and = false;
static uint32 avc_and_lid = 0;
static bool avc_widened = false;
static bool avc_trust_known = false;
static uint64 avc_trust_seqno = 0;
static bool avc_trust_settling = false;

#define avc_trust_unsettled() \
	(!avc_trust_known || avc_trust_seqno != avc_seqno)

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

/*
 * Read ceilings (avc_files.h): while a command writes a file, decisions
 * that let the subject read data must let a reader at the file's level
 * read it too.  The reader is the subject in force (a trusted procedure's
 * too) at the file's level, computed when that subject first decides.
 */
typedef struct AvcCeiling
{
	char	   *level_of;		/* a label at the file's level */
	char	   *name;			/* the file, for messages */
	uint32		subject_lid;	/* the subject the reader was made for */
	uint32		reader_lid;		/* that subject at the file's level */
} AvcCeiling;

#define AVC_MAX_CEILINGS	8
static AvcCeiling avc_ceilings[AVC_MAX_CEILINGS];
static int	avc_nceilings = 0;

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
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
	if (avc_cache != NULL)
		stat_resets++;
	if (avc_cxt != NULL)
		MemoryContextReset(avc_cxt);	/* deletes avc_dec_cxt too */
	avc_dec_cxt = NULL;
	avc_cache = NULL;
	avc_labels_reset();
	avc_subject_lid = 0;
	avc_and_lid = 0;
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

/* the decision subject's text becomes label (copied; NULL for none) */
static void
avc_subject_text(const char *label)
{
	char	   *copy = NULL;

	if (label != NULL)
		copy = MemoryContextStrdup(TopMemoryContext, label);
	if (avc_subject)
		pfree(avc_subject);
	avc_subject = copy;
	avc_subject_lid = 0;
	avc_and_lid = 0;
}

/* The session's label changed (or was set at connection): start over. */
void
avc_set_subject(const char *label)
{
	if (avc_session_subject)
		pfree(avc_session_subject);
	avc_session_subject = NULL;
	if (label != NULL && label[0] != '\0')
		avc_session_subject = MemoryContextStrdup(TopMemoryContext, label);
	avc_subject_text(avc_session_subject);
	avc_subject_and = false;
	avc_widened = false;
	avc_trust_known = false;
	avc_cache_reset();
}

/*
 * the decisions a change of subject may have made stale are forgotten (and
 * what follows avc_decision_epoch: table_label.c's labels of new rows)
 */
static void
avc_subject_changed(void)
{
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
}

/*
 * Is the session trusted (trusted.c), under the policy in force?  Settled
 * once a policy, when the subject is the session's own (not a trusted
 * procedure's, not widened).  An ERROR (a label that cannot be confined)
 * leaves it unsettled, so every later decision fails too.
 */
static void
avc_trust_settle(void)
{
	char	   *narrowed;

	if (!avc_trust_unsettled() || avc_pushed > 0 || avc_widened ||
		avc_trust_settling)
		return;
	if (avc_session_subject == NULL)
	{
		avc_trust_known = true;
		avc_trust_seqno = avc_seqno;
		return;
	}
	avc_trust_settling = true;
	PG_TRY();
	{
		narrowed = avc_trusted_narrowed(avc_session_subject);
	}
	PG_FINALLY();
	{
		avc_trust_settling = false;
	}
	PG_END_TRY();
	avc_trust_known = true;
	avc_trust_seqno = avc_seqno;
	if (avc_narrowed_subject)
		pfree(avc_narrowed_subject);
	avc_narrowed_subject = NULL;
	if (narrowed != NULL)
	{
		avc_narrowed_subject = MemoryContextStrdup(TopMemoryContext, narrowed);
		pfree(narrowed);
	}
	avc_subject_text(avc_narrowed_subject ? avc_narrowed_subject :
					 avc_session_subject);
	avc_subject_and = avc_narrowed_subject != NULL;
	avc_subject_changed();
}

/* the label decisions are made with (a trusted session's narrowed one) */
const char *
avc_client_label(void)
{
	if (unlikely(avc_trust_unsettled()) && avc_session_subject != NULL &&
		!avc_trust_settling)
	{
		if (unlikely(avc_revalidate_pending))
			avc_revalidate();
		avc_trust_settle();
	}
	return avc_subject;
}

/* the session's own label (labelam.session_label), whatever decides */
const char *
avc_session_label_text(void)
{
	return avc_session_subject;
}

bool
avc_session_trusted(void)
{
	(void) avc_client_label();
	return avc_narrowed_subject != NULL;
}

/*
 * Does the session decide with its narrowed label now (not widened, no
 * trusted procedure running)?
 */
bool
avc_subject_is_narrowed(void)
{
	(void) avc_client_label();
	return avc_subject_and && !avc_widened && avc_pushed == 0;
}

/* trusted.c: the session's own label decides alone, until narrowed again */
void
avc_subject_widen(void)
{
	Assert(avc_subject_is_narrowed());
	avc_widened = true;
	avc_subject_text(avc_session_subject);
	avc_subject_and = false;
	avc_subject_changed();
}

void
avc_subject_narrow(void)
{
	if (!avc_widened)
		return;
	avc_widened = false;
	avc_subject_text(avc_narrowed_subject);
	avc_subject_and = avc_narrowed_subject != NULL;
	if (avc_narrowed_subject == NULL)	/* settled anew meanwhile */
		avc_subject_text(avc_session_subject);
	avc_subject_changed();
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
	if (unlikely(avc_trust_unsettled()))
		avc_trust_settle();
	if (avc_subject == NULL)
		return 0;
	if (avc_subject_lid == 0)
	{
		uint32		lid = avc_local_id(avc_subject);

		avc_subject_lid = lid;
		avc_and_lid = avc_subject_and ? avc_local_id(avc_session_subject) : 0;
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
static void
avc_forget_decisions(void)
{
	MemoryContextReset(avc_dec_cxt);
	avc_cache = avch_create(avc_dec_cxt, 256, NULL);
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
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

/* permissions that read an object's data, per class */
static uint32
avc_read_perms(AvcClass tclass)
{
	switch (tclass)
	{
		case AVC_CLASS_DB_TUPLE:
			return AVC_DB_TUPLE_SELECT | AVC_DB_TUPLE_USE;
		case AVC_CLASS_DB_TABLE:
		case AVC_CLASS_DB_COLUMN:
			return 1U << 6;		/* select */
		case AVC_CLASS_DB_SEQUENCE:
			return (1U << 6) | (1U << 7);	/* get_value, next_value */
		case AVC_CLASS_DB_BLOB:
			return (1U << 6) | (1U << 9);	/* read, export */
		case AVC_CLASS_FILE:
		case AVC_CLASS_FIFO_FILE:
		case AVC_CLASS_CHR_FILE:
		case AVC_CLASS_BLK_FILE:
			return AVC_FILE_READ;
		default:
			return 0;
	}
}

void
avc_read_ceiling_push(const char *level_of, const char *name)
{
	AvcCeiling *c;

	if (avc_nceilings >= AVC_MAX_CEILINGS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many files being written at once")));
	c = &avc_ceilings[avc_nceilings];
	c->level_of = MemoryContextStrdup(TopMemoryContext, level_of);
	c->name = MemoryContextStrdup(TopMemoryContext, name);
	c->subject_lid = 0;
	c->reader_lid = 0;
	avc_nceilings++;
	/* decisions made ahead, and the fast path, knew no ceiling */
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
}

void
avc_read_ceiling_pop(void)
{
	AvcCeiling *c;

	Assert(avc_nceilings > 0);
	c = &avc_ceilings[--avc_nceilings];
	pfree(c->level_of);
	pfree(c->name);
	avc_decision_epoch++;
}

bool
avc_read_ceiling_active(void)
{
	return avc_nceilings > 0;
}

/*
 * The subject (subject_lid, in force) may read some of what *avd allows
 * on (kind, object) of tclass: so must a reader at each ceiling's level,
 * or the command writing the file fails before it reads.
 */
static void
avc_ceiling_check(AvcClass tclass, AvcObjKind kind, uint32 object,
				  const AvcDecision *avd)
{
	uint32		reads = avc_read_perms(tclass) & avd->allowed;
	uint32		subject_lid = avc_subject_lid;
	int			i;

	if (reads == 0 || avd->permissive)
		return;
	for (i = 0; i < avc_nceilings; i++)
	{
		AvcCeiling *c = &avc_ceilings[i];
		AvcDecision cd;
		uint32		missing;
		char	   *otext;

		/* local ids are never reused: one below the first is stale */
		if (c->subject_lid != subject_lid || !avc_labels_current(c->reader_lid))
		{
			char	   *reader = avc_label_at_level(avc_local_text(subject_lid),
													c->level_of);

			c->reader_lid = avc_local_id(reader);
			c->subject_lid = subject_lid;
			pfree(reader);
		}
		/* at its own level the subject is the reader: nothing to ask */
		if (c->reader_lid == subject_lid)
			continue;
		(void) avc_decide(tclass, c->reader_lid, kind, object, &cd);
		missing = reads & ~cd.allowed;
		if (missing == 0 || cd.permissive)
			continue;
		otext = avc_object_text(kind, object);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to write file \"%s\" with data from above its level",
						c->name),
				 errdetail("The command reads %s labeled \"%s\", and the security policy does not allow %s { %s } on it to \"%s\", a reader at the level of the file.",
						   avc_class_names[tclass],
						   otext ? otext : "?", avc_class_names[tclass],
						   avc_perms_text(tclass, missing),
						   avc_local_text(c->reader_lid)),
				 errhint("A file may receive only data that a reader at its own level may read: write to a file whose label dominates the data, or read only data at the file's level.")));
	}
}

/*
 * A decision in the cache for key, counted as a hit; false (a miss,
 * counted) if there is none.
 */
static inline bool
avc_cached(AvcKey key, AvcDecision *avd)
{
	AvcEntry   *e;

	avc_ensure_cache();
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		stat_hits++;
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
static void
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

/*
 * A narrowed session's decision (trusted.c): allowed only what both its
 * narrowed label (a) and its own (b) allow; a denial is audited as the
 * label that denies it says.  And no relabeling onto a label the narrowed
 * label may not write (db_tuple insert or update, an object's setattr):
 * Debian's MLS policy lets a subject relabel an object it may write to any
 * level its clearance dominates, so a narrowed label could otherwise write
 * a row at its clearance and move it down.
 */
static void
avc_decision_and(AvcClass tclass, AvcDecision *a, const AvcDecision *b)
{
	uint32		allowed = a->allowed & b->allowed;
	uint32		denied_by_b;
	uint32		writes;
	uint32		relabelto;

	if (tclass == AVC_CLASS_DB_TUPLE)
	{
		writes = AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_UPDATE;
		relabelto = AVC_DB_TUPLE_RELABELTO;
	}
	else
	{
		writes = AVC_DB_SETATTR;
		relabelto = AVC_DB_RELABELTO;
	}
	if (tclass != AVC_CLASS_PROCESS && (allowed & writes) == 0)
		allowed &= ~relabelto;
	denied_by_b = a->allowed & ~allowed;

	a->auditallow &= allowed;
	a->auditdeny = (a->auditdeny & ~a->allowed) | (b->auditdeny & denied_by_b);
	a->constrained = (a->constrained & ~a->allowed) |
		(b->constrained & denied_by_b);
	a->permissive = a->permissive && b->permissive;
	a->allowed = allowed;
}

static bool avc_decide_as(AvcClass tclass, uint32 subject_lid, uint32 and_lid,
						  AvcObjKind kind, uint32 object, AvcDecision *avd);

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
	return avc_decide_as(tclass, subject_lid, 0, kind, object, avd);
}

/* The same for the session's subject: a narrowed one's is ANDed. */
static inline bool
avc_decide_session(AvcClass tclass, AvcObjKind kind, uint32 object,
				   AvcDecision *avd)
{
	uint32		subject = avc_subject_local_id();

	return avc_decide_as(tclass, subject, avc_and_lid, kind, object, avd);
}

static bool
avc_decide_as(AvcClass tclass, uint32 subject_lid, uint32 and_lid,
			  AvcObjKind kind, uint32 object, AvcDecision *avd)
{
	AvcKey		key;
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

	key.subject = subject_lid;
	key.object = object;
	key.object2 = 0;
	key.tclass = tclass;
	key.kind = kind | (and_lid != 0 ? AVC_KIND_AND : 0);
	if (!avc_cached(key, avd))
	{
		stext = avc_local_text(subject_lid);
		otext = avc_decision_text(kind, object);
		if (otext == NULL)
		{
			*avd = avc_deny_all;
			return false;
		}
		avc_provider->compute_av(stext, otext, tclass, &d);
		if (and_lid != 0)
		{
			AvcDecision own;

			avc_provider->compute_av(avc_local_text(and_lid), otext, tclass,
									 &own);
			avc_decision_and(tclass, &d, &own);
		}
		if (kind == AVC_OBJ_SECID)
			pfree(otext);
		avc_remember(key, &d);
		*avd = d;
	}
	if (unlikely(avc_nceilings > 0) && subject_lid == avc_subject_lid)
		avc_ceiling_check(tclass, kind, object, avd);
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

		if (avc_decide_session(AVC_CLASS_DB_TUPLE, kind, object, &d))
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
	(void) avc_decide_session(AVC_CLASS_DB_TUPLE, AVC_OBJ_SECID, object_secid,
							  &d);
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

		avc_decide_session(AVC_CLASS_DB_TUPLE, AVC_OBJ_SECID, object_secid,
						   &d);
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

/*
 * The provider's decision on changing a row's label from one object to
 * another (provider.h's compute_relabel), cached by the pair.  Returns
 * false (and a deny-all decision) for what is not to be remembered: no
 * subject, or a secid that names no label.
 */
static bool
avc_decide_relabel(uint32 subject_lid, AvcObjKind kind, uint32 from,
				   uint32 to, AvcDecision *avd)
{
	AvcKey		key;
	char	   *ftext;
	char	   *ttext;
	AvcDecision d;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (subject_lid == 0)
	{
		*avd = avc_deny_all;
		return false;
	}
	key.subject = subject_lid;
	key.object = from;
	key.object2 = to;
	key.tclass = AVC_CLASS_DB_TUPLE;
	key.kind = AVC_KIND_RELABEL + kind;
	if (avc_cached(key, avd))
		return true;

	ftext = avc_decision_text(kind, from);
	ttext = avc_decision_text(kind, to);
	if (ftext == NULL || ttext == NULL)
	{
		*avd = avc_deny_all;
		return false;
	}
	memset(&d, 0, sizeof(d));
	avc_provider->compute_relabel(avc_local_text(subject_lid), ftext, ttext,
								  &d);
	avc_remember(key, &d);
	*avd = d;
	return true;
}

void
avc_require_relabel(Relation rel, Oid from_secid, Oid to_secid)
{
	AvcDecision d;
	bool		allowed;
	char	   *ftext;
	char	   *ttext;

	if (avc_provider->compute_relabel == NULL || from_secid == to_secid)
		return;
	(void) avc_decide_relabel(avc_subject_local_id(), AVC_OBJ_SECID,
							  from_secid, to_secid, &d);
	allowed = (d.allowed & AVC_DB_TUPLE_RELABELTO) != 0;
	if (avc_audit_mode == AVC_AUDIT_ALL ||
		(avc_audit_mode != AVC_AUDIT_NONE && !allowed &&
		 (d.auditdeny & AVC_DB_TUPLE_RELABELTO)))
		avc_audit_record(rel, AVC_CLASS_DB_TUPLE, AVC_OBJ_SECID, to_secid,
						 &d, AVC_DB_TUPLE_RELABELTO);
	if (allowed || d.permissive)
		return;

	/* name a label only to a session that may read rows of it */
	ftext = avc_tuple_allowed(from_secid, AVC_DB_TUPLE_SELECT) ?
		label_text(from_secid) : NULL;
	ttext = avc_tuple_allowed(to_secid, AVC_DB_TUPLE_SELECT) ?
		label_text(to_secid) : NULL;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to relabel rows of relation \"%s\"",
					rel ? RelationGetRelationName(rel) : "?"),
			 (ftext && ttext) ?
			 errdetail("The security policy does not allow \"%s\" to change a row's label from \"%s\" to \"%s\".",
					   avc_subject ? avc_subject : "(no label)",
					   ftext, ttext) :
			 errdetail("The security policy does not allow \"%s\" this change of a row's label.",
					   avc_subject ? avc_subject : "(no label)")));
}

bool
avc_relabel_allowed_text(const char *subject, const char *from,
						 const char *to)
{
	AvcDecision d;
	uint32		slid;
	uint32		flid;
	uint32		tlid;

	if (avc_provider->compute_relabel == NULL || strcmp(from, to) == 0)
		return true;
	slid = avc_local_id(subject);
	flid = avc_local_id(from);
	tlid = avc_local_id(to);
	(void) avc_decide_relabel(slid, AVC_OBJ_LOCAL, flid, tlid, &d);
	return (d.allowed & AVC_DB_TUPLE_RELABELTO) != 0 || d.permissive;
}

bool
avc_allowed_text(const char *subject, const char *object, uint32 perms)
{
	AvcDecision d;
	uint32		slid = avc_local_id(subject);
	uint32		olid = avc_local_id(object);

	avc_decide(AVC_CLASS_DB_TUPLE, slid, AVC_OBJ_LOCAL, olid, &d);
	return (d.allowed & perms) == perms || d.permissive;
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
	key.object2 = 0;
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

uint32
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
	key.object2 = 0;
	key.tclass = tclass;
	key.kind = AVC_OBJ_LOCAL | (avc_and_lid != 0 ? AVC_KIND_AND : 0);
	e = avch_lookup(avc_cache, key);
	if (e != NULL)
	{
		stat_hits++;
		*avd = e->avd;
		*decided_as = e->unlabeled ? avc_unlabeled_text() : tcontext;
	}
	else
	{
		stat_misses++;
		unlabeled = (tcontext[0] == '\0' || !avc_provider->valid(tcontext));
		label = unlabeled ? avc_unlabeled_text() : tcontext;
		avc_provider->compute_av(avc_local_text(subject), label, tclass, avd);
		if (avc_and_lid != 0)
		{
			AvcDecision own;

			avc_provider->compute_av(avc_local_text(avc_and_lid), label,
									 tclass, &own);
			avc_decision_and(tclass, avd, &own);
		}
		e = avc_lookup(key, &found);
		e->avd = *avd;
		e->created = NULL;
		e->unlabeled = unlabeled;
		*decided_as = label;
	}
	if (unlikely(avc_nceilings > 0))
		avc_ceiling_check(tclass, AVC_OBJ_LOCAL,
						  avc_local_id(*decided_as), avd);
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
	save.narrowed = avc_subject_and;
	avc_subject = MemoryContextStrdup(TopMemoryContext, label);
	avc_subject_lid = 0;
	avc_subject_and = false;
	avc_and_lid = 0;
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
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
	avc_subject_and = save.narrowed;
	/* the cache may have started over meanwhile: look the id up again */
	avc_subject_lid = 0;
	avc_and_lid = 0;
	avc_decision_epoch++;
	avc_fast[0].object = 0;
	avc_fast[1].object = 0;
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
