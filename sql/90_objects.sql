-- sql/90_objects.sql: Database objects (src/objects): contrib/sepgsql's SQL functions under its
-- names, and the labels of labelam's own configuration tables.

CREATE FUNCTION pg_catalog.sepgsql_getcon() RETURNS text
	AS 'MODULE_PATHNAME', 'sepgsql_getcon' LANGUAGE C STABLE;
CREATE FUNCTION pg_catalog.sepgsql_setcon(text) RETURNS bool
	AS 'MODULE_PATHNAME', 'sepgsql_setcon' LANGUAGE C VOLATILE;
CREATE FUNCTION pg_catalog.sepgsql_mcstrans_in(text) RETURNS text
	AS 'MODULE_PATHNAME', 'sepgsql_mcstrans_in' LANGUAGE C STRICT;
CREATE FUNCTION pg_catalog.sepgsql_mcstrans_out(text) RETURNS text
	AS 'MODULE_PATHNAME', 'sepgsql_mcstrans_out' LANGUAGE C STRICT;
CREATE FUNCTION pg_catalog.sepgsql_restorecon(text) RETURNS bool
	AS 'MODULE_PATHNAME', 'sepgsql_restorecon' LANGUAGE C;

-- labelam's configuration decides who is who (role_label) and what labels
-- exist (pg_security, table_labels): a label that only the policy's
-- administrators may change (sepgsql_secret_table_t: clients may only
-- getattr), so that a superuser at an ordinary label cannot give itself
-- another label.  Policies without that type keep the defaults (WARNING);
-- the lbac provider labels no objects (doc/lbac.md): nothing to do.
DO $$
DECLARE
	admin_only CONSTANT text := 'system_u:object_r:sepgsql_secret_table_t:s0';
	t text;
BEGIN
	IF current_setting('labelam.provider') = 'lbac' THEN
		RETURN;
	END IF;
	PERFORM labelam.check_label(admin_only);
	FOREACH t IN ARRAY ARRAY['labelam.role_label', 'labelam.pg_security',
							 'labelam.table_labels']
	LOOP
		EXECUTE format('SECURITY LABEL FOR selinux ON TABLE %s IS %L', t, admin_only);
	END LOOP;
EXCEPTION WHEN invalid_parameter_value THEN
	RAISE WARNING 'the policy in force has no label "%"', admin_only
		USING DETAIL = 'labelam''s configuration tables keep their default labels.';
END
$$;

-- Checked twins of the built-ins that reach a sequence or a large object
-- named by their argument (src/objects/functions.c): calls of the built-ins
-- are rewritten into calls of these when a query is planned.  Same
-- signatures, results and properties as the built-ins.
CREATE FUNCTION labelam.checked_nextval(regclass) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_nextval' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_currval(regclass) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_currval' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_setval(regclass, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_setval' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_setval(regclass, bigint, boolean) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_setval' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lastval() RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_lastval' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_pg_sequence_last_value(regclass) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_sequence_last_value' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_open(oid, integer) RETURNS integer
	AS 'MODULE_PATHNAME', 'labelam_lo_open' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_get(oid) RETURNS bytea
	AS 'MODULE_PATHNAME', 'labelam_lo_get' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_get(oid, bigint, integer) RETURNS bytea
	AS 'MODULE_PATHNAME', 'labelam_lo_get' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_put(oid, bigint, bytea) RETURNS void
	AS 'MODULE_PATHNAME', 'labelam_lo_put' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
-- lo_import and lo_export: src/files/large_objects.c (the file's label)
CREATE FUNCTION labelam.checked_lo_import(text) RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_lo_import' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_import(text, oid) RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_lo_import' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_lo_export(oid, text) RETURNS integer
	AS 'MODULE_PATHNAME', 'labelam_lo_export' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
-- Who may call them is who may call the built-in: each twin checks EXECUTE
-- on it (and the policy's db_procedure execute on its label).
