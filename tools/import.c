/*
 * tcptunectl import FILE: the tuning someone already has, as a tcptune.conf
 * on stdout.  Three sources, told apart by their content:
 *   - a sysctl.conf or sysctl.d file: "name = value" lines, '#' and ';'
 *     comments, a leading '-' (ignore failures) and '/' separators;
 *   - a launchd plist (the seed's com.local.tcp-tuning.plist) whose
 *     ProgramArguments run "sysctl -w a=b ...", directly or through
 *     "/bin/sh -c 'sysctl -w a=b; sysctl -w c=d'";
 *   - "netsh interface tcp set global autotuninglevel=normal rss=enabled"
 *     lines (and "sysctl -w" lines of a shell script).
 * A sysctl is found wherever a shell would run it: after sudo, env,
 * exec, command or nohup and their options, after then, do, &&, ||, and
 * by any path.  Every key is checked against the catalogue of the OS
 * the file is for (--platform, else what the file is: launchd is macOS,
 * netsh Windows, else this OS): what passes is written, with the
 * warnings check would give it; what does not is said on stderr with
 * FILE:LINE and why, and makes the exit status 1, so that a migration
 * chained with && stops before the old job is removed.  So do a line of
 * a text file that is none of the three and a command that runs sysctl
 * in a way this reader cannot follow.  The output passes
 * `check --platform OS`.
 * A plist is read as tcptuned reads its config: XML by config.c's
 * hardened reader, a binary one rewritten as XML by bplist.c; the
 * shell texts and sysctl.conf lines by lib/shell_scan.c, the reader
 * lib/other_sources.c also uses to name the other places a key is set;
 * the output is written by config_write.c.  A vm.* or fs.* key is left
 * in its sysctl.d file (README.md, "Migrating from sysctl.d").
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#include "sources.h"
#include "tcptunectl.h"

#define IMPORT_MAX_BYTES	(1024 * 1024)
#define IMPORT_MAX_KEYS		TT_MAX_KEYS

struct import_key {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];
	int	line;
};

struct import {
	struct shell_sink	 sink;		/* first: the readers' */
	const char		*path;
	enum tt_os		 os;
	bool			 os_guessed;	/* no --platform */
	struct import_key	 keys[IMPORT_MAX_KEYS];
	size_t			 nkeys;
	struct import_key	 found[IMPORT_MAX_KEYS];	/* as read */
	size_t			 nfound;
	size_t			 seen;		/* settings found, kept or not */
	size_t			 dropped;
};

static void
drop(struct import *im, int line, const char *fmt, ...) TT_PRINTF(3, 4);

