# test/t/601_shared_state_activity.pl -- write-down through the views of
# other backends' state (issue 38): an s3 session's application_name
# (set by a Trojan trigger), query text, state and wait events
# (pg_stat_activity, pg_stat_get_backend_*, pg_stat_ssl, pg_stat_gssapi),
# the keys of advisory locks a Trojan trigger takes (pg_locks), a COPY's
# progress (pg_stat_progress_copy) and a prepared transaction's name
# (pg_prepared_xacts, and its locks), read by an s0 session that holds
# pg_read_all_stats, through the views, the functions, SQL and PL/pgSQL
# wrappers.  Design (src/shared_state/activity.c): a backend whose write
# label the reader may not read is shown as to an unprivileged role, with
# application_name NULL; its locks and prepared transactions are not
# listed.  Controls: a second s3 session sees all of it, s0 sees its own,
# s3 reads s0's, and a prepared transaction keeps its label across a
# restart.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use LabelamTest;
use LabelamAttack;
use LabelamShared;

my $node = shared_node('activity');
$node->safe_psql('postgres', q{
	CREATE FUNCTION trojan_appname() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM set_config('application_name', NEW.v, false); RETURN NEW; END $$;
	CREATE TABLE in_app (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_app FOR EACH ROW EXECUTE FUNCTION trojan_appname();
	CREATE FUNCTION trojan_lock() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM pg_advisory_lock(NEW.id * 1000 + 7); RETURN NEW; END $$;
	CREATE TABLE in_lock (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_lock FOR EACH ROW EXECUTE FUNCTION trojan_lock();
	CREATE TABLE in_copy (id int, v text) USING labelheap;
	CREATE FUNCTION sql_activity() RETURNS SETOF text LANGUAGE sql
		AS $$ SELECT application_name || ' ' || query FROM pg_stat_activity $$;
	CREATE FUNCTION plpgsql_activity() RETURNS text LANGUAGE plpgsql
		AS $$ BEGIN RETURN (SELECT string_agg(application_name || ' ' || query, ';') FROM pg_stat_activity); END $$;
	CREATE TABLE checked_status (a int CHECK (pg_stat_get_backend_activity(1) IS NOT NULL OR a > 0));
	GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;
});

my ($rc, $out, $err);

# the s3 session: a Trojan trigger sets its application_name and takes an
# advisory lock keyed by the row, then it runs a query naming a secret
my $high = $node->background_psql('postgres', extra_params => [ '-U', 'r_s3' ]);
my $hpid = $high->query_safe('SELECT pg_backend_pid()');
$high->query_safe(q{INSERT INTO in_app VALUES (31, 'SECRET-s3-app')});
$high->query_safe(q{INSERT INTO in_lock VALUES (31, 'x')});
$high->query_safe(q{SELECT 'SECRET-s3-query' AS q});

# wait_as(role, sql): until sql returns 't' for role (10 s)
sub wait_as
{
	my ($role, $sql) = @_;
	for (1 .. 200)
	{
		return 1 if as_role($node, $role, $sql) eq 't';
		usleep(50_000);
	}
	return 0;
}

sub as_s0 { my ($sql) = @_; ($rc, $out, $err) = run($node, 'r_s0', $sql); return $out; }
sub as_s3b { return as_role($node, 'r_s3b', $_[0]); }

# pg_stat_activity
my $view = q{SELECT concat_ws('|', application_name, query, state, backend_type, client_port, backend_start, xact_start, query_start, state_change) FROM pg_stat_activity WHERE pid = } . $hpid;
no_leak('s0', 'attack: application_name a Trojan trigger set, and the query text, in pg_stat_activity', as_s0($view), $err);
is(as_s0(qq{SELECT coalesce(application_name, 'NULL') || ' ' || query || ' ' || coalesce(state, 'NULL') FROM pg_stat_activity WHERE pid = $hpid}),
	'NULL <insufficient privilege> NULL', '... the s3 backend is shown as to an unprivileged role, application_name NULL');
like(as_s3b($view), qr/^SECRET-s3-app\|SELECT 'SECRET-s3-query' AS q\s*;?\|idle\|client backend/,
	'control: another s3 session reads both');
like(as_s0(q{SELECT query FROM pg_stat_activity WHERE pid = pg_backend_pid()}),
	qr/pg_stat_activity WHERE pid = pg_backend_pid\(\)/, 'control: s0 reads its own row');
no_leak('s0', 'attack: pg_stat_get_activity(pid) called directly',
	as_s0(qq{SELECT * FROM pg_stat_get_activity($hpid)}), $err);
no_leak('s0', 'attack: through an SQL function (inlined)', as_s0(q{SELECT * FROM sql_activity()}), $err);
no_leak('s0', 'attack: through a PL/pgSQL function', as_s0(q{SELECT plpgsql_activity()}), $err);
no_leak('s0', 'attack: pg_stat_get_backend_activity and kin over every backend id',
	as_s0(q{SELECT pg_stat_get_backend_activity(b), pg_stat_get_backend_wait_event(b),
		pg_stat_get_backend_wait_event_type(b), pg_stat_get_backend_activity_start(b),
		pg_stat_get_backend_xact_start(b), pg_stat_get_backend_start(b),
		pg_stat_get_backend_client_addr(b), pg_stat_get_backend_client_port(b)
		FROM pg_stat_get_backend_idset() b}), $err);
is(as_s0(qq{SELECT count(*) FROM pg_stat_get_backend_idset() b
	WHERE pg_stat_get_backend_pid(b) = $hpid AND pg_stat_get_backend_activity(b) = '<insufficient privilege>'
	AND pg_stat_get_backend_start(b) IS NULL}), '1', '... which show the s3 backend as to an unprivileged role');
like(as_s3b(q{SELECT string_agg(pg_stat_get_backend_activity(b), ',') FROM pg_stat_get_backend_idset() b}),
	qr/SECRET-s3-query/, 'control: another s3 session reads it there');
is(as_s0(qq{SELECT count(*) FROM pg_stat_ssl WHERE pid = $hpid}), '0',
	'attack: pg_stat_ssl shows nothing of the s3 connection');
is(as_s0(qq{SELECT count(*) FROM pg_stat_gssapi WHERE pid = $hpid}), '0',
	'attack: nor pg_stat_gssapi');
is(as_s3b(qq{SELECT ssl FROM pg_stat_ssl WHERE pid = $hpid}), 'f', 'control: another s3 session reads it');
my $low = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
$low->query_safe(q{SET application_name = 'public-s0-app'});
like(as_s3b(q{SELECT string_agg(application_name || ' ' || query, ',') FROM pg_stat_activity WHERE usename = 'r_s0'}),
	qr/public-s0-app SET application_name/, 'control: s3 reads an s0 session\'s row (reading down)');
($rc, $out, $err) = run($node, 'r_s0', q{INSERT INTO checked_status VALUES (1)});
like($err, qr/ERROR:  42501: permission denied to call pg_stat_get_backend_activity\(\) here/,
	'attack: a call no query plans (a CHECK constraint) is refused while a backend is hidden');

# an advisory lock keyed by the hidden row
is(as_s0(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 31007}), '0',
	'attack: pg_locks shows no advisory lock keyed by the s3 row');
is(as_s0(qq{SELECT count(*) FROM pg_locks WHERE pid = $hpid}), '0', '... nor any lock of the s3 backend');
is(as_s3b(q{SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 31007}), '1',
	'control: another s3 session sees the lock');
is(as_s0(q{SELECT pg_try_advisory_lock(31007)}), 'f',
	'covert channel (documented): taking the lock still fails');

# state and wait event of a waiting s3 query
my $blocker = $node->background_psql('postgres', extra_params => [ '-U', 'r_s3b' ]);
$blocker->query_safe('SELECT pg_advisory_lock(99)');
my $waiter = $node->background_psql('postgres', extra_params => [ '-U', 'r_s3' ]);
my $wpid = $waiter->query_safe('SELECT pg_backend_pid()');
$waiter->query_until(qr/sent/, "\\echo sent\nSELECT pg_advisory_lock(99), 'SECRET-s3-waiting';\n");
wait_as('r_s3b', qq{SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $wpid})
  or die 'the s3 query does not wait';
my $st = as_s0(qq{SELECT concat_ws('|', coalesce(wait_event_type, 'NULL'), coalesce(wait_event, 'NULL'), coalesce(state, 'NULL'), query) FROM pg_stat_activity WHERE pid = $wpid});
is($st, 'NULL|NULL|NULL|<insufficient privilege>', 'attack: the wait event and state of a waiting s3 query');
like(as_s3b(qq{SELECT concat_ws('|', wait_event_type, wait_event, state, query) FROM pg_stat_activity WHERE pid = $wpid}),
	qr/^Lock\|advisory\|active\|SELECT pg_advisory_lock\(99\), 'SECRET-s3-waiting'/, 'control: another s3 session sees them');
is(as_s0(qq{SELECT count(*) FROM pg_locks WHERE pid = $wpid AND NOT granted}), '0',
	'attack: the lock it waits for is not listed for s0');
$blocker->query_safe('SELECT pg_advisory_unlock(99)');
$waiter->query_safe('SELECT 1');

# a COPY's progress
my $copier = $node->background_psql('postgres', extra_params => [ '-U', 'r_s3' ]);
my $cpid = $copier->query_safe('SELECT pg_backend_pid()');
$copier->{stdin} .= "COPY in_copy FROM STDIN;\n31\tSECRET-s3-copy\n";
$copier->{run}->pump_nb();
wait_as('r_s3b', qq{SELECT count(*) = 1 FROM pg_stat_progress_copy WHERE pid = $cpid})
  or die 'no COPY in progress';
is(as_s0(qq{SELECT coalesce(relid::text, 'NULL') || ' ' || coalesce(command, 'NULL') FROM pg_stat_progress_copy WHERE pid = $cpid}),
	'NULL NULL', 'attack: the table and command of an s3 COPY in progress');
is(as_s3b(qq{SELECT relid::regclass || ' ' || command FROM pg_stat_progress_copy WHERE pid = $cpid}),
	'in_copy COPY FROM', 'control: another s3 session sees them');
is(as_s0(qq{SELECT count(*) FROM pg_stat_get_progress_info('COPY') WHERE pid = $cpid AND relid IS NULL AND param1 IS NULL}), '1',
	'attack: pg_stat_get_progress_info shows its pid and database only');
$copier->{stdin} .= "\\.\n";
$copier->query_safe('SELECT 1');

# a prepared transaction's name and locks
$_->quit for ($high, $blocker, $waiter, $copier, $low);
$node->safe_psql('postgres', q{BEGIN; INSERT INTO in_copy VALUES (32, 'x'); PREPARE TRANSACTION 'SECRET-s3-gid'},
	extra_params => [ '-U', 'r_s3' ]);
no_leak('s0', 'attack: pg_prepared_xacts', as_s0(q{SELECT * FROM pg_prepared_xacts}), $err);
is(as_s0(q{SELECT count(*) FROM pg_locks WHERE pid IS NULL}), '0', 'attack: the prepared transaction\'s locks in pg_locks');
is(as_s3b(q{SELECT gid FROM pg_prepared_xacts}), 'SECRET-s3-gid', 'control: another s3 session sees it');
ok(as_s3b(q{SELECT count(*) FROM pg_locks WHERE pid IS NULL}) > 0, 'control: and its locks');
$node->restart;
no_leak('s0', 'attack: pg_prepared_xacts after a restart', as_s0(q{SELECT * FROM pg_prepared_xacts}), $err);
is(as_s3b(q{SELECT gid FROM pg_prepared_xacts}), 'SECRET-s3-gid', 'control: its label survives the restart');
ok(as_s3b(q{SELECT count(*) FROM pg_locks WHERE pid IS NULL}) > 0, 'control: and its locks, after the restart');
$node->safe_psql('postgres', q{COMMIT PREPARED 'SECRET-s3-gid'}, extra_params => [ '-U', 'r_s3' ]);
$node->safe_psql('postgres', q{BEGIN; INSERT INTO in_copy VALUES (1, 'x'); PREPARE TRANSACTION 'public-s0-gid'},
	extra_params => [ '-U', 'r_s0' ]);
is(as_s3b(q{SELECT gid FROM pg_prepared_xacts}), 'public-s0-gid', 'control: s3 sees an s0 prepared transaction');
is(as_s0(q{SELECT gid FROM pg_prepared_xacts}), 'public-s0-gid', 'control: so does s0');
$node->safe_psql('postgres', q{ROLLBACK PREPARED 'public-s0-gid'});
# PREPARE of a failed transaction block only rolls it back, as on heap
# (the preparer's label was once computed there, from the catalogs of an
# aborted transaction: an assert-enabled server aborted).  The block's
# last statement rolls back a subtransaction before it fails, which makes
# the session's cached write label stale, as concurrent DDL can.
my ($rc, $out, $perr) = $node->psql('postgres',
	q{BEGIN; INSERT INTO in_copy VALUES (33, 'x');
	DO $$BEGIN BEGIN PERFORM 1/0; EXCEPTION WHEN division_by_zero THEN NULL; END; PERFORM 1/0; END$$;
	PREPARE TRANSACTION 'failed-gid'; SELECT 'alive'},
	on_error_stop => 0, extra_params => [ '-U', 'r_s3' ]);
is($out, 'alive', 'PREPARE of a failed block: the session goes on');
is(as_s3b(q{SELECT count(*) FROM pg_prepared_xacts}) . ' ' . as_s3b(q{SELECT count(*) FROM in_copy WHERE id = 33}),
	'0 0', 'PREPARE of a failed block: nothing prepared, nothing kept');

# the views' calls are planned as calls of the checked twins
like(as_s0(q{EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM pg_stat_activity, pg_locks, pg_prepared_xacts}),
	qr/labelam\.checked_pg_stat_get_activity.*labelam\.checked_pg_lock_status|labelam\.checked_pg_lock_status.*labelam\.checked_pg_stat_get_activity/s,
	'the views read the checked twins');
SKIP:
{
	skip 'pg_aios is new in 18', 1 unless $node->pg_version >= 18;
	# an I/O in flight lasts too short a time to be caught by another
	# session reliably: the plan and the refusal of untwinned calls are
	# what is asserted (the filter is activity.c's aio_row, by pid, as
	# pg_locks' rows are)
	like(as_s0(q{EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM pg_aios}),
		qr/labelam\.checked_pg_get_aios/, '18: pg_aios reads the checked twin');
}

$node->stop;
done_testing();
