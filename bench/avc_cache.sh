#!/bin/bash
# avc_cache.sh -- cost of access decisions (src/avc): cached decisions per
# second through the row filter's path, and the cost of a miss (a decision
# computed by the provider).  Throwaway cluster; sepol provider with
# Debian's reference policy, as in the tests.
#
# usage: bench/avc_cache.sh [N]        (N decisions per run, default 10M)
set -uo pipefail
. "$(dirname "$0")/../scripts/pgenv.sh"

N=${1:-10000000}
labelam_setup
LABELAM_KEEP_ON_FAIL=0
mapfile -t CONF < <(grep -v '^[[:space:]]*\(#\|$\)' "$LABELAM_TOP/test/test.conf")
cluster_start avcbench "${CONF[@]}"
psql_q -d postgres -c 'CREATE EXTENSION labelam'

run() {	# label objects-sql n misses
	local secs
	secs=$(psql_q -d postgres -At -c "SELECT labelam._avc_bench($2, $3, $4)")
	awk -v l="$1" -v s="$secs" -v n="$3" 'BEGIN {
		printf "%-44s %10d decisions in %8.3f s: %12.0f /s, %8.1f ns each\n",
			l, n, s, n / s, s * 1e9 / n }'
}

T="system_u:object_r:sepgsql_table_t"
echo "subject: $(psql_q -d postgres -At -c 'SELECT labelam.client_label()')"
run "hits, one label (the filter's fast path)" "'{$T:s0}'" "$N" false
run "hits, 2 labels alternating" "'{$T:s0,$T:s0:c1}'" "$N" false
run "hits, 256 labels in turn (the cache)" \
	"(SELECT array_agg('$T:s0:c' || i) FROM generate_series(0, 255) i)" "$N" false
run "misses (provider: libsepol)" "'{$T:s0}'" 200000 true
