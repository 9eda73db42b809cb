# test/t/223_am_attack_conflicts.pl -- adversarial tests, issue 10 class 4.
# INSERT ... ON CONFLICT meeting a row
# the session may not select.  DO UPDATE fails at once with 42501 and
# the designed DETAIL, holds no lock on the hidden row afterwards (another
# session updates it at once) and tells nothing of it; DO NOTHING does
# nothing; a visible conflicting row still updates.  Concurrent sessions
# (BackgroundPsql) make the hidden row appear or disappear while the
# attacker waits.  A statement_timeout bounds every attack, so a spinning
# statement shows up as 57014 rather than hanging the test.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use LabelamAttack;

my $node = attack_node('attack_conflicts', "autovacuum = off\n");

$node->safe_psql('postgres', q{
	CREATE TABLE oc (id int PRIMARY KEY, v text) USING labelheap;
	GRANT ALL ON oc TO PUBLIC;
});
$node->safe_psql('postgres', "INSERT INTO oc VALUES (1, 'SECRET-s1-1'), (3, 'SECRET-s1-3')",
	extra_params => [ '-U', 'r_s1' ]);
$node->safe_psql('postgres', "INSERT INTO oc VALUES (2, 'public-s0-2')",
	extra_params => [ '-U', 'r_s0' ]);

my $CONFLICT = qr/DETAIL:  The conflicting row is beyond the reach of the session's security label\./;
my $TIMEOUT = "SET statement_timeout = '3s';";

sub oc_state
{
	return $node->safe_psql('postgres', 'SELECT string_agg(id || \'=\' || v || \'@\' || t.security_label, \',\' ORDER BY id) FROM oc t',
		extra_params => [ '-U', 'r_s3' ]);
}
my $before = oc_state();

sub background
{
	my ($role) = @_;
	return $node->background_psql('postgres', on_error_stop => 0,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ]);
}

# take(session): the session's stderr so far, cleared
sub take
{
	my ($s) = @_;
	my $err = $s->{stderr};
	$s->{stderr} = '';
	return $err;
}

# open_xact_attack(iso, sql): r_s0 runs sql in an open transaction of
# isolation iso; returns (stderr, seconds, pid, session), the transaction
# still open (aborted, if sql failed)
sub open_xact_attack
{
	my ($iso, $sql) = @_;
	my $s = background('r_s0');
	my $pid = $s->query_safe('SELECT pg_backend_pid()');
	$s->query_safe("BEGIN ISOLATION LEVEL $iso");
	$s->query_safe($TIMEOUT);
	my $t0 = time;
	$s->query($sql);
	my $secs = time - $t0;
	return (take($s), $secs, $pid, $s);
}

# no_lock_left(n, pid): while the attacker's transaction is still open, it
# holds no lock on row 1: r_s1 updates it at once, and pg_locks shows no
# transaction id or tuple lock of the attacker
sub no_lock_left
{
	my ($n, $pid) = @_;
	is($node->safe_psql('postgres',
			"SELECT count(*) FROM pg_locks WHERE pid = $pid AND locktype IN ('transactionid', 'tuple')"),
		'0', "attack $n: pg_locks shows no transaction or tuple lock of the attacker");
	my ($rc, $out, $err) = run($node, 'r_s1',
		"SET lock_timeout = '2s'; UPDATE oc SET v = v WHERE id = 1 RETURNING 'updated'");
	is($out, 'updated', "attack $n: another session updates the hidden row at once");
	unlike($err, qr/ERROR/, "attack $n: ... without a lock timeout") or diag($err);
}

my ($rc, $out, $err, $secs, $pid, $s);

