/*
 * The other places a key of the config is set: the files other tools
 * keep the same keys in, read at boot or by a running tuner.  tcptune
 * does not change them; check, the daemon's log at start and status
 * name them beside a key, so that an administrator sees who else sets
 * it and what it would be set to after the next boot.
 *
 * Each OS's places are chosen at the end (other_sources_scan); every
 * path is read under a root (other_sources_root: TT_SOURCES_ROOT, else "/"),
 * so that tests lay out their own /etc.  The daemon reads these files
 * as root, so each is read as untrusted: a regular file only, opened
 * without following a symbolic link (one inside the root is resolved
 * first and must stay inside it; one to /dev/null masks, as
 * systemd-sysctl takes it), at most OTHER_FILE_MAX bytes, no NUL byte,
 * and at most OTHER_DIR_FILES files a directory.  What cannot be read
 * is passed over: these are hints beside a key, never a reason to stop.
 *
 * A sysctl.conf line is read by sysctl_conf_split(), which tcptunectl
 * import also uses, and a launchd job by import's reader
 * (shell_scan_launchd), handed in by the caller; the files are opened
 * by other_sources_posix.c (other_sources_win.c on Windows, which reads
 * none).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources.h"

#define OTHER_DIR_FILES	512	/* files of one directory looked at */
#define OTHER_PROCS	65536	/* /proc entries looked at for bpftune */
#define OTHER_INCLUDES	8	/* depth of tuned's include= chains */

/* The scan under way: what is kept, for which config, under which root. */
struct scan {
	struct other_sources	*out;
	const struct config	*cfg;
	const char		*root;
	launchd_read_fn		 launchd;	/* NULL: jobs not read */
};

/* A sink for the launchd reader: its settings, from one file. */
struct plist_sink {
	struct shell_sink	 sk;		/* first: the reader's */
	struct scan		*s;
	const char		*path;
	const char		*how;
};

const char *
other_sources_root(void)
{
	const char	*r = getenv(OTHER_ROOT_ENV);

	return r != NULL && r[0] == '/' ? r : "/";
}

static const char how_launchd[] = "run at boot by launchd";

/*
 * One setting found: kept when the config has the key.  A later one of
 * the same kind of source (same how) replaces an earlier: the one
 * applied last is the one in force after a boot.  launchd jobs run in
 * no order anyone sets: each job's is kept.
 */
static void
keep(struct scan *s, const char *name, const char *raw, const char *path,
    int line, const char *how)
{
	struct other_sources	*o = s->out;
	struct other_setting	*v = NULL;
	char			 value[TT_VALUE_MAX];
	size_t			 i;

	if (config_find(s->cfg, name) == NULL ||
	    value_normalize(raw, value, sizeof(value)) == -1)
		return;
	for (i = 0; i < o->n && v == NULL; i++)
		if (o->v[i].how == how && strcmp(o->v[i].name, name) == 0 &&
		    (how != how_launchd || strcmp(o->v[i].path, path) == 0))
			v = &o->v[i];
	if (v == NULL) {
		if (o->n == OTHER_MAX)
			return;
		v = &o->v[o->n++];
	}
	tt_strlcpy(v->name, name, sizeof(v->name));
	tt_strlcpy(v->value, value, sizeof(v->value));
	tt_strlcpy(v->path, path, sizeof(v->path));
	v->line = line;
	v->how = how;
}

/*
 * "name = value" of sysctl.conf(5) and sysctl.d(5), comments already
 * cut: a leading '-' (sysctl.d: ignore failures) dropped, '/' in the
 * name read as '.'.  1 with *name and *value pointing into s (changed),
 * 0 when s is not one.
 * https://man7.org/linux/man-pages/man5/sysctl.d.5.html
 */
