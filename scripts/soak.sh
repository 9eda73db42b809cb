#!/bin/bash
# scripts/soak.sh -- "make soak" and "make hostile": labelam built and
# installed privately (scripts/pgenv.sh), then the soak with its fault
# injector and ledger (test/soak/soak.py) or the hostile-input run
# (test/soak/hostile.py).  See doc/reliability.md.
#
# usage: scripts/soak.sh soak SECONDS SEED
#        scripts/soak.sh hostile INPUTS SEED
# Runs as root: the disk faults fill small tmpfs mounts the run makes and
# removes itself; the servers run as $LABELAM_USER.  PostgreSQL 15 only (the
# other majors run labelam's own suites).
#
# scripts/run-tests.sh sources this file for soak_driver (its parts "soak"
# and "hostile", short runs on the installation it made).

# soak_driver MODE DIR ARGS...: test/soak/MODE.py on the private
# installation of labelam_setup ($PGBIN, $RUN_USER), its clusters and
# mounts under DIR (made here); returns its exit status.  Whatever servers
# or mounts the driver left (it stops and removes its own) are stopped and
# removed here, before pgenv.sh's clean-up removes the work directory.
soak_driver() {
	local mode=$1 dir=$2 rc f m
	shift 2
	mkdir -p "$dir" && chmod 755 "$dir"
	SOAK_PGBIN=$PGBIN SOAK_WORK=$dir SOAK_RUN_USER=$RUN_USER SOAK_MLS_POLICY=$(selinux_policy mls) \
		PYTHONPATH="$LABELAM_TOP/test/soak" /usr/bin/python3 -u "$LABELAM_TOP/test/soak/$mode.py" "$@"
	rc=$?
	for f in $(find "$dir" -maxdepth 3 -name postmaster.pid 2>/dev/null); do
		as_user "$PGBIN/pg_ctl" -D "$(dirname "$f")" -m immediate -w -t 30 stop >/dev/null 2>&1
	done
	for m in $(findmnt -rn -o TARGET | grep "^$dir/" | sort -r); do
		umount -l "$m"
	done
	return $rc
}

# soak_missing: why the soak or the hostile-input run cannot run here, if
# anything
soak_missing() {
	[ "$(id -u)" -eq 0 ] || { echo "it runs as root (it mounts the file systems it fills)"; return; }
	[ "$PG" = 15 ] || { echo "it runs on PostgreSQL 15 only (PG=$PG)"; return; }
	[ -f "$(selinux_policy mls)" ] || { echo "$(selinux_policy mls) is missing (package selinux-policy-mls)"; return; }
	/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || echo "python3-psycopg2 is missing (scripts/deps.sh)"
}

[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

set -uo pipefail
. "$(dirname "$0")/pgenv.sh"

mode=${1:-}
case "$mode" in
	soak | hostile) shift ;;
	*) die "usage: $0 soak SECONDS SEED | hostile INPUTS SEED" ;;
esac
why=$(soak_missing)
[ -z "$why" ] || die "make $mode: $why"

labelam_setup
soak_driver "$mode" "$WORK/$mode" "$@"
