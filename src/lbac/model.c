/*-------------------------------------------------------------------------
 *
 * src/lbac/model.c
 *	  An lbac model in memory: its components and authorizations, built
 *	  from rows (model_read.c reads them from the tables) or from the text
 *	  that hands a model to parallel workers, and written back as that
 *	  text.
 *
 * The text is also what the model's sequence number is a hash of: two
 * models that decide alike (same components, same authorizations) have
 * the same number, so a backend that reads the model again after another
 * database's change, or after a change rolled back, keeps its cached
 * decisions.  Long names are left out: they decide nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "lib/stringinfo.h"
#include "utils/memutils.h"

#include "lbac/lbac_int.h"

const char *const lbac_priv_names[LBAC_NPRIVS] = {
	"READ", "FULL", "COMPACCESS", "WRITEUP", "WRITEDOWN", "WRITEACROSS",
	"PROFILE_ACCESS"
};

const char *const lbac_kind_names[LBAC_NKINDS] = {
	"level", "compartment", "group"
};

typedef struct LbacNameEntry
{
	char		name[LBAC_NAME_MAX + 1];
	int			index;
} LbacNameEntry;

LbacModel *
lbac_model_new(void)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "labelam lbac model",
											  ALLOCSET_SMALL_SIZES);
	LbacModel  *m = MemoryContextAllocZero(cxt, sizeof(LbacModel));

	m->cxt = cxt;
	return m;
}

void
lbac_model_free(LbacModel *m)
{
	if (m != NULL)
		MemoryContextDelete(m->cxt);
}

void
lbac_model_add_component(LbacModel *m, LbacKind kind, int32 num,
						 const char *name, const char *long_name,
						 bool has_parent, int32 parent_num)
{
	MemoryContext old = MemoryContextSwitchTo(m->cxt);
	LbacComponent *c;

	if (m->comp[kind] == NULL)
		m->comp[kind] = palloc(sizeof(LbacComponent) * 16);
	else if ((m->n[kind] & (m->n[kind] - 1)) == 0 && m->n[kind] >= 16)
		m->comp[kind] = repalloc(m->comp[kind],
								 sizeof(LbacComponent) * m->n[kind] * 2);
	c = &m->comp[kind][m->n[kind]++];
	c->num = num;
	c->name = pstrdup(name);
	c->long_name = long_name ? pstrdup(long_name) : NULL;
	c->has_parent = has_parent;
	c->parent_num = parent_num;
	c->parent = -1;
	MemoryContextSwitchTo(old);
}

void
lbac_model_add_auth(LbacModel *m, const LbacAuthNums *a)
{
	MemoryContext old = MemoryContextSwitchTo(m->cxt);
	LbacAuthNums *copy = palloc(sizeof(LbacAuthNums));
	int			k;
	int			s;

	*copy = *a;
	for (k = 0; k < 2; k++)
		for (s = 0; s < LBAC_NSETS; s++)
		{
			copy->sets[k][s] = palloc(sizeof(int32) * Max(a->nsets[k][s], 1));
			if (a->nsets[k][s] > 0)
				memcpy(copy->sets[k][s], a->sets[k][s],
					   sizeof(int32) * a->nsets[k][s]);
		}
	m->auth_nums = lappend(m->auth_nums, copy);
	MemoryContextSwitchTo(old);
}

void
lbac_model_add_admin(LbacModel *m, Oid role)
{
	MemoryContext old = MemoryContextSwitchTo(m->cxt);

	if (m->admins == NULL)
		m->admins = palloc(sizeof(Oid) * 8);
	else if ((m->nadmins & (m->nadmins - 1)) == 0 && m->nadmins >= 8)
		m->admins = repalloc(m->admins, sizeof(Oid) * m->nadmins * 2);
	m->admins[m->nadmins++] = role;
	MemoryContextSwitchTo(old);
}

static int
component_cmp(const void *a, const void *b)
{
	int32		x = ((const LbacComponent *) a)->num;
	int32		y = ((const LbacComponent *) b)->num;

	return (x > y) - (x < y);
}

static int
auth_cmp(const void *a, const void *b)
{
	Oid			x = ((const LbacAuth *) a)->role;
	Oid			y = ((const LbacAuth *) b)->role;

	return (x > y) - (x < y);
}

int
lbac_find_num(const LbacModel *m, LbacKind kind, int32 num)
{
	int			lo = 0;
	int			hi = m->n[kind] - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		int32		v = m->comp[kind][mid].num;

		if (v == num)
			return mid;
		if (v < num)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int
lbac_find_name(const LbacModel *m, LbacKind kind, const char *name)
{
	LbacNameEntry *e;

	if (m->names[kind] == NULL || strlen(name) > LBAC_NAME_MAX)
		return -1;
	e = hash_search(m->names[kind], name, HASH_FIND, NULL);
	return e ? e->index : -1;
}

const LbacAuth *
lbac_find_auth(const LbacModel *m, Oid role)
{
	LbacAuth	key;

	if (m->nauths == 0)
		return NULL;
	key.role = role;
	return bsearch(&key, m->auths, m->nauths, sizeof(LbacAuth), auth_cmp);
}

bool
lbac_is_admin(const LbacModel *m, Oid role)
{
	int			i;

	for (i = 0; i < m->nadmins; i++)
		if (m->admins[i] == role)
			return true;
	return false;
}

/* a set of nums as a Bitmapset of indexes; unknown nums are left out */
static Bitmapset *
set_from_nums(const LbacModel *m, LbacKind kind, const int32 *nums, int n)
{
	Bitmapset  *result = NULL;
	int			i;

	for (i = 0; i < n; i++)
	{
		int			idx = lbac_find_num(m, kind, nums[i]);

		if (idx >= 0)
			result = bms_add_member(result, idx);
	}
	return result;
}

