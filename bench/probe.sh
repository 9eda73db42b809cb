# probe.sh (sourced by run.sh) -- what this build of labelam enforces:
# HAVE_FILTER=1 when a labelheap scan drops rows the session may not read.
# Before enforcement the "half" variants read every row; say so.
BENCH_DB=postgres
psql_q -d postgres -c "CREATE TABLE bench_probe (i int) USING labelheap" \
	-c "GRANT SELECT ON bench_probe TO PUBLIC" >/dev/null
writer_psql postgres "$(row_label 0)" -c "INSERT INTO bench_probe VALUES (0)" >/dev/null ||
	die "cannot write a row labeled $(row_label 0)"
writer_psql postgres "$(row_label 63)" -c "INSERT INTO bench_probe VALUES (63)" >/dev/null ||
	die "cannot write a row labeled $(row_label 63)"
n=$(role_psql bench_half postgres -At -c "SELECT count(*) FROM bench_probe") || die "probe scan failed"
case $n in
1) HAVE_FILTER=1 ;;
2) HAVE_FILTER=0
   note "this build of labelam does not filter rows yet (no enforcement): the *-half labelheap variants read every row, like labelheap" ;;
*) die "probe: bench_half sees $n rows of 2" ;;
esac
psql_q -d postgres -c "DROP TABLE bench_probe" >/dev/null
log "features: filter=$HAVE_FILTER"
