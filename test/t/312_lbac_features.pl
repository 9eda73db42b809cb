# test/t/312_lbac_features.pl -- labelam's features under the lbac
# provider: filtering with page skipping over a label summary (the same rows
# as without it, far fewer blocks), parallel scans (workers decide with the
# leader's model), ANALYZE's statistics label, audit lines and the denial
# summary, permissive mode, a physical standby (the model and its changes
# replicated, open standby sessions taking a change in at their next
# statement), and a dump/restore round trip (lbac.dump_model() and
# labelam.dump_labels / restore_labels).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamLbac;

my $node = lbac_node('lbac_features', q{
autovacuum = off
max_parallel_workers_per_gather = 2
labelam.statistics_label = 'C'
}, allows_streaming => 1);
my $admin = lbac_model($node);
$node->safe_psql('postgres', qq{
	SELECT lbac.grant_privileges('$admin', 'WRITEUP,WRITEDOWN,WRITEACROSS');
	CREATE TABLE big (id int, lvl text, body text) USING labelheap;
	CREATE INDEX big_labels ON big USING labelsummary (id);
	GRANT SELECT ON big TO PUBLIC;
});

sub as
{
	my ($role, $sql) = @_;
	return $node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

# runs of one label each: alice (S:A,B:WEST) reads the C and U runs only
my $id = 0;
for my $run ([ 'TS', 2000 ], [ 'C', 100 ], [ 'S:B:EAST', 2000 ], [ 'U', 100 ], [ 'TS:A', 2000 ])
{
	my ($label, $n) = @$run;
	my $from = $id + 1;
	$id += $n;
	$node->safe_psql('postgres', "SET labelam.insert_label = '$label'; "
		  . "INSERT INTO big SELECT g, '$label', repeat('x', 200) FROM generate_series($from, $id) g");
}
$node->safe_psql('postgres', 'VACUUM ANALYZE big');

# filtering and page skipping
my $digest = "SELECT count(*) || ' ' || string_agg(DISTINCT lvl, ',' ORDER BY lvl) FROM big";
my $serial = 'SET max_parallel_workers_per_gather = 0; SET enable_indexscan = off; SET enable_bitmapscan = off;';
is(as('alice', "$serial $digest"), '200 C,U', 'alice reads the C and U runs only');
is(as('alice', "$serial SET labelam.skip_ranges = off; SET labelam.pass_ranges = off; $digest"),
	'200 C,U', 'the same without the label summary\'s skipping');
is(as('bob', "$serial $digest"), '200 C,U', 'bob (C) too');
is($node->safe_psql('postgres', "$serial $digest"), '6200 C,S:B:EAST,TS,TS:A,U', 'the administrator (FULL) reads every row');

sub blocks_read
{
	my ($role, $set) = @_;
	my $stat = "SELECT heap_blks_hit + heap_blks_read FROM pg_statio_user_tables WHERE relname = 'big'";
	my $before = $node->safe_psql('postgres', $stat);
	as($role, "$serial $set SELECT count(*) FROM big");
	return $node->safe_psql('postgres', $stat) - $before;
}
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('big') / 8192");
my $skipping = blocks_read('alice', '');
my $reading = blocks_read('alice', 'SET labelam.skip_ranges = off;');
cmp_ok($reading, '>=', $pages, "without skipping alice's scan reads all $pages blocks");
cmp_ok($skipping, '<', $pages / 5, "with skipping it reads $skipping blocks");

# parallel workers decide with the leader's model, changes included
# (the leader does not scan: on a table this small it could scan every
# block before a worker starts)
my $parallel = 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; '
  . 'SET min_parallel_table_scan_size = 0; SET enable_indexscan = off; SET enable_bitmapscan = off; '
  . 'SET parallel_leader_participation = off;';
my $psess = $node->background_psql('postgres', extra_params => [ '-U', 'alice' ]);
$psess->query_safe($parallel);
like($psess->query_safe("EXPLAIN (COSTS OFF) $digest"), qr/Parallel Seq Scan/, 'the plan is parallel');
is($psess->query_safe($digest), '200 C,U', 'a parallel scan reads what a serial one does');
$node->safe_psql('postgres', q{SELECT lbac.grant_privileges('alice', 'READ')});
is($psess->query_safe($digest), '6200 C,S:B:EAST,TS,TS:A,U',
	'READ granted: the open session\'s next parallel scan reads every row (workers have the new model)');
$node->safe_psql('postgres', q{SELECT lbac.revoke_privileges('alice', 'READ')});
is($psess->query_safe($digest), '200 C,U', 'revoked: back to the C and U rows');
$psess->quit;

# ANALYZE samples with labelam.statistics_label (C): no value of a row above
is($node->safe_psql('postgres', q{
	SELECT string_agg(v, ',' ORDER BY v) FROM pg_stats, unnest(most_common_vals::text::text[]) v
	WHERE tablename = 'big' AND attname = 'lvl'}),
	'C,U', 'pg_stats holds values of C and U rows only (statistics label C)');

# audit lines and the denial summary name lbac labels
my $offset = -s $node->logfile;
as('alice', "$serial SELECT count(*) FROM big WHERE id <= 2100");
my $log = slurp_file($node->logfile, $offset);
like($log, qr/labelam: denied \{ select \} scontext=S:A,B:WEST;role=\d+ tcontext=TS tclass=db_tuple relation=public\.big rows=\d+/,
	'a denied read is audited with the session label and the row label');
is($node->safe_psql('postgres', q{
	SELECT count(*) > 0 FROM labelam.denials
	WHERE subject LIKE 'S:A,B:WEST;role=%' AND object = 'TS' AND perms = '{select}'}),
	't', 'and summarized in labelam.denials');

# permissive mode: decided and audited, not enforced
server_enforcing($node, 'off');
$offset = -s $node->logfile;
is(as('alice', "$serial $digest"), '6200 C,S:B:EAST,TS,TS:A,U', 'permissive: alice reads every row');
like(slurp_file($node->logfile, $offset),
	qr/labelam: denied \{ select \} scontext=S:A,B:WEST;role=\d+ tcontext=TS:A tclass=db_tuple relation=public\.big rows=\d+ permissive=1/,
	'audited as a denial, permissive=1');
server_enforcing($node, 'on');
is(as('alice', "$serial $digest"), '200 C,U', 'enforcing again');

# a physical standby: the model and the rows replicated, decisions the same,
# and a change of the model reaching open standby sessions
$node->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('lbac_standby');
$standby->init_from_backup($node, 'backup', has_streaming => 1);
$standby->start;
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', "$serial $digest", extra_params => [ '-U', 'alice' ]),
	'200 C,U', 'the standby decides as the primary');
