# test/t/713_am_summary_zero_page.pl -- a label summary page that crash
# recovery leaves all zeros is no information, not damage (make soak's
# finding, doc/reliability.md).  The writer that extends a summary writes
# the new page's zeros to the file at once and WAL-logs its initialization;
# a crash before that record is flushed leaves the zeros.  Before the fix
# every INSERT into the table then failed with XX002 "has a damaged page".
# Now: scans read the page's ranges (never skip them) and verify_labels
# reports nothing; the next writer initializes the page, WAL-logged, with
# "any label" for every range the table already has blocks in, so that the
# same page zeroed by damage under committed rows hides and discloses
# nothing either; INSERT, VACUUM and REINDEX work; a page that is not all
# zeros and not a summary page is still reported (XX002).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('zeropage', q{
autovacuum = off
restart_after_crash = on
# the crashing transaction's WAL stays in WAL buffers: no background writes
# of dirty buffers (each would flush WAL up to the buffer's record first);
# the WAL writer writes complete WAL pages only, and the record that
# initializes the summary page ends on an incomplete one
bgwriter_lru_maxpages = 0
wal_writer_delay = 10s
});
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE plain (id int, lvl text, body text) USING labelheap;
	CREATE INDEX plain_labels ON plain USING labelsummary (id);
	GRANT ALL ON plain TO PUBLIC;
});
mls_roles($node, { r_s0 => 's0', r_s1 => 's1' });
$node->safe_psql('postgres', 'GRANT pg_execute_server_program TO r_s1');

sub as { return as_role($node, @_); }

# the summary's block n as it is in the file
my $file;
sub summary_block
{
	my ($n) = @_;
	open my $fh, '<', $file or die "open $file: $!";
	binmode $fh;
	seek($fh, 8192 * $n, 0);
	my $got = read($fh, my $data, 8192);
	close $fh;
	return $got == 8192 ? $data : undef;
}
sub set_file
{
	$file = $node->data_dir . '/'
	  . $node->safe_psql('postgres', "SELECT pg_relation_filepath('plain_labels')");
}
set_file();
is(-s $file, 8192, 'the summary of the empty table is its metapage');

# --- the crash: a transaction's first row extends the summary by page 1,
# then its backend is killed (COPY TO PROGRAM: nothing runs in between)
my ($rc, $out, $err) = $node->psql('postgres',
	"BEGIN; INSERT INTO plain VALUES (0, 's1', 'never committed'); "
	  . "COPY (SELECT 1) TO PROGRAM 'kill -KILL \$PPID'",
	extra_params => [ '-U', 'r_s1' ]);
like($err, qr/server closed the connection unexpectedly/, 'the backend is killed in its transaction');
$node->poll_query_until('postgres', 'SELECT 1', '1') or die 'the server does not come back';
like(slurp_file($node->logfile), qr/all server processes terminated; reinitializing/s,
	'the server restarted and ran crash recovery');
is(-s $file, 16384, 'the summary kept the page it was extended by');
is(summary_block(1), "\0" x 8192, 'crash recovery left page 1 all zeros (its initialization was never flushed)');

# r_s1 may select every row of plain: its counters are shown (test/t/232)
sub blocks_read
{
	my ($set) = @_;
	my $stat = "SELECT heap_blks_hit + heap_blks_read FROM pg_statio_user_tables WHERE relname = 'plain'";
	my $before = as('r_s1', $stat);
	as('r_s0', "$set SET enable_indexscan = off; SET enable_bitmapscan = off; "
		  . "SET max_parallel_workers_per_gather = 0; SELECT count(*) FROM plain");
	return as('r_s1', $stat) - $before;
}
my $blocks = $node->safe_psql('postgres', "SELECT pg_relation_size('plain') / 8192");
cmp_ok($blocks, '>', 0, "the table has $blocks block(s) from the crashed transaction");
is(blocks_read(''), $blocks, 'an s0 scan reads every block of a range whose summary page is all zeros');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('plain')"), '0',
	'verify_labels does not call the zero page damage');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.label_summary('plain_labels')"), '0',
	'label_summary lists no entry from it');

# --- writers: the first one initializes the page
my $digest = "SELECT count(*) || ' ' || coalesce(md5(string_agg(id || lvl || body, ',' ORDER BY id)), '') FROM plain";
my $seq = 'SET enable_indexscan = off; SET enable_bitmapscan = off; SET max_parallel_workers_per_gather = 0;';
($rc, $out, $err) = $node->psql('postgres',
	"INSERT INTO plain SELECT g, 's1', repeat('h', 200) FROM generate_series(1, 3000) g",
	extra_params => [ '-U', 'r_s1' ]);
is("$rc $err", '0 ', 'an INSERT after the crash succeeds');
($rc, $out, $err) = $node->psql('postgres',
	"INSERT INTO plain SELECT g, 's0', 'low' FROM generate_series(3001, 3100) g",
	extra_params => [ '-U', 'r_s0' ]);
is("$rc $err", '0 ', 'and another one, of another label');
like(slurp_file($node->logfile),
	qr/LOG:  label summary "plain_labels" contained an uninitialized page 1, now initialized\n.*DETAIL:  Blocks 0 to 7 of table "plain" are read by every scan until the summary is built again\./,
	'the server log says so, and which blocks every scan reads');
