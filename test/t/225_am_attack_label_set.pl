# test/t/225_am_attack_label_set.pl -- whole-table operations against rows
# beyond the session's reach, under Debian's MLS policy (through libsepol):
# TRUNCATE, DROP TABLE and DROP COLUMN destroy rows without reading them, so
# they need delete (update for DROP COLUMN) on every label of the relation's
# label set.  The owner at s0 must not destroy rows written at s1; each refusal
# leaves the rows (and columns) for the s1 session to find.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('labelset', q{
autovacuum = off
});

$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE ROLE r_s0 LOGIN;
	CREATE ROLE r_s0b LOGIN;
	CREATE ROLE r_s1 LOGIN;
	CREATE ROLE r_s3 LOGIN;
	INSERT INTO labelam.role_label VALUES
		('r_s0', 'staff_u:staff_r:staff_t:s0'),
		('r_s0b', 'staff_u:staff_r:staff_t:s0'),
		('r_s1', 'staff_u:staff_r:staff_t:s1'),
		('r_s3', 'staff_u:staff_r:staff_t:s3');
	GRANT CREATE ON SCHEMA public TO PUBLIC;
});

sub as
{
	my ($role, $sql) = @_;
	return $node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

sub try_as
{
	my ($role, $sql) = @_;
	# $role undef: the bootstrap superuser (at s0, as every session
	# without a labelam.role_label row)
	my ($rc, $out, $err) = $node->psql('postgres', $sql,
		extra_params => [ (defined $role ? ('-U', $role) : ()), '-v', 'VERBOSITY=verbose' ]);
	return $err;
}

# a table owned by r_s0 (or $owner), writable by all, with s0 and s1 rows
sub mixed_table
{
	my ($name, $owner) = @_;
	$owner //= 'r_s0';
	$node->safe_psql('postgres', qq{
		CREATE TABLE $name (id int PRIMARY KEY, body text) USING labelheap;
		ALTER TABLE $name OWNER TO $owner;
		GRANT ALL ON $name TO PUBLIC;
	});
	as('r_s0', "INSERT INTO $name SELECT g, 'low ' || g FROM generate_series(1, 5) g");
	as('r_s1', "INSERT INTO $name SELECT g, 'high ' || g FROM generate_series(101, 105) g");
}

# the refusal: 42501, the verb, the fixed detail; no label, no count
sub refused
{
	my ($err, $verb, $rel, $name) = @_;
	like($err, qr/ERROR:  42501: permission denied to \Q$verb\E relation "\Q$rel\E"/,
		"$name: 42501 permission denied to $verb");
	like($err,
		qr/DETAIL:  The relation holds rows beyond the reach of the session's security label\./,
		"$name: the detail says rows are beyond reach");
	unlike($err, qr/s1|sepgsql|staff_t|\b5\b/, "$name: the message names no label and no count");
}

sub s1_count
{
	my ($rel) = @_;
	return as('r_s1', "SELECT count(*) FILTER (WHERE id < 100) || '/' || count(*) FILTER (WHERE id > 100) FROM $rel");
}

mixed_table('t1');

# attack 1: the owner at s0 truncates a table holding s1 rows
refused(try_as('r_s0', 'TRUNCATE t1'), 'truncate', 't1', 'attack: owner at s0 truncates a table with s1 rows');
is(s1_count('t1'), '5/5', 'attack: after the refused TRUNCATE, s1 still finds every row');

# attack 2: the owner at s0 drops it
refused(try_as('r_s0', 'DROP TABLE t1'), 'drop', 't1', 'attack: owner at s0 drops a table with s1 rows');
is(s1_count('t1'), '5/5', 'attack: after the refused DROP TABLE, s1 still finds every row');

# attack 3: the owner at s0 drops a column holding s1 values
refused(try_as('r_s0', 'ALTER TABLE t1 DROP COLUMN body'), 'drop a column of', 't1',
	'attack: owner at s0 drops a column of a table with s1 rows');
is(as('r_s1', "SELECT body FROM t1 WHERE id = 101"), 'high 101',
	'attack: after the refused DROP COLUMN, s1 reads the column');

# attack 4: a superuser session at s0 has no bypass either
refused(try_as(undef, 'TRUNCATE t1'), 'truncate', 't1', 'attack: superuser at s0 truncates');

# attack 5: TRUNCATE ... CASCADE reaching a referencing table with s1 rows
$node->safe_psql('postgres', q{
	CREATE TABLE parent (id int PRIMARY KEY) USING labelheap;
	CREATE TABLE child (id int PRIMARY KEY, pid int REFERENCES parent) USING labelheap;
	ALTER TABLE parent OWNER TO r_s0;
	ALTER TABLE child OWNER TO r_s0;
	GRANT ALL ON parent, child TO PUBLIC;
});
as('r_s0', 'INSERT INTO parent SELECT generate_series(1, 3)');
as('r_s1', 'INSERT INTO child SELECT g + 100, 1 FROM generate_series(1, 3) g');
refused(try_as('r_s0', 'TRUNCATE parent CASCADE'), 'truncate', 'child',
	'attack: TRUNCATE CASCADE reaching a table with s1 rows');
is(as('r_s1', 'SELECT (SELECT count(*) FROM parent) || \'/\' || (SELECT count(*) FROM child)'), '3/3',
	'attack: after the refused TRUNCATE CASCADE, both tables keep their rows');

# attack 6: TRUNCATE of a partitioned table, one partition holding s1 rows
$node->safe_psql('postgres', q{
	CREATE TABLE pt (id int, body text) PARTITION BY RANGE (id);
	CREATE TABLE pt_low PARTITION OF pt FOR VALUES FROM (0) TO (100) USING labelheap;
	CREATE TABLE pt_high PARTITION OF pt FOR VALUES FROM (100) TO (200) USING labelheap;
	ALTER TABLE pt OWNER TO r_s0;
	ALTER TABLE pt_low OWNER TO r_s0;
	ALTER TABLE pt_high OWNER TO r_s0;
	GRANT ALL ON pt, pt_low, pt_high TO PUBLIC;
});
as('r_s0', "INSERT INTO pt SELECT g, 'low' FROM generate_series(1, 5) g");
as('r_s1', "INSERT INTO pt SELECT g, 'high' FROM generate_series(101, 105) g");
refused(try_as('r_s0', 'TRUNCATE pt'), 'truncate', 'pt_high',
	'attack: TRUNCATE of a partitioned table with a partition holding s1 rows');
is(s1_count('pt'), '5/5', 'attack: after the refused partitioned TRUNCATE, every row is there');

# attack 7: DROP of the partitioned parent, and DROP COLUMN through it
refused(try_as('r_s0', 'DROP TABLE pt'), 'drop', 'pt_high', 'attack: DROP of a partitioned parent');
refused(try_as('r_s0', 'ALTER TABLE pt DROP COLUMN body'), 'drop a column of', 'pt_high',
	'attack: DROP COLUMN through a partitioned parent');
is(as('r_s1', 'SELECT count(*) FROM pt WHERE body = \'high\''), '5',
	'attack: after the refused drops, the partition and its column are there');

# attack 8: DROP SCHEMA ... CASCADE
$node->safe_psql('postgres', q{
	CREATE SCHEMA sch AUTHORIZATION r_s0;
	GRANT USAGE ON SCHEMA sch TO PUBLIC;
	CREATE TABLE sch.st (id int PRIMARY KEY, body text) USING labelheap;
	ALTER TABLE sch.st OWNER TO r_s0;
	GRANT ALL ON sch.st TO PUBLIC;
});
as('r_s1', "INSERT INTO sch.st VALUES (101, 'high')");
refused(try_as('r_s0', 'DROP SCHEMA sch CASCADE'), 'drop', 'st', 'attack: DROP SCHEMA CASCADE');
is(as('r_s1', 'SELECT count(*) FROM sch.st'), '1', 'attack: after the refused DROP SCHEMA, the row is there');

# attack 9: DROP OWNED
mixed_table('owned', 'r_s0b');
refused(try_as('r_s0b', 'DROP OWNED BY r_s0b'), 'drop', 'owned', 'attack: DROP OWNED');
is(s1_count('owned'), '5/5', 'attack: after the refused DROP OWNED, every row is there');

# attack 10: a table created and filled at s1 in one transaction (the set
# rows are written in the creating transaction), then truncated and dropped
# at s0
as('r_s1', q{
	BEGIN;
	CREATE TABLE fresh (id int PRIMARY KEY, body text) USING labelheap;
	INSERT INTO fresh SELECT g, 'high' FROM generate_series(101, 105) g;
	GRANT ALL ON fresh TO PUBLIC;
	COMMIT;
});
$node->safe_psql('postgres', 'ALTER TABLE fresh OWNER TO r_s0');
refused(try_as('r_s0', 'TRUNCATE fresh'), 'truncate', 'fresh',
	'attack: truncate of a table created and filled at s1 in one transaction');
refused(try_as('r_s0', 'DROP TABLE fresh'), 'drop', 'fresh',
	'attack: drop of a table created and filled at s1 in one transaction');
is(s1_count('fresh'), '0/5', 'attack: the table created at s1 keeps its rows');

# attack 11: new storage in the transaction (an ALTER TABLE rewrite), so
# that TRUNCATE takes the non-transactional path
mixed_table('rewritten');
my $err = try_as('r_s0', q{
	BEGIN;
	ALTER TABLE rewritten ALTER COLUMN id TYPE bigint;
	TRUNCATE rewritten;
	COMMIT;
});
like($err, qr/ERROR:  42501:/, 'attack: rewrite then TRUNCATE in one transaction is refused');
is(s1_count('rewritten'), '5/5', 'attack: after the refused rewrite and TRUNCATE, every row is there');

# attack 12: an s1 insert in an aborted transaction, then a new one: the
# set must still hold s1
$node->safe_psql('postgres', q{
	CREATE TABLE ab (id int PRIMARY KEY, body text) USING labelheap;
	ALTER TABLE ab OWNER TO r_s0;
	GRANT ALL ON ab TO PUBLIC;
});
as('r_s1', "BEGIN; INSERT INTO ab VALUES (101, 'gone'); ROLLBACK; INSERT INTO ab VALUES (102, 'high');");
refused(try_as('r_s0', 'TRUNCATE ab'), 'truncate', 'ab', 'attack: label noted again after an aborted transaction');
is(s1_count('ab'), '0/1', 'attack: the row written after the abort is there');

# attack 13: the same with an aborted subtransaction
$node->safe_psql('postgres', q{
	CREATE TABLE sab (id int PRIMARY KEY, body text) USING labelheap;
	ALTER TABLE sab OWNER TO r_s0;
	GRANT ALL ON sab TO PUBLIC;
});
as('r_s1', q{
	BEGIN;
	SAVEPOINT a;
	INSERT INTO sab VALUES (101, 'gone');
	ROLLBACK TO SAVEPOINT a;
	INSERT INTO sab VALUES (102, 'high');
	COMMIT;
});
refused(try_as('r_s0', 'TRUNCATE sab'), 'truncate', 'sab', 'attack: label noted again after an aborted subtransaction');
is(s1_count('sab'), '0/1', 'attack: the row written after the subtransaction abort is there');

# attack 14: a writer that knows the pair is in the set must learn that
# another session emptied it: s1 session A writes, s1 session B truncates
# (allowed: only s1 rows), A writes again; s0 must still be refused
$node->safe_psql('postgres', q{
	CREATE TABLE stale (id int PRIMARY KEY) USING labelheap;
	ALTER TABLE stale OWNER TO r_s0;
	GRANT ALL ON stale TO PUBLIC;
});
my $a = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
$a->query_safe('INSERT INTO stale VALUES (101)');
as('r_s1', 'TRUNCATE stale');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels WHERE relid = 'stale'::regclass"),
	'0', 'a TRUNCATE empties the label set');
