# test/t/410_label_sql_dump_restore.pl -- pg_dump/pg_restore carry every
# (row, label) pair of labelheap tables under Debian's MLS policy
# (labelam.dump_labels, labelam.restore_labels; label_sql/dump.c): a table
# without a label column, one with, and a partitioned one, in plain, custom
# and directory format and with --jobs 2; a partial-clearance dump; restores
# that may not set a label; attacks on both settings.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $TOP = 'staff_u:sysadm_r:sysadm_t:s15:c0.c1023';
my $node = labelam_mls_node('dump');
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', qq{
	CREATE EXTENSION labelam;
	CREATE ROLE dumper SUPERUSER LOGIN;
	CREATE ROLE restorer SUPERUSER LOGIN;
	CREATE ROLE lowdump SUPERUSER LOGIN;
	CREATE ROLE r_s0 LOGIN;
	CREATE ROLE r_s1 LOGIN;
	CREATE ROLE r_s3 LOGIN;
	CREATE ROLE r_c5 LOGIN;
	INSERT INTO labelam.role_label VALUES
		('dumper', '$TOP'),
		('lowdump', 'staff_u:staff_r:staff_t:s1'),
		('r_s0', 'staff_u:staff_r:staff_t:s0'),
		('r_s1', 'staff_u:staff_r:staff_t:s1'),
		('r_s3', 'staff_u:staff_r:staff_t:s3'),
		('r_c5', 'staff_u:staff_r:staff_t:s2:c5');
	CREATE TABLE plain_t (id int PRIMARY KEY, v text) USING labelheap;
	CREATE TABLE col_t (id int, lbl labelam.security_label, v text)
		USING labelheap;
	CREATE TABLE part_t (id int, region text, v text) PARTITION BY LIST (region);
	CREATE TABLE part_a PARTITION OF part_t FOR VALUES IN ('a') USING labelheap;
	CREATE TABLE part_b PARTITION OF part_t FOR VALUES IN ('b') USING labelheap;
	GRANT ALL ON plain_t, col_t, part_t TO PUBLIC;
});

# rows by each level's role (labeled by the policy's type_transition), by
# the top-level administrator, large values (TOAST) among them
my %base = (r_s0 => 0, r_s1 => 1000, r_c5 => 2000, r_s3 => 3000, dumper => 15000);
for my $role (sort keys %base)
{
	my $b = $base{$role};
	$node->safe_psql('src', qq{
		INSERT INTO plain_t SELECT $b + g, '$role-' || g ||
			CASE WHEN g % 50 = 0 THEN repeat(md5(g::text), 400) ELSE '' END
			FROM generate_series(1, 300) g;
		INSERT INTO col_t SELECT $b + g, NULL, '$role-' || g FROM generate_series(1, 200) g;
		INSERT INTO part_t SELECT $b + g, CASE WHEN g % 2 = 0 THEN 'a' ELSE 'b' END,
			'$role-' || g FROM generate_series(1, 200) g;
	}, extra_params => [ '-U', $role ]);
}

# the administrator relabels some of its own rows downward (relabelfrom
# needs its own level), so labels other than type_transition's appear
$node->safe_psql('src', q{
	SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s2:c1,c7';
	UPDATE plain_t SET v = v || '-down' WHERE id BETWEEN 15001 AND 15020;
	UPDATE part_t SET v = v || '-down' WHERE id BETWEEN 15001 AND 15020;
	RESET labelam.update_label;
	UPDATE col_t SET lbl = 'staff_u:object_r:sepgsql_ro_table_t:s9' WHERE id BETWEEN 15001 AND 15010;
}, extra_params => [ '-U', 'dumper' ]);

# ctid-independent (row, label) checksums, read at the top label
my $sums = q{
	SELECT (SELECT count(*) || ':' || count(DISTINCT t.security_label) || ':' ||
			md5(string_agg(format('%s|%s|%s', id, v, t.security_label), ',' ORDER BY id))
		FROM plain_t t),
		(SELECT count(*) || ':' || count(DISTINCT lbl) || ':' ||
			md5(string_agg(format('%s|%s|%s|%s', id, v, lbl, t.security_label), ',' ORDER BY id))
		FROM col_t t),
		(SELECT count(*) || ':' || count(DISTINCT t.security_label) || ':' ||
			md5(string_agg(format('%s|%s|%s|%s|%s', id, region, v, tableoid::regclass, t.security_label), ',' ORDER BY id))
		FROM part_t t)};
