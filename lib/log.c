/*
 * Logging in the style of OpenBSD daemons: stderr in the foreground with -d,
 * syslog otherwise (on macOS syslog reaches the unified log).
 *
 * What an administrator must see, every change, correction, reload and
 * restore, goes out at LOG_NOTICE (log_notice); refusals and failures at
 * LOG_ERR (log_warn, log_warnx); LOG_INFO only for details.  macOS's
 * syslog(3) maps LOG_NOTICE and above to os_log's Default level but
 * LOG_INFO to Info, which is not kept and which `log show` leaves out
 * without --info (apple-oss-distributions/syslog,
 * libsystem_asl.tproj/src/syslog.c, shim_syslog_to_log_type); FreeBSD's
 * stock syslog.conf sends *.notice, not daemon.info, to /var/log/messages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "tcptune.h"

static int	log_to_stderr = 1;
static int	log_verbose;

static void	vlog(int, const char *, va_list) TT_PRINTF(2, 0);
static void	vlog_errno(int, const char *, va_list) TT_PRINTF(2, 0);

void
log_init(int to_stderr, int verbose, const char *ident)
{
	log_to_stderr = to_stderr;
	log_verbose = verbose;
	if (!to_stderr)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	tzset();
}

void
log_setverbose(int v)
{
	log_verbose = v;
}

static void
vlog(int pri, const char *fmt, va_list ap)
{
	if (log_to_stderr) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		fflush(stderr);
	} else
		vsyslog(pri, fmt, ap);
}

/* Appends strerror(errno), like warn(3). */
static void
vlog_errno(int pri, const char *fmt, va_list ap)
{
	char	buf[1024];
	int	saved = errno;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	errno = saved;
	if (log_to_stderr)
		fprintf(stderr, "%s: %s\n", buf, strerror(saved));
	else
		syslog(pri, "%s: %s", buf, strerror(saved));
	errno = saved;
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_errno(LOG_ERR, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap);
	va_end(ap);
}

void
log_notice(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(LOG_NOTICE, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (!log_verbose)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_errno(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, fmt, ap);
	va_end(ap);
	exit(1);
}
