# test/t/227_am_attack_statistics.pl -- attacks on statistics and the planner
# (issue 10, class 6) under Debian's MLS policy: an s0 role tries to learn
# values of s1 and s3 rows from pg_stats, pg_stats_ext, pg_stats_ext_exprs and
# the planner's estimates, after ANALYZE by an s3 owner, VACUUM ANALYZE,
# autovacuum, extended and expression statistics, and by a binary search on
# EXPLAIN estimates that PostgreSQL refines with index endpoint probes.  The
# statistics label is s0 (labelam.statistics_label): nothing above it may
# reach a catalog.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $s0 = 'staff_u:staff_r:staff_t:s0';
my $s3 = 'staff_u:staff_r:staff_t:s3';
my $node = labelam_mls_node('stats', qq{
labelam.statistics_label = '$s0'
autovacuum = on
autovacuum_naptime = 1s
});

my %level = (r_s0 => 's0', r_s1 => 's1', r_s3 => 's3');
$node->safe_psql('postgres', q{CREATE EXTENSION labelam});
mls_roles($node, \%level);

sub as { return as_role($node, @_); }

# A table owned by r_s3, readable by everyone in SQL, filled at three
# levels.  Hidden values are easy to spot: text containing "SECRET", and
# integers of 100000 and more (s0 rows have v <= 1000).  s3 rows are the
# most common values of both columns, so any sample that includes them
# puts them into most_common_vals.
sub make_table
{
	my ($name, $opts) = @_;
	$opts //= 'WITH (autovacuum_enabled = off)';
	$node->safe_psql('postgres', qq{
		CREATE TABLE $name (id int, v int, s text) USING labelheap $opts;
		ALTER TABLE $name OWNER TO r_s3;
		GRANT ALL ON $name TO PUBLIC;
	});
	as('r_s0', qq{INSERT INTO $name SELECT g, v, 'pub-' || v % 10
		FROM (SELECT g, CASE WHEN g % 3 = 0 THEN 7 ELSE g % 1000 + 1 END v
			  FROM generate_series(1, 3000) g) x});
	as('r_s1', qq{INSERT INTO $name SELECT g, 200000 + g % 300, 'S1SECRET-' || g % 10
		FROM generate_series(3001, 4000) g});
	as('r_s3', qq{INSERT INTO $name SELECT g, CASE WHEN g % 2 = 0 THEN 777777 ELSE 900000 + g END,
		'TOPSECRET-' || g % 5 FROM generate_series(4001, 8000) g});
}

# leaked values in a text: "SECRET" or an integer >= 100000
sub leaks
{
	my ($text) = @_;
	my @found = ($text =~ /(\w*SECRET[\w-]*)/g);
	push @found, grep { $_ >= 100000 } ($text =~ /(?<![\d.])(\d+)(?![\d.])/g);
	return join(' ', @found);
}

# what r_s0 reads in pg_stats for a table or index
sub pg_stats_as_s0
{
	my ($rel) = @_;
	return as('r_s0', qq{
		SELECT coalesce(string_agg(attname || ': ' || coalesce(most_common_vals::text, '') || ' '
			|| coalesce(histogram_bounds::text, ''), E'\n'), '')
		FROM pg_stats WHERE tablename = '$rel'});
}

# every value pg_statistic and pg_statistic_ext_data hold for a relation
# (as superuser: what any role might ever be shown)
sub raw_stats
{
	my ($rel) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT coalesce(string_agg(concat_ws(' ', stavalues1::text, stavalues2::text,
			stavalues3::text, stavalues4::text, stavalues5::text), E'\n'), '')
		FROM pg_statistic WHERE starelid = '$rel'::regclass
		  OR starelid IN (SELECT indexrelid FROM pg_index WHERE indrelid = '$rel'::regclass)
		UNION ALL
		SELECT coalesce(string_agg(m.values::text, E'\n'), '')
		FROM pg_statistic_ext x JOIN pg_statistic_ext_data d ON d.stxoid = x.oid,
			pg_mcv_list_items(d.stxdmcv) m
		WHERE x.stxrelid = '$rel'::regclass
		UNION ALL
		SELECT coalesce(string_agg(concat_ws(' ', e.stavalues1::text, e.stavalues2::text,
			e.stavalues3::text, e.stavalues4::text, e.stavalues5::text), E'\n'), '')
		FROM pg_statistic_ext x JOIN pg_statistic_ext_data d ON d.stxoid = x.oid,
			unnest(d.stxdexpr) e
		WHERE x.stxrelid = '$rel'::regclass});
}

