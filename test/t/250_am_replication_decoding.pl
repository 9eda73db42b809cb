# test/t/250_am_replication_decoding.pl -- logical decoding of labelheap
# tables under Debian's MLS policy (src/am/replication): every decoding
# context (the SQL functions, walsenders, test_decoding, pgoutput) hands a
# session only what its label may select.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $node = attack_node('decoding', q{
wal_level = logical
max_replication_slots = 16
max_wal_senders = 8
max_prepared_transactions = 8
autovacuum = off
});
$node->safe_psql('postgres', q{
	ALTER ROLE r_s0 REPLICATION;
	ALTER ROLE r_s1 REPLICATION;
	ALTER ROLE r_s3 REPLICATION;
	CREATE TABLE t (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	GRANT ALL ON t TO PUBLIC;
});
for my $lvl (qw(s0 s1 s3))
{
	$node->safe_psql('postgres',
		"SELECT pg_create_logical_replication_slot('td_$lvl', 'test_decoding')",
		extra_params => [ '-U', "r_$lvl" ]);
}
seed($node, 't');

sub changes
{
	my ($lvl, $slot, $opts) = @_;
	$opts //= '';
	my ($rc, $out, $err) = run($node, "r_$lvl",
		"SELECT data FROM pg_logical_slot_get_changes('$slot', NULL, NULL$opts)");
	return "$out$err";
}

note run($node, 'r_s0', "SELECT * FROM pg_logical_slot_peek_changes('td_s0', NULL, NULL)");
my $s0 = changes('s0', 'td_s0');
note $s0;
no_leak('s0', 'test_decoding at s0: no hidden row', $s0);
like($s0, qr/public-s0-1/, 'test_decoding at s0: the s0 rows');
my $s1 = changes('s1', 'td_s1');
note $s1;
no_leak('s1', 'test_decoding at s1: no s3 row', $s1);
like($s1, qr/SECRET-s1-1/, 'test_decoding at s1: the s1 rows');
my $s3 = changes('s3', 'td_s3');
like($s3, qr/SECRET-s3-1/, 'test_decoding at s3: the s3 rows');

done_testing();
