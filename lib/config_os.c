/*
 * A parsed config against the catalogue of the OS it is meant for
 * (catalogue.c): what cannot apply there is an error at file:line with the
 * fix; a key in no catalogue is a warning, and, when the running kernel
 * is asked (a backend), an error if that kernel has no such key.  Run by
 * check (any OS, --platform), tcptuned -n and the daemon's reader (this
 * OS) once the file has parsed.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "tcptune.h"

/* Whether the running kernel has name: only ENOENT says it does not. */
static bool
kernel_lacks(struct sysctl_backend *be, const char *name)
{
	char	buf[TT_VALUE_MAX];

	return be != NULL && be->get(be, name, buf, sizeof(buf)) == ENOENT;
}

static void
unknown_key(const struct config *cfg, const struct config_key *k,
    enum tt_os os, struct sysctl_backend *be, struct errlist *errs,
    struct errlist *warns)
{
	const char	*file = config_key_source(cfg, k);

	if (kernel_lacks(be, k->name))
		errlist_add(errs, "%s:%d: %s does not exist in this kernel "
		    "(sysctl -a does not list it)", file, k->line, k->name);
	else if (warns != NULL)
		errlist_add(warns, "%s:%d: warning: %s is not in tcptune's "
		    "catalogue of %s keys: written as given%s", file, k->line,
		    k->name, catalogue_os_label(os), cfg->allow_any_sysctl ?
		    " (AllowAnySysctl)" : "");
}

/*
 * Every key of cfg against os's catalogue; be, when not NULL, is this
 * machine's kernel.  Errors go to errs, warnings to warns (may be NULL).
 * Returns the number of errors.
 */
size_t
config_check_os(const struct config *cfg, enum tt_os os,
    struct sysctl_backend *be, struct errlist *errs, struct errlist *warns)
{
	const struct config_key	*k;
	char			 why[512];
	size_t			 i, before = errs->n;

	for (i = 0; i < cfg->nkeys; i++) {
		k = &cfg->keys[i];
		switch (catalogue_check(k->name, k->value, os, why,
		    sizeof(why))) {
		case CAT_REFUSED:
			errlist_add(errs, "%s:%d: %s", config_key_source(cfg,
			    k), k->line, why);
			break;
		case CAT_UNKNOWN:
			unknown_key(cfg, k, os, be, errs, warns);
			break;
		case CAT_OK:
			if (kernel_lacks(be, k->name))
				errlist_add(errs, "%s:%d: %s is a %s key, but "
				    "this kernel does not have it",
				    config_key_source(cfg, k), k->line,
				    k->name, catalogue_os_label(os));
			break;
		}
	}
	return errs->n - before;
}
