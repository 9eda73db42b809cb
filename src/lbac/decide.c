/*-------------------------------------------------------------------------
 *
 * src/lbac/decide.c
 *	  Oracle Label Security's access algorithms, on labels parsed against
 *	  a model: read and write access (with and without COMPACCESS), the
 *	  privileges READ and FULL, label changes (WRITEUP, WRITEDOWN,
 *	  WRITEACROSS), and what a session label may be.
 *
 * As the Oracle Label Security Administrator's Guide describes them
 * ("Access Controls and Privileges": the label evaluation processes for
 * read and write access, with and without COMPACCESS, and for
 * LABEL_UPDATE).  A session reads with its session label: its level, its
 * compartments, and its groups with their descendants (holding a group
 * grants its subgroups).  It writes with the same level, bounded below by
 * the authorization's minimum level, with the compartments of the session
 * label that the authorization lets it write, and the groups of the
 * session label (descendants included) that it lets it write (descendants
 * of an authorized write group included).
 *
 *	read:  row level <= session level; every row compartment among the
 *		   session's; a row with groups needs one of them among the
 *		   session's groups or their descendants.
 *	write: minimum level <= row level <= session level; a row with groups
 *		   needs one of them among the groups written and every row
 *		   compartment among the session's; a row without groups needs
 *		   every row compartment among the compartments written.
 *	COMPACCESS read: groups do not matter, except that a row with groups
 *		   and no compartments needs a session with some group.
 *	COMPACCESS write: a row without groups as above; a row with groups
 *		   needs every compartment among the session's if the session
 *		   writes some group, else a compartment and every compartment
 *		   among those written.
 *	READ reads every row, FULL reads and writes every row.
 *	A label change: raising the level needs WRITEUP, lowering it
 *		   WRITEDOWN, both to a level within the authorization's minimum
 *		   and maximum; changing compartments or groups needs WRITEACROSS.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lbac/lbac_int.h"

/*
 * The subject as decisions see it: its session label bounded by its
 * role's authorization (a revocation takes effect at once, without
 * waiting for the session to change its label), or a label alone,
 * decided as a user authorized exactly at that label (read and write on
 * its compartments and groups, any level up to its own, no privileges).
 */
void
lbac_user(const LbacModel *m, const LbacSubject *s, LbacUser *u)
{
	const LbacAuth *a;

	memset(u, 0, sizeof(*u));
	if (s->has_role)
	{
		a = lbac_find_auth(m, s->role);
		u->auth = a;
		if (a == NULL)
			return;
		u->privs = a->privs;
		if (!a->has_levels || !s->has_label)
			return;
		u->level = Min(s->label.level, a->levels[LBAC_MAX]);
		u->comps = bms_intersect(s->label.comps, a->comps[LBAC_READ]);
		u->groups = bms_intersect(s->label.groups,
								  lbac_groups_desc(m, a->groups[LBAC_READ]));
	}
	else
	{
		LbacSet		set;

		if (!s->has_label)
			return;
		a = &u->own;
		u->own.has_levels = true;
		u->own.levels[LBAC_MAX] = s->label.level;
		u->own.levels[LBAC_MIN] = 0;
		u->own.levels[LBAC_DEFL] = s->label.level;
		u->own.levels[LBAC_ROWL] = s->label.level;
		for (set = 0; set < LBAC_NSETS; set++)
		{
			u->own.comps[set] = s->label.comps;
			u->own.groups[set] = s->label.groups;
		}
		u->auth = a;
		u->level = s->label.level;
		u->comps = s->label.comps;
		u->groups = s->label.groups;
	}
	u->has_label = true;
	u->min_level = a->levels[LBAC_MIN];
	u->max_level = a->levels[LBAC_MAX];
	u->write_comps = bms_intersect(u->comps, a->comps[LBAC_WRITE]);
	u->groups_desc = lbac_groups_desc(m, u->groups);
	u->write_desc = bms_intersect(u->groups_desc,
								  lbac_groups_desc(m, a->groups[LBAC_WRITE]));
}

