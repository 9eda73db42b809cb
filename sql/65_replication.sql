/* sql/65_replication.sql: labelam extension script: logical replication (src/am/replication) */

-- Checked twin of pg_logical_emit_message (src/am/replication/message.c):
-- notes the label of the message's writer, which logical decoding decides
-- who may receive it by.  15 has the three-argument built-ins, 17 and 18
-- the four-argument ones; both are declared everywhere, the twin of the
-- built-in in place is used (its flush argument has the built-in's default:
-- the planner adds defaults after the call became the twin's).
CREATE FUNCTION labelam.checked_logical_emit_message(boolean, text, text) RETURNS pg_lsn
	AS 'MODULE_PATHNAME', 'labelam_logical_emit_message_text' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_logical_emit_message(boolean, text, bytea) RETURNS pg_lsn
	AS 'MODULE_PATHNAME', 'labelam_logical_emit_message_bytea' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_logical_emit_message(boolean, text, text, boolean DEFAULT false) RETURNS pg_lsn
	AS 'MODULE_PATHNAME', 'labelam_logical_emit_message_text' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION labelam.checked_logical_emit_message(boolean, text, bytea, boolean DEFAULT false) RETURNS pg_lsn
	AS 'MODULE_PATHNAME', 'labelam_logical_emit_message_bytea' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
