/*
 * tcptunectl's messages: "tcptunectl: " and one line on stderr, as
 * warn(3) and warnx(3); and running text wrapped to a terminal's width
 * for whatever a person reads on stdout (ctl_wrap).  The whole line is
 * escaped (lib/util.c): it quotes paths, the daemon's replies and names
 * a peer chose.  When no daemon answers, the one message that names the
 * next step on this platform (ctl_unreachable).  A file of its own so
 * that client.c, advise.c and output.c need nothing from the command
 * line's file, and the transports call back into no client.c.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptunectl.h"

#define CTL_LINE_MAX	2048

static void	vwarnx(const char *, va_list, int) TT_PRINTF(1, 0);

static void
vwarnx(const char *fmt, va_list ap, int err)
{
	char	msg[CTL_LINE_MAX], safe[TT_ESCAPE_SIZE(CTL_LINE_MAX)];
	size_t	len;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err != 0) {
		len = strlen(msg);
		snprintf(msg + len, sizeof(msg) - len, ": %s", strerror(err));
	}
	tt_escape(safe, sizeof(safe), msg);
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", CTL_NAME, safe);
}

void
ctl_warn(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	vwarnx(fmt, ap, saved);
	va_end(ap);
	errno = saved;
}

void
ctl_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap, 0);
	va_end(ap);
}

/*
 * ctl_warnx for a message of several clauses: the same line, wrapped to
 * CTL_TEXT_WIDTH columns under "tcptunectl: " with the rest indented, so
 * that a hint read on a terminal is not cut by it.
 */
void
ctl_warnx_wrap(const char *fmt, ...)
{
	va_list	ap;
	char	msg[CTL_LINE_MAX], safe[TT_ESCAPE_SIZE(CTL_LINE_MAX)];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tt_escape(safe, sizeof(safe), msg);
	fflush(stdout);
	ctl_wrap(stderr, CTL_NAME ": ", "    ", safe, CTL_TEXT_WIDTH);
}

/* The deadline ran out on WHAT (connecting, sending, the reply). */
int
ctl_timed_out(const struct ctl_conn *c, const char *what)
{
	ctl_warnx("%s %s within %d s: tcptuned is busy or hung, or something "
	    "else holds the socket", what, c->path, c->timeout_ms / 1000);
	return CTL_UNREACHABLE;
}

