# test/t/221_am_attack_whole_table.pl -- adversarial tests, issue 10 class 2.
# Whole-table utility commands on a
# table holding rows beyond the session's reach.  The table's owner is at
# s0; r_s1 and r_s3 have added rows.  ALTER TABLE rewrites and validation
# scans, index builds, CLUSTER and VACUUM FULL read every row, and some
# evaluate the owner's functions on each: each is refused with 42501 and
# the designed DETAIL before anything changes, and the same command succeeds
# on a table whose rows the owner may all select.  Rewrites change rows,
# so they also need update on every row: an s1 owner that reads but may not
# update s0 rows is refused too, while it may still build an index.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamAttack;

my $node = attack_node('attack_whole_table', "autovacuum = off\n");

# t2: rows at s0, s1, s3; ok2: s0 rows only; both owned by r_s0.  probe()
# prints every value it is applied to.
$node->safe_psql('postgres', q{
	CREATE FUNCTION probe(x text) RETURNS text LANGUAGE plpgsql IMMUTABLE
		AS $$ BEGIN RAISE NOTICE 'probe: %', x; RETURN x; END $$;
	CREATE TABLE ref (id int PRIMARY KEY) USING labelheap;
	INSERT INTO ref VALUES (0);
	GRANT ALL ON ref TO PUBLIC;
}, extra_params => [ '-U', 'r_s0' ]);
for my $t (qw(t2 ok2 t3))
{
	$node->safe_psql('postgres', qq{
		CREATE TABLE $t (id int, v text, n int DEFAULT 0) USING labelheap;
		CREATE INDEX ${t}_id_idx ON $t (id);
		ALTER TABLE $t ADD CONSTRAINT ${t}_c6 CHECK (probe(v) <> '') NOT VALID;
		GRANT ALL ON $t TO PUBLIC;
	}, extra_params => [ '-U', 'r_s0' ]);
}
seed($node, 't2');
seed($node, 'ok2', 's0');
$node->safe_psql('postgres', 'ALTER TABLE t3 OWNER TO r_s1');
seed($node, 't3', qw(s0 s1));

# invalid indexes a failed CONCURRENTLY command leaves behind are
# PostgreSQL's doing, not a change of the rows: drop them before comparing
sub drop_invalid_indexes
{
	$node->safe_psql('postgres', q{
		DO $$ DECLARE i regclass;
		BEGIN
			FOR i IN SELECT indexrelid::regclass FROM pg_index WHERE NOT indisvalid LOOP
				EXECUTE format('DROP INDEX %s', i);
			END LOOP;
		END $$;
	});
}

my @commands = (
	[ 'ALTER COLUMN TYPE', 'ALTER TABLE %T ALTER COLUMN n TYPE bigint' ],
	[ 'ALTER COLUMN TYPE USING a function', 'ALTER TABLE %T ALTER COLUMN v TYPE text USING probe(v)' ],
	[ 'ADD COLUMN with a volatile default', 'ALTER TABLE %T ADD COLUMN c3 float8 DEFAULT random()' ],
	[ 'ADD COLUMN GENERATED STORED', 'ALTER TABLE %T ADD COLUMN g4 text GENERATED ALWAYS AS (probe(v)) STORED' ],
	[ 'ADD CONSTRAINT CHECK', 'ALTER TABLE %T ADD CONSTRAINT %T_c5 CHECK (probe(v) IS NOT NULL)' ],
	[ 'VALIDATE CONSTRAINT', 'ALTER TABLE %T VALIDATE CONSTRAINT %T_c6' ],
	[ 'SET NOT NULL', 'ALTER TABLE %T ALTER COLUMN n SET NOT NULL' ],
	[ 'ADD FOREIGN KEY', 'ALTER TABLE %T ADD CONSTRAINT %T_fk FOREIGN KEY (n) REFERENCES ref (id)' ],
	[ 'CREATE INDEX', 'CREATE INDEX %T_a9 ON %T (v)' ],
	[ 'CREATE INDEX on an expression', 'CREATE INDEX %T_a10 ON %T (probe(v))' ],
	[ 'CREATE UNIQUE INDEX', 'CREATE UNIQUE INDEX %T_a11 ON %T (id)' ],
	[ 'CREATE INDEX with a partial-index predicate', "CREATE INDEX %T_a12 ON %T (id) WHERE probe(v) <> ''" ],
	[ 'CREATE INDEX CONCURRENTLY', 'CREATE INDEX CONCURRENTLY %T_a13 ON %T (probe(v))' ],
	[ 'REINDEX TABLE', 'REINDEX TABLE %T' ],
	[ 'REINDEX TABLE CONCURRENTLY', 'REINDEX TABLE CONCURRENTLY %T' ],
	[ 'CLUSTER', 'CLUSTER %T USING %T_id_idx' ],
	[ 'VACUUM FULL', 'VACUUM FULL %T' ],
	# PostgreSQL 15 does nothing when the method does not change: either
	# that or a refusal will do (see below)
	[ 'SET ACCESS METHOD labelheap', 'ALTER TABLE %T SET ACCESS METHOD labelheap', 'noop' ],
	[ 'ADD CONSTRAINT EXCLUDE', 'ALTER TABLE %T ADD CONSTRAINT %T_x19 EXCLUDE USING btree (id WITH =)' ],
	[ 'ADD PRIMARY KEY', 'ALTER TABLE %T ADD PRIMARY KEY (id)' ],
);

