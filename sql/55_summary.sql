/* sql/55_summary.sql: labelam extension script: label summaries (src/am/summary/summary.c, skip.c) */

-- An index of this access method is a label summary of a labelheap table:
-- for each range of blocks, the labels its tuples carry.  Filtered scans
-- skip the ranges that hold no label the session may select.  The key
-- column is ignored (any column will do); the index is never scanned.
CREATE FUNCTION labelam.labelsummary_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'labelsummary_handler'
	LANGUAGE C STRICT;
CREATE ACCESS METHOD labelsummary TYPE INDEX
	HANDLER labelam.labelsummary_handler;
COMMENT ON ACCESS METHOD labelsummary IS
	'label summary of a labelheap table: the labels each block range holds, for scans that skip ranges';
-- one operator class for every type: the key's value is never used
CREATE OPERATOR CLASS labelam.labelsummary_ops
	DEFAULT FOR TYPE anyelement USING labelsummary AS STORAGE anyelement;

CREATE FUNCTION labelam.label_summary(index regclass,
		OUT first_block bigint, OUT last_block bigint, OUT secids oid[])
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'labelam_label_summary'
	LANGUAGE C STRICT;
COMMENT ON FUNCTION labelam.label_summary(regclass) IS
	'each block range of a label summary that holds tuples: the labels it lists (NULL: any label)';
-- it names labels the caller may not select
REVOKE ALL ON FUNCTION labelam.label_summary(regclass) FROM PUBLIC;
