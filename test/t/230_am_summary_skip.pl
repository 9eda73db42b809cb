# test/t/230_am_summary_skip.pl -- label summaries and range skipping under
# Debian's MLS policy: filtered scans that skip block ranges return exactly
# what they return without skipping (labelam.skip_ranges = off), for every
# level, through seq, parallel seq, bitmap and parallel bitmap heap scans
# (on 18 too, whose heap iterates the bitmap itself), after every kind
# of write (insert, COPY, update, HOT update, rows of open transactions,
# rows older snapshots still see, a cursor's own transaction writing
# behind it), and after rewrites; they read fewer heap blocks doing it;
# verify_labels reports a summary that would hide a row or disclose one
# (a range whose rows pass unread, labelam.pass_ranges).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('summary', q{
autovacuum = off
max_parallel_workers_per_gather = 2
});
my %level = (r_s0 => 's0', r_s1 => 's1', r_s2 => 's2', r_s3 => 's3');
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE doc (id int, lvl text, body text) USING labelheap;
	CREATE INDEX doc_labels ON doc USING labelsummary (id);
	CREATE INDEX doc_id ON doc (id);
	GRANT ALL ON doc TO PUBLIC;
	GRANT CREATE ON SCHEMA public TO PUBLIC;
});
mls_roles($node, \%level);

sub as { return as_role($node, @_); }

# runs of one level each: s1, s0, s2, s0, s1 (the s0 runs are short)
my $id = 0;
sub run_of
{
	my ($role, $n) = @_;
	my $from = $id + 1;
	$id += $n;
	as($role, "INSERT INTO doc SELECT g, '$level{$role}', repeat('x', 200) FROM generate_series($from, $id) g");
}
run_of('r_s1', 3000);
run_of('r_s0', 100);
run_of('r_s2', 3000);
run_of('r_s0', 100);
run_of('r_s1', 3000);
$node->safe_psql('postgres', 'VACUUM ANALYZE doc');

my %may_read = (r_s0 => ['s0'], r_s1 => ['s0', 's1'], r_s2 => ['s0', 's1', 's2'], r_s3 => ['s0', 's1', 's2']);
my %paths = (
	'seq scan' => 'SET enable_indexscan = off; SET enable_bitmapscan = off;',
	'parallel seq scan' => 'SET enable_indexscan = off; SET enable_bitmapscan = off; '
	  . 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;',
	'bitmap scan' => 'SET enable_seqscan = off; SET enable_indexscan = off;',
	'parallel bitmap scan' => 'SET enable_seqscan = off; SET enable_indexscan = off; '
	  . 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0; '
	  . 'SET min_parallel_index_scan_size = 0;');
my $digest = "SELECT count(*) || ' ' || md5(string_agg(id || lvl, ',' ORDER BY id)) FROM doc WHERE id > 0";

# Every role and path: the same rows with and without skipping, and the
# rows the policy allows.
sub same_results
{
	my ($what) = @_;
	for my $role (sort keys %level)
	{
		my $want = $node->safe_psql('postgres', "SELECT count(*) || ' ' || md5(string_agg(id || lvl, ',' ORDER BY id)) FROM doc WHERE lvl IN ("
			  . join(',', map { "'$_'" } @{ $may_read{$role} }) . ")",
			extra_params => [ '-U', 'r_s2' ]) if $role ne 'r_s2';
		for my $path (sort keys %paths)
		{
			my $on = as($role, "$paths{$path} $digest");
			my $off = as($role, "SET labelam.skip_ranges = off; SET labelam.pass_ranges = off; $paths{$path} $digest");
			is($on, $off, "$what: $role, $path: same rows with and without the summary (skipping, passing unread)");
			is($on, $want, "$what: $role, $path: the rows the policy lets it read") if defined $want;
		}
	}
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('doc')"),
		'0', "$what: verify_labels finds nothing");
}

