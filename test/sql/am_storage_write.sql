-- Every write path keeps the label in the tuple header.
-- Each table has a column "want": the label its row must carry, as the
-- category of system_u:object_r:sepgsql_table_t:s0:cN.  A row's label is
-- given by labelam.insert_label when it is inserted.  "damaged versions"
-- counts what labelam.verify_labels finds: damaged labels, and labels
-- missing from the table's label set (labelam.table_labels).
-- In a database of its own: the test adds labels to the dictionary, which
-- later tests expect to find empty.
SELECT current_user AS regress_superuser, current_database() AS regress_db \gset
CREATE DATABASE regress_am_storage_write;
\c regress_am_storage_write
CREATE EXTENSION labelam;

CREATE FUNCTION check_labels(rel regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	wrong bigint;
	total bigint;
	damaged bigint;
BEGIN
	EXECUTE format('SELECT count(*) FILTER (WHERE labelam.label_text(labelam.tuple_secid(%L, ctid))
						IS DISTINCT FROM ''system_u:object_r:sepgsql_table_t:s0:c'' || want), count(*) FROM %s',
				   rel, rel) INTO wrong, total;
	SELECT count(*) INTO damaged FROM labelam.verify_labels(rel);
	RETURN format('%s rows, %s wrong labels, %s damaged versions', total, wrong, damaged);
END $$;

-- 100 kB of incompressible text, and 100 kB that compresses well
CREATE FUNCTION random_text(n int) RETURNS text LANGUAGE sql AS
$$ SELECT string_agg(md5(random()::text), '') FROM generate_series(1, n / 32) $$;

-- INSERT
CREATE TABLE t (id int PRIMARY KEY, want oid, v text) USING labelheap;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c11';
INSERT INTO t SELECT g, 11, 'row ' || g FROM generate_series(1, 100) g;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c12';
INSERT INTO t VALUES (101, 12, NULL), (102, 12, repeat('x', 5000));
INSERT INTO t VALUES (103, 12, random_text(100000));
SELECT check_labels('t');
SELECT id, length(v), labelam.label_text(labelam.tuple_secid('t', ctid)) FROM t WHERE id > 100 ORDER BY id;

-- without labelam.insert_label, a new row gets the policy's label for rows
-- this session creates in a table labeled as the policy's defaults say
RESET labelam.insert_label;
INSERT INTO t VALUES (200, 0, 'policy label');
SELECT labelam.label_text(labelam.tuple_secid('t', ctid)) AS label,
	labelam.label_text(labelam.tuple_secid('t', ctid)) =
		labelam.compute_create(labelam.client_label(), 'system_u:object_r:sepgsql_table_t:s0') AS type_transition
	FROM t WHERE id = 200;
DELETE FROM t WHERE id = 200;

-- COPY, batched through multi_insert, toasted rows among them
\getenv abs_builddir PG_ABS_BUILDDIR
\set copyfile :abs_builddir '/results/storage_write_copy.data'
\set copyfile2 :abs_builddir '/results/storage_write_copy2.data'
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c13';
CREATE TABLE c (id int, want oid, v text) USING labelheap;
COPY c FROM stdin;
1	13	one
2	13	\N
3	13	three
\.
INSERT INTO c SELECT 4, 13, random_text(100000);
COPY (SELECT g, 13, CASE WHEN g % 100 = 0 THEN random_text(10000) ELSE 'copy ' || g END
      FROM generate_series(5, 2000) g) TO :'copyfile';
COPY c FROM :'copyfile';
SELECT check_labels('c');
SELECT count(*), sum(length(v)) > 200000 AS has_long_values FROM c;

-- INSERT ... ON CONFLICT: DO NOTHING keeps the old row and label,
-- DO UPDATE's new version keeps the old row's label
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c14';
INSERT INTO t VALUES (1, 14, 'ignored'), (104, 14, 'new') ON CONFLICT DO NOTHING;
INSERT INTO t VALUES (2, 14, 'upserted'), (105, 14, random_text(100000))
	ON CONFLICT (id) DO UPDATE SET v = excluded.v;
SELECT id, v, labelam.label_text(labelam.tuple_secid('t', ctid)) FROM t WHERE id IN (1, 2, 104) ORDER BY id;
SELECT check_labels('t');

-- UPDATE: HOT, non-HOT (indexed column), unchanged out-of-line value,
-- fresh out-of-line value, inline-compressed value
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c15';	-- updates must not use it
UPDATE t SET v = 'hot ' || id WHERE id BETWEEN 3 AND 10;
SELECT count(*) AS hot_updates FROM pg_stat_xact_user_tables WHERE relname = 't' AND n_tup_hot_upd > 0;
UPDATE t SET id = id + 1000 WHERE id BETWEEN 11 AND 20;
UPDATE t SET want = want WHERE id = 103;			-- keeps the toast pointer
UPDATE t SET v = random_text(100000) WHERE id = 101;	-- fresh external value
UPDATE t SET v = repeat('abc', 30000) WHERE id = 102;	-- compressed inline
SELECT id, length(v), labelam.label_text(labelam.tuple_secid('t', ctid)) FROM t WHERE id > 100 AND id < 1000 ORDER BY id;
SELECT check_labels('t');

