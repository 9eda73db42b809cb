#!/bin/bash
# scripts/labelam-policy.sh -- "make policy": labelam's policy module
# (policy/labelam.te, .if, .fc) built with Debian's selinux-policy-dev and
# linked into Debian's MLS policy, without an SELinux kernel and without
# touching the system's policy store.
#
# usage: scripts/labelam-policy.sh
#   Prints, as its last line, the path of the binary policy
#   (DIR/policy/policy.N: Debian's MLS policy with labelam's module; N the
#   policy version libsepol writes, 33 on Debian 12, 34 on Debian 13), for
#   labelam.policy_file.  DIR/contexts (sepgsql_contexts: the objects'
#   default labels) lies beside it, as labelam expects, and DIR/labelam.pp
#   is the module itself, for "semodule -i labelam.pp" on an SELinux host
#   (doc/trusted-subjects.md).
#
# Steps:
#  1. make -f /usr/share/selinux/devel/Makefile NAME=mls TYPE=mls
#     labelam.pp: the module, compiled for an MLS policy;
#  2. a private copy of the system's MLS store (/etc/selinux/mls,
#     /var/lib/selinux/mls; package selinux-policy-mls), into which
#     "semodule -p ROOT -s mls -n -i labelam.pp" installs the module and
#     writes ROOT/etc/selinux/mls/policy/policy.N (about a minute).
# The result is cached under $LABELAM_POLICY_CACHE, keyed by the inputs'
# hashes (the module's files, this script, the installed store and
# packages); a second run prints the cached path at once.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${LABELAM_POLICY_CACHE:-/var/tmp/labelam-policy}
for tool in semodule checkmodule semodule_package; do
	command -v "$tool" >/dev/null ||
		{ echo "labelam-policy: $tool missing (scripts/deps.sh installs it)" >&2; exit 2; }
done
[ -f /usr/share/selinux/devel/Makefile ] ||
	{ echo "labelam-policy: selinux-policy-dev missing (scripts/deps.sh installs it)" >&2; exit 2; }
[ -d /etc/selinux/mls ] && [ -d /var/lib/selinux/mls ] ||
	{ echo "labelam-policy: Debian's MLS policy store missing (package selinux-policy-mls)" >&2; exit 2; }
[ -r /var/lib/selinux/mls/active ] ||
	{ echo "labelam-policy: /var/lib/selinux/mls is not readable (run as root)" >&2; exit 2; }

key=$( { sha256sum "$TOP"/policy/labelam.te "$TOP"/policy/labelam.if \
		"$TOP"/policy/labelam.fc "${BASH_SOURCE[0]}";
	cat /var/lib/selinux/mls/active/commit_num 2>/dev/null;
	dpkg-query -W -f='${Version}\n' selinux-policy-mls selinux-policy-dev 2>/dev/null; } |
	sha256sum | cut -c1-16)
OUT=$CACHE/$key
# the policy.N with the highest N in directory $1
newest_policy() {
	local f
	for f in "$1"/policy.[0-9]*; do
		[ -f "$f" ] && printf '%s\t%s\n' "${f##*.}" "$f"
	done | sort -n | tail -1 | cut -f2-
}
if [ -n "$(newest_policy "$OUT/policy")" ]; then
	newest_policy "$OUT/policy"
	exit 0
fi

mkdir -p "$CACHE"
# policies built from other inputs, unused for a week
find "$CACHE" -mindepth 1 -maxdepth 1 -type d -mtime +7 -exec rm -rf {} + 2>/dev/null || true
TMP=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# 1. the module, for an MLS policy
mkdir "$TMP/module"
cp "$TOP"/policy/labelam.te "$TOP"/policy/labelam.if "$TOP"/policy/labelam.fc "$TMP/module/"
make -s -C "$TMP/module" -f /usr/share/selinux/devel/Makefile NAME=mls TYPE=mls labelam.pp \
	>"$TMP/module/build.log" 2>&1 || { cat "$TMP/module/build.log" >&2; exit 2; }

# 2. a private policy store: copies of the system's, never the system's
ROOT=$TMP/root
mkdir -p "$ROOT/etc/selinux" "$ROOT/var/lib/selinux"
cp -a /etc/selinux/mls "$ROOT/etc/selinux/"
cp -a /etc/selinux/semanage.conf "$ROOT/etc/selinux/"
cp -a /var/lib/selinux/mls "$ROOT/var/lib/selinux/"
semodule -p "$ROOT" -s mls -n -i "$TMP/module/labelam.pp" >"$TMP/semodule.log" 2>&1 ||
	{ cat "$TMP/semodule.log" >&2; exit 2; }
POL=$(newest_policy "$ROOT/etc/selinux/mls/policy")
[ -n "$POL" ] || { echo "labelam-policy: semodule wrote no policy.N in $ROOT/etc/selinux/mls/policy" >&2; exit 2; }

# laid out as /etc/selinux/<type>: labelam finds contexts/sepgsql_contexts
# (the objects' default labels) beside policy/policy.N
mkdir -p "$OUT.tmp/policy"
cp "$POL" "$OUT.tmp/policy/"
cp "$TMP/module/labelam.pp" "$TMP/semodule.log" "$OUT.tmp/"
cp -a "$ROOT/etc/selinux/mls/contexts" "$OUT.tmp/contexts"
chmod -R a+rX "$OUT.tmp"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
newest_policy "$OUT/policy"
