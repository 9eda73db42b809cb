# test/t/604_shared_state_trojans.pl -- every Trojan vector against every
# channel (issue 38): one function, leak(x), planted by the s0
# administrator, copies x into every piece of server state a function can
# write (a notification, application_name, an advisory lock keyed by it,
# a temporary table named after it, its role's settings, a comment, a
# large object whose OID it chooses), catching the refusals so that the
# statement it runs in commits.  It is called from an AFTER and a BEFORE
# trigger, a rule, a column default (through INSERT and COPY FROM), an
# index expression, a CHECK constraint, an event trigger, a trusted
# procedure, a SECURITY DEFINER function, a view and an SQL function, in
# one s3 session that only inserts, copies or selects; after each, an s0
# session (with pg_read_all_stats) looks at every channel.  Controls: a
# second s3 session finds the values in the channels that are filtered,
# and the same function run at s0 reaches the s0 session through all of
# them.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;
use LabelamShared;

my $node = shared_node('trojans');
$node->safe_psql('postgres', q{
	CREATE TABLE target (a int);
	GRANT SELECT ON target TO PUBLIC;
	CREATE FUNCTION leak_comment(x text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
		AS $$ BEGIN EXECUTE format('COMMENT ON TABLE target IS %L', x); END $$;
	CREATE FUNCTION leak(x text) RETURNS int LANGUAGE plpgsql AS $$
	BEGIN
		PERFORM pg_notify('leak', x);
		PERFORM set_config('application_name', x, false);
		PERFORM pg_advisory_lock(hashtext(x));
		BEGIN EXECUTE format('CREATE TEMP TABLE %I (a int)', x);
		EXCEPTION WHEN insufficient_privilege THEN NULL; END;
		BEGIN EXECUTE format('ALTER ROLE CURRENT_USER SET application_name = %L', x);
		EXCEPTION WHEN insufficient_privilege THEN NULL; END;
		BEGIN PERFORM leak_comment(x);
		EXCEPTION WHEN insufficient_privilege THEN NULL; END;
		BEGIN PERFORM lo_create(100000 + abs(hashtext(x)) % 100000);
		EXCEPTION WHEN insufficient_privilege THEN NULL; END;
		RETURN 1;
	END $$;
	CREATE FUNCTION leak_idx(x text) RETURNS int LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN RETURN leak(x || '-index'); END $$;
	CREATE FUNCTION leak_chk(x text) RETURNS bool LANGUAGE plpgsql
		AS $$ BEGIN RETURN leak(x || '-check') = 1; END $$;
	CREATE FUNCTION leak_default() RETURNS text LANGUAGE plpgsql
		AS $$ BEGIN PERFORM leak((SELECT v FROM vault WHERE id = 31) || '-default-' || nextval('seq')); RETURN 'd'; END $$;
	CREATE SEQUENCE seq;
	GRANT ALL ON seq TO PUBLIC;
	CREATE FUNCTION leak_trusted() RETURNS int LANGUAGE sql
		AS $$ SELECT leak(v || '-trusted') FROM vault WHERE id = 31 $$;
	SECURITY LABEL FOR selinux ON FUNCTION leak_trusted()
		IS 'system_u:object_r:sepgsql_trusted_proc_exec_t:s0';
	CREATE FUNCTION leak_definer() RETURNS int LANGUAGE plpgsql SECURITY DEFINER
		AS $$ BEGIN RETURN leak((SELECT v FROM vault WHERE id = 31) || '-definer'); END $$;
	CREATE FUNCTION leak_sql(x text) RETURNS int LANGUAGE sql AS 'SELECT leak(x)';
	CREATE VIEW leak_view AS SELECT leak(v || '-view') AS n FROM vault;
	CREATE FUNCTION trig_after() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM leak(NEW.v); RETURN NEW; END $$;
	CREATE FUNCTION trig_before() RETURNS trigger LANGUAGE plpgsql
		AS $$ BEGIN PERFORM leak(NEW.v); RETURN NEW; END $$;
	-- (leak's own DDL would fire it again: once is enough)
	CREATE FUNCTION trig_event() RETURNS event_trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF current_setting('leak.in_event', true) = 'on' THEN RETURN; END IF;
		PERFORM set_config('leak.in_event', 'on', true);
		PERFORM leak((SELECT v FROM vault WHERE id = 31) || '-event');
		PERFORM set_config('leak.in_event', 'off', true);
	END $$;

	CREATE TABLE v_after (v text) USING labelheap;
	CREATE TRIGGER t AFTER INSERT ON v_after FOR EACH ROW EXECUTE FUNCTION trig_after();
	CREATE TABLE v_before (v text) USING labelheap;
	CREATE TRIGGER t BEFORE INSERT ON v_before FOR EACH ROW EXECUTE FUNCTION trig_before();
	CREATE TABLE v_rule (v text) USING labelheap;
	CREATE RULE r AS ON INSERT TO v_rule DO ALSO SELECT leak(NEW.v);
	CREATE TABLE v_default (v text, d text DEFAULT leak_default()) USING labelheap;
	CREATE TABLE v_index (v text) USING labelheap;
	CREATE INDEX ON v_index ((leak_idx(v)));
	CREATE TABLE v_check (v text CHECK (leak_chk(v))) USING labelheap;
	GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC;
});

# what an s0 session can read of every channel leak() writes (but the
# notifications, which its listener collects)
my $channels = q{
	SELECT string_agg(coalesce(application_name, ''), ',') FROM pg_stat_activity;
	SELECT 'locks:' || count(*) FROM pg_locks WHERE locktype = 'advisory';
	SELECT string_agg(relname, ',') FROM pg_class WHERE relpersistence = 't';
	SELECT string_agg(array_to_string(setconfig, ','), ';') FROM pg_db_role_setting;
	SELECT 'comment:' || coalesce(obj_description('target'::regclass, 'pg_class'), '');
	SELECT 'lo:' || count(*) FROM pg_largeobject_metadata;
};

my $l0 = listener($node, 'r_s0', qw(leak ctl));
my $l3 = listener($node, 'r_s3b', qw(leak ctl));
my $high = $node->background_psql('postgres', extra_params => [ '-U', 'r_s3' ],
	on_error_stop => 0);

my @vectors = (
	[ 'AFTER INSERT trigger', q{INSERT INTO v_after VALUES ('SECRET-s3-after')} ],
	[ 'BEFORE INSERT trigger', q{INSERT INTO v_before VALUES ('SECRET-s3-before')} ],
	[ 'rule', q{INSERT INTO v_rule VALUES ('SECRET-s3-rule')} ],
	[ 'column default', q{INSERT INTO v_default (v) VALUES ('x')} ],
	[ 'column default through COPY FROM', "COPY v_default (v) FROM STDIN;\nx\n\\.\n" ],
	[ 'index expression', q{INSERT INTO v_index VALUES ('SECRET-s3-idx')} ],
	[ 'CHECK constraint', q{INSERT INTO v_check VALUES ('SECRET-s3-chk')} ],
	[ 'trusted procedure', q{SELECT leak_trusted()} ],
	[ 'SECURITY DEFINER function', q{SELECT leak_definer()} ],
	[ 'view', q{SELECT count(*) FROM leak_view} ],
	[ 'SQL function', q{SELECT leak_sql(v || '-sql') FROM vault WHERE id = 31} ],
);

my $n = 0;
for my $vec (@vectors)
{
	my ($name, $sql) = @$vec;
	if ($sql =~ /^COPY/)
	{
		# COPY's data through psql's stdin: a session of its own
		my ($rc, $out, $err) = run($node, 'r_s3', $sql);
		is($err, '', "the s3 session's COPY commits ($name)");
	}
	else
	{
		$high->query_safe($sql);
	}
	$n++;
	my ($o0) = drain($node, $l0);
	no_leak('s0', "attack: $name, every channel", $o0, as_role($node, 'r_s0', $channels));
}

# an event trigger: fires in the s3 session's DDL, which the catalogs refuse
$node->safe_psql('postgres', q{CREATE EVENT TRIGGER leak_evt ON ddl_command_start EXECUTE FUNCTION trig_event()});
$high->query_safe(q{DO $$ BEGIN CREATE TEMP TABLE tt (a int); EXCEPTION WHEN insufficient_privilege THEN NULL; END $$});
my ($o0) = drain($node, $l0);
no_leak('s0', 'attack: event trigger, every channel', $o0, as_role($node, 'r_s0', $channels));
$node->safe_psql('postgres', q{DROP EVENT TRIGGER leak_evt});

# controls: what is filtered is there for another s3 session
my ($o3) = drain($node, $l3);
my $seen3 = as_role($node, 'r_s3b', $channels);
like($o3, qr/payload "SECRET-s3-after".*payload "SECRET-s3-1-sql"/s,
	'control: an s3 listener received the notifications');
like($seen3, qr/SECRET-s3-1-sql/, 'control: an s3 session reads the s3 session\'s application_name');
like($seen3, qr/^locks:(\d+)$/m, 'control: and its advisory locks');
my ($locks) = $seen3 =~ /^locks:(\d+)$/m;
cmp_ok($locks, '>=', scalar(@vectors) - 1, '... one for each vector that ran in the session');

# control: the same function at s0 reaches the s0 session through every
# channel
$node->safe_psql('postgres', q{SELECT leak('public-s0-direct')}, extra_params => [ '-U', 'r_s0' ]);
($o0) = drain($node, $l0);
like($o0, qr/payload "public-s0-direct"/, 'control: at s0, the notification arrives');
my $low = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0' ]);
$low->query_safe(q{SELECT leak('public-s0-held')});
my $seen0 = as_role($node, 'r_s0', $channels);
like($seen0, qr/public-s0-held/, 'control: at s0, application_name');
like($seen0, qr/public-s0-held,|public-s0-held$/m, 'control: at s0, the temporary table');
like($seen0, qr/application_name=public-s0-(direct|held)/, 'control: at s0, the role setting');
like($seen0, qr/comment:public-s0-(direct|held)/, 'control: at s0, the comment');
like($seen0, qr/lo:[12]/, 'control: at s0, the large object');

$_->quit for ($l0, $l3, $high, $low);
$node->stop;
done_testing();
