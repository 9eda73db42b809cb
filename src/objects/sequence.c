/* -------------------------------------------------------------------------
 *
 * src/objects/sequence.c
 *	  Sequences used by an INSERT on their own: identity columns.
 *
 * An INSERT that leaves an identity column to its sequence draws the next
 * value (NextValueExpr, no function call): db_sequence next_value on the
 * identity sequence, checked with the table's other permissions.  Reading
 * a sequence as a relation (get_value), altering, creating, dropping and
 * relabeling it are contrib/sepgsql's checks (dml.c, relation.c).  The
 * sequence functions nextval, currval and setval are built into the server
 * and called without a hook that sees their argument: they are not decided
 * per sequence yet (doc/objects.md).
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "access/sysattr.h"
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "objects/objects.h"
#include "pg_compat.h"

/*
 * Has the relation an identity column?  From the syscache, without opening
 * it: sepgsql's permission loop also visits the partitions of an INSERT's
 * target, which the executor locks only when it routes a row there.
 */
static bool
has_identity_column(Oid relOid)
{
	HeapTuple	tp;
	int			natts;
	AttrNumber	attnum;
	bool		found = false;

	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relOid));
	if (!HeapTupleIsValid(tp))
		return false;
	natts = ((Form_pg_class) GETSTRUCT(tp))->relnatts;
	ReleaseSysCache(tp);
	for (attnum = 1; attnum <= natts && !found; attnum++)
	{
		tp = SearchSysCache2(ATTNUM, ObjectIdGetDatum(relOid),
							 Int16GetDatum(attnum));
		if (!HeapTupleIsValid(tp))
			continue;
		found = ((Form_pg_attribute) GETSTRUCT(tp))->attidentity != '\0';
		ReleaseSysCache(tp);
	}
	return found;
}

void
objects_sequence_identity(Oid relOid, Bitmapset *insertedCols)
{
	Relation	rel;
	TupleDesc	desc;
	int			i;

	if (!has_identity_column(relOid))
		return;

	/* a relation is read under a lock (it may be an unrouted partition) */
	rel = relation_open(relOid, AccessShareLock);
	desc = RelationGetDescr(rel);
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Oid			seqid;
		ObjectAddress object;
		char	   *audit_name;

		if (att->attisdropped || att->attidentity == '\0')
			continue;

		/* given a value, a BY DEFAULT column does not draw one */
		if (att->attidentity == ATTRIBUTE_IDENTITY_BY_DEFAULT &&
			bms_is_member(att->attnum - FirstLowInvalidHeapAttributeNumber,
						  insertedCols))
			continue;

		seqid = labelam_getIdentitySequence(rel, att->attnum, true);
		if (!OidIsValid(seqid))
			continue;
		ObjectAddressSet(object, RelationRelationId, seqid);
		audit_name = getObjectIdentity(&object, false);
		sepgsql_avc_check_perms(&object,
								SEPG_CLASS_DB_SEQUENCE,
								SEPG_DB_SEQUENCE__NEXT_VALUE,
								audit_name,
								true);
		pfree(audit_name);
	}
	relation_close(rel, NoLock);
}
