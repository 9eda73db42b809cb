/*-------------------------------------------------------------------------
 *
 * src/avc/sepol_load.c
 *	  Loading policy files for the sepol provider (sepol.c), safely.
 *
 * The postmaster loads labelam.policy_file once, so backends start with it
 * (copy-on-write); each backend compares the file's identity (device,
 * inode, size, mtime) with what it loaded at the first decision of a
 * statement and reloads it when it changed.  A new file that cannot be
 * loaded leaves the last policy loaded in force, as the SELinux kernel
 * keeps its policy when load_policy fails: the failure is logged once per
 * backend and file, reported by labelam.policy_info(), and the file is not
 * read again until it changes.  Only the postmaster's first load is fatal:
 * a server never runs without a policy.
 *
 * libsepol's service functions work on one global policydb and SID table.
 * A load reads the new policy into fresh structures and switches only once
 * it loaded completely, so a bad file never leaves a half-loaded policy
 * behind.  libsepol allocates with malloc; that memory is the policy's,
 * for the life of the process.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "avc/sepol_internal.h"

/* conditional.h names a field "bool", which stdbool.h makes a macro */
#undef bool
#include <sepol/policydb/conditional.h>
#define bool _Bool

/*
 * libsepol's messages use printf flags that PostgreSQL's own vsnprintf does
 * not implement ("%#08x"): format them with the C library's.
 */
#undef vsnprintf

SepolPolicy sp_cur;
static uint64 sp_loads = 0;

/*
 * The newest policy file this backend saw but could not load: its identity
 * (so that it is neither read nor logged again until it changes) and why.
 */
typedef struct SepolRejected
{
	bool		valid;
	char	   *path;			/* malloc'd */
	bool		exists;			/* stat() succeeded: identity below */
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec mtime;
	char	   *booleans;		/* labelam.policy_booleans then (malloc'd) */
	char		reason[1024];
	TimestampTz when;
} SepolRejected;

static SepolRejected rejected;

char		sp_msg[512];

static void sp_msg_callback(void *arg, sepol_handle_t *handle,
							const char *fmt,...) pg_attribute_printf(3, 4);

