# test/t/311_lbac_attacks.pl -- attacks on the lbac provider (issue 34),
# each numbered: the group tree both ways, writes with read-only groups and
# compartments, label text aliases, unknown and dropped components, session
# labels above the authorization (directly, through SET ROLE, SECURITY
# DEFINER, DISCARD ALL, RESET, SET, connection options, labelam.role_label),
# revocations (next statement, repeatable read, never mid-statement, rolled
# back), the model's tables written directly or altered (superusers too),
# components in use renamed, renumbered, moved or dropped, relabels up,
# down and across without the privilege, COMPACCESS, denied and malformed
# labels leaving dictionary entries, administration taken by others, and
# what lbac turns off (object checks, DROP ROLE of an authorized role), and
# a prepared change of the model.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamLbac;

my $node = lbac_node('lbac_attacks', "max_prepared_transactions = 2\n");
my $admin = lbac_model($node);

# One row of each label; alice (S:A,B:WEST, writes A and WEST, minimum C)
# reads 1-3, 5-9, 12-14, writes 2, 3, 5, 8, 9, 12, 13, 14.
my @rows = (
	[ 1, 'U' ], [ 2, 'C' ], [ 3, 'S' ], [ 4, 'TS' ], [ 5, 'S:A' ],
	[ 6, 'S:B' ], [ 7, 'S:A,B' ], [ 8, 'S::WEST' ], [ 9, 'S::WEST_SUB' ],
	[ 10, 'S::ALL' ], [ 11, 'S::EAST' ], [ 12, 'S:A:WEST' ],
	[ 13, 'C:B:WEST' ], [ 14, 'C::WEST_SUB' ], [ 15, 'S:A:EAST' ]);
$node->safe_psql('postgres', q{
	CREATE TABLE docs (id int PRIMARY KEY, v text, lbl labelam.security_label)
		USING labelheap;
	GRANT SELECT, INSERT, UPDATE, DELETE ON docs TO PUBLIC;
	CREATE FUNCTION ids() RETURNS text LANGUAGE sql AS
		$$SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM docs$$;
	CREATE FUNCTION dict(l text) RETURNS bigint LANGUAGE sql AS
		$$SELECT count(*) FROM labelam.pg_security WHERE seclabel = l$$;
} . 'INSERT INTO docs VALUES ' . join(', ', map { "($_->[0], 'v$_->[0]', '$_->[1]')" } @rows));

my $alice_reads = '1,2,3,5,6,7,8,9,12,13,14';
is($node->safe_psql('postgres', 'SELECT ids()', extra_params => [ '-U', 'alice' ]),
	$alice_reads, 'alice at S:A,B:WEST reads what OLS lets her');

