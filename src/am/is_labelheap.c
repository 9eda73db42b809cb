/*-------------------------------------------------------------------------
 *
 * src/am/is_labelheap.c
 *	  Whether a relation, or an access method, is labelheap: asked by every
 *	  part of the access method and by the subsystems above it.
 *
 * The routine labelheap_handler returns is stored here, and filled by
 * handler.c at its first call, so that asking needs nothing of the
 * callbacks: a relation is labelheap exactly when its rd_tableam is this
 * routine (no relation can point at it before the handler has returned
 * it).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "commands/defrem.h"
#include "utils/rel.h"

#include "am/is_labelheap.h"
#include "am/labelheap.h"

TableAmRoutine labelheap_methods;

bool
is_labelheap_relation(Relation rel)
{
	return rel->rd_tableam == &labelheap_methods;
}

/*
 * Do the rows written into rel carry labels?  A labelheap table, or a
 * partitioned table with labelheap partitions (ddl/refuse.c keeps a tree
 * from mixing access methods).  Locks the partitions AccessShareLock.
 */
bool
labelheap_rows_labeled(Relation rel)
{
	List	   *members;
	ListCell   *lc;
	bool		labeled = false;

	if (is_labelheap_relation(rel))
		return true;
	if (rel->rd_rel->relkind != RELKIND_PARTITIONED_TABLE)
		return false;
	members = find_all_inheritors(RelationGetRelid(rel), AccessShareLock,
								  NULL);
	foreach(lc, members)
	{
		Relation	member = relation_open(lfirst_oid(lc), NoLock);

		labeled = is_labelheap_relation(member);
		relation_close(member, NoLock);
		if (labeled)
			break;
	}
	return labeled;
}

/*
 * Is amoid (a pg_class.relam) labelheap?  For relations that are not open:
 * by name, since the access method's OID differs from database to database.
 */
bool
is_labelheap_am(Oid amoid)
{
	char	   *amname = OidIsValid(amoid) ? get_am_name(amoid) : NULL;
	bool		result = amname != NULL && strcmp(amname, "labelheap") == 0;

	if (amname)
		pfree(amname);
	return result;
}
