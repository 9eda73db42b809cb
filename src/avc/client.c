/*-------------------------------------------------------------------------
 *
 * src/avc/client.c
 *	  The session's security label: where it comes from, how it changes,
 *	  and how processes acting for the session get it.
 *
 * A client backend's label is, in this order:
 *	 1. the SELinux peer context of its connection (provider selinux; taken
 *		at authentication, ClientAuthentication_hook),
 *	 2. labelam.role_label's row for the login (session) role, in the
 *		database connected to (if labelam is installed there),
 *	 3. labelam.default_client_label, a PGC_SIGHUP setting: only
 *		postgresql.conf (or ALTER SYSTEM) sets it, so that no session picks
 *		its own label with PGOPTIONS, ALTER ROLE ... SET or ALTER DATABASE
 *		... SET.
 * Without one the connection is refused (FATAL), never run unconfined.
 * A provider whose subjects carry an authorization (lbac: provider.h's
 * session_subject) gives every session its subject itself, from the login
 * role's authorization in its model; the sources above are not asked, so
 * that no table or setting a superuser writes can hand out authorizations
 * the model does not.
 * A client may then ask for another label at connection start with
 * labelam.connect_label (PGOPTIONS): the session changes to it as
 * labelam.set_client_label() would (the policy's process { setcurrent
 * dyntransition } from the label just resolved), or the connection is
 * refused.  It gives nothing that calling labelam.set_client_label() as
 * the first statement would not, and is what runcon is on an SELinux host:
 * the label belongs to every connection the client process makes.
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
 * { setcurrent dyntransition } first, as sepgsql_setcon() does.
 *
 * Invariants of a change (labelam.set_client_label):
 *	 - Nothing undoes a change the policy would not allow the session to
 *	   make back.  Such a "one-way" change (no setcurrent, or no
 *	   dyntransition from the new label to the old) is refused (25001)
 *	   wherever a rollback could undo it after its statement ended: inside
 *	   a transaction block (implicit ones of multi-statement queries too),
 *	   a subtransaction (savepoints, plpgsql exception blocks), a procedure
 *	   or DO block (which may COMMIT or ROLLBACK), and an extended-protocol
 *	   pipeline; its statement commits as soon as it completes.  A
 *	   statement that makes it and then fails rolls back with everything it
 *	   did, the change included.  A change the policy allows both ways
 *	   stays transactional, like any setting.
 *	 - No result produced at one label is read at another: a change is
 *	   refused (55006) while the session has any cursor (pg_cursors, held
 *	   or not, and internal portals such as a plpgsql FOR loop's), and
 *	   every change, its rollback included, invalidates the cached plans.
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
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "postmaster/autovacuum.h"
#include "replication/walsender.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/plancache.h"
#include "utils/portal.h"
#include "utils/tuplestore.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"
#include "pg_compat.h"

/* peer context of the client connection, from authentication */
static char *client_peer_label = NULL;

/* resolution happens once, at the first commit */
static bool client_resolved = false;

/* set while labelam itself changes labelam.session_label */
static bool setting_session_label = false;

