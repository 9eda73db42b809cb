# test/t/222_am_attack_messages.pl -- adversarial tests, issue 10 class 3.
# No ERROR, DETAIL, HINT, NOTICE or
# CONTEXT sent to a client carries a value or label of a row the session
# may not select.  Hidden rows (r_s1's) sit in tables the s0 attacker owns;
# each attack provokes a message that, in PostgreSQL, would print the
# conflicting or failing row: exclusion conflicts, unique and exclusion
# index builds, cast failures in rewrites and index builds, foreign keys
# validated over hidden rows, constraint failures and write denials in
# cascades.  Every hidden value carries a marker (SECRET-s1-..., or numbers
# 4242xx / 5001xx / 777001) that must appear nowhere in what s0 receives.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamAttack;

my $node = attack_node('attack_messages', "autovacuum = off\n");

# t(n, columns, extra): labelheap table named n owned by r_s0, open to all
sub t
{
	my ($name, $cols) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE $name ($cols) USING labelheap;
		GRANT ALL ON $name TO PUBLIC;
	}, extra_params => [ '-U', 'r_s0' ]);
}

sub as
{
	my ($role, $sql) = @_;
	$node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

my ($rc, $out, $err);
my $hidden_num = qr/42420\d|4243\d\d|5001\d\d|777001/;

# attack 1: an exclusion constraint conflict with a hidden row: the
# conflict is still detected (existence is the accepted covert channel)
# but the DETAIL never prints the existing key
t('ex1', 'id int, r int4range, EXCLUDE USING gist (r WITH &&)');
as('r_s1', "INSERT INTO ex1 VALUES (1, '[424200,424300)')");
($rc, $out, $err) = run($node, 'r_s0', "INSERT INTO ex1 VALUES (2, '[424250,424251)')");
like($err, qr/ERROR:  23P01:/, 'attack 1: the exclusion conflict is detected (23P01)');
like($err, qr/DETAIL:  Key conflicts with existing key\./, 'attack 1: the DETAIL is the designed one');
unlike($err, qr/424200|424300/, 'attack 1: the hidden row\'s key is not printed');
no_leak('s0', 'attack 1: no hidden label', $err);

# attack 2: the same conflict reached by an UPDATE of the attacker's row
as('r_s0', "INSERT INTO ex1 VALUES (3, '[1,2)')");
($rc, $out, $err) = run($node, 'r_s0', "UPDATE ex1 SET r = '[424299,424400)' WHERE id = 3");
like($err, qr/ERROR:  23P01:/, 'attack 2: the exclusion conflict on UPDATE is detected');
unlike($err, qr/424200|424300/, 'attack 2: the hidden row\'s key is not printed');

# attack 3: adding an exclusion constraint over two hidden rows that
# conflict with each other
t('ex3', 'id int, r int4range');
as('r_s1', "INSERT INTO ex3 VALUES (1, '[500100,500200)'), (2, '[500150,500160)')");
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE ex3 ADD CONSTRAINT ex3_x EXCLUDE USING gist (r WITH &&)');
beyond_reach($err, 'attack 3: building an exclusion constraint over hidden rows is refused');
unlike($err, $hidden_num, 'attack 3: no hidden key printed');

# attack 4: a unique index build over hidden duplicates
t('u4', 'id int, v text');
as('r_s1', "INSERT INTO u4 VALUES (1, 'SECRET-s1-dup'), (2, 'SECRET-s1-dup')");
as('r_s0', "INSERT INTO u4 VALUES (3, 'public-s0-1')");
($rc, $out, $err) = run($node, 'r_s0', 'CREATE UNIQUE INDEX u4_v ON u4 (v)');
beyond_reach($err, 'attack 4: a unique index build over hidden rows is refused');
no_leak('s0', 'attack 4: the duplicated hidden key is not printed', $out, $err);

# attack 5: ADD UNIQUE constraint over the same hidden duplicates
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE u4 ADD CONSTRAINT u4_u UNIQUE (v)');
beyond_reach($err, 'attack 5: ADD UNIQUE over hidden rows is refused');
no_leak('s0', 'attack 5: the duplicated hidden key is not printed', $out, $err);

# attack 6: a cast failure during a rewrite (ALTER TYPE int on text whose
# hidden value is not a number)
t('c6', 'id int, v text');
as('r_s1', "INSERT INTO c6 VALUES (1, 'SECRET-s1-nan')");
as('r_s0', "INSERT INTO c6 VALUES (2, '42')");
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE c6 ALTER COLUMN v TYPE int USING v::int');
beyond_reach($err, 'attack 6: the rewrite is refused before any cast');
no_leak('s0', 'attack 6: the cast error never prints the hidden value', $out, $err);

# attack 7: a cast whose error CONTEXT quotes the input (jsonb)
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE c6 ALTER COLUMN v TYPE jsonb USING v::jsonb');
beyond_reach($err, 'attack 7: the rewrite to jsonb is refused before any cast');
no_leak('s0', 'attack 7: no DETAIL or CONTEXT quotes the hidden value', $out, $err);

# attack 8: a cast failure in an index expression
($rc, $out, $err) = run($node, 'r_s0', 'CREATE INDEX c6_int ON c6 ((v::int))');
beyond_reach($err, 'attack 8: an index build over hidden rows is refused before evaluating the expression');
no_leak('s0', 'attack 8: the cast error never prints the hidden value', $out, $err);

# attack 9: a cast failure in a partial-index predicate
($rc, $out, $err) = run($node, 'r_s0', 'CREATE INDEX c6_p ON c6 (id) WHERE v::int > 0');
beyond_reach($err, 'attack 9: a partial index build over hidden rows is refused');
no_leak('s0', 'attack 9: the cast error never prints the hidden value', $out, $err);

# attack 10: a cast failure in a stored generated column
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE c6 ADD COLUMN g int GENERATED ALWAYS AS (v::int) STORED');
beyond_reach($err, 'attack 10: adding a generated column over hidden rows is refused');
no_leak('s0', 'attack 10: the cast error never prints the hidden value', $out, $err);

# attack 11: a cast failure while validating a CHECK constraint
as('r_s0', 'ALTER TABLE c6 ADD CONSTRAINT c6_pos CHECK (v::int > 0) NOT VALID');
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE c6 VALIDATE CONSTRAINT c6_pos');
beyond_reach($err, 'attack 11: validating a constraint over hidden rows is refused');
no_leak('s0', 'attack 11: the cast error never prints the hidden value', $out, $err);

# attack 12: ADD FOREIGN KEY over hidden rows referencing a missing key:
# PostgreSQL's violation DETAIL prints the referencing key
t('p12', 'id int PRIMARY KEY');
t('f12', 'id int, pid int');
as('r_s0', 'INSERT INTO p12 VALUES (1); INSERT INTO f12 VALUES (1, 1)');
as('r_s1', 'INSERT INTO f12 VALUES (2, 777001)');
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE f12 ADD FOREIGN KEY (pid) REFERENCES p12');
beyond_reach($err, 'attack 12: validating a foreign key over hidden rows is refused');
unlike($err, $hidden_num, 'attack 12: the hidden referencing key is not printed');

# Cascades over a hidden child row: PostgreSQL checks constraints before
# the table AM is asked to write, so without a check at the scan the
# constraint's "Failing row contains (...)" prints the hidden row.
sub family
{
	my ($n, $child_cols, $action) = @_;
	t("par$n", 'id int PRIMARY KEY');
	t("chi$n", $child_cols);
	as('r_s0', "ALTER TABLE chi$n ADD FOREIGN KEY (pid) REFERENCES par$n $action; INSERT INTO par$n VALUES (1), (2)");
	as('r_s1', "INSERT INTO chi$n VALUES (1, 1, 'SECRET-s1-child')");
}

# attack 13: ON UPDATE CASCADE into a CHECK the new key violates
family(13, 'id int, pid int CHECK (pid < 100), v text', 'ON UPDATE CASCADE');
($rc, $out, $err) = run($node, 'r_s0', 'UPDATE par13 SET id = 500 WHERE id = 1');
denied($err, 'attack 13: a cascaded update meeting a hidden row is 42501 (before its CHECK)');
no_leak('s0', 'attack 13: no "Failing row" with the hidden row', $out, $err);

# attack 14: ON DELETE SET NULL into a NOT NULL column
family(14, 'id int, pid int NOT NULL, v text', 'ON DELETE SET NULL');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par14 WHERE id = 1');
denied($err, 'attack 14: SET NULL meeting a hidden row is 42501 (before its NOT NULL check)');
no_leak('s0', 'attack 14: no "Failing row" with the hidden row', $out, $err);

# attack 15: ON DELETE CASCADE over a hidden row: the write denial's
# DETAIL must not name the hidden row's label
family(15, 'id int, pid int, v text', 'ON DELETE CASCADE');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par15 WHERE id = 1');
denied($err, 'attack 15: a cascaded delete meeting a hidden row is 42501');
no_leak('s0', 'attack 15: the denial names no hidden label', $out, $err);

# attack 16: a trigger owned by an s1 role, fired in the s0 session,
# NOTICEs what it reads: it reads at the session's label
t('tr17', 'id int, v text');
as('r_s1', q{
	CREATE FUNCTION tell() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE NOTICE 'tell: %', (SELECT string_agg(v, ',') FROM u4);
		RETURN NEW;
	END $$;
});
$node->safe_psql('postgres', 'CREATE TRIGGER tr17 BEFORE INSERT ON tr17 FOR EACH ROW EXECUTE FUNCTION tell()');
($rc, $out, $err) = run($node, 'r_s0', "INSERT INTO tr17 VALUES (1, 'x')");
like($err, qr/tell: public-s0-1/, 'attack 16: the trigger ran');
no_leak('s0', 'attack 16: a trigger\'s NOTICE in an s0 session carries nothing hidden', $out, $err);

is($node->safe_psql('postgres', "SELECT string_agg(v, ',' ORDER BY v) FROM chi15", extra_params => [ '-U', 'r_s1' ]),
	'SECRET-s1-child', 'the hidden child rows are intact');

$node->stop;
done_testing();
