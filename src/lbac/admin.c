/*-------------------------------------------------------------------------
 *
 * src/lbac/admin.c
 *	  The SQL functions that change the lbac model: components (levels,
 *	  compartments, groups), authorizations of roles (as Oracle Label
 *	  Security's SA_USER_ADMIN), privileges, and who administers the model.
 *
 * Each function checks first that the session's login role (the one it
 * authenticated as: SET ROLE, SET SESSION AUTHORIZATION and SECURITY
 * DEFINER functions change nothing here) is one of the model's
 * administrators, then takes a lock that serializes changes of the model
 * (ShareRowExclusiveLock on lbac.levels), reads the model as it is now
 * and validates the change against it.  Rows are written with the table
 * access method and the tables' own indexes (CatalogTupleInsert and its
 * kin), never through the executor: no trigger, rule or policy on the
 * tables runs, and guard.c refuses every other way of writing them.  A
 * change sends a relcache invalidation of lbac.levels, which tells every
 * backend at commit (COMMIT PREPARED too: the invalidation waits with the
 * prepared transaction), and this one at its next command (session.c).
 *
 * What a stored label uses cannot change: a component named by a label
 * of labelam.pg_security (which is never emptied) is not dropped, renamed
 * or renumbered, and a group is not moved in the tree while a stored label
 * names it or one of its descendants.  The dictionary is locked
 * (ShareLock) while this is checked, so that a label being interned
 * concurrently is either seen or waits for the change to commit.  What an
 * authorization uses cannot be dropped or renumbered either.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "lbac/lbac_int.h"

PG_FUNCTION_INFO_V1(lbac_create_level);
PG_FUNCTION_INFO_V1(lbac_create_compartment);
PG_FUNCTION_INFO_V1(lbac_create_group);
PG_FUNCTION_INFO_V1(lbac_drop_level);
PG_FUNCTION_INFO_V1(lbac_drop_compartment);
PG_FUNCTION_INFO_V1(lbac_drop_group);
PG_FUNCTION_INFO_V1(lbac_alter_level);
PG_FUNCTION_INFO_V1(lbac_alter_compartment);
PG_FUNCTION_INFO_V1(lbac_alter_group);
PG_FUNCTION_INFO_V1(lbac_set_levels);
PG_FUNCTION_INFO_V1(lbac_set_compartments);
PG_FUNCTION_INFO_V1(lbac_set_groups);
PG_FUNCTION_INFO_V1(lbac_grant_privileges);
PG_FUNCTION_INFO_V1(lbac_revoke_privileges);
PG_FUNCTION_INFO_V1(lbac_drop_authorization);
PG_FUNCTION_INFO_V1(lbac_grant_administration);
PG_FUNCTION_INFO_V1(lbac_revoke_administration);

/* columns of lbac.authorizations (sql/60_lbac.sql) */
#define AUTH_NATTS		14

static const LbacTable kind_table[LBAC_NKINDS] = {
	LBAC_T_LEVELS, LBAC_T_COMPARTMENTS, LBAC_T_GROUPS
};

/*
 * Start a change: the administrator's check, the lock, and the model as
 * it is now (in the function's memory context).
 */
static LbacModel *
admin_begin(const char *fname)
{
	Oid			relids[LBAC_NTABLES];
	LbacModel  *m;

	PreventCommandIfReadOnly(fname);
	PreventCommandDuringRecovery(fname);
	if (!lbac_tables_find(relids))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the tables of the lbac model are missing from extension labelam")));
	LockRelationOid(relids[LBAC_T_LEVELS], ShareRowExclusiveLock);
	m = lbac_model_read();
	if (!lbac_is_admin(m, GetAuthenticatedUserId()))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for %s", fname),
				 errdetail("Only the administrators of the lbac model (lbac.administrators) change it, superusers included, and only as the role they logged in as."),
				 errhint("An administrator hands administration on with lbac.grant_administration().")));
	return m;
}

/* End a change: every backend reads the model again (see the header). */
static void
admin_done(LbacModel *m)
{
	CacheInvalidateRelcacheByRelid(m->relids[LBAC_T_LEVELS]);
	CommandCounterIncrement();
}

