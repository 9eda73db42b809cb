/*-------------------------------------------------------------------------
 *
 * src/lbac/model_read.c
 *	  The model's tables (schema lbac, members of the extension labelam):
 *	  finding them and reading a model from them.
 *
 * Only the extension's own tables count: in a database where someone
 * made a schema lbac of their own, or where a table was taken out of the
 * extension, there is no model, and every decision denies.  The tables
 * are read with a snapshot taken now, not the transaction's: a change
 * committed since a repeatable-read transaction began governs its next
 * statement (session.c says when a model is read).  Rows are read with
 * the table access method's own scans, so no trigger, rule or policy on
 * the tables ever runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "lbac/lbac_int.h"

const char *const lbac_table_names[LBAC_NTABLES] = {
	"levels", "compartments", "groups", "authorizations", "administrators"
};

/* columns of lbac.authorizations (sql/60_lbac.sql) */
#define AUTH_ROLE			1
#define AUTH_LEVELS			2	/* max_level, min_level, def_level, row_level */
#define AUTH_COMPS			6	/* read, write, def, row */
#define AUTH_GROUPS			10	/* read, write, def, row */
#define AUTH_PRIVILEGES		14
#define AUTH_NATTS			14

/*
 * The OIDs of the model's tables, if the extension is installed in this
 * database and they are its own; false otherwise.
 */
bool
lbac_tables_find(Oid relids[LBAC_NTABLES])
{
	Oid			nsp = get_namespace_oid("lbac", true);
	Oid			extoid;
	int			i;

	/* the schema first: a syscache lookup, cached when absent too */
	if (!OidIsValid(nsp))
		return false;
	extoid = get_extension_oid("labelam", true);
	if (!OidIsValid(extoid))
		return false;
	for (i = 0; i < LBAC_NTABLES; i++)
	{
		relids[i] = get_relname_relid(lbac_table_names[i], nsp);
		if (!OidIsValid(relids[i]) ||
			getExtensionOfObject(RelationRelationId, relids[i]) != extoid)
			return false;
	}
	return true;
}

/*
 * Is relid one of the model's tables?  Cheap for the relations that are
 * not in a schema named lbac (syscache lookups only).
 */
bool
lbac_is_model_table(Oid relid)
{
	Oid			nsp = get_namespace_oid("lbac", true);
	Oid			relids[LBAC_NTABLES];
	int			i;

	if (!OidIsValid(nsp) || get_rel_namespace(relid) != nsp)
		return false;
	if (!lbac_tables_find(relids))
		return false;
	for (i = 0; i < LBAC_NTABLES; i++)
		if (relids[i] == relid)
			return true;
	return false;
}

/* the int4[] datum's elements (palloc'd); NULLs are left out */
static int
int_array(Datum d, int32 **out)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;
	int			k = 0;

	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, &nulls, &n);
	*out = palloc(sizeof(int32) * Max(n, 1));
	for (i = 0; i < n; i++)
		if (!nulls[i])
			(*out)[k++] = DatumGetInt32(elems[i]);
	return k;
}

static uint32
privileges(Datum d)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	int			i;
	int			p;
	uint32		result = 0;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &n);
	for (i = 0; i < n; i++)
	{
		char	   *name;

		if (nulls[i])
			continue;
		name = TextDatumGetCString(elems[i]);
		for (p = 0; p < LBAC_NPRIVS; p++)
			if (strcmp(name, lbac_priv_names[p]) == 0)
				result |= 1U << p;
	}
	return result;
}