my $on_standby = $standby->background_psql('postgres', extra_params => [ '-U', 'alice' ]);
is($on_standby->query_safe("$serial $digest"), '200 C,U', 'an open standby session');
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'S', 'U')});
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'U', 'U')});
$node->wait_for_catchup($standby);
is($on_standby->query_safe($digest), '100 U',
	'takes a revocation committed on the primary in at its next statement');
is($standby->safe_psql('postgres', 'SELECT lbac.session_label()', extra_params => [ '-U', 'alice' ]),
	'U:A,B:WEST', 'new standby sessions start within the new authorization');
like($standby->psql('postgres', q{SELECT lbac.create_level('X', 99)}) ? 'refused' : 'done', qr/refused/,
	'the model cannot be changed on the standby');
$on_standby->quit;
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'S', 'C')});

# dump and restore: the model as SQL, the rows with their labels
my $dir = PostgreSQL::Test::Utils::tempdir;
my $model = $node->safe_psql('postgres', 'SELECT lbac.dump_model()');
like($model, qr/SELECT lbac\.set_groups\('alice', 'WEST', 'WEST', 'WEST', 'WEST'\);/,
	'lbac.dump_model() writes the authorizations');
sub run_env
{
	my ($env, @cmd) = @_;
	local %ENV = (%ENV, %$env);
	delete $ENV{PGAPPNAME};
	my ($stdout, $stderr);
	my $ok = IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr);
	diag($stderr) unless $ok;
	return $ok;
}
my $sums = q{SELECT count(*) || ' ' || md5(string_agg(id || '/' || b.security_label, ',' ORDER BY id)) FROM big b};
my $before = $node->safe_psql('postgres', $sums);
ok(run_env({ PGOPTIONS => '-c labelam.dump_labels=on' }, 'pg_dump', '-Fc',
	'-f', "$dir/db.custom", '-d', $node->connstr('postgres')), 'pg_dump with labelam.dump_labels');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
ok(run_env({}, 'pg_restore', '--section=pre-data', '-d', $node->connstr('dst'), "$dir/db.custom"),
	'schema restored (CREATE EXTENSION labelam)');
$node->safe_psql('dst', $model);
ok(run_env({ PGOPTIONS => '-c labelam.restore_labels=on' }, 'pg_restore', '--section=data',
	'--section=post-data', '-d', $node->connstr('dst'), "$dir/db.custom"), 'data restored with labels');
is($node->safe_psql('dst', $sums), $before, 'identical (row, label) checksums after the round trip');
is($node->safe_psql('dst', "$serial $digest", extra_params => [ '-U', 'alice' ]), '200 C,U',
	'alice reads in the restored database what she read before');
is($node->safe_psql('dst', q{SELECT count(*) FROM labelam.verify_labels('big')}), '0',
	'the restored labels verify');

$standby->stop;
$node->stop;
done_testing();
