/*-------------------------------------------------------------------------
 *
 * src/hooks.c
 *	  Every server hook and callback labelam uses, installed here once,
 *	  each calling the subsystems' entry points in the order shown.
 *
 * Subsystems export plain functions and never chain hooks themselves; what
 * runs when, and in which order, is this file:
 *
 *	ProcessUtility
 *		label_sql/column.c	COPY t TO of a table with a label column (or,
 *							with labelam.dump_labels, of any labelheap
 *							table) runs as COPY (SELECT ...) TO
 *		shared_state/notify.c NOTIFY's payload carries the sender's label
 *							(refused in a trusted session)
 *		avc/boundaries.c	statement start (policy reload check), depth
 *							(a trusted session's maintenance checks use
 *							its own label only in a command nested in
 *							nothing: avc/trusted.c)
 *		shared_state/backend_labels.c the session's write label published
 *		am/read/frames.c	the command's frame: its own scans are strict,
 *							COPY TO's filtered; EXPLAIN's reports buffers
 *		objects/dispatch.c	LOAD, CREATE EXTENSION, ALTER SYSTEM checks;
 *							CREATE DATABASE's template for its label
 *		am/label_set/label_set_checks.c REFRESH MATERIALIZED VIEW needs every label
 *		am/ddl/refuse.c		DDL after which rows would leave labelheap
 *		shared_state/prepared.c PREPARE TRANSACTION records its label
 *		shared_state/catalogs.c ALTER SYSTEM only at every database's level
 *		am/channels/statistics_labels.c COPY pg_statistic TO needs every
 *							recorded label
 *		lbac/guard.c		ALTER TABLE and CREATE INDEX on the lbac
 *							model's tables, ALTER EXTENSION labelam
 *							ADD/DROP
 *		files/copy.c		COPY to or from a server file: the file opened
 *							and decided on its descriptor, rows from it
 *							at its level, a read ceiling while writing
 *							it; the COPY runs on the descriptor
 *		label_sql/dump.c	with labelam.restore_labels, COPY FROM of a
 *							table whose lines carry labels runs there,
 *							as one INSERT a row, instead of the rest
 *		(PostgreSQL)
 *		shared_state/catalogs.c COMMENT, GRANT, SECURITY LABEL ... wrote
 *							catalogs: only at the database's level
 *		files/copy.c		after it: the file's label again (relabeled
 *							while read or written: an error); always: the
 *							file closed (one created for a failed COPY
 *							removed), the ceiling or the rows' level gone
 *		avc/boundaries.c	audit flush at top level
 *	ExecutorStart
 *		avc/boundaries.c	statement start (lbac: the model taken in here,
 *							before any parallel worker starts)
 *		shared_state/backend_labels.c the session's write label published
 *		am/replication/apply.c no query in code a logical replication
 *							worker runs
 *		objects/label.c		no parallel workers inside trusted procedures,
 *							nor while a file is written (read ceiling)
 *		avc/boundaries.c	depth, around PostgreSQL's (a query started
 *							inside a maintenance command is nested in it)
 *		(PostgreSQL)
 *		am/channels/instrumented.c no instrumented query (EXPLAIN ANALYZE, BUFFERS,
 *							auto_explain) over rows beyond the session's
 *							reach, as the hooks before set it up
 *		am/read/ios.c		index-only scans of labelheap tables ask the table
 *	ExecutorRun, ExecutorFinish
 *		avc/boundaries.c	depth
 *		am/read/frames.c	the query's frame: filtered, or a referential-
 *							integrity query's (unfiltered check, strict
 *							action)
 *		am/channels/instrumented.c decided again: a cursor read inside an
 *							instrumented query, a label committed since
 *		(PostgreSQL)
 *	ExecutorEnd
 *		(PostgreSQL)
 *		avc/boundaries.c	audit flush at top level
 *	ExecutorCheckPerms
 *		am/channels/raw_access.c no direct reads of labelheap TOAST relations
 *		am/read/filter.c	RI_Initial_Check goes row by row
 *		objects/dispatch.c	db_table, db_column, db_sequence, db_view
 *							(objects/dml.c decides)
 *		lbac/guard.c		no writes to the lbac model's tables
 *	object_access_hook
 *		am/replication/message.c pg_logical_emit_message without its twin
 *		am/replication/publication.c publishing labelheap tables needs their
 *							label column
 *		am/channels/counters.c statistics counters reached without their
 *							checked twins, pg_stat_io: every label
 *		shared_state/twins.c other sessions' state and pg_notify reached
 *							without their checked twins
 *		am/label_set/label_set_checks.c DROP TABLE / DROP COLUMN need every label
 *		files/large_objects.c lo_import, lo_export reached without their
 *							checked twins: refused
 *		label_sql/column.c	DDL checks of the declared label column
 *		objects/dispatch.c	labels of new objects; create, drop, setattr,
 *							truncate, schema search, function execute (a
 *							trusted session's maintenance command decides
 *							its own DDL checks with its own label)
 *		shared_state/catalogs.c catalog writes only at the database's level
 *		am/channels/statistics_labels.c a dropped relation's recorded labels
 *		lbac/guard.c		no TRUNCATE or ALTER of the lbac model's
 *							tables, no DROP ROLE of a role it names
 *	ClientAuthentication
 *		am/replication/walsender.c physical replication for superusers only
 *		avc/boundaries.c	the client's SELinux peer label
 *		shared_state/backend_labels.c the session hidden from others until
 *							its label is known
 *	needs_fmgr_hook, fmgr_hook
 *		am/channels/raw_access.c raw page readers refused on labelheap storage
 *		objects/label.c		trusted procedures run with the policy's label;
 *							functions the subject may not execute refused
 *		shared_state/notify.c contrib/tcn's trigger refused (its
 *							notifications could not be labeled)
 *	planner_hook
 *		objects/functions.c	calls of sequence, large-object and statistics
 *							counter built-ins become calls of their
 *							checked twins (counters: am/channels/counters.c;
 *							lo_import, lo_export: files/large_objects.c),
 *							and of those showing other sessions' state and
 *							pg_notify (src/shared_state)
 *		am/channels/statistics_labels.c reads of pg_statistic and
 *							pg_statistic_ext_data get a security qual
 *	get_relation_info_hook
 *		am/channels/planner.c no index endpoint probes past the session's reach
 *		am/channels/statistics_labels.c no extended statistics it may not read
 *	get_relation_stats_hook, get_index_stats_hook, get_attavgwidth_hook
 *		am/channels/statistics_labels.c no statistics computed from rows
 *							the session may not select
 *	post_parse_analyze_hook
 *		label_sql/parse.c	t.security_label and the label column
 *	emit_log_hook
 *		am/replication/walsender.c no physical replication command on a
 *							logical connection of a role that is not a
 *							superuser (as it is logged)
 *		am/channels/messages.c exclusion conflicts with hidden rows show no key
 *	shmem_request_hook, shmem_startup_hook
 *		label_store/shmem.c	the label dictionary's shared memory
 *		avc/denials.c		the summary of denials
 *		avc/sepol_shared.c	the sepol provider's decisions, for every backend
 *		shared_state/backend_labels.c each backend's write label
 *		shared_state/prepared.c each prepared transaction's write label
 *	RmgrTable[].rm_decode (logical decoding, every built-in resource manager)
 *		am/replication/rmgr.c labels noted (decode.c); the output
 *							plugin's callbacks wrapped by output.c's filter
 *	RegisterXactCallback: transaction end (one callback, in this order)
 *		avc/boundaries.c	session label resolution, audit flush
 *		shared_state/backend_labels.c the write label published (pre-commit)
 *		am/channels/statistics_labels.c labels of ANALYZE's samples recorded
 *							(pre-commit, pre-prepare)
 *		label_store/dict.c	labels interned by the transaction published
 *		am/label_set/label_set.c label-set rows noted by the transaction known
 *		am/write/new_label.c carried labels forgotten
 *	RegisterSubXactCallback: subtransaction end
 *		label_store/dict.c, am/label_set/label_set.c
 *		avc/table_label.c	tables' labels looked up again after an abort
 *	CacheRegisterRelcacheCallback: relcache invalidation
 *		am/label_set/label_set.c a relation's cached label set
 *		objects/object_label.c cached object labels
 *		avc/table_label.c	tables' labels looked up again
 *		lbac/session.c		the lbac model changed
 *		am/channels/statistics_labels.c a relation's recorded labels
 *	CacheRegisterSyscacheCallback: TYPEOID
 *		am/write/label_column.c the label column's type
 *	CacheRegisterSyscacheCallback: PROCOID
 *		label_sql/parse.c	labelam's functions
 *		objects/object_label.c cached object labels
 *	CacheRegisterSyscacheCallback: NAMESPACEOID, DATABASEOID
 *		objects/object_label.c, avc/table_label.c: their names feed
 *							default labels
 *	CacheRegisterSyscacheCallback: AMOID
 *		am/is_labelheap.c	labelheap's access method OID
 *	(label_store/catalog.c registers a relcache callback of its own, on
 *	first use of the dictionary catalog)
 *
 *	the avc's subject changes (avc_subject_changed_callback)
 *		shared_state/backend_labels.c hidden until the new label is published
 *	protocol messages to the client (PqCommMethods, wrapped)
 *		shared_state/notify.c a NotificationResponse goes out, without its
 *							label, only if the listener may read it
 *
 * Settings are defined by the subsystems' init functions, which _PG_init
 * (src/labelam.c) calls before installing the hooks; every setting is in
 * doc/configuration.md's table too (scripts/check-lists.py checks both):
 *
 *	am/handler.c		labelam.debug_own_write, labelam.skip_ranges,
 *						labelam.page_decisions, labelam.pass_ranges
 *	am/ddl/refuse.c		labelam.allow_unlabel
 *	am/write/new_label.c labelam.insert_label, labelam.update_label,
 *						labelam.restore_labels
 *	label_sql/dump.c	labelam.dump_labels
 *	label_store/dict.c	labelam.max_labels
 *	avc/settings.c		labelam.provider, labelam.policy_file,
 *						labelam.policy_booleans, labelam.audit,
 *						labelam.enforcing, labelam.max_denials,
 *						labelam.shared_decisions,
 *						labelam.default_client_label,
 *						labelam.statistics_label, labelam.session_label,
 *						labelam.connect_label, labelam.debug_opaque_labels
 *	avc/table_label.c	labelam.default_table_label
 *	objects/dispatch.c	labelam.object_checks, sepgsql.debug_audit
 *	lbac/session.c		labelam.lbac_model (the lbac model handed to
 *						parallel workers)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "libpq/auth.h"
#include "miscadmin.h"
#include "optimizer/plancat.h"
#include "parser/analyze.h"
#include "optimizer/planner.h"
#include "storage/ipc.h"
#include "tcop/utility.h"
#include "utils/elog.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "hooks.h"
#include "am/labelheap.h"
#include "am/labelheap_hooks.h"
#include "am/channels/statistics_labels.h"
#include "am/label_set/label_set.h"
#include "am/replication/replication.h"
#include "avc/avc.h"
#include "files/files.h"
#include "objects/objects.h"
#include "label_sql/label_sql.h"
#include "lbac/lbac.h"
#include "label_store/label_store.h"
#include "libpq/libpq.h"
#include "shared_state/shared_state.h"

/* The one way a hook calls what was installed before it. */
#define CALL_PREV(prev, standard, ...) \
	do { \
		if (prev) \
			(prev) (__VA_ARGS__); \
		else \
			standard(__VA_ARGS__); \
	} while (0)
