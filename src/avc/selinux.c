/*-------------------------------------------------------------------------
 *
 * src/avc/selinux.c
 *	  Policy provider "selinux": the running kernel's policy, through
 *	  libselinux, as contrib/sepgsql does.
 *
 * Decisions come from security_compute_av_flags_raw, new labels from
 * security_compute_create_raw, the client's label from the peer context of
 * its socket (getpeercon_raw: Unix sockets, labeled IPsec or NetLabel).
 * Policy reloads and enforcing-mode changes are seen through the kernel's
 * status page (selinux_status_*), which is a memory read, so checking it
 * once a statement costs nothing.  The kernel's permissive mode, and
 * permissive domains, are honoured as the kernel honours them: denials are
 * audited but not enforced.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <selinux/avc.h>
#include <selinux/selinux.h>

#include "port/pg_bitutils.h"

#include "avc/provider.h"

static uint64 sx_seqno = 0;
static uint64 sx_mapped_seqno = 0;

/* kernel class values and permission bits, per labelam class and bit */
static security_class_t sx_class[AVC_NUM_CLASSES];
static access_vector_t sx_perm[AVC_NUM_CLASSES][AVC_MAX_PERMS];

static void
sx_startup(void)
{
	if (is_selinux_enabled() < 1)
		ereport(FATAL,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("labelam.provider is \"selinux\", but the kernel does not run SELinux"),
				 errhint("Set labelam.provider = 'sepol' to evaluate a policy file (labelam.policy_file) in user space.")));
	/* fall back to netlink when the status page is unavailable */
	if (selinux_status_open(1) < 0)
		ereport(FATAL,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("could not open the SELinux status page: %m")));
	sx_seqno = 1;
}

/*
 * The kernel's class and permission numbers may change with a policy load:
 * look ours up again after each one.
 */
static void
sx_map_classes(void)
{
	int			c;

	selinux_flush_class_cache();
	for (c = 0; c < AVC_NUM_CLASSES; c++)
	{
		const char *const *names = avc_perm_names[c];
		int			b;

		sx_class[c] = string_to_security_class(avc_class_names[c]);
		for (b = 0; names[b] != NULL; b++)
			sx_perm[c][b] = sx_class[c] ?
				string_to_av_perm(sx_class[c], names[b]) : 0;
	}
	sx_mapped_seqno = sx_seqno;
}

static uint64
sx_policy_seqno(void)
{
	/* a policy load or a change of enforcing mode */
	if (selinux_status_updated() > 0)
		sx_seqno++;
	if (sx_mapped_seqno != sx_seqno)
		sx_map_classes();
	return sx_seqno;
}

static char *
sx_peer_label(Port *port)
{
	char	   *con;
	char	   *result;

	if (port == NULL || port->sock == PGINVALID_SOCKET)
		return NULL;
	/* ENOPROTOOPT and friends: an unlabeled peer, e.g. plain TCP */
	if (getpeercon_raw(port->sock, &con) < 0)
		return NULL;
	result = pstrdup(con);
	freecon(con);
	return result;
}

static char *
sx_canonicalize(const char *label)
{
	char	   *raw;
	char	   *canon;
	char	   *result;

	/* translated (mcstrans) contexts are accepted, stored raw */
	if (selinux_trans_to_raw_context(label, &raw) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\": %m", label)));
	if (security_check_context_raw(raw) < 0 ||
		security_canonicalize_context_raw(raw, &canon) < 0)
	{
		freecon(raw);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\"", label),
				 errhint("A label is an SELinux context valid in the kernel's policy.")));
	}
	freecon(raw);
	result = pstrdup(canon);
	freecon(canon);
	return result;
}

static bool
sx_valid(const char *label)
{
	return security_check_context_raw(label) == 0;
}