static char *
arg_text(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

static char *
arg_required(FunctionCallInfo fcinfo, int n, const char *what)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", what)));
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

static Oid
arg_role(FunctionCallInfo fcinfo, int n)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("role must not be null")));
	return get_role_oid(NameStr(*PG_GETARG_NAME(n)), false);
}

/* ---- rows ---- */

static void
insert_row(Oid relid, Datum *values, bool *nulls)
{
	Relation	rel = table_open(relid, RowExclusiveLock);
	HeapTuple	tup = heap_form_tuple(RelationGetDescr(rel), values, nulls);

	CatalogTupleInsert(rel, tup);
	heap_freetuple(tup);
	table_close(rel, NoLock);
}

/*
 * The row of relid whose column attnum equals key (eqproc), as it is now:
 * *tid and a copy of it; false if there is none.
 */
static bool
find_row(Relation rel, AttrNumber attnum, RegProcedure eqproc, Datum key,
		 ItemPointer tid, HeapTuple *copy)
{
	ScanKeyData sk;
	Snapshot	snapshot = RegisterSnapshot(GetLatestSnapshot());
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;

	ScanKeyInit(&sk, attnum, BTEqualStrategyNumber, eqproc, key);
	scan = systable_beginscan(rel, InvalidOid, false, snapshot, 1, &sk);
	if ((tup = systable_getnext(scan)) != NULL)
	{
		*tid = tup->t_self;
		if (copy)
			*copy = heap_copytuple(tup);
		found = true;
	}
	systable_endscan(scan);
	UnregisterSnapshot(snapshot);
	return found;
}

static void
delete_row(Oid relid, AttrNumber attnum, RegProcedure eqproc, Datum key)
{
	Relation	rel = table_open(relid, RowExclusiveLock);
	ItemPointerData tid;

	if (find_row(rel, attnum, eqproc, key, &tid, NULL))
		CatalogTupleDelete(rel, &tid);
	table_close(rel, NoLock);
}

/* replace the row whose attnum equals key by values, or insert it */
static void
upsert_row(Oid relid, AttrNumber attnum, RegProcedure eqproc, Datum key,
		   Datum *values, bool *nulls)
{
	Relation	rel = table_open(relid, RowExclusiveLock);
	ItemPointerData tid;
	HeapTuple	tup = heap_form_tuple(RelationGetDescr(rel), values, nulls);

	if (find_row(rel, attnum, eqproc, key, &tid, NULL))
		CatalogTupleUpdate(rel, &tid, tup);
	else
		CatalogTupleInsert(rel, tup);
	heap_freetuple(tup);
	table_close(rel, NoLock);
}

/* ---- what uses a component ---- */

/*
 * A label of the dictionary that names the component (kind, idx), or a
 * group below it when below is set; NULL if none.  Locks the dictionary
 * against new labels until the transaction ends (see the file header).
 * Labels the model cannot parse are not its own (another provider's).
 */
static char *
stored_label_using(const LbacModel *m, LbacKind kind, int idx, bool below)
{
	Oid			nsp = get_namespace_oid("labelam", false);
	Oid			relid = get_relname_relid("pg_security", nsp);
	Relation	rel;
	Snapshot	snapshot;
	SysScanDesc scan;
	HeapTuple	tup;
	char	   *result = NULL;

	if (!OidIsValid(relid))
		return NULL;
	rel = table_open(relid, ShareLock);
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	scan = systable_beginscan(rel, InvalidOid, false, snapshot, 0, NULL);
	while (result == NULL && (tup = systable_getnext(scan)) != NULL)
	{
		bool		isnull;
		Datum		d = heap_getattr(tup, 2, RelationGetDescr(rel), &isnull);
		char	   *seclabel;
		LbacLabel	l;
		bool		uses;

		if (isnull)
			continue;
		seclabel = TextDatumGetCString(d);
		if (!lbac_parse_label(m, seclabel, &l, false))
			continue;
		if (kind == LBAC_LEVEL)
			uses = l.level == idx;
		else if (kind == LBAC_COMPARTMENT)
			uses = bms_is_member(idx, l.comps);
		else if (below)
			uses = bms_overlap(l.groups, m->group_desc[idx]);
		else
			uses = bms_is_member(idx, l.groups);
		if (uses)
			result = seclabel;
	}
	systable_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, NoLock);
	return result;
}

