/* -------------------------------------------------------------------------
 *
 * src/objects/label.c
 *	  Labels of database objects: SECURITY LABEL FOR selinux (relabel
 *	  checks per class), the labels objects get by default, trusted
 *	  procedures, and contrib/sepgsql's SQL functions (sepgsql_getcon,
 *	  sepgsql_setcon, sepgsql_restorecon, sepgsql_mcstrans_in/out).
 *
 * The client label is the avc's (src/avc/client.c: peer label,
 * labelam.role_label, labelam.default_client_label, set_client_label),
 * not a second copy: sepgsql_setcon is labelam.set_client_label under
 * sepgsql's name.
 *
 * A trusted procedure is a function whose label the policy gives a
 * process type_transition from the caller (sepgsql's rule): while it runs,
 * the session's subject is the label the policy computes, for object
 * checks and for the row filter alike, so a vetted function can compute
 * over rows its caller may not read.  It needs db_procedure entrypoint on
 * the function and process transition to the new label.
 *
 * Portions Copyright (c) 2010-2022, PostgreSQL Global Development Group
 * (sepgsql_needs_fmgr_hook, sepgsql_fmgr_hook, sepgsql_get_label,
 * sepgsql_object_relabel, quote_object_name, exec_object_restorecon and
 * sepgsql_restorecon follow contrib/sepgsql/label.c of PostgreSQL 15.18;
 * 18.6's quote_object_name no longer frees quote_identifier()'s results,
 * a cleanup the copy need not follow.)
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	contrib/sepgsql/label.c
 *	  sepgsql_needs_fmgr_hook() 15: 014da9ff3eb20dd6, 18: 014da9ff3eb20dd6
 *	  sepgsql_fmgr_hook() 15: 01d4966459f4736a, 18: 01d4966459f4736a
 *	  sepgsql_get_label() 15: 7d18aeccc3151b20, 18: 7d18aeccc3151b20
 *	  sepgsql_object_relabel() 15: 7294792b996235bc, 18: 7294792b996235bc
 *	  quote_object_name() 15: 57eb172de3e776c9, 18: d6e2eed41fdf5d32
 *	  exec_object_restorecon() 15: 3b9a3e7ff67819dd, 18: 3b9a3e7ff67819dd
 *	  sepgsql_restorecon() 15: b007c2382c1a0c53, 18: b007c2382c1a0c53
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_language.h"
#include "catalog/pg_largeobject.h"
#include "catalog/pg_largeobject_metadata.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "commands/dbcommands.h"
#include "commands/seclabel.h"
#include "executor/execdesc.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "avc/avc.h"
#include "avc/avc_files.h"
#include "avc/avc_objects.h"
#include "objects/objects.h"

/* the subject of the session (or of the trusted procedure running) */
char *
sepgsql_get_client_label(void)
{
	const char *label = avc_client_label();

	if (label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label"),
				 errhint("Processes without a user session get a label from labelam.default_client_label.")));
	return (char *) label;
}

/*
 * upstream sepgsql_get_label()
 *
 * contrib/sepgsql's sepgsql_get_label: the object's label, or unlabeled
 */
char *
sepgsql_get_label(Oid classId, Oid objectId, int32 subId)
{
	char	   *label;

	label = objects_label(classId, objectId, subId);
	if (!label || !avc_label_valid(label))
		label = pstrdup(avc_unlabeled_text());
	return label;
}

/*
 * upstream sepgsql_object_relabel()
 *
 * SECURITY LABEL FOR selinux: contrib/sepgsql's sepgsql_object_relabel,
 * plus large objects.  With labelam.object_checks off, labels are only
 * validated (as labelam 0.1 did for tables); under a provider without
 * object classes (lbac) they are refused.
 */