# attack 1: an s3 owner runs ANALYZE; s0 reads pg_stats
make_table('t');
as('r_s3', 'ANALYZE t');
my $st = pg_stats_as_s0('t');
is(leaks($st), '', 'attack: s0 reads most_common_vals and histogram_bounds after ANALYZE by an s3 owner');
like($st, qr/^v: \{7[,}].*^s: .*pub-|^s: .*pub-.*^v: \{7[,}]/ms, 'pg_stats holds the values of s0 rows (sampled with the statistics label)');
is(leaks(raw_stats('t')), '', 'attack: pg_statistic holds no value above s0 after ANALYZE by s3');

# control: the same check sees hidden values when the statistics label is s3
$node->append_conf('postgresql.conf', "labelam.statistics_label = '$s3'");
$node->reload;
as('r_s3', 'ANALYZE t');
like(leaks(pg_stats_as_s0('t')), qr/TOPSECRET.*777777|777777.*TOPSECRET/s,
	'control: with statistics label s3, pg_stats would show s3 values (the checks can fail)');
$node->append_conf('postgresql.conf', "labelam.statistics_label = '$s0'");
$node->reload;
as('r_s3', 'ANALYZE t');
is(leaks(pg_stats_as_s0('t')), '', 'statistics label back at s0: ANALYZE replaces the hidden values');

# attack 2: VACUUM ANALYZE by the s3 owner
make_table('t_vac');
as('r_s3', 'VACUUM ANALYZE t_vac');
$st = pg_stats_as_s0('t_vac');
is(leaks($st), '', 'attack: s0 reads pg_stats after VACUUM ANALYZE by an s3 owner');
like($st, qr/pub-/, 'VACUUM ANALYZE sampled the s0 rows');

# attack 3: the owner tries to choose the statistics label for its session
for my $try ("SET labelam.statistics_label = '$s3'",
	"SELECT set_config('labelam.statistics_label', '$s3', false)",
	"ALTER ROLE r_s3 SET labelam.statistics_label = '$s3'",
	"ALTER SYSTEM SET labelam.statistics_label = '$s3'")
{
	my ($rc, $out, $err) = $node->psql('postgres', "$try; ANALYZE t",
		extra_params => [ '-U', 'r_s3', '-v', 'ON_ERROR_STOP=1' ]);
	like($err, qr/cannot be changed now|cannot be set|permission denied|must be superuser/,
		"attack: a session cannot choose the statistics label ($try)");
}
$node->psql('postgres', "SET labelam.statistics_label = '$s3'; ANALYZE t",
	extra_params => [ '-U', 'r_s3' ]);
is(leaks(raw_stats('t')), '', 'after those attempts pg_statistic still holds no value above s0');

# attack 4: autovacuum's ANALYZE (it has no session label)
make_table('t_auto');
$node->safe_psql('postgres', q{ALTER TABLE t_auto SET (autovacuum_enabled = on,
	autovacuum_analyze_threshold = 0, autovacuum_analyze_scale_factor = 0)});
ok($node->poll_query_until('postgres',
		"SELECT last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 't_auto'"),
	'autovacuum analyzed t_auto');
$st = pg_stats_as_s0('t_auto');
is(leaks($st), '', 'attack: s0 reads pg_stats after autovacuum analyzed the table');
like($st, qr/pub-/, 'autovacuum sampled the s0 rows with the statistics label');

