# test/t/304_avc_shared_decisions.pl -- the sepol provider's decisions,
# shared by every backend (src/avc/sepol_shared.c):
#  - a decision one session computed is found by the next session of the
#    same label, with the same answer, and not computed again;
#  - decisions about another subject (labelam.check_access takes any) are
#    neither shared nor looked up: their time would tell a session what
#    sessions of another label met;
#  - a policy with other booleans (a reload) never gets a decision computed
#    under the old ones: the answer changes at once, and the old decision is
#    found again when the old booleans come back;
#  - a full table is emptied, and every answer stays the policy's;
#  - labelam.shared_decisions = 0: nothing shared, the same answers;
#  - the counters (every session's decisions) are for superusers.
# Each safe_psql is a new backend, with an empty decision cache of its own.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_node('shared');
$node->append_conf('postgresql.conf',
	"labelam.shared_decisions = 64\nlabelam.object_checks = off\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION labelam');
like($node->safe_psql('postgres', 'SELECT provider FROM labelam.policy_info()'),
	qr/^sepol$/, 'the sepol provider decides');

# httpd_t may insert unpriv_sepgsql_sysobj_t rows only with the boolean
# sepgsql_enable_users_ddl, which Debian's policy leaves off; role web's
# sessions are httpd_t
my $httpd = 'system_u:system_r:httpd_t:s0';
my $sysobj = 'system_u:object_r:unpriv_sepgsql_sysobj_t:s0';
my $sysobj_c1 = 'system_u:object_r:unpriv_sepgsql_sysobj_t:s0:c1';
$node->safe_psql('postgres', qq{
CREATE ROLE web LOGIN;
INSERT INTO labelam.role_label VALUES ('web', '$httpd');
GRANT EXECUTE ON FUNCTION labelam.shared_decisions() TO web;});
is($node->safe_psql('postgres', 'SELECT labelam.client_label()', extra_params => [ '-U', 'web' ]),
	$httpd, 'role web\'s sessions are httpd_t');

# in a new session: the answer, and how the shared counters moved while
# it was given ("answer|hits|computed").  The session's first statements
# make the decisions its statements need of their own (executing the
# functions, under object checks), so that only the one asked for is
# counted.
sub decide
{
	my ($subject, $object, $role) = @_;
	my $out = $node->safe_psql('postgres', qq{
SELECT labelam.check_access('$subject', 'system_u:object_r:sepgsql_table_t:s0', '{select}') AS warm \\gset
SELECT :'warm' || '|' || (hits - 1) || '|' || (computed - 1) FROM labelam.shared_decisions();
SELECT hits AS b_hits, computed AS b_computed FROM labelam.shared_decisions() \\gset
SELECT labelam.check_access('$subject', '$object', '{insert}') AS answer \\gset
SELECT :'answer' || '|' || (hits - :b_hits) || '|' || (computed - :b_computed)
  FROM labelam.shared_decisions();}, extra_params => [ '-U', $role // 'web' ]);
	return (split /\n/, $out)[-1];
}

is(decide($httpd, $sysobj), 'f|0|1', 'first session: computed, denied');
is(decide($httpd, $sysobj), 'f|1|0', 'second session: found, not computed, denied');
is(decide($httpd, $sysobj), 'f|1|0', 'third session: found again');

# the superuser's sessions are unconfined_t: httpd_t's decisions are not
# theirs, and a decision about httpd_t is not stored either
my $other = 'system_u:object_r:unpriv_sepgsql_sysobj_t:s0:c5';
my $su = scalar(getpwuid($<));
is(decide($httpd, $sysobj, $su), 'f|0|0',
	'a decision about another subject: not found, though shared');
is(decide($httpd, $other, $su), 'f|0|0',
	'a new one about another subject: not stored');
is(decide($httpd, $other), 'f|0|1', 'the same, by a session of that subject: computed');

# labelam.policy_booleans set to $value by a reload, seen by new sessions
sub set_booleans
{
	my ($value) = @_;
	$node->safe_psql('postgres',
		"ALTER SYSTEM SET labelam.policy_booleans = '$value'");
	$node->reload;
	$node->poll_query_until('postgres',
		"SELECT current_setting('labelam.policy_booleans') = '$value'")
	  or die "labelam.policy_booleans = '$value' was not reloaded";
}

# other booleans: another policy
set_booleans('sepgsql_enable_users_ddl=on');
is(decide($httpd, $sysobj), 't|0|1',
	'with the boolean on: allowed, computed (the other policy\'s decision not used)');
is(decide($httpd, $sysobj), 't|1|0', 'and found by the next session');
is(decide($httpd, $sysobj_c1),
	't|0|1', 'a new object label under the new booleans: computed');

set_booleans('');
is(decide($httpd, $sysobj), 'f|1|0',
	'the boolean off again: denied, the first policy\'s decision found again');
is(decide($httpd, $sysobj_c1),
	'f|0|1', 'the label the other booleans decided: computed again, denied');

# a table of 8 filled many times over: every answer still the policy's
$node->append_conf('postgresql.conf', "labelam.shared_decisions = 8\n");
$node->restart;
my @labels = map { "system_u:object_r:unpriv_sepgsql_sysobj_t:s0:c$_" } 0 .. 19;
my $pairs = join(', ',
	map { my $l = $_; ("('$httpd', '$l', false)",
		"('unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023', '$l', true)") } @labels);
my $round = qq{SELECT count(*) FILTER (WHERE labelam.check_access(s, o, '{insert}') = expected)
  FROM (VALUES $pairs) AS v(s, o, expected)};
is($node->safe_psql('postgres', $round), '40', 'a full table: 40 answers right');
is($node->safe_psql('postgres', $round), '40', 'again, in a new session: 40 answers right');
my ($capacity, $entries, $hits, $computed, $resets) =
  split /\|/, $node->safe_psql('postgres', 'SELECT * FROM labelam.shared_decisions()');
is($capacity, '8', 'capacity is labelam.shared_decisions');
cmp_ok($entries, '<=', 8, 'no more entries than the capacity');
cmp_ok($resets, '>=', 2, 'the full table was emptied');

# off
$node->append_conf('postgresql.conf', "labelam.shared_decisions = 0\n");
$node->restart;
is($node->safe_psql('postgres', $round), '40', 'nothing shared: 40 answers right');
is($node->safe_psql('postgres', 'SELECT * FROM labelam.shared_decisions()'),
	'0|0|0|0|0', 'nothing shared: no capacity, nothing counted');

# every session's decisions: superusers only
$node->safe_psql('postgres', 'CREATE ROLE someone LOGIN');
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	'SELECT * FROM labelam.shared_decisions()', extra_params => [ '-U', 'someone' ]);
like($stderr, qr/permission denied for function shared_decisions/,
	'an ordinary role may not read the shared counters');

$node->stop;
done_testing();
