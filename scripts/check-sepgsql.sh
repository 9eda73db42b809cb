#!/bin/bash
# scripts/check-sepgsql.sh -- contrib/sepgsql's own regression suite
# (the server's source, contrib/sepgsql/sql/*.sql and expected/*.out) run
# against labelam with the sepol provider, on a host without an SELinux
# kernel, the way contrib/sepgsql's test_sepgsql runs it against sepgsql:
#  - the policy is Debian's default (targeted) policy with sepgsql's
#    regression module sepgsql-regtest.te, its tunables
#    sepgsql_regression_test_mode and sepgsql_enable_users_ddl on, built by
#    scripts/sepgsql-policy.sh into a private policy store;
#  - every test file is fed to pg_regress through test/sepgsql/launcher,
#    sepgsql's launcher with runcon replaced by labelam.connect_label:
#    each "-- @SECURITY-CONTEXT=" section runs in its own psql with that
#    client label, the first at sepgsql_regtest_superuser_t;
#  - the databases are prepared as sepgsql's installation prepares them
#    (sepgsql.sql run in each: objects labeled by sepgsql_restorecon(NULL)).
# A test passes if its output matches sepgsql's expected file, or differs
# exactly as test/sepgsql-known-diffs/TEST.diff records (see its README).
#
# Standalone: scripts/check-sepgsql.sh [test ...]; sourced by run-tests.sh
# (LABELAM_TESTS=sepgsql, SEPGSQL="label dml" selects tests).

# contrib/sepgsql's test_sepgsql runs "label dml ddl alter misc", and
# truncate when the policy has db_table { truncate }; all run here.
SEPGSQL_TESTS_DEFAULT="label dml ddl alter misc truncate"
# the domain test_sepgsql requires the launcher to run in
SEPGSQL_LAUNCHER_LABEL=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023

# Is TEST's diff exactly the one test/sepgsql-known-diffs/TEST.diff records
# (its changed lines, in order)?
# A major whose output differs keeps its own in sepgsql-known-diffs/MAJOR/.
_sepgsql_known_diff() {	# test diffs-file
	local known
	known=$LABELAM_TOP/$(_known_diff_file sepgsql-known-diffs "$1") || return 1
	cmp -s "$known" <(_sepgsql_changed_lines "$1" "$2")
}

# The changed lines of TEST's diff, with the path of the regression policy
# (which names the cache entry) written @policy_file@.
_sepgsql_changed_lines() {	# test diffs-file
	awk -v t="$1" -v pol="${SEPGSQL_POLICY_FILE:-}" '
		/^diff / { cur = ($0 ~ "/" t "\\.out ") }
		cur && /^[-+]/ && !/^(\+\+\+|---) / {
			if (pol != "") { while ((i = index($0, pol)) > 0) $0 = substr($0, 1, i - 1) "@policy_file@" substr($0, i + length(pol)) }
			print
		}' "$2"
}

# Every selected test counts as failed: the suite could not run.
_sepgsql_all_failed() {	# tests reason
	local n
	n=$(echo "$1" | wc -w)
	FAILED=$((FAILED + n))
	FAILED_NAMES+=("sepgsql: $1 (not run: $2)")
	echo "sepgsql: 0 passed, $n failed (not run: $2)"
}

# The databases as sepgsql's installation leaves them (it runs sepgsql.sql,
# which creates its functions and then calls sepgsql_restorecon(NULL), in
# every database in single-user mode): the cluster starts with object
# checks off, since every object is still unlabeled and the policy lets
# unconfined_t only relabel unlabeled objects; labelam is created and every
# object labeled in postgres (which labels the databases themselves: shared
# labels) and in contrib_regression, made as pg_regress makes it; then
# checks on.  Output in OUT/setup.log; non-zero if a step failed.
_sepgsql_setup() {	# out
	local out=$1 db l
	for db in postgres contrib_regression; do
		if [ "$db" = contrib_regression ]; then
			psql_q -d postgres -c "CREATE DATABASE contrib_regression TEMPLATE template0" \
				-c "ALTER DATABASE contrib_regression SET lc_messages TO 'C'" \
				-c "ALTER DATABASE contrib_regression SET lc_monetary TO 'C'" \
				-c "ALTER DATABASE contrib_regression SET lc_numeric TO 'C'" \
				-c "ALTER DATABASE contrib_regression SET lc_time TO 'C'" \
				-c "ALTER DATABASE contrib_regression SET bytea_output TO 'hex'" \
				-c "ALTER DATABASE contrib_regression SET timezone_abbreviations TO 'Default'" \
				>>"$out/setup.log" 2>&1 || return 1
		fi
		psql_q -d "$db" -c "CREATE EXTENSION labelam" -c "SELECT sepgsql_restorecon(NULL)" \
			>>"$out/setup.log" 2>&1 || return 1
	done
	psql_q -d postgres -c "ALTER SYSTEM SET labelam.object_checks = on" -c "SELECT pg_reload_conf()" \
		>>"$out/setup.log" 2>&1 || return 1
	for l in $(seq 1 100); do
		[ "$(psql_q -At -d postgres -c "SHOW labelam.object_checks" 2>>"$out/setup.log")" = on ] && return 0
		sleep 0.1
	done
	echo "labelam.object_checks is not on after reload" >>"$out/setup.log"
	return 1
}

