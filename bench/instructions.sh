#!/bin/bash
# bench/instructions.sh -- instructions per unit of work, heap against labelheap,
# counted by valgrind's callgrind: deterministic, unlike wall-clock or CPU
# time on a shared machine, so that a change of a few percent on the write
# or read path shows up in one run.
#
# Units: a row of COPY FROM (copysum: into a table that, in labelheap,
# has a label summary, which COPY keeps), a row of count(*) (a sequential scan of
# 100k rows the session may all read; scansum: the same of a copy of the
# table that, in labelheap, has a label summary, so that its rows pass
# unread), an index point lookup (a nested loop of
# primary-key probes, as bench/parts/scan.sh's), a pgbench select-only and
# a TPC-B transaction (one client, simple protocol), and an UPDATE of a row with a
# fresh 100 kB out-of-line value (STORAGE EXTERNAL, as parts/update.sh's).
#
# How: the tables are made and filled at native speed; then the server is
# restarted under callgrind (every instruction of every process: Debian's
# server binary has no symbols for its static functions, such as
# exec_simple_query, to restrict collection to).  Every unit is measured
# in two sessions that do it N1 and N2 times; (I(N2) - I(N1)) / (N2 - N1)
# is the cost of one: whatever a session pays once (start-up, the policy's
# loading, catalog caches, the first decision, exit) cancels out.  Sessions run one at a time; the count of a session is the sum over
# the callgrind files its processes wrote.
#
# The policy and labels are the test suite's (test/test.conf: Debian's
# default policy, an unconfined session allowed everything), object checks
# on; rows of labelheap tables get the policy's label for new rows.
#
# usage: bench/instructions.sh            (about 15 minutes on 2 cores)
# env:   INSTR_UNITS="copy copysum scan scansum lookup select tpcb toast" selects units;
#        INSTR_OUT=file also writes the table there.
set -uo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
. "$BENCH_DIR/../scripts/pgenv.sh"

INSTR_UNITS=${INSTR_UNITS:-copy copysum scan scansum lookup select tpcb toast}
command -v valgrind >/dev/null || die "valgrind is missing (scripts/deps.sh --bench installs it)"

labelam_setup --bench
LABELAM_KEEP_ON_FAIL=0
mapfile -t CONF < <(test_conf "$LABELAM_TOP/test/test.conf")
cluster_start instr "${CONF[@]}" "autovacuum = off" "jit = off" \
	"max_parallel_workers_per_gather = 0" "shared_buffers = '256MB'"
q() { psql_q "$@"; }
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# --- set-up, at native speed: database heap and database labelheap hold
# the same tables, of that access method
LOOKUP_ROWS=100000
TOAST_ROWS=40
REP=$((100 * 1024 / 32))	# 100 kB of md5 text
for am in heap labelheap; do
	q -d postgres -c "CREATE DATABASE i_$am" >/dev/null || die "CREATE DATABASE failed"
	q -d "i_$am" -c "CREATE EXTENSION labelam" -c "SET default_table_access_method = $am" \
		-c "CREATE TABLE c (id int8, v int4, pad text)" \
		-c "CREATE TABLE cs (LIKE c)" \
		-c "CREATE TABLE t (id int8 PRIMARY KEY, v int4 NOT NULL, pad text NOT NULL)" \
		-c "INSERT INTO t SELECT i, i % 1000, md5(i::text) FROM generate_series(0, $LOOKUP_ROWS - 1) i" \
		-c "CREATE TABLE ts (LIKE t)" -c "INSERT INTO ts SELECT * FROM t" \
		-c "CREATE TABLE u (id int PRIMARY KEY, big text)" \
		-c "ALTER TABLE u ALTER big SET STORAGE EXTERNAL" \
		-c "VACUUM (FREEZE, ANALYZE)" >/dev/null || die "set-up of i_$am failed"
	# ts: t's rows; in labelheap with a label summary, whose ranges all hold
	# the one label, so that count(*) passes their rows unread
	# cs: c, and in labelheap with a label summary that COPY keeps
	if [ "$am" = labelheap ]; then
		q -d "i_$am" -c "CREATE INDEX ts_labels ON ts USING labelsummary (id)" \
			-c "CREATE INDEX cs_labels ON cs USING labelsummary (id)" >/dev/null ||
			die "label summaries of ts and cs failed"
	fi
	as_user env PGOPTIONS="-c default_table_access_method=$am" \
		"$PGBIN/pgbench" -i -q -s 1 "i_$am" >"$WORK/pgbench_init_$am.log" 2>&1 ||
		{ cat "$WORK/pgbench_init_$am.log" >&2; die "pgbench -i failed"; }
	[ "$(q -d "i_$am" -At -c "SELECT amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE relname = 'pgbench_accounts'")" = "$am" ] ||
		die "pgbench_accounts is not a $am table"
