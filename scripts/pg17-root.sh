#!/bin/bash
# scripts/pg17-root.sh -- a Debian 13 (trixie) root with PostgreSQL 17 and
# everything labelam's build and tests need, for "make test PG=17".
#
# Debian 12's archive has only postgresql-15.  Debian 13 ships postgresql-17
# as binary packages built against its own libc, and its source package is
# not served by the mirror; so the server runs from Debian 13's own packages,
# in a root made with debootstrap, and the tests run chrooted into it
# (scripts/pgenv.sh, pg_reexec).
#
# usage: scripts/pg17-root.sh          prints the root's path
# The root is cached in $LABELAM_PG_CACHE/root17 (default
# /var/tmp/labelam-pg/root17), outside the checkout.  Its .complete file
# holds the package list it was made with: the same list reuses the root,
# a changed list installs into (and upgrades) it, no .complete (an
# interrupted first run) makes it again.  Needs root (debootstrap, chroot).
set -euo pipefail

CACHE=${LABELAM_PG_CACHE:-/var/tmp/labelam-pg}
ROOT=$CACHE/root17
SUITE=trixie
MIRROR=${LABELAM_TRIXIE_MIRROR:-http://deb.debian.org/debian}
SECURITY=${LABELAM_TRIXIE_SECURITY:-http://deb.debian.org/debian-security}

# scripts/deps.sh's list for 15 with 17's server (less gnuplot, which only
# the benchmarks' plots use), and the tools the scripts call
PKGS=(postgresql-17 postgresql-server-dev-17 postgresql-contrib
      libselinux1-dev libsepol-dev liblz4-dev libkrb5-dev
      selinux-policy-default selinux-policy-mls setools libipc-run-perl
      selinux-policy-dev checkpolicy semodule-utils policycoreutils
      make gcc bzip2 xz-utils iproute2 perl python3 passwd util-linux)
WANT="$SUITE ${PKGS[*]}"

say() { echo "pg17-root: $*" >&2; }
die() { say "$*"; exit 2; }

if [ -f "$ROOT/.complete" ] && [ "$(cat "$ROOT/.complete")" = "$WANT" ]; then
	echo "$ROOT"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "the Debian 13 root $ROOT is missing or outdated; run this once as root"

# one builder at a time (two test runs may start together)
mkdir -p "$CACHE"
exec 9>"$CACHE/root17.lock"
flock 9
if [ -f "$ROOT/.complete" ] && [ "$(cat "$ROOT/.complete")" = "$WANT" ]; then
	echo "$ROOT"
	exit 0
fi

command -v debootstrap >/dev/null || {
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
		die "could not install debootstrap"
}

start=$(date +%s)
if [ ! -f "$ROOT/.complete" ]; then
	say "making a Debian 13 root in $ROOT from $MIRROR (a few minutes, once)"
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	unshare --mount --propagation private debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$SUITE" "$ROOT" "$MIRROR" >"$CACHE/root17.debootstrap.log" 2>&1 ||
		{ tail -20 "$CACHE/root17.debootstrap.log" >&2; die "debootstrap failed (log: $CACHE/root17.debootstrap.log)"; }
	printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
		"$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SECURITY" "$SUITE" >"$ROOT/etc/apt/sources.list"
	# only what is needed; no manual pages
	printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
		>"$ROOT/etc/apt/apt.conf.d/99labelam"
	# the server packages must not create or start a cluster in the root
	mkdir -p "$ROOT/etc/postgresql-common/createcluster.d"
	echo "create_main_cluster = false" >"$ROOT/etc/postgresql-common/createcluster.d/labelam.conf"
	printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
	chmod 755 "$ROOT/usr/sbin/policy-rc.d"
else
	say "installing into the Debian 13 root $ROOT: the package list changed"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true

# chrooted with /proc, /dev, /sys in a private mount namespace (gone afterwards)
in_root() { "$(dirname "$0")/chroot-run.sh" "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
{
	in_root apt-get update -qq &&
	in_root apt-get -y -qq -o Dpkg::Options::=--force-confold dist-upgrade &&
	in_root apt-get install -y -qq "${PKGS[@]}"
} >"$CACHE/root17.apt.log" 2>&1 ||
	{ tail -20 "$CACHE/root17.apt.log" >&2; die "apt-get in the root failed (log: $CACHE/root17.apt.log)"; }
in_root apt-get clean

[ -x "$ROOT/usr/lib/postgresql/17/bin/pg_config" ] || die "no pg_config in the root"
echo "$WANT" >"$ROOT/.complete"
say "root ready in $(( $(date +%s) - start )) s: $(chroot "$ROOT" /usr/lib/postgresql/17/bin/pg_config --version)"
echo "$ROOT"
