/*-------------------------------------------------------------------------
 *
 * src/avc/avc_objects.h
 *	  What the avc offers src/objects: decisions on database objects named
 *	  by label text, labels of new objects, and trusted procedures' subject.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_OBJECTS_H
#define LABELAM_AVC_OBJECTS_H

#include "avc/avc.h"
#include "avc/provider.h"

extern void avc_decide_object(AvcClass tclass, const char *tcontext,
							  AvcDecision *avd, const char **decided_as);
extern const char *avc_unlabeled_text(void);
extern char *avc_compute_create_text(const char *scontext,
									 const char *tcontext, AvcClass tclass,
									 const char *objname);
extern bool avc_policy_defines(AvcClass tclass, uint32 perm);

/* the subject a trusted procedure replaced, to put back */
typedef struct AvcSubjectSave
{
	char	   *text;
	uint32		lid;
	bool		narrowed;		/* a trusted session's narrowed label */
} AvcSubjectSave;

extern AvcSubjectSave avc_push_subject(const char *label);
extern void avc_pop_subject(AvcSubjectSave save);
extern bool avc_subject_pushed(void);

/* is label text a label of the policy in force? (no ERROR) */
extern bool avc_label_valid(const char *label);

/* the policy's sepgsql_contexts file (table_label.c) */
extern const char *avc_contexts_path(void);

/*
 * The policy's default label of an object (sepgsql_contexts), or NULL;
 * objtype is libselinux's SELABEL_DB_*.
 */
extern char *avc_default_object_label(int objtype, const char *objname);

/* labelam.audit (avc_internal.h's AvcAuditMode) */
extern int	avc_audit_level(void);

#endif							/* LABELAM_AVC_OBJECTS_H */
