# test/t/510_files_copy_mls.pl -- COPY to and from server files decided by
# the file's own SELinux label (issue 39), under Debian's MLS policy with
# the sepol provider: an s3 file's rows are s3 rows, a lower session may
# not read it, a higher one may not write its data down, COPY TO never
# writes a file below its level and labels the files it creates.  The
# attacks: symlinks and hard links to a higher file, a symlink swapped
# while COPYs run, a FIFO relabeled while it is read, a directory below the
# session's level, a label column that asks for a lower label, a dangling
# symlink, and a table whose rows keep no label.  Each refusal is 42501
# and leaves nothing behind.
use strict;
use warnings;
use POSIX ();
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use LabelamTest;
use LabelamAttack;
use LabelamFiles;

my $node = attack_node('files');
$node->safe_psql('postgres', q{
	GRANT pg_read_server_files, pg_write_server_files TO r_s0, r_s1, r_s3;
	CREATE TABLE t (id int, v text) USING labelheap;
	CREATE TABLE race (id int, v text) USING labelheap;
	CREATE TABLE tc (id int, v text, lbl labelam.security_label) USING labelheap;
	CREATE TABLE h (id int, v text);
	GRANT ALL ON t, race, tc, h TO PUBLIC;
});

my $L0 = 'staff_u:object_r:user_tmp_t:s0';
my $L3 = 'staff_u:object_r:user_tmp_t:s3';
my $ROW0 = 'staff_u:object_r:sepgsql_table_t:s0';
my $ROW3 = 'staff_u:object_r:sepgsql_table_t:s3';
my $d0 = files_dir($node, 'd_s0', $L0);
my $d3 = files_dir($node, 'd_s3', $L3);

# rows(role, table): "id|label" of every row role reads
sub rows
{
	my ($role, $table) = @_;
	return as_role($node, $role,
		"SELECT coalesce(string_agg(id || '|' || x.security_label, ',' ORDER BY id), '') FROM $table x");
}

my $secret = labeled_file("$d3/secret.csv", $L3, "31,SECRET-s3-file-1\n32,SECRET-s3-file-2\n");
my $public = labeled_file("$d0/public.csv", $L0, "1,public-s0-file-1\n");
my ($rc, $out, $err);

# ---- COPY FROM: the file's level ----
($rc, $out, $err) = run($node, 'r_s3', "COPY t FROM '$secret' (FORMAT csv)");
succeeds($err, 'an s3 session imports an s3 file');
is(rows('r_s3', 't'), "31|$ROW3,32|$ROW3", 'its rows are labeled s3');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT id, v FROM t');
is($out, '', 'an s0 session reads none of them');
no_leak('s0', 'no marker of the s3 file reaches s0', $out, $err);

