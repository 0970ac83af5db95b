/*
 * tcptunectl: show and control tcptuned.
 *
 * The command line is read against two tables, commands and options (as
 * bgpctl's parser.c); options may come before or after the command, and
 * the help is printed from the same tables so that it cannot drift.
 *
 * Built twice on Linux (docs/DESIGN.md §4, "A quick client"): the full
 * program, tcptunectl-full in libexecdir, and with TT_CTL_QUICK the
 * tcptunectl users run, without libcurl and libxml2, which carries out
 * the commands marked quick in the table and execs the full program with
 * the same arguments for every other (ctl_exec.c): a command added to
 * the table runs in the full program unless it is marked quick.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sources.h"
#include "tcptunectl.h"
#include "advise/advise.h"
#include "manual.h"
#include "measure/measure.h"
#include "diagnose/diagnose.h"

#define HELP_INDENT	22	/* column where the help texts start */
#define HELP_PAD	"                      "	/* HELP_INDENT spaces */
_Static_assert(sizeof(HELP_PAD) - 1 == HELP_INDENT, "HELP_PAD's width");
#define HELP_WIDTH	74	/* the widest help text's right edge */
#define EXIT_INDENT	7	/* the same for the exit codes (130) */
#define SYNOPSIS_WIDTH	80	/* a terminal's columns */
#define SYNOPSIS_INDENT	2	/* the synopsis's continuation lines */
#define PREFIX_MIN	3	/* a shorter prefix is no guess */
#define STRINGIFY(x)	STRINGIFY_(x)
#define STRINGIFY_(x)	#x

enum cmd_id {
	C_STATUS,
	C_RELOAD,
	C_CHECK,
	C_IMPORT,
	C_SET,
	C_UNSET,
	C_RESTORE,
	C_RESUME,
	C_ADVISE,
	C_MEASURE,
	C_DIAGNOSE,
	C_HELP,
	C_VERSION
};
#define CMD(id)		(1u << (id))
#define CMD_ALL		(~0u)

enum opt_id {
	OPT_SOCKET,
	OPT_JSON,
	OPT_VERBOSE,
	OPT_HELP,
	OPT_SHORT,
	OPT_VERSION,
	OPT_RATE,
	OPT_RTT,
	OPT_HOST,
	OPT_COUNT,
	OPT_TIMEOUT,
	OPT_PLATFORM,
	OPT_SET,
	OPT_CONFIG,
	OPT_FORCE,
	OPT_PROMETHEUS,
	OPT_TEXTFILE,
	OPT_ROUNDS,
	OPT_TIME,
	OPT_ALL,
	OPT_STREAMS,
	OPT_UPLOAD,
	OPT_BOTH,
	OPT_METHOD,
	OPT_ROOT,
	OPT_FILE,
	OPT_APPLY,
	OPT_MANAGED
};

struct params;

struct command {
	enum cmd_id	 id;
	const char	*name;
	const char	*args;		/* as shown in the help */
	int		 maxargs;
	uint32_t	 request;	/* to the daemon; 0 none */
	int		(*run)(const struct params *);
	const char	*summary;	/* one line: help CMD, --help */
	const char	*help;		/* lines separated by \n */
};

/*
 * The commands the quick tcptunectl (TT_CTL_QUICK) carries out itself:
 * what talks to the daemon and prints, nothing that needs libcurl or
 * libxml2.  Any other, a command added later too, is run by the full
 * program (ctl_exec.c).
 */
#ifdef TT_CTL_QUICK
static const enum cmd_id quick_commands[] = {
	C_STATUS, C_RELOAD, C_RESTORE, C_RESUME, C_VERSION
};
#endif

/* The run of a command that needs libcurl or libxml2: not in the quick one. */
#ifdef TT_CTL_QUICK
#define FULL_ONLY(fn)	NULL
#else
#define FULL_ONLY(fn)	fn
#endif

/*
 * An option with letter 0 has only its long form.  An argument written
 * "[ARG]" is optional: --name=ARG, or the next word when that is neither
 * an option nor, before the command, a command's name.
 */
struct ctl_option {
	enum opt_id	 id;
	int		 letter;
	const char	*name;
	const char	*arg;		/* its argument, NULL if none */
	unsigned	 cmds;		/* the commands it applies to */
	const char	*help;
};

struct params {
	const struct command	*cmd;
	const struct output	*out;
	const char		*socket;
	const char		*file;
	const char		*textfile;	/* status --textfile DIR */
	bool			 prometheus;
	int			 nargs;
	bool			 word_seen;
	bool			 verbose;
	bool			 help;
	bool			 version;
	struct advise_args	 adv;
	const char		*rounds;	/* measure -n */
	const char		*seconds;	/* measure -t */
	bool			 all;		/* diagnose --all */
	const char		*streams;	/* measure --streams */
	bool			 upload;	/* measure --upload */
	bool			 both;		/* measure --both */
	const char		*method;	/* measure --method */
	const char		*root;		/* check -r */
	const char		*managed;	/* check -m */
	const char		*setfile;	/* set, unset -f */
	char			*args[TT_MAX_KEYS];	/* set, unset */
	unsigned		 opts_seen;	/* 1 << enum opt_id */
	char			 error[256];	/* the first usage error */
};

static int	run_status(const struct params *);
static int	run_change(const struct params *);
#ifndef TT_CTL_QUICK
static int	run_check(const struct params *);
static int	run_import(const struct params *);
static int	run_set(const struct params *);
static int	run_advise(const struct params *);
static int	run_measure(const struct params *);
static int	run_diagnose(const struct params *);
static int	run_help_page(const struct params *);
#endif
static int	run_help(const struct params *);
static int	run_version(const struct params *);
static void	usage_error(struct params *, const char *, ...)
		    TT_PRINTF(2, 3);

