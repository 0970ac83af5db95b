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
 * output is written by config_write.c.
 */
#include "config.h"

#include <sys/stat.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


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
	bool			 os_guessed;	/* no --platform */
	struct import_key	 keys[IMPORT_MAX_KEYS];
	size_t			 nkeys;
	struct import_key	 found[IMPORT_MAX_KEYS];	/* as read */
	size_t			 nfound;
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

	*eq = '\0';
	if (strpbrk(eq + 1, "$`") != NULL) {
		im->seen++;
		drop(im, line, "the value of %s is a shell expansion (%s): "
		    "import cannot know what it was", word, eq + 1);
		return;
	}
	add_setting(im, line, word, eq + 1);
}

/* What one command of a shell text turned out to be. */
enum command_kind {
	CMD_NOTHING,		/* empty, a keyword, a test or a message */
	CMD_READ,		/* sysctl or netsh, read; what it lost said */
	CMD_OTHER		/* another command: sets no sysctl */
};

static const char *
base_name(const char *w)
{
	const char	*slash = strrchr(w, '/');

	return slash != NULL ? slash + 1 : w;
}

static bool
word_in(const char *w, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(w, *list) == 0)
			return true;
	return false;
}

/*
 * Reserved words that start, continue or end a compound command (POSIX
 * XCU 2.4, "Reserved Words"; '(' and ')' are operators shell_words()
 * splits on): what follows them is the command.
 * https://pubs.opengroup.org/onlinepubs/9799919799/utilities/V3_chap02.html
 */
static const char *const shell_keywords[] = {
	"if", "then", "else", "elif", "fi", "do", "done", "while", "until",
	"!", "{", "}", "esac", NULL
};

/* Commands that test or print, and set nothing, whatever they name. */
static const char *const no_effect[] = {
	"[", "[[", "test", "echo", "printf", "logger", NULL
};

/*
 * A shell variable assignment before a command ("PATH=/usr/sbin"): a
 * name of letters, digits and '_', not starting with a digit, then '='
 * (POSIX XCU 2.9.1 and 3.235 "Name").  "net.core.rmem_max=1" is not one.
 */
static bool
shell_assignment(const char *w)
{
	const char	*p = w;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return *p == '=';
}

/*
 * Programs that run the command after their own options, and the
 * options of each that take an argument, short and long ("--user USER";
 * "--user=USER" and "-uUSER" carry theirs in the same word):
 * - sudo: getopt_long "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv"
 *   (sudo-project/sudo src/parse_args.c, sudo 1.9; -h takes a host only
 *   when attached), then VAR=value words that do not start with '/'
 *   (is_envar there; sudo(8), "[VAR=value]");
 * - env: -u NAME, -C DIR, -P PATH, -S STRING and -L/-U USER (FreeBSD
 *   env(1); apple-oss-distributions/shell_cmds env/env.c getopt
 *   "-iP:S:u:v"; GNU coreutils env(1) --unset, --chdir,
 *   --split-string), then name=value words (env(1): every word with a
 *   '=' before the utility);
 * - exec: bash's "exec [-cl] [-a name]" (bash(1), SHELL BUILTIN
 *   COMMANDS); command [-p] and nohup (POSIX XCU command, nohup) take
 *   none.  "command -v sysctl" only looks it up.
 * -S splits its argument into the command: not followed (said, if it
 * runs sysctl).
 */
static const struct wrapper {
	const char		*name;
	const char		*arg_short;
	const char *const	*arg_long;
	bool			 env_words;	/* name=value after options */
	bool			 no_slash;	/* ... not starting with '/' */
} wrappers[] = {
	{ "sudo", "aCcDgpRrTtUu", (const char *const[]){ "auth-type",
	    "close-from", "login-class", "chdir", "group", "host", "prompt",
	    "chroot", "role", "command-timeout", "type", "other-user", "user",
	    NULL }, true, true },
	{ "env", "CLPSUu", (const char *const[]){ "unset", "chdir",
	    "split-string", NULL }, true, false },
	{ "exec", "a", (const char *const[]){ NULL }, false, false },
	{ "command", "", (const char *const[]){ NULL }, false, false },
	{ "nohup", "", (const char *const[]){ NULL }, false, false },
};

/* The options of w at *argv: how many words they take. */
static int
wrapper_options(const struct wrapper *w, char **argv, int argc)
{
	const char	*p;
	int		 i = 0;

	while (i < argc && argv[i][0] == '-' && argv[i][1] != '\0') {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		if (argv[i][1] == '-') {
			i += strchr(argv[i], '=') == NULL &&
			    word_in(argv[i] + 2, w->arg_long) ? 2 : 1;
			continue;
		}
		for (p = argv[i] + 1; *p != '\0' &&
		    strchr(w->arg_short, *p) == NULL; p++)
			;
		i += *p != '\0' && p[1] == '\0' ? 2 : 1;
	}
	return i < argc ? i : argc;
}

/*
 * The command a shell runs at argv: past keywords, assignments and the
 * wrappers above.  Returns its index; *lookup when it is "command -v"
 * or "-V", which only looks the name up; *wrapped when a wrapper was
 * passed.
 */
