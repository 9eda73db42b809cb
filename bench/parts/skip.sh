# bench/parts/skip.sh (sourced by run.sh) -- label summaries: count(*) by a
# session that may select 1% of BENCH_SKIP_ROWS rows of 100 labels.
#   clustered          labelheap + label summary, rows arriving in one run a
#                      label (BENCH_SKIP_ROWS / 100 rows each), skipping on
#   clustered-noskip   the same table, labelam.skip_ranges = off
#   interleaved        labelheap + summary, the same rows written by 100
#                      sessions at once (MLS lets a session write only rows
#                      of its own level), each a label, in statements of
#                      BENCH_INTERLEAVE rows taken in a random order: rows
#                      of many labels in every block range, whose summary
#                      then reads "any label"
#   interleaved-noskip the same table, skipping off
#   rls-func           heap + secid column, a SELECT policy calling
#                      labelam.check_row_access(secid, '{select}')
#   rls-plain          heap + level column (0..99), the policy a plain
#                      PostgreSQL user writes: level <= a session setting
# Labels: system_u:object_r:sepgsql_table_t:s1:cJ (J = 0..99); the reader is
# staff_t:s1:c0, which dominates label 0 only; rls-plain's reader sets
# bench.clearance = 0.  Each figure: wall-clock seconds (server \timing)
# and the backend's CPU seconds (/proc/PID/schedstat: time on a CPU, in
# ns; stat's utime + stime count 10 ms ticks), median of
# BENCH_ROUNDS, variants alternating.
SKIP_VARIANTS=(clustered clustered-noskip interleaved interleaved-noskip rls-func rls-plain)
SN=${BENCH_SKIP_ROWS:-10000000}
SRUN=$(( (SN + 99) / 100 ))
SINT=${BENCH_INTERLEAVE:-200}
SKIP_READER=staff_u:staff_r:staff_t:s1:c0
skip_label() { echo "$ROW_TYPE:s1:c$1"; }
SKIP_LEVEL0=s1:c0	# skip_label 0's level

psql_q -d postgres -c "CREATE DATABASE skip" >/dev/null
psql_q -d skip -c "CREATE EXTENSION labelam" \
	-c "DO \$\$ BEGIN CREATE ROLE bench_one LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" \
	-c "INSERT INTO labelam.role_label VALUES ('bench_one', '$SKIP_READER') ON CONFLICT DO NOTHING" >/dev/null
BENCH_DB=skip
SKIP_SECIDS=$(for k in $(seq 0 99); do secid_of "$(skip_label "$k")"; done | paste -sd,)
psql_q -d skip -c "
	CREATE TABLE t_clu (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL) USING labelheap;
	CREATE TABLE t_int (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL) USING labelheap;
	CREATE INDEX t_clu_labels ON t_clu USING labelsummary (id);
	CREATE INDEX t_int_labels ON t_int USING labelsummary (id);
	CREATE TABLE t_rlsf (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL, secid oid NOT NULL) USING heap;
	CREATE TABLE t_rlsp (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL, level int4 NOT NULL) USING heap;
	INSERT INTO t_rlsf SELECT i, i % 1000, md5(i::text), ('{$SKIP_SECIDS}'::oid[])[i / $SRUN + 1] FROM generate_series(0, $SN - 1) i;
	INSERT INTO t_rlsp SELECT i, i % 1000, md5(i::text), i / $SRUN FROM generate_series(0, $SN - 1) i;
	ALTER TABLE t_rlsf ENABLE ROW LEVEL SECURITY;
	ALTER TABLE t_rlsp ENABLE ROW LEVEL SECURITY;
	CREATE POLICY sel ON t_rlsf FOR SELECT USING (labelam.check_row_access(secid, '{select}'));
	CREATE POLICY sel ON t_rlsp FOR SELECT USING (level <= current_setting('bench.clearance')::int4);
	GRANT SELECT ON t_clu, t_int, t_rlsf, t_rlsp TO bench_one" >/dev/null || die "skip tables failed"
# clustered: run j of SRUN rows written by a session of label j; the
# interleaved table gets the same rows in runs of SINT rows, the run's
# label from a random permutation, in one psql that reconnects per run
SKIP_CONN=()
for j in $(seq 0 99); do SKIP_CONN[$j]=$(writer_conn skip "$(skip_label "$j")"); done
for j in $(seq 0 99); do
	echo "\\connect \"${SKIP_CONN[$j]}\""
	echo "INSERT INTO t_clu SELECT i, i % 1000, md5(i::text) FROM generate_series($((j * SRUN)), least($(((j + 1) * SRUN - 1)), $SN - 1)) i;"
