/*-------------------------------------------------------------------------
 *
 * src/lbac/sql.c
 *	  lbac's SQL functions on labels and on the session: dominance and
 *	  bounds (as Oracle Label Security's DOMINATES, STRICTLY_DOMINATES,
 *	  LEAST_UBOUND, GREATEST_LBOUND), the canonical form of a label, the
 *	  session label and how it changes (SA_SESSION.SET_LABEL and
 *	  SET_ACCESS_PROFILE), and the model written out as SQL.
 *
 * Labels are parsed against the model the statement decides with; these
 * functions need labelam.provider = lbac (the administration functions,
 * admin.c, do not: a model can be prepared before the switch).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"

#include "avc/avc.h"
#include "avc/provider.h"
#include "lbac/lbac_int.h"

PG_FUNCTION_INFO_V1(lbac_dominates_sql);
PG_FUNCTION_INFO_V1(lbac_strictly_dominates_sql);
PG_FUNCTION_INFO_V1(lbac_least_ubound);
PG_FUNCTION_INFO_V1(lbac_greatest_lbound);
PG_FUNCTION_INFO_V1(lbac_canonical);
PG_FUNCTION_INFO_V1(lbac_session_label);
PG_FUNCTION_INFO_V1(lbac_set_session_label);
PG_FUNCTION_INFO_V1(lbac_set_access_profile);
PG_FUNCTION_INFO_V1(lbac_dump_model);

/* The model for lbac's SQL functions on labels: only under lbac. */
static const LbacModel *
lbac_model_for_sql(void)
{
	if (avc_provider != &avc_lbac_provider)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the lbac provider is not in force"),
				 errdetail("labelam.provider is \"%s\".", avc_provider->name),
				 errhint("Set labelam.provider = lbac in postgresql.conf and restart the server.")));
	return lbac_model_in_force();
}

static void
two_labels(FunctionCallInfo fcinfo, const LbacModel *m, LbacLabel *a,
		   LbacLabel *b)
{
	(void) lbac_parse_label(m, text_to_cstring(PG_GETARG_TEXT_PP(0)), a, true);
	(void) lbac_parse_label(m, text_to_cstring(PG_GETARG_TEXT_PP(1)), b, true);
}

Datum
lbac_dominates_sql(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	LbacLabel	a;
	LbacLabel	b;

	two_labels(fcinfo, m, &a, &b);
	PG_RETURN_BOOL(lbac_dominates(m, &a, &b));
}

/* a dominates b and is another label */
Datum
lbac_strictly_dominates_sql(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	LbacLabel	a;
	LbacLabel	b;

	two_labels(fcinfo, m, &a, &b);
	PG_RETURN_BOOL(lbac_dominates(m, &a, &b) &&
				   strcmp(lbac_label_text(m, &a), lbac_label_text(m, &b)) != 0);
}

/* the higher level, every compartment and every group of both */
Datum
lbac_least_ubound(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	LbacLabel	a;
	LbacLabel	b;
	LbacLabel	r;

	two_labels(fcinfo, m, &a, &b);
	r.level = Max(a.level, b.level);
	r.comps = bms_union(a.comps, b.comps);
	r.groups = bms_union(a.groups, b.groups);
	PG_RETURN_TEXT_P(cstring_to_text(lbac_label_text(m, &r)));
}

/* the lower level, the compartments and the groups both have */
Datum
lbac_greatest_lbound(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	LbacLabel	a;
	LbacLabel	b;
	LbacLabel	r;

	two_labels(fcinfo, m, &a, &b);
	r.level = Min(a.level, b.level);
	r.comps = bms_intersect(a.comps, b.comps);
	r.groups = bms_intersect(a.groups, b.groups);
	PG_RETURN_TEXT_P(cstring_to_text(lbac_label_text(m, &r)));
}

Datum
lbac_canonical(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	LbacLabel	l;

	(void) lbac_parse_label(m, text_to_cstring(PG_GETARG_TEXT_PP(0)), &l, true);
	PG_RETURN_TEXT_P(cstring_to_text(lbac_label_text(m, &l)));
}

/*
 * The label the session works at: its session label as its role's
 * authorization bounds it now, or NULL if it has none.
 */
Datum
lbac_session_label(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	const char *subject = avc_client_label();
	LbacSubject s;
	LbacUser	u;
	LbacLabel	l;

	if (subject == NULL || !lbac_parse_subject(m, subject, &s, false))
		PG_RETURN_NULL();
	lbac_user(m, &s, &u);
	if (!u.has_label)
		PG_RETURN_NULL();
	l.level = u.level;
	l.comps = u.comps;
	l.groups = u.groups;
	PG_RETURN_TEXT_P(cstring_to_text(lbac_label_text(m, &l)));
}

/*
 * set_session_label(label): labelam.set_client_label with the label
 * given, which keeps the session's role; the provider allows labels within
 * the role's authorization (provider.c).
 */
