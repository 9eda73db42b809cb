#!/bin/bash
# scripts/check-pg.sh -- PostgreSQL's own core regression suite
# (parallel_schedule) and isolation suite (isolation_schedule), from the
# source of the server under test (PG_SOURCE, a source tree, or else the
# Debian source package postgresql-MAJOR of the installed version), run with
# default_table_access_method = labelheap, once per mode:
#   normal    test/test.conf only
#   walcheck  + wal_consistency_checking = 'heap,heap2', with a streaming
#             standby whose redo does the checking
#   ownwrite  + labelam.debug_own_write = on (every write through labelheap's
#             own TOAST preparation and heap's writers with heap's toaster
#             bypassed, src/am/write/toast.c)
# Any non-heap AM makes create_index, create_am and psql print its name;
# those three pass here when every changed line names the access method.
# Differences that follow from labelheap's tuple format are recorded in
# test/pg-known-diffs (see its README); a test passes with one only if its
# diff is exactly that.
# After each run, labelam.verify_labels must be empty for every labelheap
# relation left in the regression database.
#
# Standalone: scripts/check-pg.sh [mode ...]; sourced by run-tests.sh.

PG_SUITES=${PG_SUITES:-/var/tmp/labelam-pg-suites}
# tests that list access methods or operator classes: labelam's own
# (labelheap, and labelsummary with its operator class, which has no
# operators) appear in their listings
AM_NAME_TESTS="create_index create_am psql amutils opr_sanity"
# copies the drift files (the sources labelam copied code from, as
# scripts/check-drift.py lists them) missing from $SUITE/src out of the
# source tree $1
_check_pg_drift_files() {
	local f
	for f in $(python3 "$LABELAM_TOP/scripts/check-drift.py" --files); do
		[ -f "$SUITE/src/$f" ] && continue
		[ -f "$1/$f" ] || return 1
		mkdir -p "$SUITE/src/$(dirname "$f")"
		cp "$1/$f" "$SUITE/src/$f" && chmod a+r "$SUITE/src/$f"
	done
}