/* a role whose authorization names the component, or InvalidOid */
static Oid
authorization_using(const LbacModel *m, LbacKind kind, int idx)
{
	int			i;
	int			s;

	for (i = 0; i < m->nauths; i++)
	{
		const LbacAuth *a = &m->auths[i];

		for (s = 0; s < LBAC_NSETS; s++)
		{
			if (kind == LBAC_LEVEL && a->has_levels && a->levels[s] == idx)
				return a->role;
			if (kind == LBAC_COMPARTMENT && bms_is_member(idx, a->comps[s]))
				return a->role;
			if (kind == LBAC_GROUP && bms_is_member(idx, a->groups[s]))
				return a->role;
		}
	}
	return InvalidOid;
}

static void
refuse_in_use(const LbacModel *m, LbacKind kind, int idx, const char *change,
			  bool authorizations, bool below)
{
	const char *name = m->comp[kind][idx].name;
	char	   *label = stored_label_using(m, kind, idx, below);
	Oid			role;

	if (label != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("cannot %s %s \"%s\": a stored label uses it",
						change, lbac_kind_names[kind], name),
				 errdetail("Label \"%s\" of labelam.pg_security names %s.",
						   label, below ? "it or a group below it" : "it"),
				 errhint("Stored labels never leave the dictionary: a component they use stays as it is.")));
	if (authorizations &&
		OidIsValid(role = authorization_using(m, kind, idx)))
		ereport(ERROR,
				(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
				 errmsg("cannot %s %s \"%s\": the authorization of role \"%s\" uses it",
						change, lbac_kind_names[kind], name,
						GetUserNameFromId(role, false)),
				 errhint("Change the role's authorization first (lbac.set_levels, lbac.set_compartments, lbac.set_groups, lbac.drop_authorization).")));
}

/* ---- components ---- */

static int
existing(const LbacModel *m, LbacKind kind, const char *name)
{
	char	   *upper = lbac_upper_name(name);
	int			idx = lbac_find_name(m, kind, upper);

	if (idx < 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("%s \"%s\" does not exist in the lbac model",
						lbac_kind_names[kind], upper)));
	return idx;
}

/* a new short name: valid and not taken (upper-cased, palloc'd) */
static char *
new_name(const LbacModel *m, LbacKind kind, const char *name)
{
	char	   *upper;

	if (!lbac_valid_name(name))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid %s name \"%s\"", lbac_kind_names[kind], name),
				 errdetail("A short name is 1 to %d letters, digits and underscores.",
						   LBAC_NAME_MAX)));
	upper = lbac_upper_name(name);
	if (lbac_find_name(m, kind, upper) >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("%s \"%s\" already exists in the lbac model",
						lbac_kind_names[kind], upper)));
	return upper;
}

static void
new_num(const LbacModel *m, LbacKind kind, int32 num)
{
	if (num < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s number must not be negative", lbac_kind_names[kind])));
	if (lbac_find_num(m, kind, num) >= 0)
		ereport(ERROR,
				(errcode(ERRCODE_DUPLICATE_OBJECT),
				 errmsg("%s number %d is taken by \"%s\"", lbac_kind_names[kind],
						num, m->comp[kind][lbac_find_num(m, kind, num)].name)));
}

static void
check_long_name(const char *long_name)
{
	const char *p;

	if (long_name == NULL)
		return;
	for (p = long_name; *p; p++)
		if ((unsigned char) *p < 0x20)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a long name must not contain control characters")));
}

static Datum
create_component(FunctionCallInfo fcinfo, LbacKind kind, const char *fname)
{
	LbacModel  *m = admin_begin(fname);
	char	   *name = new_name(m, kind, arg_required(fcinfo, 0, "short_name"));
	int32		num;
	char	   *long_name = arg_text(fcinfo, 2);
	Datum		values[4];
	bool		nulls[4] = {false, false, false, true};

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("num must not be null")));
	num = PG_GETARG_INT32(1);
	new_num(m, kind, num);
	check_long_name(long_name);
	values[0] = Int32GetDatum(num);
	values[1] = CStringGetTextDatum(name);
	values[2] = long_name ? CStringGetTextDatum(long_name) : (Datum) 0;
	nulls[2] = long_name == NULL;
	if (kind == LBAC_GROUP)
	{
		char	   *parent = arg_text(fcinfo, 3);

		if (parent != NULL && parent[0] != '\0')
		{
			values[3] = Int32GetDatum(m->comp[LBAC_GROUP][existing(m, LBAC_GROUP, parent)].num);
			nulls[3] = false;
		}
	}
	insert_row(m->relids[kind_table[kind]], values, nulls);
	admin_done(m);
	PG_RETURN_VOID();
}

