/*-------------------------------------------------------------------------
 *
 * src/am/relcache.c
 *	  A labelheap relation's rd_amcache (relcache.h): allocated empty on
 *	  first use, and reallocated with the label set in the same chunk.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"
#include "utils/rel.h"

#include "am/relcache.h"

/* rel's rd_amcache, allocated empty if it has none */
LabelheapRelCache *
labelheap_relcache(Relation rel)
{
	if (rel->rd_amcache == NULL)
		rel->rd_amcache = MemoryContextAllocZero(CacheMemoryContext,
												 offsetof(LabelheapRelCache, secids));
	return (LabelheapRelCache *) rel->rd_amcache;
}

/*
 * Replaces the cached label set of rel (the relcache frees rd_amcache with
 * a single pfree, so the set lives in the same chunk).
 */
void
labelheap_relcache_set_labels(Relation rel, int nsecids, const Oid *secids)
{
	LabelheapRelCache *old = (LabelheapRelCache *) rel->rd_amcache;
	LabelheapRelCache *cache;

	cache = MemoryContextAllocZero(CacheMemoryContext,
								   offsetof(LabelheapRelCache, secids) +
								   nsecids * sizeof(Oid));
	if (old != NULL)
	{
		cache->attnum_valid = old->attnum_valid;
		cache->attnum = old->attnum;
		cache->summary = old->summary;
	}
	cache->set_valid = true;
	cache->nsecids = nsecids;
	if (nsecids > 0)
		memcpy(cache->secids, secids, nsecids * sizeof(Oid));
	rel->rd_amcache = cache;
	if (old != NULL)
		pfree(old);
}