static const struct command commands[] = {
	{ C_STATUS, "status", "", 0, MSG_STATUS, run_status,
	    "the daemon and the state of every key",
	    "show the daemon and the state of every key" },
	{ C_RELOAD, "reload", "", 0, MSG_RELOAD, run_change,
	    "re-read the configuration (root)",
	    "re-read the configuration (needs root)" },
	{ C_CHECK, "check", "[-v] [-m MANAGED] [--platform OS | -r DIR] [FILE]",
	    1, 0, FULL_ONLY(run_check),
	    "check a configuration offline",
	    "check a configuration offline, without the daemon\n"
	    "or root: against this OS's keys and this kernel,\n"
	    "or --platform OS's keys; -v also prints the plan.\n"
	    "FILE defaults to " TT_CONFIG_PATH "\n"
	    "and is read with the layers tcptuned lays over\n"
	    "it (a managed file, a registry policy); another\n"
	    "FILE is checked alone, unless -m names one" },
	{ C_IMPORT, "import", "[--platform OS] FILE", 1, 0,
	    FULL_ONLY(run_import),
	    "a sysctl.conf, plist or netsh lines as a config",
	    "print as a tcptune.conf the tuning of a sysctl.conf\n"
	    "or sysctl.d file, a launchd plist running sysctl -w,\n"
	    "or netsh interface tcp set global lines; what cannot\n"
	    "be carried over is said on stderr" },
	{ C_SET, "set", "[-f FILE] KEY=VALUE...", TT_MAX_KEYS, 0,
	    FULL_ONLY(run_set),
	    "change the config, reload (root)",
	    "set keys in the running daemon's config (or FILE)\n"
	    "in one step: checked as the daemon would, written\n"
	    "whole (owner root, mode 0644), reloaded, the new\n"
	    "status shown; a refused value changes nothing\n"
	    "(needs root)" },
	{ C_UNSET, "unset", "[-f FILE] KEY...", TT_MAX_KEYS, 0,
	    FULL_ONLY(run_set),
	    "remove keys from the config (root)",
	    "remove keys from the config the same way" },
	{ C_RESTORE, "restore", "", 0, MSG_RESTORE, run_change,
	    "put the original values back, pause (root)",
	    "put the original values back and pause enforcement\n"
	    "until resume or a reload (needs root)" },
	{ C_RESUME, "resume", "", 0, MSG_RESUME, run_change,
	    "enforce the configuration again (root)",
	    "enforce the configuration again (needs root)" },
	{ C_ADVISE, "advise", "--rate RATE (--rtt TIME | --host HOST)", 0, 0,
	    FULL_ONLY(run_advise),
	    "what one TCP stream needs on a path",
	    "what one TCP stream needs on a path, what this\n"
	    "machine allows and the ceilings to set; reads\n"
	    "only, no daemon or root needed (options below),\n"
	    "but --apply sets them as set does" },
	{ C_MEASURE, "measure",
	    "[-n ROUNDS | --streams N] [-t SECONDS] [--upload | --both] "
	    "[--method METHOD] URL", 1,
	    0,
	    FULL_ONLY(run_measure),
	    "what the tuning is worth, download or upload",
	    "download URL (http, https, iperf3), or upload to\n"
	    "it, on one TCP connection per round; as root with\n"
	    "tcptuned, rounds take the original and the tuned\n"
	    "values in turn and the verdict says what the\n"
	    "tuning is worth; else the current settings only,\n"
	    "and why" },
	{ C_DIAGNOSE, "diagnose", "[--all]", 0, MSG_DIAGNOSE,
	    FULL_ONLY(run_diagnose),
	    "what held this machine's recent transfers",
	    "the connections of the last hour that moved real\n"
	    "data over a real round trip, and what held each:\n"
	    "this machine's receive or send buffer at its\n"
	    "ceiling, the far end's window, the network or the\n"
	    "program; without root, your own connections only" },
	{ C_HELP, "help", "[COMMAND | PAGE]", 1, 0, FULL_ONLY(run_help_page),
	    "a command's options, or a manual page",
	    "show this help; with COMMAND, its synopsis and\n"
	    "options (as COMMAND --help); or the manual page\n"
	    "PAGE: tcptunectl, tcptuned or tcptune.conf" },
	{ C_VERSION, "version", "", 0, 0, run_version,
	    "show the version",
	    "show the version" },
};

static const struct ctl_option options[] = {
	{ OPT_SOCKET, 's', "socket", "PATH", CMD_ALL,
	    "the daemon's control socket, by default\n" TT_SOCKET_PATH },
	/*
	 * import's output is a tcptune.conf, in no other format; set and
	 * unset say what they changed, help prints text: none has JSON
	 */
	{ OPT_JSON, 'j', "json", NULL, CMD_ALL & ~CMD(C_CHECK) &
	    ~CMD(C_IMPORT) & ~CMD(C_SET) & ~CMD(C_UNSET) & ~CMD(C_HELP),
	    "print JSON (status, reload, restore, resume,\n"
	    "advise, measure, diagnose, version); nothing on\n"
	    "stdout "
	    "with exit status 2 or 4, nor from measure on\n"
	    "any failure" },
	{ OPT_VERBOSE, 'v', "verbose", NULL, CMD(C_CHECK),
	    "check: also print the ordered plan" },
	{ OPT_HELP, 'h', "help", NULL, CMD_ALL,
	    "show this help" },
	{ OPT_VERSION, 'V', "version", NULL, CMD_ALL,
	    "show the version" },
	{ OPT_RATE, 0, "rate", "RATE", CMD(C_ADVISE),
	    "advise: the line rate in bit/s: 500m, 1g, 2.5G,\n"
	    "800mbit, or bytes as 100MB/s; k, m, g, t are\n"
	    "powers of 1000; a bare number is refused" },
	{ OPT_RTT, 0, "rtt", "TIME", CMD(C_ADVISE),
	    "advise: the round trip: 150ms, 0.15s, 150000us;\n"
	    "a plain number is in milliseconds" },
	{ OPT_HOST, 0, "host", "HOST[:PORT]", CMD(C_ADVISE),
	    "advise: measure the round trip with TCP connects\n"
	    "to HOST, port 443 by default ([ADDR]:PORT for\n"
	    "IPv6); a refused connect counts as a round trip" },
	{ OPT_COUNT, 0, "count", "N", CMD(C_ADVISE),
	    "advise --host: connects to time, the median is\n"
	    "used (" STRINGIFY(ADV_COUNT_DEFAULT) ", at most "
	    STRINGIFY(ADV_COUNT_MAX) ")" },
	{ OPT_TIMEOUT, 0, "timeout", "TIME", CMD(C_ADVISE),
	    "advise --host: the time each connect and the name\n"
	    "lookup may take (2s; a plain number is in seconds)" },
	{ OPT_PLATFORM, 0, "platform", "OS", CMD(C_ADVISE) | CMD(C_CHECK) |
	    CMD(C_IMPORT),
	    "advise: model OS from its stock values and --set\n"
	    "instead of this machine; check: a config for OS,\n"
	    "against its keys only; import: the OS the file is\n"
	    "for." },	/* help_oses() follows with the OSes */
	{ OPT_FILE, 'f', "file", "FILE", CMD(C_SET) | CMD(C_UNSET) |
	    CMD(C_ADVISE),
	    "set, unset, advise --apply: edit FILE instead of\n"
	    "the running daemon's config; no reload" },
	{ OPT_ROOT, 'r', "root", "DIR", CMD(C_CHECK),
	    "check: the sysctl tree to find keys in, instead\n"
	    "of this kernel's (" TT_PROC_SYS " on Linux)" },
	{ OPT_MANAGED, 'm', "managed", "MANAGED", CMD(C_CHECK),
	    "check: lay the managed preferences file MANAGED\n"
	    "over FILE, as tcptuned -m does" },
	{ OPT_SET, 0, "set", "NAME=VALUE", CMD(C_ADVISE),
	    "advise: take VALUE for a sysctl instead of the\n"
	    "live one (repeatable; K, M, G allowed)" },
	{ OPT_CONFIG, 0, "config", "[FILE]", CMD(C_ADVISE),
	    "advise: print the recommended tcptune.conf, or\n"
	    "write it to FILE (mode 0644; an existing FILE\n"
	    "only with --force)" },
	{ OPT_FORCE, 0, "force", NULL, CMD(C_ADVISE),
	    "advise --config FILE: replace an existing FILE" },
	{ OPT_APPLY, 0, "apply", NULL, CMD(C_ADVISE),
	    "advise: set the keys this machine must raise in\n"
	    "the running daemon's config as set does: each\n"
	    "shown old -> new, checked, written, reloaded, the\n"
	    "new status printed; nothing to change, exit 0\n"
	    "(needs root)" },
	{ OPT_SHORT, 0, "short", NULL, CMD(C_STATUS),
	    "status: one line a key: name, state, value" },
	{ OPT_PROMETHEUS, 0, "prometheus", NULL, CMD(C_STATUS),
	    "status: print the Prometheus text format for\n"
	    "node_exporter; tcptune_up 0 when no daemon answers" },
	{ OPT_TEXTFILE, 0, "textfile", "DIR", CMD(C_STATUS),
	    "status: write the Prometheus metrics to\n"
	    "DIR/tcptune.prom, replacing it whole, for\n"
	    "node_exporter's textfile collector" },
	{ OPT_ROUNDS, 'n', "rounds", "ROUNDS", CMD(C_MEASURE),
	    "measure: rounds of each side (" STRINGIFY(MEASURE_ROUNDS_DEFAULT)
	    ", at most\n" STRINGIFY(MEASURE_ROUNDS_MAX) ")" },
	{ OPT_TIME, 't', "time", "SECONDS", CMD(C_MEASURE),
	    "measure: seconds each round's transfer runs at most\n"
	    "(" STRINGIFY(MEASURE_TIME_DEFAULT) ", from 2 to "
	    STRINGIFY(MEASURE_TIME_MAX) ")" },
	{ OPT_STREAMS, 0, "streams", "N", CMD(C_MEASURE),
	    "measure: one stream, then N at once (2 to "
	    STRINGIFY(MEASURE_STREAMS_MAX) "), on the\n"
	    "settings in force; says whether one stream is held\n"
	    "by a per-stream limit" },
	{ OPT_UPLOAD, 0, "upload", NULL, CMD(C_MEASURE),
	    "measure: send to the server instead of receiving\n"
	    "from it (http(s): a PUT of -t seconds of data)" },
	{ OPT_BOTH, 0, "both", NULL, CMD(C_MEASURE),
	    "measure: the download, then the upload, each with\n"
	    "its own verdict" },
	{ OPT_METHOD, 0, "method", "METHOD", CMD(C_MEASURE),
	    "measure: an http(s) upload's method, put (the\n"
	    "default, as curl -T) or post" },
	{ OPT_ALL, 0, "all", NULL, CMD(C_DIAGNOSE),
	    "diagnose: also the connections too small or too\n"
	    "near to tell" },
};

