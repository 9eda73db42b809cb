-- scripts/demo.d/40_attacks.sql
-- Trying it as an attacker would: alice (s0) owns a table of her own and
-- runs code inside DDL; bob's row 4 (s1) stays out of her reach.
\set ON_ERROR_STOP 0
\c - alice
\echo -- connected as alice (s0)
CREATE FUNCTION pg_temp.peek() RETURNS int LANGUAGE sql AS
	'SELECT count(*)::int FROM mission';
CREATE TEMP TABLE mine (x int) USING labelheap;
INSERT INTO mine VALUES (1);
-- a column default runs inside ALTER TABLE: it still sees only her rows
ALTER TABLE mine ADD COLUMN seen int DEFAULT pg_temp.peek();
SELECT * FROM mine;
-- destroying rows she cannot see is refused, and says no more than that
TRUNCATE mission;
-- a conflicting row she cannot see: refused at once, nothing locked
INSERT INTO mission VALUES (4, 'guess') ON CONFLICT (id) DO UPDATE SET item = 'mine';
