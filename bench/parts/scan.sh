# bench/parts/scan.sh (sourced by run.sh) -- count(*) over BENCH_ROWS rows whose
# labels are 64 labels (each in BENCH_LABEL_RUNS runs of consecutive rows,
# as rows arrive from sessions of different labels), read by a session
# cleared for all of them or for half; then index point lookups.
#   heap            the rows, no labels
#   heap-wide       heap, each row 8 bytes wider (an int8 column): as many
#                   pages as labelheap and no labels, so that labelheap
#                   against it is what labelam costs beyond the bytes
#   labelheap       labelheap, read by bench_all (cleared for all 64 labels)
#   labelheap-half  the same table read by bench_half (32 of 64 labels)
#   labelheap-nosum the same table read by bench_all without its label
#                   summary (labelam.skip_ranges and labelam.pass_ranges
#                   off): every row's label read
#   rls             heap + a label column (secid) and a SELECT policy calling
#                   labelam.check_row_access(secid), read by bench_all
#   rls-half        the same table read by bench_half
# heap, heap-wide and labelheap are also measured as the second count(*)
# of a session, after one that paid what a session pays once.
# Rows of 72 bytes in heap (int8, int4, a 32-byte text), 80 in labelheap,
# heap-wide and rls.
# Same rows in the same order in every table; no parallel workers.  The
# primary keys are made with the (empty) tables, by the administrator
# session: with object checks, adding one later is a change of the table
# (an object at s0) that only a subject at s0 may make, and such a subject
# cannot read the rows of higher levels that an index build reads.
# t_lh has a label summary (labelsummary index): ranges holding only
# labels the session may select pass unread, the others are skipped.
SCAN_VARIANTS=(heap heap-wide labelheap labelheap-half labelheap-nosum rls rls-half)
LOOKUP_VARIANTS=(heap heap-wide labelheap labelheap-half rls rls-half)
WARM_VARIANTS=(heap heap-wide labelheap)
N=$BENCH_ROWS
RUN=$(( (N + 64 * BENCH_LABEL_RUNS - 1) / (64 * BENCH_LABEL_RUNS) ))	# rows a run

scan_table() { case $1 in heap) echo t_heap ;; heap-wide) echo t_wide ;; labelheap*) echo t_lh ;; rls*) echo t_rls ;; esac; }
scan_role() { case $1 in *-half) echo bench_half ;; *) echo bench_all ;; esac; }
scan_settings() { case $1 in *-nosum) echo "SET labelam.skip_ranges = off; SET labelam.pass_ranges = off" ;; *) echo SELECT ;; esac; }

psql_q -d postgres -c "CREATE DATABASE scan" >/dev/null
psql_q -d scan -c "CREATE EXTENSION labelam" >/dev/null
make_roles scan
BENCH_DB=scan
# secids of the 64 labels, in label order, for the label column
SECIDS=$(for k in $(seq 0 63); do secid_of "$(row_label "$k")"; done | paste -sd,)
psql_q -d scan -c "
	CREATE TABLE t_heap (id int8 PRIMARY KEY, v int4 NOT NULL, pad text NOT NULL) USING heap;
	CREATE TABLE t_wide (id int8 PRIMARY KEY, v int4 NOT NULL, pad text NOT NULL, w int8 NOT NULL) USING heap;
	CREATE TABLE t_lh (id int8 PRIMARY KEY, v int4 NOT NULL, pad text NOT NULL) USING labelheap;
	CREATE INDEX t_lh_labels ON t_lh USING labelsummary (id);
	CREATE TABLE t_rls (id int8 PRIMARY KEY, v int4 NOT NULL, pad text NOT NULL, secid oid NOT NULL) USING heap;
	INSERT INTO t_heap SELECT i, i % 1000, md5(i::text) FROM generate_series(0, $N - 1) i;
	INSERT INTO t_wide SELECT i, i % 1000, md5(i::text), i FROM generate_series(0, $N - 1) i;
	INSERT INTO t_rls SELECT i, i % 1000, md5(i::text), ('{$SECIDS}'::oid[])[(i / $RUN) % 64 + 1] FROM generate_series(0, $N - 1) i;
	ALTER TABLE t_rls ENABLE ROW LEVEL SECURITY;
	CREATE POLICY sel ON t_rls FOR SELECT USING (labelam.check_row_access(secid, '{select}'));
	GRANT SELECT ON t_heap, t_wide, t_lh, t_rls TO bench_all, bench_half" >/dev/null || die "scan tables failed"