static const struct {
	int		 code;
	const char	*help;
} exit_codes[] = {
	{ CTL_OK, "success; status: every key is in force; status --prometheus\n"
	    "and --textfile: the metrics were written, whatever the keys' state" },
	{ CTL_FAIL,
	    "status: a key is not in force, or enforcement is paused (not\n"
	    "with --prometheus or --textfile: the metrics carry it);\n"
	    "reload: the new configuration was rejected (the running one "
	    "stays);\ncheck: the configuration has errors; restore: failed "
	    "(resume\nexits 0 once enforcement is on, keys refused or not: "
	    "status tells);\nimport: something could not be carried over "
	    "(said on stderr,\nthe rest is on stdout); set, unset: a value or "
	    "key was refused,\nthe file is missing or refused, or its reload "
	    "failed (nothing\nchanged); advise: the --config FILE could not be "
	    "written, or\n--apply was refused or its reload failed; status "
	    "--textfile:\nDIR/tcptune.prom could not be written;\n"
	    "measure: tcptuned refused the lease (another measurement "
	    "holds\nit), or the download failed otherwise" },
	{ CTL_UNREACHABLE, "tcptuned is unreachable: not running, no "
	    "permission on its\nsocket, its queue full, or no complete reply "
	    "within " STRINGIFY(CTL_TIMEOUT_SEC) " s\n(a reload's in "
	    STRINGIFY(TT_RELOAD_WAIT_SEC) " s; " CTL_TIMEOUT_ENV
	    "); or the server on the\nsocket is not root; set, unset and "
	    "advise --apply without -f:\nno daemon answers (nothing changed)" },
	{ CTL_DENIED, "the command needs root" },
	{ CTL_PROTOCOL, "protocol error: a bad reply, or tcptuned speaks "
	    "another\nprotocol version" },
	{ MEX_UNREACHABLE, "measure: the server cannot be reached: its name "
	    "does not\nresolve, the connection is refused, or none is made "
	    "within\n" STRINGIFY(MEASURE_CONNECT_SEC) " s; advise --host: the "
	    "host cannot be resolved, is\nunreachable or does not answer" },
	{ MEX_HTTP, "measure: the server answered with an HTTP error (an "
	    "upload\nrefused), or redirected more than "
	    STRINGIFY(MEASURE_MAX_REDIRS) " times" },
	{ MEX_TLS, "measure: TLS failed: the certificate is not valid or "
	    "not\nfor this host, or the handshake failed" },
	{ MEX_STALLED, "measure: the server stalled (no data for "
	    STRINGIFY(MEASURE_STALL_SEC) " s) or the\ntransfer broke off" },
	{ MEX_SHORT, "measure: the body ends within a second: too short to "
	    "measure" },
	{ MEX_REFUSED, "measure: the iperf3 server is busy with another "
	    "test, or broke\noff the exchange (another protocol version)" },
	{ CTL_USAGE, "usage error; measure: a bad URL" },
	{ MEX_INTERRUPTED, "measure: interrupted (SIGINT, SIGTERM, SIGHUP)" },
};
_Static_assert((int)CTL_HOST_UNREACHABLE == (int)MEX_UNREACHABLE,
    "advise --host and measure share exit status 5");


/* ---- help */

static const struct command *
command_by_id(enum cmd_id id)
{
	size_t	i;

	for (i = 0; i < NITEMS(commands); i++)
		if (commands[i].id == id)
			return &commands[i];
	abort();
}

/* "  label   text", the text's further lines aligned under its first. */
static void
help_entry(FILE *f, int indent, const char *label, const char *text)
{
	const char	*nl;
	int		 n;
	size_t		 width = (size_t)(SYNOPSIS_WIDTH - indent);

	n = fprintf(f, "  %s", label);
	if (n >= indent - 1) {
		fputc('\n', f);
		n = 0;
	}
	for (;;) {
		fprintf(f, "%*s", indent - n, "");
		if ((nl = strchr(text, '\n')) == NULL)
			break;
		tt_wrap_line(f, text, (size_t)(nl - text), width, 0, width,
		    indent);
		text = nl + 1;
		n = 0;
	}
	tt_wrap_line(f, text, strlen(text), width, 0, width, indent);
}

/*
 * The synopsis after a usage error: every command with its arguments,
 * wrapped at SYNOPSIS_WIDTH with a hanging indent, so that a mistyped
 * word is answered on a terminal's 80 columns (issue 31).
 */
/*
 * A command whose arguments pass a line (measure's options): lines of
 * its own, broken only between bracketed groups, never inside one.
 */