sub as
{
	my ($role, $sql) = @_;
	return $node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

# may role update row id (inside a transaction rolled back)?
sub can_update
{
	my ($role, $id, $pre) = @_;
	my ($rc, $out, $err) = lbac_run($node, $role,
		($pre // '') . ";BEGIN; UPDATE docs SET v = v WHERE id = $id; ROLLBACK;");
	return $err =~ /ERROR/ ? ($err =~ /42501/ ? 'denied' : "error: $err") : 'ok';
}

# 1. the group tree, downward: WEST grants WEST_SUB
like(as('alice', 'SELECT ids()'), qr/(^|,)9(,|$)/, '1. holding WEST reads S::WEST_SUB (a group below it)');
is(can_update('alice', 9), 'ok', '1. holding WEST with write writes S::WEST_SUB');

# 2. ... and never upward: WEST does not grant ALL; WEST_SUB does not grant WEST
unlike(as('alice', 'SELECT ids()'), qr/(^|,)10(,|$)/, '2. holding WEST does not read S::ALL (its parent)');
$node->safe_psql('postgres', q{
	CREATE ROLE carol LOGIN;
	SELECT lbac.set_levels('carol', 'S');
	SELECT lbac.set_groups('carol', 'WEST_SUB');
});
is(as('carol', 'SELECT ids()'), '1,2,3,9,14', '2. holding WEST_SUB reads no S::WEST row');

# 3. write with read-only groups
$node->safe_psql('postgres', q{
	CREATE ROLE dave LOGIN;
	SELECT lbac.set_levels('dave', 'S', 'C');
	SELECT lbac.set_groups('dave', 'WEST', '');
});
like(as('dave', 'SELECT ids()'), qr/(^|,)8(,|$)/, '3. dave reads S::WEST (read-only group)');
is(can_update('dave', 8), 'denied', '3. ... and may not update it');
like(lbac_err($node, 'dave', q{SET labelam.insert_label = 'S::WEST'; INSERT INTO docs VALUES (100, 'x')}),
	qr/ERROR:  42501/, '3. ... nor insert a row at S::WEST');

# 4. write with a read-only compartment: B, without groups, is not written;
# with a written group, compartments need read access only (OLS)
is(can_update('alice', 6), 'denied', '4. alice may not update S:B (B is read-only)');
is(can_update('alice', 13), 'ok', '4. alice updates C:B:WEST: a written group, B read suffices');

# 5-8. label text aliases: one meaning, one dictionary entry
$node->safe_psql('postgres', q{
	SET labelam.insert_label = 'TS:B,A'; INSERT INTO docs VALUES (20, 'x');
	SET labelam.insert_label = 'ts:a,b'; INSERT INTO docs VALUES (21, 'x');
	SET labelam.insert_label = ' TS : A , B '; INSERT INTO docs VALUES (22, 'x');
	SET labelam.insert_label = 'TS:A,B:'; INSERT INTO docs VALUES (23, 'x');
	SET labelam.insert_label = 'C:'; INSERT INTO docs VALUES (24, 'x');
	SET labelam.insert_label = 'C::'; INSERT INTO docs VALUES (25, 'x');
});
is($node->safe_psql('postgres', q{
	SELECT dict('TS:A,B'), dict('TS:B,A'), dict('ts:a,b'), dict('C'), dict('C:'),
		(SELECT string_agg(DISTINCT d.security_label, ',') FROM docs d WHERE id BETWEEN 20 AND 23)}),
	'1|0|0|1|0|TS:A,B', '5-8. B,A and A,B, case, blanks, empty trailing sections: one entry each');
is($node->safe_psql('postgres', q{SELECT lbac.canonical('S::west_sub,west'), lbac.canonical(' s : b, a : east ')}),
	'S::WEST,WEST_SUB|S:A,B:EAST', '5. canonical order is the components\' numbers');
$node->safe_psql('postgres', 'DELETE FROM docs WHERE id >= 20');

# 8. empty names inside a list are refused, not guessed at
for my $bad ('S:A,,B', 'S:,A', 'S:A,', 'S::WEST,,EAST', ':A', 'S:A:WEST:X')
{
	like(lbac_err($node, undef, "SET labelam.insert_label = '$bad'; INSERT INTO docs VALUES (30, 'x')"),
		qr/ERROR:  22023: invalid security label/, "8. '$bad' is refused with 22023");
}

# 9. unknown components
for my $bad ('X', 'S:Z', 'S::NORTH', 'S:A,A', 'S::WEST,west')
{
	like(lbac_err($node, undef, "SELECT labelam.check_access('S', '$bad', '{select}')"),
		qr/ERROR:  22023/, "9. '$bad' (unknown or repeated) is refused with 22023");
}

# 10. a dropped component is unknown; one in use cannot be dropped
$node->safe_psql('postgres', q{
	SELECT lbac.create_compartment('Z', 99);
	SELECT lbac.drop_compartment('Z');
});
like(lbac_err($node, undef, q{SELECT lbac.canonical('S:Z')}),
	qr/ERROR:  22023.*\n.*Compartment "Z" is not defined/, '10. a dropped compartment names nothing');
like(lbac_err($node, undef, q{SELECT lbac.drop_compartment('B')}),
	qr/ERROR:  2BP01: cannot drop compartment "B": a stored label uses it/, '10. a compartment a stored label uses is not dropped');
$node->safe_psql('postgres', q{
	SELECT lbac.create_group('NORTH', 40, NULL, 'ALL');
	SELECT lbac.set_groups('bob', 'NORTH');
});
like(lbac_err($node, undef, q{SELECT lbac.drop_group('NORTH')}),
	qr/ERROR:  2BP01: .*authorization of role "bob" uses it/, '10. a group an authorization uses is not dropped');
like(lbac_err($node, undef, q{SELECT lbac.drop_group('WEST')}),
	qr/ERROR:  2BP01/, '10. a group with groups below it is not dropped');

# 11. a session label above the authorization
for my $bad ('TS', 'S:A,B:ALL', 'S:A,B:EAST', 'U', 'S:A,B:WEST,EAST')
{
	like(lbac_err($node, 'alice', "SELECT lbac.set_session_label('$bad')"),
		qr/ERROR:  42501: permission denied to change the client label/,
		"11. alice may not set her session label to $bad");
}
is(as('alice', q{SELECT lbac.set_session_label('c:a:west_sub'); SELECT ids()}),
	"C:A:WEST_SUB\n1,2,14", '11. ... but may move within it (C:A:WEST_SUB reads U, C, C::WEST_SUB)');

# 12. ... through SET ROLE: the authorization is the login role's
$node->safe_psql('postgres', q{
	CREATE ROLE topdog;
	SELECT lbac.set_levels('topdog', 'TS');
	SELECT lbac.set_compartments('topdog', 'A,B');
	SELECT lbac.set_groups('topdog', 'ALL');
	SELECT lbac.grant_privileges('topdog', 'READ,FULL,PROFILE_ACCESS');
	GRANT topdog TO alice;
});
like(lbac_err($node, 'alice', q{SET ROLE topdog; SELECT lbac.set_session_label('TS')}),
	qr/ERROR:  42501/, '12. SET ROLE to a TS role does not let alice set TS');
is(as('alice', 'SET ROLE topdog; SELECT ids()'), $alice_reads, '12. ... nor read more');
like(lbac_err($node, 'alice', q{SET SESSION AUTHORIZATION topdog}), qr/ERROR:  42501/,
	'12. SET SESSION AUTHORIZATION is a superuser\'s (PostgreSQL)');

# 13. ... through SECURITY DEFINER
$node->safe_psql('postgres', q{
	CREATE FUNCTION top_ids() RETURNS text LANGUAGE sql SECURITY DEFINER AS
		$$SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM public.docs$$;
	CREATE FUNCTION top_label() RETURNS text LANGUAGE sql SECURITY DEFINER AS
		$$SELECT lbac.set_session_label('TS')$$;
	ALTER FUNCTION top_ids() OWNER TO topdog;
	ALTER FUNCTION top_label() OWNER TO topdog;
	GRANT SELECT ON docs TO topdog;
});
is(as('alice', 'SELECT top_ids()'), $alice_reads, '13. a SECURITY DEFINER function of a TS role reads as alice');
like(lbac_err($node, 'alice', 'SELECT top_label()'), qr/ERROR:  42501/,
	'13. ... and cannot raise her label');

# 14. ... through DISCARD ALL, RESET, SET
is(as('alice', q{SELECT lbac.set_session_label('C'); DISCARD ALL; SELECT lbac.session_label(), ids()}),
	"C\nC|1,2", '14. DISCARD ALL keeps the label set (never back above it)');
like(lbac_err($node, 'alice', q{RESET labelam.session_label}), qr/ERROR:  42501/,
	'14. RESET labelam.session_label is a superuser\'s');
is($node->safe_psql('postgres', q{SELECT lbac.set_session_label('C'); RESET labelam.session_label; SELECT lbac.session_label()}),
	"C\nTS:A,B:ALL", '14. ... and returns to the default label, within the authorization');
like(lbac_err($node, 'alice', q{SET labelam.session_label = 'TS:A,B:ALL;role=10'}),
	qr/ERROR:  42501: permission denied to set parameter/, '14. SET labelam.session_label is refused');
like(lbac_err($node, undef, q{SET labelam.session_label = 'TS'}),
	qr/ERROR:  42501: labelam.session_label cannot be set directly/, '14. ... to superusers too');
like(lbac_err($node, undef, q{SET labelam.lbac_model = 'lbac1'}),
	qr/ERROR:  42501: labelam.lbac_model cannot be set directly/, '14. the model handed to workers cannot be set');
like(lbac_err($node, undef, q{ALTER ROLE alice SET labelam.session_label = 'TS'}),
	qr/ERROR:  42501/, '14. nor set for a role');

# 15. ... through connection options
{
	local $ENV{PGOPTIONS} = '-c labelam.connect_label=TS';
	my ($rc, $out, $err) = lbac_run($node, 'alice', 'SELECT ids()');
	like($err, qr/FATAL:  permission denied to connect with security label "TS;role=\d+"/,
		'15. labelam.connect_label above the authorization refuses the connection');
	local $ENV{PGOPTIONS} = '-c labelam.connect_label=C:A';
	is(as('alice', 'SELECT lbac.session_label(), ids()'), 'C:A|1,2',
		'15. ... and within it starts the session there');
}

# 16. labelam.role_label (a superuser's table) hands out no label under lbac
$node->safe_psql('postgres', q{INSERT INTO labelam.role_label VALUES ('alice', 'TS:A,B:ALL')});
is(as('alice', 'SELECT lbac.session_label(), ids()'), "S:A,B:WEST|$alice_reads",
	'16. a row of labelam.role_label changes nothing: the model alone authorizes');
$node->safe_psql('postgres', q{DELETE FROM labelam.role_label});

# 17. revocation takes effect at the next statement
my $sess = $node->background_psql('postgres', extra_params => [ '-U', 'alice' ]);
is($sess->query_safe('SELECT ids()'), $alice_reads, '17. open session before the revocation');
$node->safe_psql('postgres', q{SELECT lbac.set_compartments('alice', 'A')});
is($sess->query_safe('SELECT ids()'), '1,2,3,5,8,9,12,14',
	'17. its next statement no longer reads B rows (the session label is bounded)');
is($sess->query_safe('SELECT lbac.session_label()'), 'S:A:WEST', '17. its label is bounded by the new authorization');
$node->safe_psql('postgres', q{SELECT lbac.set_compartments('alice', 'A,B', 'A')});
is($sess->query_safe('SELECT ids()'), $alice_reads, '17. given back, read again');

# 18. ... in a repeatable-read transaction too, whose statements take no
# new lock and no new snapshot (a prepared statement: nothing else looks at
# the invalidations a commit sent)
$sess->query_safe(q{PREPARE rows_q AS SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '-') FROM docs});
$sess->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
is($sess->query_safe('EXECUTE rows_q'), $alice_reads, '18. repeatable read, before');
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'C', 'C')});
is($sess->query_safe('EXECUTE rows_q'), '1,2,13,14', '18. next statement of the same transaction: C rows only');
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'S', 'C')});
is($sess->query_safe('EXECUTE rows_q'), $alice_reads, '18. raised again, within the transaction');
$sess->query_safe('COMMIT');

