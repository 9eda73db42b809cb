-- Session labels: labelam.role_label, set_client_label() checked by the
-- policy's process { setcurrent dyntransition }; one-way changes only where
-- no rollback can undo them, two-way changes transactional; no change with
-- open cursors.
SELECT current_user AS regress_superuser \gset
CREATE ROLE regress_avc_ranged LOGIN;
CREATE ROLE regress_avc_user LOGIN;
CREATE ROLE regress_avc_kernel LOGIN;
INSERT INTO labelam.role_label VALUES
	('regress_avc_ranged', 'user_u:user_r:sepgsql_ranged_proc_t:s0'),
	('regress_avc_user', 'user_u:user_r:user_t:s0'),
	('regress_avc_kernel', 'system_u:system_r:kernel_t:s0');
CREATE TABLE public.avc_par AS SELECT g FROM generate_series(1, 10000) g;
GRANT SELECT ON public.avc_par TO PUBLIC;
ANALYZE public.avc_par;
-- a plpgsql FOR loop changing the label while its portal is open
CREATE FUNCTION public.avc_loop() RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
	FOR r IN SELECT g FROM generate_series(1, 3) g LOOP
		PERFORM labelam.set_client_label('system_u:system_r:kernel_t:s0:c' || r.g);
	END LOOP;
END $$;
-- folded into a plan, it shows when the plan was made
CREATE FUNCTION public.avc_plan_label() RETURNS text IMMUTABLE LANGUAGE sql
	AS $$ SELECT labelam.client_label() $$;

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
-- sepgsql_ranged_proc_t may switch to user_t, which may not switch back:
-- where a rollback could undo the change, it is refused (25001)
BEGIN;
SELECT labelam.set_client_label('user_u:user_r:user_t:s0');
ROLLBACK;
SELECT labelam.client_label();
SELECT labelam.set_client_label('user_u:user_r:user_t:s0') \; SELECT 1;
SELECT labelam.client_label();
DO $$ BEGIN PERFORM labelam.set_client_label('user_u:user_r:user_t:s0'); END $$;
SELECT labelam.client_label();
-- a statement that makes it and fails rolls back with all it did (the
-- division fails only at the new label, 23 characters long)
SELECT labelam.set_client_label('user_u:user_r:user_t:s0'),
	1 / (length(labelam.client_label()) - 23);
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

-- kernel_t may switch between s0 and s0:c1 both ways: such a change is
-- transactional
\c - regress_avc_kernel
BEGIN;
SELECT labelam.set_client_label('system_u:system_r:kernel_t:s0:c1');
SELECT labelam.client_label();
ROLLBACK;
SELECT labelam.client_label();
BEGIN;
SAVEPOINT a;
SELECT labelam.set_client_label('system_u:system_r:kernel_t:s0:c1');
ROLLBACK TO a;
SELECT labelam.client_label();
COMMIT;
-- no change while a cursor is open, held or not, visible or not
DECLARE c CURSOR WITH HOLD FOR SELECT 1;
SELECT labelam.set_client_label('system_u:system_r:kernel_t:s0:c1');
CLOSE c;
\set VERBOSITY sqlstate
SELECT public.avc_loop();
\set VERBOSITY default
SELECT labelam.client_label();
-- cached plans are made again after a change
SET plan_cache_mode = force_generic_plan;
PREPARE p AS SELECT public.avc_plan_label();
EXECUTE p;
SELECT labelam.set_client_label('system_u:system_r:kernel_t:s0:c1');
EXECUTE p;
DEALLOCATE p;
RESET plan_cache_mode;

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
DROP FUNCTION public.avc_loop(), public.avc_plan_label();
DROP ROLE regress_avc_ranged, regress_avc_user, regress_avc_kernel;
