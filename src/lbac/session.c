/*-------------------------------------------------------------------------
 *
 * src/lbac/session.c
 *	  The model a backend decides with, and when it takes a new one in.
 *
 * A change of the model is a transaction writing the extension's tables
 * (admin.c), which sends a relcache invalidation of lbac.levels with its
 * commit.  That is PostgreSQL's own way of telling every backend, and
 * physical standbys through the commit record, that a catalog changed; the
 * writing backend gets it at its next command, and back again when the
 * transaction rolls back.  Each backend notes it (lbac_relcache) and reads
 * the model again at the start of its next statement: the provider's
 * policy_seqno, which the avc asks at each statement's start
 * (seqno_at_statement_start), reads pending invalidations first, so that a
 * repeatable-read transaction, which takes no new locks and no new
 * snapshot, sees the change too.  Within a statement the model never
 * changes; a decision never reads a table.
 *
 * The sequence number is a hash of the model (model.c): a model read again
 * that decides alike keeps the decisions cached.
 *
 * Parallel workers cannot take a snapshot of their own (GetLatestSnapshot
 * refuses in parallel mode), and must decide with the leader's model, not
 * one committed since.  So the leader writes what workers need (every
 * component, and the authorization of its subject's role) into the setting
 * labelam.lbac_model, which workers restore with the session's settings
 * and read their model from.  It is set with PGC_S_OVERRIDE, outside the
 * transaction's undo (a rollback must not hand workers an older model than
 * the leader's), only by labelam (its check hook refuses everyone else),
 * and only when the model or the subject's role changed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"

#include "avc/avc.h"
#include "avc/provider.h"
#include "lbac/lbac_int.h"

/* the model in force, in its own context under TopMemoryContext */
static LbacModel *model = NULL;

/* an invalidation may have changed the tables since model was read */
static bool model_stale = true;

/* labelam.lbac_model, and while labelam itself sets it */
static char *lbac_model_setting = NULL;
static bool setting_model = false;

/* what the setting was last made from (leader) or read from (worker) */
static uint64 model_generation = 0;	/* models taken in */
static uint64 synced_generation = 0;
static Oid	synced_role = InvalidOid;
static uint64 worker_text_hash = 0;

static LbacModel *
take_model(LbacModel *m)
{
	MemoryContextSetParent(m->cxt, TopMemoryContext);
	if (model != NULL)
		lbac_model_free(model);
	model = m;
	model_generation++;
	return m;
}

/* changes whenever another model is taken in (for caches of its results) */
uint64
lbac_model_generation(void)
{
	return model_generation;
}

const LbacModel *
lbac_model_in_force(void)
{
	if (model == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
		LbacModel  *m = lbac_model_new();

		lbac_model_finish(m);
		MemoryContextSwitchTo(old);
		take_model(m);
	}
	return model;
}

/*
 * The role of the session's subject ("...;role=N"), or InvalidOid.
 */
static Oid
subject_role(void)
{
	const char *subject = avc_client_label();
	const char *p;

	if (subject == NULL || (p = strstr(subject, ";role=")) == NULL)
		return InvalidOid;
	return (Oid) strtoul(p + 6, NULL, 10);
}

/*
 * The leader: what its workers need, if the model or the subject's role
 * changed since it was set.
 */
void
lbac_model_sync_workers(void)
{
	Oid			role = subject_role();
	char	   *text;

	if (model == NULL || IsParallelWorker() || IsInParallelMode() ||
		(synced_generation == model_generation && synced_role == role))
		return;
	text = model->installed ?
		lbac_model_serialize(model, &role, OidIsValid(role) ? 1 : 0) :
		pstrdup("");
	if (lbac_model_setting == NULL || strcmp(text, lbac_model_setting) != 0)
	{
		setting_model = true;
		PG_TRY();
		{
			(void) set_config_option("labelam.lbac_model", text,
									 PGC_SUSET, PGC_S_OVERRIDE,
									 GUC_ACTION_SET, true, ERROR, false);
		}
		PG_FINALLY();
		{
			setting_model = false;
		}
		PG_END_TRY();
	}
	pfree(text);
	synced_generation = model_generation;
	synced_role = role;
}

/* A parallel worker: the leader's model, from the setting. */
static void
worker_model(void)
{
	const char *text = lbac_model_setting ? lbac_model_setting : "";
	uint64		h = hash_bytes_extended((const unsigned char *) text,
										strlen(text), 0);

	if (model != NULL && h == worker_text_hash)
		return;
	if (text[0] == '\0')
	{
		model_stale = false;
		(void) take_model(lbac_model_new());
		lbac_model_finish(model);
	}
	else
		(void) take_model(lbac_model_parse(text));
	worker_text_hash = h;
}

static bool
can_read_tables(void)
{
	return IsTransactionState() && !IsAbortedTransactionBlockState() &&
		!IsInParallelMode() && OidIsValid(MyDatabaseId);
}

/*
 * The provider's policy_seqno: take in a new model if the tables changed
 * (see the file header); the hash of the model in force.  Where no table
 * can be read (no transaction, an aborted one, parallel mode) the model
 * stays as it is until a statement where one can.
 */
uint64
lbac_model_revalidate(void)
{
	if (IsParallelWorker())
	{
		worker_model();
		return model->hash;
	}
	if (can_read_tables())
	{
		AcceptInvalidationMessages();
		if (model_stale || model == NULL)
		{
			MemoryContext tmp = AllocSetContextCreate(CurrentMemoryContext,
													  "labelam lbac read",
													  ALLOCSET_DEFAULT_SIZES);
			MemoryContext old = MemoryContextSwitchTo(tmp);
			LbacModel  *m;

			/* an invalidation arriving while we read makes us read again */
			model_stale = false;
			m = lbac_model_read();
			MemoryContextSwitchTo(old);
			take_model(m);
			MemoryContextDelete(tmp);

			/*
			 * Without the extension no table tells us it arrived: look
			 * again at each statement (a syscache lookup of schema lbac).
			 */
			if (!model->installed)
				model_stale = true;
		}
		lbac_model_sync_workers();
	}
	return lbac_model_in_force()->hash;
}

/* A relcache invalidation (src/hooks.c): the model may have changed. */
void
lbac_relcache(Oid relid)
{
	int			i;

	if (model_stale || model == NULL || !OidIsValid(relid))
	{
		model_stale = true;
		return;
	}
	for (i = 0; i < LBAC_NTABLES; i++)
		if (model->relids[i] == relid)
			model_stale = true;
}

/* Check hook of labelam.lbac_model: labelam, and parallel workers. */
static bool
lbac_model_setting_check(char **newval, void **extra, GucSource source)
{
	if (setting_model || InitializingParallelWorker ||
		source == PGC_S_DEFAULT)
		return true;
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg("labelam.lbac_model cannot be set directly");
	GUC_check_errdetail("It is the lbac model this session hands its parallel workers.");
	return false;
}

void
lbac_init(void)
{
	DefineCustomStringVariable("labelam.lbac_model",
							   "The lbac model this session hands its parallel workers (set by labelam).",
							   NULL,
							   &lbac_model_setting,
							   "",
							   PGC_SUSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE |
							   GUC_NO_RESET_ALL | GUC_DISALLOW_IN_FILE,
							   lbac_model_setting_check, NULL, NULL);
}
