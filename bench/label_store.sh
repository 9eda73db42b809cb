#!/bin/bash
# bench/label_store.sh -- the label dictionary's numbers: label lookups per second
# (by secid and by text) from shared memory, and the shared memory that
# 100k labels take.  Throwaway cluster; prints a small report.
#
# env: LABELS (default 100000), LOOKUPS (default 10000000)
set -uo pipefail
. "$(dirname "$0")/../scripts/pgenv.sh"

LABELS=${LABELS:-100000}
LOOKUPS=${LOOKUPS:-10000000}

labelam_setup
LABELAM_KEEP_ON_FAIL=0
make -s -C "$LABELAM_TOP/bench/label_store" PG_CONFIG="$PG_CONFIG" \
	DESTDIR="$WORK/install" install >"$WORK/bench_build.log" 2>&1 ||
	{ cat "$WORK/bench_build.log"; die "bench module build failed"; }
make -s -C "$LABELAM_TOP/bench/label_store" clean >/dev/null 2>&1
cluster_start bench "labelam.max_labels = $LABELS" "shared_buffers = 128MB"

q() { psql_q -d postgres -At "$@"; }
q -c 'CREATE EXTENSION labelam'
q -c "CREATE FUNCTION bench_label_text(int8, oid, oid) RETURNS float8
	AS 'bench_label' LANGUAGE C STRICT"
q -c "CREATE FUNCTION bench_label_lookup(text[], int8) RETURNS float8
	AS 'bench_label' LANGUAGE C STRICT"

echo "labelam label dictionary: $LABELS labels, $LOOKUPS lookups per run"
echo "machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), shared with whatever else runs"

shmem=$(q -c "SELECT shmem_bytes FROM labelam.label_store_stats()")
echo "shared memory set aside for labelam.max_labels = $LABELS: $((shmem / 1024)) kB ($((shmem / LABELS)) bytes a label)"

# SELinux-like MLS labels, about 45 bytes each; 1000 new labels a transaction
start=$(date +%s.%N)
q -c "DO \$\$
BEGIN
	FOR b IN 0..($LABELS - 1) / 1000 LOOP
		PERFORM labelam.intern_label('user_u:object_r:sepgsql_table_t:s0:c' || i)
		FROM generate_series(b * 1000 + 1, least((b + 1) * 1000, $LABELS)) i;
		COMMIT;
	END LOOP;
END \$\$"
end=$(date +%s.%N)
echo "interned $LABELS new labels in $(echo "$end - $start" | bc) s ($(echo "$LABELS / ($end - $start)" | bc) labels/s)"

q -c "SELECT 'shared memory in use: ' || labels_by_secid || ' labels, ' || text_bytes / 1024 || ' kB of label text of ' || max_text_bytes / 1024 || ' kB'
	FROM labelam.label_store_stats()"
q -c "SELECT 'resident for ' || labels_by_secid || ' labels: ' || (shmem_bytes - max_text_bytes + text_bytes) / 1024 || ' kB (' || (shmem_bytes - max_text_bytes + text_bytes) / labels_by_secid || ' bytes a label: hash tables, preallocated at startup, + label text in use)'
	FROM labelam.label_store_stats()"

lo=$(q -c "SELECT min(secid) FROM labelam.pg_security")
hi=$(q -c "SELECT max(secid) FROM labelam.pg_security")
for run in 1 2 3; do
	r=$(q -c "SELECT round(bench_label_text($LOOKUPS, $lo, $hi))")
	echo "label_text(secid), C loop, 1 backend, run $run: $r lookups/s"
done
for run in 1 2 3; do
	r=$(q -c "SELECT round(bench_label_text($LOOKUPS, $lo, $lo + 99))")
	echo "label_text(secid), C loop, 1 backend, 100 hot labels, run $run: $r lookups/s"
done
for run in 1 2 3; do
	r=$(q -c "SELECT round(bench_label_lookup(array(SELECT seclabel FROM labelam.pg_security ORDER BY random()), $LOOKUPS))")
	echo "label_lookup(text), C loop, 1 backend, run $run: $r lookups/s"
done
# two backends at once (as many as this machine has CPUs, 2)
tmp=$WORK/par; mkdir -p "$tmp"
for c in 1 2; do
	q -c "SELECT round(bench_label_text($LOOKUPS, $lo, $hi))" >"$tmp/$c" &
done
wait
echo "label_text(secid), C loop, 2 backends at once: $(cat "$tmp"/1) + $(cat "$tmp"/2) lookups/s"

# through SQL, for scale: a function call per row
n=$((LOOKUPS / 5))
r=$(q -c "\\timing on" -c "SELECT count(labelam.label_text(($lo + (i::int8 * 7919) % ($hi - $lo + 1))::oid)) FROM generate_series(1, $n) i" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
b=$(q -c "\\timing on" -c "SELECT count((($lo + (i::int8 * 7919) % ($hi - $lo + 1))::oid)::text) FROM generate_series(1, $n) i" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
echo "SQL: SELECT labelam.label_text(secid) over $n rows: $r ms (same query with oid::text instead: $b ms)"
