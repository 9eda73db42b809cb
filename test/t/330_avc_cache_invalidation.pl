# test/t/330_avc_cache_invalidation.pl -- what labelam remembers between
# statements so as not to work it out again for each (issue 37), and what
# makes it forget, each seen from a session that keeps running:
#  - the decision on a database object, kept with the object's label
#    (src/objects/object_label.c): SECURITY LABEL committed by another
#    session, run and rolled back in the session itself,
#    on a table and on a column; a policy reload (other booleans), with an
#    error in the same session after it; a trusted procedure's subject;
#  - the label of a table's new rows, kept per relation across statements
#    and transactions (src/am/write/new_label.c): the table relabeled by
#    another session and in the session itself then rolled back; a label
#    new to the dictionary whose (sub)transaction rolled back; the session
#    lowering its label;
#  - labelheap's access method OID (src/am/handler.c): the extension
#    dropped and created again under a running session;
#  - a filtered scan's decisions on the labels it met (page_decisions.c's
#    memo), across pages: labelam.audit changed in the middle of a scan,
#    and the server permissive, then enforcing (and back) between two
#    fetches of a cursor.  (The avc epoch moving within a page, and more
#    ways of moving it, are test/t/231's.)
# Debian's MLS policy, object checks on.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;

my $node = labelam_mls_node('caches', q{
autovacuum = off
max_parallel_workers_per_gather = 0
}, objects => 1);
my $table_t = 'system_u:object_r:sepgsql_table_t:s0';
my $secret_t = 'system_u:object_r:sepgsql_secret_table_t:s0';
my $user_t = 'system_u:object_r:user_sepgsql_table_t:s0';
my $su = scalar(getpwuid($<));

# --- 0. labelheap's access method OID: a session remembers it; the
# extension dropped and created again gets another, and a new labelheap
# table is still one to object checks (no db_table insert asked of it),
# heap tables and those of another access method still not, and a heap
# table moved to labelheap becomes one (each INSERT's checks, from its
# audit lines: sepgsql.debug_audit)
$node->safe_psql('postgres', 'CREATE EXTENSION labelam; CREATE TABLE t0 (id int) USING labelheap');
my $audit = $node->background_psql('postgres', on_error_stop => 0);
$audit->query_safe('SET sepgsql.debug_audit = on');
$audit->query_safe('INSERT INTO t0 VALUES (1)');
$node->safe_psql('postgres', 'DROP TABLE t0; DROP EXTENSION labelam');
$node->safe_psql('postgres', qq{
	CREATE EXTENSION labelam;
	CREATE ROLE u LOGIN;
	CREATE ROLE r_app LOGIN;
	CREATE ROLE r_audit LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('u', 'staff_u:staff_r:staff_t:s0'),
		('r_app', 'staff_u:staff_r:sepgsql_ranged_proc_t:s3');
	CREATE TABLE h (id int, v text);
	INSERT INTO h VALUES (1, 'one');
	CREATE TABLE ut (id int);
	ALTER TABLE ut OWNER TO u;
	SECURITY LABEL FOR selinux ON TABLE ut IS '$user_t';
	CREATE TABLE t (id int, note text) USING labelheap;
	GRANT ALL ON h, t TO PUBLIC;
	CREATE TABLE t2 (id int) USING labelheap;
	CREATE TABLE h2 (id int);
	CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
	CREATE TABLE h3 (id int) USING heap2;
	CREATE FUNCTION read_h() RETURNS text LANGUAGE sql AS \$\$ SELECT string_agg(v, ',') FROM h \$\$;
	SECURITY LABEL FOR selinux ON FUNCTION read_h() IS 'system_u:object_r:sepgsql_trusted_proc_exec_t:s0';
	GRANT EXECUTE ON FUNCTION read_h() TO PUBLIC;
});

sub background
{
	my ($role) = @_;
	return $node->background_psql('postgres', on_error_stop => 0,
		extra_params => [ '-U', $role ]);
}

# run(session, sql): "ok:<output>" or "ERROR <sqlstate-free message>"
sub run
{
	my ($s, $sql) = @_;
	$s->{stderr} = '';
	my $out = $s->query($sql);
	my $err = $s->{stderr};
	return $err =~ /ERROR:  ([^\n]*)/ ? "ERROR $1" : "ok:$out";
}

sub admin { return $node->safe_psql('postgres', $_[0]); }

