# test/t/224_am_attack_partitions.pl -- adversarial tests, issue 10 class 5.
# A row never leaves labelheap through
# a partition tree.  Creating or attaching a partition whose access method
# differs from the labelheap members of the tree (either direction, at any
# depth, default partitions included) is refused with 42501 and the designed
# message; where a superuser has mixed a tree anyway (labelam.allow_unlabel),
# routing or moving a labeled row into the heap partition is refused or
# leaves the row where it was: an s0 session never reads an s1 row.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamAttack;

my $node = attack_node('attack_partitions', "autovacuum = off\n");

sub as
{
	my ($role, $sql) = @_;
	$node->safe_psql('postgres', $sql, extra_params => [ '-U', $role ]);
}

# refused(err, partition, parent, name): 42501 with the designed message
sub refused
{
	my ($err, $part, $parent, $name) = @_;
	like($err,
		qr/ERROR:  42501:  ?cannot add partition "$part" to "$parent": rows moved there would lose their security labels/,
		$name);
}

sub partitions
{
	my ($parent) = @_;
	return $node->safe_psql('postgres',
		"SELECT string_agg(relid::regclass::text || ':' || coalesce(amname, '-'), ',' ORDER BY relid::regclass::text)
		   FROM pg_partition_tree('$parent') JOIN pg_class c ON c.oid = relid LEFT JOIN pg_am a ON a.oid = c.relam
		  WHERE relid <> '$parent'::regclass");
}

# p: the attacker's (r_s0) tree with a labelheap partition holding s1 rows
as('r_s0', q{
	CREATE TABLE p (id int, v text) PARTITION BY RANGE (id);
	CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (100) USING labelheap;
	GRANT ALL ON p, p1 TO PUBLIC;
});
as('r_s1', "INSERT INTO p VALUES (11, 'SECRET-s1-11')");
my $tree = partitions('p');
is($tree, 'p1:labelheap', 'the tree has one labelheap partition');

my ($rc, $out, $err);

# attack 1: CREATE TABLE ... PARTITION OF ... USING heap
($rc, $out, $err) = run($node, 'r_s0', 'CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (100) TO (200) USING heap');
refused($err, 'p2', 'p', 'attack 1: a heap partition of a labelheap tree is refused');
is(partitions('p'), $tree, 'attack 1: the tree is unchanged');

# attack 2: the same through default_table_access_method
($rc, $out, $err) = run($node, 'r_s0',
	'SET default_table_access_method = heap; CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (100) TO (200)');
refused($err, 'p2', 'p', 'attack 2: a partition taking heap from default_table_access_method is refused');
is(partitions('p'), $tree, 'attack 2: the tree is unchanged');

# attack 3: ATTACH PARTITION of a heap table
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE h3 (id int, v text) USING heap;
	ALTER TABLE p ATTACH PARTITION h3 FOR VALUES FROM (300) TO (400);
});
refused($err, 'h3', 'p', 'attack 3: attaching a heap table is refused');
is(partitions('p'), $tree, 'attack 3: the tree is unchanged');

# attack 4: a DEFAULT partition of another access method
($rc, $out, $err) = run($node, 'r_s0', 'CREATE TABLE pdef PARTITION OF p DEFAULT USING heap');
refused($err, 'pdef', 'p', 'attack 4: a heap default partition is refused');
is(partitions('p'), $tree, 'attack 4: the tree is unchanged');

# attack 5: ATTACH a heap table as the DEFAULT partition
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE p ATTACH PARTITION h3 DEFAULT');
refused($err, 'h3', 'p', 'attack 5: attaching a heap table as default partition is refused');
is(partitions('p'), $tree, 'attack 5: the tree is unchanged');

# attack 6: a heap leaf below a sub-partitioned branch of the tree
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE p6 PARTITION OF p FOR VALUES FROM (600) TO (700) PARTITION BY RANGE (id);
	CREATE TABLE p6a PARTITION OF p6 FOR VALUES FROM (600) TO (650) USING heap;
});
refused($err, 'p6a', 'p6', 'attack 6: a heap leaf deeper in a labelheap tree is refused');
unlike(partitions('p'), qr/heap(?<!labelheap)/, 'attack 6: the tree has no heap member');

# attack 7: ATTACH a partitioned table whose leaf is heap
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE q7 (id int, v text) PARTITION BY RANGE (id);
	CREATE TABLE q7a PARTITION OF q7 FOR VALUES FROM (700) TO (800) USING heap;
	ALTER TABLE p ATTACH PARTITION q7 FOR VALUES FROM (700) TO (800);
});
refused($err, 'q7', 'p', 'attack 7: attaching a subtree with a heap leaf is refused');
unlike(partitions('p'), qr/heap(?<!labelheap)/, 'attack 7: the tree has no heap member');

