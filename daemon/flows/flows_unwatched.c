/*
 * The systems whose kernel neither counts TCP segments where a pass can
 * read them cheaply nor tells of a connection as it closes: macOS,
 * Windows, and FreeBSD (which has no reading at all).  Every tick gets
 * its pass, bounded by its CPU time (diagnose.c), and the history is fed
 * by the passes alone; diagnose says what that may miss.  Linux has its
 * own (flows_linux.c, flows_quiet.c).
 */
#include "config.h"

#include <stdio.h>

#include "tcptuned.h"
#include "flows.h"

int
flows_os_segments(uint64_t *segs)
{
	(void)segs;
	return -1;	/* not counted here: every cycle gets its pass */
}

int
flows_os_watch_open(char *why, size_t len)
{
	snprintf(why, len, "this system sends no close notices");
	return -1;
}

int
flows_os_watch_read(int fd, void (*take)(void *, const struct flow_reading *),
    void *arg, uint64_t *lost, size_t max)
{
	(void)fd;
	(void)take;
	(void)arg;
	(void)lost;
	(void)max;
	return -1;
}
