# bench/parts/memory.sh (sourced by run.sh) -- memory, not speed (cf.
# bench/label_store.sh and bench/avc_cache.sh for lookup and decision rates):
#  - shared memory of the label dictionary holding BENCH_LABELS labels
#    (labelam.max_labels is set a little above it for the whole cluster);
#  - one backend's decision cache filled to its bound (8192 decisions).
# Labels are valid MLS labels of the policy, about 45 bytes of text each,
# interned as opaque text (labelam.debug_opaque_labels): the dictionary's
# memory does not depend on the policy, and opaque interning is quicker.
# (Interning through the policy was quadratic until the sepol provider
# bounded libsepol's SID table; bench/sepol_labels.sh times it now.)  The
# first BENCH_LABELS_CANON labels are timed through the policy.
M=$BENCH_LABELS
C=${BENCH_LABELS_CANON:-10000}
s=$(time_query - postgres "SELECT count(labelam.intern_label(format('$ROW_TYPE:s%s:c%s.c%s', i % 16, 0, 1 + i / 16)))
	FROM generate_series(0, $C - 1) i")
[ -n "$s" ] && record memory "interning $C new labels through the policy (s)" all "$s" info
t=$(now)
psql_q -d postgres -c "SET labelam.debug_opaque_labels = on" -c "DO \$\$
BEGIN
	FOR b IN 0..($M - 1) / 1000 LOOP
		-- label i: a sensitivity and two categories, all distinct
		PERFORM labelam.intern_label(format('$ROW_TYPE:s%s:c%s,c%s', i % 16,
				(i / 16) % 1024, ((i / 16) % 1024 + 1 + i / 16384) % 1024))
		FROM generate_series(b * 1000, least((b + 1) * 1000, $M) - 1) i;
		COMMIT;
	END LOOP;
END \$\$" >/dev/null || die "interning $M labels failed"
log "interned $M labels in $(awk -v a="$t" -v b="$(now)" 'BEGIN {printf "%.0f", b - a}') s"
IFS='|' read -r n text_bytes max_text shmem < <(psql_q -d postgres -At -c \
	"SELECT labels_by_secid, text_bytes, max_text_bytes, shmem_bytes FROM labelam.label_store_stats()")
record memory "label dictionary: labels in shared memory" all "$n" info
record memory "label dictionary: shared memory set aside (kB)" all "$((shmem / 1024))" info
record memory "label dictionary: in use for $n labels (kB)" all "$(( (shmem - max_text + text_bytes) / 1024 ))" info
record memory "label dictionary: bytes a label" all "$(( (shmem - max_text + text_bytes) / (n > 0 ? n : 1) ))" info

# decision cache: check_row_access goes through the row filter's cache (a
# superuser session: pg_backend_memory_contexts is for superusers; the
# policy decides for it as for anyone)
# One entry a label, on top of the session's own (e0, and a few the
# statement's object checks add): at 8192 entries the cache starts over,
# so a fill of 8190 labels ended with 9 entries (bench of 2026-12-05).
IFS='|' read -r e0 b0 e1 b1 < <(psql_q -d postgres -At <<'SQL'
SELECT entries AS e0 FROM labelam.avc_stats() \gset
SELECT coalesce(sum(total_bytes), 0) AS b0 FROM pg_backend_memory_contexts WHERE name LIKE 'labelam%' \gset
SELECT count(labelam.check_row_access(secid, '{select}'))
	FROM (SELECT secid FROM labelam.pg_security ORDER BY secid LIMIT 8192 - :e0 - 16) s \gset
SELECT :e0, :b0, (SELECT entries FROM labelam.avc_stats()),
	(SELECT coalesce(sum(total_bytes), 0) FROM pg_backend_memory_contexts WHERE name LIKE 'labelam%');
SQL
)
record memory "decision cache: entries (bound 8192)" all "$e1" info
record memory "decision cache: backend memory before (kB)" all "$((b0 / 1024))" info
record memory "decision cache: backend memory at $e1 entries (kB)" all "$((b1 / 1024))" info
log "memory: $n labels: $((shmem / 1024)) kB shared; cache $e0 -> $e1 entries, $((b0 / 1024)) -> $((b1 / 1024)) kB"
