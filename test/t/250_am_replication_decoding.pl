# test/t/250_am_replication_decoding.pl -- logical decoding of labelheap
# tables under Debian's MLS policy (src/am/replication): every decoding
# context hands a session only what its label may select, whatever the
# plugin (test_decoding, pgoutput) and the way in (the SQL functions,
# pg_recvlogical over a walsender, a slot of its own or another's).
# Attackers are REPLICATION roles at s0 (and s1); rows, messages, gids and
# truncations at s1 and s3 are marked SECRET (LabelamAttack's no_leak).
# Also: what a walsender may do (physical replication for superusers only)
# and publications of labelheap tables (the label column).
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use LabelamTest;
use LabelamAttack;

my $node = attack_node('decoding', q{
wal_level = logical
max_replication_slots = 24
max_wal_senders = 8
max_prepared_transactions = 8
autovacuum = off
});
$node->append_conf('pg_hba.conf', "local replication all trust\n");
$node->reload;
$node->safe_psql('postgres', q{
	ALTER ROLE r_s0 REPLICATION;
	ALTER ROLE r_s1 REPLICATION;
	ALTER ROLE r_s3 REPLICATION;
	-- relabeling needs sysadm_t: up from s0 with a range, down from s3
	CREATE ROLE r_up LOGIN;
	CREATE ROLE r_down LOGIN;
	INSERT INTO labelam.role_label VALUES
		('r_up', 'staff_u:sysadm_r:sysadm_t:s0-s3'),
		('r_down', 'staff_u:sysadm_r:sysadm_t:s3');
	CREATE TABLE t (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	-- the old version of every UPDATE and DELETE in the WAL
	CREATE TABLE f (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	ALTER TABLE f REPLICA IDENTITY FULL;
	CREATE TABLE big (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	ALTER TABLE big ALTER v SET STORAGE EXTERNAL;
	CREATE TABLE tr0 (id int, v text, lbl labelam.security_label) USING labelheap;
	CREATE TABLE tr3 (id int, v text, lbl labelam.security_label) USING labelheap;
	GRANT ALL ON t, f, big, tr0, tr3 TO PUBLIC;
	CREATE PUBLICATION pub FOR TABLE t, f, big, tr0, tr3;
});

# a slot of each attacker's own, for each plugin
my %slots = (td => 'test_decoding', pg => 'pgoutput');
for my $lvl (qw(s0 s1 s3))
{
	for my $p (sort keys %slots)
	{
		$node->safe_psql('postgres',
			"SELECT pg_create_logical_replication_slot('${p}_$lvl', '$slots{$p}', false, true)",
			extra_params => [ '-U', "r_$lvl" ]);
	}
}

# what the SQL decoding functions give role r_LEVEL from a slot
sub changes
{
	my ($lvl, $slot, $opts, %o) = @_;
	my $fn = $o{get} ? 'get' : 'peek';
	$opts = $opts ? ", $opts" : '';
	my ($rc, $out, $err) = run($node, "r_$lvl",
		($o{pre} // '') .
		"SELECT data FROM pg_logical_slot_${fn}_changes('$slot', NULL, NULL$opts)");
	return "$out$err";
}

# pgoutput's messages, bytes as text (protocol 2 streams; messages too)
sub pgoutput
{
	my ($lvl, $slot, $opts) = @_;
	$opts = $opts ? ", $opts" : '';
	my ($rc, $out, $err) = run($node, "r_$lvl", qq{
		SELECT encode(data, 'escape') FROM pg_logical_slot_peek_binary_changes('$slot', NULL, NULL,
			'proto_version', '2', 'publication_names', 'pub', 'messages', 'true'$opts)});
	return "$out$err";
}

# ---- writes at three levels, every kind ----
seed($node, 't');
seed($node, 'f');
# TOAST-size values (out of line, uncompressed) and a multi-insert (COPY)
for my $lvl (qw(s0 s3))
{
	my ($base) = $lvl =~ /(\d)/;
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$node->safe_psql('postgres', qq{
		INSERT INTO big SELECT 10 * $base + g, '$mark-$lvl-toast-' || g || repeat('x', 5000)
		  FROM generate_series(1, 2) g;
		COPY big (id, v) FROM STDIN;
${base}05	$mark-$lvl-copy-1
${base}06	$mark-$lvl-copy-2
\\.
	}, extra_params => [ '-U', "r_$lvl" ]);
}
# updates and deletes at each level (f logs old versions in full)
for my $lvl (qw(s0 s1 s3))
{
	my ($base) = $lvl =~ /(\d)/;
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$node->safe_psql('postgres', qq{
		UPDATE t SET v = '$mark-$lvl-upd' WHERE id = 10 * $base + 1;
		UPDATE t SET id = 10 * $base + 4 WHERE id = 10 * $base + 2;	-- the key: old key logged
		DELETE FROM t WHERE id = 10 * $base + 3;
		UPDATE f SET v = '$mark-$lvl-fupd' WHERE id = 10 * $base + 1;
		DELETE FROM f WHERE id = 10 * $base + 3;
		UPDATE big SET v = v || '-$mark-$lvl-bigupd' WHERE id = 10 * $base + 1;
	}, extra_params => [ '-U', "r_$lvl" ]);
}
# relabels: an s0 row up to s3, an s3 row (out of line) down to s0
$node->safe_psql('postgres',
	"UPDATE t SET lbl = 'staff_u:object_r:sepgsql_table_t:s3', v = 'SECRET-s3-relabeled-up' WHERE id = 4",
	extra_params => [ '-U', 'r_up' ]);
$node->safe_psql('postgres',
	"INSERT INTO big VALUES (39, 'declassified-s3-' || repeat('y', 5000))",
	extra_params => [ '-U', 'r_s3' ]);
$node->safe_psql('postgres',
	"UPDATE big SET lbl = 'staff_u:object_r:sepgsql_table_t:s0' WHERE id = 39",
	extra_params => [ '-U', 'r_down' ]);
# logical messages, transactional or not
for my $lvl (qw(s0 s3))
{
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$node->safe_psql('postgres', qq{
		SELECT pg_logical_emit_message(true, 'm', '$mark-$lvl-msg-tx');
		SELECT pg_logical_emit_message(false, 'm', '$mark-$lvl-msg-nontx');
	}, extra_params => [ '-U', "r_$lvl" ]);
}
# two-phase: gids and prepared rows at s0 and s3
for my $lvl (qw(s0 s3))
{
	my ($base) = $lvl =~ /(\d)/;
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$node->safe_psql('postgres', qq{
		BEGIN;
		INSERT INTO t VALUES (10 * $base + 7, '$mark-$lvl-prepared');
		PREPARE TRANSACTION '$mark-$lvl-gid';
	}, extra_params => [ '-U', "r_$lvl" ]);
	$node->safe_psql('postgres', "COMMIT PREPARED '$mark-$lvl-gid'");
}
# truncations of a table of s0 rows and of one of s3 rows
seed($node, 'tr0', 's0');
seed($node, 'tr3', 's3');
$node->safe_psql('postgres', 'TRUNCATE tr0', extra_params => [ '-U', 'r_s0' ]);
$node->safe_psql('postgres', 'TRUNCATE tr3', extra_params => [ '-U', 'r_s3' ]);
# a transaction of hidden rows only, big enough to be streamed
$node->safe_psql('postgres', q{
	INSERT INTO t SELECT 1000 + g, 'SECRET-s3-stream-' || g FROM generate_series(1, 1500) g;
}, extra_params => [ '-U', 'r_s3' ]);

# ---- test_decoding through SQL, each level on its own slot ----
my $td0 = changes('s0', 'td_s0', "'include-xids', '0'");
no_leak('s0', 'attack: test_decoding at s0 shows no row, old key, TOAST value, message or gid above s0', $td0);
like($td0, qr/INSERT: id\[integer\]:1 v\[text\]:'public-s0-1' lbl\[labelam.security_label\]:'staff_u:object_r:sepgsql_table_t:s0'/,
	's0 receives its rows with their labels');
like($td0, qr/table public.big: INSERT: id\[integer\]:1 v\[text\]:'public-s0-toast-1x{5000}'/,
	's0 receives its TOAST-size values in full');
like($td0, qr/table public.big: INSERT: id\[integer\]:5 v\[text\]:'public-s0-copy-1'/,
	's0 receives its multi-inserted (COPY) rows');
like($td0, qr/table public.t: UPDATE: old-key: id\[integer\]:2 new-tuple: id\[integer\]:4/,
	's0 receives its key change with the old key');
like($td0, qr/table public.f: DELETE: id\[integer\]:3 v\[text\]:'public-s0-3'/,
	's0 receives its old versions (REPLICA IDENTITY FULL)');
like($td0, qr/table public.t: DELETE: id\[integer\]:4\n/,
	'attack: the s0 row relabeled to s3 reaches s0 as a DELETE of its key, no more');
like($td0, qr/table public.big: INSERT: id\[integer\]:39 v\[text\]:'declassified-s3-y{5000}' lbl\[labelam.security_label\]:'staff_u:object_r:sepgsql_table_t:s0'/,
	'the s3 row relabeled to s0 reaches s0 as an INSERT with every value');
like($td0, qr/content:public-s0-msg-tx.*content:public-s0-msg-nontx/s, 's0 receives its messages');
like($td0, qr/table public.tr0: TRUNCATE/, 's0 receives the truncation of its table');
unlike($td0, qr/tr3/, 'attack: the truncation of a table of s3 rows does not reach s0');
unlike($td0, qr/BEGIN\nCOMMIT/, 'no empty transaction: hidden ones send no BEGIN/COMMIT');
my $td0_begins = () = $td0 =~ /^BEGIN$/mg;
my $td3 = changes('s3', 'td_s3', "'include-xids', '0'");
my $td3_begins = () = $td3 =~ /^BEGIN$/mg;
cmp_ok($td0_begins, '<', $td3_begins - 5, 'the transactions of hidden rows are not begun at s0');
like($td3, qr/SECRET-s3-upd/, 's3 receives s3 rows');
like($td3, qr/PREPARE TRANSACTION 'SECRET-s3-gid'/, 's3 receives the s3 prepared transaction');
like($td3, qr/table public.tr3: TRUNCATE/, 's3 receives the truncation of the s3 table');
like($td3, qr/SECRET-s3-msg-tx/, 's3 receives s3 messages');
my $td1 = changes('s1', 'td_s1', "'include-xids', '0'");
no_leak('s1', 'attack: test_decoding at s1 shows nothing of s3', $td1);
like($td1, qr/SECRET-s1-upd/, 's1 receives s1 rows');
like($td1, qr/public-s0-upd/, 's1 receives s0 rows');

# streamed: the hidden transaction opens no stream block at s0
my $st0 = changes('s0', 'td_s0', "'include-xids', '1', 'stream-changes', '1'",
	pre => "SET logical_decoding_work_mem = '64kB';\n");
no_leak('s0', 'attack: streamed decoding at s0 shows nothing above s0', $st0);
my $st3 = changes('s3', 'td_s3', "'stream-changes', '1'",
	pre => "SET logical_decoding_work_mem = '64kB';\n");
like($st3, qr/opening a streamed block/, 's3 receives the big transaction streamed');
my ($stream_xid) = $st3 =~ /opening a streamed block for transaction TXN (\d+)/;
$stream_xid //= 'none';
unlike($st0, qr/transaction TXN $stream_xid\b|streamed transaction $stream_xid\b/,
	'attack: no stream block, commit or xid of the hidden transaction at s0');

# ---- pgoutput through SQL ----
my $pg0 = pgoutput('s0', 'pg_s0');
no_leak('s0', 'attack: pgoutput (binary) at s0 sends no row, label, message or gid above s0', $pg0);
like($pg0, qr/public-s0-1t.*staff_u:object_r:sepgsql_table_t:s0/s,
	'pgoutput sends s0 rows with their label in the label column');
my $pg0s = pgoutput('s0', 'pg_s0', "'streaming', 'on'");
no_leak('s0', 'attack: pgoutput streaming at s0 sends nothing above s0', $pg0s);
my $pg3 = pgoutput('s3', 'pg_s3');
like($pg3, qr/SECRET-s3-1/, 'pgoutput sends s3 rows to s3');

# ---- another's slot: decided by the reader's label, not the slot's ----
my $theirs = changes('s0', 'td_s3');
no_leak('s0', 'attack: s0 reading the s3 role\'s slot sees nothing above s0', $theirs);
like($theirs, qr/public-s0-1/, 's0 reads its own rows from that slot');

# a COMMIT PREPARED decoded after a restart, by another session of the slot
$node->safe_psql('postgres', q{
	BEGIN; INSERT INTO t VALUES (38, 'SECRET-s3-late'); PREPARE TRANSACTION 'SECRET-s3-late-gid';
}, extra_params => [ '-U', 'r_s3' ]);
changes('s3', 'td_s3', '', get => 1);	# s3 consumes up to the PREPARE
$node->safe_psql('postgres', "COMMIT PREPARED 'SECRET-s3-late-gid'");
my $late = changes('s0', 'td_s3');
no_leak('s0', 'attack: a COMMIT PREPARED whose PREPARE went to s3 does not show its gid to s0', $late);
like(changes('s3', 'td_s3'), qr/COMMIT PREPARED 'SECRET-s3-late-gid'/,
	's3 receives it');

# ---- pg_recvlogical over a walsender ----
my $endpos = $node->safe_psql('postgres', 'SELECT pg_current_wal_insert_lsn()');
my ($out, $err) = ('', '');
IPC::Run::run([ 'pg_recvlogical', '-d', $node->connstr('postgres') . ' user=r_s0',
		'-S', 'td_s1', '--start', '--endpos', $endpos, '--no-loop', '-f', '-',
		'-o', 'include-xids=0' ], '>', \$out, '2>', \$err);
like($out, qr/public-s0-upd/, 'pg_recvlogical at s0 streams s0 rows');
no_leak('s0', 'attack: pg_recvlogical with test_decoding at s0 streams nothing above s0', $out, $err);

# ---- a publication of a labelheap table needs the label column ----
$node->safe_psql('postgres', q{
	CREATE TABLE nolabel (id int PRIMARY KEY, v text) USING labelheap;
	CREATE SCHEMA pubschema;
});
my ($rc, $o, $e) = run($node, undef, 'CREATE PUBLICATION p1 FOR TABLE nolabel');
like($e, qr/ERROR:  55000: cannot publish table "nolabel" in publication "p1": it has no label column\n.*\n.*HINT:  Add one: ALTER TABLE public.nolabel ADD COLUMN security_label labelam.security_label;/,
	'attack: a publication of a labelheap table without a label column is refused, with a hint');
($rc, $o, $e) = run($node, undef, 'ALTER PUBLICATION pub ADD TABLE nolabel');
like($e, qr/ERROR:  55000: cannot publish table "nolabel"/, 'attack: ... added to a publication: refused');
($rc, $o, $e) = run($node, undef, 'CREATE PUBLICATION p2 FOR ALL TABLES');
like($e, qr/ERROR:  55000: cannot publish table "nolabel"/, 'attack: ... FOR ALL TABLES: refused');
($rc, $o, $e) = run($node, undef, 'CREATE PUBLICATION p3 FOR TABLE t (id, v)');
like($e, qr/ERROR:  55000: cannot publish table "t" in publication "p3" without its label column "lbl"/,
	'attack: a column list without the label column is refused');
($rc, $o, $e) = run($node, undef, q{
	CREATE PUBLICATION p4 FOR TABLES IN SCHEMA pubschema;
	CREATE TABLE pubschema.x (id int) USING labelheap;
	CREATE TABLE pubschema.y (id int, l labelam.security_label) USING labelheap;
});
like($e, qr/ERROR:  55000: cannot publish table "x" in publication "p4"/,
	'attack: a labelheap table without a label column in a published schema is refused');
is($node->safe_psql('postgres',
		"SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_publication_tables WHERE pubname = 'p4'"),
	'y', 'one with a label column is published');

# ---- walsenders: logical for REPLICATION roles, physical for superusers ----
sub repl_psql
{
	my ($role, $mode, $cmd) = @_;
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-A', '-t', '-c', $cmd, '-d',
			$node->connstr('postgres') . " user=$role replication=$mode" ],
		'>', \$o, '2>', \$e);
	return ($o, $e);
}
($out, $err) = repl_psql('r_s0', 'database', 'IDENTIFY_SYSTEM');
like($out, qr/^\d+\|\d+\|/, 'a logical replication connection of an s0 role is accepted');
($out, $err) = repl_psql('r_s1', 'true', 'IDENTIFY_SYSTEM');
like($err, qr/FATAL:  physical replication connections are allowed only to superusers while labelam is loaded/,
	'attack: a physical replication connection of a REPLICATION role at s1 is refused');
for my $cmd ('BASE_BACKUP', 'START_REPLICATION 0/0', 'START_REPLICATION PHYSICAL 0/0',
	'TIMELINE_HISTORY 1', 'CREATE_REPLICATION_SLOT phys PHYSICAL', 'READ_REPLICATION_SLOT td_s0')
{
	($out, $err) = repl_psql('r_s1', 'database', $cmd);
	like($err, qr/FATAL:  only logical replication commands are allowed to roles that are not superusers/,
		"attack: $cmd on a logical connection of the s1 role is refused");
}
my $superuser = $node->safe_psql('postgres', 'SELECT current_user');
($out, $err) = repl_psql($superuser, 'true', 'IDENTIFY_SYSTEM');
like($out, qr/^\d+\|\d+\|/, 'physical replication for a superuser still works');

done_testing();