/* What could not be carried over, and why: FILE:LINE: text. */
static void
drop(struct import *im, int line, const char *fmt, ...)
{
	char	msg[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctl_warnx("%s:%d: not carried over: %s", im->path, line, msg);
	im->dropped++;
}

/*
 * A size given with a unit, or not as a number, for a key the catalogue
 * counts in bytes: import reads plain bytes only, so say so here rather
 * than in the catalogue's words, which list the units a tcptune.conf
 * takes.  True when it was said.
 */
static bool
size_with_unit(struct import *im, int line, const char *name,
    const char *value)
{
	const struct cat_key	*k = catalogue_find(name, im->os);
	char			 copy[TT_VALUE_MAX], bytes[TT_VALUE_MAX];
	char			 hint[TT_VALUE_MAX + 32], *w, *sp;
	long long		 n[TT_VALUE_MAX_WORDS], v;

	if (k == NULL || k->unit != CAT_BYTES ||
	    value_numbers(value, n, TT_VALUE_MAX_WORDS) >= 0)
		return false;
	tt_strlcpy(copy, value, sizeof(copy));	/* normalized: one space */
	bytes[0] = '\0';
	for (w = copy; w != NULL; w = sp != NULL ? sp + 1 : NULL) {
		if ((sp = strchr(w, ' ')) != NULL)
			*sp = '\0';
		if (tt_parse_size(w, &v) == -1) {
			bytes[0] = '\0';
			break;
		}
		snprintf(bytes + strlen(bytes), sizeof(bytes) - strlen(bytes),
		    "%s%lld", bytes[0] ? " " : "", v);
	}
	hint[0] = '\0';
	if (bytes[0] != '\0')
		snprintf(hint, sizeof(hint), " (\"%s\" is %s)", value, bytes);
	drop(im, line, "%s takes %s in bytes, not \"%s\": import reads sizes "
	    "as plain numbers, without units%s", name, k->nums == 1 ?
	    "one size" : k->nums == 2 ? "two sizes" : "three sizes", value,
	    hint);
	return true;
}

/* One setting: checked against the catalogue, the last one wins. */
static void
add_setting(struct import *im, int line, const char *name, const char *raw)
{
	struct import_key	*k = NULL;
	char			 value[TT_VALUE_MAX], why[512];
	size_t			 i;

	im->seen++;
	if (!sysctl_name_valid(name) ||
	    value_normalize(raw, value, sizeof(value)) == -1 ||
	    value[0] == '\0') {
		drop(im, line, "\"%s = %s\" is not a sysctl setting", name, raw);
		return;
	}
	if (im->nfound < IMPORT_MAX_KEYS) {
		tt_strlcpy(im->found[im->nfound].name, name, TT_NAME_MAX);
		tt_strlcpy(im->found[im->nfound++].value, value,
		    TT_VALUE_MAX);
	}
	if (size_with_unit(im, line, name, value))
		return;
	switch (catalogue_check(name, value, im->os, why, sizeof(why))) {
	case CAT_REFUSED:
		drop(im, line, "%s", why);
		return;
	case CAT_UNKNOWN:
		/* check takes it with a warning (config_warnings) */
		if (sysctl_name_managed(name))
			break;
		/* not lost when kept where it is: no failure */
		if (strncmp(name, "vm.", 3) == 0 || strncmp(name, "fs.", 3) == 0)
			ctl_warnx("%s:%d: left out: %s is not a network key: "
			    "keep its line in the sysctl.d file, which sets it "
			    "at boot", im->path, line, name);
		else
			drop(im, line, "%s is not in tcptune's catalogue of %s "
			    "keys (add it by hand, with AllowAnySysctl outside "
			    "net.*)", name, catalogue_os_label(im->os));
		return;
	case CAT_OK:
		break;
	}
	for (i = 0; i < im->nkeys && k == NULL; i++)
		if (strcmp(im->keys[i].name, name) == 0)
			k = &im->keys[i];
	if (k == NULL && im->nkeys == IMPORT_MAX_KEYS) {
		drop(im, line, "more than %d keys", IMPORT_MAX_KEYS);
		return;
	}
	if (k != NULL)
		ctl_warnx("%s:%d: %s set again: this value replaces line %d's",
		    im->path, line, name, k->line);
	else
		k = &im->keys[im->nkeys++];
	tt_strlcpy(k->name, name, sizeof(k->name));
	tt_strlcpy(k->value, value, sizeof(k->value));
	k->line = line;
}

/* "name = value" of sysctl.conf(5) and sysctl.d(5): 1 when it was one. */
static int
conf_line(struct import *im, int line, char *s)
{
	char	*name, *value;

	if (sysctl_conf_split(s, &name, &value) == 0)
		return 0;
	add_setting(im, line, name, value);
	return 1;
}

/* The readers' setting (shell_scan.c): checked as any other. */
static void
sink_set(struct shell_sink *sk, int line, const char *name,
    const char *value)
{
	add_setting((struct import *)sk, line, name, value);
}

/* What the readers could not follow: said, and counted when a setting. */
static void
sink_lost(struct shell_sink *sk, int line, bool setting, const char *why)
{
	struct import	*im = (struct import *)sk;

	im->seen += setting;
	drop(im, line, "%s", why);
}

/* A .cmd file's comments and echo switch: "rem ...", ":: ...". */
static bool
batch_comment(const char *s)
{
	return strncasecmp(s, "rem", 3) == 0 && (s[3] == '\0' ||
	    isspace((unsigned char)s[3])) ? true : strncmp(s, "::", 2) == 0 ||
	    strcasecmp(s, "@echo off") == 0;
}

/*
 * Whether s is "name = value" with a dotted sysctl name before the '=':
 * read as sysctl.conf, never as a command, even when the name holds the
 * word sysctl (kernel.sysctl_writes_strict).  A shell word before '='
 * has no '.' (shell_assignment) or holds a blank.
 */
static bool
conf_form(const char *s)
{
	char	name[TT_NAME_MAX], *p;
	size_t	n = strcspn(s, "=");

	if (s[n] != '=' || n >= sizeof(name))
		return false;
	memcpy(name, s + (*s == '-'), n - (*s == '-'));
	name[n - (*s == '-')] = '\0';
	for (p = name + strlen(name); p > name && isspace((unsigned char)p[-1]);
	    p--)
		p[-1] = '\0';
	for (p = name; *p != '\0'; p++)
		if (*p == '/')
			*p = '.';
	return strchr(name, '.') != NULL && sysctl_name_valid(name);
}

/*
 * Every line of a text file: a sysctl.conf line or shell commands.  A
 * line that is neither, and runs nothing that sets a sysctl, is said and
 * left out; the rest is still read.
 */
static void
read_text(struct import *im, char *buf)
{
	struct shell_counts	 c;
	char			*s, *nl, *e, copy[4096];
	int			 line = 0;

	for (s = buf; s != NULL; s = nl) {
		line++;
		if ((nl = strchr(s, '\n')) != NULL)
			*nl++ = '\0';
		if (*s == '#' || *s == ';')
			continue;
		while (isspace((unsigned char)*s))
			s++;
		for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);
		    e--)
			e[-1] = '\0';
		if (*s == '\0' || *s == '#' || *s == ';' || batch_comment(s))
			continue;
		if (!conf_form(s)) {
			/* shell_text() splits its copy in place */
			tt_strlcpy(copy, s, sizeof(copy));
			c = shell_scan_text(&im->sink, line, copy);
			if (c.kind[CMD_READ] > 0 || c.kind[CMD_OTHER] == 0)
				continue;
		}
		if ((e = strpbrk(s, "#;")) != NULL)	/* "a = b # why" */
			*e = '\0';
		/* tcptuned has no "ignore a failure": the change said */
		if (*s == '-' && conf_form(s))
			ctl_warnx("%s:%d: note: the leading '-' of sysctl.d "
			    "(ignore a failure to set the key) is not carried "
			    "over: tcptuned enforces the key, and tcptunectl "
			    "status shows a refusal", im->path, line);
		if (conf_line(im, line, s) == 0) {
			drop(im, line, "\"%s\" is not a sysctl.conf line (name "
			    "= value), a sysctl -w command or a netsh interface "
			    "tcp set global command", s);
		}
	}
}

