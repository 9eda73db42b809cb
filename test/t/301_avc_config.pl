# test/t/301_avc_config.pl -- configuration and failure paths of the policy
# subsystem: bad policy files at start-up and at reload (the last policy
# stays), the selinux provider
# on a kernel without SELinux, sessions without a label, labelam.role_label,
# and the audit log.
use strict;
use warnings;
use File::Copy;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $policy = selinux_policy('default');
my $node = labelam_node('config');
my $dir = $node->basedir;
# this test's sessions (the superuser too) take labels such as user_t that
# may not create databases: it is about rows and session labels, object
# checks are test 500's
$node->append_conf('postgresql.conf', 'labelam.object_checks = off');

# the server must not start with a policy it cannot load
sub start_fails
{
	my ($conf, $pattern, $name) = @_;
	$node->append_conf('postgresql.conf', $conf);
	my $log_offset = -s $node->logfile // 0;
	my $ok = $node->start(fail_ok => 1);
	ok(!$ok, "$name: server refuses to start");
	my $log = slurp_file($node->logfile, $log_offset);
	like($log, $pattern, "$name: the log says why");
}

start_fails("labelam.policy_file = '$dir/missing.33'",
	qr/FATAL:  could not open SELinux policy file ".*missing\.33": No such file or directory\n.*HINT:  Set labelam\.policy_file to a binary SELinux policy/,
	'missing policy file');

open my $fh, '>', "$dir/corrupt.33" or die;
print $fh "this is not a policy\n" x 100;
close $fh;
start_fails("labelam.policy_file = '$dir/corrupt.33'",
	qr/FATAL:  could not load SELinux policy file ".*corrupt\.33"\n.*DETAIL:  libsepol: .*\n.*HINT:  labelam\.policy_file must name a binary \(kernel\) SELinux policy/,
	'corrupt policy file');

SKIP:
{
	skip 'the kernel runs SELinux', 2 if -e '/sys/fs/selinux/enforce';
	start_fails("labelam.provider = 'selinux'\nlabelam.policy_file = '$policy'",
		qr/FATAL:  labelam\.provider is "selinux", but the kernel does not run SELinux\n.*HINT:  Set labelam\.provider = 'sepol'/,
		'selinux provider without SELinux');
}

# a copy of the policy we can break while the server runs
copy($policy, "$dir/policy.33") or die "copy: $!";
$node->append_conf('postgresql.conf', qq{
labelam.provider = 'sepol'
labelam.policy_file = '$dir/policy.33'
labelam.default_client_label = ''
});
$node->start;

# no label at all: connection refused, naming the settings
my ($rc, $out, $err) = $node->psql('postgres', 'SELECT 1');
isnt($rc, 0, 'a session without a label is refused');
like($err, qr/FATAL:  no security label for role "\w+"/, 'FATAL says why');
like($err, qr/DETAIL:  .*labelam is not installed in database "postgres" \(so labelam\.role_label gives no label there\)/,
	'and says that labelam.role_label cannot give one in a database without the extension');
like($err, qr/HINT:  Set labelam\.default_client_label in postgresql\.conf\./,
	'and names the setting that can');

# a database without the extension still honours the default label
$node->append_conf('postgresql.conf',
	"labelam.default_client_label = 'user_u:user_r:user_t:s0'");
$node->reload;
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'default label lets sessions in');

# ... and a look-alike labelam.role_label there is not the extension's
$node->safe_psql('postgres', q{
	CREATE DATABASE noext;
	CREATE ROLE u_sneaky LOGIN;
});
$node->safe_psql('noext', q{
	CREATE SCHEMA labelam;
	CREATE TABLE labelam.role_label (role regrole, label text);
	INSERT INTO labelam.role_label VALUES ('u_sneaky', 'unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023');
	CREATE FUNCTION public.client_label() RETURNS text LANGUAGE sql
		AS $$ SELECT current_setting('labelam.session_label') $$;
});
is($node->safe_psql('noext', 'SELECT public.client_label()', extra_params => [ '-U', 'u_sneaky' ]),
	'user_u:user_r:user_t:s0', 'a labelam.role_label that is not the extension\'s is ignored');
$node->append_conf('postgresql.conf',
	"labelam.default_client_label = 'unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023'");