void
sepgsql_object_relabel(const ObjectAddress *object, const char *seclabel)
{
	/* labelam: a policy that labels no objects (lbac) has no such labels */
	if (!avc_object_classes())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("SECURITY LABEL FOR selinux does not apply under labelam.provider = lbac"),
				 errdetail("The lbac provider's model labels rows only, not database objects.")));
	if (seclabel)
		(void) avc_canonicalize(seclabel);	/* ERROR 22023 if invalid */

	/* every backend's cached object labels (object_label.c), at commit */
	CacheInvalidateRelcacheAll();

	if (!objects_enabled)
		return;

	switch (object->classId)
	{
		case DatabaseRelationId:
			sepgsql_database_relabel(object->objectId, seclabel);
			break;

		case NamespaceRelationId:
			sepgsql_schema_relabel(object->objectId, seclabel);
			break;

		case RelationRelationId:
			if (object->objectSubId == 0)
				sepgsql_relation_relabel(object->objectId,
										 seclabel);
			else
				sepgsql_attribute_relabel(object->objectId,
										  object->objectSubId,
										  seclabel);
			break;

		case ProcedureRelationId:
			sepgsql_proc_relabel(object->objectId, seclabel);
			break;

		case LargeObjectRelationId:
			objects_blob_relabel(object->objectId, seclabel);
			break;

		case LanguageRelationId:
			objects_language_relabel(object->objectId, seclabel);
			break;

		default:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("SELinux: labelam does not support labels on %s",
							getObjectTypeDescription(object, false))));
			break;
	}
}

/* ---- trusted procedures ---- */

/*
 * upstream sepgsql_needs_fmgr_hook()
 *
 * contrib/sepgsql's sepgsql_needs_fmgr_hook: a function that is a trusted
 * procedure, or that the subject may not execute, goes through fmgr_hook
 * (which refuses it with the audit record).
 */
bool
objects_needs_fmgr(Oid functionId)
{
	ObjectAddress object;

	if (!objects_active())
		return false;

	if (sepgsql_avc_trusted_proc(functionId) != NULL)
		return true;

	/* not to be inlined: its calls are rewritten when planned (functions.c) */
	if (objects_function_calls_checked(functionId))
		return true;

	object.classId = ProcedureRelationId;
	object.objectId = functionId;
	object.objectSubId = 0;
	if (!sepgsql_avc_check_perms(&object,
								 SEPG_CLASS_DB_PROCEDURE,
								 SEPG_DB_PROCEDURE__EXECUTE |
								 SEPG_DB_PROCEDURE__ENTRYPOINT,
								 SEPGSQL_AVC_NOAUDIT, false))
		return true;

	return false;
}

typedef struct TrustedCall
{
	char	   *new_label;		/* NULL: not a trusted procedure */
	bool		pushed;
	AvcSubjectSave saved;
} TrustedCall;

/*
 * upstream sepgsql_fmgr_hook()
 *
 * contrib/sepgsql's sepgsql_fmgr_hook, on the avc's subject
 */
void
objects_fmgr(FmgrHookEventType event, FmgrInfo *flinfo, Datum *private)
{
	TrustedCall *call;

	switch (event)
	{
		case FHET_START:
			call = (TrustedCall *) DatumGetPointer(*private);
			if (!call)
			{
				MemoryContext oldcxt;

				oldcxt = MemoryContextSwitchTo(flinfo->fn_mcxt);
				call = palloc0(sizeof(TrustedCall));
				call->new_label = objects_enabled ?
					sepgsql_avc_trusted_proc(flinfo->fn_oid) : NULL;
				MemoryContextSwitchTo(oldcxt);

				if (call->new_label)
				{
					ObjectAddress object;

					object.classId = ProcedureRelationId;
					object.objectId = flinfo->fn_oid;
					object.objectSubId = 0;
					sepgsql_avc_check_perms(&object,
											SEPG_CLASS_DB_PROCEDURE,
											SEPG_DB_PROCEDURE__ENTRYPOINT,
											getObjectDescription(&object, false),
											true);

					sepgsql_avc_check_perms_label(call->new_label,
												  SEPG_CLASS_PROCESS,
												  SEPG_PROCESS__TRANSITION,
												  NULL, true);
				}
				*private = PointerGetDatum(call);
			}
			Assert(!call->pushed);
			if (call->new_label)
			{
				call->saved = avc_push_subject(call->new_label);
				call->pushed = true;
			}
			break;

		case FHET_END:
		case FHET_ABORT:
			call = (TrustedCall *) DatumGetPointer(*private);
			if (call && call->pushed)
			{
				avc_pop_subject(call->saved);
				call->pushed = false;
			}
			break;

		default:
			elog(ERROR, "unexpected event type: %d", (int) event);
			break;
	}
}