$a->query_safe('INSERT INTO stale VALUES (102)');
$a->quit;
refused(try_as('r_s0', 'TRUNCATE stale'), 'truncate', 'stale',
	'attack: a writer whose cached set was emptied by another session notes its label again');
is(as('r_s1', 'SELECT string_agg(id::text, \',\') FROM stale'), '102', 'attack: the row written after the truncate is there');

# attack 15: s1 inserts without committing while s0 truncates: the
# truncate waits for the lock, then sees the new label and refuses
$node->safe_psql('postgres', q{
	CREATE TABLE race (id int PRIMARY KEY) USING labelheap;
	ALTER TABLE race OWNER TO r_s0;
	GRANT ALL ON race TO PUBLIC;
});
as('r_s0', 'INSERT INTO race VALUES (1)');
my $w = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
my $t = $node->background_psql('postgres', extra_params => [ '-U', 'r_s0', '-v', 'VERBOSITY=verbose' ],
	on_error_stop => 0);
$w->query_safe('BEGIN');
$w->query_safe('INSERT INTO race VALUES (101)');
$t->query_until(qr/sent/, "\\echo sent\nTRUNCATE race;\n\\echo done\n");
$node->poll_query_until('postgres', q{
	SELECT count(*) > 0 FROM pg_stat_activity
	WHERE usename = 'r_s0' AND wait_event_type = 'Lock'})
  or die 'the TRUNCATE did not wait for the lock';
