#!/bin/bash
# pgbench.sh -- pgbench select-only (-S) and TPC-B (default script), heap
# against labelheap, on one throwaway cluster in one run.  The variants
# alternate (heap, labelheap, heap, labelheap, ...) and each figure is the
# median of BENCH_ROUNDS runs, so drift of the machine hits both alike.
#
# env: BENCH_SCALE (10), BENCH_CLIENTS (2), BENCH_SECONDS (60),
#      BENCH_ROUNDS (3), BENCH_OUT (bench/results/pgbench.md)
# Sourced by bench/run.sh or run on its own.
set -uo pipefail
. "$(dirname "$0")/../scripts/pgenv.sh"

SCALE=${BENCH_SCALE:-10}
CLIENTS=${BENCH_CLIENTS:-2}
SECONDS_RUN=${BENCH_SECONDS:-60}
ROUNDS=${BENCH_ROUNDS:-3}
OUT=${BENCH_OUT:-$LABELAM_TOP/bench/results/pgbench.md}
VARIANTS=(heap labelheap)

labelam_setup
LABELAM_KEEP_ON_FAIL=0
# the same tuning for every variant; fsync on, as a real server
cluster_start bench "shared_buffers = '1GB'" "max_wal_size = '4GB'" \
	"checkpoint_timeout = '30min'" "fsync = on" "synchronous_commit = on"  \
	"labelam.provider = 'sepol'" "labelam.default_client_label = 'unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023'"

for v in "${VARIANTS[@]}"; do
	psql_q -d postgres -c "CREATE DATABASE bench_$v"
	psql_q -d "bench_$v" -c "CREATE EXTENSION labelam"
	as_user env PGOPTIONS="-c default_table_access_method=$v" \
		"$PGBIN/pgbench" -i -q -s "$SCALE" "bench_$v" >"$WORK/init_$v.log" 2>&1 ||
		{ cat "$WORK/init_$v.log"; die "pgbench -i failed for $v"; }
	psql_q -d "bench_$v" -At -c "SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'pgbench_accounts'" |
		grep -qx "$v" || die "pgbench_accounts is not a $v table"
	psql_q -d "bench_$v" -c "VACUUM ANALYZE" >/dev/null
done

tps() {	# database, extra pgbench args
	as_user "$PGBIN/pgbench" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECONDS_RUN" "$@" 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A RES
for workload in select-only tpcb; do
	args=(); [ "$workload" = select-only ] && args=(-S)
	for r in $(seq 1 "$ROUNDS"); do
		for v in "${VARIANTS[@]}"; do
			t=$(tps "${args[@]}" "bench_$v")
			[ -n "$t" ] || die "pgbench $workload on $v failed"
			RES[$workload,$v]="${RES[$workload,$v]:-} $t"
			echo "round $r $workload $v: $t tps"
		done
	done
done

{
	echo "## pgbench: heap vs labelheap"
	echo
	echo "$(date -u +%Y-%m-%d), $(nproc) cores, PostgreSQL $("$PGBIN/postgres" -V | awk '{print $3}'),"
	echo "scale $SCALE, $CLIENTS clients, ${SECONDS_RUN} s a run, median of $ROUNDS alternating runs,"
	echo "shared_buffers 1GB, fsync on. labelheap: every row labeled (no policy filtering yet)."
	echo
	echo "| workload | heap tps | labelheap tps | labelheap / heap | runs heap | runs labelheap |"
	echo "|---|---|---|---|---|---|"
	for workload in select-only tpcb; do
		h=$(median ${RES[$workload,heap]})
		l=$(median ${RES[$workload,labelheap]})
		printf '| %s | %.0f | %.0f | %.3f | %s | %s |\n' "$workload" "$h" "$l" \
			"$(awk -v l="$l" -v h="$h" 'BEGIN {print l / h}')" "${RES[$workload,heap]# }" "${RES[$workload,labelheap]# }"
	done
} >"$OUT"
cat "$OUT"
