/*-------------------------------------------------------------------------
 *
 * label_sql.h
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

/* Installs the parse-analysis hook; called from _PG_init. */
extern void label_sql_init(void);

/*
 * column.c: the declared label column, a column of type
 * labelam.security_label whose value is the row's label.
 */
extern Oid	label_column_type(void);
extern AttrNumber label_column_attnum(Relation rel);
extern Oid	label_column_take(TupleTableSlot *slot, AttrNumber attnum);
extern void label_column_init(void);

#endif							/* LABEL_SQL_H */
