# test/t/400_label_sql_column_dump.pl -- pg_dump + pg_restore of tables with a
# declared label column carry every (row, label) pair: pg_dump's COPY TO reads
# the labels, the restore's COPY FROM sets them.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_node('dump');
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
	CREATE EXTENSION labelam;
	CREATE TABLE t (id int PRIMARY KEY, v text, lbl labelam.security_label)
		USING labelheap;
	-- rows in several COPY batches, labels changing within a batch
	INSERT INTO t
	SELECT i, 'row ' || i,
		   CASE WHEN i % 7 = 0 THEN NULL
				ELSE 'system_u:object_r:sepgsql_table_t:s0:c' || (i % 5) END
	FROM generate_series(1, 3000) i;
	UPDATE t SET lbl = 'system_u:object_r:sepgsql_ro_table_t:s0' WHERE id % 100 = 1;
	-- the label column need not be the last one, nor named security_label
	CREATE TABLE u (security_label labelam.security_label, id int) USING labelheap;
	INSERT INTO u VALUES ('system_u:object_r:sepgsql_secret_table_t:s0', 1), (NULL, 2);
	CREATE VIEW v AS SELECT id, lbl FROM t WHERE id % 100 = 1;
});

# (row, label) pairs, the labels read from the tuple headers
my $pairs = q{
	SELECT string_agg(format('%s=%s', id,
		labelam.label_text(labelam.tuple_secid('t', ctid))), ',' ORDER BY id)
	FROM t};
my $upairs = q{
	SELECT string_agg(format('%s=%s', id,
		labelam.label_text(labelam.tuple_secid('u', ctid))), ',' ORDER BY id)
	FROM u};
my $column = q{SELECT count(*) FILTER (WHERE lbl IS NOT DISTINCT FROM
	labelam.label_text(labelam.tuple_secid('t', ctid))) || '/' || count(*) FROM t};
my $before = $node->safe_psql('src', $pairs);
my $ubefore = $node->safe_psql('src', $upairs);
is($node->safe_psql('src', $column), '3000/3000',
	'the column reads the header labels');
is($node->safe_psql('src', q{SELECT count(DISTINCT lbl) FROM t}), '7',
	'seven distinct labels before the dump');

my $dump = $node->basedir . '/src.dump';
command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr('src'), '-f', $dump ],
	'pg_dump');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
command_ok([ 'pg_restore', '-d', $node->connstr('dst'), $dump ],
	'pg_restore into a new database');

is($node->safe_psql('dst', $pairs), $before,
	'every (row, label) pair of t is restored');
is($node->safe_psql('dst', $upairs), $ubefore,
	'every (row, label) pair of u is restored');
is($node->safe_psql('dst', $column), '3000/3000',
	'the restored column reads the header labels');
my $view = q{SELECT format_type(atttypid, atttypmod) FROM pg_attribute
	WHERE attrelid = 'v'::regclass AND attname = 'lbl';
	SELECT string_agg(id || '=' || lbl, ',' ORDER BY id) FROM v};
is($node->safe_psql('dst', $view), $node->safe_psql('src', $view),
	'a view of the column keeps its type and rows');

# a plain-format dump carries the labels as text in its COPY data
my $plain = $node->basedir . '/src.sql';
command_ok([ 'pg_dump', '-t', 'u', '-d', $node->connstr('src'), '-f', $plain ],
	'plain pg_dump');
like(slurp_file($plain),
	qr/^system_u:object_r:sepgsql_secret_table_t:s0\t1$/m,
	'the COPY data holds the label text');

$node->stop;
done_testing();
