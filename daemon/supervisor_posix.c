/*
 * tcptuned under a Unix supervisor (init, launchd, systemd, rc.d): the
 * program's entry, what the supervisor asks for (signals, taken on the
 * event loop) and what the daemon tells it (systemd's readiness protocol,
 * sd_notify(3), spoken directly: one datagram to $NOTIFY_SOCKET, so the
 * daemon needs no libsystemd).  Windows has all three in supervisor_win.c,
 * for the Service Control Manager.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"
#include "compat_socket.h"

/*
 * SIGPIPE is ignored: a client that goes away mid-reply is an EPIPE for
 * control.c, not the end of the daemon.
 */
static int
supervisor_events(struct evloop *loop, void (*reload)(void *),
    void (*stop)(void *), void *arg)
{
	signal(SIGPIPE, SIG_IGN);
	if (ev_signal(loop, SIGHUP, reload, arg) == -1 ||
	    ev_signal(loop, SIGTERM, stop, arg) == -1 ||
	    ev_signal(loop, SIGINT, stop, arg) == -1)
		return -1;
	return 0;
}

/*
 * 0 when sent or when not run by systemd; -1 when sending failed.  "@" at
 * the start of the path names an abstract socket (sd_notify(3)).
 */
static int
notify_systemd(const char *msg)
{
	struct sockaddr_un	 sun;
	const char		*path = getenv("NOTIFY_SOCKET");
	size_t			 len;
	socklen_t		 salen;
	int			 fd, rv;

	if (path == NULL || path[0] == '\0')
		return 0;
	if ((path[0] != '/' && path[0] != '@') ||
	    (len = strlen(path)) >= sizeof(sun.sun_path)) {
		log_warnx("NOTIFY_SOCKET %s is not usable", path);
		return -1;
	}
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, len);
	if (path[0] == '@')
		sun.sun_path[0] = '\0';
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM, 0)) == -1)
		return -1;
	rv = sendto(fd, msg, strlen(msg), MSG_NOSIGNAL, (struct sockaddr *)&sun,
	    salen) == -1 ? -1 : 0;
	if (rv == -1)
		log_warn("notify %s", path);
	close(fd);
	return rv;
}

/*
 * The first apply is done and the control socket serves; later, a read
 * of the config has ended (systemd leaves "reloading" on READY=1).  What
 * the state is comes in STATUS= from supervisor_status.
 */
static void
supervisor_ready(void)
{
	(void)notify_systemd("READY=1");
}

/*
 * A read of the config began (a reload, SIGHUP or the file changed):
 * systemctl shows the unit reloading until READY=1 (sd_notify(3),
 * RELOADING=1).  MONOTONIC_USEC, which Type=notify-reload wants from
 * systemd 253 on, is not sent: the unit is Type=notify (Debian 12 has
 * systemd 252), where systemd reads RELOADING=1 alone.
 */
static void
supervisor_reloading(void)
{
	(void)notify_systemd("RELOADING=1");
}

/* systemctl status's "Status:" line, sent again at each change. */
static void
supervisor_status(const char *line)
{
	char	msg[sizeof("STATUS=") + TT_TEXT_MAX];

	snprintf(msg, sizeof(msg), "STATUS=%s", line);
	(void)notify_systemd(msg);
}

static void
supervisor_stopping(void)
{
	(void)notify_systemd("STOPPING=1");
}

/*
 * Started by hand, not by a supervisor that keeps what it says: stderr is
 * a terminal, or none of these started it: systemd (NOTIFY_SOCKET for
 * Type=notify; INVOCATION_ID in every unit's environment, systemd.exec(5))
 * nor launchd or init (parent process 1; a container's first process has
 * parent 0 and counts as by hand).
 */
static bool
supervisor_by_hand(void)
{
	const char	*notify = getenv("NOTIFY_SOCKET");
	const char	*unit = getenv("INVOCATION_ID");

	if (isatty(STDERR_FILENO))
		return true;
	return (notify == NULL || notify[0] == '\0') &&
	    (unit == NULL || unit[0] == '\0') && getppid() != 1;
}

static const struct supervisor unix_supervisor = {
	supervisor_events, supervisor_ready, supervisor_stopping,
	supervisor_by_hand, supervisor_reloading, supervisor_status
};

int
main(int argc, char **argv)
{
	return tcptuned_main(argc, argv, &unix_supervisor);
}
