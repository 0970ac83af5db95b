/*
 * The lease: a timed pause that tcptunectl measure takes to run a round on
 * the original values.  This file only decides; tcptuned.c restores and
 * resumes and owns the timer.  Time is passed in (the monotonic clock in
 * the daemon, a fake one in tests/unit/test_lease.c), so every rule here
 * is tested without waiting.
 *
 * A lease ends, and enforcement comes back, at the first of: its seconds
 * running out, its holder's connection closing (the tool killed, ^C, a
 * crash), the holder asking for 0 seconds, resume, reload or restore.
 * It is never saved: a daemon restarted during one enforces (originals.c).
 */
#include "config.h"

#include <stdio.h>

#include "tcptuned.h"

/* What a request for seconds from holder would do; nothing changes. */
enum lease_action
lease_decide(const struct lease *l, const void *holder, uint32_t seconds,
    bool paused)
{
	if (seconds > TT_LEASE_MAX_SEC)
		return LEASE_TOO_LONG;
	if (l->active && l->holder != holder)
		return LEASE_BUSY;
	if (seconds == 0)
		return l->active ? LEASE_END : LEASE_NOT_HELD;
	if (l->active)
		return LEASE_RENEW;
	/* A pause of the user's own (restore) is not a measurement's to
	 * end: it stays until they resume. */
	return paused ? LEASE_PAUSED : LEASE_GRANT;
}

void
lease_grant(struct lease *l, const void *holder, long uid, long pid,
    uint32_t seconds, time_t now)
{
	l->active = true;
	l->holder = holder;
	l->uid = uid;
	l->pid = pid;
	l->expires = now + (time_t)seconds;
}

void
lease_clear(struct lease *l)
{
	l->active = false;
	l->holder = NULL;
	l->uid = l->pid = -1;
	l->expires = 0;
}

bool
lease_held_by(const struct lease *l, const void *holder)
{
	return l->active && l->holder == holder;
}

/* The lease's time is up (or it is not active). */
bool
lease_due(const struct lease *l, time_t now)
{
	return l->active && now >= l->expires;
}

uint32_t
lease_left(const struct lease *l, time_t now)
{
	if (!l->active || now >= l->expires)
		return 0;
	return (uint32_t)(l->expires - now);
}

/* One line for the holder, the log and status. */
void
lease_describe(const struct lease *l, time_t now, char *buf, size_t len)
{
	if (!l->active) {
		snprintf(buf, len, "no lease");
		return;
	}
	if (l->pid >= 0)
		snprintf(buf, len, "uid %ld (pid %ld), %u s left", l->uid,
		    l->pid, lease_left(l, now));
	else
		snprintf(buf, len, "uid %ld, %u s left", l->uid,
		    lease_left(l, now));
}
