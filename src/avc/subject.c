/*-------------------------------------------------------------------------
 *
 * src/avc/subject.c
 *	  Who decides: the session's subject label, a trusted session's
 *	  narrowed label and its widening (trusted.c, maintenance.c), and the
 *	  subjects of trusted procedures.
 *
 * The subject's text is labels.c's avc_subject and its local id
 * avc_subject_lid (ids die with the local labels); decide.c decides with
 * them.  Whatever changes the subject empties the cache's fast path and
 * moves avc_decision_epoch, so that nothing derived from the last
 * subject's decisions is used for the next.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "avc/avc_objects.h"
#include "avc/cache.h"

/*
 * A trusted session (trusted.c): avc_session_subject is its own label, and
 * avc_subject its narrowed label, with whose decisions the own label's
 * are ANDed (avc_subject_and; avc_and_lid its local id), except while
 * avc_subject_widen() lets the own label decide alone.  Whether the
 * session is trusted is known (avc_trust_known) for the policy with
 * sequence number avc_trust_seqno, and settled again under a new one.  For
 * other sessions avc_subject is avc_session_subject and nothing is ANDed.
 */
static char *avc_session_subject = NULL;	/* TopMemoryContext */
static char *avc_narrowed_subject = NULL;	/* TopMemoryContext */
static bool avc_subject_and = false;
static bool avc_widened = false;
static bool avc_trust_known = false;
static uint64 avc_trust_seqno = 0;
static bool avc_trust_settling = false;

#define avc_trust_unsettled() \
	(!avc_trust_known || avc_trust_seqno != avc_seqno)

/* trusted procedures running (avc_push_subject) */
static int	avc_pushed = 0;
/* the decision subject's text becomes label (copied; NULL for none) */
static void
avc_subject_text(const char *label)
{
	char	   *copy = NULL;

	if (label != NULL)
		copy = MemoryContextStrdup(TopMemoryContext, label);
	if (avc_subject)
		pfree(avc_subject);
	avc_subject = copy;
	avc_subject_lid = 0;
	avc_and_lid = 0;
}

/* The session's label changed (or was set at connection): start over. */
void
avc_set_subject(const char *label)
{
	if (avc_session_subject)
		pfree(avc_session_subject);
	avc_session_subject = NULL;
	if (label != NULL && label[0] != '\0')
		avc_session_subject = MemoryContextStrdup(TopMemoryContext, label);
	avc_subject_text(avc_session_subject);
	avc_subject_and = false;
	avc_widened = false;
	avc_trust_known = false;
	avc_cache_reset();
}

/*
 * the decisions a change of subject may have made stale are forgotten (and
 * what follows avc_decision_epoch: table_label.c's labels of new rows)
 */
static void
avc_subject_changed(void)
{
	avc_decision_epoch++;
	avc_fast_forget();
}

/*
 * Is the session trusted (trusted.c), under the policy in force?  Settled
 * once a policy, when the subject is the session's own (not a trusted
 * procedure's, not widened).  An ERROR (a label that cannot be confined)
 * leaves it unsettled, so every later decision fails too.
 */
static void
avc_trust_settle(void)
{
	char	   *narrowed;

	if (!avc_trust_unsettled() || avc_pushed > 0 || avc_widened ||
		avc_trust_settling)
		return;
	if (avc_session_subject == NULL)
	{
		avc_trust_known = true;
		avc_trust_seqno = avc_seqno;
		return;
	}
	avc_trust_settling = true;
	PG_TRY();
	{
		narrowed = avc_trusted_narrowed(avc_session_subject);
	}
	PG_FINALLY();
	{
		avc_trust_settling = false;
	}
	PG_END_TRY();
	avc_trust_known = true;
	avc_trust_seqno = avc_seqno;
	if (avc_narrowed_subject)
		pfree(avc_narrowed_subject);
	avc_narrowed_subject = NULL;
	if (narrowed != NULL)
	{
		avc_narrowed_subject = MemoryContextStrdup(TopMemoryContext, narrowed);
		pfree(narrowed);
	}
	avc_subject_text(avc_narrowed_subject ? avc_narrowed_subject :
					 avc_session_subject);
	avc_subject_and = avc_narrowed_subject != NULL;
	avc_subject_changed();
}

