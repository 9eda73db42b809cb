/*-------------------------------------------------------------------------
 *
 * src/avc/statistics.c
 *	  Decisions for ANALYZE's sample: the statistics subject
 *	  (labelam.statistics_label, else labelam.default_client_label), never
 *	  the session's label, so that pg_statistic holds values of the same
 *	  rows whoever runs ANALYZE, autovacuum included.
 *
 * The subject has a one-entry fast path of its own, so that sampling does
 * not evict the session's entries (cache.c), and its decisions are not
 * audited: they are not the session's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/elog.h"

#include "avc/avc_internal.h"

/*
 * The statistics subject: its local id (0 with stats_resolved: none) and
 * its fast path.  Resolved again when the decision epoch moves (a reset of
 * the cache: local ids start over; a new policy or mode) and after either
 * setting it comes from changes.
 */
static uint32 avc_stats_lid = 0;
static bool avc_stats_resolved = false;
static uint64 avc_stats_epoch = 0;	/* avc_decision_epoch it was resolved at */
static uint64 avc_stats_fast_object = 0;	/* kind << 32 | object; 0: empty */
static AvcDecision avc_stats_fast_avd;

/*
 * Assign hook of labelam.statistics_label and labelam.default_client_label:
 * resolve the statistics subject again at its next use.  (Hooks must not
 * ERROR, nor canonicalize: they also run in the postmaster.)
 */
void
avc_statistics_subject_changed(const char *newval, void *extra)
{
	avc_stats_resolved = false;
	avc_stats_fast_object = 0;
}

/* a bad setting must say which one it is */
static void
avc_statistics_error_context(void *arg)
{
	errcontext("security label of %s, with which ANALYZE samples rows",
			   (const char *) arg);
}

/* Local id of the statistics subject, or 0 if there is none. */
static uint32
avc_statistics_local_id(void)
{
	if (!avc_stats_resolved || avc_stats_epoch != avc_decision_epoch)
	{
		const char *setting = avc_statistics_label;
		const char *name = "labelam.statistics_label";

		if (setting == NULL || setting[0] == '\0')
		{
			setting = avc_default_client_label;
			name = "labelam.default_client_label";
		}
		avc_stats_lid = 0;
		avc_stats_fast_object = 0;
		if (setting != NULL && setting[0] != '\0')
		{
			ErrorContextCallback errcallback;
			char	   *canon;

			errcallback.callback = avc_statistics_error_context;
			errcallback.arg = (void *) name;
			errcallback.previous = error_context_stack;
			error_context_stack = &errcallback;
			canon = avc_canonicalize(setting);
			if (!avc_provider->valid(canon))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid security label \"%s\"", setting)));
			error_context_stack = errcallback.previous;

			/* may reset the cache (a new policy): take the id after it */
			avc_stats_lid = avc_local_id(canon);
			pfree(canon);
		}
		avc_stats_resolved = true;
		avc_stats_epoch = avc_decision_epoch;
	}
	return avc_stats_lid;
}

bool
avc_check_tuple_for_statistics(Relation rel, Oid object_secid, uint32 perms)
{
	uint64		fkey = ((uint64) AVC_OBJ_SECID << 32) | object_secid;
	AvcDecision d;
	uint32		subject;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	subject = avc_statistics_local_id();
	if (likely(fkey == avc_stats_fast_object && fkey != 0))
	{
		d = avc_stats_fast_avd;
	}
	else if (avc_decide(AVC_CLASS_DB_TUPLE, subject, AVC_OBJ_SECID,
						object_secid, &d))
	{
		avc_stats_fast_object = fkey;
		avc_stats_fast_avd = d;
	}

	/*
	 * Permissive or not: statistics outlive the mode they were gathered in
	 * (pg_statistic is read by whoever may read the table), so a sample
	 * taken in permissive mode must hold nothing the statistics subject
	 * may not select once denials are enforced again.
	 */
	return (d.allowed & perms) == perms;
}

