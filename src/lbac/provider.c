/*-------------------------------------------------------------------------
 *
 * src/lbac/provider.c
 *	  Policy provider "lbac": the avc's questions (provider.h) answered
 *	  with the model of the database (session.c) and Oracle Label
 *	  Security's algorithms (decide.c).
 *
 * labelam's permissions of class db_tuple map onto OLS's accesses:
 * select is read access; insert, update, delete, relabelfrom and
 * relabelto are write access (so a row inserted at a label of the
 * session's choosing needs write access to it, as OLS's INSERT_CONTROL,
 * and nothing more).  Changing a row's label needs write access to both
 * labels and LABEL_UPDATE's privileges, a rule on the pair
 * (compute_relabel).  Class process is the session label: setcurrent for
 * a role the model authorizes, dyntransition to a label within the
 * authorization of the role of the new subject, which must be the same
 * role unless the session holds PROFILE_ACCESS.  No other class means
 * anything here: object checks cannot be turned on under lbac.
 *
 * Subjects are "LABEL;role=OID" (see label.c): the avc caches decisions
 * by subject text, and a decision depends on the text and the model only.
 *
 * Everything a call allocates goes in a scratch context, emptied at the
 * next call; results are copied into the caller's context, and errors are
 * raised from it (a caller that catches an error goes on in its own
 * context, never in one the next call empties).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "avc/avc.h"
#include "avc/provider.h"
#include "lbac/lbac_int.h"

/* what stands for a stored label the model no longer knows */
#define LBAC_UNLABELED	"(unlabeled)"

static MemoryContext scratch = NULL;

/* Switch to an emptied scratch context; returns the caller's. */
static MemoryContext
scratch_begin(void)
{
	if (scratch == NULL)
		scratch = AllocSetContextCreate(TopMemoryContext, "labelam lbac",
										ALLOCSET_SMALL_SIZES);
	else
		MemoryContextReset(scratch);
	return MemoryContextSwitchTo(scratch);
}

/* Back to the caller's context, with a copy of text there. */
static char *
scratch_end(MemoryContext caller, const char *text)
{
	MemoryContextSwitchTo(caller);
	return text ? pstrdup(text) : NULL;
}

/* Parse label text, or raise the parser's error from the caller's context. */
static void
parse_label_or_fail(const LbacModel *m, const char *text, LbacLabel *l,
					MemoryContext caller)
{
	if (!lbac_parse_label(m, text, l, false))
	{
		MemoryContextSwitchTo(caller);
		(void) lbac_parse_label(m, text, l, true);
		elog(ERROR, "labelam: lbac label \"%s\" parsed only once", text);
	}
}

static void
lb_startup(void)
{
	if (!IsUnderPostmaster)
		ereport(LOG,
				(errmsg("labelam: lbac provider: each database's label model is read from its schema lbac; object checks (SELinux object classes) do not apply")));
}

static uint64
lb_policy_seqno(void)
{
	return lbac_model_revalidate();
}

static const char *
lb_policy_rejected(TimestampTz *when)
{
	return NULL;
}

static bool
lb_enforcing(void)
{
	return true;
}

static char *
lb_peer_label(Port *port)
{
	return NULL;
}

static char *
lb_canonicalize(const char *label)
{
	MemoryContext caller = scratch_begin();
	const LbacModel *m = lbac_model_in_force();
	LbacLabel	l;

	parse_label_or_fail(m, label, &l, caller);
	return scratch_end(caller, lbac_label_text(m, &l));
}

static bool
lb_valid(const char *label)
{
	MemoryContext caller = scratch_begin();
	LbacLabel	l;
	bool		ok = lbac_parse_label(lbac_model_in_force(), label, &l, false);

	MemoryContextSwitchTo(caller);
	return ok;
}

static char *
lb_unlabeled(void)
{
	return pstrdup(LBAC_UNLABELED);
}

/* a row's label; NULL for the "unlabeled" stand-in */
static LbacLabel *
row_label(const LbacModel *m, const char *tcon, MemoryContext caller)
{
	LbacLabel  *l;

	if (strcmp(tcon, LBAC_UNLABELED) == 0)
		return NULL;
	l = palloc(sizeof(LbacLabel));
	parse_label_or_fail(m, tcon, l, caller);
	return l;
}

/*
 * The last subject decided for, parsed: nearly every decision of a
 * backend is its session's, and parsing a subject costs more than a
 * decision (a label of many compartments, the authorization's sets).
 * Kept in its own context for as long as the model and the text stay.
 */
