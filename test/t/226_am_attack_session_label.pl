# test/t/226_am_attack_session_label.pl -- attacks on session labels under
# Debian's MLS policy (issue 10, class 8): a session must not get back to a
# higher label once it has moved to a lower one the policy lets it leave but
# not return from; rows read at one label must not be read at another; and no
# session picks its own label through settings it passes at connection time
# (labelam.connect_label asks the policy as labelam.set_client_label() does).
#
# The application role r_app runs at staff_u:staff_r:sepgsql_ranged_proc_t:s3
# (reads s0 and s3 rows).  sepgsql_ranged_proc_t has process { setcurrent }
# on itself and { dyntransition } to staff_t, and is mlsprocsetsl, so it may
# move to staff_u:staff_r:staff_t:s0 (reads s0 rows only); staff_t has no
# setcurrent, so that move is one-way (sesearch -A -c process -p setcurrent
# and -p dyntransition on policy.33).  Every attack tries to read s3 rows
# at s0's label, or to come back to s3 after acting at s0.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('session', q{
autovacuum = off
});

my $high = 'staff_u:staff_r:sepgsql_ranged_proc_t:s3';
my $low = 'staff_u:staff_r:staff_t:s0';
my $default = 'staff_u:staff_r:staff_t:s0';	# labelam_mls_node's default

$node->safe_psql('postgres', qq{
	CREATE EXTENSION labelam;
	CREATE TABLE doc (id int, lvl text) USING labelheap;
	GRANT ALL ON doc TO PUBLIC;
	CREATE ROLE r_s0 LOGIN;
	CREATE ROLE r_s3 LOGIN;
	CREATE ROLE r_app LOGIN;
	CREATE ROLE r_conf LOGIN;
	CREATE ROLE r_super LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('r_s0', 'staff_u:staff_r:staff_t:s0'),
		('r_s3', 'staff_u:staff_r:staff_t:s3'),
		('r_app', '$high');
});
$node->safe_psql('postgres', "INSERT INTO doc VALUES (1, 's0')", extra_params => [ '-U', 'r_s0' ]);
$node->safe_psql('postgres', "INSERT INTO doc VALUES (2, 's3')", extra_params => [ '-U', 'r_s3' ]);

# after each script: the label in force and the levels of the rows visible
my $state = q{
SELECT 'label=' || coalesce(labelam.client_label(), '-');
SELECT 'rows=' || coalesce(string_agg(lvl, ',' ORDER BY lvl), '') FROM doc;
};

# run(role, sql): (stdout, stderr, label, rows) of one session of role
sub run
{
	my ($role, $sql, %params) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', "$sql\n$state",
		on_error_stop => 0,
		extra_params => [ '-U', $role, '-v', 'VERBOSITY=verbose' ],
		%params);
	my ($label) = $out =~ /^label=(.*)$/m;
	my ($rows) = $out =~ /^rows=(.*)$/m;
	return ($out, $err, $label // 'none', $rows // 'none');
}

my $set_low = "SELECT labelam.set_client_label('$low');";
my ($out, $err, $label, $rows);

# the baseline: r_app reads s0 and s3 rows; lowered outside any transaction
# block it reads s0 rows only, and stays there
($out, $err, $label, $rows) = run('r_app', '');
is("$label|$rows", "$high|s0,s3", 'r_app starts at s3 and reads s0 and s3 rows');
($out, $err, $label, $rows) = run('r_app', "$set_low SELECT labelam.set_client_label('$high');");
like($err, qr/ERROR:  42501: permission denied to change the client label/,
	'after lowering, the policy refuses the way back');
is("$label|$rows", "$low|s0", 'the lowered session reads s0 rows only');

# attack 1: lower inside a savepoint, act at s0, ROLLBACK TO SAVEPOINT to
# get s3 back
($out, $err, $label, $rows) = run('r_app', qq{
BEGIN;
SAVEPOINT a;
$set_low
ROLLBACK TO a;
COMMIT;
});
like($err, qr/ERROR:  25001: cannot change the client label inside a subtransaction/,
	'attack: lowering inside a savepoint is refused with 25001');
