-- sql/57_shared_state.sql: Checked twins of the built-ins that show other sessions' state, of
-- pg_notify, and of the large-object functions that take an OID their
-- caller chooses (src/shared_state, doc/shared-state.md; lo_import's twin
-- is src/files', in 90_objects.sql): calls of the
-- built-ins are rewritten into calls of these when a query is planned.
-- Each is declared from its built-in's own catalog entry, so that its
-- arguments, result columns and properties are the built-in's on every
-- major (pg_stat_get_activity's columns differ between them); a built-in
-- this major lacks gets no twin.
DO $$
DECLARE
	twin record;
	b pg_proc;
BEGIN
	FOR twin IN SELECT * FROM (VALUES
		('pg_notify(text,text)', 'checked_pg_notify'),
		('pg_stat_get_activity(integer)', 'checked_pg_stat_get_activity'),
		('pg_stat_get_progress_info(text)', 'checked_pg_stat_get_progress_info'),
		('pg_lock_status()', 'checked_pg_lock_status'),
		('pg_prepared_xact()', 'checked_pg_prepared_xact'),
		('pg_stat_get_backend_activity(integer)', 'checked_pg_stat_get_backend_activity'),
		('pg_stat_get_backend_wait_event_type(integer)', 'checked_pg_stat_get_backend_wait_event_type'),
		('pg_stat_get_backend_wait_event(integer)', 'checked_pg_stat_get_backend_wait_event'),
		('pg_stat_get_backend_activity_start(integer)', 'checked_pg_stat_get_backend_activity_start'),
		('pg_stat_get_backend_xact_start(integer)', 'checked_pg_stat_get_backend_xact_start'),
		('pg_stat_get_backend_start(integer)', 'checked_pg_stat_get_backend_start'),
		('pg_stat_get_backend_client_addr(integer)', 'checked_pg_stat_get_backend_client_addr'),
		('pg_stat_get_backend_client_port(integer)', 'checked_pg_stat_get_backend_client_port'),
		('pg_stat_get_backend_subxact(integer)', 'checked_pg_stat_get_backend_subxact'),
		('pg_stat_get_backend_wal(integer)', 'checked_pg_stat_get_backend_wal'),
		('pg_get_aios()', 'checked_pg_get_aios'),
		('lo_create(oid)', 'checked_lo_create'),
		('lo_from_bytea(oid,bytea)', 'checked_lo_from_bytea')
	) AS t(builtin, name)
	LOOP
		SELECT * INTO b FROM pg_proc WHERE oid = to_regprocedure(twin.builtin);
		CONTINUE WHEN NOT FOUND;
		EXECUTE format('CREATE FUNCTION labelam.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s %s%s',
			twin.name, pg_get_function_arguments(b.oid),
			pg_get_function_result(b.oid), 'MODULE_PATHNAME',
			'labelam_' || b.proname,
			CASE WHEN b.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END,
			CASE b.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE'
				ELSE 'VOLATILE' END,
			CASE b.proparallel WHEN 's' THEN 'PARALLEL SAFE'
				WHEN 'r' THEN 'PARALLEL RESTRICTED' ELSE 'PARALLEL UNSAFE' END,
			CASE WHEN b.proretset THEN format(' ROWS %s', b.prorows) ELSE '' END);
	END LOOP;
END $$;
