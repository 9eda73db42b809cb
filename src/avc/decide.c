/*-------------------------------------------------------------------------
 *
 * src/avc/decide.c
 *	  Decisions: the provider's answers for the subject in force, through
 *	  the cache (cache.c), audited (audit.c) and bounded by the read
 *	  ceilings of files being written (avc_files.h).
 *
 * A narrowed trusted session (subject.c, trusted.c) is allowed only what
 * both its narrowed label and its own allow (avc_decision_and).  Secids
 * that name no label, and processes without a subject, are denied
 * everything, and such decisions are not cached.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "portability/instr_time.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "avc/avc_files.h"
#include "avc/avc_objects.h"
#include "avc/cache.h"
#include "label_store/label_store.h"

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
	avc_fast_forget();
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
			   uint64 nrows, bool *recorded, bool *lasting)
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
		avc_stat_hits++;
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

			if (lasting)
				*lasting = false;

			record = avc_audit_mode != AVC_AUDIT_NONE;
			if (recorded)
				*recorded = record;
			if (record && nrows > 0)
				avc_audit_record_rows(rel, AVC_CLASS_DB_TUPLE, kind, object,
									  &d, perms, nrows);
			return ok || d.permissive;
		}
	}

	if (lasting)
		*lasting = true;
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
	return avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, 1, NULL,
						  NULL);
}

bool
avc_check_tuple_ahead(Oid object_secid, uint32 perms, bool *recorded)
{
	return avc_check_fast(NULL, AVC_OBJ_SECID, object_secid, perms, 0,
						  recorded, NULL);
}

bool
avc_check_tuple_lasting(Oid object_secid, uint32 perms, bool *recorded,
						bool *lasting)
{
	return avc_check_fast(NULL, AVC_OBJ_SECID, object_secid, perms, 0,
						  recorded, lasting);
}

bool
avc_check_tuple_rows(Relation rel, Oid object_secid, uint32 perms,
					 uint64 nrows)
{
	return avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, nrows,
						  NULL,
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
	if (!avc_check_fast(rel, AVC_OBJ_SECID, object_secid, perms, 1, NULL,
						NULL))
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
	const char *cached;
	const char *kept;
	char	   *ptext;
	char	   *created;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	key.subject = subject_lid;
	key.object = parent;
	key.object2 = 0;
	key.tclass = AVC_CLASS_DB_TUPLE;
	key.kind = AVC_KIND_CREATE + kind;
	cached = avc_cached_created(key);
	if (cached != NULL)
		return cached;
	ptext = avc_decision_text(kind, parent);
	if (ptext == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("security label with secid %u does not exist", parent)));
	created = avc_provider->compute_create(avc_local_text(subject_lid), ptext,
										   AVC_CLASS_DB_TUPLE, NULL);
	kept = avc_remember_created(key, created);
	pfree(created);
	return kept;
}

const char *
avc_create_local(uint32 subject_lid, uint32 parent_lid)
{
	return avc_create_cached(subject_lid, AVC_OBJ_LOCAL, parent_lid);
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

/* The same, created by avc_write_subject() (src/shared_state). */
char *
avc_write_label_text(const char *table_label)
{
	const char *subject = avc_write_subject();
	uint32		parent;
	uint32		subject_lid;

	if (subject == NULL)
		(void) avc_require_subject();	/* its error */
	parent = avc_local_id(table_label);
	subject_lid = avc_local_id(subject);
	return pstrdup(avc_create_cached(subject_lid, AVC_OBJ_LOCAL, parent));
}

/* Does avc_write_subject() give its rows a label (provider.h)? */
bool
avc_write_subject_labels_rows(void)
{
	const char *subject = avc_write_subject();

	if (subject == NULL)
		return false;
	return avc_provider->subject_labels_rows == NULL ||
		avc_provider->subject_labels_rows(subject);
}

/* For labelam.create_row_label(table_secid): the same, from a secid. */
Oid
avc_create_label(Oid table_secid)
{
	uint32		subject = avc_require_subject();

	return label_intern(pstrdup(avc_create_cached(subject, AVC_OBJ_SECID,
												  table_secid)));
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
								  AVC_DB_TUPLE_SELECT, 1, NULL, NULL);
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
	key.subject = subject;
	key.object = object;
	key.object2 = 0;
	key.tclass = tclass;
	key.kind = AVC_OBJ_LOCAL | (avc_and_lid != 0 ? AVC_KIND_AND : 0);
	if (avc_cached_object(key, avd, &unlabeled))
		*decided_as = unlabeled ? avc_unlabeled_text() : tcontext;
	else
	{
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
		avc_remember_object(key, avd, unlabeled);
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

bool
avc_label_valid(const char *label)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	return avc_provider->valid(label);
}
