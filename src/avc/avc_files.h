/*-------------------------------------------------------------------------
 *
 * src/avc/avc_files.h
 *	  What the avc offers src/files: the labels of server files, decisions
 *	  on them, labels of data at a file's level, and read ceilings.
 *
 * A file's label is its security.selinux attribute, read from the open
 * descriptor (never the path), or the policy's initial context for files
 * when it has none.  Decisions on files are the session's subject's (or a
 * trusted procedure's), cached and audited like decisions on database
 * objects, in contrib/sepgsql's audit format with tclass=file and the
 * file's path as name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_AVC_FILES_H
#define LABELAM_AVC_FILES_H

#include "avc/avc.h"
#include "avc/provider.h"

/*
 * The label of the file open on fd, as the policy in force decides with
 * it (palloc'd): its attribute when the policy knows it, the policy's
 * "unlabeled" when it does not (as the kernel treats an invalid context),
 * the initial SID "file" when there is none.
 */
extern char *avc_file_label(int fd);

/* Label the file open on fd: 0, or the errno of the failure (no ERROR). */
extern int	avc_set_file_label(int fd, const char *label);

/*
 * May the subject do perms (AVC_FILE_* or AVC_DIR_*) on a file of tclass
 * labeled label?  Audited with name (the file's path).  A denial that is
 * enforced is an ERROR 42501 "permission denied to <doing>" (doing: what
 * the command would do, e.g. "read file \"/x\""); the file's label is
 * named only to a subject that may getattr it.
 */
extern void avc_require_file(AvcClass tclass, const char *label, uint32 perms,
							 const char *name, const char *doing);

/*
 * Would a subject like the session's (same user, role and type) at the
 * level of level_of be allowed perms on a file of tclass labeled label?
 * The question of where data may flow: a file's data may go into an object
 * at level L only if a reader at L could read the file.  Not audited
 * (nobody at that level asks).  ERROR 42501 if that subject is no valid
 * label.
 */
extern bool avc_file_allowed_at(const char *level_of, AvcClass tclass,
								const char *label, uint32 perms);

/*
 * label (canonical) at the level of level_of: its user, role and type with
 * the low level of level_of's range, as canonical text (palloc'd).  With a
 * policy without MLS, label itself.  ERROR 22023 if the result is no valid
 * label.  (labels.c)
 */
extern char *avc_label_at_level(const char *label, const char *level_of);

/*
 * The label the policy gives a new file of tclass named name in a
 * directory labeled dir_label, created by the subject (type_transition,
 * name-based ones included; the subject's low level under MLS).
 */
extern char *avc_file_create_label(const char *dir_label, AvcClass tclass,
								   const char *name);

/*
 * Read ceilings.  While a command writes a file labeled level_of (COPY TO
 * a file, lo_export), every decision that lets the subject read data (rows
 * and large objects, tables, columns and sequences, files) must let a
 * subject like it at the file's level read the same data, or the command
 * fails with 42501 naming the file (name) before the data is read: no data
 * goes into a file below its own level.  Pushes and pops nest; callers pop
 * in a PG_FINALLY.
 */
extern void avc_read_ceiling_push(const char *level_of, const char *name);
extern void avc_read_ceiling_pop(void);

/*
 * Is a read ceiling in force?  Parallel workers would decide without it
 * (they take the session's label, not its ceilings): queries started
 * meanwhile run without them (objects/label.c).
 */
extern bool avc_read_ceiling_active(void);

#endif							/* LABELAM_AVC_FILES_H */
