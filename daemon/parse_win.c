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
#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"
#include "event.h"

/*
 * parse_begin's read, done in-process on the loop's next turn (a timer),
 * so that done runs from the loop as on Unix, never inside the caller.
 */
struct parse_job {
	struct ev_timer	*timer;
	char		*path;
	char		*managed;
	int		 flags;
	parse_done_fn	 done;
	void		*arg;
};

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
	return config_load_layers(path, managed, policy_load, flags, errs);
}

int
parse_report(const char *helper, const char *path, const char *managed,
    int flags, FILE *out, FILE *err)
{
	(void)helper;
	return config_report_layers(path, managed, policy_load, flags, out,
	    err);
}

static void
job_free(struct parse_job *j)
{
	ev_timer_free(j->timer);
	free(j->path);
	free(j->managed);
	free(j);
}

static void
on_turn(void *arg)
{
	struct parse_job	*j = arg;
	struct errlist		 errs;
	struct config		*cfg;

	errlist_init(&errs);
	cfg = config_load_layers(j->path, j->managed, policy_load, j->flags,
	    &errs);
	j->done(cfg, &errs, j->arg);
	errlist_clear(&errs);
	job_free(j);
}

struct parse_job *
parse_begin(struct evloop *loop, const char *helper, const char *path,
    const char *managed, int flags, parse_done_fn done, void *arg,
    struct errlist *errs)
{
	struct parse_job	*j;

	(void)helper;
	if ((j = calloc(1, sizeof(*j))) == NULL ||
	    (j->path = strdup(path)) == NULL ||
	    (managed != NULL && (j->managed = strdup(managed)) == NULL))
		fatal("%s", __func__);
	j->flags = flags;
	j->done = done;
	j->arg = arg;
	if ((j->timer = ev_timer_new(loop, on_turn, j)) == NULL ||
	    ev_timer_start(j->timer, 1, false) == -1) {
		errlist_add(errs, "%s: cannot read it on the event loop", path);
		job_free(j);
		return NULL;
	}
	return j;
}

void
parse_cancel(struct parse_job *j)
{
	if (j != NULL)
		job_free(j);
}
