/* sql/60_lbac.sql: labelam extension script: the lbac provider's label model (src/lbac) */

-- The model of labelam.provider = lbac: Oracle Label Security's levels,
-- compartments and groups, and each role's authorization.  Only lbac's
-- functions write these tables (src/lbac/admin.c), and only for the
-- model's administrators: INSERT, UPDATE, DELETE, COPY FROM, TRUNCATE and
-- ALTER are refused to everyone, superusers included (src/lbac/guard.c).
-- Everyone may read them, as PostgreSQL's catalogs.  USING heap: the
-- server may run with default_table_access_method = labelheap.
CREATE SCHEMA lbac;
GRANT USAGE ON SCHEMA lbac TO PUBLIC;
COMMENT ON SCHEMA lbac IS
	'the label model of labelam.provider = lbac (Oracle Label Security semantics)';

-- levels: a higher num is more sensitive
CREATE TABLE lbac.levels (
	num integer PRIMARY KEY,
	short_name text COLLATE "C" NOT NULL UNIQUE,
	long_name text
) USING heap;

-- compartments: labels list them in num order
CREATE TABLE lbac.compartments (
	num integer PRIMARY KEY,
	short_name text COLLATE "C" NOT NULL UNIQUE,
	long_name text
) USING heap;

-- groups: a tree (parent_num); holding a group grants the groups below it
CREATE TABLE lbac.groups (
	num integer PRIMARY KEY,
	short_name text COLLATE "C" NOT NULL UNIQUE,
	long_name text,
	parent_num integer
) USING heap;

