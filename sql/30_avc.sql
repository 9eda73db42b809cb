/* sql/30_avc.sql: labelam extension script: policy providers, decision cache, client labels */

-- Security label of sessions of a role (when the connection has no SELinux
-- peer context).  Read at connection time, so changes apply to new sessions.
-- Always heap: it is read before the session has a label.
CREATE TABLE labelam.role_label (
	role regrole PRIMARY KEY,
	label text NOT NULL
) USING heap;
REVOKE ALL ON labelam.role_label FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('labelam.role_label', '');

-- PARALLEL RESTRICTED: under lbac a parallel worker knows the model of its
-- session's role only, and a subject may name another role
CREATE FUNCTION labelam.check_access(subject text, object text, perms text[])
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'labelam_check_access'
	LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION labelam.check_access(text, text, text[]) IS
	'does subject hold every db_tuple permission in perms on rows labeled object?';

CREATE FUNCTION labelam.check_relabel(subject text, from_label text,
									  to_label text)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'labelam_check_relabel'
	LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION labelam.check_relabel(text, text, text) IS
	'may subject change a row''s label from from_label to to_label, besides relabelfrom and relabelto on each? (true unless the provider has a rule on the pair: lbac)';

CREATE FUNCTION labelam.compute_create(subject text, parent text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_compute_create'
	LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION labelam.compute_create(text, text) IS
	'label of a row that subject creates in a table labeled parent';

CREATE FUNCTION labelam.check_row_access(secid oid, perms text[])
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'labelam_check_row_access'
	LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION labelam.check_row_access(oid, text[]) IS
	'does this session hold every db_tuple permission in perms on rows labeled secid? (audited)';

CREATE FUNCTION labelam.create_row_label(table_secid oid)
	RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_create_row_label'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION labelam.create_row_label(oid) IS
	'secid of the label this session gives a new row in a table labeled table_secid';

-- mode: 'enforcing' or 'permissive' (labelam.enforcing off, or the
-- kernel's permissive mode); rejected: why the newest policy file this
-- session saw was not loaded (NULL when the policy in force is the newest)
CREATE FUNCTION labelam.policy_info(OUT provider text, OUT policy text,
									OUT seqno bigint, OUT mls boolean,
									OUT mode text, OUT rejected text,
									OUT rejected_at timestamptz)
	AS 'MODULE_PATHNAME', 'labelam_policy_info'
	LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

CREATE FUNCTION labelam.avc_stats(OUT hits bigint, OUT misses bigint,
								  OUT resets bigint, OUT entries bigint)
	AS 'MODULE_PATHNAME', 'labelam_avc_stats'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

-- every session's decisions counted: superusers only, unless granted
CREATE FUNCTION labelam.shared_decisions(OUT capacity int, OUT entries bigint,
										 OUT hits bigint, OUT computed bigint,
										 OUT resets bigint)
	AS 'MODULE_PATHNAME', 'labelam_shared_decisions'
	LANGUAGE C STRICT VOLATILE PARALLEL SAFE;
REVOKE ALL ON FUNCTION labelam.shared_decisions() FROM PUBLIC;

CREATE FUNCTION labelam.client_label()
	RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_client_label'
	LANGUAGE C STRICT STABLE PARALLEL SAFE;

CREATE FUNCTION labelam.set_client_label(label text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_set_client_label'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;

-- for bench/avc_cache.sh: seconds taken by n decisions of the session's
-- label on the objects in turn, through the row filter's path
CREATE FUNCTION labelam._avc_bench(objects text[], n bigint,
								   misses boolean DEFAULT false)
	RETURNS double precision
	AS 'MODULE_PATHNAME', 'labelam_avc_bench'
	LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
REVOKE ALL ON FUNCTION labelam._avc_bench(text[], bigint, boolean) FROM PUBLIC;

-- What the policy denied, across all backends, since the last reset
-- (src/avc/denials.c).  It names labels of rows and sessions beyond the
-- reader's reach and relations of every database: superusers only, unless
-- granted.
CREATE FUNCTION labelam.denials(
		OUT database text, OUT subject text, OUT object text,
		OUT class text, OUT perms text[], OUT relation text,
		OUT count bigint, OUT first_seen timestamptz,
		OUT last_seen timestamptz, OUT permissive boolean,
		OUT constrained text[], OUT truncated boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'labelam_denials'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION labelam.denials() FROM PUBLIC;
COMMENT ON FUNCTION labelam.denials() IS
	'distinct denials of every backend since labelam.reset_denials(): denied permissions, how many decisions, when';

CREATE VIEW labelam.denials AS SELECT * FROM labelam.denials();
REVOKE ALL ON labelam.denials FROM PUBLIC;

CREATE FUNCTION labelam.reset_denials()
	RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_reset_denials'
	LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION labelam.reset_denials() FROM PUBLIC;
COMMENT ON FUNCTION labelam.reset_denials() IS
	'forgets the summary of denials (logged); returns how many distinct denials it held';

CREATE FUNCTION labelam.denials_as_policy(module text DEFAULT NULL)
	RETURNS text
	AS 'MODULE_PATHNAME', 'labelam_denials_as_policy'
	LANGUAGE C VOLATILE PARALLEL RESTRICTED;
REVOKE ALL ON FUNCTION labelam.denials_as_policy(text) FROM PUBLIC;
COMMENT ON FUNCTION labelam.denials_as_policy(text) IS
	'the summarized denials as SELinux allow rules (audit2allow); with a module name, a module for checkmodule';
