# test/t/228_am_attack_storage_reads.pl -- storage-level reads through SQL
# under Debian's MLS policy: the TOAST relation of a labelheap table, contrib
# functions that read raw pages, and logical decoding must not hand a low
# session the rows (or values) of rows it may not select
# (src/am/channels/raw_access.c; logical decoding is filtered by
# src/am/replication).  Attackers sit at s0: a role with pg_read_all_data, a
# superuser and a replication role; the hidden rows are at s1 and s3.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use LabelamTest;

my $node = labelam_mls_node('storage_reads', q{
wal_level = logical
max_replication_slots = 4
max_wal_senders = 4
autovacuum = off
});

my %level = (r_s0 => 's0', r_s1 => 's1', r_s3 => 's3');
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE EXTENSION pageinspect;
	CREATE EXTENSION pgstattuple;
	CREATE EXTENSION pg_visibility;
	CREATE EXTENSION amcheck;
	CREATE TABLE doc (id int PRIMARY KEY, code text, body text) USING labelheap;
	ALTER TABLE doc ALTER body SET STORAGE EXTERNAL;	-- out of line, uncompressed
	CREATE INDEX doc_code ON doc (code);
	GRANT ALL ON doc TO PUBLIC;
	CREATE TABLE plain (id int PRIMARY KEY, body text);
	INSERT INTO plain SELECT g, repeat('p', 3000) FROM generate_series(1, 3) g;
	GRANT ALL ON plain TO PUBLIC;
	CREATE ROLE r_reader LOGIN IN ROLE pg_read_all_data;
	CREATE ROLE r_super LOGIN SUPERUSER;
	CREATE ROLE r_high LOGIN REPLICATION;
	INSERT INTO labelam.role_label VALUES
		('r_reader', 'staff_u:staff_r:staff_t:s0'),
		('r_super', 'staff_u:staff_r:staff_t:s0'),
		('r_high', 'staff_u:staff_r:staff_t:s15:c0.c1023');
	SELECT pg_create_logical_replication_slot('slot', 'test_decoding');
	SELECT pg_create_logical_replication_slot('slot2', 'test_decoding');
});
my $id = 0;
for my $role (sort keys %level)
{
	my $lvl = $level{$role};
	my $repl = $role eq 'r_s1' ? 'REPLICATION' : '';
	$node->safe_psql('postgres', qq{
		CREATE ROLE $role LOGIN $repl;
		INSERT INTO labelam.role_label VALUES ('$role', 'staff_u:staff_r:staff_t:$lvl');
	});
	my $from = $id + 1;
	$id += 3;
	# every body is over 2 kB: stored in the TOAST relation
	$node->safe_psql('postgres', qq{
		INSERT INTO doc SELECT g, 'code-$lvl-' || g, 'secret-$lvl-' || repeat('z', 3000)
		  FROM generate_series($from, $id) g;
	}, extra_params => [ '-U', $role ]);
}
my $toast = $node->safe_psql('postgres',
	"SELECT reltoastrelid::regclass FROM pg_class WHERE relname = 'doc'");
like($toast, qr/^pg_toast\.pg_toast_\d+$/, 'doc has a TOAST relation');
ok($node->safe_psql('postgres', "SELECT pg_relation_size('$toast') > 0") eq 't',
	'the bodies are stored out of line');

# run as a role; returns (stdout, stderr) with SQLSTATEs in error lines
sub run_as
{
	my ($role, $sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $role ]);
	return ($out, $err);
}

# an attack that must fail with 42501 and a message, revealing no secret
sub refused
{
	my ($role, $sql, $msg, $name) = @_;
	my ($out, $err) = run_as($role, $sql);
	like($err, qr/ERROR:  42501: $msg/, "attack: $name: refused");
	# as text, or as the hex bytes bt_page_items and bytea output show
	unlike("$out$err", qr/secret-s[13]|code-s[13]|7a7a7a7a|63 ?6f ?64 ?65 ?2d ?73 ?3[13]/,
		"attack: $name: nothing of hidden rows shown");
}

my $toast_msg = qr/permission denied for TOAST relation "\Q$toast\E"/;

# attack 1: pg_read_all_data reads the TOAST relation with SELECT
refused('r_reader', "SELECT convert_from(chunk_data, 'UTF8') FROM $toast",
	$toast_msg, '1 SELECT from TOAST (pg_read_all_data)');
my ($out, $err) = run_as('r_reader', "SELECT 1 FROM $toast LIMIT 0");
like($err, qr/Its values belong to labelheap table "public\.doc"/,
	'attack: 1 the refusal names the TOAST relation and its labelheap table');

# attack 2: a superuser at s0 reads the TOAST relation
refused('r_super', "SELECT string_agg(convert_from(chunk_data, 'UTF8'), '') FROM $toast",
	$toast_msg, '2 SELECT from TOAST (superuser at s0)');

# attack 3: COPY the TOAST relation out
refused('r_reader', "COPY $toast TO STDOUT", $toast_msg, '3 COPY TOAST TO');

# attack 4: COPY a query on it out
refused('r_super', "COPY (SELECT chunk_data FROM $toast) TO STDOUT",
	$toast_msg, '4 COPY (SELECT ... TOAST) TO');

