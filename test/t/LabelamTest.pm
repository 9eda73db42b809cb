# test/t/LabelamTest.pm -- PostgreSQL::Test::Cluster nodes set up like every
# labelam test cluster: the library preloaded and test/test.conf appended.
package LabelamTest;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils ();
use IPC::Run ();
use Exporter 'import';

our @EXPORT = qw(labelam_node labelam_mls_node mls_policy_store mls_policy_with_module server_enforcing
  selinux_policy labelam_policy mls_roles as_role create_cursor_fetcher);

# selinux_policy(type): the system's binary policy of type (default, mls),
# /etc/selinux/type/policy/policy.N with the highest N (Debian 12 writes
# policy.33, Debian 13 policy.34); policy.33's path if there is none, for
# the tests' "is missing" messages.
sub selinux_policy
{
	my ($type) = @_;
	my ($best) = sort { ($b =~ /(\d+)$/)[0] <=> ($a =~ /(\d+)$/)[0] }
	  grep { /\.\d+$/ } glob("/etc/selinux/$type/policy/policy.*");
	return $best // "/etc/selinux/$type/policy/policy.33";
}

# labelam_policy(): the binary policy "make policy" builds (Debian's MLS
# policy with labelam's module, policy/labelam.te), which scripts/run-tests.sh
# builds as root and names in LABELAM_POLICY_FILE.  Dies if there is none:
# a test that needs the module must not pass without it.
sub labelam_policy
{
	my $file = $ENV{LABELAM_POLICY_FILE};
	die "LABELAM_POLICY_FILE names no policy file (make policy failed?)"
	  unless defined $file && -f $file;
	return $file;
}

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
# staff_u:sysadm_r:sysadm_t:s0 unless role_label says otherwise.  With
# policy => FILE, it decides with that policy file instead (labelam_policy()).
sub labelam_mls_node
{
	my ($name, $conf, %opt) = @_;
	my $mls = $opt{policy} // selinux_policy('mls');
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

# mls_policy_store(dir): a private SELinux policy store under dir/root,
# built as Debian builds the system's MLS store (every module of package
# selinux-policy-mls, the same ones disabled), without root and without a
# kernel; its policy.N equals selinux_policy('mls').  Returns
# the root.  Takes a minute or two.
my @mls_disabled = qw(amtu bugzilla cobbler condor cyphesis git ksmtuned
  likewise livecd nessus numad oddjob openca soundserver thunderbird updfstab
  usernetctl);
sub mls_policy_store
{
	my ($dir) = @_;
	my $root = "$dir/root";
	for my $tool ('/usr/sbin/semodule', '/usr/bin/checkmodule', '/usr/bin/semodule_package')
	{
		Test::More::plan(skip_all => "$tool is missing (scripts/deps.sh)") unless -x $tool;
	}
	PostgreSQL::Test::Utils::system_or_bail('mkdir', '-p', "$root/etc/selinux", "$root/var/lib/selinux/mls");
	PostgreSQL::Test::Utils::system_or_bail('cp', '-r', '/etc/selinux/mls', "$root/etc/selinux/");
	PostgreSQL::Test::Utils::system_or_bail('cp', '/etc/selinux/semanage.conf', "$root/etc/selinux/");
	my @mods = map { ('-i', $_) } glob('/usr/share/selinux/mls/*.pp.bz2');
	my @dis = map { ('-d', $_) } @mls_disabled;
	my ($out, $err);
	IPC::Run::run([ '/usr/sbin/semodule', '-p', $root, '-s', 'mls', '-n', '-N',
		'-X', '100', @mods, @dis ], '>', \$out, '2>', \$err)
	  or die "semodule (building the store) failed: $err";
	return $root;
}

# mls_policy_with_module(root, name, te text): compiles the module (plain
# module syntax, checkmodule), installs it in the private store and returns
# the path of a copy of the store's new binary policy (dir of root/name.33;
# the name is only a name: the file is policy.N of the libsepol at hand).
sub mls_policy_with_module
{
	my ($root, $name, $te) = @_;
	my $dir = "$root/..";
	open my $fh, '>', "$dir/$name.te" or die "cannot write $dir/$name.te: $!";
	print $fh $te;
	close $fh;
	my ($out, $err);
	IPC::Run::run([ '/usr/bin/checkmodule', '-M', '-m', '-o', "$dir/$name.mod", "$dir/$name.te" ],
		'>', \$out, '2>', \$err) or die "checkmodule $name.te failed: $out $err";
	IPC::Run::run([ '/usr/bin/semodule_package', '-o', "$dir/$name.pp", '-m', "$dir/$name.mod" ],
		'>', \$out, '2>', \$err) or die "semodule_package $name failed: $err";
	IPC::Run::run([ '/usr/sbin/semodule', '-p', $root, '-s', 'mls', '-n', '-i', "$dir/$name.pp" ],
		'>', \$out, '2>', \$err) or die "semodule -i $name.pp failed: $err";
	my ($new) = sort { ($b =~ /(\d+)$/)[0] <=> ($a =~ /(\d+)$/)[0] }
	  glob("$root/etc/selinux/mls/policy/policy.[0-9]*");
	die "semodule wrote no policy in $root/etc/selinux/mls/policy" unless $new;
	PostgreSQL::Test::Utils::system_or_bail('cp', $new, "$dir/$name.33");
	return "$dir/$name.33";
}

# mls_roles(node, {role => level, ...}, grant => 'ROLE'): a login role for
# each key whose sessions are staff_u:staff_r:staff_t:level (a
# labelam.role_label row), each granted grant if given.  Needs the
# extension in database postgres.
sub mls_roles
{
	my ($node, $level, %opt) = @_;
	for my $role (sort keys %$level)
	{
		my $grant = $opt{grant} ? "GRANT $opt{grant} TO $role;" : '';
		$node->safe_psql('postgres', qq{
			CREATE ROLE $role LOGIN;
			$grant
			INSERT INTO labelam.role_label VALUES ('$role', 'staff_u:staff_r:staff_t:$level->{$role}');
		});
	}
}

# server_enforcing(node, 'on' | 'off'): ALTER SYSTEM sets (off) or resets
# (on) labelam.enforcing and reloads; returns once a new session shows it.
# Open sessions take it in at their next statement.
sub server_enforcing
{
	my ($node, $mode) = @_;
	my $sql = $mode eq 'off' ? 'ALTER SYSTEM SET labelam.enforcing = off'
	  : 'ALTER SYSTEM RESET labelam.enforcing';
	$node->safe_psql('postgres', "$sql; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres', 'SHOW labelam.enforcing', $mode)
	  or die "labelam.enforcing does not become $mode";
}

# as_role(node, role, sql): sql's output in database postgres, run as role
sub as_role
{
	my ($node, $role, $sql) = @_;
	return $node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

# create_cursor_fetcher(node, name): function name(tbl text), callable by
# everyone, which opens a cursor named name_c over "SELECT id FROM tbl" at
# its first call in a transaction and returns the next id it fetches
# ('none' past the end) at each call: a scan that an outer statement of
# the same transaction (e.g. an INSERT into tbl calling it for each row)
# advances row by row while it writes.
sub create_cursor_fetcher
{
	my ($node, $name) = @_;
	$node->safe_psql('postgres', qq{
	CREATE FUNCTION $name(tbl text) RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE
		c refcursor := '${name}_c';
		r record;
	BEGIN
		IF NOT EXISTS (SELECT 1 FROM pg_cursors WHERE name = '${name}_c') THEN
			OPEN c FOR EXECUTE format('SELECT id FROM %I', tbl);
		END IF;
		FETCH c INTO r;
		RETURN coalesce(r.id::text, 'none');
	END \$\$;
	GRANT EXECUTE ON FUNCTION $name(text) TO PUBLIC;
});
}

1;
