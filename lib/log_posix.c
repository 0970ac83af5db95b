/*
 * The system log of Unix daemons: syslog(3), facility daemon.
 */
#include "config.h"

#include <syslog.h>

#include "tcptune.h"

void
log_sink_open(const char *ident)
{
	openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void
log_sink_write(enum log_level level, const char *msg)
{
	static const int	pri[] = {
		[TT_LOG_CRIT] = LOG_CRIT,
		[TT_LOG_ERR] = LOG_ERR,
		[TT_LOG_NOTICE] = LOG_NOTICE,
		[TT_LOG_INFO] = LOG_INFO,
		[TT_LOG_DEBUG] = LOG_DEBUG
	};

	syslog(pri[level], "%s", msg);
}
