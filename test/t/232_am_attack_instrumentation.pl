# test/t/232_am_attack_instrumentation.pl -- attacks on instrumentation:
# what executor instrumentation and the cumulative statistics count of the
# rows an index scan finds before labelheap filters them.  An s0 session
# tries to recover the value of one s1 row (v = 424242) of a table whose
# visible rows have v <= 1000, by binary searches on the counts it can
# observe:
#   1. EXPLAIN (ANALYZE): a Bitmap Index Scan's "actual rows" and the
#      Bitmap Heap Scan's "Heap Blocks";
#   2. EXPLAIN (ANALYZE, BUFFERS): an Index Scan's shared hits;
#   3. the same, nested in a function the plan calls (the outer plan reads
#      no labelheap table) and at plan time (an immutable function folded
#      by the planner: "Planning: Buffers");
#   4. auto_explain with log_analyze, whose LOG a session receives with
#      client_min_messages = log;
#   5. per-relation counters (pg_stat_get_xact_tuples_returned and kin,
#      their non-xact versions, pg_stat_user_* and pg_statio_user_* views);
#   6. database-wide counters (pg_stat_database);
#   7. a row a higher session has written but not committed yet, in a
#      table holding only rows the attacker may select;
#   8-12 (a review of the fix): the decision cache's statistics, a cursor
#      read inside EXPLAIN, a parallel worker's nested query, a label that
#      commits while the instrumented query runs, the counters of a table
#      a higher session truncated; and the counters reached
#      through operators, aggregates, inlining, PL/pgSQL and ROWS FROM.
# Design: EXPLAIN with ANALYZE or BUFFERS (and instrumented execution under
# auto_explain) is refused with 42501 for a session that cannot select
# every row of a labelheap table the statement reads; the counters read
# NULL for a labelheap table (and its indexes, and the database holding
# it) whose rows the session may not all select.  Controls: the same
# instruments work on a heap table and on a labelheap table holding only
# rows the session may select, and for a session that may select every row.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $s1 = 'staff_u:staff_r:staff_t:s1';
my $node = attack_node('instrumentation', q{
autovacuum = off
track_counts = on
max_worker_processes = 8
max_parallel_workers = 4
});
# the bootstrap superuser (the "superuser" of the controls) at s1: it may
# select every row of t
$node->safe_psql('postgres',
	qq{INSERT INTO labelam.role_label VALUES (current_user::regrole, '$s1')});

my $HIDDEN = 424242;

# t: s0 rows with v in 1..1000 and one s1 row with v = 424242
$node->safe_psql('postgres', q{
	CREATE TABLE t (id int PRIMARY KEY, v int, s text) USING labelheap;
	CREATE INDEX t_v_idx ON t (v);
	ALTER TABLE t OWNER TO r_s1;
	GRANT ALL ON t TO PUBLIC;
	-- controls: a heap table, and a labelheap table of s0 rows only
	CREATE TABLE h (id int PRIMARY KEY, v int, s text) USING heap;
	CREATE INDEX h_v_idx ON h (v);
	GRANT ALL ON h TO PUBLIC;
	CREATE TABLE t0 (id int PRIMARY KEY, v int, s text) USING labelheap;
	CREATE INDEX t0_v_idx ON t0 (v);
	GRANT ALL ON t0 TO PUBLIC;
});
for my $tab ('t', 'h', 't0')
{
	as_role($node, 'r_s0', qq{INSERT INTO $tab SELECT g, g % 1000 + 1, 'pub-' || g
		FROM generate_series(1, 20000) g});
}
as_role($node, 'r_s1', "INSERT INTO t VALUES (1000001, $HIDDEN, 'SECRET-s1-1')");
as_role($node, 'r_s1', 'VACUUM ANALYZE t');
$node->safe_psql('postgres', 'VACUUM ANALYZE h; VACUUM ANALYZE t0');

is(as_role($node, 'r_s0', 'SELECT count(*), max(v) FROM t'), '20000|1000',
	'r_s0 selects the 20000 s0 rows of t, none above v = 1000');
is(as_role($node, 'r_s1', "SELECT count(*) FROM t WHERE v = $HIDDEN"), '1',
	'r_s1 selects the hidden row');
is(as_role($node, 'r_s0', "SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000"), '0',
	'r_s0 selects nothing in v BETWEEN 424000 AND 425000');

my $BITMAP = 'SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;';
my $INDEX = 'SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;';

# refused(role, sql, name): sql (stopping at the first error) fails with
# 42501 / permission denied; returns (stdout, stderr)
sub refused
{
	my ($role, $sql, $name) = @_;
	my ($rc, $out, $err) = run($node, $role, $sql, stop => 1);
	ok($rc != 0 && $err =~ /permission denied|42501/, $name)
	  or diag("rc $rc, stderr: $err\nstdout: $out");
	return ($out, $err);
}

# works(role, sql, name): sql succeeds; returns its output
sub works
{
	my ($role, $sql, $name) = @_;
	my ($rc, $out, $err) = run($node, $role, $sql, stop => 1);
	ok($rc == 0 && $err !~ /ERROR/, $name) or diag("rc $rc, stderr: $err");
	return $out;
}

