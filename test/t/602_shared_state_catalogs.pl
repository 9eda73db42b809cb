# test/t/602_shared_state_catalogs.pl -- write-down through the system
# catalogs (issue 38), which every session of the database reads: Trojan
# triggers an s0 administrator planted make an s3 session that only
# inserts create a temporary table, type, function, view or sequence
# named after (or holding) the row, comment on a table, grant a privilege
# chosen by the row, set a role's or the database's settings, create a
# role, or create large objects whose OID encodes it; an s3 administrator
# creates a schema, or, from a database at s3, runs ALTER SYSTEM.  Design (src/shared_state/catalogs.c): with object
# checks on, catalog writes need db_database { set_param } or { setattr }
# on the database (under MLS: the session at the database's level), on
# every database for the shared catalogs; large objects may be created
# at any level, with OIDs the server chooses.  Controls: the same Trojans
# work at s0, and an s3 session still creates large objects and writes
# rows.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;
use LabelamShared;

my $node = shared_node('catalogs');
$node->safe_psql('postgres', q{
	CREATE ROLE a_s3 LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES ('a_s3', 'staff_u:sysadm_r:sysadm_t:s3');
	CREATE TABLE target (a int);
	GRANT SELECT ON target TO PUBLIC;
});

# each Trojan: a trigger on its own labelheap table running $body with
# NEW.v (and NEW.id); SECURITY DEFINER (the administrator) where the
# statement needs the administrator's ownership or privileges
my %trojan = (
	temp_table => [0, q{EXECUTE format('CREATE TEMP TABLE %I (a int)', NEW.v)}],
	temp_type => [0, q{EXECUTE format('CREATE TYPE pg_temp.%I AS (a int)', NEW.v)}],
	temp_function => [0, q{EXECUTE format('CREATE FUNCTION pg_temp.f() RETURNS text LANGUAGE sql AS %L', 'SELECT ' || quote_literal(NEW.v))}],
	temp_view => [0, q{EXECUTE format('CREATE TEMP VIEW v AS SELECT %L AS x', NEW.v)}],
	temp_sequence => [0, q{EXECUTE format('CREATE TEMP SEQUENCE s START %s', NEW.id * 1000 + 7)}],
	role_setting => [0, q{EXECUTE format('ALTER ROLE CURRENT_USER SET application_name = %L', NEW.v)}],
	comment => [1, q{EXECUTE format('COMMENT ON TABLE target IS %L', NEW.v)}],
	grant => [1, q{EXECUTE format('GRANT INSERT ON target TO %I', CASE WHEN length(NEW.v) % 2 = 0 THEN 'r_s1' ELSE 'r_s3b' END)}],
	database_setting => [1, q{EXECUTE format('ALTER DATABASE postgres SET application_name = %L', NEW.v)}],
	create_role => [1, q{EXECUTE format('CREATE ROLE %I', NEW.v)}],
	large_object => [0, q{PERFORM lo_create(NEW.id * 1000 + 7)}],
	large_object_bytea => [0, q{PERFORM lo_from_bytea(NEW.id * 1000 + 8, convert_to(NEW.v, 'UTF8'))}],
);
for my $t (sort keys %trojan)
{
	my ($definer, $body) = @{ $trojan{$t} };
	my $sd = $definer ? 'SECURITY DEFINER' : '';
	$node->safe_psql('postgres', qq{
		CREATE FUNCTION trojan_$t() RETURNS trigger LANGUAGE plpgsql $sd
			AS \$\$ BEGIN $body; RETURN NEW; END \$\$;
		CREATE TABLE in_$t (id int, v text) USING labelheap;
		CREATE TRIGGER t AFTER INSERT ON in_$t FOR EACH ROW EXECUTE FUNCTION trojan_$t();
		GRANT ALL ON in_$t TO PUBLIC;
	});
}

