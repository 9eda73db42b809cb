/*-------------------------------------------------------------------------
 *
 * src/files/server_file.h
 *	  A server-side file opened by labelam, decided on what was opened, and
 *	  handed to PostgreSQL by its descriptor's name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef LABELAM_FILES_SERVER_FILE_H
#define LABELAM_FILES_SERVER_FILE_H

#include <sys/stat.h>

#include "avc/provider.h"

typedef struct ServerFile
{
	int			fd;				/* what was decided; -1 when closed */
	const char *path;			/* as the command names it */
	char	   *label;			/* its label, as decided */
	AvcClass	tclass;			/* file, fifo_file, chr_file, blk_file */
	bool		writing;
	/* a file labelam created for this command (removed if it fails) */
	bool		created;
	int			dirfd;			/* its directory, while created */
	char	   *name;			/* its name there */
	struct stat st;				/* what fd is */
	/* "/proc/self/fd/N": the same file, whatever its path names by then */
	char		fdpath[32];
} ServerFile;

/* an empty ServerFile, for server_file_open_* to fill and _close to empty */
extern void server_file_init(ServerFile *file, const char *path);

/*
 * Open path for reading, and require the policy's { read } on the label
 * of what was opened.
 */
extern void server_file_open_read(ServerFile *file);

/*
 * Open path for writing: an existing file needs { write } on its label; a
 * new one is created with the label the policy computes for it (the
 * directory needs { search write add_name } and the new label { create
 * write }), set before anyone can open it.
 */
extern void server_file_open_write(ServerFile *file);

/* ERROR if the file's label changed since it was decided */
extern void server_file_check_label(ServerFile *file);

/*
 * Close it; a file created for a command that failed (ok false) is
 * removed, as if it had never been created.
 */
extern void server_file_close(ServerFile *file, bool ok);

#endif							/* LABELAM_FILES_SERVER_FILE_H */
