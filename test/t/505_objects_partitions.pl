# test/t/505_objects_partitions.pl -- partitioned multi-level tables with
# object checks on (issue 33, item 3).
#
# A partitioned table has no rows of its own: written through, its rows land
# in its leaves.  When every leaf is a labelheap table, rows written through
# the parent are decided by their own labels, as on a labelheap table
# (src/objects/check.c), not by db_table { insert update delete } on the
# parent, which Debian's MLS policy allows only at the parent's level (s0).
# So sessions at s0, s1 and s3 insert, update and delete through it, each
# at its own level, also through a view, with ON CONFLICT, by moving rows
# between partitions and with COPY; and nothing they could not do on a
# labelheap table becomes possible: no write below their level, no read
# above it.  A partitioned table with a leaf of another access method keeps
# the parent's check.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $node = attack_node('objects_partitions', "autovacuum = off\n", objects => 1);

# the administrator (staff_u:sysadm_r:sysadm_t:s0) creates the tree
$node->safe_psql('postgres', q{
	CREATE TABLE pt (id int, part int, v text, PRIMARY KEY (id, part))
		PARTITION BY LIST (part);
	CREATE TABLE pt_a PARTITION OF pt FOR VALUES IN (1) USING labelheap;
	CREATE TABLE pt_b PARTITION OF pt FOR VALUES IN (2) PARTITION BY RANGE (id);
	CREATE TABLE pt_b1 PARTITION OF pt_b FOR VALUES FROM (0) TO (1000) USING labelheap;
	CREATE VIEW pv AS SELECT * FROM pt;
	GRANT ALL ON pt, pv TO PUBLIC;

	CREATE TABLE ph (id int, part int, v text) PARTITION BY LIST (part);
	CREATE TABLE ph_a PARTITION OF ph FOR VALUES IN (1);
	GRANT ALL ON ph TO PUBLIC;
});

my %base = (s0 => 0, s1 => 10, s3 => 30);

# each level writes its rows through the parent, the view and COPY
for my $lvl (qw(s0 s1 s3))
{
	my $b = $base{$lvl};
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	my ($rc, $out, $err) = run($node, "r_$lvl", qq{
		INSERT INTO pt VALUES ($b + 1, 1, '$mark-$lvl-1'), ($b + 2, 2, '$mark-$lvl-2');
		INSERT INTO pv VALUES ($b + 3, 1, '$mark-$lvl-3');
		COPY pt FROM STDIN;
$b\t2\t$mark-$lvl-copy
\\.
	});
	unlike($err, qr/ERROR/, "$lvl inserts through the parent, a view and COPY");
}
is($node->safe_psql('postgres',
		"SELECT string_agg(id || ':' || right(t.security_label, 2), ',' ORDER BY id) FROM pt t",
		extra_params => [ '-U', 'r_s3' ]),
	'0:s0,1:s0,2:s0,3:s0,10:s1,11:s1,12:s1,13:s1,30:s3,31:s3,32:s3,33:s3',
	'every row is labeled at the level of the session that wrote it');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pt', extra_params => [ '-U', 'r_s0' ]), '4',
	's0 reads its 4 rows only');
no_leak('s0', 's0 reads nothing above s0 through the parent or the view',
	$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM pt; SELECT string_agg(v, \',\') FROM pv',
		extra_params => [ '-U', 'r_s0' ]));

# updates and deletes at each session's own level
for my $lvl (qw(s0 s1 s3))
{
	my $b = $base{$lvl};
	my ($rc, $out, $err) = run($node, "r_$lvl", qq{
		UPDATE pt SET v = v || '+' WHERE id = $b + 1;
		UPDATE pv SET v = v || '+' WHERE id = $b + 3;
		DELETE FROM pt WHERE id = $b;
		INSERT INTO pt VALUES ($b + 2, 2, 'dup') ON CONFLICT (id, part) DO UPDATE SET v = excluded.v;
		UPDATE pt SET part = 2 WHERE id = $b + 3;
	});
	unlike($err, qr/ERROR/, "$lvl updates (also a partition move), deletes and upserts its own rows");
}
is($node->safe_psql('postgres',
		"SELECT string_agg(id || ':' || part || ':' || v || ':' || right(t.security_label, 2), ',' ORDER BY id) FROM pt t",
		extra_params => [ '-U', 'r_s3' ]),
	'1:1:public-s0-1+:s0,2:2:dup:s0,3:2:public-s0-3+:s0,'
	. '11:1:SECRET-s1-1+:s1,12:2:dup:s1,13:2:SECRET-s1-3+:s1,'
	. '31:1:SECRET-s3-1+:s3,32:2:dup:s3,33:2:SECRET-s3-3+:s3',
	'each row changed at its own level and kept its label, moved rows too');

# what a labelheap table refuses stays refused through the parent
my ($rc, $out, $err) = run($node, 'r_s1', "UPDATE pt SET v = 'x' WHERE id = 1");
denied($err, 's1 may not update an s0 row through the parent (42501)');
($rc, $out, $err) = run($node, 'r_s1', "DELETE FROM pv WHERE id = 2");
denied($err, 's1 may not delete an s0 row through the view (42501)');
($rc, $out, $err) = run($node, 'r_s0', "INSERT INTO pt VALUES (1, 1, 'clash') ON CONFLICT (id, part) DO UPDATE SET v = 'x'");
unlike($err, qr/ERROR/, 's0 upsert on its own row');
($rc, $out, $err) = run($node, 'r_s0', "INSERT INTO pt VALUES (11, 1, 'clash') ON CONFLICT (id, part) DO UPDATE SET v = 'x'");
like($err, qr/ERROR:  42501: .*conflicting row is beyond the reach/s, 's0 upsert onto a hidden s1 row: refused (42501)');
($rc, $out, $err) = run($node, 'r_s0', "SET labelam.insert_label = 'staff_u:object_r:sepgsql_table_t:s3'; INSERT INTO pt VALUES (50, 1, 'up')");
denied($err, 's0 may not write a row at s3 through the parent (42501)');
($rc, $out, $err) = run($node, 'r_s3', "UPDATE pt SET part = 1 WHERE id = 2");
denied($err, 's3 may not move an s0 row to another partition (42501)');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pt WHERE id = 50', extra_params => [ '-U', 'r_s3' ]), '0',
	'no row was written at s3 by s0');
($rc, $out, $err) = run($node, 'r_s0', 'TRUNCATE pt');
beyond_reach($err, 's0 may not truncate the tree while it holds higher rows');

# a tree with a leaf of another access method keeps the parent's check
($rc, $out, $err) = run($node, 'r_s3', "INSERT INTO ph VALUES (1, 1, 'SECRET-s3-heap')");
like($err, qr/ERROR:  42501: SELinux: security policy violation\n(?:.*\n)*?DETAIL:  The security policy does not allow db_table \{ insert \}/,
	'an s3 insert into a partitioned table of heap partitions is decided on the parent: refused');
($rc, $out, $err) = run($node, 'r_s0', "INSERT INTO ph VALUES (1, 1, 'public-s0-heap')");
unlike($err, qr/ERROR/, 'the s0 insert into it is allowed');

$node->stop;
done_testing();
