/*-------------------------------------------------------------------------
 *
 * src/files/copy.c
 *	  COPY to and from server files, decided by the file's own label.
 *
 * Run from ProcessUtility (src/hooks.c) for "COPY ... FROM 'file'" and
 * "COPY ... TO 'file'" that PostgreSQL would carry out: not COPY ...
 * PROGRAM, which stays PostgreSQL's trust model (whoever may run programs
 * as the server, pg_execute_server_program, is trusted with everything
 * the server's operating system user may do), and not a COPY that
 * PostgreSQL refuses before it opens a file (no pg_read_server_files or
 * pg_write_server_files, a relative path to write to): PostgreSQL says
 * why.  The file is opened and decided by server_file.c, and the COPY
 * runs with the file named by its descriptor.
 *
 * COPY FROM 'file' (the session needs { read } on the file's label):
 *	 - into a labelheap table (or a partitioned table of labelheap
 *	   partitions), each row gets the policy's label for the session's new
 *	   rows (type_transition), at the file's level: the data keeps the
 *	   level it had on disk, and the table decides the rest of the label.
 *	   It is checked for insert; labelam.insert_label and a declared label
 *	   column relabel from it, checked as an insert at the file's level
 *	   followed by a relabel (am/write/new_label.c).  Under an MLS policy,
 *	   where a subject inserts only at its own level, only a session at
 *	   the file's level can import it: a session below may not read the
 *	   file, a session above would write its data down.
 *	 - into any other table, rows carry no label of their own: object
 *	   checks must be on (they decide who reads the table), and a reader
 *	   at the level of the table's label must be able to read the file
 *	   (data goes nowhere a reader of the file's level could not reach).
 *	   With object checks off such a COPY is refused.
 * COPY TO 'file' (an existing file needs { write }, a new one is created
 * with the label the policy gives it): while the COPY runs, a read ceiling
 * at the file's level is in force (avc_files.h): reading a row, or any
 * other data, that a reader at the file's level could not read fails the
 * COPY, so no data goes into a file below its level.
 *
 * After the COPY the file's label is read again: a file relabeled while it
 * was read or written fails the command (a relabel to another level while
 * an import reads it would otherwise give rows the old level).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_authid.h"
#include "commands/copy.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "am/write/source_label.h"
#include "avc/avc.h"
#include "avc/avc_files.h"
#include "files/files.h"
#include "files/server_file.h"
#include "objects/objects.h"

typedef struct CopyFileState
{
	ServerFile	file;
	bool		ceiling;		/* a read ceiling pushed */
	bool		source;			/* rows take the file's level */
	LabelheapSourceSave outer;	/* ... and an outer COPY's, to put back */
	bool		done;			/* the COPY succeeded */
} CopyFileState;

/* rows of rel carry no label: may the file's data go there? */
static void
check_unlabeled_target(Relation rel, ServerFile *file)
{
	char	   *table_label;

	if (!objects_active())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to copy file \"%s\" into relation \"%s\"",
						file->path, RelationGetRelationName(rel)),
				 errdetail("The relation is not a labelheap table, so its rows would not keep the file's label, and with labelam.object_checks off no label decides who reads them."),
				 errhint("Copy the file into a labelheap table, whose rows take the file's level.")));
	table_label = avc_table_label_text(rel);
	if (!avc_file_allowed_at(table_label, file->tclass, file->label,
							 AVC_FILE_READ))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to copy file \"%s\" into relation \"%s\"",
						file->path, RelationGetRelationName(rel)),
				 errdetail("The relation is not a labelheap table: its rows are read at the level of its label, \"%s\", where the file may not be read.",
						   table_label),
				 errhint("Copy the file into a labelheap table, whose rows take the file's level.")));
	pfree(table_label);
}

PlannedStmt *
files_utility_start(PlannedStmt *pstmt, bool *readOnlyTree, void **state)
{
	CopyStmt   *stmt;
	CopyStmt   *newstmt;
	PlannedStmt *newp;
	CopyFileState *s;

	*state = NULL;
	if (!IsA(pstmt->utilityStmt, CopyStmt))
		return pstmt;
	stmt = (CopyStmt *) pstmt->utilityStmt;
	if (stmt->filename == NULL || stmt->is_program)
		return pstmt;
	/* what PostgreSQL refuses before it opens a file, it refuses itself */
	if (!has_privs_of_role(GetUserId(), stmt->is_from ?
						   ROLE_PG_READ_SERVER_FILES :
						   ROLE_PG_WRITE_SERVER_FILES))
		return pstmt;
	if (!stmt->is_from && !is_absolute_path(stmt->filename))
		return pstmt;

	s = palloc0(sizeof(CopyFileState));
	server_file_init(&s->file, stmt->filename);
	*state = s;					/* files_utility_end closes what opens */
	newstmt = copyObject(stmt);

	if (stmt->is_from)
	{
		Relation	rel = table_openrv(stmt->relation, RowExclusiveLock);

		server_file_open_read(&s->file);
		if (labelheap_rows_labeled(rel))
		{
			s->outer = labelheap_source_label_push(s->file.label);
			s->source = true;
		}
		else
			check_unlabeled_target(rel, &s->file);
		/* the table decided about, whatever the search_path finds later */
		newstmt->relation =
			makeRangeVar(get_namespace_name(RelationGetNamespace(rel)),
						 pstrdup(RelationGetRelationName(rel)), -1);
		newstmt->relation->inh = stmt->relation->inh;
		newstmt->relation->alias = stmt->relation->alias;
		table_close(rel, NoLock);
	}
	else
	{
		server_file_open_write(&s->file);
		avc_read_ceiling_push(s->file.label, s->file.path);
		s->ceiling = true;
	}

	newstmt->filename = pstrdup(s->file.fdpath);
	newp = copyObject(pstmt);
	newp->utilityStmt = (Node *) newstmt;
	*readOnlyTree = false;
	return newp;
}

void
files_utility_done(void *state)
{
	CopyFileState *s = state;

	if (s == NULL)
		return;
	server_file_check_label(&s->file);
	s->done = true;
}

void
files_utility_end(void *state)
{
	CopyFileState *s = state;

	if (s == NULL)
		return;
	if (s->ceiling)
		avc_read_ceiling_pop();
	if (s->source)
		labelheap_source_label_pop(s->outer);
	s->ceiling = s->source = false;
	server_file_close(&s->file, s->done);
}
