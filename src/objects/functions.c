/* -------------------------------------------------------------------------
 *
 * src/objects/functions.c
 *	  Built-in functions that reach a sequence or a large object named by
 *	  their argument: decided per object through checked twins.
 *
 * nextval, currval, setval, lastval, pg_sequence_last_value, lo_open,
 * lo_get, lo_put, lo_import and lo_export are built into the server; fmgr
 * calls built-ins without asking needs_fmgr_hook, so no hook sees their
 * argument.  labelam therefore (the twins are labelam.checked_nextval and
 * so on, which EXPLAIN VERBOSE shows):
 *
 * 1. rewrites every call in a query about to be planned (planner_hook:
 *    direct calls, column defaults and views the rewriter expanded, RLS
 *    policies, PL/pgSQL expressions) into a call of its checked twin in
 *    schema labelam (sql/90_objects.sql), which decides on the object,
 *    then runs the built-in on the same arguments;
 * 2. keeps SQL functions whose body calls one of them from being inlined
 *    (inlining happens inside the planner, after step 1): they run as
 *    functions, and their queries are planned, so rewritten, in turn;
 * 3. decides the built-in itself wherever a call was not rewritten
 *    (OAT_FUNCTION_EXECUTE, which every call passes when it is set up, in
 *    expressions and through the fast-path protocol that libpq's
 *    large-object functions use): its object is not known there, so a
 *    large-object function needs the permission on every large object of
 *    the database, and a sequence function is refused; nextval is let
 *    through (COPY FROM draws column defaults from sequences, and under
 *    the MLS policy next_value is a read): such draws are not decided
 *    (doc/objects.md).
 *
 * A large object opened for reading or writing is decided when it is
 * opened (lo_open's mode: db_blob read, or read and write), which covers
 * loread, lowrite, lo_lseek and lo_truncate on the descriptor.
 *
 * lo_import and lo_export read and write server files: their twins are
 * src/files/large_objects.c's, rewritten whether object checks are on or
 * not, and reached without a twin they are refused there (the file cannot
 * be decided).
 *
 * The statistics counters that count rows before labelheap filters them
 * (pg_stat_get_tuples_returned and the like, listed once in
 * src/am/channels/counterlist.h, decided in src/am/channels/counters.c) have
 * twins too, which return NULL where the counts would include rows beyond the
 * session's reach, and so has pg_logical_emit_message, whose twin notes the
 * label of the message's writer for logical decoding
 * (src/am/replication/message.c).  Their calls are rewritten whether object
 * checks are on or not; reached without a twin, they are decided by
 * am/channels/counters.c and am/replication/message.c.
 * So do the built-ins that show other sessions' state (pg_stat_activity's
 * pg_stat_get_activity, pg_locks' pg_lock_status, pg_prepared_xacts,
 * the progress views, pg_stat_get_backend_*) and pg_notify, whose twins
 * are src/shared_state's: they withhold what other sessions wrote at labels
 * the session may not read, and label notifications; reached without a
 * twin, src/shared_state/twins.c decides them.  lo_create and
 * lo_from_bytea have twins there too (catalogs.c), and lo_import(path,
 * oid)'s twin (files/large_objects.c) asks catalogs.c as they do: the OID
 * of a large object is shown to every session, so only a session that may
 * write the catalogs may choose it.
 *
 * -------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "parser/parse_func.h"
#include "catalog/pg_class.h"
#include "catalog/pg_language.h"
#include "access/genam.h"
#include "access/table.h"
#include "catalog/pg_largeobject.h"
#include "catalog/pg_largeobject_metadata.h"
#include "catalog/pg_proc.h"
#include "libpq/be-fsstubs.h"
#include "libpq/libpq-fs.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "am/labelheap.h"
#include "avc/avc.h"
#include "avc/avc_objects.h"
#include "objects/objects.h"
#include "pg_compat.h"

/*
 * What a twin decides.  Object twins decide with object checks on only;
 * counters (am/channels/counters.c) and shared state (src/shared_state)
 * are rewritten with object checks off too, since they withhold what the
 * row filter hides.
 */
