# test/t/500_objects_mls.pl -- database objects under Debian's MLS policy
# (issue 11): no write-down into heap tables, sequences or large objects;
# a Trojan-horse trigger cannot copy the rows it fires on into a lower
# table; a trusted procedure computes over rows its caller may not select;
# column-level select denial; DDL denials, superusers included; labelam's
# own configuration tables only for the administrator.  Each denial is
# 42501 naming the class, the permissions and the object.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $node = attack_node('objects', q{
labelam.audit = 'denied'
}, objects => 1);

# the bootstrap superuser is the administrator staff_u:sysadm_r:sysadm_t:s0
$node->safe_psql('postgres', q{
	CREATE ROLE a_s3 LOGIN SUPERUSER;
	CREATE ROLE su_staff LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('a_s3', 'staff_u:sysadm_r:sysadm_t:s3'),
		('su_staff', 'staff_u:staff_r:staff_t:s0');

	CREATE TABLE low_heap (id int, v text);
	CREATE SEQUENCE low_seq;
	GRANT ALL ON low_heap, low_seq TO PUBLIC;

	-- a Trojan horse: a low owner's trigger copying what it fires on
	CREATE TABLE inbox (id int, v text) USING labelheap;
	CREATE TABLE leak (v text);
	CREATE FUNCTION copy_out() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN INSERT INTO leak VALUES (NEW.v); RETURN NEW; END $$;
	CREATE TRIGGER inbox_copy AFTER INSERT ON inbox
		FOR EACH ROW EXECUTE FUNCTION copy_out();
	GRANT ALL ON inbox, leak TO PUBLIC;

	-- rows of a type clients may not select, and a trusted procedure
	CREATE TABLE payroll (name text, salary int) USING labelheap;
	SECURITY LABEL FOR selinux ON TABLE payroll
		IS 'system_u:object_r:sepgsql_secret_table_t:s0';
	INSERT INTO payroll VALUES ('a', 100), ('b', 200);
	CREATE FUNCTION total_pay() RETURNS bigint LANGUAGE sql
		AS 'SELECT sum(salary) FROM payroll';
	CREATE FUNCTION total_pay_untrusted() RETURNS bigint LANGUAGE sql
		AS 'SELECT sum(salary) FROM payroll';
	SECURITY LABEL FOR selinux ON FUNCTION total_pay()
		IS 'system_u:object_r:sepgsql_trusted_proc_exec_t:s0';
	GRANT ALL ON payroll TO PUBLIC;

	-- a column only the administrator may select
	CREATE TABLE staffdir (name text, phone text, ssn text);
	SECURITY LABEL FOR selinux ON COLUMN staffdir.ssn
		IS 'system_u:object_r:sepgsql_secret_table_t:s0';
	INSERT INTO staffdir VALUES ('a', '555-0100', '078-05-1120');
	GRANT ALL ON staffdir TO PUBLIC;

	SELECT lo_create(4200);
	GRANT ALL ON LARGE OBJECT 4200 TO PUBLIC;
});

my ($rc, $out, $err);

# new objects carry labels (type_transition from the creator at its level)
is($node->safe_psql('postgres', q{
	SELECT label FROM pg_seclabel WHERE objoid = 'low_heap'::regclass AND objsubid = 0}),
	'staff_u:object_r:sepgsql_table_t:s0', 'a new table is labeled at its creator\'s level');

# --- write-down into a heap table
($rc, $out, $err) = run($node, 'r_s3', 'INSERT INTO low_heap VALUES (3, \'SECRET-s3-1\')');
denied($err, 's3 cannot insert into an s0 heap table');
like($err, qr/DETAIL:  The security policy does not allow db_table \{ insert \} on public\.low_heap labeled "staff_u:object_r:sepgsql_table_t:s0" to "staff_u:staff_r:staff_t:s3"\./,
	'the denial names class, permission, object and labels');