($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$secret' (FORMAT csv)");
denied($err, 'an s0 session may not import an s3 file (read-up)');
like($err, qr/permission denied to read file "\Q$secret\E"/, 'the refusal names the file');
($rc, $out, $err) = run($node, 'r_s1', "COPY t FROM '$secret' (FORMAT csv)");
denied($err, 'nor may an s1 session');
($rc, $out, $err) = run($node, 'r_s3', "COPY t FROM '$public' (FORMAT csv)");
denied($err, 'an s3 session may not import an s0 file: its rows would be s0, written down');
like($err, qr/permission denied to insert rows of relation "t"/, '... refused as an insert at s0');
($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$public' (FORMAT csv)");
succeeds($err, 'an s0 session imports an s0 file');
is(rows('r_s3', 't'), "1|$ROW0,31|$ROW3,32|$ROW3", 'nothing else was written, and the s0 row is s0');

my $unlabeled = "$d0/unlabeled.csv";
write_file($unlabeled, "5,no-label\n");
($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$unlabeled' (FORMAT csv)");
denied($err, 'a file without a label is the policy\'s unlabeled file, which staff may not read');

# ---- COPY TO: no write-down; new files get the session's level ----
my $low = labeled_file("$d0/low.csv", $L0, "untouched\n");
($rc, $out, $err) = run($node, 'r_s3', "COPY t TO '$low'");
denied($err, 'an s3 session may not write to an s0 file');
is(read_file($low), "untouched\n", 'the s0 file is unchanged');

($rc, $out, $err) = run($node, 'r_s3', "COPY t TO '$d3/made.csv'");
succeeds($err, 'an s3 session creates a file in an s3 directory');
is(file_label("$d3/made.csv"), $L3, 'the new file carries the s3 label the policy gives it');
is((stat("$d3/made.csv"))[2] & 07777, 0644, 'with the mode PostgreSQL gives COPY files');
like(read_file("$d3/made.csv"), qr/SECRET-s3-file-1/, 'and the s3 rows');
($rc, $out, $err) = run($node, 'r_s0', "COPY t TO '$d0/made.csv'");
succeeds($err, 'an s0 session creates a file in an s0 directory');
is(file_label("$d0/made.csv"), $L0, 'labeled s0');
no_leak('s0', 'the s0 file holds no s3 row', read_file("$d0/made.csv"));
($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$d3/made.csv'");
denied($err, 'the file the s3 session made stays out of the s0 session\'s reach');

# ---- attacks ----
symlink($secret, "$d0/sym.csv") or die;
($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$d0/sym.csv' (FORMAT csv)");
denied($err, 'a symlink in an s0 directory to an s3 file: refused');
link($secret, "$d0/hard.csv") or die;
($rc, $out, $err) = run($node, 'r_s0', "COPY t FROM '$d0/hard.csv' (FORMAT csv)");
denied($err, 'a hard link in an s0 directory to an s3 file: refused');
($rc, $out, $err) = run($node, 'r_s0', 'SELECT count(*) FROM t');
is($out, '1', 'the s0 session still reads only its own row');

symlink($low, "$d3/to-low.csv") or die;
($rc, $out, $err) = run($node, 'r_s3', "COPY t TO '$d3/to-low.csv'");
denied($err, 'an s3 session writing through a symlink to an s0 file: refused');
is(read_file($low), "untouched\n", 'the s0 file is unchanged');

symlink("$d0/by-link.csv", "$d3/dangling.csv") or die;
($rc, $out, $err) = run($node, 'r_s3', "COPY t TO '$d3/dangling.csv'");
like($err, qr/ERROR:  \w+: could not open file "\Q$d3\E\/dangling.csv" for writing: File exists/,
	'a dangling symlink is not followed to create a file');
ok(!-e "$d0/by-link.csv", 'nothing was created where it points');

($rc, $out, $err) = run($node, 'r_s3', "COPY t TO '$d0/high.csv'");
denied($err, 'an s3 session may not add a file to an s0 directory');
like($err, qr/does not allow dir \{ write add_name \}/, '... for want of dir { write add_name }');
ok(!-e "$d0/high.csv", 'no file was left there');

labeled_file("$d3/col.csv", $L3, "7,SECRET-col,$ROW0\n8,SECRET-nocol,\n");
($rc, $out, $err) = run($node, 'r_s3', "COPY tc FROM '$d3/col.csv' (FORMAT csv)");
denied($err, 'an s3 file whose label column asks for s0: refused');
($rc, $out, $err) = run($node, 'r_s3', "COPY tc FROM '$d3/col.csv' (FORMAT csv) WHERE lbl IS NULL");
succeeds($err, 'its line without a label loads');
is(rows('r_s3', 'tc'), "8|$ROW3", 'at the file\'s level');

($rc, $out, $err) = run($node, 'r_s0', "COPY h FROM '$public' (FORMAT csv)");
denied($err, 'rows of a heap table keep no label: refused with object checks off');
like($err, qr/labelam.object_checks off/, '... saying why');

($rc, $out, $err) = run($node, 'r_s0', "COPY (SELECT 1 / 0) TO '$d0/failed.csv'");
like($err, qr/division by zero/, 'a COPY TO that fails');
ok(!-e "$d0/failed.csv", 'leaves no file it created');

# COPY ... PROGRAM stays PostgreSQL's trust model (the bootstrap superuser)
$node->safe_psql('postgres', "COPY (SELECT 1) TO PROGRAM 'cat > $d0/program.out'");
is(file_label("$d0/program.out"), undef, 'COPY TO PROGRAM: the program\'s own file, not decided');

# A FIFO relabeled s0 -> s3 while the COPY reads it: the lines after the
# relabel are s3 data, so the COPY fails and keeps none of them.
my $fifo = "$d0/fifo.csv";
POSIX::mkfifo($fifo, 0600) or die "mkfifo: $!";
set_file_label($fifo, $L0);
my ($fin, $fout, $ferr) = ('', '', '');
my $copy = IPC::Run::start([ 'psql', '-X', '-v', 'VERBOSITY=verbose', '-U', 'r_s0',
	'-d', $node->connstr('postgres'), '-c', "COPY t FROM '$fifo' (FORMAT csv)" ],
	'<', \$fin, '>', \$fout, '2>', \$ferr);
$node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE query LIKE 'COPY t FROM %fifo.csv%'")
  or die 'the COPY from the FIFO does not start';
my $pid = $node->safe_psql('postgres',
	"SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY t FROM %fifo.csv%'");
open my $w, '>', $fifo or die "open $fifo: $!";
# PostgreSQL's own open of the FIFO, after labelam's: the second descriptor
for (my $i = 0; ; $i++)
{
	my $n = grep { (readlink($_) // '') eq $fifo } glob("/proc/$pid/fd/*");
	last if $n >= 2;
	die 'the backend does not open the FIFO' if $i > 6000;
	Time::HiRes::usleep(10_000);
}
$w->autoflush(1);
print $w "41,public-fifo\n";
set_file_label($fifo, $L3);
print $w "42,SECRET-fifo\n";
close $w;
$copy->finish;
like($ferr, qr/ERROR:  42501: file "\Q$fifo\E" was relabeled while it was read/,
	'a FIFO relabeled to s3 while read: the COPY fails');
is(as_role($node, 'r_s3', 'SELECT count(*) FROM t WHERE id > 40'), '0', 'and wrote no row');

# A symlink flipped between an s0 and an s3 file while an s0 session runs
# COPYs through it: whatever the path names when, the file opened is the
# file decided, so no s3 line is ever loaded.
my $raceL = labeled_file("$d0/race-low.csv", $L0, "1,public-race\n");
my $raceH = labeled_file("$d3/race-high.csv", $L3, "2,SECRET-race\n");
my $path = "$d0/race.csv";
symlink($raceL, $path) or die;
my $flipper = fork();
die "fork: $!" unless defined $flipper;
if ($flipper == 0)
{
	my $n = 0;
	while (1)
	{
		my $tmp = "$d0/race.tmp";
		unlink $tmp;
		symlink((($n++ & 1) ? $raceH : $raceL), $tmp) and rename($tmp, $path);
	}
}
($rc, $out, $err) = run($node, 'r_s0', qq{
DO \$\$
DECLARE
	loaded int := 0;
	refused int := 0;
BEGIN
	FOR i IN 1..2000 LOOP
		BEGIN
			COPY race FROM '$path' (FORMAT csv);
			loaded := loaded + 1;
		EXCEPTION WHEN insufficient_privilege THEN
			refused := refused + 1;
		END;
	END LOOP;
	RAISE NOTICE 'race: % loaded, % refused', loaded, refused;
END \$\$});
kill 'KILL', $flipper;
waitpid($flipper, 0);
succeeds($err, 'the COPYs ran');
note($err =~ /(race: \d+ loaded, \d+ refused)/ ? $1 : $err);
is(as_role($node, 'r_s3', "SELECT count(*) FROM race WHERE v LIKE 'SECRET%'"), '0',
	'no line of the s3 file was loaded by the s0 session');
is(as_role($node, 'r_s3', "SELECT count(*) FROM race x WHERE x.security_label <> '$ROW0'"), '0',
	'every row it loaded is s0');

done_testing();