# Sets SUITE (the suites, built) and PG_SRC (the source tree); returns 1
# if the source cannot be had.
_check_pg_fetch() {
	local ver upstream major src tarball
	upstream=$("$PG_CONFIG" --version | awk '{print $2}')	# "PostgreSQL 15.18 (Debian ...)"
	major=${upstream%%.*}
	PG_MAJOR=$major
	SUITE=$PG_SUITES/$upstream/suite
	src=${PG_SOURCE:-$PG_SUITES/$upstream/src/postgresql-$upstream}
	PG_SRC=$src
	# a cached suite from before a drift file was added: add it, in place
	# (other runs may be using the suite)
	[ -f "$SUITE/regress/lib/regress.so" ] && _check_pg_drift_files "$src" && return 0
	[ "$(id -u)" -eq 0 ] || die "the PostgreSQL test suites are not cached in $PG_SUITES; run once as root"
	if [ ! -f "$src/src/test/regress/parallel_schedule" ]; then
		[ -z "${PG_SOURCE:-}" ] || die "PG_SOURCE=$PG_SOURCE has no src/test/regress/parallel_schedule"
		ver=$(dpkg-query -W -f='${Version}' "postgresql-$major") || die "postgresql-$major not installed"
		if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
			# mirror the Debian archive's deb822 stanzas as deb-src
			local f tmp
			tmp=$(mktemp)
			for f in /etc/apt/sources.list.d/*.sources; do
				[ -f "$f" ] && grep -q debian "$f" || continue
				awk 'BEGIN{RS=""; ORS="\n\n"} /Types: deb\n/ && /debian/ {sub(/Types: deb\n/, "Types: deb-src\n"); print}' "$f"
			done >"$tmp"
			[ -s "$tmp" ] || {
				rm -f "$tmp"
				echo "labelam: no apt deb-src entry to fetch the source of postgresql-$major $ver from (Debian 13's mirror does not serve postgresql-17's); set PG_SOURCE to a PostgreSQL $upstream source tree" >&2
				return 1
			}
			install -m 644 "$tmp" /etc/apt/sources.list.d/labelam-src.sources
			rm -f "$tmp"
			apt-get update -qq >/dev/null
		fi
		mkdir -p "$PG_SUITES/$upstream/src"
		# (Debian 13's mirror serves postgresql-17's binary packages, not its source)
		(cd "$PG_SUITES/$upstream/src" &&
			{ apt-get source -qq --download-only "postgresql-$major=$ver" >/dev/null 2>&1 ||
				apt-get source -qq --download-only "postgresql-$major" >/dev/null 2>&1; } &&
			tar xf "$(ls -t "postgresql-${major}_"*.orig.tar.* | head -1)") || {
			echo "labelam: could not fetch the source of postgresql-$major $ver (apt-get source); set PG_SOURCE to a PostgreSQL $upstream source tree" >&2
			return 1
		}
		[ -f "$src/src/test/regress/parallel_schedule" ] ||
			src=$(ls -d "$PG_SUITES/$upstream"/src/postgresql-"$major".*/ | head -1 | sed 's:/$::')
		PG_SRC=$src
	fi
	local R=$src/src/test/regress I=$src/src/test/isolation t f
	tests_of() { sed -n 's/^test:[[:space:]]*//p' "$1" | tr -s ' \t' '\n' | sed '/^$/d'; }
	rm -rf "$SUITE"
	mkdir -p "$SUITE"/regress/{sql,expected,data,lib,src} "$SUITE"/isolation/{specs,expected}
	cp "$R/parallel_schedule" "$R/resultmap" "$SUITE/regress/"
	for t in $(tests_of "$R/parallel_schedule"); do
		cp "$R/sql/$t.sql" "$SUITE/regress/sql/"
		for f in "$R/expected/$t.out" "$R/expected/${t}"_[0-9].out; do
			[ -f "$f" ] && cp "$f" "$SUITE/regress/expected/"
		done
	done
	grep -ho "'/data/[A-Za-z0-9_.]*'" "$SUITE"/regress/sql/*.sql | tr -d "'" | sort -u |
		while read -r f; do [ -f "$R$f" ] && cp "$R$f" "$SUITE/regress/data/"; done
	cp "$R/regress.c" "$SUITE/regress/src/"
	printf 'MODULES = regress\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' >"$SUITE/regress/src/Makefile"
	make -s -C "$SUITE/regress/src" PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1 || die "could not build regress.so"
	cp "$SUITE/regress/src/regress.so" "$SUITE/regress/lib/"
	local pkglibdir; pkglibdir=$("$PG_CONFIG" --pkglibdir)
	cp "$pkglibdir/refint.so" "$pkglibdir/autoinc.so" "$SUITE/regress/lib/"
	cp "$I/isolation_schedule" "$SUITE/isolation/"
	for t in $(tests_of "$I/isolation_schedule"); do
		cp "$I/specs/$t.spec" "$SUITE/isolation/specs/"
		for f in "$I/expected/$t.out" "$I/expected/${t}"_[0-9].out; do
			[ -f "$f" ] && cp "$f" "$SUITE/isolation/expected/"
		done
	done
	_check_pg_drift_files "$src" || die "$src lacks a file scripts/check-drift.py --files lists"
	chmod -R a+rX "$PG_SUITES"
}

# labelam's copies of PostgreSQL functions still match the server's source
# (the hashes recorded for its major)
_check_pg_drift() {
	if python3 "$LABELAM_TOP/scripts/check-drift.py" "$SUITE/src" "$LABELAM_TOP" "$PG_MAJOR"; then
		PASSED=$((PASSED + 1))
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("check-drift: copied PostgreSQL code changed upstream")
	fi
}

# Does TEST's output differ from the expected only by lines naming
# labelheap or labelsummary, the row counts of those listings and the column widths they
# change?  $1 test, $2 expected dir, $3 results dir
_only_am_name_diffs() {
	local test=$1 norm='/labelheap\|labelsummary/d; /^([0-9][0-9]* rows\{0,1\})$/d; s/[[:space:]]//g; s/-\{2,\}/-/g'
	cmp -s <(sed "$norm" "$2/$test.out") <(sed "$norm" "$3/$test.out")
}

# Is TEST's diff exactly the one test/pg-known-diffs/TEST.diff records?
# A major whose output differs keeps its own in pg-known-diffs/MAJOR/.
# The one run-dependent part, a TOAST relation's name (pg_toast_OID), is
# written pg_toast_OID on both sides.
_known_diff_file() {	# dir test: prints the file under test/DIR recording
	# TEST's diff on this major, if any
	local known=test/$1/$PG_MAJOR/$2.diff
	[ -f "$LABELAM_TOP/$known" ] || known=test/$1/$2.diff
	[ -f "$LABELAM_TOP/$known" ] && echo "$known"
}
_known_format_diff() {	# test diffs
	local known
	known=$LABELAM_TOP/$(_known_diff_file pg-known-diffs "$1") || return 1
	cmp -s "$known" <(awk -v t="$1" '
		/^diff / { cur = ($0 ~ "/" t "\\.out ") }
		cur && /^[-+]/ && !/^(\+\+\+|---) / { print }' "$2" |
		sed 's/pg_toast_[0-9][0-9]*/pg_toast_OID/g')
}

