# test/t/603_shared_state_statistics.pl -- statistics must not fail open
# (issue 38, item 3): the administrator's default label is the top level,
# so labelam.statistics_label (which defaults to it) makes ANALYZE sample
# s3 rows.  An s0 session then reads their values in pg_stats,
# pg_stats_ext, pg_stats_ext_exprs, the statistics of an index
# expression and of a partitioned parent, the planner's estimates and
# widths; an s0 superuser reads pg_statistic itself, or COPYs it.
# Design (src/am/channels/statistics_labels.c): statistics carry the
# labels of the rows they were computed from and are shown only to
# sessions that may select every one of them; the labels are replaced
# when every statistic of the table is recomputed, added otherwise.
# Controls: an s3 session sees them; once the statistics label is s0
# again and the table re-analyzed, s0 sees the new ones.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $top = 'staff_u:sysadm_r:sysadm_t:s15:c0.c1023';
my $node = attack_node('statistics', qq{
labelam.default_client_label = '$top'
autovacuum = off
});
$node->safe_psql('postgres', q{
	CREATE ROLE su_s0 LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES ('su_s0', 'staff_u:staff_r:staff_t:s0');
	CREATE TABLE t (id int, v text, w text) USING labelheap;
	CREATE INDEX t_upper ON t (upper(v));
	CREATE STATISTICS t_ext (mcv) ON v, w FROM t;
	CREATE STATISTICS t_expr ON lower(v), w FROM t;
	CREATE TABLE tp (id int, v text) PARTITION BY RANGE (id);
	CREATE TABLE tp1 PARTITION OF tp FOR VALUES FROM (0) TO (1000) USING labelheap;
	GRANT ALL ON t, tp, tp1 TO PUBLIC;
});
for my $lvl (qw(s0 s3))
{
	my $mark = $lvl eq 's0' ? 'public-s0' : 'SECRET-s3';
	my $n = $lvl eq 's0' ? 100 : 300;
	$node->safe_psql('postgres', qq{
		INSERT INTO t SELECT g, '$mark-' || (g % 3), '$mark-w' FROM generate_series(1, $n) g;
		INSERT INTO tp SELECT g, '$mark-' || (g % 3) FROM generate_series(1, $n) g;
	}, extra_params => [ '-U', "r_$lvl" ]);
}

my $stats = q{
	SELECT tablename || ':' || attname || ':' || coalesce(most_common_vals::text, '') || coalesce(histogram_bounds::text, '')
	  FROM pg_stats WHERE tablename IN ('t', 't_upper', 'tp') ORDER BY 1;
	SELECT statistics_name || ':' || most_common_vals::text FROM pg_stats_ext WHERE tablename = 't' AND most_common_vals IS NOT NULL;
	SELECT statistics_name || ':' || most_common_vals::text FROM pg_stats_ext_exprs WHERE tablename = 't' AND most_common_vals IS NOT NULL;
};
sub stats_as { my ($role) = @_; return as_role($node, $role, $stats); }
# the planner's row estimate of a query, as role
sub estimate
{
	my ($role, $sql) = @_;
	my $plan = as_role($node, $role, "EXPLAIN $sql");
	my ($rows) = $plan =~ /rows=(\d+)/;
	return $rows;
}
sub width
{
	my ($role, $sql) = @_;
	my ($w) = as_role($node, $role, "EXPLAIN $sql") =~ /width=(\d+)/;
	return $w;
}

