# test/t/310_lbac_oracle.pl -- the lbac provider's decisions against an
# independent oracle: test/t/lbac_oracle.py draws a label model (levels,
# compartments, a tree of groups), the authorizations and privileges of 40
# roles and 6,240 (role, session label, row label, permission) cases, and
# decides each from Oracle Label Security's documented rules; labelam must
# agree on every one, through the decision cache (lbac.check_access,
# lbac.check_relabel) and, for 8 sessions, through the row filter and the
# write path (the rows a session reads, and which of them it may update).
use strict;
use warnings;
use File::Basename;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamLbac;

my $oracle = dirname(__FILE__) . '/lbac_oracle.py';
my ($roles, $cases, $sessions) = (40, 130, 8);

my $node = lbac_node('lbac_oracle');
my $admin = $node->safe_psql('postgres', 'SELECT current_user');

my ($stdout, $stderr);
IPC::Run::run([ '/usr/bin/python3', $oracle, 34, $roles, $cases, $sessions ],
	'>', \$stdout, '2>', \$stderr)
  or die "oracle failed: $stderr";
my (@sql, @case, @relabel, @row, @session);
for (split /\n/, $stdout)
{
	my ($kind, @f) = split /\t/, $_, -1;
	push @sql, $f[0] if $kind eq 'SQL';
	push @case, \@f if $kind eq 'CASE';
	push @relabel, \@f if $kind eq 'RELABEL';
	push @row, \@f if $kind eq 'ROW';
	push @session, \@f if $kind eq 'SESSION';
}
cmp_ok(scalar(@case) + scalar(@relabel), '>=', 5000,
	'the oracle drew at least 5,000 decisions (' . (@case + @relabel) . ')');

$node->safe_psql('postgres',
	join(";\n", (map { "CREATE ROLE lbac_r$_ LOGIN" } 1 .. $roles), @sql));

sub sqlq { my $s = shift; $s =~ s/'/''/g; return "'$s'"; }

# compare(label, sql over v(i, ...), cases): every answer equals the
# oracle's; both outcomes must be well represented to mean anything
sub compare
{
	my ($what, $values, $cols, $query, $cases) = @_;
	my $got = $node->safe_psql('postgres', "$query FROM (VALUES $values) AS v($cols) ORDER BY i");
	my @got = split /\n/, $got;
	is(scalar(@got), scalar(@$cases), "labelam answered every $what case");
	my ($mismatch, $granted) = (0, 0);
	for my $i (0 .. $#$cases)
	{
		my $want = $cases->[$i][-1];
		$granted++ if $want eq 't';
		next if ($got[$i] // '') eq $want;
		$mismatch++;
		diag("$what mismatch: " . join(' | ', @{ $cases->[$i] }) . ' -> labelam ' . ($got[$i] // '?'))
		  if $mismatch <= 10;
	}
	is($mismatch, 0, "0 disagreements with the oracle on " . scalar(@$cases) . " $what decisions");
	cmp_ok($granted, '>=', @$cases / 10, "$what sample has grants ($granted)");
	cmp_ok(@$cases - $granted, '>=', @$cases / 10, "$what sample has denials (" . (@$cases - $granted) . ')');
}

my $i = 0;
compare('access',
	join(",\n", map { $i++; "($i, " . join(', ', map { sqlq($_) } @{$_}[0 .. 3]) . ')' } @case),
	'i, r, s, o, p', 'SELECT lbac.check_access(r::name, s, o, ARRAY[p])', \@case);
$i = 0;
compare('relabel',
	join(",\n", map { $i++; "($i, " . join(', ', map { sqlq($_) } @{$_}[0 .. 3]) . ')' } @relabel),
	'i, r, s, f, t', 'SELECT lbac.check_relabel(r::name, s, f, t)', \@relabel);

# Through the row filter and the write path: a table with one row of each
# label the cases used, seeded by the administrator (FULL), and sessions of
# the first roles at a label within their authorizations.
$node->safe_psql('postgres', qq{
	SELECT lbac.set_levels('$admin', 'TOP', 'PUB');
	SELECT lbac.grant_privileges('$admin', 'FULL');
	CREATE TABLE rows_o (id int PRIMARY KEY, v text, lbl labelam.security_label)
		USING labelheap;
	GRANT SELECT, UPDATE ON rows_o TO PUBLIC;
	CREATE FUNCTION may_update() RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE r record; ok text[] := '{}';
	BEGIN
		FOR r IN SELECT id FROM rows_o ORDER BY id LOOP
			BEGIN
				UPDATE rows_o SET v = 'u' WHERE id = r.id;
				ok := ok || r.id::text;
			EXCEPTION WHEN insufficient_privilege THEN NULL;
			END;
		END LOOP;
		RETURN coalesce(nullif(array_to_string(ok, ','), ''), '-');
	END \$\$;
});
$node->safe_psql('postgres', 'INSERT INTO rows_o VALUES ' .
	join(",\n", map { "($_->[0], 'v', " . sqlq($_->[1]) . ')' } @row));
is($node->safe_psql('postgres', 'SELECT count(*) FROM rows_o'), scalar(@row),
	'the administrator (FULL) seeded a row of each of ' . scalar(@row) . ' labels');

for my $s (@session)
{
	my ($role, $label, $read, $write) = @$s;
	my $got = $node->safe_psql('postgres', qq{
		SELECT lbac.set_session_label(${\ sqlq($label)}) IS NOT NULL;
		SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM rows_o;
		BEGIN;
		SELECT may_update();
		ROLLBACK;
	}, extra_params => [ '-U', $role ]);
	my ($set, $seen, $updated) = split /\n/, $got;
	is($seen, $read, "$role at '$label' reads the rows the oracle says");
	is($updated, $write, "$role at '$label' updates the rows the oracle says");
}

$node->stop;
done_testing();