Datum
lbac_create_level(PG_FUNCTION_ARGS)
{
	return create_component(fcinfo, LBAC_LEVEL, "lbac.create_level()");
}

Datum
lbac_create_compartment(PG_FUNCTION_ARGS)
{
	return create_component(fcinfo, LBAC_COMPARTMENT,
							"lbac.create_compartment()");
}

Datum
lbac_create_group(PG_FUNCTION_ARGS)
{
	return create_component(fcinfo, LBAC_GROUP, "lbac.create_group()");
}

static Datum
drop_component(FunctionCallInfo fcinfo, LbacKind kind, const char *fname)
{
	LbacModel  *m = admin_begin(fname);
	int			idx = existing(m, kind, arg_required(fcinfo, 0, "short_name"));
	int			i;

	refuse_in_use(m, kind, idx, "drop", true, false);
	for (i = 0; kind == LBAC_GROUP && i < m->n[LBAC_GROUP]; i++)
		if (m->comp[LBAC_GROUP][i].parent == idx)
			ereport(ERROR,
					(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
					 errmsg("cannot drop group \"%s\": group \"%s\" is below it",
							m->comp[kind][idx].name, m->comp[kind][i].name)));
	delete_row(m->relids[kind_table[kind]], 1, F_INT4EQ,
			   Int32GetDatum(m->comp[kind][idx].num));
	admin_done(m);
	PG_RETURN_VOID();
}

Datum
lbac_drop_level(PG_FUNCTION_ARGS)
{
	return drop_component(fcinfo, LBAC_LEVEL, "lbac.drop_level()");
}

Datum
lbac_drop_compartment(PG_FUNCTION_ARGS)
{
	return drop_component(fcinfo, LBAC_COMPARTMENT, "lbac.drop_compartment()");
}

Datum
lbac_drop_group(PG_FUNCTION_ARGS)
{
	return drop_component(fcinfo, LBAC_GROUP, "lbac.drop_group()");
}

/*
 * alter_X(short_name, new_short_name, new_num, new_long_name[, new_parent]):
 * NULL leaves a field as it is; '' as the long name removes it, as the
 * parent makes the group a root.
 */
static Datum
alter_component(FunctionCallInfo fcinfo, LbacKind kind, const char *fname)
{
	LbacModel  *m = admin_begin(fname);
	int			idx = existing(m, kind, arg_required(fcinfo, 0, "short_name"));
	LbacComponent *c = &m->comp[kind][idx];
	char	   *name = c->name;
	int32		num = c->num;
	char	   *long_name = c->long_name;
	bool		has_parent = c->has_parent;
	int32		parent_num = c->parent_num;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, true};
	int			i;

	if (!PG_ARGISNULL(1) &&
		strcmp(lbac_upper_name(text_to_cstring(PG_GETARG_TEXT_PP(1))), name) != 0)
	{
		name = new_name(m, kind, text_to_cstring(PG_GETARG_TEXT_PP(1)));
		refuse_in_use(m, kind, idx, "rename", false, false);
	}
	if (!PG_ARGISNULL(2) && PG_GETARG_INT32(2) != num)
	{
		num = PG_GETARG_INT32(2);
		new_num(m, kind, num);
		refuse_in_use(m, kind, idx, "renumber", true, false);
		for (i = 0; kind == LBAC_GROUP && i < m->n[LBAC_GROUP]; i++)
			if (m->comp[LBAC_GROUP][i].parent == idx)
				ereport(ERROR,
						(errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
						 errmsg("cannot renumber group \"%s\": group \"%s\" is below it",
								c->name, m->comp[kind][i].name)));
	}
	if (!PG_ARGISNULL(3))
	{
		long_name = text_to_cstring(PG_GETARG_TEXT_PP(3));
		if (long_name[0] == '\0')
			long_name = NULL;
		check_long_name(long_name);
	}
	if (kind == LBAC_GROUP && !PG_ARGISNULL(4))
	{
		char	   *parent = text_to_cstring(PG_GETARG_TEXT_PP(4));
		int			pidx = parent[0] ? existing(m, LBAC_GROUP, parent) : -1;

		if (pidx != c->parent)
		{
			if (pidx >= 0 && bms_is_member(pidx, m->group_desc[idx]))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("group \"%s\" cannot go below \"%s\", which is below it",
								c->name, m->comp[LBAC_GROUP][pidx].name)));
			refuse_in_use(m, kind, idx, "move", false, true);
			has_parent = pidx >= 0;
			parent_num = has_parent ? m->comp[LBAC_GROUP][pidx].num : 0;
		}
	}
	values[0] = Int32GetDatum(num);
	values[1] = CStringGetTextDatum(name);
	values[2] = long_name ? CStringGetTextDatum(long_name) : (Datum) 0;
	nulls[2] = long_name == NULL;
	if (kind == LBAC_GROUP && has_parent)
	{
		values[3] = Int32GetDatum(parent_num);
		nulls[3] = false;
	}
	upsert_row(m->relids[kind_table[kind]], 1, F_INT4EQ,
			   Int32GetDatum(c->num), values, nulls);
	admin_done(m);
	PG_RETURN_VOID();
}

