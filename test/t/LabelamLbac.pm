# test/t/LabelamLbac.pm -- nodes that decide with the lbac provider
# (src/lbac), and the small model the lbac tests share.
package LabelamLbac;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Test::More;
use LabelamTest;
use Exporter 'import';

our @EXPORT = qw(lbac_node lbac_model lbac_run lbac_err);

# lbac_node(name, extra conf, %params): a started node with labelam.provider
# = lbac (after test/test.conf, whose SELinux default label means nothing
# here) and the extension created by the bootstrap superuser, who
# administers the model.  Params go to labelam_node (e.g. allows_streaming).
sub lbac_node
{
	my ($name, $conf, %params) = @_;
	my $node = labelam_node($name, %params);
	$node->append_conf('postgresql.conf', qq{
labelam.provider = 'lbac'
labelam.default_client_label = ''
} . ($conf // ''));
	$node->start;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION labelam;
		GRANT CREATE ON SCHEMA public TO PUBLIC;
	});
	return $node;
}

# lbac_model(node): levels U < C < S < TS, compartments A and B, groups
# ALL > WEST > WEST_SUB and ALL > EAST; the bootstrap superuser is
# authorized TS:A,B:ALL with FULL (to seed rows of every label), alice
# S:A,B:WEST (write A, write WEST, minimum C), bob C (no compartments or
# groups).
sub lbac_model
{
	my ($node) = @_;
	my $admin = $node->safe_psql('postgres', 'SELECT current_user');
	$node->safe_psql('postgres', qq{
		SELECT lbac.create_level('U', 10, 'UNCLASSIFIED');
		SELECT lbac.create_level('C', 20, 'CONFIDENTIAL');
		SELECT lbac.create_level('S', 30, 'SECRET');
		SELECT lbac.create_level('TS', 40, 'TOP SECRET');
		SELECT lbac.create_compartment('A', 10);
		SELECT lbac.create_compartment('B', 20);
		SELECT lbac.create_group('ALL', 5);
		SELECT lbac.create_group('WEST', 10, NULL, 'ALL');
		SELECT lbac.create_group('EAST', 20, NULL, 'ALL');
		SELECT lbac.create_group('WEST_SUB', 30, NULL, 'WEST');
		CREATE ROLE alice LOGIN;
		CREATE ROLE bob LOGIN;
		SELECT lbac.set_levels('$admin', 'TS', 'U');
		SELECT lbac.set_compartments('$admin', 'A,B');
		SELECT lbac.set_groups('$admin', 'ALL');
		SELECT lbac.grant_privileges('$admin', 'FULL');
		SELECT lbac.set_levels('alice', 'S', 'C');
		SELECT lbac.set_compartments('alice', 'A,B', 'A');
		SELECT lbac.set_groups('alice', 'WEST', 'WEST');
		SELECT lbac.set_levels('bob', 'C');
	});
	return $admin;
}

# lbac_run(node, role, sql): (rc, stdout, stderr) of psql as role (undef:
# the bootstrap superuser), SQLSTATEs in errors, going on after errors
sub lbac_run
{
	my ($node, $role, $sql) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql,
		on_error_stop => 0,
		extra_params => [ (defined $role ? ('-U', $role) : ()),
			'-v', 'VERBOSITY=verbose' ]);
	return ($rc, $out // '', $err // '');
}

# lbac_err(node, role, sql): stderr of psql as role (errors with SQLSTATEs)
sub lbac_err
{
	my ($node, $role, $sql) = @_;
	my (undef, undef, $err) = lbac_run($node, $role, $sql);
	return $err;
}

1;