# heap blocks a scan of doc reads, from the statistics: a seq scan, or
# with $path a bitmap heap scan (parallel or not) of every row.  Read by
# r_s2, who may select every row of doc (for others they are NULL: they
# count hidden rows' blocks, test/t/232).
sub blocks_read
{
	my ($role, $set, $path) = @_;
	my $stat = "SELECT heap_blks_hit + heap_blks_read FROM pg_statio_user_tables WHERE relname = 'doc'";
	my $before = as('r_s2', $stat);
	# the session's statistics are flushed when it ends (workers' too)
	as($role, "$set " . ($path ? "$paths{$path} SELECT count(*) FROM doc WHERE id > 0"
		: "SET enable_indexscan = off; SET enable_bitmapscan = off; "
		  . "SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM doc"));
	return as('r_s2', $stat) - $before;
}

# EXPLAIN ANALYZE's "Heap Blocks" of a bitmap heap scan of doc: exact and
# lossy pages, summed over the leader's line and (18) each worker's
sub heap_blocks
{
	my ($role, $set, $path) = @_;
	my $plan = as($role, "$set $paths{$path} EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "
		  . "SELECT count(*) FROM doc WHERE id > 0");
	die "not a bitmap heap scan: $plan" unless $plan =~ /Bitmap Heap Scan/;
	my ($exact, $lossy) = (0, 0);
	for my $line ($plan =~ /Heap Blocks:(.*)/g)
	{
		$exact += $1 if $line =~ /exact=(\d+)/;
		$lossy += $1 if $line =~ /lossy=(\d+)/;
	}
	return " exact=$exact lossy=$lossy";
}

same_results('runs of labels');
my $pages = $node->safe_psql('postgres', "SELECT pg_relation_size('doc') / 8192");
my $skipping = blocks_read('r_s0', '');
my $reading = blocks_read('r_s0', 'SET labelam.skip_ranges = off;');
cmp_ok($reading, '>=', $pages, "without skipping an s0 scan reads all $pages blocks");
cmp_ok($skipping, '<', $pages / 5, "with skipping it reads $skipping blocks");
cmp_ok(blocks_read('r_s2', ''), '>=', $pages, 'an s2 scan (may read every label) reads every block');
note "seq scan, s0: $skipping blocks read with skipping, $reading without, of $pages";

# Bitmap heap scans of every row: a block skipped is never read, and
# counted in EXPLAIN ANALYZE's Heap Blocks all the same (as the executor
# counts up to 17 every page of the bitmap, read or declined by the AM).
like(as('r_s0', "$paths{'parallel bitmap scan'} EXPLAIN (COSTS OFF) SELECT count(*) FROM doc WHERE id > 0"),
	qr/Parallel Bitmap Heap Scan/, 'the parallel bitmap path is a parallel bitmap heap scan');
