/*-------------------------------------------------------------------------
 *
 * src/avc/labels.c
 *	  Label text as the policy subsystem holds it: the provider's canonical
 *	  form, the backend-local ids that decisions are cached under, and the
 *	  session's subject.
 *
 * Labels given as text (the session's subject, table labels, the
 * arguments of the SQL functions) get a local id, which needs no
 * dictionary row, so works for labels never stored and on a hot standby.
 * Ids are never reused within a process; the table of texts starts over
 * with the decision cache (cache.c's avc_cache_reset), and an id given out
 * earlier is then stale (avc_local_text fails on it).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "lib/stringinfo.h"
#include "utils/memutils.h"

#include "avc/avc_files.h"
#include "avc/avc_internal.h"
#include "label_store/label_store.h"

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

static MemoryContext labels_cxt = NULL;	/* everything below */
static avcl_hash *avc_labels = NULL;

/* local id -> text, for ids of the current generation of avc_labels */
static const char **avc_label_texts = NULL;
static uint32 avc_label_first = 1;	/* first id of the current generation */
static uint32 avc_label_count = 0;
static uint32 avc_label_alloc = 0;
static uint32 avc_label_next = 1;	/* never reused: 0 is "none" */

/* the session's subject: canonical text in TopMemoryContext, or NULL */
char	   *avc_subject = NULL;

/*
 * Local ids of the subject (0: not looked up yet) and, for a narrowed
 * trusted session, of its own label whose decisions are ANDed (subject.c);
 * they die with the local labels
 */
uint32		avc_subject_lid = 0;
uint32		avc_and_lid = 0;

static void
labels_create(void)
{
	if (labels_cxt == NULL)
		labels_cxt = AllocSetContextCreate(TopMemoryContext,
										   "labelam avc labels",
										   ALLOCSET_DEFAULT_SIZES);
	avc_labels = avcl_create(labels_cxt, 64, NULL);
	avc_label_alloc = 64;
	avc_label_texts = MemoryContextAllocZero(labels_cxt,
											 avc_label_alloc * sizeof(char *));
	avc_label_first = avc_label_next;
	avc_label_count = 0;
}

/* Forget every local label (the decision cache starts over). */
void
avc_labels_reset(void)
{
	if (labels_cxt != NULL)
		MemoryContextReset(labels_cxt);
	avc_labels = NULL;
	avc_label_texts = NULL;
	avc_subject_lid = 0;
	avc_and_lid = 0;
}

/* Local labels of the current generation. */
uint32
avc_labels_count(void)
{
	return avc_label_count;
}

/*
 * Local id of a canonical label, assigning one if new.  Callers go through
 * cache.c's avc_local_id, which looks at the policy first.
 */
uint32
avc_labels_id(const char *label)
{
	AvcLabel   *l;
	bool		found;

	if (unlikely(avc_labels == NULL))
		labels_create();
	l = avcl_insert(avc_labels, label, &found);
	if (!found)
	{
		l->text = MemoryContextStrdup(labels_cxt, label);
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

/* Is lid an id of the current generation (not stale)? */
bool
avc_labels_current(uint32 lid)
{
	return avc_label_texts != NULL && lid >= avc_label_first &&
		lid - avc_label_first < avc_label_count;
}

const char *
avc_local_text(uint32 lid)
{
	if (avc_label_texts == NULL || lid < avc_label_first ||
		lid - avc_label_first >= avc_label_count)
		elog(ERROR, "labelam: stale local label id %u", lid);
	return avc_label_texts[lid - avc_label_first];
}

/* Text of an object (palloc'd or owned here), or NULL if unknown. */
char *
avc_object_text(AvcObjKind kind, uint32 object)
{
	if (kind == AVC_OBJ_SECID)
		return label_text((Oid) object);
	return (char *) avc_local_text(object);
}

/*
 * The provider's canonical form, after the checks every label must pass
 * (label_store's label_validate), which the provider's answer must pass
 * too: a provider that fails them is broken, but the user still deserves
 * an error naming the label rather than a corrupt dictionary.  The
 * provider must have the statement's policy; the cache is left alone
 * (callers may hold local ids or cached texts), the next decision will see
 * the new policy.
 */
static char *
checked_canonical(const char *label, char *canon)
{
	const char *detail;

	if (canon == NULL || !label_check(canon, &detail))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\"", label),
				 errdetail("The policy provider's canonical form of the label is not a valid label.")));
	return canon;
}

char *
avc_canonicalize(const char *label)
{
	label_validate(label);
	if (unlikely(avc_revalidate_pending))
		(void) avc_provider->policy_seqno();
	return checked_canonical(label, avc_provider->canonicalize(label));
}

/*
 * The canonical form of a label asked for as a subject (set_client_label,
 * check_access): the provider's own form of subjects when it has one
 * (provider.h), which current (the subject asking, or NULL) may complete;
 * otherwise the label's.
 */
char *
avc_canonicalize_subject(const char *label, const char *current)
{
	if (avc_provider->canonicalize_subject == NULL)
		return avc_canonicalize(label);
	label_validate(label);
	if (unlikely(avc_revalidate_pending))
		(void) avc_provider->policy_seqno();
	return checked_canonical(label,
							 avc_provider->canonicalize_subject(label, current));
}

/* Does the provider in force label database objects? (provider.h) */
bool
avc_object_classes(void)
{
	return avc_provider != NULL && avc_provider->object_classes;
}

/*
 * labelam.debug_opaque_labels applies to labels given to be stored, not to
 * the labels the avc decides with (avc_canonicalize).
 */
char *
avc_storable_label(const char *label)
{
	if (avc_debug_opaque_labels)
	{
		label_validate(label);
		return pstrdup(label);
	}
	return avc_canonicalize(label);
}


/*
 * The MLS field of an SELinux context (after its third ':'), or NULL if it
 * has none.
 */
const char *
avc_labels_mls(const char *label)
{
	const char *p = label;
	int			i;

	for (i = 0; i < 3; i++)
	{
		p = strchr(p, ':');
		if (p == NULL)
			return NULL;
		p++;
	}
	return p;
}

/* label with its MLS field replaced by level (palloc'd), or NULL if none */
char *
avc_labels_with_level(const char *label, const char *level)
{
	const char *mls = label ? avc_labels_mls(label) : NULL;

	if (mls == NULL)
		return NULL;
	return psprintf("%.*s%s", (int) (mls - label), label, level);
}

/*
 * label at the low level of level_of (canonical, palloc'd): a subject like
 * the session's at a file's level (avc_files.h).  label itself when the
 * policy has no MLS or level_of no MLS field.  A new policy is picked up
 * first, as avc_canonicalize_subject does.
 */
char *
avc_label_at_level(const char *label, const char *level_of)
{
	const char *mls = avc_labels_mls(level_of);
	const char *own = avc_labels_mls(label);
	const char *dash;
	StringInfoData buf;
	char	   *result;

	if (unlikely(avc_revalidate_pending))
		(void) avc_provider->policy_seqno();
	if (!avc_provider->mls_enabled() || mls == NULL)
		return pstrdup(label);

	initStringInfo(&buf);
	if (own != NULL)
		appendBinaryStringInfo(&buf, label, own - label);
	else
		appendStringInfo(&buf, "%s:", label);
	dash = strchr(mls, '-');
	if (dash != NULL)
		appendBinaryStringInfo(&buf, mls, dash - mls);
	else
		appendStringInfoString(&buf, mls);
	result = avc_provider->canonicalize(buf.data);
	pfree(buf.data);
	return result;
}