Datum
lbac_alter_level(PG_FUNCTION_ARGS)
{
	return alter_component(fcinfo, LBAC_LEVEL, "lbac.alter_level()");
}

Datum
lbac_alter_compartment(PG_FUNCTION_ARGS)
{
	return alter_component(fcinfo, LBAC_COMPARTMENT,
						   "lbac.alter_compartment()");
}

Datum
lbac_alter_group(PG_FUNCTION_ARGS)
{
	return alter_component(fcinfo, LBAC_GROUP, "lbac.alter_group()");
}

/* ---- authorizations ---- */

/* the role's authorization as it is (a copy), or an empty one */
static LbacAuth
current_auth(const LbacModel *m, Oid role)
{
	const LbacAuth *a = lbac_find_auth(m, role);
	LbacAuth	result;

	if (a != NULL)
		return *a;
	memset(&result, 0, sizeof(result));
	result.role = role;
	return result;
}

static Datum
nums_array(const LbacModel *m, LbacKind kind, const Bitmapset *set)
{
	Datum	   *elems = palloc(sizeof(Datum) * Max(bms_num_members(set), 1));
	int			n = 0;
	int			x = -1;

	while ((x = bms_next_member(set, x)) >= 0)
		elems[n++] = Int32GetDatum(m->comp[kind][x].num);
	return PointerGetDatum(construct_array(elems, n, INT4OID, sizeof(int32),
										   true, TYPALIGN_INT));
}

static void
write_auth(const LbacModel *m, const LbacAuth *a)
{
	Datum		values[AUTH_NATTS];
	bool		nulls[AUTH_NATTS];
	Datum		privs[LBAC_NPRIVS];
	int			nprivs = 0;
	int			s;

	memset(nulls, false, sizeof(nulls));
	values[0] = ObjectIdGetDatum(a->role);
	for (s = 0; s < 4; s++)
	{
		nulls[1 + s] = !a->has_levels;
		values[1 + s] = a->has_levels ?
			Int32GetDatum(m->comp[LBAC_LEVEL][a->levels[s]].num) : (Datum) 0;
	}
	for (s = 0; s < LBAC_NSETS; s++)
	{
		values[5 + s] = nums_array(m, LBAC_COMPARTMENT, a->comps[s]);
		values[9 + s] = nums_array(m, LBAC_GROUP, a->groups[s]);
	}
	for (s = 0; s < LBAC_NPRIVS; s++)
		if (a->privs & (1U << s))
			privs[nprivs++] = CStringGetTextDatum(lbac_priv_names[s]);
	values[13] = PointerGetDatum(construct_array(privs, nprivs, TEXTOID, -1,
												 false, TYPALIGN_INT));
	upsert_row(m->relids[LBAC_T_AUTHORIZATIONS], 1, F_OIDEQ,
			   ObjectIdGetDatum(a->role), values, nulls);
}

