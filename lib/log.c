/*
 * Logging in the style of OpenBSD daemons: stderr in the foreground with -d,
 * the system log otherwise, through the sink of log_syslog.c (on macOS
 * syslog reaches the unified log) or log_eventlog.c (the Windows Event Log).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcptune.h"

static int	log_to_stderr = 1;
static int	log_verbose;

static void	vlog(enum log_level, const char *, va_list) TT_PRINTF(2, 0);
static void	vlog_errno(enum log_level, const char *, va_list)
		    TT_PRINTF(2, 0);

void
log_init(int to_stderr, int verbose, const char *ident)
{
	log_to_stderr = to_stderr;
	log_verbose = verbose;
	if (!to_stderr)
		log_sink_open(ident);
	tzset();
}

void
log_setverbose(int v)
{
	log_verbose = v;
}

static void
vlog(enum log_level pri, const char *fmt, va_list ap)
{
	char	buf[2048];	/* more than TT_TEXT_MAX, a status note */

	if (log_to_stderr) {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		fflush(stderr);
	} else {
		vsnprintf(buf, sizeof(buf), fmt, ap);
		log_sink_write(pri, buf);
	}
}

/* Appends strerror(errno), like warn(3). */
static void
vlog_errno(enum log_level pri, const char *fmt, va_list ap)
{
	char	buf[2048], line[2400];
	int	saved = errno;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	errno = saved;
	if (log_to_stderr)
		fprintf(stderr, "%s: %s\n", buf, strerror(saved));
	else {
		snprintf(line, sizeof(line), "%s: %s", buf, strerror(saved));
		log_sink_write(pri, line);
	}
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