my $before = $node->safe_psql('src', $sums, extra_params => [ '-U', 'dumper' ]);
like($before, qr/^1500:6:\w+\|1000:6:\w+\|1000:6:\w+$/,
	'source: 1500, 1000, 1000 rows carrying six labels each');
is($node->safe_psql('src', q{SELECT count(*) FROM labelam.verify_labels('plain_t')}),
	'0', 'source labels verify');

my $dir = $node->basedir;
my %dumpenv = (PGOPTIONS => '-c labelam.dump_labels=on');
my %restenv = (PGOPTIONS => '-c labelam.restore_labels=on');

# A fresh database.  Restoring is three steps: the schema (pre-data; it
# creates labelam, so no session in the new database has a label from
# labelam.role_label before it), the restorer's label in the new database,
# then data and post-data in sessions that start with that label.
my $ndb = 0;
sub fresh_db
{
	my $db = 'dst' . ++$ndb;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	return $db;
}

sub label_restorer
{
	my ($db, $role, $label) = @_;
	$node->safe_psql($db, qq{INSERT INTO labelam.role_label VALUES ('$role', '$label')});
}

sub run_env
{
	my ($env, @cmd) = @_;
	local %ENV = (%ENV, %$env);
	# pg_dump and pg_restore name themselves (the test framework sets PGAPPNAME)
	delete $ENV{PGAPPNAME};
	my ($stdout, $stderr);
	my $ok = IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr);
	return ($ok, $stdout // '', $stderr // '');
}

# [name, pg_dump arguments, pg_restore arguments or undef for plain format]
my @dumps = (
	[ 'plain', [ '-Fp' ], undef ],
	[ 'custom', [ '-Fc' ], [] ],
	[ 'directory', [ '-Fd' ], [] ],
	[ 'custom, pg_restore --jobs 2', [ '-Fc' ], [ '--jobs', '2' ] ],
	[ 'directory, pg_dump and pg_restore --jobs 2', [ '-Fd', '--jobs', '2' ], [ '--jobs', '2' ] ],
	[ 'custom, --load-via-partition-root', [ '-Fc', '--load-via-partition-root' ], [] ],
);
my $n = 0;
for my $d (@dumps)
{
	my ($name, $dumpargs, $restargs) = @$d;
	my $file = "$dir/d" . ++$n;
	my ($ok, $out, $err);
	my $db = fresh_db();
	if (!defined $restargs)
	{
		# plain format: one file for the schema, one for data and the rest
		($ok, $out, $err) = run_env(\%dumpenv, 'pg_dump', @$dumpargs, '--section=pre-data',
			'-f', "$file.pre.sql", '-U', 'dumper', '-d', $node->connstr('src'));
		($ok, $out, $err) = run_env(\%dumpenv, 'pg_dump', @$dumpargs, '--section=data',
			'--section=post-data', '-f', "$file.sql", '-U', 'dumper', '-d', $node->connstr('src'))
		  if $ok;
		ok($ok, "$name: pg_dump at the top label") or diag($err);
		($ok, $out, $err) = run_env({}, 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
			'-U', 'restorer', '-d', $node->connstr($db), '-f', "$file.pre.sql");
		ok($ok, "$name: schema restored") or diag($err);
		label_restorer($db, 'restorer', $TOP);
		($ok, $out, $err) = run_env(\%restenv, 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
			'-U', 'restorer', '-d', $node->connstr($db), '-f', "$file.sql");
	}
	else
	{
		($ok, $out, $err) = run_env(\%dumpenv, 'pg_dump', @$dumpargs, '-f', $file,
			'-U', 'dumper', '-d', $node->connstr('src'));
		ok($ok, "$name: pg_dump at the top label") or diag($err);
		($ok, $out, $err) = run_env({}, 'pg_restore', '--section=pre-data',
			'-U', 'restorer', '-d', $node->connstr($db), $file);
		ok($ok, "$name: schema restored") or diag($err);
		label_restorer($db, 'restorer', $TOP);
		($ok, $out, $err) = run_env(\%restenv, 'pg_restore', @$restargs,
			'--section=data', '--section=post-data',
			'-U', 'restorer', '-d', $node->connstr($db), $file);
	}
	ok($ok, "$name: data restored") or diag($err);
	is($node->safe_psql($db, $sums, extra_params => [ '-U', 'restorer' ]),
		$before, "$name: identical (row, label) checksums");
	is($node->safe_psql($db, q{
		SELECT count(*) FROM labelam.verify_labels('plain_t')
		UNION ALL SELECT count(*) FROM labelam.verify_labels('col_t')
		UNION ALL SELECT count(*) FROM labelam.verify_labels('part_a')
		UNION ALL SELECT count(*) FROM labelam.verify_labels('part_b')}),
		"0\n0\n0\n0", "$name: labels verify, label sets complete");
}

