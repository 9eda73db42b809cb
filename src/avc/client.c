/*-------------------------------------------------------------------------
 *
 * client.c
 *	  The session's security label: where it comes from, how it changes,
 *	  and how processes acting for the session get it.
 *
 * A client backend's label is, in this order:
 *	 1. the SELinux peer context of its connection (provider selinux; taken
 *		at authentication, ClientAuthentication_hook),
 *	 2. labelam.role_label's row for the login (session) role, in the
 *		database connected to (if labelam is installed there),
 *	 3. labelam.default_client_label (superuser setting; ALTER ROLE ... SET
 *		and ALTER DATABASE ... SET work too).
 * Without one the connection is refused (FATAL), never run unconfined.
 * SET ROLE does not change the label: database roles are not policy
 * subjects, as with SELinux users.
 *
 * The label is resolved when InitPostgres commits its start-up transaction
 * (XACT_EVENT_PRE_COMMIT of the first transaction): the database and the
 * login role are known there and catalogs can be read, and a FATAL still
 * refuses the connection before it is reported ready.
 *
 * Background workers with a database connection get theirs the same way,
 * minus the peer context, but are not refused: without one they have no
 * subject and every decision denies.  Processes without a user session
 * (autovacuum, walsenders for physical replication, the checkpointer and
 * other auxiliary processes) have no subject either.
 *
 * The label is carried by the setting labelam.session_label.  Parallel
 * workers restore the leader's settings, so they decide with the session's
 * current label.  Only labelam sets it: its check hook refuses everyone
 * else, and labelam.set_client_label() checks the policy's process
 * { setcurrent dyntransition } first, as sepgsql_setcon() does.  A change
 * is transactional (undone on abort), like any setting.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/skey.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "commands/extension.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "postmaster/autovacuum.h"
#include "replication/walsender.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "avc/avc_internal.h"

/* peer context of the client connection, from authentication */
static char *client_peer_label = NULL;

/* resolution happens once, at the first commit */
static bool client_resolved = false;

/* set while labelam itself changes labelam.session_label */
static bool setting_session_label = false;

void
avc_client_auth(Port *port)
{
	char	   *peer = avc_provider->peer_label(port);

	if (peer != NULL)
	{
		client_peer_label = MemoryContextStrdup(TopMemoryContext, peer);
		pfree(peer);
	}
}

/*
 * labelam.role_label's label for the role, or NULL.  Only the extension's
 * own table counts: in a database without the extension, anyone allowed
 * to create a schema "labelam" could otherwise choose their own label.
 */
static char *
role_label_lookup(Oid roleid)
{
	Oid			extoid;
	Oid			nsp;
	Oid			relid;
	Relation	rel;
	TableScanDesc scan;
	TupleTableSlot *slot;
	ScanKeyData key;
	Snapshot	snapshot;
	char	   *result = NULL;

	extoid = get_extension_oid("labelam", true);
	if (!OidIsValid(extoid))
		return NULL;
	nsp = get_namespace_oid("labelam", true);
	if (!OidIsValid(nsp))
		return NULL;
	relid = get_relname_relid("role_label", nsp);
	if (!OidIsValid(relid) ||
		getExtensionOfObject(RelationRelationId, relid) != extoid)
		return NULL;

	rel = table_open(relid, AccessShareLock);
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	ScanKeyInit(&key, 1, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(roleid));
	scan = table_beginscan(rel, snapshot, 1, &key);
	slot = table_slot_create(rel, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		role = slot_getattr(slot, 1, &isnull);
		Datum		label;

		if (isnull || DatumGetObjectId(role) != roleid)
			continue;
		label = slot_getattr(slot, 2, &isnull);
		if (!isnull)
			result = TextDatumGetCString(label);
		break;
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);
	return result;
}

static void
set_session_label(const char *label, GucSource source)
{
	setting_session_label = true;
	PG_TRY();
	{
		(void) set_config_option("labelam.session_label", label,
								 PGC_SUSET, source, GUC_ACTION_SET,
								 true, ERROR, false);
	}
	PG_FINALLY();
	{
		setting_session_label = false;
	}
	PG_END_TRY();
}

static void
resolve_error_context(void *arg)
{
	errcontext("security label of the session, from %s", (const char *) arg);
}

/*
 * Called at the first commit of the process (see the header comment).
 */