static int
command_start(char **argv, int argc, bool *lookup, bool *wrapped)
{
	const struct wrapper	*w;
	size_t			 j;
	int			 i = 0;

	*lookup = *wrapped = false;
	while (i < argc && (word_in(argv[i], shell_keywords) ||
	    shell_assignment(argv[i])))
		i++;
	while (i < argc) {
		for (j = 0; j < NITEMS(wrappers) &&
		    strcmp(base_name(argv[i]), wrappers[j].name) != 0; j++)
			;
		if (j == NITEMS(wrappers))
			break;
		w = &wrappers[j];
		*wrapped = true;
		if (strcmp(w->name, "command") == 0 && i + 1 < argc &&
		    (strcmp(argv[i + 1], "-v") == 0 ||
		    strcmp(argv[i + 1], "-V") == 0))
			*lookup = true;
		i++;
		i += wrapper_options(w, argv + i, argc - i);
		while (w->env_words && i < argc && strchr(argv[i], '=') &&
		    !(w->no_slash && argv[i][0] == '/'))
			i++;
	}
	return i;
}

/*
 * sysctl's own options that load a file instead of naming keys: -p and
 * -f of Linux's procps sysctl(8) ("-p[FILE], --load[=FILE]",
 * "--system"), FreeBSD's "-f filename" (sysctl(8)).  Options that take
 * an argument: procps "-r pattern" (--pattern), FreeBSD "-B bufsize".
 * https://man7.org/linux/man-pages/man8/sysctl.8.html
 * https://man.freebsd.org/cgi/man.cgi?query=sysctl&sektion=8
 */
static bool
sysctl_loads_file(const char *opt)
{
	if (opt[1] == '-')
		return strncmp(opt, "--load", 6) == 0 ||
		    strcmp(opt, "--system") == 0;
	return strpbrk(opt + 1, "pf") != NULL;
}

/* The words of a command, joined by spaces, for a message. */
static void
join_words(char **argv, int argc, char *buf, size_t len)
{
	int	i;

	buf[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i > 0)
			tt_strlcat(buf, " ", len);
		tt_strlcat(buf, argv[i], len);
	}
}

/*
 * "sysctl -w a=b c=d": the assignments, each at its word's line; a read
 * sets nothing.
 */
static void
sysctl_command(struct import *im, char **argv, int argc, const int *lines)
{
	char	text[512];
	int	i;
	bool	options = true;

	for (i = 1; i < argc; i++) {
		if (options && strcmp(argv[i], "--") == 0) {
			options = false;
		} else if (options && argv[i][0] == '-') {
			if (sysctl_loads_file(argv[i])) {
				join_words(argv, argc, text, sizeof(text));
				im->seen++;
				drop(im, lines[0], "\"%s\" loads its settings "
				    "from a file: import that file", text);
				return;
			}
			if (strcmp(argv[i], "-r") == 0 ||
			    strcmp(argv[i], "--pattern") == 0 ||
			    strcmp(argv[i], "-B") == 0)
				i++;
		} else if (strchr(argv[i], '=') != NULL) {
			add_assignment(im, lines[i], argv[i]);
		} else if (strpbrk(argv[i], "$`") != NULL) {
			im->seen++;
			drop(im, lines[i], "sysctl argument %s is a shell "
			    "expansion: import cannot know what it set",
			    argv[i]);
		}
	}
}