void
avc_client_auth(Port *port)
{
	char	   *peer;

	if (avc_provider->peer_label == NULL)
		return;
	peer = avc_provider->peer_label(port);
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

static bool change_allowed(uint32 from, uint32 to, bool audit);

/*
 * labelam.connect_label: the label the client asked for at connection
 * start, if the policy lets the session's label (just resolved) change to
 * it.  Start-up has no transaction to roll back, no cursor and no plan, so
 * only the policy's decision matters (see avc_set_client_label).
 */
static void
apply_connect_label(void)
{
	ErrorContextCallback errcallback;
	char	   *canonical;
	const char *current = avc_client_label();

	errcallback.callback = resolve_error_context;
	errcallback.arg = unconstify(char *, (const char *) "labelam.connect_label");
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;
	canonical = avc_canonicalize_subject(avc_connect_label, current);
	error_context_stack = errcallback.previous;

	if (!change_allowed(avc_subject_local_id(), avc_local_id(canonical), true))
		ereport(FATAL,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to connect with security label \"%s\"",
						canonical),
				 errdetail("The security policy does not allow \"%s\" process { setcurrent } on itself and { dyntransition } to the label asked for with labelam.connect_label.",
						   current)));
	set_session_label(canonical, PGC_S_OVERRIDE);
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
		labelam_is_autovacuum())
		return;

	/* refuse what talks to clients, not single-user mode or bgworkers */
	client = IsUnderPostmaster &&
		(MyBackendType == B_BACKEND || MyBackendType == B_WAL_SENDER);

	if (avc_provider->session_subject != NULL)
	{
		/* the provider's authorizations alone (provider.h) */
		label = avc_provider->session_subject(GetSessionUserId());
		source = "the policy provider's authorization of the role";
	}
	if (label == NULL && client_peer_label != NULL)
	{
		label = client_peer_label;
		source = "the connection's SELinux peer context";
	}
	if (label == NULL && avc_provider->session_subject == NULL)
	{
		label = role_label_lookup(GetSessionUserId());
		source = "labelam.role_label";
	}
	if (label == NULL && avc_provider->session_subject == NULL &&
		avc_default_client_label != NULL &&
		avc_default_client_label[0] != '\0')
	{
		label = avc_default_client_label;
		source = "labelam.default_client_label";
	}

	if (label == NULL)
	{
		/* labelam.role_label exists only where the extension was created */
		if (client && !OidIsValid(get_extension_oid("labelam", true)))
			ereport(FATAL,
					(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
					 errmsg("no security label for role \"%s\"",
							GetUserNameFromId(GetSessionUserId(), false)),
					 errdetail("The connection has no SELinux peer context, labelam is not installed in database \"%s\" (so labelam.role_label gives no label there), and labelam.default_client_label is empty.",
							   get_database_name(MyDatabaseId)),
					 errhint("Set labelam.default_client_label in postgresql.conf.")));
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
	canonical = avc_canonicalize_subject(label, NULL);
	error_context_stack = errcallback.previous;

	set_session_label(canonical, PGC_S_OVERRIDE);

	if (avc_connect_label != NULL && avc_connect_label[0] != '\0')
		apply_connect_label();
}

/*
 * May a session labeled "from" change itself to "to"?  The policy's process
 * { setcurrent } on itself and { dyntransition } to the new label, as
 * SELinux asks of setcon(3).
 */
static bool
change_allowed(uint32 from, uint32 to, bool audit)
{
	AvcDecision self;
	AvcDecision trans;

	avc_decide(AVC_CLASS_PROCESS, from, AVC_OBJ_LOCAL, from, &self);
	avc_decide(AVC_CLASS_PROCESS, from, AVC_OBJ_LOCAL, to, &trans);
	if (audit && avc_audit_mode != AVC_AUDIT_NONE)
	{
		avc_audit_record(NULL, AVC_CLASS_PROCESS, AVC_OBJ_LOCAL, from,
						 &self, AVC_PROCESS_SETCURRENT);
		avc_audit_record(NULL, AVC_CLASS_PROCESS, AVC_OBJ_LOCAL, to,
						 &trans, AVC_PROCESS_DYNTRANSITION);
	}
	if (!((self.allowed & AVC_PROCESS_SETCURRENT) || self.permissive))
		return false;
	return (trans.allowed & AVC_PROCESS_DYNTRANSITION) || trans.permissive;
}

/*
 * Does the session have a cursor whose rows could be read after a label
 * change?  Every portal that pg_cursors shows (DECLARE, WITH HOLD or not,
 * and named protocol-level portals, running or not), and every portal
 * ready to be fetched from, visible or not (a plpgsql FOR loop's, an SPI
 * cursor).  Not the statement's own portal: the simple query protocol's is
 * not shown, and the extended protocol's unnamed portal, shown, is the
 * statement's own when it is running (binding it dropped any earlier one).
 * portalmem.c keeps its table to itself; pg_cursor() is its public view.
 */
static bool
session_has_cursors(void)
{
	FmgrInfo	flinfo;
	ReturnSetInfo rsinfo;
	ExprContext *econtext;
	Portal		unnamed;
	uint64		own = 0;
	bool		result;

	LOCAL_FCINFO(fcinfo, 0);

	if (!ThereAreNoReadyPortals())
		return true;
	unnamed = GetPortalByName("");
	if (PortalIsValid(unnamed) && unnamed->visible &&
		unnamed->status == PORTAL_ACTIVE)
		own = 1;

	econtext = CreateStandaloneExprContext();
	fmgr_info(F_PG_CURSOR, &flinfo);
	MemSet(&rsinfo, 0, sizeof(rsinfo));
	rsinfo.type = T_ReturnSetInfo;
	rsinfo.econtext = econtext;
	rsinfo.allowedModes = (int) SFRM_Materialize;
	rsinfo.returnMode = SFRM_ValuePerCall;
	InitFunctionCallInfoData(*fcinfo, &flinfo, 0, InvalidOid, NULL,
							 (Node *) &rsinfo);
	(void) FunctionCallInvoke(fcinfo);
	result = rsinfo.setResult != NULL &&
		tuplestore_tuple_count(rsinfo.setResult) > own;
	if (rsinfo.setResult != NULL)
		tuplestore_end(rsinfo.setResult);
	if (rsinfo.setDesc != NULL)
		FreeTupleDesc(rsinfo.setDesc);
	FreeExprContext(econtext, true);
	return result;
}

