/*-------------------------------------------------------------------------
 *
 * src/avc/sepol.c
 *	  Policy provider "sepol": a binary SELinux policy file evaluated in
 *	  user space with libsepol.
 *
 * This makes SELinux policy enforceable where the kernel does not run
 * SELinux.  Loading the policy file, and reloading it safely when it
 * changes, is sepol_load.c's; this file answers the provider's questions
 * with the policy in force.
 *
 * libsepol's SID table finds the SID of a context by walking every entry
 * (sepol_sidtab_context_to_sid), so a backend that meets N distinct labels
 * would pay O(N^2).  SIDs are only ever held within one call of this file
 * (decisions and labels leave it as text), so the table is simply started
 * over, with its initial SIDs, whenever it holds SP_SIDTAB_MAX contexts:
 * each new label then costs a bounded walk, and interning is linear.
 *
 * Permissive domains (the policy's "permissive foo_t;") are read from the
 * policy's permissive map, as the kernel does: a decision for a subject of
 * such a type is marked permissive.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/xattr.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "avc/sepol_internal.h"

/*
 * Context text -> SID, for the policy in force.  libsepol parses a context
 * anew on every sepol_context_to_sid (about as costly as the decision
 * itself), and the decision cache's misses ask about the same few labels
 * over and over.  Bounded, and emptied with the SID table (sp_begin) and on
 * reload, as SIDs belong to a SID table.
 */
#define SP_SIDCACHE_KEYLEN	256
#define SP_SIDCACHE_MAX		4096

/* contexts in libsepol's SID table before it starts over (see above) */
#define SP_SIDTAB_MAX		1024

typedef struct SpSidEntry
{
	char		context[SP_SIDCACHE_KEYLEN];
	sepol_security_id_t sid;
} SpSidEntry;

static HTAB *sp_sidcache = NULL;
static uint64 sp_sidcache_seqno = 0;	/* sp_cur.seqno of its SIDs */

static void
sp_sidcache_reset(void)
{
	if (sp_sidcache != NULL)
		hash_destroy(sp_sidcache);
	sp_sidcache = NULL;
}

static bool
sp_enforcing(void)
{
	return true;
}

/*
 * Start libsepol's SID table over when it grew to SP_SIDTAB_MAX contexts
 * (see the header comment).  Called at the entry of every function that
 * makes SIDs, never while one is held.
 */
static void
sp_begin(void)
{
	if (sp_cur.pdb == NULL)
		elog(ERROR, "labelam: no SELinux policy loaded");
	if (sp_cur.sidtab->nel < SP_SIDTAB_MAX)
		return;
	sepol_sidtab_destroy(sp_cur.sidtab);
	if (sepol_sidtab_init(sp_cur.sidtab) != 0 ||
		policydb_load_isids(sp_cur.pdb, sp_cur.sidtab) != 0)
		ereport(FATAL,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("labelam: could not rebuild libsepol's SID table")));
	sp_sidcache_reset();
}

/* SID of a context, or false with the reason in sp_msg. */
static bool
sp_sid(const char *con, sepol_security_id_t *sid)
{
	size_t		len = strlen(con);
	SpSidEntry *e;
	bool		found;

	sp_msg[0] = '\0';
	if (len >= SP_SIDCACHE_KEYLEN)
		return sepol_context_to_sid(con, len, sid) == 0;

	/* SIDs belong to the SID table of the policy they were made with */
	if (sp_sidcache == NULL || sp_sidcache_seqno != sp_cur.seqno ||
		hash_get_num_entries(sp_sidcache) >= SP_SIDCACHE_MAX)
	{
		HASHCTL		ctl;

		sp_sidcache_reset();
		ctl.keysize = SP_SIDCACHE_KEYLEN;
		ctl.entrysize = sizeof(SpSidEntry);
		ctl.hcxt = TopMemoryContext;
		sp_sidcache = hash_create("labelam sepol SIDs", 64, &ctl,
								  HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		sp_sidcache_seqno = sp_cur.seqno;
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
sp_compute_failed(const char *scon, const char *tcon)
{
	ereport(ERROR,
			(errcode(ERRCODE_INTERNAL_ERROR),
			 errmsg("libsepol could not compute a decision for \"%s\" on \"%s\"",
					scon, tcon),
			 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0));
}

static void
sp_invalid_label(const char *con)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid security label \"%s\"", con),
			 sp_msg[0] ? errdetail("libsepol: %s", sp_msg) : 0,
			 errhint("A label is an SELinux context user:role:type%s valid in the policy \"%s\".",
					 sp_cur.pdb->mls ? ":level" : "", sp_cur.path)));
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

	sp_begin();
	if (!sp_sid(label, &sid))
		sp_invalid_label(label);
	return sp_sid_text(sid);
}

static bool
sp_valid(const char *label)
{
	sepol_security_id_t sid;

	sp_begin();
	return sp_sid(label, &sid);
}

/* the initial SID "unlabeled" is number 3 in every SELinux policy */
#define SP_SECINITSID_UNLABELED 3