Bitmapset *
lbac_groups_desc(const LbacModel *m, const Bitmapset *groups)
{
	Bitmapset  *result = NULL;
	int			g = -1;

	while ((g = bms_next_member(groups, g)) >= 0)
		result = bms_add_members(result, m->group_desc[g]);
	return result;
}

/*
 * Sort and index what was added, resolve the authorizations' nums and
 * compute the sequence number.  Rows whose references no longer resolve
 * (which lbac's functions never write) lose them: fewer rights, never
 * more.
 */
void
lbac_model_finish(LbacModel *m)
{
	MemoryContext old = MemoryContextSwitchTo(m->cxt);
	int			kind;
	int			i;
	ListCell   *lc;
	char	   *text;

	for (kind = 0; kind < LBAC_NKINDS; kind++)
	{
		HASHCTL		ctl;

		if (m->n[kind] > 1)
			qsort(m->comp[kind], m->n[kind], sizeof(LbacComponent),
				  component_cmp);
		ctl.keysize = LBAC_NAME_MAX + 1;
		ctl.entrysize = sizeof(LbacNameEntry);
		ctl.hcxt = m->cxt;
		m->names[kind] = hash_create("labelam lbac names",
									 Max(m->n[kind], 8), &ctl,
									 HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		for (i = 0; i < m->n[kind]; i++)
		{
			LbacNameEntry *e;
			bool		found;

			if (strlen(m->comp[kind][i].name) > LBAC_NAME_MAX)
				continue;
			e = hash_search(m->names[kind], m->comp[kind][i].name,
							HASH_ENTER, &found);
			e->index = i;
		}
	}

	/* the group tree: parents, and each group's descendants (itself too) */
	m->group_desc = palloc0(sizeof(Bitmapset *) * Max(m->n[LBAC_GROUP], 1));
	for (i = 0; i < m->n[LBAC_GROUP]; i++)
	{
		LbacComponent *g = &m->comp[LBAC_GROUP][i];

		g->parent = g->has_parent ?
			lbac_find_num(m, LBAC_GROUP, g->parent_num) : -1;
		if (g->parent == i)
			g->parent = -1;
	}
	for (i = 0; i < m->n[LBAC_GROUP]; i++)
	{
		int			p = i;
		int			steps = 0;

		/* bounded walk: a cycle (never written by lbac) ends it */
		while (p >= 0 && steps++ <= m->n[LBAC_GROUP])
		{
			m->group_desc[p] = bms_add_member(m->group_desc[p], i);
			p = m->comp[LBAC_GROUP][p].parent;
		}
	}

	m->nauths = list_length(m->auth_nums);
	m->auths = palloc0(sizeof(LbacAuth) * Max(m->nauths, 1));
	i = 0;
	foreach(lc, m->auth_nums)
	{
		LbacAuthNums *a = lfirst(lc);
		LbacAuth   *c = &m->auths[i++];
		int			s;

		c->role = a->role;
		c->privs = a->privs;
		c->has_levels = a->has_levels;
		for (s = 0; s < 4 && c->has_levels; s++)
		{
			c->levels[s] = lbac_find_num(m, LBAC_LEVEL, a->levels[s]);
			if (c->levels[s] < 0)
				c->has_levels = false;
		}
		for (s = 0; s < LBAC_NSETS; s++)
		{
			c->comps[s] = set_from_nums(m, LBAC_COMPARTMENT, a->sets[0][s],
										a->nsets[0][s]);
			c->groups[s] = set_from_nums(m, LBAC_GROUP, a->sets[1][s],
										 a->nsets[1][s]);
		}
	}
	if (m->nauths > 1)
		qsort(m->auths, m->nauths, sizeof(LbacAuth), auth_cmp);

	MemoryContextSwitchTo(old);

	text = lbac_model_serialize(m, NULL, -1);
	m->hash = hash_bytes_extended((const unsigned char *) text, strlen(text), 0);
	if (m->hash == 0)
		m->hash = 1;
	pfree(text);
}

static void
append_set(StringInfo buf, const LbacModel *m, LbacKind kind,
		   const Bitmapset *set)
{
	int			x = -1;
	bool		first = true;

	appendStringInfoChar(buf, ' ');
	while ((x = bms_next_member(set, x)) >= 0)
	{
		appendStringInfo(buf, "%s%d", first ? "" : ",", m->comp[kind][x].num);
		first = false;
	}
	if (first)
		appendStringInfoChar(buf, '-');
}

/*
 * The model as text (palloc'd): every component, and the authorizations of
 * the roles given (nroles < 0: every role's).  lbac_model_parse reads it
 * back.  One line a row; names are [A-Z0-9_], so spaces separate fields.
 */
char *
lbac_model_serialize(const LbacModel *m, const Oid *roles, int nroles)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoString(&buf, "lbac1\n");
	for (i = 0; i < m->n[LBAC_LEVEL]; i++)
		appendStringInfo(&buf, "L %d %s\n", m->comp[LBAC_LEVEL][i].num,
						 m->comp[LBAC_LEVEL][i].name);
	for (i = 0; i < m->n[LBAC_COMPARTMENT]; i++)
		appendStringInfo(&buf, "C %d %s\n", m->comp[LBAC_COMPARTMENT][i].num,
						 m->comp[LBAC_COMPARTMENT][i].name);
	for (i = 0; i < m->n[LBAC_GROUP]; i++)
	{
		LbacComponent *g = &m->comp[LBAC_GROUP][i];

		if (g->parent >= 0)
			appendStringInfo(&buf, "G %d %s %d\n", g->num, g->name,
							 m->comp[LBAC_GROUP][g->parent].num);
		else
			appendStringInfo(&buf, "G %d %s -\n", g->num, g->name);
	}
	for (i = 0; i < m->nauths; i++)
	{
		const LbacAuth *a = &m->auths[i];
		int			s;
		int			r;
		bool		wanted = nroles < 0;

		for (r = 0; r < nroles && !wanted; r++)
			wanted = roles[r] == a->role;
		if (!wanted)
			continue;
		appendStringInfo(&buf, "A %u %u", a->role, a->privs);
		if (a->has_levels)
			for (s = 0; s < 4; s++)
				appendStringInfo(&buf, " %d",
								 m->comp[LBAC_LEVEL][a->levels[s]].num);
		else
			appendStringInfoString(&buf, " - - - -");
		for (s = 0; s < LBAC_NSETS; s++)
			append_set(&buf, m, LBAC_COMPARTMENT, a->comps[s]);
		for (s = 0; s < LBAC_NSETS; s++)
			append_set(&buf, m, LBAC_GROUP, a->groups[s]);
		appendStringInfoChar(&buf, '\n');
	}
	return buf.data;
}

