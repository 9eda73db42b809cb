/*-------------------------------------------------------------------------
 *
 * src/shared_state/twins.c
 *	  The built-ins that read other sessions' state, and pg_notify, reached
 *	  without their checked twins.
 *
 * Calls in a query are rewritten into calls of the twins when it is
 * planned (objects/functions.c; activity.c and notify.c hold the twins).
 * A call that is not planned never is: libpq's fast-path interface, an
 * expression PostgreSQL evaluates without planning it (a column default of
 * COPY FROM, a constraint, an index expression), or any call in a
 * database without the extension, where there are no twins.  There:
 *	- pg_notify is refused: its notification could not be labeled;
 *	- the large-object functions that take an OID are decided as if it
 *	  were chosen (catalogs.c), and so are, when they are called, 18's
 *	  functions that write statistics (pg_restore_*_stats,
 *	  pg_clear_*_stats): catalog writes;
 *	- the others are refused unless the session may see every other
 *	  backend (then the twin would have withheld nothing) and, for
 *	  pg_prepared_xacts and pg_locks, every prepared transaction that has
 *	  a label (prepared.c), so that a database where everyone has one label
 *	  behaves as before.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"

#include "objects/objects.h"
#include "shared_state/shared_state.h"

void
shared_state_object_access(ObjectAccessType access, Oid classId,
						   Oid objectId, int subId, void *arg)
{
	if (access != OAT_FUNCTION_EXECUTE || classId != ProcedureRelationId)
		return;
	/* large objects created with an OID: not known here, decided as chosen */
	if (objects_chosen_oid_builtin(objectId))
	{
		shared_state_catalogs_chosen_oid();
		return;
	}
	/* 18: functions that write statistics into the catalogs */
	if (shared_state_catalogs_function(objectId))
		return;
	if (!objects_shared_state_builtin(objectId))
		return;
	if (objectId == F_PG_NOTIFY)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("pg_notify() cannot label its notification where it is called"),
				 errdetail("labelam labels notifications in queries and NOTIFY statements; this call is not planned as a query (the fast-path interface, a constraint, an index expression, a column default of COPY FROM), or the database has no extension labelam."),
				 errhint("Call it from a query or a PL/pgSQL function, or use NOTIFY.")));
	if (!shared_state_every_backend_visible() ||
		((objectId == F_PG_PREPARED_XACT || objectId == F_PG_LOCK_STATUS) &&
		 !shared_state_every_prepared_visible()))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to call %s() here",
						get_func_name(objectId)),
				 errdetail("Other sessions' state written at labels this session may not read can be withheld only in a query, and this call is not planned as one (or the database has no extension labelam)."),
				 errhint("Call it from a query in a database with the extension labelam.")));
}
