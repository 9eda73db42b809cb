#!/bin/bash
# scripts/run-tests.sh -- "make test": set-up, build, private install, then
# every test of the project: checks of the tree itself (scripts/check-*.py:
# STATIC_CHECKS), pg_regress files (test/sql), isolation specs
# (test/specs), TAP scripts (test/t), contrib/sepgsql's regression suite
# against labelam (scripts/check-sepgsql.sh) and PostgreSQL's own suites
# under labelheap (scripts/check-pg.sh).  Ends with "N passed, M failed".
#
# env: LABELAM_TESTS="static regress isolation tap sepgsql pg" selects parts;
#      REGRESS="a b", ISOLATION="x", TAP="t/001_x.pl", SEPGSQL="label dml"
#      select tests;
#      LABELAM_KEEP=1 keeps the work directory.
set -uo pipefail

# PG=all: every supported major in turn (PG_ALL, default "15 17 18-assert":
# 18 built with --enable-cassert, so that CI runs one major assert-enabled),
# each a run of this script of its own (a major's failure does not stop the
# next), then one summary line.  17's core and sepgsql suites need a
# PostgreSQL 17 source tree that this machine cannot fetch (test/README.md,
# "Other PostgreSQL majors"): without PG_SOURCE_17 only labelam's own
# suites run there, and the summary says so.
if [ "${PG:-}" = all ]; then
	total_p=0 total_f=0 summary=() not_run=
	for major in ${PG_ALL:-15 17 18-assert}; do
		all_parts=${LABELAM_TESTS:-static regress isolation tap sepgsql pg}
		parts=$all_parts
		src=
		if [ "$major" = 17 ]; then
			if [ -n "${PG_SOURCE_17:-}" ]; then
				src=$PG_SOURCE_17
			else
				parts=$(echo " $parts " | sed 's/ sepgsql / /; s/ pg / /; s/^ *//; s/ *$//')
				[ "$parts" = "$all_parts" ] ||
					not_run="PostgreSQL 17: core and sepgsql suites not run (no PostgreSQL 17 source here; PG_SOURCE_17 names one)"
			fi
		fi
		[ -n "$parts" ] || continue
		echo "=== PostgreSQL $major: $parts ($(date -u +%H:%M:%S)) ==="
		start=$SECONDS
		log=$(mktemp /tmp/labelam-all.XXXXXX)
		# (PG_SOURCE names one major's tree: each other major finds its own)
		PG=$major LABELAM_TESTS=$parts PG_SOURCE=$src "$0" "$@" 2>&1 | tee "$log"
		last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1)
		rm -f "$log"
		p=0 f=1		# a run that ended without its line failed
		[ -n "$last" ] && read -r p _ f _ <<<"$last"
		total_p=$((total_p + p)); total_f=$((total_f + f))
		summary+=("PostgreSQL $major: $p passed, $f failed in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s ($parts)")
	done
	printf '%s\n' "${summary[@]}"
	[ -z "$not_run" ] || echo "$not_run"
	echo "$total_p passed, $total_f failed"
	[ "$total_f" -eq 0 ] && [ "$total_p" -gt 0 ]
	exit
fi

. "$(dirname "$0")/pgenv.sh"
pg_enter_root "$@"

PARTS=${LABELAM_TESTS:-static regress isolation tap sepgsql pg}
labelam_setup

cp -r "$LABELAM_TOP/test" "$WORK/test"
[ "$(id -u)" -eq 0 ] && chown -R "$RUN_USER" "$WORK/test"
TESTCONF=$WORK/test/test.conf
test_conf "$LABELAM_TOP/test/test.conf" >"$TESTCONF"
mapfile -t CONF <"$TESTCONF"

PASSED=0
FAILED=0
FAILED_NAMES=()

# count the passed and failed tests of a pg_regress run
count_pg_regress() {	# out-file label number-of-tests
	local out=$1 label=$2 n=$3 p f
	p=$(pg_regress_results "$out" | grep -c '^ok ')
	f=$((n - p))	# a test that crashed the driver has no line at all
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
	[ "$f" -gt 0 ] && FAILED_NAMES+=("$label: $(pg_regress_results "$out" | sed -n 's/^failed //p' | tr '\n' ' ')")
	echo "$label: $p passed, $f failed"
}

