# test/t/303_avc_rollout.pl -- rolling a policy out (issue 16), under
# Debian's MLS policy through libsepol:
#  - permissive mode (labelam.enforcing = off): decisions computed and
#    audited with permissive=1, not enforced; back on at the next statement
#    of an open session, nothing left over in its cache; no one but the
#    server's configuration turns it off;
#  - a domain the policy declares permissive (a module built for the test
#    with checkmodule/semodule in a private policy store) is not enforced,
#    others are;
#  - a broken policy file swapped in while sessions run: every backend keeps
#    the last policy loaded, new sessions (superuser too) still connect, the
#    failure is logged once per backend and shown by policy_info(); a good
#    file afterwards is loaded;
#  - the denial summary lists exactly the denials provoked, with counts, and
#    its allow rules, compiled into a module, make them go away.
use strict;
use warnings;
use File::Copy;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $mls = selinux_policy('mls');
plan skip_all => "$mls is missing (package selinux-policy-mls)" unless -f $mls;

# a private policy store, and the policy with user_t permissive
my $store = PostgreSQL::Test::Utils::tempdir('store');
my $root = mls_policy_store($store);
my $perm_policy = mls_policy_with_module($root, 'rollout_perm', q{
module rollout_perm 1.0;
require { type user_t; }
permissive user_t;
});

# the node decides with a copy of the policy, which the test replaces (in
# a directory laid out as /etc/selinux/mls: tables' labels come from
# contexts/sepgsql_contexts beside policy/)
my $pdir = PostgreSQL::Test::Utils::tempdir('policy');
mkdir("$pdir/policy") or die;
mkdir("$pdir/contexts") or die;
copy('/etc/selinux/mls/contexts/sepgsql_contexts', "$pdir/contexts/sepgsql_contexts") or die "copy: $!";
my $pfile = "$pdir/policy/policy.33";
copy($mls, $pfile) or die "copy: $!";

# swap(file): replace the policy file at once, as an administrator would
my $swaps = 0;
sub swap
{
	my ($from) = @_;
	$swaps++;
	copy($from, "$pfile.new.$swaps") or die "copy: $!";
	rename("$pfile.new.$swaps", $pfile) or die "rename: $!";
}

my $node = attack_node('rollout', qq{
labelam.policy_file = '$pfile'
autovacuum = off
});
$node->safe_psql('postgres', q{
	CREATE ROLE r_user LOGIN;
	INSERT INTO labelam.role_label VALUES ('r_user', 'user_u:user_r:user_t:s0');
	ALTER ROLE r_s0 SET labelam.audit = 'all';
	ALTER ROLE r_s1 SET labelam.audit = 'all';
	ALTER ROLE r_user SET labelam.audit = 'all';
	CREATE TABLE doc (id int PRIMARY KEY, v text) USING labelheap;
	GRANT ALL ON doc TO PUBLIC;
});
seed($node, 'doc');

sub log_since { my ($offset) = @_; return slurp_file($node->logfile, $offset); }
sub as { my ($role, $sql) = @_; return $node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]); }

# wait until a session's next statement sees the setting
sub wait_setting
{
	my ($session, $value) = @_;
	for (1 .. 300)
	{
		return 1 if $session->query_safe('SHOW labelam.enforcing') eq $value;
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

sub set_enforcing
{
	my ($value) = @_;
	$node->append_conf('postgresql.conf', "labelam.enforcing = $value");
	$node->reload;
}

my $public = 'public-s0-1,public-s0-2,public-s0-3';
my $all = 'public-s0-1,public-s0-2,public-s0-3,SECRET-s1-1,SECRET-s1-2,SECRET-s1-3,SECRET-s3-1,SECRET-s3-2,SECRET-s3-3';
my $rows_sql = 'SELECT string_agg(v, \',\' ORDER BY id) FROM doc';

is(as('r_s0', $rows_sql), $public, 'enforcing: s0 reads the s0 rows only');
is($node->safe_psql('postgres', 'SELECT mode, rejected IS NULL FROM labelam.policy_info()'),
	'enforcing|t', 'policy_info(): enforcing, nothing rejected');

# --- who may turn enforcement off: only the server's configuration
my @attempts = (
	[ 'SET', 'SET labelam.enforcing = off' ],
	[ 'set_config()', "SELECT set_config('labelam.enforcing', 'off', false)" ],
	[ 'ALTER ROLE ... SET', 'ALTER ROLE r_s0 SET labelam.enforcing = off' ],
	[ 'ALTER DATABASE ... SET', 'ALTER DATABASE postgres SET labelam.enforcing = off' ],
	[ "a function's SET clause",
	  'CREATE FUNCTION open_up() RETURNS text LANGUAGE sql SET labelam.enforcing = off AS $$ SELECT string_agg(v, \',\') FROM doc $$' ],
	[ 'ALTER SYSTEM', 'ALTER SYSTEM SET labelam.enforcing = off' ],
);
for my $a (@attempts)
{
	my ($what, $sql) = @$a;
	my ($rc, $out, $err) = LabelamAttack::run($node, 'r_s0', $sql);
	like($err, qr/ERROR:  (55P02|42501):/, "attack: $what as an ordinary role is refused");
}
for my $a (@attempts[0 .. 4])
{
	my ($what, $sql) = @$a;
	my ($rc, $out, $err) = LabelamAttack::run($node, undef, $sql);
	like($err, qr/ERROR:  55P02:/, "$what is refused even to a superuser: only the configuration file sets it");
}
{
	my ($rc, $out, $err) = $node->psql('postgres', $rows_sql,
		extra_params => [ '-U', 'r_s0' ], connstr => 'options=-clabelam.enforcing=off');
	isnt($rc, 0, 'attack: labelam.enforcing cannot be set at connection');
}
is(as('r_s0', 'SHOW labelam.enforcing'), 'on', 'labelam.enforcing is still on');

# --- permissive mode, seen by open sessions at their next statement
my $low = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
my $mid = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ], on_error_stop => 0);
is($low->query_safe($rows_sql), $public, 'open s0 session: s0 rows only');

