/*
 * tcptunectl advise: check the options, read this machine's ceilings
 * (read only: nothing is ever written to a sysctl), measure the round trip
 * when asked, run the model and print it, or write it as a tcptune.conf;
 * with --apply, hand it to advise_apply.c, which sets it through set.c.
 * No daemon and no root needed but for --apply.  What needs the OS
 * (uname, TCP connects, the file put in place, root) is in advise_posix.c
 * and advise_win.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptunectl.h"
#include "advise.h"

#define EXAMPLES_RATE	"(examples: 500m, 1g, 2.5G, 800mbit, 100MB/s)"
#define EXAMPLES_RTT	"(examples: 150ms, 0.15s, 150000us; plain numbers " \
			"are ms)"

/* ---- the options */

/*
 * --config alone, "-" or /dev/stdout: the config is the only output, so
 * that `advise --config /dev/stdout | tcptunectl check -` works (a file
 * written there atomically would be a rename over a device).
 */
static bool
to_stdout(const char *config)
{
	return config == NULL || *config == '\0' || strcmp(config, "-") == 0 ||
	    strcmp(config, "/dev/stdout") == 0;
}

/* --apply and -f: this machine's values, into tcptuned's config. */
static int
check_apply(const struct advise_args *a)
{
	char	why[160];

	if (a->file != NULL && !a->apply)
		ctl_warnx("-f FILE goes with --apply");
	else if (a->apply && a->config_set)
		ctl_warnx("--apply and --config exclude each other: --apply "
		    "edits tcptuned's config (or -f FILE), --config writes a "
		    "new one");
	else if (a->apply && a->out->whole_stdout)
		ctl_warnx("--apply prints its changes and the new status as "
		    "text: drop --json (then tcptunectl status --json)");
	else if (a->apply && a->nsets > 0)
		ctl_warnx("--apply works from this machine's values: --set "
		    "models other ones (run advise without --apply)");
	else if (a->apply && !advise_privileged(why, sizeof(why))) {
		ctl_warnx_wrap("--apply needs root: %s; nothing changed", why);
		return CTL_DENIED;
	} else
		return CTL_OK;
	return CTL_USAGE;
}

/* Options that need or exclude each other. */
static int
check_combination(const struct advise_args *a)
{
	if (a->rate == NULL)
		ctl_warnx("advise needs --rate, the line rate (--rate 1g)");
	else if (a->rtt == NULL && a->host == NULL)
		ctl_warnx("advise needs --rtt, the round trip (--rtt 150ms), "
		    "or --host HOST to measure it");
	else if (a->rtt != NULL && a->host != NULL)
		ctl_warnx("--rtt and --host exclude each other: give the round "
		    "trip, or have it measured");
	else if ((a->count != NULL || a->timeout != NULL) && a->host == NULL)
		ctl_warnx("--count and --timeout go with --host");
	else if (a->force && (!a->config_set || to_stdout(a->config)))
		ctl_warnx("--force goes with --config FILE");
	else if (a->config_set && to_stdout(a->config) &&
	    a->out->whole_stdout)
		ctl_warnx("--json and --config without a FILE would both "
		    "write to standard output");
	else
		return check_apply(a);
	return CTL_USAGE;
}

/* One line naming the option, its value and what is wrong with it. */
static int
value_error(const char *opt, const char *val, enum adv_perr e,
    const char *lo, const char *hi, const char *examples)
{
	switch (e) {
	case PERR_TOO_LOW:
		ctl_warnx("%s \"%s\" is below %s, the least it takes", opt,
		    val, lo);
		break;
	case PERR_TOO_HIGH:
		ctl_warnx("%s \"%s\" is above %s, the most it takes", opt,
		    val, hi);
		break;
	case PERR_AMBIGUOUS:
	case PERR_NO_UNIT:
		ctl_warnx("%s \"%s\" %s", opt, val, adv_perr_text(e));
		break;
	default:
		ctl_warnx("%s \"%s\" %s %s", opt, val, adv_perr_text(e),
		    examples);
		break;
	}
	return CTL_USAGE;
}

