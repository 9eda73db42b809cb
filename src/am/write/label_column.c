/*-------------------------------------------------------------------------
 *
 * src/am/write/label_column.c
 *	  Which column of a labelheap relation is its declared label column (of
 *	  type labelam.security_label), cached in the relation's rd_amcache
 *	  (am/relcache.h), and taking a written value out of it.
 *
 * The column's value lives in the tuple header: the data area always holds
 * NULL for it.  The SQL side of the column (reads, COPY TO, DDL checks) is
 * in label_sql/column.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/relcache.h"
#include "am/write/label_column.h"
#include "avc/avc.h"
#include "label_store/label_store.h"

/* OID of labelam.security_label, looked up again after pg_type changes */
static bool label_type_valid = false;
static Oid	label_type_oid = InvalidOid;

/* src/hooks.c calls this when pg_type changes */
void
labelheap_label_column_type_changed(void)
{
	label_type_valid = false;
}

Oid
labelheap_label_column_type(void)
{
	if (!label_type_valid)
	{
		Oid			nspoid = get_namespace_oid("labelam", true);

		label_type_oid = InvalidOid;
		if (OidIsValid(nspoid))
			label_type_oid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
											 CStringGetDatum("security_label"),
											 ObjectIdGetDatum(nspoid));
		label_type_valid = true;
	}
	return label_type_oid;
}

/*
 * Attribute number of rel's label column, 0 if it has none.  Cached in
 * rd_amcache, which the relcache frees whenever the relation's entry is
 * rebuilt, e.g. after ALTER TABLE changes its columns.
 */
AttrNumber
labelheap_label_column_attnum(Relation rel)
{
	LabelheapRelCache *cache = (LabelheapRelCache *) rel->rd_amcache;

	if (cache == NULL || !cache->attnum_valid)
	{
		TupleDesc	desc = RelationGetDescr(rel);
		Oid			typoid = labelheap_label_column_type();
		AttrNumber	attnum = 0;
		int			i;

		for (i = 0; OidIsValid(typoid) && i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);

			if (!att->attisdropped && att->atttypid == typoid)
			{
				attnum = att->attnum;
				break;
			}
		}
		/* the lookups above may have reset rd_amcache: fetch it now */
		cache = labelheap_relcache(rel);
		cache->attnum = attnum;
		cache->attnum_valid = true;
	}
	return cache->attnum;
}

/*
 * The label the slot's label column (attnum) asks for, interned, or
 * InvalidOid if it is NULL; the column is set to NULL in the slot, since
 * the data area never holds it.  Only the slot's values change (a tuple
 * it holds does not): the caller forms the new tuple from them.
 */
Oid
labelheap_label_column_take(TupleTableSlot *slot, AttrNumber attnum)
{
	char	   *label;
	Oid			secid;

	slot_getallattrs(slot);
	if (slot->tts_isnull[attnum - 1])
		return InvalidOid;
	/* canonical before it is interned: label_store stores what it gets */
	label = avc_storable_label(TextDatumGetCString(slot->tts_values[attnum - 1]));
	secid = label_intern(label);
	slot->tts_values[attnum - 1] = (Datum) 0;
	slot->tts_isnull[attnum - 1] = true;
	return secid;
}