static void
sp_msg_callback(void *arg, sepol_handle_t *handle, const char *fmt,...)
{
	va_list		ap;

	/* keep the first: later ones only say that the caller failed too */
	if (sp_msg[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(sp_msg, sizeof(sp_msg), fmt, ap);
	va_end(ap);
}

static void
sp_route_messages(void)
{
	static bool done = false;

	if (!done)
	{
		sepol_msg_set_callback(&sepol_compat_handle, sp_msg_callback, NULL);
		done = true;
	}
}

/* The identity of a policy file: what tells that it changed. */
typedef struct SepolFileId
{
	uint64		dev;
	uint64		ino;
	int64		size;
	int64		mtime_sec;
	int64		mtime_nsec;
	char		path[MAXPGPATH];
} SepolFileId;

static void
sp_file_id(SepolFileId *id, const char *path, const struct stat *st)
{
	memset(id, 0, sizeof(*id));
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->size = st->st_size;
	id->mtime_sec = st->st_mtim.tv_sec;
	id->mtime_nsec = st->st_mtim.tv_nsec;
	strlcpy(id->path, path, sizeof(id->path));
}

static const char *
sp_booleans_setting(void)
{
	return avc_policy_booleans ? avc_policy_booleans : "";
}

/*
 * labelam.policy_booleans ("name=on,name2=off"): the policy's booleans as
 * an administrator would set them with setsebool, where there is no kernel
 * to set them in.  NULL, or why they cannot be applied (palloc'd).
 */
static char *
sp_apply_booleans(policydb_t *pdb)
{
	char	   *list;
	char	   *item;
	char	   *save = NULL;

	if (sp_booleans_setting()[0] == '\0')
		return NULL;
	list = pstrdup(sp_booleans_setting());
	for (item = strtok_r(list, ", ", &save); item != NULL;
		 item = strtok_r(NULL, ", ", &save))
	{
		char	   *eq = strchr(item, '=');
		cond_bool_datum_t *b;
		bool		on;

		if (eq == NULL || !parse_bool(eq + 1, &on))
			return psprintf("invalid entry \"%s\" in labelam.policy_booleans (write name=on or name=off)", item);
		*eq = '\0';
		b = hashtab_search(pdb->p_bools.table, item);
		if (b == NULL)
			return psprintf("labelam.policy_booleans names \"%s\", which the policy does not have", item);
		b->state = on ? 1 : 0;
	}
	pfree(list);
	if (evaluate_conds(pdb) != 0)
		return pstrdup("could not evaluate the policy's conditional rules");
	return NULL;
}

/*
 * Load a policy image (the bytes of a policy file), known as the file id,
 * into fresh structures.  On failure, report at elevel (ERROR or FATAL) and
 * leave the policy in force untouched.
 */
static void
sp_load_image(char *image, size_t len, const SepolFileId *id, int elevel)
{
	policydb_t *pdb;
	sidtab_t   *sidtab;
	policy_file_t pf;
	SepolPolicy next;
	int			c;

	pdb = malloc(sizeof(policydb_t));
	sidtab = malloc(sizeof(sidtab_t));
	if (pdb == NULL || sidtab == NULL || policydb_init(pdb) != 0)
	{
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory loading SELinux policy file \"%s\"", id->path)));
	}

	policy_file_init(&pf);
	pf.type = PF_USE_MEMORY;
	pf.data = image;
	pf.len = len;
	pf.handle = &sepol_compat_handle;
	sp_msg[0] = '\0';
	if (policydb_read(pdb, &pf, 0) != 0)
	{
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not load SELinux policy file \"%s\"", id->path),
				 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0,
				 errhint("labelam.policy_file must name a binary (kernel) SELinux policy such as /etc/selinux/default/policy/policy.33.")));
	}

	{
		char	   *why = sp_apply_booleans(pdb);

		if (why != NULL)
		{
			policydb_destroy(pdb);
			free(pdb);
			free(sidtab);
			ereport(elevel,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("could not load SELinux policy file \"%s\"", id->path),
					 errdetail("%s", why)));
		}
	}

	if (sepol_sidtab_init(sidtab) != 0 || policydb_load_isids(pdb, sidtab) != 0)
	{
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not load SELinux policy file \"%s\"", id->path),
				 errdetail("The policy's initial security identifiers are invalid.")));
	}

	/* Loaded: switch libsepol over, then map our classes and permissions. */
	memset(&next, 0, sizeof(next));
	next.pdb = pdb;
	next.sidtab = sidtab;
	next.path = strdup(id->path);
	next.dev = id->dev;
	next.ino = id->ino;
	next.size = id->size;
	next.mtime.tv_sec = id->mtime_sec;
	next.mtime.tv_nsec = id->mtime_nsec;
	next.booleans = strdup(sp_booleans_setting());
	next.seqno = ++sp_loads;
	if (next.path == NULL || next.booleans == NULL)
	{
		sepol_sidtab_destroy(sidtab);
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		free(next.path);
		free(next.booleans);
		ereport(elevel,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory loading SELinux policy file \"%s\"", id->path)));
	}
	/* two independent 64-bit hashes of the bytes, each mixed with the booleans */
	next.content_id[0] = hash_bytes_extended((unsigned char *) image, (int) len, 0) ^
		hash_bytes_extended((unsigned char *) next.booleans, strlen(next.booleans), 2);
	next.content_id[1] = hash_bytes_extended((unsigned char *) image, (int) len, 1) ^
		hash_bytes_extended((unsigned char *) next.booleans, strlen(next.booleans), 3);

	sepol_set_policydb(pdb);
	sepol_set_sidtab(sidtab);

	for (c = 0; c < AVC_NUM_CLASSES; c++)
	{
		const char *const *names = avc_perm_names[c];
		int			b;

		/* A class or permission the policy lacks stays 0: never allowed. */
		if (sepol_string_to_security_class(avc_class_names[c], &next.tclass[c]) != 0)
		{
			next.tclass[c] = 0;
			/* a policy without database objects is worth a word only once */
			ereport(c == AVC_CLASS_DB_TUPLE || c == AVC_CLASS_PROCESS ||
					c == AVC_CLASS_DB_TABLE ? WARNING : DEBUG1,
					(errmsg("SELinux policy \"%s\" has no class \"%s\"; labelam denies every permission of it",
							id->path, avc_class_names[c])));
			continue;
		}
		for (b = 0; names[b] != NULL; b++)
		{
			if (sepol_string_to_av_perm(next.tclass[c], names[b], &next.perm[c][b]) != 0)
				next.perm[c][b] = 0;
		}
	}

	if (sp_cur.pdb)
	{
		sepol_sidtab_destroy(sp_cur.sidtab);
		free(sp_cur.sidtab);
		policydb_destroy(sp_cur.pdb);
		free(sp_cur.pdb);
		free(sp_cur.path);
		free(sp_cur.booleans);
	}
	sp_cur = next;
}

