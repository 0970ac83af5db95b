/*
 * tcptunectl set [-f FILE] KEY=VALUE... and unset [-f FILE] KEY...: the
 * config edited in one step.  The file (the running daemon's config, or
 * FILE) is read with the config reader, the edits applied, the result
 * written out by the one writer (config_write.c) and read back with every check of the daemon's
 * (config.c, then this OS's catalogue): only then is it written, whole,
 * through the trust rule (trust_write_file: a temporary file renamed over
 * it, so a reader or a concurrent set sees the old file or the new one,
 * never a torn one; the last writer wins).  Without -f the daemon then
 * reloads it and the new status is printed.  A refused edit writes
 * nothing, and so does a reload the daemon refuses, or an edited key the
 * kernel refuses at that reload: the file is put back as it was.  A file
 * set did not write (the shipped one, commented) is copied to FILE.orig
 * before it is first replaced.  advise --apply edits through the same
 * path (set_apply).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptunectl.h"

/* The comment above a file set writes, unless advise gives its own. */
static const struct config_notes set_notes = {
	"Written by tcptunectl set: edit with it, or by hand.", NULL, NULL
};

/* Copies of a hand-written config set keeps: .orig, .orig.1 ... */
#define ORIG_COPIES	10

static struct config_key *
find_key(struct config *cfg, const char *name)
{
	size_t	i;

	for (i = 0; i < cfg->nkeys; i++)
		if (strcmp(cfg->keys[i].name, name) == 0)
			return &cfg->keys[i];
	return NULL;
}

/*
 * One KEY=VALUE or KEY into cfg; -1 when refused (told).  A key new to
 * the config is held as nw says (NULL: enforced, the default); one
 * already there keeps its Mode and OnReject.
 */
static int
edit(struct config *cfg, const char *arg, bool unset,
    const struct set_new *nw)
{
	struct config_key	*k;
	char			 name[TT_NAME_MAX];
	const char		*eq = strchr(arg, '=');
	size_t			 n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n >= sizeof(name)) {
		ctl_warnx("\"%.*s\" is not a sysctl name", (int)n, arg);
		return -1;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	if (!sysctl_name_valid(name)) {
		ctl_warnx("\"%s\" is not a sysctl name", name);
		return -1;
	}
	k = find_key(cfg, name);
	if (unset) {
		if (k == NULL) {
			ctl_warnx("%s is not in %s", name, cfg->path);
			return -1;
		}
		memmove(k, k + 1, (size_t)(cfg->keys + --cfg->nkeys - k) *
		    sizeof(*k));
		return 0;
	}
	if (k == NULL) {
		if (cfg->nkeys == TT_MAX_KEYS) {
			ctl_warnx("%s: more than %d sysctls", cfg->path,
			    TT_MAX_KEYS);
			return -1;
		}
		k = &cfg->keys[cfg->nkeys++];
		memset(k, 0, sizeof(*k));
		tt_strlcpy(k->name, name, sizeof(k->name));
		if (nw != NULL) {
			k->mode = nw->mode;
			k->on_reject = nw->on_reject;
		}
	}
	if (value_normalize(eq + 1, k->value, sizeof(k->value)) == -1 ||
	    k->value[0] == '\0') {
		ctl_warnx("%s: the value is empty or too long", name);
		return -1;
	}
	return 0;
}

/*
 * The edited file read back as the daemon will: its own errors, then
 * each edited key against this OS's catalogue (a key in none is refused
 * here: set writes only what tcptune knows; edit by hand for the rest)
 * and against this kernel: a key it refuses even to root (a global key
 * inside a network namespace) is refused, as advise --apply leaves it
 * out, rather than written for tcptuned to report refused at every check.
 * The config as read back (sizes in bytes), or NULL.
 */