# 19. ... never in the middle of a statement: a scan paused at its first
# row while a revocation commits reads the rest with the model it began with
$node->safe_psql('postgres', q{
	CREATE FUNCTION pause_at(id int) RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		IF id = 1 THEN
			PERFORM pg_advisory_lock_shared(3434);
			PERFORM pg_advisory_unlock_shared(3434);
		END IF;
		RETURN true;
	END $$;
});
my $locker = $node->background_psql('postgres');
$locker->query_safe('SELECT pg_advisory_lock(3434)');
$sess->query_until(qr/started/, "\\echo started\nSELECT 'paused:' || string_agg(id::text, ',' ORDER BY id) FROM docs WHERE pause_at(id);\n");
$node->poll_query_until('postgres',
	q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted}, '1')
  or die 'the scan did not pause';
$node->safe_psql('postgres', q{SELECT lbac.set_compartments('alice', 'A')});
$locker->query_safe('SELECT pg_advisory_unlock(3434)');
like($sess->query_safe('SELECT 1'), qr/paused:$alice_reads\n1/,
	'19. the statement running across the commit reads B rows to its end');
is($sess->query_safe('SELECT ids()'), '1,2,3,5,8,9,12,14', '19. the next one does not');
$locker->quit;

# 20. a rolled-back revocation changes nothing
$node->safe_psql('postgres', q{SELECT lbac.set_compartments('alice', 'A,B', 'A')});
is($sess->query_safe('SELECT ids()'), $alice_reads, '20. before');
my $adm = $node->background_psql('postgres');
$adm->query_safe(q{BEGIN; SELECT lbac.set_levels('alice', 'C', 'C')});
is($sess->query_safe('SELECT ids()'), $alice_reads, '20. an uncommitted revocation governs no other session');
$adm->query_safe('ROLLBACK');
is($sess->query_safe('SELECT ids(), lbac.session_label()'), "$alice_reads|S:A,B:WEST",
	'20. rolled back: nothing changed');
