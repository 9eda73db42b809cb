-- Bad input is an error with a hint, never an allow or a crash.
\set VERBOSITY default
-- malformed contexts
SELECT labelam.check_access('user_u:user_r', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access(E'user_u:user_r:user_t:s0\n', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
-- unknown type, user, role, level, category
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:no_such_table_t:s0', '{select}');
SELECT labelam.check_access('nobody_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:no_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:user_r:user_t:s7', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0:c4096', '{select}');
-- valid parts, but not together: user_u may not have role staff_r, nor a
-- level above its clearance; user_r may not run staff_t
SELECT labelam.check_access('user_u:staff_r:staff_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:user_r:user_t:s0:c1', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:user_r:staff_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
-- unknown permissions; no permission; nulls
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select,drop}');
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{}');
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{select,NULL}');
SELECT labelam.check_access(NULL, 'system_u:object_r:sepgsql_table_t:s0', '{select}') IS NULL AS strict;
SELECT labelam.compute_create('user_u:user_r:user_t:s0', 'system_u:object_r:no_such_t:s0');
-- the session label is labelam's alone
SET labelam.session_label = 'user_u:user_r:user_t:s0';
SELECT set_config('labelam.session_label', 'user_u:user_r:user_t:s0', false);
ALTER ROLE CURRENT_USER SET labelam.session_label = 'user_u:user_r:user_t:s0';
SELECT labelam.client_label();
-- the provider and policy file are server settings
SET labelam.provider = 'selinux';
SET labelam.policy_file = '/dev/null';
-- an unknown audit mode
SELECT set_config('labelam.audit', 'sometimes', false);
-- labelam.debug_opaque_labels lets the dictionary store any text (to test
-- it apart from a policy), but decisions never accept such labels
SET labelam.debug_opaque_labels = on;
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'opaque_u:object_r:t:s0', '{select}');
RESET labelam.debug_opaque_labels;
SELECT labelam.intern_label('opaque_u:object_r:t:s0');
-- (and only superusers may set it)
CREATE ROLE regress_avc_nobody;
SET ROLE regress_avc_nobody;
SET labelam.debug_opaque_labels = on;
RESET ROLE;
DROP ROLE regress_avc_nobody;
-- a row whose stored label the policy does not know is decided as the
-- policy's "unlabeled" context (unlabeled_t), as SELinux does: this test
-- label may not read such rows, only update and relabel them ("allow
-- sepgsql_unconfined_type unlabeled_t:db_tuple { relabelfrom update }")
-- (rolled back: later tests expect the dictionary untouched)
BEGIN;
INSERT INTO labelam.pg_security VALUES (4100000100, 'opaque_u:object_r:t:s0');
SELECT labelam.check_row_access(4100000100, '{select}') AS "select",
	labelam.check_row_access(4100000100, '{update,relabelfrom}') AS "update, relabelfrom",
	labelam.check_row_access(4100000100, '{delete}') AS "delete";
ROLLBACK;

-- SQLSTATEs: 22023 for bad labels and permissions, 42501 for the setting
\set VERBOSITY sqlstate
SELECT labelam.check_access('user_u:user_r', 'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_table_t:s0', '{drop}');
SET labelam.session_label = 'user_u:user_r:user_t:s0';
