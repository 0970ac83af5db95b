/*
 * The sysctl settings a shell text or a launchd job sets, as a shell
 * would run them, for tcptunectl import (tools/import.c) and for the
 * other sources of a key (other_sources.c): one reader of both.
 * Moved here from tools/import.c as it was; what it finds goes to a
 * sink (lib/sources.h): a setting, or one that could not be followed
 * and why.
 *   - "sysctl -w a=b ..." wherever a shell would run it: after sudo,
 *     env, exec, command or nohup and their options, after then, do,
 *     &&, ||, and by any path;
 *   - "netsh interface tcp set global autotuninglevel=normal rss=...";
 *   - a launchd job's ProgramArguments, directly or through
 *     "/bin/sh -c 'sysctl -w a=b; sysctl -w c=d'";
 * (A sysctl.conf(5) / sysctl.d(5) "name = value" line is
 * other_sources.c's sysctl_conf_split(): the daemon reads those lines
 * and does not link this file, whose launchd reader needs libxml2.)
 */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tcptune.h"
#include "sources.h"

static void
lost(struct shell_sink *sk, int line, bool setting, const char *fmt, ...)
    TT_PRINTF(4, 5);

/* What could not be followed, formatted, to the sink. */
static void
lost(struct shell_sink *sk, int line, bool setting, const char *fmt, ...)
{
	char	msg[512];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sk->lost(sk, line, setting, msg);
}

/* netsh's global settings tcptune manages, and their keys. */
static const struct {
	const char	*netsh;
	const char	*key;
} netsh_keys[] = {
	{ "autotuninglevel", "tcp.autotuninglevel" },
	{ "rss", "offload.rss" },
};

/* "a=b" as sysctl -w takes it. */
static void
add_assignment(struct shell_sink *sk, int line, char *word)
{
	char	*eq = strchr(word, '=');

	*eq = '\0';
	if (strpbrk(eq + 1, "$`") != NULL) {
		lost(sk, line, true, "the value of %s is a shell expansion (%s): "
		    "import cannot know what it was", word, eq + 1);
		return;
	}
	sk->set(sk, line, word, eq + 1);
}

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
sysctl_command(struct shell_sink *sk, char **argv, int argc, const int *lines)
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
				lost(sk, lines[0], true, "\"%s\" loads its settings "
				    "from a file: import that file", text);
				return;
			}
			if (strcmp(argv[i], "-r") == 0 ||
			    strcmp(argv[i], "--pattern") == 0 ||
			    strcmp(argv[i], "-B") == 0)
				i++;
		} else if (strchr(argv[i], '=') != NULL) {
			add_assignment(sk, lines[i], argv[i]);
		} else if (strpbrk(argv[i], "$`") != NULL) {
			lost(sk, lines[i], true, "sysctl argument %s is a shell "
			    "expansion: import cannot know what it set",
			    argv[i]);
		}
	}
}

/* "netsh int[erface] tcp set global k=v ...": 1 when it was one. */
static int
netsh_global(struct shell_sink *sk, int line, char **argv, int argc)
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
			lost(sk, line, false, "netsh argument \"%s\" sets nothing",
			    argv[i]);
			continue;
		}
		*eq = '\0';
		for (j = 0; j < NITEMS(netsh_keys) &&
		    strcasecmp(argv[i], netsh_keys[j].netsh) != 0; j++)
			;
		if (j == NITEMS(netsh_keys)) {
			lost(sk, line, true, "netsh's %s is not one tcptune manages "
			    "(tcp.autotuninglevel and offload.rss are)",
			    argv[i]);
			continue;
		}
		for (eq++; *eq != '\0'; eq++)
			*eq = (char)tolower((unsigned char)*eq);
		sk->set(sk, line, netsh_keys[j].key,
		    strchr(argv[i], '\0') + 1);
	}
	return 1;
}

/* Any netsh command: set global's keys, anything else said. */
static void
netsh_command(struct shell_sink *sk, int line, char **argv, int argc)
{
	char	text[512];

	join_words(argv, argc, text, sizeof(text));
	if (netsh_global(sk, line, argv, argc))
		return;
	lost(sk, line, true, "\"%s\" is not a setting tcptune manages (it "
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
enum command_kind
shell_scan_command(struct shell_sink *sk, char **argv, int argc, const int *lines)
{
	char	text[512];
	bool	lookup, wrapped;
	int	i = command_start(argv, argc, &lookup, &wrapped);

	if (lookup || (i < argc && word_in(base_name(argv[i]), no_effect)))
		return CMD_NOTHING;
	if (i < argc && strcmp(base_name(argv[i]), "sysctl") == 0) {
		sysctl_command(sk, argv + i, argc - i, lines + i);
		return CMD_READ;
	}
	if (i < argc && strcasecmp(base_name(argv[i]), "netsh") == 0) {
		netsh_command(sk, lines[i], argv + i, argc - i);
		return CMD_READ;
	}
	/* "SYSCTL=/usr/sbin/sysctl" alone runs nothing; env -S does */
	if ((names_sysctl(argv, argc) && (i < argc || wrapped)) ||
	    (i < argc && argv[i][0] == '$')) {
		join_words(argv, argc, text, sizeof(text));
		lost(sk, lines[0], true, "\"%s\" may run sysctl in a way import cannot "
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


/*
 * Every command of a shell text ("sysctl -w a=b; sysctl -w c=d"), the
 * first on line; one after a newline in the text on the lines after.
 */
struct shell_counts
shell_scan_text(struct shell_sink *sk, int line, char *s)
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
			lost(sk, start, true, "a command of more than %zu "
			    "words", NITEMS(argv));
			c.kind[CMD_READ]++;
			return c;
		}
		for (i = 0; i < argc; i++)
			lines[i] = start;
		c.kind[shell_scan_command(sk, argv, argc, lines)]++;
	}
	return c;
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
int
shell_scan_launchd(struct shell_sink *sk, const char *buf, size_t len,
    const char *label, struct errlist *errs)
{
	struct launchd_args	 pa;
	struct shell_counts	 c;
	int			 found, i;

	if ((found = config_launchd_args(buf, len, label, &pa, errs)) < 0)
		return found;
	if ((i = shell_script(&pa)) != -1) {
		c = shell_scan_text(sk, pa.line[i], pa.argv[i]);
		found = c.kind[CMD_READ];
	} else if (pa.argc > 0)
		found = shell_scan_command(sk, pa.argv, pa.argc, pa.line) ==
		    CMD_READ;
	config_launchd_args_free(&pa);
	return found;
}

