/*-------------------------------------------------------------------------
 *
 * src/am/replication/apply.c
 *	  The subscriber side: rows a logical replication worker writes into
 *	  labelheap tables keep the label they carry, and nothing the worker
 *	  runs on its tables' behalf borrows its label.
 *
 * An apply or table synchronization worker connects as the subscription's
 * owner and so takes the owner's labelam.role_label (avc/client.c).  Its
 * label decides the rows it applies: a trusted label whose range may write
 * rows of every level (the replica domain of labelam's policy module,
 * system_u:system_r:labelam_replica_t:s0-s15:c0.c1023) applies them all,
 * its own label deciding each row's checks (avc/maintenance.c's depth 0,
 * around new_label.c's and write.c's checks of the row, and
 * label_set_checks.c's of a replicated TRUNCATE); a lower one is
 * refused the rows above it (42501), and the subscription stops there.
 * Everything else the worker decides, it decides with its narrowed label
 * (the clearance alone, which writes at the clearance only), as every
 * trusted session does.
 *
 * A replicated row takes its label from the table's declared label column,
 * which the publisher fills in (output.c); new_label.c asks here.  A
 * replicated row of a labelheap table without one (the column NULL or
 * absent: a publisher that does not send labels, a subscriber table
 * without the column) is an error, never the worker's own label.  The
 * worker writes its rows outside any executor frame (worker.c's
 * ExecSimpleRelationInsert & co., tablesync.c's CopyFrom); a row code
 * nested in it writes (a query, in a frame of its own) is not replicated.
 *
 * Code a worker runs for a subscription's tables runs with the worker's
 * narrowed label, which reads rows of every level: triggers (ENABLE
 * ALWAYS or REPLICA: a BEFORE trigger could relabel the row it is given,
 * an AFTER trigger copy it into a lower table), and functions in defaults,
 * constraints and index expressions.  labelam refuses them: a replicated
 * write into a labelheap table with such a trigger is refused, and so is
 * any query a worker's nested code starts in a database with labelam
 * (ExecutorStart; the worker itself starts none).  The refusal ends the
 * apply transaction, with what the code did in it.  Should one run
 * nonetheless, it would decide with the narrowed label, never the wide
 * one: avc/maintenance.c widens only while no executor, utility command or
 * routine runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/extension.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "replication/logicalworker.h"
#include "utils/rel.h"

#include "am/read/frames.h"
#include "am/replication/replication.h"

/* is the current write a row that a logical replication worker applies? */
bool
labelheap_replicated_write(void)
{
	return IsLogicalWorker() && labelheap_frame_id() == 0;
}

/* a trigger that fires when a worker applies a row to rel */
static const char *
replica_trigger(Relation rel)
{
	TriggerDesc *trigdesc = rel->trigdesc;
	int			i;

	if (trigdesc == NULL)
		return NULL;
	for (i = 0; i < trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &trigdesc->triggers[i];

		if (trigger->tgenabled == TRIGGER_FIRES_ALWAYS ||
			trigger->tgenabled == TRIGGER_FIRES_ON_REPLICA)
			return trigger->tgname;
	}
	return NULL;
}

/*
 * Checks of a row a worker applies to rel (labelheap), labeled secid
 * (InvalidOid: it carries none).
 */
void
labelheap_replicated_row(Relation rel, Oid secid)
{
	const char *trigger = replica_trigger(rel);

	if (!OidIsValid(secid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("replicated row of table \"%s\" has no security label",
						RelationGetRelationName(rel)),
				 errdetail("A logical replication worker writes rows of labelheap tables with the label they carry as the value of the table's label column, never with its own."),
				 errhint("Publish the table with its label column (labelam.security_label) from a server running labelam, and give the subscriber's table the same column.")));
	if (trigger != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("trigger \"%s\" of table \"%s\" cannot fire for replicated rows",
						trigger, RelationGetRelationName(rel)),
				 errdetail("It would run with the label of the subscription's owner, which may read and write rows of levels the row's own writers may not."),
				 errhint("ALTER TABLE %s DISABLE TRIGGER %s, or leave it enabled for ordinary sessions only (ENABLE TRIGGER).",
						 RelationGetRelationName(rel), trigger)));
}

/*
 * src/hooks.c, ExecutorStart: no query in a worker's nested code, in a
 * database where labelam is installed (a worker serves one database).
 */
void
labelheap_apply_executor_start(void)
{
	static int	labelam_here = -1;

	if (!IsLogicalWorker())
		return;
	if (labelam_here < 0)
		labelam_here = OidIsValid(get_extension_oid("labelam", true));
	if (!labelam_here)
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("queries cannot run in a logical replication worker while labelam is loaded"),
			 errdetail("Functions, triggers, defaults and constraints a worker runs for a subscription's tables would run with the label of the subscription's owner, which may read and write rows of every level."),
			 errhint("Keep such code out of replicated tables' defaults, constraints and index expressions, and out of triggers enabled for replicas.")));
}
