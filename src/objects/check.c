/* -------------------------------------------------------------------------
 *
 * src/objects/check.c
 *	  Decisions on database objects: contrib/sepgsql's uavc.c and selinux.c
 *	  interface (sepgsql_avc_check_perms & co.) on labelam's avc.
 *
 * The subject is the avc's: the client label, or a trusted procedure's
 * while one runs.  Decisions come from the provider in force through the
 * avc's cache, the same as row decisions.  Audit lines are sepgsql's,
 * word for word ("SELinux: allowed { select } scontext=... tcontext=...
 * tclass=db_table name=\"public.t\" permissive=0"), so that tools reading
 * sepgsql's logs read labelam's; which decisions are audited follows
 * labelam.audit (none, denied = as the policy says, all), and
 * sepgsql.debug_audit (sepgsql's own setting, under its name) adds every
 * decision of the session.
 *
 * Two rules are labelam's own (objects_table_required and
 * objects_column_required):
 *
 * - On a labelheap table, writing rows is decided per row (db_tuple:
 *   insert, update, delete, and locking by update), not per table or
 *   column: the MLS policy lets a subject write a table or column only at
 *   its own level, so table-level write checks would confine a
 *   multi-level table to one level.  The same holds for a partitioned
 *   table whose leaves are all labelheap tables: rows written through it
 *   land in the leaves, each decided by its own label (issue 33).  Reading (db_table/db_column select)
 *   and everything about the table as an object (create, drop, setattr,
 *   relabel) is checked as sepgsql checks it.  TRUNCATE of a labelheap
 *   table is decided by its rows' labels (label_set_checks.c).
 * - db_table truncate: a policy that does not define it (Debian's does
 *   not) has TRUNCATE decided as what it is, deleting every row: db_table
 *   delete.
 *
 * Portions Copyright (c) 2010-2022, PostgreSQL Global Development Group
 * (sepgsql_avc_check_perms_label, sepgsql_avc_check_perms,
 * sepgsql_avc_trusted_proc, sepgsql_audit_log, sepgsql_getenforce and
 * sepgsql_compute_create follow contrib/sepgsql's uavc.c and selinux.c of
 * PostgreSQL 15.18, the same in 18.6.)
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	contrib/sepgsql/uavc.c
 *	  sepgsql_avc_check_perms_label()
 *		15: 7fab7661181861aa, 18: 7fab7661181861aa
 *	  sepgsql_avc_check_perms() 15: d11b1a73ed392dbc, 18: d11b1a73ed392dbc
 *	  sepgsql_avc_trusted_proc() 15: ad709228ffdaccbf, 18: ad709228ffdaccbf
 *	contrib/sepgsql/selinux.c
 *	  sepgsql_audit_log() 15: 7497bdf24d4d0161, 18: 7497bdf24d4d0161
 *	  sepgsql_getenforce() 15: 6898533bf1dbe163, 18: 6898533bf1dbe163
 *	  sepgsql_compute_create() 15: c4065d08599605c4, 18: c4065d08599605c4
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_proc.h"
#include "commands/seclabel.h"
#include "lib/stringinfo.h"
#include "access/htup_details.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "avc/avc_objects.h"
#include "objects/objects.h"

/* labelam.audit's values (avc_internal.h's AvcAuditMode) */
#define AUDIT_NONE		0
#define AUDIT_ALL		2

/*
 * Is the decision enforced?  A permissive domain's denials are audited but
 * not enforced, as SELinux does.
 */
static inline bool
decision_enforced(const AvcDecision *avd)
{
	return !avd->permissive;
}

/*
 * upstream sepgsql_getenforce()
 *
 * contrib/sepgsql's sepgsql_getenforce(): labelam is always enforcing
 */
bool
sepgsql_getenforce(void)
{
	return true;
}

/*
 * An object's name for a message: a session's temporary schema is
 * "pg_temp", as the session names it, not "pg_temp_N" (the audit line
 * keeps the real name).
 */
static const char *
message_name(const char *name)
{
	const char *p;

	if (strncmp(name, "pg_temp_", 8) != 0)
		return name;
	p = name + 8;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == name + 8 || *p != '.')
		return name;
	return psprintf("pg_temp%s", p);
}

/*
 * upstream sepgsql_audit_log()
 *
 * The audit record of contrib/sepgsql's sepgsql_audit_log (selinux.c).
 */