static int
path_values(const struct advise_args *a, struct adv_input *in)
{
	enum adv_perr	e;

	if ((e = adv_parse_rate(a->rate, &in->rate)) != PERR_OK)
		return value_error("--rate", a->rate, e, "1 kbit/s",
		    "1 Tbit/s", EXAMPLES_RATE);
	if (a->rtt != NULL && (e = adv_parse_rtt(a->rtt, &in->rtt)) !=
	    PERR_OK)
		return value_error("--rtt", a->rtt, e, "10 us", "10 s",
		    EXAMPLES_RTT);
	return CTL_OK;
}

/* The platform this was built for (configure's TT_PLATFORM), or -1 when advise knows none. */
static int
native_os(enum tt_os *os)
{
	enum tt_os	o;

	for (o = 0; o < TT_OS_N; o++)
		if (strcmp(TT_PLATFORM, catalogue_os_name(o)) == 0) {
			*os = o;
			return 0;
		}
	return -1;
}

static int
choose_os(const struct advise_args *a, struct adv_input *in)
{
	enum tt_os	native;
	bool		have_native = native_os(&native) == 0;
	char		labels[CAT_OS_LIST_MAX], names[CAT_OS_LIST_MAX];

	if (a->platform == NULL && !have_native) {
		catalogue_os_list(CAT_OS_LABELS, labels, sizeof(labels));
		catalogue_os_list(CAT_OS_NAMES, names, sizeof(names));
		ctl_warnx("advise knows %s: give --platform %s", labels,
		    names);
		return CTL_USAGE;
	}
	if (a->platform == NULL)
		in->os = native;
	else if (catalogue_os_parse(a->platform, &in->os) == -1) {
		catalogue_os_list(CAT_OS_WORDS, names, sizeof(names));
		ctl_warnx("--platform \"%s\" is not %s", a->platform, names);
		return CTL_USAGE;
	}
	in->live = have_native && in->os == native;
	if (a->apply && !in->live) {
		ctl_warnx("--apply changes this machine, which is %s: "
		    "--platform %s models another (run advise without "
		    "--apply)", have_native ? catalogue_os_label(native) :
		    TT_PLATFORM, a->platform);
		return CTL_USAGE;
	}
	return CTL_OK;
}

/* ---- this machine's values, read only */

/*
 * Every key the model uses, through the daemon's backend (backend_bsd on
 * macOS and FreeBSD, /proc/sys on Linux, CIM on Windows), with get only;
 * what the backend says of a refusal goes with it.
 */
static void
read_live(struct adv_input *in)
{
	struct sysctl_backend	*be = backend_platform_new(NULL);
	const char *const	*k;
	char			 buf[TT_VALUE_MAX], why[160];
	int			 err;

	for (k = adv_os_keys(in->os); *k != NULL; k++) {
		if (strcmp(*k, "kernel.osrelease") == 0) {
			advise_read_release(in);
			continue;
		}
		err = be == NULL ? ENOMEM : be->get(be, *k, buf, sizeof(buf));
		adv_input_set(in, *k, err == 0 ? buf : NULL, err, false);
		if (err != 0 && be != NULL && be->explain != NULL &&
		    be->explain(be, *k, why, sizeof(why)) == 0)
			adv_input_why(in, *k, why);
	}
	backend_free(be);
}

/* "4096 131072 64M" -> "4096 131072 67108864"; -1 when a word is bad. */
static int
set_numbers(const char *value, int words, char *out, size_t len)
{
	char		 buf[TT_VALUE_MAX], *w, *save = NULL;
	long long	 v;
	size_t		 used = 0;
	int		 n = 0;

	if (tt_strlcpy(buf, value, sizeof(buf)) >= sizeof(buf))
		return -1;
	out[0] = '\0';
	for (w = strtok_r(buf, " \t", &save); w != NULL;
	    w = strtok_r(NULL, " \t", &save)) {
		if (++n > words || adv_parse_size(w, &v) == -1 || v < 0 ||
		    tt_snprintf(out + used, len - used, "%s%lld",
		    used ? " " : "", v) == -1)
			return -1;
		used = strlen(out);
	}
	return n == words ? 0 : -1;
}

static void
known_keys(enum tt_os os, char *buf, size_t len)
{
	const char *const	*k;

	buf[0] = '\0';
	for (k = adv_os_keys(os); *k != NULL; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    k == adv_os_keys(os) ? "" : ", ", *k);
}