/*
 * The last good policy.  Backends start with the policy the postmaster
 * loaded at start-up and load newer files themselves.  When a newer file
 * cannot be loaded, a backend keeps what it has; but a backend started
 * after the file was broken has only the start-up policy, which may be
 * older than what the others decide with.  So every backend that loads a
 * policy file saves its bytes, with the file's identity, in the data
 * directory (SP_LAST_GOOD); a backend that cannot load the file falls back
 * to that copy when it is newer than its own policy.  Copies from before
 * the server started are ignored: the start-up policy is newer.
 */
#define SP_LAST_GOOD		"labelam_last_good_policy"
#define SP_LAST_GOOD_MAGIC	"labelam policy 1"

typedef struct SepolLastGoodHeader
{
	char		magic[16];
	SepolFileId id;
} SepolLastGoodHeader;

static void
sp_save_last_good(const char *image, size_t len, const SepolFileId *id)
{
	SepolLastGoodHeader hdr;
	char		path[MAXPGPATH];
	char		tmp[MAXPGPATH];
	FILE	   *fp;
	bool		ok;

	/* already there (another backend saved it)? */
	snprintf(path, sizeof(path), "%s/%s", DataDir, SP_LAST_GOOD);
	fp = fopen(path, "rb");
	if (fp != NULL)
	{
		ok = fread(&hdr, sizeof(hdr), 1, fp) == 1 &&
			memcmp(hdr.magic, SP_LAST_GOOD_MAGIC, sizeof(hdr.magic)) == 0 &&
			memcmp(&hdr.id, id, sizeof(*id)) == 0;
		fclose(fp);
		if (ok)
			return;
	}

	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic, SP_LAST_GOOD_MAGIC, sizeof(hdr.magic));
	hdr.id = *id;
	snprintf(tmp, sizeof(tmp), "%s/%s.%d.tmp", DataDir, SP_LAST_GOOD, MyProcPid);
	fp = fopen(tmp, "wb");
	ok = fp != NULL &&
		fwrite(&hdr, sizeof(hdr), 1, fp) == 1 &&
		fwrite(image, 1, len, fp) == len;
	if (fp != NULL && fclose(fp) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0)
	{
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("labelam: could not save the last good SELinux policy as \"%s\": %m",
						path)));
		unlink(tmp);
	}
}

/* Read a whole file (malloc'd); NULL with errno set on failure. */
static char *
sp_read_file(FILE *fp, size_t len)
{
	char	   *buf = malloc(Max(len, 1));

	if (buf == NULL)
	{
		errno = ENOMEM;
		return NULL;
	}
	if (len > 0 && fread(buf, 1, len, fp) != len)
	{
		int			save_errno = ferror(fp) ? errno : EIO;

		free(buf);
		errno = save_errno;
		return NULL;
	}
	return buf;
}

/*
 * Fall back to the last good policy saved by any backend, if it is newer
 * than the one in force here.  Returns whether it was loaded.
 */
