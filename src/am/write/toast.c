/*-------------------------------------------------------------------------
 *
 * src/am/write/toast.c
 *	  labelheap's own TOAST preparation.
 *
 * Heap's toaster (heap_toast_insert_or_update) rebuilds every tuple it
 * changes with a plain header, which would drop the label.  So labelheap
 * compresses and pushes out values itself, with the toast_helper API and
 * heap's rules and thresholds, and forms the result with a labeled header.
 * The resulting tuple needs no further TOAST work, but heap's writers
 * would still run their toaster on it (any out-of-line value in a new
 * tuple is fetched back and stored again), so it must not reach them:
 *
 *  - Inserts (tuple_insert, speculative insertion, each toasted tuple of a
 *	  multi_insert batch): labelheap_insert_final (insert.c), heap_insert
 *	  without the toaster, writing heap's XLOG_HEAP_INSERT record.  Correct
 *	  by construction: no heap code decides anything about such a tuple.
 *  - Updates: labelheap_update_final (update.c), heap_update without the
 *	  toaster, writing heap's XLOG_HEAP_UPDATE/XLOG_HEAP_HOT_UPDATE record;
 *	  correct by construction in the same way.
 *  - VACUUM FULL/CLUSTER copies: labelheap's own rewriteheap.c, whose
 *	  raw_heap_insert has no toaster (copy_for_cluster.c toasts each copy here with
 *	  the options heap's would use).
 * No heap writer is ever handed a relation that claims to be something
 * else.
 *
 * Tuples that need no TOAST work go to heap's writers as they are: heap
 * then provably leaves the header alone (its toaster runs only under the
 * condition labelheap_needs_toast tests).  labelam.debug_own_write sends
 * every tuple through this file, labelheap_insert_final and
 * labelheap_update_final (rewriteheap.c writes every copy), so that the
 * test suites exercise the rare paths.
 *
 * For an update, values of the old version that the new one no longer uses
 * must be deleted, but only once the update really happened (heap deletes
 * them while holding the old tuple locked; labelheap_update_final leaves
 * that to labelheap_toast_finish, after it); and values pushed out for an
 * update that did not happen (concurrent update, EvalPlanQual retry) must
 * not linger.  labelheap_toast_finish does either.
 *
 * The rounds of labelheap_toast_tuple() are heap_toast_insert_or_update()'s
 * of PostgreSQL 15.18, src/backend/access/heap/heaptoast.c (the same in
 * 18.6), with the labeled header's size in the target.
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/heap/heaptoast.c
 *	  heap_toast_insert_or_update() 15: e09c765eb6931c48, 18: e09c765eb6931c48
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/toast_internals.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "am/tuple.h"
#include "am/tuple_label.h"
#include "am/write/toast.h"

bool		labelheap_debug_own_write = false;

/*
 * Would heap's writers run their toaster on this tuple?  Same test as
 * heap_prepare_insert and heap_update.
 */
bool
labelheap_needs_toast(HeapTuple newtup, bool old_has_external)
{
	return labelheap_debug_own_write ||
		old_has_external ||
		HeapTupleHasExternal(newtup) ||
		newtup->t_len > TOAST_TUPLE_THRESHOLD;
}

static void
push_out(LabelheapToast *state, int attno, int options)
{
	toast_tuple_externalize(&state->ttc, attno, options);
	state->fresh[attno] = true;
}

/*
 * upstream heap_toast_insert_or_update()
 *
 * Toast values[]/isnull[] for rel (for an update, oldtup is the version
 * being replaced) and form a labeled tuple of the result.  The caller must
 * write it without heap's toaster (labelheap_insert_final,
 * labelheap_update_final, or rewriteheap.c's labelheap_rewrite_heap_tuple)
 * and then call labelheap_toast_finish(*state, written).
 */
