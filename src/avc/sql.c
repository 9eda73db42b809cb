/*-------------------------------------------------------------------------
 *
 * src/avc/sql.c
 *	  SQL functions of the policy subsystem, for administrators and tests.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "avc/avc_internal.h"
#include "avc/avc_objects.h"
#include "label_store/label_store.h"

PG_FUNCTION_INFO_V1(labelam_check_access);
PG_FUNCTION_INFO_V1(labelam_check_relabel);
PG_FUNCTION_INFO_V1(labelam_compute_create);
PG_FUNCTION_INFO_V1(labelam_policy_info);
PG_FUNCTION_INFO_V1(labelam_client_label);
PG_FUNCTION_INFO_V1(labelam_set_client_label);
PG_FUNCTION_INFO_V1(labelam_avc_bench);
PG_FUNCTION_INFO_V1(labelam_check_row_access);
PG_FUNCTION_INFO_V1(labelam_create_row_label);
PG_FUNCTION_INFO_V1(labelam_intern_label);

/* the elements of a text[] as C strings; ERROR on NULLs */
static char **
text_array_cstrings(ArrayType *arr, int *n, const char *what)
{
	Datum	   *elems;
	bool	   *nulls;
	char	  **result;
	int			i;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, n);
	result = palloc(sizeof(char *) * Max(*n, 1));
	for (i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain nulls", what)));
		result[i] = TextDatumGetCString(elems[i]);
	}
	return result;
}

/*
 * check_access(subject, object, perms): does subject hold every permission
 * of class db_tuple in perms on rows labeled object?
 */
Datum
labelam_check_access(PG_FUNCTION_ARGS)
{
	char	   *subject = avc_canonicalize_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)),
												   NULL);
	char	   *object = avc_canonicalize(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	int			n;
	char	  **names = text_array_cstrings(PG_GETARG_ARRAYTYPE_P(2), &n,
											"permissions");
	uint32		perms = avc_perms_from_names(AVC_CLASS_DB_TUPLE,
											 (const char *const *) names, n);
	uint32		slid;
	uint32		olid;
	AvcDecision avd;

	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no permission to check"),
				 errhint("Valid permissions are: %s.",
						 avc_perms_text(AVC_CLASS_DB_TUPLE, AVC_DB_TUPLE_ALL))));
	slid = avc_local_id(subject);
	olid = avc_local_id(object);
	avc_decide(AVC_CLASS_DB_TUPLE, slid, AVC_OBJ_LOCAL, olid, &avd);
	PG_RETURN_BOOL((avd.allowed & perms) == perms || avd.permissive);
}

/*
 * check_relabel(subject, from, to): the provider's rule on changing a row's
 * label from one label to the other (provider.h's compute_relabel), which
 * the write path asks besides relabelfrom and relabelto on each.
 */
Datum
labelam_check_relabel(PG_FUNCTION_ARGS)
{
	char	   *subject = avc_canonicalize_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)),
												   NULL);
	char	   *from = avc_canonicalize(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	char	   *to = avc_canonicalize(text_to_cstring(PG_GETARG_TEXT_PP(2)));

	PG_RETURN_BOOL(avc_relabel_allowed_text(subject, from, to));
}

/*
 * check_row_access(secid, perms): the session's decision on rows labeled
 * secid, through the row filter's path (cached, and audited).
 */
Datum
labelam_check_row_access(PG_FUNCTION_ARGS)
{
	Oid			secid = PG_GETARG_OID(0);
	int			n;
	char	  **names = text_array_cstrings(PG_GETARG_ARRAYTYPE_P(1), &n,
											"permissions");
	uint32		perms = avc_perms_from_names(AVC_CLASS_DB_TUPLE,
											 (const char *const *) names, n);

	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no permission to check")));
	PG_RETURN_BOOL(avc_check_tuple(NULL, secid, perms));
}

/* create_row_label(table_secid): secid of the label of a new row */
Datum
labelam_create_row_label(PG_FUNCTION_ARGS)
{
	PG_RETURN_OID(avc_create_label(PG_GETARG_OID(0)));
}

/*
 * intern_label(text): secid of a label, interning it if new.  A dictionary
 * function, here because the policy canonicalizes the text first.
 */
Datum
labelam_intern_label(PG_FUNCTION_ARGS)
{
	char	   *label = text_to_cstring(PG_GETARG_TEXT_PP(0));

	label_store_require_loaded();
	PG_RETURN_OID(label_intern(avc_storable_label(label)));
}

/* compute_create(subject, parent): label of a new row (type_transition) */
Datum
labelam_compute_create(PG_FUNCTION_ARGS)
{
	char	   *subject = avc_canonicalize_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)),
												   NULL);
	char	   *parent = avc_canonicalize(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	uint32		slid = avc_local_id(subject);
	uint32		plid = avc_local_id(parent);

	PG_RETURN_TEXT_P(cstring_to_text(avc_create_local(slid, plid)));
}

Datum
labelam_policy_info(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {false, false, false, false, false, false, false};
	uint64		seqno;
	const char *rejected;
	TimestampTz when = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	seqno = avc_provider->policy_seqno();
	values[0] = CStringGetTextDatum(avc_provider->name);
	values[1] = CStringGetTextDatum(avc_provider->policy_source());
	values[2] = Int64GetDatum((int64) seqno);
	values[3] = BoolGetDatum(avc_provider->mls_enabled());
	/* the mode this session's statements decide in */
	values[4] = CStringGetTextDatum(avc_enforcing && avc_provider->enforcing() ?
									"enforcing" : "permissive");
	rejected = avc_provider->policy_rejected(&when);
	if (rejected != NULL)
	{
		values[5] = CStringGetTextDatum(rejected);
		values[6] = TimestampTzGetDatum(when);
	}
	else
		nulls[5] = nulls[6] = true;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

Datum
labelam_client_label(PG_FUNCTION_ARGS)
{
	const char *label = avc_client_label();

	if (label == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(label));
}

Datum
labelam_set_client_label(PG_FUNCTION_ARGS)
{
	avc_set_client_label(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_TEXT_P(cstring_to_text(avc_client_label()));
}

/* _avc_bench(objects, n, misses): seconds for n decisions (bench/) */
Datum
labelam_avc_bench(PG_FUNCTION_ARGS)
{
	int			n;
	char	  **objects = text_array_cstrings(PG_GETARG_ARRAYTYPE_P(0), &n,
											  "objects");
	int64		count = PG_GETARG_INT64(1);
	bool		misses = PG_GETARG_BOOL(2);

	if (n == 0 || count < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("need at least one object label and a non-negative count")));
	PG_RETURN_FLOAT8(avc_bench((const char *const *) objects, n, count, misses));
}
