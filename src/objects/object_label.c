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
 * column and function a statement uses, so labels are cached here, each
 * with the last decision made on it (objects_decide).  The
 * cache starts over on any invalidation of a relation, function, schema or
 * database (names feed the defaults, and a dropped object's OID may come
 * back), and SECURITY LABEL FOR selinux invalidates every backend's
 * relation cache at commit (label.c), which empties this cache with it.
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/label.h>

#include "access/htup_details.h"
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
#include "utils/syscache.h"

#include "am/labelheap.h"
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
	/* the last decision on the object (objects_decide), at avc epoch epoch */
	uint64		epoch;			/* 0: none */
	uint16		tclass;
	AvcDecision avd;
	char	   *decided_as;
	/* a relation's kind and access method (objects_relation_kind) */
	bool		kind_known;
	char		relkind;
	bool		labelheap;
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

/* an object whose label lookup met an invalidation: nothing of it kept */
static ObjectLabelEntry uncached;

/* The object's entry, its label looked up if it has none yet. */
static ObjectLabelEntry *
object_entry(Oid classId, Oid objectId, int32 subId)
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

		/*
		 * The lookups may have emptied the cache (invalidations): then the
		 * label is not kept; else enter only now.
		 */
		if (object_labels == NULL)
		{
			uncached.key = key;
			uncached.label = label;
			uncached.epoch = 0;
			uncached.decided_as = NULL;
			uncached.kind_known = false;
			return &uncached;
		}
		e = hash_search(object_labels, &key, HASH_ENTER, &found);
		e->label = label ? MemoryContextStrdup(object_label_cxt, label) : NULL;
		e->epoch = 0;
		e->decided_as = NULL;
		e->kind_known = false;
		if (label)
			pfree(label);
	}
	return e;
}

/* The label to decide with (palloc'd), or NULL. */
char *
objects_label(Oid classId, Oid objectId, int32 subId)
{
	ObjectLabelEntry *e = object_entry(classId, objectId, subId);

	return e->label ? pstrdup(e->label) : NULL;
}

/*
 * avc_decide_object's decision in class tclass on the object, by its
 * label, for the subject in force, and in *decided_as the label the
 * decision is about (valid until the next decision here or invalidation:
 * copy it to keep it).  Kept with the object's label while the avc's epoch
 * holds (a new policy, enforcing mode or subject, and a trusted procedure
 * entered or left, move it): the checks every statement makes of its
 * tables, columns, functions and schemas are then a lookup, not a search
 * of the avc's cache by the label's text.
 */
void
objects_decide(const ObjectAddress *object, uint16 tclass, AvcDecision *avd,
			   const char **decided_as)
{
	uint64		epoch = avc_current_epoch();
	ObjectLabelEntry *e = object_entry(object->classId, object->objectId,
									   object->objectSubId);
	const char *as;

	if (e == &uncached)
	{
		avc_decide_object((AvcClass) tclass, e->label, avd, decided_as);
		return;
	}
	if (e->epoch != epoch || e->tclass != tclass)
	{
		/* the entry's own copy of the label: the decision may name it */
		avc_decide_object((AvcClass) tclass, e->label, avd, &as);
		if (e->decided_as)
			pfree(e->decided_as);
		e->decided_as = MemoryContextStrdup(object_label_cxt, as);
		e->avd = *avd;
		e->tclass = tclass;
		/* deciding took in nothing that could move the epoch; be sure */
		e->epoch = avc_epoch_holds(epoch) ? epoch : 0;
	}
	*avd = e->avd;
	*decided_as = e->decided_as;
}

/*
 * A relation's relkind and whether it is a labelheap table, kept with its
 * label (a relcache invalidation, which ALTER TABLE ... SET ACCESS METHOD
 * sends, forgets both): object checks ask for each table of every
 * statement, and each of its columns that is written.  '\0' and false for
 * a relation that does not exist.
 */
void
objects_relation_kind(Oid relOid, char *relkind, bool *labelheap)
{
	ObjectLabelEntry *e = object_entry(RelationRelationId, relOid, 0);

	if (!e->kind_known)
	{
		HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relOid));
		char		kind = '\0';
		bool		lh = false;

		if (HeapTupleIsValid(tuple))
		{
			Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);

			kind = form->relkind;
			lh = kind == RELKIND_RELATION && is_labelheap_am(form->relam);
			ReleaseSysCache(tuple);
		}
		/* the lookup may have met an invalidation: look the entry up again */
		e = object_entry(RelationRelationId, relOid, 0);
		e->relkind = kind;
		e->labelheap = lh;
		e->kind_known = (e != &uncached);
	}
	*relkind = e->relkind;
	*labelheap = e->labelheap;
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