static bool
sp_load_last_good(void)
{
	char		path[MAXPGPATH];
	SepolLastGoodHeader hdr;
	struct stat st;
	FILE	   *fp;
	char	   *image;
	bool		loaded = false;
	MemoryContext oldcxt = CurrentMemoryContext;
	ErrorData  *edata;

	snprintf(path, sizeof(path), "%s/%s", DataDir, SP_LAST_GOOD);
	fp = fopen(path, "rb");
	if (fp == NULL)
		return false;
	if (fstat(fileno(fp), &st) != 0 ||
		st.st_mtime < timestamptz_to_time_t(PgStartTime) ||
		(size_t) st.st_size < sizeof(hdr) ||
		fread(&hdr, sizeof(hdr), 1, fp) != 1 ||
		memcmp(hdr.magic, SP_LAST_GOOD_MAGIC, sizeof(hdr.magic)) != 0 ||
		hdr.id.path[sizeof(hdr.id.path) - 1] != '\0' ||
		(hdr.id.dev == sp_cur.dev && hdr.id.ino == sp_cur.ino &&
		 hdr.id.size == sp_cur.size && hdr.id.mtime_sec == sp_cur.mtime.tv_sec &&
		 hdr.id.mtime_nsec == sp_cur.mtime.tv_nsec))
	{
		fclose(fp);
		return false;
	}
	image = sp_read_file(fp, st.st_size - sizeof(hdr));
	fclose(fp);
	if (image == NULL)
		return false;

	PG_TRY();
	{
		sp_load_image(image, st.st_size - sizeof(hdr), &hdr.id, ERROR);
		loaded = true;
	}
	PG_CATCH();
	{
		/* as in sp_try_reload: nothing is left behind */
		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		ereport(LOG_SERVER_ONLY,
				(errmsg("labelam: could not load the last good SELinux policy \"%s\": %s",
						path, edata->message)));
		FreeErrorData(edata);
	}
	PG_END_TRY();
	free(image);
	if (loaded)
		ereport(LOG_SERVER_ONLY,
				(errmsg("labelam: loaded the last good SELinux policy instead: \"%s\" as a backend loaded it before it was replaced (policy %llu)",
						hdr.id.path, (unsigned long long) sp_cur.seqno)));
	return loaded;
}

/*
 * Read the policy at path into fresh structures.  On failure, report at
 * elevel (ERROR or FATAL) and leave the policy in force untouched.
 */
void
sp_load(const char *path, int elevel)
{
	FILE	   *fp;
	struct stat st;
	char	   *image;
	SepolFileId id;

	sp_route_messages();
	if (path == NULL || path[0] == '\0')
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("labelam.policy_file is not set"),
				 errhint("Set labelam.policy_file to a binary SELinux policy, e.g. /etc/selinux/default/policy/policy.33 (package selinux-policy-default).")));

	fp = fopen(path, "rb");
	if (fp == NULL)
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not open SELinux policy file \"%s\": %m", path),
				 errhint("Set labelam.policy_file to a binary SELinux policy, e.g. /etc/selinux/default/policy/policy.33 (package selinux-policy-default).")));
	if (fstat(fileno(fp), &st) != 0 ||
		(image = sp_read_file(fp, st.st_size)) == NULL)
	{
		int			save_errno = errno;

		fclose(fp);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not read SELinux policy file \"%s\": %m", path)));
	}
	fclose(fp);

	sp_file_id(&id, path, &st);
	PG_TRY();
	{
		sp_load_image(image, st.st_size, &id, elevel);
		/* not the postmaster's start-up load: that one is the default */
		if (IsUnderPostmaster)
			sp_save_last_good(image, st.st_size, &id);
	}
	PG_FINALLY();
	{
		free(image);
	}
	PG_END_TRY();
}

void
sp_startup(void)
{
	sp_load(avc_policy_file, FATAL);
}

/*
 * Is the file at path, as stat() saw it (exists: whether stat succeeded),
 * the one rejected last?
 */
