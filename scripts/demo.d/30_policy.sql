-- Decisions come from an SELinux policy: here Debian's reference policy,
-- evaluated in user space by libsepol (no SELinux kernel needed).
SELECT * FROM labelam.policy_info();
-- Every session has a label; this one comes from labelam.default_client_label.
SELECT labelam.client_label();
-- What may a confined user do with rows of three kinds of table?
SELECT t AS "rows labeled",
	labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:' || t || ':s0', '{select}') AS "select",
	labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:' || t || ':s0', '{insert,update,delete}') AS "write"
FROM unnest(ARRAY['sepgsql_table_t', 'sepgsql_ro_table_t', 'sepgsql_secret_table_t']) t;
-- The label of a row the user creates in a table, by the policy's rules.
SELECT labelam.compute_create('user_u:user_r:user_t:s0', 'system_u:object_r:sepgsql_sysobj_t:s0');
-- Labels the policy does not know are errors, never silently allowed.
\set ON_ERROR_STOP 0
SELECT labelam.check_access('user_u:user_r:user_t:s0', 'system_u:object_r:no_such_t:s0', '{select}');
\set ON_ERROR_STOP 1
-- Decisions are cached per session.
SELECT * FROM labelam.avc_stats();