# attack 5: through a view (created by the superuser, read by the reader)
$node->safe_psql('postgres', qq{
	CREATE VIEW toast_view AS SELECT chunk_id, chunk_data FROM $toast;
	GRANT SELECT ON toast_view TO PUBLIC;
});
refused('r_reader', 'SELECT convert_from(chunk_data, \'UTF8\') FROM toast_view',
	$toast_msg, '5 through a view');

# attack 6: through SQL functions, one run by its own executor, one inlined
$node->safe_psql('postgres', qq{
	CREATE FUNCTION toast_chunks() RETURNS bigint LANGUAGE sql
		AS 'SELECT count(*) FROM $toast WHERE convert_from(chunk_data, ''UTF8'') LIKE ''secret-s1%''';
	CREATE FUNCTION toast_rows() RETURNS SETOF bytea LANGUAGE sql STABLE
		AS 'SELECT chunk_data FROM $toast';
});
refused('r_super', 'SELECT toast_chunks()', $toast_msg,
	'6 through a SQL function');
refused('r_reader', "SELECT convert_from(t, 'UTF8') FROM toast_rows() t",
	$toast_msg, '6 through an inlined set-returning SQL function');

my $raw_msg = sub {
	my ($rel, $fn) = @_;
	return qr/permission denied to read relation "\Q$rel\E" with \Q$fn\E\(\)/;
};

# attack 7: get_raw_page on the table
refused('r_super', "SELECT encode(get_raw_page('doc', 0), 'escape')",
	$raw_msg->('public.doc', 'get_raw_page'), '7 get_raw_page on the table');
refused('r_super', "SELECT encode(get_raw_page('public.doc', 'main', 0), 'escape')",
	$raw_msg->('public.doc', 'get_raw_page'), '7 get_raw_page with a fork');

# attack 8: get_raw_page on its TOAST relation
refused('r_super', "SELECT encode(get_raw_page('$toast', 0), 'escape')",
	$raw_msg->($toast, 'get_raw_page'), '8 get_raw_page on TOAST');
refused('r_super', "SELECT encode(get_raw_page('${toast}_index', 1), 'escape')",
	$raw_msg->("${toast}_index", 'get_raw_page'), '8 get_raw_page on the TOAST index');

# attack 9: get_raw_page on its index
refused('r_super', "SELECT encode(get_raw_page('doc_code', 1), 'escape')",
	$raw_msg->('public.doc_code', 'get_raw_page'), '9 get_raw_page on an index');

# attack 10: bt_page_items on its index (keys are row values)
refused('r_super', "SELECT data FROM bt_page_items('doc_code', 1)",
	$raw_msg->('public.doc_code', 'bt_page_items'), '10 bt_page_items on an index');
refused('r_super', "SELECT * FROM bt_metap('doc_pkey')",
	$raw_msg->('public.doc_pkey', 'bt_metap'), '10 bt_metap on an index');

# attack 11: heap_page_items(get_raw_page(...))
refused('r_super',
	"SELECT encode(t_data, 'escape') FROM heap_page_items(get_raw_page('doc', 0))",
	$raw_msg->('public.doc', 'get_raw_page'), '11 heap_page_items(get_raw_page())');

# attack 12: a relation name that only the executor knows
refused('r_super',
	"SELECT encode(get_raw_page(relname::text, 0), 'escape') FROM pg_class WHERE relname = 'doc'",
	'permission denied to call get_raw_page\(\) with a relation that is not a constant',
	'12 get_raw_page with a computed name');

# attack 13: tuple_data_split fetching TOAST values through a forged tuple
refused('r_super',
	q{SELECT tuple_data_split('plain'::regclass, '\x00'::bytea, 0, 0, NULL, true)},
	'permission denied to fetch TOAST values with tuple_data_split\(\)',
	'13 tuple_data_split with detoasting');

# attack 14: statistics read from pages: row counts of hidden rows
refused('r_super', "SELECT tuple_count FROM pgstattuple('$toast')",
	$raw_msg->($toast, 'pgstattuple'), '14 pgstattuple on TOAST');
refused('r_super', "SELECT * FROM pg_check_visible('doc')",
	$raw_msg->('public.doc', 'pg_check_visible'), '14 pg_check_visible on the table');
refused('r_super', "SELECT count(*) FROM pgstatindex('doc_code')",
	$raw_msg->('public.doc_code', 'pgstatindex'), '14 pgstatindex on an index');

# attack 15: logical decoding after hidden inserts: filtered by the
# decoding session's label (src/am/replication; test/t/250 for the rest)
$node->safe_psql('postgres', q{
	INSERT INTO doc VALUES (100, 'code-s3-100', 'secret-s3-decoded');
}, extra_params => [ '-U', 'r_s3' ]);
sub decoded
{
	my ($role, $sql, $name) = @_;
	my ($out, $err) = run_as($role, $sql);
	like($out, qr/code-s0-1/, "attack: $name: the s0 rows are decoded");
	unlike("$out$err", qr/secret-s[13]|code-s[13]/,
		"attack: $name: nothing of hidden rows decoded");
}
decoded('r_super', "SELECT data FROM pg_logical_slot_peek_changes('slot', NULL, NULL)",
	'15 pg_logical_slot_peek_changes (superuser at s0)');
