# test/t/100_label_store_dictionary.pl -- the label dictionary across
# restarts, with a full shared hash, and on a streaming standby.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_node('primary', allows_streaming => 1);
# small, so that the shared hash fills up below
$node->append_conf('postgresql.conf', 'labelam.max_labels = 32');
# labels here are opaque text, not valid in the test clusters' policy
$node->append_conf('postgresql.conf', 'labelam.debug_opaque_labels = on');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION labelam');
$node->safe_psql('postgres', q{
	CREATE TABLE held (label text, secid oid);
	INSERT INTO held
	SELECT l, labelam.intern_label(l)
	FROM (SELECT 'user_u:object_r:t:s' || i AS l FROM generate_series(1, 20) i) s;
});

# every label: its secid resolves to it, and interning it gives the secid
my $all_resolve = q{
	SELECT count(*) FILTER (WHERE labelam.label_text(secid) = label
						AND labelam.intern_label(label) = secid)
		   || '/' || count(*)
	FROM held};

is($node->safe_psql('postgres', $all_resolve), '20/20', 'labels resolve');

$node->restart;
is($node->safe_psql('postgres',
	'SELECT labels_by_secid FROM labelam.label_store_stats()'),
	'0', 'shared memory starts empty after a restart');
is($node->safe_psql('postgres', $all_resolve), '20/20',
	'restart keeps the dictionary');
is($node->safe_psql('postgres',
	'SELECT labels_by_secid FROM labelam.label_store_stats()'),
	'20', 'labels read from the catalog are published');

# Crash: committed labels survive recovery, and secids go on increasing.
my $before = $node->safe_psql('postgres', 'SELECT max(secid) FROM held');
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', $all_resolve), '20/20',
	'crash recovery keeps the dictionary');
$node->safe_psql('postgres',
	q{INSERT INTO held VALUES ('user_u:object_r:t:after_crash', labelam.intern_label('user_u:object_r:t:after_crash'))});
cmp_ok($node->safe_psql('postgres',
	q{SELECT secid FROM held WHERE label = 'user_u:object_r:t:after_crash'}),
	'>', $before, 'no secid is handed out twice after a crash');

# Fill the shared hash (32 labels): interning and lookups still work,
# through the catalog, and each backend warns once.
my ($ret, $stdout, $stderr) = $node->psql('postgres', q{
	DO $$
	BEGIN
		FOR i IN 21..40 LOOP
			INSERT INTO held VALUES ('user_u:object_r:t:s' || i,
				labelam.intern_label('user_u:object_r:t:s' || i));
			COMMIT;
		END LOOP;
	END $$;
	SELECT count(*) FROM held;
});
is($stdout, '41', 'interning goes on when the shared hash is full');
my @warnings = ($stderr =~ /WARNING:  labelam's shared label dictionary is full/g);
is(scalar(@warnings), 1, 'a full shared hash warns once per backend')
	or diag($stderr);
like($stderr, qr/HINT:  Increase labelam.max_labels \(currently 32\)/,
	'the warning says what to do');
($ret, $stdout, $stderr) = $node->psql('postgres', $all_resolve);
is($stdout, '41/41', 'every label resolves with a full shared hash');
@warnings = ($stderr =~ /WARNING:  labelam's shared label dictionary is full/g);
is(scalar(@warnings), 1, 'another backend warns once, too');
is($node->safe_psql('postgres',
	'SELECT labels_by_secid, labels_by_text FROM labelam.label_store_stats()'),
	'32|32', 'the shared hash holds max_labels labels, no more');

# pg_dump does not carry the dictionary: secids are the database's own
# numbering, labels travel as text.  A restore into a new database (the
# restorer interning labels as it goes) starts a dictionary of its own.
my $dump = $node->basedir . '/dict.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, 'postgres' ], 'pg_dump');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '-d', 'restored', $dump ], 'pg_restore');
is($node->safe_psql('restored', 'SELECT count(*) FROM labelam.pg_security'),
	'0', 'the restored database has a dictionary of its own, empty');
my $held = $node->safe_psql('postgres', 'SELECT count(*) FROM held');
is($node->safe_psql('restored', q{
	SELECT count(DISTINCT labelam.intern_label(label)) || '/' ||
		   count(*) FILTER (WHERE labelam.label_text(labelam.intern_label(label)) = label)
	FROM held}),
	"$held/$held", 'the labels held as text intern again, each to a secid of its own');

# A streaming standby resolves every label, those streamed after the
# backup included, and refuses to intern new ones.
$node->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'backup', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'labelam.max_labels = 1000');
$standby->start;
$node->safe_psql('postgres', q{
	INSERT INTO held VALUES ('user_u:object_r:t:streamed',
		labelam.intern_label('user_u:object_r:t:streamed'))});
$node->wait_for_catchup($standby);

is($standby->safe_psql('postgres', $all_resolve), '42/42',
	'the standby resolves every label');
is($standby->safe_psql('postgres', q{
	SELECT count(*) FROM labelam.pg_security
	WHERE labelam.label_text(secid) IS DISTINCT FROM seclabel}),
	'0', 'the standby agrees with its catalog on every row');
($ret, $stdout, $stderr) = $standby->psql('postgres',
	q{SELECT labelam.intern_label('user_u:object_r:t:standby_only')},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
isnt($ret, 0, 'interning a new label on the standby fails');
like($stderr,
	qr/ERROR:  25006: cannot intern new security label "user_u:object_r:t:standby_only" during recovery/,
	'with a clear error');
is($standby->safe_psql('postgres',
	q{SELECT labelam.intern_label('user_u:object_r:t:s1') = secid FROM held WHERE label = 'user_u:object_r:t:s1'}),
	't', 'the standby interns labels that exist');

$standby->stop;
$node->stop;
done_testing();
