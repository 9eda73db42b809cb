-- The label dictionary: labelam.pg_security, intern_label, label_text,
-- labelam.insert_label.
\set SHOW_CONTEXT never
-- labels here are opaque text, not valid in the test clusters' policy
SET labelam.debug_opaque_labels = on;

-- The catalog is a plain heap table whatever the default access method;
-- pg_dump does not carry it (dumps carry labels as text), only role_label.
SELECT c.relname, a.amname
FROM pg_class c JOIN pg_am a ON a.oid = c.relam
WHERE c.oid = 'labelam.pg_security'::regclass;
SELECT c.relname AS dumped
FROM pg_extension e, unnest(e.extconfig) x JOIN pg_class c ON c.oid = x
WHERE e.extname = 'labelam' ORDER BY 1;
SELECT conname, contype, pg_get_constraintdef(oid)
FROM pg_constraint WHERE conrelid = 'labelam.pg_security'::regclass
  AND contype <> 'n'			-- 18 lists NOT NULL constraints too
ORDER BY conname;

-- Interning: the same text always gives the same secid, another text
-- another secid, and the text comes back.
SELECT labelam.intern_label('system_u:object_r:sepgsql_table_t:s0') AS s0 \gset
SELECT labelam.intern_label('system_u:object_r:sepgsql_table_t:s0') = :s0 AS same;
SELECT labelam.intern_label('system_u:object_r:sepgsql_table_t:s1') AS s1 \gset
SELECT :s1 <> :s0 AS different;
SELECT labelam.label_text(:s0), labelam.label_text(:s1);
SELECT secid = :s0 AS is_s0, seclabel FROM labelam.pg_security WHERE secid IN (:s0, :s1) ORDER BY secid;
-- multibyte text is fine, and spaces are printable
SELECT labelam.label_text(labelam.intern_label('機密 label'));

-- Unknown secids have no text.
SELECT labelam.label_text(0) IS NULL AS invalid_oid,
       labelam.label_text(4000000000) IS NULL AS unknown;
SELECT labelam.label_text(NULL) IS NULL AS null_in, labelam.intern_label(NULL) IS NULL AS null_in;

-- The longest label: 4096 bytes, stored and found again (a btree unique
-- index could not hold it).
SELECT labelam.intern_label(string_agg(md5(i::text), '')) AS long
FROM generate_series(1, 128) i \gset
SELECT length(labelam.label_text(:long)),
       labelam.label_text(:long) = (SELECT string_agg(md5(i::text), '') FROM generate_series(1, 128) i) AS same_text,
       labelam.intern_label((SELECT string_agg(md5(i::text), '') FROM generate_series(1, 128) i)) = :long AS same_secid;

-- Bad text: ERROR 22023 naming it, and nothing interned.
SELECT count(*) AS before FROM labelam.pg_security \gset
SELECT labelam.intern_label('');
\echo :LAST_ERROR_SQLSTATE
SELECT labelam.intern_label(repeat('x', 4097));
\echo :LAST_ERROR_SQLSTATE
SELECT labelam.intern_label(E'user_u:object_r:t\n:s0');
\echo :LAST_ERROR_SQLSTATE
SELECT labelam.intern_label(E'tab\there');
\echo :LAST_ERROR_SQLSTATE
SELECT labelam.intern_label(E'del\x7f');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) = :before AS nothing_interned FROM labelam.pg_security;

-- Interning is transactional.  An aborted label is gone: its secid has no
-- text, and is never handed out again.
BEGIN;
SELECT labelam.intern_label('aborted_u:object_r:t:s0') AS aborted \gset
SELECT labelam.label_text(:aborted);	-- visible to its own transaction
SELECT labelam.intern_label('aborted_u:object_r:t:s0') = :aborted AS same;
ROLLBACK;
SELECT labelam.label_text(:aborted) IS NULL AS gone;
SELECT count(*) FROM labelam.pg_security WHERE seclabel = 'aborted_u:object_r:t:s0';
SELECT labelam.intern_label('aborted_u:object_r:t:s0') > :aborted AS new_secid;