($rc, $out, $err) = run($node, 'r_s3', 'UPDATE low_heap SET v = \'SECRET-s3-2\'');
denied($err, 's3 cannot update an s0 heap table');
($rc, $out, $err) = run($node, 'r_s3', 'CREATE TABLE IF NOT EXISTS x AS SELECT 1');
denied($err, 's3 (staff) cannot create tables');
is($node->safe_psql('postgres', 'INSERT INTO low_heap VALUES (0, \'public-s0-1\') RETURNING id',
	extra_params => [ '-U', 'r_s0' ]), '0', 's0 inserts into its own level');
is($node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM low_heap',
	extra_params => [ '-U', 'r_s3' ]), 'public-s0-1', 's3 reads down');
($rc, $out, $err) = run($node, 'r_s3', 'COPY low_heap FROM STDIN');
denied($err, 's3 cannot COPY into an s0 heap table');

# --- Trojan horse: the trigger runs as the session that fires it
($rc, $out, $err) = run($node, 'r_s3', 'INSERT INTO inbox VALUES (3, \'SECRET-s3-3\')');
denied($err, 'a trigger cannot copy an s3 row into an s0 table');
like($err, qr/db_table \{ insert \} on public\.leak/, '... the copy is what is denied');
is($node->safe_psql('postgres', 'SELECT count(*) FROM leak'), '0', 'nothing reached the low table');
is($node->safe_psql('postgres', 'SELECT count(*) FROM inbox', extra_params => [ '-U', 'a_s3' ]),
	'0', 'the s3 row was rolled back with its copy');
$node->safe_psql('postgres', 'INSERT INTO inbox VALUES (1, \'public-s0-2\')',
	extra_params => [ '-U', 'r_s0' ]);
is($node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM leak'), 'public-s0-2',
	'the same trigger works at the table\'s level');

# --- sequences: reading down is allowed, changing a lower one is not
is($node->safe_psql('postgres', 'SELECT last_value FROM low_seq', extra_params => [ '-U', 'r_s3' ]),
	'1', 's3 reads an s0 sequence (get_value)');
($rc, $out, $err) = run($node, 'a_s3', 'ALTER SEQUENCE low_seq RESTART WITH 100');
denied($err, 'an s3 administrator cannot alter an s0 sequence');
like($err, qr/db_sequence \{ setattr \} on public\.low_seq/, '... db_sequence setattr');
$node->safe_psql('postgres', 'ALTER SEQUENCE low_seq RESTART WITH 100');
($rc, $out, $err) = run($node, 'a_s3', 'DROP SEQUENCE low_seq');
denied($err, 'an s3 administrator cannot drop an s0 sequence');

# --- large objects: labeled at creation, no drop or relabel across levels
# (a_s3 and the s0 administrator are superusers: ownership is no obstacle)
my $lo3 = $node->safe_psql('postgres', 'SELECT lo_create(0)', extra_params => [ '-U', 'r_s3' ]);
like($node->safe_psql('postgres', "SELECT label FROM pg_seclabel WHERE classoid = 'pg_largeobject'::regclass AND objoid = $lo3"),
	qr/:s3$/, 'a large object is labeled at its creator\'s level');
($rc, $out, $err) = run($node, 'a_s3', 'SELECT lo_unlink(4200)');
denied($err, 'an s3 administrator cannot drop an s0 large object');
like($err, qr/db_blob \{ drop \}/, '... db_blob drop');
($rc, $out, $err) = run($node, undef, "SELECT lo_unlink($lo3)");
denied($err, 'the s0 administrator cannot drop an s3 large object');
($rc, $out, $err) = run($node, 'a_s3',
	q{SECURITY LABEL FOR selinux ON LARGE OBJECT 4200 IS 'system_u:object_r:sepgsql_blob_t:s3'});
denied($err, 'nor can an s3 administrator relabel an s0 one');