is("$label|$rows", "$high|s0,s3", 'attack: ... so no rollback to a savepoint brings s3 back: it never left');
($out, $err, $label, $rows) = run('r_app', qq{
$set_low
BEGIN;
SAVEPOINT a;
SELECT 1;
ROLLBACK TO a;
COMMIT;
});
is("$label|$rows", "$low|s0", 'attack: a lowering committed before the savepoint stays after ROLLBACK TO');

# attack 2: lower in a plpgsql exception block, raise, and catch the error:
# the subtransaction's rollback would restore s3
$node->safe_psql('postgres', qq{
	CREATE FUNCTION public.lower_and_raise() RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE
		inner_label text := 'none';
		caught text := 'none';
	BEGIN
		BEGIN
			PERFORM labelam.set_client_label('$low');
			inner_label := labelam.client_label();
			RAISE EXCEPTION 'undo';
		EXCEPTION WHEN OTHERS THEN
			caught := SQLSTATE;
		END;
		RETURN inner_label || '|' || caught || '|' || labelam.client_label();
	END \$\$;
});
($out, $err, $label, $rows) = run('r_app', 'SELECT public.lower_and_raise();');
like($out, qr/^none\|25001\|\Q$high\E$/m,
	'attack: lowering inside an exception block is refused (25001) before any code runs at s0');
is("$label|$rows", "$high|s0,s3", 'attack: ... and the session is still at s3, never lowered');

# attack 3: a multi-statement simple query whose second statement fails:
# the implicit transaction block would roll the lowering back
($out, $err, $label, $rows) = run('r_app',
	"SELECT labelam.set_client_label('$low') \\; SELECT 1 / 0;");
like($err, qr/ERROR:  25001: cannot change the client label inside a transaction block/,
	'attack: lowering in a multi-statement query (implicit block) is refused with 25001');
unlike($err, qr/division by zero/, 'attack: ... and nothing after it ran');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session never left s3');

# attack 4: BEGIN, lower, act at s0, ROLLBACK
($out, $err, $label, $rows) = run('r_app', qq{
BEGIN;
$set_low
SELECT count(*) FROM doc;
ROLLBACK;
});
like($err, qr/ERROR:  25001: cannot change the client label inside a transaction block/,
	'attack: lowering inside BEGIN ... ROLLBACK is refused with 25001');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session never left s3');

# attack 5: a WITH HOLD cursor opened at s3, fetched after lowering
($out, $err, $label, $rows) = run('r_app', qq{
DECLARE c CURSOR WITH HOLD FOR SELECT 'held:' || lvl FROM doc ORDER BY lvl;
$set_low
FETCH ALL FROM c;
});
like($err, qr/ERROR:  55006: cannot change the client label while the session has open cursors/,
	'attack: lowering with a WITH HOLD cursor open is refused with 55006');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session stays at s3, where it may read the cursor');
($out, $err, $label, $rows) = run('r_app', qq{
BEGIN;
DECLARE c CURSOR FOR SELECT 'cursor:' || lvl FROM doc ORDER BY lvl;
FETCH 1 FROM c;
SELECT labelam.set_client_label('$low');
FETCH ALL FROM c;
COMMIT;
});
like($err, qr/ERROR:  55006: cannot change the client label while the session has open cursors/,
	'attack: lowering with a cursor open in a transaction block is refused with 55006');
unlike($out, qr/cursor:s3/, 'attack: ... no s3 row came out of the cursor after the attempt');
($out, $err, $label, $rows) = run('r_app', qq{
DECLARE c CURSOR WITH HOLD FOR SELECT 'held:' || lvl FROM doc ORDER BY lvl;
CLOSE c;
$set_low
});
is("$label|$rows", "$low|s0", 'attack: ... once the cursor is closed the lowering goes through');

