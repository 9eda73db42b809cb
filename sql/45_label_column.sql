/* sql/45_label_column.sql: labelam extension script: the declared label column (src/label_sql/column.c) */

-- Validates label text the way interning it would (ERROR 22023 quoting bad
-- text), without interning it: a domain check must have no side effects.
CREATE FUNCTION labelam.check_label(label text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'labelam_check_label'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION labelam.check_label(text) IS
	'true if the text is a valid security label, else ERROR 22023 (labelam)';

-- A column of this type in a labelheap table reads and writes the row's
-- label, which lives in the tuple header; the data area holds NULL.
-- Over text COLLATE "C" so that it has text's operators, opclasses and
-- casts and sorts labels bytewise, as the dictionary does.
CREATE DOMAIN labelam.security_label AS text COLLATE "C"
	CHECK (labelam.check_label(VALUE));
COMMENT ON DOMAIN labelam.security_label IS
	'the row''s security label, stored in the tuple header (labelam)';