static struct config *
validate(const char *buf, size_t len, const char *path, char *const *args,
    int nargs, bool unset)
{
	struct errlist	 errs;
	struct config	*cfg;
	const struct config_key *k;
	char		 name[TT_NAME_MAX], why[512];
	const char	*msg;
	size_t		 i, plen = strlen(path);
	int		 a, bad = 0;

	errlist_init(&errs);
	if ((cfg = config_parse(buf, len, path, &errs)) == NULL ||
	    config_check_os(cfg, catalogue_host_os(), NULL, &errs, NULL) > 0)
		bad = 1;
	/* Lines of the text never written mean nothing: the reason only. */
	for (i = 0; i < errs.n; i++)
		ctl_warnx("refused: %s", strncmp(errs.msg[i], path, plen) == 0 &&
		    errs.msg[i][plen] == ':' && (msg = strstr(errs.msg[i] + plen +
		    1, ": ")) != NULL ? msg + 2 : errs.msg[i]);
	for (a = 0; cfg != NULL && !unset && a < nargs; a++) {
		tt_strlcpy(name, args[a], sizeof(name));
		name[strcspn(name, "=")] = '\0';
		if ((k = config_find(cfg, name)) == NULL)
			continue;
		if (catalogue_check(k->name, k->value, catalogue_host_os(),
		    why, sizeof(why)) == CAT_UNKNOWN) {
			ctl_warnx("%s is not in tcptune's catalogue of %s keys: "
			    "add it by hand", name,
			    catalogue_os_label(catalogue_host_os()));
			bad = 1;
		} else if (!advise_key_writable(k->name, why, sizeof(why))) {
			ctl_warnx_wrap("refused: %s: %s", k->name, why);
			bad = 1;
		}
	}
	errlist_clear(&errs);
	if (bad) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}

/*
 * The config as read back written whole (sizes as bytes, as status shows
 * them), by the trust rule: a temporary file renamed over path.
 */
static int
write_back(const struct config *good, const struct config_notes *notes,
    const char *path, char *why, size_t len)
{
	char	*buf;
	size_t	 buflen;
	int	 rv;

	if (config_write(good, notes, &buf, &buflen) == -1)
		return tt_why(why, len, "out of memory");
	rv = trust_write_file(path, 0, buf, buflen, 0644, why, len);
	free(buf);
	return rv;
}

/*
 * How to start a config: what set and advise --apply say without one,
 * why there is none and, for the daemon's, what comes after.
 */
static void
no_config(const char *path, const char *why, const char *then)
{
	ctl_warnx_wrap("%s: no such file: %s; start one with tcptunectl "
	    "advise --rate RATE --rtt TIME --config %s (the advice for a path) "
	    "or tcptunectl import FILE (a sysctl.conf)%s; nothing changed",
	    path, why, path, then);
}

/*
 * Whether the comment above old's <plist> is one a tcptune tool writes:
 * set's head ("Written by tcptunectl set") and advise's ("... written by
 * tcptunectl advise.") both say so.
 */
static bool
head_ours(const char *old, size_t oldlen)
{
	const char	*end = old + oldlen, *plist, *open, *close;

	if ((plist = tt_mem_find(old, end, "<plist")) == NULL ||
	    (open = tt_mem_find(old, plist, "<!--")) == NULL ||
	    (close = tt_mem_find(open, plist, "-->")) == NULL)
		return false;
	return tt_mem_find(open, close, "ritten by tcptunectl ") != NULL;
}

/*
 * Whether old is a file the one writer laid out, headed by set's comment
 * or advise's, whatever its other comments: set rewrites such a file and
 * loses nothing of the user's, and so does advise --apply, so that
 * alternating them keeps no .orig copy (issue 40 item 5).  Any other
 * (the shipped config, with its reasons in comments; a file edited by
 * hand) loses its comments and layout when set replaces it.
 */
static bool
written_by_tcptune(const struct config *cfg, const char *old, size_t oldlen)
{
	return head_ours(old, oldlen) && config_same_layout(cfg, old, oldlen);
}

/*
 * old kept beside path before set replaces it: path.orig, or the first
 * free path.orig.N when an earlier copy is there (never replaced: it may
 * be the shipped file).  0, or -1 with why.
 */
