# test/t/002_first_run.pl -- the first run in one's own server, as README.md
# tells it: a fresh cluster configured with exactly the lines of README's
# "Use labelam in your own server" (read from README.md itself), then
# CREATE EXTENSION and the tutorial's first steps.  Configured with less,
# the server refuses to start and its log names what is missing (fail
# closed), instead of starting and refusing every connection with a hint
# no one can follow before the extension exists.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $readme = ($ENV{LABELAM_TOP} // die "LABELAM_TOP is not set") . '/README.md';
open my $fh, '<', $readme or die "cannot read $readme: $!";
my @readme = <$fh>;
close $fh;

# the lines of the first indented block of the section whose heading
# matches $heading that also matches $want
sub readme_block
{
	my ($heading, $want) = @_;
	my ($in, @block, @found);
	for my $line (@readme, "\n")
	{
		if ($line =~ /^#+ /)
		{
			last if $in;
			$in = $line =~ $heading;
			next;
		}
		next unless $in;
		if ($line =~ /^    (.*)$/) { push @block, $1; next; }
		next if $line =~ /^\s*$/ && @block && !grep { /$want/ } @block;
		if (@block && grep { /$want/ } @block) { @found = @block; last; }
		@block = ();
	}
	return @found;
}

# the tutorial's first SQL block
sub readme_sql
{
	my ($heading) = @_;
	my ($in, $sql, $take);
	for my $line (@readme)
	{
		$in = $line =~ $heading if $line =~ /^#+ /;
		next unless $in;
		if ($line =~ /^```sql/) { $take = 1; $sql = ''; next; }
		return $sql if $take && $line =~ /^```/;
		$sql .= $line if $take;
	}
	return undef;
}

my @conf = grep { /^[\w.]+\s*=/ }
  readme_block(qr/use labelam in your own server/i, qr/shared_preload_libraries/);
ok(scalar(grep { /^shared_preload_libraries\s*=\s*'labelam'/ } @conf),
	'README shows a configuration that preloads labelam');
my @sql = grep { /\S/ }
  readme_block(qr/use labelam in your own server/i, qr/CREATE EXTENSION/);
is_deeply(\@sql, ['CREATE EXTENSION labelam;'], 'README then says CREATE EXTENSION labelam');

# README names a policy file of Debian 12 (policy.33) and says to take the
# newest policy.N of its folder (Debian 13 has policy.34)
for (@conf)
{
	next unless m{^labelam\.policy_file\s*=\s*'/etc/selinux/(\w+)/policy/policy\.\d+'};
	my $type = $1;
	plan skip_all => "no /etc/selinux/$type/policy (package selinux-policy-$type)"
	  unless -d "/etc/selinux/$type/policy";
	my $newest = selinux_policy($type);
	s{'[^']*'}{'$newest'};
}

# a fresh cluster: nothing of the test suites' configuration
my $node = PostgreSQL::Test::Cluster->new('first_run');
$node->init;

sub start_refused
{
	my ($conf, $pattern, $name) = @_;
	$node->append_conf('postgresql.conf', $conf);
	my $offset = -s $node->logfile // 0;
	ok(!$node->start(fail_ok => 1), "$name: the server refuses to start");
	like(slurp_file($node->logfile, $offset), $pattern, "$name: its log says what is missing");
}

# only shared_preload_libraries: whichever is missing first is named, the
# policy file (Debian 13 has no policy.33, labelam.policy_file's default)
# or the label of the first session
start_refused("shared_preload_libraries = 'labelam'",
	qr/FATAL:  (?:labelam: no session could get a security label|could not open SELinux policy file).*\n.*\n?.*HINT:  Set labelam\.(?:default_client_label|policy_file)/,
	'shared_preload_libraries alone');

# README's lines but the default label: refused, naming that setting
start_refused(join("\n", grep { !/^labelam\.default_client_label/ } @conf),
	qr/FATAL:  labelam: no session could get a security label\n.*DETAIL:  labelam\.provider is "sepol", which knows no client's label, and labelam\.default_client_label is not set.*\n.*HINT:  Set labelam\.default_client_label in postgresql\.conf/,
	'README\'s lines without labelam.default_client_label');

# README's lines: it starts, and the extension can be created
$node->append_conf('postgresql.conf', join("\n", @conf));
ok($node->start(fail_ok => 1), 'with README\'s lines the server starts');
my ($rc, $out, $err) = $node->psql('postgres', join("\n", @sql));
is($rc, 0, 'CREATE EXTENSION labelam as README says') or diag($err);
my ($label) = map { /'([^']*)'/ } grep { /^labelam\.default_client_label/ } @conf;
is($node->safe_psql('postgres', 'SELECT labelam.client_label()'), $label,
	'the first session has README\'s label');

# the tutorial's first steps, as README gives them (its CREATE EXTENSION
# was done above, its UPDATE fails: go on after errors)
my $tutorial = readme_sql(qr/^## Tutorial/);
ok(defined $tutorial, 'README has the tutorial');
($rc, $out, $err) = $node->psql('postgres', $tutorial, on_error_stop => 0);
is($out, join("\n", '1|public schedule', '2|cafeteria menu', '3|convoy route',
	'4|cargo manifest', '1|public schedule', '2|cafeteria menu'),
	'bob (s1) reads all four rows, alice (s0) rows 1 and 2');
like($err, qr/ERROR:  permission denied to update rows of relation "mission"\n(?:.*\n)?DETAIL:  The security policy does not allow \{ update \} to "staff_u:staff_r:staff_t:s1" on rows labeled "staff_u:object_r:sepgsql_table_t:s0"\./,
	'bob\'s UPDATE is refused as the tutorial shows');
is($node->safe_psql('postgres', 'SELECT count(*) FROM mission WHERE item = upper(item)'), '0',
	'and changed nothing');

# the tutorial's label summary: what alice's scan skips, counted by bob
my $skips = readme_sql(qr/^### What a low session's scan skips/);
ok(defined $skips, 'README shows what a low session\'s scan skips');
($rc, $out, $err) = $node->psql('postgres', $skips);
is($err, '', 'the label summary steps run without an error');
my ($table_blocks, $alice_read) = (split /\n/, $out)[-1] =~ /^(\d+)\|(\d+)$/
  or die "unexpected output: $out";
cmp_ok($table_blocks, '>', 100, "bob's rows fill $table_blocks blocks");
cmp_ok($alice_read, '>', 0, 'alice\'s scan reads the range of her rows');
cmp_ok($alice_read, '<', $table_blocks / 5, "and skips the others: $alice_read blocks read");
# README: "With SET labelam.skip_ranges = off her scan reads every block"
my $count = q{SELECT heap_blks_hit + heap_blks_read FROM pg_statio_user_tables WHERE relname = 'mission'};
my $before = $node->safe_psql('postgres', $count, extra_params => [ '-U', 'bob' ]);
$node->safe_psql('postgres', 'SET labelam.skip_ranges = off; SELECT count(*) FROM mission; SELECT pg_stat_force_next_flush();',
	extra_params => [ '-U', 'alice' ]);
cmp_ok($node->safe_psql('postgres', $count, extra_params => [ '-U', 'bob' ]) - $before,
	'>=', $table_blocks, 'without skipping her scan reads every block');

# labelam.default_client_label = '' is a choice: labels from
# labelam.role_label only; the server starts
$node->stop;
$node->append_conf('postgresql.conf', "labelam.default_client_label = ''");
ok($node->start(fail_ok => 1), "labelam.default_client_label = '' (labelam.role_label only): the server starts");
is($node->safe_psql('postgres', 'SELECT labelam.client_label()', extra_params => [ '-U', 'alice' ]),
	'staff_u:staff_r:staff_t:s0', 'and a role with a row in labelam.role_label gets its label');
$node->stop;
done_testing();
