#!/bin/bash
# scripts/sepgsql-policy.sh -- contrib/sepgsql's regression policy module
# (sepgsql-regtest.te) built into a binary policy without an SELinux kernel
# and without touching the system's policy store.
#
# usage: scripts/sepgsql-policy.sh SEPGSQL_DIR
#   SEPGSQL_DIR: contrib/sepgsql of the PostgreSQL source (needs
#   sepgsql-regtest.te).  Prints the path of the binary policy
#   (DIR/policy/policy.N, N the policy version libsepol writes: 33 on
#   Debian 12, 34 on Debian 13; the policy's DIR/contexts beside it).
#
# Steps, as contrib/sepgsql's test_sepgsql expects them on an SELinux host
# ("make -f /usr/share/selinux/devel/Makefile; semodule -u
# sepgsql-regtest.pp; setsebool sepgsql_regression_test_mode on;
# setsebool sepgsql_enable_users_ddl on"):
#  1. sepgsql-regtest.te, adapted to Debian 12's reference-policy headers:
#     - auth_read_passwd() does not exist there; it grants the test domains
#       reading /etc/passwd, which no database decision involves: dropped.
#     - postgresql_role() takes (role prefix, user domain, user exec domain,
#       role) instead of (role, domain).
#     - the tunable sepgsql_regression_test_mode defaults to true: Debian's
#       policies compile tunables away (they are not booleans in
#       policy.33), so "setsebool" has nothing to set afterwards.
#  2. the same for two of the base policy's booleans (module postgresql):
#     its CIL is exported from the private store, their defaults set to
#     true, and it is installed over the original at a higher priority:
#     - sepgsql_enable_users_ddl, which test_sepgsql requires on;
#     - sepgsql_unconfined_dbadm ("allow database admins to execute DML
#       statements"), off in Debian's policy but on in the policy sepgsql's
#       expected files were made with: in label.out the DBA domain
#       sepgsql_regtest_dba_t inserts into sepgsql_table_t tables and
#       reads pg_seclabels, which only this boolean allows it.
#  2b. db_table { truncate }, which Debian's policy does not define, added
#     to the base module's class db_table exactly as test_sepgsql says to
#     for running its truncate test ("sudo semodule -cE base; sudo sed -i
#     -E 's/(class db_table.*?) \)/\1 truncate\)/' base.cil; sudo
#     semodule -i base.cil"); sepgsql-regtest.te then grants it to
#     sepgsql_regtest_superuser_t on sepgsql_regtest_foo_table_t only.
#  3. all installed into a private copy of the policy store
#     (semodule -p ROOT -n), whose policy.N is the result.
# The result is cached under $SEPGSQL_POLICY_CACHE, keyed by the inputs'
# hashes (the .te, this script, the installed policy store).
set -euo pipefail

SRC=${1:?usage: $0 SEPGSQL_DIR}
CACHE=${SEPGSQL_POLICY_CACHE:-/var/tmp/labelam-sepgsql-policy}
TE=$SRC/sepgsql-regtest.te
[ -f "$TE" ] || { echo "sepgsql-policy: $TE not found" >&2; exit 2; }
for tool in semodule checkmodule semodule_package; do
	command -v "$tool" >/dev/null ||
		{ echo "sepgsql-policy: $tool missing (scripts/deps.sh installs it)" >&2; exit 2; }
done
[ -f /usr/share/selinux/devel/Makefile ] ||
	{ echo "sepgsql-policy: selinux-policy-dev missing" >&2; exit 2; }