static MemoryContext subject_cxt = NULL;
static char *subject_text = NULL;
static uint64 subject_generation = 0;
static LbacUser subject_parsed;

/*
 * The subject as decisions see it.  A session label that names a
 * component dropped since decides as no label (the role's privileges
 * still count) until the session sets another.
 */
static void
subject_user(const LbacModel *m, const char *scon, LbacUser *u)
{
	MemoryContext old;
	LbacSubject s;

	if (subject_text == NULL || subject_generation != lbac_model_generation() ||
		strcmp(subject_text, scon) != 0)
	{
		if (subject_cxt == NULL)
			subject_cxt = AllocSetContextCreate(TopMemoryContext,
												"labelam lbac subject",
												ALLOCSET_SMALL_SIZES);
		MemoryContextReset(subject_cxt);
		subject_text = NULL;
		old = MemoryContextSwitchTo(subject_cxt);
		if (!lbac_parse_subject(m, scon, &s, false))
			s.has_label = false;
		lbac_user(m, &s, &subject_parsed);
		subject_text = pstrdup(scon);
		subject_generation = lbac_model_generation();
		MemoryContextSwitchTo(old);
	}
	*u = subject_parsed;
	/* a label alone is its own authorization, inside the struct */
	if (subject_parsed.auth == &subject_parsed.own)
		u->auth = &u->own;
}

static void
lb_compute_av(const char *scon, const char *tcon, AvcClass tclass,
			  AvcDecision *avd)
{
	MemoryContext caller = scratch_begin();
	const LbacModel *m = lbac_model_in_force();
	LbacUser	u;

	memset(avd, 0, sizeof(*avd));
	subject_user(m, scon, &u);
	if (tclass == AVC_CLASS_DB_TUPLE)
	{
		LbacLabel  *row = row_label(m, tcon, caller);

		if (lbac_read(&u, row))
			avd->allowed |= AVC_DB_TUPLE_SELECT;
		if (lbac_write(&u, row))
			avd->allowed |= AVC_DB_TUPLE_INSERT | AVC_DB_TUPLE_UPDATE |
				AVC_DB_TUPLE_DELETE | AVC_DB_TUPLE_RELABELFROM |
				AVC_DB_TUPLE_RELABELTO;
	}
	else if (tclass == AVC_CLASS_PROCESS)
	{
		LbacSubject t;

		/* a session of a role the model knows may change its label ... */
		if (u.auth != NULL && u.auth != &u.own)
			avd->allowed |= AVC_PROCESS_SETCURRENT;

		/*
		 * ... to a label within the authorization of the new subject's
		 * role, its own unless it holds PROFILE_ACCESS
		 */
		if (lbac_parse_subject(m, tcon, &t, false) &&
			avd->allowed != 0 && t.has_role && t.has_label)
		{
			LbacSubject s;

			(void) lbac_parse_subject(m, scon, &s, false);
			if ((t.role == s.role || (u.privs & LBAC_PRIV_PROFILE_ACCESS)) &&
				lbac_within(m, lbac_find_auth(m, t.role), &t.label))
				avd->allowed |= AVC_PROCESS_DYNTRANSITION;
		}
	}
	avd->auditdeny = ~avd->allowed;
	MemoryContextSwitchTo(caller);
}

static void
lb_compute_relabel(const char *scon, const char *from, const char *to,
				   AvcDecision *avd)
{
	MemoryContext caller = scratch_begin();
	const LbacModel *m = lbac_model_in_force();
	LbacUser	u;
	LbacLabel  *f;
	LbacLabel  *t;
	bool		ok;

	memset(avd, 0, sizeof(*avd));
	subject_user(m, scon, &u);
	f = row_label(m, from, caller);
	t = row_label(m, to, caller);
	if (f == NULL || t == NULL)
		ok = (u.privs & LBAC_PRIV_FULL) != 0;
	else
		ok = lbac_label_change(&u, f, t);
	if (ok)
		avd->allowed = AVC_DB_TUPLE_RELABELTO;
	avd->auditdeny = ~avd->allowed;
	MemoryContextSwitchTo(caller);
}

