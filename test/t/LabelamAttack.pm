# test/t/LabelamAttack.pm -- shared fixture of the adversarial tests
# (test/t/2xx_am_attack_*.pl, issue 10): an MLS node with roles r_s0, r_s1 and
# r_s3, tables whose rows carry a marker naming their level, and checks that a
# session never sees a marker or a label above its own level.
#
# Invariants: rows inserted by r_LEVEL are labeled at LEVEL (policy
# type_transition); every value above s0 contains "SECRET-<level>-" (s0
# values "public-s0-"), so a leak of any hidden value is a match of
# hidden_re(level) in some output.
package LabelamAttack;

use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use Test::More;
use LabelamTest;
use Exporter 'import';

our @EXPORT = qw(attack_node run seed hidden_re no_leak denied beyond_reach
  table_state $BEYOND $S0 $S0_LABEL);

# the DETAIL the issue 10 design gives every whole-table refusal
our $BEYOND = qr/DETAIL:  The relation holds rows beyond the reach of the session's security label\./;

# what an s0 session reads of a seeded table's v column
our $S0 = 'public-s0-1,public-s0-2,public-s0-3';
our $S0_LABEL = 'staff_u:object_r:sepgsql_table_t:s0';

# attack_node(name, extra conf, %opt): started MLS node with the extension,
# the three roles and CREATE on schema public for everyone (options as
# labelam_mls_node's).
sub attack_node
{
	my ($name, $conf, %opt) = @_;
	my $node = labelam_mls_node($name, $conf, %opt);
	$node->safe_psql('postgres', q{
		CREATE EXTENSION labelam;
		GRANT CREATE ON SCHEMA public TO PUBLIC;
		CREATE ROLE r_s0 LOGIN;
		CREATE ROLE r_s1 LOGIN;
		CREATE ROLE r_s3 LOGIN;
		INSERT INTO labelam.role_label VALUES
			('r_s0', 'staff_u:staff_r:staff_t:s0'),
			('r_s1', 'staff_u:staff_r:staff_t:s1'),
			('r_s3', 'staff_u:staff_r:staff_t:s3');
	});
	return $node;
}

# run(node, role, sql): (rc, stdout, stderr) of psql as role (undef: the
# bootstrap superuser), with verbose errors (SQLSTATE in every ERROR line),
# going on after errors.
sub run
{
	my ($node, $role, $sql, %opt) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql,
		on_error_stop => $opt{stop} // 0,
		extra_params => [ (defined $role ? ('-U', $role) : ()), '-v', 'VERBOSITY=verbose' ]);
	return ($rc, $out // '', $err // '');
}

# seed(node, table, levels): rows (id, v) by each level's role: ids 1-3 at
# s0 ("public-s0-N"), 11-13 at s1 ("SECRET-s1-N"), 31-33 at s3.
sub seed
{
	my ($node, $table, @levels) = @_;
	@levels = qw(s0 s1 s3) unless @levels;
	for my $lvl (@levels)
	{
		my ($base) = $lvl =~ /(\d)/;
		my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
		$node->safe_psql('postgres',
			"INSERT INTO $table (id, v) SELECT 10 * $base + g, '$mark-$lvl-' || g FROM generate_series(1, 3) g",
			extra_params => [ '-U', "r_$lvl" ]);
	}
}

# what a session at level may not see: markers and labels above it
sub hidden_re
{
	my ($level) = @_;
	# s0 reads no SECRET at all: match the bare marker, which is what a
	# tokenizer's message (say, jsonb's) quotes of a hidden value
	return $level eq 's0' ? qr/SECRET|:s[13]\b/ : qr/SECRET-s3|:s3\b/;
}

# no_leak(level, name, texts...): no hidden marker or label in any text
sub no_leak
{
	my ($level, $name, @texts) = @_;
	my $re = hidden_re($level);
	my $all = join("\n", map { $_ // '' } @texts);
	my ($hit) = $all =~ /(.{0,60}$re.{0,40})/;
	ok(!defined $hit, $name) or diag("leaked: $hit");
}

# denied(err, name): the command failed with SQLSTATE 42501
sub denied
{
	my ($err, $name) = @_;
	like($err, qr/ERROR:  42501:/, $name);
}

# beyond_reach(err, name): 42501 with the designed DETAIL
sub beyond_reach
{
	my ($err, $name) = @_;
	like($err, qr/ERROR:  42501:.*\n(?:.*\n)*?$BEYOND/, $name);
}

# table_state(node, table): rows, labels, columns, constraints, indexes and
# storage of table as r_s3 (which reads s0, s1 and s3 rows) sees them.
sub table_state
{
	my ($node, $table, $cols) = @_;
	$cols //= 'id, v';
	return $node->safe_psql('postgres', qq{
		SELECT (SELECT string_agg(format('%s|%s', ($cols)::text, t.security_label), ';' ORDER BY t.id) FROM $table t),
		  (SELECT string_agg(attname || ':' || atttypid::regtype || ':' || attnotnull, ',' ORDER BY attnum)
		     FROM pg_attribute WHERE attrelid = '$table'::regclass AND attnum > 0 AND NOT attisdropped),
		  (SELECT string_agg(conname || ':' || convalidated, ',' ORDER BY conname)
		     FROM pg_constraint WHERE conrelid = '$table'::regclass),
		  (SELECT string_agg(indexrelid::regclass::text || ':' || indisclustered, ',' ORDER BY indexrelid::regclass::text)
		     FROM pg_index WHERE indrelid = '$table'::regclass),
		  (SELECT relfilenode || ':' || amname FROM pg_class JOIN pg_am ON pg_am.oid = relam WHERE pg_class.oid = '$table'::regclass)
	}, extra_params => [ '-U', 'r_s3' ]);
}

1;