int
sysctl_conf_split(char *s, char **name, char **value)
{
	char	*eq, *end, *p;

	if ((eq = strchr(s, '=')) == NULL)
		return 0;
	if (*s == '-')
		s++;
	while (isspace((unsigned char)*s))
		s++;
	for (end = eq; end > s && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	for (p = s; *p != '\0'; p++)
		if (*p == '/')
			*p = '.';
	if (!sysctl_name_valid(s))
		return 0;
	*name = s;
	*value = eq + 1;
	return 1;
}

/* A text file: as read, but none with a NUL byte (not a text). */
static char *
read_text(const struct scan *s, const char *path)
{
	char	*buf;
	size_t	 len;

	if ((buf = other_read_file(s->root, path, &len)) != NULL &&
	    memchr(buf, '\0', len) != NULL) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The next line of *p, cut, blanks trimmed both ends; NULL at the end. */
static char *
next_line(char **p)
{
	char	*s = *p, *nl, *e;

	if (s == NULL)
		return NULL;
	if ((nl = strchr(s, '\n')) != NULL)
		*nl++ = '\0';
	*p = nl;
	while (isspace((unsigned char)*s))
		s++;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	return s;
}

/* A value in double quotes (loader.conf's name="value"): without them. */
static char *
unquote(char *v)
{
	size_t	n;

	while (isspace((unsigned char)*v))
		v++;
	n = strlen(v);
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v[n - 1] = '\0';
		v++;
	}
	return v;
}

/*
 * Every "name = value" line of a sysctl.conf, sysctl.d file or
 * loader.conf: '#' and ';' comments, as import reads them.
 */
static void
read_conf(struct scan *s, const char *path, const char *how)
{
	char	*buf, *p, *line, *name, *value, *c;
	int	 n = 0;

	if ((buf = read_text(s, path)) == NULL)
		return;
	for (p = buf; (line = next_line(&p)) != NULL; ) {
		n++;
		if (*line == '#' || *line == ';' || *line == '\0')
			continue;
		if ((c = strpbrk(line, "#;")) != NULL)	/* "a = b # why" */
			*c = '\0';
		if (sysctl_conf_split(line, &name, &value) == 1)
			keep(s, name, unquote(value), path, n, how);
	}
	free(buf);
}

/* ---- Linux: sysctl.d in systemd-sysctl's order */

struct conf_file {
	char	name[OTHER_NAME_MAX];
	char	dir[64];
};

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int
conf_file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct conf_file *)a)->name,
	    ((const struct conf_file *)b)->name);
}

/* The files of the directories, as collected. */
struct conf_list {
	struct conf_file	*files;
	size_t			 n;
	const char		*dir;
};

/* One name of dir: a *.conf not named by an earlier dir is added. */
static bool
add_conf_file(void *arg, const char *name)
{
	struct conf_list	*l = arg;
	size_t			 i, len = strlen(name);

	if (l->n == OTHER_DIR_FILES)
		return false;
	if (len < 6 || strcmp(name + len - 5, ".conf") != 0)
		return true;
	for (i = 0; i < l->n && strcmp(l->files[i].name, name) != 0; i++)
		;
	if (i < l->n)			/* masked by the earlier dir's */
		return true;
	tt_strlcpy(l->files[l->n].name, name, sizeof(l->files[0].name));
	tt_strlcpy(l->files[l->n].dir, l->dir, sizeof(l->files[0].dir));
	l->n++;
	return true;
}

static const char how_sysctl_d[] = "applied at boot by systemd-sysctl";
static const char how_sysctl_conf[] =
    "applied at boot by sysctl --system (and systemd-sysctl where "
    "/etc/sysctl.d/99-sysctl.conf links to it)";

/*
 * systemd-sysctl's files (sysctl.d(5); systemd src/sysctl/sysctl.c reads
 * CONF_PATHS_STRV("sysctl.d") through conf_files_list_strv()): every
 * *.conf of these directories, a name in an earlier directory masking
 * the same name in a later one, all sorted by name whichever directory
 * they are in and applied in that order, so that the last setting of a
 * key wins.  procps sysctl --system reads the same directories the same
 * way, then /etc/sysctl.conf last (procps commit 1009592 "sysctl: add
 * --system switch": "/etc/sysctl.conf is always applied last").
 */
