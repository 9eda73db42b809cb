# test/t/242_am_label_set_repair.pl -- labelam.repair_table_labels(rel)
# (issue 33): a label set rebuilt from the labels the relation's tuples
# carry.
#
# The set only grows: a table that once held an s1 row stays beyond the
# reach of its s0 owner's TRUNCATE and DROP after the row is gone.  The
# repair removes labels no tuple carries, but only those the caller may
# select (an s0 owner cannot learn or change anything about s1), adds
# labels tuples carry and the set lacks, is for the owner, waits for
# writers in progress, and leaves no backend believing a removed label is
# still in the set.  The maintenance subject (labelam_maint_t) reaches
# every label.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $node = attack_node('label_set_repair',
	"autovacuum = off\nmax_prepared_transactions = 2\n",
	policy => labelam_policy());
$node->safe_psql('postgres', q{
	CREATE ROLE a_maint LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('a_maint', 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023');
});

my $L0 = 'staff_u:object_r:sepgsql_table_t:s0';
my $L1 = 'staff_u:object_r:sepgsql_table_t:s1';
my $L3 = 'staff_u:object_r:sepgsql_table_t:s3';

sub as { my ($role, $sql) = @_; return as_role($node, $role, $sql); }
sub set_of
{
	my ($t) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(DISTINCT p.seclabel, ',' ORDER BY p.seclabel)
		FROM labelam.table_labels s JOIN labelam.pg_security p ON p.secid = s.secid
		WHERE s.relid = '$t'::regclass});
}
sub repair
{
	my ($role, $t) = @_;
	return run($node, $role,
		"SELECT string_agg(label || ':' || change, ',' ORDER BY label) FROM labelam.repair_table_labels('$t')");
}

# r: owned by r_s0; s1 and s3 rows written, then deleted by their writers
$node->safe_psql('postgres', q{
	CREATE TABLE r (id int, v text) USING labelheap;
	ALTER TABLE r OWNER TO r_s0;
	GRANT ALL ON r TO PUBLIC;
});
seed($node, 'r');
as('r_s1', 'DELETE FROM r WHERE id > 10');
as('r_s3', 'DELETE FROM r WHERE id > 30');
$node->safe_psql('postgres', 'VACUUM r');
is(set_of('r'), "$L0,$L1,$L3", 'the set still holds s1 and s3 after their rows are gone');
my ($rc, $out, $err) = run($node, 'r_s0', 'TRUNCATE r');
beyond_reach($err, 'so the s0 owner may not truncate');

# the s0 owner's repair: s1 and s3 are beyond its reach, nothing changes
($rc, $out, $err) = run($node, 'r_s0', "SELECT count(*) FROM labelam.repair_table_labels('r')");
is($out, '0', 'repair by the s0 owner: no change it may see');
is(set_of('r'), "$L0,$L1,$L3", 'repair by the s0 owner: labels beyond its reach stay');
no_leak('s0', 'repair by the s0 owner: nothing above s0 in what it returns', $out, $err);

# not the owner: refused
($rc, $out, $err) = run($node, 'r_s3', "SELECT * FROM labelam.repair_table_labels('r')");
like($err, qr/ERROR:  42501: must be owner of table r/, 'repair by a non-owner: refused (42501)');

# the maintenance subject reaches every label
($rc, $out, $err) = repair('a_maint', 'r');
is($out, "$L1:removed,$L3:removed", 'repair by the maintenance subject removes s1 and s3');
is(set_of('r'), $L0, 'the set holds s0 only');
($rc, $out, $err) = run($node, 'r_s0', 'TRUNCATE r');
unlike($err, qr/ERROR/, 'now the s0 owner may truncate');