#define CALL_PREV_IF_ANY(prev, ...) \
	do { \
		if (prev) \
			(prev) (__VA_ARGS__); \
	} while (0)

static ProcessUtility_hook_type prev_ProcessUtility = NULL;
static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;
static ExecutorCheckPerms_hook_type prev_ExecutorCheckPerms = NULL;
static object_access_hook_type prev_object_access = NULL;
static ClientAuthentication_hook_type prev_ClientAuthentication = NULL;
static needs_fmgr_hook_type prev_needs_fmgr = NULL;
static fmgr_hook_type prev_fmgr = NULL;
static get_relation_info_hook_type prev_get_relation_info = NULL;
static get_relation_stats_hook_type prev_get_relation_stats = NULL;
static get_index_stats_hook_type prev_get_index_stats = NULL;
static get_attavgwidth_hook_type prev_get_attavgwidth = NULL;
static post_parse_analyze_hook_type prev_post_parse_analyze = NULL;
static planner_hook_type prev_planner = NULL;
static emit_log_hook_type prev_emit_log = NULL;
static shmem_request_hook_type prev_shmem_request = NULL;
static shmem_startup_hook_type prev_shmem_startup = NULL;

static void
labelam_ProcessUtility(PlannedStmt *pstmt, const char *queryString,
					   bool readOnlyTree, ProcessUtilityContext context,
					   ParamListInfo params, QueryEnvironment *queryEnv,
					   DestReceiver *dest, QueryCompletion *qc)
{
	bool		routine;
	LabelheapFrame frame;
	void	   *volatile objects_saved = NULL;
	void	   *volatile files_saved = NULL;

	pstmt = label_sql_column_utility(pstmt, &readOnlyTree);
	pstmt = shared_state_notify_utility(pstmt, &readOnlyTree);
	routine = IsA(pstmt->utilityStmt, CallStmt) ||
		IsA(pstmt->utilityStmt, DoStmt);
	avc_statement_start();
	shared_state_publish();
	avc_enter(routine, true);
	labelheap_frame_enter_utility(&frame, pstmt);
	PG_TRY();
	{
		objects_saved = objects_utility_start(pstmt);
		labelheap_label_set_utility(pstmt);
		labelheap_refuse_utility(pstmt);
		shared_state_prepare_utility(pstmt);
		shared_state_catalogs_utility_start(pstmt);
		labelheap_statistics_copy_utility(pstmt);
		lbac_utility(pstmt);
		pstmt = files_utility_start(pstmt, &readOnlyTree,
									(void **) &files_saved);
		if (!label_sql_restore_utility(pstmt, queryString, qc))
			CALL_PREV(prev_ProcessUtility, standard_ProcessUtility,
					  pstmt, queryString, readOnlyTree, context, params,
					  queryEnv, dest, qc);
		shared_state_catalogs_utility(pstmt);
		files_utility_done(files_saved);
	}
	PG_FINALLY();
	{
		files_utility_end(files_saved);
		objects_utility_end(objects_saved);
		labelheap_frame_leave(&frame);
		avc_leave(routine);
	}
	PG_END_TRY();
	avc_statement_done();
}

