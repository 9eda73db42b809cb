/*-------------------------------------------------------------------------
 *
 * src/files/server_file.c
 *	  Opening a server-side file for a command, and deciding on what was
 *	  opened.
 *
 * PostgreSQL opens the files of COPY, lo_import and lo_export by path, so
 * a check of the path before it opens could be about another file than
 * the one it reads or writes: a symlink or a rename between the check and
 * the open swaps it.  labelam opens the file itself, reads the label of
 * the open descriptor (fgetxattr, through the provider), decides, and
 * hands PostgreSQL "/proc/self/fd/N" instead of the path: opening that
 * name opens the very file the descriptor holds (Linux follows the
 * descriptor, not a path), so PostgreSQL reads or writes what was decided,
 * whatever the path names by then.
 *
 * Reading a file needs the policy's { read } on its label.  Writing an
 * existing one needs { write }.  A file that does not exist is created
 * here: the directory (opened, then decided on its descriptor) needs
 * { search write add_name }; the new file gets the label the policy
 * computes for the subject in that directory (type_transition, with the
 * file's name; under MLS the subject's low level), which needs { create
 * write }; it is created with mode 0 and exclusively (O_EXCL, so never
 * through a symlink), labeled with the provider's fsetxattr, and only then
 * given PostgreSQL's mode for such files (0644).  If it cannot be labeled
 * it is removed and the command fails: a file that the policy says is at
 * the session's level must not be left at the level of unlabeled files.
 * A created file whose command fails is removed too.
 *
 * The classes are the kernel's, by what the descriptor is: file,
 * fifo_file, chr_file, blk_file (a directory is refused, as PostgreSQL
 * refuses it).  Descriptors are opened without blocking (a FIFO to read
 * from is opened at once; PostgreSQL's own open of it waits for a
 * writer), and counted with fd.c's external descriptors.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <unistd.h>

#include "storage/fd.h"

#include "avc/avc_files.h"
#include "files/server_file.h"

/* the mode PostgreSQL gives the files COPY TO and lo_export create */
#define SERVER_FILE_MODE	(S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH)

void
server_file_init(ServerFile *file, const char *path)
{
	memset(file, 0, sizeof(*file));
	file->fd = -1;
	file->dirfd = -1;
	file->path = path;
}

static int
open_counted(int dirfd, const char *path, int flags, mode_t mode)
{
	int			fd;

	ReserveExternalFD();
	fd = openat(dirfd, path, flags | O_CLOEXEC | O_NOCTTY, mode);
	if (fd < 0)
	{
		int			save_errno = errno;

		ReleaseExternalFD();
		errno = save_errno;
	}
	return fd;
}

static void
close_counted(int *fd)
{
	if (*fd >= 0)
	{
		close(*fd);
		ReleaseExternalFD();
		*fd = -1;
	}
}

