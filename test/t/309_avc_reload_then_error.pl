# test/t/309_avc_reload_then_error.pl -- an ERROR in the statement that
# reloaded a changed policy file is an ordinary error.  The sepol provider
# reloads the file at a statement's first decision; a successful reload used
# to return from inside PG_TRY, leaving PG_exception_stack pointing into a
# dead frame, so that the statement's next ERROR crashed the backend and
# restarted the server (found by the hostile-input run of issue 36: a
# corrupted COPY restore right after a policy update).  Both a policy file
# replaced by a new one and a good file put back after a rejected one.
use strict;
use warnings;
use File::Copy;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $mls = selinux_policy('mls');
plan(skip_all => "$mls is missing (package selinux-policy-mls)") unless -f $mls;

my $node = labelam_node('reload');
my $dir = $node->basedir;
my $policy = "$dir/policy.mls";
copy($mls, $policy) or die "copy $mls: $!";
$node->append_conf('postgresql.conf', qq{
labelam.policy_file = '$policy'
labelam.default_client_label = 'staff_u:staff_r:staff_t:s0'
labelam.default_table_label = 'staff_u:object_r:sepgsql_table_t:s0'
labelam.object_checks = off
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE t (k int) USING labelheap;
	INSERT INTO t VALUES (1), (2);
	CREATE TABLE target (k int NOT NULL) USING labelheap;
});

# replace(content file): the policy file replaced as an administrator
# installs a new one (a new inode), from within the session, so that the
# session's next statement sees the change
sub replace_cmd
{
	my ($from) = @_;
	return "\\! cp '$from' '$policy.new' && mv '$policy.new' '$policy'";
}
open my $fh, '>', "$dir/broken.mls" or die;
print $fh "not a policy\n";
close $fh;

my $log_offset = -s $node->logfile;
# each statement: the first decision reloads the file, then an error
my ($rc, $out, $err) = $node->psql('postgres', join("\n",
	'SELECT count(*) FROM t;',
	replace_cmd($mls),
	# the scan decides on row 1 (reload), then its qual divides by zero
	q{SELECT count(*) FROM t WHERE 1 / (k - 1) > 0;},
	q{SELECT count(*) FROM t;},
	replace_cmd("$dir/broken.mls"),
	q{SELECT count(*) FROM t;},
	replace_cmd($mls),
	# row 1 is decided (reload), row 2 fails to parse
	q{COPY target FROM STDIN;},
	"1",
	"not a number",
	"\\.",
	q{SELECT 'still here', count(*) FROM t;}), on_error_stop => 0);
like($err, qr/ERROR:  division by zero/,
	'a new policy file, then an error: the error reaches the client');
like($err, qr/ERROR:  invalid input syntax for type integer: "not a number"/,
	'a good file after a rejected one, then an error in COPY: the error reaches the client');
like($out, qr/^still here\|2$/m, 'the session goes on');
my $log = slurp_file($node->logfile, $log_offset);
like($log, qr/labelam: loaded SELinux policy file ".*policy\.mls" \(policy \d+\); the file rejected before is superseded/,
	'the good file was loaded again after the rejected one');
unlike($log, qr/terminated by signal|server process .* exited with exit code/,
	'no backend crashed');

$node->stop;
done_testing();
