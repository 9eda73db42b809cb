/*-------------------------------------------------------------------------
 *
 * src/shared_state/backend_labels.c
 *	  Each backend's write label in shared memory, for the sessions that
 *	  read its state (pg_stat_activity, pg_locks ...: activity.c).
 *
 * PostgreSQL's backend status (application_name, the query, wait events,
 * progress) and lock table are written by each backend and read by every
 * other.  Whether a reader may see a backend's entries depends on the
 * label the writer had, so each backend publishes its write label
 * (writer_label.c) in a slot of its own, indexed by its PGPROC number and
 * tagged with its pid.  Only the owner writes its slot, with a change
 * count around the write (as PgBackendStatus does): readers copy it
 * without a lock and retry if it changed meanwhile.
 *
 * A slot says one of:
 *	LABELED		the backend's state is written at this write label;
 *	NONE		the process has no subject (a background worker given no
 *				label): it read nothing labeled, so its state is shown as
 *				PostgreSQL shows it;
 *	PENDING		its label is not known yet or is changing: hidden from
 *				everyone else (fail closed);
 *	UNLABELED	no write label could be had (the policy gives no default
 *				table label, or it is longer than a slot): hidden.
 *
 * Invariant: whenever a backend's status may hold something written at
 * label L, its slot says L, PENDING or UNLABELED.
 *	- A client backend's slot is PENDING from its authentication
 *	  (ClientAuthentication_hook runs before PostgreSQL publishes the
 *	  application_name of the start-up packet) until its label is resolved
 *	  as the start-up transaction commits.
 *	- Every change of subject (labelam.set_client_label, a trusted
 *	  procedure entered or left) makes it PENDING at once (the avc calls
 *	  shared_state_subject_changed from the change itself); the new write
 *	  label is computed at the next statement boundary (ExecutorStart,
 *	  ProcessUtility, the transaction's pre-commit) and published then.
 *	  So a statement sent after a change in an open transaction, whose
 *	  text PostgreSQL publishes before any hook runs, is hidden until then.
 *	- A parallel worker restores the leader's settings (application_name,
 *	  the session's label) and then publishes the leader's query: its slot
 *	  is PENDING from its start-up transaction until its first ExecutorStart.
 *	- A slot whose pid is not the backend's is not its slot: processes that
 *	  never run a session (auxiliary processes, autovacuum, walsenders, a
 *	  background worker before its first transaction) have none, and are
 *	  shown as PostgreSQL shows them: their state holds nothing a session
 *	  wrote.  A backend clears its slot when it exits.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "libpq/libpq-be.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "replication/walsender.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/shmem.h"

#include "avc/avc.h"
#include "pg_compat.h"
#include "shared_state/shared_state.h"

#define SLOT_LABEL_MAX	256

typedef enum SlotState
{
	SLOT_PENDING = 1,
	SLOT_LABELED,
	SLOT_NONE,
	SLOT_UNLABELED
} SlotState;

typedef struct BackendLabelSlot
{
	pg_atomic_uint32 changecount;	/* odd while the owner writes */
	int			pid;			/* owner; 0: free */
	int			state;			/* SlotState */
	char		label[SLOT_LABEL_MAX];
} BackendLabelSlot;

static BackendLabelSlot *slots = NULL;
static int	nslots = 0;

/* this backend's: its slot is claimed, and what it last published */
static bool slot_claimed = false;
static bool published_valid = false;
static uint64 published_epoch = 0;

static int
slot_count(void)
{
	/* every PGPROC that runs code: backends and auxiliary processes */
	return MaxBackends + NUM_AUXILIARY_PROCS;
}

void
shared_state_shmem_request(void)
{
	RequestAddinShmemSpace(mul_size(slot_count(), sizeof(BackendLabelSlot)));
}

void
shared_state_shmem_startup(void)
{
	bool		found;
	int			i;

	nslots = slot_count();
	slots = ShmemInitStruct("labelam backend labels",
							mul_size(nslots, sizeof(BackendLabelSlot)),
							&found);
	if (!found)
	{
		memset(slots, 0, mul_size(nslots, sizeof(BackendLabelSlot)));
		for (i = 0; i < nslots; i++)
			pg_atomic_init_u32(&slots[i].changecount, 0);
	}
}

static BackendLabelSlot *
my_slot(void)
{
	int			procno;

	if (slots == NULL || MyProc == NULL)
		return NULL;
	procno = labelam_my_procno();
	if (procno < 0 || procno >= nslots)
		return NULL;
	return &slots[procno];
}

static void
slot_write(BackendLabelSlot *slot, int pid, SlotState state,
		   const char *label)
{
	pg_atomic_add_fetch_u32(&slot->changecount, 1);
	pg_write_barrier();
	slot->pid = pid;
	slot->state = state;
	if (label != NULL)
		strlcpy(slot->label, label, SLOT_LABEL_MAX);
	else
		slot->label[0] = '\0';
	pg_write_barrier();
	pg_atomic_add_fetch_u32(&slot->changecount, 1);
}

