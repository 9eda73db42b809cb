-- scripts/demo.d/60_lbac.sql
-- Labels without SELinux (doc/lbac.md): a cluster of its own with
-- labelam.provider = lbac, whose model of levels, compartments and groups
-- is defined in SQL, with Oracle Label Security's rules.  Whoever creates
-- the extension administers the model.
CREATE EXTENSION labelam;
SELECT current_user AS demo_admin \gset
SELECT lbac.create_level('P', 10, 'PUBLIC');
SELECT lbac.create_level('C', 20, 'CONFIDENTIAL');
SELECT lbac.create_level('S', 30, 'SENSITIVE');
SELECT lbac.create_compartment('FIN', 10, 'Finance');
SELECT lbac.create_compartment('HR', 20, 'Human resources');
SELECT lbac.create_group('CORP', 1, 'Corporation');
SELECT lbac.create_group('WEST', 10, 'Western region', 'CORP');
SELECT lbac.create_group('EAST', 20, 'Eastern region', 'CORP');

-- ann: up to S, writes no lower than C; reads FIN and HR, writes FIN; WEST.
-- ben: C, HR.  The administrator reads and writes everything (FULL).
CREATE ROLE ann LOGIN;
CREATE ROLE ben LOGIN;
SELECT lbac.set_levels('ann', 'S', 'C');
SELECT lbac.set_compartments('ann', 'FIN,HR', 'FIN');
SELECT lbac.set_groups('ann', 'WEST');
SELECT lbac.set_levels('ben', 'C');
SELECT lbac.set_compartments('ben', 'HR');
SELECT lbac.set_levels(:'demo_admin', 'S', 'P');
SELECT lbac.set_compartments(:'demo_admin', 'FIN,HR');
SELECT lbac.set_groups(:'demo_admin', 'CORP');
SELECT lbac.grant_privileges(:'demo_admin', 'FULL');
SELECT role, max_level, min_level, read_compartments, write_compartments,
	read_groups, privileges FROM lbac.user_authorizations ORDER BY role::text;

CREATE TABLE memo (id int PRIMARY KEY, body text) USING labelheap;
GRANT SELECT, INSERT, UPDATE ON memo TO ann, ben;

\c - ann
\echo -- connected as ann
SELECT lbac.session_label();
INSERT INTO memo VALUES (1, 'west budget');
SET labelam.insert_label = 'C';
INSERT INTO memo VALUES (2, 'cafeteria menu');
-- ann may not write HR rows: refused, and the label is not stored
\set ON_ERROR_STOP 0
SET labelam.insert_label = 'c:hr';
INSERT INTO memo VALUES (3, 'hiring freeze');
\set ON_ERROR_STOP 1
RESET labelam.insert_label;
SELECT m.security_label, m.id, m.body FROM memo m ORDER BY id;

\c - :demo_admin
\echo -- connected as the administrator (FULL)
SET labelam.insert_label = ' c : hr ';
INSERT INTO memo VALUES (3, 'hiring freeze');
SET labelam.insert_label = 'S::EAST';
INSERT INTO memo VALUES (4, 'east sales');
SELECT m.security_label, m.id, m.body FROM memo m ORDER BY id;

\c - ben
\echo -- connected as ben (C:HR)
SELECT id, body FROM memo ORDER BY id;

\c - ann
\echo -- connected as ann (S:FIN,HR:WEST): not EAST
SELECT id, body FROM memo ORDER BY id;
-- she may work lower, within her authorization, not elsewhere
SELECT lbac.set_session_label('C');
SELECT id, body FROM memo ORDER BY id;
\set ON_ERROR_STOP 0
SELECT lbac.set_session_label('S::EAST');
\set ON_ERROR_STOP 1
SELECT lbac.set_session_label('S:FIN,HR:WEST');
-- raising a row's level needs WRITEUP
SET labelam.update_label = 'S';
\set ON_ERROR_STOP 0
UPDATE memo SET body = body WHERE id = 2;
\set ON_ERROR_STOP 1

\c - :demo_admin
SELECT lbac.grant_privileges('ann', 'WRITEUP');
-- direct writes to the model are refused, to superusers too
\set ON_ERROR_STOP 0
UPDATE lbac.authorizations SET privileges = '{FULL}';
\set ON_ERROR_STOP 1

\c - ann
\echo -- connected as ann, with WRITEUP
SET labelam.update_label = 'S';
UPDATE memo SET body = body || ' (sensitive now)' WHERE id = 2;
RESET labelam.update_label;
SELECT m.security_label, m.id, m.body FROM memo m ORDER BY id;

\c - :demo_admin
-- a revocation governs ann's sessions from their next statement
SELECT lbac.set_compartments('ann', 'HR', '');
\c - ann
\echo -- connected as ann, without FIN
SELECT lbac.session_label();
SELECT id, body FROM memo ORDER BY id;
