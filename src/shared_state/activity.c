/*-------------------------------------------------------------------------
 *
 * src/shared_state/activity.c
 *	  The checked twins of the built-ins that show other backends' state:
 *	  what a backend wrote at a label the session may not read is shown as
 *	  PostgreSQL shows it to an unprivileged role, or not at all.
 *
 * pg_stat_activity (and pg_stat_replication, pg_stat_ssl, pg_stat_gssapi,
 * which read the same function) shows every backend's application_name,
 * query, state, wait event, times and client; pg_stat_progress_* shows the
 * table a command works on and its counts; pg_locks every lock, advisory
 * lock keys (numbers a session chooses) included; pg_prepared_xacts the
 * name each prepared transaction was given.  A Trojan horse in a high
 * session writes into them with SET application_name, a query's text,
 * pg_advisory_lock(secret) ... and a low session reads them.
 *
 * Their calls are rewritten into calls of these twins when a query is
 * planned (objects/functions.c, with object checks on or off), which call
 * the built-in and then, for each backend the session may not see
 * (shared_state_backend_visible: its write label is one the session may
 * not read):
 *	- pg_stat_get_activity: the row as PostgreSQL shows it to a role that
 *	  lacks pg_read_all_stats (datid, pid, usesysid, backend_xid,
 *	  backend_xmin, "<insufficient privilege>" as query, the rest NULL),
 *	  and application_name NULL too (PostgreSQL shows it to everyone);
 *	- pg_stat_get_progress_info: pid and datid only, as PostgreSQL shows
 *	  an unprivileged role;
 *	- pg_lock_status: its locks are not listed (a prepared transaction's,
 *	  which have no pid, by the label recorded when it was prepared:
 *	  prepared.c);
 *	- pg_prepared_xact: the transaction is not listed;
 *	- pg_stat_get_backend_*(beid): activity "<insufficient privilege>",
 *	  the rest NULL, as PostgreSQL does for other roles;
 *	- pg_get_aios (18, pg_aios): its I/O in progress (the relation and
 *	  blocks a query reads) is not listed.
 * Columns are found by name, so a major that adds one hides it too.  A
 * session sees its own backend, and every backend whose write label it may
 * read, as before.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupdesc.h"
#include "access/twophase.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/fmgroids.h"
#include "utils/tuplestore.h"

#include "objects/objects.h"
#include "pg_compat.h"
#include "shared_state/shared_state.h"

#define INSUFFICIENT_PRIVILEGE "<insufficient privilege>"

/*
 * What to do with one row of a built-in's result: keep it (possibly
 * changed in place), or drop it.
 */
typedef bool (*RowFilter) (TupleDesc desc, Datum *values, bool *nulls);

/* attribute number (0-based) of the column named name, or -1 */
static int
column_index(TupleDesc desc, const char *name)
{
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i;
	}
	return -1;
}

/* the pid in column name of a row, or 0 if there is none (NULL) */
static int
row_pid(TupleDesc desc, Datum *values, bool *nulls, const char *name)
{
	int			i = column_index(desc, name);

	if (i < 0)
		elog(ERROR, "result of a monitoring function has no column \"%s\"",
			 name);
	return nulls[i] ? 0 : DatumGetInt32(values[i]);
}

/* every column NULL but those named in keep */
static void
null_but(TupleDesc desc, bool *nulls, const char *const *keep)
{
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		const char *name = NameStr(TupleDescAttr(desc, i)->attname);
		const char *const *k;
		bool		kept = false;

		for (k = keep; *k != NULL; k++)
			if (strcmp(name, *k) == 0)
				kept = true;
		if (!kept)
			nulls[i] = true;
	}
}

/*
 * Calls a set-returning built-in with the twin's arguments and passes its
 * rows through filter into a tuplestore, which the twin returns
 * (materialize mode).  Built-ins of either protocol: pg_stat_get_activity
 * and pg_stat_get_progress_info materialize, pg_lock_status and
 * pg_prepared_xact return a row a call; each runs with an FmgrInfo and
 * ReturnSetInfo of its own, so that its per-call state is its own.
 */
