# test/t/512_files_write_down.pl -- COPY TO a file below the level of what
# the COPY reads is refused (issue 39): the read ceiling.  Debian's MLS
# policy lets no database client write a file below its own level, so
# the ceiling never has to act there; this test compiles a small MLS
# policy (checkpolicy) with a type, writedown_t, that the policy lets
# write files of any level, as trusted types (mlsfilewrite) are let in
# Debian's.  Such a session at s3 may write an s0 file, but not with s3
# rows in it: the COPY fails as soon as it reads one, directly or in a
# function, and the same session then reads as before.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run ();
use LabelamTest;
use LabelamAttack qw(run denied no_leak);
use LabelamFiles;

-x '/usr/bin/checkpolicy' or plan(skip_all => 'checkpolicy is missing (scripts/deps.sh)');

my $dir = PostgreSQL::Test::Utils::tempdir();
write_file("$dir/writedown.conf", <<'EOF');
class process
class file
class dir
class fifo_file
class chr_file
class blk_file
class db_tuple

sid kernel
sid security
sid unlabeled
sid fs
sid file

common file { read write create getattr open append ioctl lock }

class process { transition setcurrent dyntransition }
class file inherits file
class dir inherits file { search add_name remove_name }
class fifo_file inherits file
class chr_file inherits file
class blk_file inherits file
class db_tuple { select update insert delete relabelfrom relabelto use }

sensitivity s0;
sensitivity s1;
sensitivity s2;
sensitivity s3;
dominance { s0 s1 s2 s3 }
category c0;
level s0:c0;
level s1:c0;
level s2:c0;
level s3:c0;

mlsconstrain { file fifo_file chr_file blk_file } { read getattr } (l1 dom l2);
mlsconstrain { file fifo_file chr_file blk_file } { write create append } ((l1 eq l2) or (t1 == writedown_t));
mlsconstrain dir { search getattr } (l1 dom l2);
mlsconstrain dir { write add_name } (l1 eq l2);
mlsconstrain db_tuple { select use } (l1 dom l2);
mlsconstrain db_tuple { insert update delete relabelfrom } (l1 eq l2);

type user_t;
type writedown_t;
type file_t;
type table_t;
type unlabeled_t;
role user_r;
role user_r types { user_t writedown_t };

allow { user_t writedown_t } file_t:{ file fifo_file dir } *;
allow { user_t writedown_t } table_t:db_tuple *;

user user_u roles { user_r object_r } level s0 range s0 - s3:c0;
user system_u roles { object_r } level s0 range s0 - s3:c0;

sid kernel system_u:object_r:unlabeled_t:s0
sid security system_u:object_r:unlabeled_t:s0
sid unlabeled system_u:object_r:unlabeled_t:s0
sid fs system_u:object_r:unlabeled_t:s0
sid file system_u:object_r:unlabeled_t:s0
EOF
my ($cout, $cerr);
IPC::Run::run([ '/usr/bin/checkpolicy', '-M', '-c', '33', '-o', "$dir/writedown.33",
	"$dir/writedown.conf" ], '>', \$cout, '2>', \$cerr)
  or die "checkpolicy: $cout $cerr";
chmod 0644, "$dir/writedown.33";

my $node = labelam_mls_node('writedown', qq{
labelam.policy_file = '$dir/writedown.33'
labelam.default_client_label = 'user_u:user_r:user_t:s0'
labelam.default_table_label = 'system_u:object_r:table_t:s0'
});
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE ROLE u0 LOGIN;
	CREATE ROLE u3 LOGIN;
	CREATE ROLE w3 LOGIN;
	GRANT pg_write_server_files TO u3, w3;
	GRANT pg_read_server_files TO u3;
	INSERT INTO labelam.role_label VALUES
		('u0', 'user_u:user_r:user_t:s0'),
		('u3', 'user_u:user_r:user_t:s3'),
		('w3', 'user_u:user_r:writedown_t:s3');
	CREATE TABLE t (id int, v text) USING labelheap;
	CREATE TABLE t0 (id int, v text) USING labelheap;
	CREATE FUNCTION peek() RETURNS text LANGUAGE sql STABLE
		AS $$ SELECT string_agg(v, ',') FROM t $$;
	GRANT ALL ON t, t0 TO PUBLIC;
});
as_role($node, 'u0', q{INSERT INTO t VALUES (1, 'public-s0'); INSERT INTO t0 VALUES (1, 'public-s0')});
as_role($node, 'u3', q{INSERT INTO t VALUES (3, 'SECRET-s3')});

