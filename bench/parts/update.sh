# bench/parts/update.sh (sourced by run.sh) -- one UPDATE giving each of
# BENCH_UPDATE_ROWS rows a fresh BENCH_VALUE_KB kB out-of-line value (column
# STORAGE EXTERNAL: stored in the TOAST table, uncompressed).  labelheap
# prepares TOAST itself so that the label survives; heap does it in
# heap_update.  Every round starts from a fresh table (small values), so no
# round pays for deleting another round's values.  Round 0 is a warm-up, not
# recorded: the first GB written through shared buffers also pays the
# kernel's first touch of their pages, which would go to whoever is first.
UPD_VARIANTS=(heap labelheap)
U=$BENCH_UPDATE_ROWS
REP=$((BENCH_VALUE_KB * 1024 / 32))	# md5 text is 32 bytes
psql_q -d postgres -c "CREATE DATABASE updb" >/dev/null
psql_q -d updb -c "CREATE EXTENSION labelam" >/dev/null
# rows at s0, the level of the tables as objects: with object checks, the
# writer creates and drops the table, which under MLS a subject does only
# at the object's level (the schema's, s0)
UL=$ROW_TYPE:s0
for r in $(seq 0 "$BENCH_ROUNDS"); do
	for v in "${UPD_VARIANTS[@]}"; do
		writer_psql updb "$UL" -c "DROP TABLE IF EXISTS u" \
			-c "CREATE TABLE u (id int PRIMARY KEY, big text) USING $v" \
			-c "ALTER TABLE u ALTER big SET STORAGE EXTERNAL" \
			-c "INSERT INTO u SELECT i, 'x' FROM generate_series(1, $U) i" \
			-c "VACUUM ANALYZE u" -c CHECKPOINT >/dev/null || die "UPDATE set-up failed"
		m=$(query_cost "" SELECT "UPDATE u SET big = repeat(md5(id || '/$r'), $REP)" -d "$(writer_conn updb "$UL")") ||
			{ note "UPDATE on $v failed"; continue; }
		[ "$r" = 0 ] && continue
		record_cost update "UPDATE $U rows, fresh ${BENCH_VALUE_KB} kB values" "$v" "$m" "wall cpu wal"
		[ "$r" = 1 ] && record_pages update "UPDATE $U rows, with TOAST" "$v" updb u
		log "round $r UPDATE $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done
if [ "$(psql_q -d updb -At -c "SELECT count(*) FROM labelam.verify_labels('u')")" != 0 ]; then
	note "UPDATE: labelheap rows lost their labels (labelam.verify_labels)"
fi
writer_psql updb "$UL" -c "DROP TABLE IF EXISTS u" >/dev/null