static int
level_arg(const LbacModel *m, FunctionCallInfo fcinfo, int n, int dflt)
{
	char	   *name;
	int			idx;

	if (PG_ARGISNULL(n))
		return dflt;
	name = lbac_upper_name(text_to_cstring(PG_GETARG_TEXT_PP(n)));
	idx = lbac_find_name(m, LBAC_LEVEL, name);
	if (idx < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("level \"%s\" is not defined in the lbac model", name)));
	return idx;
}

/*
 * set_levels(role, max_level, min_level, def_level, row_level): the
 * minimum defaults to the lowest level, the default level to the maximum,
 * the row level to the default; min <= row <= default <= max.
 */
Datum
lbac_set_levels(PG_FUNCTION_ARGS)
{
	LbacModel  *m = admin_begin("lbac.set_levels()");
	Oid			role = arg_role(fcinfo, 0);
	LbacAuth	a = current_auth(m, role);
	int			max;
	int			min;
	int			def;
	int			row;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("max_level must not be null")));
	max = level_arg(m, fcinfo, 1, -1);
	min = level_arg(m, fcinfo, 2, 0);
	def = level_arg(m, fcinfo, 3, max);
	row = level_arg(m, fcinfo, 4, def);
	if (!(min <= row && row <= def && def <= max))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("levels out of order: minimum %s, row %s, default %s, maximum %s",
						m->comp[LBAC_LEVEL][min].name, m->comp[LBAC_LEVEL][row].name,
						m->comp[LBAC_LEVEL][def].name, m->comp[LBAC_LEVEL][max].name),
				 errdetail("The minimum level may not exceed the row level, the row level the default level, the default level the maximum.")));
	a.has_levels = true;
	a.levels[LBAC_MAX] = max;
	a.levels[LBAC_MIN] = min;
	a.levels[LBAC_DEFL] = def;
	a.levels[LBAC_ROWL] = row;
	write_auth(m, &a);
	admin_done(m);
	PG_RETURN_VOID();
}

/*
 * The four sets of set_compartments and set_groups: read (required, ''
 * for none), write, default (NULL: as the read set) and row (NULL: those
 * of the write and default sets both hold).  Groups count with their
 * descendants (holding a group grants the groups below it).
 */
static void
set_sets(FunctionCallInfo fcinfo, LbacKind kind, const char *fname)
{
	LbacModel  *m = admin_begin(fname);
	Oid			role = arg_role(fcinfo, 0);
	LbacAuth	a = current_auth(m, role);
	Bitmapset  *sets[LBAC_NSETS];
	Bitmapset  *(*within) (const LbacModel *, const Bitmapset *);
	int			s;
	const char *plural = kind == LBAC_COMPARTMENT ? "compartments" : "groups";

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the read %s must not be null ('' for none)", plural)));
	for (s = 0; s < LBAC_NSETS; s++)
	{
		sets[s] = NULL;
		if (!PG_ARGISNULL(1 + s))
			(void) lbac_parse_names(m, kind, text_to_cstring(PG_GETARG_TEXT_PP(1 + s)),
									&sets[s]);
	}
	if (PG_ARGISNULL(2))
		sets[LBAC_WRITE] = bms_copy(sets[LBAC_READ]);
	if (PG_ARGISNULL(3))
		sets[LBAC_DEF] = bms_copy(sets[LBAC_READ]);
	if (PG_ARGISNULL(4))
		sets[LBAC_ROW] = bms_intersect(sets[LBAC_WRITE], sets[LBAC_DEF]);

	/* sets as they reach: compartments as they are, groups with their descendants */
	within = kind == LBAC_GROUP ? lbac_groups_desc : NULL;
#define REACH(x) (within ? within(m, (x)) : (x))
	if (!bms_is_subset(sets[LBAC_WRITE], REACH(sets[LBAC_READ])) ||
		!bms_is_subset(sets[LBAC_DEF], REACH(sets[LBAC_READ])) ||
		!bms_is_subset(sets[LBAC_ROW], REACH(sets[LBAC_WRITE])) ||
		!bms_is_subset(sets[LBAC_ROW], REACH(sets[LBAC_DEF])))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("inconsistent %s for role \"%s\"", plural,
						GetUserNameFromId(role, false)),
				 errdetail("The write and default %s must be among the read ones, and the row %s among the write and the default ones.",
						   plural, plural)));