-- A label interned in a rolled-back subtransaction goes with it; one in a
-- released subtransaction commits with the transaction.
BEGIN;
SAVEPOINT a;
SELECT labelam.intern_label('sub_u:object_r:t:s0') AS sub_aborted \gset
ROLLBACK TO SAVEPOINT a;
SELECT labelam.label_text(:sub_aborted) IS NULL AS gone_in_xact;
SAVEPOINT b;
SELECT labelam.intern_label('sub_u:object_r:t:s1') AS sub_kept \gset
SAVEPOINT c;
SELECT labelam.intern_label('sub_u:object_r:t:s2') AS sub_nested \gset
RELEASE SAVEPOINT b;
SELECT labelam.label_text(:sub_kept), labelam.label_text(:sub_nested);
COMMIT;
SELECT labelam.label_text(:sub_aborted) IS NULL AS gone,
       labelam.label_text(:sub_kept), labelam.label_text(:sub_nested);
SELECT seclabel FROM labelam.pg_security WHERE seclabel LIKE 'sub_u:%' ORDER BY 1;

-- Only committed labels reach shared memory, each exactly once.
SELECT labels_by_secid AS ids, labels_by_text AS texts
FROM labelam.label_store_stats() \gset
BEGIN;
SELECT labelam.intern_label('shm_u:object_r:t:s0') IS NOT NULL AS interned;
SELECT labels_by_secid - :ids AS new_ids FROM labelam.label_store_stats();
COMMIT;
SELECT labels_by_secid - :ids AS new_ids, labels_by_text - :texts AS new_texts
FROM labelam.label_store_stats();
SELECT labelam.intern_label('shm_u:object_r:t:s0') IS NOT NULL AS interned;
SELECT labels_by_secid - :ids AS new_ids, labels_by_text - :texts AS new_texts
FROM labelam.label_store_stats();

-- A committed row that shared memory has not seen (here: restored by hand,
-- as pg_restore does) is found in the catalog, then published.
INSERT INTO labelam.pg_security VALUES (4000000000, 'restored_u:object_r:t:s0');
SELECT labelam.label_text(4000000000);
SELECT labelam.intern_label('restored_u:object_r:t:s0');
SELECT labels_by_secid - :ids AS new_ids, labels_by_text - :texts AS new_texts
FROM labelam.label_store_stats();
-- ... and the catalog refuses a second row for a text
INSERT INTO labelam.pg_security VALUES (4000000001, 'restored_u:object_r:t:s0');
\echo :LAST_ERROR_SQLSTATE

-- Lookups of known labels never touch the catalog: not those in shared
-- memory, nor those this transaction interned.  Only a label shared memory
-- has not seen yet costs one catalog read.
BEGIN;
SELECT labelam.intern_label('hot_u:object_r:t:s0') AS hot \gset
INSERT INTO labelam.pg_security VALUES (4000000004, 'cold_u:object_r:t:s0');
SELECT idx_scan AS scans FROM pg_stat_xact_user_tables
WHERE relid = 'labelam.pg_security'::regclass \gset
SELECT count(labelam.label_text(:s0)) AS by_secid,
       count(labelam.intern_label('system_u:object_r:sepgsql_table_t:s1')) AS by_text,
       count(labelam.label_text(:hot)) AS own_by_secid,
       count(labelam.intern_label('hot_u:object_r:t:s0')) AS own_by_text
FROM generate_series(1, 1000);
SELECT idx_scan - :scans AS catalog_reads FROM pg_stat_xact_user_tables
WHERE relid = 'labelam.pg_security'::regclass;
COMMIT;
BEGIN;
SELECT idx_scan AS scans FROM pg_stat_xact_user_tables
WHERE relid = 'labelam.pg_security'::regclass \gset
SELECT count(labelam.label_text(4000000004)) FROM generate_series(1, 1000);
SELECT idx_scan - :scans AS catalog_reads FROM pg_stat_xact_user_tables
WHERE relid = 'labelam.pg_security'::regclass;
COMMIT;

-- A read-only transaction finds existing labels but cannot add any.
BEGIN READ ONLY;
SELECT labelam.intern_label('system_u:object_r:sepgsql_table_t:s0') = :s0 AS found;
SELECT labelam.intern_label('readonly_u:object_r:t:s0');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;