key=$( { sha256sum "$TE" "${BASH_SOURCE[0]}";
	cat /var/lib/selinux/default/active/modules_checksum 2>/dev/null;
	dpkg-query -W -f='${Version}\n' selinux-policy-default selinux-policy-dev 2>/dev/null; } |
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
find "$CACHE" -mindepth 1 -maxdepth 1 -type d -mtime +7 -exec rm -rf {} + 2>/dev/null
TMP=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# 1. the module, adapted
mkdir "$TMP/module"
sed -e 's/^\([[:space:]]*\)auth_read_passwd(.*$/\1# auth_read_passwd(): not in Debian 12 refpolicy; file access only/' \
	-e 's/^\([[:space:]]*\)postgresql_role(\([a-z_]*\)_r, \([a-z_]*\))/\1postgresql_role(\2, \3, \3, \2_r)/' \
	-e 's/^gen_tunable(sepgsql_regression_test_mode, false)/gen_tunable(sepgsql_regression_test_mode, true)/' \
	"$TE" >"$TMP/module/sepgsql-regtest.te"
# every adaptation must have applied (a changed .te fails loudly)
grep -q 'auth_read_passwd(sepgsql' "$TMP/module/sepgsql-regtest.te" &&
	{ echo "sepgsql-policy: auth_read_passwd not adapted" >&2; exit 2; }
grep -Eq 'postgresql_role\([a-z_]+, [a-z_]+\)' "$TMP/module/sepgsql-regtest.te" &&
	{ echo "sepgsql-policy: postgresql_role not adapted" >&2; exit 2; }
grep -q 'gen_tunable(sepgsql_regression_test_mode, true)' "$TMP/module/sepgsql-regtest.te" ||
	{ echo "sepgsql-policy: sepgsql_regression_test_mode not adapted" >&2; exit 2; }
make -s -C "$TMP/module" -f /usr/share/selinux/devel/Makefile sepgsql-regtest.pp \
	>"$TMP/module/build.log" 2>&1 || { cat "$TMP/module/build.log" >&2; exit 2; }

# 3. a private policy store: copies of the system's, never the system's
ROOT=$TMP/root
mkdir -p "$ROOT/etc/selinux" "$ROOT/var/lib/selinux"
cp -a /etc/selinux/default "$ROOT/etc/selinux/"
cp -a /etc/selinux/semanage.conf "$ROOT/etc/selinux/"
cp -a /var/lib/selinux/default "$ROOT/var/lib/selinux/"

# 2. the base policy's booleans sepgsql_enable_users_ddl and sepgsql_unconfined_dbadm, on
(cd "$TMP" && semodule -p "$ROOT" -s default -c -E postgresql >/dev/null 2>&1) ||
	{ echo "sepgsql-policy: could not export module postgresql" >&2; exit 2; }
for b in sepgsql_enable_users_ddl sepgsql_unconfined_dbadm; do
	grep -Eq "^\((boolean|tunable) $b false\)" "$TMP/postgresql.cil" ||
		{ echo "sepgsql-policy: $b not found in postgresql.cil" >&2; exit 2; }
	sed -Ei "s/^\((boolean|tunable) $b false\)/(\1 $b true)/" "$TMP/postgresql.cil"
done

# 2b. db_table { truncate }
(cd "$TMP" && semodule -p "$ROOT" -s default -c -E base >/dev/null 2>&1) ||
	{ echo "sepgsql-policy: could not export module base" >&2; exit 2; }
grep -Eq '^\(class db_table \(.* \)\)$' "$TMP/base.cil" ||
	{ echo "sepgsql-policy: class db_table not found in base.cil" >&2; exit 2; }
grep -Eq '^\(class db_table \(.*truncate.*\)\)$' "$TMP/base.cil" ||
	sed -i -E 's/^(\(class db_table \(.*) \)\)$/\1 truncate ))/' "$TMP/base.cil"
grep -Eq '^\(class db_table \(.* truncate \)\)$' "$TMP/base.cil" ||
	{ echo "sepgsql-policy: could not add truncate to class db_table" >&2; exit 2; }

semodule -p "$ROOT" -s default -n -X 400 -i "$TMP/base.cil" -i "$TMP/postgresql.cil" \
	-i "$TMP/module/sepgsql-regtest.pp" >"$TMP/semodule.log" 2>&1 ||
	{ cat "$TMP/semodule.log" >&2; exit 2; }
POL=$(newest_policy "$ROOT/etc/selinux/default/policy")
[ -n "$POL" ] || { echo "sepgsql-policy: semodule wrote no policy.N in $ROOT/etc/selinux/default/policy" >&2; exit 2; }

# laid out as /etc/selinux/<type>: labelam finds contexts/sepgsql_contexts
# (the objects' default labels) beside policy/policy.N
mkdir -p "$OUT.tmp/policy"
cp "$POL" "$OUT.tmp/policy/"
cp "$TMP/module/sepgsql-regtest.te" "$TMP/semodule.log" "$OUT.tmp/"
cp -a "$ROOT/etc/selinux/default/contexts" "$OUT.tmp/contexts"
chmod -R a+rX "$OUT.tmp"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
newest_policy "$OUT/policy"