# search_hidden(oracle): the binary search of an attacker at s0.
# oracle(lo, hi) is what the attacker observes: the number of rows with v
# in [lo, hi] that the channel counts, less those r_s0 selects itself
# (undef: the channel refused or showed nothing).  Returns the least
# x > 1000 that the channel counts in [1001, x], or undef if it recovers
# nothing.
sub search_hidden
{
	my ($oracle) = @_;
	my ($lo, $hi) = (1001, 1 << 20);
	my $n = $oracle->($lo, $hi);
	return undef unless defined $n && $n > 0;
	while ($lo < $hi)
	{
		my $mid = int(($lo + $hi) / 2);
		my $c = $oracle->(1001, $mid);
		return undef unless defined $c;
		if ($c > 0) { $hi = $mid; }
		else { $lo = $mid + 1; }
	}
	return $lo;
}

# what r_s0 selects itself in [lo, hi]
sub visible_count
{
	my ($lo, $hi) = @_;
	return as_role($node, 'r_s0', "SELECT count(*) FROM t WHERE v BETWEEN $lo AND $hi");
}

# the sum of hit, read of the first "Buffers:" line after a line matching re
sub buffers_after
{
	my ($text, $re) = @_;
	return undef unless $text =~ /$re[^\n]*\n(?:[^\n]*\n)*?\s*Buffers: shared ([^\n]*)/;
	my $b = $1;
	my $sum = 0;
	$sum += $1 while $b =~ /(?:hit|read)=(\d+)/g;
	return $sum;
}

# the change in buffers between the last two plans of psql output o whose
# first line starts with word (Result, Planning:, Gather), each plan's
# buffers read from its first "Buffers:" line; undef unless there are n
# such plans, each with its buffers
sub plan_buffers_delta
{
	my ($o, $word, $n) = @_;
	my @b = map { buffers_after($_, qr/^\Q$word\E/m) } grep { /^\Q$word\E/ } split /(?=^\Q$word\E)/m, $o;
	return undef unless @b == $n && !grep { !defined } @b;
	return $b[-1] - $b[-2];
}

############################################################################
# controls: instruments that must keep working
############################################################################
my $ctl;
for my $tab ('h', 't0')
{
	$ctl = works('r_s0', "$BITMAP EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF)
		SELECT * FROM $tab WHERE v BETWEEN 10 AND 12",
		"control: r_s0 runs EXPLAIN (ANALYZE, BUFFERS) on $tab (every row selectable)");
	like($ctl, qr/Bitmap Index Scan on ${tab}_v_idx \(actual rows=60(?:\.00)? loops=1\)/,
		"control: the plan of $tab shows its 60 matches");
}
$ctl = works('r_s1', "$BITMAP EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF)
	SELECT * FROM t WHERE v BETWEEN 424000 AND 425000",
	'control: r_s1 (selects every row of t) runs EXPLAIN (ANALYZE, BUFFERS) on t');
like($ctl, qr/Bitmap Heap Scan on t \(actual rows=1(?:\.00)? loops=1\)/,
	'control: r_s1 sees its row in the plan of t');
works('r_s0', "EXPLAIN (COSTS OFF) SELECT * FROM t WHERE v = $HIDDEN",
	'control: r_s0 runs a plain EXPLAIN (no ANALYZE, no BUFFERS) on t');
works('r_s0', "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT 1",
	'control: r_s0 runs EXPLAIN (ANALYZE) of a statement reading no table');

############################################################################
# attack 1: EXPLAIN (ANALYZE), Bitmap Index Scan's actual rows
############################################################################
my ($out, $err) = refused('r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
	SELECT * FROM t WHERE v BETWEEN 424000 AND 425000",
	'attack 1: EXPLAIN (ANALYZE) of a bitmap scan of t as r_s0 is refused (42501)');
