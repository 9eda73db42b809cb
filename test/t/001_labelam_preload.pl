# test/t/001_labelam_preload.pl -- CREATE EXTENSION needs the library
# preloaded, and says how to fix it.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_node('nopreload', preload => 0);
$node->start;
my ($rc, $out, $err) = $node->psql('postgres', 'CREATE EXTENSION labelam',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
isnt($rc, 0, 'CREATE EXTENSION fails without shared_preload_libraries');
like($err, qr/ERROR:  55000: labelam must be loaded via shared_preload_libraries/,
	'error names the setting, SQLSTATE 55000');
like($err, qr/HINT:  Add 'labelam' to shared_preload_libraries/, 'hint says what to do');
is($node->safe_psql('postgres',
	"SELECT count(*) FROM pg_extension WHERE extname = 'labelam'"), '0',
	'nothing was left behind');

$node->append_conf('postgresql.conf', "shared_preload_libraries = 'labelam'");
$node->restart;
$node->safe_psql('postgres', 'CREATE EXTENSION labelam');
is($node->safe_psql('postgres',
	"SELECT extversion FROM pg_extension WHERE extname = 'labelam'"), '0.1',
	'CREATE EXTENSION works once preloaded');
$node->stop;
done_testing();
