#!/bin/bash
# ab.sh -- two builds of labelam against each other on the paths a change
# touches: the row filter (count(*) with every row readable, with half of
# them readable, and index point lookups) and the write path (COPY,
# INSERT ... SELECT).  "make bench" compares labelheap with heap and RLS
# within one build; this compares builds (say, before and after a change),
# one cluster each, same settings and data, runs alternating A B A B ...
#
# usage: bench/ab.sh [REV_A] [REV_B]    (default: HEAD~1 and the working tree)
# env:   AB_ROWS (default 2000000), AB_ROUNDS (default 5), AB_TESTS (default:
#        all five), AB_LOOKUPS
#        (default 200000), AB_OUT (default: print only)
#
# Each figure: median and range of wall-clock seconds, and of the CPU
# seconds the backend process spent (utime + stime from /proc/PID/stat),
# which neighbours on a shared machine disturb far less than wall clock.
set -uo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/../scripts/pgenv.sh"

REV_A=${1:-HEAD~1}
REV_B=${2:-}
AB_ROWS=${AB_ROWS:-2000000}
AB_ROUNDS=${AB_ROUNDS:-5}
AB_LOOKUPS=${AB_LOOKUPS:-200000}
POLICY=/etc/selinux/mls/policy/policy.33
ADMIN=unconfined_u:unconfined_r:unconfined_t:s0-s15:c0.c1023
LOW=system_u:object_r:sepgsql_table_t:s0
HIGH=system_u:object_r:sepgsql_table_t:s1
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

labelam_setup
LABELAM_KEEP_ON_FAIL=0
TICK=$(getconf CLK_TCK)

