/*-------------------------------------------------------------------------
 *
 * src/shared_state/prepared.c
 *	  The write label of each prepared transaction, for pg_prepared_xacts
 *	  and the locks it keeps in pg_locks (activity.c).
 *
 * PREPARE TRANSACTION 'name' publishes a name the session chose to every
 * session of the cluster, for as long as the transaction stays prepared,
 * across restarts.  The prepared transaction outlives its session, so
 * its label cannot be looked up there: PREPARE TRANSACTION records the
 * preparing session's write label under the transaction's xid, in shared
 * memory and in the file labelam_prepared_labels of the data directory
 * (written and renamed into place before the transaction is prepared, so
 * that a prepared transaction always has its entry, after a crash too).
 * A transaction with no entry (prepared while labelam was not loaded, or on
 * a standby, where the file is not replicated) is shown to no one but
 * through its gid, which COMMIT PREPARED still accepts: fail closed.
 *
 * Entries are forgotten when their transaction is neither prepared nor
 * running any more and the table needs the room: 2 * max_prepared_xacts
 * entries, of which at most max_prepared_xacts are prepared at a time.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/transam.h"
#include "access/twophase.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "storage/fd.h"
#include "storage/lwlock.h"
#include "storage/procarray.h"
#include "storage/shmem.h"

#include "shared_state/shared_state.h"

#define PREPARED_TRANCHE	"labelam prepared labels"
#define PREPARED_FILE		"labelam_prepared_labels"
#define PREPARED_LABEL_MAX	256

typedef struct PreparedLabel
{
	TransactionId xid;			/* InvalidTransactionId: free */
	char		label[PREPARED_LABEL_MAX];
} PreparedLabel;

typedef struct PreparedShared
{
	LWLock	   *lock;
	int			nentries;
	PreparedLabel entries[FLEXIBLE_ARRAY_MEMBER];
} PreparedShared;

static PreparedShared *shared = NULL;

static int
entry_count(void)
{
	return 2 * max_prepared_xacts;
}

static Size
prepared_shmem_size(void)
{
	return add_size(offsetof(PreparedShared, entries),
					mul_size(entry_count(), sizeof(PreparedLabel)));
}

void
shared_state_prepared_shmem_request(void)
{
	RequestAddinShmemSpace(prepared_shmem_size());
	RequestNamedLWLockTranche(PREPARED_TRANCHE, 1);
}

/* the entries saved by earlier PREPAREs (the postmaster, at start) */
static void
load_saved(void)
{
	FILE	   *f = AllocateFile(PREPARED_FILE, "r");
	char		line[PREPARED_LABEL_MAX + 32];
	int			n = 0;

	if (f == NULL)
		return;
	while (n < shared->nentries && fgets(line, sizeof(line), f) != NULL)
	{
		char	   *end;
		unsigned long xid = strtoul(line, &end, 10);
		size_t		len;

		if (*end != ' ' || !TransactionIdIsNormal((TransactionId) xid))
			continue;
		end++;
		len = strcspn(end, "\n");
		if (len == 0 || len >= PREPARED_LABEL_MAX)
			continue;
		shared->entries[n].xid = (TransactionId) xid;
		memcpy(shared->entries[n].label, end, len);
		shared->entries[n].label[len] = '\0';
		n++;
	}
	FreeFile(f);
}

void
shared_state_prepared_shmem_startup(void)
{
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct("labelam prepared labels",
							 prepared_shmem_size(), &found);
	if (!found)
	{
		memset(shared, 0, prepared_shmem_size());
		shared->lock = &(GetNamedLWLockTranche(PREPARED_TRANCHE))->lock;
		shared->nentries = entry_count();
		if (shared->nentries > 0)
			load_saved();
	}
	LWLockRelease(AddinShmemInitLock);
}