is($node->safe_psql('postgres', q{SELECT max_level FROM lbac.user_authorizations WHERE role = 'alice'::regrole}),
	'S', '20. the model holds the old authorization');
$adm->quit;
$sess->quit;

# 21. direct DML on the model's tables, superusers too
for my $sql ("INSERT INTO lbac.levels VALUES (50, 'TS2')",
	"UPDATE lbac.levels SET num = 45 WHERE short_name = 'TS'",
	"DELETE FROM lbac.authorizations",
	"UPDATE lbac.authorizations SET privileges = '{FULL}'",
	"INSERT INTO lbac.administrators VALUES ('alice')",
	"TRUNCATE lbac.groups",
	"COPY lbac.compartments FROM PROGRAM 'echo 77	EVIL'",
	"MERGE INTO lbac.levels l USING (VALUES (40)) v(n) ON l.num = v.n WHEN MATCHED THEN UPDATE SET num = 1")
{
	like(lbac_err($node, undef, $sql), qr/ERROR:  42501: cannot (write directly to|truncate) table "\w+" of the lbac model/,
		"21. refused to a superuser: $sql");
}
is($node->safe_psql('postgres', q{SELECT string_agg(short_name, ',' ORDER BY num) FROM lbac.levels}),
	'U,C,S,TS', '21. the levels are unchanged');

