/*-------------------------------------------------------------------------
 *
 * src/am/tuple.c
 *	  The security label in a labelheap tuple header: writing it into a new
 *	  tuple and reading it back, failing closed.
 *
 * See labelheap.h for the layout; tuple_label.h reads the label back
 * (inline: the row filter reads one for every row) and says why it carries
 * a check value.
 *
 * labelheap_form_tuple() is heap_form_tuple() of PostgreSQL 15.18,
 * src/backend/access/common/heaptuple.c, with room for the label; 18.6's
 * differs only in declaring values and isnull const.
 *
 * Copies, whose upstream text scripts/check-drift.py compares with each
 * major's source (sha256 prefixes):
 *	src/backend/access/common/heaptuple.c
 *	  heap_form_tuple() 15: 704deaa8ba8b6883, 18: 500b056a18c089e1
 *
 * Portions Copyright (c) 1996-2022, PostgreSQL Global Development Group
 * Portions Copyright (c) 1994, Regents of the University of California
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "am/labelheap.h"
#include "am/tuple.h"
#include "am/tuple_label.h"

/*
 * upstream heap_form_tuple()
 *
 * Like heap_form_tuple(), with room for the label between the null bitmap
 * and the data.
 */
HeapTuple
labelheap_form_tuple(TupleDesc tupleDescriptor, Datum *values, bool *isnull,
					 Oid secid)
{
	HeapTuple	tuple;			/* return tuple */
	HeapTupleHeader td;			/* tuple data */
	Size		len,
				data_len;
	int			hoff;
	bool		hasnull = false;
	int			numberOfAttributes = tupleDescriptor->natts;
	int			i;
	char	   *label;			/* labelam */

	if (numberOfAttributes > MaxTupleAttributeNumber)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_COLUMNS),
				 errmsg("number of columns (%d) exceeds limit (%d)",
						numberOfAttributes, MaxTupleAttributeNumber)));

	for (i = 0; i < numberOfAttributes; i++)
	{
		if (isnull[i])
		{
			hasnull = true;
			break;
		}
	}

	len = SizeofHeapTupleHeader;	/* labelam: offsetof(..., t_bits) */
	if (hasnull)
		len += BITMAPLEN(numberOfAttributes);
	hoff = len = MAXALIGN(len) + LABELHEAP_LABEL_SIZE;
	data_len = heap_compute_data_size(tupleDescriptor, values, isnull);
	len += data_len;

	tuple = (HeapTuple) palloc0(HEAPTUPLESIZE + len);
	tuple->t_data = td = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
	tuple->t_len = len;
	ItemPointerSetInvalid(&(tuple->t_self));
	tuple->t_tableOid = InvalidOid;

	HeapTupleHeaderSetDatumLength(td, len);
	HeapTupleHeaderSetTypeId(td, tupleDescriptor->tdtypeid);
	HeapTupleHeaderSetTypMod(td, tupleDescriptor->tdtypmod);
	ItemPointerSetInvalid(&(td->t_ctid));
	HeapTupleHeaderSetNatts(td, numberOfAttributes);
	td->t_hoff = hoff;

	heap_fill_tuple(tupleDescriptor, values, isnull, (char *) td + hoff,
					data_len, &td->t_infomask, (hasnull ? td->t_bits : NULL));

	/* labelam: heap_fill_tuple leaves bits outside its own three alone */
	td->t_infomask |= LABELHEAP_HAS_LABEL;
	label = (char *) td + hoff - LABELHEAP_LABEL_SIZE;
	*(uint32 *) label = label_check_value(secid);
	*(Oid *) (label + sizeof(uint32)) = secid;

	return tuple;
}

/* May src take the label by copy_with_label/label_in_place? */
static inline bool
label_fits_shape(HeapTuple src, TupleDesc desc, uint32 hoff)
{
	HeapTupleHeader s = src->t_data;

	return HeapTupleHeaderGetNatts(s) == desc->natts &&
		(s->t_hoff == hoff || s->t_hoff == hoff - LABELHEAP_LABEL_SIZE) &&
		s->t_hoff <= src->t_len;
}

/* the label secid in td, whose header, bitmap and data are in place */
static inline void
set_label(HeapTupleHeader td, uint32 hoff, uint32 len, Oid secid)
{
	char	   *label = (char *) td + hoff - LABELHEAP_LABEL_SIZE;

	HeapTupleHeaderSetDatumLength(td, len);
	ItemPointerSetInvalid(&(td->t_ctid));
	td->t_hoff = hoff;
	td->t_infomask |= LABELHEAP_HAS_LABEL;
	*(uint32 *) label = label_check_value(secid);
	*(Oid *) (label + sizeof(uint32)) = secid;
}

/*
 * A copy of a formed tuple (all of desc's attributes, a plain or a labeled
 * header) with the label secid: the header and data are copied as they
 * are, which is cheaper than deforming and forming again.  NULL if the
 * tuple is not of that shape.
 */
