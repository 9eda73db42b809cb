-- Labels in SQL: t.security_label reads the label of each row like a
-- system column; it is rewritten at parse analysis into
-- labelam.row_label(t.tableoid, t.ctid).

-- In a database of its own: the test adds labels to the dictionary, which
-- later tests expect to find empty.
SELECT current_user AS regress_superuser, current_database() AS regress_db \gset
CREATE DATABASE regress_label_sql;
\c regress_label_sql
CREATE EXTENSION labelam;

-- New rows get the session's insert label.
CREATE FUNCTION use_label(label text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('labelam.insert_label', label, false);
END $$;

SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c1');
CREATE TABLE t (id int PRIMARY KEY, v text) USING labelheap;
INSERT INTO t VALUES (1, 'one'), (2, 'two');
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c2');
INSERT INTO t VALUES (3, 'three');

-- the label as a system column; SELECT * is unchanged
SELECT t.security_label, * FROM t ORDER BY id;
SELECT * FROM t ORDER BY id;
SELECT security_label(t), id FROM t ORDER BY id;	-- function notation
SELECT x.security_label, x.id FROM t AS x ORDER BY x.id;	-- an alias
SELECT security_label(t.*) = labelam.label_text(labelam.tuple_secid('t', ctid)) AS same
FROM t ORDER BY id;

-- in WHERE, GROUP BY, ORDER BY
SELECT id FROM t WHERE t.security_label = 'system_u:object_r:sepgsql_table_t:s0:c2';
SELECT t.security_label, count(*) FROM t GROUP BY t.security_label ORDER BY 1;
SELECT count(*) FROM t GROUP BY t.security_label ORDER BY t.security_label;
SELECT id FROM t ORDER BY t.security_label DESC, id;
SELECT DISTINCT t.security_label FROM t ORDER BY 1;

-- in joins, sublinks, WITH queries, LATERAL
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c1');
CREATE TABLE u (id int, w text) USING labelheap;
INSERT INTO u VALUES (1, 'uno'), (3, 'tres');
SELECT t.id, t.security_label AS t_label, u.security_label AS u_label
FROM t JOIN u USING (id) ORDER BY t.id;
SELECT t.id AS t_id, u.id AS u_id FROM t JOIN u ON t.security_label = u.security_label
ORDER BY 1, 2;
SELECT id FROM t WHERE t.security_label NOT IN (SELECT u.security_label FROM u);
SELECT id, (SELECT count(*) FROM u WHERE u.security_label = t.security_label) AS same_label_in_u
FROM t ORDER BY id;
WITH c AS (SELECT t.security_label AS label, id FROM t)
SELECT * FROM c WHERE id > 1 ORDER BY id;
SELECT t.id, l.label FROM t, LATERAL (SELECT t.security_label AS label) l ORDER BY 1;
SELECT t.id, m.security_label FROM t LEFT JOIN u AS m ON m.id = t.id ORDER BY 1;

-- the plan reads tableoid and ctid, not the whole row
EXPLAIN (VERBOSE, COSTS OFF)
SELECT t.security_label FROM t WHERE t.security_label <> 'x';

-- RETURNING: the new version (INSERT, UPDATE) or the deleted one
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c3');
INSERT INTO t VALUES (4, 'four') RETURNING t.security_label, id;
UPDATE t SET v = 'uno' WHERE id = 1 RETURNING t.security_label, id, v;
DELETE FROM t WHERE id = 4 RETURNING t.security_label, id;
UPDATE t SET v = t.security_label WHERE id = 2 RETURNING v;
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c1');

-- MERGE
MERGE INTO t USING u ON t.id = u.id
WHEN MATCHED AND t.security_label = u.security_label THEN
	UPDATE SET v = 'merged: ' || u.security_label;
SELECT id, v FROM t ORDER BY id;

-- statements that carry a query: EXPLAIN, CREATE TABLE AS, cursors,
-- prepared statements, functions
CREATE TABLE copied USING heap AS SELECT t.security_label AS label, id FROM t;
SELECT * FROM copied ORDER BY id;
-- (the plan's text differs between majors: only its effect is compared)
\o /dev/null
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
CREATE TABLE copied2 USING heap AS SELECT t.security_label AS label, id FROM t;
\o
SELECT * FROM copied2 EXCEPT SELECT * FROM copied;
BEGIN;
DECLARE cur CURSOR FOR SELECT t.security_label, id FROM t ORDER BY id;
FETCH 2 FROM cur;
COMMIT;
PREPARE by_label(text) AS SELECT id FROM t WHERE t.security_label = $1 ORDER BY id;
EXECUTE by_label('system_u:object_r:sepgsql_table_t:s0:c1');
CREATE TABLE copied3 USING heap AS EXECUTE by_label('system_u:object_r:sepgsql_table_t:s0:c2');
SELECT * FROM copied3;
CREATE FUNCTION labels_sql() RETURNS SETOF text LANGUAGE sql
	AS $$ SELECT t.security_label FROM t ORDER BY id $$;
SELECT labels_sql();
CREATE FUNCTION labels_plpgsql() RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY SELECT t.security_label FROM t ORDER BY id;
	RETURN QUERY EXECUTE 'SELECT t.security_label FROM t WHERE id = 3';
END $$;
SELECT labels_plpgsql();

-- a column named security_label takes precedence; the function notation
-- still reads the label
CREATE TABLE has_col (id int, security_label text) USING labelheap;
INSERT INTO has_col VALUES (1, 'just a column');
SELECT h.security_label, security_label(h) FROM has_col h;

-- partitioned tables: each row's label comes from its partition
CREATE TABLE p (id int, v text) PARTITION BY RANGE (id);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10) USING labelheap;
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20) USING labelheap;
INSERT INTO p VALUES (1, 'a');
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c2');
INSERT INTO p VALUES (11, 'b');
SELECT p.security_label, tableoid::regclass, id FROM p ORDER BY id;
-- a partition that is not labelheap is refused: rows routed or moved
-- there would lose their labels
CREATE TABLE p3 PARTITION OF p FOR VALUES FROM (20) TO (30) USING heap;
SELECT p.security_label, id FROM p ORDER BY id;
SELECT p.security_label, id FROM p WHERE id < 20 ORDER BY id;