static void
scan_sysctl_d(struct scan *s)
{
	static const char *const dirs[] = {
		"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d",
		"/usr/lib/sysctl.d", "/lib/sysctl.d",
	};
	struct conf_list	 l = { NULL, 0, NULL };
	char			 path[OTHER_PATH_MAX];
	size_t			 i;

	if ((l.files = calloc(OTHER_DIR_FILES, sizeof(*l.files))) == NULL)
		return;
	for (i = 0; i < NITEMS(dirs); i++) {
		l.dir = dirs[i];
		other_dir_each(s->root, dirs[i], OTHER_DIR_FILES,
		    add_conf_file, &l);
	}
	qsort(l.files, l.n, sizeof(*l.files), conf_file_cmp);
	for (i = 0; i < l.n; i++) {
		snprintf(path, sizeof(path), "%s/%s", l.files[i].dir,
		    l.files[i].name);
		read_conf(s, path, how_sysctl_d);
	}
	free(l.files);
	read_conf(s, "/etc/sysctl.conf", how_sysctl_conf);
}

/* ---- Linux: tuned's active profile */

static const char how_tuned[] = "applied by tuned's active profile";

static void	 tuned_profile(struct scan *, const char *, int);

/*
 * A profile's tuned.conf: the first of its directories that has one
 * (tuned.conf(5): a profile in /etc/tuned overrides the one of the same
 * name in /usr/lib/tuned; newer releases keep profiles in a profiles/
 * subdirectory of each, looked in first).  The path found, or -1.
 */
static int
tuned_conf_path(const struct scan *s, const char *name, char *path,
    size_t len)
{
	static const char *const dirs[] = {
		"/etc/tuned/profiles", "/etc/tuned", "/usr/lib/tuned/profiles",
		"/usr/lib/tuned",
	};
	size_t	i;

	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL)
		return -1;
	for (i = 0; i < NITEMS(dirs); i++) {
		snprintf(path, len, "%s/%s/tuned.conf", dirs[i], name);
		if (other_file_exists(s->root, path))
			return 0;
	}
	return -1;
}

/*
 * include= of [main]: the profiles named (',' or blanks between) read
 * first, so that this profile's own [sysctl] lines win over theirs
 * (tuned.conf(5), "include").
 */
static void
tuned_includes(struct scan *s, char *list, int depth)
{
	char	*w, *save = NULL;

	for (w = strtok_r(list, ", \t", &save); w != NULL;
	    w = strtok_r(NULL, ", \t", &save))
		tuned_profile(s, w, depth + 1);
}

/* One profile: its includes, then its [sysctl] section. */
static void
tuned_profile(struct scan *s, const char *name, int depth)
{
	char	 path[OTHER_PATH_MAX], *buf, *p, *line, *k, *v, incl[512];
	char	 section[32] = "";
	int	 n = 0;

	if (depth > OTHER_INCLUDES ||
	    tuned_conf_path(s, name, path, sizeof(path)) == -1 ||
	    (buf = read_text(s, path)) == NULL)
		return;
	incl[0] = '\0';
	for (p = buf; (line = next_line(&p)) != NULL; ) {
		if (*line == '[') {
			tt_strlcpy(section, line, sizeof(section));
			continue;
		}
		if (strcmp(section, "[main]") != 0 ||
		    strncmp(line, "include", 7) != 0)
			continue;
		for (v = line + 7; isspace((unsigned char)*v); v++)
			;
		if (*v == '=')
			tt_strlcpy(incl, v + 1, sizeof(incl));
	}
	free(buf);
	tuned_includes(s, incl, depth);
	if ((buf = read_text(s, path)) == NULL)
		return;
	section[0] = '\0';
	for (p = buf; (line = next_line(&p)) != NULL; ) {
		n++;
		if (*line == '[')
			tt_strlcpy(section, line, sizeof(section));
		else if (strcmp(section, "[sysctl]") == 0 && *line != '#' &&
		    sysctl_conf_split(line, &k, &v) == 1)
			keep(s, k, v, path, n, how_tuned);
	}
	free(buf);
}

/*
 * /etc/tuned/active_profile: the profile tuned applies, or several,
 * blank-separated, merged in that order (tuned-adm(8), "profile").
 */
static void
scan_tuned(struct scan *s)
{
	char	*buf, *w, *save = NULL;

	if ((buf = read_text(s, "/etc/tuned/active_profile")) == NULL)
		return;
	for (w = strtok_r(buf, " \t\n", &save); w != NULL;
	    w = strtok_r(NULL, " \t\n", &save))
		tuned_profile(s, w, 0);
	free(buf);
}

