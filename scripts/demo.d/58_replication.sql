-- scripts/demo.d/58_replication.sql
-- Logical replication (doc/logical-replication.md): a table with rows at
-- s0, s1 and s3 is published; a subscription that connects through a role
-- at s1 receives exactly the s0 and s1 rows, each with its label.  Both ends
-- are in this one cluster: the publisher in database postgres, the
-- subscriber in database replica.
SELECT current_user AS demo_admin \gset
CREATE TABLE orders (id int PRIMARY KEY, item text,
	security_label labelam.security_label) USING labelheap;
GRANT ALL ON orders TO PUBLIC;
CREATE ROLE dave LOGIN;
-- the role the subscription connects as: REPLICATION, at s1
CREATE ROLE feed_s1 LOGIN REPLICATION;
INSERT INTO labelam.role_label VALUES
	('dave', 'staff_u:staff_r:staff_t:s3'),
	('feed_s1', 'staff_u:staff_r:staff_t:s1');

\c - alice
INSERT INTO orders (id, item) VALUES (1, 'public schedule');
\c - bob
INSERT INTO orders (id, item) VALUES (2, 'convoy route');
\c - dave
\echo -- connected as dave (s3)
INSERT INTO orders (id, item) VALUES (3, 'target list');
SELECT id, item, o.security_label FROM orders o ORDER BY id;

\c - :demo_admin
-- the label column carries the labels: publishing needs it
CREATE PUBLICATION pub_orders FOR TABLE orders;
-- (a subscription in the same cluster cannot create its own slot)
SELECT slot_name FROM pg_create_logical_replication_slot('sub_s1', 'pgoutput');

CREATE DATABASE replica;
\c replica
CREATE EXTENSION labelam;
CREATE TABLE orders (id int PRIMARY KEY, item text,
	security_label labelam.security_label) USING labelheap;
GRANT SELECT ON orders TO PUBLIC;
-- the subscription's owner: labelam's replica domain, which writes rows of
-- every level with the label they carry (make policy)
CREATE ROLE replicator LOGIN SUPERUSER;
INSERT INTO labelam.role_label VALUES
	('replicator', 'system_u:system_r:labelam_replica_t:s0-s15:c0.c1023'),
	('bob', 'staff_u:staff_r:staff_t:s1'),
	('dave', 'staff_u:staff_r:staff_t:s3');
\getenv pghost PGHOST
\getenv pgport PGPORT
\set conn 'host=' :pghost ' port=' :pgport ' dbname=postgres user=feed_s1'
\c - replicator
CREATE SUBSCRIPTION sub_s1 CONNECTION :'conn' PUBLICATION pub_orders
	WITH (create_slot = false, slot_name = 'sub_s1');

\c - dave
\echo -- connected to replica as dave (s3)
-- (wait for the initial copy)
DO $$
BEGIN
	FOR i IN 1..600 LOOP
		EXIT WHEN (SELECT count(*) FROM orders) = 2;
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;
-- dave may read every level here, yet the replica holds s0 and s1 only:
-- the publisher sent what feed_s1's label may select, with the labels
SELECT id, item, o.security_label FROM orders o ORDER BY id;

\c postgres alice
\echo -- on the publisher again: alice (s0) and dave (s3) write
UPDATE orders SET item = 'public schedule, v2' WHERE id = 1;
\c - dave
INSERT INTO orders (id, item) VALUES (4, 'second target');
\c replica dave
\echo -- connected to replica as dave (s3)
DO $$
BEGIN
	FOR i IN 1..600 LOOP
		EXIT WHEN (SELECT item FROM orders WHERE id = 1) = 'public schedule, v2';
		PERFORM pg_sleep(0.1);
	END LOOP;
END $$;
SELECT id, item, o.security_label FROM orders o ORDER BY id;