static char *
sp_unlabeled(void)
{
	sp_begin();
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
	const sepol_access_vector_t *perm = sp_cur.perm[tclass];
	context_struct_t *sctx;
	int			b;

	memset(avd, 0, sizeof(*avd));
	sp_begin();
	/* computed by another backend with this policy? */
	if (sp_shared_lookup(scon, tcon, tclass, avd))
		return;
	if (!sp_sid(scon, &ssid))
		sp_invalid_label(scon);
	if (!sp_sid(tcon, &tsid))
		sp_invalid_label(tcon);

	/* a permissive domain, as the kernel marks it (AVD_FLAGS_PERMISSIVE) */
	sctx = sepol_sidtab_search(sp_cur.sidtab, ssid);
	if (sctx != NULL &&
		ebitmap_get_bit(&sp_cur.pdb->permissive_map, sctx->type))
		avd->permissive = true;

	if (sp_cur.tclass[tclass] == 0)
	{
		avd->auditdeny = ~0U;
		return;
	}
	for (b = 0; b < AVC_MAX_PERMS; b++)
		requested |= perm[b];
	if (sepol_compute_av_reason(ssid, tsid, sp_cur.tclass[tclass], requested,
								&sd, &reason) != 0)
		sp_compute_failed(scon, tcon);

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
			continue;
		}
		if (sd.auditdeny & perm[b])
			avd->auditdeny |= bit;

		/*
		 * Denied: by the allow rules, or by a constraint?  libsepol's reason
		 * covers all permissions asked about, so ask about this one alone
		 * (a cache miss, and only for denied permissions).  What an
		 * allow rule cannot fix is worth knowing to whoever turns denials
		 * into rules (labelam.denials_as_policy()).
		 */
		if (reason & ~SEPOL_COMPUTEAV_TE)
		{
			struct sepol_av_decision one;
			unsigned int why;

			if (sepol_compute_av_reason(ssid, tsid, sp_cur.tclass[tclass],
										perm[b], &one, &why) != 0)
				sp_compute_failed(scon, tcon);
			if ((why & SEPOL_COMPUTEAV_TE) == 0 && why != 0)
				avd->constrained |= bit;
		}
	}
	sp_shared_store(scon, tcon, tclass, avd);
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
	type = hashtab_search(sp_cur.pdb->p_types.table, name);
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
	key.tclass = sp_cur.tclass[tclass];
	key.name = (char *) objname;
	if (stype == 0 || key.ttype == 0 || sp_cur.pdb->filename_trans == NULL)
		return NULL;
	for (d = hashtab_search(sp_cur.pdb->filename_trans, (hashtab_key_t) &key);
		 d != NULL; d = d->next)
	{
		if (ebitmap_get_bit(&d->stypes, stype - 1))
		{
			newtype = sp_cur.pdb->p_type_val_to_name[d->otype - 1];
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

	sp_begin();
	if (!sp_sid(scon, &ssid))
		sp_invalid_label(scon);
	if (!sp_sid(tcon, &tsid))
		sp_invalid_label(tcon);
	if (sp_cur.tclass[tclass] == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("SELinux policy \"%s\" has no class \"%s\"",
						sp_cur.path, avc_class_names[tclass])));
	if (sepol_transition_sid(ssid, tsid, sp_cur.tclass[tclass], &nsid) != 0)
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

/*
 * Files: their label is the security.selinux attribute, which the kernel
 * keeps whether or not it runs SELinux; files without one get the
 * policy's initial SID "file", as the kernel gives them.
 */
#define SP_XATTR_NAME "security.selinux"

/* the initial SID "file" is number 5 in every SELinux policy */
#define SP_SECINITSID_FILE 5

static char *
sp_file_label(int fd)
{
	char		buf[1024];
	char	   *value = buf;
	ssize_t		len;

	len = fgetxattr(fd, SP_XATTR_NAME, buf, sizeof(buf));
	if (len < 0 && errno == ERANGE)
	{
		/* a long label: ask its length, then read it */
		len = fgetxattr(fd, SP_XATTR_NAME, NULL, 0);
		if (len > 0)
		{
			value = palloc(len + 1);
			len = fgetxattr(fd, SP_XATTR_NAME, value, len);
		}
	}
	if (len < 0)
	{
		if (errno == ENODATA || errno == ENOTSUP)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the security label of a file: %m")));
	}
	/* the kernel stores a trailing NUL; setfattr may not */
	while (len > 0 && value[len - 1] == '\0')
		len--;
	if (len == 0)
		return NULL;
	return pnstrdup(value, len);
}

static int
sp_set_file_label(int fd, const char *label)
{
	/* with its NUL, as libselinux's setfilecon writes it */
	if (fsetxattr(fd, SP_XATTR_NAME, label, strlen(label) + 1, 0) != 0)
		return errno;
	return 0;
}

static char *
sp_file_initial(void)
{
	sp_begin();
	return sp_sid_text(SP_SECINITSID_FILE);
}

static bool
sp_mls_enabled(void)
{
	return sp_cur.pdb != NULL && sp_cur.pdb->mls;
}

static const char *
sp_policy_source(void)
{
	return sp_cur.path;
}

static bool
sp_defines(AvcClass tclass, uint32 perm)
{
	return sp_cur.tclass[tclass] != 0 && sp_cur.perm[tclass][pg_rightmost_one_pos32(perm)] != 0;
}

const AvcProvider avc_sepol_provider = {
	.name = "sepol",
	.startup = sp_startup,
	.policy_seqno = sp_policy_seqno,
	.policy_rejected = sp_policy_rejected,
	.enforcing = sp_enforcing,
	.peer_label = NULL,			/* the kernel's labels are not ours to read */
	.canonicalize = sp_canonicalize,
	.valid = sp_valid,
	.unlabeled = sp_unlabeled,
	.compute_av = sp_compute_av,
	.defines = sp_defines,
	.compute_create = sp_compute_create,
	.file_label = sp_file_label,
	.set_file_label = sp_set_file_label,
	.file_initial = sp_file_initial,
	.mls_enabled = sp_mls_enabled,
	.policy_source = sp_policy_source,
	.object_classes = true,
};

