#!/bin/bash
# scripts/pg-get.sh -- a PostgreSQL major that Debian 12's archive does not
# ship, built from Debian's own source package into a private prefix that
# outlives the checkout, so that a second run reuses it.
#
# usage: scripts/pg-get.sh MAJOR[-assert]      prints the prefix's pg_config
#        scripts/pg-get.sh --source MAJOR      prints the unpacked source tree
#
# MAJOR 18: Debian unstable's postgresql-18 source package (the only archive
# that serves it); MAJOR 15: Debian 12's postgresql-15 source package (the
# installed server's, for an assert-enabled build of it: 15-assert).  Either
# is fetched with a private apt configuration (the host's apt sources are
# left alone), unpacked with Debian's patches applied, built with the
# options labelam's tests need.  "-assert" adds --enable-cassert.
#
# Cache: $LABELAM_PG_CACHE (default /var/tmp/labelam-pg): apt/ (lists and
# downloaded source), src/postgresql-MAJOR/ (unpacked), inst/MAJOR[-assert]/
# (installation; .complete holds the version and options it was built with:
# a different line rebuilds it).
set -euo pipefail

CACHE=${LABELAM_PG_CACHE:-/var/tmp/labelam-pg}
PKG_VERSION=
die() { echo "labelam: pg-get: $*" >&2; exit 2; }

mode=build
if [ "${1:-}" = --source ]; then mode=source; shift; fi
want=${1:?usage: pg-get.sh [--source] MAJOR[-assert]}
major=${want%-assert}
case "$major" in
	18) SUITES="http://deb.debian.org/debian unstable main" ;;
	# the installed server's own version (Debian 12's point release)
	15) SUITES="http://deb.debian.org/debian bookworm main"
		PKG_VERSION=$(dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null) ||
			die "15-assert builds the installed postgresql-15's source: install it first (scripts/deps.sh)" ;;
	*) die "no recipe for PostgreSQL $major (17: scripts/pg17-root.sh)" ;;
esac
assert=; [ "$want" != "$major" ] && assert=--enable-cassert

# Everything the source package's configure line below needs.
BUILD_DEPS=(dpkg-dev gcc make bison flex perl libipc-run-perl libreadline-dev zlib1g-dev
	liblz4-dev libzstd-dev libssl-dev libselinux1-dev libicu-dev pkgconf
	libxml2-dev libkrb5-dev)

apt_private() {
	local a=$CACHE/apt suite
	[ "$major" = 18 ] || a=$CACHE/apt-$major	# (18's was the first)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial"
	: >"$a/sources.list"
	IFS='|' read -ra suites <<<"$SUITES"
	for suite in "${suites[@]}"; do
		echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $suite" >>"$a/sources.list"
	done
	APT_OPTS=(-o "Dir::Etc::SourceList=$a/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache")
}

# Unpacked source of the newest postgresql-MAJOR in unstable; reused when
# already there.
get_source() {
	local dir=$CACHE/src/postgresql-$major ver tree
	tree=$(ls -d "$dir"/postgresql-"$major"-*/ 2>/dev/null | tail -1 || true)
	if [ -n "$tree" ] && [ -f "$dir/.complete" ]; then
		echo "${tree%/}"
		return
	fi
	[ "$(id -u)" -eq 0 ] || die "the source of PostgreSQL $major is not cached; run as root once"
	command -v dpkg-source >/dev/null || apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
	apt_private
	apt-get "${APT_OPTS[@]}" update -qq >&2
	rm -rf "$dir"; mkdir -p "$dir"
	(cd "$dir" && apt-get "${APT_OPTS[@]}" source -qq "postgresql-$major${PKG_VERSION:+=$PKG_VERSION}" >&2) ||
		die "could not fetch the source package postgresql-$major"
	tree=$(ls -d "$dir"/postgresql-"$major"-*/ | tail -1)
	ver=$(cd "$tree" && dpkg-parsechangelog -S Version)
	echo "$ver" >"$dir/.complete"
	echo "${tree%/}"
}

# one builder at a time: two test runs (or a CI and a session) may start
# together, and a second build would remove the first one's tree
mkdir -p "$CACHE"
exec 9>"$CACHE/pg-get-$major.lock"
flock 9

tree=$(get_source)
if [ $mode = source ]; then
	echo "$tree"
	exit 0
fi

prefix=$CACHE/inst/$want
version=$(cat "$CACHE/src/postgresql-$major/.complete")
stamp="$version ${assert:-production} layout=pkglibdir-in-prefix tap contrib isolation"
if [ -f "$prefix/.complete" ] && [ "$(cat "$prefix/.complete")" = "$stamp" ]; then
	echo "$prefix/bin/pg_config"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || die "PostgreSQL $want is not built yet; run as root once"
missing=()
for p in "${BUILD_DEPS[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "labelam: pg-get: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Out of tree, so that the unpacked source stays clean for --source users.
build=$CACHE/build/$want
rm -rf "$build" "$prefix"; mkdir -p "$build"
log=$CACHE/build/$want.log
echo "labelam: building PostgreSQL $version ${assert:+(assert-enabled) }into $prefix (about 10 minutes; log $log)" >&2
start=$(date +%s)
(
	# run from "make test", make's MAKELEVEL would say this is a sub-make:
	# PostgreSQL's makefiles generate their headers (errcodes.h, ...) only
	# at MAKELEVEL 0, and the build fails without them
	unset MAKELEVEL MAKEFLAGS MFLAGS
	cd "$build"
	"$tree/configure" --prefix="$prefix" --enable-tap-tests --with-lz4 --with-zstd \
		--with-selinux --with-openssl --with-icu --with-libxml --with-gssapi \
		--without-llvm $assert --enable-debug CFLAGS="-O2 -g"
	# Debian's patches make pkglibdir /usr/lib/postgresql/MAJOR/lib whatever
	# the prefix; a private installation keeps its modules in its own tree.
	sed -i 's|^override pkglibdir .*|override pkglibdir := $(libdir)/postgresql|' src/Makefile.global
	make -j3 world-bin
	make install-world-bin
	make -C src/test/isolation install
) >"$log" 2>&1 || { tail -30 "$log" >&2; die "build of PostgreSQL $want failed"; }
echo "$stamp" >"$prefix/.complete"
echo "labelam: PostgreSQL $want built in $(($(date +%s) - start)) s" >&2
echo "$prefix/bin/pg_config"
