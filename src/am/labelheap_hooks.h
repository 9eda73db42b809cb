/*-------------------------------------------------------------------------
 *
 * src/am/labelheap_hooks.h
 *	  The access method's entry points that src/hooks.c calls from the
 *	  server's hooks and callbacks (src/hooks.c says when and in which
 *	  order).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELHEAP_HOOKS_H
#define LABELHEAP_HOOKS_H

#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "fmgr.h"
#include "nodes/nodes.h"
#include "utils/elog.h"

struct QueryDesc;
struct PlannedStmt;
struct PlannerInfo;
struct RelOptInfo;

/* read/frames.c: who reads (see there) */
typedef enum LabelheapReadMode
{
	READ_FILTERED,				/* skipped */
	READ_STRICT,				/* an ERROR */
	READ_UNFILTERED				/* returned (integrity checks only) */
} LabelheapReadMode;

typedef struct LabelheapFrame
{
	uint64		id;
	LabelheapReadMode mode;
	NodeTag		utility;		/* statement of a utility frame, else 0 */
	const char *action;			/* verb for READ_STRICT errors */
	bool		ri;				/* a referential-integrity query's frame */
	Oid			ri_userid;		/* what to restore when it ends */
	int			ri_sec_context;
	bool		counts_buffers; /* its buffer or WAL usage is reported */
	struct LabelheapFrame *outer;
} LabelheapFrame;

extern void labelheap_frame_enter_executor(LabelheapFrame *frame,
										   struct QueryDesc *queryDesc);
extern void labelheap_frame_enter_utility(LabelheapFrame *frame,
										  struct PlannedStmt *pstmt);
extern void labelheap_frame_leave(LabelheapFrame *frame);
extern bool labelheap_frame_counts_buffers(void);

/* channels/instrumented.c: no instrumented execution over hidden rows */
extern void labelheap_instrumented_executor_start(struct QueryDesc *queryDesc,
												  int eflags);
extern void labelheap_instrumented_executor_frame(struct QueryDesc *queryDesc);

/* ddl/refuse.c: DDL after which rows would leave labelheap */
extern void labelheap_refuse_utility(struct PlannedStmt *pstmt);

/* channels/messages.c: exclusion conflicts with hidden rows show no key */
extern void labelheap_messages_emit_log(ErrorData *edata);

/* write/new_label.c: carried labels forgotten at transaction end */
extern void labelheap_labeling_xact(XactEvent event);

/* write/label_column.c: the label column's type looked up again */
extern void labelheap_label_column_type_changed(void);

/* read/filter.c: RI_Initial_Check goes row by row */
extern bool labelheap_ri_check_perms(List *rangeTable,
									 bool ereport_on_violation);

/* channels/planner.c: no index endpoint probes past the session's reach */
extern void labelheap_planner_relation_info(struct PlannerInfo *root,
											Oid relationObjectId,
											bool inhparent,
											struct RelOptInfo *rel);

/* read/ios.c: index-only scans that ask the AM */
extern void labelheap_ios_executor_start(struct QueryDesc *queryDesc);

/* channels/raw_access.c: refusing reads that bypass the access method */
extern bool labelheap_raw_check_perms(List *rangeTable,
									  bool ereport_on_violation);
extern bool labelheap_raw_needs_fmgr_hook(Oid fn_oid);
extern void labelheap_raw_fmgr_hook(FmgrHookEventType event,
									FmgrInfo *flinfo);

/* channels/counters.c: statistics built-ins reached without their checked twins */
extern void labelheap_counters_object_access(ObjectAccessType access,
											 Oid classId, Oid objectId);

/*
 * label_set/label_set_checks.c: REFRESH MATERIALIZED VIEW, DROP TABLE and
 * DROP COLUMN need every label
 */
extern void labelheap_label_set_utility(struct PlannedStmt *pstmt);
extern void labelheap_label_set_object_access(ObjectAccessType access,
											  Oid classId, Oid objectId,
											  int subId, void *arg);

/* label_set/label_set.c: label-set rows a transaction noted, and the cache */
extern void labelheap_label_set_xact(XactEvent event);
extern void labelheap_label_set_subxact(SubXactEvent event,
										SubTransactionId mySubid,
										SubTransactionId parentSubid);
extern void labelheap_label_set_relcache(Oid relid);

#endif							/* LABELHEAP_HOOKS_H */
