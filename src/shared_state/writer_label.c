/*-------------------------------------------------------------------------
 *
 * src/shared_state/writer_label.c
 *	  The label of what a session writes into server state, and who may
 *	  read it.
 *
 * Notifications, application_name, the text of a query, advisory lock
 * keys and a prepared transaction's name are information the session that
 * wrote them had: under the MLS rule for rows they may reach another
 * session only if that session may read the writer's level.  labelam
 * decides this as for rows, so that one rule, one permission and one
 * cache decide both: the information is labeled as a row the writer would
 * insert into a table that the policy labels by default (sepgsql_contexts'
 * "db_table *.*.*", else labelam.default_table_label; under Debian's MLS
 * policy staff_u:staff_r:staff_t:s3 writes
 * staff_u:object_r:sepgsql_table_t:s3), and a reader may read it if its
 * label holds db_tuple { select } on that label.  A writer's label,
 * once the policy's type_transition has mapped it to a row's, compares
 * with readers exactly as rows do: the MLS constraint on db_tuple select
 * (l1 dom l2) is the "may read H" of the rule, and the domain's right to
 * read rows of ordinary tables is its type part.
 *
 * A trusted session (avc/trusted.c) reads rows of every level up to its
 * clearance: what it writes is labeled by its narrowed label, the
 * clearance, even while its own label decides a maintenance command's
 * checks (avc_write_subject), never by its range's low level.
 *
 * Under provider lbac, which has no table labels, the write label is the
 * label a row inserted by the session gets: its own row label.
 * A session without a label (a background worker that none was given)
 * writes nothing labeled (NULL) and reads nothing labeled.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "avc/avc.h"
#include "avc/avc_objects.h"
#include "shared_state/shared_state.h"

/* the table name the policy's default label is looked up for */
#define WRITE_LABEL_SCHEMA	"public"
#define WRITE_LABEL_TABLE	"labelam_shared_state"

/*
 * The current subject's write label (palloc'd), or NULL if the process has
 * no subject or the policy gives no default table label (then nothing it
 * writes is readable by others: see the callers).
 */
char *
shared_state_compute_write_label(void)
{
	/* the last one computed: NOTIFY asks at every notification */
	static char *last_subject = NULL;
	static char *last_label = NULL;
	static uint64 last_epoch = 0;
	static uint64 last_generation = 0;
	const char *subject = avc_write_subject();
	char	   *parent;
	char	   *label;

	if (subject == NULL)
		return NULL;
	if (last_subject != NULL && last_epoch == avc_current_epoch() &&
		last_generation == avc_table_label_generation() &&
		strcmp(last_subject, subject) == 0)
		return last_label ? pstrdup(last_label) : NULL;

	label = NULL;

	/*
	 * A policy without object classes (lbac) labels a new row from the
	 * subject alone, with no table label (avc_table_label_text): what the
	 * session writes is labeled as such a row.
	 */
	if (!avc_object_classes())
	{
		if (avc_write_subject_labels_rows())
			label = avc_write_label_text("");
	}
	parent = !avc_object_classes() ? NULL :
		avc_default_table_label_text(WRITE_LABEL_SCHEMA, WRITE_LABEL_TABLE);
	/* a label the policy in force does not know gives none (fail closed) */
	if (parent != NULL && avc_label_valid(parent))
	{
		char	   *canonical = avc_canonicalize(parent);

		label = avc_write_label_text(canonical);
		pfree(canonical);
	}
	if (parent)
		pfree(parent);

	if (last_subject)
		pfree(last_subject);
	if (last_label)
		pfree(last_label);
	last_subject = MemoryContextStrdup(TopMemoryContext, subject);
	last_label = label ? MemoryContextStrdup(TopMemoryContext, label) : NULL;
	last_epoch = avc_current_epoch();
	last_generation = avc_table_label_generation();
	return label;
}

/*
 * May the current subject read what a session of this write label wrote?
 * As the row filter decides a row of that label (permissive mode and
 * permissive domains included), but not audited: the question is asked for
 * every row of a monitoring view and every notification, and its answer is
 * what the reader may see, not an access it makes.
 */
bool
shared_state_may_read(const char *write_label)
{
	AvcDecision avd;
	const char *decided_as;

	if (write_label == NULL || avc_client_label() == NULL)
		return false;
	avc_decide_object(AVC_CLASS_DB_TUPLE, write_label, &avd, &decided_as);
	return (avd.allowed & AVC_DB_TUPLE_SELECT) != 0 || avd.permissive;
}