# 22. ... and DDL that would change them or swap them for others
for my $sql ('ALTER TABLE lbac.levels ADD COLUMN x int',
	'ALTER TABLE lbac.levels RENAME TO old_levels',
	'ALTER TABLE lbac.authorizations ALTER COLUMN privileges TYPE text USING $$FULL$$',
	'CREATE INDEX ON lbac.levels ((num + 1))',
	'ALTER TABLE lbac.levels DISABLE TRIGGER ALL')
{
	like(lbac_err($node, undef, $sql), qr/ERROR:  42501: cannot (alter|index) table/, "22. refused: $sql");
}
like(lbac_err($node, undef, 'ALTER EXTENSION labelam DROP TABLE lbac.levels'),
	qr/ERROR:  42501: cannot add objects to or drop objects from extension labelam/,
	'22. ALTER EXTENSION labelam DROP is refused');
like(lbac_err($node, undef, 'DROP TABLE lbac.levels'), qr/ERROR:  2BP01/,
	'22. DROP TABLE of a model table: the extension needs it');

# 23. what a stored label uses is not renamed, renumbered or moved
like(lbac_err($node, undef, q{SELECT lbac.alter_compartment('A', new_short_name => 'AA')}),
	qr/ERROR:  2BP01: cannot rename compartment "A": a stored label uses it/, '23. renaming A (in use) is refused');
like(lbac_err($node, undef, q{SELECT lbac.alter_level('S', new_num => 45)}),
	qr/ERROR:  2BP01: cannot renumber level "S"/, '23. renumbering S (in use) is refused');
