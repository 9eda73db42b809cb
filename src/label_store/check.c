/*-------------------------------------------------------------------------
 *
 * src/label_store/check.c
 *	  What any security label text must be to enter the dictionary.
 *
 * The dictionary stores each label once, in the canonical form the policy
 * provider defines (for SELinux, the raw context), so that two spellings of
 * one label never get two secids.  Canonicalizing is the caller's job (the
 * policy subsystem's, src/avc, which label_store never calls): what arrives
 * here is already canonical.  Whatever the provider says, text the
 * dictionary cannot store sensibly is refused here: empty text, text longer
 * than LABEL_MAX_LEN bytes, text invalid in the server encoding, and
 * control characters (which no label format uses and which would corrupt
 * logs and audit lines).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "label_store/label_store.h"
#include "label_store/label_store_int.h"

/*
 * Does the text pass the provider-independent checks?  If not, *detail
 * says why (untranslated; callers translate it).  Raises no error, so that
 * GUC check hooks can use it.
 */
bool
label_check(const char *label, const char **detail)
{
	size_t		len = strlen(label);

	if (len == 0)
	{
		*detail = gettext_noop("A security label must not be empty.");
		return false;
	}
	if (len > LABEL_MAX_LEN)
	{
		*detail = gettext_noop("A security label must not be longer than 4096 bytes.");
		return false;
	}
	if (!pg_verifymbstr(label, len, true))
	{
		*detail = gettext_noop("A security label must be valid in the server encoding.");
		return false;
	}
	for (const unsigned char *p = (const unsigned char *) label; *p; p++)
	{
		if (*p < 0x20 || *p == 0x7f)
		{
			*detail = gettext_noop("A security label must not contain control characters.");
			return false;
		}
	}
	return true;
}

void
label_validate(const char *label)
{
	const char *detail;

	if (!label_check(label, &detail))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\"", label),
				 errdetail_internal("%s", _(detail))));
}
