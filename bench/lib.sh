# bench/lib.sh -- sourced by bench/run.sh and the parts in bench/parts/:
# the cluster every variant shares, the labels and roles of the variants,
# timing and medians.  Needs scripts/pgenv.sh sourced first.

# --- durations and sizes (env overrides, so that development runs are short)
BENCH_SECONDS=${BENCH_SECONDS:-60}		# one pgbench run
BENCH_ROUNDS=${BENCH_ROUNDS:-3}			# runs per variant; the median is reported
BENCH_SCALE=${BENCH_SCALE:-10}			# pgbench scale
BENCH_CLIENTS=${BENCH_CLIENTS:-2}		# pgbench clients (= threads)
BENCH_ROWS=${BENCH_ROWS:-10000000}		# rows of the scan and COPY tables
BENCH_LABEL_RUNS=${BENCH_LABEL_RUNS:-4}	# runs of each label in the scan table
BENCH_UPDATE_ROWS=${BENCH_UPDATE_ROWS:-10000}	# rows of the TOAST update
BENCH_VALUE_KB=${BENCH_VALUE_KB:-100}	# size of each fresh out-of-line value
BENCH_LOOKUPS=${BENCH_LOOKUPS:-1000000}	# index point lookups a run
BENCH_LABELS=${BENCH_LABELS:-100000}	# labels interned for the memory figures

# --- the policy: Debian's MLS reference policy through libsepol, for every
# variant (heap variants ignore it).  One cluster, one policy: variants
# differ only in the labels of their rows and the session reading them, so
# the ratios compare like with like.  MLS reads need the session's low level
# to dominate the row's level; MLS writes need them equal.
BENCH_POLICY=${BENCH_POLICY:-/etc/selinux/mls/policy/policy.33}

# 64 row labels: sensitivities s0..s15 x one of categories c0..c3
ROW_TYPE=system_u:object_r:sepgsql_table_t
row_label() { echo "$ROW_TYPE:s$(($1 / 4)):c$(($1 % 4))"; }	# 0..63
# an ordinary user (staff_t) cleared for all 64, and one cleared for s0-s7,
# i.e. for 32 of them: "about half the rows"
READER_ALL=staff_u:staff_r:staff_t:s15:c0.c1023
READER_HALF=staff_u:staff_r:staff_t:s7:c0.c1023
# pgbench's rows must be writable by its session (MLS: same level), so its
# visible rows carry the session's level and hidden ones a higher level
PGB_CLIENT=staff_u:staff_r:staff_t:s0
PGB_VISIBLE=$ROW_TYPE:s0
pgb_hidden_label() { echo "$ROW_TYPE:s$((1 + $1 % 15)):c$(($1 % 4))"; }	# never readable at s0
# set-up sessions (superuser): unconfined_t may relabel (choose a row's
# label); MLS still wants their level to equal the row's
ADMIN_LABEL=unconfined_u:unconfined_r:unconfined_t:s0-s15:c0.c1023
writer_for() { echo "unconfined_u:unconfined_r:unconfined_t:${1##*:sepgsql_table_t:}"; }

bench_cluster_conf() {
	# the same tuning for every variant; fsync on, as a real server.
	# autovacuum off and explicit VACUUMs: a worker starting in one
	# variant's run and not another's would be noise.  One process a
	# query (2 cores): parallel workers would compete with the 2 pgbench
	# clients and blur per-row costs.  No JIT: compile time is noise here.
	BENCH_CONF=(
		"shared_buffers = '1GB'" "max_wal_size = '8GB'" "checkpoint_timeout = '30min'"
		"fsync = on" "synchronous_commit = on" "autovacuum = off"
		"max_parallel_workers_per_gather = 0" "jit = off"
		"max_connections = 120"
		"labelam.provider = 'sepol'" "labelam.policy_file = '$BENCH_POLICY'"
		"labelam.default_client_label = '$ADMIN_LABEL'"
		"labelam.max_labels = $((BENCH_LABELS + ${BENCH_LABELS_CANON:-10000} + 1000))"
	)
}

# Empties shared buffers by restarting the server (the OS page cache keeps
# the files), so that every variant's timed scans start from the same
# state.  Without it the table loaded last sits in shared buffers and is
# scanned from there, while tables loaded before it were evicted and are
# read through heap's bulk-read ring (a table larger than a quarter of
# shared_buffers): each new session then pays a page fault for every 4 kB
# of shared memory the scan touches, and the comparison measured load order
# (seen 2026-12-05: count(*) of all rows 0.34x heap with labelheap's table
# loaded last, 0.80x with both read through the ring).
cold_shared_buffers() {
	as_user "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 300 \
		-l "$(dirname "$PGDATA")/postmaster.log" restart >/dev/null 2>&1 ||
		die "restarting the server (to empty shared buffers) failed"
}

