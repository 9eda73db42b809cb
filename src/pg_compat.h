/*-------------------------------------------------------------------------
 *
 * src/pg_compat.h
 *	  The one place where labelam absorbs differences between the PostgreSQL
 *	  majors it builds against (15, 17 and 18).
 *
 * A difference that is only a renamed or re-parameterized function gets a
 * labelam_* wrapper here, so that callers stay free of version tests.  Only
 * callbacks whose shape changed (the table AM's update and bitmap-scan
 * callbacks, the executor hooks, sepgsql's copied permission loop) carry
 * #if PG_VERSION_NUM blocks at the definition itself.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_PG_COMPAT_H
#define LABELAM_PG_COMPAT_H

/*
 * Only what the typedefs below need: the wrappers are macros, expanded where
 * the caller has included the headers of what it calls.
 */
#include "postgres.h"

#if PG_VERSION_NUM >= 160000
#include "access/tableam.h"
#endif

/* 16 has never been built or tested: refuse it rather than pretend */
#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 190000 || \
	(PG_VERSION_NUM >= 160000 && PG_VERSION_NUM < 170000)
#error "labelam builds against PostgreSQL 15, 17 and 18 only"
#endif

/*
 * 16 and later build extension libraries with -fvisibility=hidden, 15 does
 * not: there, a variable of labelam's own that a per-row path reads
 * (filter.c's fast path) is reached through the global offset table, two
 * loads instead of one, unless it is declared hidden.  Only for variables
 * no other library uses.
 */
#ifdef __GNUC__
#define LABELAM_HIDDEN __attribute__((visibility("hidden")))
#else
#define LABELAM_HIDDEN
#endif

/* 16: RelFileNode became RelFileLocator */
#if PG_VERSION_NUM >= 160000
#include "storage/relfilelocator.h"
typedef RelFileLocator LabelamRelFileId;
#define labelam_set_new_file relation_set_new_filelocator
#define labelam_rel_file_id(rel) (&(rel)->rd_locator)
#else
#include "storage/relfilenode.h"
typedef RelFileNode LabelamRelFileId;
#define labelam_set_new_file relation_set_new_filenode
#define labelam_rel_file_id(rel) (&(rel)->rd_node)
#endif

/*
 * 16: tuple_update says which indexes need new entries (TU_UpdateIndexes,
 * summarizing ones even for HOT updates), and heap_update computes it.
 */
#if PG_VERSION_NUM >= 160000
typedef TU_UpdateIndexes LabelamUpdateIndexes;
#define labelam_heap_update(rel, otid, tup, cid, crosscheck, wait, tmfd, lockmode, upd) \
	heap_update((rel), (otid), (tup), (cid), (crosscheck), (wait), (tmfd), \
				(lockmode), (upd))
#else
typedef bool LabelamUpdateIndexes;
#define labelam_heap_update(rel, otid, tup, cid, crosscheck, wait, tmfd, lockmode, upd) \
	heap_update((rel), (otid), (tup), (cid), (crosscheck), (wait), (tmfd), \
				(lockmode))
#endif

/*
 * 16: RelationGetBufferForTuple can extend by several pages at once (0: as
 * before), and xl_heap_new_cid names a RelFileLocator
 */
#if PG_VERSION_NUM >= 160000
#define labelam_RelationGetBufferForTuple(rel, len, other, options, bistate, vmbuffer, vmbuffer_other) \
	RelationGetBufferForTuple((rel), (len), (other), (options), (bistate), \
							  (vmbuffer), (vmbuffer_other), 0)
#define labelam_xl_new_cid_locator(xlrec) ((xlrec).target_locator)
#else
#define labelam_RelationGetBufferForTuple(rel, len, other, options, bistate, vmbuffer, vmbuffer_other) \
	RelationGetBufferForTuple((rel), (len), (other), (options), (bistate), \
							  (vmbuffer), (vmbuffer_other))
#define labelam_xl_new_cid_locator(xlrec) ((xlrec).target_node)
#endif

/* 16: SMgrRelation's file is an RelFileLocatorBackend */
#if PG_VERSION_NUM >= 160000
#define labelam_smgr_locator(smgr) (&(smgr)->smgr_rlocator.locator)
#else
#define labelam_smgr_locator(smgr) (&(smgr)->smgr_rnode.node)
#endif

/* 16: a page handed to smgr must be aligned for direct I/O */
#if PG_VERSION_NUM >= 160000
typedef PGIOAlignedBlock LabelamIOAlignedBlock;
#else
typedef PGAlignedBlock LabelamIOAlignedBlock;
#endif

/* 17: REFRESH MATERIALIZED VIEW needs MAINTAIN, not ownership */
#if PG_VERSION_NUM >= 170000
#define labelam_RangeVarCallbackForRefresh RangeVarCallbackMaintainsTable
#else
#define labelam_RangeVarCallbackForRefresh RangeVarCallbackOwnsTable
#endif

/* 17: LockHeldByMe can accept a stronger lock */
#if PG_VERSION_NUM >= 170000
#define labelam_LockHeldByMe(tag, mode) LockHeldByMe((tag), (mode), false)
#else
#define labelam_LockHeldByMe(tag, mode) LockHeldByMe((tag), (mode))
#endif

/* 16: the per-class ACL checks became object_aclcheck */
#if PG_VERSION_NUM >= 160000
#define labelam_proc_aclcheck(proc, roleid, mode) \
	object_aclcheck(ProcedureRelationId, (proc), (roleid), (mode))
