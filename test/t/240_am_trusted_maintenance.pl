# test/t/240_am_trusted_maintenance.pl -- whole-table operations on a
# multi-level table by the maintenance subject of labelam's policy module
# (issue 33): system_u:system_r:labelam_maint_t:s0-s15:c0.c1023, under the
# policy "make policy" builds, object checks on.
#
# A table holds rows at s0, s1 and s3 (written by staff_t sessions of each
# level).  Every whole-table command succeeds for the maintenance subject
# and keeps every row and label; the same command stays refused to the
# administrator at s0 (staff_u:sysadm_r:sysadm_t:s0) and, unless it only
# reads every row (validation, REINDEX, CLUSTER, VACUUM FULL), to the
# administrator at the top level (:s15:c0.c1023).  A full-clearance dump
# and restore keeps every label.  Outside those commands the maintenance
# session decides
# as its label narrowed to its clearance: it reads every row, writes rows
# at the top only, and a command it does not send itself (from a DO block
# or a function) gets no exemption.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $MAINT = 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023';
my $NARROWED = 'system_u:system_r:labelam_maint_t:s15:c0.c1023';

my $node = attack_node('trusted_maintenance', "autovacuum = off\n",
	objects => 1, policy => labelam_policy());

# the bootstrap superuser is staff_u:sysadm_r:sysadm_t:s0; three more
# administrators, all superusers (PostgreSQL's privileges are not at stake)
$node->safe_psql('postgres', qq{
	CREATE ROLE a_maint LOGIN SUPERUSER;
	CREATE ROLE a_s0 LOGIN SUPERUSER;
	CREATE ROLE a_top LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('a_maint', '$MAINT'),
		('a_s0', 'staff_u:sysadm_r:sysadm_t:s0'),
		('a_top', 'staff_u:sysadm_r:sysadm_t:s15:c0.c1023');
});

# multi-level tables, created by the s0 administrator, rows by r_s0, r_s1
# and r_s3 (ids 1-3, 11-13, 31-33)
sub multi_level
{
	my ($t) = @_;
	(my $name = $t) =~ s/.*\.//;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $t (id int, v text, n int DEFAULT 0) USING labelheap;
		CREATE INDEX ${name}_id_idx ON $t (id);
		ALTER TABLE $t ADD CONSTRAINT ${name}_c6 CHECK (v <> '') NOT VALID;
		GRANT ALL ON $t TO PUBLIC;
	});
	seed($node, $t);
}

# rows and labels as r_s3 (reads s0, s1, s3) sees them
sub rows
{
	my ($t) = @_;
	return $node->safe_psql('postgres',
		"SELECT string_agg(format('%s|%s|%s', id, v, t.security_label), ';' ORDER BY id) FROM $t t",
		extra_params => [ '-U', 'r_s3' ]);
}

multi_level('t');
my $t_rows = rows('t');
like($t_rows, qr/^1\|public-s0-1\|staff_u:object_r:sepgsql_table_t:s0;.*;11\|SECRET-s1-1\|staff_u:object_r:sepgsql_table_t:s1;.*;33\|SECRET-s3-3\|staff_u:object_r:sepgsql_table_t:s3$/,
	'the table holds rows at s0, s1 and s3');

is($node->safe_psql('postgres', 'SELECT labelam.client_label()', extra_params => [ '-U', 'a_maint' ]),
	$NARROWED, 'a maintenance session decides with its label narrowed to its clearance');
is($node->safe_psql('postgres', 'SHOW labelam.session_label', extra_params => [ '-U', 'a_maint' ]),
	$MAINT, 'its session label is the trusted one');
is($node->safe_psql('postgres', 'SELECT count(*) FROM t', extra_params => [ '-U', 'a_maint' ]),
	'9', 'it reads every row');