static bool
lb_defines(AvcClass tclass, uint32 perm)
{
	if (tclass == AVC_CLASS_DB_TUPLE)
		return (perm & (AVC_DB_TUPLE_ALL & ~AVC_DB_TUPLE_USE)) != 0;
	if (tclass == AVC_CLASS_PROCESS)
		return (perm & (AVC_PROCESS_SETCURRENT | AVC_PROCESS_DYNTRANSITION)) != 0;
	return false;
}

static char *
lb_compute_create(const char *scon, const char *tcon, AvcClass tclass,
				  const char *objname)
{
	MemoryContext caller = scratch_begin();
	const LbacModel *m = lbac_model_in_force();
	LbacUser	u;
	LbacLabel	l;

	if (tclass != AVC_CLASS_DB_TUPLE)
	{
		MemoryContextSwitchTo(caller);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the lbac provider labels rows only, not objects of class %s",
						avc_class_names[tclass])));
	}
	subject_user(m, scon, &u);
	if (!u.has_label)
	{
		MemoryContextSwitchTo(caller);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the session has no lbac label to give new rows"),
				 errdetail("The subject \"%s\" has no session label within an authorization of the lbac model.",
						   scon),
				 errhint("An administrator gives the role levels with lbac.set_levels(); a row may also be given a label of its own (labelam.insert_label).")));
	}
	lbac_row_label(&u, &l);
	return scratch_end(caller, lbac_label_text(m, &l));
}

static bool
lb_mls_enabled(void)
{
	return true;
}

static const char *
lb_policy_source(void)
{
	return "lbac model (schema lbac)";
}

/* the role of subject text, or InvalidOid */
static Oid
text_role(const char *subject)
{
	const char *p = subject ? strstr(subject, ";role=") : NULL;

	return p ? (Oid) strtoul(p + 6, NULL, 10) : InvalidOid;
}

/*
 * A label asked for as a subject: "LABEL;role=OID", or a label alone,
 * which takes the role of the subject asking, if it has one (so that
 * labelam.set_client_label('S') moves the session within its own
 * authorization).
 */
static char *
lb_canonicalize_subject(const char *label, const char *current)
{
	MemoryContext caller = scratch_begin();
	const LbacModel *m = lbac_model_in_force();
	LbacSubject s;

	if (!lbac_parse_subject(m, label, &s, false))
	{
		MemoryContextSwitchTo(caller);
		(void) lbac_parse_subject(m, label, &s, true);
		elog(ERROR, "labelam: lbac subject \"%s\" parsed only once", label);
	}
	if (!s.has_role && OidIsValid(text_role(current)))
	{
		s.has_role = true;
		s.role = text_role(current);
	}
	if (s.has_role && !SearchSysCacheExists1(AUTHOID, ObjectIdGetDatum(s.role)))
	{
		MemoryContextSwitchTo(caller);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\"", label),
				 errdetail("Role with OID %u does not exist.", s.role)));
	}
	return scratch_end(caller, lbac_subject_text(m, &s));
}

/*
 * A session of role starts at its authorization's default label; a role
 * the model does not authorize gets a subject without a label, which
 * reads and writes nothing (but what privileges give).
 */
static char *
lb_session_subject(Oid roleid)
{
	MemoryContext caller;
	const LbacModel *m;
	const LbacAuth *a;
	LbacSubject s;

	(void) lbac_model_revalidate();
	caller = scratch_begin();
	m = lbac_model_in_force();
	a = lbac_find_auth(m, roleid);
	memset(&s, 0, sizeof(s));
	s.has_role = true;
	s.role = roleid;
	if (a != NULL && a->has_levels)
	{
		s.has_label = true;
		lbac_default_label(a, &s.label);
	}
	return scratch_end(caller, lbac_subject_text(m, &s));
}

const AvcProvider avc_lbac_provider = {
	.name = "lbac",
	.startup = lb_startup,
	.policy_seqno = lb_policy_seqno,
	.policy_rejected = lb_policy_rejected,
	.enforcing = lb_enforcing,
	.peer_label = lb_peer_label,
	.canonicalize = lb_canonicalize,
	.valid = lb_valid,
	.unlabeled = lb_unlabeled,
	.compute_av = lb_compute_av,
	.defines = lb_defines,
	.compute_create = lb_compute_create,
	.mls_enabled = lb_mls_enabled,
	.policy_source = lb_policy_source,
	.object_classes = false,
	.seqno_at_statement_start = true,
	.canonicalize_subject = lb_canonicalize_subject,
	.session_subject = lb_session_subject,
	.compute_relabel = lb_compute_relabel,
};
