/*-------------------------------------------------------------------------
 *
 * src/avc/settings.c
 *	  Start-up of the policy subsystem (avc_init, from _PG_init): its
 *	  settings and the choice of provider.
 *
 * The settings' values live where the files that read them can reach them
 * (globals.c, or the one file that reads a setting); their check and
 * assign hooks in the files whose state they change.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/selinux.h>

#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/plancache.h"

#include "avc/avc_internal.h"

static bool avc_initialized = false;

static int	avc_provider_choice;

static const struct config_enum_entry provider_options[] = {
	{"selinux", 0, false},
	{"sepol", 1, false},
	{"lbac", 2, false},
	{NULL, 0, false}
};

static const AvcProvider *const providers[] = {
	&avc_selinux_provider,
	&avc_sepol_provider,
	&avc_lbac_provider,
};

static const struct config_enum_entry audit_options[] = {
	{"none", AVC_AUDIT_NONE, false},
	{"denied", AVC_AUDIT_DENIED, false},
	{"all", AVC_AUDIT_ALL, false},
	{NULL, 0, false}
};

/*
 * labelam.enforcing changed: say so once, in the postmaster (every backend
 * runs this hook too, at its next reload of the configuration, between
 * statements).  In a backend, cached plans go: the planner decides with
 * the session's decisions (am/channels/planner.c's endpoint probes), and a plan
 * made while permissive must not keep its estimates once enforcing again.
 * The decision cache starts over at the next statement (cache.c).  Only
 * memory is reset: assign hooks must not fail.
 */
static void
avc_enforcing_assign(bool newval, void *extra)
{
	if (avc_initialized && IsUnderPostmaster && newval != avc_enforcing)
		ResetPlanCache();
	if (avc_initialized && !IsUnderPostmaster && newval != avc_enforcing)
		ereport(LOG,
				(errmsg("labelam: labelam.enforcing changed to %s: %s",
						newval ? "on" : "off",
						newval ? "denials are enforced again from each session's next statement" :
						"PERMISSIVE MODE: denials are logged but not enforced from each session's next statement")));
}

