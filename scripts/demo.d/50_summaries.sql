-- scripts/demo.d/50_summaries.sql
-- What a low session's scan skips: alice (s0) counts mission after bob
-- (s1) added 20000 rows; the label summary made with the table tells her
-- scan which ranges of 8 blocks hold no label she may select.  Only a
-- session that may select every row (bob) may read the table's block
-- counters: they count hidden rows' blocks.
\c - bob
\echo -- connected as bob (s1)
INSERT INTO mission SELECT g, 'log entry ' || g FROM generate_series(100, 20099) g;
SELECT pg_stat_force_next_flush();
SELECT heap_blks_hit + heap_blks_read AS blocks
  FROM pg_statio_user_tables WHERE relname = 'mission' \gset before_

\c - alice
\echo -- connected as alice (s0)
SELECT count(*) FROM mission;
SELECT pg_stat_force_next_flush();

\c - bob
\echo -- connected as bob (s1): the table in blocks, and the blocks alice read
SELECT pg_relation_size('mission') / 8192 AS table_blocks,
       heap_blks_hit + heap_blks_read - :before_blocks AS alice_read
  FROM pg_statio_user_tables WHERE relname = 'mission';
SELECT heap_blks_hit + heap_blks_read AS blocks
  FROM pg_statio_user_tables WHERE relname = 'mission' \gset before_

\c - alice
\echo -- connected as alice (s0), skipping off: the same count, every block read
SET labelam.skip_ranges = off;
SELECT count(*) FROM mission;
SELECT pg_stat_force_next_flush();

\c - bob
SELECT heap_blks_hit + heap_blks_read - :before_blocks AS alice_read_without_skipping
  FROM pg_statio_user_tables WHERE relname = 'mission';
