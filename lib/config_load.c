/*
 * The layers read in this process: each file opened by the trust rule
 * (config_file_read) and parsed by config.c, then laid over each other by
 * config_model.c.  tcptunectl check, tcptuned -n and the daemon on
 * Windows; the POSIX daemon has its parse helper parse them instead
 * (parse_posix.c) and hands the answers to the same config_layers, so
 * neither may parse differently.  The registry policy's reader is given
 * by the caller (policy_load): it parses through config.c, so config.c's
 * side may not call it (tests/lint/call_cycles.sh).
 */
#include "config.h"

#include <stdio.h>

#include "tcptune.h"
#include "catalogue.h"

/*
 * Every layer read here, finished against t (NULL: no catalogue), the
 * registry policy read by load.
 */
static struct config *
load_layers(const char *path, const char *managed_path, policy_load_fn load,
    int flags, const struct config_target *t, struct errlist *errs,
    struct errlist *warns)
{
	struct config	*local, *managed = NULL;
	bool		 has_managed = config_managed_present(managed_path);

	local = config_load(path, flags, errs);
	if (has_managed)
		managed = config_load(managed_path, flags, errs);
	return config_layers_finish(config_layers(local, managed, has_managed,
	    errs), load, t, errs, warns);
}

/*
 * path, then managed_path over it when that file exists (NULL or "": no
 * managed layer), then the registry policy load reads (policy_load), as
 * tcptuned reads them; CONFIG_CHECK_OS: against this OS's keys.
 */
struct config *
config_load_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, struct errlist *errs)
{
	struct config_target	host = { catalogue_host_os(), NULL };

	return load_layers(path, managed_path, load, flags,
	    (flags & CONFIG_CHECK_OS) ? &host : NULL, errs, NULL);
}

/*
 * tcptunectl check when a layer is over path (a managed file, the
 * registry policy): the layers tcptuned -n reads, checked against t, so
 * that both find the same problems in the same files; check's warnings
 * and -v's plan besides.  0 when good, 1 otherwise.
 */
int
config_check_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, const struct config_target *t,
    bool verbose, FILE *out)
{
	struct errlist	 errs, warns;
	struct config	*cfg;

	errlist_init(&errs);
	errlist_init(&warns);
	cfg = load_layers(path, managed_path, load, flags, t, &errs, &warns);
	return config_report_checked(cfg, &errs, &warns, path, verbose, out);
}

/*
 * tcptuned -n: every problem of both files, one a line, or "configuration
 * OK" after naming the managed file in use.  0 when good, 1 otherwise.
 */
int
config_report_layers(const char *path, const char *managed_path,
    policy_load_fn load, int flags, FILE *out)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_load_layers(path, managed_path, load, flags, &errs);
	return config_report_result(cfg, &errs, path, out);
}