# (the blocks holding rows: from 16 a bulk insert extends the table by
# several empty blocks at once, which a bitmap names none of)
my $used = as('r_s2', "SELECT count(DISTINCT (ctid::text::point)[0]::int) FROM doc");
for my $path ('bitmap scan', 'parallel bitmap scan')
{
	my $bskipping = blocks_read('r_s0', '', $path);
	my $breading = blocks_read('r_s0', 'SET labelam.skip_ranges = off;', $path);
	cmp_ok($breading, '>=', $used, "$path: without skipping an s0 scan reads all $used blocks holding rows");
	cmp_ok($bskipping, '<', $pages / 5, "$path: with skipping it reads $bskipping blocks");
	cmp_ok(blocks_read('r_s2', '', $path), '>=', $used, "$path: an s2 scan reads every block holding rows");
	note "$path, s0: $bskipping blocks read with skipping, $breading without, of $used";
}
# (up to 17 EXPLAIN shows the leader's pages only: how many the workers
# took varies).  A session that may not select every row is not shown
# Heap Blocks at all, skipping or not (EXPLAIN ANALYZE is refused: its
# counts are made below the filter, test/t/232); one that may select
# every row reads every block, as without skipping.
my $server_version = $node->safe_psql('postgres', 'SHOW server_version_num');
for my $path ('bitmap scan', $server_version >= 180000 ? ('parallel bitmap scan') : ())
{
	for my $skip ('on', 'off')
	{
		my ($rc, $out, $err) = $node->psql('postgres', "SET labelam.skip_ranges = $skip; $paths{$path} "
			  . "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT count(*) FROM doc WHERE id > 0",
			extra_params => [ '-U', 'r_s0' ]);
		like($err, qr/permission denied to run an instrumented query .* on relation "doc"/,
			"$path: EXPLAIN ANALYZE as s0 is refused with skip_ranges $skip");
		unlike($out, qr/Heap Blocks/, "$path: ... and shows no Heap Blocks");
	}
	my $all = heap_blocks('r_s2', 'SET labelam.skip_ranges = off;', $path);
	my ($all_n) = $all =~ /exact=(\d+)/;
	cmp_ok($all_n // 0, '>=', $used, "$path: EXPLAIN ANALYZE as s2 counts every block (Heap Blocks:$all)");
	is(heap_blocks('r_s2', '', $path), $all, "$path: with skipping on the same");
}

like($node->safe_psql('postgres', q{
	EXPLAIN SELECT * FROM doc WHERE id = 1}), qr/doc_id/,
	'the planner never uses the summary for a scan');

# --- writers: s0 rows land in ranges that held only s1 rows
as('r_s1', "DELETE FROM doc WHERE lvl = 's1' AND id BETWEEN 1 AND 1500");
$node->safe_psql('postgres', 'VACUUM doc');
as('r_s0', "INSERT INTO doc SELECT g, 's0', 'single ' || g FROM generate_series(20001, 20300) g");
is($node->safe_psql('postgres', "SELECT count(*) FROM doc WHERE id BETWEEN 20001 AND 20300 AND ctid < '(40,0)'",
		extra_params => [ '-U', 'r_s0' ]), '300',
	's0 inserts went into blocks freed in a range that held only s1 rows');
same_results('after inserts into freed s1 ranges');

# COPY's batches, from the client (a server file is decided by its own
# label: src/files)
my $copydata = join('', map { "$_\ts0\tcopied $_\n" } 30001 .. 30500);
as('r_s1', "DELETE FROM doc WHERE lvl = 's1' AND id BETWEEN 6201 AND 7700");
$node->safe_psql('postgres', 'VACUUM doc');
as('r_s0', "COPY doc FROM STDIN;\n$copydata\\.\n");
same_results('after COPY batches');

# updates: HOT (same block) and to other blocks
as('r_s0', "UPDATE doc SET body = 'hot' WHERE id BETWEEN 3001 AND 3050");
as('r_s0', "UPDATE doc SET body = repeat('y', 300) WHERE id BETWEEN 6101 AND 6200");
same_results('after updates');

# rows of the reader's own open transaction, in a range of s1 rows
as('r_s1', "DELETE FROM doc WHERE lvl = 's1' AND id BETWEEN 1501 AND 3000");
$node->safe_psql('postgres', 'VACUUM doc');
is(as('r_s0', "BEGIN; INSERT INTO doc SELECT g, 's0', 'open' FROM generate_series(40001, 40100) g; "
	. "SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FROM doc WHERE id > 40000; ROLLBACK;"),
	'100', 'a transaction sees its own uncommitted rows in formerly-s1 ranges');

# an older snapshot keeps seeing old versions after they were updated away
my $rr = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
$rr->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
$rr->query_safe('SET enable_indexscan = off');
$rr->query_safe('SET enable_bitmapscan = off');
my $old = $rr->query_safe("SELECT md5(string_agg(id || body, ',' ORDER BY id)) FROM doc");
as('r_s0', "UPDATE doc SET body = 'moved ' || id WHERE lvl = 's0'");
as('r_s1', "DELETE FROM doc WHERE lvl = 's1' AND id > 9000");
is($rr->query_safe("SELECT md5(string_agg(id || body, ',' ORDER BY id)) FROM doc"), $old,
	'a repeatable-read snapshot still reads the old versions');
$rr->query_safe('COMMIT');
$rr->quit;
same_results('after updates seen by an older snapshot');

# A cursor's snapshot sees rows its own transaction's outer INSERT writes
# after the cursor was opened (the INSERT's command id is older): a range
# found skippable must be decided again when reached.
# The table: s0 rows in its first blocks, then s1 rows with a hole freed
# in their middle, so that the outer INSERT's rows land ahead of the
# cursor in ranges that held only s1 rows when the cursor was opened.
create_cursor_fetcher($node, 'fetch_behind');
my %fetched;
for my $skip ('on', 'off')
{
	my $b = "behind_$skip";
	$node->safe_psql('postgres', qq{
		CREATE TABLE $b (id int, body text) USING labelheap;
		CREATE INDEX ${b}_labels ON $b USING labelsummary (id);
		GRANT ALL ON $b TO PUBLIC;
	});
	as('r_s0', "INSERT INTO $b SELECT g, 'low' FROM generate_series(1, 50) g");
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 200) FROM generate_series(51, 5000) g");
	as('r_s1', "DELETE FROM $b WHERE id BETWEEN 2000 AND 3500");
	$node->safe_psql('postgres', "VACUUM $b");
	$fetched{$skip} = as('r_s0', "SET labelam.skip_ranges = $skip; SET enable_indexscan = off; SET enable_bitmapscan = off; "
		  . "BEGIN; INSERT INTO $b SELECT 50000 + g, fetch_behind('$b') FROM generate_series(1, 1000) g; "
		  . "SELECT count(*) FILTER (WHERE body <> 'none' AND body::int > 50000) FROM $b WHERE id > 50000; ROLLBACK;");
}
cmp_ok($fetched{off}, '>', 0, 'a cursor fetches rows its own transaction\'s outer INSERT wrote ahead of it');
is($fetched{on}, $fetched{off},
	"a cursor reading behind its own transaction's INSERT fetches the same rows with and without skipping ($fetched{on})");