static bool
sp_is_rejected(const char *path, bool exists, const struct stat *st)
{
	if (!rejected.valid || strcmp(path, rejected.path) != 0 ||
		exists != rejected.exists ||
		strcmp(sp_booleans_setting(), rejected.booleans ? rejected.booleans : "") != 0)
		return false;
	if (!exists)
		return true;
	return st->st_dev == rejected.dev && st->st_ino == rejected.ino &&
		st->st_size == rejected.size &&
		st->st_mtim.tv_sec == rejected.mtime.tv_sec &&
		st->st_mtim.tv_nsec == rejected.mtime.tv_nsec;
}

/*
 * Try to load the policy at path.  On failure keep the policy in force,
 * remember the file as rejected and log why, once.
 */
static void
sp_try_reload(const char *path, bool exists, const struct stat *st)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ErrorData  *edata;

	/*
	 * sp_load leaves nothing behind when it fails (its ERRORs come before
	 * the switch, with its files closed and its memory freed), so its
	 * error can be caught and turned into a log line without a
	 * subtransaction.
	 */
	PG_TRY();
	{
		sp_load(path, ERROR);
		if (rejected.valid)
			ereport(LOG,
					(errmsg("labelam: loaded SELinux policy file \"%s\" (policy %llu); the file rejected before is superseded",
							path, (unsigned long long) sp_cur.seqno)));
		rejected.valid = false;
		return;
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();

	free(rejected.path);
	free(rejected.booleans);
	rejected.path = strdup(path);
	rejected.booleans = strdup(sp_booleans_setting());
	rejected.valid = rejected.path != NULL;
	rejected.exists = exists;
	if (exists)
	{
		rejected.dev = st->st_dev;
		rejected.ino = st->st_ino;
		rejected.size = st->st_size;
		rejected.mtime = st->st_mtim;
	}
	snprintf(rejected.reason, sizeof(rejected.reason), "%s%s%s",
			 edata->message,
			 edata->detail ? ": " : "", edata->detail ? edata->detail : "");
	rejected.when = GetCurrentTimestamp();
	/* for the administrator, not the session's client */
	ereport(LOG_SERVER_ONLY,
			(errcode(ERRCODE_CONFIG_FILE_ERROR),
			 errmsg("labelam: could not load the new SELinux policy; still deciding with \"%s\" (policy %llu)",
					sp_cur.path, (unsigned long long) sp_cur.seqno),
			 errdetail("%s", rejected.reason),
			 errhint("Fix or replace the policy file; it is loaded again once it changes. labelam.policy_info() shows the rejection.")));
	FreeErrorData(edata);

	/* a newer policy than ours that another backend loaded, if any */
	(void) sp_load_last_good();
}

/*
 * Reload when labelam.policy_file names another file or the file changed,
 * unless that file is the one rejected last.
 */
uint64
sp_policy_seqno(void)
{
	struct stat st;
	const char *path = avc_policy_file ? avc_policy_file : "";
	bool		exists;

	if (sp_cur.pdb == NULL)
		elog(ERROR, "labelam: no SELinux policy loaded");
	exists = (stat(path, &st) == 0);
	if (exists && strcmp(path, sp_cur.path) == 0 &&
		strcmp(sp_booleans_setting(), sp_cur.booleans ? sp_cur.booleans : "") == 0 &&
		st.st_dev == sp_cur.dev && st.st_ino == sp_cur.ino &&
		st.st_size == sp_cur.size &&
		st.st_mtim.tv_sec == sp_cur.mtime.tv_sec &&
		st.st_mtim.tv_nsec == sp_cur.mtime.tv_nsec)
	{
		/* the policy in force is the file's (again) */
		rejected.valid = false;
		return sp_cur.seqno;
	}
	if (!sp_is_rejected(path, exists, &st))
		sp_try_reload(path, exists, &st);
	return sp_cur.seqno;
}

const char *
sp_policy_rejected(TimestampTz *when)
{
	if (!rejected.valid)
		return NULL;
	*when = rejected.when;
	return rejected.reason;
}

