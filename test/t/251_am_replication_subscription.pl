# test/t/251_am_replication_subscription.pl -- logical replication of a
# multi-level labelheap table between two servers, under Debian's MLS policy
# with labelam's policy module (make policy; src/am/replication).
#
# Publisher: rows at s0, s1 and s3 (TOAST-size values, multi-inserts,
# updates, deletes, relabels, a streamed transaction, prepared ones, and
# last a TRUNCATE by the maintenance subject).
# Subscriber, one database a subscription: each subscription owned by a
# role labeled system_u:system_r:labelam_replica_t:s0-s15:c0.c1023 (the
# replica domain: rows of every level, written with the label they carry),
# connecting through a REPLICATION role at s1 ("sub1": streaming and
# two-phase on) or at s3 ("sub3").  sub1 must hold exactly what s1 selects
# on the publisher, labels included, sub3 what s3 selects.  The owner's
# range decides each replicated row's checks only (avc/maintenance.c,
# depth 0), and a replicated TRUNCATE's; everything else the worker runs
# is decided with its narrowed label.
# Attacks: an owner at s0 applying rows of s3, an ALWAYS trigger copying
# replicated rows into a table of its own, a column default running a
# query, a default, a domain CHECK, an index expression and an ALWAYS
# BEFORE trigger reading the worker's label, rows that arrive without a
# label.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;

my $policy = labelam_policy();
my $replica = 'system_u:system_r:labelam_replica_t:s0-s15:c0.c1023';

my $pub = attack_node('pub', q{
wal_level = logical
max_replication_slots = 16
max_wal_senders = 16
max_prepared_transactions = 8
logical_decoding_work_mem = 64kB
autovacuum = off
}, policy => $policy);
$pub->append_conf('pg_hba.conf', "local replication all trust\n");
$pub->reload;

# wait_for_catchup as r_mon, who may read every walsender's application_name
sub pub_catchup
{
	my ($app) = @_;
	local $ENV{PGUSER} = 'r_mon';
	$pub->wait_for_catchup($app);
}

