# test/t/302_avc_standby.pl -- a hot standby serves sessions with labels:
# resolving a session's label writes nothing (it is not interned), so
# read-only servers need nothing special, and decisions on rows labeled in the
# dictionary work there.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $primary = labelam_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE ROLE u_user LOGIN;
	INSERT INTO labelam.role_label VALUES ('u_user', 'user_u:user_r:user_t:s0');
	SELECT labelam.intern_label('system_u:object_r:sepgsql_ro_table_t:s0');
});
$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->start;
$primary->wait_for_catchup($standby);

is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery(), labelam.client_label()',
		extra_params => [ '-U', 'u_user' ]),
	't|user_u:user_r:user_t:s0', 'a standby session gets its label from labelam.role_label');
# (the dictionary itself is for administrators only: looked up as one)
my $ro_secid = $standby->safe_psql('postgres', q{
		SELECT secid FROM labelam.pg_security
		WHERE seclabel = 'system_u:object_r:sepgsql_ro_table_t:s0'});
is($standby->safe_psql('postgres', qq{
		SELECT labelam.check_row_access($ro_secid, '{select}'),
			   labelam.check_row_access($ro_secid, '{update}')},
		extra_params => [ '-U', 'u_user' ]),
	't|f', 'decisions on dictionary labels work on the standby');
is($standby->safe_psql('postgres', q{
		SELECT labelam.compute_create(labelam.client_label(),
			'system_u:object_r:sepgsql_table_t:s0')},
		extra_params => [ '-U', 'u_user' ]),
	'user_u:object_r:sepgsql_table_t:s0', 'and so do new-row labels');

$standby->stop;
$primary->stop;
done_testing();
