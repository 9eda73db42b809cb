/*-------------------------------------------------------------------------
 *
 * src/am/handler.c
 *	  The labelheap table access method routine: heap's callbacks, except
 *	  where a tuple is handed to the executor (read/filter.c) or to ANALYZE
 *	  (channels/analyze.c), where a tuple is written (write/write.c,
 *	  heap/copy_for_cluster.c; the label a new version gets:
 *	  write/new_label.c), where storage is truncated
 *	  (label_set/label_set_checks.c), and where heap's code insists on being
 *	  called for heap itself (index builds: heap/index_build.c,
 *	  heap/index_validate.c).
 *
 * labelam_am_init() defines the subsystem's settings; its hook and callback
 * entry points are called from src/hooks.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/tableam.h"
#include "catalog/pg_am_d.h"
#include "commands/defrem.h"
#include "fmgr.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "am/channels/channels.h"
#include "am/ddl/ddl.h"
#include "am/heap/heap.h"
#include "am/is_labelheap.h"
#include "am/label_set/label_set.h"
#include "am/labelheap.h"
#include "am/read/filter.h"
#include "am/read/page_decisions.h"
#include "am/summary/skip_range.h"
#include "am/summary/skipping.h"
#include "am/write/new_label.h"
#include "am/write/toast.h"
#include "am/write/write.h"
#include "pg_compat.h"

PG_FUNCTION_INFO_V1(labelheap_handler);

static bool labelheap_methods_ready = false;

static TableScanDesc
labelheap_scan_begin(Relation rel, Snapshot snapshot, int nkeys,
					 struct ScanKeyData *key, ParallelTableScanDesc pscan,
					 uint32 flags)
{
	TableScanDesc scan;

#if PG_VERSION_NUM >= 170000 && PG_VERSION_NUM < 180000
	/*
	 * Before 17.5 heap's bitmap scan returns empty tuples for the bitmap
	 * entries of an all-visible page without reading it when the query
	 * needs no column: hidden rows would be counted.  17.5 switched that
	 * off, 18 removed it; asking for tuples makes labelheap independent of
	 * the minor release.  (Before 17 the executor did it: ios.c.)
	 */
	if (flags & SO_TYPE_BITMAPSCAN)
		flags |= SO_NEED_TUPLES;
#endif
	scan = GetHeapamTableAmRoutine()->scan_begin(rel, snapshot, nkeys, key,
												 pscan, flags);
	labelheap_page_forget((HeapScanDesc) scan);	/* an earlier scan's, here */
	labelheap_rewrite_scan_begin(scan);
	labelheap_skip_stream_begin(scan);	/* 17+: skip_stream.c */
	labelheap_skip_bitmap_begin(scan);	/* 18+: skip_bitmap.c */
	return scan;
}

#if PG_VERSION_NUM >= 180000
static void
labelheap_scan_rescan(TableScanDesc scan, struct ScanKeyData *key,
					  bool set_params, bool allow_strat, bool allow_sync,
					  bool allow_pagemode)
{
	labelheap_skip_bitmap_rescan(scan);	/* before heap resets rs_cblock */
	GetHeapamTableAmRoutine()->scan_rescan(scan, key, set_params,
										   allow_strat, allow_sync,
										   allow_pagemode);
}
#endif

static void
labelheap_scan_end(TableScanDesc scan)
{
	if (unlikely(labelheap_rewrite_active))
		labelheap_rewrite_scan_end(scan);
	labelheap_skip_ahead_end(scan);	/* 17+: skip_ahead.c */
	labelheap_page_forget((HeapScanDesc) scan);	/* page_decisions.c */
	GetHeapamTableAmRoutine()->scan_end(scan);
}

/* TOAST rows carry no labels: the TOAST relation is a plain heap */
static Oid
labelheap_relation_toast_am(Relation rel)
{
	return HEAP_TABLE_AM_OID;
}

static const TableAmRoutine *
labelheap_routine(void)
{
	if (!labelheap_methods_ready)
	{
		labelheap_methods = *GetHeapamTableAmRoutine();

		labelheap_methods.scan_begin = labelheap_scan_begin;
		labelheap_methods.scan_end = labelheap_scan_end;
#if PG_VERSION_NUM >= 180000
		labelheap_methods.scan_rescan = labelheap_scan_rescan;
#endif
		labelheap_methods.scan_getnextslot = labelheap_scan_getnextslot;
		labelheap_methods.scan_getnextslot_tidrange = labelheap_scan_getnextslot_tidrange;
		labelheap_methods.index_fetch_tuple = labelheap_index_fetch_tuple;
		labelheap_methods.tuple_fetch_row_version = labelheap_tuple_fetch_row_version;
		labelheap_methods.tuple_lock = labelheap_tuple_lock;
#if PG_VERSION_NUM < 180000
		labelheap_methods.scan_bitmap_next_block = labelheap_scan_bitmap_next_block;
#endif
		labelheap_methods.scan_bitmap_next_tuple = labelheap_scan_bitmap_next_tuple;
		labelheap_methods.scan_sample_next_tuple = labelheap_scan_sample_next_tuple;
		labelheap_methods.scan_analyze_next_tuple = labelheap_scan_analyze_next_tuple;

		labelheap_methods.tuple_insert = labelheap_tuple_insert;
		labelheap_methods.tuple_insert_speculative = labelheap_tuple_insert_speculative;
		labelheap_methods.multi_insert = labelheap_multi_insert;
		labelheap_methods.tuple_update = labelheap_tuple_update;
		labelheap_methods.tuple_delete = labelheap_tuple_delete;

		labelheap_methods.labelam_set_new_file = labelheap_relation_set_new_filenode;
		labelheap_methods.relation_nontransactional_truncate = labelheap_relation_nontransactional_truncate;
		labelheap_methods.relation_copy_for_cluster = labelheap_relation_copy_for_cluster;
		labelheap_methods.index_build_range_scan = labelheap_index_build_range_scan;
		labelheap_methods.index_validate_scan = labelheap_index_validate_scan;
		labelheap_methods.relation_toast_am = labelheap_relation_toast_am;

		labelheap_methods_ready = true;
	}
	return &labelheap_methods;
}

Datum
labelheap_handler(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(labelheap_routine());
}

void
labelam_am_init(void)
{
	DefineCustomBoolVariable("labelam.debug_own_write",
							 "Sends every labelheap write through labelheap's own TOAST preparation.",
							 "Normally only tuples that need TOAST work take that path; "
							 "this setting makes the test suites exercise it for all writes.",
							 &labelheap_debug_own_write,
							 false,
							 PGC_SUSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("labelam.skip_ranges",
							 "Lets filtered scans skip block ranges whose label summary holds no label the session may select.",
							 "Needs a label summary (CREATE INDEX ... USING labelsummary); "
							 "off reads every block, with the same results.",
							 &labelheap_skip_ranges,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("labelam.page_decisions",
							 "Lets filtered sequential scans decide the rows of a page when heap reads it.",
							 "off decides each row as heap returns it, with the same results.",
							 &labelheap_page_decisions,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("labelam.pass_ranges",
							 "Lets filtered sequential scans return the rows of a block range whose label summary lists only labels the session may select without reading their labels.",
							 "Needs a label summary (CREATE INDEX ... USING labelsummary) and labelam.page_decisions; "
							 "off reads every row's label, with the same results.",
							 &labelheap_pass_ranges,
							 true,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	labelheap_refuse_init();
	labelheap_labeling_init();
}
