#!/bin/bash
# bench/pgbench.sh -- only the pgbench part of "make bench" (bench/run.sh):
# select-only and TPC-B, heap vs labelheap (all rows readable / about half)
# vs RLS, alternating, medians.  Same env as run.sh; results to
# $BENCH_OUT (default: a fresh /tmp directory, bench/results is left alone).
set -uo pipefail
export BENCH_PARTS=pgbench
export BENCH_OUT=${BENCH_OUT:-$(mktemp -d /tmp/labelam-pgbench.XXXXXX)}
exec "$(dirname "$0")/run.sh"
