# bench/parts/pgbench.sh (sourced by run.sh) -- pgbench select-only (-S) and
# TPC-B (the default script), scale BENCH_SCALE, BENCH_CLIENTS clients,
# BENCH_SECONDS a run, as the non-superuser bench_pgb, one database each:
#   heap            plain heap tables
#   labelheap       labelheap, every row readable and writable by the session
#   labelheap-half  labelheap, odd accounts labeled above the session's level
#                   (hidden; 15 labels), the rest at its level
#   rls-half        heap + a label column (secid) and policies calling
#                   labelam.check_row_access(): the same rows hidden
# pgbench's own data, generated server-side as "pgbench -i -I dtGvp" does,
# but by one set-up session a label so that every row gets its label.
# Object checks (labelam.object_checks) under the MLS policy: the tables
# are objects at s0, and only a subject at s0 may change them (primary
# keys) or write heap tables; no subject may also read rows of every level
# (an index build does), so the keys are made before the rows are loaded,
# by the administrator session (labelam.default_client_label).
PGB_VARIANTS=(heap labelheap labelheap-half rls-half)
S=$BENCH_SCALE

pgb_db() { echo "pgb_${1//-/_}"; }

pgb_fill() {	# db label where-clause-on-aid: rows of one label
	writer_psql "$1" "$2" -c "INSERT INTO pgbench_accounts (aid, bid, abalance, filler $4)
		SELECT aid, (aid - 1) / 100000 + 1, 0, '' $5 FROM generate_series(1, 100000 * $S) aid WHERE $3" >/dev/null ||
		die "loading pgbench_accounts ($1, $2) failed"
}

pgb_load() {	# variant
	local v=$1 db am=heap k sec='' col='' hid
	db=$(pgb_db "$v")
	case $v in labelheap*) am=labelheap ;; esac
	psql_q -d postgres -c "CREATE DATABASE $db" >/dev/null
	psql_q -d "$db" -c "CREATE EXTENSION labelam" >/dev/null
	make_roles "$db"
	as_user env PGOPTIONS="-c default_table_access_method=$am" \
		"$PGBIN/pgbench" -i -q -I dtp -s "$S" "$db" >"$WORK/pgb_init_$v.log" 2>&1 ||
		{ cat "$WORK/pgb_init_$v.log"; die "pgbench -i -I dtp failed for $v"; }
	BENCH_DB=$db
	if [ "$v" = rls-half ]; then
		# the label column; new history rows get the policy's label, as
		# labelheap gives them
		psql_q -d "$db" -c "
			ALTER TABLE pgbench_accounts ADD COLUMN secid oid NOT NULL;
			ALTER TABLE pgbench_tellers ADD COLUMN secid oid NOT NULL;
			ALTER TABLE pgbench_branches ADD COLUMN secid oid NOT NULL;
			ALTER TABLE pgbench_history ADD COLUMN secid oid NOT NULL
				DEFAULT labelam.create_row_label($(secid_of "$ROW_TYPE:s0"))" >/dev/null
		sec=$(secid_of "$PGB_VISIBLE"); col=", secid"
		secid_of "$(psql_q -d "$db" -At -c "SELECT labelam.compute_create('$PGB_CLIENT', '$ROW_TYPE:s0')")" >/dev/null
	fi
	writer_psql "$db" "$PGB_VISIBLE" -c "
		INSERT INTO pgbench_branches (bid, bbalance $col) SELECT bid, 0 ${sec:+, $sec} FROM generate_series(1, $S) bid;
		INSERT INTO pgbench_tellers (tid, bid, tbalance $col) SELECT tid, (tid - 1) / 10 + 1, 0 ${sec:+, $sec} FROM generate_series(1, 10 * $S) tid" >/dev/null ||
		die "loading pgbench_branches/tellers ($v) failed"
	case $v in
	*-half)
		pgb_fill "$db" "$PGB_VISIBLE" "aid % 2 = 0" "$col" "${sec:+, $sec}"
		for k in $(seq 0 14); do
			hid=$(pgb_hidden_label "$k")
			if [ -n "$col" ]; then
				# heap: the label is the secid column's; the table
				# (an object at s0) takes inserts from s0 only
				sec=$(secid_of "$hid")
				pgb_fill "$db" "$PGB_VISIBLE" "aid % 2 = 1 AND (aid / 2) % 15 = $k" "$col" ", $sec"
			else
				pgb_fill "$db" "$hid" "aid % 2 = 1 AND (aid / 2) % 15 = $k" "$col" ""
			fi
		done ;;
	*)	pgb_fill "$db" "$PGB_VISIBLE" "true" "$col" "${sec:+, $sec}" ;;
	esac
	if [ "$v" = rls-half ]; then
		psql_q -d "$db" -c "
			DO \$\$ DECLARE t text; BEGIN
			FOREACH t IN ARRAY '{pgbench_accounts,pgbench_tellers,pgbench_branches,pgbench_history}'::text[] LOOP
				EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
				EXECUTE format('CREATE POLICY sel ON %I FOR SELECT USING (labelam.check_row_access(secid, ''{select}''))', t);
				EXECUTE format('CREATE POLICY upd ON %I FOR UPDATE USING (labelam.check_row_access(secid, ''{update}''))', t);
				EXECUTE format('CREATE POLICY ins ON %I FOR INSERT WITH CHECK (labelam.check_row_access(secid, ''{insert}''))', t);
			END LOOP; END \$\$" >/dev/null || die "RLS policies failed"
	fi
	psql_q -d "$db" -c "GRANT SELECT, UPDATE ON pgbench_accounts, pgbench_tellers, pgbench_branches TO bench_pgb;
		GRANT SELECT, INSERT ON pgbench_history TO bench_pgb" >/dev/null
	as_user "$PGBIN/pgbench" -i -q -I v -U "$(top_role "$db")" "$db" >>"$WORK/pgb_init_$v.log" 2>&1 ||
		{ cat "$WORK/pgb_init_$v.log"; die "pgbench -i -I v failed for $v"; }
	psql_q -d "$db" -At -c "SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'pgbench_accounts'" |
		grep -qx "$am" || die "pgbench_accounts is not a $am table in $db"
	log "pgbench $v: $(role_psql bench_pgb "$db" -At -c "SELECT count(*) FROM pgbench_accounts") of $((100000 * S)) accounts visible to bench_pgb"
}