diag("attack 1 output as r_s0:\n$out") if $out =~ /Bitmap Index Scan/;
unlike($out, qr/Bitmap Index Scan on t_v_idx \(actual rows=[1-9]/,
	'attack 1: r_s0 is shown no index match in v BETWEEN 424000 AND 425000');
unlike($out, qr/Heap Blocks: exact=[1-9]/,
	'attack 1: r_s0 is shown no heap block of the hidden row');

my $explain_oracle = sub {
	my ($lo, $hi) = @_;
	my ($rc, $o) = run($node, 'r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
		SELECT * FROM t WHERE v BETWEEN $lo AND $hi", stop => 1);
	return undef if $rc;
	return undef unless $o =~ /Bitmap Index Scan on t_v_idx \(actual rows=(\d+)/;
	return $1 - visible_count($lo, $hi);
};
my $found = search_hidden($explain_oracle);
diag('attack 1: binary search on EXPLAIN (ANALYZE) actual rows recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 1: binary search on Bitmap Index Scan actual rows recovers nothing');

refused('r_s0', "$INDEX EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF)
	SELECT * FROM t WHERE v = $HIDDEN",
	'attack 1: EXPLAIN (ANALYZE, BUFFERS) of a plain Index Scan of t as r_s0 is refused (42501)');
refused('r_s0', "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT count(*) FROM t",
	'attack 1: EXPLAIN (ANALYZE) of a sequential scan of t as r_s0 is refused (42501)');
refused('r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
	SELECT * FROM h JOIN t USING (id) WHERE t.v BETWEEN 424000 AND 425000",
	'attack 1: EXPLAIN (ANALYZE) of a join reading t and a heap table as r_s0 is refused (42501)');

############################################################################
# attack 2: EXPLAIN (ANALYZE, BUFFERS), an Index Scan's shared hits
############################################################################
my $index_buffers = sub {
	my ($where) = @_;
	# (twice in one session: the second reads a warm cache)
	my $q = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT * FROM t WHERE $where;";
	my ($rc, $o) = run($node, 'r_s0', "$INDEX $q $q", stop => 1);
	return undef if $rc;
	my @plans = split /(?=^Index Scan)/m, $o;
	return buffers_after($plans[-1], qr/Index Scan using t_v_idx on t/);
};
my $hits_hidden = $index_buffers->("v = $HIDDEN");
my $hits_absent = $index_buffers->('v = ' . ($HIDDEN + 1));
diag('attack 2: Index Scan buffers as r_s0: v = 424242: ' . ($hits_hidden // 'refused')
	. ', v = 424243: ' . ($hits_absent // 'refused'));
refused('r_s0', "$INDEX EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT * FROM t WHERE v = $HIDDEN",
	'attack 2: EXPLAIN (ANALYZE, BUFFERS) WHERE v = 424242 as r_s0 is refused (42501)');
refused('r_s0', "$INDEX EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT * FROM t WHERE v = " . ($HIDDEN + 1),
	'attack 2: EXPLAIN (ANALYZE, BUFFERS) WHERE v = 424243 (absent) as r_s0 is refused (42501)');
ok(!defined $hits_hidden || (defined $hits_absent && $hits_hidden == $hits_absent),
	'attack 2: shared buffers of a hidden value do not exceed those of an absent value');
$found = search_hidden(sub {
	my ($lo, $hi) = @_;
	my $a = $index_buffers->("v BETWEEN $lo AND $lo");
	my $b = $index_buffers->("v BETWEEN $lo AND $hi");
	return undef unless defined $a && defined $b;
	return $b - $a;
});
diag('attack 2: binary search on Index Scan buffers recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 2: binary search on Index Scan shared buffers recovers nothing');

############################################################################
# attack 3: nested in a function (execution) and folded at plan time
############################################################################
# f runs when the plan runs; g, immutable, is folded into a constant when
# it is planned
for my $fn ([ 'f', 'VOLATILE' ], [ 'g', 'IMMUTABLE' ])
{
	my ($name, $volatility) = @$fn;
	as_role($node, 'r_s0', qq{
	CREATE FUNCTION $name(lo int, hi int) RETURNS bigint LANGUAGE plpgsql $volatility
	SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off
	AS \$\$
	DECLARE n bigint;
	BEGIN
		EXECUTE 'SELECT count(*) FROM t WHERE v BETWEEN \$1 AND \$2' INTO n USING lo, hi;
		RETURN n;
	END \$\$});
}
is(as_role($node, 'r_s0', 'SELECT f(424000, 425000), g(424000, 425000)'), '0|0',
	'f and g count no row of r_s0 in v BETWEEN 424000 AND 425000');

($out, $err) = refused('r_s0', 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT f(424000, 425000)',
	'attack 3: EXPLAIN (ANALYZE, BUFFERS) of a function scanning t as r_s0 is refused (42501)');
diag("attack 3 output as r_s0:\n$out") if $out =~ /Buffers/;
($out, $err) = refused('r_s0', 'EXPLAIN (BUFFERS, COSTS OFF) SELECT g(424000, 425000)',
	'attack 3: EXPLAIN (BUFFERS) of an immutable function scanning t at plan time as r_s0 is refused (42501)');
diag("attack 3 (plan time) output as r_s0:\n$out") if $out =~ /Buffers/;
works('r_s0', 'EXPLAIN (COSTS OFF) SELECT g(424000, 425000)',
	'control: r_s0 runs a plain EXPLAIN (no BUFFERS) of the immutable function');
$ctl = works('r_s1', 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT f(424000, 425000)',
	'control: r_s1 (selects every row of t) runs EXPLAIN (ANALYZE, BUFFERS) of the function');
# (ANALYZE alone shows the nested scan's time only: refused all the same)
refused('r_s0', 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT f(424000, 425000)',
	'attack 3: EXPLAIN (ANALYZE) of a function scanning t as r_s0 is refused (42501)');

# f's buffers in the outer Result node, each against [lo, lo] in one session
my $f_oracle = sub {
	my ($lo, $hi) = @_;
	my $q = 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT f';
	my ($rc, $o) = run($node, 'r_s0', "SELECT f($lo, $lo); SELECT f($lo, $hi); SELECT f($lo, $lo);
		$q($lo, $lo); $q($lo, $hi);", stop => 1);
	return undef if $rc;
	return plan_buffers_delta($o, 'Result', 2);
};
$found = search_hidden($f_oracle);
diag('attack 3: binary search on the Result node\'s buffers of f recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 3: binary search on buffers of a nested scan recovers nothing');

# g's planning buffers
my $g_oracle = sub {
	my ($lo, $hi) = @_;
	my $q = 'EXPLAIN (BUFFERS, COSTS OFF) SELECT g';
	my ($rc, $o) = run($node, 'r_s0', "SELECT g($lo, $lo); SELECT g($lo, $hi); SELECT g($lo, $lo);
		$q($lo, $lo); $q($lo, $hi);", stop => 1);
	return undef if $rc;
	return plan_buffers_delta($o, 'Planning:', 2);
};
$found = search_hidden($g_oracle);
diag('attack 3: binary search on planning buffers of g recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 3: binary search on planning buffers recovers nothing');

############################################################################
# attack 5: per-relation statistics counters
############################################################################
my @xact_funcs = map { "pg_stat_get_xact_$_" } qw(tuples_returned tuples_fetched blocks_fetched blocks_hit);
my @funcs = map { "pg_stat_get_$_" } qw(tuples_returned tuples_fetched blocks_fetched blocks_hit);

# the values of funcs for rel after a bitmap scan of t in the same
# transaction, as role ('NULL' for a null)
sub xact_counters
{
	my ($role, $rel, $query) = @_;
	my $sel = join(', ', map { "$_('$rel'::regclass)" } @xact_funcs);
	my $o = $node->safe_psql('postgres', "$BITMAP BEGIN; $query; SELECT $sel; COMMIT;",
		extra_params => [ defined $role ? ('-U', $role) : () ]);
	my @v = split /\|/, (split /\n/, $o)[-1], -1;
	return map { $_ eq '' ? 'NULL' : $_ } @v;
}

for my $rel ('t', 't_v_idx')
{
	my @v = xact_counters('r_s0', $rel, 'SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000');
	for my $i (0 .. $#xact_funcs)
	{
		is($v[$i], 'NULL', "attack 5: $xact_funcs[$i]('$rel') is NULL as r_s0");
	}
	my @v1 = xact_counters('r_s1', $rel, 'SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000');
	ok(!grep({ $_ eq 'NULL' } @v1), "control: the xact counters of $rel are numbers for r_s1 (@v1)");
	my @vsu = xact_counters(undef, $rel, 'SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000');
	ok(!grep({ $_ eq 'NULL' } @vsu), "control: the xact counters of $rel are numbers for the superuser at s1 (@vsu)");
}
for my $rel ('h', 'h_v_idx', 't0', 't0_v_idx')
{
	my $tab = $rel =~ s/_v_idx$//r;
	my @v = xact_counters('r_s0', $rel, "SELECT count(*) FROM $tab WHERE v BETWEEN 10 AND 12");
	ok(!grep({ $_ eq 'NULL' } @v) && grep({ $_ > 0 } @v),
		"control: the xact counters of $rel are numbers for r_s0 (@v)");
}

# the attacks: a counter's change across a scan of [lo, hi] in one
# transaction (less the rows r_s0 selects there, for counters of rows)
sub counter_oracle
{
	my ($set, $counter, $rows) = @_;
	return sub {
		my ($lo, $hi) = @_;
		my $o = as_role($node, 'r_s0', "$set BEGIN; SELECT coalesce(${counter}::text, 'NULL');
			SELECT count(*) FROM t WHERE v BETWEEN $lo AND $hi;
			SELECT coalesce(${counter}::text, 'NULL'); COMMIT;");
		my ($before, $visible, $after) = split /\n/, $o;
		return undef if $before eq 'NULL' || $after eq 'NULL';
		return $after - $before - ($rows ? $visible : 0);
	};
}
for my $attack (
	[ 'bitmap scan', $BITMAP, "pg_stat_get_xact_tuples_returned('t_v_idx'::regclass)", 1 ],
	[ 'index scan', $INDEX, "pg_stat_get_xact_tuples_returned('t_v_idx'::regclass)", 1 ],
	[ 'bitmap scan', $BITMAP, "pg_stat_get_xact_blocks_fetched('t'::regclass)", 0 ])
{
	my ($path, $set, $counter, $rows) = @$attack;
	$found = search_hidden(counter_oracle($set, $counter, $rows));
	diag("attack 5: binary search on $counter ($path) recovered " . ($found // 'nothing'));
	ok(!defined $found, "attack 5: binary search on $counter over ${path}s recovers nothing");
}

# non-xact counters and views, once flushed (a sequential scan too, for
# seq_tup_read)
as_role($node, 'r_s0', "SELECT count(*) FROM t; $BITMAP SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000;
	$INDEX SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000; SELECT pg_stat_force_next_flush()");
ok($node->poll_query_until('postgres', q{SELECT pg_stat_get_tuples_returned('t_v_idx'::regclass) > 0
		AND pg_stat_get_tuples_returned('t'::regclass) > 0 AND pg_stat_get_blocks_hit('t'::regclass) > 0}),
	'the superuser (at s1) sees the flushed counters of t and t_v_idx');
for my $rel ('t', 't_v_idx')
{
	for my $fn (@funcs)
	{
		is(as_role($node, 'r_s0', "SELECT coalesce($fn('$rel'::regclass)::text, 'NULL')"), 'NULL',
			"attack 5: $fn('$rel') is NULL as r_s0");
	}
	my $sel = join(', ', map { "$_('$rel'::regclass)" } @funcs);
	my @v1 = split /\|/, as_role($node, 'r_s1', "SELECT $sel"), -1;
	ok(@v1 == @funcs && !grep({ $_ eq '' } @v1), "control: the counters of $rel are numbers for r_s1 (@v1)");
	my @vsu = split /\|/, $node->safe_psql('postgres', "SELECT $sel"), -1;
	ok(@vsu == @funcs && !grep({ $_ eq '' } @vsu), "control: the counters of $rel are numbers for the superuser (@vsu)");
}
my %views = (
	"pg_stat_user_indexes WHERE indexrelname = 't_v_idx'" => [ 'idx_tup_read', 'idx_tup_fetch' ],
	"pg_stat_user_tables WHERE relname = 't'" => [ 'idx_tup_fetch', 'seq_tup_read', 'idx_scan', 'seq_scan' ],
	"pg_statio_user_tables WHERE relname = 't'" => [ 'heap_blks_hit', 'idx_blks_hit' ],
	"pg_statio_user_indexes WHERE indexrelname = 't_v_idx'" => [ 'idx_blks_hit' ]);
for my $view (sort keys %views)
{
	for my $col (@{ $views{$view} })
	{
		# (idx_scan and seq_scan count scans, not rows: they may stay numbers)
		next if $col =~ /_scan$/;
		my $v = as_role($node, 'r_s0', "SELECT coalesce(${col}::text, 'NULL') FROM $view");
		is($v, 'NULL', "attack 5: $col of $view is NULL as r_s0");
	}
	my $cols = join(', ', @{ $views{$view} });
	my @v1 = split /\|/, as_role($node, 'r_s1', "SELECT $cols FROM $view"), -1;
	ok(@v1 == @{ $views{$view} } && !grep({ $_ eq '' } @v1),
		"control: $cols of $view are numbers for r_s1 (@v1)");
}
for my $view ("pg_stat_user_indexes WHERE indexrelname = 'h_v_idx'", "pg_stat_user_tables WHERE relname = 'h'",
	"pg_statio_user_tables WHERE relname = 'h'", "pg_stat_user_indexes WHERE indexrelname = 't0_v_idx'",
	"pg_statio_user_tables WHERE relname = 't0'")
{
	my $v = as_role($node, 'r_s0', "SELECT count(*) FROM $view AND "
		  . ($view =~ /statio/ ? 'heap_blks_hit' : $view =~ /indexes/ ? 'idx_tup_read' : 'seq_tup_read')
		  . ' IS NOT NULL');
	is($v, '1', "control: r_s0 reads numbers in $view");
}

############################################################################
# attack 6: database-wide counters
############################################################################
my @dbcols = qw(tup_returned tup_fetched blks_hit blks_read);
for my $col (@dbcols)
{
	is(as_role($node, 'r_s0', "SELECT coalesce(${col}::text, 'NULL') FROM pg_stat_database WHERE datname = current_database()"),
		'NULL', "attack 6: pg_stat_database.$col of a database holding t is NULL as r_s0");
}
for my $fn (qw(pg_stat_get_db_tuples_returned pg_stat_get_db_tuples_fetched pg_stat_get_db_blocks_hit
	pg_stat_get_db_blocks_fetched))
{
	is(as_role($node, 'r_s0', "SELECT coalesce($fn(oid)::text, 'NULL') FROM pg_database WHERE datname = current_database()"),
		'NULL', "attack 6: $fn of a database holding t is NULL as r_s0");
}
my $cols = join(', ', @dbcols);
my @v1 = split /\|/, as_role($node, 'r_s1', "SELECT $cols FROM pg_stat_database WHERE datname = current_database()"), -1;
ok(@v1 == @dbcols && !grep({ $_ eq '' } @v1), "control: pg_stat_database's counters are numbers for r_s1 (@v1)");

# the attack: flushed database tup_returned, a probe against a baseline
my $db_oracle = sub {
	my ($lo, $hi) = @_;
	my $flush = 'SELECT pg_stat_force_next_flush();';
	my $read = "SELECT 'R' || coalesce(tup_returned::text, 'NULL') FROM pg_stat_database WHERE datname = current_database();";
	my $q_lo = "SELECT 'C' || count(*) FROM t WHERE v BETWEEN $lo AND $lo;";
	my $q_hi = "SELECT 'C' || count(*) FROM t WHERE v BETWEEN $lo AND $hi;";
	# (once unmeasured, so that both measured intervals find warm caches)
	my $o = as_role($node, 'r_s0', "$BITMAP $read $q_lo $q_hi $flush
		$read $flush $q_lo $flush $read $flush $q_hi $flush $read");
	my @r = $o =~ /^R(\S+)$/mg;
	my @c = $o =~ /^C(\d+)$/mg;
	return undef if @r != 4 || grep { $_ eq 'NULL' } @r;
	return ($r[3] - $r[2] - $c[3]) - ($r[2] - $r[1] - $c[2]);
};
my @d = map { $db_oracle->(1001, $_) // 'undef' } (1001, 424241, 424242, 1 << 20);
diag("attack 6: r_s0's tup_returned deltas for v in [1001, 1001 | 424241 | 424242 | 1048576]: @d");
$found = search_hidden($db_oracle);
diag('attack 6: binary search on pg_stat_database.tup_returned recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 6: binary search on database-wide tup_returned recovers nothing');

############################################################################
# attack 7: a row a higher session is writing (not committed yet) into a
# table that holds only rows r_s0 may select: the index returns its entry
# before the heap says it is invisible, so it counts too
############################################################################
my $bg = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
$bg->query_safe("BEGIN; INSERT INTO t0 VALUES (2000001, 555555, 'SECRET-s1-uncommitted')");
($out, $err) = refused('r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF)
	SELECT * FROM t0 WHERE v BETWEEN 555000 AND 556000",
	'attack 7: EXPLAIN (ANALYZE) of t0 as r_s0 is refused while an s1 session writes a row into it');
unlike($out, qr/actual rows=[1-9]/, 'attack 7: r_s0 is shown no count of the uncommitted s1 row');
my @unc = xact_counters('r_s0', 't0_v_idx', 'SELECT count(*) FROM t0 WHERE v BETWEEN 555000 AND 556000');
is($unc[0], 'NULL', "attack 7: the index's tuples_returned is NULL for r_s0 meanwhile");
$bg->query_safe('ROLLBACK');
$bg->quit;
$ctl = works('r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT * FROM t0 WHERE v BETWEEN 10 AND 12",
	'control: once the s1 writer rolled back, r_s0 runs EXPLAIN (ANALYZE) on t0 again');
like($ctl, qr/Bitmap Index Scan on t0_v_idx \(actual rows=60(?:\.00)? loops=1\)/,
	'control: ... and sees its 60 matches');

############################################################################
# attack 8 (review of the fix): the decision cache's own statistics.  The
# row filter asks the cache once a row; a hidden row's label misses where
# the s0 rows around it hit, so hits + misses count hidden rows
############################################################################
my $avc_oracle = sub {
	my ($lo, $hi) = @_;
	my $rd = "SELECT 'A' || (hits + misses) FROM labelam.avc_stats();";
	my ($rc, $o) = run($node, 'r_s0', "$BITMAP SELECT count(*) FROM t WHERE v BETWEEN 1 AND 1;
		$rd SELECT 'C' || count(*) FROM t WHERE v BETWEEN $lo AND $lo; $rd
		SELECT 'C' || count(*) FROM t WHERE v BETWEEN $lo AND $hi; $rd", stop => 1);
	return undef if $rc;
	my @a = $o =~ /^A(\d+)$/mg;
	return undef unless @a == 3;
	return ($a[2] - $a[1]) - ($a[1] - $a[0]);
};
refused('r_s0', 'SELECT * FROM labelam.avc_stats()',
	'attack 8: labelam.avc_stats() is refused (42501) to r_s0 in a database holding labels it may not select');
$found = search_hidden($avc_oracle);
diag('attack 8: binary search on labelam.avc_stats() recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 8: binary search on the decision cache\'s hits and misses recovers nothing');
works('r_s1', 'SELECT hits + misses > 0 FROM labelam.avc_stats()',
	'control: r_s1 (selects every label) reads labelam.avc_stats()');

############################################################################
# attack 9 (review): a cursor declared outside any instrumented query and
# read inside one (cursor_to_xml fetches it in the Result node of an
# EXPLAIN (ANALYZE, BUFFERS)): the fetch's buffers count there
############################################################################
my $cursor_q = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT length(cursor_to_xml('c', 100000, false, false, '')::text)";
($out, $err) = refused('r_s0', "$BITMAP BEGIN;
	DECLARE c NO SCROLL CURSOR FOR SELECT * FROM t WHERE v BETWEEN 424000 AND 425000;
	$cursor_q; COMMIT;",
	'attack 9: a cursor over t read inside EXPLAIN (ANALYZE, BUFFERS) as r_s0 is refused (42501)');
unlike($out, qr/Buffers/, 'attack 9: r_s0 is shown no buffer count of the cursor\'s fetch');
works('r_s0', "$BITMAP BEGIN; DECLARE c NO SCROLL CURSOR FOR SELECT * FROM t0 WHERE v BETWEEN 10 AND 12;
	$cursor_q; COMMIT;",
	'control: a cursor over t0 (every row selectable) read inside EXPLAIN (ANALYZE, BUFFERS) works');
$found = search_hidden(sub {
	my ($lo, $hi) = @_;
	my $d = "BEGIN; DECLARE c NO SCROLL CURSOR FOR SELECT * FROM t WHERE v BETWEEN";
	my ($rc, $o) = run($node, 'r_s0', "$BITMAP $d $lo AND $lo; $cursor_q; COMMIT;
		$d $lo AND $hi; $cursor_q; COMMIT; $d $lo AND $lo; $cursor_q; COMMIT;
		$d $lo AND $hi; $cursor_q; COMMIT;", stop => 1);
	return undef if $rc;
	return plan_buffers_delta($o, 'Result', 4);
});
diag('attack 9: binary search on a cursor fetched inside EXPLAIN recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 9: binary search on buffers of a cursor fetched inside EXPLAIN recovers nothing');

############################################################################
# attack 10 (review): the nested query runs in a parallel worker, which has
# none of the leader's frames; the worker's buffers are reported to the
# leader's EXPLAIN (ANALYZE, BUFFERS)
############################################################################
as_role($node, 'r_s0', q{
	CREATE FUNCTION pf(lo int, hi int) RETURNS bigint LANGUAGE plpgsql STABLE PARALLEL SAFE
	AS $$ DECLARE n bigint;
	BEGIN SELECT count(*) INTO n FROM t WHERE v BETWEEN lo AND hi; RETURN n; END $$;
});
my $PAR = ($node->safe_psql('postgres', 'SHOW server_version_num') >= 160000
	? 'SET debug_parallel_query = on;' : 'SET force_parallel_mode = on;')
  . ' SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;';
like(as_role($node, 'r_s0', "$PAR EXPLAIN (COSTS OFF) SELECT pf(424000, 425000)"), qr/Gather/,
	'attack 10: the call of pf is planned under a Gather (a worker runs it)');
($out, $err) = refused('r_s0', "$BITMAP $PAR EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT pf(424000, 425000)",
	'attack 10: EXPLAIN (ANALYZE, BUFFERS) of a parallel-safe function scanning t, run by a worker, is refused (42501)');
unlike($out, qr/Buffers/, 'attack 10: r_s0 is shown no buffer count of the worker\'s scan');
$found = search_hidden(sub {
	my ($lo, $hi) = @_;
	my $q = 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT pf';
	my ($rc, $o) = run($node, 'r_s0', "$BITMAP $PAR $q($lo, $lo); $q($lo, $hi); $q($lo, $lo); $q($lo, $hi);", stop => 1);
	return undef if $rc;
	return plan_buffers_delta($o, 'Gather', 4);
});
diag('attack 10: binary search on a worker\'s nested buffers recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 10: binary search on a parallel worker\'s nested query buffers recovers nothing');
works('r_s1', "$BITMAP $PAR EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT pf(424000, 425000)",
	'control: r_s1 runs EXPLAIN (ANALYZE, BUFFERS) of the worker\'s function');

############################################################################
# attack 11 (review): a label that commits after ExecutorStart's decision,
# while the instrumented query waits (an initplan blocked on an advisory
# lock), before its scan: the scan counts the new row
############################################################################
$node->safe_psql('postgres', q{
	CREATE TABLE t2 (id int PRIMARY KEY, v int, s text) USING labelheap;
	CREATE INDEX t2_v_idx ON t2 (v);
	GRANT ALL ON t2 TO PUBLIC;
});
as_role($node, 'r_s0', q{INSERT INTO t2 SELECT g, g % 1000 + 1, 'pub-' || g FROM generate_series(1, 2000) g;
	CREATE FUNCTION gate(x int) RETURNS int LANGUAGE plpgsql VOLATILE
	AS $$ BEGIN PERFORM pg_advisory_lock_shared(4242); PERFORM pg_advisory_unlock_shared(4242); RETURN x; END $$;});
$node->safe_psql('postgres', 'VACUUM ANALYZE t2');
my $holder = $node->background_psql('postgres');
$holder->query_safe('SELECT pg_advisory_lock(4242)');
my $waiter = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
$waiter->query_until(qr/started/, "$BITMAP\n\\echo started\n"
	  . "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT * FROM t2 WHERE v BETWEEN 555000 AND (SELECT gate(556000));\n"
	  . "\\echo finished\n");
$node->poll_query_until('postgres', "SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
  or die 'the instrumented query does not wait at its gate';
as_role($node, 'r_s1', "INSERT INTO t2 VALUES (2000001, 555555, 'SECRET-s1-race')");
$holder->query_safe('SELECT pg_advisory_unlock(4242)');
my $race = $waiter->query_until(qr/finished/, '');
$waiter->quit;
$holder->quit;
diag("race output: $race"); unlike($race, qr/actual rows=[1-9]|Heap Blocks: exact=[1-9]/,
	'attack 11: an EXPLAIN ANALYZE decided before an s1 row committed into t2 does not print a count of it');
refused('r_s0', "$BITMAP EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT * FROM t2 WHERE v BETWEEN 555000 AND 556000",
	'attack 11: afterwards EXPLAIN ANALYZE of t2 as r_s0 is refused (42501)');

############################################################################
# attack 12 (review): the cumulative counters of a table whose rows a
# higher session TRUNCATEd.  TRUNCATE empties the label set, but the
# counters still count the scans made while the rows were there; probes
# repeated 1, 2 and 4 times would give three bits in one reading
############################################################################
$node->safe_psql('postgres', q{
	CREATE TABLE t3 (id int PRIMARY KEY, v int, s text) USING labelheap;
	CREATE INDEX t3_v_idx ON t3 (v);
	GRANT ALL ON t3 TO PUBLIC;
	CREATE TABLE t4 (id int PRIMARY KEY, v int, s text) USING labelheap;
	CREATE INDEX t4_v_idx ON t4 (v);
	GRANT ALL ON t4 TO PUBLIC;
});
as_role($node, 'r_s1', "INSERT INTO t3 VALUES (3000001, 777777, 'SECRET-s1-t3')");
as_role($node, 'r_s0', "INSERT INTO t4 VALUES (4000001, 7, 'pub-t4')");
as_role($node, 'r_s0', "$BITMAP
	SELECT count(*) FROM t3 WHERE v BETWEEN 700000 AND 800000;
	SELECT count(*) FROM t3 WHERE v BETWEEN 777777 AND 777777;
	SELECT count(*) FROM t3 WHERE v BETWEEN 777777 AND 777777;
	SELECT count(*) FROM t4 WHERE v BETWEEN 1 AND 10;
	SELECT pg_stat_force_next_flush();");
ok($node->poll_query_until('postgres', q{SELECT pg_stat_get_tuples_returned('t3_v_idx'::regclass) = 3
		AND pg_stat_get_tuples_returned('t4_v_idx'::regclass) = 1}),
	'the superuser (s1) reads the flushed counts of r_s0\'s probes: 3 matches of the s1 row');
as_role($node, 'r_s1', 'TRUNCATE t3');
as_role($node, 'r_s0', 'TRUNCATE t4');
is(as_role($node, 'r_s0', "SELECT coalesce(pg_stat_get_tuples_returned('t3_v_idx'::regclass)::text, 'NULL')"), 'NULL',
	'attack 12: after an s1 session truncated t3, its index\'s tuples_returned is still NULL for r_s0');
as_role($node, 'r_s0', "INSERT INTO t3 VALUES (3000002, 5, 'pub-t3')");
is(as_role($node, 'r_s0', "SELECT coalesce(pg_stat_get_blocks_hit('t3'::regclass)::text, 'NULL')"), 'NULL',
	'attack 12: ... also once t3 holds only r_s0\'s rows again');
is(as_role($node, 'r_s1', "SELECT pg_stat_get_tuples_returned('t3_v_idx'::regclass)"), '3',
	'control: r_s1 (selects the labels t3 held) reads the counts');
is(as_role($node, 'r_s0', "SELECT pg_stat_get_tuples_returned('t4_v_idx'::regclass) IS NOT NULL"), 't',
	'control: r_s0 reads the counters of t4, which only ever held its rows, after truncating it');
my $t3 = $node->safe_psql('postgres', "SELECT 't3'::regclass::oid");
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels_counted WHERE relid = $t3"), '1',
	'labelam.table_labels_counted keeps the label t3 held before its truncation');
as_role($node, 'r_s0', 'TRUNCATE t3');
$node->safe_psql('postgres', 'DROP TABLE t3');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels_counted WHERE relid = $t3"), '0',
	'... and forgets it when t3 is dropped');

############################################################################
# routes to the counters other than a function call (review): refused where
# no twin decides, NULL where the call is planned
############################################################################
as_role($node, 'r_s0', q{
	CREATE OPERATOR ##> (RIGHTARG = oid, FUNCTION = pg_stat_get_xact_tuples_returned);
	CREATE FUNCTION keep2(oid, oid) RETURNS oid LANGUAGE sql IMMUTABLE AS 'SELECT $2';
	CREATE AGGREGATE ctr(oid) (SFUNC = keep2, STYPE = oid, FINALFUNC = pg_stat_get_xact_tuples_returned);
	CREATE FUNCTION up(oid) RETURNS bigint LANGUAGE sql STABLE AS 'SELECT PG_STAT_GET_XACT_TUPLES_RETURNED($1)';
	CREATE FUNCTION pl(r oid) RETURNS bigint LANGUAGE plpgsql AS $$ DECLARE x bigint; BEGIN x := pg_stat_get_xact_tuples_returned(r); RETURN x; END $$;
});
for my $probe (
	[ 'a prefix operator', q{SELECT coalesce((##> 't_v_idx'::regclass)::text, 'NULL')} ],
	[ 'an aggregate\'s final function', q{SELECT coalesce(ctr('t_v_idx'::regclass)::text, 'NULL')} ],
	[ 'a window aggregate\'s final function', q{SELECT coalesce((ctr('t_v_idx'::regclass) OVER ())::text, 'NULL')} ],
	[ 'an inlined SQL function', q{SELECT coalesce(up('t_v_idx'::regclass)::text, 'NULL')} ],
	[ 'a PL/pgSQL simple expression', q{SELECT coalesce(pl('t_v_idx'::regclass)::text, 'NULL')} ],
	[ 'ROWS FROM', q{SELECT coalesce(x::text, 'NULL') FROM ROWS FROM (pg_stat_get_xact_tuples_returned('t_v_idx'::regclass)) x} ])
{
	my ($name, $sql) = @$probe;
	my ($rc, $o, $e) = run($node, 'r_s0', "$BITMAP BEGIN; SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000; $sql; COMMIT;", stop => 1);
	my @l = split /\n/, $o;
	ok(($rc != 0 && $e =~ /42501/) || ($rc == 0 && ($l[-1] // '') eq 'NULL'),
		"counter through $name: refused (42501) or NULL for r_s0") or diag("rc $rc: $o\n$e");
}

############################################################################
# attack 4: auto_explain (loaded in every session, logs analyzed plans)
############################################################################
$node->append_conf('postgresql.conf', q{
session_preload_libraries = 'auto_explain'
auto_explain.log_min_duration = 0
auto_explain.log_analyze = on
auto_explain.log_buffers = on
auto_explain.log_timing = off
auto_explain.log_nested_statements = on
});
$node->restart;
is(as_role($node, 'r_s0', "SELECT vartype || ' ' || setting FROM pg_settings WHERE name = 'auto_explain.log_analyze'"),
	'bool on', 'auto_explain is loaded in r_s0\'s sessions');

my $LOG = 'SET client_min_messages = log;';
($out, $err) = refused('r_s0', "$LOG $BITMAP SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000",
	'attack 4: under auto_explain (log_analyze), a bitmap scan of t as r_s0 is refused (42501)');
diag("attack 4 messages to r_s0:\n$err") if $err =~ /Bitmap Index Scan/;
unlike($err, qr/Bitmap Index Scan on t_v_idx\s+(?:\(cost=[^)]*\)\s*)?\(actual rows=[1-9]/,
	'attack 4: r_s0 receives no logged plan counting the hidden match');
refused('r_s0', "$LOG SELECT f(424000, 425000)",
	'attack 4: under auto_explain, a function scanning t as r_s0 is refused (42501)');
$found = search_hidden(sub {
	my ($lo, $hi) = @_;
	my ($rc, $o, $e) = run($node, 'r_s0', "$LOG $BITMAP SELECT count(*) FROM t WHERE v BETWEEN $lo AND $hi", stop => 1);
	return undef if $rc;
	return undef unless $e =~ /Bitmap Index Scan on t_v_idx\s+(?:\(cost=[^)]*\)\s*)?\(actual rows=(\d+)/;
	return $1 - $o;
});
diag('attack 4: binary search on auto_explain\'s logged plans recovered ' . ($found // 'nothing'));
ok(!defined $found, 'attack 4: binary search on auto_explain\'s logged plans recovers nothing');

# controls under auto_explain
for my $tab ('h', 't0')
{
	my ($rc, $o, $e) = run($node, 'r_s0', "$LOG $BITMAP SELECT count(*) FROM $tab WHERE v BETWEEN 10 AND 12", stop => 1);
	is("$rc $o", '0 60', "control: under auto_explain r_s0 counts the rows of $tab");
	like($e, qr/Bitmap Index Scan on ${tab}_v_idx\s+(?:\(cost=[^)]*\)\s*)?\(actual rows=60/,
		"control: and receives the analyzed plan of $tab");
	$ctl = works('r_s0', "$BITMAP EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) SELECT * FROM $tab WHERE v BETWEEN 10 AND 12",
		"control: under auto_explain r_s0 runs EXPLAIN (ANALYZE, BUFFERS) on $tab");
}
my ($rc1, $o1, $e1) = run($node, 'r_s1', "$LOG $BITMAP SELECT count(*) FROM t WHERE v BETWEEN 424000 AND 425000", stop => 1);
is("$rc1 $o1", '0 1', 'control: under auto_explain r_s1 counts its row of t');
like($e1, qr/Bitmap Index Scan on t_v_idx\s+(?:\(cost=[^)]*\)\s*)?\(actual rows=1/, 'control: and receives the analyzed plan of t');

$node->stop;
done_testing();