-- one row a role (SA_USER_ADMIN's authorizations), components by num;
-- levels are NULL until lbac.set_levels
CREATE TABLE lbac.authorizations (
	role regrole PRIMARY KEY,
	max_level integer,
	min_level integer,
	def_level integer,
	row_level integer,
	read_comps integer[] NOT NULL,
	write_comps integer[] NOT NULL,
	def_comps integer[] NOT NULL,
	row_comps integer[] NOT NULL,
	read_groups integer[] NOT NULL,
	write_groups integer[] NOT NULL,
	def_groups integer[] NOT NULL,
	row_groups integer[] NOT NULL,
	privileges text[] NOT NULL
) USING heap;

-- who changes the model: at first the role that created the extension
CREATE TABLE lbac.administrators (
	role regrole PRIMARY KEY
) USING heap;
INSERT INTO lbac.administrators VALUES (current_user::regrole);

GRANT SELECT ON lbac.levels, lbac.compartments, lbac.groups,
	lbac.authorizations, lbac.administrators TO PUBLIC;

-- the authorizations with names instead of numbers
CREATE VIEW lbac.user_authorizations AS
SELECT a.role,
	(SELECT short_name FROM lbac.levels WHERE num = a.max_level) AS max_level,
	(SELECT short_name FROM lbac.levels WHERE num = a.min_level) AS min_level,
	(SELECT short_name FROM lbac.levels WHERE num = a.def_level) AS def_level,
	(SELECT short_name FROM lbac.levels WHERE num = a.row_level) AS row_level,
	ARRAY(SELECT short_name FROM lbac.compartments
		  WHERE num = ANY (a.read_comps) ORDER BY num) AS read_compartments,
	ARRAY(SELECT short_name FROM lbac.compartments
		  WHERE num = ANY (a.write_comps) ORDER BY num) AS write_compartments,
	ARRAY(SELECT short_name FROM lbac.compartments
		  WHERE num = ANY (a.def_comps) ORDER BY num) AS def_compartments,
	ARRAY(SELECT short_name FROM lbac.compartments
		  WHERE num = ANY (a.row_comps) ORDER BY num) AS row_compartments,
	ARRAY(SELECT short_name FROM lbac.groups
		  WHERE num = ANY (a.read_groups) ORDER BY num) AS read_groups,
	ARRAY(SELECT short_name FROM lbac.groups
		  WHERE num = ANY (a.write_groups) ORDER BY num) AS write_groups,
	ARRAY(SELECT short_name FROM lbac.groups
		  WHERE num = ANY (a.def_groups) ORDER BY num) AS def_groups,
	ARRAY(SELECT short_name FROM lbac.groups
		  WHERE num = ANY (a.row_groups) ORDER BY num) AS row_groups,
	a.privileges
FROM lbac.authorizations a;
GRANT SELECT ON lbac.user_authorizations TO PUBLIC;

-- components
CREATE FUNCTION lbac.create_level(short_name text, num integer,
								  long_name text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_create_level'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.create_compartment(short_name text, num integer,
										long_name text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_create_compartment'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.create_group(short_name text, num integer,
								  long_name text DEFAULT NULL,
								  parent text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_create_group'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.drop_level(short_name text)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_drop_level'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.drop_compartment(short_name text)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_drop_compartment'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.drop_group(short_name text)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_drop_group'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
-- NULL leaves a field as it is; '' removes the long name, or the parent
CREATE FUNCTION lbac.alter_level(short_name text,
								 new_short_name text DEFAULT NULL,
								 new_num integer DEFAULT NULL,
								 new_long_name text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_alter_level'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.alter_compartment(short_name text,
									   new_short_name text DEFAULT NULL,
									   new_num integer DEFAULT NULL,
									   new_long_name text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_alter_compartment'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.alter_group(short_name text,
								 new_short_name text DEFAULT NULL,
								 new_num integer DEFAULT NULL,
								 new_long_name text DEFAULT NULL,
								 new_parent text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_alter_group'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- authorizations (lists: short names separated by commas, '' for none)
CREATE FUNCTION lbac.set_levels(role name, max_level text,
								min_level text DEFAULT NULL,
								def_level text DEFAULT NULL,
								row_level text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_set_levels'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.set_compartments(role name, read_comps text,
									  write_comps text DEFAULT NULL,
									  def_comps text DEFAULT NULL,
									  row_comps text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_set_compartments'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.set_groups(role name, read_groups text,
								write_groups text DEFAULT NULL,
								def_groups text DEFAULT NULL,
								row_groups text DEFAULT NULL)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_set_groups'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.grant_privileges(role name, privileges text)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_grant_privileges'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.revoke_privileges(role name, privileges text)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_revoke_privileges'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.drop_authorization(role name)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_drop_authorization'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.grant_administration(role name)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_grant_administration'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.revoke_administration(role name)
	RETURNS void AS 'MODULE_PATHNAME', 'lbac_revoke_administration'
	LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- labels (labelam.provider = lbac)
CREATE FUNCTION lbac.dominates(a text, b text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'lbac_dominates_sql'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION lbac.strictly_dominates(a text, b text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'lbac_strictly_dominates_sql'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION lbac.least_ubound(a text, b text) RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_least_ubound'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION lbac.greatest_lbound(a text, b text) RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_greatest_lbound'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
CREATE FUNCTION lbac.canonical(label text) RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_canonical'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;
COMMENT ON FUNCTION lbac.canonical(text) IS
	'the one text of a label''s meaning, as labelam.pg_security stores it';

-- the session
CREATE FUNCTION lbac.session_label() RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_session_label'
	LANGUAGE C STABLE PARALLEL SAFE;
CREATE FUNCTION lbac.set_session_label(label text) RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_set_session_label'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION lbac.set_access_profile(role name) RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_set_access_profile'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

-- decisions for a role at a session label, through the decision cache (the
-- subject labelam.check_access takes: 'LABEL;role=OID')
CREATE FUNCTION lbac.check_access(role name, session_label text,
								  row_label text, perms text[])
	RETURNS boolean LANGUAGE sql STRICT STABLE PARALLEL RESTRICTED
	SET search_path = pg_catalog, pg_temp
	AS $$SELECT labelam.check_access(
		session_label || ';role=' || quote_ident(role)::regrole::oid,
		row_label, perms)$$;
CREATE FUNCTION lbac.check_relabel(role name, session_label text,
								   from_label text, to_label text)
	RETURNS boolean LANGUAGE sql STRICT STABLE PARALLEL RESTRICTED
	SET search_path = pg_catalog, pg_temp
	AS $$SELECT labelam.check_relabel(
		session_label || ';role=' || quote_ident(role)::regrole::oid,
		from_label, to_label)$$;

CREATE FUNCTION lbac.dump_model() RETURNS text
	AS 'MODULE_PATHNAME', 'lbac_dump_model'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION lbac.dump_model() IS
	'the lbac model as calls of lbac''s functions, to create it again in another database';