/* the context of one of the policy's initial SIDs (palloc'd) */
static char *
sx_initial_context(const char *name, const char *what)
{
	char	   *con;
	char	   *result;

	if (security_get_initial_context_raw(name, &con) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not get the SELinux context of %s: %m", what)));
	result = pstrdup(con);
	freecon(con);
	return result;
}

static char *
sx_unlabeled(void)
{
	return sx_initial_context("unlabeled", "unlabeled objects");
}

static void
sx_compute_av(const char *scon, const char *tcon, AvcClass tclass,
				   AvcDecision *avd)
{
	struct av_decision kd;
	access_vector_t requested = 0;
	const access_vector_t *perm = sx_perm[tclass];
	int			b;

	memset(avd, 0, sizeof(*avd));
	if (sx_mapped_seqno != sx_seqno)
		sx_map_classes();
	if (sx_class[tclass] == 0)
	{
		avd->auditdeny = ~0U;
		return;
	}
	for (b = 0; b < AVC_MAX_PERMS; b++)
		requested |= perm[b];
	if (security_compute_av_flags_raw(scon, tcon, sx_class[tclass],
									  requested, &kd) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("SELinux could not compute a decision for \"%s\" on \"%s\": %m",
						scon, tcon)));

	for (b = 0; b < AVC_MAX_PERMS; b++)
	{
		uint32		bit = 1U << b;

		if (perm[b] == 0)
			avd->auditdeny |= bit;
		else if (kd.allowed & perm[b])
		{
			avd->allowed |= bit;
			if (kd.auditallow & perm[b])
				avd->auditallow |= bit;
		}
		else if (kd.auditdeny & perm[b])
			avd->auditdeny |= bit;
	}
	avd->permissive = (selinux_status_getenforce() == 0 ||
					   (kd.flags & SELINUX_AVD_FLAGS_PERMISSIVE) != 0);
}

static char *
sx_compute_create(const char *scon, const char *tcon, AvcClass tclass,
				  const char *objname)
{
	char	   *con;
	char	   *result;

	if (sx_mapped_seqno != sx_seqno)
		sx_map_classes();
	if (sx_class[tclass] == 0 ||
		security_compute_create_name_raw(scon, tcon, sx_class[tclass],
										 objname, &con) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("SELinux could not compute the label of a new %s by \"%s\" under \"%s\": %m",
						avc_class_names[tclass], scon, tcon)));
	result = pstrdup(con);
	freecon(con);
	return result;
}

/* The kernel keeps its policy when a load fails; nothing is rejected here. */
static const char *
sx_policy_rejected(TimestampTz *when)
{
	return NULL;
}

static bool
sx_enforcing(void)
{
	return selinux_status_getenforce() == 1;
}

/*
 * Files: the kernel's own view of the same attribute (an unlabeled file
 * reads as the policy's "file" context there already).
 */
static char *
sx_file_label(int fd)
{
	char	   *con;
	char	   *result;

	if (fgetfilecon_raw(fd, &con) < 0)
	{
		if (errno == ENODATA || errno == ENOTSUP)
			return NULL;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read the security label of a file: %m")));
	}
	result = pstrdup(con);
	freecon(con);
	return result;
}

static int
sx_set_file_label(int fd, const char *label)
{
	if (fsetfilecon_raw(fd, label) < 0)
		return errno;
	return 0;
}

static char *
sx_file_initial(void)
{
	return sx_initial_context("file", "unlabeled files");
}

static bool
sx_mls_enabled(void)
{
	return is_selinux_mls_enabled() > 0;
}

static const char *
sx_policy_source(void)
{
	return "kernel";
}

static bool
sx_defines(AvcClass tclass, uint32 perm)
{
	(void) sx_policy_seqno();
	return sx_class[tclass] != 0 && sx_perm[tclass][pg_rightmost_one_pos32(perm)] != 0;
}

const AvcProvider avc_selinux_provider = {
	.name = "selinux",
	.startup = sx_startup,
	.policy_seqno = sx_policy_seqno,
	.policy_rejected = sx_policy_rejected,
	.enforcing = sx_enforcing,
	.peer_label = sx_peer_label,
	.canonicalize = sx_canonicalize,
	.valid = sx_valid,
	.unlabeled = sx_unlabeled,
	.compute_av = sx_compute_av,
	.defines = sx_defines,
	.compute_create = sx_compute_create,
	.file_label = sx_file_label,
	.set_file_label = sx_set_file_label,
	.file_initial = sx_file_initial,
	.mls_enabled = sx_mls_enabled,
	.policy_source = sx_policy_source,
	.object_classes = true,
};
