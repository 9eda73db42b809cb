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

#include "executor/tuptable.h"
#include "utils/relcache.h"

/* Installs the parse-analysis hook and column.c's; called from _PG_init. */
extern void label_sql_init(void);

/*
 * column.c: the SQL side of the declared label column (am/label_column.c
 * knows which column it is).
 */
extern void label_column_init(void);

#endif							/* LABEL_SQL_H */
