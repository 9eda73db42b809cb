# test/t/LabelamShared.pm -- shared fixture of the write-down tests
# (test/t/60x_shared_state_*.pl, issue 38): an MLS node with object checks
# on, where the s0 administrator (the bootstrap superuser,
# staff_u:sysadm_r:sysadm_t:s0) plants Trojan horses, an s3 session
# (r_s3) fires them, and s0 sessions (r_s0) try to read what they
# copied out through server state.  Both may read every session's
# statistics (pg_read_all_stats), so that what PostgreSQL would show them
# is what labelam must withhold.  vault holds one row per level; a value
# above s0 matches LabelamAttack's hidden_re.
package LabelamShared;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Test::More;
use Time::HiRes qw(usleep);
use LabelamTest;
use LabelamAttack;
use Exporter 'import';

our @EXPORT = qw(shared_node listener notifications_until drain);

# shared_node(name, extra conf): started node, roles r_s0, r_s1, r_s3 and
# r_s3b (a second s3 role), table vault (labelheap, GRANT ALL to PUBLIC)
# with the rows 1 'public-s0-1', 11 'SECRET-s1-1', 31 'SECRET-s3-1' written
# by each level.
sub shared_node
{
	my ($name, $conf) = @_;
	my $node = attack_node($name, q{
max_prepared_transactions = 4
} . ($conf // ''), objects => 1);
	$node->safe_psql('postgres', q{
		CREATE ROLE r_s3b LOGIN;
		INSERT INTO labelam.role_label VALUES ('r_s3b', 'staff_u:staff_r:staff_t:s3');
		GRANT pg_read_all_stats TO r_s0, r_s1, r_s3, r_s3b;
		CREATE TABLE vault (id int, v text) USING labelheap;
		GRANT ALL ON vault TO PUBLIC;
	});
	for my $lvl (qw(s0 s1 s3))
	{
		my ($n) = $lvl =~ /(\d)/;
		my $v = $lvl eq 's0' ? 'public-s0-1' : "SECRET-$lvl-1";
		$node->safe_psql('postgres', "INSERT INTO vault VALUES (${n}1, '$v')",
			extra_params => [ '-U', "r_$lvl" ]);
	}
	return $node;
}

# listener(node, role, channels...): a background session of role
# listening on the channels
sub listener
{
	my ($node, $role, @channels) = @_;
	my $bg = $node->background_psql('postgres', extra_params => [ '-U', $role ]);
	$bg->query_safe("LISTEN $_") for @channels;
	return $bg;
}

# notifications_until(bg, mark): what the listening session printed
# (psql's "Asynchronous notification ..." lines) until a notification
# whose payload is mark arrived (10 s at most).  Notifications reach a
# listener in commit order, so everything committed before mark's has
# been delivered, or dropped, by then.
sub notifications_until
{
	my ($bg, $mark) = @_;
	my $all = '';
	for (1 .. 200)
	{
		$all .= $bg->query_safe('SELECT 1');
		return $all if $all =~ /payload "\Q$mark\E"/;
		usleep(50_000);
	}
	die "notification \"$mark\" never arrived; got: $all";
}

# drain(node, listeners...): a control notification on channel ctl from an
# s0 session, waited for by each listener (which must LISTEN ctl); returns
# what each printed meanwhile.
my $round = 0;
sub drain
{
	my ($node, @bgs) = @_;
	$round++;
	$node->safe_psql('postgres', "NOTIFY ctl, 'control-$round'",
		extra_params => [ '-U', 'r_s0' ]);
	return map { notifications_until($_, "control-$round") } @bgs;
}

1;
