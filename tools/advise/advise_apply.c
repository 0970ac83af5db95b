/*
 * tcptunectl advise --apply [-f FILE]: the advice for this machine put in
 * force in one step, through set.c as `tcptunectl set` would do it.  The
 * advice is judged against the config it edits, not the kernel: a key
 * the config holds counts at the config's value (what it promises after
 * a reboot), one it does not hold at the value read.  Only the keys the
 * advice says to change are set (those already enough stay as they are),
 * each printed as the config has it and as it will be before anything
 * happens; then the config is checked, written whole, reloaded and the
 * new status printed, or nothing changes.
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
 * value with its sizes in bytes ("4096 131072 16M" -> "... 16777216"),
 * as the model reads values; a word that is no size is kept as it is.
 */
static void
value_bytes(const char *value, char *out, size_t len)
{
	char		 buf[TT_VALUE_MAX], *w, *save = NULL;
	long long	 n;
	size_t		 used = 0;

	tt_strlcpy(buf, value, sizeof(buf));
	out[0] = '\0';
	for (w = strtok_r(buf, " \t", &save); w != NULL && used < len;
	    w = strtok_r(NULL, " \t", &save)) {
		if (tt_size_has_unit(w) && tt_parse_size(w, &n) == 0)
			snprintf(out + used, len - used, "%s%lld", used ? " " :
			    "", n);
		else
			snprintf(out + used, len - used, "%s%s", used ? " " : "",
			    w);
		used = strlen(out);
	}
}

/*
 * The advice judged as the config (issue 40): each key the config holds
 * counts at the config's value, whatever its mode, for that is what the
 * path has after a reboot (enforce and once set it, at-least raises the
 * stock value to it; what else raised the kernel's since boot, tcptuned
 * or another tool, the config does not promise).  A key the config does
 * not hold counts at the value read: tcptuned leaves it to the rest of
 * the system.  The model then runs again on those values, so the plan,
 * the verdict and the comments written speak of the file.
 */
static void
judge_config(struct advice *adv, const struct config *cfg)
{
	const char *const	*k;
	const struct config_key	*ck;
	char			 bytes[TT_VALUE_MAX];

	for (k = adv_os_keys(adv->in.os); *k != NULL; k++) {
		if ((ck = config_find(cfg, *k)) == NULL)
			continue;
		value_bytes(ck->value, bytes, sizeof(bytes));
		(void)adv_input_set(&adv->in, *k, bytes, 0, false);
	}
	adv_model(&adv->in, &adv->res);
}

/*
 * The config as it will be written: cfg with the plan's values, a key
 * already there keeping its Mode and OnReject (as set.c's edit does), a
 * new one held as the plan says.  keys has room for TT_MAX_KEYS.
 */
static void
planned_config(const struct config *cfg, const struct apply_plan *p,
    struct config *out, struct config_key *keys)
{
	struct config_key	*k;
	size_t			 i;
	int			 n;

	*out = *cfg;
	out->keys = keys;
	memcpy(keys, cfg->keys, cfg->nkeys * sizeof(*keys));
	for (n = 0; n < p->n; n++) {
		for (i = 0, k = NULL; i < out->nkeys && k == NULL; i++)
			if (strncmp(keys[i].name, p->args[n],
			    strlen(keys[i].name)) == 0 &&
			    p->args[n][strlen(keys[i].name)] == '=')
				k = &keys[i];
		if (k == NULL && out->nkeys == TT_MAX_KEYS)
			continue;	/* set.c refuses it, told */
		if (k == NULL) {
			k = &keys[out->nkeys++];
			memset(k, 0, sizeof(*k));
			tt_strlcpy(k->name, p->args[n], sizeof(k->name));
			k->name[strcspn(k->name, "=")] = '\0';
			k->mode = p->nw[n].mode;
			k->on_reject = p->nw[n].on_reject;
		}
		tt_strlcpy(k->value, strchr(p->args[n], '=') + 1,
		    sizeof(k->value));
	}
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
advise_apply(const struct advise_args *a, struct advice *adv)
{
	struct apply_plan	 p;
	struct advise_notes	*notes;
	struct config_notes	 cn;
	struct config		*cfg, planned;
	struct config_key	*keys;
	char			 path[1024], rate[32], rtt[32];
	char			 head[sizeof(path) + 256];
	int			 rv;

	if ((rv = target(a, path, sizeof(path))) != CTL_OK)
		return rv;
	if ((cfg = set_config_read(path)) == NULL)
		return CTL_FAIL;	/* told */
	judge_config(adv, cfg);
	adv_fmt_rate(adv->in.rate, rate, sizeof(rate));
	adv_fmt_time(adv->in.rtt, rtt, sizeof(rtt));
	snprintf(head, sizeof(head), "%s at %s over %s, in %s:",
	    adv->res.kernel, rate, rtt, path);
	ctl_wrap(stdout, "", "", head, CTL_TEXT_WIDTH);
	plan(&adv->res, &p);
	if (p.n == 0) {
		printf("nothing to change: %s\n", p.left_out > 0 ? "every "
		    "key this machine lets be set is already enough in the "
		    "config" : "every key is already enough in the config");
		config_free(cfg);
		return CTL_OK;
	}
	fflush(stdout);
	if ((notes = malloc(sizeof(*notes))) == NULL ||
	    (keys = calloc(TT_MAX_KEYS, sizeof(*keys))) == NULL)
		fatal("%s", __func__);
	planned_config(cfg, &p, &planned, keys);
	advise_notes(adv, &planned, notes, &cn);
	if ((rv = set_apply(a->socket, a->file, path, p.argv, p.n, p.nw, &cn,
	    a->out)) == CTL_OK && a->file != NULL)
		printf("%s written; tcptuned reads it at its next reload\n",
		    path);
	free(keys);
	free(notes);
	config_free(cfg);
	return rv;
}
