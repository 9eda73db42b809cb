/*-------------------------------------------------------------------------
 *
 * src/avc/sepol.c
 *	  Policy provider "sepol": a binary SELinux policy file evaluated in
 *	  user space with libsepol.
 *
 * This makes SELinux policy enforceable where the kernel does not run
 * SELinux.  The postmaster loads labelam.policy_file once, so backends
 * start with it (copy-on-write); each backend compares the file's identity
 * (device, inode, size, mtime) with what it loaded at the first decision of
 * a statement and reloads it when it changed.  A file that cannot be loaded
 * is an ERROR at every such statement (fail closed) until it is fixed.
 *
 * libsepol's service functions work on one global policydb and SID table.
 * A reload reads the new policy into fresh structures and switches only
 * once it loaded completely, so a bad file never leaves a half-loaded
 * policy behind.  libsepol allocates with malloc; that memory is the
 * policy's, for the life of the process.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb/policydb.h>
/* conditional.h names a field "bool", which stdbool.h makes a macro */
#undef bool
#include <sepol/policydb/conditional.h>
#define bool _Bool
#include <sepol/policydb/services.h>
#include <sepol/policydb/sidtab.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "port/pg_bitutils.h"

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
	/* class values and permission bits, per labelam class and bit */
	sepol_security_class_t tclass[AVC_NUM_CLASSES];
	sepol_access_vector_t perm[AVC_NUM_CLASSES][AVC_MAX_PERMS];
} SepolPolicy;

/*
 * libsepol's messages use printf flags that PostgreSQL's own vsnprintf does
 * not implement ("%#08x"): format them with the C library's.
 */
#undef vsnprintf

static SepolPolicy cur;

static bool sp_apply_booleans(policydb_t *pdb, const char *path, int elevel);
static uint64 sp_loads = 0;

/*
 * Context text -> SID, for the policy in force.  libsepol parses a context
 * anew on every sepol_context_to_sid (about as costly as the decision
 * itself), and the decision cache's misses ask about the same few labels
 * over and over.  Bounded; emptied on reload, as SIDs belong to a sidtab.
 */
#define SP_SIDCACHE_KEYLEN	256
#define SP_SIDCACHE_MAX		4096

typedef struct SpSidEntry
{
	char		context[SP_SIDCACHE_KEYLEN];
	sepol_security_id_t sid;
} SpSidEntry;

static HTAB *sp_sidcache = NULL;

static void
sp_sidcache_reset(void)
{
	if (sp_sidcache != NULL)
		hash_destroy(sp_sidcache);
	sp_sidcache = NULL;
}

/* last message libsepol gave, for errdetail */
static char sp_msg[512];

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

/*
 * Read the policy at path into fresh structures.  On failure, report at
 * elevel (ERROR or FATAL) and leave the policy in force untouched.
 */
