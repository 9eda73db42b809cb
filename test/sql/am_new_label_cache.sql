-- The label of new rows follows the table's label at the moment of each
-- insert, also within one statement: a function or DO block that relabels
-- the table, or rolls a relabel back (exception block, savepoint), between
-- two inserts must not give the second row the label of the first.  The
-- label derived from the table's is cached (src/am/write/new_label.c); these are
-- the changes the cache must notice.
-- In a database of its own: the test adds labels to the dictionary, which
-- later tests expect to find empty.
\set SHOW_CONTEXT never
SELECT current_user AS regress_superuser, current_database() AS regress_db \gset
CREATE DATABASE regress_am_new_label_cache;
\c regress_am_new_label_cache
\set SHOW_CONTEXT never
CREATE EXTENSION labelam;
CREATE TABLE t (id int, note text) USING labelheap;
SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_table_t:s0';
INSERT INTO t VALUES (0, 'plain insert');
-- every label below is in the dictionary (committed) already
CREATE TABLE other (id int) USING labelheap;
SECURITY LABEL FOR selinux ON TABLE other IS 'system_u:object_r:sepgsql_ro_table_t:s0';
INSERT INTO other VALUES (1);
SECURITY LABEL FOR selinux ON TABLE other IS 'system_u:object_r:sepgsql_secret_table_t:s0';
INSERT INTO other VALUES (2);
SELECT other.security_label FROM other ORDER BY id;

-- a relabel rolled back by an exception block: the row inserted after the
-- rollback gets the label of the table as it is again
DO $$
BEGIN
	BEGIN
		SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_ro_table_t:s0';
		INSERT INTO t VALUES (1, 'relabeled, in the block');
		RAISE EXCEPTION 'roll back';
	EXCEPTION WHEN raise_exception THEN NULL;
	END;
	INSERT INTO t VALUES (2, 'after the rollback');
END $$;

-- a relabel between two inserts of one statement
DO $$
BEGIN
	INSERT INTO t VALUES (3, 'before the relabel');
	SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_secret_table_t:s0';
	INSERT INTO t VALUES (4, 'after the relabel');
END $$;

-- a function that relabels, called between two inserts of one statement
CREATE FUNCTION relabel_t(label text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SECURITY LABEL FOR selinux ON TABLE t IS %L', label);
	RETURN 0;
END $$;
WITH a AS (INSERT INTO t VALUES (5, 'before the relabel, same query') RETURNING id)
SELECT relabel_t('system_u:object_r:sepgsql_table_t:s0') FROM a;
DO $$
BEGIN
	INSERT INTO t VALUES (6, 'before the function');
	PERFORM relabel_t('system_u:object_r:sepgsql_ro_table_t:s0');
	INSERT INTO t VALUES (7, 'after the function');
	PERFORM relabel_t('system_u:object_r:sepgsql_table_t:s0');
END $$;

-- savepoints in a transaction block
BEGIN;
INSERT INTO t VALUES (8, 'before the savepoint');
SAVEPOINT s;
SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_secret_table_t:s0';
INSERT INTO t VALUES (9, 'relabeled, after the savepoint');
ROLLBACK TO SAVEPOINT s;
INSERT INTO t VALUES (10, 'after rolling back to the savepoint');
COMMIT;

SELECT id, note, t.security_label FROM t ORDER BY id;
SELECT label FROM pg_seclabels WHERE objname = 't';

\c :regress_db
DROP DATABASE regress_am_new_label_cache;