# --- the built-in sequence and large-object functions, decided per object
# (at s3 nothing can be added to the catalogs: an administrator whose
# range reaches s3 makes a schema, a sequence, a function, a table and a
# large object at s0 and relabels them to s3, where a_s3 uses them)
$node->safe_psql('postgres', q{
	CREATE ROLE a_rng LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES ('a_rng', 'staff_u:sysadm_r:sysadm_t:s0-s3');
});
$node->safe_psql('postgres', q{
	CREATE SCHEMA hi; GRANT USAGE ON SCHEMA hi TO PUBLIC;
	CREATE SEQUENCE hi.high_seq; GRANT ALL ON hi.high_seq TO PUBLIC;
	CREATE FUNCTION hi.f_hi() RETURNS text LANGUAGE sql AS 'SELECT 1::text';
	CREATE TABLE hi.t_hi (a int);
	SELECT lo_create(4300); GRANT ALL ON LARGE OBJECT 4300 TO PUBLIC;
	SECURITY LABEL FOR selinux ON SEQUENCE hi.high_seq IS 'system_u:object_r:sepgsql_seq_t:s3';
	SECURITY LABEL FOR selinux ON FUNCTION hi.f_hi() IS 'system_u:object_r:sepgsql_proc_exec_t:s3';
	SECURITY LABEL FOR selinux ON TABLE hi.t_hi IS 'system_u:object_r:sepgsql_table_t:s3';
	SECURITY LABEL FOR selinux ON LARGE OBJECT 4300 IS 'system_u:object_r:sepgsql_blob_t:s3';
	SECURITY LABEL FOR selinux ON SCHEMA hi IS 'system_u:object_r:sepgsql_schema_t:s3';
}, extra_params => [ '-U', 'a_rng' ]);
$node->safe_psql('postgres', q{SELECT lo_put(4300, 0, 'SECRET-s3-lo')},
	extra_params => [ '-U', 'a_s3' ]);
# named by OID: the s0 session may not even search schema hi
my $high_seq = $node->safe_psql('postgres', q{SELECT 'hi.high_seq'::regclass::oid},
	extra_params => [ '-U', 'a_s3' ]);
$node->safe_psql('postgres', q{
	SELECT lo_put(4200, 0, 'public-s0-lo');
	CREATE FUNCTION peek(oid) RETURNS bytea LANGUAGE sql AS 'SELECT lo_get($1)';
	CREATE FUNCTION peek_atomic(o oid) RETURNS bytea LANGUAGE sql
		BEGIN ATOMIC SELECT lo_get(o); END;
	CREATE TABLE lo_default (a int, b bytea DEFAULT lo_get(4300));
	GRANT ALL ON lo_default TO PUBLIC;
});
is($node->safe_psql('postgres', q{SELECT convert_from(lo_get(4200), 'UTF8')}, extra_params => [ '-U', 'r_s3' ]),
	'public-s0-lo', 's3 reads an s0 large object');
for my $read (q{SELECT lo_get(4300)}, q{SELECT lo_get(4300, 0, 6)},
	q{SELECT lo_open(4300, x'40000'::int)},
	q{DO $$ BEGIN PERFORM lo_get(4300); END $$},
	q{SELECT peek(4300)}, q{SELECT peek_atomic(4300)},
	q{SELECT * FROM lo_get(4300)},
	q{SELECT (SELECT lo_get(o) FROM (VALUES (4300::oid)) v(o))})
{
	($rc, $out, $err) = run($node, 'r_s0', $read);
	denied($err, "s0 cannot read an s3 large object: $read");
	no_leak('s0', "... and sees nothing of it: $read", $out, $err);
}
like($err, qr/db_blob \{ read \} on large object 4300/, '... db_blob read');
($rc, $out, $err) = run($node, 'a_s3', q{SELECT lo_put(4200, 0, 'SECRET-s3-x')});
denied($err, 's3 cannot write an s0 large object');
($rc, $out, $err) = run($node, 'a_s3', q{SELECT lo_open(4200, x'20000'::int)});
denied($err, 'nor open it for writing');
($rc, $out, $err) = run($node, 'r_s0', "COPY lo_default (a) FROM STDIN;\n1\n\\.\n");
like($err, qr/ERROR:  42501: SELinux: lo_get cannot be checked for the large object it is called for/,
	'a call no query plans (COPY FROM\'s default) needs every large object');
($rc, $out, $err) = run($node, 'r_s0', "\\lo_export 4300 /dev/null");
like($err, qr/SELinux: lo_open cannot be checked for the large object it is called for/,
	'so does libpq\'s fast-path interface (psql \\lo_export)');
