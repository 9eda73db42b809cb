-- sql/58_statistics.sql: The labels of the rows each table's statistics were computed from
-- (src/am/channels/statistics_labels.c): pg_statistic and
-- pg_statistic_ext_data, the pg_stats views and the planner's estimates
-- show statistics only to sessions that may select every label recorded
-- for them.  Written when ANALYZE's transaction commits; removed with the
-- relation.  inh: the inherited statistics of a parent.  No privilege for
-- PUBLIC: the labels say which a table holds.
CREATE TABLE labelam.statistics_labels (
	relid oid NOT NULL,
	inh bool NOT NULL,
	secid oid NOT NULL
) USING heap;
-- the C code depends on the index name
CREATE INDEX statistics_labels_relid_idx
	ON labelam.statistics_labels (relid, inh);

-- the security quals every query reading pg_statistic or
-- pg_statistic_ext_data gets when it is planned
CREATE FUNCTION labelam.statistics_visible(oid, bool) RETURNS bool
	AS 'MODULE_PATHNAME', 'labelam_statistics_visible'
	LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
CREATE FUNCTION labelam.statistics_ext_visible(oid, bool) RETURNS bool
	AS 'MODULE_PATHNAME', 'labelam_statistics_ext_visible'
	LANGUAGE C STRICT STABLE PARALLEL RESTRICTED;