typedef enum CheckedKind
{
	CHECKED_OBJECT,				/* a sequence or large object it names */
	CHECKED_COUNTER,			/* a statistics counter */
	CHECKED_FILES,				/* reads or writes a server file (src/files):
								 * rewritten with object checks off too */
	CHECKED_SHARED_STATE,		/* other sessions' state, or a notification */
	CHECKED_CHOSEN_OID,			/* a large object created with an OID its
								 * caller chose (src/shared_state/catalogs.c) */
	CHECKED_MESSAGE				/* a logical decoding message: its writer's
								 * label noted (src/am/replication/message.c) */
} CheckedKind;

typedef struct CheckedFunction
{
	Oid			builtin;		/* the built-in's pg_proc OID */
	const char *name;			/* its name */
	const char *twin;			/* its checked twin in schema labelam */
	int			nargs;
	Oid			argtypes[4];	/* the twin's (and the built-in's) */
	CheckedKind kind;
} CheckedFunction;

static const CheckedFunction checked_functions[] = {
	{F_NEXTVAL, "nextval", "checked_nextval", 1, {REGCLASSOID}, CHECKED_OBJECT},
	{F_CURRVAL, "currval", "checked_currval", 1, {REGCLASSOID}, CHECKED_OBJECT},
	{F_SETVAL_REGCLASS_INT8, "setval", "checked_setval", 2, {REGCLASSOID, INT8OID}, CHECKED_OBJECT},
	{F_SETVAL_REGCLASS_INT8_BOOL, "setval", "checked_setval", 3, {REGCLASSOID, INT8OID, BOOLOID}, CHECKED_OBJECT},
	{F_LASTVAL, "lastval", "checked_lastval", 0, {InvalidOid}, CHECKED_OBJECT},
	{F_PG_SEQUENCE_LAST_VALUE, "pg_sequence_last_value", "checked_pg_sequence_last_value", 1, {REGCLASSOID}, CHECKED_OBJECT},
	{F_LO_OPEN, "lo_open", "checked_lo_open", 2, {OIDOID, INT4OID}, CHECKED_OBJECT},
	{F_LO_GET_OID, "lo_get", "checked_lo_get", 1, {OIDOID}, CHECKED_OBJECT},
	{F_LO_GET_OID_INT8_INT4, "lo_get", "checked_lo_get", 3, {OIDOID, INT8OID, INT4OID}, CHECKED_OBJECT},
	{F_LO_PUT, "lo_put", "checked_lo_put", 3, {OIDOID, INT8OID, BYTEAOID}, CHECKED_OBJECT},
	{F_LO_IMPORT_TEXT, "lo_import", "checked_lo_import", 1, {TEXTOID}, CHECKED_FILES},
	{F_LO_IMPORT_TEXT_OID, "lo_import", "checked_lo_import", 2, {TEXTOID, OIDOID}, CHECKED_FILES},
	{F_LO_EXPORT, "lo_export", "checked_lo_export", 2, {OIDOID, TEXTOID}, CHECKED_FILES},
#define LABELHEAP_COUNTER(name, builtin, database) \
	{builtin, #name, "checked_" #name, 1, {OIDOID}, CHECKED_COUNTER},
#include "am/channels/counterlist.h"
#undef LABELHEAP_COUNTER
	{F_LO_CREATE, "lo_create", "checked_lo_create", 1, {OIDOID}, CHECKED_CHOSEN_OID},
	{F_LO_FROM_BYTEA, "lo_from_bytea", "checked_lo_from_bytea", 2, {OIDOID, BYTEAOID}, CHECKED_CHOSEN_OID},
	{F_PG_NOTIFY, "pg_notify", "checked_pg_notify", 2, {TEXTOID, TEXTOID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_ACTIVITY, "pg_stat_get_activity", "checked_pg_stat_get_activity", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_PROGRESS_INFO, "pg_stat_get_progress_info", "checked_pg_stat_get_progress_info", 1, {TEXTOID}, CHECKED_SHARED_STATE},
	{F_PG_LOCK_STATUS, "pg_lock_status", "checked_pg_lock_status", 0, {InvalidOid}, CHECKED_SHARED_STATE},
	{F_PG_PREPARED_XACT, "pg_prepared_xact", "checked_pg_prepared_xact", 0, {InvalidOid}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_ACTIVITY, "pg_stat_get_backend_activity", "checked_pg_stat_get_backend_activity", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_WAIT_EVENT_TYPE, "pg_stat_get_backend_wait_event_type", "checked_pg_stat_get_backend_wait_event_type", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_WAIT_EVENT, "pg_stat_get_backend_wait_event", "checked_pg_stat_get_backend_wait_event", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_ACTIVITY_START, "pg_stat_get_backend_activity_start", "checked_pg_stat_get_backend_activity_start", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_XACT_START, "pg_stat_get_backend_xact_start", "checked_pg_stat_get_backend_xact_start", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_START, "pg_stat_get_backend_start", "checked_pg_stat_get_backend_start", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_CLIENT_ADDR, "pg_stat_get_backend_client_addr", "checked_pg_stat_get_backend_client_addr", 1, {INT4OID}, CHECKED_SHARED_STATE},
	{F_PG_STAT_GET_BACKEND_CLIENT_PORT, "pg_stat_get_backend_client_port", "checked_pg_stat_get_backend_client_port", 1, {INT4OID}, CHECKED_SHARED_STATE},
#ifdef F_PG_STAT_GET_BACKEND_SUBXACT
	{F_PG_STAT_GET_BACKEND_SUBXACT, "pg_stat_get_backend_subxact", "checked_pg_stat_get_backend_subxact", 1, {INT4OID}, CHECKED_SHARED_STATE},
#endif
#ifdef F_PG_GET_AIOS
	{F_PG_GET_AIOS, "pg_get_aios", "checked_pg_get_aios", 0, {InvalidOid}, CHECKED_SHARED_STATE},
#endif
#ifdef F_PG_STAT_GET_BACKEND_WAL
	{F_PG_STAT_GET_BACKEND_WAL, "pg_stat_get_backend_wal", "checked_pg_stat_get_backend_wal", 1, {INT4OID}, CHECKED_SHARED_STATE},
#endif
#if PG_VERSION_NUM >= 170000
	{LABELAM_F_EMIT_MESSAGE_TEXT, "pg_logical_emit_message", "checked_logical_emit_message", 4, {BOOLOID, TEXTOID, TEXTOID, BOOLOID}, CHECKED_MESSAGE},
	{LABELAM_F_EMIT_MESSAGE_BYTEA, "pg_logical_emit_message", "checked_logical_emit_message", 4, {BOOLOID, TEXTOID, BYTEAOID, BOOLOID}, CHECKED_MESSAGE},
#else
	{LABELAM_F_EMIT_MESSAGE_TEXT, "pg_logical_emit_message", "checked_logical_emit_message", 3, {BOOLOID, TEXTOID, TEXTOID}, CHECKED_MESSAGE},
	{LABELAM_F_EMIT_MESSAGE_BYTEA, "pg_logical_emit_message", "checked_logical_emit_message", 3, {BOOLOID, TEXTOID, BYTEAOID}, CHECKED_MESSAGE},
#endif
};

#define NUM_CHECKED lengthof(checked_functions)

/* the twins' OIDs in this database (0: not looked up, InvalidOid: none) */
static Oid	twin_oids[NUM_CHECKED];
static bool twins_known = false;

/* the sequence this session last drew from through nextval (for lastval) */
static Oid	last_sequence = InvalidOid;

static const CheckedFunction *
checked_function(Oid funcid)
{
	int			i;

	/* all of them are built-ins */
	if (funcid >= FirstGenbkiObjectId)
		return NULL;
	for (i = 0; i < NUM_CHECKED; i++)
		if (checked_functions[i].builtin == funcid)
			return &checked_functions[i];
	return NULL;
}

static void
look_up_twins(void)
{
	Oid			nsp = get_namespace_oid("labelam", true);
	int			i;

	for (i = 0; i < NUM_CHECKED; i++)
	{
		const CheckedFunction *f = &checked_functions[i];
		Oid			oid = InvalidOid;

		if (OidIsValid(nsp))
			oid = LookupFuncName(list_make2(makeString("labelam"),
											makeString(pstrdup(f->twin))),
								 f->nargs, f->argtypes, true);
		twin_oids[i] = oid;
	}
	twins_known = true;
}

/* PROCOID/NAMESPACEOID invalidation (object_label.c's callback) */
void
objects_functions_forget(void)
{
	twins_known = false;
}

static Oid
twin_of(const CheckedFunction *f)
{
	if (!twins_known)
		look_up_twins();
	return twin_oids[f - checked_functions];
}

/* step 1: calls in a query about to be planned become calls of twins */
static bool
rewrite_walker(Node *node, void *context)
{
	bool		objects = *(bool *) context;

	if (node == NULL)
		return false;
	if (IsA(node, FuncExpr))
	{
		FuncExpr   *fexpr = (FuncExpr *) node;
		const CheckedFunction *f = checked_function(fexpr->funcid);

		if (f != NULL && (objects || (f->kind != CHECKED_OBJECT &&
									  f->kind != CHECKED_CHOSEN_OID)))
		{
			Oid			twin = twin_of(f);

			/* no twin here: the built-in is refused when initialized */
			if (OidIsValid(twin))
				fexpr->funcid = twin;
		}
	}
	else if (IsA(node, Query))
		return query_tree_walker((Query *) node, rewrite_walker, context, 0);
	return expression_tree_walker(node, rewrite_walker, context);
}

void
objects_planner(Query *parse)
{
	bool		objects = objects_active();

	(void) query_tree_walker(parse, rewrite_walker, &objects, 0);
}

/*
 * step 2: an SQL function whose body names one of the built-ins is not to
 * be inlined (needs_fmgr_hook answers true for it).  Its body is looked at
 * as text: prosrc for SQL bodies, and the stored tree of BEGIN ATOMIC
 * bodies, where a call is ":funcid <oid> ".
 */
bool
objects_function_calls_checked(Oid functionId)
{
	HeapTuple	tuple;
	Form_pg_proc proc;
	bool		result = false;
	Datum		body;
	bool		isnull;
	char	   *src;
	int			i;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(functionId));
	if (!HeapTupleIsValid(tuple))
		return false;
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	if (proc->prolang != SQLlanguageId)
	{
		ReleaseSysCache(tuple);
		return false;
	}
	body = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosqlbody, &isnull);
	if (isnull)
		body = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_prosrc, &isnull);
	if (!isnull)
	{
		src = TextDatumGetCString(body);
		for (i = 0; i < NUM_CHECKED && !result; i++)
		{
			char		oidtext[32];

			snprintf(oidtext, sizeof(oidtext), ":funcid %u ",
					 checked_functions[i].builtin);
			result = strstr(src, checked_functions[i].name) != NULL ||
				strstr(src, oidtext) != NULL;
		}
		pfree(src);
	}
	ReleaseSysCache(tuple);
	return result;
}