# tps, and the server's CPU microseconds a transaction (server_cpu_seconds)
pgb_run() {	# db, extra pgbench args: prints "tps cpu-us"
	local c0 c1 n tps
	c0=$(server_cpu_seconds)
	as_user "$PGBIN/pgbench" -n -U bench_pgb -c "$BENCH_CLIENTS" -j "$BENCH_CLIENTS" -T "$BENCH_SECONDS" "$@" >"$WORK/pgb_last.log" 2>&1
	c1=$(server_cpu_seconds)
	tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$WORK/pgb_last.log")
	n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$WORK/pgb_last.log")
	[ -n "$tps" ] && [ -n "$n" ] && [ "$n" -gt 0 ] || return 0
	echo "$tps $(awk -v a="$c0" -v b="$c1" -v n="$n" 'BEGIN { printf "%.1f", (b - a) * 1e6 / n }')"
}

for v in "${PGB_VARIANTS[@]}"; do
	pgb_load "$v"
	record_pages pgbench "pgbench_accounts" "$v" "$(pgb_db "$v")" pgbench_accounts
done

for workload in select-only tpcb; do
	args=(); [ "$workload" = select-only ] && args=(-S)
	for v in "${PGB_VARIANTS[@]}"; do psql_q -d "$(pgb_db "$v")" -c "VACUUM ANALYZE" >/dev/null; done
	psql_q -d postgres -c CHECKPOINT >/dev/null
	for r in $(seq 1 "$BENCH_ROUNDS"); do
		for v in "${PGB_VARIANTS[@]}"; do
			read -r t cpu < <(pgb_run "${args[@]}" "$(pgb_db "$v")")
			if [ -z "${t:-}" ]; then
				note "pgbench $workload on $v failed: $(grep -m1 -i 'error\|abort' "$WORK/pgb_last.log")"
				continue
			fi
			record pgbench "pgbench $workload (tps)" "$v" "$t" higher
			record pgbench "pgbench $workload (server CPU µs a transaction)" "$v" "$cpu" lower
			log "round $r $workload $v: $t tps, server CPU $cpu µs a transaction"
		done
	done
done
