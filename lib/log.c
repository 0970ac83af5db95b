/*
 * Logging in the style of OpenBSD daemons: stderr in the foreground with -d,
 * the system log otherwise, through the sink of log_posix.c (on macOS
 * syslog reaches the unified log) or log_win.c (the Windows Event Log).
 *
 * What an administrator must see, every change, correction, reload and
 * restore, goes out at LOG_NOTICE (log_notice); refusals and failures at
 * LOG_ERR (log_warn, log_warnx); LOG_INFO only for details.  macOS's
 * syslog(3) maps LOG_NOTICE and above to os_log's Default level but
 * LOG_INFO to Info, which is not kept and which `log show` leaves out
 * without --info (apple-oss-distributions/syslog,
 * libsystem_asl.tproj/src/syslog.c, shim_syslog_to_log_type); FreeBSD's
 * stock syslog.conf sends *.notice, not daemon.info, to /var/log/messages.
 *
 * What is not said at once is gathered (errlist): an ordered list of
 * messages.  Parsers add every error they find, so the user sees all of
 * them at once rather than one per attempt.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcptune.h"

static int	log_to_stderr = 1;
static int	log_verbose;
static int	log_echo;		/* errors on stderr too (log_echo_errors) */
static const char *log_ident = "tcptune";

static void	vlog(enum log_level, const char *, va_list) TT_PRINTF(2, 0);
static void	vlog_errno(enum log_level, const char *, va_list)
		    TT_PRINTF(2, 0);

void
log_init(int to_stderr, int verbose, const char *ident)
{
	log_to_stderr = to_stderr;
	log_verbose = verbose;
	log_ident = ident;
	if (!to_stderr)
		log_sink_open(ident);
	tzset();
}

/*
 * One line as it is written: formatted, then escaped (util.c), since a
 * message carries text from the config, the kernel and control clients.
 * A longer line is cut.
 */
#define LOG_LINE_MAX	2048

static void
log_line(enum log_level pri, const char *msg)
{
	char	safe[TT_ESCAPE_SIZE(LOG_LINE_MAX)];

	tt_escape(safe, sizeof(safe), msg);
	if (log_to_stderr) {
		fprintf(stderr, "%s\n", safe);
		fflush(stderr);
		return;
	}
	log_sink_write(pri, safe);
	if (log_echo && pri <= TT_LOG_ERR) {
		fprintf(stderr, "%s: %s\n", log_ident, safe);
		fflush(stderr);
	}
}

/*
 * With on, errors and fatal messages also go to stderr while they go to
 * the system log: for a daemon started by hand, whose start-up failure
 * would otherwise be only in a log that a container or a first try may
 * not have.  Nothing changes with -d (stderr already).
 */
void
log_echo_errors(int on)
{
	log_echo = on;
}

static void
vlog(enum log_level pri, const char *fmt, va_list ap)
{
	char	msg[LOG_LINE_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_line(pri, msg);
}

/* Appends strerror(errno), like warn(3). */
static void
vlog_errno(enum log_level pri, const char *fmt, va_list ap)
{
	char	msg[LOG_LINE_MAX];
	size_t	len;
	int	saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	len = strlen(msg);
	snprintf(msg + len, sizeof(msg) - len, ": %s", strerror(saved));
	log_line(pri, msg);
	errno = saved;
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_errno(TT_LOG_ERR, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(TT_LOG_ERR, fmt, ap);
	va_end(ap);
}

void
log_notice(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(TT_LOG_NOTICE, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(TT_LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(TT_LOG_DEBUG, fmt, ap);
	va_end(ap);
}

/* LOG_DEBUG shows only with -d; every other level always does. */
bool
log_enabled(enum log_level pri)
{
	return pri != TT_LOG_DEBUG || log_verbose;
}

void
log_at(enum log_level pri, const char *fmt, ...)
{
	va_list	ap;

	if (!log_enabled(pri))
		return;
	va_start(ap, fmt);
	vlog(pri, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_errno(TT_LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(TT_LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}

/* ---- the error list */

void
errlist_init(struct errlist *el)
{
	memset(el, 0, sizeof(*el));
}

void
errlist_addv(struct errlist *el, const char *fmt, va_list ap)
{
	char	*msg, **grown;

	if (el->n == el->cap) {
		size_t cap = el->cap ? el->cap * 2 : 8;

		grown = realloc(el->msg, cap * sizeof(*grown));
		if (grown == NULL)
			fatal("%s", __func__);
		el->msg = grown;
		el->cap = cap;
	}
	if (vasprintf(&msg, fmt, ap) == -1)
		fatal("%s", __func__);
	el->msg[el->n++] = msg;
}

void
errlist_add(struct errlist *el, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	errlist_addv(el, fmt, ap);
	va_end(ap);
}

void
errlist_clear(struct errlist *el)
{
	size_t	i;

	for (i = 0; i < el->n; i++)
		free(el->msg[i]);
	free(el->msg);
	errlist_init(el);
}