static void
parse_failed(const char *line)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("labelam: malformed lbac model text: \"%s\"", line)));
}

static int32
parse_int(const char *tok, const char *line)
{
	char	   *end;
	long		v;

	if (tok == NULL)
		parse_failed(line);
	errno = 0;
	v = strtol(tok, &end, 10);
	if (*end != '\0' || errno != 0 || v < PG_INT32_MIN || v > PG_INT32_MAX)
		parse_failed(line);
	return (int32) v;
}

static Oid
parse_oid(const char *tok, const char *line)
{
	char	   *end;
	unsigned long v;

	if (tok == NULL)
		parse_failed(line);
	errno = 0;
	v = strtoul(tok, &end, 10);
	if (*end != '\0' || errno != 0 || v > PG_UINT32_MAX)
		parse_failed(line);
	return (Oid) v;
}

/* "1,2,3" or "-" */
static void
parse_nums(const char *tok, const char *line, int *n, int32 **nums)
{
	char	   *copy;
	char	   *save;
	char	   *p;

	if (tok == NULL)
		parse_failed(line);
	*n = 0;
	*nums = palloc(sizeof(int32) * (strlen(tok) / 2 + 1));
	if (strcmp(tok, "-") == 0)
		return;
	copy = pstrdup(tok);
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
		(*nums)[(*n)++] = parse_int(p, line);
	pfree(copy);
}

