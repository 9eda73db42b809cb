/*-------------------------------------------------------------------------
 *
 * src/am/channels/counterlist.h
 *	  The statistics counters that count rows and pages before labelheap
 *	  filters them, and so are called through checked twins: one line
 *	  each, the one list of them.
 *
 * The includer defines LABELHEAP_COUNTER(name, builtin, database) first:
 * name is the built-in's name (its twin is labelam.checked_<name>, whose C
 * function is labelam_<name>: objects/functions.c defines and rewrites
 * calls to them, sql/56_counters.sql creates them), builtin its F_ OID
 * (utils/fmgroids.h), database true for per-database counters (its
 * argument is a database), false for per-relation ones (a table or an
 * index).  channels/counters.c refuses the built-ins reached without their
 * twins.  No include guard: as PostgreSQL's kwlist.h, it is meant to be
 * included more than once.
 *
 *-------------------------------------------------------------------------
 */

/* there is deliberately not an #ifndef COUNTERLIST_H here */

LABELHEAP_COUNTER(pg_stat_get_tuples_returned, F_PG_STAT_GET_TUPLES_RETURNED, false)
LABELHEAP_COUNTER(pg_stat_get_tuples_fetched, F_PG_STAT_GET_TUPLES_FETCHED, false)
LABELHEAP_COUNTER(pg_stat_get_blocks_fetched, F_PG_STAT_GET_BLOCKS_FETCHED, false)
LABELHEAP_COUNTER(pg_stat_get_blocks_hit, F_PG_STAT_GET_BLOCKS_HIT, false)
LABELHEAP_COUNTER(pg_stat_get_xact_tuples_returned, F_PG_STAT_GET_XACT_TUPLES_RETURNED, false)
LABELHEAP_COUNTER(pg_stat_get_xact_tuples_fetched, F_PG_STAT_GET_XACT_TUPLES_FETCHED, false)
LABELHEAP_COUNTER(pg_stat_get_xact_blocks_fetched, F_PG_STAT_GET_XACT_BLOCKS_FETCHED, false)
LABELHEAP_COUNTER(pg_stat_get_xact_blocks_hit, F_PG_STAT_GET_XACT_BLOCKS_HIT, false)
LABELHEAP_COUNTER(pg_stat_get_db_tuples_returned, F_PG_STAT_GET_DB_TUPLES_RETURNED, true)
LABELHEAP_COUNTER(pg_stat_get_db_tuples_fetched, F_PG_STAT_GET_DB_TUPLES_FETCHED, true)
LABELHEAP_COUNTER(pg_stat_get_db_blocks_fetched, F_PG_STAT_GET_DB_BLOCKS_FETCHED, true)
LABELHEAP_COUNTER(pg_stat_get_db_blocks_hit, F_PG_STAT_GET_DB_BLOCKS_HIT, true)
