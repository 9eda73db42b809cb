/*-------------------------------------------------------------------------
 *
 * src/lbac/label.c
 *	  lbac label text: LEVEL[:COMPARTMENT,...[:GROUP,...]] ("S", "S:A,B",
 *	  "S::WEST", "S:A:WEST,EAST"), parsed against a model and written in
 *	  its one canonical form; and subjects, a label with the role whose
 *	  authorization bounds it ("S:A;role=16390").
 *
 * Each meaning has one text, so that it is interned once in
 * labelam.pg_security and reads back the same: names are matched without
 * regard to case and written in upper case, blanks around names are
 * dropped, compartments and groups are written in the order of their
 * numbers, and sections left empty at the end are dropped ("S:" and
 * "S::" are "S").  What could be a typing mistake is refused rather than
 * guessed at: an unknown name, a name written twice, an empty name in a
 * list ("S:A,,B"), a fourth section.  Errors are 22023.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "lbac/lbac_int.h"

#define LABEL_HINT "An lbac label is LEVEL[:COMPARTMENT,...[:GROUP,...]] with short names defined by lbac.create_level, lbac.create_compartment and lbac.create_group."

bool
lbac_valid_name(const char *name)
{
	const char *p;

	if (name[0] == '\0' || strlen(name) > LBAC_NAME_MAX)
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			  (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

char *
lbac_upper_name(const char *name)
{
	char	   *result = pstrdup(name);
	char	   *p;

	for (p = result; *p; p++)
		*p = pg_ascii_toupper((unsigned char) *p);
	return result;
}

/* text without the blanks around it (palloc'd) */
static char *
trimmed(const char *start, const char *end)
{
	while (start < end && *start == ' ')
		start++;
	while (end > start && end[-1] == ' ')
		end--;
	return pnstrdup(start, end - start);
}

static bool
what_error(bool report, const char *what, const char *text,
		   const char *detail)
{
	if (report)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s \"%s\"", what, text),
				 errdetail_internal("%s", detail),
				 strcmp(what, "security label") == 0 ? errhint(LABEL_HINT) :
				 errhint("A list is short names separated by commas, '' for none.")));
	return false;
}

static bool
label_error(bool report, const char *text, const char *detail)
{
	return what_error(report, "security label", text, detail);
}

/*
 * The names of one list ("A, B"), between start and end, into a set of
 * indexes of kind.  An empty list is the empty set.
 */