/* ---- Linux: a running bpftune */

/*
 * The sysctls bpftune's tuners write: tcp_buffer_tuner (tcp_wmem,
 * tcp_rmem, tcp_mem, tcp_max_orphans) and net_buffer_tuner
 * (netdev_max_backlog, flow_limit_cpu_bitmap, netdev_budget,
 * netdev_budget_usecs); oracle/bpftune src/tcp_buffer_tuner.c and
 * src/net_buffer_tuner.c, their descs[] tables.
 */
static const char *const bpftune_keys[] = {
	"net.ipv4.tcp_wmem", "net.ipv4.tcp_rmem", "net.ipv4.tcp_mem",
	"net.ipv4.tcp_max_orphans", "net.core.netdev_max_backlog",
	"net.core.flow_limit_cpu_bitmap", "net.core.netdev_budget",
	"net.core.netdev_budget_usecs",
};

const char other_how_bpftune[] = "bpftune is running and may change";

/* Whether /proc/PID/comm (under the root) is "bpftune". */
static bool
is_bpftune(const struct scan *s, const char *pid)
{
	char	 path[64], *buf;
	bool	 yes;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	if ((buf = read_text(s, path)) == NULL)
		return false;
	yes = strcmp(buf, "bpftune\n") == 0 || strcmp(buf, "bpftune") == 0;
	free(buf);
	return yes;
}

/* The process found to be bpftune, "" none yet. */
struct bpftune_find {
	const struct scan	*s;
	char			 pid[16];
};

/* One name of /proc: a process whose comm is bpftune stops the walk. */
static bool
find_bpftune(void *arg, const char *name)
{
	struct bpftune_find	*f = arg;

	if (!isdigit((unsigned char)name[0]) || strlen(name) >= sizeof(f->pid)
	    || !is_bpftune(f->s, name))
		return true;
	tt_strlcpy(f->pid, name, sizeof(f->pid));
	return false;
}

/* A process named bpftune (proc(5), /proc/PID/comm): its keys named. */
static void
scan_bpftune(struct scan *s)
{
	struct bpftune_find	f = { s, "" };
	char			path[64];
	size_t			i;

	other_dir_each(s->root, "/proc", OTHER_PROCS, find_bpftune, &f);
	if (f.pid[0] == '\0')
		return;
	snprintf(path, sizeof(path), "/proc/%s", f.pid);
	for (i = 0; i < NITEMS(bpftune_keys); i++)
		keep(s, bpftune_keys[i], "0", path, 0, other_how_bpftune);
}

/* ---- macOS: launchd jobs that run sysctl -w */

static const char how_darwin_conf[] =
    "applied at boot (sysctl.conf(5): read by launchd)";

static void
plist_set(struct shell_sink *sk, int line, const char *name,
    const char *value)
{
	struct plist_sink	*ps = (struct plist_sink *)sk;

	keep(ps->s, name, value, ps->path, line, ps->how);
}

/* What the reader cannot follow is for import to say: a hint here. */
static void
plist_lost(struct shell_sink *sk, int line, bool setting, const char *why)
{
	(void)sk;
	(void)line;
	(void)setting;
	(void)why;
}

/* One job: XML, or binary rewritten as XML, read as import reads it. */
static void
read_launchd_job(struct scan *s, const char *path)
{
	struct plist_sink	 ps = { { plist_set, plist_lost }, s, path,
				    how_launchd };
	struct errlist		 errs;
	char			*buf, *xml, why[128];
	size_t			 len;

	if ((buf = other_read_file(s->root, path, &len)) == NULL)
		return;
	if (len >= 6 && memcmp(buf, "bplist", 6) == 0) {
		if (bplist_to_xml(buf, len, &xml, &len, why, sizeof(why)) == -1)
			xml = NULL;
		free(buf);
		if ((buf = xml) == NULL)
			return;
	}
	errlist_init(&errs);
	(void)s->launchd(&ps.sk, buf, len, path, &errs);
	errlist_clear(&errs);
	free(buf);
}

/* The jobs' names, to read in name order. */
struct name_list {
	char	(*names)[OTHER_NAME_MAX];
	size_t	 n;
};

