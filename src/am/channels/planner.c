/*-------------------------------------------------------------------------
 *
 * src/am/channels/planner.c
 *	  The planner's index endpoint probes never read a labelheap table for
 *	  a session that may not select all of its rows.
 *
 * When a comparison falls into the first or last bucket of a histogram,
 * PostgreSQL 15's selfuncs.c (get_actual_variable_range, and
 * get_actual_variable_endpoint) replaces the histogram's end with the
 * column's actual minimum or maximum, read from a btree index (and the
 * heap, with SnapshotNonVacuumable).  That read is not a scan the executor
 * makes, so no AM callback filters it, and its result shows in EXPLAIN's
 * estimates: a binary search on "WHERE v > $x" finds a hidden maximum
 * exactly.
 *
 * The least invasive switch is the one selfuncs.c offers plugins: it skips
 * IndexOptInfo entries marked "hypothetical" (indexes a get_relation_info
 * hook invented).  In PostgreSQL 15 the field is read in three places only:
 * get_actual_variable_range (skip the probe), gincostestimate and
 * brincostestimate (don't read the metapage).  So we mark btree indexes
 * only, the only ones get_actual_variable_range probes: costs, paths and
 * plans are otherwise unchanged, the executor never sees the flag, and the
 * estimate falls back to the histogram, which ANALYZE built from rows the
 * statistics label may select (analyze.c).
 *
 * Invariant: a session that may not select every label present in a
 * labelheap table gets no endpoint probe of that table.  A session that
 * may (the table holds only labels it can read) keeps PostgreSQL's
 * estimates.  The decision is made when the plan is made: a cached plan
 * keeps the estimates it was made with.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_am_d.h"
#include "nodes/pathnodes.h"
#include "optimizer/plancat.h"
#include "utils/rel.h"

#include "am/label_set/label_set.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "avc/avc.h"


void
labelheap_planner_relation_info(PlannerInfo *root, Oid relationObjectId,
						  bool inhparent, RelOptInfo *rel)
{
	if (rel->indexlist != NIL)
	{
		/* get_relation_info holds a lock on it already */
		Relation	relation = table_open(relationObjectId, NoLock);

		if (relation->rd_tableam != NULL && is_labelheap_relation(relation) &&
			!labelheap_label_set_allowed(relation, AVC_DB_TUPLE_SELECT))
		{
			ListCell   *lc;

			foreach(lc, rel->indexlist)
			{
				IndexOptInfo *index = (IndexOptInfo *) lfirst(lc);

				if (index->relam == BTREE_AM_OID)
					index->hypothetical = true;
			}
		}
		table_close(relation, NoLock);
	}
}
