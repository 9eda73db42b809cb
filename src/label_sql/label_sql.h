/*-------------------------------------------------------------------------
 *
 * src/label_sql/label_sql.h
 *	  Row labels in SQL: t.security_label, read like a system column.
 *
 * "t.security_label" is PostgreSQL's function notation for
 * pg_catalog.security_label(t) when t has no column of that name.  A
 * post-parse-analysis hook (parse.c) rewrites every such call on a row of
 * a labelheap table into labelam.row_label(t.tableoid, t.ctid)
 * (row_label.c), which reads the label from the header of that tuple
 * version.  SELECT * is not affected.
 *
 * A table may also declare one column of type labelam.security_label
 * (column.c): writing it labels the row, and parse analysis rewrites its
 * reads, SELECT * included, the same way.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABEL_SQL_H
#define LABEL_SQL_H

#include "catalog/objectaccess.h"
#include "executor/tuptable.h"
#include "utils/relcache.h"

/* parse.c: called by src/hooks.c */
struct ParseState;
struct Query;
struct JumbleState;
extern void label_sql_post_parse_analyze(struct ParseState *pstate,
										 struct Query *query,
										 struct JumbleState *jstate);
extern void label_sql_functions_changed(void);

/*
 * column.c: the SQL side of the declared label column (am/write/label_column.c
 * knows which column it is); called by src/hooks.c.
 */
struct PlannedStmt;
extern struct PlannedStmt *label_sql_column_utility(struct PlannedStmt *pstmt,
													bool *readOnlyTree);
extern void label_sql_column_object_access(ObjectAccessType access,
										   Oid classId, Oid objectId,
										   int subId, void *arg);

/*
 * dump.c: labels through pg_dump and pg_restore (labelam.dump_labels,
 * labelam.restore_labels); the restore is called by src/hooks.c, the dump
 * side by column.c's COPY TO rewrite.
 */
struct QueryCompletion;
extern void label_sql_dump_init(void);
extern bool label_sql_dump_labels(void);
extern void label_sql_dump_check(Relation rel, bool has_column);
extern bool label_sql_restore_utility(struct PlannedStmt *pstmt,
									  const char *queryString,
									  struct QueryCompletion *qc);

#endif							/* LABEL_SQL_H */