# the initialization is WAL-logged (a full image): another crash keeps it
$node->stop('immediate');
$node->start;
isnt(summary_block(1), "\0" x 8192, 'after another crash, recovery has restored page 1');
is($node->safe_psql('postgres', "SELECT secids IS NULL FROM labelam.label_summary('plain_labels') WHERE first_block = 0"),
	't', 'the range the table had blocks in says "any label"');
my $s1_only = "SELECT count(*) FROM labelam.label_summary('plain_labels') WHERE secids = "
  . "ARRAY[(SELECT secid FROM labelam.pg_security WHERE seclabel = 'staff_u:object_r:sepgsql_table_t:s1')]";
cmp_ok($node->safe_psql('postgres', $s1_only), '>', 0, 'later ranges list the s1 label alone');

# s0 sessions: the same rows with and without the summary, the rows the
# policy allows, fewer blocks read with it
sub same_rows
{
	my ($what) = @_;
	my $want = as('r_s1', "SET labelam.skip_ranges = off; SET labelam.pass_ranges = off; $seq $digest WHERE lvl = 's0'");
	is(as('r_s0', "$seq $digest"), $want, "$what: an s0 scan returns the s0 rows");
	is(as('r_s0', "SET labelam.skip_ranges = off; SET labelam.pass_ranges = off; $seq $digest"), $want,
		"$what: ... as it does without skipping or passing rows unread");
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('plain')"), '0',
		"$what: verify_labels finds nothing");
}
same_rows('after the crash');
$blocks = $node->safe_psql('postgres', "SELECT pg_relation_size('plain') / 8192");
cmp_ok(blocks_read(''), '<', $blocks / 2, "skipping works again: an s0 scan reads few of the $blocks blocks");
is(blocks_read('SET labelam.skip_ranges = off;'), $blocks, '(without skipping it reads all)');

# --- VACUUM, REINDEX
as('r_s1', "DELETE FROM plain WHERE lvl = 's1' AND id % 10 = 0");
$node->safe_psql('postgres', 'VACUUM plain');
same_rows('after VACUUM');
$node->safe_psql('postgres', 'REINDEX INDEX plain_labels');
is($node->safe_psql('postgres', "SELECT secids IS NOT NULL FROM labelam.label_summary('plain_labels') WHERE first_block = 0"),
	't', 'REINDEX: the first range lists its labels again');
same_rows('after REINDEX');

# --- the same page zeroed under committed rows (zero_damaged_pages, a
# storage fault): the writer's initialization hides and discloses nothing
my $checksums = $node->safe_psql('postgres', 'SHOW data_checksums');
set_file();
$node->stop;
# (18's initdb turns data checksums on: off, so that pages can be edited)
$node->command_ok([ 'pg_checksums', '--disable', '--no-sync', '--pgdata', $node->data_dir ],
	'data checksums off')
  if $checksums eq 'on';
sub write_block
{
	my ($n, $data) = @_;
	open my $fh, '+<', $file or die "open $file: $!";
	binmode $fh;
	seek($fh, 8192 * $n, 0);
	print $fh $data;
	close $fh;
}
my $page1 = summary_block(1);
write_block(1, "\0" x 8192);
$node->start;
same_rows('page 1 zeroed under committed rows');
# s0 rows into freed space of ranges that hold s1 rows (the VACUUM above)
my $ranges = $node->safe_psql('postgres', "SELECT (pg_relation_size('plain') / 8192 + 7) / 8");
as('r_s0', "INSERT INTO plain SELECT g, 's0', 'again' FROM generate_series(5001, 5040) g");
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.label_summary('plain_labels') "
	  . "WHERE secids IS NULL AND first_block < $ranges * 8"),
	$ranges, "a writer initialized it: each of the table's $ranges ranges says \"any label\"");
cmp_ok(as('r_s1', "SELECT count(DISTINCT (ctid::text::point)[0]::int / 8) FROM plain WHERE id > 5000 AND "
	  . "(ctid::text::point)[0]::int / 8 IN (SELECT (ctid::text::point)[0]::int / 8 FROM plain WHERE lvl = 's1')"),
	'>', 0, '(some new s0 rows share a range with s1 rows)');
same_rows('page 1 zeroed, then initialized by a writer');

# --- real damage is still reported: page 1 with another magic
$node->stop;
substr($page1, 8192 - 8, 4) = pack('L', 0x12345678);
write_block(1, $page1);
$node->start;
($rc, $out, $err) = $node->psql('postgres', "INSERT INTO plain VALUES (6000, 's0', 'damaged')",
	extra_params => [ '-U', 'r_s0', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  XX002: label summary "plain_labels" has a damaged page 1/,
	'a damaged page (not all zeros) fails the writer with XX002');
same_rows('damaged page 1');
$node->safe_psql('postgres', 'REINDEX INDEX plain_labels');
($rc, $out, $err) = $node->psql('postgres', "INSERT INTO plain VALUES (6000, 's0', 'repaired')",
	extra_params => [ '-U', 'r_s0' ]);
is("$rc $err", '0 ', 'REINDEX repairs it');
same_rows('after REINDEX of the damaged summary');

$node->stop;
done_testing();
