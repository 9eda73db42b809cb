#!/bin/bash
# bench/run.sh -- "make bench": labelheap against heap and against row-level
# security doing the same job, on one throwaway cluster, in one run.
#
# Parts (bench/parts/NAME.sh, in this order; BENCH_PARTS selects):
#   pgbench  select-only and TPC-B                     (~60% of the time)
#   scan     count(*) over BENCH_ROWS rows of 64 labels, all / half readable;
#            index point lookups on the same tables
#   copy     COPY of BENCH_ROWS rows
#   update   UPDATE of BENCH_UPDATE_ROWS rows with fresh out-of-line values
#   memory   shared memory of BENCH_LABELS labels; a decision cache at its bound
#   skip     label summaries: 1%-readable count(*) over BENCH_SKIP_ROWS rows
#            of 100 labels, clustered and interleaved, against two RLS
#            variants and against reading every block
# Variants alternate within each round (A B C A B C ...), BENCH_ROUNDS
# rounds; every figure is the median.  Durations and sizes: bench/lib.sh.
#
# Output ($BENCH_OUT, default bench/results): results.md (table, machine,
# settings, notes), results.png (plot), raw.tsv (every sample), which
# bench/README.md links (no copy of the table is kept anywhere else).
# Development: BENCH_SECONDS=5 BENCH_ROWS=200000 BENCH_OUT=/tmp/x
set -uo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/../scripts/pgenv.sh"
. "$BENCH_DIR/lib.sh"

BENCH_PARTS=${BENCH_PARTS:-pgbench scan copy update memory skip}
BENCH_OUT=${BENCH_OUT:-$LABELAM_TOP/bench/results}
START=$(now); LOAD_START=$(cut -d" " -f1-3 /proc/loadavg)

labelam_setup --bench
LABELAM_KEEP_ON_FAIL=0
log "work directory $WORK"
bench_cluster_conf
cluster_start bench "${BENCH_CONF[@]}"
RAW=$WORK/raw.tsv; NOTES=$WORK/notes.md; : >"$RAW"; : >"$NOTES"
[ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$WORK"

psql_q -d postgres -c 'CREATE EXTENSION labelam' \
	-c 'CREATE ROLE bench_all LOGIN' -c 'CREATE ROLE bench_half LOGIN' -c 'CREATE ROLE bench_pgb LOGIN' >/dev/null
make_roles postgres
. "$BENCH_DIR/probe.sh"

for part in $BENCH_PARTS; do
	[ -f "$BENCH_DIR/parts/$part.sh" ] || die "no such part: $part"
	log "part $part"
	part_start=$(now)
	. "$BENCH_DIR/parts/$part.sh"
	log "part $part took $(awk -v a="$part_start" -v b="$(now)" 'BEGIN {printf "%.0f", b - a}') s"
done

ELAPSED=$(awk -v a="$START" -v b="$(now)" 'BEGIN {printf "%.0f", b - a}')
mkdir -p "$BENCH_OUT"
cp "$RAW" "$BENCH_OUT/raw.tsv"
. "$BENCH_DIR/report.sh"
log "done in $ELAPSED s: $BENCH_OUT/results.md"