# A set-up session writing rows labeled $1 runs at the same level (MLS
# writes need the subject's level to equal the row's): as a superuser role
# of that level, whose label comes from a labelam.role_label row (the
# session cannot choose its label with PGOPTIONS: default_client_label is
# server configuration).  The label is writer_for's, as when the writer
# passed it as labelam.default_client_label, so results stay comparable.
writer_role() { local l=${1##*:sepgsql_table_t:}; echo "bench_w_${l//[^a-z0-9]/_}"; }
# create the writer role of label $2 and its role_label row in db $1, once
# (a marker file, so that calls in subshells share it)
ensure_writer() {	# db label
	local role; role=$(writer_role "$2")
	local mark="$WORK/writer.$1.$role"
	[ -e "$mark" ] && return 0
	psql_q -d "$1" -c "DO \$\$ BEGIN CREATE ROLE $role LOGIN SUPERUSER;
			EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" \
		-c "INSERT INTO labelam.role_label VALUES ('$role', '$(writer_for "$2")')
			ON CONFLICT (role) DO UPDATE SET label = EXCLUDED.label" >/dev/null &&
		touch "$mark"
}
# Index builds and ALTER TABLE's scans read every row: a set-up session
# whose level dominates all 64 row labels does them (under MLS no one can
# also write them all: writes need the subject's level to equal the row's)
TOP_LABEL=$ROW_TYPE:s15:c0.c1023
top_role() {	# db: the role of such a session in db (created once)
	ensure_writer "$1" "$TOP_LABEL" >&2
	writer_role "$TOP_LABEL"
}
# options that make the writer's session label its rows $1
write_opts() { echo "-c labelam.insert_label=$1"; }
declare -A _SECID
secid_of() {	# secid of a label, interned in database $BENCH_DB
	if [ -z "${_SECID[$1]:-}" ]; then
		_SECID[$1]=$(psql_q -d "${BENCH_DB:-postgres}" -At -c "SELECT labelam.intern_label('$1')")
	fi
	echo "${_SECID[$1]}"
}

# roles of the measured sessions: not superusers (RLS exempts those)
make_roles() {	# database
	psql_q -d "$1" -c "INSERT INTO labelam.role_label VALUES
		('bench_all', '$READER_ALL'), ('bench_half', '$READER_HALF'), ('bench_pgb', '$PGB_CLIENT')
		ON CONFLICT DO NOTHING" >/dev/null
}

# --- measuring
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
# record RESULT part metric variant value unit "note": one line of the raw data
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RAW"; }
# The pages a workload's table takes (main fork, and its TOAST table's), as
# a "lower" figure: its "x heap" is heap's pages over the variant's, the
# limit the 8 label bytes a row set on a workload bound by bytes.
record_pages() {	# part what variant db table
	local p
	p=$(psql_q -d "$4" -At -c "SELECT (pg_relation_size(c.oid) + coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0)) / current_setting('block_size')::int FROM pg_class c WHERE c.oid = '$5'::regclass") ||
		{ note "pages of $5 in $4 unknown"; return 0; }
	record "$1" "$2, pages" "$3" "$p" lower
}
# What one statement costs, in one session (psql connection arguments
# last), printed as "wall cpu blocks wal": the seconds the server's
# \timing gives; the CPU seconds its backend spent (/proc/PID/schedstat,
# which neighbours on a shared machine disturb far less than wall clock);
# the blocks of the relations rels (a comma-separated list, may be empty)
# it read from outside shared buffers (its transaction's own counters,
# read before they are flushed: the pages a workload bound by bytes pays
# for; "-" for a session that may not select every row of them, from
# which labelam withholds them); the bytes of WAL the server wrote meanwhile (nothing else writes
# during a measurement).  With rels, one transaction around the statement
# (the counters are the transaction's; a read's commit costs nothing);
# without, the statement commits by itself, inside its timing, as a
# client's would.
query_cost() {	# rels setup-sql sql psql-args...
	local rels=$1 setup=$2 sql=$3 out=$WORK/qc.out begin= commit=
	shift 3
	[ -n "$rels" ] && begin='BEGIN;' commit='COMMIT;'
	as_user "$PGBIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$@" >"$out" 2>&1 <<-SQL
		$setup;
		SELECT pg_backend_pid() AS pid, pg_current_wal_insert_lsn() AS lsn0 \gset
		\setenv QC_PID :pid
		$begin
		\o /dev/null
		\! cut -d' ' -f1 /proc/\$QC_PID/schedstat > $WORK/qc_cpu0
		\timing on
		$sql;
		\timing off
		\! cut -d' ' -f1 /proc/\$QC_PID/schedstat > $WORK/qc_cpu1
		\o
		SELECT 'cost ' || CASE WHEN '{$rels}' = '{}' THEN '0' ELSE coalesce((SELECT sum(pg_stat_get_xact_blocks_fetched(r) - pg_stat_get_xact_blocks_hit(r)) FROM unnest('{$rels}'::regclass[]) r)::text, '-') END || ' ' || pg_wal_lsn_diff(pg_current_wal_insert_lsn(), :'lsn0');
		$commit
	SQL
	grep -q ERROR "$out" && { cat "$out" >&2; return 1; }
	awk -v t0="$(cat "$WORK/qc_cpu0")" -v t1="$(cat "$WORK/qc_cpu1")" \
		'/^Time: / {ms = $2} /^cost / {b = $2; w = $3} END {if (!ms) exit 1; printf "%.4f %.4f %s %d\n", ms / 1000, (t1 - t0) / 1e9, b, w}' "$out"
}
# record_cost part metric variant "wall cpu blocks wal" [what]: the
# statement's wall seconds as metric, and, as what (wall, cpu, blocks,
# wal) names, its backend CPU, blocks read, WAL
record_cost() {
	local part=$1 metric=$2 v=$3 what=${5:-wall cpu}
	set -- $4
	[[ " $what " == *" wall "* ]] && record "$part" "$metric (s)" "$v" "$1" lower
	[[ " $what " == *" cpu "* ]] && record "$part" "$metric, backend CPU (s)" "$v" "$2" lower
	# ("-": the counters are withheld from a session that may not select
	# every row they count, src/am/channels/counters.c)
	[[ " $what " == *" blocks "* && $3 != - ]] && record "$part" "$metric, blocks read" "$v" "$3" lower
	[[ " $what " == *" wal "* ]] && record "$part" "$metric, WAL (MB)" "$v" "$(awk -v b="$4" 'BEGIN {printf "%.1f", b / 1048576}')" lower
	return 0
}
# seconds a query takes, from the server's own \timing, as role $1 in db $2
# (role "-": db is a connection string, e.g. writer_conn's, as superuser)
time_query() {	# role db sql [settings-sql]
	local u=(-U "$1"); [ "$1" = - ] && u=()
	as_user "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 "${u[@]}" -d "$2" \
		-c "${4:-SELECT}" -c '\timing on' -c "$3" 2>&1 | awk '/^Time: / {t = $2} /ERROR/ {e = 1} END {if (!e && t) printf "%.4f\n", t / 1000}'
}
# CPU seconds the server's processes have used so far (user + system, from
# /proc): the postmaster, its live children, and the children it has
# reaped (cutime, cstime).  The difference across a run is what the server
# spent on it, which neighbours on a shared machine disturb far less than
# wall-clock time.  Live children are counted with their own reaped
# children, so a process alive at both reads, or gone by the second, is
# counted once.
#
# A backend that exits between the postmaster's read and its own is
# counted nowhere (not yet reaped, then gone): right after pgbench ends its
# sessions' backends are exiting, and one such sample once put a whole
# run's CPU at 1.3 µs a transaction.  So two samples 0.2 s apart must
# agree (within two clock ticks: the idle server's own processes) before
# one is taken, for up to 10 s.
server_cpu_sample() {
	local pm pids
	pm=$(head -1 "$PGDATA/postmaster.pid") || die "no postmaster.pid in $PGDATA"
	pids=$(pgrep -P "$pm" | tr '\n' ' ')
	# a comm field may hold spaces: take the fields after its closing ")"
	for p in "$pm" $pids; do cat "/proc/$p/stat" 2>/dev/null; echo; done |
		awk -v hz="$(getconf CLK_TCK)" '
			{ sub(/^.*\) /, ""); t += $12 + $13 + $14 + $15 }
			END { printf "%.2f\n", t / hz }'
}
server_cpu_seconds() {
	local a b i
	a=$(server_cpu_sample)
	for i in $(seq 1 50); do
		sleep 0.2
		b=$(server_cpu_sample)
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(b - a <= 0.02 && a - b <= 0.02) }' && break
		a=$b
	done
	echo "$b"
}
# The same CPU as ../shared/tools/cpu-ratio.sh reads it, at once, in clock
# ticks: the postmaster's utime, stime, cutime and cstime, and its live
# children's utime and stime.  No wait for exiting sessions: read right
# after pgbench, a backend still exiting is counted with what it has used
# so far (a zombie's stat still shows it), and one reaped between the two
# reads of the same call is counted in neither (doc/overhead.md).
server_cpu_ticks_now() {
	local pm s=0 f c
	pm=$(head -1 "$PGDATA/postmaster.pid") || die "no postmaster.pid in $PGDATA"
	read -r -a f < <(sed 's/^.*) //' "/proc/$pm/stat"); s=$((f[11] + f[12] + f[13] + f[14]))
	for c in $(cat /proc/"$pm"/task/*/children 2>/dev/null); do
		[ -r "/proc/$c/stat" ] && { read -r -a f < <(sed 's/^.*) //' "/proc/$c/stat" 2>/dev/null); s=$((s + ${f[11]:-0} + ${f[12]:-0})); }
	done
	echo "$s"
}
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
note() { echo "- $*" >>"$NOTES"; log "NOTE: $*"; }

# connection string of a set-up session writing rows labeled $2 in db $1
writer_conn() {
	ensure_writer "$1" "$2" >&2
	echo "dbname=$1 user=$(writer_role "$2") options='$(write_opts "$2")'"
}
# psql as such a session: writer_psql db label psql-args...
writer_psql() { local db=$1 label=$2; shift 2; psql_q -d "$(writer_conn "$db" "$label")" "$@"; }
# psql as a measured role: role_psql role db psql-args...
role_psql() { local r=$1 db=$2; shift 2; psql_q -U "$r" -d "$db" "$@"; }