/* Why a key is written in its long form: the clamp of write_config(). */
static const char *
key_note(const struct config_key *k, void *arg)
{
	(void)arg;
	return k->on_reject != REJECT_CLAMP ? NULL :
	    "\t\t\tOnReject clamp, as in the shipped macOS config: a Mac\n"
	    "\t\t\trefuses a maxsockbuf above 1/16 of its mbuf pool, which\n"
	    "\t\t\tfollows its RAM (16 MiB is refused on an 8 GB Mac);\n"
	    "\t\t\ttcptuned then sets the highest value the kernel takes\n"
	    "\t\t\tand says so.";
}

/*
 * The warnings check gives the keys kept (config_model.c: a key in no
 * catalogue, what some xnu release refuses), at their lines in the
 * file imported: they are carried over with them, as check takes them.
 */
static void
config_warnings(const struct config *cfg, enum tt_os os)
{
	struct errlist	errs, warns;
	size_t		i;

	errlist_init(&errs);
	errlist_init(&warns);
	(void)config_check_os(cfg, os, NULL, &errs, &warns);
	for (i = 0; i < warns.n; i++)
		ctl_warnx("%s", warns.msg[i]);
	errlist_clear(&errs);
	errlist_clear(&warns);
}

/*
 * The keys kept, as a tcptune.conf on stdout, by the one writer
 * (config_write.c), checked as tcptuned's default says.  A macOS
 * maxsockbuf gets OnReject clamp, as etc/tcptune.conf.darwin has it:
 * the highest value xnu takes depends on the Mac's RAM.
 */