done
for n in 2000 22000; do
	q -d postgres -c "COPY (SELECT i, i % 1000, md5(i::text) FROM generate_series(1, $n) i) TO '$WORK/copy_$n.data'" >/dev/null ||
		die "writing the COPY files failed"
done
q -d postgres -c CHECKPOINT >/dev/null

# --- the server again, under callgrind
cluster_stop
CG=$WORK/callgrind
mkdir -p "$CG"; [ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$CG"
as_user valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$CG/%p.out" \
	"$PGBIN/postgres" -D "$PGDATA" >"$WORK/valgrind.log" 2>&1 &
for i in $(seq 1 600); do
	as_user "$PGBIN/pg_isready" -q && break
	sleep 1
done
as_user "$PGBIN/pg_isready" -q || { tail -20 "$WORK/valgrind.log" >&2; die "server under valgrind did not start"; }
PM_PID=$(head -1 "$PGDATA/postmaster.pid")
log "server under callgrind (postmaster $PM_PID)"

children() { ps -o pid= --ppid "$PM_PID" | wc -l; }
# the postmaster's own children (checkpointer, ...), once start-up is over
BASE_CHILDREN=$(children); stable=0
while [ "$stable" -lt 5 ]; do
	sleep 1; n=$(children)
	if [ "$n" = "$BASE_CHILDREN" ]; then stable=$((stable + 1)); else BASE_CHILDREN=$n; stable=0; fi
done
# wait until the sessions of the last measurement have exited (a backend
# writes its callgrind file as it exits)
settle() {
	local i
	for i in $(seq 1 300); do
		[ "$(children)" -le "$BASE_CHILDREN" ] && return 0
		sleep 1
	done
	die "sessions did not exit"
}
# instructions of the sessions a command starts: the sum over the
# callgrind files that appear while it runs
measure() {	# command...
	local before f sum=0 n
	settle
	before=$(ls "$CG")
	"$@" >>"$WORK/measure.log" 2>&1 || { tail -5 "$WORK/measure.log" >&2; die "measured command failed: $*"; }
	settle
	for f in $(ls "$CG"); do
		grep -qx "$f" <<<"$before" && continue
		n=$(sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$CG/$f" | head -1)
		log "  $f: ${n:-?}"
		sum=$((sum + ${n:-0}))
	done
	echo "$sum"
}
per_unit() {	# n1 i1 n2 i2
	log "  $1 times: $2 instructions, $3 times: $4"
	echo $(( ($4 - $2) / ($3 - $1) ))
}

sql() { as_user "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d "$@"; }

# The first session in a database after the restart pays once for what
# later sessions find made (the relation cache's init file, ...), and a
# unit's two sessions cancel only what both pay: so one session in each
# database before any unit (without it, COPY's first session paid it alone,
# and COPY came out about 540 instructions a row too cheap, in heap and
# labelheap alike).
for am in heap labelheap; do
	sql "i_$am" -c "SELECT count(*) FROM pg_class" >/dev/null || die "first session in i_$am failed"
done

declare -A RESULT
unit_copy() {	# am [table]: per row COPY'd into c (or table)
	local i1 i2
	i1=$(measure sql "i_$1" -c "COPY ${2:-c} FROM '$WORK/copy_2000.data'")
	i2=$(measure sql "i_$1" -c "COPY ${2:-c} FROM '$WORK/copy_22000.data'")
	per_unit 2000 "$i1" 22000 "$i2"
}
unit_copysum() { unit_copy "$1" cs; }	# per row COPY'd into cs
lookups() {	# am n
	sql "i_$1" -c "SET enable_hashjoin = off" -c "SET enable_mergejoin = off" \
		-c "SET enable_seqscan = off" -c "SET enable_bitmapscan = off" \
		-c "SELECT count(x.v) FROM (SELECT (g * 7919) % $LOOKUP_ROWS AS k FROM generate_series(1::int8, $2) g OFFSET 0) s,
			LATERAL (SELECT v FROM t WHERE id = s.k) x"
}
unit_lookup() {
	local i1 i2
	i1=$(measure lookups "$1" 1000)
	i2=$(measure lookups "$1" 11000)
	per_unit 1000 "$i1" 11000 "$i2"
}
counts() {	# am n [table]: n sequential count(*) of t (or table) in one session
	local i
	for i in $(seq 1 "$2"); do echo "SELECT count(*) FROM ${3:-t};"; done |
		sql "i_$1" -c "SET enable_indexscan = off" -c "SET enable_indexonlyscan = off" \
			-c "SET enable_bitmapscan = off" -f -
}
unit_scan() {	# am [table]: per row of t (or table)
	local i1 i2
	i1=$(measure counts "$1" 1 "${2:-t}")
	i2=$(measure counts "$1" 11 "${2:-t}")
	echo $(( ($i2 - $i1) / (10 * LOOKUP_ROWS) ))
}
unit_scansum() { unit_scan "$1" ts; }	# per row of ts
pgb() { as_user "$PGBIN/pgbench" -n -M simple --random-seed=1 -c 1 -j 1 -t "$2" "i_$1"; }
pgb_select() { as_user "$PGBIN/pgbench" -n -S -M simple --random-seed=1 -c 1 -j 1 -t "$2" "i_$1"; }
unit_select() {
	local i1 i2
	i1=$(measure pgb_select "$1" 200)
	i2=$(measure pgb_select "$1" 2200)
	per_unit 200 "$i1" 2200 "$i2"
}
unit_tpcb() {
	local i1 i2
	i1=$(measure pgb "$1" 20)
	i2=$(measure pgb "$1" 220)
	per_unit 20 "$i1" 220 "$i2"
}
toast_reset() {	# am: small values again, so that every round replaces the same
	sql "i_$1" -c "TRUNCATE u" -c "INSERT INTO u SELECT i, 'x' FROM generate_series(1, $TOAST_ROWS) i" >/dev/null
}
toast_update() { sql "i_$1" -c "UPDATE u SET big = repeat(md5(id || '/r'), $REP) WHERE id <= $2"; }
unit_toast() {
	local i1 i2
	toast_reset "$1"
	i1=$(measure toast_update "$1" 4)
	toast_reset "$1"
	i2=$(measure toast_update "$1" 24)
	per_unit 4 "$i1" 24 "$i2"
}

for unit in $INSTR_UNITS; do
	for am in heap labelheap; do
		log "$unit $am"
		RESULT[$unit.$am]=$("unit_$unit" "$am") || die "$unit on $am failed"
		log "$unit $am: ${RESULT[$unit.$am]} instructions"
	done
done

# the server under valgrind stops before the work directory goes: its
# processes write their callgrind files as they exit
as_user "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 300 stop >/dev/null 2>&1
wait

name() { case $1 in copy) echo "COPY FROM, per row" ;; copysum) echo "COPY FROM, per row, labelheap's table with a label summary" ;; scan) echo "count(*) by a sequential scan, per row" ;; scansum) echo "count(*) by a sequential scan, per row, labelheap's table with a label summary" ;; lookup) echo "index point lookup" ;;
	tpcb) echo "pgbench TPC-B, per transaction" ;; select) echo "pgbench select-only, per transaction" ;; toast) echo "UPDATE with a fresh 100 kB TOAST value, per row" ;; esac; }
{
	echo "Instructions per unit (valgrind callgrind, server processes), $(git -C "$LABELAM_TOP" describe --always --dirty 2>/dev/null):"
	echo
	echo "| unit | heap | labelheap | labelheap / heap |"
	echo "|---|---:|---:|---:|"
	for unit in $INSTR_UNITS; do
		h=${RESULT[$unit.heap]}; l=${RESULT[$unit.labelheap]}
		echo "| $(name "$unit") | $h | $l | $(awk -v h="$h" -v l="$l" 'BEGIN {printf "%.3f", l / h}') |"
	done
} | tee "${INSTR_OUT:-/dev/null}"
