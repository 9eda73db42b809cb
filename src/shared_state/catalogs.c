/*-------------------------------------------------------------------------
 *
 * src/shared_state/catalogs.c
 *	  Writing the system catalogs needs the database's level: with object
 *	  checks on, a statement that adds, changes or removes catalog rows
 *	  needs db_database { set_param } or { setattr } on the database whose
 *	  catalogs it writes, on every database for the catalogs they share.
 *
 * Every session of a database reads its catalogs, whatever its label:
 * names of tables, columns, types, functions, triggers, constraints and
 * schemas, function bodies, view definitions, column defaults, comments,
 * privileges, settings (ALTER ROLE/DATABASE ... SET), and, cluster-wide,
 * roles, memberships, tablespaces and databases.  A Trojan horse in a high
 * session that writes a row it read into any of them (CREATE TEMP TABLE
 * named after it, COMMENT ON, ALTER ROLE CURRENT_USER SET
 * application_name = ...) hands it to every lower session.  The object
 * classes of contrib/sepgsql decide who may create what in which schema,
 * not who reads the catalog rows that result, and most catalogs have no
 * class at all (types, operators, casts, collations, text search objects,
 * statistics objects, publications, event triggers, roles, tablespaces,
 * foreign servers, comments, settings ...).
 *
 * So catalog rows are treated as what they are, state of the database: a
 * session may write them only if the policy lets it change the database,
 * db_database set_param (the permission that changing its settings takes,
 * which Debian grants every client domain) or setattr (which it grants
 * administrators).  Under the MLS policy both need the subject's level to
 * be the database's (l1 == l2), which is exactly "no session writes what a
 * lower session reads": a session above the database's level does no DDL
 * there, temporary tables included; it reads, and writes rows.  Catalogs
 * shared by every database need it on every database.  The decision is
 * made after sepgsql's own checks of the same command (its denials keep
 * their messages), and an allowed one is not audited (the command's own
 * checks are), a denial as any.  A trusted maintenance session decides
 * the catalog writes of the commands it sends with its own label, which
 * the policy lets write at every level of its range, as it decides their
 * object checks (require_catalogs_as).
 *
 * Where catalog writes are seen:
 *	- object_access_hook: the creation, change and drop of every object
 *	  PostgreSQL announces there (all DDL of named objects, ALTER ... OWNER,
 *	  ALTER ROLE/DATABASE ... SET, ALTER DEFAULT PRIVILEGES ...), except
 *	  what the server does internally for a command already decided;
 *	- ProcessUtility, for the statements that write catalogs without
 *	  announcing it: COMMENT, GRANT and REVOKE, GRANT/REVOKE of roles,
 *	  SECURITY LABEL, DROP OWNED and REASSIGN OWNED (after the command,
 *	  whose own checks come first; a refusal rolls it back), and ALTER
 *	  SYSTEM (before it: the file it writes stays written), which changes
 *	  what every session of every database reads as its settings.
 *	- object_access_hook's OAT_FUNCTION_EXECUTE, for the built-ins that
 *	  write catalogs themselves (18: pg_restore_relation_stats and kin).
 * Large objects are decided by their own class (db_blob) at their own
 * level, as rows are: a session above the database's level may create
 * them, but only with OIDs the server chooses.  lo_create and
 * lo_from_bytea are rewritten into the checked twins below
 * (objects/functions.c), which decide an OID other than 0 as a catalog
 * write; reached without their twins, they are decided so whatever the
 * OID (shared_state_catalogs_chosen_oid, from twins.c).  lo_import(path,
 * oid)'s twin is src/files/large_objects.c's, which asks the same.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/catalog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_database.h"
#include "catalog/pg_largeobject.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "nodes/plannodes.h"
#include "utils/fmgrprotos.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/snapmgr.h"

#include "avc/avc.h"
#include "avc/avc_objects.h"
#include "objects/objects.h"
#include "shared_state/shared_state.h"

/* allowed, by set_param or setattr, without an audit line? */
static bool
quietly_writable(const char *label)
{
	AvcDecision avd;
	const char *decided_as;
	uint32		write = SEPG_DB_DATABASE__SET_PARAM | SEPG_DB_DATABASE__SETATTR;

	avc_decide_object(AVC_CLASS_DB_DATABASE, label, &avd, &decided_as);
	return (avd.allowed & write) != 0 || avd.permissive;
}

