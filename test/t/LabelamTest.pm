# test/t/LabelamTest.pm -- PostgreSQL::Test::Cluster nodes set up like every
# labelam test cluster: the library preloaded and test/test.conf appended.
package LabelamTest;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Exporter 'import';

our @EXPORT = qw(labelam_node labelam_mls_node);

# labelam_node(name, %params): initialized (not started) node.  Params are
# those of PostgreSQL::Test::Cluster::init, plus preload => 0 to leave the
# library out of shared_preload_libraries.
sub labelam_node
{
	my ($name, %params) = @_;
	my $preload = delete $params{preload} // 1;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%params);
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'labelam'") if $preload;
	if (my $conf = $ENV{LABELAM_TESTCONF})
	{
		open my $fh, '<', $conf or die "cannot read $conf: $!";
		local $/;
		$node->append_conf('postgresql.conf', <$fh>);
		close $fh;
	}
	return $node;
}

# labelam_mls_node(name, extra postgresql.conf text, %opt): a started node
# that decides with Debian's MLS policy; skips the test if the policy is
# absent.  By default it tests the row layer on its own: object checks off
# (src/objects), sessions at staff_t:s0 unless labelam.role_label says
# otherwise, so that ordinary roles own tables.  With objects => 1, object
# checks are on and sessions are the administrator
# staff_u:sysadm_r:sysadm_t:s0 unless role_label says otherwise.
sub labelam_mls_node
{
	my ($name, $conf, %opt) = @_;
	my $mls = '/etc/selinux/mls/policy/policy.33';
	Test::More::plan(skip_all => "$mls is missing (package selinux-policy-mls)")
	  unless -f $mls;
	my $node = labelam_node($name);
	my $default = $opt{objects} ? 'staff_u:sysadm_r:sysadm_t:s0' : 'staff_u:staff_r:staff_t:s0';
	my $objects = $opt{objects} ? 'on' : 'off';
	$node->append_conf('postgresql.conf', qq{
labelam.policy_file = '$mls'
labelam.default_client_label = '$default'
labelam.object_checks = $objects
} . ($conf // ''));
	$node->start;
	return $node;
}

1;