# Each command: refused to the s0 and top administrators (nothing
# changes), then done by the maintenance subject, rows and labels intact.
# (read: the command writes no row and no object below the top, only reads
# every row, which the top administrator may do too)
my @commands = (
	[ 'ALTER COLUMN TYPE', 'ALTER TABLE t ALTER COLUMN n TYPE bigint' ],
	[ 'ALTER COLUMN TYPE USING', "ALTER TABLE t ALTER COLUMN v TYPE varchar(40) USING v || ''" ],
	[ 'ADD COLUMN with a volatile default', 'ALTER TABLE t ADD COLUMN c3 float8 DEFAULT random()' ],
	[ 'ADD COLUMN GENERATED STORED', 'ALTER TABLE t ADD COLUMN g4 text GENERATED ALWAYS AS (upper(v)) STORED' ],
	[ 'DROP COLUMN', 'ALTER TABLE t DROP COLUMN g4' ],
	[ 'ADD CONSTRAINT CHECK', 'ALTER TABLE t ADD CONSTRAINT t_c5_%A CHECK (v IS NOT NULL)', 'read' ],
	[ 'VALIDATE CONSTRAINT', 'ALTER TABLE t VALIDATE CONSTRAINT t_c6', 'read' ],
	[ 'SET NOT NULL', 'ALTER TABLE t ALTER COLUMN n SET NOT NULL' ],
	[ 'CREATE INDEX', 'CREATE INDEX t_a9 ON t (v)' ],
	[ 'CREATE INDEX on an expression', 'CREATE INDEX t_a10 ON t (lower(v))' ],
	[ 'CREATE UNIQUE INDEX', 'CREATE UNIQUE INDEX t_a11 ON t (id)' ],
	[ 'CREATE INDEX CONCURRENTLY', 'CREATE INDEX CONCURRENTLY t_a13 ON t (n)' ],
	[ 'REINDEX TABLE', 'REINDEX TABLE t', 'read' ],
	[ 'REINDEX TABLE CONCURRENTLY', 'REINDEX TABLE CONCURRENTLY t' ],
	[ 'CLUSTER', 'CLUSTER t USING t_id_idx', 'read' ],
	[ 'VACUUM FULL', 'VACUUM FULL t', 'read' ],
	[ 'ADD PRIMARY KEY', 'ALTER TABLE t ADD PRIMARY KEY (id)' ],
);

# invalid indexes a refused CONCURRENTLY command leaves behind, dropped by
# the maintenance subject, each DROP a command of its own (from a DO block
# it would be nested, and refused: below)
sub drop_invalid_indexes
{
	for my $i (split /\n/, $node->safe_psql('postgres',
			'SELECT indexrelid::regclass FROM pg_index WHERE NOT indisvalid'))
	{
		$node->safe_psql('postgres', "DROP INDEX $i", extra_params => [ '-U', 'a_maint' ]);
	}
}

for my $cmd (@commands)
{
	my ($what, $sql, $read) = @$cmd;
	for my $admin (qw(a_s0 a_top))
	{
		(my $on = $sql) =~ s/%A/$admin/g;
		my ($rc, $out, $err) = run($node, $admin, $on);
		if ($read && $admin eq 'a_top')
		{
			unlike($err, qr/ERROR/, "$what: done by $admin, which reads every row");
		}
		else
		{
			denied($err, "$what: refused to $admin (42501)");
		}
		drop_invalid_indexes();
	}
	(my $on = $sql) =~ s/%A/a_maint/g;
	my ($rc, $out, $err) = run($node, 'a_maint', $on);
	unlike($err, qr/ERROR/, "$what: done by the maintenance subject");
	is(rows('t'), $t_rows, "$what: every row keeps its value and label");
}
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('t')"), '0',
	'verify_labels finds nothing wrong after the commands');
is($node->safe_psql('postgres', "SET enable_seqscan = off; SELECT count(*) FROM t WHERE id > 0",
		extra_params => [ '-U', 'r_s3' ]), '9', 'the rebuilt primary key finds every row for s3');
