-- scripts/demo.d/55_trusted_maintenance.sql
-- Maintaining a multi-level table: mission holds alice's rows (s0) and
-- bob's (s1).  No ordinary label may drop it: the administrator at s0
-- cannot reach bob's rows, and under the MLS policy no label may delete
-- rows of two levels.  labelam's policy module (make policy) has a
-- trusted maintenance subject for this (doc/trusted-subjects.md).
SELECT labelam.client_label();
SELECT count(*) AS "labels in mission's label set"
	FROM labelam.table_labels WHERE relid = 'mission'::regclass;
\set ON_ERROR_STOP 0
DROP TABLE mission;
\set ON_ERROR_STOP 1

-- the maintenance role: a superuser (PostgreSQL's privileges for DROP)
-- labeled with the trusted domain over the whole range
CREATE ROLE maint LOGIN SUPERUSER;
INSERT INTO labelam.role_label
	VALUES ('maint', 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023');

\c - maint
\echo -- connected as maint (labelam_maint_t, s0-s15:c0.c1023)
SHOW labelam.session_label;
-- outside maintenance commands it decides as its label narrowed to its
-- clearance: it reads every row ...
SELECT labelam.client_label();
SELECT m.security_label, count(*) AS rows
	FROM mission m GROUP BY 1 ORDER BY 1;
SELECT id, item, m.security_label FROM mission m WHERE id < 100 ORDER BY id;
-- ... and writes at its clearance only: no write down, not even from
-- code it runs for others (triggers, defaults, index expressions)
\set ON_ERROR_STOP 0
UPDATE mission SET item = upper(item) WHERE id = 1;
\set ON_ERROR_STOP 1
-- a maintenance command it sends itself reaches every level: the index
-- build reads every row, and the table goes with the rows it held
CREATE INDEX mission_item ON mission (item);
DROP TABLE mission;
SELECT to_regclass('mission') AS "mission after DROP";
