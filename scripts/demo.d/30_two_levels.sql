-- scripts/demo.d/30_two_levels.sql
-- One table, rows at two levels.  alice works at s0, bob at s1.
SELECT current_user AS demo_admin \gset
CREATE TABLE mission (id int PRIMARY KEY, item text) USING labelheap;
-- a label summary: which labels each range of 8 blocks holds (opt-in, as
-- BRIN is); made on the empty table: an index build reads every row
CREATE INDEX mission_labels ON mission USING labelsummary (id);
GRANT ALL ON mission TO PUBLIC;
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
INSERT INTO labelam.role_label VALUES
	('alice', 'staff_u:staff_r:staff_t:s0'),
	('bob', 'staff_u:staff_r:staff_t:s1');

\c - alice
\echo -- connected as alice (s0)
SELECT labelam.client_label();
-- rows alice inserts are labeled by the policy at her level
INSERT INTO mission VALUES (1, 'public schedule'), (2, 'cafeteria menu');

\c - bob
\echo -- connected as bob (s1)
SELECT labelam.client_label();
INSERT INTO mission VALUES (3, 'convoy route'), (4, 'cargo manifest');
-- bob reads up to s1: every row
SELECT id, item FROM mission ORDER BY id;

\c - alice
\echo -- connected as alice (s0)
-- alice reads s0 only: bob's rows are filtered out in the storage engine,
-- whatever the plan (seq scan, index scan, ...)
SELECT id, item FROM mission ORDER BY id;
SELECT count(*) FROM mission;
SET enable_seqscan = off;
SELECT id, item FROM mission WHERE id > 0 ORDER BY id;
RESET enable_seqscan;

\c - bob
\echo -- connected as bob (s1)
-- bob may not write down: updating alice's rows is refused, nothing changes
\set ON_ERROR_STOP 0
UPDATE mission SET item = upper(item);
\set ON_ERROR_STOP 1
SELECT id, item FROM mission ORDER BY id;

-- carol, a security administrator at s1 (sysadm), declassifies row 3:
-- labelam.update_label relabels the rows an UPDATE changes, which needs
-- relabelfrom on the old label and relabelto on the new one
\c - :demo_admin
CREATE ROLE carol LOGIN;
INSERT INTO labelam.role_label VALUES ('carol', 'staff_u:sysadm_r:sysadm_t:s1');
\c - carol
\echo -- connected as carol (s1, security administrator)
SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s0';
UPDATE mission SET item = item || ' (declassified)' WHERE id = 3;

\c - alice
\echo -- connected as alice (s0)
-- alice now reads the declassified row too
SELECT id, item FROM mission ORDER BY id;
