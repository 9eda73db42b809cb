# bench/parts/overhead.sh (sourced by run.sh) -- labelam's cost per statement
# (issue 37): server CPU a pgbench transaction, heap against labelheap and
# object checks on against off, for select-only and TPC-B, as a superuser
# and as an ordinary role, under Debian's MLS policy and its default
# policy, each read two ways:
#   - "cpu-ratio.sh's reading": the server's processes read from /proc
#     right before and right after pgbench, as ../shared/tools/cpu-ratio.sh
#     reads them (the postmaster's own and reaped children's CPU, and its
#     live children's own);
#   - "settled reading": lib.sh's server_cpu_seconds, which waits until
#     the sessions pgbench opened have exited and two reads agree.
# Conditions are cpu-ratio.sh's, not the pgbench part's: a cluster of its
# own per policy with fsync off, pgbench's own data (pgbench -i, scale
# BENCH_SCALE), both databases with the extension (only the access method
# differs), a CHECKPOINT before each run, a fixed number of transactions
# (BENCH_OVERHEAD_TX select-only, BENCH_OVERHEAD_TX_TPCB TPC-B) over
# BENCH_CLIENTS clients.  In each of BENCH_ROUNDS rounds every variant runs
# once, alternating (heap, labelheap; superuser, ordinary role; object
# checks off, on, switched by a reload), so that a round's pairs share the
# machine's state.  doc/overhead.md says why the two readings, and this
# part and the pgbench part, can disagree.
#
# Sessions: the superuser at staff_u:sysadm_r:sysadm_t:s0 (MLS) or
# unconfined_t (default policy), as in cpu-ratio.sh's examples; the
# ordinary role bench_ord at staff_t:s0 (MLS) or user_t:s0 (default).
OVH_TX=${BENCH_OVERHEAD_TX:-40000}
OVH_TX_TPCB=${BENCH_OVERHEAD_TX_TPCB:-10000}
OVH_POLICIES=${BENCH_OVERHEAD_POLICIES:-mls default}

ovh_checks() {	# on | off: every new session's labelam.object_checks
	psql_q -d postgres -c "ALTER SYSTEM SET labelam.object_checks = $1" -c "SELECT pg_reload_conf()" >/dev/null
	for _ in $(seq 1 100); do
		[ "$(psql_q -d postgres -At -c 'SHOW labelam.object_checks')" = "$1" ] && return 0
		sleep 0.1
	done
	die "labelam.object_checks did not become $1"
}

ovh_run() {	# policy mode(S|B) db(h|l) role(superuser|ordinary) checks round
	local policy=$1 mode=$2 db=$3 role=$4 checks=$5 n s0 s1 t0 t1 w0 w1 wl args=() u=() am var
	if [ "$mode" = S ]; then n=$OVH_TX; args=(-S); wl=select-only; else n=$OVH_TX_TPCB; wl=TPC-B; fi
	[ "$role" = ordinary ] && u=(-U bench_ord)
	psql_q -d "$db" -c CHECKPOINT >/dev/null
	s0=$(server_cpu_seconds); t0=$(server_cpu_ticks_now); w0=$(now)
	as_user "$PGBIN/pgbench" -n "${args[@]}" "${u[@]}" -c "$BENCH_CLIENTS" -j "$BENCH_CLIENTS" \
		-t $((n / BENCH_CLIENTS)) "$db" >"$WORK/ovh_last.log" 2>&1 ||
		{ note "overhead: pgbench $wl in $db as $role failed: $(grep -m1 -i 'error\|abort' "$WORK/ovh_last.log")"; return 0; }
	w1=$(now); t1=$(server_cpu_ticks_now); s1=$(server_cpu_seconds)
	am=heap; [ "$db" = l ] && am=labelheap
	local ratio settled
	ratio=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / hz * 1e6 / n }')
	settled=$(awk -v a="$s0" -v b="$s1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) * 1e6 / n }')
	# labelheap against heap, at each setting of the object checks
	for how in "cpu-ratio.sh's reading:$ratio" "settled reading:$settled"; do
		record overhead "$wl, $policy policy, $role, object checks $checks: server CPU µs a transaction (${how%:*})" "$am" "${how##*:}" lower
		# object checks on against off, on heap tables
		if [ "$am" = heap ]; then
			var=heap; [ "$checks" = on ] && var=heap-checks
			record overhead "$wl, $policy policy, $role, heap tables, object checks on against off: server CPU µs a transaction (${how%:*})" "$var" "${how##*:}" lower
		fi
	done
	log "round $6 overhead $policy $wl $am $role checks=$checks: $ratio µs (cpu-ratio reading), $settled µs (settled), $(awk -v w0="$w0" -v w1="$w1" -v n="$n" 'BEGIN { printf "%.0f", n / (w1 - w0) }') tps, load $(cut -d' ' -f1 /proc/loadavg)"
}

OVH_SAVED=("$PGDATA" "$PGHOST" "$PGPORT")
for policy in $OVH_POLICIES; do
	if [ "$policy" = mls ]; then
		su_label=staff_u:sysadm_r:sysadm_t:s0; ord_label=staff_u:staff_r:staff_t:s0
	else
		su_label=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023; ord_label=user_u:user_r:user_t:s0
	fi
	cluster_start "overhead_$policy" "fsync = off" "shared_buffers = '1GB'" "autovacuum = off" \
		"jit = off" "max_parallel_workers_per_gather = 0" \
		"labelam.provider = 'sepol'" "labelam.policy_file = '$(selinux_policy "$policy")'" \
		"labelam.default_client_label = '$su_label'" "labelam.object_checks = off"
	for db in h l; do
		psql_q -d postgres -c "CREATE DATABASE $db" >/dev/null || die "overhead: CREATE DATABASE $db failed"
		psql_q -d "$db" -c "CREATE EXTENSION labelam" \
			-c "DO \$\$ BEGIN CREATE ROLE bench_ord LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" \
			-c "INSERT INTO labelam.role_label VALUES ('bench_ord', '$ord_label')" >/dev/null ||
			die "overhead: set-up of $db failed"
		am=heap; [ "$db" = l ] && am=labelheap
		as_user env PGOPTIONS="-c default_table_access_method=$am" \
			"$PGBIN/pgbench" -i -q -s "$BENCH_SCALE" "$db" >"$WORK/ovh_init_$db.log" 2>&1 ||
			{ cat "$WORK/ovh_init_$db.log"; die "overhead: pgbench -i $db failed"; }
		psql_q -d "$db" -c "GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_tellers, pgbench_branches TO bench_ord;
			GRANT SELECT, INSERT ON pgbench_history TO bench_ord" >/dev/null
	done
	note "overhead ($policy policy): superuser sessions at $su_label, bench_ord at $ord_label; fsync off; $OVH_TX select-only and $OVH_TX_TPCB TPC-B transactions a run over $BENCH_CLIENTS clients; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	for mode in S B; do
		for r in $(seq 1 "$BENCH_ROUNDS"); do
			for checks in off on; do
				ovh_checks "$checks"
				for role in superuser ordinary; do
					for db in h l; do
						ovh_run "$policy" "$mode" "$db" "$role" "$checks" "$r"
					done
				done
			done
		done
	done
	note "overhead ($policy policy): load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
	cluster_stop
done
PGDATA=${OVH_SAVED[0]} PGHOST=${OVH_SAVED[1]} PGPORT=${OVH_SAVED[2]}
export PGDATA PGHOST PGPORT