static void
sp_load(const char *path, int elevel)
{
	FILE	   *fp;
	struct stat st;
	policydb_t *pdb;
	sidtab_t   *sidtab;
	policy_file_t pf;
	SepolPolicy next;
	int			c;

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
	if (fstat(fileno(fp), &st) != 0)
	{
		int			save_errno = errno;

		fclose(fp);
		errno = save_errno;
		ereport(elevel,
				(errcode_for_file_access(),
				 errmsg("could not stat SELinux policy file \"%s\": %m", path)));
	}

	pdb = malloc(sizeof(policydb_t));
	sidtab = malloc(sizeof(sidtab_t));
	if (pdb == NULL || sidtab == NULL || policydb_init(pdb) != 0)
	{
		fclose(fp);
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory loading SELinux policy file \"%s\"", path)));
	}

	policy_file_init(&pf);
	pf.type = PF_USE_STDIO;
	pf.fp = fp;
	pf.handle = &sepol_compat_handle;
	sp_msg[0] = '\0';
	if (policydb_read(pdb, &pf, 0) != 0)
	{
		fclose(fp);
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not load SELinux policy file \"%s\"", path),
				 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0,
				 errhint("labelam.policy_file must name a binary (kernel) SELinux policy such as /etc/selinux/default/policy/policy.33.")));
	}
	fclose(fp);

	if (!sp_apply_booleans(pdb, path, elevel))
	{
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		return;
	}

	if (sepol_sidtab_init(sidtab) != 0 || policydb_load_isids(pdb, sidtab) != 0)
	{
		policydb_destroy(pdb);
		free(pdb);
		free(sidtab);
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not load SELinux policy file \"%s\"", path),
				 errdetail("The policy's initial security identifiers are invalid.")));
	}

	/* Loaded: switch libsepol over, then map our classes and permissions. */
	memset(&next, 0, sizeof(next));
	next.pdb = pdb;
	next.sidtab = sidtab;
	next.path = strdup(path);
	next.dev = st.st_dev;
	next.ino = st.st_ino;
	next.size = st.st_size;
	next.mtime = st.st_mtim;
	next.booleans = strdup(avc_policy_booleans ? avc_policy_booleans : "");
	next.seqno = ++sp_loads;

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
							path, avc_class_names[c])));
			continue;
		}
		for (b = 0; names[b] != NULL; b++)
		{
			if (sepol_string_to_av_perm(next.tclass[c], names[b], &next.perm[c][b]) != 0)
				next.perm[c][b] = 0;
		}
	}

	sp_sidcache_reset();
	if (cur.pdb)
	{
		sepol_sidtab_destroy(cur.sidtab);
		free(cur.sidtab);
		policydb_destroy(cur.pdb);
		free(cur.pdb);
		free(cur.path);
		free(cur.booleans);
	}
	cur = next;
}

/*
 * labelam.policy_booleans ("name=on,name2=off"): the policy's booleans as
 * an administrator would set them with setsebool, where there is no kernel
 * to set them in.  false (after reporting at elevel) if one is unknown or
 * malformed.
 */
static bool
sp_apply_booleans(policydb_t *pdb, const char *path, int elevel)
{
	char	   *list;
	char	   *item;
	char	   *save = NULL;

	if (avc_policy_booleans == NULL || avc_policy_booleans[0] == '\0')
		return true;
	list = pstrdup(avc_policy_booleans);
	for (item = strtok_r(list, ", ", &save); item != NULL;
		 item = strtok_r(NULL, ", ", &save))
	{
		char	   *eq = strchr(item, '=');
		cond_bool_datum_t *b;
		bool		on;

		if (eq == NULL || !parse_bool(eq + 1, &on))
		{
			ereport(elevel,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid entry \"%s\" in labelam.policy_booleans", item),
					 errhint("Write name=on or name=off, separated by commas.")));
			return false;
		}
		*eq = '\0';
		b = hashtab_search(pdb->p_bools.table, item);
		if (b == NULL)
		{
			ereport(elevel,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("SELinux policy \"%s\" has no boolean \"%s\"", path, item)));
			return false;
		}
		b->state = on ? 1 : 0;
	}
	pfree(list);
	if (evaluate_conds(pdb) != 0)
	{
		ereport(elevel,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not evaluate the conditional rules of SELinux policy \"%s\"", path)));
		return false;
	}
	return true;
}

static void
sp_startup(void)
{
	sp_load(avc_policy_file, FATAL);
}

/* Reload when labelam.policy_file names another file or the file changed. */
static uint64
sp_policy_seqno(void)
{
	struct stat st;
	const char *path = avc_policy_file ? avc_policy_file : "";

	if (cur.pdb == NULL || strcmp(path, cur.path) != 0 ||
		strcmp(avc_policy_booleans ? avc_policy_booleans : "", cur.booleans) != 0 ||
		stat(path, &st) != 0 ||
		st.st_dev != cur.dev || st.st_ino != cur.ino ||
		st.st_size != cur.size ||
		st.st_mtim.tv_sec != cur.mtime.tv_sec ||
		st.st_mtim.tv_nsec != cur.mtime.tv_nsec)
		sp_load(path, ERROR);
	return cur.seqno;
}

static char *
sp_peer_label(Port *port)
{
	/* The kernel's labels are not ours to interpret here. */
	return NULL;
}

