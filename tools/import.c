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
 * Every key is checked against the catalogue of the OS the file is for
 * (--platform, else what the file is: launchd is macOS, netsh Windows,
 * else this OS): what passes is written, what does not is said on stderr
 * with FILE:LINE and why.  The output passes `check --platform OS`.
 * A plist is read as tcptuned reads its config: XML by config.c's
 * hardened reader, a binary one rewritten as XML by bplist.c; the
 * output is written by config_write.c.
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "tcptunectl.h"

#define IMPORT_MAX_BYTES	(1024 * 1024)
#define IMPORT_MAX_KEYS		TT_MAX_KEYS

struct import_key {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];
	int	line;
};

struct import {
	const char		*path;
	enum tt_os		 os;
	struct import_key	 keys[IMPORT_MAX_KEYS];
	size_t			 nkeys;
	size_t			 seen;		/* settings found, kept or not */
	size_t			 dropped;
};

/* netsh's global settings tcptune manages, and their keys. */
static const struct {
	const char	*netsh;
	const char	*key;
} netsh_keys[] = {
	{ "autotuninglevel", "tcp.autotuninglevel" },
	{ "rss", "offload.rss" },
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
	switch (catalogue_check(name, value, im->os, why, sizeof(why))) {
	case CAT_REFUSED:
		drop(im, line, "%s", why);
		return;
	case CAT_UNKNOWN:
		drop(im, line, "%s is not in tcptune's catalogue of %s keys "
		    "(add it by hand, with AllowAnySysctl outside net.*)",
		    name, catalogue_os_label(im->os));
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

/* "a=b" as sysctl -w takes it. */
static void
add_assignment(struct import *im, int line, char *word)
{
	char	*eq = strchr(word, '=');

	if (eq == NULL) {
		drop(im, line, "sysctl argument \"%s\" sets nothing", word);
		return;
	}
	*eq = '\0';
	add_setting(im, line, word, eq + 1);
}

static bool
is_sysctl_cmd(const char *w)
{
	const char	*base = strrchr(w, '/');

	return strcmp(base ? base + 1 : w, "sysctl") == 0;
}

/*
 * Words of one command as a shell splits them, roughly: blanks separate,
 * quotes group and go, ';' '&' '|' and newlines end the command.  argv
 * gets pointers into s, which is changed.  Returns the count; *rest is
 * where the next command starts, or NULL.
 */
static int
shell_words(char *s, char **argv, int max, char **rest)
{
	char	*out, q;
	int	 n = 0;

	*rest = NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (strchr(";&|\n", *s) != NULL) {
			while (*s != '\0' && strchr(";&|\n", *s) != NULL)
				s++;
			*rest = s;
			return n;
		}
		if (n == max)
			return -1;
		argv[n++] = out = s;
		for (q = 0; *s != '\0'; s++) {
			if (q == 0 && strchr(" \t;&|\n", *s) != NULL)
				break;
			if ((*s == '\'' || *s == '"') && (q == 0 || q == *s))
				q = q ? 0 : *s;
			else
				*out++ = *s;
		}
		q = *s;			/* what ended the word, before the NUL */
		*out = '\0';
		if (q == '\0')
			return n;
		if (strchr(";&|\n", q) != NULL) {
			*rest = s + 1;
			return n;
		}
		s++;
	}
}

/* "sysctl -w a=b c=d": 1 when it was a sysctl command, else 0. */
static int
sysctl_command(struct import *im, int line, char **argv, int argc)
{
	int	i;

	if (argc == 0 || !is_sysctl_cmd(argv[0]))
		return 0;
	for (i = 1; i < argc; i++)
		if (argv[i][0] != '-')
			add_assignment(im, line, argv[i]);
	return 1;
}

/* "netsh int[erface] tcp set global k=v ...": 1 when it was one. */
static int
netsh_command(struct import *im, int line, char **argv, int argc)
{
	char	*eq;
	size_t	 j;
	int	 i;

	if (argc < 5 || strcasecmp(argv[0], "netsh") != 0 ||
	    strncasecmp(argv[1], "int", 3) != 0 ||
	    strcasecmp(argv[2], "tcp") != 0 ||
	    strcasecmp(argv[3], "set") != 0 ||
	    strcasecmp(argv[4], "global") != 0)
		return 0;
	for (i = 5; i < argc; i++) {
		if ((eq = strchr(argv[i], '=')) == NULL) {
			drop(im, line, "netsh argument \"%s\" sets nothing",
			    argv[i]);
			continue;
		}
		*eq = '\0';
		for (j = 0; j < NITEMS(netsh_keys) &&
		    strcasecmp(argv[i], netsh_keys[j].netsh) != 0; j++)
			;
		if (j == NITEMS(netsh_keys)) {
			im->seen++;
			drop(im, line, "netsh's %s is not one tcptune manages "
			    "(tcp.autotuninglevel and offload.rss are)",
			    argv[i]);
			continue;
		}
		for (eq++; *eq != '\0'; eq++)
			*eq = (char)tolower((unsigned char)*eq);
		add_setting(im, line, netsh_keys[j].key,
		    strchr(argv[i], '\0') + 1);
	}
	return 1;
}

/* Every command of a shell text ("sysctl -w a=b; sysctl -w c=d"). */
static int
shell_text(struct import *im, int line, char *s)
{
	char	*argv[64], *rest;
	int	 argc, found = 0;

	for (; s != NULL; s = rest) {
		if ((argc = shell_words(s, argv, (int)NITEMS(argv), &rest)) < 0)
			return found;
		found += sysctl_command(im, line, argv, argc) +
		    netsh_command(im, line, argv, argc);
	}
	return found;
}

/* "name = value" of sysctl.conf(5) and sysctl.d(5): 1 when it was one. */
static int
conf_line(struct import *im, int line, char *s)
{
	char	*eq, *end, *p;

	if ((eq = strchr(s, '=')) == NULL)
		return 0;
	if (*s == '-')			/* sysctl.d: ignore failures */
		s++;
	for (end = eq; end > s && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	for (p = s; *p != '\0'; p++)
		if (*p == '/')
			*p = '.';
	if (!sysctl_name_valid(s))
		return 0;
	add_setting(im, line, s, eq + 1);
	return 1;
}

/* A .cmd file's comments and echo switch: "rem ...", ":: ...". */
static bool
batch_comment(const char *s)
{
	return strncasecmp(s, "rem", 3) == 0 && (s[3] == '\0' ||
	    isspace((unsigned char)s[3])) ? true : strncmp(s, "::", 2) == 0 ||
	    strcasecmp(s, "@echo off") == 0;
}

static void
read_text(struct import *im, char *buf, int *bad_line)
{
	char	*s, *nl, *c, copy[4096];
	int	 line = 0;

	for (s = buf; s != NULL; s = nl) {
		line++;
		if ((nl = strchr(s, '\n')) != NULL)
			*nl++ = '\0';
		if ((c = strpbrk(s, "#;")) != NULL && (*s == '#' || *s == ';' ||
		    strstr(s, "sysctl") == NULL))
			*c = '\0';
		while (isspace((unsigned char)*s))
			s++;
		for (c = s + strlen(s); c > s && isspace((unsigned char)c[-1]);
		    c--)
			c[-1] = '\0';
		if (*s == '\0' || batch_comment(s))
			continue;
		/* shell_text() splits its copy in place */
		tt_strlcpy(copy, s, sizeof(copy));
		if (shell_text(im, line, copy) == 0 &&
		    conf_line(im, line, s) == 0 && *bad_line == 0)
			*bad_line = line;
	}
}

/*
 * The <string>s of ProgramArguments, as one command line each.  Read by
 * config.c's hardened reader, as tcptune's own config is (no entities,
 * no network, no DTD loaded); -1 with the reasons in errs.
 */
static int
read_plist(struct import *im, const char *buf, size_t len,
    struct errlist *errs)
{
	xmlDocPtr	 doc;
	xmlNode		*n, *dict, *v;
	xmlChar		*t;
	char		*argv[64];
	int		 argc = 0, line = 0, found = 0, i;

	if ((doc = config_xml_doc(buf, len, im->path, errs)) == NULL)
		return -1;
	dict = xmlDocGetRootElement(doc);
	for (dict = dict ? dict->children : NULL; dict != NULL &&
	    (dict->type != XML_ELEMENT_NODE || !xmlStrEqual(dict->name,
	    BAD_CAST "dict")); dict = dict->next)
		;
	for (n = dict ? dict->children : NULL; n != NULL; n = n->next) {
		if (n->type != XML_ELEMENT_NODE || !xmlStrEqual(n->name,
		    BAD_CAST "key") || (t = xmlNodeGetContent(n)) == NULL)
			continue;
		if (xmlStrEqual(t, BAD_CAST "Sysctls")) {
			xmlFree(t);
			xmlFreeDoc(doc);
			return -2;
		}
		i = xmlStrEqual(t, BAD_CAST "ProgramArguments");
		xmlFree(t);
		if (!i)
			continue;
		for (v = n->next; v != NULL && v->type != XML_ELEMENT_NODE;
		    v = v->next)
			;
		line = v ? (int)xmlGetLineNo(v) : (int)xmlGetLineNo(n);
		for (v = v ? v->children : NULL; v != NULL; v = v->next)
			if (v->type == XML_ELEMENT_NODE && argc < 64 &&
			    (argv[argc] = (char *)xmlNodeGetContent(v)) != NULL)
				argc++;
	}
	/* sh -c 'script': the script; else the arguments as one command. */
	if (argc >= 3 && strcmp(argv[1], "-c") == 0)
		found = shell_text(im, line, argv[2]);
	else
		found = sysctl_command(im, line, argv, argc);
	for (i = 0; i < argc; i++)
		xmlFree(argv[i]);
	xmlFreeDoc(doc);
	return found;
}

/*
 * The keys kept, as a tcptune.conf on stdout, by the one writer
 * (config_write.c), checked as tcptuned's default says.
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
	cfg.check_interval = TT_CHECK_DEFAULT;
	if ((cfg.keys = calloc(im->nkeys, sizeof(*cfg.keys))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < im->nkeys; i++) {
		tt_strlcpy(cfg.keys[i].name, im->keys[i].name,
		    sizeof(cfg.keys[i].name));
		tt_strlcpy(cfg.keys[i].value, im->keys[i].value,
		    sizeof(cfg.keys[i].value));
	}
	cfg.nkeys = im->nkeys;
	snprintf(head, sizeof(head), "From %s by tcptunectl import, for %s "
	    "(check platform %s)", im->path, catalogue_os_label(im->os),
	    catalogue_os_name(im->os));
	memset(&notes, 0, sizeof(notes));
	notes.head = head;
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
	FILE	*f;
	size_t	 n;

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

/*
 * import FILE [--platform OS]: CTL_OK with the config on stdout; CTL_FAIL
 * for a file that is none of the three, or from which nothing could be
 * carried over.
 */
int
import_run(const char *path, const char *platform)
{
	struct import	*im;
	struct errlist	 errs;
	char		*buf;
	size_t		 len, i;
	int		 bad_line = 0, found, rv = CTL_FAIL;
	bool		 plist;

	if ((im = calloc(1, sizeof(*im))) == NULL) {
		ctl_warn("import");
		return CTL_FAIL;
	}
	im->path = path;
	errlist_init(&errs);
	if (read_all(path, &buf, &len) == -1) {
		free(im);
		return CTL_FAIL;
	}
	im->os = file_os(buf, &plist);
	if (platform != NULL && catalogue_os_parse(platform, &im->os) == -1) {
		ctl_warnx("unknown platform \"%s\": say linux, macos, freebsd "
		    "or windows", platform);
		rv = CTL_USAGE;
	} else if (plist && (found = read_plist(im, buf, len, &errs)) < 0) {
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
			read_text(im, buf, &bad_line);
		if (bad_line != 0)
			ctl_warnx("%s:%d: not a sysctl.conf line (name = value), "
			    "a sysctl -w command or a netsh interface tcp set "
			    "global command", path, bad_line);
		else if (im->nkeys == 0)
			ctl_warnx("%s: nothing to carry over (%zu setting%s "
			    "found)", path, im->seen, im->seen == 1 ? "" : "s");
		else
			rv = write_config(im);
	}
	errlist_clear(&errs);
	free(buf);
	free(im);
	return rv;
}