-- inheritance: the same, child by child
CREATE TABLE parent (id int) USING labelheap;
CREATE TABLE child () INHERITS (parent) USING labelheap;
CREATE TABLE heap_child () INHERITS (parent) USING heap;
INSERT INTO parent VALUES (1);
INSERT INTO child VALUES (2);
SELECT parent.security_label, tableoid::regclass, id FROM parent WHERE id < 3 ORDER BY id;
INSERT INTO heap_child VALUES (3);
SELECT parent.security_label, id FROM parent ORDER BY id;

-- views: a view may select the label of its table; pg_dump prints the
-- rewritten call, which parses again
CREATE VIEW tv AS SELECT t.security_label AS label, id FROM t;
SELECT * FROM tv ORDER BY id;
-- (16+ leaves out the "t." of a single-table view)
SELECT regexp_replace(pg_get_viewdef('tv'::regclass), '\mt\.', '', 'g');
DO $$BEGIN EXECUTE format('CREATE VIEW tv2 AS %s', pg_get_viewdef('tv'::regclass)); END$$;
SELECT * FROM tv2 EXCEPT SELECT * FROM tv;
SELECT labelam.row_label(tableoid, ctid), id FROM t WHERE id = 1;

-- errors: security_label of something that has no tuple headers
SELECT tv.security_label FROM tv;
SELECT s.security_label FROM (SELECT * FROM t) s;
WITH c AS (SELECT * FROM t) SELECT c.security_label FROM c;
SELECT f.security_label FROM json_to_record('{"a": 1}') AS f(a int);
SELECT j.security_label FROM (t JOIN u USING (id)) AS j;
SELECT v.security_label FROM (VALUES (1)) AS v(x);
CREATE TABLE h (id int) USING heap;
INSERT INTO h VALUES (1);
SELECT h.security_label FROM h;
SELECT security_label(ROW(1, 2));
INSERT INTO t VALUES (1, 'x') ON CONFLICT (id)
	DO UPDATE SET v = excluded.security_label;
CREATE VIEW bad AS SELECT s.security_label FROM (SELECT * FROM t) s;
EXPLAIN SELECT h.security_label FROM h;

-- labelam.row_label only in the form parse analysis produces
SELECT labelam.row_label('t'::regclass, '(0,1)');
SELECT labelam.row_label(t.tableoid, u.ctid) FROM t, u;
SELECT labelam.row_label(h.tableoid, h.ctid) FROM h;
SELECT id FROM t WHERE labelam.row_label(t.tableoid, '(0,1)') IS NULL;
CREATE OPERATOR ### (FUNCTION = labelam.row_label, LEFTARG = oid, RIGHTARG = tid);
SELECT 't'::regclass::oid ### '(0,1)'::tid;
DROP OPERATOR ### (oid, tid);