no_leak('s0', '... which shows nothing of it', $out, $err);
is($node->safe_psql('postgres', 'SELECT count(*) FROM lo_default'), '0', '... and nothing was copied');

is($node->safe_psql('postgres', q{SELECT nextval('low_seq') > 0}, extra_params => [ '-U', 'r_s3' ]),
	't', 's3 draws from an s0 sequence (next_value is a read)');
($rc, $out, $err) = run($node, 'r_s0', qq{SELECT nextval($high_seq)});
denied($err, 's0 cannot draw from an s3 sequence');
like($err, qr/db_sequence \{ next_value \} on hi\.high_seq/, '... db_sequence next_value');
($rc, $out, $err) = run($node, 'r_s0', qq{SELECT pg_sequence_last_value($high_seq)});
denied($err, 'nor read its last value');
($rc, $out, $err) = run($node, 'r_s0', q{SELECT nextval('hi.high_seq')});
denied($err, 'nor find it by name (db_schema search)');
($rc, $out, $err) = run($node, 'a_s3', q{SELECT setval('low_seq', 500)});
denied($err, 's3 cannot set an s0 sequence');
like($err, qr/db_sequence \{ set_value \} on public\.low_seq/, '... db_sequence set_value');
($rc, $out, $err) = run($node, 'a_s3', q{SELECT nextval('hi.high_seq'), setval('hi.high_seq', 7), currval('hi.high_seq'), lastval()});
is($err, '', 'at its own level it may');

# --- moving an object into another schema adds a name to that schema
# (sepgsql asks the schema a function leaves twice, never the one it enters)
($rc, $out, $err) = run($node, 'a_s3', 'ALTER FUNCTION hi.f_hi() SET SCHEMA public');
denied($err, 'an s3 administrator cannot move its function into the s0 schema public');
like($err, qr/db_schema \{ add_name \} on public labeled/, '... db_schema add_name on the schema it would enter');
($rc, $out, $err) = run($node, 'a_s3', 'ALTER TABLE hi.t_hi SET SCHEMA public');
denied($err, 'nor its table');
like($err, qr/db_schema \{ add_name \} on public labeled/, '... the same permission');
is($node->safe_psql('postgres', q{
	SELECT string_agg(n.nspname || '.' || x.name, ',' ORDER BY x.name)
	FROM (SELECT proname::text AS name, pronamespace AS ns FROM pg_proc WHERE proname = 'f_hi'
		  UNION ALL SELECT relname::text, relnamespace FROM pg_class WHERE relname = 't_hi') x
	JOIN pg_namespace n ON n.oid = x.ns}),
	'hi.f_hi,hi.t_hi', 'both stay in schema hi');
# at its own level it may not create a schema or move them either: the
# catalogs are read at s0 (test/t/602)
($rc, $out, $err) = run($node, 'a_s3', 'CREATE SCHEMA hi2');
like($err, qr/ERROR:  42501: permission denied to create objects in the system catalogs at this security label/,
	'an s3 administrator creates no schema: catalog rows are read at the database\'s level');
is($node->safe_psql('postgres', q{SELECT hi.f_hi(), count(*) FROM hi.t_hi},
	extra_params => [ '-U', 'a_s3' ]), '1|0', 'it uses its function and table at its own level');

# --- trusted procedure: an aggregate over rows the caller may not select
($rc, $out, $err) = run($node, 'r_s0', 'SELECT sum(salary) FROM payroll');
denied($err, 'staff may not select the secret table');
like($err, qr/db_table \{ select \} on public\.payroll/, '... db_table select');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT total_pay_untrusted()');
denied($err, 'nor through an ordinary function');
is($node->safe_psql('postgres', 'SELECT total_pay()', extra_params => [ '-U', 'r_s0' ]),
	'300', 'the trusted procedure computes over them');
is($node->safe_psql('postgres', 'SELECT total_pay(), labelam.client_label()',
	extra_params => [ '-U', 'r_s0' ]), '300|staff_u:staff_r:staff_t:s0',
	'the caller\'s label is back after the call');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT name FROM payroll');
denied($err, 'the rows stay hidden after the call');