decoded('r_super',
	"SELECT encode(data, 'escape') FROM pg_logical_slot_peek_binary_changes('slot', NULL, NULL, 'force-binary', '1')",
	'15 pg_logical_slot_peek_binary_changes');
# a superuser's own declaration of the builtin
$node->safe_psql('postgres', q{
	CREATE FUNCTION my_changes(name, pg_lsn, integer, VARIADIC text[] DEFAULT '{}',
		OUT lsn pg_lsn, OUT xid xid, OUT data text) RETURNS SETOF record
		LANGUAGE internal AS 'pg_logical_slot_peek_changes';
});
decoded('r_super', "SELECT data FROM my_changes('slot', NULL, NULL)",
	'15 a second declaration of the decoding function');

# attack 16: logical replication connections, and physical ones
sub repl_psql
{
	my ($role, $mode, $cmd) = @_;
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-A', '-t', '-c', $cmd, '-d',
			$node->connstr('postgres') . " user=$role replication=$mode" ],
		'>', \$o, '2>', \$e);
	return ($o, $e);
}
$node->append_conf('pg_hba.conf', "local replication all trust\n");
$node->reload;
($out, $err) = repl_psql('r_s1', 'database', 'IDENTIFY_SYSTEM');
like($out, qr/^\d+\|\d+\|/, 'a logical replication connection of a REPLICATION role at s1 is accepted');
my $endpos = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
IPC::Run::run([ 'pg_recvlogical', '-d', $node->connstr('postgres') . ' user=r_s1',
		'-S', 'slot2', '--start', '--endpos', $endpos, '--no-loop', '-f', '-' ],
	'>', \$out, '2>', \$err);
like($out, qr/code-s1-4/, 'attack: 16 pg_recvlogical at s1 streams the s1 rows');
unlike("$out$err", qr/secret-s3|code-s3/, 'attack: 16 ... and nothing of the s3 rows');
($out, $err) = repl_psql('r_s1', 'true', 'IDENTIFY_SYSTEM');
like($err, qr/FATAL:  physical replication connections are allowed only to superusers/,
	'attack: 16 a physical replication connection of the s1 role is refused');
($out, $err) = repl_psql('r_s1', 'database', 'BASE_BACKUP');
like($err, qr/FATAL:  only logical replication commands are allowed/,
	'attack: 16 a base backup over its logical connection is refused');

# legitimate: physical replication is storage-level trust and still works
($out, $err) = repl_psql('r_super', 'true', 'IDENTIFY_SYSTEM');
like($out, qr/^\d+\|\d+\|/, 'physical replication connection still works');

# legitimate: pageinspect on a heap table and its index
is($node->safe_psql('postgres', "SELECT length(get_raw_page('plain', 0))",
		extra_params => [ '-U', 'r_super' ]), '8192', 'get_raw_page on a heap table works');
is($node->safe_psql('postgres',
		"SELECT count(*) FROM heap_page_items(get_raw_page('plain', 0))",
		extra_params => [ '-U', 'r_super' ]), '3', 'heap_page_items on a heap table works');
is($node->safe_psql('postgres', "SELECT count(*) FROM bt_page_items('plain_pkey', 1)",
		extra_params => [ '-U', 'r_super' ]), '3', 'bt_page_items on a heap table\'s index works');
is($node->safe_psql('postgres',
		q{SELECT count(*) FROM tuple_data_split('plain'::regclass, '\x01000000'::bytea, 2048, 1, NULL)},
		extra_params => [ '-U', 'r_super' ]), '1', 'tuple_data_split without detoasting works');
# amcheck reports corruption only, never values: allowed (its
# heapallindexed check reads every row like an index build, so it needs a
# session that may select them all)
is($node->safe_psql('postgres', "SELECT bt_index_check('doc_code')",
		extra_params => [ '-U', 'r_super' ]), '', 'amcheck on a labelheap index works');

# legitimate: out-of-line values of visible rows read through the table
is($node->safe_psql('postgres',
		"SELECT string_agg(left(body, 10) || length(body), ',' ORDER BY id) FROM doc",
		extra_params => [ '-U', 'r_reader' ]),
	'secret-s0-3010,secret-s0-3010,secret-s0-3010',
	'the reader at s0 reads the values of its visible rows, and only those');
is($node->safe_psql('postgres', "SELECT count(*) FROM doc WHERE body LIKE 'secret-s1-z%'",
		extra_params => [ '-U', 'r_s1' ]), '3', 'r_s1 reads the values of s1 rows');

# legitimate: a session that may select every label decodes every row
my $changes = $node->safe_psql('postgres',
	"SELECT string_agg(data, E'\\n') FROM pg_logical_slot_peek_changes('slot', NULL, NULL)",
	extra_params => [ '-U', 'r_high' ]);
like($changes, qr/secret-s3-decoded/, 'a system-high session decodes every row');

done_testing();