static Datum
filter_srf(FunctionCallInfo fcinfo, PGFunction builtin, RowFilter filter)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	LOCAL_FCINFO(inner, FUNC_MAX_ARGS);
	FmgrInfo	flinfo;
	ReturnSetInfo inner_rsinfo;
	TupleDesc	desc;
	Tuplestorestate *out;
	MemoryContext oldcxt;
	Datum	   *values;
	bool	   *nulls;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		(rsinfo->allowedModes & SFRM_Materialize) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("materialize mode required, but it is not allowed in this context")));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	oldcxt = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	desc = CreateTupleDescCopy(desc);
	out = tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0,
								false, work_mem);
	MemoryContextSwitchTo(oldcxt);
	values = palloc(desc->natts * sizeof(Datum));
	nulls = palloc(desc->natts * sizeof(bool));

	/* the built-in's call, on its own per-call state */
	flinfo = *fcinfo->flinfo;
	flinfo.fn_extra = NULL;
	memset(&inner_rsinfo, 0, sizeof(inner_rsinfo));
	inner_rsinfo.type = T_ReturnSetInfo;
	inner_rsinfo.econtext = rsinfo->econtext;
	inner_rsinfo.expectedDesc = desc;
	inner_rsinfo.allowedModes = SFRM_ValuePerCall | SFRM_Materialize;
	InitFunctionCallInfoData(*inner, &flinfo, fcinfo->nargs,
							 fcinfo->fncollation, NULL,
							 (Node *) &inner_rsinfo);
	memcpy(inner->args, fcinfo->args, fcinfo->nargs * sizeof(NullableDatum));

	for (;;)
	{
		Datum		row;

		inner_rsinfo.returnMode = SFRM_ValuePerCall;
		inner_rsinfo.isDone = ExprSingleResult;
		inner->isnull = false;
		row = builtin(inner);

		if (inner_rsinfo.returnMode == SFRM_Materialize)
		{
			/* every row at once */
			TupleTableSlot *slot;

			if (inner_rsinfo.setResult == NULL)
				break;
			slot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
			while (tuplestore_gettupleslot(inner_rsinfo.setResult, true,
										   false, slot))
			{
				slot_getallattrs(slot);
				memcpy(values, slot->tts_values, desc->natts * sizeof(Datum));
				memcpy(nulls, slot->tts_isnull, desc->natts * sizeof(bool));
				if (filter(desc, values, nulls))
					tuplestore_putvalues(out, desc, values, nulls);
			}
			ExecDropSingleTupleTableSlot(slot);
			tuplestore_end(inner_rsinfo.setResult);
			break;
		}
		if (inner_rsinfo.isDone == ExprEndResult)
			break;
		if (!inner->isnull)
		{
			HeapTupleHeader td = DatumGetHeapTupleHeader(row);
			HeapTupleData tuple;

			tuple.t_len = HeapTupleHeaderGetDatumLength(td);
			ItemPointerSetInvalid(&tuple.t_self);
			tuple.t_tableOid = InvalidOid;
			tuple.t_data = td;
			heap_deform_tuple(&tuple, desc, values, nulls);
			if (filter(desc, values, nulls))
				tuplestore_putvalues(out, desc, values, nulls);
		}
		if (inner_rsinfo.isDone != ExprMultipleResult)
			break;
	}

	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = out;
	rsinfo->setDesc = desc;
	return (Datum) 0;
}

/* ---- pg_stat_activity ---- */

static bool
activity_row(TupleDesc desc, Datum *values, bool *nulls)
{
	static const char *const keep[] = {"datid", "pid", "usesysid",
	"backend_xid", "backend_xmin", NULL};
	int			pid = row_pid(desc, values, nulls, "pid");
	int			query;

	if (pid == 0 || shared_state_backend_visible(pid))
		return true;
	null_but(desc, nulls, keep);
	query = column_index(desc, "query");
	if (query >= 0)
	{
		values[query] = CStringGetTextDatum(INSUFFICIENT_PRIVILEGE);
		nulls[query] = false;
	}
	return true;
}

PG_FUNCTION_INFO_V1(labelam_pg_stat_get_activity);
Datum
labelam_pg_stat_get_activity(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_STAT_GET_ACTIVITY);
	return filter_srf(fcinfo, pg_stat_get_activity, activity_row);
}

/* ---- pg_stat_progress_* ---- */

static bool
progress_row(TupleDesc desc, Datum *values, bool *nulls)
{
	static const char *const keep[] = {"pid", "datid", NULL};
	int			pid = row_pid(desc, values, nulls, "pid");

	if (pid != 0 && !shared_state_backend_visible(pid))
		null_but(desc, nulls, keep);
	return true;
}

PG_FUNCTION_INFO_V1(labelam_pg_stat_get_progress_info);
Datum
labelam_pg_stat_get_progress_info(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_STAT_GET_PROGRESS_INFO);
	return filter_srf(fcinfo, pg_stat_get_progress_info, progress_row);
}

/* ---- pg_locks ---- */

/*
 * A prepared transaction's locks have no pid.  Their virtual transaction
 * is that of the session that prepared it ("-1/<xid>" after a restart),
 * which twophase.c maps back to the transaction (15 and 18).
 */
static bool
lock_row(TupleDesc desc, Datum *values, bool *nulls)
{
	int			pid = row_pid(desc, values, nulls, "pid");
	int			vxid_col;
	char	   *vxid_text;
	int			number;
	unsigned int lxid;
	char		rest;
	bool		visible = false;

	if (pid != 0)
		return shared_state_backend_visible(pid);
	vxid_col = column_index(desc, "virtualtransaction");
	if (vxid_col < 0 || nulls[vxid_col])
		return false;
	vxid_text = TextDatumGetCString(values[vxid_col]);
	if (sscanf(vxid_text, "%d/%u%c", &number, &lxid, &rest) == 2 &&
		LocalTransactionIdIsValid(lxid))
	{
		VirtualTransactionId vxid;
		bool		more = false;
		TransactionId xid;

		labelam_set_vxid(vxid, number, lxid);
		xid = TwoPhaseGetXidByVirtualXID(vxid, &more);
		visible = TransactionIdIsValid(xid) && !more &&
			shared_state_prepared_visible(xid);
	}
	pfree(vxid_text);
	return visible;
}