my $tables = q{
	CREATE TABLE t (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	CREATE TABLE big (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	ALTER TABLE big ALTER v SET STORAGE EXTERNAL;
	GRANT ALL ON t, big TO PUBLIC;
};
$pub->safe_psql('postgres', $tables . q{
	ALTER ROLE r_s0 REPLICATION;
	ALTER ROLE r_s1 REPLICATION;
	ALTER ROLE r_s3 REPLICATION;
	CREATE ROLE r_up LOGIN;
	CREATE ROLE r_down LOGIN;
	INSERT INTO labelam.role_label VALUES
		('r_up', 'staff_u:sysadm_r:sysadm_t:s0-s3'),
		('r_down', 'staff_u:sysadm_r:sysadm_t:s3');
	-- who watches the walsenders: their application_name is written at
	-- their role's label (src/shared_state), so a monitor reads it only
	-- with a label that may read every subscription's (pub_catchup)
	CREATE ROLE r_mon LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('r_mon', 'staff_u:sysadm_r:sysadm_t:s15:c0.c1023');
	CREATE PUBLICATION pub FOR TABLE t, big;
	-- rows that carry no label: a plain table
	CREATE TABLE plain (id int PRIMARY KEY, v text, lbl text);
	INSERT INTO plain VALUES (1, 'public-plain', NULL);
	GRANT SELECT ON plain TO PUBLIC;
	CREATE PUBLICATION pubplain FOR TABLE plain;
});

# rows at three levels before any subscription: the initial copy
seed($pub, 't');
for my $lvl (qw(s0 s1 s3))
{
	my ($b) = $lvl =~ /(\d)/;
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$pub->safe_psql('postgres', qq{
		INSERT INTO big SELECT 10 * $b + g, '$mark-$lvl-toast-' || g || repeat('x', 4000)
		  FROM generate_series(1, 2) g;
	}, extra_params => [ '-U', "r_$lvl" ]);
}
# an s3 row that will be relabeled to s1 (declassified: no SECRET mark)
$pub->safe_psql('postgres',
	"INSERT INTO big VALUES (39, 'declassified-s3-' || repeat('z', 5000))",
	extra_params => [ '-U', 'r_s3' ]);

# replication origins: one for each subscription's apply worker and table
# synchronization worker, the failing ones restarting meanwhile (from 18
# their own setting, 10 by default; before, max_replication_slots)
my $sub = labelam_mls_node('sub', q{
max_prepared_transactions = 8
max_worker_processes = 24
max_logical_replication_workers = 16
max_replication_slots = 32
wal_retrieve_retry_interval = 500ms
autovacuum = off
} . ($pub->pg_version >= 18 ? "max_active_replication_origins = 32\n" : ''),
	policy => $policy);
my $pubconn = $pub->connstr('postgres');
$pubconn =~ s/'//g;

# sub_db(db, owner label, publisher role, publication, options, extra SQL)
sub sub_db
{
	my ($db, $owner_label, $via, $pubname, $with, $extra) = @_;
	$sub->safe_psql('postgres', "CREATE DATABASE $db");
	$sub->safe_psql($db, qq{
		CREATE EXTENSION labelam;
		CREATE ROLE owner_$db LOGIN SUPERUSER;
		CREATE ROLE r_top_$db LOGIN;
		INSERT INTO labelam.role_label VALUES
			('owner_$db', '$owner_label'),
			('r_top_$db', 'staff_u:staff_r:staff_t:s15:c0.c1023');
	} . $tables . ($extra // ''));
	$sub->safe_psql($db, qq{
		CREATE SUBSCRIPTION $db CONNECTION '$pubconn user=$via'
		  PUBLICATION $pubname WITH ($with);
	}, extra_params => [ '-U', "owner_$db" ]);
}
sub_db('sub1', $replica, 'r_s1', 'pub', 'streaming = on, two_phase = on');
# User code the workers run, which must never see the range: probe(what, x)
# logs the label it runs with, once a process, in plpgsql's simple
# expressions (no query: the worker refuses those).
my $probe = q{
	CREATE FUNCTION probe(what text, x text) RETURNS boolean
	LANGUAGE plpgsql IMMUTABLE AS $$
	BEGIN
		IF current_setting('probe.' || what, true) IS DISTINCT FROM 'done' THEN
			RAISE WARNING 'labelam probe %: %', what, labelam.client_label();
			what := set_config('probe.' || what, 'done', false);
		END IF;
		RETURN true;
	END $$;
};
# sub3's table: a column the publisher does not send (its default), the
# value column of a domain whose CHECK the worker evaluates converting
# what it receives (a cast), an index expression (evaluated after the
# row's own checks)
sub_db('sub3', $replica, 'r_s3', 'pub', 'streaming = on', $probe . q{
	CREATE DOMAIN checked_text AS text CHECK (probe('cast', VALUE));
	DROP TABLE t;
	CREATE TABLE t (id int PRIMARY KEY, v checked_text,
		lbl labelam.security_label,
		probe text DEFAULT labelam.client_label()) USING labelheap;
	CREATE INDEX t_probe ON t ((probe('index', v)));
	GRANT ALL ON t TO PUBLIC;
});
# attacks: an owner at s0 through an s3 role; a trigger that copies rows
sub_db('sublow', 'staff_u:staff_r:staff_t:s0', 'r_s3', 'pub', 'streaming = on');
sub_db('subtrig', $replica, 'r_s3', 'pub', 'streaming = on', $probe . q{
	CREATE FUNCTION probe_before() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF public.probe('trigger', NEW.v) THEN
			RETURN NEW;
		END IF;
		RETURN NEW;
	END $$;
	CREATE TRIGGER probe_before BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION probe_before();
	ALTER TABLE t ENABLE ALWAYS TRIGGER probe_before;
	CREATE TABLE copied (v text);
	GRANT ALL ON copied TO PUBLIC;
	CREATE FUNCTION copy_row() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.copied VALUES (NEW.v);
		RETURN NEW;
	END $$;
	CREATE TRIGGER copy_row AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION copy_row();
	ALTER TABLE t ENABLE ALWAYS TRIGGER copy_row;
});
# a column the publisher does not send, whose default runs a query
sub_db('subdef', $replica, 'r_s3', 'pub', 'streaming = on', q{
	CREATE TABLE copied (v text);
	GRANT ALL ON copied TO PUBLIC;
	CREATE FUNCTION leak_default() RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.copied SELECT v FROM public.t;
		RETURN 'x';
	END $$;
	ALTER TABLE t ADD COLUMN note text DEFAULT leak_default();
});
# rows without labels: the subscriber's labelheap table takes none
sub_db('subplain', $replica, 'r_s3', 'pubplain', 'streaming = on', q{
	CREATE TABLE plain (id int PRIMARY KEY, v text, lbl labelam.security_label) USING labelheap;
	GRANT ALL ON plain TO PUBLIC;
});

$sub->wait_for_subscription_sync(undef, 'sub1', 'sub1');
pub_catchup('sub1');
$sub->wait_for_subscription_sync(undef, 'sub3', 'sub3');
pub_catchup('sub3');

# what a level selects, labels included, as text
my $rows_sql = q{
	SELECT string_agg(id || '|' || left(v, 24) || '/' || md5(v) || '|' || x.security_label, E'\n' ORDER BY id)
	  FROM TABLE x};
sub pub_rows
{
	my ($lvl, $tab) = @_;
	return $pub->safe_psql('postgres', $rows_sql =~ s/TABLE/$tab/r,
		extra_params => [ '-U', "r_$lvl" ]);
}
sub sub_rows
{
	my ($db, $tab) = @_;
	return $sub->safe_psql($db, $rows_sql =~ s/TABLE/$tab/r,
		extra_params => [ '-U', "r_top_$db" ]);
}
sub compare
{
	my ($when) = @_;
	for my $tab (qw(t big))
	{
		is(sub_rows('sub1', $tab), pub_rows('s1', $tab),
			"$when: sub1 holds exactly the publisher's s0 and s1 rows of $tab, with their labels");
		is(sub_rows('sub3', $tab), pub_rows('s3', $tab),
			"$when: sub3 holds every row of $tab, with its label");
	}
}
compare('after the initial copy');
like(sub_rows('sub1', 't'), qr/11\|SECRET-s1-1.*:s1$/m, 'the initial copy carried the s1 label');

# ---- changes at every level ----
for my $lvl (qw(s0 s1 s3))
{
	my ($b) = $lvl =~ /(\d)/;
	my $mark = $lvl eq 's0' ? 'public' : 'SECRET';
	$pub->safe_psql('postgres', qq{
		INSERT INTO t VALUES (10 * $b + 5, '$mark-$lvl-new');
		UPDATE t SET v = '$mark-$lvl-upd' WHERE id = 10 * $b + 1;
		DELETE FROM t WHERE id = 10 * $b + 3;
		UPDATE big SET v = v || '-upd' WHERE id = 10 * $b + 1;
		COPY big (id, v) FROM STDIN;
${b}05	$mark-$lvl-copy-1
${b}06	$mark-$lvl-copy-2
\\.
		INSERT INTO big VALUES (10 * $b + 7, '$mark-$lvl-toast-new-' || repeat('y', 6000));
	}, extra_params => [ '-U', "r_$lvl" ]);
	# a transaction over logical_decoding_work_mem (streamed), a prepared one
	$pub->safe_psql('postgres', qq{
		INSERT INTO t SELECT 1000 * ($b + 1) + g, '$mark-$lvl-bulk-' || g FROM generate_series(1, 800) g;
		BEGIN;
		INSERT INTO t VALUES (10 * $b + 8, '$mark-$lvl-prepared');
		PREPARE TRANSACTION 'gid-$lvl';
	}, extra_params => [ '-U', "r_$lvl" ]);
	$pub->safe_psql('postgres', "COMMIT PREPARED 'gid-$lvl'");
}
# relabels: s0 -> s3 (out of sub1's reach), s3 -> s1 (into it, out of
# line), s0 -> s1 (both seen)
$pub->safe_psql('postgres', q{
	UPDATE t SET lbl = 'staff_u:object_r:sepgsql_table_t:s3' WHERE id = 2;
	UPDATE t SET lbl = 'staff_u:object_r:sepgsql_table_t:s1' WHERE id = 5;
}, extra_params => [ '-U', 'r_up' ]);
$pub->safe_psql('postgres', q{
	UPDATE big SET lbl = 'staff_u:object_r:sepgsql_table_t:s1' WHERE id = 39;
}, extra_params => [ '-U', 'r_down' ]);
# one streamed transaction whose first blocks sub1 may not see (s3 rows)
# and whose last ones it may (some relabeled to s1): sub1's stream starts
# at its first visible block, as a first segment
$pub->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO t SELECT 9000 + g, 'declassified-s3-' || g FROM generate_series(1, 800) g;
	UPDATE t SET lbl = 'staff_u:object_r:sepgsql_table_t:s1' WHERE id BETWEEN 9796 AND 9800;
	COMMIT;
}, extra_params => [ '-U', 'r_down' ]);

pub_catchup('sub1');
pub_catchup('sub3');
compare('after inserts, updates, deletes, relabels, COPY, streamed and prepared transactions');
my $sub1 = sub_rows('sub1', 't') . sub_rows('sub1', 'big');
no_leak('s1', 'sub1 holds nothing above s1', $sub1);
unlike(sub_rows('sub1', 't'), qr/^2\|/m, 'attack: the s0 row relabeled to s3 left sub1 (a delete)');
like(sub_rows('sub3', 't'), qr/^2\|public-s0-2.*:s3$/m, '... and is at s3 on sub3');
like(sub_rows('sub1', 'big'), qr/^39\|declassified-s3-zzzzzzzz.*:s1$/m,
	'the s3 row relabeled to s1 reached sub1 with its out-of-line value');
like(sub_rows('sub1', 't'), qr/^5\|public-s0-new.*:s1$/m, 'the s0 row relabeled to s1 is at s1 on sub1');
is($sub->safe_psql('sub1', 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM t WHERE id > 9000',
		extra_params => [ '-U', 'r_top_sub1' ]),
	'9796,9797,9798,9799,9800',
	'a streamed transaction whose first blocks sub1 may not see reached it from its first visible block');
is($sub->safe_psql('sub1', "SELECT count(*) FROM pg_prepared_xacts"), '0',
	'sub1 holds no prepared transaction');

# ---- attacks ----
# the worker's own label decided the rows (every level), but user code it
# runs decides with the narrowed label: the clearance alone, which may not
# write below itself
is($sub->safe_psql('sub3', 'SELECT string_agg(DISTINCT probe, \',\') FROM t',
		extra_params => [ '-U', 'r_top_sub3' ]),
	'system_u:system_r:labelam_replica_t:s15:c0.c1023',
	'attack: a default the worker evaluates for replicated rows of every level sees the narrowed label, not the range');
# user code that runs in the workers, before the row's checks (a cast, a
# BEFORE trigger) or after them (an index expression), sees the same
my $narrowed = 'system_u:system_r:labelam_replica_t:s15:c0\.c1023';
my %code = (
	cast => 'a domain CHECK (a cast)',
	index => 'an index expression',
	trigger => 'an ALWAYS BEFORE trigger');
for my $what (sort keys %code)
{
	ok($sub->wait_for_log(qr/WARNING:  labelam probe $what: $narrowed$/m, 0),
		"attack: $code{$what} of a replicated table runs with the narrowed label");
}
unlike(slurp_file($sub->logfile), qr/labelam probe \w+: [^\n]*s0-s15/,
	'attack: no user code a worker ran saw the range s0-s15');
# which subscriptions failed, and which did not
sub errors_of
{
	my ($db) = @_;
	return $sub->safe_psql($db,
		"SELECT apply_error_count + sync_error_count FROM pg_stat_subscription_stats WHERE subname = '$db'");
}
is(errors_of('sub1') . errors_of('sub3'), '00', 'sub1 and sub3 applied everything without an error');
# an owner at s0 subscribing through s3: its worker may not write s3 rows
ok($sub->wait_for_log(qr/ERROR:  permission denied to insert, relabelto rows of relation "(t|big)"/, 0),
	'attack: the apply worker of an s0 owner is refused the s3 rows');
cmp_ok(errors_of('sublow'), '>', 0, '... it is sublow\'s worker that failed');
my $low = $sub->safe_psql('sublow', 'SELECT count(*) FROM t WHERE v LIKE \'SECRET%\'',
	extra_params => [ '-U', 'r_top_sublow' ]);
is($low, '0', 'attack: no s1 or s3 row was written by the s0 owner\'s worker');

# a trigger enabled for replicas: refused, nothing copied
ok($sub->wait_for_log(qr/ERROR:  trigger "copy_row" of table "t" cannot fire for replicated rows/, 0),
	'attack: an ALWAYS trigger on a replicated labelheap table is refused');
cmp_ok(errors_of('subtrig'), '>', 0, '... in subtrig\'s worker');
is($sub->safe_psql('subtrig', 'SELECT count(*) FROM copied', extra_params => [ '-U', 'r_top_subtrig' ]),
	'0', 'attack: the trigger copied no replicated row into its table');
is($sub->safe_psql('subtrig', 'SELECT count(*) FROM t', extra_params => [ '-U', 'r_top_subtrig' ]),
	'0', '... and the rows were not applied');

# a default that runs a query in the worker
ok($sub->wait_for_log(qr/ERROR:  queries cannot run in a logical replication worker while labelam is loaded/, 0),
	'attack: a query in a replicated table\'s column default is refused in the worker');
cmp_ok(errors_of('subdef'), '>', 0, '... in subdef\'s worker');
is($sub->safe_psql('subdef', 'SELECT count(*) FROM copied', extra_params => [ '-U', 'r_top_subdef' ]),
	'0', 'attack: the default copied no replicated row');

# a row that arrives without a label
ok($sub->wait_for_log(qr/ERROR:  replicated row of table "plain" has no security label/, 0),
	'attack: a replicated labelheap row without a label is an error');
cmp_ok(errors_of('subplain'), '>', 0, '... in subplain\'s worker');
is($sub->safe_psql('subplain', 'SELECT count(*) FROM plain', extra_params => [ '-U', 'r_top_subplain' ]),
	'0', '... never written with the worker\'s own label');

# ---- a TRUNCATE of the multi-level table ----
# the maintenance subject empties it on the publisher; sub1 and sub3 apply
# the truncation (their workers' range decides the label set's check) and
# keep replicating
$pub->safe_psql('postgres', q{
	CREATE ROLE a_maint LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('a_maint', 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023');
});
$pub->safe_psql('postgres', 'TRUNCATE big', extra_params => [ '-U', 'a_maint' ]);
$pub->safe_psql('postgres', "INSERT INTO big VALUES (1, 'public-after-truncate')",
	extra_params => [ '-U', 'r_s0' ]);
pub_catchup('sub1');
pub_catchup('sub3');
compare('after a TRUNCATE of the multi-level table');
is(errors_of('sub1') . errors_of('sub3'), '00', '... applied by sub1 and sub3 without an error');

done_testing();