# --- column-level select
is($node->safe_psql('postgres', 'SELECT name, phone FROM staffdir', extra_params => [ '-U', 'r_s0' ]),
	'a|555-0100', 'ordinary columns are readable');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT ssn FROM staffdir');
denied($err, 'the secret column is not');
like($err, qr/db_column \{ select \} on column ssn of table staffdir/, '... db_column select');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT * FROM staffdir');
denied($err, 'nor through SELECT *');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT staffdir FROM staffdir');
denied($err, 'nor through a whole-row reference');
unlike($out . $err, qr/078-05-1120/, 'the secret value appears nowhere');

# --- DDL, superusers included
($rc, $out, $err) = run($node, 'su_staff', 'DROP TABLE low_heap');
denied($err, 'a superuser at staff_t cannot drop a table');
($rc, $out, $err) = run($node, 'su_staff', 'ALTER TABLE low_heap ADD COLUMN w int');
denied($err, 'nor alter it');
($rc, $out, $err) = run($node, 'su_staff',
	q{SECURITY LABEL FOR selinux ON TABLE low_heap IS 'staff_u:object_r:sepgsql_table_t:s3'});
denied($err, 'nor relabel it');
($rc, $out, $err) = run($node, 'su_staff',
	q{UPDATE labelam.role_label SET label = 'staff_u:sysadm_r:sysadm_t:s0' WHERE role = 'su_staff'::regrole});
denied($err, 'nor give itself another label through labelam.role_label');
like($err, qr/labelam\.role_label/, '... which is labelam\'s administrator-only table');
($rc, $out, $err) = run($node, 'su_staff', 'ALTER SYSTEM SET labelam.object_checks = off');
denied($err, 'nor turn object checks off (labelam\'s configuration)');
like($err, qr/changing labelam\.object_checks, part of labelam's configuration/, '... which is what it says');
($rc, $out, $err) = run($node, 'su_staff', q{ALTER SYSTEM SET shared_preload_libraries = ''});
denied($err, 'nor unload labelam at the next restart');
($rc, $out, $err) = run($node, 'su_staff', q{SET labelam.audit = 'none'});
denied($err, 'nor silence its audit');
($rc, $out, $err) = run($node, 'su_staff', 'ALTER SYSTEM SET work_mem = \'8MB\'');
is($err, '', 'other settings are the database\'s (db_database set_param)');
$node->safe_psql('postgres', 'ALTER SYSTEM RESET work_mem');
($rc, $out, $err) = run($node, 'su_staff', q{LOAD 'auto_explain'});
denied($err, 'nor load a module (db_database load_module)');
($rc, $out, $err) = run($node, 'su_staff',
	q{SECURITY LABEL FOR selinux ON LANGUAGE plpgsql IS 'system_u:object_r:sepgsql_lang_t:s0'});
denied($err, 'nor relabel a language');
like($err, qr/db_language \{ setattr relabelfrom \} on language plpgsql/, '... db_language');
is($node->safe_psql('postgres', q{DO $$ BEGIN RAISE NOTICE 'ran'; END $$}, extra_params => [ '-U', 'r_s0' ]),
	'', 'a DO block in a language the policy lets staff execute runs (db_language execute)');
# a language the administrator creates is labeled by type_transition
# (sysadm_t on the database: sepgsql_lang_t, an unsafe language)
$node->safe_psql('postgres',
	'CREATE LANGUAGE lab_lang HANDLER plpgsql_call_handler INLINE plpgsql_inline_handler VALIDATOR plpgsql_validator');
is($node->safe_psql('postgres',
		q{SELECT label FROM pg_seclabels WHERE objtype = 'language' AND objname = 'lab_lang'}),
	'staff_u:object_r:sepgsql_lang_t:s0', 'a new language gets the policy\'s label for new languages');
($rc, $out, $err) = run($node, 'su_staff', q{DO LANGUAGE lab_lang $$ BEGIN RAISE NOTICE 'ran'; END $$});
denied($err, 'a superuser at staff_t may not run code in an unsafe language');
like($err, qr/db_language \{ execute \} on language lab_lang/, '... db_language execute');
unlike($err, qr/NOTICE:  ran/, '... and the block did not run');
($rc, $out, $err) = run($node, 'su_staff', 'DROP LANGUAGE lab_lang');
denied($err, 'nor drop it');
like($err, qr/db_language \{ drop \} on language lab_lang/, '... db_language drop');
$node->safe_psql('postgres',
	'CREATE OR REPLACE LANGUAGE lab_lang HANDLER plpgsql_call_handler INLINE plpgsql_inline_handler VALIDATOR plpgsql_validator');
is($node->safe_psql('postgres', q{DO LANGUAGE lab_lang $$ BEGIN RAISE NOTICE 'ran'; END $$; DROP LANGUAGE lab_lang; SELECT 'gone'}),
	'gone', 'the administrator may replace, use and drop it');
($rc, $out, $err) = run($node, 'a_s3', 'DROP TABLE leak');
denied($err, 'an s3 administrator cannot drop an s0 table');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_class WHERE relname IN ('low_heap', 'leak')}),
	'2', 'both tables are still there');

