/*-------------------------------------------------------------------------
 *
 * src/label_store/label_store_int.h
 *	  Declarations shared by the files of the label dictionary; nothing
 *	  outside src/label_store includes this.
 *
 * dict.c		public API (label_intern and friends), the transaction's
 *				not-yet-committed labels
 * check.c		what any label text must be (label_check, label_validate)
 * catalog.c	labelam.pg_security: finding it, reading it, inserting into it
 * shmem.c		the shared-memory hash of committed labels
 * sql.c		SQL-callable functions
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABEL_STORE_INT_H
#define LABEL_STORE_INT_H

#include "storage/itemptr.h"

/* longest label text, in bytes, without the terminating zero */
#define LABEL_MAX_LEN		4096

/*
 * The relations making up one database's dictionary.  relid also names the
 * dictionary in shared memory (with the database's Oid): a dictionary
 * dropped together with its extension and created again is a new one.
 */
typedef struct LabelDict
{
	Oid			relid;			/* labelam.pg_security */
	Oid			secid_index;	/* its primary key, on secid */
	Oid			label_index;	/* hash index enforcing unique seclabel */
	Oid			seqid;			/* labelam.pg_security_secid_seq */
} LabelDict;

/* catalog.c */
extern bool label_dict_get(LabelDict *dict);
extern uint64 label_dict_generation;
extern char *label_catalog_text(const LabelDict *dict, Oid secid,
								bool *committed);
extern Oid	label_catalog_secid(const LabelDict *dict, const char *label,
								bool *committed);
extern Oid	label_catalog_intern(const LabelDict *dict, const char *label,
								 bool *created, bool *committed);

/* shmem.c */
extern bool label_shmem_attached(void);
extern int	label_max_labels;
extern char *label_shmem_text(Oid dictid, Oid secid);
extern Oid	label_shmem_secid(Oid dictid, const char *label, uint32 len);
extern void label_shmem_publish(Oid dictid, Oid secid, const char *label);
extern void label_shmem_stats(int64 *nids, int64 *ntexts,
							  int64 *text_bytes, int64 *text_bytes_max,
							  int64 *shmem_bytes);

#endif							/* LABEL_STORE_INT_H */
