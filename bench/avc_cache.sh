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
mapfile -t CONF < <(test_conf "$LABELAM_TOP/test/test.conf")
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
# a miss of the backend's own cache: found in shared memory, where the
# first backend to compute the decision left it (src/avc/sepol_shared.c) ...
run "misses, found in shared memory" "'{$T:s0}'" 200000 true
# ... and computed by libsepol, with nothing shared
as_user sh -c "echo 'labelam.shared_decisions = 0' >> '$PGDATA/postgresql.conf'"
as_user "$PGBIN/pg_ctl" -D "$PGDATA" -w -l "$(dirname "$PGDATA")/postmaster.log" restart >/dev/null ||
	die "restart without shared decisions failed"
run "misses (provider: libsepol computes)" "'{$T:s0}'" 20000 true

# a confined subject's misses cost about the same; the policy's size is
# what matters (sidtab and attribute expansion in libsepol)
psql_q -d postgres -c "CREATE ROLE bench_user LOGIN; INSERT INTO labelam.role_label VALUES ('bench_user', 'user_u:user_r:user_t:s0'); GRANT EXECUTE ON FUNCTION labelam._avc_bench(text[], bigint, boolean) TO bench_user"
secs=$(psql_q -d postgres -U bench_user -At -c "SELECT labelam._avc_bench('{$T:s0}', 20000, true)")
awk -v s="$secs" 'BEGIN { printf "%-44s %10d decisions in %8.3f s: %12.0f /s, %8.1f ns each\n", "misses, subject user_t", 20000, s, 20000 / s, s * 1e9 / 20000 }'

# denials the row filter audits (labelam.audit = denied): each is counted
# for the statement's audit line and for the shared denial summary
# (src/avc/denials.c); user_t may not select etc_t rows, and the policy
# audits that.  Permissive mode decides the same way, so it costs the same.
user_run() {	# label object n
	local secs
	secs=$(psql_q -d postgres -U bench_user -At -c "SELECT labelam._avc_bench('{$2}', $3, false)" | tail -1)
	awk -v l="$1" -v s="$secs" -v n="$3" 'BEGIN {
		printf "%-44s %10d decisions in %8.3f s: %12.0f /s, %8.1f ns each\n", l, n, s, n / s, s * 1e9 / n }'
}
user_run "audited denials, one label, subject user_t" "system_u:object_r:etc_t:s0" "$N"
user_run "grants, one label, subject user_t" "$T:s0" "$N"

# a backend reloading the policy file after it changed (once per backend)
cp /etc/selinux/default/policy/policy.33 "$WORK/policy.33"
[ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$WORK/policy.33"
psql_q -d postgres -c "ALTER SYSTEM SET labelam.policy_file = '$WORK/policy.33'" -c 'SELECT pg_reload_conf()' >/dev/null
sleep 1
psql_q -d postgres -At <<SQL
SELECT labelam.check_access('user_u:user_r:user_t:s0', '$T:s0', '{select}') \\gset
\\! touch $WORK/policy.33
\\timing on
SELECT 'policy reload + decision' AS what, labelam.check_access('user_u:user_r:user_t:s0', '$T:s0:c1', '{select}');
SELECT 'decision (miss) without reload' AS what, labelam.check_access('user_u:user_r:user_t:s0', '$T:s0:c2', '{select}');
SQL
