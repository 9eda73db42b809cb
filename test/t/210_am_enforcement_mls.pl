# test/t/210_am_enforcement_mls.pl -- leak probes under Debian's MLS policy
# (through libsepol): clients at different levels read, through every access
# path, exactly the rows the policy lets them select (no read up), and write
# only what it allows.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('mls', q{
max_parallel_workers_per_gather = 2
autovacuum = off
});

# One role per level; each inserts its rows, which the policy labels at its
# level (type_transition into the table's sepgsql_table_t:s0).
my %level = (r_s0 => 's0', r_s1 => 's1', r_s2c1 => 's2:c1', r_s3 => 's3');
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE TABLE doc (id int PRIMARY KEY, lvl text, body text) USING labelheap;
	CREATE INDEX doc_body ON doc (body);
	GRANT ALL ON doc TO PUBLIC;
});
my $id = 0;
for my $role (sort keys %level)
{
	my $lvl = $level{$role};
	$node->safe_psql('postgres', qq{
		CREATE ROLE $role LOGIN;
		INSERT INTO labelam.role_label VALUES ('$role', 'staff_u:staff_r:staff_t:$lvl');
	});
	my $from = $id + 1;
	$id += 200;
	$node->safe_psql('postgres', qq{
		INSERT INTO doc SELECT g, '$lvl', 'secret-$lvl-' || g FROM generate_series($from, $id) g;
	}, extra_params => [ '-U', $role ]);
}
$node->safe_psql('postgres', 'VACUUM ANALYZE doc');

# what the MLS rules let each level read (dominance: no read up)
my %may_read = (
	r_s0 => 's0',
	r_s1 => 's0,s1',
	r_s2c1 => 's0,s1,s2:c1',
	r_s3 => 's0,s1,s3');

# each path's query returns the level of every row it reads
my $levels_sql = 'SELECT lvl FROM ';
# force_parallel_mode is debug_parallel_query from 16 on
my $parallel_guc = $node->pg_version >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
my %paths = (
	'seq scan' => [ 'SET enable_indexscan = off; SET enable_bitmapscan = off;',
		"$levels_sql doc" ],
	'index scan' => [ 'SET enable_seqscan = off; SET enable_bitmapscan = off;',
		"$levels_sql doc WHERE id > 0" ],
	'bitmap scan' => [ 'SET enable_seqscan = off; SET enable_indexscan = off;',
		"$levels_sql doc WHERE id > 0" ],
	'TID scan' => [ '',
		"$levels_sql doc WHERE ctid = ANY (ARRAY(SELECT format('(%s,%s)', b, o)::tid FROM generate_series(0, 20) b, generate_series(1, 200) o))" ],
	'TID range scan' => [ '', "$levels_sql doc WHERE ctid >= '(0,0)' AND ctid < '(1000,0)'" ],
	'TABLESAMPLE' => [ '', "$levels_sql doc TABLESAMPLE BERNOULLI (100)" ],
	'parallel seq scan' => [
		"SET $parallel_guc = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;",
		"$levels_sql doc" ],
	'cursor' => [ 'BEGIN; DECLARE c SCROLL CURSOR FOR SELECT lvl FROM doc; MOVE LAST IN c; MOVE ABSOLUTE 0 IN c;',
		'FETCH ALL FROM c; COMMIT' ],
	'body index lookup' => [ 'SET enable_seqscan = off;',
		"$levels_sql doc WHERE body >= 'secret-'" ],
);

for my $role (sort keys %level)
{
	for my $path (sort keys %paths)
	{
		my ($setup, $query) = @{ $paths{$path} };
		my %got = map { $_ => 1 } grep { /\S/ } split /\n/,
		  $node->safe_psql('postgres', "$setup $query", extra_params => [ '-U', $role ]);
		is(join(',', sort keys %got), $may_read{$role},
			"$role ($level{$role}), $path: exactly the readable levels");
	}
	my $count = () = $may_read{$role} =~ /,/g;
	is($node->safe_psql('postgres', 'SELECT count(*) FROM doc', extra_params => [ '-U', $role ]),
		200 * ($count + 1), "$role: count(*) counts readable rows only");
	# an index-only scan of an all-visible table returns the readable rows
	my $ios = 'SET enable_seqscan = off; SET enable_bitmapscan = off;';
	like($node->safe_psql('postgres', "$ios EXPLAIN SELECT count(*) FROM doc WHERE id > 0",
		extra_params => [ '-U', $role ]), qr/Index Only Scan/, "$role: the plan is an index-only scan");
	is($node->safe_psql('postgres', "$ios SELECT count(*) FROM doc WHERE id > 0", extra_params => [ '-U', $role ]),
		200 * ($count + 1), "$role: index-only scan counts readable rows only");
	# a bitmap heap scan that needs no column reads every page (before
	# 15.13 and 17.5 heap counted an all-visible page's entries unread)
	my $bhs = 'SET enable_seqscan = off; SET enable_indexscan = off;';
	like($node->safe_psql('postgres', "$bhs EXPLAIN SELECT count(*) FROM doc WHERE id > 0",
		extra_params => [ '-U', $role ]), qr/Bitmap Heap Scan/, "$role: the plan is a bitmap heap scan");
	is($node->safe_psql('postgres', "$bhs SELECT count(*) FROM doc WHERE id > 0", extra_params => [ '-U', $role ]),
		200 * ($count + 1), "$role: a column-less bitmap heap scan counts readable rows only");
	my $copy = $node->safe_psql('postgres', 'COPY doc TO STDOUT', extra_params => [ '-U', $role ]);
	my %seen = map { (split /\t/)[1] => 1 } split /\n/, $copy;
	is(join(',', sort keys %seen), $may_read{$role}, "$role: COPY TO returns readable rows only");
}

