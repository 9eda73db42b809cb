/*-------------------------------------------------------------------------
 *
 * src/avc/file_labels.c
 *	  Labels of server files and decisions on them (avc_files.h).
 *
 * The provider reads and writes the attribute (sepol: fgetxattr and
 * fsetxattr of security.selinux; selinux: fgetfilecon_raw and
 * fsetfilecon_raw, the same attribute as the kernel sees it); this file
 * turns what it reads into the label the policy decides with, and decides
 * through the avc's cache.  The audit line is contrib/sepgsql's, which
 * src/objects writes for database objects: "SELinux: denied { read }
 * scontext=... tcontext=... tclass=file name="/path" permissive=0".
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "avc/avc_files.h"
#include "avc/avc_internal.h"
#include "avc/avc_objects.h"

char *
avc_file_label(int fd)
{
	char	   *raw;
	char	   *label;

	if (unlikely(avc_revalidate_pending))
		avc_revalidate();
	raw = avc_provider->file_label(fd);
	if (raw == NULL)
		return avc_provider->file_initial();
	if (!avc_provider->valid(raw))
		label = avc_provider->unlabeled();
	else
		label = avc_provider->canonicalize(raw);
	pfree(raw);
	return label;
}

int
avc_set_file_label(int fd, const char *label)
{
	return avc_provider->set_file_label(fd, label);
}

static void
file_audit_log(bool denied, bool permissive, const char *scontext,
			   const char *tcontext, AvcClass tclass, uint32 audited,
			   const char *name)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfo(&buf, "%s { %s } scontext=%s tcontext=%s tclass=%s name=\"%s\" permissive=%d",
					 denied ? "denied" : "allowed",
					 avc_perms_text_sep(tclass, audited, " "), scontext, tcontext,
					 avc_class_names[tclass], name, permissive ? 1 : 0);
	ereport(LOG, (errmsg("SELinux: %s", buf.data)));
	pfree(buf.data);
}

void
avc_require_file(AvcClass tclass, const char *label, uint32 perms,
				 const char *name, const char *doing)
{
	uint32		subject = avc_require_subject();
	AvcDecision d;
	uint32		denied;
	uint32		audited;

	(void) avc_decide(tclass, subject, AVC_OBJ_LOCAL, avc_local_id(label), &d);
	denied = perms & ~d.allowed;

	if (avc_audit_mode == AVC_AUDIT_NONE)
		audited = 0;
	else if (avc_audit_mode == AVC_AUDIT_ALL)
		audited = denied ? denied : perms;
	else
		audited = denied ? (denied & d.auditdeny) : (perms & d.auditallow);
	if (audited != 0)
		file_audit_log(denied != 0, d.permissive, avc_client_label(), label,
					   tclass, audited, name);

	if (denied == 0 || d.permissive)
		return;
	/* the label is an attribute: shown to a subject that may getattr */
	if (d.allowed & AVC_FILE_GETATTR)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to %s", doing),
				 errdetail("The security policy does not allow %s { %s } on \"%s\" labeled \"%s\" to \"%s\".",
						   avc_class_names[tclass],
						   avc_perms_text_sep(tclass, denied, " "), name, label,
						   avc_client_label())));
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to %s", doing),
			 errdetail("The security policy does not allow %s { %s } on \"%s\", whose label is beyond the reach of \"%s\".",
					   avc_class_names[tclass],
					   avc_perms_text_sep(tclass, denied, " "), name,
					   avc_client_label())));
}

bool
avc_file_allowed_at(const char *level_of, AvcClass tclass, const char *label,
					uint32 perms)
{
	uint32		subject = avc_require_subject();
	char	   *reader = avc_label_at_level(avc_local_text(subject), level_of);
	AvcDecision d;

	(void) avc_decide(tclass, avc_local_id(reader), AVC_OBJ_LOCAL,
					  avc_local_id(label), &d);
	pfree(reader);
	return (perms & ~d.allowed) == 0 || d.permissive;
}

char *
avc_file_create_label(const char *dir_label, AvcClass tclass,
					  const char *name)
{
	(void) avc_require_subject();
	return avc_compute_create_text(avc_client_label(), dir_label, tclass,
								   name);
}