/* row: NULL for a row whose label the model does not know (unlabeled) */
bool
lbac_read(const LbacUser *u, const LbacLabel *row)
{
	if (u->privs & (LBAC_PRIV_READ | LBAC_PRIV_FULL))
		return true;
	if (!u->has_label || row == NULL)
		return false;
	if (row->level > u->level || !bms_is_subset(row->comps, u->comps))
		return false;
	if (u->privs & LBAC_PRIV_COMPACCESS)
		return !bms_is_empty(row->comps) || bms_is_empty(row->groups) ||
			!bms_is_empty(u->groups);
	return bms_is_empty(row->groups) || bms_overlap(row->groups, u->groups_desc);
}

bool
lbac_write(const LbacUser *u, const LbacLabel *row)
{
	if (u->privs & LBAC_PRIV_FULL)
		return true;
	if (!u->has_label || row == NULL)
		return false;
	if (row->level > u->level || row->level < u->min_level)
		return false;
	if (bms_is_empty(row->groups))
		return bms_is_subset(row->comps, u->write_comps);
	if (u->privs & LBAC_PRIV_COMPACCESS)
	{
		if (!bms_is_empty(u->write_desc))
			return bms_is_subset(row->comps, u->comps);
		return !bms_is_empty(row->comps) &&
			bms_is_subset(row->comps, u->write_comps);
	}
	return bms_overlap(row->groups, u->write_desc) &&
		bms_is_subset(row->comps, u->comps);
}

/*
 * LABEL_UPDATE's rule for changing a row's label from "from" to "to"
 * (the write access to each is decided apart, by lbac_write).
 */
bool
lbac_label_change(const LbacUser *u, const LbacLabel *from,
				  const LbacLabel *to)
{
	if (to->level != from->level)
	{
		if (to->level < from->level && !(u->privs & LBAC_PRIV_WRITEDOWN))
			return false;
		if (to->level > from->level && !(u->privs & LBAC_PRIV_WRITEUP))
			return false;
		if (u->auth == NULL || !u->auth->has_levels ||
			to->level > u->auth->levels[LBAC_MAX] ||
			to->level < u->auth->levels[LBAC_MIN])
			return false;
	}
	if (!bms_equal(from->comps, to->comps) ||
		!bms_equal(from->groups, to->groups))
		return (u->privs & LBAC_PRIV_WRITEACROSS) != 0;
	return true;
}

/*
 * May a session of authorization a work at label l?  Its level between
 * the minimum and the maximum, its compartments among those it may read,
 * its groups among those it may read or their descendants.
 */
bool
lbac_within(const LbacModel *m, const LbacAuth *a, const LbacLabel *l)
{
	if (a == NULL || !a->has_levels)
		return false;
	return l->level >= a->levels[LBAC_MIN] &&
		l->level <= a->levels[LBAC_MAX] &&
		bms_is_subset(l->comps, a->comps[LBAC_READ]) &&
		bms_is_subset(l->groups, lbac_groups_desc(m, a->groups[LBAC_READ]));
}

/*
 * The label of the rows the session creates: the authorization's row
 * label within the session's write access (level at most the session's,
 * compartments and groups among those it writes), so that the session may
 * always write the rows it creates when it may write at all.
 */
void
lbac_row_label(const LbacUser *u, LbacLabel *out)
{
	out->level = Min(u->auth->levels[LBAC_ROWL], u->level);
	out->comps = bms_intersect(u->auth->comps[LBAC_ROW], u->write_comps);
	out->groups = bms_intersect(u->auth->groups[LBAC_ROW], u->write_desc);
}

/* The label a session of authorization a starts with. */
void
lbac_default_label(const LbacAuth *a, LbacLabel *out)
{
	out->level = a->levels[LBAC_DEFL];
	out->comps = a->comps[LBAC_DEF];
	out->groups = a->groups[LBAC_DEF];
}

/*
 * Does a dominate b?  Its level is at least b's, its compartments include
 * b's, and each group of b is one of a's or a descendant of one.
 */
bool
lbac_dominates(const LbacModel *m, const LbacLabel *a, const LbacLabel *b)
{
	return a->level >= b->level &&
		bms_is_subset(b->comps, a->comps) &&
		bms_is_subset(b->groups, lbac_groups_desc(m, a->groups));
}