/* SID of a context, or false with the reason in sp_msg. */
static bool
sp_sid(const char *con, sepol_security_id_t *sid)
{
	size_t		len = strlen(con);
	SpSidEntry *e;
	bool		found;

	sp_msg[0] = '\0';
	if (cur.pdb == NULL)
		elog(ERROR, "labelam: no SELinux policy loaded");
	if (len >= SP_SIDCACHE_KEYLEN)
		return sepol_context_to_sid(con, len, sid) == 0;

	if (sp_sidcache == NULL || hash_get_num_entries(sp_sidcache) >= SP_SIDCACHE_MAX)
	{
		HASHCTL		ctl;

		sp_sidcache_reset();
		ctl.keysize = SP_SIDCACHE_KEYLEN;
		ctl.entrysize = sizeof(SpSidEntry);
		ctl.hcxt = TopMemoryContext;
		sp_sidcache = hash_create("labelam sepol SIDs", 64, &ctl,
								  HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}
	e = hash_search(sp_sidcache, con, HASH_FIND, NULL);
	if (e != NULL)
	{
		*sid = e->sid;
		return true;
	}
	/* only valid contexts are remembered */
	if (sepol_context_to_sid(con, len, sid) != 0)
		return false;
	e = hash_search(sp_sidcache, con, HASH_ENTER, &found);
	e->sid = *sid;
	return true;
}

static void
sp_invalid_label(const char *con)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid security label \"%s\"", con),
			 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0,
			 errhint("A label is an SELinux context user:role:type%s valid in the policy \"%s\".",
					 cur.pdb->mls ? ":level" : "", cur.path)));
}

static char *
sp_sid_text(sepol_security_id_t sid)
{
	char	   *con;
	size_t		len;
	char	   *result;

	if (sepol_sid_to_context(sid, &con, &len) != 0)
		elog(ERROR, "labelam: libsepol could not convert SID %u to a context", sid);
	result = pstrdup(con);
	free(con);
	return result;
}

static char *
sp_canonicalize(const char *label)
{
	sepol_security_id_t sid;

	if (!sp_sid(label, &sid))
		sp_invalid_label(label);
	return sp_sid_text(sid);
}

static bool
sp_valid(const char *label)
{
	sepol_security_id_t sid;

	return sp_sid(label, &sid);
}

/* the initial SID "unlabeled" is number 3 in every SELinux policy */
#define SP_SECINITSID_UNLABELED 3

static char *
sp_unlabeled(void)
{
	return sp_sid_text(SP_SECINITSID_UNLABELED);
}

static void
sp_compute_av(const char *scon, const char *tcon, AvcClass tclass,
				 AvcDecision *avd)
{
	sepol_security_id_t ssid;
	sepol_security_id_t tsid;
	struct sepol_av_decision sd;
	sepol_access_vector_t requested = 0;
	unsigned int reason;
	const sepol_access_vector_t *perm = cur.perm[tclass];
	int			b;

	memset(avd, 0, sizeof(*avd));
	if (!sp_sid(scon, &ssid))
		sp_invalid_label(scon);
	if (!sp_sid(tcon, &tsid))
		sp_invalid_label(tcon);
	if (cur.tclass[tclass] == 0)
	{
		avd->auditdeny = ~0U;
		return;
	}
	for (b = 0; b < AVC_MAX_PERMS; b++)
		requested |= perm[b];
	if (sepol_compute_av_reason(ssid, tsid, cur.tclass[tclass], requested,
								&sd, &reason) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("libsepol could not compute a decision for \"%s\" on \"%s\"",
						scon, tcon),
				 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0));

	for (b = 0; b < AVC_MAX_PERMS; b++)
	{
		uint32		bit = 1U << b;

		if (perm[b] == 0)
		{
			avd->auditdeny |= bit;
			continue;
		}
		if (sd.allowed & perm[b])
		{
			avd->allowed |= bit;
			if (sd.auditallow & perm[b])
				avd->auditallow |= bit;
		}
		else if (sd.auditdeny & perm[b])
			avd->auditdeny |= bit;
	}
}