# everything s0 can read of the catalogs the Trojans aim at
my $catalogs = q{
	SELECT string_agg(relname, ',') FROM pg_class;
	SELECT string_agg(typname, ',') FROM pg_type;
	SELECT string_agg(prosrc, ',') FROM pg_proc WHERE proname = 'f';
	SELECT string_agg(pg_get_viewdef(oid), ',') FROM pg_class WHERE relname = 'v';
	SELECT string_agg(start_value::text, ',') FROM pg_sequences;
	SELECT string_agg(array_to_string(setconfig, ','), ';') FROM pg_db_role_setting;
	SELECT obj_description('target'::regclass, 'pg_class');
	SELECT relacl FROM pg_class WHERE relname = 'target';
	SELECT string_agg(rolname, ',') FROM pg_roles;
	SELECT string_agg(oid::text, ',') FROM pg_largeobject_metadata;
};
sub catalogs_as_s0 { return as_role($node, 'r_s0', $catalogs); }
my $before = catalogs_as_s0();

my ($rc, $out, $err);
for my $t (sort keys %trojan)
{
	($rc, $out, $err) = run($node, 'r_s3', "INSERT INTO in_$t VALUES (31, 'SECRET-s3-$t')");
	like($err, qr/ERROR:  42501: permission denied to .* at this security label/,
		"attack: a Trojan trigger's $t in an s3 session is refused");
}
like($err, qr/DETAIL:  Every session of database "postgres" reads its catalogs, so they may be written only by a session that the policy lets change the database \(db_database \{ set_param \} or \{ setattr \}\)\./,
	'... saying why');
my $after = catalogs_as_s0();
no_leak('s0', 'attack: s0 reads nothing of them in the catalogs', $after);
is($after, $before, '... which are as they were');

