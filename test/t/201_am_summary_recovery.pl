# test/t/201_am_summary_recovery.pl -- label summaries survive crash
# recovery and streaming replication (generic WAL, checked by
# wal_consistency_checking), so that a standby and a recovered primary skip
# exactly the ranges that hold no selectable row.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);
use LabelamTest;

my $mls = selinux_policy('mls');
plan(skip_all => "$mls is missing (package selinux-policy-mls)") unless -f $mls;

my $primary = labelam_node('sumprimary', allows_streaming => 1);
$primary->append_conf('postgresql.conf', qq{
labelam.policy_file = '$mls'
labelam.default_client_label = 'staff_u:staff_r:staff_t:s0'
# rows under test, owned by ordinary roles: object checks are test 500's
labelam.object_checks = off
wal_consistency_checking = 'generic,heap'
autovacuum = off
});
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE ROLE r_s0 LOGIN; CREATE ROLE r_s1 LOGIN;
	INSERT INTO labelam.role_label VALUES
		('r_s0', 'staff_u:staff_r:staff_t:s0'), ('r_s1', 'staff_u:staff_r:staff_t:s1');
	CREATE TABLE t (id serial, lvl text, v text) USING labelheap;
	CREATE INDEX t_labels ON t USING labelsummary (id);
	GRANT ALL ON t TO PUBLIC;
	GRANT ALL ON SEQUENCE t_id_seq TO PUBLIC;
});
$primary->safe_psql('postgres', "SELECT pg_create_physical_replication_slot('sumstandby')");
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('sumstandby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'sumstandby'");
$standby->start;

# one round, each level in its own session (labels come with the
# session): a long s1 run, a short s0 run, s1 deletes and a VACUUM that
# frees space the next rounds fill
sub run_round
{
	my ($node, $n) = @_;
	$node->safe_psql('postgres', "INSERT INTO t (lvl, v) SELECT 's1', repeat('h', 150) FROM generate_series(1, 600)",
		extra_params => [ '-U', 'r_s1' ]);
	$node->safe_psql('postgres', "INSERT INTO t (lvl, v) SELECT 's0', 'round $n' FROM generate_series(1, 20)",
		extra_params => [ '-U', 'r_s0' ]);
	$node->safe_psql('postgres', "DELETE FROM t WHERE lvl = 's1' AND id % 7 = $n % 7",
		extra_params => [ '-U', 'r_s1' ]);
	$node->safe_psql('postgres', 'VACUUM t');
}

my $digest = "SET enable_indexscan = off; SET enable_bitmapscan = off; "
  . "SELECT count(*) || ' ' || md5(string_agg(id || v, ',' ORDER BY id)) FROM t";
my $summary_sql = "SELECT md5(string_agg(first_block || ':' || coalesce(secids::text, 'any'), ',' ORDER BY first_block)) FROM labelam.label_summary('t_labels')";

sub check_node
{
	my ($node, $what) = @_;
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('t')"),
		'0', "$what: verify_labels finds no row the summary would hide");
	my $on = $node->safe_psql('postgres', $digest, extra_params => [ '-U', 'r_s0' ]);
	my $off = $node->safe_psql('postgres', "SET labelam.skip_ranges = off; $digest",
		extra_params => [ '-U', 'r_s0' ]);
	is($on, $off, "$what: an s0 scan returns the same rows with and without skipping");
	return $on;
}

run_round($primary, $_) for 1 .. 6;
$primary->wait_for_catchup($standby);
my $primary_rows = check_node($primary, 'primary');
is(check_node($standby, 'standby'), $primary_rows, 'the standby returns what the primary returns');
is($standby->safe_psql('postgres', $summary_sql), $primary->safe_psql('postgres', $summary_sql),
	'the standby has the primary\'s summary');
cmp_ok($primary->safe_psql('postgres', "SELECT count(*) FROM labelam.label_summary('t_labels') WHERE secids = ARRAY[(SELECT secid FROM labelam.pg_security WHERE seclabel = 'staff_u:object_r:sepgsql_table_t:s1')]"),
	'>', 0, 'some ranges hold only s1 rows (an s0 scan skips them)');

# --- kill -9 in the middle of a load of both levels
my @h;
for my $role ('r_s1', 'r_s0')
{
	my $file = $primary->basedir . "/load_$role.sql";
	my $lvl = $role eq 'r_s1' ? 's1' : 's0';
	append_to_file($file, join('', map {
		"INSERT INTO t (lvl, v) SELECT '$lvl', repeat('$lvl', 40) FROM generate_series(1, 50);\n"
		  . "UPDATE t SET v = v || '+' WHERE lvl = '$lvl' AND id % 50 = $_ % 50;\n"
	} 1 .. 2000));
	push @h, IPC::Run::start(
		[ 'psql', '-X', '-q', '-f', $file, '-d', $primary->connstr('postgres'), '-U', $role ],
		'>', '/dev/null', '2>', $primary->basedir . "/load_$role.err");
}
my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM t', extra_params => [ '-U', 'r_s1' ]);
my $deadline = time + 120;
usleep(100_000)
  until $primary->safe_psql('postgres', 'SELECT count(*) FROM t', extra_params => [ '-U', 'r_s1' ]) > $rows_before + 1000
  || time > $deadline;
$primary->kill9;
$_->finish for @h;
$deadline = time + 60;
usleep(100_000)
  while system("pgrep -f 'postgres: sumprimary: ' >/dev/null") == 0 && time < $deadline;
ok($primary->start(fail_ok => 1), 'primary restarts after kill -9');
like(slurp_file($primary->logfile), qr/database system was interrupted|not properly shut down/,
	'the restart ran crash recovery');
cmp_ok($primary->safe_psql('postgres', 'SELECT count(*) FROM t', extra_params => [ '-U', 'r_s1' ]),
	'>', $rows_before, 'rows committed before the crash are there');
$primary_rows = check_node($primary, 'after crash recovery');

$primary->wait_for_catchup($standby);
is(check_node($standby, 'standby after the crash'), $primary_rows,
	'the standby returns what the recovered primary returns');
is($standby->safe_psql('postgres', $summary_sql), $primary->safe_psql('postgres', $summary_sql),
	'the standby still has the primary\'s summary');

$standby->stop;
$primary->stop;
done_testing();
