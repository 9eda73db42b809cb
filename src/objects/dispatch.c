/* -------------------------------------------------------------------------
 *
 * src/objects/dispatch.c
 *	  Where object checks enter: object access events, the executor's
 *	  permission check, utility commands (src/hooks.c calls these), and the
 *	  settings.
 *
 * labelam.object_checks (on by default; superuser, reloadable) turns
 * object labels and checks off as a whole: with it off, labelam decides
 * rows only, as version 0.1 did.  Superusers are checked like anyone else.
 *
 * contrib/sepgsql cannot be loaded beside labelam: both would own the
 * "selinux" label provider and decide the same objects twice; labelam
 * does what sepgsql does (doc/objects.md), so start-up is refused.
 *
 * A trusted session (avc/trusted.c) decides the checks of a maintenance
 * command it sends itself with its own label (objects_object_access,
 * objects_exec_check_perms, objects_utility_start, objects_relabel), with
 * its label narrowed to its clearance everywhere else.
 *
 * Portions Copyright (c) 2010-2022, PostgreSQL Global Development Group
 * (object_access_checks, objects_exec_check_perms and the utility
 * checks follow sepgsql_object_access, sepgsql_exec_check_perms and
 * sepgsql_utility_command of PostgreSQL 15.18, contrib/sepgsql/hooks.c;
 * 18.6's sepgsql_exec_check_perms also passes the RTEPermissionInfo list,
 * which objects_exec_check_perms does on every major (the executor hook's
 * arguments, src/hooks.c).)
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	contrib/sepgsql/hooks.c
 *	  sepgsql_object_access() 15: 69cf7cd3a2fa2c7d, 18: 69cf7cd3a2fa2c7d
 *	  sepgsql_exec_check_perms() 15: 5c0c0a9383158f4c, 18: 138de363ddd79125
 *	  sepgsql_utility_command() 15: daf3c251df80565e, 18: daf3c251df80565e
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_language.h"
#include "catalog/pg_largeobject.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "commands/dbcommands.h"
#include "commands/seclabel.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "utils/guc.h"
#include "utils/guc_tables.h"
#include "utils/lsyscache.h"
#include "catalog/namespace.h"

#include "avc/avc.h"
#include "objects/objects.h"
#include "pg_compat.h"

bool		objects_enabled = true;
bool		objects_debug_audit = false;

/*
 * Contextual information on DDL commands: contrib/sepgsql's
 * sepgsql_context_info_t.
 */
typedef struct
{
	NodeTag		cmdtype;

	/*
	 * Name of the template database given by users on CREATE DATABASE
	 * command. Elsewhere (including the case of default) NULL.
	 */
	const char *createdb_dtemplate;
} ObjectsContext;

static ObjectsContext objects_context;

/* a process without a subject (autovacuum, walsender ...) checks nothing */
bool
objects_active(void)
{
	return objects_enabled && avc_client_label() != NULL;
}

/*
 * upstream sepgsql_object_access()
 *
 * contrib/sepgsql's sepgsql_object_access (hooks.c), plus large objects
 */
