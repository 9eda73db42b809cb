/*-------------------------------------------------------------------------
 *
 * src/avc/globals.c
 *	  Variables that the files of the policy subsystem share: the values of
 *	  its settings (defined by settings.c), the provider in force, and the
 *	  state that says whether cached decisions still hold.
 *
 * They live here, below every file that reads or writes them, as
 * PostgreSQL's globals.c holds the backend's, so that no file of src/avc
 * has to reach up to the one that defines the settings.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "avc/avc_internal.h"

/* the provider in force (labelam.provider, chosen once at start-up) */
const AvcProvider *avc_provider = NULL;

/* settings (settings.c says what each means) */
char	   *avc_policy_file = NULL;
char	   *avc_policy_booleans = NULL;
int			avc_audit_mode = AVC_AUDIT_DENIED;
char	   *avc_default_client_label = NULL;
char	   *avc_session_label = NULL;
char	   *avc_connect_label = NULL;
char	   *avc_statistics_label = NULL;
bool		avc_debug_opaque_labels = false;
bool		avc_enforcing = true;

/*
 * Changes whenever a cached decision may no longer hold: a new policy or
 * enforcing mode (cache.c), a new subject (subject.c); callers keep it with what they
 * derived from decisions (avc.h's avc_epoch_holds).
 */
uint64		avc_decision_epoch = 0;

/*
 * The next use of the decision cache must look at the policy first: set at
 * a statement's start and a transaction's end (boundaries.c), cleared by
 * cache.c's avc_revalidate.
 */
bool		avc_revalidate_pending = true;

/*
 * Depth of CALL and DO (boundaries.c): code they run may end the
 * transaction (COMMIT, ROLLBACK) and go on, so set_client_label refuses
 * one-way changes there (client.c).
 */
int			avc_routine_depth = 0;