# The same, with a decision made ahead of the reader: 17 and 18 choose the
# next block when they hand out the current one (the read stream looks
# ahead).  Range 0 is s1 rows in blocks 0-6 and s0 rows in block 7; later
# ranges are s1 rows with one freed block each.  The cursor's first FETCH
# reads block 7, and the stream then looks past every later range (none
# holds an s0 row yet); the outer INSERT's rows then go to the freed
# blocks (rows as wide as the others, so that they fit nowhere else) while
# the cursor is still returning block 7's rows.  A scan that
# kept that look-ahead would end there and miss them.
for my $skip ('on', 'off')
{
	my $b = "ahead_$skip";
	$node->safe_psql('postgres', qq{
		CREATE TABLE $b (id int, body text) USING labelheap;
		CREATE INDEX ${b}_labels ON $b USING labelsummary (id);
		GRANT ALL ON $b TO PUBLIC;
	});
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(1, 20) g");
	my $per_block = as('r_s1', "SELECT count(*) FROM $b WHERE ctid < '(1,0)'");
	as('r_s1', "TRUNCATE $b");
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(1, 7 * $per_block) g");
	as('r_s0', "INSERT INTO $b SELECT g, repeat('l', 1000) FROM generate_series(1001, 1000 + $per_block) g");
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(2001, 2000 + 200 * $per_block) g");
	as('r_s1', "DELETE FROM $b WHERE (ctid::text::point)[0]::int % 8 = 4 AND (ctid::text::point)[0]::int >= 16");
	$node->safe_psql('postgres', "VACUUM $b");
	is(as('r_s0', "SELECT min((ctid::text::point)[0]::int) || '-' || max((ctid::text::point)[0]::int) FROM $b"),
		'7-7', "$b: the s0 rows fill block 7 (the last block of range 0)");
	$fetched{"ahead_$skip"} = as('r_s0', "SET labelam.skip_ranges = $skip; SET enable_indexscan = off; SET enable_bitmapscan = off; "
		  . "BEGIN; INSERT INTO $b SELECT 50000 + g, rpad(fetch_behind('$b'), 1000) FROM generate_series(1, 100) g; "
		  . "SELECT count(*) FILTER (WHERE btrim(body) <> 'none' AND btrim(body)::int > 50000) FROM $b WHERE id > 50000; ROLLBACK;");
}
cmp_ok($fetched{ahead_off}, '>', 0,
	'a cursor past its last readable block fetches rows its own transaction wrote after it got there');
is($fetched{ahead_on}, $fetched{ahead_off},
	"... the same rows with and without skipping ($fetched{ahead_on}): a look-ahead is dropped when the transaction writes");

