# test/t/231_am_attack_page_decisions.pl -- a filtered sequential scan
# decides the rows of a page when heap reads the page (page_decisions.c),
# not one by one as heap returns them.  Attacks on that window: every
# result, cursor movement, change of the session's decisions between two
# rows, write of the scan's own transaction, and audit count must be what
# row-by-row filtering (labelam.page_decisions = off) gives.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('page_decisions', q{
autovacuum = off
max_parallel_workers_per_gather = 2
});
my %level = (r_s0 => 's0', r_s1 => 's1', r_s2 => 's2');
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE mix (id int, lvl text, body text) USING labelheap;
	GRANT ALL ON mix TO PUBLIC;
});
mls_roles($node, \%level);

sub as { return as_role($node, @_); }

# Rows of three levels interleaved on every page: one session a level,
# taking turns a few rows at a time (MLS lets a session write only rows of
# its own level).  Pages end up with runs of 1 to 3 rows of one level.
my %writer = map { $_ => $node->background_psql('postgres', extra_params => [ '-U', $_ ]) } keys %level;
my @turn = ('r_s0', 'r_s1', 'r_s2', 'r_s1', 'r_s0', 'r_s2', 'r_s2');
my $id = 0;
for my $i (0 .. 899)
{
	my $role = $turn[ $i % @turn ];
	my $n = 1 + $i % 3;
	my $from = $id + 1;
	$id += $n;
	$writer{$role}->query_safe("INSERT INTO mix SELECT g, '$level{$role}', repeat('x', 40) FROM generate_series($from, $id) g");
}
$_->quit for values %writer;
$node->safe_psql('postgres', 'VACUUM ANALYZE mix');
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('mix') / 8192");
cmp_ok($pages, '>=', 10, "the table has $pages pages of interleaved levels");
is(as('r_s2', "SELECT count(DISTINCT lvl) FROM mix WHERE ctid < '(1,0)'"), '3',
	'its first page holds rows of all three levels');

my %may_read = (r_s0 => "'s0'", r_s1 => "'s0','s1'", r_s2 => "'s0','s1','s2'");
my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
my %paths = (
	'seq scan' => "$seq SET max_parallel_workers_per_gather = 0;",
	'parallel seq scan' => "$seq SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; "
	  . 'SET min_parallel_table_scan_size = 0;');
my $digest = "SELECT count(*) || ' ' || md5(string_agg(id || lvl, ',' ORDER BY id)) FROM mix";

# 1. Whole scans: the rows the policy allows, with and without deciding by
# page, for every level and path.
for my $role (sort keys %level)
{
	my $want = as('r_s2', "SELECT count(*) || ' ' || md5(string_agg(id || lvl, ',' ORDER BY id)) FROM mix WHERE lvl IN ($may_read{$role})");
	for my $path (sort keys %paths)
	{
		my $on = as($role, "$paths{$path} $digest");
		my $off = as($role, "SET labelam.page_decisions = off; $paths{$path} $digest");
		is($on, $want, "$role, $path: the rows the policy lets it read");
		is($on, $off, "$role, $path: the same rows deciding by page and row by row");
	}
}

# 2. A scrollable cursor moving both ways across page boundaries: a
# backward move may make heap read a page again; the rows are those of
# row-by-row filtering at every step.
my @moves = ('FETCH 5', 'FETCH BACKWARD 2', 'FETCH 40', 'FETCH BACKWARD 30',
	'FETCH FORWARD 100', 'FETCH PRIOR', 'FETCH NEXT', 'FETCH ABSOLUTE 3',
	'FETCH RELATIVE 50', 'FETCH BACKWARD ALL', 'FETCH ALL');
my %moved;
for my $pd ('on', 'off')
{
	$moved{$pd} = as('r_s1', "SET labelam.page_decisions = $pd; $seq BEGIN; "
		  . 'DECLARE c SCROLL CURSOR FOR SELECT id, lvl FROM mix; '
		  . join(' ', map { "$_ FROM c;" } @moves) . ' COMMIT;');
}
unlike($moved{on}, qr/\|s2/, 'a scrolling s1 cursor returns no s2 row');
is($moved{on}, $moved{off}, 'a scrolling cursor returns the same rows at every move deciding by page');

