# test/t/241_am_attack_trusted_code.pl -- adversarial tests of the
# maintenance subject (issue 33): code that a maintenance session runs on
# the user's behalf gets no exemption.
#
# The attacker is the s0 administrator (staff_u:sysadm_r:sysadm_t:s0, a
# superuser, so that it may also create event triggers), who owns table t
# (rows at s0, s1, s3) and plants code the maintenance session
# (labelam_maint_t:s0-s15:c0.c1023) fires: triggers, an index expression,
# a default, a generated column, CHECK constraints, a USING expression,
# a rule, an event trigger.  Each tries to hand a high row to s0: copying
# it into a labelheap table or a heap table the attacker reads, a
# sequence, a large object, a notification, an error message it stores.
# That code decides as the maintenance session's label narrowed to its
# clearance: it may read every row, but what it writes into labelheap
# tables is labeled at the clearance (no s0 or s3 session reads it), and
# writes below (heap tables, sequences, large objects) and notifications
# are refused (42501), with the command that fired them.  After each
# attack the attacker's s0 view of its tables, sequence and large object
# shows nothing above s0.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $MAINT = 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023';
my $TOP_ROW = 'system_u:object_r:sepgsql_table_t:s15:c0.c1023';

my $node = attack_node('attack_trusted_code', "autovacuum = off\n",
	objects => 1, policy => labelam_policy());

$node->safe_psql('postgres', qq{
	CREATE ROLE a_maint LOGIN SUPERUSER;
	CREATE ROLE a_s0 LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('a_maint', '$MAINT'),
		('a_s0', 'staff_u:sysadm_r:sysadm_t:s0');
});