static void
synopsis_long(FILE *f, const char *item)
{
	const char	*p = item, *end;
	size_t		 col, n;
	int		 depth;

	col = (size_t)fprintf(f, "%*s", SYNOPSIS_INDENT, "");
	while (*p != '\0') {
		for (end = p, depth = 0; *end != '\0' &&
		    (*end != ' ' || depth > 0); end++)
			depth += (*end == '[' || *end == '(') -
			    (*end == ']' || *end == ')');
		n = (size_t)(end - p);
		if (col > SYNOPSIS_INDENT && col + 1 + n > SYNOPSIS_WIDTH)
			col = (size_t)fprintf(f, "\n%*s", SYNOPSIS_INDENT * 3,
			    "") - 1;
		else if (col > SYNOPSIS_INDENT)
			col += (size_t)fprintf(f, " ");
		col += (size_t)fprintf(f, "%.*s", (int)n, p);
		p = *end == ' ' ? end + 1 : end;
	}
	fputc('\n', f);
}

static void
usage_synopsis(FILE *f)
{
	char	item[160];
	size_t	i, col, len;

	fprintf(f, "usage: %s [-hjV] [-s PATH] COMMAND [ARGS]\n", CTL_NAME);
	col = (size_t)fprintf(f, "commands:");
	for (i = 0; i < NITEMS(commands); i++) {
		len = (size_t)snprintf(item, sizeof(item), "%s%s%s%s",
		    commands[i].name, *commands[i].args ? " " : "",
		    commands[i].args, i + 1 < NITEMS(commands) ? "," : "");
		if (col > 0 && col + 1 + len <= SYNOPSIS_WIDTH) {
			col += (size_t)fprintf(f, " %s", item);
			continue;
		}
		if (col > 0)
			fputc('\n', f);
		if (SYNOPSIS_INDENT + len <= SYNOPSIS_WIDTH) {
			col = (size_t)fprintf(f, "%*s%s", SYNOPSIS_INDENT, "",
			    item);
			continue;
		}
		synopsis_long(f, item);
		col = 0;
	}
	if (col > 0)
		fputc('\n', f);
}

/* "-s, --socket PATH", or "    --rate RATE" for a long-only option. */
static void
option_label(const struct ctl_option *o, char *buf, size_t len)
{
	const char	*sep = o->arg == NULL ? "" : " ";

	if (o->letter != 0)
		snprintf(buf, len, "-%c, --%s%s%s", o->letter, o->name, sep,
		    o->arg ? o->arg : "");
	else
		snprintf(buf, len, "    --%s%s%s", o->name, sep,
		    o->arg ? o->arg : "");
}

/* --platform's words, from the catalogue's one list of them. */
static void
help_oses(FILE *f)
{
	char	oses[CAT_OS_LIST_MAX], text[CAT_OS_LIST_MAX + 16];

	catalogue_os_list(CAT_OS_WORDS, oses, sizeof(oses));
	snprintf(text, sizeof(text), "OS is one of %s", oses);
	ctl_wrap(f, HELP_PAD, HELP_PAD, text, HELP_WIDTH);
}

static void
print_help(FILE *f)
{
	char	label[64];
	size_t	i;

	usage_synopsis(f);
	fprintf(f, "\nShow and control tcptuned, which keeps TCP-tuning "
	    "sysctls in force.\n\nCommands:\n");
	for (i = 0; i < NITEMS(commands); i++) {
		snprintf(label, sizeof(label), "%s %s", commands[i].name,
		    commands[i].args);
		help_entry(f, HELP_INDENT, label, commands[i].help);
	}
	fprintf(f, "\nOptions, before or after the command:\n");
	for (i = 0; i < NITEMS(options); i++) {
		option_label(&options[i], label, sizeof(label));
		help_entry(f, HELP_INDENT, label, options[i].help);
		if (options[i].id == OPT_PLATFORM)
			help_oses(f);
	}
	fprintf(f, "\nExit status:\n");
	for (i = 0; i < NITEMS(exit_codes); i++) {
		snprintf(label, sizeof(label), "%d", exit_codes[i].code);
		help_entry(f, EXIT_INDENT, label, exit_codes[i].help);
	}
}

/*
 * --help: what a person needs first, on one screen, with examples; the
 * whole reference (every option, every exit status) is --help -v, and
 * the manual is "tcptunectl help".
 */
static void
print_help_short(FILE *f)
{
	/* the labels here, each text the command's summary in the table */
	static const struct {
		const char	*label;
		enum cmd_id	 id;
	} brief[] = {
		{ "status [--short]", C_STATUS },
		{ "reload", C_RELOAD },
		{ "check [-v] [FILE]", C_CHECK },
		{ "set KEY=VALUE...", C_SET },
		{ "unset KEY...", C_UNSET },
		{ "import FILE", C_IMPORT },
		{ "diagnose", C_DIAGNOSE },
		{ "restore", C_RESTORE },
		{ "resume", C_RESUME },
		{ "advise --rate RATE --rtt TIME", C_ADVISE },
		{ "measure URL", C_MEASURE },
		{ "help [COMMAND | PAGE]", C_HELP },
	};
	size_t	i;

	fprintf(f, "usage: %s [-hjV] [-s PATH] COMMAND [ARGS]\n\n"
	    "Show and control tcptuned, which keeps TCP-tuning sysctls in "
	    "force.\n\nCommands:\n", CTL_NAME);
	for (i = 0; i < NITEMS(brief); i++)
		fprintf(f, "  %-30s %s\n", brief[i].label,
		    command_by_id(brief[i].id)->summary);
	fprintf(f, "\nExamples:\n"
	    "  tcptunectl status --short\n"
	    "  tcptunectl check /etc/tcptune.conf\n"
	    "  tcptunectl advise --rate 1g --rtt 150ms\n"
	    "  tcptunectl advise --rate 1g --rtt 150ms --config new.conf\n"
	    "  sudo tcptunectl set net.ipv4.tcp_rmem=\"4K 128K 32M\"\n"
	    "  tcptunectl import /etc/sysctl.d/99-tcp.conf\n"
	    "  sudo tcptunectl reload\n"
	    "  sudo tcptunectl measure https://server.example/100M.bin\n"
	    "\nA command's options: %s help COMMAND; all of them: --help -v\n"
	    "The manual: %s help tcptunectl (or tcptuned, tcptune.conf)\n",
	    CTL_NAME, CTL_NAME);
}

/*
 * help COMMAND, COMMAND --help: its synopsis, its summary and every
 * option it takes, from the two tables; the text of an option of this
 * command only without its "COMMAND: " prefix, which says no more here.
 */