-- DELETE and row locks
DELETE FROM t WHERE id BETWEEN 21 AND 30;
SELECT count(*) FROM (SELECT * FROM t WHERE id < 50 FOR UPDATE) s;
SELECT count(*) FROM (SELECT * FROM t WHERE id < 50 FOR SHARE) s;
SELECT count(*) FROM (SELECT * FROM t WHERE id < 50 FOR KEY SHARE) s;
SELECT check_labels('t');

-- VACUUM, VACUUM FREEZE, VACUUM FULL, CLUSTER
VACUUM t;
SELECT check_labels('t');
VACUUM FREEZE t;
SELECT check_labels('t');
VACUUM FULL t;
SELECT check_labels('t');
SELECT id, length(v), labelam.label_text(labelam.tuple_secid('t', ctid)) FROM t WHERE id > 100 AND id < 1000 ORDER BY id;
SET enable_indexscan = off;	-- CLUSTER by seq scan and sort
CLUSTER t USING t_pkey;
SELECT check_labels('t');
RESET enable_indexscan;
SET enable_sort = off;		-- CLUSTER by index scan
CREATE INDEX t_len_idx ON t (length(v));
CLUSTER t USING t_len_idx;
SELECT check_labels('t');
RESET enable_sort;
SELECT count(*), sum(length(v)) FROM t;

-- table rewrites by ALTER TABLE keep every row and its label
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c16';	-- rewrites must not use it
ALTER TABLE t ALTER COLUMN id TYPE bigint;
SELECT check_labels('t');
ALTER TABLE t ADD COLUMN r float8 DEFAULT random();
SELECT check_labels('t');
SELECT count(*), count(DISTINCT r) > 1 AS volatile_default FROM t;
ALTER TABLE t DROP COLUMN r, ALTER COLUMN v TYPE varchar(200000);
VACUUM FULL t;
SELECT check_labels('t');

-- SET ACCESS METHOD labelheap: rows of a heap table get the insert label
CREATE TABLE h (id int, want oid, v text) USING heap;
INSERT INTO h SELECT g, 17, random_text(3000) FROM generate_series(1, 50) g;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c17';
ALTER TABLE h SET ACCESS METHOD labelheap;
SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'h';
SELECT check_labels('h');
-- its label set holds the new label (noted for the relation the rewrite's
-- transient relation replaces); TRUNCATE empties it
SELECT labelam.label_text(secid) FROM labelam.table_labels WHERE relid = 'h'::regclass;
CREATE TABLE h_copy AS SELECT * FROM h;
TRUNCATE h;
SELECT count(*) FROM labelam.table_labels WHERE relid = 'h'::regclass;
INSERT INTO h SELECT * FROM h_copy;
DROP TABLE h_copy;
SELECT check_labels('h');

-- partitions, temporary and unlogged tables
CREATE TABLE p (id int, want oid) PARTITION BY RANGE (id);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (100) USING labelheap;
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (100) TO (200) USING labelheap;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c18';
INSERT INTO p SELECT g, 18 FROM generate_series(0, 199) g;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c19';
UPDATE p SET id = id + 100, want = 18 WHERE id < 10;	-- moves rows between partitions
SELECT check_labels('p1'), check_labels('p2');
CREATE TEMP TABLE tt (id int, want oid, v text) USING labelheap;
CREATE UNLOGGED TABLE ut (id int, want oid, v text) USING labelheap;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c20';
INSERT INTO tt SELECT g, 20, random_text(5000) FROM generate_series(1, 20) g;
INSERT INTO ut SELECT g, 20, random_text(5000) FROM generate_series(1, 20) g;
UPDATE tt SET v = random_text(100000) WHERE id = 1;
UPDATE ut SET v = random_text(100000) WHERE id = 1;
VACUUM FULL tt;
VACUUM FULL ut;
SELECT check_labels('tt'), check_labels('ut');

-- labelheap's own TOAST preparation for every write
SET labelam.debug_own_write = on;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c21';
CREATE TABLE o (id int PRIMARY KEY, want oid, v text) USING labelheap;
INSERT INTO o SELECT g, 21, CASE WHEN g % 10 = 0 THEN random_text(20000) ELSE 'own ' || g END
	FROM generate_series(1, 100) g;
COPY (SELECT id + 1000, 21, v FROM c) TO :'copyfile2';
COPY o FROM :'copyfile2';
UPDATE o SET want = 21 WHERE id % 10 = 0;
UPDATE o SET v = random_text(50000) WHERE id % 10 = 1;
INSERT INTO o VALUES (1, 21, 'conflict') ON CONFLICT (id) DO UPDATE SET v = random_text(9000);
DELETE FROM o WHERE id % 10 = 2;
VACUUM FULL o;
SELECT check_labels('o');
SELECT count(*), sum(length(v)) > 1000000 AS has_long_values FROM o;
RESET labelam.debug_own_write;

-- the verification functions refuse other relations
SELECT * FROM labelam.verify_labels('h_missing');
SELECT labelam.tuple_secid('pg_class', '(0,1)');
SELECT * FROM labelam.verify_labels('t_pkey');
-- and find nothing where a tid holds no tuple
SELECT labelam.tuple_secid('t', '(4294967294,1)'), labelam.tuple_secid('t', '(0,0)');

\c :regress_db
DROP DATABASE regress_am_storage_write;
