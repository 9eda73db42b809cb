# test/t/300_avc_policies.pl -- decisions of the sepol provider against an
# independent oracle, with both Debian reference policies:
# test/t/avc_oracle.py samples context pairs and computes what each policy
# allows with setools (the library of sesearch and seinfo: allow rules,
# booleans, constraints), and labelam must agree on every permission and on
# the label of new rows.  Then the MLS policy's read-down / write-equal rules,
# spelled out.
use strict;
use warnings;
use File::Basename;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $oracle = dirname(__FILE__) . '/avc_oracle.py';
my $default_policy = selinux_policy('default');
my $mls_policy = selinux_policy('mls');
my $pairs = 250;

my $node = labelam_node('policies');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION labelam');

sub sqlq { my $s = shift; $s =~ s/'/''/g; return "'$s'"; }

sub compare_with_oracle
{
	my ($policy, $seed) = @_;
	my ($stdout, $stderr);
	IPC::Run::run([ '/usr/bin/python3', $oracle, $policy, $pairs, $seed ],
		'>', \$stdout, '2>', \$stderr)
	  or die "oracle failed: $stderr";
	my @expected = split /\n/, $stdout;
	is(scalar(@expected), $pairs, "oracle sampled $pairs pairs from $policy");

	my $values = join(",\n",
		map { my @f = split /\t/; '(' . sqlq($f[0]) . ', ' . sqlq($f[1]) . ')' } @expected);
	my $result = $node->safe_psql('postgres', qq{
		SELECT s, o,
			coalesce(nullif(array_to_string(ARRAY(
				SELECT p FROM unnest('{select,insert,update,delete,relabelfrom,relabelto,use}'::text[])
					WITH ORDINALITY AS pp(p, i)
				WHERE labelam.check_access(s, o, ARRAY[p]) ORDER BY i), ','), ''), '-'),
			labelam.compute_create(s, o)
		FROM (VALUES $values) AS v(s, o)});
	my @got = split /\n/, $result;
	is(scalar(@got), $pairs, 'labelam answered for every pair');

	my ($mismatches, $granted, $denied, $constrained) = (0, 0, 0, 0);
	for my $i (0 .. $#expected)
	{
		my @e = split /\t/, $expected[$i];
		my @g = split /\|/, $got[$i] // '';
		# labelam prints canonical contexts; the oracle's are canonical too
		if ($e[2] ne ($g[2] // '') || $e[3] ne ($g[3] // ''))
		{
			$mismatches++;
			diag("mismatch: $e[0] on $e[1]: oracle [$e[2] -> $e[3]], labelam [" .
				  ($g[2] // '?') . ' -> ' . ($g[3] // '?') . ']')
			  if $mismatches <= 10;
		}
		$e[2] eq '-' ? $denied++ : $granted++;
		$constrained++ if $e[4] eq 'constrained';
	}
	is($mismatches, 0, "no mismatch with the oracle on $pairs pairs of $policy");
	# the sample must exercise both outcomes to mean anything
	cmp_ok($granted, '>=', $pairs / 5, "sample has granted pairs ($granted)");
	cmp_ok($denied, '>=', $pairs / 10, "sample has denied pairs ($denied)");
	return $constrained;
}

# (this policy's db_tuple constraints, MCS and UBAC, bind no domain that
# has db_tuple rules: the allow rules decide alone)
my $constrained = compare_with_oracle($default_policy, 5);

# switch the running server to the MLS policy: backends reload it
my $seqno = $node->safe_psql('postgres', 'SELECT seqno FROM labelam.policy_info()');
$node->append_conf('postgresql.conf', qq{
labelam.policy_file = '$mls_policy'
labelam.default_client_label = 'staff_u:staff_r:staff_t:s1'
# decisions and new-row labels, not objects (test 500): no object checks
labelam.object_checks = off
});
$node->reload;
is($node->safe_psql('postgres', 'SELECT policy, mls FROM labelam.policy_info()'),
	"$mls_policy|t", 'policy_file change is picked up');
is($node->safe_psql('postgres', 'SELECT labelam.client_label()'),
	'staff_u:staff_r:staff_t:s1', 'new sessions get the new default label');

$constrained = compare_with_oracle($mls_policy, 7);
cmp_ok($constrained, '>=', $pairs / 10, "MLS constraints decide many pairs ($constrained)");

# MLS: no read up, write only at one's own level
my %expect = (
	's0'    => [ 't', 'f' ],
	's1'    => [ 't', 't' ],
	's2:c1' => [ 'f', 'f' ],
	's3'    => [ 'f', 'f' ],
);
for my $level (sort keys %expect)
{
	my $obj = "system_u:object_r:sepgsql_table_t:$level";
	my $got = $node->safe_psql('postgres', qq{
		SELECT labelam.check_access('staff_u:staff_r:staff_t:s1', '$obj', '{select}'),
			   labelam.check_access('staff_u:staff_r:staff_t:s1', '$obj', '{insert,update,delete}')});
	is($got, join('|', @{ $expect{$level} }),
		"staff_t at s1 on a row at $level: select $expect{$level}[0], write $expect{$level}[1]");
}
is($node->safe_psql('postgres', q{
	SELECT labelam.compute_create('staff_u:staff_r:staff_t:s1',
		'system_u:object_r:sepgsql_table_t:s0')}),
	'staff_u:object_r:sepgsql_table_t:s1',
	'a row staff_t at s1 creates in an s0 table is labeled s1');

# Many distinct labels in one backend: the sepol provider starts libsepol's
# SID table over every 1024 contexts (it would otherwise make interning
# quadratic: bench/sepol_labels.sh).  Decisions, new-row labels and
# canonical forms after thousands of labels equal a fresh backend's.
my $probe = q{
	SELECT string_agg(format('%s %s %s %s', l,
			labelam.check_access('staff_u:staff_r:staff_t:s2:c0.c20', l, '{select}'),
			labelam.check_access('staff_u:staff_r:staff_t:s2:c0.c20', l, '{update}'),
			labelam.compute_create('staff_u:staff_r:staff_t:s2:c0.c20', l)), ';' ORDER BY i)
	FROM (SELECT i, format('system_u:object_r:%s:s%s:c%s,c%s',
			(ARRAY['sepgsql_table_t', 'sepgsql_ro_table_t', 'etc_t'])[1 + i % 3],
			i % 4, i % 7, 7 + i % 11) AS l
		  FROM generate_series(0, 59) i) p};
my $fresh = $node->safe_psql('postgres', $probe);
like($fresh, qr/ t f /, 'the probe has granted and denied pairs');
my $after = $node->safe_psql('postgres', qq{
	SELECT count(DISTINCT labelam.intern_label(format('system_u:object_r:sepgsql_table_t:s%s:c%s,c%s',
		i % 16, (i / 16) % 1024, ((i / 16) % 1024 + 1 + i / 16384) % 1024)))
	FROM generate_series(0, 4999) i;
	$probe;
	SELECT count(DISTINCT labelam.intern_label(format('system_u:object_r:sepgsql_table_t:s%s:c%s,c%s',
		i % 16, (i / 16) % 1024, ((i / 16) % 1024 + 1 + i / 16384) % 1024)))
	FROM generate_series(0, 4999) i;
	SELECT count(*) FROM labelam.pg_security WHERE seclabel LIKE 'system_u:object_r:sepgsql_table_t:%'});
is($after, "5000\n$fresh\n5000\n5000",
	'after 5000 new labels in one backend: the same decisions and new-row labels as a fresh backend, and the labels intern again to the same 5000');

$node->stop;
done_testing();
