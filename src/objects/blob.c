/* -------------------------------------------------------------------------
 *
 * src/objects/blob.c
 *	  Large objects as database objects (class db_blob): a label when one
 *	  is created, and checks on dropping and relabeling it.
 *
 * contrib/sepgsql (PostgreSQL 15) labels no large objects; these follow
 * its routines for other objects (proc.c): the new object's label is the
 * policy's type_transition from the client on the database's label.  One
 * that lo_import creates from a labeled file takes the file's level
 * (src/files/large_objects.c), and needs db_blob import as well.
 * Reading and writing large objects are not decided per object yet: the
 * functions that do it are built into the server and are called without
 * any hook labelam could use (doc/objects.md).
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_database.h"
#include "catalog/pg_largeobject.h"
#include "commands/seclabel.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#include "avc/avc_files.h"
#include "objects/objects.h"

/* objects_blob_label_from: new objects take this label's level */
static char *blob_level_of = NULL;

void
objects_blob_label_from(const char *level_of)
{
	if (blob_level_of != NULL)
		pfree(blob_level_of);
	blob_level_of = level_of ?
		MemoryContextStrdup(TopMemoryContext, level_of) : NULL;
}

static char *
blob_name(Oid blobId)
{
	return psprintf("large object %u", blobId);
}

void
objects_blob_post_create(Oid blobId)
{
	char	   *scontext = sepgsql_get_client_label();
	char	   *tcontext;
	char	   *ncontext;
	char	   *audit_name = blob_name(blobId);
	ObjectAddress object;
	uint32		perms = SEPG_DB_BLOB__CREATE;

	tcontext = sepgsql_get_label(DatabaseRelationId, MyDatabaseId, 0);
	ncontext = sepgsql_compute_create(scontext, tcontext,
									  SEPG_CLASS_DB_BLOB, NULL);
	if (blob_level_of != NULL)
	{
		char	   *at_level = avc_label_at_level(ncontext, blob_level_of);

		pfree(ncontext);
		ncontext = at_level;
		perms |= SEPG_DB_BLOB__IMPORT;
	}
	sepgsql_avc_check_perms_label(ncontext,
								  SEPG_CLASS_DB_BLOB,
								  perms,
								  audit_name,
								  true);
	ObjectAddressSet(object, LargeObjectRelationId, blobId);
	SetSecurityLabel(&object, SEPGSQL_LABEL_TAG, ncontext);

	pfree(audit_name);
	pfree(ncontext);
	pfree(tcontext);
}

void
objects_blob_drop(Oid blobId)
{
	ObjectAddress object;
	char	   *audit_name = blob_name(blobId);

	ObjectAddressSet(object, LargeObjectRelationId, blobId);
	sepgsql_avc_check_perms(&object,
							SEPG_CLASS_DB_BLOB,
							SEPG_DB_BLOB__DROP,
							audit_name,
							true);
	pfree(audit_name);
}

void
objects_blob_relabel(Oid blobId, const char *seclabel)
{
	ObjectAddress object;
	char	   *audit_name = blob_name(blobId);

	ObjectAddressSet(object, LargeObjectRelationId, blobId);
	sepgsql_avc_check_perms(&object,
							SEPG_CLASS_DB_BLOB,
							SEPG_DB_BLOB__SETATTR |
							SEPG_DB_BLOB__RELABELFROM,
							audit_name,
							true);
	sepgsql_avc_check_perms_label(seclabel,
								  SEPG_CLASS_DB_BLOB,
								  SEPG_DB_BLOB__RELABELTO,
								  audit_name,
								  true);
	pfree(audit_name);
}
