# test/t/220_am_attack_windows.pl -- adversarial tests, issue 10 class 1.
# User code running inside what used
# to be exempt windows (ALTER TABLE, index builds, referential actions) is
# filtered and checked like any other code (issue 10 design: frames).
# Column defaults, CHECK constraints, USING expressions, generated columns,
# index expressions, partial-index predicates and triggers fired by
# cascades read only what the session may select, write only what it may
# write, and label what they insert; a cascade meeting a hidden row fails
# with 42501 before any trigger sees it.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamAttack;

my $node = attack_node('attack_windows', "autovacuum = off\n");

# secret: three rows at each of s0, s1, s3 (see LabelamAttack::seed)
$node->safe_psql('postgres', q{
	CREATE TABLE secret (id int, v text) USING labelheap;
	GRANT ALL ON secret TO PUBLIC;
});
seed($node, 'secret');

# the s0 attacker's tools: functions that read secret and exfiltrate what
# they saw through return values, NOTICEs, a heap table and a sequence
# (setval is not undone by a rollback)
$node->safe_psql('postgres', q{
	CREATE TABLE loot (what text, v text);
	CREATE SEQUENCE leak;
	CREATE FUNCTION peek() RETURNS text LANGUAGE sql VOLATILE
		AS $$ SELECT string_agg(v, ',' ORDER BY id) FROM secret $$;
	CREATE FUNCTION peek_notice() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
	DECLARE s text;
	BEGIN
		SELECT string_agg(v, ',' ORDER BY id) INTO s FROM secret;
		RAISE NOTICE 'peek: %', s;
		RETURN s;
	END $$;
	CREATE FUNCTION peek_loot(what text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
	BEGIN
		INSERT INTO loot SELECT what, v FROM secret;
		RETURN true;
	END $$;
	CREATE FUNCTION peek_setval() RETURNS int LANGUAGE sql VOLATILE
		AS $$ SELECT setval('leak', (SELECT count(*) FROM secret))::int $$;
	CREATE FUNCTION no_secret_seen() RETURNS boolean LANGUAGE sql VOLATILE
		AS $$ SELECT NOT EXISTS (SELECT 1 FROM secret WHERE v LIKE 'SECRET%') $$;
	CREATE FUNCTION peek_imm(int) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN RETURN peek(); END $$;
}, extra_params => [ '-U', 'r_s0' ]);

sub loot
{
	my ($what) = @_;
	return $node->safe_psql('postgres',
		"SELECT coalesce(string_agg(v, ',' ORDER BY v), '') FROM loot WHERE what = '$what'",
		extra_params => [ '-U', 'r_s0' ]);
}

my ($rc, $out, $err);

# attack 1: a volatile column default of the attacker's own table reads
# secret during the ALTER TABLE rewrite
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a1 (id int) USING labelheap;
	INSERT INTO a1 VALUES (1), (2);
	ALTER TABLE a1 ADD COLUMN c text DEFAULT peek();
	SELECT DISTINCT c FROM a1;
});
is($out, $S0, 'attack 1: a default evaluated by an ALTER TABLE rewrite reads only s0 rows');
no_leak('s0', 'attack 1: no hidden value in output or messages', $out, $err);

# attack 2: the same through the attacker's temporary heap table, with a
# plpgsql default that RAISEs what it read
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TEMP TABLE a2 (id int);
	INSERT INTO a2 VALUES (1), (2);
	ALTER TABLE a2 ADD COLUMN c text DEFAULT peek_notice();
	SELECT DISTINCT c FROM a2;
});
is($out, $S0, 'attack 2: a default in a temp table rewrite reads only s0 rows');
no_leak('s0', 'attack 2: no hidden value in the NOTICEs', $out, $err);

# attack 3: ALTER COLUMN ... TYPE ... USING an expression reading secret,
# on a temp labelheap table
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TEMP TABLE a3 (id int, c int) USING labelheap;
	INSERT INTO a3 VALUES (1, 0);
	ALTER TABLE a3 ALTER COLUMN c TYPE text USING peek();
	SELECT c FROM a3;
});
is($out, $S0, 'attack 3: a USING expression reads only s0 rows');
no_leak('s0', 'attack 3: no hidden value in output or messages', $out, $err);