/*
 * labelam.set_client_label(): change the session's label if the policy
 * allows the current label to change itself (setcurrent) to the new one
 * (dyntransition).  See the header comment for when a change is refused
 * although the policy allows it.
 */
void
avc_set_client_label(const char *label)
{
	char	   *canonical = avc_canonicalize_subject(label, avc_client_label());
	uint32		subject = avc_subject_local_id();
	uint32		target;
	const char *current;
	bool		one_way;

	if (subject == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("this process has no security label to change")));

	/*
	 * A trusted procedure's label is the policy's, for the call only: a
	 * change now would outlive the call or be undone by its end.
	 */
	if (avc_subject_pushed())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot change the client label inside a trusted procedure")));
	current = avc_client_label();
	target = avc_local_id(canonical);
	if (!change_allowed(subject, target, true))
	{
		AvcDecision self;

		avc_decide(AVC_CLASS_PROCESS, subject, AVC_OBJ_LOCAL, subject, &self);
		if (!((self.allowed & AVC_PROCESS_SETCURRENT) || self.permissive))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to change the client label"),
					 errdetail("The security policy does not allow process { setcurrent } to \"%s\".",
							   current)));
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to change the client label"),
				 errdetail("The security policy does not allow process { dyntransition } from \"%s\" to \"%s\".",
						   current, canonical)));
	}

	/* the same label again changes nothing */
	if (strcmp(canonical, current) == 0)
		return;

	/*
	 * Rows a cursor produced at the old label must not be read at the new
	 * one, which may not read them.
	 */
	if (session_has_cursors())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("cannot change the client label while the session has open cursors"),
				 errdetail("Rows a cursor read at one label must not be read at another."),
				 errhint("Close all cursors (CLOSE ALL) first.")));

	/*
	 * A change the policy would not let the session make back must outlive
	 * any rollback: allow it only where its statement's own commit follows
	 * it, and commit that statement at once (an extended-protocol Execute
	 * otherwise waits for Sync).
	 */
	one_way = !change_allowed(target, subject, false);
	if (one_way)
	{
		const char *msg = NULL;

		/*
		 * The pipeline first: from PostgreSQL 18 the statements of a
		 * pipeline after its first run in an implicit transaction block.
		 */
		if (IsSubTransaction())
			msg = gettext_noop("cannot change the client label inside a subtransaction");
		else if (MyXactFlags & XACT_FLAGS_PIPELINING)
			msg = gettext_noop("cannot change the client label within a pipeline");
		else if (IsTransactionBlock())
			msg = gettext_noop("cannot change the client label inside a transaction block");
		else if (avc_routine_depth > 0)
			msg = gettext_noop("cannot change the client label inside a procedure or DO block");
		if (msg != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
					 errmsg_internal("%s", _(msg)),
					 errdetail("The security policy does not allow the new label to change back, so the change must not be undone by a rollback."),
					 errhint("Call labelam.set_client_label() as a statement of its own, outside transaction blocks, procedures and pipelines.")));
		MyXactFlags |= XACT_FLAGS_NEEDIMMEDIATECOMMIT;
	}
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

/*
 * Assign hook of labelam.session_label: the new subject, set or restored
 * (a transactional change undone by a rollback comes here too).  Cached
 * plans were made for the old label: replan them.  Both only reset memory;
 * assign hooks must not fail.
 */
void
avc_session_label_assign(const char *newval, void *extra)
{
	const char *old = avc_session_label_text();
	bool		old_none = (old == NULL);
	bool		new_none = (newval == NULL || newval[0] == '\0');
	bool		changed;

	changed = old_none != new_none ||
		(!old_none && strcmp(old, newval) != 0);
	avc_set_subject(newval);
	if (changed)
		ResetPlanCache();
}
