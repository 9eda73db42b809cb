/*-------------------------------------------------------------------------
 *
 * src/am/replication/rmgr.c
 *	  The one point every logical decoding context passes: the resource
 *	  managers' rm_decode callbacks, wrapped to note the labels a change
 *	  will need when it reaches the output plugin (decode.c), and to put
 *	  labelam's filter (output.c) around the plugin's callbacks.
 *
 * No hook lets an extension choose or veto the output plugin a walsender
 * or pg_logical_slot_get_changes() loads: a REPLICATION role may decode
 * through a slot of its own with any installed plugin (test_decoding ships
 * with the server).  Every record each decoding context reads, in a
 * walsender, the SQL decoding functions or anything else, goes through
 * LogicalDecodingProcessRecord to RmgrTable[rmid].rm_decode, which has been
 * writable since PostgreSQL 15 and which labelam wraps for every built-in
 * resource manager (src/hooks.c, at _PG_init, before any backend exists).
 * On the first record of a context, its output plugin's callbacks are
 * replaced by output.c's, which decide every change, message and
 * truncation by the decoding session's label before the plugin sees it.
 * Every callback the plugin gets is called from within the decoding of a
 * record, so none can run before the wrappers are in place (the plugin's
 * startup callback, which comes first, sees no data).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/rmgr.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "replication/decode.h"
#include "replication/logical.h"

#include "am/replication/replication.h"
#include "am/replication/replication_int.h"

typedef void (*RmDecodeFn) (LogicalDecodingContext *ctx,
							XLogRecordBuffer *buf);

/* each built-in resource manager's own rm_decode */
static RmDecodeFn prev_decode[RM_N_BUILTIN_IDS];

static void
labelheap_rm_decode(LogicalDecodingContext *ctx, XLogRecordBuffer *buf)
{
	RmgrId		rmid = XLogRecGetRmid(buf->record);
	DecodingState *state;

	/* advancing a slot: nothing reaches a plugin */
	if (ctx->fast_forward)
	{
		prev_decode[rmid] (ctx, buf);
		return;
	}

	state = labelheap_decoding_state(ctx);
	if (state == NULL)
	{
		state = labelheap_decoding_state_new(ctx);
		labelheap_output_wrap(state);
	}

	/* labelam's own notes reach no plugin */
	if (labelheap_decode_before(state, buf))
		return;
	prev_decode[rmid] (ctx, buf);
	labelheap_decode_after(state, buf);
}

void
labelheap_decoding_install(void)
{
	int			rmid;

	for (rmid = 0; rmid <= RM_MAX_BUILTIN_ID; rmid++)
	{
		if (RmgrTable[rmid].rm_name == NULL ||
			RmgrTable[rmid].rm_decode == NULL)
			continue;
		prev_decode[rmid] = RmgrTable[rmid].rm_decode;
		RmgrTable[rmid].rm_decode = labelheap_rm_decode;
	}
}
