/*-------------------------------------------------------------------------
 *
 * src/label_store/label_store.h
 *	  The label dictionary: security label text <-> secid (an Oid).
 *
 * Labels live in the catalog table labelam.pg_security(secid, seclabel),
 * mirrored in a shared-memory hash (both directions) that holds only
 * committed rows.  Secids are never reused.  Label text is stored in the
 * canonical form the policy provider gives it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABEL_STORE_H
#define LABEL_STORE_H

#include "access/xact.h"

/*
 * Secid of label text, interning it if new: the dictionary row is inserted
 * by the calling transaction, so a tuple and the row naming its label commit
 * or abort together.  Bad text: ERROR 22023.  Hot standby: ERROR if new.
 */
extern Oid	label_intern(const char *label);

/* Secid of label text, or InvalidOid if it is not in the dictionary. */
extern Oid	label_lookup(const char *label);

/*
 * Text of a secid (palloc'd in the current memory context), or NULL if no
 * such secid exists (visible to this transaction).
 */
extern char *label_text(Oid secid);

/* Registers GUCs; called from _PG_init. */
extern void label_store_init(void);

/* called by src/hooks.c: shared memory, transaction ends */
extern void label_shmem_request(void);
extern void label_shmem_startup(void);
extern void label_store_xact(XactEvent event);
extern void label_store_subxact(SubXactEvent event, SubTransactionId mySubid,
								SubTransactionId parentSubid);

/*
 * Canonical form of label text, palloc'd.  The text is first checked
 * (non-empty, at most 4096 bytes, valid in the server encoding, no control
 * characters), then handed to label_canonicalize_hook if a policy provider
 * set one.  Bad text: ERROR 22023 quoting it.  label_intern calls this.
 */
extern char *label_canonicalize(const char *label);

/*
 * Where the active policy provider plugs in its canonicalize(): given text
 * that passed the checks above, return its canonical form (palloc'd) or
 * raise ERROR 22023.  NULL (the default) keeps the text as it is.
 */
typedef char *(*label_canonicalize_hook_type) (const char *label);
extern PGDLLIMPORT label_canonicalize_hook_type label_canonicalize_hook;

/*
 * Secid of the session insert label (labelam.insert_label), interning it
 * if new; InvalidOid if the setting is empty, i.e. the policy chooses.
 */
extern Oid	label_insert_secid(void);

/*
 * Secid of labelam.update_label (interning it), InvalidOid if empty: the
 * label rows updated by this session get.
 */
extern Oid	label_update_secid(void);

#endif							/* LABEL_STORE_H */