# build REV_A (and REV_B unless it is the working tree) in a scratch
# worktree and install each into its own copy of the private installation
install_rev() {	# rev dest
	local rev=$1 dest=$2 src=$WORK/src-$3
	git -C "$LABELAM_TOP" worktree add -q --detach "$src" "$rev" || die "no revision $rev"
	make -s -C "$src" PG_CONFIG="$PG_CONFIG" >"$WORK/build-$3.log" 2>&1 || die "build of $rev failed"
	cp -a "$WORK/install" "$dest"
	make -s -C "$src" PG_CONFIG="$PG_CONFIG" DESTDIR="$dest" install >>"$WORK/build-$3.log" 2>&1 ||
		die "install of $rev failed"
	git -C "$LABELAM_TOP" worktree remove --force "$src"
}
install_rev "$REV_A" "$WORK/install-A" A
if [ -n "$REV_B" ]; then install_rev "$REV_B" "$WORK/install-B" B; else cp -a "$WORK/install" "$WORK/install-B"; fi
[ "$(id -u)" -eq 0 ] && chown -R "$RUN_USER" "$WORK"
BIN_DIR=$(dirname "$PGBIN")
BIN_DIR=${BIN_DIR#"$WORK/install"}

declare -A HOST PORT
for v in A B; do
	PGBIN=$WORK/install-$v$BIN_DIR/bin
	cluster_start "ab-$v" "shared_buffers = '512MB'" "max_wal_size = '4GB'" \
		"autovacuum = off" "max_parallel_workers_per_gather = 0" "jit = off" \
		"labelam.provider = 'sepol'" "labelam.policy_file = '$POLICY'" \
		"labelam.default_client_label = '$ADMIN'"
	HOST[$v]=$PGHOST PORT[$v]=$PGPORT
	# MLS writes need the writer's level to equal the row's: one writer
	# role a level, labeled through labelam.role_label
	psql_q -d postgres <<-SQL >/dev/null || die "set-up of $v failed"
		CREATE EXTENSION labelam;
		CREATE ROLE r_low LOGIN; CREATE ROLE r_all LOGIN;
		CREATE ROLE w_low LOGIN SUPERUSER; CREATE ROLE w_high LOGIN SUPERUSER;
		CREATE ROLE w_top LOGIN SUPERUSER;
		INSERT INTO labelam.role_label VALUES
			('r_low', 'staff_u:staff_r:staff_t:s0'),
			('r_all', 'staff_u:staff_r:staff_t:s15:c0.c1023'),
			('w_low', 'unconfined_u:unconfined_r:unconfined_t:s0'),
			('w_high', 'unconfined_u:unconfined_r:unconfined_t:s1'),
			('w_top', 'unconfined_u:unconfined_r:unconfined_t:s15:c0.c1023');
		CREATE TABLE t (id int, v text) USING labelheap;
		CREATE TABLE c (id int, v text) USING labelheap;
		GRANT ALL ON t, c TO PUBLIC;
		CREATE INDEX t_id ON t (id);
	SQL
	psql_q -U w_low -d postgres -c "SET labelam.insert_label = '$LOW'" \
		-c "INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, $AB_ROWS / 2) g" >/dev/null ||
		die "set-up of $v failed"
	psql_q -U w_high -d postgres -c "SET labelam.insert_label = '$HIGH'" \
		-c "INSERT INTO t SELECT g, md5(g::text) FROM generate_series($AB_ROWS / 2 + 1, $AB_ROWS) g" >/dev/null ||
		die "set-up of $v failed"
	# Object checks are on: under the MLS policy the table and its index
	# are objects at s0, which only a session whose level starts at s0 may
	# change (the administrator, above, makes the index while the table is
	# empty), and an index build reads every row.  The administrator's
	# range covers every level: it vacuums and analyzes.
	psql_q -d postgres -c "VACUUM ANALYZE t" >/dev/null || die "VACUUM ANALYZE on $v failed"
	# the file r_low's COPY reads: labelam decides it by its own label
	# (src/files), which must be one staff_t may read at s0
	psql_q -d postgres -c "COPY (SELECT g, md5(g::text) FROM generate_series(1, $AB_ROWS) g) TO '$WORK/copy-$v.data'" >/dev/null &&
		label_file "$WORK/copy-$v.data" staff_u:object_r:user_tmp_t:s0 ||
		die "set-up of $v failed"
done

# run SQL as role in cluster v; prints "wall cpu" seconds of the statement
measure() {	# v role sql [setup-sql]
	local v=$1 role=$2 sql=$3 setup=${4:-SELECT 1} out=$WORK/m.out
	PGBIN=$WORK/install-$v$BIN_DIR/bin PGHOST=${HOST[$v]} PGPORT=${PORT[$v]} \
		as_user "$WORK/install-$v$BIN_DIR/bin/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$role" -d postgres >"$out" 2>&1 <<-SQL
		$setup;
		SELECT pg_backend_pid() AS pid \gset
		\setenv AB_PID :pid
		\o /dev/null
		\! awk '{print \$14 + \$15}' /proc/\$AB_PID/stat > $WORK/cpu0
		\timing on
		$sql;
		\timing off
		\! awk '{print \$14 + \$15}' /proc/\$AB_PID/stat > $WORK/cpu1
	SQL
	grep -q ERROR "$out" && { cat "$out" >&2; die "$sql failed on $v"; }
	awk -v t0="$(cat "$WORK/cpu0")" -v t1="$(cat "$WORK/cpu1")" -v hz="$TICK" \
		'/^Time: / {ms = $2} END {printf "%.4f %.4f\n", ms / 1000, (t1 - t0) / hz}' "$out"
}

declare -A WALL CPU
LOOKUP_SQL="DO \$\$ DECLARE n int; BEGIN FOR i IN 1..$AB_LOOKUPS LOOP SELECT count(*) INTO n FROM t WHERE id = (i * 7919) % $AB_ROWS + 1; END LOOP; END \$\$"
TESTS=(${AB_TESTS:-count_all count_half lookups copy insert_select})
run_test() {	# test v
	case $1 in
		count_all) measure "$2" r_all "SELECT count(*) FROM t" ;;
		count_half) measure "$2" r_low "SELECT count(*) FROM t" ;;
		lookups) measure "$2" r_all "$LOOKUP_SQL" "SET enable_seqscan = off; SET enable_bitmapscan = off" ;;
		copy) measure "$2" r_low "COPY c FROM '$WORK/copy-$2.data'" "TRUNCATE c; CHECKPOINT" ;;
		insert_select) measure "$2" r_low "INSERT INTO c SELECT id, v FROM t WHERE id <= $AB_ROWS / 2" \
			"TRUNCATE c; CHECKPOINT; SET enable_indexscan = off; SET enable_bitmapscan = off" ;;
	esac
}
# r_low's COPY reads a server file: let it
for v in A B; do
	PGHOST=${HOST[$v]} PGPORT=${PORT[$v]} PGBIN=$WORK/install-$v$BIN_DIR/bin \
		psql_q -d postgres -c "GRANT pg_read_server_files TO r_low" -c "GRANT pg_checkpoint TO r_low" >/dev/null
