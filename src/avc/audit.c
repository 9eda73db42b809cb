/*-------------------------------------------------------------------------
 *
 * src/avc/audit.c
 *	  Audit of access decisions, aggregated per statement.
 *
 * A scan may decide millions of rows: a line per row would drown the log
 * and cost more than the scan.  Decisions to be audited are counted by
 * (relation, permission, subject, object label, outcome) and written as one
 * LOG line each when the statement ends (ExecutorEnd of the top-level
 * statement, the end of a utility command, or the end of the transaction:
 * a denied write aborts it, and its denials must still be logged).
 *
 * Which decisions are audited: labelam.audit = 'denied' follows the
 * policy (denials unless dontaudit'ed, grants that auditallow names),
 * 'all' takes every decision, 'none' nothing.  Audited denials are also
 * summarized across backends (denials.c).  A denial that was not enforced
 * (labelam.enforcing off, or a permissive domain) says permissive=1, as
 * SELinux's audit does.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"

typedef struct AuditKey
{
	Oid			relid;
	uint32		object;
	uint32		perm;			/* one bit */
	uint16		kind;
	uint8		tclass;
	bool		allowed;
} AuditKey;

typedef struct AuditEntry
{
	AuditKey	key;			/* must be first */
	uint64		count;
	bool		permissive;
	char	   *subject;
	char	   *object;
	char	   *relname;
} AuditEntry;

static MemoryContext audit_cxt = NULL;
static HTAB *audit_hash = NULL;

/* the last entry counted, for runs of rows with the same label */
static AuditKey audit_last_key;
static AuditEntry *audit_last = NULL;

static void
audit_create(void)
{
	HASHCTL		ctl;

	if (audit_cxt == NULL)
		audit_cxt = AllocSetContextCreate(TopMemoryContext, "labelam audit",
										  ALLOCSET_SMALL_SIZES);
	ctl.keysize = sizeof(AuditKey);
	ctl.entrysize = sizeof(AuditEntry);
	ctl.hcxt = audit_cxt;
	audit_hash = hash_create("labelam audit", 64, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

static char *
audit_relname(Relation rel)
{
	char	   *nsp = get_namespace_name(RelationGetNamespace(rel));

	return MemoryContextStrdup(audit_cxt,
							   quote_qualified_identifier(nsp, RelationGetRelationName(rel)));
}

/*
 * Count a decision for each permission of perms that is to be audited.
 */
void
avc_audit_record(Relation rel, AvcClass tclass, AvcObjKind kind,
				 uint32 object, const AvcDecision *avd, uint32 perms)
{
	avc_audit_record_rows(rel, tclass, kind, object, avd, perms, 1);
}

/* The same decision, made for nrows rows at once. */
void
avc_audit_record_rows(Relation rel, AvcClass tclass, AvcObjKind kind,
					  uint32 object, const AvcDecision *avd, uint32 perms,
					  uint64 nrows)
{
	uint32		remaining = perms;

	avc_denials_note(rel, tclass, kind, object, avd, perms, nrows);
	if (audit_hash == NULL)
		audit_create();

	while (remaining != 0)
	{
		uint32		bit = remaining & (~remaining + 1);
		bool		allowed = (avd->allowed & bit) != 0;
		AuditKey	key;
		AuditEntry *e;

		remaining &= ~bit;
		if (avc_audit_mode != AVC_AUDIT_ALL &&
			!(allowed ? (avd->auditallow & bit) : (avd->auditdeny & bit)))
			continue;

		memset(&key, 0, sizeof(key));
		key.relid = rel ? RelationGetRelid(rel) : InvalidOid;
		key.object = object;
		key.perm = bit;
		key.kind = kind;
		key.tclass = tclass;
		key.allowed = allowed;

		if (audit_last != NULL && memcmp(&key, &audit_last_key, sizeof(key)) == 0)
			e = audit_last;
		else
		{
			bool		found;

			e = hash_search(audit_hash, &key, HASH_ENTER, &found);
			if (!found)
			{
				const char *subject = avc_client_label();
				char	   *otext = avc_object_text(kind, object);

				e->count = 0;
				e->permissive = avd->permissive;
				e->subject = MemoryContextStrdup(audit_cxt,
												 subject ? subject : "(none)");
				e->object = MemoryContextStrdup(audit_cxt,
												otext ? otext : "(unknown)");
				e->relname = rel ? audit_relname(rel) : NULL;
			}
			audit_last_key = key;
			audit_last = e;
		}
		e->count += nrows;
	}
}

/* Write one line per aggregated decision, then forget them. */
void
avc_audit_flush(void)
{
	HASH_SEQ_STATUS status;
	AuditEntry *e;

	avc_denials_publish();
	if (audit_hash == NULL)
		return;

	hash_seq_init(&status, audit_hash);
	while ((e = hash_seq_search(&status)) != NULL)
	{
		StringInfoData buf;
		const char *perm = avc_perm_names[e->key.tclass][pg_rightmost_one_pos32(e->key.perm)];

		initStringInfo(&buf);
		appendStringInfo(&buf, "%s { %s } scontext=%s tcontext=%s tclass=%s",
						 e->key.allowed ? "allowed" : "denied", perm,
						 e->subject, e->object, avc_class_names[e->key.tclass]);
		if (e->relname)
			appendStringInfo(&buf, " relation=%s", e->relname);
		if (e->key.tclass == AVC_CLASS_DB_TUPLE)
			appendStringInfo(&buf, " rows=" UINT64_FORMAT, e->count);
		if (!e->key.allowed && e->permissive)
			appendStringInfoString(&buf, " permissive=1");
		/*
		 * Server log only: a session that set client_min_messages = log
		 * would otherwise read how many rows of which labels it did not
		 * see.
		 */
		ereport(LOG_SERVER_ONLY,
				(errmsg("labelam: %s", buf.data),
				 errhidestmt(true)));
		pfree(buf.data);
	}
	avc_audit_discard();
}

void
avc_audit_discard(void)
{
	avc_denials_discard();
	audit_hash = NULL;
	audit_last = NULL;
	if (audit_cxt != NULL)
		MemoryContextReset(audit_cxt);
}

/* labelam.audit, for src/objects (avc_objects.h) */
int
avc_audit_level(void)
{
	return avc_audit_mode;
}