is($node->safe_psql('postgres', "SET enable_seqscan = off; SELECT count(*) FROM t WHERE id > 0",
		extra_params => [ '-U', 'r_s1' ]), '6', 'and s0 and s1 rows for s1');

# SET ACCESS METHOD: to labelheap changes nothing (the table is labelheap);
# away from it would drop every label: refused to everyone
my ($rc, $out, $err) = run($node, 'a_maint', 'ALTER TABLE t SET ACCESS METHOD labelheap');
unlike($err, qr/ERROR/, 'SET ACCESS METHOD labelheap: accepted (no change)');
is(rows('t'), $t_rows, 'SET ACCESS METHOD labelheap: rows and labels kept');
($rc, $out, $err) = run($node, 'a_maint', 'ALTER TABLE t SET ACCESS METHOD heap');
like($err, qr/ERROR:  42501:.*cannot/, 'SET ACCESS METHOD heap: refused to the maintenance subject too');
is(rows('t'), $t_rows, 'SET ACCESS METHOD heap: rows and labels kept');

# TRUNCATE and DROP destroy every row: refused to the administrators
for my $cmd ([ 'TRUNCATE', 'TRUNCATE %T', 'tt' ], [ 'DROP TABLE', 'DROP TABLE %T', 'td' ],
	[ 'DROP SCHEMA CASCADE', 'DROP SCHEMA m CASCADE', 'm.td' ])
{
	my ($what, $sql, $t) = @$cmd;
	$node->safe_psql('postgres', 'CREATE SCHEMA m; GRANT ALL ON SCHEMA m TO PUBLIC') if $t =~ /^m\./;
	multi_level($t);
	(my $on = $sql) =~ s/%T/$t/g;
	for my $admin (qw(a_s0 a_top))
	{
		($rc, $out, $err) = run($node, $admin, $on);
		denied($err, "$what: refused to $admin (42501)");
		is($node->safe_psql('postgres', "SELECT count(*) FROM $t", extra_params => [ '-U', 'r_s3' ]),
			'9', "$what: the refusal to $admin left every row");
	}
	($rc, $out, $err) = run($node, 'a_maint', $on);
	unlike($err, qr/ERROR/, "$what: done by the maintenance subject");
	if ($what eq 'TRUNCATE')
	{
		is($node->safe_psql('postgres', "SELECT count(*) FROM $t", extra_params => [ '-U', 'r_s3' ]),
			'0', 'TRUNCATE: the table is empty');
		is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels WHERE relid = '$t'::regclass"),
			'0', 'TRUNCATE: its label set is empty');
	}
	else
	{
		is($node->safe_psql('postgres', "SELECT to_regclass('$t') IS NULL"), 't', "$what: the table is gone");
	}
}

# The exemption reaches the command the client sends, nothing nested.
multi_level('tn');
($rc, $out, $err) = run($node, 'a_maint', 'DO $$ BEGIN DROP TABLE tn; END $$');
denied($err, 'DROP TABLE from a DO block: no exemption (42501)');
$node->safe_psql('postgres', q{
	CREATE FUNCTION drop_it() RETURNS void LANGUAGE plpgsql AS $$ BEGIN TRUNCATE tn; END $$;
});
($rc, $out, $err) = run($node, 'a_maint', 'SELECT drop_it()');
denied($err, 'TRUNCATE from a function: no exemption (42501)');
is($node->safe_psql('postgres', 'SELECT count(*) FROM tn', extra_params => [ '-U', 'r_s3' ]), '9',
	'tn kept every row');

# Its own writes outside maintenance commands: rows at its clearance only
($rc, $out, $err) = run($node, 'a_maint', "INSERT INTO tn (id, v) VALUES (99, 'top')");
unlike($err, qr/ERROR/, 'the maintenance session inserts a row');
is($node->safe_psql('postgres', 'SELECT t.security_label FROM tn t WHERE id = 99', extra_params => [ '-U', 'a_maint' ]),
	'system_u:object_r:sepgsql_table_t:s15:c0.c1023', 'the row is labeled at its clearance');