# attack 4: a CHECK constraint being validated RAISEs what it reads
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a4 (id int) USING labelheap;
	INSERT INTO a4 VALUES (1);
	ALTER TABLE a4 ADD CONSTRAINT c4 CHECK (peek_notice() IS NOT NULL);
	SELECT 'added';
});
like($out, qr/added/, 'attack 4: the CHECK constraint is added');
no_leak('s0', 'attack 4: no hidden value in the NOTICEs of CHECK validation', $out, $err);

# attack 5: CHECK validation as an oracle: the constraint holds unless the
# function saw a hidden row
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a5 (id int) USING labelheap;
	INSERT INTO a5 VALUES (1);
	ALTER TABLE a5 ADD CONSTRAINT c5 CHECK (no_secret_seen());
	SELECT convalidated FROM pg_constraint WHERE conname = 'c5';
});
is($out, 't', 'attack 5: CHECK validation sees no hidden row (the constraint holds)');
unlike($err, qr/ERROR/, 'attack 5: no error betrays a hidden row');

# attack 6: VALIDATE CONSTRAINT of a NOT VALID check copies what it reads
# into a heap table
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a6 (id int) USING labelheap;
	INSERT INTO a6 VALUES (1);
	ALTER TABLE a6 ADD CONSTRAINT c6 CHECK (peek_loot('a6')) NOT VALID;
	ALTER TABLE a6 VALIDATE CONSTRAINT c6;
});
is(loot('a6'), $S0, 'attack 6: VALIDATE CONSTRAINT lets the check read only s0 rows');
no_leak('s0', 'attack 6: no hidden value in messages', $out, $err);

# attack 7: a default counts secret's rows into a sequence (not rolled back)
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a7 (id int) USING labelheap;
	INSERT INTO a7 VALUES (1);
	ALTER TABLE a7 ADD COLUMN c int DEFAULT peek_setval();
	SELECT last_value FROM leak;
});
is($out, '3', 'attack 7: the sequence side channel counts only the 3 s0 rows');

# attack 8: a SECURITY DEFINER default owned by the s3 role still runs at
# the session's label (s0)
$node->safe_psql('postgres', q{
	CREATE FUNCTION s3_peek() RETURNS text LANGUAGE sql VOLATILE SECURITY DEFINER
		AS $$ SELECT string_agg(v, ',' ORDER BY id) FROM secret $$;
}, extra_params => [ '-U', 'r_s3' ]);
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a8 (id int) USING labelheap;
	INSERT INTO a8 VALUES (1);
	ALTER TABLE a8 ADD COLUMN c text DEFAULT s3_peek();
	SELECT c FROM a8;
});
is($out, $S0, 'attack 8: a SECURITY DEFINER default of an s3 role reads only s0 rows');
no_leak('s0', 'attack 8: no hidden value in output or messages', $out, $err);

# attack 9: a stored generated column added by ALTER TABLE, through an
# IMMUTABLE-declared function that reads secret
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE a9 (id int) USING labelheap;
	INSERT INTO a9 VALUES (1);
	ALTER TABLE a9 ADD COLUMN g text GENERATED ALWAYS AS (peek_imm(id)) STORED;
	SELECT g FROM a9;
});
is($out, $S0, 'attack 9: a generated column evaluated by the rewrite reads only s0 rows');
no_leak('s0', 'attack 9: no hidden value in output or messages', $out, $err);