# the same Trojan catching the refusal, so that the insert commits
$node->safe_psql('postgres', q{
	CREATE FUNCTION trojan_quiet() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		BEGIN
			EXECUTE format('CREATE TEMP TABLE %I (a int)', NEW.v);
		EXCEPTION WHEN insufficient_privilege THEN NULL;
		END;
		RETURN NEW;
	END $$;
	CREATE TABLE in_quiet (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_quiet FOR EACH ROW EXECUTE FUNCTION trojan_quiet();
	GRANT ALL ON in_quiet TO PUBLIC;
});
($rc, $out, $err) = run($node, 'r_s3', q{INSERT INTO in_quiet VALUES (31, 'SECRET-s3-quiet')});
is($err, '', 'a Trojan that catches the refusal lets the insert commit');
no_leak('s0', 'attack: ... and s0 reads nothing in pg_class', catalogs_as_s0());

# the s3 session itself, and an s3 administrator
for my $ddl (q{CREATE TEMP TABLE "SECRET-s3-direct" (a int)},
	q{DO $$ BEGIN EXECUTE 'CREATE TEMP TABLE "SECRET-s3-do" (a int)'; END $$},
	q{ALTER ROLE r_s3 SET search_path = "SECRET-s3-path"},
	q{SELECT lo_from_bytea(31009, 'SECRET-s3-lo')},
	q{SELECT lo_create(31011)})
{
	($rc, $out, $err) = run($node, 'r_s3', $ddl);
	denied($err, "attack: the s3 session runs $ddl");
}
for my $ddl (q{CREATE SCHEMA "SECRET-s3-schema"},
	q{COMMENT ON DATABASE postgres IS 'SECRET-s3-dbcomment'},
	q{CREATE ROLE "SECRET-s3-role"},
	q{GRANT r_s1 TO r_s3b},
	q{SELECT lo_import('/dev/null', 31010)},
	q{CREATE TABLESPACE "SECRET-s3-ts" LOCATION '/nonexistent'})
{
	($rc, $out, $err) = run($node, 'a_s3', $ddl);
	denied($err, "attack: an s3 administrator runs $ddl");
}
no_leak('s0', 'attack: none of it reaches the catalogs', catalogs_as_s0(),
	as_role($node, 'r_s0', q{SELECT string_agg(nspname, ',') FROM pg_namespace;
		SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = 'postgres';
		SELECT string_agg(roleid::regrole || '>' || member::regrole, ',') FROM pg_auth_members}));

# controls: at the database's level the same Trojans work; an s3 session
# still creates large objects (OIDs the server chooses) and writes rows
($rc, $out, $err) = run($node, 'r_s0', q{INSERT INTO in_temp_table VALUES (1, 'public-s0-temp')});
is($err, '', 'control: the temporary-table Trojan works in an s0 session');
$node->safe_psql('postgres', q{INSERT INTO in_comment VALUES (1, 'public-s0-comment')},
	extra_params => [ '-U', 'r_s0' ]);
is(as_role($node, 'r_s3', q{SELECT obj_description('target'::regclass, 'pg_class')}), 'public-s0-comment',
	'control: the comment Trojan works in an s0 session, and s3 reads the comment');
my $lo = as_role($node, 'r_s3', q{SELECT lo_from_bytea(0, 'SECRET-s3-lo0')});
ok($lo > 0, 'control: an s3 session creates a large object with an OID the server chooses');
like(as_role($node, 'r_s3', qq{SELECT label FROM pg_seclabel WHERE objoid = $lo}), qr/:s3$/,
	'... labeled at s3');
($rc, $out, $err) = run($node, 'r_s0', qq{SELECT lo_get($lo)});
denied($err, '... which s0 may not read');
$node->safe_psql('postgres', q{ALTER DATABASE postgres SET work_mem = '5MB'; ALTER DATABASE postgres RESET work_mem});
pass('control: the s0 administrator changes a shared catalog');
($rc, $out, $err) = run($node, 'r_s0', q{ALTER ROLE r_s0 SET application_name = 'public-s0-app'});
is($err, '', 'control: an s0 session sets its role\'s settings');

# ALTER SYSTEM writes postgresql.auto.conf, which every session of every
# database reads after a reload: decided before the file is written, as a
# write of the catalogs all databases share (catalogs.c).  A database at
# s3 lets an s3 administrator pass the object check of its own database
# (db_database set_param there); the file is what s0 sessions of
# postgres read.
my $auto_conf = $node->data_dir . '/postgresql.auto.conf';
$node->safe_psql('postgres', q{ALTER SYSTEM SET application_name = 'public-s0-sys'});
like(slurp_file($auto_conf), qr/public-s0-sys/,
	'control: the s0 administrator runs ALTER SYSTEM while every database is at s0');
$node->safe_psql('postgres', q{ALTER SYSTEM RESET application_name});
$node->append_conf('postgresql.conf', 'labelam.object_checks = off');
$node->reload;
$node->safe_psql('postgres', q{CREATE DATABASE db_s3});
$node->safe_psql('postgres', q{SECURITY LABEL FOR selinux ON DATABASE db_s3 IS 'system_u:object_r:sepgsql_db_t:s3'});
$node->safe_psql('db_s3', q{
	CREATE EXTENSION labelam;
	INSERT INTO labelam.role_label VALUES ('a_s3', 'staff_u:sysadm_r:sysadm_t:s3');
});
$node->append_conf('postgresql.conf', 'labelam.object_checks = on');
$node->reload;
($rc, $out, $err) = $node->psql('db_s3', q{CREATE SCHEMA here;
	SELECT current_setting('labelam.session_label') || ' ' || count(*)
	  FROM pg_namespace WHERE nspname = 'here'},
	extra_params => [ '-U', 'a_s3', '-v', 'VERBOSITY=verbose', '-v', 'ON_ERROR_STOP=1' ]);
is($out, 'staff_u:sysadm_r:sysadm_t:s3 1', 'control: the s3 administrator writes the catalogs of a database at s3')
  or diag($err);
# search_path, which no client sets at connection (psql sends its own
# application_name, which would hide the server's default after a reload)
($rc, $out, $err) = $node->psql('db_s3', q{ALTER SYSTEM SET search_path = 'SECRET-s3-sys'},
	extra_params => [ '-U', 'a_s3', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied to change the server's configuration at this security label/,
	'attack: ALTER SYSTEM by the s3 administrator from the s3 database is refused');
no_leak('s0', '... before postgresql.auto.conf is written', slurp_file($auto_conf));
$node->reload;
no_leak('s0', '... and s0 sessions read nothing of it after a reload',
	as_role($node, 'r_s0', q{SHOW search_path}));

$node->stop;
done_testing();
