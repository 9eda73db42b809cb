/*-------------------------------------------------------------------------
 *
 * src/am/channels/statistics_labels.h
 *	  The labels of the rows statistics were computed from, and who may
 *	  read those statistics (statistics_labels.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_STATISTICS_LABELS_H
#define LABELHEAP_STATISTICS_LABELS_H

#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "utils/relcache.h"

struct PlannerInfo;
struct RangeTblEntry;
struct VariableStatData;
struct RelOptInfo;
struct Query;
struct PlannedStmt;

/* analyze.c: a row of rel went into ANALYZE's sample */
extern void labelheap_statistics_sampled(Relation rel, Oid secid);

/* may the session read the statistics of relid (inherited ones if inh)? */
extern bool labelheap_statistics_visible(Oid relid, bool inh);

/* src/hooks.c's entry points */
extern void labelheap_statistics_xact(XactEvent event);
extern void labelheap_statistics_relcache(Oid relid);
extern void labelheap_statistics_object_access(ObjectAccessType access,
											   Oid classId, Oid objectId,
											   int subId);
extern bool labelheap_statistics_relation_hook(struct PlannerInfo *root,
											   struct RangeTblEntry *rte,
											   AttrNumber attnum,
											   struct VariableStatData *vardata);
extern bool labelheap_statistics_index_hook(struct PlannerInfo *root,
											Oid indexOid,
											AttrNumber indexattnum,
											struct VariableStatData *vardata);
extern int32 labelheap_statistics_attavgwidth(Oid relid, AttrNumber attnum);
extern void labelheap_statistics_relation_info(Oid relid, bool inhparent,
											   struct RelOptInfo *rel);
extern void labelheap_statistics_planner(struct Query *parse);
extern void labelheap_statistics_copy_utility(struct PlannedStmt *pstmt);

#endif							/* LABELHEAP_STATISTICS_LABELS_H */