# attack 1: DO UPDATE on a hidden conflicting row fails at once
my $t0 = time;
($rc, $out, $err) = run($node, 'r_s0',
	"$TIMEOUT INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
$secs = time - $t0;
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 1: DO UPDATE on a hidden row is 42501 with the designed DETAIL');
unlike($err, qr/57014/, 'attack 1: the statement does not spin until its timeout');
cmp_ok($secs, '<', 3, 'attack 1: the refusal comes at once');
no_leak('s0', 'attack 1: nothing hidden in the messages', $out, $err);
is(oc_state(), $before, 'attack 1: the table is unchanged');

# attack 2: the same in an open READ COMMITTED transaction: no lock remains
($err, $secs, $pid, $s) = open_xact_attack('READ COMMITTED',
	"INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 2: 42501 in an open transaction');
no_lock_left(2, $pid);
$s->query('ROLLBACK');
$s->quit;

# attack 3: DO NOTHING does nothing, and leaves no lock
($err, $secs, $pid, $s) = open_xact_attack('READ COMMITTED',
	"INSERT INTO oc VALUES (1, 'mine') ON CONFLICT DO NOTHING RETURNING 'inserted'");
unlike($err, qr/ERROR/, 'attack 3: DO NOTHING raises no error');
no_lock_left(3, $pid);
$s->query('COMMIT');
$s->quit;
is(oc_state(), $before, 'attack 3: DO NOTHING inserted and changed nothing');

# attack 4: DO UPDATE in REPEATABLE READ
($err, $secs, $pid, $s) = open_xact_attack('REPEATABLE READ',
	"INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 4: DO UPDATE on a hidden row in REPEATABLE READ is 42501');
unlike($err, qr/40001/, 'attack 4: not a serialization failure (it would say the row exists and was changed)');
no_lock_left(4, $pid);
$s->query('ROLLBACK');
$s->quit;

# attack 5: DO NOTHING in REPEATABLE READ
($err, $secs, $pid, $s) = open_xact_attack('REPEATABLE READ',
	"INSERT INTO oc VALUES (1, 'mine') ON CONFLICT DO NOTHING");
unlike($err, qr/ERROR/, 'attack 5: DO NOTHING in REPEATABLE READ raises no error');
no_lock_left(5, $pid);
$s->query('COMMIT');
$s->quit;

# attack 6: DO UPDATE in SERIALIZABLE
($err, $secs, $pid, $s) = open_xact_attack('SERIALIZABLE',
	"INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 6: DO UPDATE on a hidden row in SERIALIZABLE is 42501');
no_lock_left(6, $pid);
$s->query('ROLLBACK');
$s->quit;
is(oc_state(), $before, 'attacks 2-6: the table is unchanged');

# attack 7: the WHERE of DO UPDATE as an oracle on the hidden value: the
# outcome must not depend on it
my @answers;
for my $guess ("oc.v LIKE 'SECRET-s1-1%'", "oc.v LIKE 'nothing%'")
{
	($rc, $out, $err) = run($node, 'r_s0',
		"$TIMEOUT INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v WHERE $guess");
	like($err, qr/ERROR:  42501:/, "attack 7: DO UPDATE ... WHERE $guess is 42501");
	(my $norm = $err) =~ s/psql:<stdin>:\d+: //g;
	push @answers, $norm;
}
is($answers[0], $answers[1], 'attack 7: a true and a false guess get the same answer');

# attack 8: RETURNING the existing row's columns
($rc, $out, $err) = run($node, 'r_s0',
	"$TIMEOUT INSERT INTO oc VALUES (1, 'mine') ON CONFLICT (id) DO UPDATE SET v = oc.v || '' RETURNING oc.v");
like($err, qr/ERROR:  42501:/, 'attack 8: DO UPDATE ... RETURNING the hidden row is 42501');
no_leak('s0', 'attack 8: nothing hidden returned', $out, $err);

# attack 9: a visible conflicting row still updates
($rc, $out, $err) = run($node, 'r_s0',
	"$TIMEOUT INSERT INTO oc VALUES (2, 'x') ON CONFLICT (id) DO UPDATE SET v = 'public-s0-2-updated' RETURNING v");
is($out, 'public-s0-2-updated', 'attack 9: a visible conflicting row is updated');
unlike($err, qr/ERROR/, 'attack 9: without error');

# attack 10: a visible row the session may not update (s1 on an s0 row):
# the write is denied, at once
($rc, $out, $err) = run($node, 'r_s1',
	"$TIMEOUT INSERT INTO oc VALUES (2, 'x') ON CONFLICT (id) DO UPDATE SET v = 'written-down'");
like($err, qr/ERROR:  42501:/, 'attack 10: s1 may not update the conflicting s0 row');
is($node->safe_psql('postgres', 'SELECT v FROM oc WHERE id = 2', extra_params => [ '-U', 'r_s0' ]),
	'public-s0-2-updated', 'attack 10: the s0 row is unchanged');
$before = oc_state();

# Concurrent sessions: r_s1 holds the conflicting row in an open
# transaction while the attacker's INSERT waits for it.
sub wait_for_attacker
{
	$node->poll_query_until('postgres', q{
		SELECT count(*) > 0 FROM pg_stat_activity
		WHERE usename = 'r_s0' AND wait_event_type = 'Lock'})
	  or die 'the attacker did not wait';
}

# race(n, s1 sql, s1 end, attacker sql): returns the attacker's stderr and
# stdout after the s1 transaction ends
sub race
{
	my ($s1_sql, $s1_end, $sql) = @_;
	my $s1 = background('r_s1');
	my $att = background('r_s0');
	$s1->query_safe('BEGIN');
	$s1->query_safe($s1_sql);
	$att->query_safe($TIMEOUT);
	$att->query_until(qr/sent/, "\\echo sent\n$sql;\n\\echo done\n");
	wait_for_attacker();
	$s1->query_safe($s1_end);
	my $out = $att->query_until(qr/done/, '');
	$out .= $att->query("SELECT 'end'");
	my $err = take($att);
	$s1->quit;
	$att->quit;
	return ($err, $out);
}

# attack 11: the conflicting row is being inserted by s1; s1 commits
($err, $out) = race("INSERT INTO oc VALUES (5, 'SECRET-s1-5')", 'COMMIT',
	"INSERT INTO oc VALUES (5, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 11: once the concurrent hidden insert commits, DO UPDATE is 42501');
unlike($err, qr/57014/, 'attack 11: ... without spinning');
no_leak('s0', 'attack 11: nothing hidden in the messages', $out, $err);

# attack 12: s1 deletes the conflicting row, then rolls back: the row is
# back and hidden
($err, $out) = race('DELETE FROM oc WHERE id = 3', 'ROLLBACK',
	"INSERT INTO oc VALUES (3, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
like($err, qr/ERROR:  42501:.*\n$CONFLICT/, 'attack 12: after a rolled-back concurrent delete, DO UPDATE is 42501');
no_leak('s0', 'attack 12: nothing hidden in the messages', $out, $err);

# attack 13: s1 deletes the conflicting row and commits: the attacker's row
# is simply inserted, at s0
($err, $out) = race('DELETE FROM oc WHERE id = 3', 'COMMIT',
	"INSERT INTO oc VALUES (3, 'mine') ON CONFLICT (id) DO UPDATE SET v = excluded.v");
unlike($err, qr/ERROR/, 'attack 13: after a committed concurrent delete, the insert succeeds');
is($node->safe_psql('postgres', 'SELECT v || \'@\' || t.security_label FROM oc t WHERE id = 3', extra_params => [ '-U', 'r_s3' ]),
	"mine\@$S0_LABEL", 'attack 13: the new row is the attacker\'s, at s0');

# attack 14: MERGE: the hidden row does not match, the insert hits the
# unique key (existence, the accepted channel): no value, no lock, no spin
$before = oc_state();
($rc, $out, $err) = run($node, 'r_s0', qq{$TIMEOUT
	MERGE INTO oc USING (VALUES (1, 'mine')) s (id, v) ON oc.id = s.id
	WHEN MATCHED THEN UPDATE SET v = s.v
	WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)});
unlike($err, qr/57014/, 'attack 14: MERGE does not spin');
no_leak('s0', 'attack 14: MERGE tells nothing hidden', $out, $err);
is(oc_state(), $before, 'attack 14: MERGE changed nothing');

is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('oc')"), '0', 'verify_labels(oc) is empty');

$node->stop;
done_testing();