$node->reload;
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE ROLE u_user LOGIN;
	CREATE ROLE u_bad LOGIN;
	CREATE ROLE u_none LOGIN;
	GRANT USAGE ON SCHEMA labelam TO u_user;
	INSERT INTO labelam.role_label VALUES
		('u_user', 'user_u:user_r:user_t:s0'),
		('u_bad', 'user_u:user_r:no_such_t:s0');
});
is($node->safe_psql('postgres', 'SELECT labelam.client_label()', extra_params => [ '-U', 'u_user' ]),
	'user_u:user_r:user_t:s0', 'labelam.role_label gives the role its label');
($rc, $out, $err) = $node->psql('postgres', 'SELECT 1', extra_params => [ '-U', 'u_bad' ]);
isnt($rc, 0, 'an invalid label in labelam.role_label refuses the session');
like($err, qr/FATAL:  invalid security label "user_u:user_r:no_such_t:s0".*CONTEXT:  security label of the session, from labelam\.role_label/s,
	'and says where the label came from');
($rc, $out, $err) = $node->psql('postgres', 'SELECT 1',
	extra_params => [ '-U', 'u_user' ], connstr => 'options=-clabelam.session_label=unconfined_u:unconfined_r:unconfined_t:s0');
isnt($rc, 0, 'the session label cannot be chosen at connection');

# where the extension is installed, a role without a row is pointed at it
$node->append_conf('postgresql.conf', "labelam.default_client_label = ''");
$node->reload;
($rc, $out, $err) = $node->psql('postgres', 'SELECT 1', extra_params => [ '-U', 'u_none' ]);
like($err, qr/FATAL:  no security label for role "u_none".*HINT:  Add a row to labelam\.role_label or set labelam\.default_client_label\./s,
	'a role without a row in a database with the extension: the hint names labelam.role_label');
$node->append_conf('postgresql.conf',
	"labelam.default_client_label = 'unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023'");
$node->reload;

# a policy file broken while the server runs: the last policy loaded stays
# in force (as the kernel keeps its policy when load_policy fails), the
# failure is logged and reported, and the fixed file is loaded
# (test/t/303_avc_rollout.pl tests this with sessions running)
my $seqno = $node->safe_psql('postgres', 'SELECT seqno FROM labelam.policy_info()');
my $offset = -s $node->logfile;
copy("$dir/corrupt.33", "$dir/policy.33.new") or die;
rename("$dir/policy.33.new", "$dir/policy.33") or die;
($rc, $out, $err) = $node->psql('postgres', q{
	SELECT labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:sepgsql_table_t:s0', '{select}'),
		labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:etc_t:s0', '{select}'),
		rejected
	FROM labelam.policy_info()});
is($rc, 0, 'a corrupt policy file does not fail the session');
like($out, qr/^t\|f\|could not load SELinux policy file ".*policy\.33": libsepol: policydb magic number/,
	'decisions are the last policy\'s, and policy_info() says why the file was rejected');
is($err, '', 'the client is not bothered with it');
like(slurp_file($node->logfile, $offset),
	qr/LOG:  labelam: could not load the new SELinux policy; still deciding with ".*policy\.33" \(policy \d+\)\n.*DETAIL:  could not load SELinux policy file ".*policy\.33": libsepol: policydb magic number/,
	'the server log says why');
copy($policy, "$dir/policy.33.new") or die;
rename("$dir/policy.33.new", "$dir/policy.33") or die;
is($node->safe_psql('postgres', q{
	SELECT labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:sepgsql_table_t:s0', '{select}'), rejected IS NULL
	FROM labelam.policy_info()}),
	't|t', 'the fixed file is loaded, nothing rejected');
cmp_ok($node->safe_psql('postgres', 'SELECT seqno FROM labelam.policy_info()'),
	'>', $seqno, 'the policy was reloaded');

# reload within one session resets the cache
is($node->safe_psql('postgres', q{
	SELECT labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:sepgsql_table_t:s0', '{select}');
	SELECT resets AS r0 FROM labelam.avc_stats() \gset
	\! touch } . "$dir/policy.33" . q{
	SELECT labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:sepgsql_table_t:s0', '{select}');
	SELECT resets > :r0 FROM labelam.avc_stats()}),
	"t\nt\nt", 'a changed policy file resets the cache of a running session');

