/* -------------------------------------------------------------------------
 *
 * src/objects/language.c
 *	  Procedural languages as database objects (class db_language): a label
 *	  when one is created, checks on dropping and relabeling it, and
 *	  db_language execute on running an anonymous code block (DO) in it.
 *
 * contrib/sepgsql (PostgreSQL 15) labels no languages; these follow its
 * routines for other objects (proc.c): a new language's label is the
 * policy's type_transition from the client on the database's label, and a
 * language without a stored label is decided by its sepgsql_contexts
 * default (Debian: sepgsql_safe_lang_t for sql, plpgsql, pltcl, plperl,
 * sepgsql_lang_t for the others), the label SELinux policies write their
 * language rules for.  Functions are decided as db_procedure objects;
 * policies grant db_language implement to no one, so it is not asked.
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_database.h"
#include "catalog/pg_language.h"
#include "commands/proclang.h"
#include "commands/seclabel.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "objects/objects.h"

static char *
language_name(Oid langId)
{
	char	   *name = get_language_name(langId, true);

	return psprintf("language %s", name ? name : "?");
}

/*
 * The new pg_language row is not visible to the syscache until the next
 * command counter increment, so it is read with SnapshotSelf, as
 * contrib/sepgsql's proc.c reads a new pg_proc row.
 */
static char *
new_language_name(Oid langId)
{
	Relation	rel;
	ScanKeyData skey;
	SysScanDesc sscan;
	HeapTuple	tuple;
	char	   *name;

	rel = table_open(LanguageRelationId, AccessShareLock);
	ScanKeyInit(&skey,
				Anum_pg_language_oid,
				BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(langId));
	sscan = systable_beginscan(rel, LanguageOidIndexId, true,
							   SnapshotSelf, 1, &skey);
	tuple = systable_getnext(sscan);
	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "could not find tuple for language %u", langId);
	name = pstrdup(NameStr(((Form_pg_language) GETSTRUCT(tuple))->lanname));
	systable_endscan(sscan);
	table_close(rel, AccessShareLock);

	return name;
}

void
objects_language_post_create(Oid langId)
{
	char	   *scontext = sepgsql_get_client_label();
	char	   *tcontext;
	char	   *ncontext;
	char	   *name = new_language_name(langId);
	char	   *audit_name = psprintf("language %s", name);
	ObjectAddress object;

	tcontext = sepgsql_get_label(DatabaseRelationId, MyDatabaseId, 0);
	ncontext = sepgsql_compute_create(scontext, tcontext,
									  SEPG_CLASS_DB_LANGUAGE, name);
	sepgsql_avc_check_perms_label(ncontext, SEPG_CLASS_DB_LANGUAGE,
								  SEPG_DB_LANGUAGE__CREATE, audit_name, true);
	ObjectAddressSet(object, LanguageRelationId, langId);
	SetSecurityLabel(&object, SEPGSQL_LABEL_TAG, ncontext);
	pfree(audit_name);
	pfree(name);
	pfree(ncontext);
	pfree(tcontext);
}

void
objects_language_drop(Oid langId)
{
	ObjectAddress object;
	char	   *audit_name = language_name(langId);

	ObjectAddressSet(object, LanguageRelationId, langId);
	sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_LANGUAGE,
							SEPG_DB_LANGUAGE__DROP, audit_name, true);
	pfree(audit_name);
}

void
objects_language_relabel(Oid langId, const char *seclabel)
{
	ObjectAddress object;
	char	   *audit_name = language_name(langId);

	ObjectAddressSet(object, LanguageRelationId, langId);
	sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_LANGUAGE,
							SEPG_DB_LANGUAGE__SETATTR |
							SEPG_DB_LANGUAGE__RELABELFROM,
							audit_name, true);
	sepgsql_avc_check_perms_label(seclabel, SEPG_CLASS_DB_LANGUAGE,
								  SEPG_DB_LANGUAGE__RELABELTO,
								  audit_name, true);
	pfree(audit_name);
}

/* DO: the code block runs in its language (default plpgsql, as DO's) */
void
objects_language_do(DoStmt *stmt)
{
	const char *lang = "plpgsql";
	ListCell   *lc;
	Oid			langId;
	ObjectAddress object;
	char	   *audit_name;

	foreach(lc, stmt->args)
	{
		DefElem    *defel = (DefElem *) lfirst(lc);

		if (strcmp(defel->defname, "language") == 0)
			lang = strVal(defel->arg);
	}
	langId = get_language_oid(lang, true);
	if (!OidIsValid(langId))
		return;					/* DO says it does not exist */
	ObjectAddressSet(object, LanguageRelationId, langId);
	audit_name = language_name(langId);
	sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_LANGUAGE,
							SEPG_DB_LANGUAGE__EXECUTE, audit_name, true);
	pfree(audit_name);
}