my $offset = -s $node->logfile;
set_enforcing('off');
ok(wait_setting($low, 'off'), 'the open session sees labelam.enforcing = off');
ok(wait_setting($mid, 'off'), 'and so does the other');
like(log_since($offset), qr/LOG:  labelam: labelam\.enforcing changed to off: PERMISSIVE MODE/,
	'the switch to permissive is logged');
is($low->query_safe('SELECT mode FROM labelam.policy_info()'), 'permissive', 'policy_info(): permissive');

$offset = -s $node->logfile;
is($low->query_safe($rows_sql), $all, 'permissive: the s0 session reads the s1 and s3 rows');
$low->query_safe("PREPARE rows_p AS $rows_sql");
is($low->query_safe('EXECUTE rows_p'), $all, 'a statement prepared while permissive, too');
my $log = log_since($offset);
like($log, qr/labelam: denied \{ select \} scontext=staff_u:staff_r:staff_t:s0 tcontext=staff_u:object_r:sepgsql_table_t:s1 tclass=db_tuple relation=public\.doc rows=3 permissive=1/,
	'and the read up is audited as a denial, permissive=1');
like($log, qr/labelam: denied \{ select \} scontext=staff_u:staff_r:staff_t:s0 tcontext=staff_u:object_r:sepgsql_table_t:s3 tclass=db_tuple relation=public\.doc rows=3 permissive=1/,
	'(s3 rows too)');

$offset = -s $node->logfile;
is($mid->query_safe(q{UPDATE doc SET v = v || '-down' WHERE id = 1 RETURNING v}), 'public-s0-1-down',
	'permissive: the s1 session writes down into an s0 row');
like(log_since($offset), qr/labelam: denied \{ update \} scontext=staff_u:staff_r:staff_t:s1 tcontext=staff_u:object_r:sepgsql_table_t:s0 tclass=db_tuple relation=public\.doc rows=1 permissive=1/,
	'and the write down is audited as a denial, permissive=1');

# rows for the denial summary below, which only permissive mode lets this
# session write: labels its domain has no allow rule for
$node->safe_psql('postgres', q{
	CREATE TABLE etcdoc (id int, v text) USING labelheap;
	CREATE TABLE rodoc (id int, v text) USING labelheap;
	GRANT ALL ON etcdoc, rodoc TO PUBLIC;
	SET labelam.insert_label = 'system_u:object_r:etc_t:s0';
	INSERT INTO etcdoc VALUES (1, 'etc-1'), (2, 'etc-2');
	SET labelam.insert_label = 'system_u:object_r:sepgsql_ro_table_t:s0';
	INSERT INTO rodoc VALUES (1, 'ro-1');
});

# --- back to enforcing: the open sessions filter at their next statement
$offset = -s $node->logfile;
set_enforcing('on');
ok(wait_setting($low, 'on'), 'the open session sees labelam.enforcing = on');
ok(wait_setting($mid, 'on'), 'and so does the other');
like(log_since($offset), qr/LOG:  labelam: labelam\.enforcing changed to on: denials are enforced again/,
	'the switch back is logged');
is($low->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3',
	'enforcing again: the open s0 session reads only s0 rows (no permissive decision left in its cache)');
is($low->query_safe('EXECUTE rows_p'), 'public-s0-1-down,public-s0-2,public-s0-3',
	'and so does the statement it prepared while permissive');
