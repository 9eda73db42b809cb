# test/t/205_am_storage_failover.pl -- a streaming standby promoted while
# sessions at three MLS levels write (inserts, updates, out-of-line values)
# holds every committed row with its label, and enforces the policy as the
# primary did: the same rows readable at each level, the same refusals.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(usleep);
use Test::More;
use LabelamTest;

my $mls = selinux_policy('mls');
plan(skip_all => "$mls is missing (package selinux-policy-mls)") unless -f $mls;
my $TOP = 'staff_u:sysadm_r:sysadm_t:s15:c0.c1023';

my $primary = labelam_node('primary', allows_streaming => 1);
$primary->append_conf('postgresql.conf', qq{
labelam.policy_file = '$mls'
labelam.default_client_label = 'staff_u:staff_r:staff_t:s0'
# rows under test, owned by ordinary roles: object checks are test 500's
labelam.object_checks = off
});
$primary->start;
$primary->safe_psql('postgres', qq{
	CREATE EXTENSION labelam;
	CREATE ROLE admin SUPERUSER LOGIN;
	CREATE ROLE r_s0 LOGIN;
	CREATE ROLE r_s1 LOGIN;
	CREATE ROLE r_s3 LOGIN;
	INSERT INTO labelam.role_label VALUES
		('admin', '$TOP'),
		('r_s0', 'staff_u:staff_r:staff_t:s0'),
		('r_s1', 'staff_u:staff_r:staff_t:s1'),
		('r_s3', 'staff_u:staff_r:staff_t:s3');
	CREATE TABLE ft (lvl text, n int, v text, PRIMARY KEY (lvl, n)) USING labelheap;
	GRANT ALL ON ft TO PUBLIC;
	-- each level's writer: a row a transaction, every third one updating
	-- the row before, every twentieth one with an out-of-line value
	CREATE PROCEDURE load(p_lvl text) LANGUAGE plpgsql AS \$\$
	DECLARE i int := 0;
	BEGIN
		LOOP
			i := i + 1;
			INSERT INTO ft VALUES (p_lvl, i, CASE WHEN i % 20 = 0
				THEN (SELECT string_agg(md5(g::text || i), '') FROM generate_series(1, 300) g)
				ELSE p_lvl || '-' || i END);
			IF i % 3 = 0 THEN
				UPDATE ft SET v = v || '-updated' WHERE lvl = p_lvl AND n = i - 1;
			END IF;
			COMMIT;
		END LOOP;
	END \$\$;
});
$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;

# the load, one session a level, until the primary goes away
my @loaders;
for my $lvl (qw(s0 s1 s3))
{
	my ($out, $err) = ('', '');
	push @loaders, IPC::Run::start(
		[ 'psql', '-X', '-U', "r_$lvl", '-d', $primary->connstr('postgres'),
		  '-c', "CALL load('$lvl')" ], '>', \$out, '2>', \$err);
}
# wait until every level has written rows, then a while more
my $loaded = 0;
for (1 .. 600)
{
	$loaded = $primary->safe_psql('postgres',
		q{SELECT count(DISTINCT lvl) = 3 AND count(*) > 300 FROM ft},
		extra_params => [ '-U', 'admin' ]) eq 't';
	last if $loaded;
	usleep(100_000);
}
ok($loaded, 'the three writers are writing') or BAIL_OUT('no load');
$primary->wait_for_catchup($standby);

# promote mid-load, then the primary crashes
$standby->promote;
$primary->stop('immediate');
$_->finish for @loaders;

my %label = map { $_ => "staff_u:object_r:sepgsql_table_t:$_" } qw(s0 s1 s3);
my $by_level = q{SELECT lvl || ':' || count(*) FROM ft GROUP BY lvl ORDER BY lvl};
my $counts = $standby->safe_psql('postgres', $by_level, extra_params => [ '-U', 'admin' ]);
like($counts, qr/^s0:\d+\ns1:\d+\ns3:\d+$/, 'the promoted standby holds rows of every level')
	or diag($counts);
is($standby->safe_psql('postgres', q{
	SELECT count(*) FROM ft t
	WHERE t.security_label IS DISTINCT FROM 'staff_u:object_r:sepgsql_table_t:' || lvl},
	extra_params => [ '-U', 'admin' ]),
	'0', 'every row carries the label of the level that wrote it');
is($standby->safe_psql('postgres', q{
	SELECT count(*) FROM ft WHERE n % 20 = 0 AND length(v) < 9000},
	extra_params => [ '-U', 'admin' ]),
	'0', 'out-of-line values read whole');
is($standby->safe_psql('postgres', q{SELECT count(*) FROM labelam.verify_labels('ft')}),
	'0', 'labelam.verify_labels finds no damaged label');
is($standby->safe_psql('postgres', q{
	SELECT string_agg(labelam.label_text(secid), ',' ORDER BY labelam.label_text(secid))
	FROM labelam.table_labels WHERE relid = 'ft'::regclass}),
	join(',', map { $label{$_} } qw(s0 s1 s3)), 'the label set holds the three labels');

# enforcement: each level reads its own and lower rows, as on the primary
my %sees = (s0 => [qw(s0)], s1 => [qw(s0 s1)], s3 => [qw(s0 s1 s3)]);
my %count = map { /^(\w+):(\d+)$/ } split /\n/, $counts;
for my $lvl (qw(s0 s1 s3))
{
	my @vis = @{ $sees{$lvl} };
	is($standby->safe_psql('postgres', $by_level, extra_params => [ '-U', "r_$lvl" ]),
		join("\n", map { "$_:$count{$_}" } @vis), "r_$lvl reads exactly the rows at or below $lvl");
}
my ($rc, $out, $err) = $standby->psql('postgres',
	q{UPDATE ft SET v = 'x' WHERE lvl = 's0' AND n = 1},
	extra_params => [ '-U', 'r_s1', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied to update rows of relation "ft"/,
	'r_s1 may not write s0 rows on the promoted server');
($rc, $out, $err) = $standby->psql('postgres', 'TRUNCATE ft',
	extra_params => [ '-U', 'r_s0', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied to truncate relation "ft"/,
	'r_s0 may not truncate rows beyond its reach');
is($standby->safe_psql('postgres', q{
	INSERT INTO ft VALUES ('s1', -1, 'after promotion') RETURNING ft.security_label},
	extra_params => [ '-U', 'r_s1' ]),
	$label{s1}, 'new rows on the promoted server get the policy\'s label');
is($standby->safe_psql('postgres', q{SELECT count(*) FROM ft WHERE n = -1},
	extra_params => [ '-U', 'r_s0' ]),
	'0', 'and are hidden from lower levels');

$standby->stop;
done_testing();