# pg_stats_ext and pg_stats_ext_exprs show only statistics of tables whose
# owner the reader is a member of (PostgreSQL >= 15.7): tables owned by a
# group that has members at s0 and s3, so that r_s0 may read them
$node->safe_psql('postgres', q{
	CREATE ROLE team NOLOGIN;
	GRANT team TO r_s0, r_s3;
});

# attack 5: extended statistics (mcv, ndistinct, dependencies) on v and s
make_table('t_ext');
$node->safe_psql('postgres', q{
	ALTER TABLE t_ext OWNER TO team;
	CREATE STATISTICS t_ext_mcv (mcv, ndistinct, dependencies) ON v, s FROM t_ext;
	ALTER STATISTICS t_ext_mcv OWNER TO team;
});
as('r_s3', 'ANALYZE t_ext');
my $ext = as('r_s0', q{
	SELECT coalesce(string_agg(array_to_string(most_common_vals, '|'), E'\n'), '')
	FROM pg_stats_ext WHERE tablename = 't_ext'});
is(leaks($ext), '', 'attack: s0 reads pg_stats_ext.most_common_vals after ANALYZE by s3');
like($ext, qr/pub-/, 'the extended MCV list holds s0 rows');
is(leaks(raw_stats('t_ext')), '', 'attack: pg_statistic_ext_data holds no value above s0');

# attack 6: statistics on expressions (CREATE STATISTICS on one expression,
# and on expressions with a column)
make_table('t_expr');
$node->safe_psql('postgres', q{
	ALTER TABLE t_expr OWNER TO team;
	CREATE STATISTICS t_expr_one ON (upper(s)) FROM t_expr;
	CREATE STATISTICS t_expr_two ON (v * 2), (s || '!') FROM t_expr;
	ALTER STATISTICS t_expr_one OWNER TO team;
	ALTER STATISTICS t_expr_two OWNER TO team;
});
as('r_s3', 'ANALYZE t_expr');
my $exprs = as('r_s0', q{
	SELECT coalesce(string_agg(coalesce(most_common_vals::text, '') || ' '
		|| coalesce(histogram_bounds::text, ''), E'\n'), '')
	FROM pg_stats_ext_exprs WHERE tablename = 't_expr'});
is(leaks($exprs), '', 'attack: s0 reads pg_stats_ext_exprs after ANALYZE by s3');
like($exprs, qr/PUB-.*pub-.*!/s, 'expression statistics are computed from the s0 sample');
is(leaks(raw_stats('t_expr')), '', 'attack: stored expression statistics hold no value above s0');

# attack 7: an expression index (its statistics come from the same sample)
make_table('t_idx');
# (an index build reads every row: its owner at s3 may)
$node->safe_psql('postgres', 'GRANT CREATE ON SCHEMA public TO r_s3');
as('r_s3', q{
	CREATE INDEX t_idx_v ON t_idx ((v + 1));
	CREATE INDEX t_idx_s ON t_idx ((lower(s)));
});
as('r_s3', 'ANALYZE t_idx');
my $idx = $node->safe_psql('postgres', q{
	SELECT string_agg(c.relname || ': ' || coalesce(s.stavalues1::text, '') || ' '
		|| coalesce(s.stavalues2::text, ''), E'\n')
	FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
	WHERE c.relname IN ('t_idx_v', 't_idx_s')});
is(leaks($idx), '', 'attack: statistics of expression indexes hold no value above s0');
like($idx, qr/t_idx_s: .*pub-/, 'the expression index statistics hold s0 values');
like($idx, qr/t_idx_v: \{8[,}]/, 'the expression index on v + 1 has the s0 MCV 7 + 1');

# attack 8: the planner's estimate for a value only s3 rows hold, as MCV
# (777777 is half of the table): the same as for a value nobody holds
make_table('t_sel');
as('r_s3', 'ANALYZE t_sel');
my $rows_of = sub {
	my ($where) = @_;
	my $plan = as('r_s0', "EXPLAIN SELECT * FROM t_sel WHERE $where");
	$plan =~ /rows=(\d+)/ or die "no estimate in $plan";
	return $1;
};
is($rows_of->('v = 777777'), $rows_of->('v = 777776'),
	'attack: the estimate for a hidden common value equals that of an absent value');