static void
labelam_ExecutorStart(QueryDesc *queryDesc, int eflags)
{
	avc_statement_start();
	shared_state_publish();
	labelheap_apply_executor_start();
	objects_executor_start(queryDesc);
	/* a query started inside a maintenance command is nested in it */
	avc_enter(false, false);
	PG_TRY();
	{
		CALL_PREV(prev_ExecutorStart, standard_ExecutorStart, queryDesc,
				  eflags);
	}
	PG_FINALLY();
	{
		avc_leave(false);
	}
	PG_END_TRY();
	labelheap_instrumented_executor_start(queryDesc, eflags);
	labelheap_ios_executor_start(queryDesc);
}

static void
#if PG_VERSION_NUM >= 180000
labelam_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction,
					uint64 count)
#else
labelam_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction,
					uint64 count, bool execute_once)
#endif
{
	LabelheapFrame frame;

	avc_enter(false, false);
	labelheap_frame_enter_executor(&frame, queryDesc);
	PG_TRY();
	{
		labelheap_instrumented_executor_frame(queryDesc);
#if PG_VERSION_NUM >= 180000
		CALL_PREV(prev_ExecutorRun, standard_ExecutorRun,
				  queryDesc, direction, count);
#else
		CALL_PREV(prev_ExecutorRun, standard_ExecutorRun,
				  queryDesc, direction, count, execute_once);
#endif
	}
	PG_FINALLY();
	{
		labelheap_frame_leave(&frame);
		avc_leave(false);
	}
	PG_END_TRY();
}

