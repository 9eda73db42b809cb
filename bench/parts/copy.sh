# bench/parts/copy.sh (sourced by run.sh) -- COPY of BENCH_ROWS rows from a file
# into a new table (created before, so WAL is written as for any COPY):
#   heap, labelheap (every row labeled by the session's label), and rls: the
#   heap table with the label column that RLS needs (COPY FROM itself is not
#   subject to policies: PostgreSQL refuses it for roles that would be).
# A CHECKPOINT before each COPY, so none pays for another's dirty pages.
COPY_VARIANTS=(heap labelheap rls)
N=$BENCH_ROWS
psql_q -d postgres -c "CREATE DATABASE copyb" >/dev/null
psql_q -d copyb -c "CREATE EXTENSION labelam" >/dev/null
BENCH_DB=copyb
# rows at s0, the level of the tables as objects: with object checks, the
# writer creates and drops the table, which under MLS a subject does only
# at the object's level (the schema's, s0)
CL=$ROW_TYPE:s0
psql_q -d copyb -c "COPY (SELECT i, i % 1000, md5(i::text) FROM generate_series(0, $N - 1) i) TO '$WORK/copy.data'" \
	-c "COPY (SELECT i, i % 1000, md5(i::text), $(secid_of "$CL") FROM generate_series(0, $N - 1) i) TO '$WORK/copy_rls.data'" >/dev/null ||
	die "writing the COPY files failed"
for r in $(seq 1 "$BENCH_ROUNDS"); do
	for v in "${COPY_VARIANTS[@]}"; do
		case $v in
		heap) ddl="CREATE TABLE c (id int8, v int4, pad text) USING heap"; f=copy.data ;;
		labelheap) ddl="CREATE TABLE c (id int8, v int4, pad text) USING labelheap"; f=copy.data ;;
		rls) ddl="CREATE TABLE c (id int8, v int4, pad text, secid oid) USING heap"; f=copy_rls.data ;;
		esac
		# the rows' writer drops them (dropping rows needs delete on them)
		writer_psql copyb "$CL" -c "DROP TABLE IF EXISTS c" -c "$ddl" -c CHECKPOINT >/dev/null ||
			die "COPY set-up failed"
		m=$(query_cost "" SELECT "COPY c FROM '$WORK/$f'" -d "$(writer_conn copyb "$CL")") ||
			{ note "COPY into $v failed"; continue; }
		record_cost copy "COPY $N rows" "$v" "$m" "wall cpu wal"
		[ "$r" = 1 ] && record_pages copy "COPY $N rows" "$v" copyb c
		log "round $r COPY $v: $m (wall s, CPU s, blocks read, WAL bytes)"
	done
done
writer_psql copyb "$CL" -c "DROP TABLE IF EXISTS c" >/dev/null
rm -f "$WORK/copy.data" "$WORK/copy_rls.data"
