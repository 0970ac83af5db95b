/*
 * The config model: what a parsed config is and how it is checked, apart
 * from the parser (config.c, with libxml2).  A key's name (the sysctl
 * name rules, which names tcptune manages), the Mode and OnReject words;
 * a parsed config (found, freed, each key's source, its report); its
 * layers, the managed preferences file and the registry policy laid over
 * the config key by key; and the whole checked against the catalogue of
 * the OS it is meant for.  tcptuned validates what its parse helper
 * (daemon/parse_helper.c) sends with this file and must not link
 * libxml2 (docs/SECURITY.md, "Privilege separation"): nothing here
 * parses, and nothing here reads the registry.
 *
 * To see how a key is validated, read: config.c (the plist, each key's
 * Value, Mode and OnReject, the value's text), this file (its name,
 * whether tcptune manages it, the layers, then the catalogue),
 * catalogue.c (what each OS's kernel takes: arity, range, words),
 * value.c (values normalized, sizes with units) and, for tcptuned,
 * parse_wire.c (the parse helper's answer checked again); the structs
 * are in tcptune.h.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L		/* stat */
#endif

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tcptune.h"
#include "catalogue.h"

/* ---- a key's name and words */

/*
 * What tcptune manages unless the config says AllowAnySysctl: the network
 * and socket-buffer sysctls (Linux net.*; macOS and FreeBSD net.inet.*
 * and kern.ipc.*; Windows tcp.* and offload.*, the auto-tuning level and
 * RSS).  A root daemon that writes whatever its file names is
 * one mistake (or one injected line) away from kernel.core_pattern or
 * kern.securelevel; the opt-in makes that a decision, in the file.
 */
static const char *const managed_prefixes[] = {
	"net.", "kern.ipc.",
	"tcp.", "offload."	/* Windows: backend_win.c's keys */
};

/* The words of Mode and OnReject, for the parser and for status. */
const char *const config_mode_names[MODE_AT_LEAST + 1] = {
	[MODE_ENFORCE] = "enforce",
	[MODE_ONCE] = "once",
	[MODE_AT_LEAST] = "at-least",
};
const char *const config_reject_names[REJECT_CLAMP + 1] = {
	[REJECT_FAIL] = "fail",
	[REJECT_CLAMP] = "clamp",
};

const char *
key_mode_name(enum key_mode m)
{
	if ((size_t)m >= NITEMS(config_mode_names))
		return "?";
	return config_mode_names[m];
}

const char *
on_reject_name(enum on_reject r)
{
	if ((size_t)r >= NITEMS(config_reject_names))
		return "?";
	return config_reject_names[r];
}

static bool
name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
 * Why name is not a sysctl name, or NULL when it is one: dot-separated
 * parts of [A-Za-z0-9_-], none empty and none starting with '-', at least
 * two of them.  Nothing else can appear, so a name can never become "..",
 * "/" or an option when a backend maps it to a path.
 */
const char *
config_name_problem(const char *name, char *buf, size_t size)
{
	size_t	i, len, part = 0, nparts = 1;

	if ((len = strlen(name)) == 0)
		return "it is empty";
	if (len >= TT_NAME_MAX) {
		snprintf(buf, size, "it is longer than %d characters",
		    TT_NAME_MAX - 1);
		return buf;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '.') {
			if (part == 0)
				return "it has an empty part (a leading, "
				    "trailing or doubled dot)";
			part = 0;
			nparts++;
			continue;
		}
		if (!name_char(c)) {
			if (c == ' ')
				tt_strlcpy(buf, "a space is not allowed", size);
			else
				snprintf(buf, size, c > 0x20 && c < 0x7f ?
				    "'%c' is not allowed" :
				    "byte \\x%02x is not allowed", c);
			strncat(buf, " (only letters, digits, '_', '-' and "
			    "dots)", size - strlen(buf) - 1);
			return buf;
		}
		if (part++ == 0 && c == '-')
			return "a part starts with '-'";
	}
	if (part == 0)
		return "it has an empty part (a leading, trailing or doubled "
		    "dot)";
	if (nparts < 2)
		return "it needs at least two dot-separated parts";
	return NULL;
}

bool
sysctl_name_valid(const char *name)
{
	char	buf[128];

	return config_name_problem(name, buf, sizeof(buf)) == NULL;
}