# The same for bitmap heap scans, whose stream takes entries from the TID
# bitmap ahead and cannot give them back to it.  Rows written after the
# bitmap was built are returned from lossy pages (all their rows are read
# and rechecked): work_mem at its minimum makes every page of a table of
# more than about 1000 pages lossy.  Range 0 is s1 rows in blocks 0-6 and
# s0 rows in block 7; later ranges are s1 rows, and one block in each has
# most of its rows deleted (not all: a lossy page is in the bitmap only if
# the index named one of its rows).  The cursor's first FETCH reads block
# 7, its stream skips every later range (none holds an s0 row yet); the
# outer INSERT then writes s0 rows into the freed space while the cursor
# is still returning block 7's rows.  A scan that kept those skips would
# end after block 7.
$node->safe_psql('postgres', q{
	CREATE FUNCTION fetch_bitmap(tbl text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		c refcursor := 'bitmap_c';
		r record;
	BEGIN
		IF NOT EXISTS (SELECT 1 FROM pg_cursors WHERE name = 'bitmap_c') THEN
			OPEN c FOR EXECUTE format('SELECT id FROM %I WHERE id > 0', tbl);
		END IF;
		FETCH c INTO r;
		RETURN coalesce(r.id::text, 'none');
	END $$;
	GRANT EXECUTE ON FUNCTION fetch_bitmap(text) TO PUBLIC;
});
my $bitmap_set = 'SET enable_seqscan = off; SET enable_indexscan = off; SET max_parallel_workers_per_gather = 0; '
  . "SET work_mem = '64kB';";
for my $skip ('on', 'off')
{
	my $b = "lossy_$skip";
	$node->safe_psql('postgres', qq{
		CREATE TABLE $b (id int, body text) USING labelheap;
		CREATE INDEX ${b}_labels ON $b USING labelsummary (id);
		CREATE INDEX ${b}_id ON $b (id);
		GRANT ALL ON $b TO PUBLIC;
	});
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(1, 20) g");
	my $per_block = as('r_s1', "SELECT count(*) FROM $b WHERE ctid < '(1,0)'");
	as('r_s1', "TRUNCATE $b");
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(1, 7 * $per_block) g");
	as('r_s0', "INSERT INTO $b SELECT g, repeat('l', 1000) FROM generate_series(100001, 100000 + $per_block) g");
	as('r_s1', "INSERT INTO $b SELECT g, repeat('h', 1000) FROM generate_series(200001, 200000 + 1400 * $per_block) g");
	as('r_s1', "DELETE FROM $b WHERE (ctid::text::point)[0]::int % 8 = 4 AND (ctid::text::point)[0]::int >= 16 "
		  . "AND (ctid::text::point)[1]::int > 1");
	$node->safe_psql('postgres', "VACUUM ANALYZE $b");
	is(as('r_s0', "SELECT min((ctid::text::point)[0]::int) || '-' || max((ctid::text::point)[0]::int) FROM $b"),
		'7-7', "$b: the s0 rows fill block 7 (the last block of range 0)");
	# (as r_s1, who may select every row: EXPLAIN ANALYZE is refused to r_s0)
	my $plan = as('r_s1', "$bitmap_set EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id FROM $b WHERE id > 0");
	like($plan, qr/Bitmap Heap Scan.*Heap Blocks:.*lossy=\d+/s, "$b: the cursor's plan is a lossy bitmap heap scan");
	$fetched{"lossy_$skip"} = as('r_s0', "SET labelam.skip_ranges = $skip; $bitmap_set "
		  . "BEGIN; INSERT INTO $b SELECT 50000 + g, rpad(fetch_bitmap('$b'), 1000) FROM generate_series(1, 100) g; "
		  . "SELECT count(*) FILTER (WHERE btrim(body) <> 'none' AND btrim(body)::int > 50000) FROM $b WHERE id BETWEEN 50001 AND 50100; ROLLBACK;");
}
cmp_ok($fetched{lossy_off}, '>', 0,
	'a bitmap cursor past its last readable block fetches rows its own transaction wrote into lossy pages after it got there');
is($fetched{lossy_on}, $fetched{lossy_off},
	"... the same rows with and without skipping ($fetched{lossy_on}): skipped bitmap entries are decided again when the transaction writes");

# The session's decisions change while a bitmap cursor is open (here the
# server goes permissive between two FETCHes): the entries its stream
# skipped under the old decisions, whose turn has not come, are decided
# again; the cursor returns what it returns without skipping.
my %permissive;
for my $skip ('on', 'off')
{
	my $bg = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
	$bg->query_safe("SET labelam.skip_ranges = $skip");
	$bg->query_safe('SET enable_seqscan = off');
	$bg->query_safe('SET enable_indexscan = off');
	$bg->query_safe('SET max_parallel_workers_per_gather = 0');
	$bg->query_safe('BEGIN');
	$bg->query_safe('DECLARE pc CURSOR FOR SELECT id FROM lossy_on WHERE id > 0');
	my $first = $bg->query_safe('FETCH 1 FROM pc');
	$node->safe_psql('postgres', 'ALTER SYSTEM SET labelam.enforcing = off; SELECT pg_reload_conf()');
	for (1 .. 100)
	{
		last if $bg->query_safe('SHOW labelam.enforcing') =~ /off/;
		select(undef, undef, undef, 0.1);
	}
	my $rest = $bg->query_safe('FETCH ALL FROM pc');
	my @rows = split /\n/, $rest;
	$permissive{$skip} = "$first, then " . scalar(@rows) . ' rows';
	$bg->query_safe('COMMIT');
	$bg->quit;
	server_enforcing($node, 'on');
}
like($permissive{off}, qr/^100001, then \d{4,} rows$/,
	"a bitmap cursor of an s0 session returns hidden rows once the server is permissive ($permissive{off})");
is($permissive{on}, $permissive{off}, '... the same with skipping: what its stream skipped is decided again');

# --- rewrites rebuild the summary (under MLS only a one-level table can be
# rewritten: a rewrite updates every row)
as('r_s1', q{
	CREATE TABLE one (id int, v text) USING labelheap;
	CREATE INDEX one_labels ON one USING labelsummary (id);
	CREATE INDEX one_id ON one (id);
	GRANT SELECT ON one TO PUBLIC;
	INSERT INTO one SELECT g, repeat('v', 100) FROM generate_series(1, 5000) g;
});
for my $cmd ('REINDEX INDEX one_labels', 'REINDEX INDEX CONCURRENTLY one_labels',
	'DROP INDEX one_labels; CREATE INDEX CONCURRENTLY one_labels ON one USING labelsummary (id)',
	'VACUUM FULL one', 'CLUSTER one USING one_id',
	'ALTER TABLE one ALTER COLUMN v TYPE varchar(400)', 'TRUNCATE one')
{
	as('r_s1', $cmd);
	as('r_s1', 'INSERT INTO one SELECT g, \'after\' FROM generate_series(1, 100) g') if $cmd =~ /TRUNCATE/;
	my $n = as('r_s1', 'SELECT count(*) FROM one');
	is(as('r_s1', 'SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM one'), $n, "after $cmd: s1 reads its rows");
	is(as('r_s0', 'SELECT count(*) FROM one'), '0', "after $cmd: s0 reads none");
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('one')"), '0',
		"after $cmd: verify_labels finds nothing");
	# (ranges with tuples: from 16 a bulk insert extends the table by
	# several empty blocks at once)
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.label_summary('one_labels')"),
		as('r_s1', "SELECT count(DISTINCT (ctid::text::point)[0]::int / 8) FROM one"),
		"after $cmd: every range of the table is summarized");
}