# attack 6: a WITH HOLD cursor whose own query lowers the label, run to
# its end at commit and then read at s0
($out, $err, $label, $rows) = run('r_app', qq{
DECLARE h CURSOR WITH HOLD FOR
	SELECT 'held:' || lvl FROM doc, labelam.set_client_label('$low') ORDER BY lvl;
FETCH ALL FROM h;
});
like($err, qr/ERROR:  55006: cannot change the client label while the session has open cursors/,
	'attack: a holdable cursor lowering the label in its own query is refused with 55006');
unlike($out, qr/held:s3/, 'attack: ... and no s3 row is fetched');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session stays at s3');

# attack 7: a plan or a prepared statement made at s3 and run at s0
$node->safe_psql('postgres', q{
	CREATE FUNCTION public.levels() RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		RETURN (SELECT string_agg(lvl, ',' ORDER BY lvl) FROM doc);
	END $$;
	CREATE FUNCTION public.plan_label() RETURNS text IMMUTABLE LANGUAGE sql
		AS $$ SELECT labelam.client_label() $$;
});
($out, $err, $label, $rows) = run('r_app', qq{
SET plan_cache_mode = force_generic_plan;
PREPARE p AS SELECT 'prepared:' || string_agg(lvl, ',' ORDER BY lvl) FROM doc;
PREPARE q AS SELECT 'planned at:' || public.plan_label();
EXECUTE p;
EXECUTE q;
SELECT 'function:' || public.levels();
$set_low
EXECUTE p;
EXECUTE q;
SELECT 'function:' || public.levels();
});
my @prepared = $out =~ /^prepared:(.*)$/mg;
my @planned = $out =~ /^planned at:(.*)$/mg;
my @function = $out =~ /^function:(.*)$/mg;
is(join('/', @prepared), 's0,s3/s0', 'attack: a prepared statement run after lowering reads s0 rows only');
is(join('/', @planned), "$high/$low", 'attack: ... its generic plan was made again at the new label');
is(join('/', @function), 's0,s3/s0', 'attack: a plpgsql function\'s cached plan reads s0 rows only after lowering');
is("$label|$rows", "$low|s0", 'attack: ... and the session is at s0');

# attack 8: a superuser without a labelam.role_label row picks its label
# with PGOPTIONS; the setting is postgresql.conf's alone
my ($rc, $sout, $serr) = $node->psql('postgres', 'SELECT labelam.client_label()',
	connstr => $node->connstr('postgres') . " user=r_super options='-c labelam.default_client_label=$high'");
like($serr, qr/parameter "labelam.default_client_label" cannot be changed now/,
	'attack: PGOPTIONS -c labelam.default_client_label is refused');
isnt($sout, $high, 'attack: ... no session ran at the label it chose');
($rc, $sout, $serr) = $node->psql('postgres', 'SELECT labelam.client_label()',
	connstr => $node->connstr('postgres') . " user=r_super options='-c labelam.session_label=$high'");
like($serr, qr/labelam.session_label cannot be set directly/,
	'attack: PGOPTIONS -c labelam.session_label is refused too');
($out, $err, $label, $rows) = run('r_super', '');
is("$label|$rows", "$default|s0", 'attack: ... the superuser gets the configured label and reads s0 rows only');

# attack 9: ALTER ROLE / ALTER DATABASE ... SET labelam.default_client_label
($rc, $sout, $serr) = $node->psql('postgres', qq{
ALTER ROLE r_conf SET labelam.default_client_label = '$high';
}, extra_params => [ '-U', 'r_super' ]);
like($serr, qr/parameter "labelam.default_client_label" cannot be changed now/,
	'attack: ALTER ROLE ... SET labelam.default_client_label is refused');