is($node->safe_psql('postgres', 'SELECT count(*) FROM tn WHERE id = 99', extra_params => [ '-U', 'r_s3' ]), '0',
	'an s3 session does not see it');
($rc, $out, $err) = run($node, 'a_maint', "UPDATE tn SET v = 'x' WHERE id = 1");
denied($err, 'the maintenance session may not update an s0 row (42501)');
($rc, $out, $err) = run($node, 'a_maint', "DELETE FROM tn WHERE id = 31");
denied($err, 'nor delete an s3 row (42501)');

# A full-clearance dump and restore: pg_dump as the maintenance subject
# reads every row with its label; the restore writes rows of every level
# (and builds the indexes of multi-level tables) in one session labeled
# labelam_maint_t.  As in README's steps, the schema comes first, in a
# session labeled by labelam.default_client_label (the new database has no
# labelam.role_label before it), then the restorer's label, then the rest.
my $dir = PostgreSQL::Test::Utils::tempdir;
sub run_env
{
	my ($env, @cmd) = @_;
	local %ENV = (%ENV, %$env);
	delete $ENV{PGAPPNAME};
	my ($stdout, $stderr);
	my $ok = IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr);
	return ($ok, $stdout // '', $stderr // '');
}
sub all_rows
{
	my ($db, $role) = @_;
	return $node->safe_psql($db, q{
		SELECT string_agg(format('%s.%s|%s', c.relname, x.id, x.lbl), ';' ORDER BY c.relname, x.id)
		FROM (SELECT 't' AS tab, id, t.security_label AS lbl FROM t
		      UNION ALL SELECT 'tn', id, tn.security_label FROM tn) x
		JOIN pg_class c ON c.relname = x.tab},
		extra_params => [ '-U', $role ]);
}
$node->safe_psql('postgres', 'CREATE ROLE a_rest LOGIN SUPERUSER; CREATE DATABASE dst');
my $src_rows = all_rows('postgres', 'a_maint');
like($src_rows, qr/t\.1\|.*:s0;.*t\.11\|.*:s1;.*t\.33\|.*:s3;.*tn\.99\|.*:s15:c0\.c1023$/,
	'the source: rows at s0, s1, s3 and the top');
my ($ok, $dout, $derr) = run_env({ PGOPTIONS => '-c labelam.dump_labels=on' },
	'pg_dump', '-Fc', '-f', "$dir/all.dump", '-U', 'a_maint', '-d', $node->connstr('postgres'));
ok($ok, 'pg_dump of every level by the maintenance subject') or diag($derr);
($ok, $dout, $derr) = run_env({}, 'pg_restore', '--section=pre-data', '-U', 'a_rest',
	'-d', $node->connstr('dst'), "$dir/all.dump");
ok($ok, 'pre-data restored') or diag($derr);
$node->safe_psql('dst', "INSERT INTO labelam.role_label VALUES ('a_rest', '$MAINT')");
($ok, $dout, $derr) = run_env({ PGOPTIONS => '-c labelam.restore_labels=on' },
	'pg_restore', '--section=data', '--section=post-data', '-U', 'a_rest',
	'-d', $node->connstr('dst'), "$dir/all.dump");
ok($ok, 'data and post-data (indexes of multi-level tables) restored in one session') or diag($derr);
is(all_rows('dst', 'a_rest'), $src_rows, 'every row restored with its label');
is($node->safe_psql('dst', "SELECT count(*) FROM pg_indexes WHERE tablename = 't'"),
	$node->safe_psql('postgres', "SELECT count(*) FROM pg_indexes WHERE tablename = 't'"),
	'the indexes of the multi-level table are rebuilt');

$node->stop;
done_testing();
