/* -------------------------------------------------------------------------
 *
 * src/objects/objects.h
 *	  Database objects under the policy: contrib/sepgsql's object classes,
 *	  labels and checks, deciding through labelam's providers and cache.
 *
 * The files database.c, schema.c, relation.c, proc.c and dml.c here are
 * contrib/sepgsql's of PostgreSQL 15.18, with the changes each names; they
 * call the interface below, which sepgsql's sepgsql.h declared and which
 * check.c, label.c and dispatch.c implement on labelam's avc (src/avc).
 * Permission bits are numbered as sepgsql numbers them, and so are
 * labelam's (avc/classes.c's names are in the same order).
 *
 * Portions Copyright (c) 2010-2022, PostgreSQL Global Development Group
 * (the permission definitions and declarations below are sepgsql.h's)
 *
 * -------------------------------------------------------------------------
 */
#ifndef LABELAM_OBJECTS_H
#define LABELAM_OBJECTS_H

#include "catalog/objectaddress.h"
#include "fmgr.h"
#include "access/xact.h"
#include "catalog/objectaccess.h"
#include "nodes/bitmapset.h"
#include "nodes/pg_list.h"

#include "avc/provider.h"

#define SEPGSQL_LABEL_TAG			"selinux"

/* object classes: labelam's AvcClass values under sepgsql's names */
#define SEPG_CLASS_PROCESS			AVC_CLASS_PROCESS
#define SEPG_CLASS_DB_DATABASE		AVC_CLASS_DB_DATABASE
#define SEPG_CLASS_DB_SCHEMA		AVC_CLASS_DB_SCHEMA
#define SEPG_CLASS_DB_TABLE			AVC_CLASS_DB_TABLE
#define SEPG_CLASS_DB_SEQUENCE		AVC_CLASS_DB_SEQUENCE
#define SEPG_CLASS_DB_PROCEDURE		AVC_CLASS_DB_PROCEDURE
#define SEPG_CLASS_DB_COLUMN		AVC_CLASS_DB_COLUMN
#define SEPG_CLASS_DB_TUPLE			AVC_CLASS_DB_TUPLE
#define SEPG_CLASS_DB_BLOB			AVC_CLASS_DB_BLOB
#define SEPG_CLASS_DB_LANGUAGE		AVC_CLASS_DB_LANGUAGE
#define SEPG_CLASS_DB_VIEW			AVC_CLASS_DB_VIEW

/* process permissions, as labelam numbers them (provider.h) */
#define SEPG_PROCESS__TRANSITION			AVC_PROCESS_TRANSITION
#define SEPG_PROCESS__DYNTRANSITION			AVC_PROCESS_DYNTRANSITION
#define SEPG_PROCESS__SETCURRENT			AVC_PROCESS_SETCURRENT

#define SEPG_DB_DATABASE__CREATE			(1<<0)
#define SEPG_DB_DATABASE__DROP				(1<<1)
#define SEPG_DB_DATABASE__GETATTR			(1<<2)
#define SEPG_DB_DATABASE__SETATTR			(1<<3)
#define SEPG_DB_DATABASE__RELABELFROM		(1<<4)
#define SEPG_DB_DATABASE__RELABELTO			(1<<5)
#define SEPG_DB_DATABASE__ACCESS			(1<<6)
#define SEPG_DB_DATABASE__LOAD_MODULE		(1<<7)
#define SEPG_DB_DATABASE__INSTALL_MODULE	(1<<8)
#define SEPG_DB_DATABASE__GET_PARAM			(1<<9)
#define SEPG_DB_DATABASE__SET_PARAM			(1<<10)

#define SEPG_DB_SCHEMA__CREATE				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_SCHEMA__DROP				(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_SCHEMA__GETATTR				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_SCHEMA__SETATTR				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_SCHEMA__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_SCHEMA__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_SCHEMA__SEARCH				(1<<6)
#define SEPG_DB_SCHEMA__ADD_NAME			(1<<7)
#define SEPG_DB_SCHEMA__REMOVE_NAME			(1<<8)

#define SEPG_DB_TABLE__CREATE				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_TABLE__DROP					(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_TABLE__GETATTR				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_TABLE__SETATTR				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_TABLE__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_TABLE__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_TABLE__SELECT				(1<<6)
#define SEPG_DB_TABLE__UPDATE				(1<<7)
#define SEPG_DB_TABLE__INSERT				(1<<8)
#define SEPG_DB_TABLE__DELETE				(1<<9)
#define SEPG_DB_TABLE__LOCK					(1<<10)
#define SEPG_DB_TABLE__TRUNCATE				(1<<11)

