/*-------------------------------------------------------------------------
 *
 * src/avc/sepol_internal.h
 *	  Declarations shared by the two files of the sepol provider: sepol.c
 *	  (decisions) and sepol_load.c (loading policy files).
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_SEPOL_INTERNAL_H
#define LABELAM_AVC_SEPOL_INTERNAL_H

#include <sys/stat.h>

#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>

#include "avc/provider.h"

/*
 * libsepol's handle for its service functions; declared in a private
 * header of libsepol, but a global data symbol of libsepol.a.  We only
 * take its address, to route the library's messages into our errdetail.
 */
extern struct sepol_handle sepol_compat_handle;

typedef struct SepolPolicy
{
	policydb_t *pdb;
	sidtab_t   *sidtab;
	char	   *path;			/* malloc'd */
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec mtime;
	char	   *booleans;		/* labelam.policy_booleans applied (malloc'd) */
	uint64		seqno;
	/*
	 * What the policy is, whoever loaded it: hashes of the file's bytes and
	 * of the booleans applied (sepol_shared.c keys shared decisions by it)
	 */
	uint64		content_id[2];
	/* class values and permission bits, per labelam class and bit */
	sepol_security_class_t tclass[AVC_NUM_CLASSES];
	sepol_access_vector_t perm[AVC_NUM_CLASSES][AVC_MAX_PERMS];
} SepolPolicy;

/* the policy in force (sepol_load.c) */
extern SepolPolicy sp_cur;

/* last message libsepol gave, for errdetail (sepol_load.c) */
extern char sp_msg[512];

/* sepol_load.c */
extern void sp_startup(void);
extern void sp_load(const char *path, int elevel);
extern uint64 sp_policy_seqno(void);
extern const char *sp_policy_rejected(TimestampTz *when);

/* sepol_shared.c: decisions shared by every backend */
extern bool sp_shared_lookup(const char *scon, const char *tcon,
							 AvcClass tclass, AvcDecision *avd);
extern void sp_shared_store(const char *scon, const char *tcon,
							AvcClass tclass, const AvcDecision *avd);

#endif							/* LABELAM_AVC_SEPOL_INTERNAL_H */
