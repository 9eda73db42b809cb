/*-------------------------------------------------------------------------
 *
 * src/label_store/label_store.h
 *	  The label dictionary: security label text <-> secid (an Oid).
 *
 * Labels live in the catalog table labelam.pg_security(secid, seclabel),
 * mirrored in a shared-memory hash (both directions) that holds only
 * committed rows.  Secids are never reused.  Label text is stored in the
 * canonical form the policy provider gives it; callers canonicalize (src/avc)
 * before they hand text to label_store, which never calls the policy.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABEL_STORE_H
#define LABEL_STORE_H

#include "access/xact.h"

/*
 * Secid of label text, interning it if new: the dictionary row is inserted
 * by the calling transaction, so a tuple and the row naming its label commit
 * or abort together.  The text must be canonical: the caller canonicalizes
 * it first (src/avc: avc_canonicalize, avc_storable_label); label_store
 * stores what it is given and never asks the policy.  Text that fails
 * label_check: ERROR 22023.  Hot standby: ERROR if new.
 */
extern Oid	label_intern(const char *label);

/*
 * label_intern, saying in *committed whether the label's dictionary row is
 * committed, i.e. whether the answer may be remembered beyond this
 * transaction: for as long as label_store_generation() stays the same (the
 * dictionary may be dropped and created again, with new secids).
 */
extern Oid	label_intern_committed(const char *label, bool *committed);
extern uint64 label_store_generation(void);

/* Secid of canonical label text, or InvalidOid if it is not in the dictionary. */
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
 * ERROR unless the library was preloaded (there is no shared memory
 * otherwise): for SQL-callable functions that use the dictionary.
 */
extern void label_store_require_loaded(void);

/*
 * What every label must be, whatever the policy: non-empty, at most 4096
 * bytes, valid in the server encoding, no control characters.
 * label_check says whether text is (and if not, in *detail, why:
 * untranslated), raising no error, for GUC check hooks; label_validate
 * raises ERROR 22023 quoting the text.
 */
extern bool label_check(const char *label, const char **detail);
extern void label_validate(const char *label);

#endif							/* LABEL_STORE_H */
