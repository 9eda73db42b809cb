/* sql/50_label_set.sql: labelam extension script: the label sets of labelheap relations (src/am/label_set/label_set.c) */

-- Every label of any tuple of a labelheap relation has a row here (more
-- rows are harmless: the set is a superset).  TRUNCATE, DROP TABLE and
-- DROP COLUMN need the permission on every label of the relation's set.
-- The rows are written by the storage engine in the writer's transaction;
-- duplicates from concurrent first writers are harmless, hence no unique
-- index.  USING heap for the reason given for labelam.pg_security.  Not
-- registered with pg_extension_config_dump: a restore re-creates the sets
-- as it writes the rows.  No privilege for PUBLIC: the set says which
-- labels a table holds, including those a session may not select.
CREATE TABLE labelam.table_labels (
	relid oid NOT NULL,
	secid oid NOT NULL
) USING heap;
-- the C code depends on the index name
CREATE INDEX table_labels_relid_secid_idx
	ON labelam.table_labels (relid, secid);

-- The labels a labelheap relation held before a TRUNCATE emptied its set
-- (src/am/label_set/label_set_counted.c): its statistics counters still count scans
-- of those rows, and are withheld from sessions that may not select every
-- label here either.  Removed with the relation.  No privilege for PUBLIC,
-- as for table_labels.
CREATE TABLE labelam.table_labels_counted (
	relid oid NOT NULL,
	secid oid NOT NULL
) USING heap;
-- the C code depends on the index name
CREATE INDEX table_labels_counted_relid_idx
	ON labelam.table_labels_counted (relid);

-- The set rebuilt from the labels the relation's tuples carry
-- (src/am/label_set/label_set_repair.c): missing labels added, labels no
-- tuple carries removed if the caller may select them.  For the owner
-- (checked in C, as VACUUM checks it); lists the changes it may see.
CREATE FUNCTION labelam.repair_table_labels(rel regclass,
	OUT label text, OUT change text) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'labelam_repair_table_labels'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION labelam.repair_table_labels(regclass) IS
	'rebuilds the label set of a labelheap relation from the labels its tuples carry: adds missing labels, removes labels no tuple carries that the caller may select';
