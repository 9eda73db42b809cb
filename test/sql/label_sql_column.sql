-- The declared label column: a column of type labelam.security_label reads
-- and writes the row's label, which lives in the tuple header.

-- In a database of its own: the test adds labels to the dictionary.
\set SHOW_CONTEXT never
SELECT current_user AS regress_superuser, current_database() AS regress_db \gset
CREATE DATABASE regress_label_column;
\c regress_label_column
\set SHOW_CONTEXT never
CREATE EXTENSION labelam;

CREATE TABLE lc (id int PRIMARY KEY, v text, lbl labelam.security_label)
	USING labelheap;
SECURITY LABEL FOR selinux ON TABLE lc IS 'system_u:object_r:sepgsql_table_t:s0';
-- the column's type: text's operators and collation "C"
SELECT format_type(atttypid, atttypmod), pg_collation_for(lbl)
FROM pg_attribute, (SELECT NULL::labelam.security_label AS lbl) s
WHERE attrelid = 'lc'::regclass AND attname = 'lbl';

-- INSERT: NULL or omitted keeps the default label, a value sets it
INSERT INTO lc VALUES (1, 'default', NULL);
INSERT INTO lc (id, v) VALUES (2, 'omitted');
INSERT INTO lc VALUES (3, 'explicit', 'system_u:object_r:sepgsql_ro_table_t:s0');
INSERT INTO lc VALUES (4, 'same as default', 'system_u:object_r:sepgsql_table_t:s0');
SELECT * FROM lc ORDER BY id;
-- the column reads what the header holds, as t.security_label would
SELECT id, lbl = labelam.label_text(labelam.tuple_secid('lc', ctid)) AS from_header
FROM lc ORDER BY id;
-- in WHERE, ORDER BY, GROUP BY, joins and subqueries
SELECT id FROM lc WHERE lbl LIKE '%ro_table%';
SELECT lbl, count(*) FROM lc GROUP BY lbl ORDER BY lbl;
SELECT a.id, b.id FROM lc a JOIN lc b ON a.lbl = b.lbl AND a.id < b.id ORDER BY 1, 2;
SELECT id FROM lc WHERE lbl IN (SELECT l.lbl FROM lc l WHERE l.id = 3);
SELECT s.id, s.lbl FROM (SELECT * FROM lc) s WHERE s.id = 3;
CREATE VIEW lc_view AS SELECT id, lbl FROM lc;
SELECT * FROM lc_view ORDER BY id;
INSERT INTO lc VALUES (5, 'returning', 'system_u:object_r:sepgsql_ro_table_t:s0')
RETURNING id, lbl;
-- bad label text: nothing inserted
INSERT INTO lc VALUES (6, 'bad', '');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM lc WHERE id = 6;

-- UPDATE: setting the column relabels; not setting it keeps the label
UPDATE lc SET v = 'updated' WHERE id = 3;
UPDATE lc SET lbl = 'system_u:object_r:sepgsql_secret_table_t:s0' WHERE id = 1;
UPDATE lc SET lbl = NULL WHERE id = 5;	-- NULL keeps the label
SELECT id, v, lbl FROM lc ORDER BY id;
-- whole-row references read the label too
SELECT lc FROM lc WHERE id = 1;
SELECT row_to_json(lc) FROM lc WHERE id = 3;
SELECT x.* FROM lc x WHERE id = 4;

-- COPY FROM sets labels; an empty field (NULL) keeps the default
COPY lc FROM stdin;
10	copied	system_u:object_r:sepgsql_ro_table_t:s0
11	copied default	\N
12	copied explicit	system_u:object_r:sepgsql_table_t:s0:c1
\.
SELECT id, v, lbl FROM lc WHERE id >= 10 ORDER BY id;
-- COPY TO returns the labels, as pg_dump's COPY does
COPY lc TO stdout;
COPY lc (id, lbl) TO stdout;
COPY (SELECT id, lbl FROM lc WHERE id = 12) TO stdout;
COPY lc (id, lbl) TO stdout WITH (FORMAT csv, HEADER);

