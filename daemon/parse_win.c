/*
 * Windows: the config is parsed in the service itself.  A child there
 * would be a CreateProcessAsUser with a restricted token, and the config
 * would still be read by libxml2 linked into tcptuned.exe for the
 * service's -n; the Windows build links libxml2 statically, so there is
 * no shared library to keep out of the resident service either.  What
 * privilege separation buys on Unix (libxml2 not running as root, not
 * mapped for the daemon's life) is not had here: docs/SECURITY.md says so.
 */
#include "config.h"

#include <stdio.h>

#include "tcptuned.h"

int
parse_helper_check(const char *path, char *why, size_t len)
{
	(void)path;
	(void)why;
	(void)len;
	return 0;
}

int
parse_helper_find(const char *configured, char *path, size_t len, char *why,
    size_t whylen)
{
	(void)configured;
	(void)why;
	(void)whylen;
	tt_strlcpy(path, "none (the service parses the file itself)", len);
	return 0;
}

struct config *
parse_config(const char *helper, const char *path, const char *managed,
    int flags, struct errlist *errs)
{
	(void)helper;
	return config_load_layers(path, managed, flags, errs);
}

int
parse_report(const char *helper, const char *path, const char *managed,
    int flags, FILE *out)
{
	(void)helper;
	return config_report_layers(path, managed, flags, out);
}
