/*-------------------------------------------------------------------------
 *
 * src/am/replication/walsender.c
 *	  What a walsender may do while labelam is loaded: logical replication
 *	  for any REPLICATION role, under the filter (decode.c, output.c);
 *	  physical replication and base backups for superusers only.
 *
 * Physical replication (START_REPLICATION PHYSICAL), base backups
 * (BASE_BACKUP) and the commands that serve them send every row of every
 * table whatever its label: storage-level trust (README).  A role is given
 * REPLICATION for logical replication too, which sends only what its label
 * may select, so REPLICATION alone must not open the whole cluster.  A
 * physical walsender has no database, hence no labelam.role_label and no
 * label: labelam cannot tell a role cleared for every label from one that
 * is not, and admits superusers only, who can change labelam's own
 * configuration anyway.
 *
 * PostgreSQL lets a logical walsender (replication=database) run the
 * physical commands too, and has no hook before a replication command
 * runs.  What it does before running one is to log it ("received
 * replication command", at LOG when log_replication_commands is on), with
 * the parsed command at hand.  So labelam turns that setting on for the
 * logical walsenders of roles that are not superusers (PGC_S_OVERRIDE: a
 * role that cannot SET a superuser setting cannot turn it off either), and
 * its emit_log_hook ends the connection (FATAL) when the command logged is
 * not one of logical replication's: IDENTIFY_SYSTEM, SHOW, CREATE,
 * ALTER and DROP_REPLICATION_SLOT and START_REPLICATION of a logical slot.
 * The command is the one PostgreSQL parsed (15 and 17 keep it in
 * replication_parse_result; 18 parses into a local variable, so it is
 * parsed again here from debug_query_string, which holds its text).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "libpq/libpq-be.h"
#include "miscadmin.h"
#include "nodes/replnodes.h"
#include "replication/walsender.h"
#include "replication/walsender_private.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "am/replication/replication.h"

/* this walsender's physical commands are refused */
static bool physical_refused = false;

#define RECEIVED_COMMAND "received replication command: %s"

void
labelheap_walsender_client_auth(Port *port, int status)
{
	Oid			roleid;

	if (status != STATUS_OK || !am_walsender)
		return;
	roleid = get_role_oid(port->user_name, true);
	if (OidIsValid(roleid) && superuser_arg(roleid))
		return;
	if (!am_db_walsender)
		ereport(FATAL,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("physical replication connections are allowed only to superusers while labelam is loaded"),
				 errdetail("Physical replication and base backups send every row of every table whatever its security label."),
				 errhint("Logical replication (replication=database) sends what the role's security label may select.")));
	physical_refused = true;
	(void) set_config_option("log_replication_commands", "on", PGC_SUSET,
							 PGC_S_OVERRIDE, GUC_ACTION_SET, true, 0, false);
}

/* the command being logged, as PostgreSQL parsed it */
static Node *
logged_command(void)
{
#if PG_VERSION_NUM >= 180000
	yyscan_t	scanner;
	Node	   *node = NULL;

	if (debug_query_string == NULL)
		return NULL;
	replication_scanner_init(debug_query_string, &scanner);
	if (!replication_scanner_is_replication_command(scanner) ||
		replication_yyparse(&node, scanner) != 0)
		node = NULL;
	replication_scanner_finish(scanner);
	return node;
#else
	return replication_parse_result;
#endif
}

/* a command of logical replication's? */
static bool
logical_command(Node *cmd)
{
	if (cmd == NULL)
		return false;
	switch (nodeTag(cmd))
	{
		case T_IdentifySystemCmd:
		case T_VariableShowStmt:
		case T_DropReplicationSlotCmd:
#if PG_VERSION_NUM >= 170000
		case T_AlterReplicationSlotCmd:
#endif
			return true;
		case T_CreateReplicationSlotCmd:
			return ((CreateReplicationSlotCmd *) cmd)->kind ==
				REPLICATION_KIND_LOGICAL;
		case T_StartReplicationCmd:
			return ((StartReplicationCmd *) cmd)->kind ==
				REPLICATION_KIND_LOGICAL;
		default:
			return false;
	}
}

void
labelheap_walsender_emit_log(ErrorData *edata)
{
	MemoryContext cxt;
	MemoryContext old;
	bool		allowed;

	if (!physical_refused || edata->elevel != LOG ||
		edata->message_id == NULL ||
		strcmp(edata->message_id, RECEIVED_COMMAND) != 0)
		return;

	cxt = AllocSetContextCreate(TopMemoryContext, "labelam replication command",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	allowed = logical_command(logged_command());
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	if (allowed)
		return;

	/* not while reporting this very FATAL */
	physical_refused = false;
	ereport(FATAL,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("only logical replication commands are allowed to roles that are not superusers while labelam is loaded"),
			 errdetail("Physical replication and base backups send every row of every table whatever its security label."),
			 errhint("Use a superuser role for physical replication and base backups.")));
}
