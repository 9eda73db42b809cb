# bench/probe.sh (sourced by run.sh) -- what this build of labelam enforces:
# HAVE_FILTER=1 when a labelheap scan drops rows the session may not read.
# Before enforcement the "half" variants read every row; say so.

# in a database of its own, dropped afterwards: no session can drop a
# labelheap table holding rows of several MLS levels (that needs delete on
# every label it holds, and under MLS only a row's own level deletes it)
BENCH_DB=probe
psql_q -d postgres -c "CREATE DATABASE probe" >/dev/null || die "probe: CREATE DATABASE failed"
psql_q -d probe -c "CREATE EXTENSION labelam" >/dev/null
make_roles probe
psql_q -d probe -c "CREATE TABLE bench_probe (i int) USING labelheap" \
	-c "GRANT SELECT ON bench_probe TO PUBLIC" >/dev/null
writer_psql probe "$(row_label 0)" -c "INSERT INTO bench_probe VALUES (0)" >/dev/null ||
	die "cannot write a row labeled $(row_label 0)"
writer_psql probe "$(row_label 63)" -c "INSERT INTO bench_probe VALUES (63)" >/dev/null ||
	die "cannot write a row labeled $(row_label 63)"
n=$(role_psql bench_half probe -At -c "SELECT count(*) FROM bench_probe") || die "probe scan failed"
case $n in
1) HAVE_FILTER=1 ;;
2) HAVE_FILTER=0
   note "this build of labelam does not filter rows yet (no enforcement): the *-half labelheap variants read every row, like labelheap" ;;
*) die "probe: bench_half sees $n rows of 2" ;;
esac
psql_q -d postgres -c "DROP DATABASE probe" >/dev/null || die "probe: DROP DATABASE failed"
log "features: filter=$HAVE_FILTER"