# audit lines about rows stay in the server log: a session asking for LOG
# messages learns nothing of the rows it did not see
$node->safe_psql('postgres', q{
	CREATE TABLE mixed (id int, v text) USING labelheap;
	CREATE INDEX mixed_id ON mixed (id);
	GRANT ALL ON mixed TO PUBLIC;
	INSERT INTO mixed VALUES (1, 'public-s0-1');
});
$node->safe_psql('postgres', q{INSERT INTO mixed VALUES (3, 'SECRET-s3-1')},
	extra_params => [ '-U', 'a_s3' ]);
($rc, $out, $err) = run($node, 'r_s0', q{SET client_min_messages = log; SELECT count(*) FROM mixed});
is($out, '1', 's0 counts its one row');
no_leak('s0', 'no audit line about the hidden row reaches the client', $out, $err);
# with object checks on too, counts made below the filter are withheld
# (test/t/232 attacks them with object checks off): the statistics
# counters' calls become calls of their checked twins, NULL for s0 on a
# table holding an s3 row, and EXPLAIN ANALYZE of it is refused
($rc, $out, $err) = run($node, 'r_s0', q{EXPLAIN (VERBOSE, COSTS OFF)
	SELECT pg_stat_get_xact_tuples_returned('mixed_id'::regclass)});
like($out, qr/labelam\.checked_pg_stat_get_xact_tuples_returned/,
	'a call of a statistics counter is planned as a call of its checked twin');
($rc, $out, $err) = run($node, 'r_s0', q{SET enable_seqscan = off; BEGIN;
	SELECT count(*) FROM mixed WHERE id BETWEEN 2 AND 4;
	SELECT coalesce(pg_stat_get_xact_tuples_returned('mixed_id'::regclass)::text, 'NULL'); COMMIT});
is($out, "0\nNULL", 's0 counts none of its rows in 2..4, and the index\'s counter is NULL for it');
($rc, $out, $err) = run($node, 'a_s3', q{SET enable_seqscan = off; BEGIN;
	SELECT count(*) FROM mixed WHERE id BETWEEN 2 AND 4;
	SELECT pg_stat_get_xact_tuples_returned('mixed_id'::regclass); COMMIT});
is($out, "1\n1", 'an s3 administrator, who may select both rows, reads the counter');
($rc, $out, $err) = run($node, 'r_s0', q{EXPLAIN (ANALYZE) SELECT * FROM mixed WHERE id BETWEEN 2 AND 4});
denied($err, 'EXPLAIN ANALYZE of a table holding a row s0 may not select is refused');
like($err, qr/permission denied to run an instrumented query .* on relation "mixed"/, '... naming the table');
($rc, $out, $err) = run($node, 'su_staff', q{ALTER ROLE su_staff SET labelam.audit = 'none'});
denied($err, 'a superuser at staff_t cannot silence its audit through ALTER ROLE');

# the audit lines are sepgsql's
my $log = slurp_file($node->logfile);
like($log, qr/LOG:  SELinux: denied \{ insert \} scontext=staff_u:staff_r:staff_t:s3 tcontext=staff_u:object_r:sepgsql_table_t:s0 tclass=db_table name="public\.low_heap" permissive=0/,
	'denials are audited in sepgsql\'s format');

done_testing();