static void
objects_audit_log(bool denied, bool enforcing, const char *scontext,
				  const char *tcontext, uint16 tclass, uint32 audited,
				  const char *audit_name)
{
	StringInfoData buf;
	const char *const *names = avc_perm_names[tclass];
	int			i;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s {", (denied ? "denied" : "allowed"));
	for (i = 0; names[i] != NULL; i++)
	{
		if (audited & (1U << i))
			appendStringInfo(&buf, " %s", names[i]);
	}
	appendStringInfoString(&buf, " }");
	appendStringInfo(&buf, " scontext=%s tcontext=%s tclass=%s",
					 scontext, tcontext, avc_class_names[tclass]);
	if (audit_name)
		appendStringInfo(&buf, " name=\"%s\"", audit_name);
	appendStringInfoString(&buf, enforcing ? " permissive=0" : " permissive=1");

	ereport(LOG, (errmsg("SELinux: %s", buf.data)));
	pfree(buf.data);
}

/*
 * upstream sepgsql_avc_check_perms_label()
 *
 * contrib/sepgsql's sepgsql_avc_check_perms_label (uavc.c): may the
 * subject do "required" to an object of tclass labeled tcontext?
 */
bool
sepgsql_avc_check_perms_label(const char *tcontext,
							  uint16 tclass, uint32 required,
							  const char *audit_name,
							  bool abort_on_violation)
{
	const char *scontext = avc_client_label();
	const char *decided_as;
	AvcDecision avd;
	uint32		denied;
	uint32		audited;
	bool		enforcing;
	bool		result = true;
	int			audit = avc_audit_level();

	avc_decide_object((AvcClass) tclass, tcontext, &avd, &decided_as);
	denied = required & ~avd.allowed;
	enforcing = decision_enforced(&avd);

	if (audit == AUDIT_NONE)
		audited = 0;
	else if (objects_debug_audit || audit == AUDIT_ALL)
		audited = (denied ? denied : required);
	else
		audited = denied ? (denied & avd.auditdeny)
			: (required & avd.auditallow);

	if (denied && enforcing)
		result = false;

	if (audited != 0 && audit_name != SEPGSQL_AVC_NOAUDIT)
		objects_audit_log(denied != 0, enforcing,
						  scontext ? scontext : "(none)", decided_as,
						  tclass, audited, audit_name);

	if (abort_on_violation && !result)
	{
		StringInfoData perms;
		const char *const *names = avc_perm_names[tclass];
		const char *object = (audit_name && audit_name != SEPGSQL_AVC_NOAUDIT) ?
			message_name(audit_name) : "an object";
		int			i;

		initStringInfo(&perms);
		for (i = 0; names[i] != NULL; i++)
			if (denied & (1U << i))
				appendStringInfo(&perms, "%s%s", perms.len ? " " : "", names[i]);

		/*
		 * The object's label is shown only to a subject that may see the
		 * object's attributes (getattr); the process class has none.
		 */
		if (tclass == SEPG_CLASS_PROCESS ||
			(avd.allowed & SEPG_DB_DATABASE__GETATTR) != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("SELinux: security policy violation"),
					 errdetail("The security policy does not allow %s { %s } on %s labeled \"%s\" to \"%s\".",
							   avc_class_names[tclass], perms.data, object,
							   decided_as, scontext ? scontext : "(no label)")));
		else
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("SELinux: security policy violation"),
					 errdetail("The security policy does not allow %s { %s } on %s, whose label is beyond the reach of \"%s\".",
							   avc_class_names[tclass], perms.data, object,
							   scontext ? scontext : "(no label)")));
	}
	return result;
}

/*
 * upstream sepgsql_avc_check_perms()
 *
 * contrib/sepgsql's sepgsql_avc_check_perms (uavc.c)
 */
bool
sepgsql_avc_check_perms(const ObjectAddress *tobject,
						uint16 tclass, uint32 required,
						const char *audit_name,
						bool abort_on_violation)
{
	char	   *tcontext = objects_label(tobject->classId, tobject->objectId,
											 tobject->objectSubId);
	bool		rc;

	rc = sepgsql_avc_check_perms_label(tcontext,
									   tclass, required,
									   audit_name, abort_on_violation);
	if (tcontext)
		pfree(tcontext);

	return rc;
}

/*
 * upstream sepgsql_avc_trusted_proc()
 *
 * contrib/sepgsql's sepgsql_avc_trusted_proc (uavc.c): the label a
 * function runs with if the policy makes it a trusted procedure (a
 * type_transition of class process from the caller on the function's
 * label), else NULL.
 */