# --- verify_labels reports a summary that would hide a row
my $s0_secid = $node->safe_psql('postgres', "SELECT labelam.tuple_secid('doc', ctid) FROM doc WHERE lvl = 's0' LIMIT 1");
# (the superuser's session is at s0: an s2 session reads an s2 row's secid)
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION labelam.tuple_secid(regclass, tid) TO r_s2');
my $s2_secid = as('r_s2', "SELECT labelam.tuple_secid('doc', ctid) FROM doc WHERE lvl = 's2' LIMIT 1");
like($s2_secid, qr/^\d+$/, 'an s2 row has a secid');
my $range0 = $node->safe_psql('postgres', "SELECT array_to_string(secids, ',') FROM labelam.label_summary('doc_labels') WHERE first_block = 0");
ok($range0 =~ /\b$s0_secid\b/ || $range0 eq '', 'the first range lists the s0 label');
my $datafile = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('doc_labels')");
my $checksums = $node->safe_psql('postgres', 'SHOW data_checksums');
$node->stop;
# (18's initdb turns data checksums on: off, so that the damage is read)
$node->command_ok([ 'pg_checksums', '--disable', '--pgdata', $node->data_dir ], 'data checksums off')
  if $checksums eq 'on';
# block 1 holds range 0's entry right after the page header: say "only s2"
open my $fh, '+<', $datafile or die "open $datafile: $!";
binmode $fh;
seek($fh, 8192 + 24, 0);
print $fh pack('SSLLL', 1, 0, $s2_secid, 0, 0);
close $fh;
$node->start;
my $problems = $node->safe_psql('postgres', "SELECT count(*), min(problem) FROM labelam.verify_labels('doc')");
like($problems, qr/^[1-9]\d*\|label missing from label summary "doc_labels"$/,
	'verify_labels reports the rows the damaged summary would hide');