/*
 * May the subject do perms to every large object of the database?  For
 * calls whose large object cannot be known (below).
 */
static void
check_every_blob(uint32 perms, const char *fname)
{
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tuple;
	List	   *seen = NIL;

	rel = table_open(LargeObjectMetadataRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Oid			blobId = ((Form_pg_largeobject_metadata) GETSTRUCT(tuple))->oid;
		char	   *label = objects_label(LargeObjectRelationId, blobId, 0);
		ListCell   *lc;
		bool		known = false;

		/* one decision per distinct label */
		foreach(lc, seen)
		{
			if ((label == NULL && lfirst(lc) == NULL) ||
				(label != NULL && lfirst(lc) != NULL &&
				 strcmp(label, lfirst(lc)) == 0))
				known = true;
		}
		if (known)
			continue;
		seen = lappend(seen, label);
		if (!sepgsql_avc_check_perms_label(label, SEPG_CLASS_DB_BLOB, perms,
										   SEPGSQL_AVC_NOAUDIT, false))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("SELinux: %s cannot be checked for the large object it is called for", fname),
					 errdetail("Called through the fast-path interface or outside a query, it may be used only by a session that may { %s } every large object of the database.",
							   (perms & SEPG_DB_BLOB__WRITE) ? "read write" : "read"),
					 errhint("Use lo_get, lo_put or lo_open in an SQL query: they are checked for the object they name.")));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/* a built-in that creates a large object with an OID its caller chose */
