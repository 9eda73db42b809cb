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
# other majors run labelam's own suites; make test runs short versions of
# both here).
set -uo pipefail

. "$(dirname "$0")/pgenv.sh"

mode=${1:-}
case "$mode" in
	soak | hostile) shift ;;
	*) die "usage: $0 soak SECONDS SEED | hostile INPUTS SEED" ;;
esac
[ "$(id -u)" -eq 0 ] || die "make $mode runs as root (it mounts the file systems it fills)"
[ "$PG" = 15 ] || die "make $mode runs on PostgreSQL 15 only (PG=$PG)"
MLS=$(selinux_policy mls)
[ -f "$MLS" ] || die "$MLS is missing (package selinux-policy-mls)"
/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || die "python3-psycopg2 is missing (scripts/deps.sh)"

labelam_setup
SOAK_PGBIN=$PGBIN SOAK_WORK=$WORK SOAK_RUN_USER=$RUN_USER SOAK_MLS_POLICY=$MLS \
	PYTHONPATH="$LABELAM_TOP/test/soak" /usr/bin/python3 -u "$LABELAM_TOP/test/soak/$mode.py" "$@"
rc=$?
# the driver stops its servers and removes its mounts; whatever a failure
# left is stopped and removed here, before pgenv.sh's clean-up removes the
# work directory
for f in $(find "$WORK" -maxdepth 3 -name postmaster.pid 2>/dev/null); do
	as_user "$PGBIN/pg_ctl" -D "$(dirname "$f")" -m immediate -w -t 30 stop >/dev/null 2>&1
done
for m in $(findmnt -rn -o TARGET | grep "^$WORK/" | sort -r); do
	umount -l "$m"
done
exit $rc