# attack 10: the attacker creates a table named like a rewrite's transient
# relation (pg_temp_<OID of secret>) and fills it from secret during an
# ALTER TABLE: its rows get the attacker's own label, never a carried one
my $secret_oid = $node->safe_psql('postgres', "SELECT 'secret'::regclass::oid");
($rc, $out, $err) = run($node, 'r_s0', qq{
	BEGIN;
	CREATE TABLE "pg_temp_$secret_oid" (v text) USING labelheap;
	GRANT SELECT ON "pg_temp_$secret_oid" TO PUBLIC;
	CREATE FUNCTION fill() RETURNS int LANGUAGE plpgsql VOLATILE AS \$\$
	BEGIN
		INSERT INTO "pg_temp_$secret_oid" SELECT v FROM secret;
		RETURN 1;
	END \$\$;
	CREATE TABLE a10 (id int) USING labelheap;
	INSERT INTO a10 VALUES (1);
	ALTER TABLE a10 ADD COLUMN c int DEFAULT fill();
	COMMIT;
});
is($node->safe_psql('postgres',
		qq{SELECT string_agg(DISTINCT t.security_label, ',') FROM "pg_temp_$secret_oid" t},
		extra_params => [ '-U', 'r_s3' ]),
	$S0_LABEL, 'attack 10: rows inserted into a fake transient relation get the inserter\'s label (s0)');
is($node->safe_psql('postgres',
		qq{SELECT count(*) FILTER (WHERE v LIKE 'SECRET%') || '/' || count(*) FROM "pg_temp_$secret_oid"},
		extra_params => [ '-U', 'r_s3' ]),
	'0/3', 'attack 10: no hidden value was copied into it');
is($node->safe_psql('postgres', qq{SELECT count(*) FROM labelam.verify_labels('"pg_temp_$secret_oid"')}),
	'0', 'attack 10: verify_labels is empty');

# Index builds.  (Functions that write into the table being indexed use
# hash indexes: the planner of their statement would read the metapage of
# a btree being built, which PostgreSQL itself cannot do.)  The attacker is r_s1, owner of ix, which holds s0 rows
# (r_s0's) and s1 rows: s1 may select all of them, so building indexes is
# allowed, but s1 may not update or delete the s0 rows.  An index function
# must be IMMUTABLE: the wrapper calls act(), volatile, which each attack
# redefines; a sequence makes act() work once per attack.  From
# PostgreSQL 17 index builds run with search_path = pg_catalog, pg_temp:
# the wrappers set their own, as an attacker's functions would.
$node->safe_psql('postgres', q{
	CREATE TABLE ix (id int, v text) USING labelheap;
	GRANT ALL ON ix TO PUBLIC;
	CREATE TABLE other (id int, v text) USING labelheap;
	GRANT ALL ON other TO PUBLIC;
	CREATE TABLE ix3 (id int, v text) USING labelheap;
	GRANT ALL ON ix3 TO PUBLIC;
	ALTER TABLE ix OWNER TO r_s1;
	ALTER TABLE ix3 OWNER TO r_s1;
});
seed($node, 'ix', qw(s0 s1));
seed($node, 'other', qw(s0 s1));
seed($node, 'ix3', qw(s1 s3));
$node->safe_psql('postgres', q{
	CREATE SEQUENCE once;
	CREATE FUNCTION act(a int) RETURNS int LANGUAGE plpgsql VOLATILE AS $$ BEGIN RETURN 0; END $$;
	CREATE FUNCTION ixf(a int) RETURNS int LANGUAGE plpgsql IMMUTABLE SET search_path = public AS $$ BEGIN RETURN act(a); END $$;
	CREATE FUNCTION ixp(a int) RETURNS boolean LANGUAGE plpgsql IMMUTABLE SET search_path = public AS $$ BEGIN RETURN act(a) >= 0; END $$;
}, extra_params => [ '-U', 'r_s1' ]);

# act(body): redefine act() to run body once (per reset of "once")
sub act
{
	my ($body) = @_;
	return qq{
		SELECT setval('once', 1, false);
		CREATE OR REPLACE FUNCTION act(a int) RETURNS int LANGUAGE plpgsql VOLATILE AS \$\$
		BEGIN
			IF nextval('once') > 1 THEN RETURN 0; END IF;
			$body
			RETURN 0;
		END \$\$;
	};
}

# ixtable(n): a fresh table ixN owned by r_s1 with s0 and s1 rows, so that
# each attack starts from the same state whatever the previous one did
sub ixtable
{
	my ($n) = @_;
	$node->safe_psql('postgres', qq{
		CREATE TABLE ix$n (id int, v text) USING labelheap;
		GRANT ALL ON ix$n TO PUBLIC;
		ALTER TABLE ix$n OWNER TO r_s1;
	});
	seed($node, "ix$n", qw(s0 s1));
	return table_state($node, "ix$n");
}

