/*-------------------------------------------------------------------------
 *
 * src/avc/cache.h
 *	  The decision cache's keys and fast path, for the files that decide
 *	  through it (decide.c) and those that start it over (subject.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_CACHE_H
#define LABELAM_AVC_CACHE_H

#include "avc/avc_internal.h"

typedef struct AvcKey
{
	uint32		subject;		/* local id */
	uint32		object;			/* secid or local id, per kind */
	uint32		object2;		/* AVC_KIND_RELABEL: the label changed to */
	uint16		tclass;
	uint16		kind;			/* AvcObjKind, or AVC_KIND_CREATE + kind, or
								 * AVC_KIND_RELABEL + kind */
} AvcKey;

/* kinds of entry holding the label of a new object rather than a decision */
#define AVC_KIND_CREATE		16
/* kinds of entry holding the decision on a pair of labels (relabel) */
#define AVC_KIND_RELABEL	32
/* a narrowed session's decision: its narrowed label's AND its own (trusted.c) */
#define AVC_KIND_AND		256

/*
 * The fast path: the last db_tuple decision for the session's subject, one
 * for reads and one for writes, so that a statement that reads rows of one
 * label and writes rows of another (INSERT ... SELECT, UPDATE) does not
 * evict one with the other on every row.  decide.c fills it; whatever
 * changes the subject or the cache empties it (avc_fast_forget).
 */
typedef struct AvcFast
{
	uint64		object;			/* kind << 32 | object; 0: empty */
	AvcDecision avd;
} AvcFast;

#define AVC_FAST_SLOT(perms)	(((perms) & AVC_DB_TUPLE_SELECT) ? 0 : 1)
extern AvcFast avc_fast[2];

/* the policy's sequence number the cache holds decisions of */
extern uint64 avc_seqno;
/* decisions answered from the cache, the fast path's included */
extern uint64 avc_stat_hits;

extern bool avc_cached(AvcKey key, AvcDecision *avd);
extern void avc_remember(AvcKey key, AvcDecision *d);
extern bool avc_cached_object(AvcKey key, AvcDecision *avd, bool *unlabeled);
extern void avc_remember_object(AvcKey key, const AvcDecision *avd,
								bool unlabeled);
extern const char *avc_cached_created(AvcKey key);
extern const char *avc_remember_created(AvcKey key, const char *created);
extern void avc_forget_decisions(void);
extern void avc_fast_forget(void);

#endif							/* LABELAM_AVC_CACHE_H */