static void
read_components(LbacModel *m, LbacKind kind, Oid relid, Snapshot snapshot)
{
	Relation	rel = table_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, snapshot,
										  0, NULL);
	HeapTuple	tup;

	while ((tup = systable_getnext(scan)) != NULL)
	{
		bool		isnull;
		Datum		num = heap_getattr(tup, 1, desc, &isnull);
		Datum		name;
		Datum		long_name;
		bool		long_null;
		Datum		parent = (Datum) 0;
		bool		parent_null = true;

		if (isnull)
			continue;
		name = heap_getattr(tup, 2, desc, &isnull);
		if (isnull)
			continue;
		long_name = heap_getattr(tup, 3, desc, &long_null);
		if (kind == LBAC_GROUP)
			parent = heap_getattr(tup, 4, desc, &parent_null);
		lbac_model_add_component(m, kind, DatumGetInt32(num),
								 TextDatumGetCString(name),
								 long_null ? NULL : TextDatumGetCString(long_name),
								 !parent_null,
								 parent_null ? 0 : DatumGetInt32(parent));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

static void
read_authorizations(LbacModel *m, Oid relid, Snapshot snapshot)
{
	Relation	rel = table_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, snapshot,
										  0, NULL);
	HeapTuple	tup;

	if (desc->natts != AUTH_NATTS)
		elog(ERROR, "labelam: lbac.authorizations has %d columns, not %d",
			 desc->natts, AUTH_NATTS);
	while ((tup = systable_getnext(scan)) != NULL)
	{
		LbacAuthNums a;
		Datum		values[AUTH_NATTS];
		bool		nulls[AUTH_NATTS];
		int			s;

		heap_deform_tuple(tup, desc, values, nulls);
		if (nulls[AUTH_ROLE - 1])
			continue;
		memset(&a, 0, sizeof(a));
		a.role = DatumGetObjectId(values[AUTH_ROLE - 1]);
		a.has_levels = true;
		for (s = 0; s < 4; s++)
		{
			if (nulls[AUTH_LEVELS - 1 + s])
				a.has_levels = false;
			else
				a.levels[s] = DatumGetInt32(values[AUTH_LEVELS - 1 + s]);
		}
		for (s = 0; s < LBAC_NSETS; s++)
		{
			if (!nulls[AUTH_COMPS - 1 + s])
				a.nsets[0][s] = int_array(values[AUTH_COMPS - 1 + s],
										  &a.sets[0][s]);
			if (!nulls[AUTH_GROUPS - 1 + s])
				a.nsets[1][s] = int_array(values[AUTH_GROUPS - 1 + s],
										  &a.sets[1][s]);
		}
		if (!nulls[AUTH_PRIVILEGES - 1])
			a.privs = privileges(values[AUTH_PRIVILEGES - 1]);
		lbac_model_add_auth(m, &a);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

static void
read_administrators(LbacModel *m, Oid relid, Snapshot snapshot)
{
	Relation	rel = table_open(relid, AccessShareLock);
	TupleDesc	desc = RelationGetDescr(rel);
	SysScanDesc scan = systable_beginscan(rel, InvalidOid, false, snapshot,
										  0, NULL);
	HeapTuple	tup;

	while ((tup = systable_getnext(scan)) != NULL)
	{
		bool		isnull;
		Datum		role = heap_getattr(tup, 1, desc, &isnull);

		if (!isnull)
			lbac_model_add_admin(m, DatumGetObjectId(role));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/*
 * The model as the tables hold it now (committed changes, and this
 * transaction's own), in a memory context under the current one.  Needs
 * a transaction and no parallel mode (GetLatestSnapshot).
 */
LbacModel *
lbac_model_read(void)
{
	LbacModel  *m = lbac_model_new();
	Snapshot	snapshot;

	m->installed = lbac_tables_find(m->relids);
	if (m->installed)
	{
		snapshot = RegisterSnapshot(GetLatestSnapshot());
		read_components(m, LBAC_LEVEL, m->relids[LBAC_T_LEVELS], snapshot);
		read_components(m, LBAC_COMPARTMENT, m->relids[LBAC_T_COMPARTMENTS],
						snapshot);
		read_components(m, LBAC_GROUP, m->relids[LBAC_T_GROUPS], snapshot);
		read_authorizations(m, m->relids[LBAC_T_AUTHORIZATIONS], snapshot);
		read_administrators(m, m->relids[LBAC_T_ADMINISTRATORS], snapshot);
		UnregisterSnapshot(snapshot);
	}
	lbac_model_finish(m);
	return m;
}
