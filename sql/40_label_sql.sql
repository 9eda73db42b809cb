/* sql/40_label_sql.sql: labelam extension script: row labels in SQL (src/label_sql) */

-- t.security_label is the parser's function notation for
-- security_label(t).  The function lives in pg_catalog so that the name
-- resolves whatever the search_path; a table's own column named
-- security_label still takes precedence, as columns always do.  Calls are
-- rewritten at parse analysis into labelam.row_label(t.tableoid, t.ctid);
-- the function itself only raises an error.
CREATE FUNCTION pg_catalog.security_label(record) RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_security_label'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pg_catalog.security_label(record) IS
	'security label of a row of a labelheap table, written t.security_label (labelam)';

CREATE FUNCTION labelam.row_label(tableoid oid, ctid tid) RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_row_label'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION labelam.row_label(oid, tid) IS
	'security label of the row version at ctid; NULL unless this session may select it (what t.security_label reads)';
