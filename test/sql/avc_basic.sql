-- Policy decisions through the sepol provider, with Debian's reference
-- policy (selinux-policy-default), as test/test.conf configures every
-- test cluster.
SELECT provider, policy, seqno > 0 AS loaded, mls FROM labelam.policy_info();
-- enforcing, and no newer policy file rejected
SELECT mode, rejected, rejected_at FROM labelam.policy_info();
SHOW labelam.enforcing;
-- permissive mode is the server configuration's to choose, not a session's
SET labelam.enforcing = off;
SELECT set_config('labelam.enforcing', 'off', true);
SHOW labelam.provider;

-- every session has a label; test/test.conf gives the default one
SELECT labelam.client_label();

-- a confined user: full access to sepgsql_table_t rows, read-only on
-- sepgsql_ro_table_t, nothing on sepgsql_secret_table_t
SELECT t AS "type", p AS perm,
	labelam.check_access('user_u:user_r:user_t:s0',
						 'system_u:object_r:' || t || ':s0', ARRAY[p]) AS allowed
FROM unnest(ARRAY['sepgsql_table_t', 'sepgsql_ro_table_t',
				  'sepgsql_secret_table_t']) WITH ORDINALITY AS tt(t, i),
	 unnest(ARRAY['select', 'insert', 'update', 'delete', 'relabelfrom',
				  'relabelto']) WITH ORDINALITY AS pp(p, j)
ORDER BY i, j;

-- several permissions at once: all of them must be allowed
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0', '{select,insert,update,delete}');
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_ro_table_t:s0', '{select,update}');

-- categories: this policy's MCS constraints on db_tuple bind only domains
-- of attribute mcs_constrained_type (sesearch/seinfo --constrain), which
-- user_t is not, so user_t at s0 may read a row in c5
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0:c5', '{select}');

-- the unconfined test label may do everything on table types
SELECT labelam.check_access(labelam.client_label(),
	'system_u:object_r:sepgsql_secret_table_t:s0',
	'{select,insert,update,delete,relabelfrom,relabelto}');

-- new rows: the policy's type_transition, else the table's type, with the
-- creator's user and (low) level
SELECT labelam.compute_create('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_sysobj_t:s0');
SELECT labelam.compute_create('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0');
SELECT labelam.compute_create('staff_u:staff_r:staff_t:s0-s0:c0.c10',
	'system_u:object_r:sepgsql_table_t:s0:c3');

-- labels are compared in canonical form: category ranges are folded
SELECT labelam.check_access('staff_u:staff_r:staff_t:s0-s0:c0,c1,c2,c3',
	'system_u:object_r:sepgsql_table_t:s0:c3', '{select}');

-- the decision cache: a repeated question is a hit, and the first
-- statement of the session found the policy already loaded (no reset);
-- (the statements' own object checks are hits too: counted as hits > 0)
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT hits AS hits_before, misses AS misses_before, resets AS resets_before
FROM labelam.avc_stats() \gset
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0', '{insert}');
SELECT hits > :hits_before AS new_hits, misses - :misses_before AS new_misses,
	resets - :resets_before AS new_resets
FROM labelam.avc_stats();
SELECT labelam.check_access('user_u:user_r:user_t:s0',
	'system_u:object_r:sepgsql_table_t:s0:c9', '{insert}');
SELECT hits > :hits_before AS new_hits, misses - :misses_before AS new_misses
FROM labelam.avc_stats();

-- rows are labeled by dictionary secids: the session's decisions on them,
-- through the row filter's path.  (The labels are added by hand, in a
-- transaction that is rolled back: this leaves the dictionary and its
-- secid sequence as they were, for the tests that follow.)
BEGIN;
CREATE TEMP TABLE l AS
SELECT t, 4100000000 + i AS secid
FROM unnest(ARRAY['sepgsql_table_t', 'sepgsql_ro_table_t',
				  'sepgsql_secret_table_t', 'etc_t']) WITH ORDINALITY AS tt(t, i);
INSERT INTO labelam.pg_security
SELECT secid, 'system_u:object_r:' || t || ':s0' FROM l;
SELECT t, labelam.check_row_access(secid, '{select}') AS "select",
	labelam.check_row_access(secid, '{update,delete}') AS "write"
FROM l ORDER BY t;
-- a secid that names no label is denied, never an error
SELECT labelam.check_row_access(4294967295, '{select}');
-- the label of a new row, as the policy computes it for this session: the
-- dictionary row it names is the one holding compute_create's answer
INSERT INTO labelam.pg_security
SELECT 4100000010 + i, labelam.compute_create(labelam.client_label(),
	'system_u:object_r:' || t || ':s0')
FROM unnest(ARRAY['sepgsql_table_t', 'sepgsql_ro_table_t',
				  'sepgsql_secret_table_t', 'etc_t']) WITH ORDINALITY AS tt(t, i);
SELECT t, labelam.create_row_label(secid)::bigint - 4100000010 AS new_row_secid,
	labelam.label_text(labelam.create_row_label(secid)) AS new_row
FROM l ORDER BY t;
ROLLBACK;
