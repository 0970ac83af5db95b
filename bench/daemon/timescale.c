/*
 * timescale.so: an LD_PRELOAD shim that divides every timerfd interval a
 * process arms by $TT_TIMESCALE, so that the real, unmodified tcptuned
 * runs 10,000 check cycles in seconds instead of hours.
 *
 * tcptuned's CheckInterval is whole seconds (1 at least) and its event loop
 * on Linux arms a periodic timerfd with it (daemon/event_linux.c,
 * ev_timer_start).  Only the length of the wait changes: each cycle runs
 * the same code on the same keys as at full length.  Every timer of the
 * process is scaled (the config debounce and the control idle sweep too);
 * the benchmarks that use this measure memory and instructions per cycle,
 * never time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* RTLD_NEXT */
#endif
#include "config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>

#define MIN_NS	100000ULL	/* 0.1 ms: zero would disarm the timer */

int	timerfd_settime(int, int, const struct itimerspec *,
	    struct itimerspec *);

static void
scale(struct timespec *ts, unsigned long long div)
{
	unsigned long long	ns;

	ns = (unsigned long long)ts->tv_sec * 1000000000ULL +
	    (unsigned long long)ts->tv_nsec;
	if (ns == 0)
		return;		/* disarmed or one-shot: keep it so */
	ns /= div;
	if (ns < MIN_NS)
		ns = MIN_NS;
	ts->tv_sec = (time_t)(ns / 1000000000ULL);
	ts->tv_nsec = (long)(ns % 1000000000ULL);
}

int
timerfd_settime(int fd, int flags, const struct itimerspec *new,
    struct itimerspec *old)
{
	static int		(*real)(int, int, const struct itimerspec *,
				    struct itimerspec *);
	struct itimerspec	its;
	const char		*s;
	unsigned long long	 div = 1;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "timerfd_settime");
	if (real == NULL)
		return -1;
	if ((s = getenv("TT_TIMESCALE")) != NULL)
		div = strtoull(s, NULL, 10);
	if (new == NULL || div <= 1 || (flags & TFD_TIMER_ABSTIME))
		return real(fd, flags, new, old);
	its = *new;
	scale(&its.it_value, div);
	scale(&its.it_interval, div);
	return real(fd, flags, &its, old);
}