# attack 8: the reverse: a labelheap partition in a tree of heap partitions
as('r_s0', q{
	CREATE TABLE h (id int, v text) PARTITION BY RANGE (id);
	CREATE TABLE h1 PARTITION OF h FOR VALUES FROM (0) TO (100) USING heap;
	GRANT ALL ON h, h1 TO PUBLIC;
	INSERT INTO h VALUES (1, 'plain');
});
my $htree = partitions('h');
($rc, $out, $err) = run($node, 'r_s0', 'CREATE TABLE h2 PARTITION OF h FOR VALUES FROM (100) TO (200) USING labelheap');
refused($err, 'h2', 'h', 'attack 8: a labelheap partition of a heap tree is refused');
is(partitions('h'), $htree, 'attack 8: the heap tree is unchanged');

# attack 9: ATTACH a labelheap table holding s1 rows into the heap tree:
# an UPDATE could then move them into h1 unlabeled
as('r_s0', q{
	CREATE TABLE l9 (id int, v text) USING labelheap;
	GRANT ALL ON l9 TO PUBLIC;
});
as('r_s1', "INSERT INTO l9 VALUES (250, 'SECRET-s1-250')");
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE h ATTACH PARTITION l9 FOR VALUES FROM (200) TO (300)');
refused($err, 'l9', 'h', 'attack 9: attaching a labelheap table to a heap tree is refused');
is(partitions('h'), $htree, 'attack 9: the heap tree is unchanged');
($rc, $out, $err) = run($node, 'r_s1', 'UPDATE h SET id = 50 WHERE id = 250');
no_leak('s0', 'attack 9: the s1 row cannot be moved into the heap partition and read by s0',
	$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM h1', extra_params => [ '-U', 'r_s0' ]));

# attack 10: what stays allowed: labelheap partitions of a labelheap tree
($rc, $out, $err) = run($node, 'r_s0', q{
	CREATE TABLE p10 PARTITION OF p FOR VALUES FROM (1000) TO (1100) USING labelheap;
	CREATE TABLE l10 (id int, v text) USING labelheap;
	ALTER TABLE p ATTACH PARTITION l10 FOR VALUES FROM (1100) TO (1200);
});
unlike($err, qr/ERROR/, 'attack 10: labelheap partitions may be created and attached to a labelheap tree');
like(partitions('p'), qr/l10:labelheap.*p10:labelheap/, 'attack 10: both are in the tree');

# attack 11: SET ACCESS METHOD heap on a partition, without the
# superuser's permission
($rc, $out, $err) = run($node, 'r_s0', 'ALTER TABLE p1 SET ACCESS METHOD heap');
denied($err, 'attack 11: SET ACCESS METHOD heap on a labelheap partition is refused');

# A tree a superuser mixed on purpose (labelam.allow_unlabel): m1 is
# labelheap, m2 was turned into heap.  Labeled rows must not get into m2.
as('r_s0', q{
	CREATE TABLE m (id int, v text) PARTITION BY RANGE (id);
	CREATE TABLE m1 PARTITION OF m FOR VALUES FROM (0) TO (100) USING labelheap;
	CREATE TABLE m2 PARTITION OF m FOR VALUES FROM (100) TO (200) USING labelheap;
	GRANT ALL ON m, m1, m2 TO PUBLIC;
});
($rc, $out, $err) = run($node, undef, 'SET labelam.allow_unlabel = on; ALTER TABLE m2 SET ACCESS METHOD heap');
as('r_s1', "INSERT INTO m VALUES (5, 'SECRET-s1-5')");
SKIP:
{
	skip 'no tree can be mixed, even by a superuser: rows cannot leave labelheap through one', 4
	  unless partitions('m') eq 'm1:labelheap,m2:heap';

	# attack 12: UPDATE moving an s1 row from the labelheap partition to
	# the heap one
	($rc, $out, $err) = run($node, 'r_s1', 'UPDATE m SET id = 150 WHERE id = 5');
	no_leak('s0', 'attack 12: after an UPDATE across partitions, s0 reads no s1 row',
		$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM m', extra_params => [ '-U', 'r_s0' ]));
	is($node->safe_psql('postgres', "SELECT tableoid::regclass FROM m WHERE v = 'SECRET-s1-5'", extra_params => [ '-U', 'r_s3' ]),
		'm1', 'attack 12: the row stayed in the labelheap partition');

	# attack 13: INSERT routed into the heap partition of a tree with
	# labelheap members
	($rc, $out, $err) = run($node, 'r_s1', "INSERT INTO m VALUES (160, 'SECRET-s1-160')");
	denied($err, 'attack 13: routing an insert into the heap partition is refused');

	# attack 14: COPY routed there
	($rc, $out, $err) = run($node, 'r_s1', "COPY m FROM STDIN;\n170\tSECRET-s1-170\n\\.\n");
	no_leak('s0', 'attack 14: rows routed by INSERT or COPY into the heap partition are not readable at s0',
		$node->safe_psql('postgres', 'SELECT string_agg(v, \',\') FROM m', extra_params => [ '-U', 'r_s0' ]));
}

is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('p1')"), '0', 'verify_labels(p1) is empty');
is($node->safe_psql('postgres', "SELECT v FROM p", extra_params => [ '-U', 'r_s0' ]), '', 's0 reads no row of p');

$node->stop;
done_testing();