/*
 * Parallel workers take the session's label (labelam.session_label), not
 * a trusted procedure's, nor the read ceiling of a file being written
 * (src/files): queries run inside either execute without workers (Gather
 * runs its plan in the leader).  This clears the flag on the plan itself,
 * so a cached plan stays serial for later executions too.
 */
void
objects_executor_start(QueryDesc *queryDesc)
{
	if ((avc_subject_pushed() || avc_read_ceiling_active()) &&
		queryDesc->plannedstmt->parallelModeNeeded)
		queryDesc->plannedstmt->parallelModeNeeded = false;
}

/* ---- SQL functions with sepgsql's names ---- */

PG_FUNCTION_INFO_V1(sepgsql_getcon);
Datum
sepgsql_getcon(PG_FUNCTION_ARGS)
{
	const char *label = avc_client_label();

	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

/*
 * sepgsql_setcon(label): labelam.set_client_label under sepgsql's name and
 * with its result; NULL (sepgsql: back to the peer label) is refused, as
 * the label the session started with may not be the one the policy lets
 * it return to.
 */
PG_FUNCTION_INFO_V1(sepgsql_setcon);
Datum
sepgsql_setcon(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("sepgsql_setcon(NULL) is not supported by labelam"),
				 errhint("Give the label to change to.")));
	avc_set_client_label(TextDatumGetCString(PG_GETARG_DATUM(0)));
	PG_RETURN_BOOL(true);
}

/*
 * mcstrans translates MLS levels through a daemon that containers do not
 * run; labelam's labels are raw.  As sepgsql with no translation in place,
 * these return the label as given, once it is valid.
 */