like(lbac_err($node, undef, q{SELECT lbac.alter_group('WEST_SUB', new_parent => 'EAST')}),
	qr/ERROR:  2BP01: cannot move group "WEST_SUB"/, '23. moving WEST_SUB (in use) is refused');
like(lbac_err($node, undef, q{SELECT lbac.alter_group('WEST', new_parent => 'WEST_SUB')}),
	qr/ERROR:  22023: group "WEST" cannot go below "WEST_SUB"/, '23. a cycle in the group tree is refused');
$node->safe_psql('postgres', q{SELECT lbac.alter_level('TS', new_long_name => 'TOP SECRET//SI')});
is($node->safe_psql('postgres', q{SELECT long_name FROM lbac.levels WHERE short_name = 'TS'}),
	'TOP SECRET//SI', '23. a long name may change');

# 24-26. relabels up, down and across need their privilege
my $relabel = sub {
	my ($id, $to, $label) = @_;
	my $pre = $label ? "SELECT lbac.set_session_label('$label');" : '';
	my $err = lbac_err($node, 'alice',
		"$pre SET labelam.update_label = '$to'; BEGIN; UPDATE docs SET v = v WHERE id = $id; ROLLBACK;");
	return $err =~ /ERROR:  42501: permission denied to/ ? 'refused' :
	  $err =~ /ERROR/ ? "error: $err" : 'ok';
};
is($relabel->(2, 'S'), 'refused', '24. C -> S without WRITEUP is refused');
is($relabel->(3, 'C'), 'refused', '25. S -> C without WRITEDOWN is refused');
is($relabel->(3, 'S:A'), 'refused', '26. S -> S:A without WRITEACROSS is refused');
is($relabel->(8, 'S::WEST_SUB'), 'refused', '26. S::WEST -> S::WEST_SUB (groups) without WRITEACROSS is refused');
$node->safe_psql('postgres', q{SELECT lbac.grant_privileges('alice', 'WRITEUP, writedown')});
is($relabel->(2, 'S'), 'ok', '24. with WRITEUP: C -> S');
is($relabel->(3, 'C'), 'ok', '25. with WRITEDOWN: S -> C');
is($relabel->(3, 'U'), 'refused', '25. not below the minimum level (U)');
is($relabel->(2, 'S', 'C'), 'refused', '24. not above the session level (alice at C)');
is($relabel->(3, 'C:A'), 'refused', '26. WRITEUP and WRITEDOWN do not change compartments');
$node->safe_psql('postgres', q{SELECT lbac.grant_privileges('alice', 'WRITEACROSS')});
is($relabel->(3, 'S:A'), 'ok', '26. with WRITEACROSS: S -> S:A');
is($relabel->(3, 'S:B'), 'refused', '26. WRITEACROSS does not give write access to S:B');
$node->safe_psql('postgres', q{SELECT lbac.revoke_privileges('alice', 'WRITEUP,WRITEDOWN,WRITEACROSS')});
is($relabel->(2, 'S'), 'refused', '24. revoked: refused again');

# 27. COMPACCESS: compartments alone decide, except a row with groups and
# no compartments, which needs a session with some group
$node->safe_psql('postgres', q{
	CREATE ROLE erin LOGIN;
	SELECT lbac.set_levels('erin', 'S');
	SELECT lbac.set_compartments('erin', 'A');
	SELECT lbac.grant_privileges('erin', 'COMPACCESS');
	CREATE ROLE frank LOGIN;
	SELECT lbac.set_levels('frank', 'S');
	SELECT lbac.set_compartments('frank', 'A');
	SELECT lbac.set_groups('frank', 'WEST_SUB');
	SELECT lbac.grant_privileges('frank', 'COMPACCESS');
});
is(as('erin', 'SELECT ids()'), '1,2,3,5,12,15',
	'27. COMPACCESS without groups: S:A:WEST and S:A:EAST yes, S::EAST and S::WEST no');
