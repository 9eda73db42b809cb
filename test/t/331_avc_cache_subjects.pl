# test/t/331_avc_cache_subjects.pl -- what labelam remembers between
# statements (issue 37: decisions on objects kept with their labels, the
# label of a table's new rows kept per relation) is forgotten when the
# subject that decides changes inside a session without a new session
# label, and when the lbac provider takes in another model:
#  - a trusted maintenance session (avc/trusted.c, issue 33) decides as its
#    label narrowed to its clearance, and widens to its whole range for the
#    checks of a maintenance command it sends itself, then narrows again;
#    the same check on the same object (db_table setattr on an s0 table),
#    made widened then narrowed then widened in consecutive statements,
#    must get each subject's decision,
#    and its new rows stay at its clearance after a widened command;
#  - under lbac (src/lbac), a model changed by another session, and one
#    changed and rolled back by the session itself: the next row the
#    session writes carries the row label of the model in force.
# (Decisions on rows after a model change are test/t/311's 17-20.)
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use LabelamTest;
use LabelamAttack;
use LabelamLbac;

my $MAINT = 'system_u:system_r:labelam_maint_t:s0-s15:c0.c1023';

# --- 1. a trusted session, narrowed and widened ---------------------------
my $node = attack_node('cache_trusted', "autovacuum = off\n",
	objects => 1, policy => labelam_policy());
$node->safe_psql('postgres', qq{
	CREATE ROLE a_maint LOGIN SUPERUSER;
	INSERT INTO labelam.role_label VALUES ('a_maint', '$MAINT');
	CREATE TABLE tc (id int, v text) USING labelheap;
	GRANT ALL ON tc TO PUBLIC;
});
seed($node, 'tc');

my $m = $node->background_psql('postgres', on_error_stop => 0,
	extra_params => [ '-U', 'a_maint', '-v', 'VERBOSITY=verbose' ]);

# srun(session, sql): "ok:<output>" or "ERROR <sqlstate>: <message>"
sub srun
{
	my ($s, $sql) = @_;
	$s->{stderr} = '';
	my $out = $s->query($sql);
	my $err = $s->{stderr};
	return $err =~ /ERROR:  ([^\n]*)/ ? "ERROR $1" : "ok:$out";
}

is(srun($m, 'SELECT count(*) FROM tc'), 'ok:9', 'the maintenance session reads every row of tc (s0 table, rows at s0, s1, s3)');
# widened, narrowed, widened, narrowed: db_table setattr on tc (an s0
# table, which the narrowed label s15:c0.c1023 may not change) each time
my $nested = 'DO $$ BEGIN ALTER TABLE tc SET (fillfactor = %d); END $$';
is(srun($m, 'ALTER TABLE tc SET (fillfactor = 90)'), 'ok:',
	'ALTER TABLE sent by the maintenance session: decided widened, allowed');
like(srun($m, sprintf($nested, 80)), qr/^ERROR 42501: SELinux: security policy violation/,
	'the same check from a DO block in its next statement: decided narrowed, refused');
is(srun($m, 'ALTER TABLE tc SET (fillfactor = 70)'), 'ok:',
	'sent again in the next statement: widened, allowed');
like(srun($m, sprintf($nested, 60)), qr/^ERROR 42501: SELinux: security policy violation/,
	'from a DO block again: refused');
is($node->safe_psql('postgres',
		q{SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'tc'::regclass}),
	'fillfactor=70', 'tc has the setting the last allowed command gave it');

# new rows: at its clearance, before and after a widened command
like(srun($m, "INSERT INTO tc (id, v) VALUES (90, 'top') RETURNING tc.security_label"),
	qr/^ok:[^:]+:[^:]+:[^:]+:s15:c0\.c1023$/, 'its row is labeled at its clearance');
is(srun($m, 'ALTER TABLE tc SET (fillfactor = 100)'), 'ok:', 'a widened command');
like(srun($m, "INSERT INTO tc (id, v) VALUES (91, 'top') RETURNING tc.security_label"),
	qr/^ok:[^:]+:[^:]+:[^:]+:s15:c0\.c1023$/, 'its next row is still at its clearance');
is($node->safe_psql('postgres', 'SELECT count(*) FROM tc', extra_params => [ '-U', 'r_s3' ]), '9',
	'an s3 session does not see the rows at the clearance');
$m->quit;

# --- 2. lbac: another model, the session's next row ----------------------
my $lb = lbac_node('cache_lbac', "autovacuum = off\n");
my $admin = lbac_model($lb);
$lb->safe_psql('postgres', q{
	CREATE TABLE docs (id int, v text) USING labelheap;
	GRANT ALL ON docs TO PUBLIC;
});
my $alice = $lb->background_psql('postgres', on_error_stop => 0,
	extra_params => [ '-U', 'alice', '-v', 'VERBOSITY=verbose' ]);
sub new_row
{
	my ($s, $id) = @_;
	return srun($s, "INSERT INTO docs VALUES ($id, 'x') RETURNING docs.security_label");
}
is(new_row($alice, 1), 'ok:S:A:WEST', 'alice\'s row gets her row label (S, written A, WEST)');
is(new_row($alice, 2), 'ok:S:A:WEST', '... and her next one (the label kept for docs)');
$lb->safe_psql('postgres', q{SELECT lbac.set_levels('alice', 'S', 'C', NULL, 'C')});
is(new_row($alice, 3), 'ok:C:A:WEST', 'her row level set to C by the administrator: her next row is at C');
$lb->safe_psql('postgres', q{SELECT lbac.set_compartments('alice', 'A,B', 'A,B')});
is(new_row($alice, 4), 'ok:C:A,B:WEST', 'B made writable: her next row is written A,B');
$lb->safe_psql('postgres', q{
	SELECT lbac.set_levels('alice', 'S', 'C');
	SELECT lbac.set_compartments('alice', 'A,B', 'A');
});
is(new_row($alice, 5), 'ok:S:A:WEST', 'given back: her rows are S:A:WEST again');
$alice->quit;

# the administrator changes its own row level in a transaction, writes,
# and rolls back
my $adm = $lb->background_psql('postgres', on_error_stop => 0,
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
my $own = new_row($adm, 10);
like($own, qr/^ok:TS:A,B:ALL$/, "the administrator's row gets its row label ($own)");
srun($adm, "BEGIN; SELECT lbac.set_levels('$admin', 'TS', 'U', NULL, 'C')");
is(new_row($adm, 11), 'ok:C:A,B:ALL', 'its row level set to C in its own transaction: its next row is at C');
srun($adm, 'ROLLBACK');
is(new_row($adm, 12), $own, 'rolled back: its rows get its old row label again');
is($lb->safe_psql('postgres', q{SELECT string_agg(id || '=' || d.security_label, ' ' ORDER BY id) FROM docs d}),
	'1=S:A:WEST 2=S:A:WEST 3=C:A:WEST 4=C:A,B:WEST 5=S:A:WEST 10=TS:A,B:ALL 12=TS:A,B:ALL',
	'the table holds each row at the label it was written with');
$adm->quit;

done_testing();
