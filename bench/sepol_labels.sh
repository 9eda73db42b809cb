#!/bin/bash
# sepol_labels.sh -- interning many distinct labels through the sepol
# provider (issue 13, "provider scale"): every new label is canonicalized
# by libsepol before it is stored.  libsepol's SID table finds a context by
# walking every entry, so one backend interning N labels used to cost
# O(N^2) (89k labels took 14 minutes); src/avc/sepol.c bounds that table.
# Interns N distinct MLS labels in one backend for several N and prints the
# time per label, which stays flat when interning is linear.  Throwaway
# cluster; Debian's MLS policy.
#
# usage: bench/sepol_labels.sh [N...]      (default: 10000 30000 100000)
set -uo pipefail
. "$(dirname "$0")/../scripts/pgenv.sh"

SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(10000 30000 100000)
total=0
for n in "${SIZES[@]}"; do total=$((total + n)); done

labelam_setup
LABELAM_KEEP_ON_FAIL=0
cluster_start sepolbench "labelam.provider = 'sepol'" \
	"labelam.policy_file = '/etc/selinux/mls/policy/policy.33'" \
	"labelam.default_client_label = 'staff_u:staff_r:staff_t:s0'" \
	"labelam.max_labels = $((total + 1000))"
psql_q -d postgres -c 'CREATE EXTENSION labelam'

echo "labelam: interning distinct labels through the sepol provider (MLS policy), one backend per run"
echo "machine: $(nproc) CPUs, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
offset=0
for n in "${SIZES[@]}"; do
	# label i: a sensitivity and two categories, all distinct across runs;
	# 1000 labels a transaction, as a bulk load would commit
	start=$(date +%s.%N)
	psql_q -d postgres -c "DO \$\$
BEGIN
	FOR b IN 0..($n - 1) / 1000 LOOP
		PERFORM labelam.intern_label(format('system_u:object_r:sepgsql_table_t:s%s:c%s,c%s', i % 16,
				(i / 16) % 1024, ((i / 16) % 1024 + 1 + i / 16384) % 1024))
		FROM generate_series($offset + b * 1000, $offset + least((b + 1) * 1000, $n) - 1) i;
		COMMIT;
	END LOOP;
END \$\$" >/dev/null || die "interning $n labels failed"
	end=$(date +%s.%N)
	awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN {
		printf "%8d new labels in %7.2f s: %6.1f us a label, %8.0f labels/s\n", n, b - a, (b - a) * 1e6 / n, n / (b - a) }'
	offset=$((offset + n))
done
echo "labels in the dictionary: $(psql_q -d postgres -At -c 'SELECT count(*) FROM labelam.pg_security')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