static void
require_database(Oid dbid, const char *what)
{
	char	   *label = objects_label(DatabaseRelationId, dbid, 0);
	char	   *dbname;
	char	   *audit_name;

	if (quietly_writable(label))
	{
		if (label)
			pfree(label);
		return;
	}
	dbname = get_database_name(dbid);
	audit_name = psprintf("database %s", dbname ? dbname : "?");
	/* the audit line of the denial, as for any object check */
	(void) sepgsql_avc_check_perms_label(label, SEPG_CLASS_DB_DATABASE,
										 SEPG_DB_DATABASE__SET_PARAM,
										 audit_name, false);
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to %s at this security label", what),
			 errdetail("Every session of database \"%s\" reads its catalogs, so they may be written only by a session that the policy lets change the database (db_database { set_param } or { setattr }).",
					   dbname ? dbname : "?"),
			 errhint("Under MLS, run the command in a session at the database's level.")));
}

static void
require_every_database(bool shared, const char *what)
{
	Relation	rel;
	SysScanDesc scan;
	HeapTuple	tuple;

	require_database(MyDatabaseId, what);
	if (!shared)
		return;
	rel = table_open(DatabaseRelationId, AccessShareLock);
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 0, NULL);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Oid			dbid = ((Form_pg_database) GETSTRUCT(tuple))->oid;

		if (dbid != MyDatabaseId)
			require_database(dbid, what);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
}

/*
 * The catalogs of this database, or of every database (shared ones).  A
 * trusted session (avc/trusted.c) decides the catalog writes of a
 * maintenance command it sent with its own label, as the object checks of
 * that command are (objects/dispatch.c); code the command runs for others
 * (nested) and large objects decide with its narrowed label, its
 * clearance, as always.
 */
static void
require_catalogs_as(bool shared, const char *what, bool maintenance)
{
	bool		widened;

	if (!objects_active())
		return;
	widened = maintenance && avc_maintenance_begin(1);
	PG_TRY();
	{
		require_every_database(shared, what);
	}
	PG_FINALLY();
	{
		avc_maintenance_end(widened);
	}
	PG_END_TRY();
}

/* a catalog write by a command (DDL, COMMENT, GRANT, ALTER SYSTEM ...) */
static void
require_catalogs(bool shared, const char *what)
{
	require_catalogs_as(shared, what, true);
}

