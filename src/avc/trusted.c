/*-------------------------------------------------------------------------
 *
 * src/avc/trusted.c
 *	  Trusted subjects: session labels whose MLS range the policy honours
 *	  with an exemption (labelam's policy module: labelam_maint_t,
 *	  labelam_replica_t), and the one place where that exemption applies.
 *
 * Under an MLS policy a label with a range, such as
 * system_u:system_r:labelam_maint_t:s0-s15:c0.c1023, reads and writes at
 * its low level only, unless its domain has one of the policy's MLS
 * exemptions: policy/labelam.te gives labelam's two domains mlsdbreadtoclr
 * (read up to the clearance, the range's high level) and mlsdbwritetoclr
 * (write at any level within the range).  Such a label could then read a
 * row at s3 and write a row at s0; so could any code it runs: a trigger,
 * default, CHECK constraint, index expression or function of another
 * user, handed the s3 row, could write it down to s0.
 *
 * So a trusted session decides, everywhere but where labelam says
 * otherwise, with its label NARROWED to its clearance, a single level
 * (labelam_maint_t:s15:c0.c1023), and with its own label: a decision is
 * allowed only if both allow it.  A to-clearance exemption is bounded by
 * the range, so the narrowed label has none: it reads what the clearance
 * dominates and writes at the clearance only, as an ordinary session at
 * the top would, and the conjunction gives the session nothing its own
 * label would not.  New rows and objects get the narrowed label's labels.
 * Where labelam says otherwise is the maintenance commands' own checks
 * (avc_maintenance_begin, below): there the session's own label decides.
 *
 * Which labels are trusted: a label with a range (low != high) of an MLS
 * policy whose decisions on the database (the policy's default label of
 * the current database, sepgsql_contexts) at the range's high level
 * differ from those of the same label at its low level, in getattr or in
 * a write permission: the range, not only the low level, decides.  Under
 * the stock MLS policy a range reads and writes at its low level only
 * (no difference: not trusted, decided as before); under MCS the high
 * level decides for constrained types and nothing for the others (the
 * same for both: not trusted).  If the low level itself may not use the
 * database, the probe cannot tell and the label is taken as trusted: the
 * conjunction only ever takes permissions away.  A narrowed label that
 * still writes below its clearance (a domain with mlsdbwrite, which
 * ignores levels) cannot be confined: the session is refused (42501).
 *
 * Where the session's own label decides (avc_maintenance_begin): only
 * around checks that labelam's maintenance code makes itself, and only
 * while the one command running is a utility command the client sent
 * (nothing nested: no ExecutorStart, ExecutorRun, ExecutorFinish or
 * utility command inside it, no trusted procedure, no parallel worker).
 * Code that PostgreSQL runs for the user inside such a command reaches
 * tables and DDL only through executors and utility commands of its own,
 * which are nested, so it never decides with the session's own label;
 * what it can do without them (built-in functions in expressions) meets
 * checks that never widen (large objects, sequences, function execution).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/label.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "commands/dbcommands.h"
#include "libpq/libpq-be.h"
#include "miscadmin.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"

/* db_database permissions (labelam's bits: contrib/sepgsql's order) */
#define DB_DATABASE_CREATE		(1U << 0)
#define DB_DATABASE_DROP		(1U << 1)
#define DB_DATABASE_GETATTR		(1U << 2)
#define DB_DATABASE_SETATTR		(1U << 3)
#define DB_DATABASE_RELABELFROM	(1U << 4)
#define DB_DATABASE_SET_PARAM	(1U << 10)

/* what the MLS constraints treat as writes (relabelto is not: h1 dom h2) */
#define PROBE_WRITE		(DB_DATABASE_CREATE | DB_DATABASE_DROP | \
						 DB_DATABASE_SETATTR | DB_DATABASE_RELABELFROM | \
						 DB_DATABASE_SET_PARAM)
#define PROBE_READ		DB_DATABASE_GETATTR

/*
 * Split label text "user:role:type:mls" after its third colon: the
 * length of "user:role:type:" and the MLS field, or -1 if there is none.
 */
static int
mls_field(const char *label, const char **mls)
{
	int			colons = 0;
	const char *p;

	for (p = label; *p; p++)
	{
		if (*p == ':' && ++colons == 3)
		{
			*mls = p + 1;
			return (int) (p + 1 - label);
		}
	}
	return -1;
}