run_regress_like() {	# name driver tests...
	local name=$1 driver=$2; shift 2
	local out=$WORK/$name
	mkdir -p "$out"; [ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$out"
	(cd "$out" && as_user "$driver" --bindir="$PGBIN" \
		--inputdir="$WORK/test" --outputdir="$out" --host="$PGHOST" --port="$PGPORT" \
		--dbname=contrib_regression --load-extension=labelam "$@") >"$out/run.out" 2>&1
	count_pg_regress "$out/run.out" "$name" $#
	if ! grep -q 'All [0-9]* tests passed' "$out/run.out"; then
		tail -5 "$out/run.out"
		cat "$out/regression.diffs" 2>/dev/null | head -200
	fi
}

# checks of the tree, no server needed: scripts/check-NAME.py LABELAM-DIR
# exits 0 when the tree passes (each says what it checks)
STATIC_CHECKS="cycles drift paths links lists"
if [[ " $PARTS " == *" static "* ]]; then
	p=0 f=0
	for check in $STATIC_CHECKS; do
		if python3 "$LABELAM_TOP/scripts/check-$check.py" "$LABELAM_TOP" >"$WORK/check-$check.out" 2>&1; then
			p=$((p + 1))
		else
			f=$((f + 1))
			FAILED_NAMES+=("static: check-$check")
			head -40 "$WORK/check-$check.out"
		fi
	done
	PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
	echo "static: $p passed, $f failed"
fi

if [[ " $PARTS " == *" regress "* ]] || [[ " $PARTS " == *" isolation "* ]]; then
	cluster_start main "${CONF[@]}"
fi

if [[ " $PARTS " == *" regress "* ]]; then
	tests=${REGRESS:-$(cd "$WORK/test/sql" && ls *.sql 2>/dev/null | sed 's/\.sql$//')}
	[ -n "$tests" ] && run_regress_like regress "$PGXS_TESTDIR/regress/pg_regress" $tests
fi

if [[ " $PARTS " == *" isolation "* ]]; then
	tests=${ISOLATION:-$(cd "$WORK/test/specs" && ls *.spec 2>/dev/null | sed 's/\.spec$//')}
	[ -n "$tests" ] && run_regress_like isolation "$PGXS_TESTDIR/isolation/pg_isolation_regress" $tests
fi

if [[ " $PARTS " == *" tap "* ]]; then
	tests=${TAP:-$(cd "$WORK/test" && ls t/*.pl 2>/dev/null)}
	if [ -n "$tests" ]; then
		mkdir -p "$WORK/tap"; [ "$(id -u)" -eq 0 ] && chown "$RUN_USER" "$WORK/tap"
		# labelam's policy module in Debian's MLS policy ("make policy"; it
		# reads the system's policy store, so it is built here, not by the
		# tests, which run as $RUN_USER): LabelamTest::labelam_policy
		LABELAM_POLICY_FILE=$("$LABELAM_TOP/scripts/labelam-policy.sh" | tail -1) ||
			{ echo "tap: make policy failed: tests of labelam's policy module will fail" >&2; LABELAM_POLICY_FILE=; }
		# TESTDIR: PostgreSQL::Test::Utils of 15 makes TESTDIR/tmp_check and
		# its log/; from 16 it takes TESTDATADIR and TESTLOGDIR instead.
		# LABELAM_TOP: tests that read the tree (002: README.md)
		(cd "$WORK/test" && LABELAM_EXTRA_ENV="LABELAM_TOP=$LABELAM_TOP TESTDIR=$WORK/tap TESTDATADIR=$WORK/tap/tmp_check TESTLOGDIR=$WORK/tap/tmp_check/log PERL5LIB=$PGXS_TESTDIR/perl:$WORK/test/t PG_REGRESS=$PGXS_TESTDIR/regress/pg_regress LABELAM_TESTCONF=$TESTCONF LABELAM_POLICY_FILE=$LABELAM_POLICY_FILE PGPORT=$(free_port)" \
			as_user prove $tests) >"$WORK/tap/run.out" 2>&1
		p=$(grep -cE '^t/.*\.pl \.+ ok' "$WORK/tap/run.out")
		f=$(grep -cE '^t/.*\.pl \.+ (Dubious|Failed|not ok)' "$WORK/tap/run.out")
		# a script that died without a summary line counts as failed
		n=$(echo "$tests" | wc -w)
		[ $((p + f)) -lt "$n" ] && f=$((n - p))
		PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
		echo "tap: $p passed, $f failed"
		if [ "$f" -gt 0 ]; then
			FAILED_NAMES+=("tap: $(grep -E '^t/.*\.pl \.+ (Dubious|Failed)' "$WORK/tap/run.out" | cut -d' ' -f1 | tr '\n' ' ')")
			grep -vE '^t/.*\.pl \.+ ok' "$WORK/tap/run.out" | head -60
			for l in "$WORK"/tap/tmp_check/log/regress_log_*; do
				[ -f "$l" ] && grep -H -E -B2 -A8 '^not ok' "$l" | head -40
			done
		fi
	fi
fi

if [[ " $PARTS " == *" sepgsql "* ]]; then
	. "$LABELAM_TOP/scripts/check-sepgsql.sh"
	check_sepgsql "${CONF[@]}"
fi

if [[ " $PARTS " == *" pg "* ]]; then
	. "$LABELAM_TOP/scripts/check-pg.sh"
	check_pg_all "${CONF[@]}"
fi

[ ${#FAILED_NAMES[@]} -gt 0 ] && printf 'failed: %s\n' "${FAILED_NAMES[@]}"
[ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ] && LABELAM_KEEP_ON_FAIL=0
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
