/*-------------------------------------------------------------------------
 *
 * src/files/files.h
 *	  Server-side files that keep their labels: COPY and large objects
 *	  decided by the file's own SELinux label.  Entry points for
 *	  src/hooks.c (the twins lo_import and lo_export are SQL functions of
 *	  large_objects.c, which objects/functions.c plans calls into).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_FILES_H
#define LABELAM_FILES_H

#include "catalog/objectaccess.h"
#include "nodes/plannodes.h"

/*
 * ProcessUtility, copy.c: COPY to or from a server file (not a program,
 * not one PostgreSQL is about to refuse) opens and decides the file, and
 * returns the statement PostgreSQL runs instead (the file named by its
 * descriptor); *state is for the two calls after.  files_utility_done
 * after the command succeeded, files_utility_end always (PG_FINALLY).
 */
extern PlannedStmt *files_utility_start(PlannedStmt *pstmt,
										bool *readOnlyTree, void **state);
extern void files_utility_done(void *state);
extern void files_utility_end(void *state);

/*
 * object_access_hook: lo_import and lo_export reached without their
 * checked twins (the fast-path protocol, expressions never planned) are
 * refused: what they would read or write is not known there.
 */
extern void files_object_access(ObjectAccessType access, Oid classId,
								Oid objectId);

#endif							/* LABELAM_FILES_H */
