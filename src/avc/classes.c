/*-------------------------------------------------------------------------
 *
 * src/avc/classes.c
 *	  The object classes labelam asks the policy about, and the names of
 *	  their permissions (provider.h numbers them), which the providers map
 *	  to the policy's and the audit and error messages print.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "avc/avc_internal.h"

const char *const avc_class_names[AVC_NUM_CLASSES] = {
	"db_tuple",
	"process",
	"db_database",
	"db_schema",
	"db_table",
	"db_sequence",
	"db_procedure",
	"db_column",
	"db_blob",
	"db_language",
	"db_view",
	"file",
	"dir",
	"fifo_file",
	"chr_file",
	"blk_file",
};

static const char *const db_tuple_perms[] = {
	"select", "insert", "update", "delete", "relabelfrom", "relabelto", "use",
	NULL
};

static const char *const process_perms[] = {
	"setcurrent", "dyntransition", "transition",
	NULL
};

/* bit order as contrib/sepgsql's sepgsql.h (PostgreSQL 15) numbers them */
#define DB_COMMON_PERMS \
	"create", "drop", "getattr", "setattr", "relabelfrom", "relabelto"

static const char *const db_database_perms[] = {
	DB_COMMON_PERMS, "access", "load_module", "install_module", "get_param",
	"set_param", NULL
};
static const char *const db_schema_perms[] = {
	DB_COMMON_PERMS, "search", "add_name", "remove_name", NULL
};
static const char *const db_table_perms[] = {
	DB_COMMON_PERMS, "select", "update", "insert", "delete", "lock",
	"truncate", NULL
};
static const char *const db_sequence_perms[] = {
	DB_COMMON_PERMS, "get_value", "next_value", "set_value", NULL
};
static const char *const db_procedure_perms[] = {
	DB_COMMON_PERMS, "execute", "entrypoint", "install", NULL
};
static const char *const db_column_perms[] = {
	DB_COMMON_PERMS, "select", "update", "insert", NULL
};
static const char *const db_blob_perms[] = {
	DB_COMMON_PERMS, "read", "write", "import", "export", NULL
};
static const char *const db_language_perms[] = {
	DB_COMMON_PERMS, "implement", "execute", NULL
};
static const char *const db_view_perms[] = {
	DB_COMMON_PERMS, "expand", NULL
};

/* labelam's own order (provider.h's AVC_FILE_* and AVC_DIR_*) */
static const char *const file_perms[] = {
	"read", "write", "create", "getattr", NULL
};
static const char *const dir_perms[] = {
	"search", "write", "add_name", "getattr", NULL
};

const char *const *const avc_perm_names[AVC_NUM_CLASSES] = {
	db_tuple_perms,
	process_perms,
	db_database_perms,
	db_schema_perms,
	db_table_perms,
	db_sequence_perms,
	db_procedure_perms,
	db_column_perms,
	db_blob_perms,
	db_language_perms,
	db_view_perms,
	file_perms,
	dir_perms,
	file_perms,
	file_perms,
	file_perms,
};

StaticAssertDecl(AVC_DB_TUPLE_ALL == (1U << (lengthof(db_tuple_perms) - 1)) - 1,
				 "db_tuple permission bits and names disagree");

/* Bits of the permission names given; ERROR for an unknown name. */
uint32
avc_perms_from_names(AvcClass tclass, const char *const *names, int n)
{
	const char *const *known = avc_perm_names[tclass];
	uint32		perms = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		int			b;

		for (b = 0; known[b] != NULL; b++)
			if (strcmp(names[i], known[b]) == 0)
				break;
		if (known[b] == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("unknown permission \"%s\" of class %s",
							names[i], avc_class_names[tclass]),
					 errhint("Valid permissions are: %s.",
							 avc_perms_text(tclass, (1U << b) - 1))));
		perms |= 1U << b;
	}
	return perms;
}

/* "select, insert" */
char *
avc_perms_text(AvcClass tclass, uint32 perms)
{
	return avc_perms_text_sep(tclass, perms, ", ");
}

/* the same, separated by sep (SELinux writes "{ read write }") */
char *
avc_perms_text_sep(AvcClass tclass, uint32 perms, const char *sep)
{
	const char *const *known = avc_perm_names[tclass];
	StringInfoData buf;
	int			b;

	initStringInfo(&buf);
	for (b = 0; known[b] != NULL; b++)
		if (perms & (1U << b))
			appendStringInfo(&buf, "%s%s", buf.len ? sep : "", known[b]);
	return buf.data;
}

const char *
avc_perm_name(uint32 perm)
{
	int			b;

	for (b = 0; db_tuple_perms[b] != NULL; b++)
		if (perm == (1U << b))
			return db_tuple_perms[b];
	return "?";
}