# ... at its next statement, not within a running one: queries that a
# statement's functions run decide with the policy the statement started
# with (one look at the file per statement the client sends)
$node->safe_psql('postgres', q{
	CREATE FUNCTION resets_across_touch() RETURNS bigint LANGUAGE plpgsql AS $f$
	DECLARE
		r0 bigint;
		r1 bigint;
	BEGIN
		PERFORM labelam.check_access('user_u:user_r:user_t:s0',
			'system_u:object_r:sepgsql_table_t:s0', '{select}');
		SELECT resets INTO r0 FROM labelam.avc_stats();
		COPY (SELECT 1) TO PROGRAM 'touch } . "$dir/policy.33" . q{';
		PERFORM labelam.check_access('user_u:user_r:user_t:s0',
			'system_u:object_r:sepgsql_table_t:s0', '{select}');
		SELECT resets INTO r1 FROM labelam.avc_stats();
		RETURN r1 - r0;
	END $f$});
is($node->safe_psql('postgres', q{
	SELECT resets AS r0 FROM labelam.avc_stats() \gset
	SELECT resets_across_touch();
	SELECT labelam.check_access('user_u:user_r:user_t:s0',
		'system_u:object_r:sepgsql_table_t:s0', '{select}');
	SELECT resets - :r0 FROM labelam.avc_stats()}),
	"0\nt\n1", 'a policy file changed during a statement is taken at the next statement');

# audit: one line per statement and decision, with a row count
my $su = $node->safe_psql('postgres', 'SELECT current_user');
sub audit_log
{
	my ($user, $setting, $sql) = @_;
	# a superuser setting: given to the role by a superuser
	$node->safe_psql('postgres', "ALTER ROLE $user SET labelam.audit = '$setting'");
	my $offset = -s $node->logfile;
	$node->safe_psql('postgres', $sql, extra_params => [ '-U', $user ]);
	my $log = slurp_file($node->logfile, $offset);
	return join("\n", $log =~ /(labelam: .*)/g);
}
$node->safe_psql('postgres', 'GRANT EXECUTE ON FUNCTION labelam._avc_bench(text[], bigint, boolean) TO u_user');
# the bench function decides through the row filter's path, for a NULL
# relation: labelam.audit = all logs the grants
my $log = audit_log($su, 'all', q{
	SELECT labelam._avc_bench('{system_u:object_r:sepgsql_table_t:s0}', 1000) >= 0});
like($log, qr/^labelam: allowed \{ select \} scontext=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0\.c1023 tcontext=system_u:object_r:sepgsql_table_t:s0 tclass=db_tuple rows=1000$/,
	'audit = all: one line for 1000 granted decisions');
$log = audit_log('u_user', 'denied', q{
	SELECT labelam._avc_bench('{system_u:object_r:etc_t:s0,system_u:object_r:sepgsql_table_t:s0}', 1000) >= 0});
like($log, qr/^labelam: denied \{ select \} scontext=user_u:user_r:user_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=db_tuple rows=500$/,
	'audit = denied: one line for 500 denials, none for the grants');
# the policy says "dontaudit sepgsql_client_type postgresql_typeattr_1:db_tuple
# { select ... }" (sesearch --dontaudit): user_t's denials on secret rows
# are not logged, unless labelam.audit = all
$log = audit_log('u_user', 'denied', q{
	SELECT labelam._avc_bench('{system_u:object_r:sepgsql_secret_table_t:s0}', 1000) >= 0});
is($log, '', "audit = denied: the policy's dontaudit is honoured");
$log = audit_log('u_user', 'all', q{
	SELECT labelam._avc_bench('{system_u:object_r:sepgsql_secret_table_t:s0}', 1000) >= 0});
like($log, qr/^labelam: denied \{ select \} scontext=user_u:user_r:user_t:s0 tcontext=system_u:object_r:sepgsql_secret_table_t:s0 tclass=db_tuple rows=1000$/,
	'audit = all: dontaudit is overridden');
$log = audit_log('u_user', 'none', q{
	SELECT labelam._avc_bench('{system_u:object_r:etc_t:s0}', 1000) >= 0});
is($log, '', 'audit = none: nothing');
# a denied change of label aborts the statement, and is logged all the same
$node->safe_psql('postgres', "ALTER ROLE u_user SET labelam.audit = 'denied'");
$offset = -s $node->logfile;
$node->psql('postgres', q{SELECT labelam.set_client_label('user_u:user_r:user_t:s0')},
	extra_params => [ '-U', 'u_user' ]);
like(slurp_file($node->logfile, $offset),
	qr/labelam: denied \{ setcurrent \} scontext=user_u:user_r:user_t:s0 tcontext=user_u:user_r:user_t:s0 tclass=process\n/,
	'denials of an aborted statement are logged');

$node->stop;
done_testing();