/* writes every entry to the file, durably (the lock held exclusively) */
static void
save_file(void)
{
	char		tmp[MAXPGPATH];
	FILE	   *f;
	int			i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", PREPARED_FILE);
	f = AllocateFile(tmp, PG_BINARY_W);
	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));
	for (i = 0; i < shared->nentries; i++)
		if (TransactionIdIsValid(shared->entries[i].xid))
			fprintf(f, "%u %s\n", shared->entries[i].xid,
					shared->entries[i].label);
	if (pg_fsync(fileno(f)) != 0 || FreeFile(f) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write file \"%s\": %m", tmp)));
	(void) durable_rename(tmp, PREPARED_FILE, ERROR);
}

/* records label for xid (the lock held exclusively) */
static void
record(TransactionId xid, const char *label)
{
	int			i;
	int			free_slot = -1;

	for (i = 0; i < shared->nentries; i++)
	{
		PreparedLabel *e = &shared->entries[i];

		if (e->xid == xid)
		{
			free_slot = i;
			break;
		}
		/* an entry whose transaction finished may go */
		if (free_slot < 0 &&
			(!TransactionIdIsValid(e->xid) || !TransactionIdIsInProgress(e->xid)))
			free_slot = i;
	}
	if (free_slot < 0)
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("too many prepared transactions to record their security labels"),
				 errhint("Finish prepared transactions, or raise max_prepared_transactions.")));
	shared->entries[free_slot].xid = xid;
	strlcpy(shared->entries[free_slot].label, label, PREPARED_LABEL_MAX);
	save_file();
}

/*
 * ProcessUtility, before PREPARE TRANSACTION runs: record the session's
 * write label under the transaction's xid (assigned now if it has none,
 * as PREPARE would).
 */
void
shared_state_prepare_utility(PlannedStmt *pstmt)
{
	TransactionStmt *stmt;
	char	   *label;

	if (!IsA(pstmt->utilityStmt, TransactionStmt))
		return;
	stmt = (TransactionStmt *) pstmt->utilityStmt;
	/*
	 * PREPARE of a failed transaction block only rolls it back: nothing is
	 * prepared, and nothing may be read from the catalogs there.
	 */
	if (stmt->kind != TRANS_STMT_PREPARE || shared == NULL ||
		shared->nentries == 0 || !IsTransactionBlock() ||
		!IsTransactionState())
		return;
	label = shared_state_compute_write_label();
	if (label == NULL || strlen(label) >= PREPARED_LABEL_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("cannot prepare a transaction without a security label"),
				 errdetail("A prepared transaction's name is shown to the sessions that may read its preparer's label, and this session has none.")));
	LWLockAcquire(shared->lock, LW_EXCLUSIVE);
	PG_TRY();
	{
		record(GetTopTransactionId(), label);
	}
	PG_FINALLY();
	{
		LWLockRelease(shared->lock);
	}
	PG_END_TRY();
	pfree(label);
}

/* may the session see the prepared transaction xid (its gid, its locks)? */
bool
shared_state_prepared_visible(TransactionId xid)
{
	char		label[PREPARED_LABEL_MAX];
	bool		found = false;
	int			i;

	if (shared == NULL)
		return false;
	LWLockAcquire(shared->lock, LW_SHARED);
	for (i = 0; i < shared->nentries; i++)
		if (shared->entries[i].xid == xid)
		{
			strlcpy(label, shared->entries[i].label, PREPARED_LABEL_MAX);
			found = true;
			break;
		}
	LWLockRelease(shared->lock);
	return found && shared_state_may_read(label);
}

/*
 * May the session see every prepared transaction that has an entry?  For
 * pg_prepared_xact and pg_lock_status called without their twins (twins.c).
 */
bool
shared_state_every_prepared_visible(void)
{
	int			i;
	bool		result = true;

	if (shared == NULL || shared->nentries == 0)
		return true;
	for (i = 0; i < shared->nentries && result; i++)
	{
		TransactionId xid;

		LWLockAcquire(shared->lock, LW_SHARED);
		xid = shared->entries[i].xid;
		LWLockRelease(shared->lock);
		if (TransactionIdIsValid(xid) && TransactionIdIsInProgress(xid))
			result = shared_state_prepared_visible(xid);
	}
	return result;
}