bool
objects_chosen_oid_builtin(Oid functionId)
{
	const CheckedFunction *f = checked_function(functionId);

	return f != NULL && f->kind == CHECKED_CHOSEN_OID;
}

/* a built-in that reads other sessions' state, or pg_notify (src/shared_state) */
bool
objects_shared_state_builtin(Oid functionId)
{
	const CheckedFunction *f = checked_function(functionId);

	return f != NULL && f->kind == CHECKED_SHARED_STATE;
}

/*
 * step 3: the built-in reached without its twin: libpq's large-object
 * interface (the fast-path protocol, which calls functions by OID), psql's
 * \lo_ commands, expressions that are never planned, plans made while
 * object checks were off.  Its object cannot be known here, so large
 * objects are decided all at once (check_every_blob); sequences are
 * refused, but nextval (column defaults of COPY FROM).
 */
void
objects_function_execute(Oid functionId)
{
	const CheckedFunction *f = checked_function(functionId);

	/*
	 * only sequences and large objects named by OID are decided here:
	 * counters (am/channels/counters.c), lo_import and lo_export
	 * (files/large_objects.c), shared state (src/shared_state) and logical
	 * decoding messages (am/replication/message.c) elsewhere,
	 * with object checks off too
	 */
	if (f == NULL || f->kind != CHECKED_OBJECT || f->builtin == F_NEXTVAL)
		return;
	switch (f->builtin)
	{
		case F_LO_OPEN:
		case F_LO_PUT:
			/* lo_open's mode is not known either */
			check_every_blob(SEPG_DB_BLOB__READ | SEPG_DB_BLOB__WRITE, f->name);
			return;
		case F_LO_GET_OID:
		case F_LO_GET_OID_INT8_INT4:
			check_every_blob(SEPG_DB_BLOB__READ, f->name);
			return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("SELinux: %s cannot be checked where it is called",
					f->name),
			 errdetail("labelam decides calls of %s in queries; this expression is not planned as a query (a column default evaluated by COPY FROM, a constraint, an index expression), or was planned while object checks were off.",
					   f->name),
			 OidIsValid(twin_of(f)) ? 0 :
			 errhint("Create the extension labelam in this database.")));
}