PG_FUNCTION_INFO_V1(sepgsql_mcstrans_in);
Datum
sepgsql_mcstrans_in(PG_FUNCTION_ARGS)
{
	char	   *label = text_to_cstring(PG_GETARG_TEXT_PP(0));

	(void) avc_canonicalize(label);
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

PG_FUNCTION_INFO_V1(sepgsql_mcstrans_out);
Datum
sepgsql_mcstrans_out(PG_FUNCTION_ARGS)
{
	char	   *label = text_to_cstring(PG_GETARG_TEXT_PP(0));

	(void) avc_canonicalize(label);
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

/* ---- sepgsql_restorecon: default labels from sepgsql_contexts ---- */

/*
 * upstream quote_object_name()
 *
 * contrib/sepgsql's quote_object_name (label.c)
 */
static char *
quote_object_name(const char *src1, const char *src2,
				  const char *src3, const char *src4)
{
	StringInfoData result;
	const char *temp;

	initStringInfo(&result);

	if (src1)
	{
		temp = quote_identifier(src1);
		appendStringInfoString(&result, temp);
		if (src1 != temp)
			pfree((void *) temp);
	}
	if (src2)
	{
		temp = quote_identifier(src2);
		appendStringInfo(&result, ".%s", temp);
		if (src2 != temp)
			pfree((void *) temp);
	}
	if (src3)
	{
		temp = quote_identifier(src3);
		appendStringInfo(&result, ".%s", temp);
		if (src3 != temp)
			pfree((void *) temp);
	}
	if (src4)
	{
		temp = quote_identifier(src4);
		appendStringInfo(&result, ".%s", temp);
		if (src4 != temp)
			pfree((void *) temp);
	}
	return result.data;
}

/*
 * upstream exec_object_restorecon()
 *
 * contrib/sepgsql's exec_object_restorecon (label.c): give every object of
 * a catalog its default label; labelam also labels materialized views,
 * foreign tables (db_table) and large objects (db_blob).
 */
static void
exec_object_restorecon(struct selabel_handle *sehnd, Oid catalogId)
{
	Relation	rel;
	SysScanDesc sscan;
	HeapTuple	tuple;
	char	   *database_name = get_database_name(MyDatabaseId);
	char	   *namespace_name;
	Oid			namespace_id;
	char	   *relation_name;

	rel = table_open(catalogId, AccessShareLock);

	sscan = systable_beginscan(rel, InvalidOid, false,
							   NULL, 0, NULL);
	while (HeapTupleIsValid(tuple = systable_getnext(sscan)))
	{
		Form_pg_database datForm;
		Form_pg_namespace nspForm;
		Form_pg_class relForm;
		Form_pg_attribute attForm;
		Form_pg_proc proForm;
		Form_pg_largeobject_metadata loForm;
		Form_pg_language lanForm;
		char	   *objname;
		int			objtype = 1234;
		ObjectAddress object;
		char	   *context;
		char		relkind;

		switch (catalogId)
		{
			case DatabaseRelationId:
				datForm = (Form_pg_database) GETSTRUCT(tuple);

				objtype = SELABEL_DB_DATABASE;

				objname = quote_object_name(NameStr(datForm->datname),
											NULL, NULL, NULL);

				object.classId = DatabaseRelationId;
				object.objectId = datForm->oid;
				object.objectSubId = 0;
				break;

			case NamespaceRelationId:
				nspForm = (Form_pg_namespace) GETSTRUCT(tuple);

				objtype = SELABEL_DB_SCHEMA;

				objname = quote_object_name(database_name,
											NameStr(nspForm->nspname),
											NULL, NULL);

				object.classId = NamespaceRelationId;
				object.objectId = nspForm->oid;
				object.objectSubId = 0;
				break;

			case RelationRelationId:
				relForm = (Form_pg_class) GETSTRUCT(tuple);

				if (relForm->relkind == RELKIND_RELATION ||
					relForm->relkind == RELKIND_PARTITIONED_TABLE ||
					relForm->relkind == RELKIND_MATVIEW ||
					relForm->relkind == RELKIND_FOREIGN_TABLE)
					objtype = SELABEL_DB_TABLE;
				else if (relForm->relkind == RELKIND_SEQUENCE)
					objtype = SELABEL_DB_SEQUENCE;
				else if (relForm->relkind == RELKIND_VIEW)
					objtype = SELABEL_DB_VIEW;
				else
					continue;	/* no need to assign security label */

				namespace_name = get_namespace_name(relForm->relnamespace);
				objname = quote_object_name(database_name,
											namespace_name,
											NameStr(relForm->relname),
											NULL);
				pfree(namespace_name);

				object.classId = RelationRelationId;
				object.objectId = relForm->oid;
				object.objectSubId = 0;
				break;

			case AttributeRelationId:
				attForm = (Form_pg_attribute) GETSTRUCT(tuple);

				relkind = get_rel_relkind(attForm->attrelid);
				if (relkind != RELKIND_RELATION &&
					relkind != RELKIND_PARTITIONED_TABLE &&
					relkind != RELKIND_MATVIEW &&
					relkind != RELKIND_FOREIGN_TABLE)
					continue;	/* no need to assign security label */
				if (attForm->attisdropped)
					continue;

				objtype = SELABEL_DB_COLUMN;

				namespace_id = get_rel_namespace(attForm->attrelid);
				namespace_name = get_namespace_name(namespace_id);
				relation_name = get_rel_name(attForm->attrelid);
				objname = quote_object_name(database_name,
											namespace_name,
											relation_name,
											NameStr(attForm->attname));
				pfree(namespace_name);
				pfree(relation_name);

				object.classId = RelationRelationId;
				object.objectId = attForm->attrelid;
				object.objectSubId = attForm->attnum;
				break;

			case ProcedureRelationId:
				proForm = (Form_pg_proc) GETSTRUCT(tuple);

				objtype = SELABEL_DB_PROCEDURE;

				namespace_name = get_namespace_name(proForm->pronamespace);
				objname = quote_object_name(database_name,
											namespace_name,
											NameStr(proForm->proname),
											NULL);
				pfree(namespace_name);

				object.classId = ProcedureRelationId;
				object.objectId = proForm->oid;
				object.objectSubId = 0;
				break;

			case LargeObjectMetadataRelationId:
				loForm = (Form_pg_largeobject_metadata) GETSTRUCT(tuple);

				objtype = SELABEL_DB_BLOB;
				objname = psprintf("%u", loForm->oid);

				object.classId = LargeObjectRelationId;
				object.objectId = loForm->oid;
				object.objectSubId = 0;
				break;

			case LanguageRelationId:
				lanForm = (Form_pg_language) GETSTRUCT(tuple);

				objtype = SELABEL_DB_LANGUAGE;
				objname = quote_object_name(database_name,
											NameStr(lanForm->lanname),
											NULL, NULL);

				object.classId = LanguageRelationId;
				object.objectId = lanForm->oid;
				object.objectSubId = 0;
				break;

			default:
				elog(ERROR, "unexpected catalog id: %u", catalogId);
				objname = NULL; /* for compiler quiet */
				break;
		}

		if (selabel_lookup_raw(sehnd, &context, objname, objtype) == 0)
		{
			char	   *canonical;

			PG_TRY();
			{
				canonical = avc_canonicalize(context);
			}
			PG_FINALLY();
			{
				freecon(context);
			}
			PG_END_TRY();
			sepgsql_object_relabel(&object, canonical);
			SetSecurityLabel(&object, SEPGSQL_LABEL_TAG, canonical);
			pfree(canonical);
		}
		else if (errno == ENOENT)
			ereport(WARNING,
					(errmsg("SELinux: no initial label assigned for %s (type=%d), skipping",
							objname, objtype)));
		else
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("SELinux: could not determine initial security label for %s (type=%d): %m", objname, objtype)));

		pfree(objname);
	}
	systable_endscan(sscan);

	table_close(rel, NoLock);
}