my $d0 = files_dir($node, 'd_s0', 'system_u:object_r:file_t:s0');
my $d3 = files_dir($node, 'd_s3', 'system_u:object_r:file_t:s3');
my $low = "$d0/low.csv";
write_file($low, "untouched\n");
set_file_label($low, 'system_u:object_r:file_t:s0');
my ($rc, $out, $err);

($rc, $out, $err) = run($node, 'u3', "COPY t TO '$low'");
denied($err, 'an ordinary s3 session may not write an s0 file (the policy)');
($rc, $out, $err) = run($node, 'w3', "COPY t0 TO '$low'");
succeeds($err, 'the write-down type may write s0 rows into an s0 file');
is(read_file($low), "1\tpublic-s0\n", '... which it did');

($rc, $out, $err) = run($node, 'w3', "COPY t TO '$low'");
denied($err, 'but not s3 rows');
like($err, qr/permission denied to write file "\Q$low\E" with data from above its level/,
	'... refused by the read ceiling');
like($err, qr/reads db_tuple labeled "user_u:object_r:table_t:s3"/, '... naming what it read');
no_leak('s0', 'no s3 row went into the s0 file', read_file($low));

($rc, $out, $err) = run($node, 'w3', "COPY (SELECT peek()) TO '$low'");
denied($err, 'nor s3 rows that a function called by the COPY reads');
no_leak('s0', 'none went into the file', read_file($low));

# parallel workers take the session's label, not the ceiling: with them,
# and the leader reading nothing itself, a Gather would bring s3 rows in
my $parallel = q{SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
	SET parallel_leader_participation = off;};
($rc, $out, $err) = run($node, 'w3', "$parallel EXPLAIN (COSTS OFF) SELECT v FROM t");
like($out, qr/Gather/, 'the query below is planned with parallel workers');
($rc, $out, $err) = run($node, 'w3', "$parallel COPY (SELECT v FROM t) TO '$low'");
denied($err, 'a parallel COPY TO is refused as well: it runs without workers');
no_leak('s0', 'none went into the file', read_file($low));

($rc, $out, $err) = run($node, 'w3', "COPY t TO '$low'; SELECT count(*) FROM t");
is($out, '2', 'after the refusal the session reads every row it may, as before');

($rc, $out, $err) = run($node, 'w3', "COPY t TO '$d3/high.csv'");
succeeds($err, 'the same COPY into an s3 file');
like(read_file("$d3/high.csv"), qr/SECRET-s3/, '... writes the s3 rows');

# labelam.insert_label relabels a file's rows as two statements could:
# insert at the file's level, then relabel (insert, update, relabelfrom on
# the file's level, relabelto on the chosen label), never as an insert of
# the chosen label alone (which MLS allows only at the session's level)
my $in3 = "$d3/in.csv";
write_file($in3, "7,SECRET-imported\n");
set_file_label($in3, 'system_u:object_r:file_t:s3');
($rc, $out, $err) = run($node, 'u3', "SET labelam.insert_label = 'user_u:object_r:table_t:s0';
	COPY t FROM '$in3' (FORMAT csv);
	SELECT x.security_label FROM t x WHERE id = 7");
like($out, qr/^user_u:object_r:table_t:s0$/m, 'an s3 file\'s rows relabeled to s0 as the policy allows');
unlike($err, qr/ERROR/, '... checked as a relabel from s3, not as an insert at s0');

done_testing();