-- relabel permissions under the test policy: a confined user (user_t) may
-- write rows of sepgsql_table_t but may not relabel
CREATE ROLE regress_lc_user LOGIN;
INSERT INTO labelam.role_label VALUES ('regress_lc_user', 'user_u:user_r:user_t:s0');
GRANT ALL ON lc TO regress_lc_user;
\c - regress_lc_user
\set SHOW_CONTEXT never
INSERT INTO lc VALUES (20, 'user default', NULL);		-- allowed
INSERT INTO lc VALUES (21, 'user explicit', 'system_u:object_r:sepgsql_ro_table_t:s0');
\echo :LAST_ERROR_SQLSTATE
-- a label other than the one the row would get is a relabel, even one
-- the user may write; the row's own default label is not
INSERT INTO lc VALUES (21, 'user explicit', 'system_u:object_r:sepgsql_table_t:s0');
\echo :LAST_ERROR_SQLSTATE
INSERT INTO lc VALUES (22, 'user same', 'user_u:object_r:sepgsql_table_t:s0');
UPDATE lc SET v = 'user updated' WHERE id = 20;		-- allowed, keeps label
UPDATE lc SET lbl = 'system_u:object_r:sepgsql_ro_table_t:s0' WHERE id = 20;
\echo :LAST_ERROR_SQLSTATE
UPDATE lc SET lbl = 'user_u:object_r:sepgsql_table_t:s0', v = 'user same updated'
WHERE id = 22;	-- unchanged label: no relabel
COPY lc FROM stdin;
23	user copy	system_u:object_r:sepgsql_ro_table_t:s0
\.
\echo :LAST_ERROR_SQLSTATE
COPY lc FROM stdin;
24	user copy default	\N
\.
SELECT id, v, lbl FROM lc WHERE id >= 20 ORDER BY id;
\c - :regress_superuser
\set SHOW_CONTEXT never
SELECT id, v, lbl FROM lc WHERE id >= 20 ORDER BY id;
-- relabeling someone else's row, as a superuser
UPDATE lc SET lbl = 'system_u:object_r:sepgsql_table_t:s0:c2' WHERE id = 20;
SELECT id, lbl FROM lc WHERE id = 20;
DELETE FROM labelam.role_label WHERE role = 'regress_lc_user'::regrole;
REVOKE ALL ON lc FROM regress_lc_user;
DROP ROLE regress_lc_user;

-- one label column per table
CREATE TABLE lc2 (a labelam.security_label, b labelam.security_label) USING labelheap;
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc ADD COLUMN lbl2 labelam.security_label;
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc ADD COLUMN t text;
ALTER TABLE lc ALTER COLUMN t TYPE labelam.security_label;
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc DROP COLUMN t;
-- a view may show several: it stores no rows
CREATE VIEW lc_pairs AS SELECT a.id, a.lbl, b.lbl AS lbl2 FROM lc a JOIN lc b USING (id);
SELECT id, lbl = lbl2 AS same FROM lc_pairs WHERE id = 3;
DROP VIEW lc_pairs;
-- no indexes or constraints on it: its stored value is always NULL
CREATE INDEX ON lc (lbl);
\echo :LAST_ERROR_SQLSTATE
CREATE INDEX ON lc (id) WHERE lbl IS NOT NULL;
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc ADD CONSTRAINT lbl_check CHECK (lbl <> 'x');
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc ADD UNIQUE (id, lbl);
\echo :LAST_ERROR_SQLSTATE
ALTER TABLE lc ALTER COLUMN lbl SET NOT NULL;
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE lc3 (id int, lbl labelam.security_label NOT NULL) USING labelheap;
\echo :LAST_ERROR_SQLSTATE
-- dropping the column and adding it back: the labels were never in it
ALTER TABLE lc DROP COLUMN lbl;
ALTER TABLE lc ADD COLUMN label labelam.security_label;
SELECT id, label FROM lc WHERE id IN (1, 3, 10) ORDER BY id;


-- ON CONFLICT DO UPDATE keeps the label unless it sets the column
INSERT INTO lc (id, v, label) VALUES (3, 'conflict', 'system_u:object_r:sepgsql_table_t:s0:c7')
ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;
INSERT INTO lc (id, v, label) VALUES (10, 'conflict', 'system_u:object_r:sepgsql_table_t:s0:c7')
ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v, label = EXCLUDED.label
RETURNING id, v, label;
SELECT id, v, label FROM lc WHERE id IN (3, 10) ORDER BY id;
-- INSERT ... SELECT copies labels from one table to another
CREATE TABLE lc_copy (id int, label labelam.security_label) USING labelheap;
INSERT INTO lc_copy SELECT id, label FROM lc;
SELECT count(*) FILTER (WHERE a.label = b.label) || '/' || count(*) AS same
FROM lc a JOIN lc_copy b USING (id);
DROP TABLE lc_copy;

-- partitioned tables: the column reads and sets the labels of the
-- partitions' rows, also when an UPDATE moves a row to another partition
CREATE TABLE lp (id int, lbl labelam.security_label) PARTITION BY RANGE (id);
CREATE TABLE lp1 PARTITION OF lp FOR VALUES FROM (0) TO (10) USING labelheap;
CREATE TABLE lp2 PARTITION OF lp FOR VALUES FROM (10) TO (20) USING labelheap;
INSERT INTO lp VALUES (1, 'system_u:object_r:sepgsql_table_t:s0:c3'), (2, NULL);
UPDATE lp SET id = 11, lbl = 'system_u:object_r:sepgsql_table_t:s0:c4' WHERE id = 1;
UPDATE lp SET id = 12 WHERE id = 2;
SELECT tableoid::regclass, id, lbl FROM lp ORDER BY id;
COPY lp2 TO stdout;
DROP TABLE lp;

-- the data area holds NULL: leaving labelheap drops the labels
CREATE TABLE lh (id int, lbl labelam.security_label) USING labelheap;
INSERT INTO lh VALUES (1, 'system_u:object_r:sepgsql_table_t:s0:c5');
SET labelam.allow_unlabel = on;
ALTER TABLE lh SET ACCESS METHOD heap;
RESET labelam.allow_unlabel;
SELECT id, lbl FROM lh;
DROP TABLE lh;

\c :regress_db
DROP DATABASE regress_label_column;