/*
 * sepgsql_restorecon(path): label every object of the database (and the
 * databases) with its default from sepgsql_contexts, the one beside the
 * policy in force unless a path is given.  As in sepgsql, only a
 * superuser, and each relabel is checked (relabelfrom, relabelto).
 */
PG_FUNCTION_INFO_V1(sepgsql_restorecon);
/* upstream sepgsql_restorecon() */
Datum
sepgsql_restorecon(PG_FUNCTION_ARGS)
{
	struct selabel_handle *sehnd;
	struct selinux_opt seopts;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("SELinux: must be superuser to restore initial contexts")));

	seopts.type = SELABEL_OPT_PATH;
	if (PG_ARGISNULL(0))
		seopts.value = avc_contexts_path();
	else
		seopts.value = TextDatumGetCString(PG_GETARG_DATUM(0));
	sehnd = selabel_open(SELABEL_CTX_DB, &seopts, 1);
	if (!sehnd)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("SELinux: could not open the default labels \"%s\": %m",
						seopts.value)));
	PG_TRY();
	{
		exec_object_restorecon(sehnd, DatabaseRelationId);
		exec_object_restorecon(sehnd, NamespaceRelationId);
		exec_object_restorecon(sehnd, RelationRelationId);
		exec_object_restorecon(sehnd, AttributeRelationId);
		exec_object_restorecon(sehnd, ProcedureRelationId);
		exec_object_restorecon(sehnd, LargeObjectMetadataRelationId);
		exec_object_restorecon(sehnd, LanguageRelationId);
	}
	PG_FINALLY();
	{
		selabel_close(sehnd);
	}
	PG_END_TRY();

	PG_RETURN_BOOL(true);
}