# 3. The session's decisions change between two rows of one page (the
# server goes permissive after the cursor's first row): the page's
# remaining rows are decided again, as row-by-row filtering decides them
# when it reaches them.  And back (enforcing again mid-page): nothing
# decided while permissive is handed out after.
my %changed;
for my $pd ('on', 'off')
{
	my $bg = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
	$bg->query_safe("SET labelam.page_decisions = $pd");
	$bg->query_safe("SET enable_indexscan = off");
	$bg->query_safe("SET enable_bitmapscan = off");
	$bg->query_safe('SET max_parallel_workers_per_gather = 0');
	$bg->query_safe('BEGIN');
	$bg->query_safe('DECLARE pc CURSOR FOR SELECT id, lvl FROM mix');
	my $first = $bg->query_safe('FETCH 1 FROM pc');
	$node->safe_psql('postgres', 'ALTER SYSTEM SET labelam.enforcing = off; SELECT pg_reload_conf()');
	$node->poll_query_until('postgres', 'SHOW labelam.enforcing', 'off') or die 'labelam.enforcing stays on';
	my $permissive = $bg->query_safe('FETCH 10 FROM pc');
	$node->safe_psql('postgres', 'ALTER SYSTEM RESET labelam.enforcing; SELECT pg_reload_conf()');
	$node->poll_query_until('postgres', 'SHOW labelam.enforcing', 'on') or die 'labelam.enforcing stays off';
	my $enforcing = $bg->query_safe('FETCH 10 FROM pc');
	$bg->query_safe('COMMIT');
	$bg->quit;
	$changed{$pd} = { first => $first, permissive => $permissive, enforcing => $enforcing };
}
like($changed{on}{permissive}, qr/\|s[12]/,
	'once the server is permissive, the rest of the page a cursor is on includes rows it hid before');
unlike($changed{on}{enforcing}, qr/\|s[12]/,
	'once it enforces again, the cursor hides them again, on the same page');
is(join(';', map { $changed{on}{$_} } qw(first permissive enforcing)),
	join(';', map { $changed{off}{$_} } qw(first permissive enforcing)),
	'... row for row what row-by-row filtering returns');

# 4. A function in the select list runs a nested scan of the same table
# for every row (another scan's decisions between two rows of this one),
# once as an ordinary function and once as a trusted procedure (the
# subject changes twice between two rows): the outer scan returns the
# rows row-by-row filtering returns, and so does every nested scan.
$node->safe_psql('postgres', q{
	CREATE FUNCTION peek(int) RETURNS text LANGUAGE sql
	  AS $$ SELECT count(*) || '/' || count(*) FILTER (WHERE id > $1) FROM mix $$;
	CREATE FUNCTION peek_trusted(int) RETURNS text LANGUAGE sql
	  AS $$ SELECT count(*) || '/' || count(*) FILTER (WHERE id > $1) FROM mix $$;
	SECURITY LABEL FOR selinux ON FUNCTION peek_trusted(int)
	  IS 'system_u:object_r:sepgsql_trusted_proc_exec_t:s0';
	GRANT EXECUTE ON FUNCTION peek(int), peek_trusted(int) TO PUBLIC;
});
for my $f ('peek', 'peek_trusted')
{
	my %nested;
	for my $pd ('on', 'off')
	{
		$nested{$pd} = as('r_s0', "SET labelam.page_decisions = $pd; $seq SET max_parallel_workers_per_gather = 0; "
			  . "SELECT count(*) || ' ' || count(DISTINCT n) || ' ' || md5(string_agg(id || lvl || n, ',' ORDER BY id)) "
			  . "FROM (SELECT id, lvl, $f(id) n FROM mix) s");
	}
	my $want = as('r_s2', "SELECT count(*) FROM mix WHERE lvl = 's0'");
	like($nested{on}, qr/^$want \Q$want\E /, "$f: the outer scan returns the $want s0 rows, and each nested scan a different count");
	is($nested{on}, $nested{off}, "$f: the same rows and nested results deciding by page and row by row");
}