$mid->query(q{UPDATE doc SET v = 'again' WHERE id = 2});
like($mid->{stderr}, qr/ERROR:  permission denied to update rows of relation "doc"/,
	'enforcing again: the write down is refused in the open s1 session');
$mid->{stderr} = '';
is($low->query_safe('SELECT mode FROM labelam.policy_info()'), 'enforcing', 'policy_info(): enforcing');
is(as('r_s0', 'SELECT string_agg(v, \',\') FROM etcdoc'), '', 'enforcing: staff_t reads no etc_t rows');

# --- a domain the policy declares permissive
is(as('r_user', $rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3', 'user_t is enforced under the system policy');
swap($perm_policy);
my $user = $node->background_psql('postgres', extra_params => [ '-U', 'r_user' ]);
$offset = -s $node->logfile;
is($user->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3,SECRET-s1-1,SECRET-s1-2,SECRET-s1-3,SECRET-s3-1,SECRET-s3-2,SECRET-s3-3',
	'policy with "permissive user_t": user_t reads every row');
like(log_since($offset), qr/labelam: denied \{ select \} scontext=user_u:user_r:user_t:s0 tcontext=staff_u:object_r:sepgsql_table_t:s3 tclass=db_tuple relation=public\.doc rows=3 permissive=1/,
	'audited as denied, permissive=1');
is($low->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3',
	'staff_t, not permissive, is still enforced (open session, after the reload)');
is($low->query_safe('SELECT mode FROM labelam.policy_info()'), 'enforcing',
	'the mode stays enforcing (a permissive domain is not permissive mode)');

# --- a broken policy file swapped in while sessions run
my $seqno = $low->query_safe('SELECT seqno FROM labelam.policy_info()');
my $corrupt = "$pdir/corrupt";
open my $fh, '>', $corrupt or die;
print $fh "not a policy\n" x 1000;
close $fh;
$offset = -s $node->logfile;
swap($corrupt);
is($low->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3',
	'broken file: the open staff_t session decides as before');
is($user->query_safe("$rows_sql WHERE id > 30"), 'SECRET-s3-1,SECRET-s3-2,SECRET-s3-3',
	'broken file: the open user_t session decides with the last policy it loaded (permissive user_t)');
is($low->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3', 'a second statement too');
is($low->query_safe('SELECT seqno FROM labelam.policy_info()'), $seqno, 'the policy in force is unchanged');
like($low->query_safe('SELECT rejected FROM labelam.policy_info()'),
	qr/could not load SELinux policy file ".*policy\.33": libsepol: /, 'policy_info() says the new file was rejected, and why');
is($low->query_safe('SELECT rejected_at <= now() FROM labelam.policy_info()'), 't', 'and when');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'broken file: a new superuser session connects');
is(as('r_s0', $rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3', 'broken file: a new staff_t session connects and is filtered');
is(as('r_user', "$rows_sql WHERE id > 30"), 'SECRET-s3-1,SECRET-s3-2,SECRET-s3-3',
	'broken file: a new user_t session decides with the last policy loaded too, not the one the server started with');
isnt($node->safe_psql('postgres', 'SELECT rejected FROM labelam.policy_info()'), '', 'new sessions report the rejection');
$log = log_since($offset);
my $low_pid = $low->query_safe('SELECT pg_backend_pid()');
my @low_lines = $log =~ /\[$low_pid\] \S* ?LOG:  labelam: could not load the new SELinux policy; still deciding with/g;
is(scalar(@low_lines), 1, 'the failure is logged once by the backend that met it');
like($log, qr/LOG:  labelam: could not load the new SELinux policy; still deciding with ".*policy\.33" \(policy \d+\)\n.*DETAIL:  could not load SELinux policy file ".*policy\.33": libsepol: /,
	'with the reason');

# a good file afterwards is loaded
$offset = -s $node->logfile;
swap($mls);
is($user->query_safe($rows_sql), 'public-s0-1-down,public-s0-2,public-s0-3',
	'a good file swapped in is loaded: user_t is enforced again');
cmp_ok($low->query_safe('SELECT seqno FROM labelam.policy_info()'), '>', $seqno, 'policy_info(): a new policy');
is($low->query_safe('SELECT rejected IS NULL FROM labelam.policy_info()'), 't', 'and no rejection');
like(log_since($offset), qr/labelam: loaded SELinux policy file ".*policy\.33" \(policy \d+\); the file rejected before is superseded/,
	'the recovery is logged');
$user->quit;

# --- the denial summary
my ($rc, $out, $err) = LabelamAttack::run($node, 'r_s0', 'SELECT * FROM labelam.denials');
like($err, qr/ERROR:  42501:/, 'an ordinary role may not read the denial summary');
($rc, $out, $err) = LabelamAttack::run($node, 'r_s0', 'SELECT labelam.reset_denials()');
like($err, qr/ERROR:  42501:/, 'nor reset it');
($rc, $out, $err) = LabelamAttack::run($node, 'r_s0', 'SELECT labelam.denials_as_policy()');
like($err, qr/ERROR:  42501:/, 'nor print it');

$offset = -s $node->logfile;
$node->safe_psql('postgres', 'SELECT labelam.reset_denials()');
like(log_since($offset), qr/LOG:  labelam: denial summary reset by role "\w+"/, 'a reset is logged');

# provoke, in two s0 backends: reads up (MLS: s1 and s3 rows), a read of
# etc_t rows (no allow rule for staff_t), an update of a read-only row (no
# allow rule either; same level, so MLS allows it)
sub provoke
{
	my ($session) = @_;
	$session->query_safe($rows_sql);
	$session->query_safe('SELECT count(*) FROM etcdoc');
	$session->query(q{UPDATE rodoc SET v = 'ro-changed'});
	my $err = $session->{stderr};
	$session->{stderr} = '';	# BackgroundPsql keeps it across queries
	return $err;
}
my $p1 = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ], on_error_stop => 0);
my $p2 = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ], on_error_stop => 0);
like(provoke($p1), qr/ERROR:  permission denied to update rows of relation "rodoc"/, 'update of a read-only row is refused');
provoke($p2);
$p2->query_safe('SELECT count(*) FROM etcdoc');