my $other_before = table_state($node, 'other');
my $before;

# attack 11: an index expression reads another labelheap table
($rc, $out, $err) = run($node, 'r_s1', act(q{
	RAISE NOTICE 'ix: %', (SELECT string_agg(v, ',' ORDER BY id) FROM secret);
}) . q{
	CREATE INDEX ix_a11 ON ix (ixf(id));
	DROP INDEX ix_a11;
});
like($err, qr/NOTICE:  00000: ix: public-s0-1.*SECRET-s1-3/, 'attack 11: the index expression ran and read s0 and s1 rows');
no_leak('s1', 'attack 11: an index expression reads no s3 row of another table', $out, $err);

# attack 12: an index expression reads the table being indexed, which
# holds rows beyond s1's reach: the build is refused before it leaks them
($rc, $out, $err) = run($node, 'r_s1', act(q{
	RAISE NOTICE 'ix3: %', (SELECT string_agg(v, ',' ORDER BY id) FROM ix3);
}) . q{
	CREATE INDEX ix3_a12 ON ix3 (ixf(id));
});
beyond_reach($err, 'attack 12: indexing a table with hidden rows is refused');
no_leak('s1', 'attack 12: the index expression never printed a hidden row of the indexed table', $out, $err);

# attack 13: an index expression deletes the s0 rows of the table being
# indexed
$before = ixtable(13);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	DELETE FROM ix13 WHERE v LIKE 'public-s0-%';
}) . q{
	CREATE INDEX ix_a13 ON ix13 USING hash (ixf(id));
});
denied($err, 'attack 13: an index expression may not delete s0 rows (42501)');
is(table_state($node, 'ix13'), $before, 'attack 13: the table is unchanged');

# attack 14: an index expression updates the s0 rows of the indexed table
$before = ixtable(14);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	UPDATE ix14 SET v = 'defaced' WHERE v LIKE 'public-s0-%';
}) . q{
	CREATE INDEX ix_a14 ON ix14 USING hash (ixf(id));
});
denied($err, 'attack 14: an index expression may not update s0 rows (42501)');
is(table_state($node, 'ix14'), $before, 'attack 14: the table is unchanged');

# attack 15: an index expression inserts into the indexed table: the row
# is labeled s1 like any row r_s1 inserts
ixtable(15);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	INSERT INTO ix15 VALUES (115, 'inserted-by-a15');
}) . q{
	CREATE INDEX ix_a15 ON ix15 (ixf(id));
});
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('ix15')"), '0',
	'attack 15: verify_labels is empty after an insert from an index expression');
is($node->safe_psql('postgres', "SELECT t.security_label FROM ix15 t WHERE id = 115", extra_params => [ '-U', 'r_s3' ]),
	'staff_u:object_r:sepgsql_table_t:s1', 'attack 15: the inserted row is labeled s1');
is($node->safe_psql('postgres', "SELECT count(*) FROM ix15 WHERE id = 115", extra_params => [ '-U', 'r_s0' ]),
	'0', 'attack 15: s0 does not read it');

# attack 16: a partial-index predicate deletes s0 rows of another table
($rc, $out, $err) = run($node, 'r_s1', act(q{
	DELETE FROM other WHERE v LIKE 'public-s0-%';
}) . q{
	CREATE INDEX ix_a16 ON ix (id) WHERE ixp(id);
});
denied($err, 'attack 16: a partial-index predicate may not delete s0 rows of another table');
is(table_state($node, 'other'), $other_before, 'attack 16: other is unchanged');

# attack 17: a partial-index predicate inserts into another table
($rc, $out, $err) = run($node, 'r_s1', act(q{
	INSERT INTO other VALUES (117, 'inserted-by-a17');
}) . q{
	CREATE INDEX ix_a17 ON ix (id) WHERE ixp(id);
	DROP INDEX ix_a17;
});
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('other')"), '0',
	'attack 17: verify_labels(other) is empty after an insert from a predicate');