#undef REACH
	for (s = 0; s < LBAC_NSETS; s++)
	{
		if (kind == LBAC_COMPARTMENT)
			a.comps[s] = sets[s];
		else
			a.groups[s] = sets[s];
	}
	write_auth(m, &a);
	admin_done(m);
}

Datum
lbac_set_compartments(PG_FUNCTION_ARGS)
{
	set_sets(fcinfo, LBAC_COMPARTMENT, "lbac.set_compartments()");
	PG_RETURN_VOID();
}

Datum
lbac_set_groups(PG_FUNCTION_ARGS)
{
	set_sets(fcinfo, LBAC_GROUP, "lbac.set_groups()");
	PG_RETURN_VOID();
}

/* "READ, WRITEUP" as privilege bits (ERROR 22023 on an unknown name) */
static uint32
privilege_bits(const char *list)
{
	char	   *copy = pstrdup(list);
	char	   *save;
	char	   *tok;
	uint32		bits = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *end = tok + strlen(tok);
		char	   *name;
		int			p;

		while (*tok == ' ')
			tok++;
		while (end > tok && end[-1] == ' ')
			end--;
		name = lbac_upper_name(pnstrdup(tok, end - tok));
		for (p = 0; p < LBAC_NPRIVS; p++)
			if (strcmp(name, lbac_priv_names[p]) == 0)
				break;
		if (p == LBAC_NPRIVS)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown lbac privilege \"%s\"", name),
					 errhint("The privileges are READ, FULL, COMPACCESS, WRITEUP, WRITEDOWN, WRITEACROSS and PROFILE_ACCESS.")));
		bits |= 1U << p;
	}
	if (bits == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no lbac privilege named")));
	return bits;
}

static void
change_privileges(FunctionCallInfo fcinfo, bool grant, const char *fname)
{
	LbacModel  *m = admin_begin(fname);
	Oid			role = arg_role(fcinfo, 0);
	LbacAuth	a = current_auth(m, role);
	uint32		bits = privilege_bits(arg_required(fcinfo, 1, "privileges"));

	if (grant)
		a.privs |= bits;
	else
		a.privs &= ~bits;
	write_auth(m, &a);
	admin_done(m);
}

Datum
lbac_grant_privileges(PG_FUNCTION_ARGS)
{
	change_privileges(fcinfo, true, "lbac.grant_privileges()");
	PG_RETURN_VOID();
}

Datum
lbac_revoke_privileges(PG_FUNCTION_ARGS)
{
	change_privileges(fcinfo, false, "lbac.revoke_privileges()");
	PG_RETURN_VOID();
}

Datum
lbac_drop_authorization(PG_FUNCTION_ARGS)
{
	LbacModel  *m = admin_begin("lbac.drop_authorization()");
	Oid			role = arg_role(fcinfo, 0);

	if (lbac_find_auth(m, role) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("role \"%s\" has no authorization in the lbac model",
						GetUserNameFromId(role, false))));
	delete_row(m->relids[LBAC_T_AUTHORIZATIONS], 1, F_OIDEQ,
			   ObjectIdGetDatum(role));
	admin_done(m);
	PG_RETURN_VOID();
}

/* ---- administrators ---- */

Datum
lbac_grant_administration(PG_FUNCTION_ARGS)
{
	LbacModel  *m = admin_begin("lbac.grant_administration()");
	Oid			role = arg_role(fcinfo, 0);
	Datum		value = ObjectIdGetDatum(role);
	bool		null = false;

	if (!lbac_is_admin(m, role))
		insert_row(m->relids[LBAC_T_ADMINISTRATORS], &value, &null);
	admin_done(m);
	PG_RETURN_VOID();
}

Datum
lbac_revoke_administration(PG_FUNCTION_ARGS)
{
	LbacModel  *m = admin_begin("lbac.revoke_administration()");
	Oid			role = arg_role(fcinfo, 0);

	if (!lbac_is_admin(m, role))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("role \"%s\" does not administer the lbac model",
						GetUserNameFromId(role, false))));
	if (m->nadmins == 1)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("cannot revoke administration from the last administrator of the lbac model"),
				 errhint("Grant it to another role first (lbac.grant_administration).")));
	delete_row(m->relids[LBAC_T_ADMINISTRATORS], 1, F_OIDEQ,
			   ObjectIdGetDatum(role));
	admin_done(m);
	PG_RETURN_VOID();
}