static void
object_access_checks(ObjectAccessType access, Oid classId, Oid objectId,
					 int subId, void *arg)
{
	switch (access)
	{
		case OAT_POST_CREATE:
			{
				ObjectAccessPostCreate *pc_arg = arg;
				bool		is_internal;

				is_internal = pc_arg ? pc_arg->is_internal : false;

				switch (classId)
				{
					case DatabaseRelationId:
						sepgsql_database_post_create(objectId,
													 objects_context.createdb_dtemplate);
						break;

					case NamespaceRelationId:
						sepgsql_schema_post_create(objectId);
						break;

					case RelationRelationId:
						if (subId == 0)
						{
							/*
							 * Internal creations (toast tables, index
							 * rebuilds, ALTER TABLE's new heaps) need neither
							 * labels nor checks.
							 */
							if (is_internal)
								break;

							sepgsql_relation_post_create(objectId);
						}
						else
							sepgsql_attribute_post_create(objectId, subId);
						break;

					case ProcedureRelationId:
						sepgsql_proc_post_create(objectId);
						break;

					case LargeObjectRelationId:
						objects_blob_post_create(objectId);
						break;

					case LanguageRelationId:
						objects_language_post_create(objectId);
						break;

					default:
						/* Ignore unsupported object classes */
						break;
				}
			}
			break;

		case OAT_DROP:
			{
				ObjectAccessDrop *drop_arg = (ObjectAccessDrop *) arg;

				/*
				 * No checks on internal cleanups, such as the removal of
				 * temporary objects at session end.
				 */
				if ((drop_arg->dropflags & PERFORM_DELETION_INTERNAL) != 0)
					break;

				switch (classId)
				{
					case DatabaseRelationId:
						sepgsql_database_drop(objectId);
						break;

					case NamespaceRelationId:
						sepgsql_schema_drop(objectId);
						break;

					case RelationRelationId:
						if (subId == 0)
							sepgsql_relation_drop(objectId);
						else
							sepgsql_attribute_drop(objectId, subId);
						break;

					case ProcedureRelationId:
						sepgsql_proc_drop(objectId);
						break;

					case LargeObjectRelationId:
						objects_blob_drop(objectId);
						break;

					case LanguageRelationId:
						objects_language_drop(objectId);
						break;

					default:
						/* Ignore unsupported object classes */
						break;
				}
			}
			break;

		case OAT_TRUNCATE:
			if (classId == RelationRelationId)
				sepgsql_relation_truncate(objectId);
			break;

		case OAT_POST_ALTER:
			{
				ObjectAccessPostAlter *pa_arg = arg;
				bool		is_internal = pa_arg->is_internal;

				switch (classId)
				{
					case DatabaseRelationId:
						sepgsql_database_setattr(objectId);
						break;

					case NamespaceRelationId:
						sepgsql_schema_setattr(objectId);
						break;

					case RelationRelationId:
						if (subId == 0)
						{
							/* e.g. renaming toast relations after a rewrite */
							if (is_internal)
								break;

							sepgsql_relation_setattr(objectId);
						}
						else
							sepgsql_attribute_setattr(objectId, subId);
						break;

					case ProcedureRelationId:
						sepgsql_proc_setattr(objectId);
						break;

					default:
						/* Ignore unsupported object classes */
						break;
				}
			}
			break;

		case OAT_NAMESPACE_SEARCH:
			{
				ObjectAccessNamespaceSearch *ns_arg = arg;

				/* another module already said no */
				if (!ns_arg->result)
					break;

				ns_arg->result = sepgsql_schema_search(objectId,
													   ns_arg->ereport_on_violation);
			}
			break;

		case OAT_FUNCTION_EXECUTE:
			objects_function_execute(objectId);
			sepgsql_proc_execute(objectId);
			break;

		default:
			elog(ERROR, "unexpected object access type: %d", (int) access);
			break;
	}
}

/*
 * labelam: a trusted session (avc/trusted.c) decides the object checks of
 * the maintenance command it sent with its own label (creating, altering,
 * relabeling and dropping objects of every level; avc_maintenance_begin
 * says whether this is such a command), with its label narrowed to its
 * clearance everywhere else.  Never with its own label: function execution
 * and schema search (reads, which the narrowed label makes as the own one
 * does), and large objects, which built-in functions in expressions
 * (lo_create, lo_unlink in a CHECK constraint or a default) reach without
 * a command of their own.
 */
static bool
maintenance_check(ObjectAccessType access, Oid classId)
{
	return access != OAT_FUNCTION_EXECUTE && access != OAT_NAMESPACE_SEARCH &&
		classId != LargeObjectRelationId;
}