done >"$WORK/skip_clu.sql"
psql_q -f "$WORK/skip_clu.sql" >/dev/null || die "loading t_clu failed"
# Interleaved: 100 writer sessions at once, one per label (a session starts
# by loading the policy, so one connection a run of rows would take hours),
# each fed its label's runs of SINT rows through a pipe, the runs in a
# random order; the writers' rows interleave in the table as they run.
awk -v n="$SN" -v run="$SRUN" -v sint="$SINT" 'BEGIN {
	srand(42)
	for (j = 0; j < 100; j++) { next_id[j] = j * run; last[j] = (j + 1) * run - 1; if (last[j] > n - 1) last[j] = n - 1 }
	left = 100; for (j = 0; j < 100; j++) alive[j] = 1
	while (left > 0) {
		j = int(rand() * 100); if (!alive[j]) continue
		hi = next_id[j] + sint - 1; if (hi > last[j]) hi = last[j]
		printf "%d %d %d\n", j, next_id[j], hi
		next_id[j] = hi + 1; if (next_id[j] > last[j]) { alive[j] = 0; left-- }
	}
}' >"$WORK/skip_int.runs"
mkdir -p "$WORK/skip_fifo"
SKIP_PIDS=()
declare -A SKIP_FD
for j in $(seq 0 99); do
	mkfifo "$WORK/skip_fifo/$j"
	[ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$WORK/skip_fifo/$j"
	as_user "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "${SKIP_CONN[$j]}" -f "$WORK/skip_fifo/$j" \
		>/dev/null 2>>"$WORK/skip_int.err" &
	SKIP_PIDS+=($!)
	exec {fd}>"$WORK/skip_fifo/$j"
	SKIP_FD[$j]=$fd
done
while read -r j lo hi; do
	echo "INSERT INTO t_int SELECT i, i % 1000, md5(i::text) FROM generate_series($lo, $hi) i;" >&"${SKIP_FD[$j]}"
done <"$WORK/skip_int.runs"
for j in $(seq 0 99); do eval "exec ${SKIP_FD[$j]}>&-"; done
wait "${SKIP_PIDS[@]}"
[ -s "$WORK/skip_int.err" ] && { cat "$WORK/skip_int.err" >&2; die "loading t_int failed"; }
psql_q -U "$(top_role skip)" -d skip -c "VACUUM (FREEZE, ANALYZE) t_clu, t_int, t_rlsf, t_rlsp" -c CHECKPOINT >/dev/null ||
	die "skip tables: vacuum failed"
psql_q -d skip -At -c "SELECT relname, pg_size_pretty(pg_relation_size(oid)) FROM pg_class WHERE relname IN ('t_clu', 't_int', 't_rlsf', 't_rlsp', 't_clu_labels', 't_int_labels') ORDER BY 1" |
	tr '\n' ' ' | sed 's/^/skip table sizes: /' >&2; echo >&2
note "skip part: $SN rows, 100 labels, reader selects label 0 (1%); interleaved: 100 writers at once, statements of $SINT rows; summary ranges read as any label: $(psql_q -d skip -At -c "SELECT (SELECT count(*) FILTER (WHERE secids IS NULL) || ' of ' || count(*) FROM labelam.label_summary('t_clu_labels')) || ' clustered, ' || (SELECT count(*) FILTER (WHERE secids IS NULL) || ' of ' || count(*) FROM labelam.label_summary('t_int_labels')) || ' interleaved'")"

skip_table() { case $1 in clustered*) echo t_clu ;; interleaved*) echo t_int ;; rls-func) echo t_rlsf ;; rls-plain) echo t_rlsp ;; esac; }
skip_setup() {
	case $1 in
	*-noskip) echo "SET labelam.skip_ranges = off" ;;
	rls-plain) echo "SET bench.clearance = '0'" ;;
	*) echo "SELECT 1" ;;
	esac
}
skip_measure() {	# variant
	query_cost "" "$(skip_setup "$1")" "SELECT count(*) FROM $(skip_table "$1")" -U bench_one -d skip
}

for v in "${SKIP_VARIANTS[@]}"; do
	s=$(skip_setup "$v")
	c=$(role_psql bench_one skip -At -c "$s" -c "SELECT count(*) FROM $(skip_table "$v")" | tail -1)
	log "skip $v: bench_one sees $c of $SN rows"
	record skip "rows visible (skip)" "$v" "$c" info
done
# shared buffers emptied, so that every table is read the same way (lib.sh),
# then a warm-up: each table once (pages cached, hint bits set)
cold_shared_buffers
for v in clustered-noskip interleaved-noskip rls-func rls-plain; do skip_measure "$v" >/dev/null; done
for r in $(seq 1 "$BENCH_ROUNDS"); do
	for v in "${SKIP_VARIANTS[@]}"; do
		m=$(skip_measure "$v") || { note "skip count on $v failed"; continue; }
		record_cost skip "1%-readable count(*) of $SN rows" "$v" "$m"
		log "round $r skip $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done

# What the write path pays for a summary: COPY of the same SN rows (one
# label, written by that label's session) into a labelheap table without
# and with a label summary, alternating.
SKIP_COPY=$WORK/skip_copy.data
psql_q -d skip -c "COPY (SELECT i, i % 1000, md5(i::text) FROM generate_series(0, $SN - 1) i) TO '$SKIP_COPY'" \
	-c "CREATE TABLE c_plain (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL) USING labelheap" \
	-c "CREATE TABLE c_summary (id int8 NOT NULL, v int4 NOT NULL, pad text NOT NULL) USING labelheap" \
	-c "CREATE INDEX c_summary_labels ON c_summary USING labelsummary (id)" >/dev/null || die "copy tables failed"
# rows from a server file take the file's level (src/files): the file is at
# the writer's
label_file "$SKIP_COPY" "unconfined_u:object_r:user_tmp_t:${SKIP_LEVEL0}" || die "labeling $SKIP_COPY failed"
for r in $(seq 1 "$BENCH_ROUNDS"); do
	for v in plain summary; do
		psql_q -d "${SKIP_CONN[0]}" -c "TRUNCATE c_$v" -c CHECKPOINT >/dev/null || { note "truncate c_$v failed"; continue; }
		m=$(query_cost "" "SELECT 1" "COPY c_$v FROM '$SKIP_COPY'" -d "${SKIP_CONN[0]}") || { note "COPY into c_$v failed"; continue; }
		record_cost skip "COPY of $SN rows" "copy-$v" "$m" "wall cpu wal"
		log "round $r copy $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done
