/*-------------------------------------------------------------------------
 *
 * src/label_store/sql.c
 *	  SQL-callable functions of the label dictionary.  labelam.intern_label
 *	  canonicalizes with the policy first, so it lives in avc/sql.c;
 *	  labelam.insert_label_secid with its setting in am/write/new_label.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "label_store/label_store.h"
#include "label_store/label_store_int.h"

PG_FUNCTION_INFO_V1(labelam_label_text);
PG_FUNCTION_INFO_V1(labelam_label_store_stats);

/*
 * Without the preloaded library there is no shared memory; the extension
 * could only have been created in a server that had it, so say the same as
 * CREATE EXTENSION would.
 */
void
label_store_require_loaded(void)
{
	if (!label_shmem_attached())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("labelam must be loaded via shared_preload_libraries"),
				 errhint("Add 'labelam' to shared_preload_libraries in postgresql.conf and restart the server.")));
}

/* label_text(oid) returns text, NULL for an unknown secid */
Datum
labelam_label_text(PG_FUNCTION_ARGS)
{
	char	   *label;

	label_store_require_loaded();
	label = label_text(PG_GETARG_OID(0));
	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

/*
 * label_store_stats(): occupancy of the shared label dictionary (all
 * databases), for monitoring and sizing labelam.max_labels.
 */
Datum
labelam_label_store_stats(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[6];
	bool		nulls[6] = {false};
	int64		nids,
				ntexts,
				text_bytes,
				text_bytes_max,
				shmem_bytes;

	label_store_require_loaded();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	label_shmem_stats(&nids, &ntexts, &text_bytes, &text_bytes_max,
					  &shmem_bytes);
	values[0] = Int64GetDatum(nids);
	values[1] = Int64GetDatum(ntexts);
	values[2] = Int32GetDatum(label_max_labels);
	values[3] = Int64GetDatum(text_bytes);
	values[4] = Int64GetDatum(text_bytes_max);
	values[5] = Int64GetDatum(shmem_bytes);

	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
