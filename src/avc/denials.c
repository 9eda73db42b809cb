/*-------------------------------------------------------------------------
 *
 * src/avc/denials.c
 *	  What the policy denied, across all backends: the distinct denials
 *	  since the last reset, in shared memory, and the policy rules that
 *	  would allow them (what audit2allow prints from SELinux's audit log).
 *
 * This is the review step of rolling a policy out: run it permissive
 * (labelam.enforcing = off), read what it would deny, adjust, enforce.
 *
 * A denial is what an audit line reports as denied (audit.c): with
 * labelam.audit = denied, a decision whose denied permissions the policy
 * audits (not dontaudit'ed); with 'all', every denial (as semodule -DB
 * shows them to audit2allow); with 'none', nothing.  Each backend aggregates
 * its statement's denials by (relation, class, object, denied permissions)
 * while it runs, as audit.c does, and adds them to the shared table when
 * the statement's audit lines are written; a row filter denying a million
 * rows costs a compare and an increment per row, and one lock at the end.
 *
 * The shared table holds labelam.max_denials entries of fixed size (labels
 * longer than DENIAL_TEXT_LEN - 1 bytes are cut, and flagged); when it is
 * full, further distinct denials are counted as dropped, never evicting
 * earlier ones.  Entries are found by a linear search under one lock: the
 * table is small and searched once per statement that was denied
 * something.
 *
 * Reading it reveals labels of rows and sessions the reader may not see,
 * and the names of relations in every database: its functions are for
 * superusers unless granted (sql/30_avc.sql).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "avc/avc_internal.h"

#define DENIAL_TEXT_LEN		512
#define DENIAL_TRANCHE		"labelam denials"

int			avc_max_denials = 1000;

typedef struct DenialEntry
{
	uint64		hash;			/* of everything below up to count */
	Oid			dbid;
	uint8		tclass;
	bool		truncated;		/* a text was cut to fit */
	uint32		perms;			/* denied, labelam's bits of tclass */
	uint32		constrained;	/* of perms: denied by a constraint */
	char		subject[DENIAL_TEXT_LEN];
	char		object[DENIAL_TEXT_LEN];
	char		relation[2 * NAMEDATALEN + 8];	/* "" if none */
	uint64		count;
	bool		permissive;		/* the last one was not enforced */
	TimestampTz first_seen;
	TimestampTz last_seen;
} DenialEntry;

typedef struct DenialShared
{
	LWLock	   *lock;
	int			nentries;
	uint64		dropped;		/* distinct denials that found no room */
	TimestampTz reset_at;
	DenialEntry entries[FLEXIBLE_ARRAY_MEMBER];
} DenialShared;

static DenialShared *shared = NULL;

/* this statement's denials, by what the backend knows them by */
typedef struct PendingKey
{
	Oid			relid;
	uint32		object;
	uint32		perms;
	uint16		kind;
	uint8		tclass;
} PendingKey;

typedef struct PendingEntry
{
	PendingKey	key;			/* must be first */
	uint64		count;
	uint32		constrained;
	bool		permissive;
	char	   *subject;
	char	   *object;
	char	   *relation;
} PendingEntry;

static MemoryContext pending_cxt = NULL;
static HTAB *pending = NULL;
static PendingKey pending_last_key;
static PendingEntry *pending_last = NULL;

static Size
denials_shmem_size(void)
{
	return add_size(offsetof(DenialShared, entries),
					mul_size(avc_max_denials, sizeof(DenialEntry)));
}

void
avc_denials_shmem_request(void)
{
	RequestAddinShmemSpace(denials_shmem_size());
	RequestNamedLWLockTranche(DENIAL_TRANCHE, 1);
}

