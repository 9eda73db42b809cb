/*
 * bench/label_store/bench_label.c -- tight loops over labelam's dictionary API, to measure
 * lookups per second without SQL function-call overhead.  Built and loaded
 * only by bench/label_store.sh; not part of the extension.
 */
#include "postgres.h"

#include "fmgr.h"
#include "portability/instr_time.h"
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"

PG_MODULE_MAGIC;

typedef char *(*label_text_fn) (Oid secid);
typedef Oid (*label_lookup_fn) (const char *label);

PG_FUNCTION_INFO_V1(bench_label_text);
PG_FUNCTION_INFO_V1(bench_label_lookup);

/* bench_label_text(n int8, lo oid, hi oid) returns lookups/s */
Datum
bench_label_text(PG_FUNCTION_ARGS)
{
	int64		n = PG_GETARG_INT64(0);
	Oid			lo = PG_GETARG_OID(1);
	Oid			hi = PG_GETARG_OID(2);
	label_text_fn fn;
	instr_time	start,
				duration;
	int64		misses = 0;

	fn = (label_text_fn) load_external_function("$libdir/labelam",
												"label_text", true, NULL);
	INSTR_TIME_SET_CURRENT(start);
	for (int64 i = 0; i < n; i++)
	{
		/* a stride, so that successive lookups hit different partitions */
		char	   *s = fn(lo + (Oid) ((i * 7919) % (hi - lo + 1)));

		if (s == NULL)
			misses++;
		else
			pfree(s);
	}
	INSTR_TIME_SET_CURRENT(duration);
	INSTR_TIME_SUBTRACT(duration, start);
	if (misses > 0)
		elog(ERROR, "%lld lookups found nothing", (long long) misses);
	PG_RETURN_FLOAT8(n / INSTR_TIME_GET_DOUBLE(duration));
}

/* bench_label_lookup(labels text[], n int8) returns lookups/s */
Datum
bench_label_lookup(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	int64		n = PG_GETARG_INT64(1);
	label_lookup_fn fn;
	Datum	   *elems;
	int			nelems;
	char	  **labels;
	instr_time	start,
				duration;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, NULL,
					  &nelems);
	labels = palloc(sizeof(char *) * nelems);
	for (int i = 0; i < nelems; i++)
		labels[i] = TextDatumGetCString(elems[i]);

	fn = (label_lookup_fn) load_external_function("$libdir/labelam",
												  "label_lookup", true, NULL);
	INSTR_TIME_SET_CURRENT(start);
	for (int64 i = 0; i < n; i++)
	{
		if (!OidIsValid(fn(labels[i % nelems])))
			elog(ERROR, "label \"%s\" not found", labels[i % nelems]);
	}
	INSTR_TIME_SET_CURRENT(duration);
	INSTR_TIME_SUBTRACT(duration, start);
	PG_RETURN_FLOAT8(n / INSTR_TIME_GET_DOUBLE(duration));
}