/* label with its MLS field replaced by level (palloc'd) */
static char *
with_level(const char *label, int prefix_len, const char *level, int level_len)
{
	return psprintf("%.*s%.*s", prefix_len, label, level_len, level);
}

/* the name the policy's sepgsql_contexts knows the current database by */
static const char *
database_name(void)
{
	if (MyProcPort != NULL && MyProcPort->database_name != NULL)
		return MyProcPort->database_name;
	if (OidIsValid(MyDatabaseId) && IsTransactionState())
	{
		char	   *name = get_database_name(MyDatabaseId);

		if (name != NULL)
			return name;
	}
	return "postgres";
}

static uint32
allowed(const char *scon, const char *tcon)
{
	AvcDecision d;

	avc_provider->compute_av(scon, tcon, AVC_CLASS_DB_DATABASE, &d);
	return d.allowed;
}

/*
 * The narrowed label of a trusted session label (palloc'd, canonical), or
 * NULL if label is not a trusted subject (see the header comment).  ERROR
 * (42501) if it is one that cannot be confined.
 */
char *
avc_trusted_narrowed(const char *label)
{
	const char *mls;
	const char *dash;
	int			prefix;
	char	   *low;
	char	   *high;
	char	   *db;
	const char *dbmls;
	int			dbprefix;
	char	   *db_high;
	char	   *db_low;
	uint32		range_at_high;
	uint32		low_at_high;
	uint32		low_at_low;
	bool		trusted;

	if (label == NULL || avc_debug_opaque_labels ||
		!avc_provider->mls_enabled())
		return NULL;
	prefix = mls_field(label, &mls);
	if (prefix < 0 || (dash = strchr(mls, '-')) == NULL)
		return NULL;
	low = with_level(label, prefix, mls, (int) (dash - mls));
	high = with_level(label, prefix, dash + 1, (int) strlen(dash + 1));
	if (!avc_provider->valid(low) || !avc_provider->valid(high))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("security label \"%s\" cannot be used", label),
				 errdetail("Its low or high level alone is not a valid label, so labelam cannot tell whether it is a trusted subject.")));

	db = avc_default_object_label(SELABEL_DB_DATABASE, database_name());
	dbprefix = db ? mls_field(db, &dbmls) : -1;
	if (dbprefix < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("security label \"%s\" cannot be used", label),
				 errdetail("The policy's sepgsql_contexts gives the database no label with a level, so labelam cannot tell whether a label with a range is a trusted subject."),
				 errhint("Install contexts/sepgsql_contexts beside the policy file.")));
	db_high = with_level(db, dbprefix, dash + 1, (int) strlen(dash + 1));
	db_low = with_level(db, dbprefix, mls, (int) (dash - mls));

	range_at_high = allowed(label, db_high);
	low_at_high = allowed(low, db_high);
	low_at_low = allowed(low, db_low);
	trusted = ((range_at_high ^ low_at_high) & (PROBE_READ | PROBE_WRITE)) != 0 ||
		(low_at_low & PROBE_READ) == 0;
	if (trusted && (allowed(high, db_low) & PROBE_WRITE) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("security label \"%s\" cannot be confined", label),
				 errdetail("At its high level alone, \"%s\" may still write objects below that level: its domain is exempt from the MLS rules at every level, so code it runs for other users could write what it reads down.",
						   high),
				 errhint("Trusted subjects need the to-clearance exemptions (mlsdbreadtoclr, mlsdbwritetoclr), as labelam's policy module grants them.")));

	pfree(low);
	pfree(db);
	pfree(db_high);
	pfree(db_low);
	if (!trusted)
	{
		pfree(high);
		return NULL;
	}
	return high;
}

/*
 * May the session's own label decide now?  Only in the one utility
 * command the client sent, with nothing nested in it (see the header
 * comment).
 */
static bool
maintenance_context(void)
{
	return avc_top_utility_only() && !avc_subject_pushed() &&
		!IsParallelWorker();
}

/*
 * Around a maintenance command's own checks: if the session is trusted and
 * in such a command, its own label decides until avc_maintenance_end
 * (returns true); otherwise nothing changes (false).  Pass the result to
 * avc_maintenance_end, also on error (PG_FINALLY).
 */
bool
avc_maintenance_begin(void)
{
	if (!avc_subject_is_narrowed() || !maintenance_context())
		return false;
	avc_subject_widen();
	return true;
}

void
avc_maintenance_end(bool widened)
{
	if (widened)
		avc_subject_narrow();
}
