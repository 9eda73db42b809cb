-- sql/56_counters.sql: Checked twins of the statistics counters that count rows and pages before
-- labelheap filters them (src/am/channels/counters.c): calls of the built-ins are
-- rewritten into calls of these when a query is planned (the pg_stat_*
-- views' too), and these return NULL where the counts would include rows
-- beyond the session's reach.  Same signatures and properties as the
-- built-ins.
CREATE FUNCTION labelam.checked_pg_stat_get_tuples_returned(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_tuples_returned' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_tuples_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_tuples_fetched' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_blocks_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_blocks_fetched' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_blocks_hit(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_blocks_hit' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_xact_tuples_returned(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_xact_tuples_returned' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_xact_tuples_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_xact_tuples_fetched' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_xact_blocks_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_xact_blocks_fetched' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_xact_blocks_hit(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_xact_blocks_hit' LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_db_tuples_returned(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_db_tuples_returned' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_db_tuples_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_db_tuples_fetched' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_db_blocks_fetched(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_db_blocks_fetched' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.checked_pg_stat_get_db_blocks_hit(oid) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_pg_stat_get_db_blocks_hit' LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