/* ---- the twins ---- */

/*
 * A twin is the built-in under another name: the checks PostgreSQL and the
 * policy make on calling the built-in (EXECUTE privilege, db_procedure
 * execute on its label) are made on the built-in, so that GRANT, REVOKE
 * and labels on it keep their meaning.
 */
void
objects_twin_enter(FunctionCallInfo fcinfo, Oid builtin)
{
	AclResult	aclresult;

	/* once per call site, as ExecInitFunc checks once (fn_extra: done) */
	if (fcinfo->flinfo->fn_extra != NULL)
		return;
	fcinfo->flinfo->fn_extra = (void *) fcinfo->flinfo;
	aclresult = labelam_proc_aclcheck(builtin, GetUserId(), ACL_EXECUTE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FUNCTION, get_func_name(builtin));
	if (objects_active())
		sepgsql_proc_execute(builtin);
}

/*
 * Allowed, with nothing to audit?  Then no audit name is needed: these are
 * called once a row.
 */
static bool
quietly_allowed(Oid classId, Oid objectId, uint16 tclass, uint32 perms)
{
	AvcDecision avd;
	const char *decided_as;
	char	   *label;

	if (objects_debug_audit || avc_audit_level() == 2)
		return false;
	label = objects_label(classId, objectId, 0);
	avc_decide_object((AvcClass) tclass, label, &avd, &decided_as);
	if (label)
		pfree(label);
	return (avd.allowed & perms) == perms && (avd.auditallow & perms) == 0;
}

static void
check_sequence(Oid seqid, uint32 perm)
{
	ObjectAddress object;
	char	   *audit_name;

	if (!objects_active())
		return;
	if (get_rel_relkind(seqid) != RELKIND_SEQUENCE)
		return;					/* the built-in says what is wrong */
	if (quietly_allowed(RelationRelationId, seqid, SEPG_CLASS_DB_SEQUENCE, perm))
		return;
	ObjectAddressSet(object, RelationRelationId, seqid);
	audit_name = getObjectIdentity(&object, false);
	sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_SEQUENCE, perm,
							audit_name, true);
	pfree(audit_name);
}

void
objects_check_blob(Oid blobId, uint32 perms)
{
	ObjectAddress object;
	char	   *audit_name;

	if (!objects_active())
		return;
	if (quietly_allowed(LargeObjectRelationId, blobId, SEPG_CLASS_DB_BLOB, perms))
		return;
	ObjectAddressSet(object, LargeObjectRelationId, blobId);
	audit_name = psprintf("large object %u", blobId);
	sepgsql_avc_check_perms(&object, SEPG_CLASS_DB_BLOB, perms,
							audit_name, true);
	pfree(audit_name);
}

PG_FUNCTION_INFO_V1(labelam_nextval);
Datum
labelam_nextval(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_NEXTVAL);
	check_sequence(PG_GETARG_OID(0), SEPG_DB_SEQUENCE__NEXT_VALUE);
	last_sequence = PG_GETARG_OID(0);
	return nextval_oid(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_currval);