bool
sysctl_name_managed(const char *name)
{
	size_t	i;

	for (i = 0; i < NITEMS(managed_prefixes); i++)
		if (strncmp(name, managed_prefixes[i],
		    strlen(managed_prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * Why path could not be read: err from the system, or EFBIG for a file
 * past TT_CONFIG_MAX_BYTES.  One wording on every OS.
 */
void
config_file_error(struct errlist *errs, const char *path, int err)
{
	if (err == EFBIG)
		errlist_add(errs, "%s: larger than %d bytes: refusing to read "
		    "it", path, TT_CONFIG_MAX_BYTES);
	else
		errlist_add(errs, "%s: %s", path, strerror(err));
}

/* ---- a parsed config */

void
config_free(struct config *cfg)
{
	if (cfg == NULL)
		return;
	free(cfg->keys);
	free(cfg);
}

const struct config_key *
config_find(const struct config *cfg, const char *name)
{
	size_t	i;

	for (i = 0; i < cfg->nkeys; i++)
		if (strcmp(cfg->keys[i].name, name) == 0)
			return &cfg->keys[i];
	return NULL;
}

/* The file a key's wanted value came from (the layers, below). */
const char *
config_key_source(const struct config *cfg, const struct config_key *k)
{
	if (k->policy && cfg->policy_path[0] != '\0')
		return cfg->policy_path;
	return k->managed && cfg->managed_path[0] != '\0' ?
	    cfg->managed_path : cfg->path;
}

/* The layers over the config, for status: "" when none. */
size_t
config_layer_names(const struct config *cfg, char *buf, size_t size)
{
	return (size_t)snprintf(buf, size, "%s%s%s", cfg->managed_path,
	    cfg->managed_path[0] != '\0' && cfg->policy_path[0] != '\0' ?
	    ", then " : "", cfg->policy_path);
}

/*
 * The layers laid over cfg's file, one line each, as tcptuned -n and
 * tcptunectl check name them before "configuration OK".
 */
void
config_report_layers_used(const struct config *cfg, FILE *out)
{
	if (cfg->managed_path[0] != '\0')
		fprintf(out, "managed preferences: %s (its keys win over "
		    "%s)\n", cfg->managed_path, cfg->path);
	if (cfg->policy_path[0] != '\0')
		fprintf(out, "registry policy: %s (its keys win over %s)\n",
		    cfg->policy_path + strlen("policy "), cfg->managed_path[0] ?
		    "both files" : cfg->path);
}

/*
 * tcptuned -n's answer for a load, done in-process (config_report_layers)
 * or through the parse helper (parse_report): every error, one a line,
 * escaped, on err, or the layers in use and "configuration OK" on out.
 * As tcptunectl check's (config_report): the errors are diagnostics, the
 * rest a report, so that 2>/dev/null hides the errors only.  Frees cfg
 * and errs; 0 when good, 1 otherwise.
 */
int
config_report_result(struct config *cfg, struct errlist *errs,
    const char *path, FILE *out, FILE *err)
{
	/* the path in a message is anyone's text: safe for a terminal */
	char	line[TT_ESCAPE_SIZE(2048)];
	size_t	i;

	if (cfg == NULL) {
		for (i = 0; i < errs->n; i++) {
			tt_escape(line, sizeof(line), errs->msg[i]);
			fprintf(err, "%s\n", line);
		}
		if (errs->n == 0) {
			tt_escape(line, sizeof(line), path);
			fprintf(err, "%s: cannot be used\n", line);
		}
		errlist_clear(errs);
		return 1;
	}
	config_report_layers_used(cfg, out);
	fprintf(out, "configuration OK\n");
	config_free(cfg);
	errlist_clear(errs);
	return 0;
}

/*
 * ---- the layers: the managed preferences file over /etc/tcptune.conf
 *
 * An MDM configuration profile with a com.apple.ManagedClient.preferences
 * payload for the domain org.tcptune.tcptuned ends up on the Mac as
 * /Library/Managed Preferences/org.tcptune.tcptuned.plist, holding the
 * payload's mcx_preference_settings: the same keys as tcptune.conf.  It is
 * read by the same reader with the same checks (config_load) and laid over
 * the local file key by key, as macOS lays forced preferences over the
 * other sources one key at a time (CFPreferencesAppValueIsForced() asks
 * about one key of a domain; Apple's "ManagedPreferences" payload reference
 * in the DeviceManagement documentation): a sysctl, CheckInterval or
 * RestoreOnExit given in the managed file wins; what it does not name
 * stays as the local file says.  So a fleet pins what it cares about and a
 * host keeps its own extra keys, and each key's status names the file its
 * wanted value came from (config_key_source, above).
 *
 * On Windows the registry policy that Group Policy or Intune leaves under
 * HKLM\SOFTWARE\Policies\tcptune (config_policy.c, policy_win.c) is one
 * more layer, laid over both files by the same rules: Windows gives policy
 * precedence over local settings, and an administrator who deploys one
 * means it to win (docs/DESIGN.md §3, Windows).
 *
 * This is the one loader, given what was parsed: which layers there are
 * (config_managed_present), each parsed by its reader (config.c's in this
 * process, config_load_layers, or the parse helper's on the files
 * tcptuned opened for it, parse_helper.c) and laid over the one below
 * (config_layers), then the registry policy and the catalogue
 * (config_layers_finish, in this process or in tcptuned on the helper's
 * answers, parse_posix.c).  So tcptunectl check, tcptuned -n and the
 * daemon read the same layers by construction.  The policy's reader is
 * handed in (policy_load): it parses, through config.c, which calls this
 * file (tests/lint/call_cycles.sh).
 */

static void
mark(struct config_key *k, bool policy)
{
	k->managed = !policy;
	k->policy = policy;
}

static const struct config_key *
find_in(const struct config *cfg, const char *name)
{
	return cfg == NULL ? NULL : config_find(cfg, name);
}

/* The keys of local, each replaced by managed's of the same name, then
 * managed's other keys in their order.  n: how many. */
static struct config_key *
merged_keys(const struct config *local, const struct config *managed,
    bool policy, size_t *n)
{
	struct config_key	*keys;
	const struct config_key	*m;
	size_t			 i;

	keys = calloc(local->nkeys + managed->nkeys + 1, sizeof(*keys));
	if (keys == NULL)
		fatal("%s", __func__);
	*n = 0;
	for (i = 0; i < local->nkeys; i++) {
		if ((m = find_in(managed, local->keys[i].name)) != NULL) {
			keys[*n] = *m;
			mark(&keys[*n], policy);
		} else
			keys[*n] = local->keys[i];
		(*n)++;
	}
	for (i = 0; i < managed->nkeys; i++) {
		if (find_in(local, managed->keys[i].name) != NULL)
			continue;
		keys[*n] = managed->keys[i];
		mark(&keys[(*n)++], policy);
	}
	return keys;
}

/*
 * Lay managed over local; both are consumed.  Returns local, changed, or
 * NULL when together they name more sysctls than the daemon keeps.
 * policy: managed is the registry policy, laid over the managed file.
 */
static struct config *
merge_layer(struct config *local, struct config *managed, bool policy,
    struct errlist *errs)
{
	struct config_key	*keys;
	size_t			 n;
	uint64_t		 d[2];

	if (managed == NULL)
		return local;
	keys = merged_keys(local, managed, policy, &n);
	if (n > TT_MAX_KEYS) {
		errlist_add(errs, "%s: with %s it makes %zu sysctls, more than "
		    "%d", managed->path, local->path, n, TT_MAX_KEYS);
		free(keys);
		config_free(local);
		config_free(managed);
		return NULL;
	}
	free(local->keys);
	local->keys = keys;
	local->nkeys = n;
	if (managed->set & CONFIG_SET_INTERVAL)
		local->check_interval = managed->check_interval;
	if (managed->set & CONFIG_SET_RESTORE)
		local->restore_on_exit = managed->restore_on_exit;
	if (managed->set & CONFIG_SET_METRICS)
		tt_strlcpy(local->metrics_dir, managed->metrics_dir,
		    sizeof(local->metrics_dir));
	/* Each file was checked alone: a key either brings is allowed. */
	local->allow_any_sysctl = local->allow_any_sysctl ||
	    managed->allow_any_sysctl;
	local->set |= managed->set;
	/* Either file changing changes the digest, and so does adding one. */
	d[0] = local->digest;
	d[1] = managed->digest;
	local->digest = fnv1a64(d, sizeof(d));
	if (policy)
		tt_strlcpy(local->policy_path, managed->path,
		    sizeof(local->policy_path));
	else
		tt_strlcpy(local->managed_path, managed->path,
		    sizeof(local->managed_path));
	config_free(managed);
	return local;
}

struct config *
config_merge(struct config *local, struct config *managed,
    struct errlist *errs)
{
	return merge_layer(local, managed, false, errs);
}

/*
 * The registry policy (config_policy.c) over the config and the managed
 * file, by the same rules: its keys win, key by key.
 */
struct config *
config_merge_policy(struct config *local, struct config *policy,
    struct errlist *errs)
{
	return merge_layer(local, policy, true, errs);
}

/*
 * Whether a managed layer is to be read at path (NULL or "": none): it
 * exists, or stat cannot say that it does not (a file behind a directory
 * that may not be searched is an error to report, not an absent layer).
 * The one test of every side that opens the layers.
 */
bool
config_managed_present(const char *managed_path)
{
	struct stat	st;

	return managed_path != NULL && managed_path[0] != '\0' &&
	    (stat(managed_path, &st) == 0 || errno != ENOENT);
}

/*
 * The config's layer, local, with the managed file's over it: both as
 * their reader parsed them, both consumed.  has_managed: there is a
 * managed layer, and managed NULL means its read failed.  A read that
 * failed (NULL, its problems already in errs) fails the whole: both files
 * are read, so that every problem of both is listed, and nothing is
 * returned unless both are good.
 */
struct config *
config_layers(struct config *local, struct config *managed, bool has_managed,
    struct errlist *errs)
{
	if (local == NULL || (has_managed && managed == NULL)) {
		config_free(local);
		config_free(managed);
		return NULL;
	}
	return config_merge(local, managed, errs);
}

/*
 * The files' layers (cfg, NULL when they failed) finished: the registry
 * policy, read by load (policy_load), over them, its problems listed
 * whatever the files' were, then, with t, the whole checked against t's
 * catalogue (and kernel when t names a backend), its warnings in warns
 * (NULL: dropped).  The config, or NULL with every problem in errs.
 */
struct config *
config_layers_finish(struct config *cfg, policy_load_fn load,
    const struct config_target *t, struct errlist *errs,
    struct errlist *warns)
{
	struct config	*policy = NULL;

	if (load(&policy, errs) == -1 || cfg == NULL) {
		config_free(cfg);
		config_free(policy);
		return NULL;
	}
	if ((cfg = config_merge_policy(cfg, policy, errs)) != NULL &&
	    t != NULL && config_check_os(cfg, t->os, t->be, errs, warns) > 0) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}

/*
 * ---- against the catalogue
 *
 * A parsed config against the catalogue of the OS it is meant for
 * (catalogue.c): what cannot apply there is an error at file:line with the
 * fix; a key in no catalogue is a warning, and, when the running kernel
 * is asked (a backend), an error if that kernel has no such key.  On
 * macOS, what some xnu release refuses or lacks is a warning.  Run by
 * check (any OS, --platform), tcptuned -n and the daemon's reader (this
 * OS) once the file has parsed.
 */

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

/*
 * A key this kernel would refuse to set here, in the words tcptuned's
 * status gives it (the backend's explain, engine.c): a global key in a
 * child network namespace.  A warning: tcptuned takes the file, applies
 * the rest and reports this key refused.
 */
static bool
kernel_refuses(const struct os_out *o, const struct config_key *k,
    struct sysctl_backend *be)
{
	char	why[512];

	if (be == NULL || be->probe == NULL || be->explain == NULL ||
	    be->probe(be, k->name) == 0 ||
	    be->explain(be, k->name, why, sizeof(why)) != 0)
		return false;
	say(o, k, true, "%s: tcptuned will leave it unset: %s", k->name, why);
	return true;
}

static void
unknown_key(const struct os_out *o, const struct config_key *k,
    enum tt_os os, struct sysctl_backend *be)
{
	if (kernel_lacks(be, k->name))
		say(o, k, false, "%s does not exist in this kernel "
		    "(sysctl -a does not list it)", k->name);
	else
		/* what tcptuned will do with it, as check says it */
		say(o, k, true, "%s is not in tcptune's catalogue of %s keys: "
		    "tcptuned sets it unchecked%s", k->name,
		    catalogue_os_label(os),
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
			if (kernel_refuses(&o, k, be))
				break;
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