$w->query_safe('COMMIT');
$t->query_until(qr/done/, '');
my $terr = $t->{stderr};
$w->quit;
$t->quit;
refused($terr, 'truncate', 'race', 'attack: TRUNCATE waiting for an uncommitted s1 insert');
is(s1_count('race'), '1/1', 'attack: after the refused concurrent TRUNCATE, both rows are there');

# attack 16: REFRESH MATERIALIZED VIEW replaces every row, those at s1
# too: the owner at s0 may not refresh a view that s1 filled
$node->safe_psql('postgres', q{
	CREATE TABLE base (id int, lvl text) USING labelheap;
	GRANT ALL ON base TO PUBLIC;
	CREATE MATERIALIZED VIEW mv USING labelheap AS SELECT * FROM base WITH NO DATA;
	ALTER MATERIALIZED VIEW mv OWNER TO r_s1;
	GRANT SELECT ON mv TO PUBLIC;
});
as('r_s0', "INSERT INTO base VALUES (1, 'low')");
as('r_s1', "INSERT INTO base VALUES (101, 'high'); REFRESH MATERIALIZED VIEW mv");
$node->safe_psql('postgres', 'ALTER MATERIALIZED VIEW mv OWNER TO r_s0');
refused(try_as('r_s0', 'REFRESH MATERIALIZED VIEW mv'), 'refresh', 'mv',
	'attack: owner at s0 refreshes a materialized view filled at s1');