-- expressions parse analysis never sees (column defaults, rules, CHECK
-- constraints, policies) can still call row_label() on any TID, so it
-- checks what it reveals itself; security_label() there is an error
CREATE FUNCTION probe(rel regclass, version tid) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	EXECUTE format('CREATE TEMP TABLE probe_t (l text DEFAULT labelam.row_label(%s, %L)) USING heap',
				   rel::oid, version);
	INSERT INTO probe_t DEFAULT VALUES RETURNING l INTO result;
	DROP TABLE probe_t;
	RETURN result;
END $$;
SELECT ctid AS t3 FROM t WHERE id = 3 \gset
SELECT probe('t', :'t3');
SELECT probe('t', '(1000,1)');	-- no such block
SELECT probe('t', '(0,1000)');	-- no such line pointer
SELECT probe('h', '(0,1)');
BEGIN;
SAVEPOINT s;
INSERT INTO t VALUES (5, 'aborted') RETURNING ctid AS t5 \gset
SELECT probe('t', :'t5');	-- this transaction's own row
ROLLBACK TO s;
SELECT probe('t', :'t5');	-- aborted
COMMIT;
CREATE TABLE d (x text DEFAULT security_label(ROW(1))) USING heap;
INSERT INTO d DEFAULT VALUES;
-- SQL-standard function bodies are analyzed without the hook too; written
-- out, the rewritten form works there
CREATE FUNCTION labels_std() RETURNS SETOF text LANGUAGE sql
BEGIN ATOMIC
	SELECT t.security_label FROM t ORDER BY id;
END;
SELECT labels_std();
CREATE FUNCTION labels_std2() RETURNS SETOF text LANGUAGE sql
BEGIN ATOMIC
	SELECT labelam.row_label(t.tableoid, t.ctid) FROM t ORDER BY id;
END;
SELECT labels_std2();

-- the policy: a session labeled user_t may not select rows of
-- sepgsql_secret_table_t; row_label() says NULL for them
SELECT use_label('system_u:object_r:sepgsql_secret_table_t:s0');
INSERT INTO t VALUES (6, 'secret');
SELECT use_label('system_u:object_r:sepgsql_table_t:s0:c1');
SELECT ctid AS t6 FROM t WHERE id = 6 \gset
SELECT t.security_label FROM t WHERE id = 6;
CREATE ROLE regress_label_sql_user LOGIN;
INSERT INTO labelam.role_label VALUES
	('regress_label_sql_user', 'user_u:user_r:user_t:s0');
GRANT SELECT ON t TO regress_label_sql_user;
\c - regress_label_sql_user
SELECT labelam.client_label();
SELECT probe('t', :'t3');
SELECT probe('t', :'t6');
SELECT t.security_label, id FROM t WHERE id = 3;
\c - :regress_superuser

-- SQL privileges: reading the label needs SELECT on the table, for
-- t.security_label as for row_label()
CREATE ROLE regress_label_sql_nopriv;
GRANT SELECT ON tv TO regress_label_sql_nopriv;
GRANT SELECT (id, v) ON t TO regress_label_sql_nopriv;
SET ROLE regress_label_sql_nopriv;
SELECT id FROM t WHERE id = 1;
SELECT t.security_label FROM t WHERE id = 1;
SELECT probe('t', :'t3');
-- a view checks its owner's privileges on the table, but row_label()
-- is called by the current user, who needs SELECT on the table too
SELECT label FROM tv WHERE id = 1;
RESET ROLE;
-- SELECT on a partitioned table or inheritance parent covers the rows of
-- its members, which row_label() reads one by one
GRANT SELECT ON p, parent TO regress_label_sql_nopriv;
SET ROLE regress_label_sql_nopriv;
SELECT p.security_label, id FROM p WHERE id < 20 ORDER BY id;
SELECT parent.security_label, id FROM parent WHERE id < 3 ORDER BY id;
SELECT p1.security_label FROM p1;	-- the partition itself is not granted
SELECT probe('p1', '(0,1)');	-- but its rows are, through p
RESET ROLE;

-- clean up
\c :regress_db
DROP DATABASE regress_label_sql;
DROP ROLE regress_label_sql_user, regress_label_sql_nopriv;