static int
write_config(const struct import *im)
{
	struct config		 cfg;
	struct config_notes	 notes;
	char			 head[1200], *buf;
	size_t			 i, len;
	int			 rv;

	memset(&cfg, 0, sizeof(cfg));
	tt_strlcpy(cfg.path, im->path, sizeof(cfg.path));
	cfg.check_interval = TT_CHECK_DEFAULT;
	if ((cfg.keys = calloc(im->nkeys, sizeof(*cfg.keys))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < im->nkeys; i++) {
		tt_strlcpy(cfg.keys[i].name, im->keys[i].name,
		    sizeof(cfg.keys[i].name));
		tt_strlcpy(cfg.keys[i].value, im->keys[i].value,
		    sizeof(cfg.keys[i].value));
		cfg.keys[i].line = im->keys[i].line;
		if (im->os == TT_OS_DARWIN &&
		    strcmp(im->keys[i].name, "kern.ipc.maxsockbuf") == 0)
			cfg.keys[i].on_reject = REJECT_CLAMP;
	}
	cfg.nkeys = im->nkeys;
	config_warnings(&cfg, im->os);
	snprintf(head, sizeof(head), "From %s by tcptunectl import, for %s "
	    "(check platform %s)", im->path, catalogue_os_label(im->os),
	    catalogue_os_name(im->os));
	memset(&notes, 0, sizeof(notes));
	notes.head = head;
	notes.key = key_note;
	if (config_write(&cfg, &notes, &buf, &len) == -1)
		fatal("%s", __func__);
	rv = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0 ?
	    CTL_OK : CTL_FAIL;
	free(buf);
	free(cfg.keys);
	return rv;
}

/*
 * A binary plist (a launchd job plutil converted, bplist00) rewritten
 * as XML by bplist.c, as tcptuned reads a binary managed file, then read
 * as the XML one.  0, or -1 said.
 */
static int
binary_plist(const char *path, char **buf, size_t *len)
{
	char	*xml, why[256];
	size_t	 xmllen;

	if (bplist_to_xml(*buf, *len, &xml, &xmllen, why, sizeof(why)) == -1) {
		ctl_warnx("%s: binary property list: %s", path, why);
		free(*buf);
		return -1;
	}
	free(*buf);
	*buf = xml;
	*len = xmllen;
	return 0;
}

static int
read_all(const char *path, char **buf, size_t *len)
{
	struct stat	 st;
	FILE		*f;
	size_t		 n;

	/* (fopen takes a directory on POSIX, and fread finds it empty) */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		ctl_warnx("%s: a directory: give a file (or each file: "
		    "tcptunectl import DIR/FILE)", path);
		return -1;
	}
	if ((f = fopen(path, "rb")) == NULL) {
		ctl_warn("%s", path);
		return -1;
	}
	*buf = malloc(IMPORT_MAX_BYTES + 1);
	n = *buf ? fread(*buf, 1, IMPORT_MAX_BYTES + 1, f) : 0;
	fclose(f);
	if (*buf == NULL || n > IMPORT_MAX_BYTES) {
		ctl_warnx("%s: larger than %d bytes: not a sysctl file", path,
		    IMPORT_MAX_BYTES);
		free(*buf);
		return -1;
	}
	(*buf)[n] = '\0';
	*len = n;
	if (n >= 6 && memcmp(*buf, "bplist", 6) == 0)
		return binary_plist(path, buf, len);
	if (memchr(*buf, '\0', n) != NULL) {
		ctl_warnx("%s: binary data (a NUL byte): not a sysctl.conf, "
		    "launchd plist or netsh script", path);
		free(*buf);
		return -1;
	}
	return 0;
}

/* The OS the file is for, when --platform does not say. */
static enum tt_os
file_os(const char *buf, bool *plist)
{
	const char	*p = buf;

	while (isspace((unsigned char)*p))
		p++;
	*plist = strncmp(p, "<?xml", 5) == 0 || strncmp(p, "<plist", 6) == 0
	    || strncmp(p, "<!DOCTYPE", 9) == 0;
	if (*plist)
		return TT_OS_DARWIN;
	if (strstr(buf, "netsh") != NULL || strstr(buf, "NETSH") != NULL)
		return TT_OS_WINDOWS;
	return catalogue_host_os();
}