/* AFTER triggers fire here: a frame of its own, as ExecutorRun's */
static void
labelam_ExecutorFinish(QueryDesc *queryDesc)
{
	LabelheapFrame frame;

	avc_enter(false, false);
	labelheap_frame_enter_executor(&frame, queryDesc);
	PG_TRY();
	{
		labelheap_instrumented_executor_frame(queryDesc);
		CALL_PREV(prev_ExecutorFinish, standard_ExecutorFinish, queryDesc);
	}
	PG_FINALLY();
	{
		labelheap_frame_leave(&frame);
		avc_leave(false);
	}
	PG_END_TRY();
}

static void
labelam_ExecutorEnd(QueryDesc *queryDesc)
{
	CALL_PREV(prev_ExecutorEnd, standard_ExecutorEnd, queryDesc);
	avc_statement_done();
}

static bool
#if PG_VERSION_NUM >= 160000
labelam_ExecutorCheckPerms(List *rangeTable, List *rtePermInfos,
						   bool ereport_on_violation)
#else
labelam_ExecutorCheckPerms(List *rangeTable, bool ereport_on_violation)
#define rtePermInfos NIL		/* 15: the range table holds the permissions */
#endif
{
	if (!labelheap_raw_check_perms(rangeTable, ereport_on_violation) ||
		!labelheap_ri_check_perms(rangeTable, ereport_on_violation) ||
		!objects_exec_check_perms(rangeTable, rtePermInfos,
								  ereport_on_violation) ||
		!lbac_exec_check_perms(rangeTable, rtePermInfos,
							   ereport_on_violation))
		return false;
#if PG_VERSION_NUM >= 160000
	if (prev_ExecutorCheckPerms)
		return prev_ExecutorCheckPerms(rangeTable, rtePermInfos,
									   ereport_on_violation);
#else
#undef rtePermInfos
	if (prev_ExecutorCheckPerms)
		return prev_ExecutorCheckPerms(rangeTable, ereport_on_violation);
#endif
	return true;
}

