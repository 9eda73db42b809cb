# test/t/211_am_enforcement_epq.pl -- EvalPlanQual under a concurrent relabel:
# a session that waits for a row another transaction relabels out of its reach
# finds, once that commits, no row to update, delete or lock (MLS policy
# through libsepol).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('epq');
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE doc (id int PRIMARY KEY, body text) USING labelheap;
	GRANT ALL ON doc TO PUBLIC;
	CREATE ROLE r_s1 LOGIN;
	CREATE ROLE r_admin LOGIN;
	CREATE ROLE r_s2 LOGIN;
	INSERT INTO labelam.role_label VALUES
		('r_s1', 'staff_u:staff_r:staff_t:s1'),
		('r_s2', 'staff_u:staff_r:staff_t:s2'),
		('r_admin', 'staff_u:sysadm_r:sysadm_t:s1');
});
$node->safe_psql('postgres', "INSERT INTO doc SELECT g, 'row ' || g FROM generate_series(1, 3) g",
	extra_params => [ '-U', 'r_s1' ]);

# as r_s2 (pg_read_all_stats): a session's wait events are shown only to
# sessions whose label may read its label (src/shared_state/activity.c)
$node->safe_psql('postgres', 'GRANT pg_read_all_stats TO r_s2');
sub wait_for_lock_wait
{
	for (1 .. 600)
	{
		return if $node->safe_psql('postgres', q{
			SELECT count(*) > 0 FROM pg_stat_activity
			WHERE usename = 'r_s1' AND wait_event_type = 'Lock'},
			extra_params => [ '-U', 'r_s2' ]) eq 't';
		select(undef, undef, undef, 0.1);
	}
	die 'the session did not wait for the row lock';
}

# One round: admin relabels row $id up to s2 in an open transaction; the
# s1 session runs $stmt on that row and waits; admin commits.
sub race
{
	my ($id, $stmt) = @_;
	my $admin = $node->background_psql('postgres', extra_params => [ '-U', 'r_admin' ]);
	my $user = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
	$admin->query_safe("BEGIN");
	$admin->query_safe("SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s2'");
	$admin->query_safe("UPDATE doc SET body = body || ' (s2)' WHERE id = $id");
	$user->query_until(qr/sent/, "\\echo sent\n$stmt;\n");
	wait_for_lock_wait();
	$admin->query_safe("COMMIT");
	my $out = $user->query_safe("SELECT 'done'");
	$admin->quit;
	$user->quit;
	return $out;
}

like(race(1, "WITH u AS (UPDATE doc SET body = 'mine' WHERE id = 1 RETURNING 1) SELECT 'rows=' || count(*) FROM u"),
	qr/rows=0/, 'UPDATE finds no row once it was relabeled out of reach');
like(race(2, "WITH d AS (DELETE FROM doc WHERE id = 2 RETURNING 1) SELECT 'rows=' || count(*) FROM d"),
	qr/rows=0/, 'DELETE finds no row once it was relabeled out of reach');
like(race(3, "SELECT 'rows=' || count(*) FROM (SELECT * FROM doc WHERE id = 3 FOR UPDATE) s"),
	qr/rows=0/, 'SELECT FOR UPDATE returns no row once it was relabeled out of reach');

is($node->safe_psql('postgres', 'SELECT count(*) FROM doc', extra_params => [ '-U', 'r_s1' ]),
	'0', 's1 reads none of the relabeled rows');
is($node->safe_psql('postgres', "SELECT string_agg(body, ',' ORDER BY id) FROM doc", extra_params => [ '-U', 'r_s2' ]),
	'row 1 (s2),row 2 (s2),row 3 (s2)', 'the rows are intact at s2, untouched by the s1 session');

$node->stop;
done_testing();
