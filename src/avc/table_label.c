/*-------------------------------------------------------------------------
 *
 * src/avc/table_label.c
 *	  The security label of a table, from which the policy derives the
 *	  label of the rows it creates there (type_transition).
 *
 * In order: the label given with SECURITY LABEL FOR selinux ON TABLE; the
 * policy's default for database tables (the sepgsql_contexts file beside
 * the policy, as contrib/sepgsql uses it); labelam.default_table_label.
 * The "selinux" label provider is src/objects/label.c's.  A policy that
 * labels no objects (provider.h's object_classes: lbac) gives tables no
 * label, and new rows a label derived from the subject alone.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/label.h>
#include <selinux/selinux.h>

#include "catalog/pg_class.h"
#include "commands/dbcommands.h"
#include "commands/seclabel.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"

static char *default_table_label = NULL;

/*
 * Changes whenever a table's label, or the label of the rows a session
 * creates in it, may have changed (avc_table_label_generation), and with
 * avc_decision_epoch (a new policy or subject).
 */
static uint64 table_label_generation = 1;
static uint64 table_label_epoch = 0;	/* avc_decision_epoch last seen */

/* sepgsql_contexts of the policy in force, opened on first use */
static struct selabel_handle *sehnd = NULL;
static char *sehnd_path = NULL;

const char *
avc_contexts_path(void)
{
	static char path[MAXPGPATH];
	char	   *dir;

	if (strcmp(avc_provider->name, "selinux") == 0)
		return selinux_sepgsql_context_path();

	/* .../<type>/policy/policy.NN -> .../<type>/contexts/sepgsql_contexts */
	strlcpy(path, avc_policy_file, sizeof(path));
	get_parent_directory(path);
	get_parent_directory(path);
	dir = pstrdup(path);
	snprintf(path, sizeof(path), "%s/contexts/sepgsql_contexts", dir);
	pfree(dir);
	return path;
}

/*
 * The policy's default label for an object of selabel type objtype
 * (SELABEL_DB_TABLE ...) named objname ("db.schema.table"), from the
 * sepgsql_contexts file beside the policy in force (palloc'd), or NULL.
 */
char *
avc_default_object_label(int objtype, const char *objname)
{
	const char *path = avc_contexts_path();
	char	   *context = NULL;
	char	   *result = NULL;

	if (sehnd == NULL || sehnd_path == NULL || strcmp(path, sehnd_path) != 0)
	{
		struct selinux_opt opts[] = {{SELABEL_OPT_PATH, path}};

		if (sehnd)
			selabel_close(sehnd);
		if (sehnd_path)
			pfree(sehnd_path);
		sehnd_path = MemoryContextStrdup(TopMemoryContext, path);
		sehnd = selabel_open(SELABEL_CTX_DB, opts, 1);
	}
	if (sehnd == NULL)
		return NULL;

	if (selabel_lookup_raw(sehnd, &context, objname, objtype) == 0)
	{
		result = pstrdup(context);
		freecon(context);
	}
	return result;
}

static char *
policy_default_label(Relation rel)
{
	char	   *objname;
	char	   *result;

	objname = psprintf("%s.%s.%s", get_database_name(MyDatabaseId),
					   get_namespace_name(RelationGetNamespace(rel)),
					   RelationGetRelationName(rel));
	result = avc_default_object_label(SELABEL_DB_TABLE, objname);
	pfree(objname);
	return result;
}

/*
 * The label a table named schema.relname of this database would have
 * without a SECURITY LABEL: the policy's default (sepgsql_contexts), else
 * labelam.default_table_label; the text as given (palloc'd), or NULL if
 * neither gives one.  For labels of what is not a table's row
 * (src/shared_state: information a session writes into server state),
 * whose caller checks and canonicalizes it (decide.c and labels.c are
 * above this file).
 */
char *
avc_default_table_label_text(const char *schema, const char *relname)
{
	char	   *objname;
	char	   *label;
	char	   *dbname = get_database_name(MyDatabaseId);

	objname = psprintf("%s.%s.%s", dbname ? dbname : "", schema, relname);
	label = avc_default_object_label(SELABEL_DB_TABLE, objname);
	pfree(objname);
	if (label == NULL && default_table_label != NULL && default_table_label[0] != '\0')
		label = pstrdup(default_table_label);
	return label;
}

char *
avc_table_label_text(Relation rel)
{
	ObjectAddress object;
	char	   *label;

	/*
	 * A policy without object classes (lbac) labels rows only: a new row's
	 * label comes from the subject alone, and tables have none to give.
	 */
	if (!avc_provider->object_classes)
		return pstrdup("");

	ObjectAddressSet(object, RelationRelationId, RelationGetRelid(rel));
	label = GetSecurityLabel(&object, "selinux");
	if (label == NULL)
		label = policy_default_label(rel);
	if (label == NULL && default_table_label != NULL && default_table_label[0] != '\0')
		label = pstrdup(default_table_label);
	if (label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" has no security label",
						RelationGetRelationName(rel)),
				 errdetail("Neither SECURITY LABEL FOR selinux nor the policy's sepgsql_contexts gives one."),
				 errhint("Label it with SECURITY LABEL FOR selinux ON TABLE, or set labelam.default_table_label.")));
	return avc_canonicalize(label);
}

char *
avc_message_table_label(void)
{
	char	   *objname;
	char	   *label;

	objname = psprintf("%s.pg_catalog.pg_logical_message",
					   get_database_name(MyDatabaseId));
	label = avc_default_object_label(SELABEL_DB_TABLE, objname);
	pfree(objname);
	if (label == NULL && default_table_label != NULL && default_table_label[0] != '\0')
		label = pstrdup(default_table_label);
	if (label == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("logical messages have no security label in this database"),
				 errdetail("Neither the policy's sepgsql_contexts nor labelam.default_table_label labels tables."),
				 errhint("Set labelam.default_table_label.")));
	return avc_canonicalize(label);
}

/*
 * Something that feeds avc_table_label_text or avc_create_label_text may
 * have changed: a relation's labels or name (relcache invalidation), a
 * schema's name, labelam.default_table_label, or a subtransaction that did
 * any of these aborted.  (A new policy or subject moves avc_decision_epoch,
 * which avc_table_label_generation follows.)
 */
void
avc_table_label_forget(void)
{
	table_label_generation++;
}

/*
 * A number that stays the same for as long as every table's label and the
 * labels derived from it do (see avc_table_label_forget): callers cache
 * those labels under it.  Picks up a new policy first.
 */
uint64
avc_table_label_generation(void)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (unlikely(table_label_epoch != avc_decision_epoch))
	{
		table_label_epoch = avc_decision_epoch;
		table_label_generation++;
	}
	return table_label_generation;
}

/* a change, or its rollback, of the setting relabels tables that use it */
static void
default_table_label_assign(const char *newval, void *extra)
{
	avc_table_label_forget();
}

void
avc_table_label_init(void)
{
	DefineCustomStringVariable("labelam.default_table_label",
							   "Label of tables that have none from SECURITY LABEL or the policy's defaults.",
							   NULL,
							   &default_table_label,
							   "",
							   PGC_SUSET, 0,
							   NULL, default_table_label_assign, NULL);
}