static void
print_command_help(FILE *f, const struct command *c)
{
	const char	*text;
	char		 label[64], synopsis[160];
	size_t		 i, len = strlen(c->name);

	snprintf(synopsis, sizeof(synopsis), "usage: %s %s [OPTION]...%s%s",
	    CTL_NAME, c->name, *c->args ? " " : "", c->args);
	ctl_wrap(f, "", "         ", synopsis, SYNOPSIS_WIDTH);
	fprintf(f, "\n%s: %s\n\nOptions:\n", c->name, c->summary);
	for (i = 0; i < NITEMS(options); i++) {
		if (!(options[i].cmds & CMD(c->id)))
			continue;
		text = options[i].help;
		if (options[i].cmds == CMD(c->id) &&
		    strncmp(text, c->name, len) == 0 &&
		    strncmp(text + len, ": ", 2) == 0)
			text += len + 2;
		option_label(&options[i], label, sizeof(label));
		help_entry(f, HELP_INDENT, label, text);
		if (options[i].id == OPT_PLATFORM)
			help_oses(f);
	}
	fprintf(f, "\nEvery command: %s --help; the manual: %s help %s\n",
	    CTL_NAME, CTL_NAME, CTL_NAME);
}

/* ---- the command line */

static void
usage_error(struct params *p, const char *fmt, ...)
{
	va_list	ap;

	if (p->error[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
}

static const struct command *
find_command(const char *name)
{
	size_t	i;

	/* case ignored, as --platform's names are: "Status" is a command */
	for (i = 0; i < NITEMS(commands); i++)
		if (strcasecmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * The one command that w begins, when it is long enough to mean
 * something ("stat", "diag"); NULL when none or several do.
 */
static const char *
command_with_prefix(const char *w)
{
	const char	*found = NULL;
	size_t		 i, len = strlen(w);

	if (len < PREFIX_MIN)
		return NULL;
	for (i = 0; i < NITEMS(commands); i++)
		if (strncasecmp(commands[i].name, w, len) == 0) {
			if (found != NULL)
				return NULL;
			found = commands[i].name;
		}
	return found;
}

/* "unknown command", with the command meant when it is a near miss. */
static void
unknown_command(struct params *p, const char *w)
{
	const char	*names[NITEMS(commands)], *near;
	size_t		 i;

	for (i = 0; i < NITEMS(commands); i++)
		names[i] = commands[i].name;
	if ((near = command_with_prefix(w)) != NULL ||
	    (near = ctl_nearest(w, names, NITEMS(commands))) != NULL)
		usage_error(p, "unknown command \"%s\": did you mean %s?", w,
		    near);
	else
		usage_error(p, "unknown command \"%s\"", w);
}

/* By its letter, or by its long name when len > 0. */
static const struct ctl_option *
find_option(int letter, const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < NITEMS(options); i++) {
		if (len == 0 && letter != 0 && options[i].letter == letter)
			return &options[i];
		if (len > 0 && strlen(options[i].name) == len &&
		    strncmp(options[i].name, name, len) == 0)
			return &options[i];
	}
	return NULL;
}

/* The advise options: kept as given, advise_run checks them. */
static void
advise_option(struct params *p, const struct ctl_option *o, const char *arg)
{
	struct advise_args	*a = &p->adv;

	switch (o->id) {
	case OPT_RATE:
		a->rate = arg;
		break;
	case OPT_RTT:
		a->rtt = arg;
		break;
	case OPT_HOST:
		a->host = arg;
		break;
	case OPT_COUNT:
		a->count = arg;
		break;
	case OPT_TIMEOUT:
		a->timeout = arg;
		break;
	case OPT_PLATFORM:
		a->platform = arg;
		break;
	case OPT_SET:
		if (a->nsets == ADV_MAX_SETS)
			usage_error(p, "more than %d --set options",
			    ADV_MAX_SETS);
		else
			a->sets[a->nsets++] = arg;
		break;
	case OPT_CONFIG:
		a->config = arg;
		a->config_set = true;
		break;
	case OPT_FORCE:
		a->force = true;
		break;
	case OPT_APPLY:
		a->apply = true;
		break;
	default:
		break;
	}
}

static void
set_option(struct params *p, const struct ctl_option *o, const char *arg)
{
	p->opts_seen |= 1u << o->id;
	switch (o->id) {
	case OPT_SOCKET:
		p->socket = arg;
		break;
	case OPT_JSON:
		p->out = &json_output;
		break;
	case OPT_VERBOSE:
		p->verbose = true;
		break;
	case OPT_HELP:
		p->help = true;
		break;
	case OPT_VERSION:
		p->version = true;
		break;
	case OPT_PROMETHEUS:
		p->prometheus = true;
		break;
	case OPT_SHORT:
		p->out = &text_short_output;
		break;
	case OPT_TEXTFILE:
		p->textfile = arg;
		break;
	case OPT_ROUNDS:
		p->rounds = arg;
		break;
	case OPT_TIME:
		p->seconds = arg;
		break;
	case OPT_ALL:
		p->all = true;
		break;
	case OPT_STREAMS:
		p->streams = arg;
		break;
	case OPT_UPLOAD:
		p->upload = true;
		break;
	case OPT_BOTH:
		p->both = true;
		break;
	case OPT_METHOD:
		p->method = arg;
		break;
	case OPT_ROOT:
		p->root = arg;
		break;
	case OPT_MANAGED:
		p->managed = arg;
		break;
	case OPT_FILE:
		p->setfile = arg;
		p->adv.file = arg;
		break;
	default:
		advise_option(p, o, arg);
		break;
	}
}

/*
 * The next word as an optional argument, or "" without one: an option is
 * never taken, nor a command's name while none has been seen.
 */
static const char *
optional_arg(const struct params *p, char *argv[], int *ip)
{
	const char	*next = argv[*ip + 1];

	if (next == NULL || (next[0] == '-' && next[1] != '\0') ||
	    (!p->word_seen && find_command(next) != NULL))
		return "";
	++*ip;
	return next;
}

/* "unknown option", with the option meant when it is a near miss. */
static void
unknown_option(struct params *p, const char *name, size_t len)
{
	const char	*names[NITEMS(options)], *near;
	char		 w[64];
	size_t		 i;

	for (i = 0; i < NITEMS(options); i++)
		names[i] = options[i].name;
	snprintf(w, sizeof(w), "%.*s", (int)len, name);
	if ((near = ctl_nearest(w, names, NITEMS(options))) != NULL)
		usage_error(p, "unknown option --%s: did you mean --%s?", w,
		    near);
	else
		usage_error(p, "unknown option --%.*s", (int)len, name);
}

/*
 * --name, --name=ARG or --name ARG; *ip moves past a separate ARG
 * (argv[argc] is NULL).
 */
static void
long_option(struct params *p, char *argv[], int *ip)
{
	const char		*name = argv[*ip] + 2, *arg;
	const struct ctl_option	*o;
	size_t			 len;

	arg = strchr(name, '=');
	len = arg ? (size_t)(arg - name) : strlen(name);
	if ((o = find_option(0, name, len)) == NULL) {
		unknown_option(p, name, len);
		return;
	}
	if (o->arg == NULL && arg != NULL) {
		usage_error(p, "option --%s takes no argument", o->name);
		return;
	}
	if (o->arg != NULL && arg != NULL)
		arg++;
	else if (o->arg != NULL && o->arg[0] == '[')
		arg = optional_arg(p, argv, ip);
	else if (o->arg != NULL && (arg = argv[++*ip]) == NULL) {
		usage_error(p, "option --%s needs %s", o->name, o->arg);
		return;
	}
	set_option(p, o, arg);
}

/* -jv, -sPATH or -s PATH; *ip moves past a separate PATH. */
static void
short_options(struct params *p, char *argv[], int *ip)
{
	const char		*s = argv[*ip] + 1, *arg = NULL;
	const struct ctl_option	*o;

	for (; *s != '\0'; s++) {
		if ((o = find_option(*s, NULL, 0)) == NULL) {
			usage_error(p, "unknown option -%c", *s);
			return;
		}
		if (o->arg != NULL && s[1] != '\0')
			arg = s + 1;
		else if (o->arg != NULL && (arg = argv[++*ip]) == NULL) {
			usage_error(p, "option -%c needs %s", *s, o->arg);
			return;
		}
		set_option(p, o, arg);
		if (o->arg != NULL)
			return;
	}
}

/* The command, then its arguments. */
static void
word(struct params *p, const char *w)
{
	if (!p->word_seen) {
		p->word_seen = true;
		if ((p->cmd = find_command(w)) == NULL)
			unknown_command(p, w);
		return;
	}
	if (p->cmd == NULL)
		return;
	if (p->nargs++ < p->cmd->maxargs) {
		p->file = w;
		if (p->nargs <= TT_MAX_KEYS)
			p->args[p->nargs - 1] = (char *)(uintptr_t)w;
		return;
	}
	if (p->cmd->maxargs == 0)
		usage_error(p, "%s takes no arguments", p->cmd->name);
	else
		usage_error(p, "too many arguments for %s", p->cmd->name);
}

/* Every option given must apply to the command. */
static void
check_options(struct params *p)
{
	char	label[64];
	size_t	i;

	if (p->cmd == NULL) {
		if (!p->word_seen)
			usage_error(p, "no command given");
		return;
	}
	for (i = 0; i < NITEMS(options); i++) {
		if (!(p->opts_seen & (1u << options[i].id)) ||
		    (options[i].cmds & CMD(p->cmd->id)))
			continue;
		if (options[i].letter != 0)
			snprintf(label, sizeof(label), "-%c/--%s",
			    options[i].letter, options[i].name);
		else
			snprintf(label, sizeof(label), "--%s",
			    options[i].name);
		usage_error(p, "option %s does not apply to %s", label,
		    p->cmd->name);
	}
	if ((p->opts_seen & (1u << OPT_SHORT)) && (p->opts_seen &
	    ((1u << OPT_JSON) | (1u << OPT_PROMETHEUS) |
	    (1u << OPT_TEXTFILE))))
		usage_error(p, "--short is text: give it without --json, "
		    "--prometheus or --textfile");
	if ((p->opts_seen & (1u << OPT_JSON)) && (p->prometheus ||
	    p->textfile != NULL))
		usage_error(p, "--json and --prometheus/--textfile are two "
		    "formats: give one");
	if (p->prometheus || p->textfile != NULL)
		p->out = prom_output(p->textfile);
}

/*
 * Errors are remembered, not reported at once: --help or --version
 * anywhere on the line still wins.
 */
static void
parse_args(int argc, char *argv[], struct params *p)
{
	bool	opts_done = false;
	int	i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!opts_done && strcmp(a, "--") == 0)
			opts_done = true;
		else if (!opts_done && a[0] == '-' && a[1] == '-')
			long_option(p, argv, &i);
		else if (!opts_done && a[0] == '-' && a[1] != '\0')
			short_options(p, argv, &i);
		else
			word(p, a);
	}
	check_options(p);
}

/* ---- commands */

static int
run_status(const struct params *p)
{
	struct reply	r;
	int		rv, wrv;

	if (tt_wsl(NULL))
		ctl_warnx("note: %s", TT_WSL_NOTE);
	rv = client_request(p->socket, MSG_STATUS, &r);
	if (rv != CTL_OK && !p->out->tells_unreachable)
		return rv;
	wrv = p->out->status(rv == CTL_OK ? &r : NULL);
	if (rv == CTL_OK) {
		/*
		 * The metrics carry each key's state (tcptune_key_state,
		 * tcptune_paused): written, they are a success, so that a
		 * timer running --textfile does not fail every minute
		 * wherever a key is refused, as in any container (issue 45).
		 * Only the text and JSON forms tell the state by the exit.
		 */
		if (!p->prometheus && p->textfile == NULL &&
		    !reply_all_in_force(&r))
			rv = CTL_FAIL;
		reply_free(&r);
	}
	return wrv == -1 && rv == CTL_OK ? CTL_FAIL : rv;
}

/* The exit status of a reload, restore or resume, told on stderr. */
static int
result_exit(const char *cmd, const struct msg_result *res)
{
	switch (res->code) {
	case RESULT_OK:
		return CTL_OK;
	case RESULT_FAILED:
		return CTL_FAIL;
	case RESULT_DENIED:
		ctl_warnx("%s needs root: run it with sudo", cmd);
		return CTL_DENIED;
	default:
		ctl_warnx("tcptuned did not accept the %s request%s%s", cmd,
		    res->text[0] ? ": " : "", res->text);
		return CTL_PROTOCOL;
	}
}

static int
run_change(const struct params *p)
{
	struct reply	r;
	int		rv;

	rv = client_request(p->socket, p->cmd->request, &r);
	if (rv != CTL_OK)
		return rv;
	if (r.result.code != RESULT_BAD_REQUEST)	/* exit 4: no output */
		p->out->result(p->cmd->name, &r);
	rv = result_exit(p->cmd->name, &r.result);
	reply_free(&r);
	return rv;
}

#ifndef TT_CTL_QUICK
/*
 * This kernel, when it can be asked: a key every kernel of this OS has
 * must read.  In a chroot without /proc, or under Wine without CIM,
 * check says so and checks the catalogue only.
 */
static struct sysctl_backend *
this_kernel(enum tt_os os)
{
	struct sysctl_backend	*be;
	char			 v[TT_VALUE_MAX];

	if ((be = backend_platform_new(NULL)) != NULL &&
	    be->get(be, catalogue_os_always_key(os), v, sizeof(v)) == 0)
		return be;
	backend_free(be);
	ctl_warnx("cannot read this kernel's keys: checked against the "
	    "catalogue of %s keys only", catalogue_os_label(os));
	return NULL;
}

/*
 * The managed file check lays over file: -m's; for this machine's
 * default config, the one tcptuned reads by default (configure's
 * --with-managed-prefs); else none, and file is checked alone.
 */
static const char *
check_managed(const struct params *p, const char *file)
{
	if (p->managed != NULL)
		return p->managed;
	if (p->adv.platform == NULL && strcmp(file, TT_CONFIG_PATH) == 0)
		return TT_MANAGED_PATH;
	return NULL;
}

#ifndef _WIN32
/* Whether file is the one at TT_CONFIG_PATH, by whatever name. */
static bool
daemon_file(const char *file)
{
	struct stat	a, b;

	return strcmp(file, TT_CONFIG_PATH) == 0 || (stat(file, &a) == 0 &&
	    stat(TT_CONFIG_PATH, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino);
}

/* A refusal's lines, escaped, and the fix when the file itself is one:
 * diagnostics, on stderr as check's findings. */
static void
owner_refusal(const char *file, const struct errlist *errs)
{
	char		line[TT_ESCAPE_SIZE(2048)];
	struct stat	st;
	size_t		i;

	for (i = 0; i < errs->n; i++) {
		tt_escape(line, sizeof(line), errs->msg[i]);
		fprintf(stderr, "%s\n", line);
	}
	if (stat(file, &st) == -1 || !S_ISREG(st.st_mode))
		return;
	tt_escape(line, sizeof(line), file);
	fprintf(stderr, "fix: chown root:root %s; chmod 644 %s (and every directory "
	    "above it: root's, writable by root alone)\n", line, line);
}

/*
 * The daemon's own config, judged by its owner and mode rule as root-run
 * tcptuned judges it, whoever runs check (config_file_open,
 * CONFIG_AS_ROOT): its refusal in its words, and the fix.  0 when
 * tcptuned would read the file (or cannot, for a reason the report that
 * follows tells), -1 when it refuses it.
 */
static int
check_daemon_owner(const char *file)
{
	struct errlist	errs;
	int		fd, err = 0;

	errlist_init(&errs);
	if ((fd = config_file_open(file, CONFIG_CHECK_OWNER | CONFIG_AS_ROOT,
	    &errs, &err)) != -1)
		close(fd);
	else if (err == -1)
		owner_refusal(file, &errs);
	errlist_clear(&errs);
	return fd == -1 && err == -1 ? -1 : 0;
}
#endif

/*
 * The other places that set the config's keys (other_sources.c), each
 * said at its key's line, for cfg as the report read it: the file is
 * read and parsed once, so what is named is what was judged.  A config
 * for another OS is checked offline: its places are read only under
 * TT_SOURCES_ROOT, never this machine's.
 */
static void
check_other_sources(const char *file, const struct config *cfg,
    enum tt_os os, bool offline)
{
	struct other_sources	 o;
	const struct config_key	*k;
	char			 said[TT_TEXT_MAX];
	char			 line[TT_ESCAPE_SIZE(TT_TEXT_MAX + 1024)];
	size_t			 i;

	if (offline && getenv(OTHER_ROOT_ENV) == NULL)
		return;
	/* standard input: not named, as when the file was read twice (to
	 * name its places is a change of its own) */
	if (strcmp(file, "-") == 0)
		return;
	other_sources_scan(other_sources_root(), os, cfg, shell_scan_launchd,
	    &o);
	for (i = 0; i < cfg->nkeys; i++) {
		k = &cfg->keys[i];
		if (other_sources_say(&o, k->name, said, sizeof(said)) == 0)
			continue;
		/* the places' names are anyone's: escaped for the terminal */
		tt_escape(line, sizeof(line), said);
		printf("%s:%d: %s: %s\n", config_key_source(cfg, k), k->line,
		    k->name, line);
	}
	other_sources_free(&o);
}

/*
 * check: against --platform OS's catalogue, offline; else this OS's and
 * this kernel's (or -r DIR's) keys.  The default config (or any with -m)
 * is read in layers as tcptuned -n reads it (config_model.c): the
 * managed file, and the registry policy on Windows, over it.
 */
static int
run_check(const struct params *p)
{
	const char		*file = p->file ? p->file : TT_CONFIG_PATH;
	const char		*managed;
	struct config_target	 t = { catalogue_host_os(), NULL };
	struct config		*cfg;
	char			 oses[CAT_OS_LIST_MAX];
	int			 rv;

	if (tt_wsl(NULL))
		ctl_warnx("note: %s", TT_WSL_NOTE);
	if (p->adv.platform != NULL &&
	    catalogue_os_parse(p->adv.platform, &t.os) == -1) {
		catalogue_os_list(CAT_OS_WORDS, oses, sizeof(oses));
		ctl_warnx("--platform \"%s\" is not %s", p->adv.platform,
		    oses);
		return CTL_USAGE;
	}
	if (p->adv.platform != NULL && p->root != NULL) {
		ctl_warnx("--platform checks a config for another machine, "
		    "-r a sysctl tree of this one: give one");
		return CTL_USAGE;
	}
#ifndef _WIN32
	if (p->adv.platform == NULL && daemon_file(file) &&
	    check_daemon_owner(file) == -1)
		return CTL_FAIL;
#endif
	if (p->root != NULL && (t.be = backend_platform_new(p->root)) ==
	    NULL) {
		ctl_warnx("-r: no sysctl tree on %s", catalogue_os_label(t.os));
		return CTL_USAGE;
	}
	if (p->adv.platform == NULL && p->root == NULL)
		t.be = this_kernel(t.os);
	/* with no layer over it, config_report's: each finding at its line */
	if ((managed = check_managed(p, file)) != NULL &&
	    (config_managed_present(managed) || policy_present()))
		rv = config_check_layers(file, managed, policy_load, 0, &t,
		    p->verbose, stdout, stderr, &cfg);
	else
		rv = config_report(file, CONFIG_DASH_STDIN, &t, p->verbose,
		    stdout, stderr, &cfg);
	if (cfg != NULL)
		check_other_sources(file, cfg, t.os, p->adv.platform !=
		    NULL && t.os != catalogue_host_os());
	config_free(cfg);
	backend_free(t.be);
	return rv == 0 ? CTL_OK : CTL_FAIL;
}

static int
run_import(const struct params *p)
{
	if (p->file == NULL) {
		ctl_warnx("import needs a FILE: a sysctl.conf, a launchd plist "
		    "or netsh lines");
		return CTL_USAGE;
	}
	return import_run(p->file, p->adv.platform);
}

static int
run_set(const struct params *p)
{
	return set_run(p->socket, p->setfile, p->args, p->nargs,
	    p->cmd->id == C_UNSET, p->out);
}

static int
run_advise(const struct params *p)
{
	struct advise_args	a = p->adv;

	a.socket = p->socket;
	a.out = p->out;
	return advise_run(&a);
}

static int
run_measure(const struct params *p)
{
	struct measure_args	a;

	memset(&a, 0, sizeof(a));
	a.url = p->file;
	a.rounds = p->rounds;
	a.seconds = p->seconds;
	a.socket = p->socket;
	a.streams = p->streams;
	a.upload = p->upload;
	a.both = p->both;
	a.method = p->method;
	a.out = p->out;
	return measure_run(&a);
}

/*
 * One MSG_DIAGNOSE, its reply told (tools/diagnose/diagnose_words.c).
 * No root needed: the daemon shows a non-root caller its own connections
 * and counts the others.
 */
static int
run_diagnose(const struct params *p)
{
	struct msg_diagnose	req;
	struct reply		r;
	int			rv;

	memset(&req, 0, sizeof(req));
	req.all = p->all ? 1 : 0;
	rv = client_request_with(p->socket, MSG_DIAGNOSE, &req, sizeof(req),
	    &r);
	if (rv != CTL_OK)
		return rv;
	p->out->diagnose(stdout, &r);
	reply_free(&r);
	return CTL_OK;
}

/*
 * "help WORD" for a WORD that is neither a command nor a page: what
 * there is, with the one meant when it is a near miss.
 */
static int
help_unknown(const char *w)
{
	const char	*names[NITEMS(commands) + 8], *near;	/* 3 pages */
	char		 list[512];
	size_t		 i, n = 0, len = 0;

	for (i = 0; i < NITEMS(commands); i++)
		names[n++] = commands[i].name;
	for (i = 0; i < manual_npages && n < NITEMS(names); i++)
		names[n++] = manual_pages[i].name;
	if ((near = command_with_prefix(w)) != NULL ||
	    (near = ctl_nearest(w, names, n)) != NULL)
		ctl_warnx("no command or manual page \"%s\": did you mean %s?",
		    w, near);
	else
		ctl_warnx("no command or manual page \"%s\"", w);
	for (i = 0; i < NITEMS(commands) && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
		    i > 0 ? ", " : "", commands[i].name);
	ctl_wrap(stderr, "commands: ", "  ", list, CTL_TEXT_WIDTH);
	manual_names(list, sizeof(list));
	ctl_wrap(stderr, "manual pages: ", "  ", list, CTL_TEXT_WIDTH);
	return CTL_USAGE;
}

/*
 * help COMMAND prints that command's help, help PAGE the page built in
 * (tools/manual.c).
 */
static int
run_help_page(const struct params *p)
{
	const struct manual_page	*m;
	const struct command		*c;
	FILE				*f;
	int				 rv;

	if (p->file == NULL)
		return run_help(p);
	if ((c = find_command(p->file)) != NULL) {
		print_command_help(stdout, c);
		return CTL_OK;
	}
	if ((m = manual_find(p->file)) == NULL)
		return help_unknown(p->file);
	/* a page is long: through $PAGER on a terminal, as man(1) does */
	f = term_pager();
	rv = manual_print(f, m);
	if (term_pager_close(f) == -1 && f != stdout)
		rv = 0;		/* the reader quit the pager early */
	return rv == 0 ? CTL_OK : CTL_FAIL;
}
#endif

/*
 * -h, --help and plain "help": one screen with examples; with -v the
 * whole reference from the tables; COMMAND --help that command's.
 */
static int
run_help(const struct params *p)
{
	if (p->help && p->cmd != NULL)
		print_command_help(stdout, p->cmd);
	else if (p->help && p->verbose)
		print_help(stdout);
	else
		print_help_short(stdout);
	return CTL_OK;
}

static int
run_version(const struct params *p)
{
	p->out->version();
	return CTL_OK;
}

/* ---- completion */

/*
 * tcptunectl --complete WHAT [WORD]: the words the shell completions
 * (etc/completion/) offer, one a line, "word<TAB>what it is", read from
 * the same tables the parser and the help use, so that a completion
 * cannot offer a command, option or key the program does not take.
 * Plumbing for those scripts, left out of the help as git leaves out
 * its --list-cmds.
 */
static void
complete_options(const struct command *c)
{
	const char	*nl;
	char		 letter[3];
	size_t		 i;

	for (i = 0; i < NITEMS(options); i++) {
		const struct ctl_option *o = &options[i];

		if (c != NULL && !(o->cmds & CMD(c->id)))
			continue;
		nl = strchr(o->help, '\n');
		/* --long, -x or "", ARG or "", the help's first line */
		letter[0] = '\0';
		if (o->letter != 0)
			snprintf(letter, sizeof(letter), "-%c", o->letter);
		printf("--%s\t%s\t%s\t%.*s\n", o->name, letter,
		    o->arg ? o->arg : "",
		    nl ? (int)(nl - o->help) : (int)strlen(o->help), o->help);
	}
}

static void
complete_keys(enum tt_os os)
{
	const struct cat_key	*k;
	size_t			 i;

	for (i = 0; (k = catalogue_at(i)) != NULL; i++)
		if (k->os & TT_OS_BIT(os))
			printf("%s\t%s\n", k->name, k->what);
}

static int
complete(const char *what, const char *word)
{
	const struct command	*c = NULL;
	enum tt_os		 os = catalogue_host_os();
	size_t			 i;

	if (strcmp(what, "commands") == 0) {
		for (i = 0; i < NITEMS(commands); i++)
			printf("%s\t%s\n", commands[i].name,
			    commands[i].summary);
	} else if (strcmp(what, "options") == 0) {
		if (word != NULL && (c = find_command(word)) == NULL)
			return CTL_USAGE;
		complete_options(c);
	} else if (strcmp(what, "keys") == 0) {
		if (word != NULL && catalogue_os_parse(word, &os) == -1)
			return CTL_USAGE;
		complete_keys(os);
	} else if (strcmp(what, "oses") == 0) {
		for (i = 0; i < TT_OS_N; i++) {
			printf("%s\n", catalogue_os_name((enum tt_os)i));
			if (strcmp(catalogue_os_word((enum tt_os)i),
			    catalogue_os_name((enum tt_os)i)) != 0)
				printf("%s\n", catalogue_os_word((enum tt_os)i));
		}
#ifndef TT_CTL_QUICK
	} else if (strcmp(what, "pages") == 0) {
		for (i = 0; i < manual_npages; i++)
			printf("%s\tmanual page %s(%s)\n",
			    manual_pages[i].name, manual_pages[i].name,
			    manual_pages[i].section);
#endif
	} else {
		ctl_warnx("--complete takes commands, options [COMMAND], "
		    "keys [OS], oses or pages");
		return CTL_USAGE;
	}
	return CTL_OK;
}

/* ---- main */

#ifdef TT_CTL_QUICK
static bool
is_quick(const struct command *c)
{
	size_t	i;

	for (i = 0; i < NITEMS(quick_commands); i++)
		if (quick_commands[i] == c->id)
			return true;
	return false;
}
#endif

/* Output that never reached stdout (a full disk) is a failure too. */
static int
finish(int rv)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		ctl_warn("standard output");
		if (rv == CTL_OK)
			rv = CTL_FAIL;
	}
	return rv;
}

int
main(int argc, char *argv[])
{
	struct params	p;

	if (argc >= 2 && strcmp(argv[1], "--complete") == 0) {
#ifdef TT_CTL_QUICK
		/* the manual pages are built into the full program only */
		if (argc >= 3 && strcmp(argv[2], "pages") == 0)
			return ctl_exec_full(argv);
#endif
		return finish(complete(argc >= 3 ? argv[2] : "",
		    argc >= 4 ? argv[3] : NULL));
	}
	memset(&p, 0, sizeof(p));
	p.out = &text_output;
	p.socket = TT_SOCKET_PATH;
	client_name_command(argc, argv);
	parse_args(argc, argv, &p);
	if (p.help)
		return finish(run_help(&p));
	if (p.version)
		return finish(run_version(&p));
	if (p.error[0] != '\0') {
		ctl_warnx("%s", p.error);
		usage_synopsis(stderr);
		return CTL_USAGE;
	}
#ifdef TT_CTL_QUICK
	if (!is_quick(p.cmd))
		return ctl_exec_full(argv);
#endif
	return finish(p.cmd->run(&p));
}