my $summary_sql = q{
	SELECT database, subject, object, class, perms, relation, count, constrained, permissive,
		first_seen <= last_seen
	FROM labelam.denials ORDER BY object, relation};
is($node->safe_psql('postgres', $summary_sql),
	join("\n",
		'postgres|staff_u:staff_r:staff_t:s0|staff_u:object_r:sepgsql_table_t:s1|db_tuple|{select}|public.doc|6|{select}|f|t',
		'postgres|staff_u:staff_r:staff_t:s0|staff_u:object_r:sepgsql_table_t:s3|db_tuple|{select}|public.doc|6|{select}|f|t',
		'postgres|staff_u:staff_r:staff_t:s0|system_u:object_r:etc_t:s0|db_tuple|{select}|public.etcdoc|6|{}|f|t',
		'postgres|staff_u:staff_r:staff_t:s0|system_u:object_r:sepgsql_ro_table_t:s0|db_tuple|{update}|public.rodoc|2|{}|f|t'),
	'the summary lists exactly the denials provoked, of both backends, with counts; the MLS ones flagged as constraints');

my $te = $node->safe_psql('postgres', q{SELECT labelam.denials_as_policy('labelam_rollout')});
like($te, qr/^allow staff_t etc_t:db_tuple select;$/m, 'allow rule for the etc_t reads');
like($te, qr/^allow staff_t sepgsql_ro_table_t:db_tuple update;$/m, 'allow rule for the update');
unlike($te, qr/^allow staff_t sepgsql_table_t:/m, 'no allow rule for the MLS denial');
like($te, qr/^#!!!! This avc is a constraint violation\./m, 'which is flagged as a constraint violation');
is($node->safe_psql('postgres', q{SELECT labelam.denials_as_policy()}) =~ /^allow /m ? 1 : 0, 1,
	'without a module name: the rules alone');

# compile them into a module, install it, swap the policy in
my $allowed_policy = mls_policy_with_module($root, 'labelam_rollout', $te);
swap($allowed_policy);
$node->safe_psql('postgres', 'SELECT labelam.reset_denials()');
is($p1->query_safe('SELECT string_agg(v, \',\' ORDER BY id) FROM etcdoc'), 'etc-1,etc-2',
	'with the module: staff_t reads the etc_t rows');
is($p1->query_safe(q{UPDATE rodoc SET v = 'ro-changed' RETURNING v}), 'ro-changed',
	'with the module: the read-only row is updated');
$node->safe_psql('postgres', 'SELECT labelam.reset_denials()');
is(provoke($p2), '', 'the provoking statements all succeed but the reads up');
is($node->safe_psql('postgres', $summary_sql),
	join("\n",
		'postgres|staff_u:staff_r:staff_t:s0|staff_u:object_r:sepgsql_table_t:s1|db_tuple|{select}|public.doc|3|{select}|f|t',
		'postgres|staff_u:staff_r:staff_t:s0|staff_u:object_r:sepgsql_table_t:s3|db_tuple|{select}|public.doc|3|{select}|f|t'),
	'with the module: only the MLS denials remain');
$p1->quit;
$p2->quit;

$low->quit;
$mid->quit;
$node->stop;
done_testing();