# the label field is there in the plain dump, after the last column
like(slurp_file("$dir/d1.sql"),
	qr/^3001\tr_s3-1\tstaff_u:object_r:sepgsql_table_t:s3$/m,
	'the plain dump shows the label field');

# enforcement on a restored database is the source's
my $db1 = 'dst1';
for my $role (qw(r_s0 r_s1 r_c5 r_s3))
{
	my $q = q{SELECT count(*) || '/' || string_agg(DISTINCT t.security_label, ' ' ORDER BY t.security_label) FROM plain_t t};
	is($node->safe_psql($db1, $q, extra_params => [ '-U', $role ]),
		$node->safe_psql('src', $q, extra_params => [ '-U', $role ]),
		"$role reads the same rows and labels in the restored database");
}

# ---- without the settings ----

# pg_dump without dump_labels is refused tables whose labels it would lose
my ($ok, $out, $err) = run_env({}, 'pg_dump', '-Fc', '-f', "$dir/nolabels.custom",
	'-U', 'dumper', '-d', $node->connstr('src'));
ok(!$ok, 'pg_dump without labelam.dump_labels fails');
like($err, qr/pg_dump of labelheap table "(plain_t|part_a|part_b)" needs labelam.dump_labels/,
	'naming the setting');

# a labeled dump restored without restore_labels fails, never mislabels
my $db = fresh_db();
($ok, $out, $err) = run_env({}, 'pg_restore', '--section=pre-data', '-U', 'restorer', '-d',
	$node->connstr($db), "$dir/d2");
label_restorer($db, 'restorer', $TOP);
($ok, $out, $err) = run_env({}, 'pg_restore', '--section=data', '-U', 'restorer', '-d',
	$node->connstr($db), "$dir/d2");
ok(!$ok, 'restoring a labeled dump without restore_labels fails');
like($err, qr/extra data after last expected column/, 'on the label field');
is($node->safe_psql($db, 'SELECT count(*) FROM plain_t'), '0',
	'and writes no row of the table without a label column');

# ---- partial clearance ----

($ok, $out, $err) = run_env(\%dumpenv, 'pg_dump', '-Fc', '-f', "$dir/low.custom",
	'-U', 'lowdump', '-d', $node->connstr('src'));
ok(!$ok, 'dump_labels=on at s1 fails');
like($err, qr/permission denied to dump relation "(plain_t|col_t|part_a|part_b)"/,
	'naming a table beyond its reach');
unlike($err, qr/\b\d{3,}\b|SECRET|:s3\b|s15/, 'no count and no hidden label in the message');

($ok, $out, $err) = run_env({ PGOPTIONS => '-c labelam.dump_labels=partial' },
	'pg_dump', '-Fp', '-f', "$dir/low.sql", '-U', 'lowdump', '-d', $node->connstr('src'));
ok($ok, 'dump_labels=partial at s1 dumps') or diag($err);
# pg_dump shows the server's warnings with --verbose only
($ok, $out, $err) = run_env({ PGOPTIONS => '-c labelam.dump_labels=partial' },
	'pg_dump', '-v', '-Fc', '-f', "$dir/low.custom", '-U', 'lowdump', '-d', $node->connstr('src'));
my @warned = sort ($err =~ /WARNING:  dump of relation "(\w+)" is partial/g);
is("@warned", 'col_t part_a part_b plain_t', 'pg_dump -v: a warning per table on stderr');
my $warnings = join "\n", ($err =~ /^(.*(?:WARNING|DETAIL).*)$/mg);
unlike($warnings, qr/\d{2,}|SECRET|:s3\b|s15/, 'the warnings count no rows, name no label');
my $low = slurp_file("$dir/low.sql");
unlike($low, qr/\t(?:r_s3|r_c5|dumper)-\d|sepgsql_(?:ro_)?table_t:s(?:3|9|15|2:c)/, 'the partial dump holds no row above s1');
like($low, qr/^1001\tr_s1-1\tstaff_u:object_r:sepgsql_table_t:s1$/m,
	'and the s1 rows with their labels');

