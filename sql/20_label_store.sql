/* sql/20_label_store.sql: labelam extension script: the label dictionary (src/label_store) */

-- Secids come from a sequence, so that none is ever handed out twice (not
-- even one of an aborted transaction); Oid range, no wraparound.
CREATE SEQUENCE labelam.pg_security_secid_seq
	AS bigint MINVALUE 1 MAXVALUE 4294967295 NO CYCLE;

-- USING heap: the server may run with default_table_access_method =
-- labelheap, and the dictionary must not need itself.  seclabel is unique
-- through an exclusion constraint over a hash index, because a btree
-- unique index cannot hold labels longer than about 2.7kB; the C code
-- depends on the index names.  Rows are only ever inserted, by
-- labelam.intern_label (or the storage engine).
CREATE TABLE labelam.pg_security (
	secid oid NOT NULL,
	seclabel text COLLATE "C" NOT NULL,
	CONSTRAINT pg_security_pkey PRIMARY KEY (secid),
	CONSTRAINT pg_security_seclabel_key EXCLUDE USING hash (seclabel WITH =)
) USING heap;

-- Not dumped: secids are this database's own numbering, as OIDs are.
-- Dumps carry labels as text (the declared label column, or the label
-- field of labelam.dump_labels), and a restore interns them as it writes
-- the rows, in whatever order and number of jobs it restores tables, also
-- into a database that holds labels already, where dumped secids would
-- collide with the ones in use.

GRANT USAGE ON SCHEMA labelam TO PUBLIC;
GRANT SELECT ON labelam.pg_security TO PUBLIC;

CREATE FUNCTION labelam.intern_label(label text) RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_intern_label'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION labelam.intern_label(text) IS
	'secid of a security label, adding it to the dictionary if new';
-- adding labels is for the policy administrator to grant
REVOKE EXECUTE ON FUNCTION labelam.intern_label(text) FROM PUBLIC;

CREATE FUNCTION labelam.label_text(secid oid) RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_label_text'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION labelam.label_text(oid) IS
	'text of a security label given its secid; NULL if there is none';

CREATE FUNCTION labelam.label_store_stats(
	OUT labels_by_secid bigint, OUT labels_by_text bigint,
	OUT max_labels integer, OUT text_bytes bigint, OUT max_text_bytes bigint,
	OUT shmem_bytes bigint)
	RETURNS record
	AS 'MODULE_PATHNAME', 'labelam_label_store_stats'
	LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION labelam.label_store_stats() IS
	'occupancy of the shared-memory label dictionary, all databases together';

CREATE FUNCTION labelam.insert_label_secid() RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_insert_label_secid'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION labelam.insert_label_secid() IS
	'secid of labelam.insert_label, interning it if new; NULL if the setting is empty';
REVOKE EXECUTE ON FUNCTION labelam.insert_label_secid() FROM PUBLIC;