is(as('frank', 'SELECT ids()'), '1,2,3,5,8,9,10,11,12,14,15',
	'27. COMPACCESS with a group: every row whose compartments it has');

# 28. a denied label leaves no dictionary entry
like(lbac_err($node, 'alice', q{SET labelam.insert_label = 'C:B'; INSERT INTO docs VALUES (40, 'x')}),
	qr/ERROR:  42501/, '28. alice may not insert at C:B (B read-only)');
like(lbac_err($node, 'alice', q{SET labelam.update_label = 'S:B:EAST'; UPDATE docs SET v = v WHERE id = 5}),
	qr/ERROR:  42501/, '28. nor relabel a row to S:B:EAST');
is(as('alice', q{DO $$BEGIN
		SET LOCAL labelam.insert_label = 'U:B';
		INSERT INTO docs VALUES (41, 'x');
	EXCEPTION WHEN insufficient_privilege THEN NULL; END $$;
	SELECT 'done'}), 'done', '28. a denied insert caught in a subtransaction');
is($node->safe_psql('postgres', q{SELECT dict('C:B') + dict('S:B:EAST') + dict('U:B')}), '0',
	'28. none of the denied labels is in the dictionary');

# 29. a malformed label leaves no entry either
lbac_err($node, undef, q{SET labelam.insert_label = 'C:B,,A'; INSERT INTO docs VALUES (42, 'x')});
lbac_err($node, undef, q{INSERT INTO docs VALUES (43, 'x', 'C:A:NOWHERE')});
is($node->safe_psql('postgres', q{SELECT count(*) FROM labelam.pg_security WHERE seclabel LIKE '%NOWHERE%' OR seclabel LIKE '%,,%' OR seclabel LIKE 'C:B,A%'}),
	'0', '29. no entry for malformed labels');

# 30. INSERT at a chosen label needs write access to it, and nothing more
is(as('alice', q{SET labelam.insert_label = 'C'; INSERT INTO docs VALUES (44, 'x'); SELECT d.security_label FROM docs d WHERE id = 44}),
	'C', '30. alice inserts at C (writable; no WRITEDOWN needed)');
like(lbac_err($node, 'alice', q{SET labelam.insert_label = 'U'; INSERT INTO docs VALUES (45, 'x')}),
	qr/ERROR:  42501/, '30. ... but not at U (below her minimum)');
is(as('alice', q{INSERT INTO docs VALUES (46, 'x'); SELECT d.security_label FROM docs d WHERE id = 46}),
	'S:A:WEST', '30. a new row gets her row label (S, written A, WEST)');

# 31. only the model's administrators change it
$node->safe_psql('postgres', q{
	CREATE ROLE root2 SUPERUSER LOGIN;
	CREATE FUNCTION admin_does_it() RETURNS void LANGUAGE sql SECURITY DEFINER AS
		$$SELECT lbac.set_levels('alice', 'TS')$$;
});
like(lbac_err($node, 'alice', q{SELECT lbac.set_levels('alice', 'TS')}),
	qr/ERROR:  42501: permission denied for lbac.set_levels\(\)/, '31. alice cannot authorize herself');
like(lbac_err($node, 'root2', q{SELECT lbac.create_level('TS2', 50)}),
	qr/ERROR:  42501/, '31. another superuser cannot change the model');
like(lbac_err($node, 'root2', qq{SET ROLE $admin; SELECT lbac.create_level('TS2', 50)}),
	qr/ERROR:  42501/, '31. ... nor after SET ROLE to the administrator');
like(lbac_err($node, 'root2', qq{SET SESSION AUTHORIZATION $admin; SELECT lbac.create_level('TS2', 50)}),
	qr/ERROR:  42501/, '31. ... nor after SET SESSION AUTHORIZATION');
like(lbac_err($node, 'alice', q{SELECT admin_does_it()}),
	qr/ERROR:  42501/, '31. a SECURITY DEFINER function of the administrator does not act for alice');