# ---- restores that may not set a label ----

# a restorer at s0 (plain staff) may insert s0 rows only and relabel none
$node->safe_psql('postgres', 'CREATE ROLE lowrest SUPERUSER LOGIN');
$db = fresh_db();
($ok, $out, $err) = run_env({}, 'pg_restore', '--section=pre-data', '-U', 'lowrest',
	'-d', $node->connstr($db), "$dir/d2");
label_restorer($db, 'lowrest', 'staff_u:staff_r:staff_t:s0');
($ok, $out, $err) = run_env(\%restenv, 'pg_restore', '--section=data', '-U', 'lowrest',
	'-d', $node->connstr($db), "$dir/d2");
ok(!$ok, 'a restorer that may not relabel fails');
my @denied = ($err =~ /permission denied to (?:insert|relabel)[^\n]*relation "(\w+)"/g);
ok(scalar(@denied) >= 3, 'with 42501 for the tables holding other labels')
	or diag($err);
is($node->safe_psql($db, q{SELECT (SELECT count(*) FROM plain_t) + (SELECT count(*) FROM col_t) + (SELECT count(*) FROM part_t)},
	extra_params => [ '-U', 'restorer' ]),
	'0', 'no row restored with another label');

# ---- attacks ----

my $src = $node->connstr('src');
# A1: an s0 user's COPY TO with dump_labels=on fails, partial shows only s0
($ok, $out, $err) = run_env(\%dumpenv, 'psql', '-X', '-U', 'r_s0', '-d', $src,
	'-c', 'COPY plain_t TO STDOUT');
like($err, qr/permission denied to dump relation "plain_t"/, 'A1: s0 COPY TO with dump_labels refused');
($ok, $out, $err) = run_env({ PGOPTIONS => '-c labelam.dump_labels=partial' }, 'psql', '-X',
	'-U', 'r_s0', '-d', $src, '-c', 'COPY plain_t TO STDOUT');
my @lines = split /\n/, $out;
is(scalar(grep { !/\tstaff_u:object_r:sepgsql_table_t:s0$/ } @lines), 0,
	'A1: the partial COPY shows only s0 rows and labels');
is(scalar(@lines), 300, 'A1: all 300 of them');

