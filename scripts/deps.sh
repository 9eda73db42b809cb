#!/bin/bash
# scripts/deps.sh -- install, on Debian 12 as root, exactly the packages
# labelam's build, tests, demo and benchmarks need that are missing.
# Idempotent.
#
# usage: scripts/deps.sh [--bench]     (--bench adds gnuplot for the plots and
#                                      valgrind for bench/instructions.sh)
# Not root or not Debian: says what to install by hand and exits 1 if
# anything is missing.
set -euo pipefail

PKGS=(postgresql-15 postgresql-contrib libselinux1-dev libsepol-dev liblz4-dev libkrb5-dev
      selinux-policy-default selinux-policy-mls setools libipc-run-perl python3-psycopg2
      selinux-policy-dev checkpolicy semodule-utils policycoreutils
      make gcc bzip2 xz-utils iproute2)
[ "${1:-}" = --bench ] && PKGS+=(gnuplot-nox valgrind)

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# The server headers must match the installed server exactly.
pgver=$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null || true)
devver=$(dpkg-query -W -f='${Version}' postgresql-server-dev-15 2>/dev/null || true)

missing=()
for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
devpkg=
if [ -z "$devver" ] || ! installed postgresql-server-dev-15 || [ "$devver" != "$pgver" ]; then
	devpkg=postgresql-server-dev-15
fi

[ ${#missing[@]} -eq 0 ] && [ -z "$devpkg" ] && exit 0

if [ ! -f /etc/debian_version ] || [ "$(id -u)" -ne 0 ]; then
	echo "labelam: these packages are missing: ${missing[*]} ${devpkg:+postgresql-server-dev-15 (version $pgver)}" >&2
	echo "labelam: install them as root (on Debian: apt-get install ...), or run this script as root on Debian 12" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "labelam: installing ${missing[*]} ${devpkg}"
apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	pgver=$(dpkg-query -W -f='${Version}' postgresql-15)
fi
if [ -n "$devpkg" ]; then
	# same version as the server; the candidate only if that one is gone
	apt-get install -y -qq --no-install-recommends "postgresql-server-dev-15=$pgver" >/dev/null 2>&1 || {
		echo "labelam: postgresql-server-dev-15=$pgver is not available, installing the candidate version" >&2
		apt-get install -y -qq --no-install-recommends postgresql-server-dev-15 >/dev/null
	}
fi
