/*
 * A parsed config against the catalogue of the OS it is meant for
 * (catalogue.c): what cannot apply there is an error at file:line with the
 * fix; a key in no catalogue is a warning, and, when the running kernel
 * is asked (a backend), an error if that kernel has no such key.  On
 * macOS, what some xnu release refuses or lacks is a warning.  Run by
 * check (any OS, --platform), tcptuned -n and the daemon's reader (this
 * OS) once the file has parsed.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tcptune.h"
#include "catalogue.h"

/* Whether the running kernel has name: only ENOENT says it does not. */
static bool
kernel_lacks(struct sysctl_backend *be, const char *name)
{
	char	buf[TT_VALUE_MAX];

	return be != NULL && be->get(be, name, buf, sizeof(buf)) == ENOENT;
}

/*
 * Where config_check_os_each's findings go: fn gets each key's problem,
 * without the "file:line: " its caller puts before it.
 */
struct os_out {
	config_os_fn	 fn;
	void		*arg;
	const struct config *cfg;
};

static void	say(const struct os_out *, const struct config_key *, bool,
		    const char *, ...) TT_PRINTF(4, 5);

static void
say(const struct os_out *o, const struct config_key *k, bool warning,
    const char *fmt, ...)
{
	char	msg[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->fn(o->arg, o->cfg, k, warning, msg);
}

static void
unknown_key(const struct os_out *o, const struct config_key *k,
    enum tt_os os, struct sysctl_backend *be)
{
	if (kernel_lacks(be, k->name))
		say(o, k, false, "%s does not exist in this kernel "
		    "(sysctl -a does not list it)", k->name);
	else
		say(o, k, true, "%s is not in tcptune's catalogue of %s keys: "
		    "written as given%s", k->name, catalogue_os_label(os),
		    o->cfg->allow_any_sysctl ? " (AllowAnySysctl)" : "");
}

/*
 * A word the running kernel does not list for k now (Linux: a congestion
 * control not registered): a warning naming those it does.  Not an
 * error: the write makes the kernel load module tcp_NAME when there is
 * one (catalogue.c), as Debian ships tcp_bbr, and only then refuses it.
 */
static void
kernel_words(const struct os_out *o, const struct config_key *k,
    enum tt_os os, struct sysctl_backend *be)
{
	const char	*list_key, *module;
	char		 list[TT_VALUE_MAX];

	if (be == NULL ||
	    (list_key = catalogue_words_key(k->name, os, &module)) == NULL ||
	    be->get(be, list_key, list, sizeof(list)) != 0 ||
	    catalogue_word_listed(k->value, list))
		return;
	say(o, k, true, "%s: %s is not available here (available: %s): "
	    "refused unless module %s%s loads", k->name, k->value, list,
	    module, k->value);
}

/*
 * The least RAM, in GB, of a Mac whose stock maxsockbuf (newest xnu,
 * catalogue.c xnu_mem: 1/16 of the mbuf pool, at most SB_MAX) takes v;
 * 0 every Mac, -1 none.
 */
static int
xnu_stock_ram_for(long long v)
{
	const struct cat_xnu_mem	*m;
	size_t				 i;

	for (i = 0; (m = catalogue_xnu_mem_at(i)) != NULL; i++)
		if (m->to == 0 && v <= catalogue_xnu_stock(
		    "kern.ipc.maxsockbuf", 0, (long long)m->min_gb << 30))
			return m->min_gb;
	return -1;
}

/*
 * The maxsockbuf that send/recvspace meet: what cfg sets (applied first,
 * lib/plan.c), else the newest xnu's stock on a Mac of 8 GB or more
 * (catalogue.c); xnu_warnings says what a smaller Mac's stock refuses.
 */
static long long
xnu_sb_max(const struct config *cfg, bool *stock)
{
	const struct config_key	*m = config_find(cfg, "kern.ipc.maxsockbuf");
	const struct cat_xnu	*x = catalogue_xnu("kern.ipc.maxsockbuf", 0);
	long long		 v;

	*stock = m == NULL || parse_ll(m->value, &v) == -1;
	return *stock ? x->stock : v;
}

/*
 * What some xnu does not take, for check to say: a key a release kernel
 * lacks (the catalogue's per-release note), a send/recvspace above
 * maxsockbuf (ERANGE everywhere) or above 8/9 of it (ERANGE up to macOS
 * 14.3).  Warnings: the daemon's on-reject clamp can still apply them.
 */
static void
xnu_warnings(const struct os_out *o, const struct config_key *k)
{
	const struct cat_key	*c = catalogue_find(k->name, TT_OS_DARWIN);
	const struct cat_xnu	*x = catalogue_xnu(k->name, 0);
	long long		 v, sb;
	bool			 stock;
	int			 gb;

	if (x != NULL && x->stock == CAT_XNU_ABSENT) {
		say(o, k, true, "%s is %s", k->name, c->since);
		return;
	}
	if (strcmp(k->name, "net.inet.tcp.sendspace") != 0 &&
	    strcmp(k->name, "net.inet.tcp.recvspace") != 0)
		return;
	if (parse_ll(k->value, &v) == -1)
		return;
	sb = xnu_sb_max(o->cfg, &stock);
	if (v > sb) {
		say(o, k, true, "%s: %lld is above "
		    "kern.ipc.maxsockbuf %lld%s: every macOS refuses it "
		    "(ERANGE)", k->name, v, sb, stock ?
		    " (stock)" : "");
		return;
	}
	if (stock && (gb = xnu_stock_ram_for(v)) > 0)
		say(o, k, true, "%s: %lld is above "
		    "kern.ipc.maxsockbuf %lld, the stock value below %d GB of "
		    "RAM (1/16 of the mbuf pool; macOS 10.15: below %d GB): "
		    "such a Mac refuses it (ERANGE)", k->name, v,
		    catalogue_xnu_stock("kern.ipc.maxsockbuf", 0,
		    ((long long)gb << 30) - 1), gb, 2 * gb);
	if (v > xnu_sospace_max(sb, 0))
		say(o, k, true, "%s: %lld is above %lld, "
		    "8/9 of kern.ipc.maxsockbuf %lld%s: macOS up to 14.3 "
		    "(xnu-10002) refuses it (ERANGE), 14.4 (xnu-10063) on takes "
		    "it", k->name, v, xnu_sospace_max(sb, 0),
		    sb, stock ? " (stock)" : "");
}

/*
 * Every key of cfg against os's catalogue; be, when not NULL, is this
 * machine's kernel.  fn gets each error and warning, key by key in
 * cfg's order.
 */
void
config_check_os_each(const struct config *cfg, enum tt_os os,
    struct sysctl_backend *be, config_os_fn fn, void *arg)
{
	const struct os_out	 o = { fn, arg, cfg };
	const struct config_key	*k;
	char			 why[512];
	size_t			 i;

	for (i = 0; i < cfg->nkeys; i++) {
		k = &cfg->keys[i];
		switch (catalogue_check(k->name, k->value, os, why,
		    sizeof(why))) {
		case CAT_REFUSED:
			say(&o, k, false, "%s", why);
			break;
		case CAT_UNKNOWN:
			unknown_key(&o, k, os, be);
			break;
		case CAT_OK:
			if (kernel_lacks(be, k->name))
				say(&o, k, false, "%s is a %s key, but this "
				    "kernel does not have it", k->name,
				    catalogue_os_label(os));
			else if (os == TT_OS_DARWIN)
				xnu_warnings(&o, k);
			else
				kernel_words(&o, k, os, be);
			break;
		}
	}
}

struct os_lists {
	struct errlist	*errs, *warns;
};

static void
to_lists(void *arg, const struct config *cfg, const struct config_key *k,
    bool warning, const char *msg)
{
	struct os_lists	*l = arg;

	if (!warning)
		errlist_add(l->errs, "%s:%d: %s", config_key_source(cfg, k),
		    k->line, msg);
	else if (l->warns != NULL)
		errlist_add(l->warns, "%s:%d: warning: %s",
		    config_key_source(cfg, k), k->line, msg);
}

/*
 * config_check_os_each into lists: errors to errs, warnings to warns (may
 * be NULL), each "file:line: ".  Returns the number of errors.
 */
size_t
config_check_os(const struct config *cfg, enum tt_os os,
    struct sysctl_backend *be, struct errlist *errs, struct errlist *warns)
{
	struct os_lists	l = { errs, warns };
	size_t		before = errs->n;

	config_check_os_each(cfg, os, be, to_lists, &l);
	return errs->n - before;
}