isnt(as('r_s0', "SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FROM doc"),
	as('r_s0', "SET labelam.skip_ranges = off; SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FROM doc"),
	'(the damage is real: an s0 scan would miss those rows)');
$node->safe_psql('postgres', 'REINDEX INDEX doc_labels');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('doc')"), '0',
	'REINDEX repairs it');

# --- and one that would disclose rows: the first range holding rows above
# s0 is said to hold "only s0"; an s0 scan lets its rows pass unread
my $in_r = "(ctid::text::point)[0]::int / 8";
my $r = as('r_s2', "SELECT min($in_r) FROM doc WHERE lvl <> 's0'");
my $above = as('r_s2', "SELECT count(*) FROM doc WHERE $in_r = $r AND lvl <> 's0'");
cmp_ok($above, '>', 0, "range $r holds $above rows above s0");
# (REINDEX gave the summary a new file)
$datafile = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('doc_labels')");
$node->stop;
open $fh, '+<', $datafile or die "open $datafile: $!";
binmode $fh;
seek($fh, 8192 * (1 + int($r / 508)) + 24 + 16 * ($r % 508), 0);
print $fh pack('SSLLL', 1, 0, $s0_secid, 0, 0);
close $fh;
$node->start;
$problems = $node->safe_psql('postgres', "SELECT count(*) >= $above, min(problem) FROM labelam.verify_labels('doc')");
is($problems, "t|label missing from label summary \"doc_labels\"",
	'verify_labels reports the rows (live or dead) the damaged summary would disclose');
my $s0_seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0;';
my $leak = "SELECT count(*) FROM doc WHERE lvl <> 's0'";
cmp_ok(as('r_s0', "$s0_seq $leak"), '>=', $above,
	'(the damage is real: an s0 scan trusts the summary and returns those rows)');
is(as('r_s0', "$s0_seq SET labelam.pass_ranges = off; $leak"), '0',
	'(reading every label, it returns none)');
$node->safe_psql('postgres', 'REINDEX INDEX doc_labels');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('doc')"), '0',
	'REINDEX repairs it');
is(as('r_s0', "$s0_seq $leak"), '0', 'and the s0 scan returns no row above s0');

# --- a range of more labels than an entry lists is always read
$node->safe_psql('postgres', q{
	CREATE TABLE mix (id int, lvl text) USING labelheap;
	CREATE INDEX mix_labels ON mix USING labelsummary (id);
	GRANT ALL ON mix TO PUBLIC;
});
for my $round (1 .. 10)
{
	for my $role (sort keys %level)
	{
		as($role, "INSERT INTO mix SELECT g, '$level{$role}' FROM generate_series(1, 50) g");
	}
}
cmp_ok($node->safe_psql('postgres', "SELECT count(*) FROM labelam.label_summary('mix_labels') WHERE secids IS NULL"),
	'>', 0, 'ranges of four labels say "any label"');