static bool
parse_list(const LbacModel *m, LbacKind kind, const char *what,
		   const char *text, const char *start, const char *end,
		   Bitmapset **out, bool report)
{
	char	   *all = trimmed(start, end);
	const char *p;

	*out = NULL;
	if (all[0] == '\0')
		return true;
	p = start;
	for (;;)
	{
		const char *comma = memchr(p, ',', end - p);
		const char *stop = comma ? comma : end;
		char	   *name = trimmed(p, stop);
		char	   *upper;
		int			idx;

		if (name[0] == '\0')
			return what_error(report, what, text,
							   psprintf("An empty name in the list of %ss.",
										lbac_kind_names[kind]));
		if (!lbac_valid_name(name))
			return what_error(report, what, text,
							   psprintf("\"%s\" is not a valid %s name (letters, digits and underscores, at most %d).",
										name, lbac_kind_names[kind],
										LBAC_NAME_MAX));
		upper = lbac_upper_name(name);
		idx = lbac_find_name(m, kind, upper);
		if (idx < 0)
			return what_error(report, what, text,
							   psprintf("%s \"%s\" is not defined in the lbac model.",
										kind == LBAC_COMPARTMENT ? "Compartment" : "Group",
										upper));
		if (bms_is_member(idx, *out))
			return what_error(report, what, text,
							   psprintf("%s \"%s\" appears twice.",
										kind == LBAC_COMPARTMENT ? "Compartment" : "Group",
										upper));
		*out = bms_add_member(*out, idx);
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return true;
}

/*
 * Parse label text against m into *out; false (or ERROR 22023, with
 * report) if it is not a label of m.
 */
bool
lbac_parse_label(const LbacModel *m, const char *text, LbacLabel *out,
				 bool report)
{
	const char *end = text + strlen(text);
	const char *c1 = strchr(text, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *lend = c1 ? c1 : end;
	char	   *name;
	char	   *upper;

	out->level = -1;
	out->comps = NULL;
	out->groups = NULL;
	if (!m->installed)
		return label_error(report, text,
						   "The lbac model is not installed in this database (CREATE EXTENSION labelam).");
	if (c2 != NULL && strchr(c2 + 1, ':') != NULL)
		return label_error(report, text,
						   "A label has at most three sections: level, compartments, groups.");
	name = trimmed(text, lend);
	if (name[0] == '\0')
		return label_error(report, text, "The label has no level.");
	if (!lbac_valid_name(name))
		return label_error(report, text,
						   psprintf("\"%s\" is not a valid level name (letters, digits and underscores, at most %d).",
									name, LBAC_NAME_MAX));
	upper = lbac_upper_name(name);
	out->level = lbac_find_name(m, LBAC_LEVEL, upper);
	if (out->level < 0)
		return label_error(report, text,
						   psprintf("Level \"%s\" is not defined in the lbac model.",
									upper));
	if (c1 != NULL &&
		!parse_list(m, LBAC_COMPARTMENT, "security label", text, c1 + 1,
					c2 ? c2 : end,
					&out->comps, report))
		return false;
	if (c2 != NULL &&
		!parse_list(m, LBAC_GROUP, "security label", text, c2 + 1, end,
					&out->groups, report))
		return false;
	return true;
}

static void
append_names(StringInfo buf, const LbacModel *m, LbacKind kind,
			 const Bitmapset *set)
{
	int			x = -1;
	bool		first = true;

	while ((x = bms_next_member(set, x)) >= 0)
	{
		appendStringInfo(buf, "%s%s", first ? "" : ",", m->comp[kind][x].name);
		first = false;
	}
}

/* The canonical text of a label (palloc'd). */
char *
lbac_label_text(const LbacModel *m, const LbacLabel *l)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, m->comp[LBAC_LEVEL][l->level].name);
	if (!bms_is_empty(l->comps) || !bms_is_empty(l->groups))
	{
		appendStringInfoChar(&buf, ':');
		append_names(&buf, m, LBAC_COMPARTMENT, l->comps);
	}
	if (!bms_is_empty(l->groups))
	{
		appendStringInfoChar(&buf, ':');
		append_names(&buf, m, LBAC_GROUP, l->groups);
	}
	return buf.data;
}

/*
 * Subject text: [LABEL][;role=OID], not both parts empty.  The role is
 * not looked up here.
 */
bool
lbac_parse_subject(const LbacModel *m, const char *text, LbacSubject *out,
				   bool report)
{
	const char *r = strstr(text, ";role=");
	char	   *label;

	memset(out, 0, sizeof(*out));
	out->label.level = -1;
	if (r != NULL)
	{
		const char *p = r + 6;
		unsigned long v;
		char	   *end;

		if (*p < '0' || *p > '9' || strlen(p) > 10)
			return label_error(report, text,
							   "A subject's role is \";role=\" and the role's OID.");
		errno = 0;
		v = strtoul(p, &end, 10);
		if (*end != '\0' || errno != 0 || v == 0 || v > PG_UINT32_MAX)
			return label_error(report, text,
							   "A subject's role is \";role=\" and the role's OID.");
		out->has_role = true;
		out->role = (Oid) v;
		label = pnstrdup(text, r - text);
	}
	else
		label = pstrdup(text);
	if (label[0] == '\0' && out->has_role)
		return true;
	if (!lbac_parse_label(m, label, &out->label, report))
		return false;
	out->has_label = true;
	return true;
}

/* The canonical text of a subject (palloc'd). */
char *
lbac_subject_text(const LbacModel *m, const LbacSubject *s)
{
	char	   *label = s->has_label ? lbac_label_text(m, &s->label) : "";

	if (!s->has_role)
		return pstrdup(label);
	return psprintf("%s;role=%u", label, s->role);
}

/*
 * A comma-separated list of names of kind ("A, B", "" for none) into a set
 * of indexes: for the authorization functions (ERROR 22023 on an unknown
 * or repeated name).
 */
bool
lbac_parse_names(const LbacModel *m, LbacKind kind, const char *list,
				 Bitmapset **out)
{
	if (kind == LBAC_LEVEL)
		elog(ERROR, "labelam: a list of levels");
	return parse_list(m, kind,
					  kind == LBAC_COMPARTMENT ? "list of compartments" :
					  "list of groups",
					  list, list, list + strlen(list), out, true);
}