my $n = 0;
for my $cmd (@commands)
{
	my ($what, $sql, $noop) = @$cmd;
	my $t2_before = table_state($node, 't2', 'id, v, n');
	$n++;
	(my $on_t2 = $sql) =~ s/%T/t2/g;
	(my $on_ok2 = $sql) =~ s/%T/ok2/g;

	# attack N: the s0 owner runs the command on t2
	my ($rc, $out, $err) = run($node, 'r_s0', $on_t2);
	if ($noop && $err !~ /ERROR/)
	{
		pass("attack $n: $what on a table with hidden rows is a no-op");
	}
	else
	{
		beyond_reach($err, "attack $n: $what on a table with hidden rows is refused (42501, DETAIL)");
	}
	no_leak('s0', "attack $n: $what: no hidden value or label in any message", $out, $err);
	drop_invalid_indexes();
	is(table_state($node, 't2', 'id, v, n'), $t2_before,
		"attack $n: $what: t2's rows, labels, columns, constraints, indexes and storage are unchanged");

	# and on a table whose rows it may all select
	($rc, $out, $err) = run($node, 'r_s0', $on_ok2);
	unlike($err, qr/ERROR/, "attack $n: $what succeeds on a table of s0 rows only");
}

# Rewrites by a session that reads the rows but may not update them:
# r_s1 owns t3, which holds s0 rows (readable, not writable at s1).
for my $cmd (
	[ 'ALTER COLUMN TYPE', 'ALTER TABLE t3 ALTER COLUMN n TYPE bigint' ],
	[ 'ADD COLUMN with a volatile default', 'ALTER TABLE t3 ADD COLUMN c3 float8 DEFAULT random()' ],
	[ 'ALTER COLUMN TYPE USING', "ALTER TABLE t3 ALTER COLUMN v TYPE varchar(100) USING v || '!'" ])
{
	my ($what, $sql) = @$cmd;
	my $t3_before = table_state($node, 't3', 'id, v, n');
	$n++;
	my ($rc, $out, $err) = run($node, 'r_s1', $sql);
	beyond_reach($err, "attack $n: $what by s1 on a table with s0 rows (read, not update) is refused");
	is(table_state($node, 't3', 'id, v, n'), $t3_before, "attack $n: $what: t3 is unchanged");
}

# attack 24: building an index only reads: s1 may index t3
$n++;
my ($rc, $out, $err) = run($node, 'r_s1', 'CREATE INDEX t3_v ON t3 (v)');
unlike($err, qr/ERROR/, "attack $n: s1 may build an index on a table of rows it may all select");
is($node->safe_psql('postgres', "SET enable_seqscan = off; SELECT count(*) FROM t3 WHERE v > ''",
		extra_params => [ '-U', 'r_s1' ]), '6', "attack $n: the index finds all six rows for s1");

is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('t2')"), '0', 't2: verify_labels is empty');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('ok2')"), '0', 'ok2: verify_labels is empty');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('t3')"), '0', 't3: verify_labels is empty');
is($node->safe_psql('postgres', "SELECT string_agg(DISTINCT t.security_label, ',') FROM ok2 t", extra_params => [ '-U', 'r_s3' ]),
	$S0_LABEL, 'ok2 rows kept their s0 label through every command');

$node->stop;
done_testing();