#else
#define labelam_proc_aclcheck(proc, roleid, mode) \
	pg_proc_aclcheck((proc), (roleid), (mode))
#endif

/* 17: getIdentitySequence takes the relation instead of its OID */
#if PG_VERSION_NUM >= 170000
#define labelam_getIdentitySequence(rel, attnum, missing_ok) \
	getIdentitySequence((rel), (attnum), (missing_ok))
#else
#define labelam_getIdentitySequence(rel, attnum, missing_ok) \
	getIdentitySequence(RelationGetRelid(rel), (attnum), (missing_ok))
#endif

/* 18: index scans take an instrumentation struct (NULL: none) */
#if PG_VERSION_NUM >= 180000
#define labelam_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys))
#else
#define labelam_index_beginscan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), (norderbys))
#endif

/* 16: get_guc_variables returns its length too */
#if PG_VERSION_NUM >= 160000
#define labelam_get_guc_variables(num) get_guc_variables(num)
#else
#define labelam_get_guc_variables(num) \
	(*(num) = GetNumConfigOptions(), get_guc_variables())
#endif

/* 17: the autovacuum process tests were renamed */
#if PG_VERSION_NUM >= 170000
#define labelam_is_autovacuum() \
	(AmAutoVacuumWorkerProcess() || AmAutoVacuumLauncherProcess())
#else
#define labelam_is_autovacuum() \
	(IsAutoVacuumWorkerProcess() || IsAutoVacuumLauncherProcess())
#endif

/*
 * Logical decoding (am/replication): 16 renamed a change's relfilenode and
 * the database field of a RelFileNode; 17 made decoded tuples plain
 * HeapTuples instead of ReorderBufferTupleBufs; 17 gave LogLogicalMessage
 * and pg_logical_emit_message a flush argument.
 */
#if PG_VERSION_NUM >= 160000
#define labelam_change_file(change) ((change)->data.tp.rlocator)
#define labelam_rel_file_db(id) ((id).dbOid)
#define labelam_rel_file_equal(a, b) RelFileLocatorEquals(a, b)
#else
#define labelam_change_file(change) ((change)->data.tp.relnode)
#define labelam_rel_file_db(id) ((id).dbNode)
#define labelam_rel_file_equal(a, b) RelFileNodeEquals(a, b)
#endif
#if PG_VERSION_NUM >= 170000
#define LABELAM_F_EMIT_MESSAGE_TEXT F_PG_LOGICAL_EMIT_MESSAGE_BOOL_TEXT_TEXT_BOOL
#define LABELAM_F_EMIT_MESSAGE_BYTEA F_PG_LOGICAL_EMIT_MESSAGE_BOOL_TEXT_BYTEA_BOOL
#define labelam_change_tuple(t) (t)
#define labelam_LogLogicalMessage(prefix, msg, size, transactional) \
	LogLogicalMessage((prefix), (msg), (size), (transactional), false)
#else
#define LABELAM_F_EMIT_MESSAGE_TEXT F_PG_LOGICAL_EMIT_MESSAGE_BOOL_TEXT_TEXT
#define LABELAM_F_EMIT_MESSAGE_BYTEA F_PG_LOGICAL_EMIT_MESSAGE_BOOL_TEXT_BYTEA
#define labelam_change_tuple(t) ((t) ? &(t)->tuple : (HeapTuple) NULL)
#define labelam_LogLogicalMessage(prefix, msg, size, transactional) \
	LogLogicalMessage((prefix), (msg), (size), (transactional))
#endif

/* 18: pg_noreturn precedes the declaration instead of following it */
/* 16 folded pg_class_ownercheck into object_ownercheck */
#if PG_VERSION_NUM >= 160000
#define labelam_relation_ownercheck(relid, roleid) \
	object_ownercheck(RelationRelationId, (relid), (roleid))
#else
#define labelam_relation_ownercheck(relid, roleid) \
	pg_class_ownercheck((relid), (roleid))
#endif

#if PG_VERSION_NUM >= 180000
#define LABELAM_NORETURN_BEFORE pg_noreturn
#define LABELAM_NORETURN_AFTER
#else
#define LABELAM_NORETURN_BEFORE
#define LABELAM_NORETURN_AFTER pg_attribute_noreturn()
#endif

/* 17: a backend's PGPROC number is MyProcNumber (storage/proc.h before) */
#if PG_VERSION_NUM >= 170000
#define labelam_my_procno() ((int) MyProcNumber)
#else
#define labelam_my_procno() (MyProc->pgprocno)
#endif

/* 17: a virtual transaction id names a PGPROC number, not a backend id */
#if PG_VERSION_NUM >= 170000
#define labelam_set_vxid(vxid, number, lxid) \
	((vxid).procNumber = (number), (vxid).localTransactionId = (lxid))
#else
#define labelam_set_vxid(vxid, number, lxid) \
	((vxid).backendId = (number), (vxid).localTransactionId = (lxid))
#endif

/* 17: the local transaction id moved into PGPROC's vxid */
#if PG_VERSION_NUM >= 170000
#define labelam_my_lxid() (MyProc->vxid.lxid)
#else
#define labelam_my_lxid() (MyProc->lxid)
#endif

#endif							/* LABELAM_PG_COMPAT_H */