static void
labelam_object_access(ObjectAccessType access, Oid classId, Oid objectId,
					  int subId, void *arg)
{
	CALL_PREV_IF_ANY(prev_object_access, access, classId, objectId, subId, arg);
	labelheap_message_object_access(access, classId, objectId);
	labelheap_publication_object_access(access, classId, objectId, subId, arg);
	labelheap_counters_object_access(access, classId, objectId);
	shared_state_object_access(access, classId, objectId, subId, arg);
	labelheap_label_set_object_access(access, classId, objectId, subId, arg);
	files_object_access(access, classId, objectId);
	label_sql_column_object_access(access, classId, objectId, subId, arg);
	objects_object_access(access, classId, objectId, subId, arg);
	shared_state_catalogs_object_access(access, classId, objectId, subId, arg);
	labelheap_statistics_object_access(access, classId, objectId, subId);
	lbac_object_access(access, classId, objectId, subId, arg);
}

static void
labelam_ClientAuthentication(Port *port, int status)
{
	CALL_PREV_IF_ANY(prev_ClientAuthentication, port, status);
	labelheap_walsender_client_auth(port, status);
	avc_client_authentication(port, status);
	shared_state_client_authentication(port, status);
}

static bool
labelam_needs_fmgr(Oid fn_oid)
{
	return (prev_needs_fmgr && prev_needs_fmgr(fn_oid)) ||
		labelheap_raw_needs_fmgr_hook(fn_oid) ||
		objects_needs_fmgr(fn_oid) ||
		shared_state_needs_fmgr(fn_oid);
}

/* per-call state of the fmgr_hook users that keep some */
typedef struct FmgrPrivate
{
	Datum		objects;
	Datum		prev;
} FmgrPrivate;

static void
labelam_fmgr(FmgrHookEventType event, FmgrInfo *flinfo, Datum *arg)
{
	FmgrPrivate *p = (FmgrPrivate *) DatumGetPointer(*arg);

	if (p == NULL)
	{
		p = MemoryContextAllocZero(flinfo->fn_mcxt, sizeof(FmgrPrivate));
		*arg = PointerGetDatum(p);
	}
	if (event == FHET_START)
	{
		labelheap_raw_fmgr_hook(event, flinfo);
		shared_state_fmgr(event, flinfo);
		objects_fmgr(event, flinfo, &p->objects);
		CALL_PREV_IF_ANY(prev_fmgr, event, flinfo, &p->prev);
	}
	else
	{
		CALL_PREV_IF_ANY(prev_fmgr, event, flinfo, &p->prev);
		objects_fmgr(event, flinfo, &p->objects);
	}
}

static PlannedStmt *
labelam_planner(Query *parse, const char *query_string, int cursorOptions,
				ParamListInfo boundParams)
{
	objects_planner(parse);
	labelheap_statistics_planner(parse);
	if (prev_planner)
		return prev_planner(parse, query_string, cursorOptions, boundParams);
	return standard_planner(parse, query_string, cursorOptions, boundParams);
}

