#!/bin/bash
# demo.sh -- "make demo": set-up, build, private install, a throwaway
# cluster with labelam preloaded, and a short tour printed to the terminal.
set -uo pipefail
. "$(dirname "$0")/pgenv.sh"

labelam_setup
LABELAM_KEEP_ON_FAIL=0
# the policy: Debian's reference policy file, evaluated by libsepol; every
# session needs a label, here one the policy lets do anything with rows
cluster_start demo "labelam.provider = 'sepol'" \
	"labelam.policy_file = '/etc/selinux/default/policy/policy.33'" \
	"labelam.default_client_label = 'unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023'"
for f in "$LABELAM_TOP"/scripts/demo.d/*.sql; do
	echo "=== $(basename "$f" .sql)"
	psql_q -e -d postgres -f "$f" 2>&1 || die "demo step $(basename "$f") failed"
done
echo "=== demo finished"