PG_FUNCTION_INFO_V1(labelam_pg_lock_status);
Datum
labelam_pg_lock_status(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_LOCK_STATUS);
	return filter_srf(fcinfo, pg_lock_status, lock_row);
}

/* ---- pg_prepared_xacts ---- */

static bool
prepared_row(TupleDesc desc, Datum *values, bool *nulls)
{
	int			xid = column_index(desc, "transaction");

	if (xid < 0 || nulls[xid])
		return false;
	return shared_state_prepared_visible(DatumGetTransactionId(values[xid]));
}

PG_FUNCTION_INFO_V1(labelam_pg_prepared_xact);
Datum
labelam_pg_prepared_xact(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_PREPARED_XACT);
	return filter_srf(fcinfo, pg_prepared_xact, prepared_row);
}

/* ---- pg_stat_get_backend_*(beid) ---- */

/* may the session see the backend that status slot beid shows? */
static bool
backend_id_visible(int32 beid)
{
	LOCAL_FCINFO(pidinfo, 1);
	Datum		pid;

	InitFunctionCallInfoData(*pidinfo, NULL, 1, InvalidOid, NULL, NULL);
	pidinfo->args[0].value = Int32GetDatum(beid);
	pidinfo->args[0].isnull = false;
	pid = pg_stat_get_backend_pid(pidinfo);
	/* no such backend: the built-in says so itself */
	if (pidinfo->isnull)
		return true;
	return shared_state_backend_visible(DatumGetInt32(pid));
}

static Datum
backend_twin(FunctionCallInfo fcinfo, Oid builtin, PGFunction function,
			 bool activity)
{
	objects_twin_enter(fcinfo, builtin);
	if (!backend_id_visible(PG_GETARG_INT32(0)))
	{
		if (activity)
			PG_RETURN_TEXT_P(cstring_to_text(INSUFFICIENT_PRIVILEGE));
		PG_RETURN_NULL();
	}
	return function(fcinfo);
}

#define BACKEND_TWIN(function, builtin, activity) \
PG_FUNCTION_INFO_V1(labelam_##function); \
Datum \
labelam_##function(PG_FUNCTION_ARGS) \
{ \
	return backend_twin(fcinfo, builtin, function, activity); \
}

BACKEND_TWIN(pg_stat_get_backend_activity, F_PG_STAT_GET_BACKEND_ACTIVITY, true)
BACKEND_TWIN(pg_stat_get_backend_wait_event_type, F_PG_STAT_GET_BACKEND_WAIT_EVENT_TYPE, false)
BACKEND_TWIN(pg_stat_get_backend_wait_event, F_PG_STAT_GET_BACKEND_WAIT_EVENT, false)
BACKEND_TWIN(pg_stat_get_backend_activity_start, F_PG_STAT_GET_BACKEND_ACTIVITY_START, false)
BACKEND_TWIN(pg_stat_get_backend_xact_start, F_PG_STAT_GET_BACKEND_XACT_START, false)
BACKEND_TWIN(pg_stat_get_backend_start, F_PG_STAT_GET_BACKEND_START, false)
BACKEND_TWIN(pg_stat_get_backend_client_addr, F_PG_STAT_GET_BACKEND_CLIENT_ADDR, false)
BACKEND_TWIN(pg_stat_get_backend_client_port, F_PG_STAT_GET_BACKEND_CLIENT_PORT, false)
#ifdef F_PG_STAT_GET_BACKEND_SUBXACT
BACKEND_TWIN(pg_stat_get_backend_subxact, F_PG_STAT_GET_BACKEND_SUBXACT, false)
#endif

#ifdef F_PG_GET_AIOS
/* 18: asynchronous I/O in progress, with the pid that issued it */
static bool
aio_row(TupleDesc desc, Datum *values, bool *nulls)
{
	int			pid = row_pid(desc, values, nulls, "pid");

	return pid == 0 || shared_state_backend_visible(pid);
}

PG_FUNCTION_INFO_V1(labelam_pg_get_aios);
Datum
labelam_pg_get_aios(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_GET_AIOS);
	return filter_srf(fcinfo, pg_get_aios, aio_row);
}
#endif

#ifdef F_PG_STAT_GET_BACKEND_WAL
/* 18: a backend's WAL counts, by pid */
PG_FUNCTION_INFO_V1(labelam_pg_stat_get_backend_wal);
Datum
labelam_pg_stat_get_backend_wal(PG_FUNCTION_ARGS)
{
	objects_twin_enter(fcinfo, F_PG_STAT_GET_BACKEND_WAL);
	if (!shared_state_backend_visible(PG_GETARG_INT32(0)))
		PG_RETURN_NULL();
	return pg_stat_get_backend_wal(fcinfo);
}
#endif