/* "netsh int[erface] tcp set global k=v ...": 1 when it was one. */
static int
netsh_global(struct import *im, int line, char **argv, int argc)
{
	char	*eq;
	size_t	 j;
	int	 i;

	if (argc < 5 || strncasecmp(argv[1], "int", 3) != 0 ||
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

/* Any netsh command: set global's keys, anything else said. */
static void
netsh_command(struct import *im, int line, char **argv, int argc)
{
	char	text[512];

	join_words(argv, argc, text, sizeof(text));
	if (netsh_global(im, line, argv, argc))
		return;
	im->seen++;
	drop(im, line, "\"%s\" is not a setting tcptune manages (it "
	    "carries over netsh interface tcp set global autotuninglevel and "
	    "rss)", text);
}

/* Whether any word names sysctl: a command that may run it. */
static bool
names_sysctl(char **argv, int argc)
{
	int	i;

	for (i = 0; i < argc; i++)
		if (strstr(argv[i], "sysctl") != NULL)
			return true;
	return false;
}

/*
 * One command of a shell text: a sysctl (or netsh) wherever it is run,
 * or another command; one that may run sysctl in a way not followed
 * here (a variable for the program, env -S, a wrapper not listed) is
 * said, as it may set what is not carried over.
 */
static enum command_kind
shell_command(struct import *im, char **argv, int argc, const int *lines)
{
	char	text[512];
	bool	lookup, wrapped;
	int	i = command_start(argv, argc, &lookup, &wrapped);

	if (lookup || (i < argc && word_in(base_name(argv[i]), no_effect)))
		return CMD_NOTHING;
	if (i < argc && strcmp(base_name(argv[i]), "sysctl") == 0) {
		sysctl_command(im, argv + i, argc - i, lines + i);
		return CMD_READ;
	}
	if (i < argc && strcasecmp(base_name(argv[i]), "netsh") == 0) {
		netsh_command(im, lines[i], argv + i, argc - i);
		return CMD_READ;
	}
	/* "SYSCTL=/usr/sbin/sysctl" alone runs nothing; env -S does */
	if ((names_sysctl(argv, argc) && (i < argc || wrapped)) ||
	    (i < argc && argv[i][0] == '$')) {
		join_words(argv, argc, text, sizeof(text));
		im->seen++;
		drop(im, lines[0], "\"%s\" may run sysctl in a way import cannot "
		    "follow: carry its settings over by hand", text);
		return CMD_READ;
	}
	return i < argc ? CMD_OTHER : CMD_NOTHING;
}

/*
 * Words of one command as a shell splits them, roughly: blanks separate,
 * quotes group and go, ';' '&' '|' '(' ')' and newlines end the command,
 * '#' at a word's start comments out the rest.  argv gets pointers into
 * s, which is changed.  Returns the count; *rest is where the next
 * command starts, or NULL; *newlines counts the newlines passed.
 */
static int
shell_words(char *s, char **argv, int max, char **rest, int *newlines)
{
	char	*out, q;
	int	 n = 0;

	*rest = NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			return n;
		if (strchr(";&|()\n", *s) != NULL) {
			for (; *s != '\0' && strchr(";&|()\n", *s) != NULL; s++)
				*newlines += *s == '\n';
			*rest = s;
			return n;
		}
		if (n == max)
			return -1;
		argv[n++] = out = s;
		for (q = 0; *s != '\0'; s++) {
			if (q == 0 && strchr(" \t;&|()\n", *s) != NULL)
				break;
			*newlines += *s == '\n';
			if ((*s == '\'' || *s == '"') && (q == 0 || q == *s))
				q = q ? 0 : *s;
			else
				*out++ = *s;
		}
		q = *s;			/* what ended the word, before the NUL */
		*out = '\0';
		if (q == '\0')
			return n;
		if (strchr(";&|()\n", q) != NULL) {
			*newlines += q == '\n';
			*rest = s + 1;
			return n;
		}
		s++;
	}
}

/* What a shell text held: counts of each command_kind. */
struct shell_counts {
	int	kind[CMD_OTHER + 1];
};

/*
 * Every command of a shell text ("sysctl -w a=b; sysctl -w c=d"), the
 * first on line; one after a newline in the text on the lines after.
 */
static struct shell_counts
shell_text(struct import *im, int line, char *s)
{
	struct shell_counts	 c;
	char			*argv[64], *rest;
	int			 lines[64], argc, newlines = 0, start, i;

	memset(&c, 0, sizeof(c));
	for (; s != NULL; s = rest) {
		start = line + newlines;	/* the command's first word */
		argc = shell_words(s, argv, (int)NITEMS(argv), &rest,
		    &newlines);
		if (argc < 0) {
			im->seen++;
			drop(im, start, "a command of more than %zu "
			    "words", NITEMS(argv));
			c.kind[CMD_READ]++;
			return c;
		}
		for (i = 0; i < argc; i++)
			lines[i] = start;
		c.kind[shell_command(im, argv, argc, lines)]++;
	}
	return c;
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
			c = shell_text(im, line, copy);
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

/* The script of "sh -c SCRIPT" (also -e -c, -ec, bash, zsh), or -1. */
static int
shell_script(const struct launchd_args *pa)
{
	static const char *const shells[] = {
		"sh", "bash", "zsh", "dash", "ksh", NULL
	};
	int	i;

	if (pa->argc < 3 || !word_in(base_name(pa->argv[0]), shells))
		return -1;
	for (i = 1; i + 1 < pa->argc && pa->argv[i][0] == '-'; i++)
		if (strchr(pa->argv[i], 'c') != NULL)
			return i + 1;
	return -1;
}

/*
 * The launchd job's ProgramArguments, read as tcptuned reads a config:
 * by config.c's hardened reader (no entities, no network, no DTD
 * loaded).  The commands found that run sysctl or netsh; -1 with the
 * reasons in errs; -2 for a tcptune.conf.
 */
static int
read_plist(struct import *im, const char *buf, size_t len,
    struct errlist *errs)
{
	struct launchd_args	 pa;
	struct shell_counts	 c;
	int			 found, i;

	if ((found = config_launchd_args(buf, len, im->path, &pa, errs)) < 0)
		return found;
	if ((i = shell_script(&pa)) != -1) {
		c = shell_text(im, pa.line[i], pa.argv[i]);
		found = c.kind[CMD_READ];
	} else if (pa.argc > 0)
		found = shell_command(im, pa.argv, pa.argc, pa.line) ==
		    CMD_READ;
	config_launchd_args_free(&pa);
	return found;
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
			read_text(im, buf);
		rv = import_result(im);
	}
	errlist_clear(&errs);
	free(buf);
	free(im);
	return rv;
}