HeapTuple
labelheap_copy_with_label(HeapTuple src, TupleDesc desc, Oid secid)
{
	HeapTupleHeader s = src->t_data;
	HeapTupleHeader td;
	HeapTuple	tuple;
	uint32		hoff = labeled_hoff(s);
	uint32		data_len;
	uint32		len;

	if (!label_fits_shape(src, desc, hoff))
		return NULL;

	data_len = src->t_len - s->t_hoff;
	len = hoff + data_len;
	tuple = (HeapTuple) palloc(HEAPTUPLESIZE + len);
	tuple->t_data = td = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
	tuple->t_len = len;
	ItemPointerSetInvalid(&(tuple->t_self));
	tuple->t_tableOid = InvalidOid;

	/* header, null bitmap and its padding; then the label; then the data */
	memcpy(td, s, hoff - LABELHEAP_LABEL_SIZE);
	memcpy((char *) td + hoff, (char *) s + s->t_hoff, data_len);
	set_label(td, hoff, len, secid);
	return tuple;
}

/*
 * The same, changing the tuple itself, which must be one palloc'd chunk
 * (HeapTupleData followed by the tuple, as heap_form_tuple and
 * heap_copytuple make them) that the caller owns: its data moves up to
 * make room for the label, in the chunk's spare room when it has some
 * (repalloc keeps the chunk then), else in a larger chunk.  Returns the
 * tuple's new address (the old one is no longer valid), or NULL, with
 * the tuple unchanged, if it is not of that shape.
 */
HeapTuple
labelheap_label_in_place(HeapTuple tuple, TupleDesc desc, Oid secid)
{
	HeapTupleHeader td = tuple->t_data;
	uint32		hoff = labeled_hoff(td);
	uint32		old_hoff = td->t_hoff;
	uint32		data_len;
	uint32		len;

	if (td != (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE) ||
		!label_fits_shape(tuple, desc, hoff))
		return NULL;

	data_len = tuple->t_len - old_hoff;
	len = hoff + data_len;
	if (old_hoff != hoff)
	{
		tuple = (HeapTuple) repalloc(tuple, HEAPTUPLESIZE + len);
		tuple->t_data = td = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
		memmove((char *) td + hoff, (char *) td + old_hoff, data_len);
	}
	tuple->t_len = len;
	ItemPointerSetInvalid(&(tuple->t_self));
	tuple->t_tableOid = InvalidOid;
	set_label(td, hoff, len, secid);
	return tuple;
}

const char *
labelheap_header_problem(HeapTupleHeader tup, uint32 len)
{
	Oid			secid;

	return label_status(tup, len, &secid);
}

/*
 * The label stored in the tuple version at tid, which must lie in an
 * existing block of rel; InvalidOid if there is no such version, it has no
 * valid label, or accept (when given) rejects its header.  *present (when
 * given) says whether there is a version at tid at all.
 */
Oid
labelheap_version_secid(Relation rel, ItemPointer tid,
						bool (*accept) (HeapTupleHeader tup), bool *present)
{
	OffsetNumber offnum = ItemPointerGetOffsetNumber(tid);
	Buffer		buf = ReadBuffer(rel, ItemPointerGetBlockNumber(tid));
	Page		page;
	Oid			secid = InvalidOid;

	if (present)
		*present = false;
	LockBuffer(buf, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buf);
	if (offnum >= FirstOffsetNumber && offnum <= PageGetMaxOffsetNumber(page))
	{
		ItemId		lp = PageGetItemId(page, offnum);

		if (ItemIdIsNormal(lp))
		{
			HeapTupleHeader tup = (HeapTupleHeader) PageGetItem(page, lp);

			if (present)
				*present = true;
			if (accept == NULL || accept(tup))
				secid = labelheap_header_secid(tup, ItemIdGetLength(lp));
		}
	}
	UnlockReleaseBuffer(buf);
	return secid;
}

/*
 * Call fn for every tuple version stored in rel, live or dead (line
 * pointers with storage), block by block under a share lock, with no regard
 * to visibility or policy: for labelam.verify_labels() and the label set's
 * fallback when its catalog is gone.  fn runs with the buffer locked: it
 * must not read other buffers.
 */
void
labelheap_walk_stored(Relation rel, LabelheapStoredFn fn, void *arg)
{
	BufferAccessStrategy strategy = GetAccessStrategy(BAS_BULKREAD);
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	BlockNumber blkno;

	for (blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buf;
		Page		page;
		OffsetNumber offnum,
					maxoff;

		CHECK_FOR_INTERRUPTS();
		buf = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL, strategy);
		LockBuffer(buf, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buf);
		maxoff = PageGetMaxOffsetNumber(page);
		for (offnum = FirstOffsetNumber; offnum <= maxoff; offnum++)
		{
			ItemId		lp = PageGetItemId(page, offnum);
			ItemPointerData tid;

			if (!ItemIdIsNormal(lp))
				continue;
			ItemPointerSet(&tid, blkno, offnum);
			fn((HeapTupleHeader) PageGetItem(page, lp), ItemIdGetLength(lp),
			   &tid, arg);
		}
		UnlockReleaseBuffer(buf);
	}
	FreeAccessStrategy(strategy);
}