is($node->safe_psql('postgres', "SELECT t.security_label FROM other t WHERE id = 117", extra_params => [ '-U', 'r_s3' ]),
	'staff_u:object_r:sepgsql_table_t:s1', 'attack 17: the inserted row is labeled s1');

# attack 18: a partial-index predicate deletes s0 rows of the indexed table
$before = ixtable(18);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	DELETE FROM ix18 WHERE v LIKE 'public-s0-%';
}) . q{
	CREATE INDEX ix_a18 ON ix18 USING hash (id) WHERE ixp(id);
});
denied($err, 'attack 18: a partial-index predicate may not delete s0 rows of the indexed table');
is(table_state($node, 'ix18'), $before, 'attack 18: the table is unchanged');

# attack 19: REINDEX CONCURRENTLY runs an index function redefined after
# the index was built (plain REINDEX forbids touching the table: PostgreSQL
# refuses to plan over an index being rebuilt)
ixtable(19);
$node->safe_psql('postgres', act('NULL;') . 'CREATE INDEX ix_r ON ix19 USING hash (ixf(id));',
	extra_params => [ '-U', 'r_s1' ]);
$before = table_state($node, 'ix19');
($rc, $out, $err) = run($node, 'r_s1', act(q{
	DELETE FROM ix19 WHERE v LIKE 'public-s0-%';
}) . q{
	REINDEX INDEX CONCURRENTLY ix_r;
});
denied($err, 'attack 19: REINDEX CONCURRENTLY: the index function may not delete s0 rows');
is($node->safe_psql('postgres', "SELECT string_agg(v, ',' ORDER BY id) FROM ix19", extra_params => [ '-U', 'r_s3' ]),
	'public-s0-1,public-s0-2,public-s0-3,SECRET-s1-1,SECRET-s1-2,SECRET-s1-3', 'attack 19: the rows are unchanged');

# attack 20: CREATE INDEX CONCURRENTLY (build and validation scans) with an
# index expression inserting into the indexed table
ixtable(20);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	INSERT INTO ix20 VALUES (120, 'inserted-by-a20');
}) . q{
	CREATE INDEX CONCURRENTLY ix_a20 ON ix20 (ixf(id));
});
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('ix20')"), '0',
	'attack 20: verify_labels is empty after CREATE INDEX CONCURRENTLY');
is($node->safe_psql('postgres', "SELECT string_agg(DISTINCT t.security_label, ',') FROM ix20 t WHERE id = 120",
		extra_params => [ '-U', 'r_s3' ]),
	'staff_u:object_r:sepgsql_table_t:s1', 'attack 20: the row inserted during CREATE INDEX CONCURRENTLY is labeled s1');

# attack 21: CREATE INDEX CONCURRENTLY whose expression deletes s0 rows
ixtable(21);
($rc, $out, $err) = run($node, 'r_s1', act(q{
	DELETE FROM ix21 WHERE v LIKE 'public-s0-%';
}) . q{
	CREATE INDEX CONCURRENTLY ix_a21 ON ix21 (ixf(id));
});
denied($err, 'attack 21: CREATE INDEX CONCURRENTLY: the index function may not delete s0 rows');
is($node->safe_psql('postgres', "SELECT count(*) FROM ix21", extra_params => [ '-U', 'r_s3' ]),
	'6', 'attack 21: the table keeps its six rows');

# Referential actions.  Triggers and defaults on a cascaded child table
# run in the cascade's query; they are filtered as usual.
$node->safe_psql('postgres', q{
	CREATE FUNCTION trg_peek() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE NOTICE 'trg % % %: %', TG_TABLE_NAME, TG_WHEN, TG_OP,
			(SELECT string_agg(v, ',' ORDER BY id) FROM secret);
		INSERT INTO loot SELECT TG_TABLE_NAME || ':' || TG_WHEN, v FROM secret;
		PERFORM setval('leak', (SELECT count(*) FROM secret));
		IF TG_LEVEL = 'STATEMENT' THEN RETURN NULL; END IF;
		IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
		RETURN NEW;
	END $$;
	CREATE FUNCTION dflt_pid() RETURNS int LANGUAGE plpgsql VOLATILE AS $$
	BEGIN
		INSERT INTO loot SELECT 'dflt', v FROM secret;
		RETURN NULL;
	END $$;
}, extra_params => [ '-U', 'r_s0' ]);