is(as('r_s0', 'SELECT count(*) FROM mix'), '500', 's0 reads its interleaved rows');
is(as('r_s0', 'SET labelam.skip_ranges = off; SELECT count(*) FROM mix'), '500', '(also without skipping)');

# --- unlogged and temporary tables have summaries too
is(as('r_s0', q{
	CREATE TEMP TABLE tmp (id int) USING labelheap;
	CREATE INDEX ON tmp USING labelsummary (id);
	INSERT INTO tmp SELECT generate_series(1, 1000);
	SELECT count(*) FROM tmp}), '1000', 'a temporary table with a summary');
$node->safe_psql('postgres', q{
	CREATE UNLOGGED TABLE ul (id int) USING labelheap;
	CREATE INDEX ul_labels ON ul USING labelsummary (id);
	INSERT INTO ul SELECT generate_series(1, 1000);
});
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', q{
	INSERT INTO ul SELECT generate_series(1, 10);
	SELECT count(*) FROM ul; SELECT count(*) FROM labelam.verify_labels('ul')}), "10\n0",
	'an unlogged table\'s summary is reset with the table after a crash');

# --- HOT updates of the summarized column.  From 16 a summary is a
# summarizing index, as BRIN is: an UPDATE that changes only its column
# stays HOT (the new version in the old one's block, no new index
# entries); on 15 it is not HOT.  A HOT update that relabels the row
# (sysadm, labelam.update_label) puts the new label in the block's range
# itself: the range is not skipped for a reader of the new label only.
$node->safe_psql('postgres', q{
	CREATE TABLE hs (id int, v int, lvl text) USING labelheap WITH (fillfactor = 10);
	CREATE INDEX hs_labels ON hs USING labelsummary (v);
	CREATE INDEX hs_id ON hs (id);
	GRANT ALL ON hs TO PUBLIC;
	CREATE ROLE r_admin LOGIN;
	INSERT INTO labelam.role_label VALUES ('r_admin', 'staff_u:sysadm_r:sysadm_t:s1');
});
as('r_s1', "INSERT INTO hs SELECT g, g, 's1' FROM generate_series(1, 40) g");
as('r_s1', 'UPDATE hs SET v = v + 1000');
as('r_admin', "SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s2'; UPDATE hs SET v = v + 1000, lvl = 's2' WHERE id <= 10");
$node->poll_query_until('postgres', "SELECT n_tup_upd = 50 FROM pg_stat_user_tables WHERE relname = 'hs'")
  or die 'the updates of hs did not reach the statistics';
my $hot = $node->safe_psql('postgres', "SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hs'");
if ($node->pg_version >= 16)
{
	is($hot, '50', 'updates of the summarized column, relabeling ones too, are HOT (a summarizing index)');
}
else
{
	is($hot, '0', 'on 15 updates of the summarized column are not HOT');
}
is(as('r_s2', 'SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FILTER (WHERE lvl = \'s2\') || \' \' || count(*) FROM hs'),
	'10 40', 'a reader of s2 finds the ten rows relabeled to s2 by those updates, and the s1 rows');
is(as('r_s2', 'SET labelam.skip_ranges = off; SET labelam.pass_ranges = off; SET enable_indexscan = off; SET enable_bitmapscan = off; '
	  . 'SELECT count(*) FILTER (WHERE lvl = \'s2\') || \' \' || count(*) FROM hs'),
	'10 40', '... as it does without the summary');
is(as('r_s1', 'SET enable_indexscan = off; SET enable_bitmapscan = off; SELECT count(*) FROM hs'), '30',
	'a reader of s1 no longer finds them');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('hs')"), '0',
	'verify_labels finds nothing after HOT updates of the summarized column');

# the summary names labels per range: raw page readers are refused on it
$node->safe_psql('postgres', 'CREATE EXTENSION IF NOT EXISTS pageinspect');
my ($ret, $out, $err) = $node->psql('postgres', "SELECT get_raw_page('doc_labels', 1)");
like($err, qr/permission denied|refuse/i, 'get_raw_page on a label summary is refused');

$node->stop;
done_testing();
