-- sql/46_role_label_check.sql -- labelam.role_label (sql/30_avc.sql) takes
-- only label text that labelam.check_label() accepts (sql/45_label_column.sql,
-- defined after role_label): a malformed label, or one the policy in force
-- does not know, is refused with ERROR 22023 when it is written, as in the
-- label column, rather than locking the role out when it next connects.  A
-- label that a later policy no longer knows still refuses the session then.
ALTER TABLE labelam.role_label
	ADD CONSTRAINT role_label_label_check CHECK (labelam.check_label(label));
