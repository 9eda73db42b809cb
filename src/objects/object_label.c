/* -------------------------------------------------------------------------
 *
 * src/objects/object_label.c
 *	  The label an object is decided by, cached per backend.
 *
 * An object's label is the one SECURITY LABEL FOR selinux stored (objects
 * created while object checks are on get one at creation); an object that
 * has none, because it existed before labelam was loaded or was created
 * with object checks off, is decided by its default from the policy's
 * sepgsql_contexts, the label sepgsql_restorecon() would give it.  With
 * neither, it is "unlabeled" (check.c), as is an object whose stored label
 * the policy does not know.
 *
 * pg_seclabel has no system cache, and object checks run for every table,
 * column and function a statement uses, so labels are cached here.  The
 * cache starts over on any invalidation of a relation, function, schema or
 * database (names feed the defaults, and a dropped object's OID may come
 * back), and SECURITY LABEL FOR selinux invalidates every backend's
 * relation cache at commit (label.c), which empties this cache with it.
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/label.h>

#include "catalog/pg_class.h"
#include "catalog/pg_database.h"
#include "catalog/pg_language.h"
#include "catalog/pg_largeobject.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_proc.h"
#include "commands/dbcommands.h"
#include "commands/seclabel.h"
#include "miscadmin.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "avc/avc_objects.h"
#include "objects/objects.h"

typedef struct ObjectLabelKey
{
	Oid			classId;
	Oid			objectId;
	int32		subId;
} ObjectLabelKey;

typedef struct ObjectLabelEntry
{
	ObjectLabelKey key;
	char	   *label;			/* NULL: none, not even a default */
} ObjectLabelEntry;

static HTAB *object_labels = NULL;
static MemoryContext object_label_cxt = NULL;

/* "db.schema.name[.column]" as sepgsql_contexts matches it, or NULL */
static char *
default_label(Oid classId, Oid objectId, int32 subId)
{
	char	   *db = get_database_name(MyDatabaseId);
	char	   *objname = NULL;
	int			objtype = 0;
	char	   *result;

	switch (classId)
	{
		case DatabaseRelationId:
			objname = get_database_name(objectId);
			objtype = SELABEL_DB_DATABASE;
			break;
		case NamespaceRelationId:
			objname = psprintf("%s.%s", db, get_namespace_name(objectId));
			objtype = SELABEL_DB_SCHEMA;
			break;
		case RelationRelationId:
			{
				char		relkind = get_rel_relkind(objectId);
				char	   *nsp = get_namespace_name(get_rel_namespace(objectId));
				char	   *rel = get_rel_name(objectId);

				if (nsp == NULL || rel == NULL)
					return NULL;
				if (subId != 0)
				{
					char	   *att = get_attname(objectId, subId, true);

					if (att == NULL)
						return NULL;
					objname = psprintf("%s.%s.%s.%s", db, nsp, rel, att);
					objtype = SELABEL_DB_COLUMN;
				}
				else
				{
					objname = psprintf("%s.%s.%s", db, nsp, rel);
					objtype = relkind == RELKIND_SEQUENCE ? SELABEL_DB_SEQUENCE :
						relkind == RELKIND_VIEW ? SELABEL_DB_VIEW :
						SELABEL_DB_TABLE;
				}
			}
			break;
		case ProcedureRelationId:
			{
				char	   *name = get_func_name(objectId);
				char	   *nsp = get_namespace_name(get_func_namespace(objectId));

				if (nsp == NULL || name == NULL)
					return NULL;
				objname = psprintf("%s.%s.%s", db, nsp, name);
				objtype = SELABEL_DB_PROCEDURE;
			}
			break;
		case LargeObjectRelationId:
			objname = psprintf("%s.%u", db, objectId);
			objtype = SELABEL_DB_BLOB;
			break;
		case LanguageRelationId:
			{
				char	   *lang = get_language_name(objectId, true);

				if (lang == NULL)
					return NULL;
				objname = psprintf("%s.%s", db, lang);
				objtype = SELABEL_DB_LANGUAGE;
			}
			break;
		default:
			return NULL;
	}
	if (objname == NULL)
		return NULL;
	result = avc_default_object_label(objtype, objname);
	pfree(objname);
	return result;
}

/* The label to decide with (palloc'd), or NULL. */
char *
objects_label(Oid classId, Oid objectId, int32 subId)
{
	ObjectLabelKey key;
	ObjectLabelEntry *e;
	bool		found;

	if (object_labels == NULL)
	{
		HASHCTL		ctl;

		object_label_cxt = AllocSetContextCreate(TopMemoryContext,
												 "labelam object labels",
												 ALLOCSET_SMALL_SIZES);
		ctl.keysize = sizeof(ObjectLabelKey);
		ctl.entrysize = sizeof(ObjectLabelEntry);
		ctl.hcxt = object_label_cxt;
		object_labels = hash_create("labelam object labels", 256, &ctl,
									HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}

	memset(&key, 0, sizeof(key));
	key.classId = classId;
	key.objectId = objectId;
	key.subId = subId;
	e = hash_search(object_labels, &key, HASH_FIND, NULL);
	if (e == NULL)
	{
		ObjectAddress object;
		char	   *label;

		object.classId = classId;
		object.objectId = objectId;
		object.objectSubId = subId;
		label = GetSecurityLabel(&object, SEPGSQL_LABEL_TAG);
		if (label == NULL)
			label = default_label(classId, objectId, subId);

		/* the lookups may have emptied the cache: enter only now */
		if (object_labels == NULL)
			return label;
		e = hash_search(object_labels, &key, HASH_ENTER, &found);
		e->label = label ? MemoryContextStrdup(object_label_cxt, label) : NULL;
		return label;
	}
	return e->label ? pstrdup(e->label) : NULL;
}

/* relcache/syscache invalidation (src/hooks.c) */
void
objects_label_forget(void)
{
	objects_functions_forget();
	if (object_labels == NULL)
		return;
	hash_destroy(object_labels);
	object_labels = NULL;
	MemoryContextDelete(object_label_cxt);
	object_label_cxt = NULL;
}