# 5. The scan's own transaction writes rows with an older command id while
# a cursor (opened by a function the outer INSERT calls) reads the page
# they go to: they are returned exactly when row-by-row filtering returns
# them.
create_cursor_fetcher($node, 'fetch_next');
my %own;
for my $pd ('on', 'off')
{
	my $t = "own_$pd";
	$node->safe_psql('postgres', "CREATE TABLE $t (id int, body text) USING labelheap; GRANT ALL ON $t TO PUBLIC;");
	as('r_s0', "INSERT INTO $t SELECT g, 'low' FROM generate_series(1, 20) g");
	as('r_s1', "INSERT INTO $t SELECT g, 'high' FROM generate_series(21, 40) g");
	as('r_s0', "INSERT INTO $t SELECT g, 'low' FROM generate_series(41, 60) g");
	$own{$pd} = as('r_s0', "SET labelam.page_decisions = $pd; $seq SET max_parallel_workers_per_gather = 0; "
		  . "BEGIN; INSERT INTO $t SELECT 1000 + g, fetch_next('$t') FROM generate_series(1, 100) g; "
		  . "SELECT string_agg(body, ',' ORDER BY id) FROM $t WHERE id > 1000; ROLLBACK;");
}
unlike($own{on}, qr/(^|,)(2[1-9]|3\d|40)(,|$)/, 'the cursor of an s0 session fetches none of the s1 rows on its page');
like($own{on}, qr/(^|,)60,/, 'it reaches the last s0 row on the page');
is($own{on}, $own{off}, "... and fetches what row-by-row filtering fetches, its own transaction's new rows included");

# 6. The audit counts the rows a scan reached, not the rows decided ahead:
# the decisions logged for a LIMIT that stops inside a page, and for a
# whole scan, are those of row-by-row filtering.  (labelam.audit = all:
# this policy does not audit MLS denials.)
$node->safe_psql('postgres', "ALTER ROLE r_s0 SET labelam.audit = 'all'");
sub audited_rows
{
	my ($sql) = @_;
	my $offset = -s $node->logfile;
	as('r_s0', $sql);
	my $log = '';
	for (1 .. 50)
	{
		$log = slurp_file($node->logfile, $offset);
		last if $log =~ /relation=public\.mix rows=/;
		select(undef, undef, undef, 0.1);
	}
	my %n = (allowed => 0, denied => 0);
	$n{$1} += $2 while $log =~ /(allowed|denied) \{ select \} [^\n]* tclass=db_tuple relation=public\.mix rows=(\d+)/g;
	return "$n{allowed} allowed, $n{denied} denied";
}
my %audited;
for my $pd ('on', 'off')
{
	$audited{"limit_$pd"} = audited_rows("SET labelam.page_decisions = $pd; $seq SET max_parallel_workers_per_gather = 0; SELECT id FROM mix LIMIT 7");
	$audited{"all_$pd"} = audited_rows("SET labelam.page_decisions = $pd; $seq SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM mix");
}
my $hidden_all = as('r_s2', "SELECT count(*) FROM mix WHERE lvl <> 's0'");
my $s0_all = as('r_s2', "SELECT count(*) FROM mix WHERE lvl = 's0'");
is($audited{all_on}, "$s0_all allowed, $hidden_all denied",
	"a whole scan of an s0 session logs each row once: $s0_all allowed, $hidden_all denied");
is($audited{all_on}, $audited{all_off}, '... as row-by-row filtering does');
like($audited{limit_on}, qr/^7 allowed, ([1-9]|1[0-9]) denied$/,
	"a LIMIT 7 scan logs only the rows it reached ($audited{limit_on})");
is($audited{limit_on}, $audited{limit_off}, '... as row-by-row filtering does');

done_testing();
