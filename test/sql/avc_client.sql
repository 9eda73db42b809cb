-- Session labels: labelam.role_label, set_client_label() checked by the
-- policy's process { setcurrent dyntransition }, transactional changes.
SELECT current_user AS regress_superuser \gset
CREATE ROLE regress_avc_ranged LOGIN;
CREATE ROLE regress_avc_user LOGIN;
INSERT INTO labelam.role_label VALUES
	('regress_avc_ranged', 'user_u:user_r:sepgsql_ranged_proc_t:s0'),
	('regress_avc_user', 'user_u:user_r:user_t:s0');
CREATE TABLE public.avc_par AS SELECT g FROM generate_series(1, 10000) g;
GRANT SELECT ON public.avc_par TO PUBLIC;
ANALYZE public.avc_par;

-- the default label cannot be changed: unconfined_t may not dyntransition
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
SELECT labelam.client_label();

\c - regress_avc_user
SELECT labelam.client_label();
-- user_t has no setcurrent
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
\set VERBOSITY sqlstate
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
\set VERBOSITY default

\c - regress_avc_ranged
SELECT labelam.client_label();
-- sepgsql_ranged_proc_t may switch to user_t, and the switch is undone
-- with the transaction that made it
BEGIN;
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
SELECT labelam.client_label();
SELECT resets AS resets_before FROM labelam.avc_stats() \gset
ROLLBACK;
SELECT labelam.client_label();
-- a committed switch stays; the cache started over for the new label
SELECT labelam.check_access(labelam.client_label(),
	'system_u:object_r:sepgsql_table_t:s0', '{select}');
SELECT resets AS resets_before FROM labelam.avc_stats() \gset
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
SELECT labelam.client_label();
SELECT resets > :resets_before AS cache_reset FROM labelam.avc_stats();
-- and user_t cannot go back
SELECT labelam.set_client_label('user_u:user_r:sepgsql_ranged_proc_t:s0');
SELECT labelam.client_label();
-- not even through RESET ALL
RESET ALL;
SELECT labelam.client_label();
-- an unknown label is an error, not a switch
SELECT labelam.set_client_label('user_u:user_r:no_such_t:s0');

-- parallel workers decide with the session's label, which they get from
-- the leader (not from labelam.role_label, which says otherwise here)
\c - regress_avc_ranged
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM public.avc_par
	WHERE labelam.client_label() || g = 'user_u:user_r:user_t:s0' || g;
SELECT count(*) FROM public.avc_par
	WHERE labelam.client_label() || g = 'user_u:user_r:user_t:s0' || g;

\c - :regress_superuser
DELETE FROM labelam.role_label;
DROP TABLE public.avc_par;
DROP ROLE regress_avc_ranged, regress_avc_user;