# cascade(n, fk action, trigger): parent/child pair owned by r_s0, rows at s0
sub cascade
{
	my ($n, $action, $trigger, $default, $func) = @_;
	$default //= '';
	$func //= 'trg_peek';
	$node->safe_psql('postgres', qq{
		CREATE TABLE par$n (id int PRIMARY KEY) USING labelheap;
		CREATE TABLE chi$n (id int, pid int $default REFERENCES par$n $action, v text) USING labelheap;
		GRANT ALL ON par$n, chi$n TO PUBLIC;
		INSERT INTO par$n VALUES (1), (2);
		INSERT INTO chi$n VALUES (1, 1, 'public-child');
		CREATE TRIGGER t$n $trigger ON chi$n FOR EACH ROW EXECUTE FUNCTION $func();
	}, extra_params => [ '-U', 'r_s0' ]);
}

# attack 22: BEFORE DELETE row trigger on a child deleted by ON DELETE CASCADE
cascade(22, 'ON DELETE CASCADE', 'BEFORE DELETE');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par22 WHERE id = 1; SELECT count(*) FROM chi22');
is($out, '0', 'attack 22: the cascade deleted the child row');
is(loot('chi22:BEFORE'), $S0, 'attack 22: a BEFORE trigger fired by a cascade reads only s0 rows');
no_leak('s0', 'attack 22: no hidden value in the trigger\'s NOTICE', $out, $err);

# attack 23: AFTER DELETE row trigger in the same situation
cascade(23, 'ON DELETE CASCADE', 'AFTER DELETE');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par23 WHERE id = 1');
is(loot('chi23:AFTER'), $S0, 'attack 23: an AFTER trigger fired by a cascade reads only s0 rows');
no_leak('s0', 'attack 23: no hidden value in the trigger\'s NOTICE', $out, $err);

# attack 24: ON DELETE SET NULL fires an AFTER UPDATE statement trigger,
# which counts secret into a sequence
$node->safe_psql('postgres', "SELECT setval('leak', 1000)", extra_params => [ '-U', 'r_s0' ]);
cascade(24, 'ON DELETE SET NULL', 'BEFORE UPDATE');
$node->safe_psql('postgres', q{
	DROP TRIGGER t24 ON chi24;
	CREATE TRIGGER t24 AFTER UPDATE ON chi24 FOR EACH STATEMENT EXECUTE FUNCTION trg_peek();
}, extra_params => [ '-U', 'r_s0' ]);
($rc, $out, $err) = run($node, 'r_s0', q{
	DELETE FROM par24 WHERE id = 1;
	SELECT last_value FROM leak;
});
is($out, '3', 'attack 24: a statement trigger fired by ON DELETE SET NULL counts only the 3 s0 rows');
no_leak('s0', 'attack 24: no hidden value in the trigger\'s NOTICE', $out, $err);

# attack 25: ON UPDATE CASCADE fires a BEFORE UPDATE row trigger
cascade(25, 'ON UPDATE CASCADE', 'BEFORE UPDATE');
($rc, $out, $err) = run($node, 'r_s0', 'UPDATE par25 SET id = 5 WHERE id = 1; SELECT pid FROM chi25');
is($out, '5', 'attack 25: the update cascaded');
is(loot('chi25:BEFORE'), $S0, 'attack 25: a trigger fired by ON UPDATE CASCADE reads only s0 rows');
no_leak('s0', 'attack 25: no hidden value in the trigger\'s NOTICE', $out, $err);

# attack 26: ON DELETE SET DEFAULT evaluates the child's default, a
# function reading secret
cascade(26, 'ON DELETE SET DEFAULT', 'BEFORE INSERT', 'DEFAULT dflt_pid()');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par26 WHERE id = 1; SELECT count(*) FROM chi26 WHERE pid IS NULL');
is($out, '1', 'attack 26: SET DEFAULT set the child\'s key');
is(loot('dflt'), $S0, 'attack 26: a default evaluated by ON DELETE SET DEFAULT reads only s0 rows');