done

# the plans each build chose: statistics now come from the statistics
# label's rows only, so estimates (and plans) of queries over hidden rows
# may differ between builds; insert_select pins its plan to a seq scan
for v in A B; do
	PGHOST=${HOST[$v]} PGPORT=${PORT[$v]} PGBIN=$WORK/install-$v$BIN_DIR/bin \
		psql_q -U r_low -d postgres -At \
		-c "SET enable_indexscan = off" -c "SET enable_bitmapscan = off" \
		-c "EXPLAIN (COSTS OFF) INSERT INTO c SELECT id, v FROM t WHERE id <= $AB_ROWS / 2" \
		-c "EXPLAIN (COSTS OFF) SELECT count(*) FROM t" | tr '\n' ' ' | sed "s/^/plans of $v: /" >&2
	echo >&2
done

# the order alternates too (A B, then B A): whoever runs second would
# otherwise always meet the first one's background writes
for r in $(seq 1 "$AB_ROUNDS"); do
	order="A B"; [ $((r % 2)) -eq 0 ] && order="B A"
	for t in "${TESTS[@]}"; do
		for v in $order; do
			read -r w c < <(run_test "$t" "$v")
			WALL[$t.$v]+="$w "; CPU[$t.$v]+="$c "
		done
	done
	log "round $r of $AB_ROUNDS done"
done

stats() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {printf "%.3f [%.3f-%.3f]", a[int((NR+1)/2)], a[1], a[NR]}'; }
med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
{
	echo "### labelam $REV_A (A) against ${REV_B:-the working tree} (B)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, load at start $LOAD_START, at end $(cut -d' ' -f1-3 /proc/loadavg); $AB_ROWS rows (half at s0, half at s1, MLS policy through sepol), $AB_ROUNDS rounds alternating A B / B A; median [min-max]; B/A < 1 is faster."
	echo
	echo "| path | A wall s | B wall s | B/A wall | A backend CPU s | B backend CPU s | B/A CPU |"
	echo "|---|---|---|---|---|---|---|"
	for t in "${TESTS[@]}"; do
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$t" \
			"$(stats "${WALL[$t.A]}")" "$(stats "${WALL[$t.B]}")" \
			"$(awk -v a="$(med "${WALL[$t.A]}")" -v b="$(med "${WALL[$t.B]}")" 'BEGIN {if (a > 0) printf "%.3f", b / a; else print "-"}')" \
			"$(stats "${CPU[$t.A]}")" "$(stats "${CPU[$t.B]}")" \
			"$(awk -v a="$(med "${CPU[$t.A]}")" -v b="$(med "${CPU[$t.B]}")" 'BEGIN {if (a > 0) printf "%.3f", b / a; else print "-"}')"
	done
} | tee "${AB_OUT:-/dev/null}"