($rc, $sout, $serr) = $node->psql('postgres', qq{
ALTER DATABASE postgres SET labelam.default_client_label = '$high';
}, extra_params => [ '-U', 'r_super' ]);
like($serr, qr/parameter "labelam.default_client_label" cannot be changed now/,
	'attack: ALTER DATABASE ... SET labelam.default_client_label is refused');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_db_role_setting
	WHERE array_to_string(setconfig, ',') LIKE '%labelam%'}), '0',
	'attack: ... no such setting was stored');
($out, $err, $label, $rows) = run('r_conf', '');
is("$label|$rows", "$default|s0", 'attack: ... r_conf gets the configured label and reads s0 rows only');

# labelam.connect_label (PGOPTIONS, what runcon is on an SELinux host) asks
# at connection start for the change labelam.set_client_label() would make,
# with the same decision: r_app may start at s0, nobody may climb with it
($rc, $sout, $serr) = $node->psql('postgres', "SELECT 'label=' || labelam.client_label(); SELECT 'rows=' || string_agg(lvl, ',' ORDER BY lvl) FROM doc",
	connstr => $node->connstr('postgres') . " user=r_app options='-c labelam.connect_label=$low'");
is(join('|', $sout =~ /^(?:label|rows)=(.*)$/mg), "$low|s0",
	'labelam.connect_label: r_app starts at the lower label its own may change to, and reads s0 rows only');

# attack 9a: a session at staff_t:s0 asks for s3 at connection start
($rc, $sout, $serr) = $node->psql('postgres', 'SELECT labelam.client_label()',
	connstr => $node->connstr('postgres') . " user=r_super options='-c labelam.connect_label=$high'");
like($serr, qr/FATAL:  permission denied to connect with security label "\Q$high\E"/,
	'attack: PGOPTIONS -c labelam.connect_label to a label the policy does not let staff_t change to refuses the connection');
is($sout, '', 'attack: ... no statement ran');

# attack 9b: labelam.connect_label stored with ALTER ROLE / DATABASE ... SET
# or set within a session
($rc, $sout, $serr) = $node->psql('postgres', qq{
ALTER ROLE r_conf SET labelam.connect_label = '$high';
}, extra_params => [ '-U', 'r_super' ]);
like($serr, qr/parameter "labelam.connect_label" cannot be set after connection start/,
	'attack: ALTER ROLE ... SET labelam.connect_label is refused');
($rc, $sout, $serr) = $node->psql('postgres', qq{
ALTER DATABASE postgres SET labelam.connect_label = '$high';
}, extra_params => [ '-U', 'r_super' ]);
like($serr, qr/parameter "labelam.connect_label" cannot be set after connection start/,
	'attack: ALTER DATABASE ... SET labelam.connect_label is refused');
($out, $err, $label, $rows) = run('r_conf', "SET labelam.connect_label = '$high';");
like($err, qr/parameter "labelam.connect_label" cannot be set after connection start/,
	'attack: SET labelam.connect_label is refused');
is("$label|$rows", "$default|s0", 'attack: ... r_conf keeps the configured label and reads s0 rows only');

# attack 10: lower in a procedure, then ROLLBACK inside it (transaction
# control in procedures) to get s3 back
$node->safe_psql('postgres', qq{
	CREATE PROCEDURE public.lower_then_rollback() LANGUAGE plpgsql AS \$\$
	BEGIN
		PERFORM labelam.set_client_label('$low');
		ROLLBACK;
		RAISE NOTICE 'after rollback: %', labelam.client_label();
	END \$\$;
});
($out, $err, $label, $rows) = run('r_app', 'CALL public.lower_then_rollback();');
like($err, qr/ERROR:  25001: cannot change the client label inside a procedure or DO block/,
	'attack: lowering inside a procedure that may ROLLBACK is refused with 25001');
unlike($err, qr/after rollback/, 'attack: ... nothing after it ran');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session never left s3');

