/*-------------------------------------------------------------------------
 *
 * src/label_store/canon.c
 *	  Validation and canonicalization of security label text.
 *
 * The dictionary stores each label once, in the canonical form the policy
 * provider defines (for SELinux, the raw context), so that two spellings of
 * one label never get two secids.  Whatever the provider says, text the
 * dictionary cannot store sensibly is refused here first: empty text, text
 * longer than LABEL_MAX_LEN bytes, text invalid in the server encoding, and
 * control characters (which no label format uses and which would corrupt
 * logs and audit lines).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "label_store/label_store.h"
#include "label_store/label_store_int.h"

label_canonicalize_hook_type label_canonicalize_hook = NULL;

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

static void
label_invalid(const char *label, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid security label \"%s\"", label),
			 errdetail_internal("%s", _(detail))));
}

char *
label_canonicalize(const char *label)
{
	const char *detail;
	char	   *canon;

	if (!label_check(label, &detail))
		label_invalid(label, detail);

	if (label_canonicalize_hook == NULL)
		return pstrdup(label);

	/*
	 * The provider's answer is what gets stored, so it must pass the same
	 * checks; a provider that fails them is broken, but the user still
	 * deserves an error naming the label rather than a corrupt dictionary.
	 */
	canon = label_canonicalize_hook(label);
	if (canon == NULL || !label_check(canon, &detail))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid security label \"%s\"", label),
				 errdetail("The policy provider's canonical form of the label is not a valid label.")));
	return canon;
}