static bool
add_plist_name(void *arg, const char *name)
{
	struct name_list	*l = arg;
	size_t			 len = strlen(name);

	if (l->n == OTHER_DIR_FILES)
		return false;
	if (len > 6 && strcmp(name + len - 6, ".plist") == 0)
		tt_strlcpy(l->names[l->n++], name, sizeof(l->names[0]));
	return true;
}

/* /Library/LaunchDaemons/ *.plist (launchd.plist(5)): each job. */
static void
scan_launchd(struct scan *s)
{
	struct name_list	l = { NULL, 0 };
	char			path[OTHER_PATH_MAX];
	size_t			i;

	if (s->launchd == NULL ||
	    (l.names = calloc(OTHER_DIR_FILES, sizeof(*l.names))) == NULL)
		return;
	other_dir_each(s->root, "/Library/LaunchDaemons", OTHER_DIR_FILES,
	    add_plist_name, &l);
	qsort(l.names, l.n, sizeof(*l.names), name_cmp);
	for (i = 0; i < l.n; i++) {
		snprintf(path, sizeof(path), "/Library/LaunchDaemons/%s",
		    l.names[i]);
		read_launchd_job(s, path);
	}
	free(l.names);
}

static void
scan_darwin(struct scan *s)
{
	read_conf(s, "/etc/sysctl.conf", how_darwin_conf);
	scan_launchd(s);
}

/* ---- FreeBSD */

static const char how_bsd_conf[] = "applied at boot by rc.d/sysctl";
static const char how_loader[] = "set at boot by loader(8) as a tunable";

/*
 * rc.d/sysctl applies /etc/sysctl.conf then /etc/sysctl.conf.local
 * (FreeBSD libexec/rc/rc.d/sysctl); loader(8) sets /boot/loader.conf's
 * name="value" lines as kernel environment tunables (loader.conf(5)).
 */
static void
scan_freebsd(struct scan *s)
{
	read_conf(s, "/etc/sysctl.conf", how_bsd_conf);
	read_conf(s, "/etc/sysctl.conf.local", how_bsd_conf);
	read_conf(s, "/boot/loader.conf", how_loader);
}

static void
scan_linux(struct scan *s)
{
	scan_sysctl_d(s);
	scan_tuned(s);
	scan_bpftune(s);
}

/*
 * Each OS's places.  Windows: Group Policy and the registry values
 * tuning tools set are not read (other_sources_win.c says why).
 */
void
other_sources_scan(const char *root, enum tt_os os, const struct config *cfg,
    launchd_read_fn launchd, struct other_sources *out)
{
	struct scan	s = { out, cfg, root, launchd };

	memset(out, 0, sizeof(*out));
	if (cfg == NULL || cfg->nkeys == 0 ||
	    (out->v = calloc(OTHER_MAX, sizeof(*out->v))) == NULL)
		return;
	switch (os) {
	case TT_OS_LINUX:
		scan_linux(&s);
		break;
	case TT_OS_DARWIN:
		scan_darwin(&s);
		break;
	case TT_OS_FREEBSD:
		scan_freebsd(&s);
		break;
	default:
		break;
	}
}

void
other_sources_free(struct other_sources *o)
{
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/*
 * What the places found say of key name, for check, the log and status:
 * "also set by /etc/sysctl.d/90-big.conf:1 to 4096 131072 134217728,
 * applied at boot by systemd-sysctl", or "bpftune is running and may
 * change net.ipv4.tcp_rmem", several joined by "; ".  The length
 * written; 0 (and "") when no other place sets it.
 */
size_t
other_sources_say(const struct other_sources *o, const char *name, char *buf,
    size_t len)
{
	const struct other_setting	*v;
	size_t				 i, n = 0;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < o->n; i++) {
		v = &o->v[i];
		if (strcmp(v->name, name) != 0 || n >= len)
			continue;
		if (v->how == other_how_bpftune)
			(void)tt_snprintf(buf + n, len - n, "%s%s %s",
			    n > 0 ? "; " : "", v->how, v->name);
		else
			(void)tt_snprintf(buf + n, len - n, "%salso set by "
			    "%s:%d to %s, %s", n > 0 ? "; " : "", v->path,
			    v->line, v->value, v->how);
		n = strlen(buf);
	}
	return n;
}