/* the label decisions are made with (a trusted session's narrowed one) */
const char *
avc_client_label(void)
{
	if (unlikely(avc_trust_unsettled()) && avc_session_subject != NULL &&
		!avc_trust_settling)
	{
		if (unlikely(avc_revalidate_pending))
			avc_revalidate();
		avc_trust_settle();
	}
	return avc_subject;
}

/* the session's own label (labelam.session_label), whatever decides */
const char *
avc_session_label_text(void)
{
	return avc_session_subject;
}

bool
avc_session_trusted(void)
{
	(void) avc_client_label();
	return avc_narrowed_subject != NULL;
}

/*
 * Does the session decide with its narrowed label now (not widened, no
 * trusted procedure running)?
 */
bool
avc_subject_is_narrowed(void)
{
	(void) avc_client_label();
	return avc_subject_and && !avc_widened && avc_pushed == 0;
}

/* trusted.c: the session's own label decides alone, until narrowed again */
void
avc_subject_widen(void)
{
	Assert(avc_subject_is_narrowed());
	avc_widened = true;
	avc_subject_text(avc_session_subject);
	avc_subject_and = false;
	avc_subject_changed();
}

void
avc_subject_narrow(void)
{
	if (!avc_widened)
		return;
	avc_widened = false;
	avc_subject_text(avc_narrowed_subject);
	avc_subject_and = avc_narrowed_subject != NULL;
	if (avc_narrowed_subject == NULL)	/* settled anew meanwhile */
		avc_subject_text(avc_session_subject);
	avc_subject_changed();
}

/*
 * Local id of the session's subject, or 0 if the process has none.  The
 * first use of the cache in a statement may start it over (avc_revalidate),
 * so that happens before an id is handed out: callers pass it straight to
 * avc_decide.
 */
uint32
avc_subject_local_id(void)
{
	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	if (unlikely(avc_trust_unsettled()))
		avc_trust_settle();
	if (avc_subject == NULL)
		return 0;
	if (avc_subject_lid == 0)
	{
		uint32		lid = avc_local_id(avc_subject);

		avc_subject_lid = lid;
		avc_and_lid = avc_subject_and ? avc_local_id(avc_session_subject) : 0;
	}
	return avc_subject_lid;
}
uint32
avc_require_subject(void)
{
	uint32		subject = avc_subject_local_id();

	if (subject == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label"),
				 errhint("Processes without a user session get a label from labelam.default_client_label.")));
	return subject;
}

/*
 * A trusted procedure runs with another subject: the row filter, object
 * checks and new labels all follow it until avc_pop_subject.  Decisions
 * stay cached (they are keyed by subject); only the fast path, which is the
 * subject's own, is emptied.
 */
AvcSubjectSave
avc_push_subject(const char *label)
{
	AvcSubjectSave save;

	save.text = avc_subject;
	save.lid = avc_subject_lid;
	save.narrowed = avc_subject_and;
	avc_subject = MemoryContextStrdup(TopMemoryContext, label);
	avc_subject_lid = 0;
	avc_subject_and = false;
	avc_and_lid = 0;
	avc_decision_epoch++;
	avc_fast_forget();
	avc_pushed++;
	return save;
}

void
avc_pop_subject(AvcSubjectSave save)
{
	Assert(avc_pushed > 0);
	if (avc_subject)
		pfree(avc_subject);
	avc_subject = save.text;
	avc_subject_and = save.narrowed;
	/* the cache may have started over meanwhile: look the id up again */
	avc_subject_lid = 0;
	avc_and_lid = 0;
	avc_decision_epoch++;
	avc_fast_forget();
	avc_pushed--;
}

bool
avc_subject_pushed(void)
{
	return avc_pushed > 0;
}