/* --set NAME=VALUE: a value the model takes instead of the live one. */
static int
apply_set(struct adv_input *in, const char *arg)
{
	char		 name[TT_NAME_MAX], value[TT_VALUE_MAX], keys[600];
	char		 choices[128];
	const char	*eq = strchr(arg, '='), *word;
	int		 words;

	if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		ctl_warnx("--set \"%s\": write NAME=VALUE", arg);
		return CTL_USAGE;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (!adv_key_known(in->os, name)) {
		known_keys(in->os, keys, sizeof(keys));
		ctl_warnx("--set %s: advise does not use it on %s; it uses %s",
		    name, catalogue_os_label(in->os), keys);
		return CTL_USAGE;
	}
	words = adv_key_words(name);
	if (words == 0 ? (word = adv_key_word(name, eq + 1)) == NULL ||
	    tt_strlcpy(value, word, sizeof(value)) >= sizeof(value) :
	    set_numbers(eq + 1, words, value, sizeof(value)) == -1) {
		adv_key_word_choices(name, choices, sizeof(choices));
		ctl_warnx("--set %s: \"%s\" is not %s", name, eq + 1,
		    words == 3 ? "three integers (K, M, G allowed)" :
		    words == 1 ? "an integer (K, M, G allowed)" :
		    choices[0] != '\0' ? choices : "usable");
		return CTL_USAGE;
	}
	if (adv_input_set(in, name, value, 0, true) == -1) {
		ctl_warnx("--set %s: \"%s\" is not usable", name, eq + 1);
		return CTL_USAGE;
	}
	return CTL_OK;
}

static int
platform_values(const struct advise_args *a, struct adv_input *in)
{
	int	i, rv;

	if ((rv = choose_os(a, in)) != CTL_OK)
		return rv;
	if (in->live)
		read_live(in);
	for (i = 0; i < a->nsets; i++)
		if ((rv = apply_set(in, a->sets[i])) != CTL_OK)
			return rv;
	return CTL_OK;
}

/* ---- --host */

static int
probe_options(const struct advise_args *a, int *count, double *timeout)
{
	long long	n;
	enum adv_perr	e;

	*count = ADV_COUNT_DEFAULT;
	*timeout = ADV_TIMEOUT_DEFAULT;
	if (a->count != NULL && (parse_ll(a->count, &n) == -1 || n < 1 ||
	    n > ADV_COUNT_MAX)) {
		ctl_warnx("--count \"%s\" is not a number from 1 to %d",
		    a->count, ADV_COUNT_MAX);
		return CTL_USAGE;
	}
	if (a->count != NULL)
		*count = (int)n;
	if (a->timeout != NULL && (e = adv_parse_timeout(a->timeout,
	    timeout)) != PERR_OK)
		return value_error("--timeout", a->timeout, e, "10 ms", "10 s",
		    "(examples: 2s, 500ms; plain numbers are seconds)");
	return CTL_OK;
}

static int
measure(const struct advise_args *a, struct adv_input *in,
    struct adv_probe *p)
{
	double	timeout;
	int	count, rv;

	if ((rv = probe_options(a, &count, &timeout)) != CTL_OK)
		return rv;
	return advise_measure(a->host, count, timeout, in, p);
}

/* ---- --config FILE */

/* ---- the command */

int
advise_run(const struct advise_args *a)
{
	static struct advice	adv;	/* large; one per run */
	static struct adv_probe	probe;
	int			rv;

	memset(&adv, 0, sizeof(adv));
	if ((rv = check_combination(a)) != CTL_OK ||
	    (rv = path_values(a, &adv.in)) != CTL_OK ||
	    (rv = platform_values(a, &adv.in)) != CTL_OK)
		return rv;
	if (a->host != NULL) {
		if ((rv = measure(a, &adv.in, &probe)) != CTL_OK)
			return rv;
		adv.probe = &probe;
	}
	adv_model(&adv.in, &adv.res);
	/* advice read live inside WSL is for WSL's kernel, not Windows' */
	if (adv.in.live && adv.in.os == TT_OS_LINUX && tt_wsl(NULL))
		ctl_warnx("note: %s", TT_WSL_NOTE);
	if (a->apply)
		return advise_apply(a, &adv);
	if (a->config_set && to_stdout(a->config)) {
		advise_plist(stdout, &adv);
		return CTL_OK;
	}
	if (a->config_set) {
		if ((rv = advise_write_config(a->config, a->force, &adv)) !=
		    CTL_OK)
			return rv;
		adv.config_path = a->config;
	}
	a->out->advice(stdout, &adv);
	return CTL_OK;
}
