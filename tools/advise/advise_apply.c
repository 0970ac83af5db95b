/*
 * tcptunectl advise --apply [-f FILE]: the advice for this machine put in
 * force in one step, through set.c as `tcptunectl set` would do it: only
 * the keys the advice says to change (those already enough stay as they
 * are, in the config and in the kernel), each printed as it is now and
 * as it will be before anything happens; then the config is checked,
 * written whole, reloaded and the new status printed, or nothing changes.
 * A key this kernel would refuse even to root (a global key, read only
 * inside a network namespace) is left out and said: put in the config,
 * tcptuned would report it refused at every check.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptunectl.h"
#include "advise.h"

#define APPLY_ARG_MAX	(TT_NAME_MAX + TT_VALUE_MAX + 2)

/* The KEY=VALUE edits for set_apply, and how each new key is held. */
struct apply_plan {
	char		 args[ADV_MAX_KEYS][APPLY_ARG_MAX];
	char		*argv[ADV_MAX_KEYS];
	struct set_new	 nw[ADV_MAX_KEYS];
	int		 n;
	int		 left_out;	/* to change, but read only here */
};

/*
 * One line a key to change: now -> then, or why it is left out, as
 * running text under it within 80 columns.
 */
static void
plan_key(struct apply_plan *p, const struct adv_key *k)
{
	char	why[256];
	char	line[sizeof(why) + 2 * TT_VALUE_MAX + TT_NAME_MAX + 32];

	if (!advise_key_writable(k->name, why, sizeof(why))) {
		snprintf(line, sizeof(line), "%s: %s -> %s: left out, %s",
		    k->name, k->current[0] ? k->current : "unknown",
		    k->recommended, why);
		ctl_wrap(stdout, "  ", "      ", line, CTL_TEXT_WIDTH);
		p->left_out++;
		return;
	}
	printf("  %s: %s -> %s\n", k->name, k->current[0] ? k->current :
	    "unknown", k->recommended);
	snprintf(p->args[p->n], sizeof(p->args[0]), "%s=%s", k->name,
	    k->recommended);
	p->argv[p->n] = p->args[p->n];
	/* held as advise --config holds it */
	advise_key_hold(k, &p->nw[p->n].mode, &p->nw[p->n].on_reject);
	p->n++;
}

static void
plan(const struct adv_result *r, struct apply_plan *p)
{
	size_t	i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].role != ROLE_INFO && r->keys[i].change)
			plan_key(p, &r->keys[i]);
}

/*
 * The config to edit: FILE, or the running daemon's (no daemon, no
 * guess: the default path may not be the one it would read).
 */
static int
target(const struct advise_args *a, char *path, size_t len)
{
	if (a->file != NULL) {
		tt_strlcpy(path, a->file, len);
		return CTL_OK;
	}
	return set_daemon_config(a->socket, path, len);	/* told */
}

int
advise_apply(const struct advise_args *a, const struct advice *adv)
{
	struct apply_plan	 p;
	struct advise_notes	*notes;
	struct config_notes	 cn;
	char			 path[1024], rate[32], rtt[32];
	char			 head[sizeof(path) + 256];
	int			 rv;

	if ((rv = target(a, path, sizeof(path))) != CTL_OK)
		return rv;
	adv_fmt_rate(adv->in.rate, rate, sizeof(rate));
	adv_fmt_time(adv->in.rtt, rtt, sizeof(rtt));
	snprintf(head, sizeof(head), "%s at %s over %s, in %s:",
	    adv->res.kernel, rate, rtt, path);
	ctl_wrap(stdout, "", "", head, CTL_TEXT_WIDTH);
	plan(&adv->res, &p);
	if (p.n == 0) {
		printf("nothing to change: %s\n", p.left_out > 0 ? "every "
		    "key this machine lets be set is already enough" :
		    "every key is already enough");
		return CTL_OK;
	}
	fflush(stdout);
	if ((notes = malloc(sizeof(*notes))) == NULL)
		fatal("%s", __func__);
	advise_notes(adv, notes, &cn);
	if ((rv = set_apply(a->socket, a->file, path, p.argv, p.n, p.nw, &cn,
	    a->out)) == CTL_OK && a->file != NULL)
		printf("%s written; tcptuned reads it at its next reload\n",
		    path);
	free(notes);
	return rv;
}