is(s1_count('mv'), '1/1', 'attack: after the refused REFRESH, s1 still finds the rows it refreshed');
$node->safe_psql('postgres', 'ALTER MATERIALIZED VIEW mv OWNER TO r_s1');
is(as('r_s1', 'REFRESH MATERIALIZED VIEW mv; SELECT count(*) FROM mv'), '2',
	's1 refreshes a materialized view holding only s1 rows');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels WHERE relid = 'mv'::regclass"),
	'1', 'the refreshed view has one label in its set');

# legitimate: s0 truncates, drops a column of, and drops a table of s0 rows
$node->safe_psql('postgres', q{
	CREATE TABLE mine (id int PRIMARY KEY, body text, extra int) USING labelheap;
	ALTER TABLE mine OWNER TO r_s0;
});
as('r_s0', "INSERT INTO mine SELECT g, 'low', g FROM generate_series(1, 5) g");
is(as('r_s0', 'ALTER TABLE mine DROP COLUMN extra; SELECT count(*) FROM mine'), '5',
	's0 drops a column of a table holding only s0 rows');
is(as('r_s0', 'TRUNCATE mine; SELECT count(*) FROM mine'), '0', 's0 truncates a table holding only s0 rows');
as('r_s0', "INSERT INTO mine VALUES (1, 'again')");
is(as('r_s0', 'BEGIN; CREATE TABLE tx (id int) USING labelheap; INSERT INTO tx VALUES (1); TRUNCATE tx; INSERT INTO tx VALUES (2); SELECT count(*) FROM tx; COMMIT;'),
	'1', 's0 truncates a table it created in the same transaction');
my $oid = $node->safe_psql('postgres', "SELECT 'mine'::regclass::oid");
as('r_s0', 'DROP TABLE mine');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels WHERE relid = $oid"),
	'0', 's0 drops a table holding only s0 rows, and its label set goes with it');

# legitimate: s1 truncates a table holding only s1 rows
as('r_s1', 'CREATE TABLE s1only (id int) USING labelheap; INSERT INTO s1only VALUES (1)');
is(as('r_s1', 'TRUNCATE s1only; SELECT count(*) FROM s1only'), '0', 's1 truncates a table holding only s1 rows');

# legitimate: a temporary table disappears at session end without error
my $log_offset = -s $node->logfile;
my $tmp = $node->background_psql('postgres', extra_params => [ '-U', 'r_s1' ]);
my $toid = $tmp->query_safe('CREATE TEMP TABLE tt (id int) USING labelheap; INSERT INTO tt VALUES (1); SELECT \'tt\'::regclass::oid');
$tmp->quit;
$node->poll_query_until('postgres', "SELECT count(*) = 0 FROM pg_class WHERE oid = $toid")
  or die 'the temporary table is still there';
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.table_labels WHERE relid = $toid"),
	'0', 'a temporary table goes at session end, with its label set');
unlike(slurp_file($node->logfile, $log_offset), qr/ERROR/, 'no error when the temporary table goes');

# the sets hold every label: verify_labels finds nothing amiss
for my $rel (qw(t1 parent child pt_low pt_high sch.st owned fresh rewritten ab sab stale race mv))
{
	is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('$rel')"),
		'0', "verify_labels: $rel has every label in its set");
}
# ... and reports a label that is missing from the set
$node->safe_psql('postgres', "DELETE FROM labelam.table_labels WHERE relid = 't1'::regclass");
like($node->safe_psql('postgres', "SELECT string_agg(DISTINCT problem, ',') FROM labelam.verify_labels('t1')"),
	qr/label missing from the relation's label set/, 'verify_labels reports labels missing from the set');

$node->stop;
done_testing();