# labelheap: run j of rows written by a session of label j % 64, in one
# psql that reconnects for each run
for j in $(seq 0 $(( (N + RUN - 1) / RUN - 1 ))); do
	echo "\\connect \"$(writer_conn scan "$(row_label $((j % 64)))")\""
	echo "INSERT INTO t_lh SELECT i, i % 1000, md5(i::text) FROM generate_series($((j * RUN)), least($(((j + 1) * RUN - 1)), $N - 1)) i;"
done >"$WORK/scan_load.sql"
psql_q -f "$WORK/scan_load.sql" >/dev/null || die "loading t_lh failed"
psql_q -U "$(top_role scan)" -d scan -c "VACUUM (FREEZE, ANALYZE) t_heap, t_wide, t_lh, t_rls" \
	-c CHECKPOINT >/dev/null || die "scan tables: vacuum failed"
psql_q -d scan -At -c "SELECT relname, pg_size_pretty(pg_relation_size(oid)) FROM pg_class WHERE relname IN ('t_heap', 't_wide', 't_lh', 't_rls') ORDER BY 1" |
	tr '\n' ' ' | sed 's/^/table sizes: /' >&2; echo >&2
for v in heap heap-wide labelheap rls; do record_pages scan "table of count(*) and index lookups" "$v" scan "$(scan_table "$v")"; done

for v in "${SCAN_VARIANTS[@]}"; do
	c=$(role_psql "$(scan_role "$v")" scan -At -c "$(scan_settings "$v")" -c "SELECT count(*) FROM $(scan_table "$v")" | tail -1)
	log "scan $v: $(scan_role "$v") sees $c of $N rows"
	record scan "rows visible" "$v" "$c" info
done

# shared buffers emptied, so that every table is read the same way (lib.sh),
# then a warm-up scan of each (pages in the OS cache, hint bits set)
cold_shared_buffers
for v in heap heap-wide labelheap rls; do role_psql bench_all scan -At -c "SELECT count(*) FROM $(scan_table "$v")" >/dev/null; done
# the relations a variant's runs read (its table and primary key)
scan_rels() { echo "$(scan_table "$1"),$(scan_table "$1")_pkey"; }
for r in $(seq 1 "$BENCH_ROUNDS"); do
	for v in "${SCAN_VARIANTS[@]}"; do
		m=$(query_cost "$(scan_rels "$v")" "$(scan_settings "$v")" "SELECT count(*) FROM $(scan_table "$v")" \
			-U "$(scan_role "$v")" -d scan) || { note "scan on $v failed"; continue; }
		record_cost scan "count(*) of $N rows" "$v" "$m" "wall cpu blocks"
		log "round $r scan $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
	# the same count(*), the second of its session: what a session pays
	# once (catalog caches; for labelheap, the policy's decisions on the
	# 64 labels, each computed by libsepol on first use) is paid by the
	# first, so the difference between the two is that, and this one is
	# the cost per row
	for v in "${WARM_VARIANTS[@]}"; do
		m=$(query_cost "$(scan_rels "$v")" "SELECT count(*) FROM $(scan_table "$v")" \
			"SELECT count(*) FROM $(scan_table "$v")" -U "$(scan_role "$v")" -d scan) ||
			{ note "second scan on $v failed"; continue; }
		record_cost scan "count(*) of $N rows, a session's second" "$v" "$m" "wall cpu"
		log "round $r second scan $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done

# index point lookups: BENCH_LOOKUPS primary-key probes in one statement
# (nested loop of index scans; rows of hidden labels are probed too).  The
# keys come from a subquery (OFFSET 0 keeps it one): "id = k" is then
# leakproof, so RLS may use it as an index condition below its policy;
# "id = (g * 7919) % n" would not be (int8mul can fail), and RLS would
# scan the whole table for each probe.
L=$BENCH_LOOKUPS
for r in $(seq 1 "$BENCH_ROUNDS"); do
	for v in "${LOOKUP_VARIANTS[@]}"; do
		m=$(query_cost "$(scan_rels "$v")" \
			"SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off; SET enable_bitmapscan = off" \
			"SELECT count(x.v) FROM (SELECT (g * 7919) % $N AS k FROM generate_series(1::int8, $L) g OFFSET 0) s,
				LATERAL (SELECT v FROM $(scan_table "$v") WHERE id = s.k) x" \
			-U "$(scan_role "$v")" -d scan) || { note "lookups on $v failed"; continue; }
		record_cost lookup "$L index lookups" "$v" "$m" "wall cpu blocks"
		log "round $r lookups $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done