static void
labelam_get_relation_info(PlannerInfo *root, Oid relationObjectId,
						  bool inhparent, RelOptInfo *rel)
{
	CALL_PREV_IF_ANY(prev_get_relation_info, root, relationObjectId,
					 inhparent, rel);
	labelheap_planner_relation_info(root, relationObjectId, inhparent, rel);
	labelheap_statistics_relation_info(relationObjectId, inhparent, rel);
}

static bool
labelam_get_relation_stats(PlannerInfo *root, RangeTblEntry *rte,
						   AttrNumber attnum, VariableStatData *vardata)
{
	if (labelheap_statistics_relation_hook(root, rte, attnum, vardata))
		return true;
	return prev_get_relation_stats &&
		prev_get_relation_stats(root, rte, attnum, vardata);
}

static bool
labelam_get_index_stats(PlannerInfo *root, Oid indexOid,
						AttrNumber indexattnum, VariableStatData *vardata)
{
	if (labelheap_statistics_index_hook(root, indexOid, indexattnum, vardata))
		return true;
	return prev_get_index_stats &&
		prev_get_index_stats(root, indexOid, indexattnum, vardata);
}

static int32
labelam_get_attavgwidth(Oid relid, AttrNumber attnum)
{
	int32		width = labelheap_statistics_attavgwidth(relid, attnum);

	if (width > 0)
		return width;
	return prev_get_attavgwidth ? prev_get_attavgwidth(relid, attnum) : 0;
}

static void
labelam_post_parse_analyze(ParseState *pstate, Query *query,
						   JumbleState *jstate)
{
	label_sql_post_parse_analyze(pstate, query, jstate);
	CALL_PREV_IF_ANY(prev_post_parse_analyze, pstate, query, jstate);
}

static void
labelam_emit_log(ErrorData *edata)
{
	labelheap_walsender_emit_log(edata);
	labelheap_messages_emit_log(edata);
	CALL_PREV_IF_ANY(prev_emit_log, edata);
}

static void
labelam_shmem_request(void)
{
	CALL_PREV_IF_ANY(prev_shmem_request);
	label_shmem_request();
	avc_denials_shmem_request();
	avc_shared_decisions_shmem_request();
	shared_state_shmem_request();
	shared_state_prepared_shmem_request();
}

static void
labelam_shmem_startup(void)
{
	CALL_PREV_IF_ANY(prev_shmem_startup);
	label_shmem_startup();
	avc_denials_shmem_startup();
	avc_shared_decisions_shmem_startup();
	shared_state_shmem_startup();
	shared_state_prepared_shmem_startup();
}

static void
labelam_xact_callback(XactEvent event, void *arg)
{
	avc_xact(event);
	shared_state_xact(event);
	labelheap_statistics_xact(event);
	label_store_xact(event);
	labelheap_label_set_xact(event);
	labelheap_labeling_xact(event);
}

static void
labelam_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
						 SubTransactionId parentSubid, void *arg)
{
	label_store_subxact(event, mySubid, parentSubid);
	labelheap_label_set_subxact(event, mySubid, parentSubid);
	if (event == SUBXACT_EVENT_ABORT_SUB)
		avc_table_label_forget();
}

static void
labelam_relcache_callback(Datum arg, Oid relid)
{
	labelheap_label_set_relcache(relid);
	labelheap_statistics_relcache(relid);
	objects_label_forget();
	avc_table_label_forget();
	lbac_relcache(relid);
}

static void
labelam_type_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	labelheap_label_column_type_changed();
}

static void
labelam_function_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	label_sql_functions_changed();
	objects_label_forget();
}

static void
labelam_am_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	labelheap_am_forget();
}

/* schemas and databases: their names feed objects' default labels */
static void
labelam_object_name_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	objects_label_forget();
	avc_table_label_forget();
}

/*
 * The backend's protocol output, wrapped so that notifications pass
 * shared_state/notify.c on their way out (async.c has no hook of its own).
 * Parallel workers replace PqCommMethods with their queue's methods; they
 * send no notifications.  'A' is NotificationResponse (PqMsg_ on 17+).
 */
