#!/bin/bash
# scripts/demo.sh -- "make demo": set-up, build, private install, a throwaway
# cluster with labelam preloaded, and a short tour printed to the terminal;
# the steps of the lbac provider (demo.d/*lbac*) in a cluster of its own.
set -uo pipefail
. "$(dirname "$0")/pgenv.sh"
pg_enter_root "$@"

labelam_setup
LABELAM_KEEP_ON_FAIL=0
# the policy: Debian's MLS reference policy with labelam's policy module
# (make policy: its trusted maintenance and replica subjects), evaluated by
# libsepol; every session needs a label: the administrator's is s0; step 58
# replicates (wal_level = logical)
policy=$("$LABELAM_TOP/scripts/labelam-policy.sh" | tail -1) || die "make policy failed"
cluster_start demo "labelam.provider = 'sepol'" \
	"labelam.policy_file = '$policy'" \
	"labelam.default_client_label = 'staff_u:sysadm_r:sysadm_t:s0'" \
	"wal_level = logical"
for f in "$LABELAM_TOP"/scripts/demo.d/*.sql; do
	# the lbac provider's steps: a cluster of its own (the provider is
	# chosen at server start), started before the first of them
	case "$(basename "$f")" in
		*lbac*) [ -n "${LBAC_DEMO:-}" ] || {
				cluster_start demo_lbac "labelam.provider = 'lbac'"
				LBAC_DEMO=1
			} ;;
	esac
	echo "=== $(basename "$f" .sql)"
	psql_q -e -d postgres -f "$f" 2>&1 || die "demo step $(basename "$f") failed"
done
echo "=== demo finished"