/* Columns of s, a tab to the next multiple of 8. */
static int
display_width(const char *s)
{
	int	col = 0;

	for (; *s != '\0'; s++)
		col = *s == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* s onto the buffer at *len, cut short at size (always terminated). */
static void
buf_put(char *buf, size_t size, size_t *len, const char *s, size_t n)
{
	if (*len + n >= size)
		n = size - *len - 1;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

/*
 * text into buf (size > 0) as running text within width columns: first
 * before the first line, indent before every other, a newline at the
 * end.  A word longer than a line (a path) stands alone on its line
 * rather than being cut.  The length written, cut short at size.
 */
size_t
ctl_wrap_buf(char *buf, size_t size, const char *first, const char *indent,
    const char *text, int width)
{
	const char	*p = text, *end;
	size_t		 len = 0;
	int		 start, col;

	buf[0] = '\0';
	buf_put(buf, size, &len, first, strlen(first));
	col = start = display_width(first);
	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		for (end = p; *end != '\0' && *end != ' '; end++)
			;
		if (col > start && col + 1 + (int)(end - p) > width) {
			buf_put(buf, size, &len, "\n", 1);
			buf_put(buf, size, &len, indent, strlen(indent));
			col = start = display_width(indent);
		} else if (col > start) {
			buf_put(buf, size, &len, " ", 1);
			col++;
		}
		buf_put(buf, size, &len, p, (size_t)(end - p));
		col += (int)(end - p);
		p = end;
	}
	buf_put(buf, size, &len, "\n", 1);
	return len;
}

/*
 * text onto f, as ctl_wrap_buf lays it out.  Each word adds at most a
 * newline and the indent before it, which bounds the buffer.
 */
void
ctl_wrap(FILE *f, const char *first, const char *indent, const char *text,
    int width)
{
	size_t	 size = strlen(first) + strlen(text) * (strlen(indent) + 3) + 2;
	char	*buf;

	if ((buf = malloc(size)) == NULL) {
		fprintf(f, "%s%s\n", first, text);
		return;
	}
	ctl_wrap_buf(buf, size, first, indent, text, width);
	fputs(buf, f);
	free(buf);
}

/*
 * No daemon: the next step on this platform.
 *
 * How tcptuned is started, and where it says why it stopped, under each
 * service manager as the tree installs it: the systemd unit
 * (etc/tcptuned.service.in), the rc.d script (etc/rc.d/tcptuned.in, and
 * service(8) on a Linux without systemd), the launchd job
 * (etc/org.tcptune.tcptuned.plist.in, installed by
 * packaging/macos/build-pkg.sh as /Library/LaunchDaemons/LABEL.plist) and
 * the Windows service (packaging/windows/tcptune.wxs).
 */
static const struct start_hint {
	enum tt_os	 os;
	bool		 systemd;	/* Linux booted with systemd */
	const char	*start;
	const char	*why;
} start_hints[] = {
	{ TT_OS_LINUX, true, "sudo systemctl start tcptuned",
	    "`systemctl status tcptuned` and `journalctl -u tcptuned` say "
	    "why" },
	{ TT_OS_LINUX, false, "sudo service tcptuned start",
	    "the system log says why" },
	{ TT_OS_FREEBSD, false, "sudo sysrc tcptuned_enable=YES && "
	    "sudo service tcptuned start", "/var/log/messages says why" },
	{ TT_OS_DARWIN, false, "sudo launchctl bootstrap system "
	    "/Library/LaunchDaemons/org.tcptune.tcptuned.plist",
	    "`log show --last 1h --predicate 'process == \"tcptuned\"'` "
	    "says why" },
	{ TT_OS_WINDOWS, false, "sc start tcptuned",
	    "`sc query tcptuned` and the Application event log say why" },
};

/*
 * The next step when no tcptuned answers, on os (systemd: Linux booted
 * with it): start the service and where to read why it stops; or, with
 * no config at config_path, that the service does not start without one
 * (the unit's ConditionPathExists, the rc.d script's required_files,
 * tcptuned's own refusal elsewhere) and how to write one first.
 */
void
ctl_start_hint(enum tt_os os, bool systemd, const char *config_path,
    bool have_config, char *buf, size_t len)
{
	const struct start_hint	*h = &start_hints[0];
	size_t			 i;

	for (i = 0; i < sizeof(start_hints) / sizeof(start_hints[0]); i++)
		if (start_hints[i].os == os &&
		    (os != TT_OS_LINUX || start_hints[i].systemd == systemd)) {
			h = &start_hints[i];
			break;
		}
	if (have_config)
		snprintf(buf, len, "start it with `%s`; if it stops, %s",
		    h->start, h->why);
	else
		snprintf(buf, len, "no %s: the service does not start without "
		    "one; write one with `tcptunectl advise --rate RATE --rtt "
		    "TIME --config %s` or `tcptunectl import FILE` (a "
		    "sysctl.conf), then `%s`", config_path, config_path,
		    h->start);
}

static const char	*unreachable_note;

/*
 * What the command did not do when no tcptuned answers, said in the same
 * message as the next step (set: nothing changed).  NULL: nothing more.
 */
void
ctl_unreachable_note(const char *note)
{
	unreachable_note = note;
}

/*
 * found (no socket at PATH, ...) and the next step on this machine
 * (systemd: booted with it, as the transport found), as one message;
 * CTL_UNREACHABLE.  Called by the transports.
 */
int
ctl_unreachable(const char *found, bool systemd)
{
	struct stat	st;
	char		hint[1024];

	ctl_start_hint(catalogue_host_os(), systemd, TT_CONFIG_PATH,
	    stat(TT_CONFIG_PATH, &st) == 0, hint, sizeof(hint));
	ctl_warnx_wrap("%s; %s%s%s", found, hint, unreachable_note ? "; " :
	    "", unreachable_note ? unreachable_note : "");
	return CTL_UNREACHABLE;
}