void
avc_init(void)
{
	/*
	 * The variable must hold the boot value before it is defined (asserted
	 * by assert-enabled servers' check_GUC_init).
	 */
	avc_provider_choice = is_selinux_enabled() > 0 ? 0 : 1;
	DefineCustomEnumVariable("labelam.provider",
							 "Where access decisions come from: the SELinux kernel, a policy file, or a label model defined in SQL.",
							 "\"selinux\" asks the running kernel (the default when it runs SELinux); "
							 "\"sepol\" evaluates labelam.policy_file in user space with libsepol; "
							 "\"lbac\" decides with the levels, compartments, groups and authorizations "
							 "of each database's schema lbac (Oracle Label Security's rules).",
							 &avc_provider_choice,
							 avc_provider_choice,
							 provider_options,
							 PGC_POSTMASTER, 0,
							 NULL, NULL, NULL);

	DefineCustomStringVariable("labelam.policy_file",
							   "Binary SELinux policy evaluated by the sepol provider.",
							   "Reloaded by each backend when the file changes.",
							   &avc_policy_file,
							   "/etc/selinux/default/policy/policy.33",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);

	DefineCustomStringVariable("labelam.policy_booleans",
							   "Booleans of the policy file, as setsebool would set them (sepol provider).",
							   "A list of name=on|off; the policy's own values for the others.  "
							   "The selinux provider uses the kernel's booleans.",
							   &avc_policy_booleans,
							   "",
							   PGC_SIGHUP, 0,
							   NULL, NULL, NULL);

	DefineCustomEnumVariable("labelam.audit",
							 "Which access decisions are logged.",
							 "\"denied\" logs what the policy asks for (denials except dontaudit, "
							 "and auditallow grants); \"all\" logs every decision; \"none\" nothing. "
							 "Decisions are aggregated into one line per statement, relation, "
							 "permission, object label and outcome.",
							 &avc_audit_mode,
							 AVC_AUDIT_DENIED,
							 audit_options,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);

	/*
	 * PGC_SIGHUP, not PGC_SUSET: a session must not choose its own label,
	 * which it could with PGOPTIONS or ALTER ROLE/DATABASE ... SET.  No boot
	 * value (NULL) rather than '': left unset, the server may refuse to
	 * start (below); set to '', it says that sessions get labels from their
	 * connection or labelam.role_label only.  Both mean no default label.
	 */
	DefineCustomStringVariable("labelam.default_client_label",
							   "Security label of sessions that get none otherwise.",
							   "Used when the connection has no SELinux peer context and "
							   "labelam.role_label has no row for the login role. "
							   "Set in postgresql.conf only.",
							   &avc_default_client_label,
							   NULL,
							   PGC_SIGHUP, 0,
							   NULL, avc_statistics_subject_changed, NULL);

	/*
	 * PGC_SIGHUP: the subject that summarizes rows for everyone must not be
	 * chosen by a session, whatever its privileges in SQL.
	 */
	DefineCustomStringVariable("labelam.statistics_label",
							   "Security label with which ANALYZE samples rows of labelheap tables.",
							   "ANALYZE, by any session or by autovacuum, samples only the rows this "
							   "label may select, so that pg_statistic and extended statistics hold "
							   "no values of rows above it. Empty means labelam.default_client_label; "
							   "if both are empty, no rows are sampled.",
							   &avc_statistics_label,
							   "",
							   PGC_SIGHUP, 0,
							   NULL, avc_statistics_subject_changed, NULL);

	/*
	 * The session's label, carried as a setting so that parallel workers
	 * (which restore the leader's settings) decide with it.  Only labelam
	 * sets it: see avc_session_label_check.
	 */
	DefineCustomStringVariable("labelam.session_label",
							   "Security label of this session (set by labelam; see labelam.set_client_label()).",
							   NULL,
							   &avc_session_label,
							   "",
							   PGC_SUSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE |
							   GUC_NO_RESET_ALL | GUC_DISALLOW_IN_FILE,
							   avc_session_label_check,
							   avc_session_label_assign,
							   NULL);

	/*
	 * PGC_BACKEND: only the connection's start-up packet sets it (a client's
	 * PGOPTIONS); ALTER ROLE/DATABASE ... SET and SET cannot.  It is a
	 * request, not a label: granted only if the policy lets the label the
	 * session gets otherwise change itself to it, exactly as
	 * labelam.set_client_label() right after connecting would (see
	 * avc/client.c).  It is what runcon is to a client on an SELinux host.
	 */
	DefineCustomStringVariable("labelam.connect_label",
							   "Security label this connection asks for at its start.",
							   "Granted if the security policy lets the label the connection "
							   "gets otherwise (peer context, labelam.role_label, "
							   "labelam.default_client_label) change to it: process { setcurrent } "
							   "and { dyntransition }, as labelam.set_client_label() asks; "
							   "otherwise the connection is refused. Set at connection start "
							   "only, e.g. PGOPTIONS='-c labelam.connect_label=...'.",
							   &avc_connect_label,
							   "",
							   PGC_BACKEND,
							   GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							   NULL, NULL, NULL);

	/*
	 * For testing the label dictionary apart from any policy.  It gives no
	 * power a superuser lacks (INSERT INTO labelam.pg_security does the
	 * same), and decisions on such labels still fail: only the dictionary
	 * stops asking the provider.
	 */
	DefineCustomBoolVariable("labelam.debug_opaque_labels",
							 "Lets the label dictionary store labels as given, without the policy's validation.",
							 NULL,
							 &avc_debug_opaque_labels,
							 false,
							 PGC_SUSET, GUC_NOT_IN_SAMPLE,
							 NULL, NULL, NULL);

	/*
	 * PGC_SIGHUP: only postgresql.conf (or ALTER SYSTEM, a superuser's)
	 * changes it, for every session at once.  Not PGC_SUSET: no session,
	 * role, database or function (SET clause) may run permissive on its
	 * own.
	 */
	DefineCustomBoolVariable("labelam.enforcing",
							 "Enforces the policy's denials; off: permissive mode.",
							 "Off: every decision is computed and audited as when on, "
							 "but denials are not enforced (rows are not filtered, writes "
							 "not refused) and their audit lines say permissive=1, as in "
							 "SELinux's permissive mode. Takes effect at each session's next statement.",
							 &avc_enforcing,
							 true,
							 PGC_SIGHUP, 0,
							 NULL, avc_enforcing_assign, NULL);

	DefineCustomIntVariable("labelam.max_denials",
							"Distinct denials kept in the summary (labelam.denials).",
							"Each takes about 1.2 kB of shared memory; further distinct "
							"denials are counted as dropped until labelam.reset_denials().",
							&avc_max_denials,
							1000, 0, 1000000,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);

	DefineCustomIntVariable("labelam.shared_decisions",
							"Decisions of the sepol provider kept in shared memory for every backend.",
							"Each takes about 560 bytes of shared memory; 0: each backend "
							"computes its own.  A full table is emptied.",
							&avc_shared_decisions,
							4096, 0, 1000000,
							PGC_POSTMASTER, 0,
							NULL, NULL, NULL);

	avc_table_label_init();

	avc_provider = providers[avc_provider_choice];
	avc_provider->startup();

	/*
	 * Every session needs a label (client.c): from its connection, when the
	 * provider knows peers' labels; from labelam.role_label, which exists
	 * only in databases where the extension was created, by a session that
	 * had a label; or from labelam.default_client_label.  With none of these
	 * configured, no first session could ever get one, and every connection
	 * would be refused with nothing to fix it from inside: say so now, in
	 * the server's log, and start no server.  (labelam.default_client_label
	 * = '' is a choice: labels from labelam.role_label only.)
	 */
	if (!IsUnderPostmaster && avc_default_client_label == NULL &&
		avc_provider->peer_label == NULL)
		ereport(FATAL,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("labelam: no session could get a security label"),
				 errdetail("labelam.provider is \"%s\", which knows no client's label, and labelam.default_client_label is not set; labelam.role_label labels sessions only in databases where the extension was created, which takes a session with a label.",
						   avc_provider->name),
				 errhint("Set labelam.default_client_label in postgresql.conf to the label of sessions that get none otherwise, or to '' to label sessions from labelam.role_label only.")));

	if (!IsUnderPostmaster && !avc_enforcing)
		ereport(LOG,
				(errmsg("labelam: PERMISSIVE MODE (labelam.enforcing = off): denials are logged but not enforced")));
	avc_initialized = true;
}
