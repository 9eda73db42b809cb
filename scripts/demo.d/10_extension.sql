-- scripts/demo.d/10_extension.sql
-- labelam is preloaded; the extension puts its objects in schema labelam.
CREATE EXTENSION labelam;
\dx labelam