void
avc_denials_shmem_startup(void)
{
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct("labelam denials", denials_shmem_size(), &found);
	if (!found)
	{
		shared->lock = &(GetNamedLWLockTranche(DENIAL_TRANCHE))->lock;
		shared->nentries = 0;
		shared->dropped = 0;
		shared->reset_at = GetCurrentTimestamp();
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * Note a decision's audited denials (perms: the permissions asked for).
 * Called by audit.c for every decision it records.
 */
void
avc_denials_note(Relation rel, AvcClass tclass, AvcObjKind kind,
				 uint32 object, const AvcDecision *avd, uint32 perms,
				 uint64 nrows)
{
	PendingKey	key;
	PendingEntry *e;
	uint32		denied = perms & ~avd->allowed;

	/* what the audit log shows: with labelam.audit = all, dontaudit'ed too */
	if (avc_audit_mode != AVC_AUDIT_ALL)
		denied &= avd->auditdeny;
	if (denied == 0 || shared == NULL)
		return;

	memset(&key, 0, sizeof(key));
	key.relid = rel ? RelationGetRelid(rel) : InvalidOid;
	key.object = object;
	key.perms = denied;
	key.kind = kind;
	key.tclass = tclass;
	if (pending_last != NULL &&
		memcmp(&key, &pending_last_key, sizeof(key)) == 0)
	{
		pending_last->count += nrows;
		return;
	}

	if (pending == NULL)
	{
		HASHCTL		ctl;

		if (pending_cxt == NULL)
			pending_cxt = AllocSetContextCreate(TopMemoryContext,
												"labelam pending denials",
												ALLOCSET_SMALL_SIZES);
		ctl.keysize = sizeof(PendingKey);
		ctl.entrysize = sizeof(PendingEntry);
		ctl.hcxt = pending_cxt;
		pending = hash_create("labelam pending denials", 16, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	{
		bool		found;

		e = hash_search(pending, &key, HASH_ENTER, &found);
		if (!found)
		{
			const char *subject = avc_client_label();
			char	   *otext = avc_object_text(kind, object);

			e->count = 0;
			e->constrained = avd->constrained & denied;
			e->permissive = avd->permissive;
			e->subject = MemoryContextStrdup(pending_cxt,
											 subject ? subject : "(none)");
			e->object = MemoryContextStrdup(pending_cxt,
											otext ? otext : "(unknown)");
			e->relation = NULL;
			if (rel)
			{
				char	   *nsp = get_namespace_name(RelationGetNamespace(rel));

				e->relation = MemoryContextStrdup(pending_cxt,
												  quote_qualified_identifier(nsp,
																			 RelationGetRelationName(rel)));
			}
		}
	}
	e->count += nrows;
	pending_last_key = key;
	pending_last = e;
}

static bool
copy_text(char *dst, const char *src, size_t size)
{
	return strlcpy(dst, src, size) >= size;
}

static uint64
entry_hash(const DenialEntry *d)
{
	uint64		h;

	h = hash_bytes_extended((const unsigned char *) d->subject,
							strlen(d->subject), d->dbid);
	h = hash_combine64(h, hash_bytes_extended((const unsigned char *) d->object,
											  strlen(d->object), d->tclass));
	h = hash_combine64(h, hash_bytes_extended((const unsigned char *) d->relation,
											  strlen(d->relation), d->perms));
	return h;
}

/* Add the statement's denials to the shared table, and forget them. */
void
avc_denials_publish(void)
{
	HASH_SEQ_STATUS status;
	PendingEntry *p;
	TimestampTz now;
	DenialEntry *d;

	if (pending == NULL || shared == NULL)
	{
		avc_denials_discard();
		return;
	}
	now = GetCurrentTimestamp();
	d = palloc0(sizeof(DenialEntry));

	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	hash_seq_init(&status, pending);
	while ((p = hash_seq_search(&status)) != NULL)
	{
		int			i;

		memset(d, 0, sizeof(*d));
		d->dbid = MyDatabaseId;
		d->tclass = p->key.tclass;
		d->perms = p->key.perms;
		d->truncated = copy_text(d->subject, p->subject, DENIAL_TEXT_LEN);
		d->truncated |= copy_text(d->object, p->object, DENIAL_TEXT_LEN);
		d->truncated |= copy_text(d->relation, p->relation ? p->relation : "",
								  sizeof(d->relation));
		d->hash = entry_hash(d);

		for (i = 0; i < shared->nentries; i++)
		{
			DenialEntry *s = &shared->entries[i];

			if (s->hash == d->hash && s->dbid == d->dbid &&
				s->tclass == d->tclass && s->perms == d->perms &&
				strcmp(s->subject, d->subject) == 0 &&
				strcmp(s->object, d->object) == 0 &&
				strcmp(s->relation, d->relation) == 0)
				break;
		}
		if (i == shared->nentries)
		{
			if (i >= avc_max_denials)
			{
				shared->dropped++;
				continue;
			}
			shared->entries[i] = *d;
			shared->entries[i].first_seen = now;
			shared->nentries++;
		}
		shared->entries[i].count += p->count;
		shared->entries[i].constrained |= p->constrained;
		shared->entries[i].permissive = p->permissive;
		shared->entries[i].last_seen = now;
	}
	LWLockRelease(shared->lock);
	pfree(d);
	avc_denials_discard();
}

void
avc_denials_discard(void)
{
	pending = NULL;
	pending_last = NULL;
	if (pending_cxt != NULL)
		MemoryContextReset(pending_cxt);
}

static void
require_shared(void)
{
	if (shared == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelam must be loaded by shared_preload_libraries to summarize denials")));
}

/* A snapshot of the shared table (palloc'd), and its header's counters. */
static DenialEntry *
snapshot(int *n, uint64 *dropped, TimestampTz *reset_at)
{
	DenialEntry *copy;

	require_shared();
	LWLockAcquire(shared->lock, LW_SHARED);
	*n = shared->nentries;
	*dropped = shared->dropped;
	*reset_at = shared->reset_at;
	copy = palloc(sizeof(DenialEntry) * Max(*n, 1));
	memcpy(copy, shared->entries, sizeof(DenialEntry) * *n);
	LWLockRelease(shared->lock);
	return copy;
}

static Datum
perms_array(AvcClass tclass, uint32 perms)
{
	Datum		elems[32];
	int			n = 0;
	int			b;

	for (b = 0; avc_perm_names[tclass][b] != NULL; b++)
		if (perms & (1U << b))
			elems[n++] = CStringGetTextDatum(avc_perm_names[tclass][b]);
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false,
										   TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(labelam_denials);
PG_FUNCTION_INFO_V1(labelam_reset_denials);
PG_FUNCTION_INFO_V1(labelam_denials_as_policy);

/* labelam.denials(): one row per distinct denial since the last reset */
Datum
labelam_denials(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	DenialEntry *entries;
	int			n;
	uint64		dropped;
	TimestampTz reset_at;
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	entries = snapshot(&n, &dropped, &reset_at);
	for (i = 0; i < n; i++)
	{
		DenialEntry *e = &entries[i];
		Datum		values[12];
		bool		nulls[12] = {0};
		char	   *dbname = get_database_name(e->dbid);

		values[0] = dbname ? CStringGetTextDatum(dbname) : (Datum) 0;
		nulls[0] = (dbname == NULL);
		values[1] = CStringGetTextDatum(e->subject);
		values[2] = CStringGetTextDatum(e->object);
		values[3] = CStringGetTextDatum(avc_class_names[e->tclass]);
		values[4] = perms_array(e->tclass, e->perms);
		values[5] = CStringGetTextDatum(e->relation);
		nulls[5] = (e->relation[0] == '\0');
		values[6] = Int64GetDatum((int64) e->count);
		values[7] = TimestampTzGetDatum(e->first_seen);
		values[8] = TimestampTzGetDatum(e->last_seen);
		values[9] = BoolGetDatum(e->permissive);
		values[10] = perms_array(e->tclass, e->constrained);
		values[11] = BoolGetDatum(e->truncated);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* labelam.reset_denials(): forget them all; returns how many there were */
Datum
labelam_reset_denials(PG_FUNCTION_ARGS)
{
	int			n;

	require_shared();
	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	n = shared->nentries;
	shared->nentries = 0;
	shared->dropped = 0;
	shared->reset_at = GetCurrentTimestamp();
	LWLockRelease(shared->lock);
	ereport(LOG,
			(errmsg("labelam: denial summary reset by role \"%s\" (%d distinct denials forgotten)",
					GetUserNameFromId(GetUserId(), false), n)));
	PG_RETURN_INT64(n);
}

/* The type of a context: its third field ("user:role:type:level"). */
static char *
context_type(const char *context)
{
	const char *p = context;
	const char *end;
	int			i;

	for (i = 0; i < 2; i++)
	{
		p = strchr(p, ':');
		if (p == NULL)
			return NULL;
		p++;
	}
	end = strchr(p, ':');
	return end ? pnstrdup(p, end - p) : pstrdup(p);
}

typedef struct RuleKey
{
	char		stype[NAMEDATALEN * 2];
	char		ttype[NAMEDATALEN * 2];
	uint8		tclass;
} RuleKey;

typedef struct Rule
{
	RuleKey		key;
	uint32		perms;			/* an allow rule would grant these */
	uint32		constrained;	/* an allow rule would not help */
	uint64		count;
} Rule;

static void
append_perm_set(StringInfo buf, AvcClass tclass, uint32 perms)
{
	int			b;
	bool		many = (perms & (perms - 1)) != 0;

	if (many)
		appendStringInfoString(buf, "{ ");
	for (b = 0; avc_perm_names[tclass][b] != NULL; b++)
		if (perms & (1U << b))
			appendStringInfo(buf, "%s ", avc_perm_names[tclass][b]);
	if (!many)
		buf->len--, buf->data[buf->len] = '\0';
	else
		appendStringInfoChar(buf, '}');
}

static int
rule_cmp(const void *a, const void *b)
{
	const Rule *ra = a;
	const Rule *rb = b;
	int			c = strcmp(ra->key.stype, rb->key.stype);

	if (c == 0)
		c = strcmp(ra->key.ttype, rb->key.ttype);
	if (c == 0)
		c = (int) ra->key.tclass - (int) rb->key.tclass;
	return c;
}

/*
 * labelam.denials_as_policy(module): the denials as SELinux allow rules,
 * one per (source type, target type, class) with the union of their
 * permissions, as audit2allow prints them; with a module name, a complete
 * module (audit2allow -m: header and require block) for checkmodule.
 * Denials that an allow rule cannot fix (a constraint, MLS's among them)
 * are printed as comments, as audit2allow flags them.
 */
Datum
labelam_denials_as_policy(PG_FUNCTION_ARGS)
{
	const char *module = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	DenialEntry *entries;
	int			n;
	uint64		dropped;
	TimestampTz reset_at;
	Rule	   *rules;
	int			nrules = 0;
	StringInfoData buf;
	const char *last_stype = NULL;
	int			i;
	int			c;

	entries = snapshot(&n, &dropped, &reset_at);
	rules = palloc0(sizeof(Rule) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		char	   *stype = context_type(entries[i].subject);
		char	   *ttype = context_type(entries[i].object);
		RuleKey		key;
		int			r;

		if (stype == NULL || ttype == NULL ||
			strlen(stype) >= sizeof(key.stype) ||
			strlen(ttype) >= sizeof(key.ttype))
			continue;			/* (none), (unknown), or cut */
		memset(&key, 0, sizeof(key));
		strcpy(key.stype, stype);
		strcpy(key.ttype, ttype);
		key.tclass = entries[i].tclass;
		for (r = 0; r < nrules; r++)
			if (memcmp(&rules[r].key, &key, sizeof(key)) == 0)
				break;
		if (r == nrules)
			rules[nrules++].key = key;
		rules[r].perms |= entries[i].perms & ~entries[i].constrained;
		rules[r].constrained |= entries[i].constrained;
		rules[r].count += entries[i].count;
	}
	qsort(rules, nrules, sizeof(Rule), rule_cmp);

	initStringInfo(&buf);
	if (module != NULL)
	{
		bool		any;

		if (module[0] == '\0' || strspn(module, "abcdefghijklmnopqrstuvwxyz"
										"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(module))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid policy module name \"%s\"", module),
					 errhint("A module name consists of letters, digits and underscores.")));
		appendStringInfo(&buf, "\nmodule %s 1.0;\n\nrequire {\n", module);
		/* every type once, then every class with the permissions used */
		for (i = 0; i < nrules; i++)
		{
			int			j;
			bool		sseen = false,
						tseen = false;

			if (rules[i].perms == 0)
				continue;
			for (j = 0; j < i; j++)
			{
				if (rules[j].perms == 0)
					continue;
				sseen |= strcmp(rules[j].key.stype, rules[i].key.stype) == 0 ||
					strcmp(rules[j].key.ttype, rules[i].key.stype) == 0;
				tseen |= strcmp(rules[j].key.stype, rules[i].key.ttype) == 0 ||
					strcmp(rules[j].key.ttype, rules[i].key.ttype) == 0;
			}
			if (!sseen)
				appendStringInfo(&buf, "\ttype %s;\n", rules[i].key.stype);
			if (!tseen && strcmp(rules[i].key.ttype, rules[i].key.stype) != 0)
				appendStringInfo(&buf, "\ttype %s;\n", rules[i].key.ttype);
		}
		for (c = 0; c < AVC_NUM_CLASSES; c++)
		{
			uint32		perms = 0;

			for (i = 0; i < nrules; i++)
				if (rules[i].key.tclass == c)
					perms |= rules[i].perms;
			if (perms == 0)
				continue;
			appendStringInfo(&buf, "\tclass %s ", avc_class_names[c]);
			append_perm_set(&buf, c, perms);
			appendStringInfoString(&buf, ";\n");
		}
		any = false;
		for (i = 0; i < nrules; i++)
			any |= rules[i].perms != 0;
		if (!any)
			appendStringInfoString(&buf, "\tclass db_tuple select;\n");
		appendStringInfoString(&buf, "}\n");
	}

	for (i = 0; i < nrules; i++)
	{
		Rule	   *r = &rules[i];

		if (last_stype == NULL || strcmp(last_stype, r->key.stype) != 0)
		{
			appendStringInfo(&buf, "\n#============= %s ==============\n",
							 r->key.stype);
			last_stype = r->key.stype;
		}
		if (r->constrained)
		{
			appendStringInfo(&buf, "\n#!!!! This avc is a constraint violation.  You would need to modify the attributes of either the source or target types to allow this access.\n#\t(labelam: { %s } of %s on %s:%s, denied by a constraint such as MLS's; an allow rule does not change it)\n",
							 avc_perms_text(r->key.tclass, r->constrained),
							 r->key.stype, r->key.ttype,
							 avc_class_names[r->key.tclass]);
		}
		if (r->perms)
		{
			appendStringInfo(&buf, "allow %s %s:%s ", r->key.stype, r->key.ttype,
							 avc_class_names[r->key.tclass]);
			append_perm_set(&buf, r->key.tclass, r->perms);
			appendStringInfoString(&buf, ";\n");
		}
	}
	if (dropped > 0)
		appendStringInfo(&buf, "\n# labelam: " UINT64_FORMAT " distinct denials found no room in the summary (labelam.max_denials) and are missing\n",
						 dropped);
	PG_RETURN_TEXT_P(cstring_to_text(buf.data));
}