is($rows_of->("s = 'TOPSECRET-1'"), $rows_of->("s = 'TOPSECRET-x'"),
	'attack: the estimate for a hidden common string equals that of an absent string');

# attack 9: inheritance tree (partitioned table) statistics
$node->safe_psql('postgres', q{
	CREATE TABLE tp (id int, v int, s text) PARTITION BY RANGE (id);
	CREATE TABLE tp1 PARTITION OF tp FOR VALUES FROM (0) TO (4001) USING labelheap WITH (autovacuum_enabled = off);
	CREATE TABLE tp2 PARTITION OF tp FOR VALUES FROM (4001) TO (100000) USING labelheap WITH (autovacuum_enabled = off);
	ALTER TABLE tp OWNER TO r_s3;
	ALTER TABLE tp1 OWNER TO r_s3;
	ALTER TABLE tp2 OWNER TO r_s3;
	GRANT ALL ON tp TO PUBLIC;
});
as('r_s0', q{INSERT INTO tp SELECT g, g % 1000 + 1, 'pub-' || g % 100 FROM generate_series(1, 3000) g});
as('r_s3', q{INSERT INTO tp SELECT g, 777777, 'TOPSECRET-' || g % 5 FROM generate_series(3001, 8000) g});
as('r_s3', 'ANALYZE tp');
$st = pg_stats_as_s0('tp');
is(leaks($st), '', 'attack: s0 reads the partitioned parent\'s statistics after ANALYZE by s3');
like($st, qr/pub-/, 'the parent\'s statistics come from the s0 rows of its partitions');
is(leaks(raw_stats('tp2')), '', 'the partition holding only s3 rows has no value in pg_statistic');

# attack 10: binary search on EXPLAIN estimates for "WHERE v > $x" over an
# index whose maximum is a hidden row's value.  PostgreSQL replaces the
# histogram's last bound with the index's actual maximum when the search
# reaches the last bucket; the smallest x whose estimate is the minimum is
# then (within 0.2%) that maximum.  The search runs as the caller.
$node->safe_psql('postgres', q{
	CREATE FUNCTION est_rows(tab text, x bigint) RETURNS float8 LANGUAGE plpgsql AS $$
	DECLARE j json;
	BEGIN
		EXECUTE format('EXPLAIN (FORMAT JSON) SELECT * FROM %I WHERE v > %s', tab, x) INTO j;
		RETURN (j->0->'Plan'->>'Plan Rows')::float8;
	END $$;
	CREATE FUNCTION search_max(tab text) RETURNS bigint LANGUAGE plpgsql AS $$
	DECLARE lo bigint := 0; hi bigint := 100000000; mid bigint; floor_rows float8;
	BEGIN
		floor_rows := est_rows(tab, hi);
		WHILE lo < hi LOOP
			mid := (lo + hi) / 2;
			IF est_rows(tab, mid) <= floor_rows THEN hi := mid; ELSE lo := mid + 1; END IF;
		END LOOP;
		RETURN lo;
	END $$;
});
for my $am ('heap', 'labelheap')
{
	$node->safe_psql('postgres', qq{
		CREATE TABLE e_$am (v int) USING $am WITH (autovacuum_enabled = off);
		CREATE INDEX ON e_$am (v);
		ALTER TABLE e_$am OWNER TO r_s3;
		GRANT ALL ON e_$am TO PUBLIC;
	});
	as('r_s0', "INSERT INTO e_$am SELECT g FROM generate_series(1, 100000) g");
	as('r_s3', "ANALYZE e_$am");
}
# control: on heap, rows added after ANALYZE are found by the search
$node->safe_psql('postgres', 'INSERT INTO e_heap VALUES (5000000)');
my $found = as('r_s0', "SELECT search_max('e_heap')");
ok(abs($found - 5000000) < 10000,
	"control: on heap the search finds an unanalyzed maximum (5000000 ~ $found)");