check_sepgsql() {	# conf-lines...
	# the source of the server under test, as check-pg.sh fetches it
	. "$LABELAM_TOP/scripts/check-pg.sh"
	local tests=${SEPGSQL:-$SEPGSQL_TESTS_DEFAULT} conf=() l
	if ! _check_pg_fetch; then
		_sepgsql_all_failed "$tests" "no PostgreSQL source"
		return
	fi
	local src=$PG_SRC/contrib/sepgsql policy out=$WORK/sepgsql-run t p=0 f=0 failed=()
	[ -f "$src/sepgsql-regtest.te" ] ||
		die "$src/sepgsql-regtest.te is missing (remove $SUITE and run once as root to fetch the source again)"
	for t in $tests; do
		[ -f "$src/sql/$t.sql" ] || die "contrib/sepgsql has no test $t"
	done
	if ! policy=$("$LABELAM_TOP/scripts/sepgsql-policy.sh" "$src"); then
		_sepgsql_all_failed "$tests" "could not build sepgsql's regression policy"
		return
	fi
	SEPGSQL_POLICY_FILE=$policy

	# test.conf's settings, with the regression policy and the launcher's
	# domain as the label of connections that ask for none
	for l in "$@"; do
		case "$l" in
			labelam.policy_file*|labelam.default_client_label*) ;;
			*) conf+=("$l") ;;
		esac
	done
	cluster_start sepgsql "${conf[@]}" \
		"labelam.object_checks = off" \
		"labelam.policy_file = '$policy'" \
		"labelam.default_client_label = '$SEPGSQL_LAUNCHER_LABEL'" \
		"log_line_prefix = '%m %b[%p] '"

	mkdir -p "$out/sql" "$out/expected"
	for t in $tests; do
		cp "$src/sql/$t.sql" "$out/sql/"
		cp "$src/expected/$t.out" "$out/expected/"
	done
	cp "$LABELAM_TOP/test/sepgsql/launcher" "$out/launcher"
	[ "$(id -u)" -eq 0 ] && chown -R "$RUN_USER" "$out"

	if ! _sepgsql_setup "$out"; then
		tail -5 "$out/setup.log"
		_sepgsql_all_failed "$tests" "setting up the databases failed, see $out/setup.log"
		cluster_stop
		return
	fi

	(cd "$out" && as_user "$PGXS_TESTDIR/regress/pg_regress" --bindir="$PGBIN" \
		--inputdir="$out" --outputdir="$out" --host="$PGHOST" --port="$PGPORT" \
		--dbname=contrib_regression --use-existing --launcher="$out/launcher" \
		$tests) >"$out/run.out" 2>&1

	for t in $tests; do
		if pg_regress_results "$out/run.out" | grep -qx "ok $t"; then
			p=$((p + 1))
		elif pg_regress_results "$out/run.out" | grep -qx "failed $t" &&
			_sepgsql_known_diff "$t" "$out/regression.diffs"; then
			p=$((p + 1))
			echo "sepgsql: $t differs only as $(_known_diff_file sepgsql-known-diffs "$t") records"
		else
			f=$((f + 1))
			failed+=("$t")
			# the changed lines, in the form test/sepgsql-known-diffs keeps
			[ -f "$out/regression.diffs" ] &&
				_sepgsql_changed_lines "$t" "$out/regression.diffs" >"$out/$t.diff"
		fi
	done
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
	if [ "$f" -gt 0 ]; then
		FAILED_NAMES+=("sepgsql: ${failed[*]}")
		echo "sepgsql: $p passed, $f failed (${failed[*]}; diffs: $out/regression.diffs, changed lines: $out/TEST.diff)"
	else
		echo "sepgsql: $p passed, $f failed"
	fi
	grep -qE 'PANIC|terminated by signal' "$WORK/sepgsql/postmaster.log" 2>/dev/null &&
		echo "sepgsql: server crashed, see $WORK/sepgsql/postmaster.log"
	cluster_stop
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	. "$(dirname "$0")/pgenv.sh"
	pg_enter_root "$@"
	[ $# -gt 0 ] && SEPGSQL="$*"
	labelam_setup
	PASSED=0 FAILED=0 FAILED_NAMES=()
	mapfile -t CONF < <(test_conf "$LABELAM_TOP/test/test.conf")
	check_sepgsql "${CONF[@]}"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" -eq 0 ]
fi