sub insert_checks
{
	my ($s, $table) = @_;
	my $offset = -s $node->logfile;
	run($s, "INSERT INTO $table VALUES (1)");
	my $log = slurp_file($node->logfile, $offset);
	return $log =~ /\{ insert \} [^\n]* tclass=db_table name="public\.$table"/ ? 'table insert checked' : 'no table insert check';
}
is(insert_checks($audit, 't2'), 'no table insert check',
	'after the extension is created again, rows of labelheap table t2 are decided per row');
is(insert_checks($audit, 'h2'), 'table insert checked', '... heap table h2 is checked as a table');
is(insert_checks($audit, 'h3'), 'table insert checked', '... and so is h3, of another access method');
admin('ALTER TABLE h2 SET ACCESS METHOD labelheap');
is(insert_checks($audit, 'h2'), 'no table insert check', 'h2 moved to labelheap by another session: its rows are decided per row');
$audit->quit;

# --- 1. decisions on objects -------------------------------------------
my $user = background('u');
is(run($user, 'SELECT v FROM h'), 'ok:one', 'u reads table h');
admin("SECURITY LABEL FOR selinux ON TABLE h IS '$secret_t'");
like(run($user, 'SELECT v FROM h'), qr/^ERROR SELinux: security policy violation/,
	'h relabeled secret by another session: u\'s next statement is refused');
admin("SECURITY LABEL FOR selinux ON TABLE h IS '$table_t'");
is(run($user, 'SELECT v FROM h'), 'ok:one', 'relabeled back: u reads h again');
admin("SECURITY LABEL FOR selinux ON COLUMN h.v IS '$secret_t'");
like(run($user, 'SELECT v FROM h'), qr/^ERROR SELinux: security policy violation/,
	'column h.v relabeled secret: u may not read it');
is(run($user, 'SELECT id FROM h'), 'ok:1', '... and still reads column h.id');
admin("SECURITY LABEL FOR selinux ON COLUMN h.v IS '$table_t'");
is(run($user, 'SELECT v FROM h'), 'ok:one', 'h.v relabeled back: u reads it again');

# the session relabels and rolls back: the audit line of each decision
# (sepgsql.debug_audit) names the label it was made on
sub audited_tcontext
{
	my ($s, $sql) = @_;
	my $offset = -s $node->logfile;
	run($s, $sql);
	my $log = slurp_file($node->logfile, $offset);
	my ($tcontext) = $log =~ /allowed \{ select \} scontext=\S+ tcontext=(\S+) tclass=db_table name="public\.h"/;
	return $tcontext // 'none';
}
my $admin = background($su);
run($admin, 'SET sepgsql.debug_audit = on');
is(audited_tcontext($admin, 'SELECT v FROM h'), $table_t, 'the administrator\'s select on h is decided on h\'s label');
run($admin, "BEGIN; SECURITY LABEL FOR selinux ON TABLE h IS '$secret_t'");
is(audited_tcontext($admin, 'SELECT v FROM h'), $secret_t, 'relabeled in its open transaction: on the new label');
run($admin, 'ROLLBACK');
is(audited_tcontext($admin, 'SELECT v FROM h'), $table_t, 'rolled back: on the old label again');
run($admin, 'RESET sepgsql.debug_audit');

