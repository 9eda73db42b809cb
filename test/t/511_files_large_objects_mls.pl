# test/t/511_files_large_objects_mls.pl -- lo_import and lo_export decided
# by the file's own SELinux label (issue 39), under Debian's MLS policy with
# object checks on: an s3 file becomes an s3 large object, which an s0
# session cannot read; an s0 session may not import it; an s3 session may
# not export to an s0 file; a file lo_export creates carries the session's
# level.  Attacks: a symlink to a higher file, lo_import in a column default
# that COPY evaluates without planning it, and object checks turned off
# (large objects then carry no labels: lo_import is refused).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;
use LabelamFiles;

my $node = attack_node('files_lo', q{
labelam.audit = 'denied'
}, objects => 1);
$node->safe_psql('postgres', q{
	GRANT EXECUTE ON FUNCTION lo_import(text), lo_import(text, oid),
		lo_export(oid, text) TO r_s0, r_s1, r_s3;
	GRANT pg_read_server_files, pg_write_server_files TO r_s0, r_s3;
	CREATE TABLE secret (v text) USING labelheap;
	SECURITY LABEL FOR selinux ON TABLE secret
		IS 'system_u:object_r:sepgsql_secret_table_t:s0';
	INSERT INTO secret VALUES ('SECRET-type');
	GRANT ALL ON secret TO PUBLIC;
});

my $L0 = 'staff_u:object_r:user_tmp_t:s0';
my $L3 = 'staff_u:object_r:user_tmp_t:s3';
my $d0 = files_dir($node, 'd_s0', $L0);
my $d3 = files_dir($node, 'd_s3', $L3);

sub blob_label
{
	my ($oid) = @_;
	return $node->safe_psql('postgres',
		"SELECT label FROM pg_seclabels WHERE objtype = 'large object' AND objoid = $oid");
}

sub blobs
{
	return $node->safe_psql('postgres', 'SELECT count(*) FROM pg_largeobject_metadata');
}

my $secret = labeled_file("$d3/secret.txt", $L3, 'SECRET-s3-lo-file');
my $public = labeled_file("$d0/public.txt", $L0, 'public-s0-lo-file');
my ($rc, $out, $err);

# ---- lo_import ----
my $lo3 = as_role($node, 'r_s3', "SELECT lo_import('$secret')");
like($lo3, qr/^\d+$/, 'an s3 session imports an s3 file');
is(blob_label($lo3), 'staff_u:object_r:user_sepgsql_blob_t:s3', 'as an s3 large object');
is(as_role($node, 'r_s3', "SELECT convert_from(lo_get($lo3), 'UTF8')"), 'SECRET-s3-lo-file',
	'holding the file');
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_get($lo3)");
denied($err, 'an s0 session may not read it');
no_leak('s0', 'nothing of it reaches s0', $out, $err);

my $before = blobs();
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_import('$secret')");
denied($err, 'an s0 session may not import an s3 file');
like($err, qr/permission denied to read file "\Q$secret\E"/, '... for want of file { read }');
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_import('$secret', 777001)");
denied($err, 'nor with an OID of its choice');
($rc, $out, $err) = run($node, 'r_s3', "SELECT lo_import('$public')");
denied($err, 'an s3 session may not import an s0 file (its object would be s0)');
like($err, qr/db_blob \{ create import \}/, '... for want of db_blob { create import } at s0');
is(blobs(), $before, 'no large object was created by the refused imports');

symlink($secret, "$d0/sym.txt") or die;
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_import('$d0/sym.txt')");
denied($err, 'a symlink in an s0 directory to an s3 file: refused');

my $lo0 = as_role($node, 'r_s0', "SELECT lo_import('$public')");
is(blob_label($lo0), 'staff_u:object_r:user_sepgsql_blob_t:s0', 'an s0 file imported at s0');

# ---- lo_export ----
my $low = labeled_file("$d0/low.txt", $L0, 'untouched');
($rc, $out, $err) = run($node, 'r_s3', "SELECT lo_export($lo3, '$low')");
denied($err, 'an s3 session may not export to an s0 file');
is(read_file($low), 'untouched', 'the s0 file is unchanged');

($rc, $out, $err) = run($node, 'r_s3', "SELECT lo_export($lo3, '$d3/made.txt')");
succeeds($err, 'an s3 session exports into an s3 directory');
is(file_label("$d3/made.txt"), $L3, 'the new file carries the s3 label');
is(read_file("$d3/made.txt"), 'SECRET-s3-lo-file', 'and the object');

($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_export($lo3, '$d0/stolen.txt')");
denied($err, 'an s0 session may not export an s3 object');
ok(!-e "$d0/stolen.txt", 'and leaves no file');
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_export($lo0, '$d0/made.txt')");
succeeds($err, 'an s0 session exports an s0 object');
is(file_label("$d0/made.txt"), $L0, 'into an s0 file');

($rc, $out, $err) = run($node, 'r_s3', "SELECT lo_export($lo3, '$d0/high.txt')");
denied($err, 'an s3 session may not add a file to an s0 directory');
ok(!-e "$d0/high.txt", 'no file was left there');

# ---- object checks still decide what COPY reads and writes ----
($rc, $out, $err) = run($node, 'r_s0', "COPY secret TO '$d0/secret.txt'");
denied($err, 'COPY of a table the session may not select, to a file it may write: refused');
like($err, qr/db_table \{ select \}/, '... by the table\'s db_table select');
ok(!-e "$d0/secret.txt", '... and the file made for it is gone');
($rc, $out, $err) = run($node, 'r_s0', "COPY secret FROM '$public'");
denied($err, 'nor COPY rows into it (its rows are of a type staff may not insert)');

# ---- calls that escape the twins ----
$node->safe_psql('postgres', qq{
	CREATE TABLE imp (id int, o oid DEFAULT lo_import('$secret')) USING labelheap;
	GRANT ALL ON imp TO PUBLIC;
});
labeled_file("$d0/ids.csv", $L0, "1\n");
$before = blobs();
($rc, $out, $err) = run($node, 'r_s0', "COPY imp (id) FROM '$d0/ids.csv'");
like($err, qr/ERROR:  42501: SELinux: lo_import cannot be checked where it is called/,
	'lo_import of an s3 file in a default that COPY evaluates unplanned: refused');
is(blobs(), $before, '... and imports nothing');

# ---- object checks off: large objects carry no labels ----
$node->safe_psql('postgres', 'ALTER SYSTEM SET labelam.object_checks = off; SELECT pg_reload_conf()');
$node->poll_query_until('postgres', 'SHOW labelam.object_checks', 'off') or die;
$before = blobs();
($rc, $out, $err) = run($node, 'r_s3', "SELECT lo_import('$secret')");
denied($err, 'with object checks off, lo_import is refused');
like($err, qr/large objects carry no labels/, '... saying why');
is(blobs(), $before, 'and creates nothing');
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_export($lo0, '$d3/up.txt')");
denied($err, 'lo_export still decides the file (an s0 session, an s3 directory)');
($rc, $out, $err) = run($node, 'r_s0', "SELECT lo_export($lo0, '$d0/off.txt')");
succeeds($err, 'and writes where the file may be written');
is(file_label("$d0/off.txt"), $L0, 'labeled s0');

done_testing();