/* the type field of a label "user:role:type[:range]" (palloc'd), or NULL */
static char *
sp_label_type(const char *label)
{
	const char *p = strchr(label, ':');
	const char *t;
	const char *e;

	if (p == NULL || (t = strchr(p + 1, ':')) == NULL)
		return NULL;
	t++;
	e = strchr(t, ':');
	return e ? pnstrdup(t, e - t) : pstrdup(t);
}

static uint32_t
sp_type_value(const char *label)
{
	char	   *name = sp_label_type(label);
	type_datum_t *type;

	if (name == NULL)
		return 0;
	type = hashtab_search(cur.pdb->p_types.table, name);
	pfree(name);
	return type ? type->s.value : 0;
}

/*
 * The policy's name-based type_transition for (scon, tcon, tclass, name),
 * as the kernel's security_compute_create_name applies it (its
 * filename_trans rules): the new label is the one computed without the
 * name, its type replaced.  NULL if no rule matches.
 */
static char *
sp_name_transition(const char *scon, const char *tcon, AvcClass tclass,
				   const char *objname, const char *computed)
{
	filename_trans_key_t key;
	filename_trans_datum_t *d;
	uint32_t	stype = sp_type_value(scon);
	char	   *oldtype;
	const char *newtype = NULL;
	StringInfoData buf;
	const char *t;

	key.ttype = sp_type_value(tcon);
	key.tclass = cur.tclass[tclass];
	key.name = (char *) objname;
	if (stype == 0 || key.ttype == 0 || cur.pdb->filename_trans == NULL)
		return NULL;
	for (d = hashtab_search(cur.pdb->filename_trans, (hashtab_key_t) &key);
		 d != NULL; d = d->next)
	{
		if (ebitmap_get_bit(&d->stypes, stype - 1))
		{
			newtype = cur.pdb->p_type_val_to_name[d->otype - 1];
			break;
		}
	}
	if (newtype == NULL || (oldtype = sp_label_type(computed)) == NULL)
		return NULL;

	/* user:role: + new type + rest */
	t = strchr(strchr(computed, ':') + 1, ':') + 1;
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, computed, t - computed);
	appendStringInfoString(&buf, newtype);
	appendStringInfoString(&buf, t + strlen(oldtype));
	pfree(oldtype);
	return buf.data;
}

static char *
sp_compute_create(const char *scon, const char *tcon, AvcClass tclass,
				  const char *objname)
{
	sepol_security_id_t ssid;
	sepol_security_id_t tsid;
	sepol_security_id_t nsid;
	char	   *computed;
	char	   *named;

	if (!sp_sid(scon, &ssid))
		sp_invalid_label(scon);
	if (!sp_sid(tcon, &tsid))
		sp_invalid_label(tcon);
	if (cur.tclass[tclass] == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("SELinux policy \"%s\" has no class \"%s\"",
						cur.path, avc_class_names[tclass])));
	if (sepol_transition_sid(ssid, tsid, cur.tclass[tclass], &nsid) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not compute the label of a new %s by \"%s\" under \"%s\"",
						avc_class_names[tclass], scon, tcon),
				 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0));
	computed = sp_sid_text(nsid);
	if (objname == NULL ||
		(named = sp_name_transition(scon, tcon, tclass, objname, computed)) == NULL)
		return computed;
	pfree(computed);
	return named;
}

static bool
sp_mls_enabled(void)
{
	return cur.pdb != NULL && cur.pdb->mls;
}

static const char *
sp_policy_source(void)
{
	return cur.path;
}

static bool
sp_defines(AvcClass tclass, uint32 perm)
{
	return cur.tclass[tclass] != 0 && cur.perm[tclass][pg_rightmost_one_pos32(perm)] != 0;
}

const AvcProvider avc_sepol_provider = {
	.name = "sepol",
	.startup = sp_startup,
	.policy_seqno = sp_policy_seqno,
	.peer_label = sp_peer_label,
	.canonicalize = sp_canonicalize,
	.valid = sp_valid,
	.unlabeled = sp_unlabeled,
	.compute_av = sp_compute_av,
	.defines = sp_defines,
	.compute_create = sp_compute_create,
	.mls_enabled = sp_mls_enabled,
	.policy_source = sp_policy_source,
};