# a policy reload: other booleans let staff_t change its tables
# (user_sepgsql_table_t setattr needs sepgsql_enable_users_ddl)
sub set_booleans
{
	my ($value) = @_;
	admin("ALTER SYSTEM SET labelam.policy_booleans = '$value'; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres', "SELECT current_setting('labelam.policy_booleans') = '$value'")
	  or die "labelam.policy_booleans = '$value' was not reloaded";
}
like(run($user, 'ALTER TABLE ut SET (fillfactor = 90)'), qr/^ERROR SELinux: security policy violation/,
	'u may not change its own table ut under the stock booleans');
set_booleans('sepgsql_enable_users_ddl=on');
is(run($user, 'ALTER TABLE ut SET (fillfactor = 80)'), 'ok:', 'reloaded with sepgsql_enable_users_ddl: the same session may');
set_booleans('');
like(run($user, 'ALTER TABLE ut SET (fillfactor = 70)'), qr/^ERROR SELinux: security policy violation/,
	'reloaded without it: refused again (an ERROR after a reload: the session lives on)');
is(run($user, 'SELECT 1'), 'ok:1', '... and answers');

admin("SECURITY LABEL FOR selinux ON TABLE h IS '$secret_t'");
like(run($user, 'SELECT v FROM h'), qr/^ERROR SELinux: security policy violation/, 'h secret again: refused');

# a trusted procedure decides as sepgsql_trusted_proc_t, which may read
# secret tables; its decisions are not u's
is(run($user, 'SELECT read_h()'), 'ok:one', 'the trusted procedure reads secret h for u');
like(run($user, 'SELECT v FROM h'), qr/^ERROR SELinux: security policy violation/,
	'after it, u\'s own select on h is refused');
is(run($user, 'SELECT read_h(), 1'), 'ok:one|1', '... and the procedure reads it again');
admin("SECURITY LABEL FOR selinux ON TABLE h IS '$table_t'");
$user->quit;

# --- 2. labels of new rows ----------------------------------------------
# label(session, id): the label of row id, as the session reads it
$user = background('u');
sub row_label
{
	my ($s, $id) = @_;
	return run($s, "SELECT t.security_label FROM t WHERE id = $id");
}
# rows get the table's type (no type_transition for these subjects) at
# the session's level, the user part the session's
run($user, 'INSERT INTO t VALUES (1)');
like(row_label($user, 1), qr/^ok:\w+:object_r:sepgsql_table_t:s0$/, 'u\'s row in t gets the table\'s type at s0');
admin("SECURITY LABEL FOR selinux ON TABLE t IS '$user_t'");
run($user, 'INSERT INTO t VALUES (2)');
like(row_label($user, 2), qr/^ok:\w+:object_r:user_sepgsql_table_t:s0$/,
	't relabeled by another session: u\'s next row gets its new type');

$admin = background($su);
run($admin, 'INSERT INTO t VALUES (3)');
run($admin, "BEGIN; SECURITY LABEL FOR selinux ON TABLE t IS '$table_t'; INSERT INTO t VALUES (4)");
like(row_label($admin, 4), qr/^ok:\w+:object_r:sepgsql_table_t:s0$/,
	'relabeled in the session\'s own transaction: its next row follows');
run($admin, 'ROLLBACK');
run($admin, 'INSERT INTO t VALUES (5)');
like(row_label($admin, 5), qr/^ok:\w+:object_r:user_sepgsql_table_t:s0$/,
	'rolled back: rows get the table\'s label again');

# a label first met in a subtransaction, or a transaction, that rolls back:
# its dictionary row goes with it, and the next row interns it again
is(admin("SELECT count(*) FROM labelam.pg_security WHERE seclabel ~ ':sepgsql_(ro|fixed)_table_t:'"), '0',
	'no label of types sepgsql_ro_table_t and sepgsql_fixed_table_t in the dictionary yet');
admin("SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_ro_table_t:s0'");
run($admin, 'BEGIN; SAVEPOINT a; INSERT INTO t VALUES (6); ROLLBACK TO a; INSERT INTO t VALUES (7); COMMIT');
run($admin, 'BEGIN; INSERT INTO t VALUES (8); ROLLBACK');
admin("SECURITY LABEL FOR selinux ON TABLE t IS 'system_u:object_r:sepgsql_fixed_table_t:s0'");
run($admin, 'BEGIN; INSERT INTO t VALUES (9); ROLLBACK');
run($admin, 'INSERT INTO t VALUES (10)');
like(admin(q{SELECT string_agg(id || '=' || coalesce(t.security_label, '?'), ' ' ORDER BY id) FROM t WHERE id >= 6}),
	qr/^7=\w+:object_r:sepgsql_ro_table_t:s0 10=\w+:object_r:sepgsql_fixed_table_t:s0$/,
	'rows written after the rollbacks carry their labels');
is(admin("SELECT count(*) FROM labelam.verify_labels('t')"), '0', 'no row of t lacks a valid label');
admin("SECURITY LABEL FOR selinux ON TABLE t IS '$table_t'");
$admin->quit;
$user->quit;

# --- 3. a scan's decisions on the labels it met, and labelam.audit --------
# runs of 5 rows of s0 and of s1 in turn on every page; r_audit (an
# administrator at s0, who may change labelam.audit) reads with a cursor,
# and turns the audit of every decision on after the first pages: every
# row reached after that is logged, as row-by-row filtering logs it
admin(q{
	CREATE TABLE mix (id int, lvl text) USING labelheap;
	GRANT ALL ON mix TO PUBLIC;
	CREATE ROLE w0 LOGIN SUPERUSER;
	CREATE ROLE w1 LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES
		('w0', 'unconfined_u:unconfined_r:unconfined_t:s0'),
		('w1', 'unconfined_u:unconfined_r:unconfined_t:s1');
});
my %w = map { $_ => background($_) } ('w0', 'w1');
for my $i (0 .. 119)
{
	my ($w, $lvl) = $i % 2 ? ('w1', 's1') : ('w0', 's0');
	$w{$w}->query_safe("INSERT INTO mix SELECT g, '$lvl' FROM generate_series(" . (5 * $i + 1) . ', ' . (5 * $i + 5) . ') g');
}
$_->quit for values %w;
admin('VACUUM mix');
cmp_ok(admin("SELECT pg_relation_size('mix') / 8192"), '>=', 3, 'mix takes several pages');
sub audit_after_change
{
	my ($pd) = @_;
	my $s = background('r_audit');
	run($s, "SET labelam.page_decisions = $pd; SET enable_indexscan = off; SET enable_bitmapscan = off; SET labelam.audit = 'none'");
	run($s, 'BEGIN; DECLARE c CURSOR FOR SELECT id FROM mix');
	my $first = run($s, 'FETCH 100 FROM c');
	my $offset = -s $node->logfile;
	run($s, "SET labelam.audit = 'all'");
	my $rest = run($s, 'FETCH ALL FROM c');
	run($s, 'COMMIT');
	my $log;
	for (1 .. 50)
	{
		$log = slurp_file($node->logfile, $offset);
		last if $log =~ /relation=public\.mix rows=/;
		select(undef, undef, undef, 0.1);
	}
	my %n = (allowed => 0, denied => 0);
	$n{$1} += $2 while $log =~ /(allowed|denied) \{ select \} [^\n]* tclass=db_tuple relation=public\.mix rows=(\d+)/g;
	$s->quit;
	$rest =~ s/^ok://;
	my $fetched = () = $rest =~ /^\d+$/mg;
	return "$fetched fetched, $n{allowed} allowed, $n{denied} denied";
}
my $by_page = audit_after_change('on');
like($by_page, qr/^200 fetched, 200 allowed, [1-9]\d* denied$/,
	"audit turned on in the middle of a scan: every row reached after is logged ($by_page)");
is($by_page, audit_after_change('off'), '... as row-by-row filtering logs them');

# the server permissive for a cursor's first rows (s1 rows decided
# readable and kept for the scan), enforcing for the rest: no s1 row on a
# later page is returned; and the other way round
sub mode_change
{
	my ($pd, $first_mode, $rest_mode) = @_;
	my $s = background('u');
	run($s, "SET labelam.page_decisions = $pd; SET enable_indexscan = off; SET enable_bitmapscan = off");
	server_enforcing($node, $first_mode);
	run($s, 'BEGIN; DECLARE c CURSOR FOR SELECT id, lvl FROM mix');
	my $first = run($s, 'FETCH 150 FROM c');
	server_enforcing($node, $rest_mode);
	my $rest = run($s, 'FETCH ALL FROM c');
	run($s, 'COMMIT');
	$s->quit;
	server_enforcing($node, 'on');
	my %n;
	$n{"first $1"}++ while $first =~ /\|(s[01])$/mg;
	$n{"rest $1"}++ while $rest =~ /\|(s[01])$/mg;
	return join(', ', map { "$_: $n{$_}" } sort keys %n);
}
my $p_e = mode_change('on', 'off', 'on');
like($p_e, qr/^first s0: \d+, first s1: \d+, rest s0: \d+$/,
	"permissive, then enforcing: s1 rows before, none after ($p_e)");
is($p_e, mode_change('off', 'off', 'on'), '... as row-by-row filtering');
my $e_p = mode_change('on', 'on', 'off');
like($e_p, qr/^first s0: 150, rest s0: \d+, rest s1: \d+$/,
	"enforcing, then permissive: s1 rows after only ($e_p)");
is($e_p, mode_change('off', 'on', 'off'), '... as row-by-row filtering');

# --- 4. the session lowers its label: its next rows are its new level's
# (the s3 label committed by an earlier session: the running session's
# remembered label is then one it keeps across transactions)
admin('CREATE TABLE t3 (id int) USING labelheap; GRANT ALL ON t3 TO PUBLIC');
as_role($node, 'r_app', 'INSERT INTO t3 VALUES (10)');
my $app = background('r_app');
like(run($app, 'INSERT INTO t3 VALUES (11) RETURNING t3.security_label'), qr/^ok:[^:]+:[^:]+:[^:]+:s3$/,
	'r_app at s3 writes a row at s3');
run($app, "SELECT labelam.set_client_label('staff_u:staff_r:staff_t:s0')");
like(run($app, 'INSERT INTO t3 VALUES (12) RETURNING t3.security_label'), qr/^ok:[^:]+:[^:]+:[^:]+:s0$/,
	'lowered to s0, its next row is at s0');
$app->quit;

done_testing();