Datum
lbac_set_session_label(PG_FUNCTION_ARGS)
{
	(void) lbac_model_for_sql();
	avc_set_client_label(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	return lbac_session_label(fcinfo);
}

/*
 * set_access_profile(role): the session takes on the authorization of
 * another role, at that role's default label; needs PROFILE_ACCESS (the
 * provider's dyntransition between subjects of two roles).
 */
Datum
lbac_set_access_profile(PG_FUNCTION_ARGS)
{
	const LbacModel *m = lbac_model_for_sql();
	Oid			role = get_role_oid(NameStr(*PG_GETARG_NAME(0)), false);
	const LbacAuth *a = lbac_find_auth(m, role);
	LbacSubject s;

	if (a == NULL || !a->has_levels)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("role \"%s\" has no levels in the lbac model",
						NameStr(*PG_GETARG_NAME(0)))));
	memset(&s, 0, sizeof(s));
	s.has_role = true;
	s.role = role;
	s.has_label = true;
	lbac_default_label(a, &s.label);
	avc_set_client_label(lbac_subject_text(m, &s));
	lbac_model_sync_workers();
	return lbac_session_label(fcinfo);
}

static void
append_literal_list(StringInfo buf, const LbacModel *m, LbacKind kind,
					const Bitmapset *set)
{
	int			x = -1;
	bool		first = true;

	appendStringInfoString(buf, ", '");
	while ((x = bms_next_member(set, x)) >= 0)
	{
		appendStringInfo(buf, "%s%s", first ? "" : ",", m->comp[kind][x].name);
		first = false;
	}
	appendStringInfoChar(buf, '\'');
}

/* the depth of group g in the tree */
static int
group_depth(const LbacModel *m, int g)
{
	int			depth = 0;

	while ((g = m->comp[LBAC_GROUP][g].parent) >= 0 &&
		   depth <= m->n[LBAC_GROUP])
		depth++;
	return depth;
}

/*
 * dump_model(): the model as calls of lbac's functions, to run in another
 * database (where the roles exist) before its rows are restored: pg_dump
 * does not carry the model, whose tables only lbac's functions write.
 */
Datum
lbac_dump_model(PG_FUNCTION_ARGS)
{
	LbacModel  *m = lbac_model_read();
	StringInfoData buf;
	int			kind;
	int			i;
	int			depth;
	int			s;
	static const char *const fn[LBAC_NKINDS] = {
		"create_level", "create_compartment", "create_group"
	};

	initStringInfo(&buf);
	appendStringInfoString(&buf, "-- the lbac model (labelam), as lbac.dump_model() wrote it\n");
	for (kind = 0; kind < LBAC_NKINDS; kind++)
		for (depth = 0; depth <= (kind == LBAC_GROUP ? m->n[kind] : 0); depth++)
			for (i = 0; i < m->n[kind]; i++)
			{
				LbacComponent *c = &m->comp[kind][i];

				if (kind == LBAC_GROUP && group_depth(m, i) != depth)
					continue;
				appendStringInfo(&buf, "SELECT lbac.%s(%s, %d, %s",
								 fn[kind], quote_literal_cstr(c->name), c->num,
								 c->long_name ? quote_literal_cstr(c->long_name) : "NULL");
				if (kind == LBAC_GROUP && c->parent >= 0)
					appendStringInfo(&buf, ", %s",
									 quote_literal_cstr(m->comp[kind][c->parent].name));
				appendStringInfoString(&buf, ");\n");
			}
	for (i = 0; i < m->nauths; i++)
	{
		const LbacAuth *a = &m->auths[i];
		char	   *role = GetUserNameFromId(a->role, true);
		char	   *qrole;

		if (role == NULL)
		{
			appendStringInfo(&buf, "-- role with OID %u no longer exists\n",
							 a->role);
			continue;
		}
		qrole = quote_literal_cstr(role);
		if (a->has_levels)
			appendStringInfo(&buf, "SELECT lbac.set_levels(%s, '%s', '%s', '%s', '%s');\n",
							 qrole,
							 m->comp[LBAC_LEVEL][a->levels[LBAC_MAX]].name,
							 m->comp[LBAC_LEVEL][a->levels[LBAC_MIN]].name,
							 m->comp[LBAC_LEVEL][a->levels[LBAC_DEFL]].name,
							 m->comp[LBAC_LEVEL][a->levels[LBAC_ROWL]].name);
		appendStringInfo(&buf, "SELECT lbac.set_compartments(%s", qrole);
		for (s = 0; s < LBAC_NSETS; s++)
			append_literal_list(&buf, m, LBAC_COMPARTMENT, a->comps[s]);
		appendStringInfo(&buf, ");\nSELECT lbac.set_groups(%s", qrole);
		for (s = 0; s < LBAC_NSETS; s++)
			append_literal_list(&buf, m, LBAC_GROUP, a->groups[s]);
		appendStringInfoString(&buf, ");\n");
		for (s = 0; s < LBAC_NPRIVS; s++)
			if (a->privs & (1U << s))
				appendStringInfo(&buf, "SELECT lbac.grant_privileges(%s, '%s');\n",
								 qrole, lbac_priv_names[s]);
	}
	for (i = 0; i < m->nadmins; i++)
	{
		char	   *role = GetUserNameFromId(m->admins[i], true);

		if (role != NULL)
			appendStringInfo(&buf, "SELECT lbac.grant_administration(%s);\n",
							 quote_literal_cstr(role));
	}
	lbac_model_free(m);
	PG_RETURN_TEXT_P(cstring_to_text(buf.data));
}