/* what fd is, its class and label, once it is open */
static void
describe(ServerFile *file)
{
	if (fstat(file->fd, &file->st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", file->path)));
	if (S_ISDIR(file->st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a directory", file->path)));
	if (S_ISFIFO(file->st.st_mode))
		file->tclass = AVC_CLASS_FIFO_FILE;
	else if (S_ISCHR(file->st.st_mode))
		file->tclass = AVC_CLASS_CHR_FILE;
	else if (S_ISBLK(file->st.st_mode))
		file->tclass = AVC_CLASS_BLK_FILE;
	else
		file->tclass = AVC_CLASS_FILE;
	file->label = avc_file_label(file->fd);
	snprintf(file->fdpath, sizeof(file->fdpath), "/proc/self/fd/%d",
			 file->fd);
}

void
server_file_open_read(ServerFile *file)
{
	file->fd = open_counted(AT_FDCWD, file->path, O_RDONLY | O_NONBLOCK, 0);
	if (file->fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for reading: %m",
						file->path)));
	describe(file);
	avc_require_file(file->tclass, file->label, AVC_FILE_READ, file->path,
					 psprintf("read file \"%s\"", file->path));
}

/* create file->path, labeled as the policy says, and open it */
static void
create_labeled(ServerFile *file)
{
	const char *slash = strrchr(file->path, '/');
	char	   *dir;
	char	   *dir_label;
	char	   *label;
	int			err;

	/* (lo_export takes a path relative to the data directory too) */
	if (slash == NULL)
	{
		dir = pstrdup(".");
		file->name = pstrdup(file->path);
	}
	else
	{
		dir = slash == file->path ? pstrdup("/") :
			pnstrdup(file->path, slash - file->path);
		file->name = pstrdup(slash + 1);
	}

	file->dirfd = open_counted(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, 0);
	if (file->dirfd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for writing: %m",
						file->path)));
	dir_label = avc_file_label(file->dirfd);
	avc_require_file(AVC_CLASS_DIR, dir_label,
					 AVC_DIR_SEARCH | AVC_DIR_WRITE | AVC_DIR_ADD_NAME, dir,
					 psprintf("create file \"%s\"", file->path));
	label = avc_file_create_label(dir_label, AVC_CLASS_FILE, file->name);
	avc_require_file(AVC_CLASS_FILE, label, AVC_FILE_CREATE | AVC_FILE_WRITE,
					 file->path, psprintf("create file \"%s\"", file->path));

	/* nobody may open it before it carries its label */
	file->fd = open_counted(file->dirfd, file->name,
							O_WRONLY | O_CREAT | O_EXCL, 0);
	if (file->fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for writing: %m",
						file->path)));
	file->created = true;
	if (fstat(file->fd, &file->st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", file->path)));
	err = avc_set_file_label(file->fd, label);
	if (err != 0)
	{
		errno = err;
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("could not label new file \"%s\": %m", file->path),
				 errdetail("A file created for the command must carry the label the security policy gives it, \"%s\".",
						   label),
				 errhint("Create the file beforehand with its label (setfattr -n security.selinux), or let the server's operating system user set security.selinux on the files it owns.")));
	}
	if (fchmod(file->fd, SERVER_FILE_MODE) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not change the mode of file \"%s\": %m",
						file->path)));
	describe(file);
	/* read back: what the command writes into is what was decided */
	if (strcmp(file->label, label) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("new file \"%s\" does not keep its label", file->path),
				 errdetail("It was labeled \"%s\" and reads as \"%s\".",
						   label, file->label)));
	pfree(dir);
	pfree(dir_label);
}

void
server_file_open_write(ServerFile *file)
{
	file->writing = true;
	/* not O_TRUNC: nothing changes before the label is decided */
	file->fd = open_counted(AT_FDCWD, file->path, O_WRONLY, 0);
	if (file->fd < 0 && errno == ENOENT)
	{
		create_labeled(file);
		return;
	}
	if (file->fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for writing: %m",
						file->path)));
	describe(file);
	avc_require_file(file->tclass, file->label, AVC_FILE_WRITE, file->path,
					 psprintf("write to file \"%s\"", file->path));
}

void
server_file_check_label(ServerFile *file)
{
	char	   *now = avc_file_label(file->fd);

	if (strcmp(now, file->label) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("file \"%s\" was relabeled while it was %s",
						file->path, file->writing ? "written" : "read"),
				 errdetail("It was labeled \"%s\" when it was decided on; the command cannot stand for data at another level.",
						   file->label)));
	pfree(now);
}

void
server_file_close(ServerFile *file, bool ok)
{
	/*
	 * A file created for a failed command goes, if its name still names
	 * it (no one else may have replaced it: it is the server's, mode 0644).
	 */
	if (file->created && !ok && file->dirfd >= 0)
	{
		struct stat now;

		if (fstatat(file->dirfd, file->name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
			now.st_dev == file->st.st_dev && now.st_ino == file->st.st_ino &&
			unlinkat(file->dirfd, file->name, 0) != 0)
			ereport(WARNING,
					(errcode_for_file_access(),
					 errmsg("could not remove file \"%s\": %m", file->path)));
	}
	close_counted(&file->fd);
	close_counted(&file->dirfd);
}