# attack 11: lower inside a plpgsql FOR loop over s3 rows, whose portal
# would go on returning rows read at s3
$node->safe_psql('postgres', qq{
	CREATE FUNCTION public.lower_in_loop() RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE
		r record;
		seen text := '';
	BEGIN
		FOR r IN SELECT lvl FROM doc ORDER BY lvl LOOP
			PERFORM labelam.set_client_label('$low');
			seen := seen || r.lvl;
		END LOOP;
		RETURN seen;
	END \$\$;
});
($out, $err, $label, $rows) = run('r_app', 'SELECT public.lower_in_loop();');
like($err, qr/ERROR:  55006: cannot change the client label while the session has open cursors/,
	'attack: lowering inside a FOR loop is refused with 55006');
is("$label|$rows", "$high|s0,s3", 'attack: ... the session stays at s3');
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'attack: ... and the server is still up');

# attack 12: a statement that lowers and then fails rolls back with all it
# did: nothing it wrote at s0 stays, and it ran no later statement at s0
($out, $err, $label, $rows) = run('r_app', qq{
WITH l AS (SELECT labelam.set_client_label('$low'))
INSERT INTO doc SELECT 3, 's0-late' FROM l;
});
is("$label|$rows", "$low|s0,s0-late", 'a lowering that commits with its statement stays (control)');
($out, $err, $label, $rows) = run('r_app', qq{
SELECT labelam.set_client_label('$low'), 1 / (length(labelam.client_label()) - length('$low'));
});
like($err, qr/division by zero/, 'attack: a statement failing after it lowered the label fails');
is("$label|$rows", "$high|s0,s0-late,s3", 'attack: ... and its change is gone with it');

# attack 13: an extended-protocol pipeline runs statements after the
# lowering in the same transaction until Sync, so that a later failure
# would undo it: refused after the pipeline's first statement, and the
# first statement commits at once (pgbench reads ":name" as a variable:
# the label is spelled with "/" for ":")
(my $low_pgb = $low) =~ tr{:}{/};
my $low_pgb_sql = "labelam.set_client_label(translate('$low_pgb', '/', chr(58)))";
my $set_low_pgb = "SELECT $low_pgb_sql;";
$node->pgbench('-n -t 1 -M extended -U r_app', 2, [qr{^$|processed}],
	[qr{cannot change the client label within a pipeline}],
	'attack: lowering after another statement of a pipeline is refused',
	{ '220_pipeline_late' => "\\startpipeline\nSELECT 1;\n$set_low_pgb\n\\endpipeline\n" });
my $lower_and_write = "WITH l AS (SELECT $low_pgb_sql) INSERT INTO doc SELECT 7, 'pipe' FROM l;";
$node->pgbench('-n -t 1 -M extended -U r_app', 2, [qr{^$|processed}],
	[qr{division by zero}],
	'attack: a pipeline lowering first and failing later',
	{ '220_pipeline_first' => "\\startpipeline\n$lower_and_write\nINSERT INTO doc VALUES (4, 'pipe');\nSELECT 1 / 0;\n\\endpipeline\n" });
is($node->safe_psql('postgres', "SELECT string_agg(id::text, ',' ORDER BY id) FROM doc WHERE lvl = 'pipe'",
	extra_params => [ '-U', 'r_s0' ]),
	'7', 'attack: ... the lowering statement committed alone, at s0; what ran after it rolled back');
$node->safe_psql('postgres', "DELETE FROM doc WHERE id = 7", extra_params => [ '-U', 'r_s0' ]);

# the extended protocol outside a pipeline lowers as the simple one does
# (the unnamed portal running the statement is no open cursor)
$node->pgbench('-n -t 1 -M extended -U r_app', 0, [qr{processed: 1/1}], [qr{^$}],
	'lowering through the extended protocol works (control)',
	{ '220_extended' => "$set_low_pgb\nINSERT INTO doc VALUES (5, 'ext');\n" });
is($node->safe_psql('postgres', "SELECT count(*) FROM doc WHERE id = 5", extra_params => [ '-U', 'r_s0' ]),
	'1', '... and its next statement wrote at s0');

is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('doc')"), '0', 'no damaged label');

$node->stop;
done_testing();