Datum
labelam_currval(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_CURRVAL);
	check_sequence(PG_GETARG_OID(0), SEPG_DB_SEQUENCE__GET_VALUE);
	return currval_oid(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_setval);
Datum
labelam_setval(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, PG_NARGS() == 3 ? F_SETVAL_REGCLASS_INT8_BOOL : F_SETVAL_REGCLASS_INT8);
	check_sequence(PG_GETARG_OID(0), SEPG_DB_SEQUENCE__SET_VALUE);
	return PG_NARGS() == 3 ? setval3_oid(fcinfo) : setval_oid(fcinfo);
}

/* the sequence lastval reads is the last one nextval drew from here */
PG_FUNCTION_INFO_V1(labelam_lastval);
Datum
labelam_lastval(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_LASTVAL);
	if (OidIsValid(last_sequence))
		check_sequence(last_sequence, SEPG_DB_SEQUENCE__GET_VALUE);
	return lastval(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_pg_sequence_last_value);
Datum
labelam_pg_sequence_last_value(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_SEQUENCE_LAST_VALUE);
	check_sequence(PG_GETARG_OID(0), SEPG_DB_SEQUENCE__GET_VALUE);
	return pg_sequence_last_value(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_lo_open);
Datum
labelam_lo_open(PG_FUNCTION_ARGS)
{
	int32		mode = PG_GETARG_INT32(1);
	uint32		perms = SEPG_DB_BLOB__READ;

	objects_twin_enter(fcinfo, F_LO_OPEN);
	/* a descriptor opened for writing also reads (inv_api.c) */
	if (mode & INV_WRITE)
		perms |= SEPG_DB_BLOB__WRITE;
	objects_check_blob(PG_GETARG_OID(0), perms);
	return be_lo_open(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_lo_get);
Datum
labelam_lo_get(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, PG_NARGS() == 3 ? F_LO_GET_OID_INT8_INT4 : F_LO_GET_OID);
	objects_check_blob(PG_GETARG_OID(0), SEPG_DB_BLOB__READ);
	return PG_NARGS() == 3 ? be_lo_get_fragment(fcinfo) : be_lo_get(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_lo_put);
Datum
labelam_lo_put(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_LO_PUT);
	objects_check_blob(PG_GETARG_OID(0), SEPG_DB_BLOB__WRITE);
	return be_lo_put(fcinfo);
}

/*
 * The statistics counters (am/channels/counters.c): NULL where they would count rows
 * beyond the session's reach.  Relation counters take a table or an index,
 * database counters a database.
 */
static Datum
counter_twin(FunctionCallInfo fcinfo, Oid builtin, bool database,
			 PGFunction counter)
{
	Oid			oid = PG_GETARG_OID(0);

	objects_twin_enter(fcinfo, builtin);
	if (!(database ? labelheap_db_counters_visible(oid) :
		  labelheap_counters_visible(oid)))
		PG_RETURN_NULL();
	return counter(fcinfo);
}

#define COUNTER_TWIN(counter, builtin, database) \
PG_FUNCTION_INFO_V1(labelam_##counter); \
Datum \
labelam_##counter(PG_FUNCTION_ARGS) \
{ \
	return counter_twin(fcinfo, builtin, database, counter); \
}

#define LABELHEAP_COUNTER(name, builtin, database) \
	COUNTER_TWIN(name, builtin, database)
#include "am/channels/counterlist.h"
#undef LABELHEAP_COUNTER

/*
 * pg_logical_emit_message (am/replication/message.c notes who writes the
 * message, for logical decoding to decide who may receive it)
 */
static Datum
message_twin(FunctionCallInfo fcinfo, Oid builtin, PGFunction emit)
{
	objects_twin_enter(fcinfo, builtin);
	labelheap_message_before_write(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	return emit(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_logical_emit_message_text);
Datum
labelam_logical_emit_message_text(PG_FUNCTION_ARGS)
{
	return message_twin(fcinfo, LABELAM_F_EMIT_MESSAGE_TEXT,
						pg_logical_emit_message_text);
}

PG_FUNCTION_INFO_V1(labelam_logical_emit_message_bytea);
Datum
labelam_logical_emit_message_bytea(PG_FUNCTION_ARGS)
{
	return message_twin(fcinfo, LABELAM_F_EMIT_MESSAGE_BYTEA,
						pg_logical_emit_message_bytea);
}