static int
keep_copy(const char *path, const char *old, size_t oldlen, char *copy,
    size_t copylen, char *why, size_t whylen)
{
	int	n;

	for (n = 0; n < ORIG_COPIES; n++) {
		if (n == 0)
			snprintf(copy, copylen, "%s.orig", path);
		else
			snprintf(copy, copylen, "%s.orig.%d", path, n);
		if (trust_write_file(copy, TRUST_NO_REPLACE, old, oldlen, 0644,
		    why, whylen) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return tt_why(why, whylen, "%s.orig to .orig.%d are all there",
	    path, ORIG_COPIES - 1);
}

/*
 * A config set did not write is copied before set first replaces it, and
 * said: its comments and layout are not kept.  0, or -1 (told): then
 * nothing is written.
 */
static int
keep_hand_written(const char *path, const char *old, size_t oldlen)
{
	char	copy[1024], why[256];

	if (keep_copy(path, old, oldlen, copy, sizeof(copy), why,
	    sizeof(why)) == -1) {
		ctl_warnx_wrap("%s: not changed: it has comments or a layout of "
		    "its own, which are not kept, and no copy could be kept: %s",
		    path, why);
		return -1;
	}
	ctl_warnx_wrap("%s has comments or a layout of its own, which are not "
	    "kept: the file as it was is kept as %s", path, copy);
	return 0;
}

/*
 * The running daemon's config path; CTL_OK when the daemon answered,
 * else why not (told).  No daemon, no edit: the file would be written
 * and put back when the reload finds none.  tcptuned does not start
 * without a config, so with no daemon and no file at the default path
 * there is no config yet: how to start one is said (ctl_unreachable).
 */
int
set_daemon_config(const char *socket, char *path, size_t len)
{
	struct reply	r;
	int		rv;

	tt_strlcpy(path, TT_CONFIG_PATH, len);
	/* one message: no daemon, the next step (ctl_log.c), and this */
	ctl_unreachable_note("nothing changed (or give -f FILE to edit a "
	    "config only)");
	rv = client_request(socket, MSG_STATUS, &r);
	ctl_unreachable_note(NULL);
	if (rv == CTL_OK) {
		if (r.info.config_path[0] != '\0')
			tt_strlcpy(path, r.info.config_path, len);
		reply_free(&r);
	}
	return rv;
}

/* Reload: CTL_OK when the daemon took the file. */
static int
reload(const char *socket, const struct output *out)
{
	struct reply	r;
	int		rv;

	if ((rv = client_request(socket, MSG_RELOAD, &r)) != CTL_OK)
		return rv;
	if (r.result.code != RESULT_OK) {
		out->result("reload", &r);
		rv = CTL_FAIL;
	}
	reply_free(&r);
	return rv;
}

/* Whether name is one of the KEY=VALUE args. */
static bool
edited(const char *name, char *const *args, int nargs)
{
	size_t	n = strlen(name);
	int	a;

	for (a = 0; a < nargs; a++)
		if (strncmp(args[a], name, n) == 0 && args[a][n] == '=')
			return true;
	return false;
}

/*
 * The keys of args the kernel refused at the reload, each told with the
 * daemon's reason: what access(2) could not foresee (a congestion
 * control this kernel does not have, a size above macOS's ceiling).
 */
static int
refused_edits(const struct reply *r, char *const *args, int nargs)
{
	const struct msg_key_status	*k;
	char				 num[32];
	size_t				 i;
	int				 n = 0;

	for (i = 0; i < r->nkeys; i++) {
		k = &r->keys[i];
		if (k->state != KS_REFUSED || !edited(k->name, args, nargs))
			continue;
		ctl_warnx_wrap("refused: %s: the kernel refused %s: %s %s%s%s",
		    k->name, k->applied, errno_label(k->err, num, sizeof(num)),
		    strerror(k->err), k->note[0] ? ": " : "", k->note);
		n++;
	}
	return n;
}

/*
 * The old bytes back in path after what went wrong (what): reloaded
 * too when the daemon took the new file (again), so that the file says
 * what the daemon runs.
 */
static void
put_back(const char *socket, const char *path, const char *old,
    size_t oldlen, bool again, const char *what, const struct output *out)
{
	char	why[256];

	if (trust_write_file(path, 0, old, oldlen, 0644, why, sizeof(why)) ==
	    -1)
		ctl_warnx("%s: %s and the file could not be put back: %s",
		    path, what, why);
	else if (again && reload(socket, out) != CTL_OK)
		ctl_warnx_wrap("%s: %s: the file is put back as it was, but "
		    "tcptuned did not reload it", path, what);
	else if (again)
		ctl_warnx_wrap("%s: not changed: %s, the file is as it was",
		    path, what);
	else
		ctl_warnx("%s: not changed: %s, the file is as it was", path,
		    what);
}

/*
 * The file written is in force only once the daemon has reloaded it and
 * the kernel has taken each edited key (args; none for unset): else the
 * old bytes are put back, so that the file keeps only what the kernel
 * takes.  The new status is printed.
 */
static int
reload_or_put_back(const char *socket, const char *path, const char *old,
    size_t oldlen, char *const *args, int nargs, const struct output *out)
{
	struct reply	r;
	int		rv;

	if ((rv = reload(socket, out)) != CTL_OK) {
		put_back(socket, path, old, oldlen, false, "the reload failed",
		    out);
		return rv;
	}
	if ((rv = client_request(socket, MSG_STATUS, &r)) != CTL_OK)
		return rv;	/* taken: the file stays */
	if (refused_edits(&r, args, nargs) > 0) {
		put_back(socket, path, old, oldlen, true,
		    "the kernel refused it", out);
		rv = CTL_FAIL;
	} else
		rv = out->status(&r) == -1 ? CTL_FAIL : CTL_OK;
	reply_free(&r);
	return rv;
}

/*
 * path read whole (the bytes kept in *old, to free) and parsed, or NULL.
 * It is opened as the daemon opens its config (CONFIG_CHECK_OWNER: the
 * held-descriptor walk of trust_posix.c, the owner and mode rule), so a
 * file the daemon refuses is refused here in the daemon's words: writing
 * a user's file back as root's would make root apply the user's keys.
 * What passes is root's (set runs as root only), so the file written
 * back has the owner it had.
 */
static struct config *
load(const char *path, char **old, size_t *oldlen)
{
	struct errlist	 errs;
	struct config	*cfg = NULL;
	size_t		 i;
	int		 err;

	errlist_init(&errs);
	*old = NULL;
	if ((err = config_file_read(path, CONFIG_CHECK_OWNER, old, oldlen,
	    &errs)) == ENOENT) {
		no_config(path, "nothing to edit", "");
		errlist_clear(&errs);
		return NULL;
	}
	if (err > 0)
		config_file_error(&errs, path, err);
	else if (err == 0)
		cfg = config_parse(*old, *oldlen, path, &errs);
	if (cfg == NULL) {
		for (i = 0; i < errs.n; i++)
			ctl_warnx("%s", errs.msg[i]);
		ctl_warnx("%s: not changed: fix it first (tcptunectl check)",
		    path);
		free(*old);
		*old = NULL;
	}
	errlist_clear(&errs);
	return cfg;
}

/*
 * The config at path as set reads it (the daemon's trust rule), for
 * advise --apply to judge the advice against what the file holds; NULL
 * when it cannot be used (told).
 */
struct config *
set_config_read(const char *path)
{
	struct config	*cfg;
	char		*old;
	size_t		 oldlen;

	cfg = load(path, &old, &oldlen);
	free(old);
	return cfg;
}

/*
 * The edits of args into path, checked, written, and without file
 * reloaded; nw, when not NULL, says how each key new to the config is
 * held (set_new).
 */
static int
edit_config(const char *socket, const char *file, const char *path,
    char *const *args, int nargs, bool unset, const struct set_new *nw,
    const struct config_notes *notes, const struct output *out)
{
	struct config	*cfg, *good = NULL;
	char		*old, *buf = NULL, why[256];
	size_t		 oldlen, len;
	bool		 ours;
	int		 a, rv = CTL_FAIL;

	if ((cfg = load(path, &old, &oldlen)) == NULL)
		return CTL_FAIL;
	if (cfg->nkeys == 0 && (cfg->keys = calloc(TT_MAX_KEYS,
	    sizeof(*cfg->keys))) == NULL)
		fatal("%s", __func__);
	ours = written_by_tcptune(cfg, old, oldlen);
	for (a = 0; a < nargs; a++)
		if (edit(cfg, args[a], unset, nw ? &nw[a] : NULL) == -1)
			break;
	if (a < nargs)
		ctl_warnx("%s: not changed", path);
	else if (config_write(cfg, notes, &buf, &len) == -1)
		fatal("%s", __func__);
	else if ((good = validate(buf, len, path, args, nargs, unset)) == NULL)
		ctl_warnx("%s: not changed", path);
	else if (!ours && keep_hand_written(path, old, oldlen) == -1)
		;	/* told */
	else if (write_back(good, notes, path, why, sizeof(why)) == -1)
		ctl_warnx("%s: not changed: %s", path, why);
	else
		rv = file != NULL ? CTL_OK : reload_or_put_back(socket, path,
		    old, oldlen, args, unset ? 0 : nargs, out);
	free(buf);
	free(old);
	config_free(good);
	config_free(cfg);
	return rv;
}

/* A word that is a number, not a key: the rest of a split value. */
static bool
number_word(const char *w)
{
	return w[0] >= '0' && w[0] <= '9' && strchr(w, '=') == NULL;
}

/*
 * args[a], a KEY=VALUE, joined with the numbers after it: a value of
 * several numbers the shell split because it was not quoted.  How many
 * numbers followed.
 */
static int
split_value(char *const *args, int nargs, int a, char *whole, size_t len)
{
	size_t	used;
	int	n;

	tt_strlcpy(whole, args[a], len);
	for (n = 1; a + n < nargs && number_word(args[a + n]); n++)
		if ((used = strlen(whole)) < len)
			snprintf(whole + used, len - used, " %s", args[a + n]);
	return n - 1;
}

/*
 * arg as import reads a sysctl.conf(5) line, in place: blanks around the
 * '=' dropped ('net.ipv4.tcp_rmem = 4096 ...', a line pasted whole) and a
 * name with '/' separators (sysctl.d(5), net/ipv4/tcp_rmem) dotted.
 */
static void
arg_as_conf_line(char *arg)
{
	char	*eq = strchr(arg, '='), *end, *p, *v;

	end = eq != NULL ? eq : arg + strlen(arg);
	for (p = arg; p < end; p++)
		if (*p == '/')
			*p = '.';
	if (eq == NULL)
		return;
	for (p = eq; p > arg && (p[-1] == ' ' || p[-1] == '\t'); p--)
		;
	for (v = eq + 1; *v == ' ' || *v == '\t'; v++)
		;
	*p = '=';
	memmove(p + 1, v, strlen(v) + 1);
}

/*
 * The arguments' shape, before anything is read: set takes KEY=VALUE
 * words, unset KEY words.  A usage error (told) or CTL_OK.
 */
static int
check_args(char *const *args, int nargs, bool unset)
{
	char	whole[TT_NAME_MAX + TT_VALUE_MAX + 8];
	int	a;

	for (a = 0; a < nargs; a++) {
		arg_as_conf_line(args[a]);
		if (unset && strchr(args[a], '=') != NULL) {
			ctl_warnx_wrap("unset %s: unset takes keys only, no "
			    "value: unset KEY...", args[a]);
			return CTL_USAGE;
		}
		if (unset || strchr(args[a], '=') != NULL) {
			if (!unset && split_value(args, nargs, a, whole,
			    sizeof(whole)) > 0) {
				ctl_warnx_wrap("set: \"%s\" is not KEY=VALUE: a "
				    "value of several numbers is one argument, "
				    "in quotes: set '%s'", args[a + 1], whole);
				return CTL_USAGE;
			}
			continue;
		}
		ctl_warnx_wrap("set %s: no value: say KEY=VALUE, in quotes "
		    "when the value has spaces: set '%s=VALUE'", args[a],
		    args[a]);
		return CTL_USAGE;
	}
	return CTL_OK;
}

int
set_run(const char *socket, const char *file, char *const *args, int nargs,
    bool unset, const struct output *out)
{
	char	path[1024], why[160];
	int	rv;

	if (nargs == 0) {
		ctl_warnx("%s needs %s", unset ? "unset" : "set", unset ?
		    "KEY..." : "KEY=VALUE...");
		return CTL_USAGE;
	}
	if ((rv = check_args(args, nargs, unset)) != CTL_OK)
		return rv;
	if (!advise_privileged(why, sizeof(why))) {
		ctl_warnx_wrap("%s needs root: %s; nothing changed", unset ?
		    "unset" : "set", why);
		return CTL_DENIED;
	}
	if (file != NULL)
		tt_strlcpy(path, file, sizeof(path));
	else if ((rv = set_daemon_config(socket, path, sizeof(path))) !=
	    CTL_OK)
		return rv;
	return edit_config(socket, file, path, args, nargs, unset, NULL,
	    &set_notes, out);
}

/*
 * advise --apply: KEY=VALUE args set in path (the daemon's config, from
 * set_daemon_config, or file) as set does, keys new to it held as nw,
 * the file's comments advise's (notes), as advise --config writes them.
 */
int
set_apply(const char *socket, const char *file, const char *path,
    char *const *args, int nargs, const struct set_new *nw,
    const struct config_notes *notes, const struct output *out)
{
	return edit_config(socket, file, path, args, nargs, false, nw, notes,
	    out);
}