_check_pg_count() {	# name out-file diffs expected-dir results-dir schedule
	local name=$1 out=$2 diffs=$3 p f t failed=() total missing
	p=$(pg_regress_results "$out" | grep -c '^ok ')
	# a test that never ran (the driver stopped) is a failure too
	total=$(sed -n 's/^test:[[:space:]]*//p' "$6" | wc -w)
	missing=$((total - p - $(pg_regress_results "$out" | grep -c '^failed ')))
	[ "$missing" -lt 0 ] && missing=0
	for t in $(pg_regress_results "$out" | sed -n 's/^failed //p'); do
		if [[ " $AM_NAME_TESTS " == *" $t "* ]] && _only_am_name_diffs "$t" "$4" "$5"; then
			p=$((p + 1))
		elif _known_format_diff "$t" "$diffs"; then
			p=$((p + 1))
			echo "$name: $t differs only as $(_known_diff_file pg-known-diffs "$t") records"
		else
			failed+=("$t")
		fi
	done
	[ "$missing" -gt 0 ] && failed+=("($missing tests did not run)")
	f=$((${#failed[@]} + missing - (missing > 0 ? 1 : 0)))
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
	if [ "$f" -gt 0 ]; then
		FAILED_NAMES+=("$name: ${failed[*]}")
		echo "$name: $p passed, $f failed (${failed[*]}; diffs: $diffs)"
	else
		echo "$name: $p passed, $f failed"
	fi
	grep -qE 'PANIC|terminated by signal' "$out" && echo "$name: server crashed, see $out"
}

_check_pg_verify() {	# name: labels of every labelheap relation in the regression db
	local name=$1 res
	res=$(psql_q -At -d regression -c "
		SELECT count(*) FILTER (WHERE v.problem IS NOT NULL) || ' ' || count(DISTINCT c.oid)
		FROM pg_class c JOIN pg_am a ON a.oid = c.relam AND a.amname = 'labelheap'
		LEFT JOIN LATERAL labelam.verify_labels(c.oid) v ON true
		WHERE c.relkind IN ('r', 'm', 't')
		-- other sessions' temporary tables (after a crash, only their
		-- catalog entries) cannot be verified
		AND NOT pg_is_other_temp_schema(c.relnamespace)" 2>&1)
	if [[ "$res" =~ ^0\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
		PASSED=$((PASSED + 1))
		echo "$name verify_labels: 0 problems in ${BASH_REMATCH[1]} labelheap relations"
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$name verify_labels: $res")
		echo "$name verify_labels: FAILED: $res"
	fi
}

# The standby replayed everything the suites wrote, and redo found every
# page as the primary had it (wal_consistency_checking compares them).
_check_pg_standby() {	# name
	local name=$1 lsn i res
	lsn=$(psql_q -At -d postgres -c "SELECT pg_current_wal_flush_lsn()")
	for i in $(seq 1 300); do
		res=$(PGHOST=$STANDBY_HOST PGPORT=$STANDBY_PORT psql_q -At -d postgres \
			-c "SELECT pg_last_wal_replay_lsn() >= '$lsn'" 2>&1)
		[ "$res" = t ] && break
		sleep 1
	done
	if [ "$res" = t ] && ! grep -q 'inconsistent page\|PANIC' "$STANDBY_LOG"; then
		PASSED=$((PASSED + 1))
		echo "$name standby: replayed up to $lsn, every page consistent"
	else
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("$name standby replay")
		echo "$name standby: FAILED (replayed: $res); see $STANDBY_LOG"
		grep -m5 'inconsistent page\|PANIC\|FATAL' "$STANDBY_LOG"
	fi
}

check_pg_mode() {	# mode conf-lines...
	local mode=$1; shift
	local extra=()
	case "$mode" in
		normal) ;;
		walcheck) extra=("wal_consistency_checking = 'heap,heap2'") ;;
		ownwrite) extra=("labelam.debug_own_write = on") ;;
		*) die "unknown check-pg mode $mode" ;;
	esac
	cluster_start "pg-$mode" "$@" "${extra[@]}" \
		"default_table_access_method = 'labelheap'" "compute_query_id = off" \
		"log_line_prefix = '%m %b[%p] '" "max_connections = 100"
	[ "$mode" = walcheck ] && standby_start "pg-$mode-standby"
	local out=$WORK/pg-$mode
	mkdir -p "$out/regress" "$out/isolation"
	[ "$(id -u)" -eq 0 ] && chown -R "$RUN_USER" "$out"
	(cd "$out/regress" && as_user "$PGXS_TESTDIR/regress/pg_regress" \
		--bindir="$PGBIN" --inputdir="$SUITE/regress" --outputdir="$out/regress" \
		--dlpath="$SUITE/regress/lib" --host="$PGHOST" --port="$PGPORT" \
		--max-concurrent-tests=20 --load-extension=labelam \
		--schedule="$SUITE/regress/parallel_schedule") >"$out/regress.out" 2>&1
	_check_pg_count "pg-$mode regress" "$out/regress.out" "$out/regress/regression.diffs" \
		"$SUITE/regress/expected" "$out/regress/results" "$SUITE/regress/parallel_schedule"
	_check_pg_verify "pg-$mode"
	(cd "$out/isolation" && as_user "$PGXS_TESTDIR/isolation/pg_isolation_regress" \
		--bindir="$PGBIN" --inputdir="$SUITE/isolation" --outputdir="$out/isolation" \
		--host="$PGHOST" --port="$PGPORT" --load-extension=labelam \
		--schedule="$SUITE/isolation/isolation_schedule") >"$out/isolation.out" 2>&1
	_check_pg_count "pg-$mode isolation" "$out/isolation.out" "$out/isolation/regression.diffs" \
		"$SUITE/isolation/expected" "$out/isolation/results" "$SUITE/isolation/isolation_schedule"
	[ "$mode" = walcheck ] && _check_pg_standby "pg-$mode"
	cluster_stop
}

check_pg_all() {	# conf-lines...
	if ! _check_pg_fetch; then
		FAILED=$((FAILED + 1))
		FAILED_NAMES+=("pg: not run, no PostgreSQL source")
		echo "pg: not run: no PostgreSQL source"
		# neither passed nor failed: nothing to compare the copies with
		echo "check-drift: skipped for PostgreSQL $PG_MAJOR: its source is not reachable (labelam's copies of PostgreSQL code are not checked against it)"
		return
	fi
	_check_pg_drift
	local m
	for m in ${CHECK_PG_MODES:-normal walcheck ownwrite}; do
		check_pg_mode "$m" "$@"
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	. "$(dirname "$0")/pgenv.sh"
	pg_enter_root "$@"
	[ $# -gt 0 ] && CHECK_PG_MODES="$*"
	labelam_setup
	PASSED=0 FAILED=0 FAILED_NAMES=()
	mapfile -t CONF < <(test_conf "$LABELAM_TOP/test/test.conf")
	check_pg_all "${CONF[@]}"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
fi