void
objects_object_access(ObjectAccessType access, Oid classId, Oid objectId,
					  int subId, void *arg)
{
	bool		widened;

	if (!objects_active())
		return;
	if (!maintenance_check(access, classId))
	{
		object_access_checks(access, classId, objectId, subId, arg);
		return;
	}
	widened = avc_maintenance_begin(1);
	PG_TRY();
	{
		object_access_checks(access, classId, objectId, subId, arg);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
}

/*
 * SECURITY LABEL FOR selinux (sepgsql_object_relabel), as a maintenance
 * command's check (above); large objects excepted.
 */
static void
objects_relabel(const ObjectAddress *object, const char *seclabel)
{
	bool		widened = object->classId != LargeObjectRelationId &&
		avc_maintenance_begin(1);

	PG_TRY();
	{
		sepgsql_object_relabel(object, seclabel);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
}

/*
 * upstream sepgsql_exec_check_perms()
 *
 * contrib/sepgsql's sepgsql_exec_check_perms (hooks.c)
 */
bool
objects_exec_check_perms(List *rangeTabls, List *rteperminfos, bool abort)
{
	bool		widened;
	bool		result;

	if (!objects_active())
		return true;
	/* labelam: COPY FROM of a maintenance command (see above) */
	widened = avc_maintenance_begin(1);
	PG_TRY();
	{
		result = sepgsql_dml_privileges(rangeTabls, rteperminfos, abort);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
	return result;
}

/*
 * LOAD and CREATE EXTENSION put code into the server that can override
 * every hook: db_database load_module / install_module on the current
 * database (contrib/sepgsql refuses LOAD outright; the policy's classes
 * name these permissions).
 */
static void
check_module(uint32 perm, const char *what)
{
	ObjectAddress object;
	char	   *audit_name = get_database_name(MyDatabaseId);

	ObjectAddressSet(object, DatabaseRelationId, MyDatabaseId);
	PG_TRY();
	{
		sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_DATABASE, perm,
								audit_name, true);
	}
	PG_CATCH();
	{
		errcontext("%s", what);
		PG_RE_THROW();
	}
	PG_END_TRY();
	pfree(audit_name);
}

static bool
setting_is_userset(const char *name)
{
	int			n;
	struct config_generic **vars = labelam_get_guc_variables(&n);
	int			i;

	for (i = 0; i < n; i++)
		if (pg_strcasecmp(vars[i]->name, name) == 0)
			return vars[i]->context == PGC_USERSET;
	return false;
}

/*
 * labelam's own settings, and those that decide which modules the server
 * runs, are labelam's configuration as much as its tables are: changing
 * them (ALTER SYSTEM, SET of the superuser-only ones, ALTER ROLE/DATABASE
 * ... SET) takes the
 * right to change labelam.role_label, which the extension labels for the
 * policy's administrators only (sql/90_objects.sql).  In a database
 * without the extension, only db_database set_param is asked.
 */
static void
check_configuration(const char *name)
{
	Oid			config;
	ObjectAddress object;
	char	   *audit_name;

	if (name != NULL && strncmp(name, "labelam.", 8) != 0 &&
		strcmp(name, "shared_preload_libraries") != 0 &&
		strcmp(name, "session_preload_libraries") != 0 &&
		strcmp(name, "local_preload_libraries") != 0)
		return;

	/* settings anyone may change (sepgsql.debug_audit) are not at stake */
	if (name != NULL && setting_is_userset(name))
		return;

	config = get_relname_relid("role_label", get_namespace_oid("labelam", true));
	if (!OidIsValid(config))
		return;
	ObjectAddressSet(object, RelationRelationId, config);
	audit_name = getObjectIdentity(&object, false);
	PG_TRY();
	{
		sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_TABLE,
								SEPG_DB_TABLE__UPDATE, audit_name, true);
	}
	PG_CATCH();
	{
		errcontext("changing %s, part of labelam's configuration",
				   name ? name : "every setting");
		PG_RE_THROW();
	}
	PG_END_TRY();
	pfree(audit_name);
}

/*
 * upstream sepgsql_utility_command()
 *
 * Before a utility command: remember what post-create hooks need
 * (CREATE DATABASE's template), check module loading.  The result goes
 * back to objects_utility_end, also on error.
 */
static void utility_checks(Node *parsetree);

void *
objects_utility_start(PlannedStmt *pstmt)
{
	ObjectsContext *save = palloc(sizeof(ObjectsContext));
	bool		widened;

	*save = objects_context;
	if (!objects_active())
		return save;

	/* labelam: a maintenance command's checks (see objects_object_access) */
	widened = avc_maintenance_begin(1);
	PG_TRY();
	{
		utility_checks(pstmt->utilityStmt);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
	return save;
}

static void
utility_checks(Node *parsetree)
{
	ListCell   *cell;

	objects_context.cmdtype = nodeTag(parsetree);
	switch (nodeTag(parsetree))
	{
		case T_CreatedbStmt:
			objects_context.createdb_dtemplate = NULL;
			foreach(cell, ((CreatedbStmt *) parsetree)->options)
			{
				DefElem    *defel = (DefElem *) lfirst(cell);

				if (strcmp(defel->defname, "template") == 0)
				{
					objects_context.createdb_dtemplate = strVal(defel->arg);
					break;
				}
			}
			break;

		case T_DoStmt:
			objects_language_do((DoStmt *) parsetree);
			break;

		case T_LoadStmt:
			check_module(SEPG_DB_DATABASE__LOAD_MODULE,
						 psprintf("LOAD \"%s\"",
								  ((LoadStmt *) parsetree)->filename));
			break;

		case T_CreateExtensionStmt:
			check_module(SEPG_DB_DATABASE__INSTALL_MODULE,
						 psprintf("CREATE EXTENSION \"%s\"",
								  ((CreateExtensionStmt *) parsetree)->extname));
			break;

		case T_AlterSystemStmt:
			{
				const char *name = ((AlterSystemStmt *) parsetree)->setstmt->name;

				check_module(SEPG_DB_DATABASE__SET_PARAM,
							 psprintf("ALTER SYSTEM SET \"%s\"",
									  name ? name : "ALL"));
				check_configuration(name);
			}
			break;

		case T_AlterRoleSetStmt:
		case T_AlterDatabaseSetStmt:
			{
				VariableSetStmt *stmt = IsA(parsetree, AlterRoleSetStmt) ?
				((AlterRoleSetStmt *) parsetree)->setstmt :
				((AlterDatabaseSetStmt *) parsetree)->setstmt;

				if (stmt->kind == VAR_SET_VALUE &&
					strncmp(stmt->name, "labelam.", 8) == 0)
					check_configuration(stmt->name);
			}
			break;

		case T_VariableSetStmt:
			{
				VariableSetStmt *stmt = (VariableSetStmt *) parsetree;

				/*
				 * RESET and SET ... TO DEFAULT go back to the server's
				 * configuration, which is never a weakening
				 */
				if ((stmt->kind == VAR_SET_VALUE || stmt->kind == VAR_SET_CURRENT) &&
					strncmp(stmt->name, "labelam.", 8) == 0)
					check_configuration(stmt->name);
			}
			break;

		default:
			break;
	}
}

void
objects_utility_end(void *saved)
{
	if (saved)
	{
		objects_context = *(ObjectsContext *) saved;
		pfree(saved);
	}
}

/*
 * labelam.object_checks: SELinux's object classes mean nothing to a
 * provider without them (lbac): say so rather than decide every object as
 * unlabeled.  ALTER SYSTEM and SET refuse it; in postgresql.conf it is
 * logged (WARNING) and ignored, at start-up and at a reload.
 */
static bool
objects_checks_check(bool *newval, void **extra, GucSource source)
{
	if (*newval && !avc_object_classes())
	{
		GUC_check_errcode(ERRCODE_FEATURE_NOT_SUPPORTED);
		GUC_check_errmsg("labelam.object_checks cannot be on with labelam.provider = lbac");
		GUC_check_errdetail("The lbac provider's model labels rows only; SELinux object classes (databases, schemas, tables, columns, functions ...) do not apply.");
		GUC_check_errhint("Set labelam.object_checks = off, or use the selinux or sepol provider.");
		return false;
	}
	return true;
}

void
objects_init(void)
{
	if (process_shared_preload_libraries_in_progress &&
		strstr(shared_preload_libraries_string, "sepgsql") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelam cannot be loaded together with sepgsql"),
				 errdetail("Both would label and check the same database objects through the \"selinux\" label provider."),
				 errhint("Remove sepgsql from shared_preload_libraries: labelam makes sepgsql's checks.")));

	/*
	 * The boot value must be in the variable before it is defined (assert-
	 * enabled servers check it): on, unless the provider in force labels
	 * no objects (lbac), whose check refuses it.
	 */
	objects_enabled = avc_object_classes();
	DefineCustomBoolVariable("labelam.object_checks",
							 "Label database objects and check access to them (SE-PostgreSQL's object classes).",
							 "Off: labelam decides rows only.  Cannot be on with "
							 "labelam.provider = lbac, whose model labels rows only.",
							 &objects_enabled,
							 objects_enabled,
							 PGC_SIGHUP, 0,
							 objects_checks_check, NULL, NULL);

	DefineCustomBoolVariable("sepgsql.debug_audit",
							 "Log every decision on a database object the session asks for, allowed ones too.",
							 "contrib/sepgsql's setting, under its name (labelam refuses to run beside sepgsql); it can add log lines, never remove them.",
							 &objects_debug_audit,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);

	register_label_provider(SEPGSQL_LABEL_TAG, objects_relabel);
}
