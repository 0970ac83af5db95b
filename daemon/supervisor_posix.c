/*
 * What init, launchd, systemd or rc.d ask of tcptuned arrives as signals,
 * taken on the event loop.  SIGPIPE is ignored: a client that goes away
 * mid-reply is an EPIPE for control.c, not the end of the daemon.
 */
#include "config.h"

#include <signal.h>

#include "tcptuned.h"
#include "event.h"

int
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