/* The model lbac_model_serialize wrote (ERROR if text is not one). */
LbacModel *
lbac_model_parse(const char *text)
{
	LbacModel  *m = lbac_model_new();
	char	   *copy = pstrdup(text);
	char	   *lsave;
	char	   *line;
	bool		first = true;

	for (line = strtok_r(copy, "\n", &lsave); line;
		 line = strtok_r(NULL, "\n", &lsave))
	{
		char	   *dup = pstrdup(line);
		char	   *save;
		char	   *tag = strtok_r(dup, " ", &save);

		if (first)
		{
			if (tag == NULL || strcmp(tag, "lbac1") != 0)
				parse_failed(line);
			first = false;
		}
		else if (strcmp(tag, "L") == 0 || strcmp(tag, "C") == 0 ||
				 strcmp(tag, "G") == 0)
		{
			LbacKind	kind = tag[0] == 'L' ? LBAC_LEVEL :
				tag[0] == 'C' ? LBAC_COMPARTMENT : LBAC_GROUP;
			int32		num = parse_int(strtok_r(NULL, " ", &save), line);
			char	   *name = strtok_r(NULL, " ", &save);
			char	   *parent = kind == LBAC_GROUP ?
				strtok_r(NULL, " ", &save) : NULL;

			if (name == NULL || (kind == LBAC_GROUP && parent == NULL))
				parse_failed(line);
			lbac_model_add_component(m, kind, num, name, NULL,
									 parent != NULL && strcmp(parent, "-") != 0,
									 (parent != NULL && strcmp(parent, "-") != 0) ?
									 parse_int(parent, line) : 0);
		}
		else if (strcmp(tag, "A") == 0)
		{
			LbacAuthNums a;
			int			s;
			int			k;
			char	   *tok;

			memset(&a, 0, sizeof(a));
			a.role = parse_oid(strtok_r(NULL, " ", &save), line);
			a.privs = parse_oid(strtok_r(NULL, " ", &save), line);
			a.has_levels = true;
			for (s = 0; s < 4; s++)
			{
				tok = strtok_r(NULL, " ", &save);
				if (tok != NULL && strcmp(tok, "-") == 0)
					a.has_levels = false;
				else
					a.levels[s] = parse_int(tok, line);
			}
			for (k = 0; k < 2; k++)
				for (s = 0; s < LBAC_NSETS; s++)
					parse_nums(strtok_r(NULL, " ", &save), line,
							   &a.nsets[k][s], &a.sets[k][s]);
			lbac_model_add_auth(m, &a);
		}
		else
			parse_failed(line);
		pfree(dup);
	}
	pfree(copy);
	if (first)
		parse_failed(text);
	/* only an installed model is written out (session.c) */
	m->installed = true;
	lbac_model_finish(m);
	return m;
}