char *
sepgsql_avc_trusted_proc(Oid functionId)
{
	const char *scontext = avc_client_label();
	const char *decided_as;
	char	   *tcontext;
	char	   *ncontext;
	AvcDecision avd;

	if (scontext == NULL)
		return NULL;
	tcontext = objects_label(ProcedureRelationId, functionId, 0);
	if (tcontext == NULL)
		return NULL;

	/* a label the policy does not know is "unlabeled": no transition */
	avc_decide_object(AVC_CLASS_DB_PROCEDURE, tcontext, &avd, &decided_as);
	if (strcmp(decided_as, tcontext) != 0)
		return NULL;
	ncontext = avc_compute_create_text(scontext, tcontext, AVC_CLASS_PROCESS,
									   NULL);
	if (strcmp(ncontext, scontext) == 0)
	{
		pfree(ncontext);
		ncontext = NULL;
	}
	pfree(tcontext);
	return ncontext;
}

/*
 * upstream sepgsql_compute_create()
 *
 * contrib/sepgsql's sepgsql_compute_create (selinux.c)
 */
char *
sepgsql_compute_create(const char *scontext, const char *tcontext,
					   uint16 tclass, const char *objname)
{
	if (scontext == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label"),
				 errhint("Processes without a user session get a label from labelam.default_client_label.")));
	return avc_compute_create_text(scontext, tcontext, (AvcClass) tclass,
								   objname);
}

/* a table whose rows are labelheap's: its relkind, if it has a pg_class row */
static bool
relation_is_labelheap_leaf(Oid relOid, char *relkind)
{
	HeapTuple	tuple;
	bool		result = false;

	*relkind = '\0';
	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relOid));
	if (HeapTupleIsValid(tuple))
	{
		Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);

		*relkind = form->relkind;
		result = form->relkind == RELKIND_RELATION &&
			is_labelheap_am(form->relam);
		ReleaseSysCache(tuple);
	}
	return result;
}

/*
 * Are rel's rows decided one by one: a labelheap table, or a partitioned
 * table whose leaves, at any depth, are all labelheap tables (and there is
 * at least one)?  Rows written through such a parent are routed to its
 * leaves, where the storage engine decides each by its own label, as on a
 * labelheap table; a tree that mixes them stays checked at the parent
 * (am/ddl/refuse.c refuses to build such trees: a routed row would lose
 * its label in the other leaves).
 */
static bool
relation_is_labelheap(Oid relOid)
{
	char		relkind;
	List	   *tree;
	ListCell   *lc;
	bool		leaves = false;

	if (relation_is_labelheap_leaf(relOid, &relkind))
		return true;
	if (relkind != RELKIND_PARTITIONED_TABLE)
		return false;
	tree = find_all_inheritors(relOid, NoLock, NULL);
	foreach(lc, tree)
	{
		Oid			member = lfirst_oid(lc);

		if (relation_is_labelheap_leaf(member, &relkind))
			leaves = true;
		else if (relkind != RELKIND_PARTITIONED_TABLE)
		{
			leaves = false;
			break;
		}
	}
	list_free(tree);
	return leaves;
}

/* labelam's rules on db_table permissions (see the header comment) */
uint32
objects_table_required(Oid relOid, uint32 required)
{
	if ((required & SEPG_DB_TABLE__TRUNCATE) &&
		!avc_policy_defines(AVC_CLASS_DB_TABLE, SEPG_DB_TABLE__TRUNCATE))
		required = (required & ~SEPG_DB_TABLE__TRUNCATE) | SEPG_DB_TABLE__DELETE;
	if ((required & (SEPG_DB_TABLE__INSERT | SEPG_DB_TABLE__UPDATE |
					 SEPG_DB_TABLE__DELETE | SEPG_DB_TABLE__LOCK |
					 SEPG_DB_TABLE__TRUNCATE)) != 0 &&
		relation_is_labelheap(relOid))
		required &= ~(SEPG_DB_TABLE__INSERT | SEPG_DB_TABLE__UPDATE |
					  SEPG_DB_TABLE__DELETE | SEPG_DB_TABLE__LOCK |
					  SEPG_DB_TABLE__TRUNCATE);
	return required;
}

/* labelam's rule on db_column permissions (see the header comment) */
uint32
objects_column_required(Oid relOid, uint32 required)
{
	if ((required & (SEPG_DB_COLUMN__INSERT | SEPG_DB_COLUMN__UPDATE)) != 0 &&
		relation_is_labelheap(relOid))
		required &= ~(SEPG_DB_COLUMN__INSERT | SEPG_DB_COLUMN__UPDATE);
	return required;
}