# ANALYZE, run at s0, puts only s0 rows into pg_statistic
my $stats = $node->safe_psql('postgres',
	"SELECT concat(most_common_vals::text, histogram_bounds::text) FROM pg_stats WHERE tablename = 'doc' AND attname IN ('lvl', 'body')");
unlike($stats, qr/s1|s2|s3/, 'pg_stats holds no value of a row the analyzing session cannot read');
like($stats, qr/s0/, 'pg_stats has the readable values');

# writes: MLS lets a session write rows of its own level only
my ($rc, $out, $err) = $node->psql('postgres', 'UPDATE doc SET body = body', extra_params => [ '-U', 'r_s1', '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  42501: permission denied to update rows of relation "doc"/, 's1 may not update s0 rows: 42501 naming the table and permission');
like($err, qr/rows labeled "staff_u:object_r:sepgsql_table_t:s0"/, 'the error names the row label');
($rc, $out, $err) = $node->psql('postgres', 'DELETE FROM doc WHERE lvl = \'s0\'', extra_params => [ '-U', 'r_s1' ]);
like($err, qr/permission denied to delete rows of relation "doc"/, 's1 may not delete s0 rows');
($rc, $out, $err) = $node->psql('postgres',
	"SET labelam.insert_label = 'staff_u:object_r:sepgsql_table_t:s0'; INSERT INTO doc VALUES (9999, 's0', 'write down')",
	extra_params => [ '-U', 'r_s1' ]);
like($err, qr/permission denied to (insert|relabelto)/, 's1 may not write an s0 row (no write down)');
is($node->safe_psql('postgres', "SELECT count(*), count(*) FILTER (WHERE body LIKE 'secret-%') FROM doc", extra_params => [ '-U', 'r_s3' ]),
	'600|600', 'nothing changed after the denials');
is($node->safe_psql('postgres', "WITH u AS (UPDATE doc SET body = body || '!' WHERE lvl = 's1' RETURNING 1) SELECT count(*) FROM u",
	extra_params => [ '-U', 'r_s1' ]), '200', 's1 updates its own rows');
is($node->safe_psql('postgres', "SELECT count(*) FROM doc WHERE body LIKE '%!' AND lvl = 's1'", extra_params => [ '-U', 'r_s2c1' ]),
	'200', 'the update kept the rows at s1 (s2:c1 still reads them as s1 rows)');

# relabeling with labelam.update_label follows the policy: plain staff may
# not relabel; sysadm at s1 may relabel its rows up (s2) and down (s0)
$node->safe_psql('postgres', q{
	CREATE ROLE r_admin LOGIN;
	INSERT INTO labelam.role_label VALUES ('r_admin', 'staff_u:sysadm_r:sysadm_t:s1');
});
$node->safe_psql('postgres', "INSERT INTO doc SELECT g, 's1', 'relabel-' || g FROM generate_series(2001, 2010) g",
	extra_params => [ '-U', 'r_s1' ]);
($rc, $out, $err) = $node->psql('postgres',
	"SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s2'; UPDATE doc SET lvl = 's2' WHERE id = 2001",
	extra_params => [ '-U', 'r_s1' ]);
like($err, qr/permission denied to relabelfrom rows of relation "doc"/, 'staff may not relabel (relabelfrom denied)');
is($node->safe_psql('postgres',
	"SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s2'; WITH u AS (UPDATE doc SET lvl = 's2' WHERE id BETWEEN 2001 AND 2005 RETURNING 1) SELECT count(*) FROM u",
	extra_params => [ '-U', 'r_admin' ]), '5', 'sysadm relabels five rows up to s2');
is($node->safe_psql('postgres',
	"SET labelam.update_label = 'staff_u:object_r:sepgsql_table_t:s0'; WITH u AS (UPDATE doc SET lvl = 's0' WHERE id BETWEEN 2006 AND 2010 RETURNING 1) SELECT count(*) FROM u",
	extra_params => [ '-U', 'r_admin' ]), '5', 'sysadm relabels five rows down to s0');
is($node->safe_psql('postgres', "SELECT string_agg(id::text, ',' ORDER BY id) FROM doc WHERE id > 2000", extra_params => [ '-U', 'r_s1' ]),
	'2006,2007,2008,2009,2010', 's1 no longer reads the rows relabeled up, still reads those relabeled down');
is($node->safe_psql('postgres', "SELECT string_agg(id::text, ',' ORDER BY id) FROM doc WHERE id > 2000", extra_params => [ '-U', 'r_s0' ]),
	'2006,2007,2008,2009,2010', 's0 reads the rows relabeled down');
is($node->safe_psql('postgres', "SELECT count(*) FROM doc WHERE id > 2000 AND lvl = 's2'", extra_params => [ '-U', 'r_s2c1' ]),
	'5', 's2:c1 reads the rows relabeled up to s2');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('doc')"), '0', 'no damaged label');

# leaving labelheap would drop the labels
($rc, $out, $err) = $node->psql('postgres', 'ALTER TABLE doc SET ACCESS METHOD heap');
like($err, qr/cannot change the access method of "doc": its rows would lose their security labels/,
	'SET ACCESS METHOD heap is refused');

$node->stop;
done_testing();
