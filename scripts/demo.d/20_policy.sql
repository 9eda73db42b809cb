-- scripts/demo.d/20_policy.sql
-- Decisions come from an SELinux policy: here Debian's MLS reference
-- policy, evaluated in user space by libsepol (no SELinux kernel needed).
SELECT provider, mls FROM labelam.policy_info();
-- Every session has a label; the administrator's comes from
-- labelam.default_client_label.
SELECT labelam.client_label();
-- Multi-level security: a subject at s1 may read rows at s0 and s1 (no read
-- up) and write rows at its own level only (no write down).
SELECT row_level,
	labelam.check_access('staff_u:staff_r:staff_t:s1', 'staff_u:object_r:sepgsql_table_t:' || row_level, '{select}') AS "s1 may select",
	labelam.check_access('staff_u:staff_r:staff_t:s1', 'staff_u:object_r:sepgsql_table_t:' || row_level, '{update}') AS "s1 may update"
FROM unnest(ARRAY['s0', 's1', 's2:c1', 's3']) row_level;
