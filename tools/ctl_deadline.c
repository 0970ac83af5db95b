/*
 * tcptunectl's deadline on one exchange with tcptuned (connect, send and
 * the whole reply): set by client.c, read by the transports
 * (client_transport_unix.c, client_transport_win.c) while they wait.  Its
 * own file so that client.c and the transports call in one direction
 * only.
 */
#include "config.h"

#include <stdint.h>

#include "tcptunectl.h"

static int64_t
now_ms(void)
{
	return (int64_t)tt_mono_ms();	/* os_posix.c | os_win.c */
}

/* The deadline: timeout_ms from now. */
void
ctl_deadline_start(struct ctl_conn *c)
{
	c->deadline = now_ms() + c->timeout_ms;
}

/* Milliseconds left, 0 when the time is up. */
int
ctl_time_left(const struct ctl_conn *c)
{
	int64_t	left = c->deadline - now_ms();

	return left > 0 ? (int)left : 0;
}

int
ctl_timed_out(const struct ctl_conn *c, const char *what)
{
	ctl_warnx("%s %s within %d s: tcptuned is busy or hung, or something "
	    "else holds the socket", what, c->path, c->timeout_ms / 1000);
	return CTL_UNREACHABLE;
}