$node->safe_psql('postgres', 'ANALYZE t; ANALYZE tp');
my $s0 = stats_as('r_s0');
no_leak('s0', 'attack: pg_stats after ANALYZE sampled s3 rows', $s0);
is($s0, '', '... s0 sees no statistics of the table or the partitioned parent');
like(stats_as('r_s3'), qr/^t:v:\{SECRET-s3-/m, 'control: s3, which may select every row sampled, sees them');
like(stats_as('r_s3'), qr/^tp:v:\{SECRET-s3-/m, 'control: ... the partitioned parent\'s');
# the index's and the extended statistics are shown to the table's owner
# (and superusers) only
$s0 = stats_as('su_s0');
no_leak('s0', 'attack: an s0 superuser reads pg_stats (the index expression\'s too), pg_stats_ext and pg_stats_ext_exprs', $s0);
is($s0, '', '... and sees none of them');
my $top_stats = $node->safe_psql('postgres', $stats);
like($top_stats, qr/^t_upper:upper:\{SECRET-S3-/m, 'control: the administrator sees the index expression\'s');
like($top_stats, qr/^t_ext:\{\{SECRET-s3-/m, 'control: ... and the extended statistics\'');
like($top_stats, qr/^t_expr:\{secret-s3-/m, 'control: ... and those of the expressions of extended statistics');

my $secret_est = estimate('r_s0', q{SELECT * FROM t WHERE v = 'SECRET-s3-1'});
is($secret_est, estimate('r_s0', q{SELECT * FROM t WHERE v = 'no-such-value'}),
	'attack: the planner\'s estimate for a hidden value tells s0 nothing the estimate for any value does not');
isnt(estimate('r_s3', q{SELECT * FROM t WHERE v = 'SECRET-s3-1'}),
	estimate('r_s3', q{SELECT * FROM t WHERE v = 'no-such-value'}),
	'control: s3\'s estimates use the statistics');
is(estimate('r_s0', q{SELECT * FROM t WHERE upper(v) = 'SECRET-S3-1'}),
	estimate('r_s0', q{SELECT * FROM t WHERE upper(v) = 'NO-SUCH-VALUE'}),
	'attack: nor through the index expression\'s statistics');
is(estimate('r_s0', q{SELECT * FROM t WHERE v = 'SECRET-s3-1' AND w = 'SECRET-s3-w'}),
	estimate('r_s0', q{SELECT * FROM t WHERE v = 'no-such-value' AND w = 'no-such-w'}),
	'attack: nor through the extended statistics');
is(estimate('r_s0', q{SELECT * FROM tp WHERE v = 'SECRET-s3-1'}),
	estimate('r_s0', q{SELECT * FROM tp WHERE v = 'no-such-value'}),
	'attack: nor through the partitioned parent\'s');
isnt(width('r_s0', q{SELECT v FROM t}), width('r_s3', q{SELECT v FROM t}),
	'attack: the average width of the sampled values is not s0\'s either (it gets the type\'s default)');

no_leak('s0', 'attack: an s0 superuser reads pg_statistic and pg_statistic_ext_data',
	as_role($node, 'su_s0', q{SELECT stavalues1::text, stavalues2::text FROM pg_statistic;
		SELECT stxdmcv::text FROM pg_statistic_ext_data}));
my ($rc, $out, $err) = run($node, 'su_s0', q{COPY pg_statistic TO STDOUT});
denied($err, 'attack: an s0 superuser COPYs pg_statistic');
no_leak('s0', '... and gets nothing', $out);
like(as_role($node, 'su_s0', q{SELECT count(*) FROM pg_statistic WHERE starelid = 't'::regclass}), qr/^0$/,
	'... its queries see no statistics of t');

# the configuration fixed: hidden until the table is analyzed again
$node->append_conf('postgresql.conf', "labelam.statistics_label = 'staff_u:staff_r:staff_t:s0'");
$node->reload;
is(stats_as('r_s0'), '', 'attack: a new statistics label does not show statistics sampled under the old one');
$node->safe_psql('postgres', 'ANALYZE t; ANALYZE tp');
$s0 = stats_as('r_s0');
no_leak('s0', 're-analyzed at s0: no s3 value', $s0);
like($s0, qr/^t:v:\{public-s0-/m, 'control: s0 sees the statistics of the s0 rows once they replaced the others');
like($s0, qr/^tp:v:\{public-s0-/m, 'control: ... the partitioned parent\'s too');

# a column ANALYZE no longer computes keeps its old statistics: the old
# labels stay with them
$node->append_conf('postgresql.conf', "labelam.statistics_label = ''");
$node->reload;
$node->safe_psql('postgres', 'ANALYZE t');
$node->safe_psql('postgres', q{ALTER TABLE t ALTER COLUMN w SET STATISTICS 0});
$node->append_conf('postgresql.conf', "labelam.statistics_label = 'staff_u:staff_r:staff_t:s0'");
$node->reload;
$node->safe_psql('postgres', 'ANALYZE t');
no_leak('s0', 'attack: statistics left from a higher sample (a column no longer analyzed)', stats_as('r_s0'));
$node->safe_psql('postgres', q{ALTER TABLE t ALTER COLUMN w SET STATISTICS -1; ANALYZE t});
like(stats_as('r_s0'), qr/^t:w:\{public-s0-w\}/m, 'control: analyzed again, the column\'s statistics are s0\'s');

# without progress reports (track_activities off) the labels are only added
$node->append_conf('postgresql.conf', "labelam.statistics_label = ''");
$node->reload;
$node->safe_psql('postgres', 'SET track_activities = off; ANALYZE tp');
no_leak('s0', 'attack: ANALYZE without progress reports', stats_as('r_s0'));

$node->stop;
done_testing();