/* How many of the settings read os's catalogue takes. */
static size_t
fits_os(const struct import *im, enum tt_os os)
{
	char	why[512];
	size_t	i, n = 0;

	for (i = 0; i < im->nfound; i++)
		n += catalogue_check(im->found[i].name, im->found[i].value, os,
		    why, sizeof(why)) == CAT_OK;
	return n;
}

/*
 * A file whose OS was guessed (this one) but whose keys are another's
 * (a Mac's sysctl.conf read on Linux): the --platform that reads it.
 */
static void
platform_hint(const struct import *im)
{
	size_t	n, best = fits_os(im, im->os);
	int	os, best_os = -1;

	if (!im->os_guessed)
		return;
	for (os = 0; os < TT_OS_N; os++)
		if (os != (int)im->os && (n = fits_os(im, (enum tt_os)os)) >
		    best) {
			best = n;
			best_os = os;
		}
	if (best_os != -1)
		ctl_warnx("%s: %zu of its %zu setting%s %s %s key%s: if the "
		    "file is from %s, import it with --platform %s", im->path,
		    best, im->nfound, im->nfound == 1 ? "" : "s", best == 1 ?
		    "is a" : "are", catalogue_os_label((enum tt_os)best_os),
		    best == 1 ? "" : "s", catalogue_os_label((enum tt_os)
		    best_os), catalogue_os_word((enum tt_os)best_os));
}

/*
 * The keys read: the config on stdout when there are any; CTL_FAIL when
 * there are none or something was not carried over (said on stderr).
 */
static int
import_result(struct import *im)
{
	int	rv;

	if (im->nkeys == 0) {
		platform_hint(im);
		ctl_warnx("%s: nothing to carry over (%zu setting%s found)",
		    im->path, im->seen, im->seen == 1 ? "" : "s");
		return CTL_FAIL;
	}
	rv = write_config(im);
	platform_hint(im);
	if (im->dropped == 0)
		return rv;
	ctl_warnx("%s: %zu setting%s or command%s not carried over (said "
	    "above); the rest is on standard output", im->path, im->dropped,
	    im->dropped == 1 ? "" : "s", im->dropped == 1 ? "" : "s");
	return CTL_FAIL;
}

/*
 * import FILE [--platform OS]: CTL_OK with the config on stdout; CTL_FAIL
 * for a file that is none of the three, or from which anything could not
 * be carried over (what could is still on stdout).
 */
int
import_run(const char *path, const char *platform)
{
	struct import	*im;
	struct errlist	 errs;
	char		*buf, oses[CAT_OS_LIST_MAX];
	size_t		 len, i;
	int		 found, rv = CTL_FAIL;
	bool		 plist;

	if ((im = calloc(1, sizeof(*im))) == NULL) {
		ctl_warn("import");
		return CTL_FAIL;
	}
	im->sink.set = sink_set;
	im->sink.lost = sink_lost;
	im->path = path;
	errlist_init(&errs);
	if (read_all(path, &buf, &len) == -1) {
		free(im);
		return CTL_FAIL;
	}
	im->os = file_os(buf, &plist);
	im->os_guessed = platform == NULL;
	if (platform != NULL && catalogue_os_parse(platform, &im->os) == -1) {
		catalogue_os_list(CAT_OS_WORDS, oses, sizeof(oses));
		ctl_warnx("--platform \"%s\" is not %s", platform, oses);
		rv = CTL_USAGE;
	} else if (plist && (found = shell_scan_launchd(&im->sink, buf, len, path,
	    &errs)) < 0) {
		for (i = 0; i < errs.n; i++)
			ctl_warnx("%s", errs.msg[i]);
		ctl_warnx("%s: %s", path, found == -2 ? "already a "
		    "tcptune.conf: check it with tcptunectl check" :
		    "not well-formed XML: not a launchd plist");
	}
	else if (plist && found == 0)
		ctl_warnx("%s: a plist whose ProgramArguments run no sysctl -w",
		    path);
	else {
		if (!plist)
			read_text(im, buf);
		rv = import_result(im);
	}
	errlist_clear(&errs);
	free(buf);
	free(im);
	return rv;
}