# labels of rows still there stay, whoever repairs
$node->safe_psql('postgres', 'CREATE TABLE k (id int, v text) USING labelheap; ALTER TABLE k OWNER TO r_s1; GRANT ALL ON k TO PUBLIC');
seed($node, 'k');
($rc, $out, $err) = repair('a_maint', 'k');
is($out, '', 'repair of a table whose labels all have rows: no change');
is(set_of('k'), "$L0,$L1,$L3", 'k keeps s0, s1 and s3');
# a label within the owner's reach: the s1 owner removes s0 once its rows are gone
as('r_s0', 'DELETE FROM k');
$node->safe_psql('postgres', 'VACUUM k');
($rc, $out, $err) = repair('r_s1', 'k');
is($out, "$L0:removed", 'the s1 owner removes s0, which it may select');
is(set_of('k'), "$L1,$L3", 'and keeps s3, beyond its reach');
# a row deleted but not vacuumed still counts
as('r_s1', 'DELETE FROM k WHERE id > 10 AND id < 20');
($rc, $out, $err) = repair('a_maint', 'k');
is($out, '', 'a deleted row not yet vacuumed keeps its label');

# damage: a set row deleted by hand is put back, for every label
$node->safe_psql('postgres', "DELETE FROM labelam.table_labels WHERE relid = 'k'::regclass AND secid = (SELECT secid FROM labelam.pg_security WHERE seclabel = '$L3')");
is($node->safe_psql('postgres', "SELECT count(*) > 0 FROM labelam.verify_labels('k')"), 't',
	'verify_labels reports rows whose label the set lacks');
($rc, $out, $err) = repair('r_s1', 'k');
is($out, '', 'repair by the s1 owner reports no change it may see');
is(set_of('k'), "$L1,$L3", 'but it puts s3 back');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('k')"), '0',
	'verify_labels finds nothing wrong');

# a writer in progress: the repair waits for it (here, until the lock
# times out), and once it committed keeps its label
$node->safe_psql('postgres', 'CREATE TABLE w (id int) USING labelheap; ALTER TABLE w OWNER TO r_s0; GRANT ALL ON w TO PUBLIC');
as('r_s0', 'INSERT INTO w VALUES (1)');
as('r_s1', "BEGIN; INSERT INTO w VALUES (101); PREPARE TRANSACTION 'w1'");
($rc, $out, $err) = run($node, 'a_maint',
	"SET lock_timeout = '200ms'; SELECT * FROM labelam.repair_table_labels('w')");
like($err, qr/ERROR:  55P03: canceling statement due to lock timeout/,
	'repair waits for a writer in progress (prepared transaction)');
$node->safe_psql('postgres', "COMMIT PREPARED 'w1'");
($rc, $out, $err) = repair('a_maint', 'w');
is(set_of('w'), "$L0,$L1", 'after the writer committed, the repair keeps its label');

# a backend that knew the pair is in the set notes its label again after
# a repair removed it: s1 session A finds the committed pair (w, s1) when
# it writes a row in a transaction it rolls back (an aborted row does not
# count, and nothing invalidates A's knowledge), the maintenance subject
# repairs, A writes again; s0 must be refused again
as('r_s1', 'DELETE FROM w WHERE id > 100');
$node->safe_psql('postgres', 'VACUUM w');
my $a = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
$a->query_safe('BEGIN; INSERT INTO w VALUES (102); ROLLBACK');
($rc, $out, $err) = repair('a_maint', 'w');
is($out, "$L1:removed", 'the repair removes s1: only an aborted row carried it');
$a->query_safe('INSERT INTO w VALUES (103)');
$a->quit;
is(set_of('w'), "$L0,$L1", 'a writer that knew the pair notes s1 again');
($rc, $out, $err) = run($node, 'r_s0', 'TRUNCATE w');
beyond_reach($err, 'and the s0 owner is refused TRUNCATE again');

# not a labelheap table
$node->safe_psql('postgres', 'CREATE TABLE h (id int)');
($rc, $out, $err) = run($node, undef, "SELECT * FROM labelam.repair_table_labels('h')");
like($err, qr/ERROR:  42809: "h" is not a labelheap relation/, 'a heap table has no label set (42809)');

$node->stop;
done_testing();