# the attacker's sinks: a labelheap table, a heap table, a sequence and a
# large object, all at s0, and the copier its code calls (volatile,
# called from immutable wrappers where PostgreSQL wants those)
$node->safe_psql('postgres', q{
	CREATE TABLE leak (v text) USING labelheap;
	CREATE TABLE leak_heap (v text);
	CREATE SEQUENCE leak_seq;
	SELECT lo_create(4242);
	CREATE FUNCTION steal(x text, sink text) RETURNS boolean LANGUAGE plpgsql
		AS $$ BEGIN EXECUTE format('INSERT INTO public.%I VALUES ($1)', sink) USING x; RETURN true; END $$;
	CREATE FUNCTION steal_imm(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN PERFORM public.steal(x, 'leak'); RETURN x; END $$;
	CREATE FUNCTION steal_heap_imm(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN PERFORM public.steal(x, 'leak_heap'); RETURN x; END $$;
	CREATE FUNCTION notify_imm(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN PERFORM pg_catalog.pg_notify('loot', x); RETURN x; END $$;
	GRANT ALL ON leak, leak_heap, leak_seq TO PUBLIC;
	GRANT SELECT, UPDATE ON LARGE OBJECT 4242 TO PUBLIC;
}, extra_params => [ '-U', 'a_s0' ]);

# t: the attacker's multi-level table (a fresh copy for each attack)
sub fresh_t
{
	$node->safe_psql('postgres', q{
		DROP TABLE IF EXISTS t;
		CREATE TABLE t (id int, v text) USING labelheap;
		GRANT ALL ON t TO PUBLIC;
	}, extra_params => [ '-U', 'a_maint' ]);
	seed($node, 't');
}

# what the attacker sees at s0: nothing above s0 anywhere
sub attacker_view
{
	return $node->safe_psql('postgres', q{
		SELECT (SELECT string_agg(v, ',' ORDER BY v) FROM leak),
		       (SELECT string_agg(v, ',' ORDER BY v) FROM leak_heap),
		       (SELECT last_value FROM leak_seq),
		       (SELECT convert_from(lo_get(4242), 'UTF8'))
	}, extra_params => [ '-U', 'r_s0' ]);
}

# rows the maintenance session wrote into leak: labeled at its clearance
sub leak_labels
{
	return $node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT l.security_label, ',') FROM leak l WHERE v LIKE '%SECRET%'",
		extra_params => [ '-U', 'a_maint' ]);
}

my $clean = attacker_view();
my $n = 0;

# attack(name, setup sql by the attacker, sql by the maintenance session,
#   expected: 'top' (done; whatever the code wrote is labeled at the
#   clearance) or 'refused' (42501, the command fails))
sub attack
{
	my ($what, $setup, $sql, $expect) = @_;
	$n++;
	fresh_t();
	$node->safe_psql('postgres', $setup, extra_params => [ '-U', 'a_s0' ]) if $setup;
	my ($rc, $out, $err) = run($node, 'a_maint', $sql);
	if ($expect eq 'refused')
	{
		denied($err, "attack $n: $what: refused (42501)");
	}
	else
	{
		unlike($err, qr/ERROR/, "attack $n: $what: the command is done");
		is(leak_labels(), $TOP_ROW, "attack $n: $what: what the code copied is labeled at the clearance");
	}
	is(attacker_view(), $clean, "attack $n: $what: the attacker sees nothing above s0");
	no_leak('s0', "attack $n: $what: no high value in what s0 reads",
		$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM leak', extra_params => [ '-U', 'r_s0' ]));
	is($node->safe_psql('postgres', 'SELECT count(*) FROM leak', extra_params => [ '-U', 'r_s3' ]), '0',
		"attack $n: $what: nor does s3");
	# the maintenance session clears what reached the top for the next one
	$node->safe_psql('postgres', 'TRUNCATE leak', extra_params => [ '-U', 'a_maint' ]);
}

attack('a TRUNCATE trigger copying the table into a labelheap table',
	q{CREATE FUNCTION tr_copy() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak SELECT v FROM t; RETURN NULL; END $$;
	  CREATE TRIGGER t_trunc BEFORE TRUNCATE ON t EXECUTE FUNCTION tr_copy();},
	'TRUNCATE t', 'top');
attack('a TRUNCATE trigger copying the table into a heap table',
	q{CREATE FUNCTION tr_copy_heap() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak_heap SELECT v FROM t; RETURN NULL; END $$;
	  CREATE TRIGGER t_trunc BEFORE TRUNCATE ON t EXECUTE FUNCTION tr_copy_heap();},
	'TRUNCATE t', 'refused');
attack('an index expression copying each row', undef,
	'CREATE INDEX t_steal ON t (steal_imm(v))', 'top');
attack('an index expression copying each row into a heap table', undef,
	'CREATE INDEX t_steal ON t (steal_heap_imm(v))', 'refused');
attack('a partial index predicate copying each row', undef,
	"CREATE INDEX t_steal ON t (id) WHERE steal_imm(v) <> ''", 'top');
attack('a volatile default reading the table', q{
	CREATE FUNCTION grab() RETURNS text LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak SELECT v FROM t; RETURN 'x'; END $$;},
	'ALTER TABLE t ADD COLUMN c text DEFAULT grab()', 'top');
attack('a generated column copying each row', undef,
	'ALTER TABLE t ADD COLUMN g text GENERATED ALWAYS AS (steal_imm(v)) STORED', 'top');
attack('a CHECK constraint copying each row', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (steal(v, 'leak'))", 'top');
attack('a CHECK constraint copying each row into a heap table', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (steal(v, 'leak_heap'))", 'refused');
attack('a CHECK constraint writing each row into a sequence', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (setval('leak_seq', 1000 + length(v)) > 0)", 'refused');
attack('a CHECK constraint writing each row into a large object', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (lo_put(4242, 0, convert_to(v, 'UTF8')) IS NULL)", 'refused');
attack('a CHECK constraint deleting the large object', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (lo_unlink(4242) > 0)", 'refused');
attack('a CHECK constraint notifying each row', undef,
	"ALTER TABLE t ADD CONSTRAINT t_ck CHECK (pg_notify('loot', v) IS NULL)", 'refused');
attack('an index expression notifying each row', undef,
	'CREATE INDEX t_steal ON t (notify_imm(v))', 'refused');
attack('code that writes a row at the clearance and relabels it down to s0', q{
	CREATE FUNCTION steal_down_v(x text) RETURNS boolean LANGUAGE plpgsql AS $$
		BEGIN
			PERFORM public.steal(x, 'leak');
			PERFORM set_config('labelam.update_label', 'staff_u:object_r:sepgsql_table_t:s0', true);
			UPDATE public.leak SET v = v WHERE v = x;
			RETURN true;
		END $$;
	CREATE FUNCTION steal_down(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN PERFORM public.steal_down_v(x); RETURN x; END $$;},
	'CREATE INDEX t_steal ON t (steal_down(v))', 'refused');
attack('a USING expression copying each row', undef,
	'ALTER TABLE t ALTER COLUMN v TYPE text USING steal_imm(v)', 'top');
attack('an error message about a high row, stored by the code that caught it', q{
	CREATE FUNCTION keep_error(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
		BEGIN PERFORM x::int; RETURN x;
		EXCEPTION WHEN others THEN PERFORM public.steal(SQLERRM, 'leak'); RETURN x; END $$;},
	'CREATE INDEX t_steal ON t (keep_error(v))', 'top');
attack('a row trigger on what a restore writes (COPY FROM)', q{
	CREATE FUNCTION row_copy() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak VALUES (NEW.v); RETURN NEW; END $$;
	CREATE TRIGGER t_row BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION row_copy();},
	"SET labelam.restore_labels = on;\nCOPY t (id, v) FROM STDIN;\n"
	  . "77\tSECRET-s3-restored\tstaff_u:object_r:sepgsql_table_t:s3\n\\.\n", 'top');
attack('a rule copying what the maintenance session inserts', q{
	CREATE RULE t_rule AS ON INSERT TO t DO ALSO INSERT INTO leak VALUES (NEW.v);},
	"INSERT INTO t (id, v) VALUES (77, 'SECRET-s3-typed')", 'top');
attack('a rule copying what the maintenance session inserts into a heap table', q{
	CREATE RULE t_rule AS ON INSERT TO t DO ALSO INSERT INTO leak_heap VALUES (NEW.v);},
	"INSERT INTO t (id, v) VALUES (77, 'SECRET-s3-typed')", 'refused');
attack('an event trigger reading the table when the maintenance session drops another', q{
	CREATE TABLE victim (id int) USING labelheap;
	CREATE FUNCTION ev_copy() RETURNS event_trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak SELECT v FROM t; RAISE NOTICE 'seen: %', (SELECT string_agg(v, ',') FROM t); END $$;
	CREATE EVENT TRIGGER ev ON sql_drop EXECUTE FUNCTION ev_copy();},
	'DROP TABLE victim', 'top');
$node->safe_psql('postgres', 'DROP EVENT TRIGGER ev', extra_params => [ '-U', 'a_s0' ]);
attack('an event trigger copying into a heap table', q{
	CREATE TABLE victim (id int) USING labelheap;
	CREATE FUNCTION ev_copy_heap() RETURNS event_trigger LANGUAGE plpgsql AS $$
		BEGIN INSERT INTO leak_heap SELECT v FROM t; END $$;
	CREATE EVENT TRIGGER ev ON sql_drop EXECUTE FUNCTION ev_copy_heap();},
	'DROP TABLE victim', 'refused');
$node->safe_psql('postgres', 'DROP EVENT TRIGGER ev', extra_params => [ '-U', 'a_s0' ]);

# Large objects the code creates are labeled at the clearance: s0 may not
# read them.  That they exist, and their OIDs, every session sees in
# pg_largeobject_metadata, as for large objects any session at that level
# creates (doc/trusted-subjects.md, "What remains").
fresh_t();
my ($rc, $out, $err) = run($node, 'a_maint',
	"ALTER TABLE t ADD CONSTRAINT t_lo CHECK (lo_from_bytea(0, convert_to(v, 'UTF8')) > 0)");
unlike($err, qr/ERROR/, 'a CHECK constraint creating a large object of each row: the command is done');
is($node->safe_psql('postgres', q{
		SELECT string_agg(DISTINCT s.label, ',') FROM pg_largeobject_metadata m,
			LATERAL (SELECT l.label FROM pg_seclabels l WHERE l.objoid = m.oid AND l.classoid = 'pg_largeobject'::regclass) s
		WHERE m.oid <> 4242}, extra_params => [ '-U', 'a_maint' ]),
	'system_u:object_r:sepgsql_blob_t:s15:c0.c1023', 'the large objects it created are labeled at the clearance');
for my $lo (split /\n/, $node->safe_psql('postgres', 'SELECT oid FROM pg_largeobject_metadata WHERE oid <> 4242'))
{
	($rc, $out, $err) = run($node, 'r_s0', "SELECT convert_from(lo_get($lo), 'UTF8')");
	denied($err, "s0 may not read large object $lo");
	no_leak('s0', "large object $lo: nothing above s0 in what s0 gets", $out, $err);
}

# the maintenance session's own notifications are refused too
($rc, $out, $err) = run($node, 'a_maint', "NOTIFY loot, 'x'");
like($err, qr/ERROR:  42501: a trusted session may not send notifications/, 'NOTIFY by the maintenance session: refused');
($rc, $out, $err) = run($node, 'a_maint', "SELECT pg_notify('loot', 'x')");
like($err, qr/ERROR:  42501: a trusted session may not send notifications/, 'pg_notify() by the maintenance session: refused');
($rc, $out, $err) = run($node, 'a_s0', "NOTIFY loot, 'x'");
unlike($err, qr/ERROR/, 'NOTIFY by an ordinary session: allowed');

$node->stop;
done_testing();
