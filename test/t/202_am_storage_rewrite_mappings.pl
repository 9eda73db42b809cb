# test/t/202_am_storage_rewrite_mappings.pl -- VACUUM FULL and CLUSTER of a
# labelheap table that logical decoding reads as a catalog
# (user_catalog_table) while a logical slot exists: labelheap's rewriteheap.c
# writes the logical rewrite mapping files and their WAL records as heap's
# does, and the server's own code checkpoints, replays and decodes past
# them; every row keeps its label and value.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_node('main');
$node->append_conf('postgresql.conf', qq{
wal_level = logical
max_replication_slots = 2
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION labelam;
	CREATE FUNCTION big(seed int) RETURNS text LANGUAGE sql AS
		$$ SELECT string_agg(md5((seed * 10000 + g)::text), '') FROM generate_series(1, 3000) g $$;
	CREATE TABLE uc (id int PRIMARY KEY, k int, want text, v text) USING labelheap
		WITH (user_catalog_table = true);
	CREATE INDEX uc_k ON uc (k);
	SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c51';
	INSERT INTO uc SELECT g, g, 'system_u:object_r:sepgsql_table_t:s0:c51',
		CASE WHEN g % 4 = 0 THEN big(g) ELSE 'v' || g END FROM generate_series(1, 20) g;
	SELECT pg_create_logical_replication_slot('slot', 'test_decoding');
});

# changes after the slot's catalog horizon: their versions need mappings
$node->safe_psql('postgres', q{
	SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s0:c52';
	INSERT INTO uc SELECT g, g, 'system_u:object_r:sepgsql_table_t:s0:c52',
		CASE WHEN g % 4 = 0 THEN big(g) ELSE 'v' || g END FROM generate_series(21, 30) g;
});
$node->safe_psql('postgres', "UPDATE uc SET v = v || '+' WHERE id % 4 = 1");
$node->safe_psql('postgres', "UPDATE uc SET k = -k WHERE id % 4 = 2");
# (deleted rows without out-of-line values: the TOAST table of a
# user_catalog_table is pruned with the data horizon, not the catalog one,
# and heap's own VACUUM FULL then fails on the recently-dead deleted rows'
# values, 15.18)
$node->safe_psql('postgres', "DELETE FROM uc WHERE id % 4 = 3");

my $state = q{
	SELECT count(*),
		   count(*) FILTER (WHERE labelam.label_text(labelam.tuple_secid('uc', ctid)) = want),
		   md5(string_agg(id || ':' || k || ':' || md5(v), ',' ORDER BY id))
	FROM uc};
my $before = $node->safe_psql('postgres', $state);
like($before, qr/^23\|23\|/, 'before the rewrites: 23 rows, each with its label');

$node->safe_psql('postgres', 'VACUUM FULL uc');
cmp_ok($node->safe_psql('postgres', 'SELECT count(*) FROM pg_ls_logicalmapdir()'),
	'>', 0, 'VACUUM FULL wrote logical rewrite mapping files');
$node->safe_psql('postgres', 'SET enable_sort = off; CLUSTER uc USING uc_k');
$node->safe_psql('postgres', 'SET enable_indexscan = off; CLUSTER uc USING uc_k');
is($node->safe_psql('postgres', $state), $before,
	'after VACUUM FULL and CLUSTER: the same rows, values and labels');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('uc')"),
	'0', 'no damaged label');

# the server's checkpoint reads the mapping files' names; its redo replays
# their WAL records (XLOG_HEAP2_REWRITE)
$node->safe_psql('postgres', 'CHECKPOINT');
$node->safe_psql('postgres', 'VACUUM FULL uc');
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', $state), $before,
	'after crash recovery: the same rows, values and labels');
is($node->safe_psql('postgres', "SELECT count(*) FROM labelam.verify_labels('uc')"),
	'0', 'no damaged label after crash recovery');

# decoding reads past the rewrites: the inserts, updates and deletes made
# after the slot, and nothing of the rewrites' own writes
my $decoded = $node->safe_psql('postgres', q{
	SELECT count(*) FILTER (WHERE data LIKE 'table public.uc: INSERT:%') || ' ' ||
		   count(*) FILTER (WHERE data LIKE 'table public.uc: UPDATE:%') || ' ' ||
		   count(*) FILTER (WHERE data LIKE 'table public.uc: DELETE:%')
	FROM pg_logical_slot_get_changes('slot', NULL, NULL)});
is($decoded, '10 16 7', 'decoding after the rewrites: 10 inserts, 16 updates, 7 deletes');
# (which of the files a checkpoint may remove depends on how far the slot's
# restart point moved; it parses every name and fails on a malformed one)
$node->safe_psql('postgres', 'CHECKPOINT');

done_testing();