static const PQcommMethods *prev_comm_methods = NULL;

static int
labelam_putmessage(char msgtype, const char *s, size_t len)
{
	StringInfoData out;

	if (msgtype != 'A')
		return prev_comm_methods->putmessage(msgtype, s, len);
	if (!shared_state_notification_out(s, len, &out))
		return 0;
	return prev_comm_methods->putmessage(msgtype, out.data, out.len);
}

static void
labelam_putmessage_noblock(char msgtype, const char *s, size_t len)
{
	StringInfoData out;

	if (msgtype != 'A')
	{
		prev_comm_methods->putmessage_noblock(msgtype, s, len);
		return;
	}
	if (shared_state_notification_out(s, len, &out))
		prev_comm_methods->putmessage_noblock(msgtype, out.data, out.len);
}

static void
labelam_comm_reset(void)
{
	prev_comm_methods->comm_reset();
}

static int
labelam_flush(void)
{
	return prev_comm_methods->flush();
}

static int
labelam_flush_if_writable(void)
{
	return prev_comm_methods->flush_if_writable();
}

static bool
labelam_is_send_pending(void)
{
	return prev_comm_methods->is_send_pending();
}

static const PQcommMethods labelam_comm_methods = {
	.comm_reset = labelam_comm_reset,
	.flush = labelam_flush,
	.flush_if_writable = labelam_flush_if_writable,
	.is_send_pending = labelam_is_send_pending,
	.putmessage = labelam_putmessage,
	.putmessage_noblock = labelam_putmessage_noblock,
};

void
labelam_hooks_install(void)
{
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = labelam_ProcessUtility;
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = labelam_ExecutorStart;
	prev_ExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = labelam_ExecutorRun;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = labelam_ExecutorFinish;
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = labelam_ExecutorEnd;
	prev_ExecutorCheckPerms = ExecutorCheckPerms_hook;
	ExecutorCheckPerms_hook = labelam_ExecutorCheckPerms;
	prev_object_access = object_access_hook;
	object_access_hook = labelam_object_access;
	prev_ClientAuthentication = ClientAuthentication_hook;
	ClientAuthentication_hook = labelam_ClientAuthentication;
	prev_needs_fmgr = needs_fmgr_hook;
	needs_fmgr_hook = labelam_needs_fmgr;
	prev_fmgr = fmgr_hook;
	fmgr_hook = labelam_fmgr;
	prev_planner = planner_hook;
	planner_hook = labelam_planner;
	prev_get_relation_info = get_relation_info_hook;
	get_relation_info_hook = labelam_get_relation_info;
	prev_get_relation_stats = get_relation_stats_hook;
	get_relation_stats_hook = labelam_get_relation_stats;
	prev_get_index_stats = get_index_stats_hook;
	get_index_stats_hook = labelam_get_index_stats;
	prev_get_attavgwidth = get_attavgwidth_hook;
	get_attavgwidth_hook = labelam_get_attavgwidth;
	prev_post_parse_analyze = post_parse_analyze_hook;
	post_parse_analyze_hook = labelam_post_parse_analyze;
	prev_emit_log = emit_log_hook;
	emit_log_hook = labelam_emit_log;
	prev_shmem_request = shmem_request_hook;
	shmem_request_hook = labelam_shmem_request;
	prev_shmem_startup = shmem_startup_hook;
	shmem_startup_hook = labelam_shmem_startup;
	prev_comm_methods = PqCommMethods;
	PqCommMethods = &labelam_comm_methods;
	avc_subject_changed_callback = shared_state_subject_changed;

	labelheap_decoding_install();

	RegisterXactCallback(labelam_xact_callback, NULL);
	RegisterSubXactCallback(labelam_subxact_callback, NULL);
	CacheRegisterRelcacheCallback(labelam_relcache_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, labelam_type_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(AMOID, labelam_am_callback, (Datum) 0);
	CacheRegisterSyscacheCallback(PROCOID, labelam_function_callback,
								  (Datum) 0);
	CacheRegisterSyscacheCallback(NAMESPACEOID, labelam_object_name_callback,
								  (Datum) 0);
	CacheRegisterSyscacheCallback(DATABASEOID, labelam_object_name_callback,
								  (Datum) 0);
}
