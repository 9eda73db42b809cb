-- Write checks under Debian's default policy: a confined user (user_t) may
-- write rows of sepgsql_table_t, only read rows of sepgsql_ro_table_t and
-- do nothing with rows of sepgsql_secret_table_t.  A denial is ERROR 42501
-- naming the table, the permission and the row's label; nothing changes.
-- In a database of its own: the test adds labels to the dictionary, which
-- later tests expect to find empty.
\set SHOW_CONTEXT never
SELECT current_user AS regress_superuser, current_database() AS regress_db \gset
CREATE DATABASE regress_am_enforcement_write;
\c regress_am_enforcement_write
\set SHOW_CONTEXT never
CREATE EXTENSION labelam;
CREATE TABLE tw (id int PRIMARY KEY, kind text, v text) USING labelheap;
SECURITY LABEL FOR selinux ON TABLE tw IS 'system_u:object_r:sepgsql_table_t:s0';
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0';
INSERT INTO tw VALUES (1, 'rw', 'a'), (2, 'rw', 'b');
SET labelam.insert_label = 'system_u:object_r:sepgsql_ro_table_t:s0';
INSERT INTO tw VALUES (3, 'ro', 'c');
SET labelam.insert_label = 'system_u:object_r:sepgsql_secret_table_t:s0';
INSERT INTO tw VALUES (4, 'secret', 'd');
RESET labelam.insert_label;
CREATE ROLE regress_lbl_user LOGIN;
INSERT INTO labelam.role_label VALUES ('regress_lbl_user', 'user_u:user_r:user_t:s0');
GRANT ALL ON tw TO regress_lbl_user;
CREATE VIEW tw_state AS SELECT string_agg(format('%s:%s:%s', id, kind, v), ' ' ORDER BY id) AS rows FROM tw;
GRANT SELECT ON tw_state TO PUBLIC;
SELECT * FROM tw_state;

\c - regress_lbl_user
\set SHOW_CONTEXT never
SELECT labelam.client_label();
-- reads: secret rows are filtered out
SELECT id, kind, v FROM tw ORDER BY id;
-- update: allowed on rw rows, denied on the ro row
UPDATE tw SET v = v || '!' WHERE kind = 'rw';
UPDATE tw SET v = v || '?';
\echo :LAST_ERROR_SQLSTATE
-- delete: denied on the ro row
DELETE FROM tw WHERE kind = 'ro';
\echo :LAST_ERROR_SQLSTATE
-- insert: the table's policy label is writable; an explicit label also
-- needs relabelto, which user_t lacks
INSERT INTO tw VALUES (5, 'rw', 'e');
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0';
INSERT INTO tw VALUES (6, 'rw', 'f');
\echo :LAST_ERROR_SQLSTATE
RESET labelam.insert_label;
-- COPY FROM obeys the same rules
COPY tw FROM stdin;
7	rw	g
\.
SET labelam.insert_label = 'system_u:object_r:sepgsql_ro_table_t:s0';
COPY tw FROM stdin;
8	ro	h
\.
\echo :LAST_ERROR_SQLSTATE
RESET labelam.insert_label;
-- the hidden secret row cannot be changed either: it is never found
UPDATE tw SET v = 'x' WHERE id = 4;
DELETE FROM tw WHERE id = 4;

\c - :regress_superuser
\set SHOW_CONTEXT never
-- nothing changed but the allowed writes
SELECT * FROM tw_state;
SELECT id, labelam.label_text(labelam.tuple_secid('tw', ctid)) FROM tw ORDER BY id;
-- leaving labelheap would drop the labels
ALTER TABLE tw SET ACCESS METHOD heap;
\echo :LAST_ERROR_SQLSTATE
SET labelam.allow_unlabel = on;
CREATE TABLE tw_copy USING labelheap AS SELECT * FROM tw;
ALTER TABLE tw_copy SET ACCESS METHOD heap;
SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'tw_copy';
RESET labelam.allow_unlabel;
DROP TABLE tw_copy;
DROP VIEW tw_state;
DROP TABLE tw;
DELETE FROM labelam.role_label WHERE role = 'regress_lbl_user'::regrole;
DROP ROLE regress_lbl_user;
-- A new row's label that an aborted subtransaction interned is gone with
-- it: a later row of the same statement must not reuse its secid.  The
-- table's type makes the row label new to the dictionary.
CREATE TABLE tw_sub (i int) USING labelheap;
SECURITY LABEL FOR selinux ON TABLE tw_sub IS 'system_u:object_r:sepgsql_sysobj_t:s0';
SELECT labelam.compute_create(labelam.client_label(), 'system_u:object_r:sepgsql_sysobj_t:s0') AS new_label \gset
SELECT :'new_label' AS new_label, count(*) AS interned FROM labelam.pg_security WHERE seclabel = :'new_label';
DO $$
BEGIN
	BEGIN
		INSERT INTO tw_sub VALUES (1);
		RAISE EXCEPTION 'undo';
	EXCEPTION WHEN raise_exception THEN NULL;
	END;
	INSERT INTO tw_sub VALUES (2);
END $$;
SELECT i, labelam.label_text(labelam.tuple_secid('tw_sub', ctid)) FROM tw_sub;
DROP TABLE tw_sub;

\c :regress_db
DROP DATABASE regress_am_enforcement_write;