#define SEPG_DB_SEQUENCE__CREATE			(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_SEQUENCE__DROP				(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_SEQUENCE__GETATTR			(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_SEQUENCE__SETATTR			(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_SEQUENCE__RELABELFROM		(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_SEQUENCE__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_SEQUENCE__GET_VALUE			(1<<6)
#define SEPG_DB_SEQUENCE__NEXT_VALUE		(1<<7)
#define SEPG_DB_SEQUENCE__SET_VALUE			(1<<8)

#define SEPG_DB_PROCEDURE__CREATE			(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_PROCEDURE__DROP				(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_PROCEDURE__GETATTR			(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_PROCEDURE__SETATTR			(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_PROCEDURE__RELABELFROM		(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_PROCEDURE__RELABELTO		(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_PROCEDURE__EXECUTE			(1<<6)
#define SEPG_DB_PROCEDURE__ENTRYPOINT		(1<<7)
#define SEPG_DB_PROCEDURE__INSTALL			(1<<8)

#define SEPG_DB_COLUMN__CREATE				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_COLUMN__DROP				(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_COLUMN__GETATTR				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_COLUMN__SETATTR				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_COLUMN__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_COLUMN__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_COLUMN__SELECT				(1<<6)
#define SEPG_DB_COLUMN__UPDATE				(1<<7)
#define SEPG_DB_COLUMN__INSERT				(1<<8)

#define SEPG_DB_TUPLE__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_TUPLE__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_TUPLE__SELECT				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_TUPLE__UPDATE				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_TUPLE__INSERT				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_TUPLE__DELETE				(SEPG_DB_DATABASE__DROP)

#define SEPG_DB_BLOB__CREATE				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_BLOB__DROP					(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_BLOB__GETATTR				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_BLOB__SETATTR				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_BLOB__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_BLOB__RELABELTO				(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_BLOB__READ					(1<<6)
#define SEPG_DB_BLOB__WRITE					(1<<7)
#define SEPG_DB_BLOB__IMPORT				(1<<8)
#define SEPG_DB_BLOB__EXPORT				(1<<9)

#define SEPG_DB_LANGUAGE__CREATE			(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_LANGUAGE__DROP				(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_LANGUAGE__GETATTR			(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_LANGUAGE__SETATTR			(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_LANGUAGE__RELABELFROM		(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_LANGUAGE__RELABELTO			(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_LANGUAGE__IMPLEMENT			(1<<6)
#define SEPG_DB_LANGUAGE__EXECUTE			(1<<7)

#define SEPG_DB_VIEW__CREATE				(SEPG_DB_DATABASE__CREATE)
#define SEPG_DB_VIEW__DROP					(SEPG_DB_DATABASE__DROP)
#define SEPG_DB_VIEW__GETATTR				(SEPG_DB_DATABASE__GETATTR)
#define SEPG_DB_VIEW__SETATTR				(SEPG_DB_DATABASE__SETATTR)
#define SEPG_DB_VIEW__RELABELFROM			(SEPG_DB_DATABASE__RELABELFROM)
#define SEPG_DB_VIEW__RELABELTO				(SEPG_DB_DATABASE__RELABELTO)
#define SEPG_DB_VIEW__EXPAND				(1<<6)


/* labelam.object_checks: object labels and checks on (dispatch.c) */
extern bool objects_enabled;

/* object checks on, and the process has a subject? (dispatch.c) */
extern bool objects_active(void);

/* sepgsql.debug_audit's equivalent: audit allowed decisions too */
extern bool objects_debug_audit;

/*
 * check.c: decisions for the session's subject (the client label, or a
 * trusted procedure's) through the avc's cache; audit in sepgsql's format.
 * A NULL tcontext, or one the policy does not know, is decided as the
 * policy's "unlabeled".  audit_name SEPGSQL_AVC_NOAUDIT audits nothing.
 */
#define SEPGSQL_AVC_NOAUDIT			((void *)(-1))
extern bool sepgsql_getenforce(void);
extern bool sepgsql_avc_check_perms_label(const char *tcontext,
										  uint16 tclass,
										  uint32 required,
										  const char *audit_name,
										  bool abort_on_violation);
extern bool sepgsql_avc_check_perms(const ObjectAddress *tobject,
									uint16 tclass,
									uint32 required,
									const char *audit_name,
									bool abort_on_violation);
extern char *sepgsql_avc_trusted_proc(Oid functionId);
extern char *sepgsql_compute_create(const char *scontext,
									const char *tcontext,
									uint16 tclass,
									const char *objname);
extern uint32 objects_table_required(Oid relOid, uint32 required);
extern uint32 objects_column_required(Oid relOid, uint32 required);

