/* sql/00_base.sql: labelam extension script: base objects */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION labelam" to load this file. \quit

CREATE FUNCTION labelam._check_preloaded() RETURNS void
	AS 'MODULE_PATHNAME', 'labelam_check_preloaded'
	LANGUAGE C STRICT;

SELECT labelam._check_preloaded();