/* pg_type's row of typeId, as the command that is creating it sees it */
static bool
type_row(Oid typeId, Oid *typrelid, Oid *typelem)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	bool		found = false;

	rel = table_open(TypeRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_type_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(typeId));
	/* SnapshotSelf: the row was inserted by this very command (sepgsql too) */
	scan = systable_beginscan(rel, TypeOidIndexId, true, SnapshotSelf, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		*typrelid = ((Form_pg_type) GETSTRUCT(tuple))->typrelid;
		*typelem = ((Form_pg_type) GETSTRUCT(tuple))->typelem;
		found = true;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * A relation's row type, or its array type: TypeCreate announces them as
 * created, not internal, also when the server makes them for a transient
 * relation (VACUUM FULL, CLUSTER, ALTER TABLE's rewrites).  They are named
 * after the relation, whose own creation is decided (and is internal for
 * transient relations), so they are decided with it.  A type not found is
 * decided as any (fail closed).
 */
static bool
relation_row_type(Oid typeId)
{
	Oid			typrelid;
	Oid			typelem;

	if (!type_row(typeId, &typrelid, &typelem))
		return false;
	if (OidIsValid(typrelid))
		return true;
	return OidIsValid(typelem) && type_row(typelem, &typrelid, &typelem) &&
		OidIsValid(typrelid);
}

void
shared_state_catalogs_object_access(ObjectAccessType access, Oid classId,
									Oid objectId, int subId, void *arg)
{
	const char *what;

	switch (access)
	{
		case OAT_POST_CREATE:
			if (arg && ((ObjectAccessPostCreate *) arg)->is_internal)
				return;
			what = "create objects in the system catalogs";
			break;
		case OAT_POST_ALTER:
			if (arg && ((ObjectAccessPostAlter *) arg)->is_internal)
				return;
			what = "change objects in the system catalogs";
			break;
		case OAT_DROP:
			if (arg && (((ObjectAccessDrop *) arg)->dropflags &
						PERFORM_DELETION_INTERNAL))
				return;
			what = "drop objects from the system catalogs";
			break;
		default:
			return;
	}
	if (classId == LargeObjectRelationId)
		return;
	if (access == OAT_POST_CREATE && classId == TypeRelationId &&
		relation_row_type(objectId))
		return;
	require_catalogs(IsSharedRelation(classId), what);
}

/* COMMENT, GRANT and the like: on a database, role, tablespace or setting? */
static bool
shared_object_type(ObjectType objtype)
{
	switch (objtype)
	{
		case OBJECT_DATABASE:
		case OBJECT_ROLE:
		case OBJECT_TABLESPACE:
#if PG_VERSION_NUM >= 150000
		case OBJECT_PARAMETER_ACL:
#endif
			return true;
		default:
			return false;
	}
}

/*
 * ProcessUtility, before the command: ALTER SYSTEM writes the
 * configuration every database's sessions read (SHOW after a reload), and
 * cannot be undone by a rollback, so it is decided first, as a shared
 * catalog.
 */
void
shared_state_catalogs_utility_start(PlannedStmt *pstmt)
{
	if (IsA(pstmt->utilityStmt, AlterSystemStmt))
		require_catalogs(true, "change the server's configuration");
}

/* ProcessUtility, after the command: those that write catalogs unannounced */
void
shared_state_catalogs_utility(PlannedStmt *pstmt)
{
	Node	   *parsetree = pstmt->utilityStmt;

	switch (nodeTag(parsetree))
	{
		case T_CommentStmt:
			require_catalogs(shared_object_type(((CommentStmt *) parsetree)->objtype),
							 "comment on objects");
			break;
		case T_SecLabelStmt:
			require_catalogs(shared_object_type(((SecLabelStmt *) parsetree)->objtype),
							 "label objects");
			break;
		case T_GrantStmt:
			require_catalogs(shared_object_type(((GrantStmt *) parsetree)->objtype),
							 "grant or revoke privileges");
			break;
		case T_GrantRoleStmt:
			require_catalogs(true, "grant or revoke roles");
			break;
		case T_DropOwnedStmt:
		case T_ReassignOwnedStmt:
			require_catalogs(true, "change objects in the system catalogs");
			break;
		default:
			break;
	}
}

/* ---- large objects with chosen OIDs ---- */

void
shared_state_catalogs_chosen_oid(void)
{
	require_catalogs_as(false, "choose the OID of a large object", false);
}

static void
check_chosen_oid(FunctionCallInfo fcinfo, Oid builtin, Oid loid)
{
	objects_twin_enter(fcinfo, builtin);
	if (OidIsValid(loid))
		shared_state_catalogs_chosen_oid();
}

PG_FUNCTION_INFO_V1(labelam_lo_create);
Datum
labelam_lo_create(PG_FUNCTION_ARGS)
{
	check_chosen_oid(fcinfo, F_LO_CREATE, PG_GETARG_OID(0));
	return be_lo_create(fcinfo);
}

PG_FUNCTION_INFO_V1(labelam_lo_from_bytea);
Datum
labelam_lo_from_bytea(PG_FUNCTION_ARGS)
{
	check_chosen_oid(fcinfo, F_LO_FROM_BYTEA, PG_GETARG_OID(0));
	return be_lo_from_bytea(fcinfo);
}

/*
 * Built-ins that write catalog rows when they are called (18: statistics
 * restored or cleared by hand): decided as catalog writes; true if
 * functionId is one of them.
 */
bool
shared_state_catalogs_function(Oid functionId)
{
	switch (functionId)
	{
#ifdef F_PG_RESTORE_RELATION_STATS
		case F_PG_RESTORE_RELATION_STATS:
		case F_PG_RESTORE_ATTRIBUTE_STATS:
		case F_PG_CLEAR_RELATION_STATS:
		case F_PG_CLEAR_ATTRIBUTE_STATS:
			require_catalogs_as(false, "write statistics into the system catalogs",
								false);
			return true;
#endif
		default:
			return false;
	}
}
