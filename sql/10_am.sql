/* sql/10_am.sql: labelam extension script: the labelheap table access method */

CREATE FUNCTION labelam.labelheap_handler(internal) RETURNS table_am_handler
	AS 'MODULE_PATHNAME', 'labelheap_handler'
	LANGUAGE C STRICT;

CREATE ACCESS METHOD labelheap TYPE TABLE HANDLER labelam.labelheap_handler;
COMMENT ON ACCESS METHOD labelheap IS
	'heap storage with a mandatory security label in every tuple header';

CREATE FUNCTION labelam.tuple_secid(rel regclass, tid tid) RETURNS oid
	AS 'MODULE_PATHNAME', 'labelam_tuple_secid'
	LANGUAGE C STRICT;
COMMENT ON FUNCTION labelam.tuple_secid(regclass, tid) IS
	'label (secid) stored in the header of the tuple version at tid, live or dead; NULL if it has none';

CREATE FUNCTION labelam.verify_labels(rel regclass,
		OUT ctid tid, OUT problem text) RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'labelam_verify_labels'
	LANGUAGE C STRICT;
COMMENT ON FUNCTION labelam.verify_labels(regclass) IS
	'every tuple version, live or dead, whose label is missing or damaged; empty when all is well';

-- they read past visibility and policy
CREATE FUNCTION labelam.toast_values(rel regclass) RETURNS bigint
	AS 'MODULE_PATHNAME', 'labelam_toast_values'
	LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION labelam.toast_values(regclass) IS
	'Number of out-of-line values of a labelheap table that the snapshot sees (superuser; the TOAST relation itself cannot be read)';
REVOKE ALL ON FUNCTION labelam.toast_values(regclass) FROM PUBLIC;
REVOKE ALL ON FUNCTION labelam.tuple_secid(regclass, tid) FROM PUBLIC;
REVOKE ALL ON FUNCTION labelam.verify_labels(regclass) FROM PUBLIC;
