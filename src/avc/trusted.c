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
 * (avc_maintenance_begin, maintenance.c): there the session's own label decides.
 *
 * Which labels are trusted: a label with a range (low != high) of an MLS
 * policy whose decisions at the range's high level differ from those of
 * the same label at its low level, in a read or write permission: the
 * range, not only the low level, decides.  The objects asked about
 * (avc_trusted_narrowed) are the database's default label and the
 * policy's "unlabeled" context, at the high level.  Under the stock MLS
 * policy a range reads and writes at its low level only (no difference:
 * not trusted, decided as before).  MCS constraints compare high levels:
 * an unconstrained type's range decides as its low level, a constrained
 * type's as its high level, which may write below itself (not trusted
 * either, below).  If neither object tells (the low level holds no permission
 * on them), the label is taken as trusted: the conjunction only ever takes
 * permissions away.  A narrowed label that still writes below its
 * clearance (a domain with mlsdbwrite, which ignores levels) cannot be
 * confined: the session is refused (42501), unless its range stays within
 * one sensitivity, as MCS ranges do: MCS lets every label write below its
 * high level, so there is nothing to confine, and the range decides as
 * before.
 *
 * Where the session's own label decides instead: maintenance.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/label.h>

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
#define DB_DATABASE_ACCESS		(1U << 6)
#define DB_DATABASE_LOAD_MODULE	(1U << 7)
#define DB_DATABASE_INSTALL_MODULE (1U << 8)
#define DB_DATABASE_GET_PARAM	(1U << 9)
#define DB_DATABASE_SET_PARAM	(1U << 10)

/*
 * A probe: an object label, its class, and which of the class's
 * permissions the MLS constraints treat as reads and as writes (relabelto
 * is neither: it compares high levels only).
 */
typedef struct Probe
{
	char	   *label;
	AvcClass	tclass;
	uint32		read;
	uint32		write;
} Probe;

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
allowed(const char *scon, const char *tcon, AvcClass tclass)
{
	AvcDecision d;

	avc_provider->compute_av(scon, tcon, tclass, &d);
	return d.allowed;
}

/*
 * The narrowed label of a trusted session label (palloc'd, canonical), or
 * NULL if label is not a trusted subject (see the header comment).  ERROR
 * (42501) if it is one that cannot be confined.
 *
 * Probes: the database's default label (db_database), when the policy's
 * sepgsql_contexts gives one, and the policy's "unlabeled" context
 * (db_tuple), on which administrators' domains have some permissions.  A
 * probe tells only where the label's low level holds some permission on
 * it at that level (type enforcement grants it): then the MLS constraints
 * alone decide, at the high level, whether the range decides differently
 * from the low level.  If no probe tells, the label is taken as trusted:
 * the conjunction with the narrowed label only ever takes permissions
 * away.
 */
char *
avc_trusted_narrowed(const char *label)
{
	const char *mls;
	const char *dash;
	char	   *lo;
	char	   *hi;
	char	   *low;
	char	   *high;
	Probe		probes[2];
	int			nprobes = 0;
	char	   *db;
	bool		told = false;
	bool		trusted = false;
	bool		confined = true;
	int			i;

	if (label == NULL || avc_debug_opaque_labels ||
		!avc_provider->mls_enabled())
		return NULL;
	if ((mls = avc_labels_mls(label)) == NULL ||
		(dash = strchr(mls, '-')) == NULL)
		return NULL;
	lo = pnstrdup(mls, dash - mls);
	hi = pstrdup(dash + 1);
	low = avc_labels_with_level(label, lo);
	high = avc_labels_with_level(label, hi);
	if (!avc_provider->valid(low) || !avc_provider->valid(high))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("security label \"%s\" cannot be used", label),
				 errdetail("Its low or high level alone is not a valid label, so labelam cannot tell whether it is a trusted subject.")));

	db = avc_default_object_label(SELABEL_DB_DATABASE, database_name());
	if (db != NULL && avc_labels_mls(db) != NULL)
	{
		probes[nprobes].label = db;
		probes[nprobes].tclass = AVC_CLASS_DB_DATABASE;
		probes[nprobes].read = DB_DATABASE_GETATTR | DB_DATABASE_ACCESS |
			DB_DATABASE_GET_PARAM;
		probes[nprobes].write = DB_DATABASE_CREATE | DB_DATABASE_DROP |
			DB_DATABASE_SETATTR | DB_DATABASE_RELABELFROM |
			DB_DATABASE_SET_PARAM | DB_DATABASE_LOAD_MODULE |
			DB_DATABASE_INSTALL_MODULE;
		nprobes++;
	}
	probes[nprobes].label = avc_provider->unlabeled();
	probes[nprobes].tclass = AVC_CLASS_DB_TUPLE;
	probes[nprobes].read = AVC_DB_TUPLE_SELECT;
	probes[nprobes].write = AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_UPDATE |
		AVC_DB_TUPLE_DELETE | AVC_DB_TUPLE_RELABELFROM;
	nprobes++;

	for (i = 0; i < nprobes; i++)
	{
		Probe	   *p = &probes[i];
		char	   *at_low = avc_labels_with_level(p->label, lo);
		char	   *at_high = avc_labels_with_level(p->label, hi);
		uint32		granted;

		if (at_low == NULL || !avc_provider->valid(at_low) ||
			!avc_provider->valid(at_high))
			continue;
		/* what type enforcement grants the low level, at its own level */
		granted = allowed(low, at_low, p->tclass) & (p->read | p->write);
		if (granted == 0)
			continue;
		told = true;
		if (((allowed(label, at_high, p->tclass) ^
			  allowed(low, at_high, p->tclass)) & granted) != 0)
			trusted = true;
		/* the narrowed label must not write below itself */
		if ((allowed(high, at_low, p->tclass) & p->write) != 0)
			confined = false;
	}
	if (!told)
		trusted = true;

	/*
	 * A clearance that may write below itself: under MCS every label may
	 * (its constraints compare high levels only), so there is no write
	 * down to prevent and the range decides as before; a range across
	 * sensitivities is MLS, where only an exemption that ignores levels
	 * (mlsdbwrite) allows it, and code the session runs could not be held
	 * to its clearance: refused.
	 */
	if (trusted && !confined &&
		strcspn(lo, ":") == strcspn(hi, ":") &&
		strncmp(lo, hi, strcspn(lo, ":")) == 0)
		trusted = false;
	else if (trusted && !confined)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("security label \"%s\" cannot be confined", label),
				 errdetail("At its high level alone, \"%s\" may still write objects below that level: its domain is exempt from the MLS rules at every level, so code it runs for other users could write what it reads down.",
						   high),
				 errhint("Trusted subjects need the to-clearance exemptions (mlsdbreadtoclr, mlsdbwritetoclr), as labelam's policy module grants them.")));

	pfree(lo);
	pfree(hi);
	pfree(low);
	if (!trusted)
	{
		pfree(high);
		return NULL;
	}
	return high;
}