HeapTuple
labelheap_toast_tuple(Relation rel, Datum *values, bool *isnull,
					  HeapTuple oldtup, int options, Oid secid,
					  LabelheapToast **statep)
{
	TupleDesc	desc = RelationGetDescr(rel);
	int			natts = desc->natts;
	LabelheapToast *state;
	ToastTupleContext *ttc;
	Size		hoff;
	Size		maxDataLen;

	/* speculative insertions insert and delete toast values normally */
	options &= ~HEAP_INSERT_SPECULATIVE;

	state = palloc0(sizeof(LabelheapToast));
	state->values = palloc(natts * sizeof(Datum));
	state->isnull = palloc(natts * sizeof(bool));
	state->attr = palloc0(natts * sizeof(ToastAttrInfo));
	state->fresh = palloc0(natts * sizeof(bool));
	memcpy(state->values, values, natts * sizeof(Datum));
	memcpy(state->isnull, isnull, natts * sizeof(bool));

	ttc = &state->ttc;
	ttc->ttc_rel = rel;
	ttc->ttc_values = state->values;
	ttc->ttc_isnull = state->isnull;
	ttc->ttc_attr = state->attr;
	if (oldtup != NULL)
	{
		state->oldvalues = palloc(natts * sizeof(Datum));
		state->oldisnull = palloc(natts * sizeof(bool));
		heap_deform_tuple(oldtup, desc, state->oldvalues, state->oldisnull);
		ttc->ttc_oldvalues = state->oldvalues;
		ttc->ttc_oldisnull = state->oldisnull;
	}
	toast_tuple_init(ttc);

	/* heap's header overhead plus the label (cf. labelheap_form_tuple) */
	hoff = SizeofHeapTupleHeader;
	if ((ttc->ttc_flags & TOAST_HAS_NULLS) != 0)
		hoff += BITMAPLEN(natts);
	hoff = MAXALIGN(hoff) + LABELHEAP_LABEL_SIZE;
	maxDataLen = RelationGetToastTupleTarget(rel, TOAST_TUPLE_TARGET) - hoff;

	/*
	 * The four rounds of heap_toast_insert_or_update: compress EXTENDED
	 * values inline (pushing out any that stay too big on their own), push
	 * out EXTENDED/EXTERNAL ones, compress MAIN ones, and finally push out
	 * MAIN ones against a larger target.
	 */
	while (heap_compute_data_size(desc, state->values, state->isnull) > maxDataLen)
	{
		int			attno = toast_tuple_find_biggest_attribute(ttc, true, false);

		if (attno < 0)
			break;
		if (TupleDescAttr(desc, attno)->attstorage == TYPSTORAGE_EXTENDED)
			toast_tuple_try_compression(ttc, attno);
		else
			state->attr[attno].tai_colflags |= TOASTCOL_INCOMPRESSIBLE;
		if (state->attr[attno].tai_size > maxDataLen &&
			rel->rd_rel->reltoastrelid != InvalidOid)
			push_out(state, attno, options);
	}
	while (heap_compute_data_size(desc, state->values, state->isnull) > maxDataLen &&
		   rel->rd_rel->reltoastrelid != InvalidOid)
	{
		int			attno = toast_tuple_find_biggest_attribute(ttc, false, false);

		if (attno < 0)
			break;
		push_out(state, attno, options);
	}
	while (heap_compute_data_size(desc, state->values, state->isnull) > maxDataLen)
	{
		int			attno = toast_tuple_find_biggest_attribute(ttc, true, true);

		if (attno < 0)
			break;
		toast_tuple_try_compression(ttc, attno);
	}
	maxDataLen = TOAST_TUPLE_TARGET_MAIN - hoff;
	while (heap_compute_data_size(desc, state->values, state->isnull) > maxDataLen &&
		   rel->rd_rel->reltoastrelid != InvalidOid)
	{
		int			attno = toast_tuple_find_biggest_attribute(ttc, false, true);

		if (attno < 0)
			break;
		push_out(state, attno, options);
	}

	*statep = state;
	return labelheap_form_tuple(desc, state->values, state->isnull, secid);
}

/*
 * After the write: if it happened, delete the old version's values the new
 * one does not reuse; if not, delete the values pushed out for it.  Then
 * free what the preparation allocated.
 */
void
labelheap_toast_finish(LabelheapToast *state, bool written)
{
	ToastTupleContext *ttc = &state->ttc;
	int			natts = RelationGetDescr(ttc->ttc_rel)->natts;
	int			i;

	if (!written)
	{
		/*
		 * Our own transaction inserted these chunks in this very command, so
		 * an ordinary delete would find them invisible; kill them the way a
		 * failed speculative insertion's values are killed.
		 */
		for (i = 0; i < natts; i++)
		{
			if (state->fresh[i])
				toast_delete_datum(ttc->ttc_rel, state->values[i], true);
		}
		ttc->ttc_flags &= ~TOAST_NEEDS_DELETE_OLD;
	}
	toast_tuple_cleanup(ttc);

	pfree(state->values);
	pfree(state->isnull);
	pfree(state->attr);
	pfree(state->fresh);
	if (state->oldvalues)
	{
		pfree(state->oldvalues);
		pfree(state->oldisnull);
	}
	pfree(state);
}