-- The session insert label.
SHOW labelam.insert_label;
SELECT labelam.insert_label_secid() IS NULL AS policy_chooses;
SET labelam.insert_label = 'system_u:object_r:sepgsql_table_t:s1';
SELECT labelam.insert_label_secid() = :s1 AS s1;
SELECT labelam.insert_label_secid() = :s1 AS s1_again;
SET labelam.insert_label = 'session_u:object_r:t:s0';	-- new: interned on use
SELECT labelam.label_text(labelam.insert_label_secid());
SET labelam.insert_label = '';
SELECT labelam.insert_label_secid() IS NULL AS policy_chooses;
BEGIN;
SET LOCAL labelam.insert_label = 'session_u:object_r:t:aborted';
SELECT labelam.insert_label_secid() AS insert_aborted \gset
ROLLBACK;
SELECT labelam.label_text(:insert_aborted) IS NULL AS gone;
SET labelam.insert_label = E'bad\nlabel';
\echo :LAST_ERROR_SQLSTATE
SET labelam.insert_label = 'a';
SET labelam.insert_label = 'b';
SET labelam.insert_label = 'a';
SELECT labelam.label_text(labelam.insert_label_secid());
RESET labelam.insert_label;

-- Users may read labels; adding them is for those granted it.
CREATE ROLE regress_label_reader;
SET ROLE regress_label_reader;
SELECT labelam.label_text(:s0);
SELECT count(*) > 0 AS can_read FROM labelam.pg_security;
SELECT labelam.intern_label('reader_u:object_r:t:s0');
INSERT INTO labelam.pg_security VALUES (4000000002, 'reader_u:object_r:t:s0');
RESET ROLE;
DROP ROLE regress_label_reader;

-- Two-phase commit: a prepared transaction's label is not visible until
-- COMMIT PREPARED (from any session), and gone after ROLLBACK PREPARED.
BEGIN;
SELECT labelam.intern_label('twophase_u:object_r:t:s0') AS tp_commit \gset
PREPARE TRANSACTION 'label_tp_commit';
SELECT labelam.label_text(:tp_commit) IS NULL AS not_yet;
COMMIT PREPARED 'label_tp_commit';
SELECT labelam.label_text(:tp_commit);
SELECT labelam.intern_label('twophase_u:object_r:t:s0') = :tp_commit AS same;
BEGIN;
SELECT labelam.intern_label('twophase_u:object_r:t:s1') AS tp_abort \gset
PREPARE TRANSACTION 'label_tp_abort';
ROLLBACK PREPARED 'label_tp_abort';
SELECT labelam.label_text(:tp_abort) IS NULL AS gone;

-- Parallel workers resolve labels; interning is not parallel-safe, so the
-- planner keeps it in the leader.
INSERT INTO labelam.pg_security VALUES (4000000003, 'parallel_u:object_r:t:s1');
-- (force_parallel_mode is debug_parallel_query from 16 on)
SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
	THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END AS parallel_guc \gset
SET :parallel_guc = on;
SELECT labelam.label_text(:s0);				-- from shared memory
SELECT labelam.label_text(4000000003);		-- from the catalog
EXPLAIN (COSTS OFF) SELECT labelam.label_text(:s0);
SELECT labelam.intern_label('parallel_u:object_r:t:s0') IS NOT NULL AS interned;
RESET :parallel_guc;

-- A dictionary dropped with its extension and created again is a new one:
-- secids of the old one mean nothing in it, whatever shared memory holds.
DROP EXTENSION labelam;
CREATE EXTENSION labelam;
SELECT count(*) FROM labelam.pg_security;
SELECT labelam.label_text(:s0) IS NULL AS old_secid_unknown;
SELECT labelam.intern_label('fresh_u:object_r:t:s0') AS fresh \gset
SELECT :fresh = :s0 AS numbered_afresh, labelam.label_text(:s0);
SELECT labelam.intern_label('system_u:object_r:sepgsql_table_t:s0') <> :s0 AS new_secid;