/* label.c */
extern char *sepgsql_get_client_label(void);
extern char *sepgsql_get_label(Oid classId, Oid objectId, int32 subId);
extern void sepgsql_object_relabel(const ObjectAddress *object,
								   const char *seclabel);
extern bool objects_needs_fmgr(Oid functionId);
extern void objects_fmgr(FmgrHookEventType event, FmgrInfo *flinfo,
						 Datum *private);
struct QueryDesc;
extern void objects_executor_start(struct QueryDesc *queryDesc);

/* dml.c */
extern bool sepgsql_dml_privileges(List *rangeTabls, List *rteperminfos,
								   bool abort_on_violation);

/* database.c */
extern void sepgsql_database_post_create(Oid databaseId,
										 const char *dtemplate);
extern void sepgsql_database_drop(Oid databaseId);
extern void sepgsql_database_relabel(Oid databaseId, const char *seclabel);
extern void sepgsql_database_setattr(Oid databaseId);

/* schema.c */
extern void sepgsql_schema_post_create(Oid namespaceId);
extern void sepgsql_schema_drop(Oid namespaceId);
extern void sepgsql_schema_relabel(Oid namespaceId, const char *seclabel);
extern void sepgsql_schema_setattr(Oid namespaceId);
extern bool sepgsql_schema_search(Oid namespaceId, bool abort_on_violation);
extern void sepgsql_schema_add_name(Oid namespaceId);
extern void sepgsql_schema_remove_name(Oid namespaceId);
extern void sepgsql_schema_rename(Oid namespaceId);

/* relation.c */
extern void sepgsql_attribute_post_create(Oid relOid, AttrNumber attnum);
extern void sepgsql_attribute_drop(Oid relOid, AttrNumber attnum);
extern void sepgsql_attribute_relabel(Oid relOid, AttrNumber attnum,
									  const char *seclabel);
extern void sepgsql_attribute_setattr(Oid relOid, AttrNumber attnum);
extern void sepgsql_relation_post_create(Oid relOid);
extern void sepgsql_relation_drop(Oid relOid);
extern void sepgsql_relation_truncate(Oid relOid);
extern void sepgsql_relation_relabel(Oid relOid, const char *seclabel);
extern void sepgsql_relation_setattr(Oid relOid);

/* proc.c */
extern void sepgsql_proc_post_create(Oid functionId);
extern void sepgsql_proc_drop(Oid functionId);
extern void sepgsql_proc_relabel(Oid functionId, const char *seclabel);
extern void sepgsql_proc_setattr(Oid functionId);
extern void sepgsql_proc_execute(Oid functionId);

/* blob.c: large objects as objects (sepgsql labels none) */
extern void objects_blob_post_create(Oid blobId);
extern void objects_blob_drop(Oid blobId);
extern void objects_blob_relabel(Oid blobId, const char *seclabel);

/*
 * Until called again with NULL, the large objects this backend creates get
 * the label they would get at the level of level_of, checked for db_blob
 * { create import } (src/files: lo_import of a labeled file).
 */
extern void objects_blob_label_from(const char *level_of);

/* object_label.c */
extern char *objects_label(Oid classId, Oid objectId, int32 subId);
extern void objects_label_forget(void);

/* language.c */
extern void objects_language_post_create(Oid langId);
extern void objects_language_drop(Oid langId);
extern void objects_language_relabel(Oid langId, const char *seclabel);
struct DoStmt;
extern void objects_language_do(struct DoStmt *stmt);

/* sequence.c */
extern void objects_sequence_identity(Oid relOid, Bitmapset *insertedCols);

/* functions.c */
struct Query;
extern void objects_planner(struct Query *parse);
extern bool objects_function_calls_checked(Oid functionId);
extern void objects_function_execute(Oid functionId);
extern void objects_functions_forget(void);

/*
 * For the twins (also src/files/large_objects.c's): the checks PostgreSQL
 * and the policy make on calling the built-in, once per call site; and
 * the decision on a large object.
 */
extern void objects_twin_enter(FunctionCallInfo fcinfo, Oid builtin);
extern void objects_check_blob(Oid blobId, uint32 perms);

/* dispatch.c */
extern void objects_init(void);
extern void objects_object_access(ObjectAccessType access, Oid classId,
								  Oid objectId, int subId, void *arg);
extern bool objects_exec_check_perms(List *rangeTabls, List *rteperminfos,
									 bool abort);
struct PlannedStmt;
extern void *objects_utility_start(struct PlannedStmt *pstmt);
extern void objects_utility_end(void *saved);

#endif							/* LABELAM_OBJECTS_H */
