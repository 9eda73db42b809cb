# test/t/200_am_storage_recovery.pl -- labels survive crash recovery and
# streaming replication: every labelheap WAL record is one of heap's own,
# replayed by stock redo.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(usleep);
use LabelamTest;

my $primary = labelam_node('primary', allows_streaming => 1);
$primary->append_conf('postgresql.conf', "wal_consistency_checking = 'heap,heap2'");
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE w (id serial PRIMARY KEY, want text, v text) USING labelheap;
	CREATE TABLE f (id int, want text, v text) USING labelheap;
	CREATE FUNCTION big(seed int) RETURNS text LANGUAGE sql AS
		$$ SELECT string_agg(md5((seed * 10000 + g)::text), '') FROM generate_series(1, 3000) g $$;
});
# a slot keeps the WAL a slow standby (wal_consistency_checking) still needs
$primary->safe_psql('postgres', "SELECT pg_create_physical_replication_slot('standby')");
$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby'");
$standby->start;

# One round of the write load: inserts with their own label, COPY,
# toasted and plain updates, deletes, VACUUM FULL.
my $copyfile = $primary->basedir . '/load.data';
sub load_round
{
	my ($n) = @_;
	my $label = 'system_u:object_r:sepgsql_table_t:s0:c' . (100 + $n % 50);
	return qq{
SET labelam.insert_label = '$label';
INSERT INTO w (want, v) SELECT '$label', CASE WHEN g % 7 = 0 THEN big(g + $n) ELSE 'r$n.' || g END
	FROM generate_series(1, 50) g;
COPY (SELECT g, '$label', CASE WHEN g % 10 = 0 THEN big(g) ELSE 'c' || g END FROM generate_series(1, 200) g) TO '$copyfile';
COPY f FROM '$copyfile';
UPDATE w SET v = big(id + $n) WHERE id % 13 = $n % 13;
UPDATE w SET v = 'u' || id WHERE id % 11 = $n % 11;
DELETE FROM f WHERE id % 17 = $n % 17;
VACUUM FULL f;
};
}

# every committed row carries the label it was given; nothing is damaged
sub check_labels
{
	my ($node, $what) = @_;
	for my $t ('w', 'f')
	{
		is($node->safe_psql('postgres', qq{
			SELECT count(*) FILTER (WHERE labelam.label_text(labelam.tuple_secid('$t', ctid)) IS DISTINCT FROM want)
			FROM $t}), '0', "$what: every row of $t has its label");
		is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('$t')"),
			'0', "$what: verify_labels('$t') is empty");
	}
}

my $checksum_sql = q{
	SELECT md5(string_agg(format('%s %s %s %s', t, ctid, labelam.tuple_secid(t::regclass, ctid), md5(r)), ',' ORDER BY t, ctid))
	FROM (SELECT 'w' AS t, ctid, w::text AS r FROM w UNION ALL SELECT 'f', ctid, f::text FROM f) s};

# --- streaming standby replays the load
$primary->safe_psql('postgres', join('', map { load_round($_) } 1 .. 5));
$primary->wait_for_catchup($standby);
check_labels($primary, 'primary');
check_labels($standby, 'standby');
my $primary_sum = $primary->safe_psql('postgres', $checksum_sql);
is($standby->safe_psql('postgres', $checksum_sql), $primary_sum,
	'standby has identical (ctid, label, row) for every row');
cmp_ok($primary->safe_psql('postgres', 'SELECT count(*) FROM w'), '>', 200, 'the load wrote rows');

# --- kill -9 of the postmaster in the middle of the load
my $loadfile = $primary->basedir . '/load.sql';
append_to_file($loadfile, join('', map { load_round($_) } 6 .. 200));
my $h = IPC::Run::start(
	[ 'psql', '-X', '-q', '-f', $loadfile, '-d', $primary->connstr('postgres') ],
	'>', '/dev/null', '2>', $primary->basedir . '/load.err');
my $rows_before = $primary->safe_psql('postgres', 'SELECT count(*) FROM w');
my $deadline = time + 120;
usleep(100_000)
  until $primary->safe_psql('postgres', 'SELECT count(*) FROM w') > $rows_before + 300
  || time > $deadline;
cmp_ok($primary->safe_psql('postgres', 'SELECT count(*) FROM w'), '>', $rows_before + 300,
	'the load is running when the postmaster is killed');
$primary->kill9;
$h->finish;
# the postmaster's children notice its death and exit; until they have,
# a new postmaster refuses to start on their shared memory
$deadline = time + 60;
usleep(100_000)
  while system("pgrep -f 'postgres: primary: ' >/dev/null") == 0 && time < $deadline;
ok($primary->start(fail_ok => 1), 'primary restarts after kill -9');
like(slurp_file($primary->logfile), qr/database system was interrupted|not properly shut down/,
	'the restart ran crash recovery');
check_labels($primary, 'after crash recovery');
cmp_ok($primary->safe_psql('postgres', 'SELECT count(*) FROM w'), '>', $rows_before,
	'rows committed before the crash are there');

# the standby follows the recovered primary to the same state
$primary->safe_psql('postgres', load_round(201));
$primary->wait_for_catchup($standby);
check_labels($standby, 'standby after the crash');
is($standby->safe_psql('postgres', $checksum_sql),
	$primary->safe_psql('postgres', $checksum_sql),
	'standby still identical after the primary crashed and recovered');

# another session's temporary table: its rows are in that session's
# memory (after a crash only its catalog entry is left, its file gone),
# so the inspection functions refuse it, as a scan does
my $holder = $primary->background_psql('postgres');
$holder->query_safe('CREATE TEMP TABLE other_tmp (a int) USING labelheap; INSERT INTO other_tmp VALUES (1)');
my $other_tmp = $primary->safe_psql('postgres', q{SELECT oid FROM pg_class WHERE relname = 'other_tmp'});
for my $call ("labelam.verify_labels($other_tmp)", "labelam.toast_values($other_tmp)",
	"labelam.tuple_secid($other_tmp, '(0,1)')")
{
	my ($rc, $out, $err) = $primary->psql('postgres', "SELECT count(*) FROM $call");
	like($err, qr/ERROR:  cannot access temporary tables of other sessions/,
		"$call refuses another session's temporary table");
}
$holder->quit;

$standby->stop;
$primary->stop;
done_testing();
