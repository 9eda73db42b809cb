/*-------------------------------------------------------------------------
 *
 * src/files/large_objects.c
 *	  lo_import and lo_export decided by the file's own label: the checked
 *	  twins labelam.checked_lo_import and labelam.checked_lo_export.
 *
 * objects/functions.c plans every call of the built-ins into a call of
 * these twins, whether object checks are on or not; a call that escaped
 * the rewrite (the fast-path protocol, an expression never planned) is
 * refused here (files_object_access), as the file it names cannot be
 * decided there.  The twins open and decide the file as COPY does
 * (server_file.c), then run the built-in on the file's descriptor name:
 *
 *	lo_import(path [, oid]): { read } on the file; the new large object
 *	gets the label it would get (the policy's type_transition from the
 *	session on the database), at the file's level, and needs db_blob
 *	{ create import } on it (objects/blob.c).  Large objects carry labels
 *	only with object checks on: with them off, lo_import is refused,
 *	since the object it made could be read by anyone.
 *
 *	lo_export(oid, path): { write } on an existing file, or a new file
 *	labeled by the policy; db_blob { read export } on the object (object
 *	checks on), decided under a read ceiling at the file's level, so that
 *	an object above the file's level is refused.  With object checks off
 *	large objects carry no labels and only the file is decided.
 *
 * Either fails if the file's label changed while it was read or written.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"

#include "avc/avc_files.h"
#include "files/files.h"
#include "files/server_file.h"
#include "objects/objects.h"

PG_FUNCTION_INFO_V1(labelam_lo_import);
PG_FUNCTION_INFO_V1(labelam_lo_export);

/* labelam.checked_lo_import(text [, oid]) returns oid */
Datum
labelam_lo_import(PG_FUNCTION_ARGS)
{
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ServerFile	file;
	volatile Datum result = (Datum) 0;
	volatile bool ok = false;

	objects_twin_enter(fcinfo, PG_NARGS() == 2 ?
					   F_LO_IMPORT_TEXT_OID : F_LO_IMPORT_TEXT);
	if (!objects_active())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to import file \"%s\" as a large object",
						path),
				 errdetail("With labelam.object_checks off large objects carry no labels: the object would not keep the file's label."),
				 errhint("Copy the file into a labelheap table with COPY FROM, whose rows take the file's level.")));

	server_file_init(&file, path);
	PG_TRY();
	{
		Datum		fdpath;

		server_file_open_read(&file);
		fdpath = PointerGetDatum(cstring_to_text(file.fdpath));
		objects_blob_label_from(file.label);
		if (PG_NARGS() == 2)
			result = DirectFunctionCall2(be_lo_import_with_oid, fdpath,
										 PG_GETARG_DATUM(1));
		else
			result = DirectFunctionCall1(be_lo_import, fdpath);
		server_file_check_label(&file);
		ok = true;
	}
	PG_FINALLY();
	{
		objects_blob_label_from(NULL);
		server_file_close(&file, ok);
	}
	PG_END_TRY();
	return result;
}

/* labelam.checked_lo_export(oid, text) returns integer */
Datum
labelam_lo_export(PG_FUNCTION_ARGS)
{
	Oid			blobId = PG_GETARG_OID(0);
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(1));
	ServerFile	file;
	volatile Datum result = (Datum) 0;
	volatile bool ceiling = false;
	volatile bool ok = false;

	objects_twin_enter(fcinfo, F_LO_EXPORT);
	server_file_init(&file, path);
	PG_TRY();
	{
		server_file_open_write(&file);
		avc_read_ceiling_push(file.label, path);
		ceiling = true;
		if (objects_active())
			objects_check_blob(blobId, SEPG_DB_BLOB__READ | SEPG_DB_BLOB__EXPORT);
		result = DirectFunctionCall2(be_lo_export, ObjectIdGetDatum(blobId),
									 PointerGetDatum(cstring_to_text(file.fdpath)));
		server_file_check_label(&file);
		ok = true;
	}
	PG_FINALLY();
	{
		if (ceiling)
			avc_read_ceiling_pop();
		server_file_close(&file, ok);
	}
	PG_END_TRY();
	return result;
}

void
files_object_access(ObjectAccessType access, Oid classId, Oid objectId)
{
	const char *name;

	if (access != OAT_FUNCTION_EXECUTE)
		return;
	if (objectId == F_LO_IMPORT_TEXT || objectId == F_LO_IMPORT_TEXT_OID)
		name = "lo_import";
	else if (objectId == F_LO_EXPORT)
		name = "lo_export";
	else
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("SELinux: %s cannot be checked where it is called", name),
			 errdetail("labelam decides the server file of %s in queries; this call is not planned as a query (the fast-path protocol, a column default evaluated by COPY FROM, a constraint, an index expression).",
					   name),
			 errhint("Call %s in an SQL query, in a database where the extension labelam is created.",
					 name)));
}