my $absent = as('r_s0', "SELECT search_max('e_labelheap')");
ok($absent <= 100000, "without hidden rows the search ends at the visible maximum ($absent)");
as('r_s3', 'INSERT INTO e_labelheap VALUES (5000000)');
# (with a hidden row present the probes are off for s0, so the search ends
# at the histogram's last bound rather than the visible maximum: that the
# table holds rows beyond s0's reach is the existence channel that
# doc/security-model.md documents, never their values)
my $hidden = as('r_s0', "SELECT search_max('e_labelheap')");
ok($hidden <= 100000 && $hidden >= $absent - 1000,
	"attack: binary search on EXPLAIN estimates does not converge to a hidden maximum ($hidden)");
as('r_s3', 'ANALYZE e_labelheap');
# (a new ANALYZE samples anew: the visible histogram may move a little)
my $again = as('r_s0', "SELECT search_max('e_labelheap')");
ok($again <= 100000,
	"attack: nor after the s3 owner analyzes the table again ($again)");
as('r_s3', 'INSERT INTO e_labelheap VALUES (7000000)');
is(as('r_s0', "SELECT search_max('e_labelheap')"), $again,
	'the estimates do not change when the hidden maximum changes');
# the minimum side of the probe too
as('r_s3', 'INSERT INTO e_labelheap VALUES (-5000000)');
is(as('r_s0', q{SELECT est_rows('e_labelheap', -100) = est_rows('e_labelheap', -4000000)}), 't',
	'attack: estimates below the visible minimum do not reveal a hidden minimum');
# the plans still use the index for selective ranges
like(as('r_s0', 'EXPLAIN SELECT * FROM e_labelheap WHERE v > 99990'), qr/Index Only Scan|Index Scan|Bitmap/,
	'the index is still used for selective ranges');

# the default: labelam.statistics_label empty means default_client_label
# (s0 here); both empty mean no rows are sampled
$node->safe_psql('postgres', q{INSERT INTO labelam.role_label VALUES (current_user::regrole, 'staff_u:staff_r:staff_t:s0')});
$node->append_conf('postgresql.conf', "labelam.statistics_label = ''");
$node->reload;
make_table('t_default');
as('r_s3', 'ANALYZE t_default');
$st = pg_stats_as_s0('t_default');
is(leaks($st), '', 'statistics label empty: ANALYZE samples as labelam.default_client_label (s0)');
like($st, qr/pub-/, 'and the s0 rows are sampled');
$node->append_conf('postgresql.conf', "labelam.default_client_label = ''");
$node->reload;
make_table('t_none');
as('r_s3', 'ANALYZE t_none');
is(as('r_s0', q{SELECT count(*) FROM pg_stats WHERE tablename = 't_none'}), '0',
	'both empty: ANALYZE samples no rows');
# a table's own label is an object context: the policy grants it nothing
$node->append_conf('postgresql.conf',
	"labelam.statistics_label = 'system_u:object_r:sepgsql_table_t:s0'");
$node->reload;
make_table('t_objlabel');
as('r_s3', 'ANALYZE t_objlabel');
is(as('r_s0', q{SELECT count(*) FROM pg_stats WHERE tablename = 't_objlabel'}), '0',
	'the table\'s label as statistics subject samples no rows (why it is not the default)');

# a label the policy does not know: ANALYZE fails, naming the setting
$node->append_conf('postgresql.conf', "labelam.statistics_label = 'nobody_u:nobody_r:no_such_t:s0'");
$node->reload;
my ($rc, $out, $err) = $node->psql('postgres', 'ANALYZE t', extra_params => [ '-U', 'r_s3' ]);
like($err, qr/ERROR:  invalid security label.*CONTEXT:  security label of labelam.statistics_label/s,
	'an invalid statistics label makes ANALYZE fail, naming the setting');

$node->stop;
done_testing();