# Cascades meeting rows the session may not select: r_s1 adds a child row
# (its FK check reads the s0 parent); the s0 owner's cascade must fail with
# 42501 before a trigger sees the hidden row.
$node->safe_psql('postgres', q{
	CREATE FUNCTION trg_old() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		RAISE NOTICE 'old row: %', OLD;
		INSERT INTO loot VALUES ('old', OLD::text);
		IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
		RETURN NEW;
	END $$;
	CREATE FUNCTION trg_old_raise() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF OLD.id <> 1 THEN RAISE EXCEPTION 'old row: %', OLD; END IF;
		RETURN NEW;
	END $$;
}, extra_params => [ '-U', 'r_s0' ]);

sub hidden_cascade
{
	my ($n, $action, $trigger, $func) = @_;
	cascade($n, $action, $trigger, '', $func);
	$node->safe_psql('postgres', "INSERT INTO chi$n VALUES (2, 1, 'SECRET-s1-child')",
		extra_params => [ '-U', 'r_s1' ]);
	return table_state($node, "chi$n", 'id, pid, v');
}

# attack 27: ON DELETE CASCADE over a hidden child, BEFORE DELETE trigger
# printing OLD
$before = hidden_cascade(27, 'ON DELETE CASCADE', 'BEFORE DELETE', 'trg_old');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par27 WHERE id = 1');
denied($err, 'attack 27: a cascaded delete meeting a hidden child row is 42501');
no_leak('s0', 'attack 27: the trigger never saw the hidden OLD row', $out, $err, loot('old'));
is(table_state($node, 'chi27', 'id, pid, v'), $before, 'attack 27: the child table is unchanged');

# attack 28: ON DELETE SET NULL over a hidden child, BEFORE UPDATE trigger
$before = hidden_cascade(28, 'ON DELETE SET NULL', 'BEFORE UPDATE', 'trg_old');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par28 WHERE id = 1');
denied($err, 'attack 28: SET NULL meeting a hidden child row is 42501');
no_leak('s0', 'attack 28: the trigger never saw the hidden OLD row', $out, $err, loot('old'));
is(table_state($node, 'chi28', 'id, pid, v'), $before, 'attack 28: the child table is unchanged');

# attack 29: ON UPDATE CASCADE over a hidden child, the trigger raises an
# exception carrying OLD
$before = hidden_cascade(29, 'ON UPDATE CASCADE', 'BEFORE UPDATE', 'trg_old_raise');
($rc, $out, $err) = run($node, 'r_s0', 'UPDATE par29 SET id = 9 WHERE id = 1');
denied($err, 'attack 29: an update cascade meeting a hidden child row is 42501, not the trigger\'s error');
no_leak('s0', 'attack 29: the exception never carried the hidden OLD row', $out, $err);
is(table_state($node, 'chi29', 'id, pid, v'), $before, 'attack 29: the child table is unchanged');

# attack 30: ON DELETE SET DEFAULT over a hidden child whose default
# function copies secret
$before = hidden_cascade(30, 'ON DELETE SET DEFAULT', 'BEFORE UPDATE', 'trg_old');
($rc, $out, $err) = run($node, 'r_s0', 'DELETE FROM par30 WHERE id = 1');
denied($err, 'attack 30: SET DEFAULT meeting a hidden child row is 42501');
no_leak('s0', 'attack 30: nothing hidden reached the trigger', $out, $err, loot('old'));

is($node->safe_psql('postgres', q{
	SELECT count(*) FROM (SELECT labelam.verify_labels(c.oid) FROM pg_class c JOIN pg_am a ON a.oid = c.relam
	                      WHERE a.amname = 'labelheap' AND c.relkind = 'r') s}),
	'0', 'after all attacks: verify_labels is empty for every labelheap table');
no_leak('s0', 'after all attacks: the loot table holds no hidden value',
	$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM loot', extra_params => [ '-U', 'r_s0' ]));

$node->stop;
done_testing();
