/*
 * tcptunectl advise: check the options, read this machine's ceilings
 * (read only: nothing is ever written to a sysctl), measure the round trip
 * when asked, run the model and print it, or write it as a tcptune.conf.
 * No daemon and no root needed.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

#define EXAMPLES_RATE	"(examples: 500m, 1g, 2.5G, 800mbit, 100MB/s)"
#define EXAMPLES_RTT	"(examples: 150ms, 0.15s, 150000us; plain numbers " \
			"are ms)"
#define CONFIG_MODE	0644

/* ---- the options */

static bool
to_stdout(const char *config)
{
	return config == NULL || *config == '\0' || strcmp(config, "-") == 0;
}

/* Options that need or exclude each other. */
static int
check_combination(const struct advise_args *a, const struct output *out)
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
	else if (a->config_set && to_stdout(a->config) && out->whole_stdout)
		ctl_warnx("--json and --config without a FILE would both "
		    "write to standard output");
	else
		return CTL_OK;
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
native_os(enum adv_os *os)
{
	if (strcmp(TT_PLATFORM, "darwin") == 0)
		*os = ADV_DARWIN;
	else if (strcmp(TT_PLATFORM, "freebsd") == 0)
		*os = ADV_FREEBSD;
	else if (strcmp(TT_PLATFORM, "linux") == 0)
		*os = ADV_LINUX;
	else
		return -1;
	return 0;
}

static int
choose_os(const struct advise_args *a, struct adv_input *in)
{
	enum adv_os	native;
	bool		have_native = native_os(&native) == 0;

	if (a->platform == NULL && !have_native) {
		ctl_warnx("advise knows Linux, macOS and FreeBSD: give "
		    "--platform linux, darwin or freebsd");
		return CTL_USAGE;
	}
	if (a->platform == NULL)
		in->os = native;
	else if (adv_os_from_name(a->platform, &in->os) == -1) {
		ctl_warnx("--platform \"%s\" is not linux, darwin (macos) or "
		    "freebsd", a->platform);
		return CTL_USAGE;
	}
	in->live = have_native && in->os == native;
	return CTL_OK;
}

/* ---- this machine's values, read only */

static void
read_release(struct adv_input *in)
{
	struct utsname	u;

	if (uname(&u) == -1)
		adv_input_set(in, "kernel.osrelease", NULL, errno, false);
	else
		adv_input_set(in, "kernel.osrelease", u.release, 0, false);
}

/*
 * Every key the model uses, through the daemon's backend (backend_bsd on
 * macOS and FreeBSD, /proc/sys on Linux), with get only.
 */
static void
read_live(struct adv_input *in)
{
	struct sysctl_backend	*be = backend_platform_new(NULL);
	const char *const	*k;
	char			 buf[TT_VALUE_MAX];
	int			 err;

	for (k = adv_os_keys(in->os); *k != NULL; k++) {
		if (strcmp(*k, "kernel.osrelease") == 0) {
			read_release(in);
			continue;
		}
		err = be == NULL ? ENOMEM : be->get(be, *k, buf, sizeof(buf));
		adv_input_set(in, *k, err == 0 ? buf : NULL, err, false);
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
known_keys(enum adv_os os, char *buf, size_t len)
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
	const char	*eq = strchr(arg, '=');
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
		    name, adv_os_label(in->os), keys);
		return CTL_USAGE;
	}
	words = adv_key_words(name);
	if (words == 0 ? tt_strlcpy(value, eq + 1, sizeof(value)) >=
	    sizeof(value) : set_numbers(eq + 1, words, value,
	    sizeof(value)) == -1) {
		ctl_warnx("--set %s: \"%s\" is not %s", name, eq + 1,
		    words == 3 ? "three integers (K, M, G allowed)" :
		    words == 1 ? "an integer (K, M, G allowed)" : "usable");
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
	char	host[256], err[512];
	double	timeout;
	int	port, count, rv;

	if ((rv = probe_options(a, &count, &timeout)) != CTL_OK)
		return rv;
	if (adv_split_host(a->host, host, sizeof(host), &port, err,
	    sizeof(err)) == -1) {
		ctl_warnx("--host \"%s\": %s", a->host, err);
		return CTL_USAGE;
	}
	if (adv_probe_rtt(host, port, count, timeout, p, err,
	    sizeof(err)) == -1) {
		ctl_warnx("--host %s: %s", a->host, err);
		return CTL_UNREACHABLE;
	}
	in->rtt = p->median;
	return CTL_OK;
}

