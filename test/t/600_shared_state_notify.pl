# test/t/600_shared_state_notify.pl -- write-down through NOTIFY (issue 38):
# Trojan horses an s0 administrator planted (triggers, rules, a column
# default, an index expression, constraints, an event trigger, a trusted
# procedure, a SECURITY DEFINER function, a view, contrib/tcn) fire in an
# s3 session that only inserts or selects, and try to deliver what it
# reads to an s0 session listening on the channel: by payload, by channel
# name, by the mere occurrence of a notification, by a forged label.
# Design (src/shared_state/notify.c): every notification carries its
# sender's write label and reaches only listeners whose label may read it.
# Controls: an s3 listener receives the same notifications intact, an s0
# sender reaches both, and the payload limit is PostgreSQL's less the
# label.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;
use LabelamShared;

my $node = shared_node('notify');
$node->safe_psql('postgres', q{
	CREATE EXTENSION tcn;
	CREATE FUNCTION trojan_notify() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM pg_notify('leak', NEW.v); RETURN NEW; END $$;
	CREATE FUNCTION trojan_notify_stmt() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN EXECUTE format('NOTIFY leak, %L', NEW.v); RETURN NEW; END $$;
	CREATE FUNCTION trojan_bits() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM pg_notify('bit_' || length(NEW.v) % 2, ''); RETURN NEW; END $$;
	CREATE FUNCTION leak_vault() RETURNS text LANGUAGE sql
		AS $$ SELECT pg_notify('leak', (SELECT string_agg(v, ',' ORDER BY id) FROM vault))::text $$;
	CREATE FUNCTION leak_idx(text) RETURNS int LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN PERFORM pg_notify('leak', $1); RETURN 1; END $$;
	CREATE FUNCTION leak_chk(text) RETURNS bool LANGUAGE plpgsql
		AS $$ BEGIN PERFORM pg_notify('leak', $1); RETURN true; END $$;
	CREATE FUNCTION leak_trusted() RETURNS void LANGUAGE sql
		AS $$ SELECT pg_notify('leak', (SELECT string_agg(v, ',' ORDER BY id) FROM vault)) $$;
	SECURITY LABEL FOR selinux ON FUNCTION leak_trusted()
		IS 'system_u:object_r:sepgsql_trusted_proc_exec_t:s0';
	CREATE FUNCTION leak_definer() RETURNS void LANGUAGE plpgsql SECURITY DEFINER
		AS $$ BEGIN PERFORM pg_notify('leak', (SELECT string_agg(v, ',' ORDER BY id) FROM vault)); END $$;
	CREATE FUNCTION leak_atomic(t text) RETURNS void LANGUAGE sql
		BEGIN ATOMIC SELECT pg_notify('leak', t); END;
	CREATE VIEW leak_view AS SELECT pg_notify('leak', v)::text AS n FROM vault;

	CREATE TABLE in_trigger (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_trigger FOR EACH ROW EXECUTE FUNCTION trojan_notify();
	CREATE TABLE in_stmt (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_stmt FOR EACH ROW EXECUTE FUNCTION trojan_notify_stmt();
	CREATE TABLE in_rule (id int, v text) USING labelheap;
	CREATE RULE r AS ON INSERT TO in_rule DO ALSO SELECT pg_notify('leak', NEW.v);
	CREATE TABLE in_rule_notify (id int, v text) USING labelheap;
	CREATE RULE r AS ON INSERT TO in_rule_notify DO ALSO NOTIFY leak_rule;
	CREATE TABLE in_default (id int, v text, d text DEFAULT leak_vault()) USING labelheap;
	CREATE TABLE in_index (id int, v text) USING labelheap;
	CREATE INDEX ON in_index ((leak_idx(v)));
	CREATE TABLE in_check (id int, v text CHECK (leak_chk(v))) USING labelheap;
	CREATE TABLE in_check_direct (id int, v text CHECK (pg_notify('leak', v) IS NOT NULL)) USING labelheap;
	CREATE TABLE in_bits (id int, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_bits FOR EACH ROW EXECUTE FUNCTION trojan_bits();
	CREATE TABLE in_tcn (id int PRIMARY KEY, v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON in_tcn FOR EACH ROW
		EXECUTE FUNCTION triggered_change_notification('leak');
	GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;
});

my @channels = qw(leak leak_rule bit_0 bit_1 ctl);
my $l0 = listener($node, 'r_s0', @channels);
my $l3 = listener($node, 'r_s3b', @channels);
my ($rc, $out, $err, $o0, $o3);

# attack(name, sql as r_s3, delivered at s3): the s0 listener gets nothing
# of it; the s3 listener (control) gets a notification whose payload is a
# hidden value, if delivered is set
sub attack
{
	my ($name, $sql, $delivered) = @_;
	($rc, $out, $err) = run($node, 'r_s3', $sql);
	($o0, $o3) = drain($node, $l0, $l3);
	no_leak('s0', "attack: $name", $o0);
	if ($delivered)
	{
		like($o3, qr/with payload "[^"]*SECRET-s3/,
			"control: an s3 listener receives it ($name)");
	}
	return $err;
}

attack('AFTER INSERT trigger calling pg_notify(NEW.v)',
	q{INSERT INTO in_trigger VALUES (31, 'SECRET-s3-trigger')}, 1);
unlike($l0->query_safe('SELECT 1'), qr/notification "leak"/,
	'... not even the occurrence reaches the s0 listener');
attack('trigger running NOTIFY through EXECUTE',
	q{INSERT INTO in_stmt VALUES (31, 'SECRET-s3-stmt')}, 1);
attack('rule ON INSERT DO ALSO SELECT pg_notify',
	q{INSERT INTO in_rule VALUES (31, 'SECRET-s3-rule')}, 1);
attack('rule ON INSERT DO ALSO NOTIFY (the occurrence)',
	q{INSERT INTO in_rule_notify VALUES (31, 'SECRET-s3-rule')});
unlike($o0, qr/notification "leak_rule"/, '... the s0 listener hears of no insert');
like($o3, qr/notification "leak_rule"/, 'control: the s3 listener does');
attack('column default calling an SQL function that notifies what it selects',
	q{INSERT INTO in_default (id, v) VALUES (31, 'x')}, 1);
attack('the same default through COPY FROM (evaluated unplanned)',
	"COPY in_default (id, v) FROM STDIN;\n32\tx\n\\.\n", 1);
attack('index expression notifying the key',
	q{INSERT INTO in_index VALUES (31, 'SECRET-s3-index')}, 1);
attack('CHECK constraint through a PL/pgSQL function',
	q{INSERT INTO in_check VALUES (31, 'SECRET-s3-check')}, 1);
$err = attack('CHECK constraint calling pg_notify directly (never planned)',
	q{INSERT INTO in_check_direct VALUES (31, 'SECRET-s3-check')});
like($err, qr/ERROR:  42501: pg_notify\(\) cannot label its notification where it is called/,
	'... refused: its notification could not be labeled');
attack('channel name chosen by the hidden value',
	q{INSERT INTO in_bits VALUES (31, 'SECRET-s3-bits')});
unlike($o0, qr/notification "bit_/, '... no bit reaches the s0 listener');
like($o3, qr/notification "bit_0"/, 'control: the s3 listener gets the bit (the length of the value is even)');
attack('trusted procedure notifying what it selects',
	q{SELECT leak_trusted()}, 1);
attack('SECURITY DEFINER function of the s0 administrator',
	q{SELECT leak_definer()}, 1);
attack('view calling pg_notify for each row', q{SELECT count(*) FROM leak_view}, 1);
attack('SQL function with a BEGIN ATOMIC body',
	q{SELECT leak_atomic((SELECT v FROM vault WHERE id = 31))}, 1);
attack('pg_notify in FROM', q{SELECT * FROM pg_notify('leak', (SELECT v FROM vault WHERE id = 31))}, 1);
attack('the s3 session itself: NOTIFY and pg_notify in a transaction',
	q{BEGIN; NOTIFY leak, 'SECRET-s3-direct'; SELECT pg_notify('leak', v) FROM vault WHERE id = 31; COMMIT}, 1);
attack('DO block with dynamic NOTIFY',
	q{DO $$ BEGIN EXECUTE format('NOTIFY leak, %L', (SELECT v FROM vault WHERE id = 31)); END $$}, 1);
attack('a payload forging an s0 label',
	q{SELECT pg_notify('leak', E'\x1fstaff_u:object_r:sepgsql_table_t:s0\x1fSECRET-s3-forged')});
like($o3, qr/payload "\x1fstaff_u:object_r:sepgsql_table_t:s0\x1fSECRET-s3-forged"/,
	'control: the s3 listener gets the forged payload as it was sent');

# an event trigger firing in the s3 session (whose DDL is refused: catalogs)
$node->safe_psql('postgres', q{
	CREATE FUNCTION leak_evt() RETURNS event_trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM pg_notify('leak', (SELECT string_agg(v, ',' ORDER BY id) FROM vault)); END $$;
	CREATE EVENT TRIGGER leak_evt ON ddl_command_start EXECUTE FUNCTION leak_evt();
});
attack('event trigger on the s3 session\'s DDL',
	q{DO $$ BEGIN CREATE TEMP TABLE tt (a int); EXCEPTION WHEN others THEN NULL; END $$});
$node->safe_psql('postgres', 'DROP EVENT TRIGGER leak_evt');

# contrib/tcn queues its notifications itself: refused, at every level
$err = attack('contrib/tcn\'s trigger', q{INSERT INTO in_tcn VALUES (31, 'SECRET-s3-tcn')});
like($err, qr/ERROR:  0A000: triggered_change_notification\(\) sends notifications that labelam cannot label/,
	'... refused, as it cannot be labeled');
($rc, $out, $err) = run($node, 'r_s0', q{INSERT INTO in_tcn VALUES (1, 'public-s0-tcn')});
like($err, qr/0A000/, '... at s0 too (a documented change)');

# controls: one level, reading down, self-delivery, empty payload
$node->safe_psql('postgres', q{INSERT INTO in_trigger VALUES (1, 'public-s0-trigger')},
	extra_params => [ '-U', 'r_s0' ]);
($o0, $o3) = drain($node, $l0, $l3);
like($o0, qr/notification "leak" with payload "public-s0-trigger"/,
	'control: the Trojan channel works between sessions of s0');
like($o3, qr/notification "leak" with payload "public-s0-trigger"/,
	'control: an s3 listener reads the s0 notification (reading down)');
like($l3->query_safe(q{NOTIFY leak, 'SECRET-s3-self'; SELECT 'done'}),
	qr/payload "SECRET-s3-self"/, 'control: a session receives its own notification');
$node->safe_psql('postgres', q{NOTIFY leak}, extra_params => [ '-U', 'r_s0' ]);
($o0) = drain($node, $l0);
like($o0, qr/notification "leak" received/, 'control: a notification without payload arrives as one');

# the payload limit is PostgreSQL's less the label
($rc, $out, $err) = run($node, 'r_s3', q{SELECT pg_notify('leak', repeat('x', 7990))});
like($err, qr/ERROR:  22023: payload string too long\nDETAIL:  labelam stores the sender's security label/,
	'a payload that would be too long with its label is refused, saying why');
($rc, $out, $err) = run($node, 'r_s3', q{SELECT pg_notify('leak', 'SECRET-s3-' || repeat('x', 7900))});
is($err, '', 'a payload within the reduced limit is sent');
($o0, $o3) = drain($node, $l0, $l3);
no_leak('s0', 'attack: a long payload does not reach s0', $o0);
like($o3, qr/payload "SECRET-s3-x{7900}"/, 'control: the s3 listener receives it whole');

# calls of pg_notify are planned as calls of its checked twin
($rc, $out, $err) = run($node, 'r_s0', q{EXPLAIN (VERBOSE, COSTS OFF) SELECT pg_notify('leak', 'x')});
like($out, qr/labelam\.checked_pg_notify/, 'pg_notify is planned as its checked twin');

$l0->quit;
$l3->quit;
$node->stop;
done_testing();