# A2: an s0 user restoring rows with an s3 label: 42501, nothing written
$node->safe_psql('src', 'CREATE TABLE atk (id int, v text) USING labelheap; GRANT ALL ON atk TO PUBLIC');
my $copy_in = sub {
	my ($role, $data, %env) = @_;
	local %ENV = (%ENV, PGOPTIONS => '-c labelam.restore_labels=on');
	my ($o, $e);
	IPC::Run::run([ 'psql', '-X', '-v', 'VERBOSITY=verbose', '-U', $role, '-d', $src,
		'-c', 'COPY atk FROM STDIN' ], '<', \$data, '>', \$o, '2>', \$e);
	return ($o // '', $e // '');
};
($out, $err) = $copy_in->('r_s0', "1\tx\tstaff_u:object_r:sepgsql_table_t:s3\n");
like($err, qr/ERROR:  42501: permission denied/, 'A2: s0 restoring an s3 row: 42501');
# A3: a label the s0 user would get anyway is an ordinary insert
($out, $err) = $copy_in->('r_s0', "2\ty\tstaff_u:object_r:sepgsql_table_t:s0\n");
is($err, '', 'A3: restoring a row with the session\'s own label works');
# A4: an s0 user's row "restored" downward from s1 by an s1 user: relabel refused
($out, $err) = $copy_in->('r_s1', "3\tz\tstaff_u:object_r:sepgsql_table_t:s0\n");
like($err, qr/ERROR:  42501: permission denied/, 'A4: staff may not relabel while restoring');
# A5: missing and NULL label fields, malformed labels
($out, $err) = $copy_in->('dumper', "4\tw\n");
like($err, qr/ERROR:  22P04: line has 2 fields/, 'A5: a line without label field is refused');
($out, $err) = $copy_in->('dumper', "4\tw\t\\N\n");
like($err, qr/ERROR:  23502: a restored row of relation "atk" has no security label/, 'A5: a NULL label is refused');
($out, $err) = $copy_in->('dumper', "4\tw\tnot a label\n");
like($err, qr/ERROR:  22023/, 'A5: a malformed label is refused');
is($node->safe_psql('src', q{SELECT string_agg(id || ':' || t.security_label, ',') FROM atk t},
	extra_params => [ '-U', 'dumper' ]),
	'2:staff_u:object_r:sepgsql_table_t:s0', 'A2-A5: only the allowed row is in the table');
# A6: the restored label reaches only the restored row: a trigger's insert
# during the restore gets the restorer's own label
$node->safe_psql('src', q{
	CREATE TABLE spy (id int) USING labelheap;
	CREATE FUNCTION spy_trg() RETURNS trigger LANGUAGE plpgsql AS
		$$BEGIN INSERT INTO spy VALUES (NEW.id); RETURN NEW; END$$;
	CREATE TRIGGER spy BEFORE INSERT ON atk FOR EACH ROW EXECUTE FUNCTION spy_trg();
	CREATE FUNCTION spy_after() RETURNS trigger LANGUAGE plpgsql AS
		$$BEGIN INSERT INTO atk VALUES (-NEW.id, 'after'); RETURN NULL; END$$;
	CREATE TRIGGER spy_after AFTER INSERT ON atk FOR EACH ROW WHEN (NEW.id > 0)
		EXECUTE FUNCTION spy_after();
});
($out, $err) = $copy_in->('dumper', "5\tv\tstaff_u:object_r:sepgsql_table_t:s1\n");
is($err, '', 'A6: the top administrator restores an s1 row');
is($node->safe_psql('src', q{
	SELECT string_agg(id || ':' || t.security_label, ',' ORDER BY id) FROM atk t WHERE abs(id) = 5
	UNION ALL SELECT string_agg(id || ':' || t.security_label, ',' ORDER BY id) FROM spy t},
	extra_params => [ '-U', 'dumper' ]),
	"-5:staff_u:object_r:sepgsql_table_t:s15:c0.c1023,5:staff_u:object_r:sepgsql_table_t:s1\n-5:staff_u:object_r:sepgsql_table_t:s15:c0.c1023,5:staff_u:object_r:sepgsql_table_t:s15:c0.c1023",
	'A6: rows inserted by triggers get the restorer\'s label, only the restored row the dumped one');
# A7: restore_labels does not loosen ordinary INSERTs of the label column
# beyond INSERT+UPDATE: an s1 user with it still cannot write an s0 label
($ok, $out, $err) = run_env(\%restenv, 'psql', '-X', '-v', 'VERBOSITY=verbose', '-U', 'r_s1', '-d', $src,
	'-c', q{INSERT INTO col_t VALUES (9999, 'staff_u:object_r:sepgsql_table_t:s0', 'x')});
like($err, qr/ERROR:  42501: permission denied/, 'A7: label column INSERT relabel still refused to staff');

# A8: the restore's INSERT needs INSERT privilege like any other
$node->safe_psql('src', 'CREATE TABLE priv (id int) USING labelheap; GRANT SELECT ON priv TO PUBLIC');
{
	local %ENV = (%ENV, PGOPTIONS => '-c labelam.restore_labels=on');
	my ($o, $e);
	IPC::Run::run([ 'psql', '-X', '-v', 'VERBOSITY=verbose', '-U', 'r_s0', '-d', $src,
		'-c', 'COPY priv FROM STDIN' ], '<', \"1\tstaff_u:object_r:sepgsql_table_t:s0\n", '>', \$o, '2>', \$e);
	like($e, qr/ERROR:  42501: permission denied for table priv/, 'A8: no INSERT privilege, no restore');
	# A9: no COPY FROM a file through the restore path
	IPC::Run::run([ 'psql', '-X', '-v', 'VERBOSITY=verbose', '-U', 'r_s0', '-d', $src,
		'-c', q{COPY atk FROM '/etc/passwd'} ], '>', \$o, '2>', \$e);
	like($e, qr/ERROR:  0A000: labelam.restore_labels restores relation "atk" only with COPY FROM STDIN/,
		'A9: COPY FROM a file is refused with restore_labels');
}
is($node->safe_psql('src', 'SELECT count(*) FROM priv', extra_params => [ '-U', 'dumper' ]), '0',
	'A8: nothing written');

$node->stop;
done_testing();
