/*
 * The layers read in this process: config_layers.c's loader with
 * config.c's reader plugged in, each file opened by the trust rule
 * (config_file_read) and parsed here.  tcptunectl check, tcptuned -n and
 * the daemon on Windows; the POSIX daemon plugs in its parse helper
 * instead (parse_posix.c), and neither may parse differently.
 */
#include "config.h"

#include <stdio.h>

#include "tcptune.h"
#include "catalogue.h"

/* config_layer_read_fn: the file parsed here; arg points at the flags. */
static struct config *
read_here(void *arg, enum config_layer layer, const char *name,
    struct errlist *errs)
{
	(void)layer;
	return config_load(name, *(const int *)arg, errs);
}

/* Every layer read here, finished against t (NULL: no catalogue). */
static struct config *
load_layers(const char *path, const char *managed_path, int flags,
    const struct config_target *t, struct errlist *errs,
    struct errlist *warns)
{
	struct config	*cfg;

	cfg = config_layers_read(path, config_managed_present(managed_path) ?
	    managed_path : NULL, read_here, &flags, errs);
	return config_layers_finish(cfg, t, errs, warns);
}

/*
 * path, then managed_path over it when that file exists (NULL or "": no
 * managed layer), then the registry policy, as tcptuned reads them;
 * CONFIG_CHECK_OS: against this OS's keys.
 */
struct config *
config_load_layers(const char *path, const char *managed_path, int flags,
    struct errlist *errs)
{
	struct config_target	host = { catalogue_host_os(), NULL };

	return load_layers(path, managed_path, flags,
	    (flags & CONFIG_CHECK_OS) ? &host : NULL, errs, NULL);
}

/*
 * tcptunectl check: the layers tcptuned -n reads, checked against t, so
 * that both find the same problems in the same files; check's warnings
 * and -v's plan besides.  With no layer over path, config_report's
 * check of path alone, each finding at its line.  0 when good, 1
 * otherwise.
 */
int
config_check_layers(const char *path, const char *managed_path, int flags,
    const struct config_target *t, bool verbose, FILE *out)
{
	struct errlist	 errs, warns;
	struct config	*cfg;

	if (!config_managed_present(managed_path) && !policy_present())
		return config_report(path, flags, t, verbose, out);
	errlist_init(&errs);
	errlist_init(&warns);
	cfg = load_layers(path, managed_path, flags, t, &errs, &warns);
	return config_report_checked(cfg, &errs, &warns, path, verbose, out);
}

/*
 * tcptuned -n: every problem of both files, one a line, or "configuration
 * OK" after naming the managed file in use.  0 when good, 1 otherwise.
 */
int
config_report_layers(const char *path, const char *managed_path, int flags,
    FILE *out)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_load_layers(path, managed_path, flags, &errs);
	return config_report_result(cfg, &errs, path, out);
}