/* ---- --config FILE */

/* A temporary file beside path holding data, mode 0644 whatever umask. */
static int
write_temp(const char *tmp, const char *data, size_t len)
{
	int	fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    CONFIG_MODE);
	if (fd == -1)
		return -1;
	if (fchmod(fd, CONFIG_MODE) == -1 || write_all(fd, data, len) == -1 ||
	    fsync(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return close(fd);
}

/*
 * Put tmp in place as path.  link(2) refuses an existing path in one step,
 * so no file is ever overwritten without --force; where links are not
 * supported the name is claimed with O_EXCL first.
 */
static int
install(const char *tmp, const char *path, bool force)
{
	int	fd;

	if (force)
		return rename(tmp, path);
	if (link(tmp, path) == 0)
		return unlink(tmp) == -1 && errno != ENOENT ? -1 : 0;
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != EXDEV)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, CONFIG_MODE)) == -1)
		return -1;
	close(fd);
	return rename(tmp, path);
}

/* The plist must pass tcptunectl check: a failure here is a bug. */
static int
self_check(const char *buf, size_t len, const char *path)
{
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i;

	errlist_init(&errs);
	if ((cfg = config_parse(buf, len, path, &errs)) != NULL) {
		config_free(cfg);
		return 0;
	}
	for (i = 0; i < errs.n; i++)
		ctl_warnx("bug: the advice does not parse: %s", errs.msg[i]);
	errlist_clear(&errs);
	return -1;
}

static int
write_config(const char *path, bool force, const struct advice *adv)
{
	char	*buf = NULL, tmp[PATH_MAX];
	size_t	 len = 0;
	FILE	*mf;
	int	 rv = CTL_FAIL, saved;

	if ((mf = open_memstream(&buf, &len)) == NULL) {
		ctl_warn("%s", path);
		return CTL_FAIL;
	}
	advise_plist(mf, adv);
	if (fclose(mf) == EOF || self_check(buf, len, path) == -1)
		goto out;
	if (tt_snprintf(tmp, sizeof(tmp), "%s" TT_ATOMIC_TMP "%ld", path,
	    (long)getpid()) == -1) {
		ctl_warnx("%s: name too long", path);
		goto out;
	}
	if (write_temp(tmp, buf, len) == -1)
		ctl_warn("cannot write %s", path);
	else if (install(tmp, path, force) == -1) {
		saved = errno;
		unlink(tmp);
		if (saved == EEXIST)
			ctl_warnx("%s exists: add --force to replace it", path);
		else {
			errno = saved;
			ctl_warn("%s", path);
		}
	} else
		rv = CTL_OK;
out:
	free(buf);
	return rv;
}

/* ---- the command */

int
advise_run(const struct advise_args *a, const struct output *out)
{
	static struct advice	adv;	/* large; one per run */
	static struct adv_probe	probe;
	int			rv;

	memset(&adv, 0, sizeof(adv));
	if ((rv = check_combination(a, out)) != CTL_OK ||
	    (rv = path_values(a, &adv.in)) != CTL_OK ||
	    (rv = platform_values(a, &adv.in)) != CTL_OK)
		return rv;
	if (a->host != NULL) {
		if ((rv = measure(a, &adv.in, &probe)) != CTL_OK)
			return rv;
		adv.probe = &probe;
	}
	adv_model(&adv.in, &adv.res);
	if (a->config_set && to_stdout(a->config)) {
		advise_plist(stdout, &adv);
		return CTL_OK;
	}
	if (a->config_set) {
		if ((rv = write_config(a->config, a->force, &adv)) != CTL_OK)
			return rv;
		adv.config_path = a->config;
	}
	out->advise(stdout, &adv);
	return CTL_OK;
}