$node->safe_psql('postgres', q{SELECT lbac.grant_administration('root2')});
$node->safe_psql('postgres', q{SELECT lbac.create_level('TS2', 50)}, extra_params => [ '-U', 'root2' ]);
like(lbac_err($node, undef, qq{SELECT lbac.revoke_administration('root2'); SELECT lbac.revoke_administration('$admin')}),
	qr/ERROR:  55000: cannot revoke administration from the last administrator/,
	'31. administration handed on; the last administrator stays');

# 32. a superuser the model does not authorize reads and writes no labeled row
is(as('root2', 'SELECT ids(), lbac.session_label() IS NULL'), '-|t', '32. superuser root2 (no authorization) reads nothing');
like(lbac_err($node, 'root2', q{INSERT INTO docs VALUES (47, 'x')}), qr/ERROR:  42501: the session has no lbac label/,
	'32. ... and writes nothing');

# 33. object checks do not apply under lbac
like(lbac_err($node, undef, 'ALTER SYSTEM SET labelam.object_checks = on'),
	qr/ERROR:  0A000: labelam.object_checks cannot be on with labelam.provider = lbac/,
	'33. labelam.object_checks cannot be turned on');
like(lbac_err($node, undef, q{SECURITY LABEL FOR selinux ON TABLE docs IS 'S'}),
	qr/ERROR:  0A000: SECURITY LABEL FOR selinux does not apply/, '33. SECURITY LABEL FOR selinux is refused');
is($node->safe_psql('postgres', 'SHOW labelam.object_checks'), 'off', '33. object checks are off');

# 34. a prepared change governs from COMMIT PREPARED, not before
my $prep = $node->background_psql('postgres', extra_params => [ '-U', 'alice' ]);
is($prep->query_safe('SELECT ids()'), '1,2,3,5,6,7,8,9,12,13,14,44,46', '34. before');
$node->safe_psql('postgres', q{BEGIN; SELECT lbac.set_levels('alice', 'C', 'C'); PREPARE TRANSACTION 'lower_alice'});
is($prep->query_safe('SELECT ids()'), '1,2,3,5,6,7,8,9,12,13,14,44,46', '34. prepared: nothing changed yet');
$node->safe_psql('postgres', q{COMMIT PREPARED 'lower_alice'});
is($prep->query_safe('SELECT ids()'), '1,2,13,14,44', '34. committed from another session: the next statement reads C rows only');
$node->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'S', 'C')});
$prep->quit;

# 35. a role the model names cannot be dropped (its OID could come back)
like(lbac_err($node, undef, 'DROP ROLE carol'), qr/ERROR:  2BP01: role "carol" cannot be dropped because the lbac model/,
	'35. DROP ROLE of an authorized role is refused');
$node->safe_psql('postgres', q{SELECT lbac.drop_authorization('carol'); DROP ROLE carol});
pass('35. dropped once its authorization is');

# 36. another role's authorization needs PROFILE_ACCESS, and is one way
like(lbac_err($node, 'alice', q{SELECT lbac.set_access_profile('topdog')}),
	qr/ERROR:  42501: permission denied to change the client label/, '36. alice has no PROFILE_ACCESS');
$node->safe_psql('postgres', q{SELECT lbac.grant_privileges('bob', 'PROFILE_ACCESS')});
like(lbac_err($node, 'bob', q{BEGIN; SELECT lbac.set_access_profile('alice')}),
	qr/ERROR:  25001: cannot change the client label inside a transaction block/,
	'36. a one-way change of profile is refused in a transaction block');
is(as('bob', q{SELECT lbac.set_access_profile('alice'); SELECT ids()}),
	"S:A,B:WEST\n1,2,3,5,6,7,8,9,12,13,14,44,46", '36. with PROFILE_ACCESS bob works as alice');
like(lbac_err($node, 'bob', q{SELECT lbac.set_access_profile('alice'); SELECT lbac.set_access_profile('topdog')}),
	qr/ERROR:  42501/, '36. ... with alice\'s privileges, not his own');

$node->stop;
done_testing();