void
avc_client_resolve(void)
{
	const char *label = NULL;
	const char *source = NULL;
	char	   *canonical;
	bool		client;
	ErrorContextCallback errcallback;

	if (client_resolved)
		return;
	client_resolved = true;

	/* parallel workers get the leader's label with its settings */
	if (IsParallelWorker() || InitializingParallelWorker)
		return;
	/* no user session: no subject */
	if (!OidIsValid(MyDatabaseId) || !OidIsValid(GetSessionUserId()) ||
		IsAutoVacuumWorkerProcess() || IsAutoVacuumLauncherProcess())
		return;

	/* refuse what talks to clients, not single-user mode or bgworkers */
	client = IsUnderPostmaster &&
		(MyBackendType == B_BACKEND || MyBackendType == B_WAL_SENDER);

	if (client_peer_label != NULL)
	{
		label = client_peer_label;
		source = "the connection's SELinux peer context";
	}
	if (label == NULL)
	{
		label = role_label_lookup(GetSessionUserId());
		source = "labelam.role_label";
	}
	if (label == NULL && avc_default_client_label != NULL &&
		avc_default_client_label[0] != '\0')
	{
		label = avc_default_client_label;
		source = "labelam.default_client_label";
	}

	if (label == NULL)
	{
		if (client)
			ereport(FATAL,
					(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
					 errmsg("no security label for role \"%s\"",
							GetUserNameFromId(GetSessionUserId(), false)),
					 errdetail("The connection has no SELinux peer context, labelam.role_label has no row for the role, and labelam.default_client_label is empty."),
					 errhint("Add a row to labelam.role_label or set labelam.default_client_label.")));
		return;
	}

	/* say where a bad label came from; this aborts start-up (FATAL) */
	errcallback.callback = resolve_error_context;
	errcallback.arg = unconstify(char *, source);
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	canonical = avc_canonicalize(label);
	error_context_stack = errcallback.previous;

	set_session_label(canonical, PGC_S_OVERRIDE);
}

/*
 * labelam.set_client_label(): change the session's label if the policy
 * allows the current label to change itself (setcurrent) to the new one
 * (dyntransition).
 */
void
avc_set_client_label(const char *label)
{
	char	   *canonical = avc_canonicalize(label);
	uint32		subject = avc_subject_local_id();
	uint32		target;
	AvcDecision self;
	AvcDecision trans;

	if (subject == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label to change")));
	target = avc_local_id(canonical);
	avc_decide(AVC_CLASS_PROCESS, subject, AVC_OBJ_LOCAL, subject, &self);
	avc_decide(AVC_CLASS_PROCESS, subject, AVC_OBJ_LOCAL, target, &trans);
	if (avc_audit_mode != AVC_AUDIT_NONE)
	{
		avc_audit_record(NULL, AVC_CLASS_PROCESS, AVC_OBJ_LOCAL, subject,
						 &self, AVC_PROCESS_SETCURRENT);
		avc_audit_record(NULL, AVC_CLASS_PROCESS, AVC_OBJ_LOCAL, target,
						 &trans, AVC_PROCESS_DYNTRANSITION);
	}
	if (!((self.allowed & AVC_PROCESS_SETCURRENT) || self.permissive))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to change the client label"),
				 errdetail("The security policy does not allow process { setcurrent } to \"%s\".",
						   avc_client_label())));
	if (!((trans.allowed & AVC_PROCESS_DYNTRANSITION) || trans.permissive))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to change the client label"),
				 errdetail("The security policy does not allow process { dyntransition } from \"%s\" to \"%s\".",
						   avc_client_label(), canonical)));
	set_session_label(canonical, PGC_S_SESSION);
}

/*
 * Check hook of labelam.session_label: only labelam sets it, and parallel
 * workers restoring the leader's value.
 */
bool
avc_session_label_check(char **newval, void **extra, GucSource source)
{
	if (setting_session_label || InitializingParallelWorker ||
		source == PGC_S_DEFAULT)
		return true;
	GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
	GUC_check_errmsg("labelam.session_label cannot be set directly");
	GUC_check_errhint("Use labelam.set_client_label(), which asks the security policy.");
	return false;
}

void
avc_session_label_assign(const char *newval, void *extra)
{
	avc_set_subject(newval);
}