/* a consistent copy of a slot */
static void
slot_read(BackendLabelSlot *slot, BackendLabelSlot *copy)
{
	for (;;)
	{
		uint32		before = pg_atomic_read_u32(&slot->changecount);

		pg_read_barrier();
		copy->pid = slot->pid;
		copy->state = slot->state;
		memcpy(copy->label, slot->label, SLOT_LABEL_MAX);
		copy->label[SLOT_LABEL_MAX - 1] = '\0';
		pg_read_barrier();
		if ((before & 1) == 0 &&
			pg_atomic_read_u32(&slot->changecount) == before)
			return;
		CHECK_FOR_INTERRUPTS();
	}
}

static void
slot_release(int code, Datum arg)
{
	BackendLabelSlot *slot = my_slot();

	if (slot != NULL && slot->pid == MyProcPid)
		slot_write(slot, 0, SLOT_PENDING, NULL);
	slot_claimed = false;
}

/* writes this backend's slot (claiming it on first use) */
static void
publish(SlotState state, const char *label)
{
	BackendLabelSlot *slot = my_slot();

	if (slot == NULL)
		return;
	if (!slot_claimed)
	{
		before_shmem_exit(slot_release, (Datum) 0);
		slot_claimed = true;
	}
	if (state == SLOT_LABELED &&
		(label == NULL || strlen(label) >= SLOT_LABEL_MAX))
		state = SLOT_UNLABELED;
	slot_write(slot, MyProcPid, state, state == SLOT_LABELED ? label : NULL);
}

static void
publish_pending(void)
{
	publish(SLOT_PENDING, NULL);
	published_valid = false;
}

/* ClientAuthentication_hook: hidden until the label is resolved */
void
shared_state_client_authentication(struct Port *port, int status)
{
	/* walsenders: physical ones have no session, logical ones are refused */
	if (am_walsender)
		return;
	publish_pending();
}

/* the avc's subject changed: hidden until the new label is published */
void
shared_state_subject_changed(void)
{
	if (slots == NULL || MyProc == NULL)
		return;
	publish_pending();
}

/*
 * At a statement boundary: publish the current write label if the subject
 * or the policy changed since it was last published.
 */
void
shared_state_publish(void)
{
	const char *subject;
	char	   *label;

	if (slots == NULL || MyProc == NULL)
		return;

	/*
	 * ROLLBACK of a failed transaction block runs ProcessUtility in an
	 * aborted transaction, where no catalog may be read to compute a
	 * label: the slot stays as it is (PENDING if the subject changed) until
	 * the next statement boundary publishes.
	 */
	if (!IsTransactionState())
		return;
	if (published_valid && published_epoch == avc_current_epoch())
		return;
	subject = avc_client_label();
	if (subject == NULL)
		publish(SLOT_NONE, NULL);
	else
	{
		label = shared_state_compute_write_label();
		publish(SLOT_LABELED, label);
		if (label)
			pfree(label);
	}
	published_valid = true;
	published_epoch = avc_current_epoch();
}

void
shared_state_xact(XactEvent event)
{
	if (event != XACT_EVENT_PRE_COMMIT)
		return;
	/* a parallel worker waits for the leader's label (see the header) */
	if (IsParallelWorker() && !published_valid)
	{
		publish_pending();
		return;
	}
	shared_state_publish();
}

/* the slot of pid, copied; false if no slot names it */
static bool
find_slot(int pid, BackendLabelSlot *copy)
{
	int			i;

	for (i = 0; i < nslots; i++)
	{
		if (slots[i].pid != pid)
			continue;
		slot_read(&slots[i], copy);
		if (copy->pid == pid)
			return true;
	}
	return false;
}

/*
 * May this session see what the backend with this pid wrote into its
 * status and locks?  Its own: yes.  See the header for the rest.
 */
bool
shared_state_backend_visible(int pid)
{
	BackendLabelSlot copy;

	if (pid == MyProcPid || slots == NULL)
		return true;
	if (!find_slot(pid, &copy))
		return true;
	switch ((SlotState) copy.state)
	{
		case SLOT_NONE:
			return true;
		case SLOT_LABELED:
			return shared_state_may_read(copy.label);
		default:
			return false;
	}
}

/*
 * May this session see what every other backend wrote?  For the
 * built-ins called without their checked twins (twins.c).
 */
bool
shared_state_every_backend_visible(void)
{
	int			i;

	if (slots == NULL)
		return true;
	for (i = 0; i < nslots; i++)
	{
		int			pid = slots[i].pid;

		if (pid != 0 && !shared_state_backend_visible(pid))
			return false;
	}
	return true;
}
