/*
 * orphan.h on Linux.
 *
 * close_range(2) (Linux 5.9) closes a whole range in one call; an older
 * kernel says ENOSYS and the loop does it.  PR_SET_PDEATHSIG
 * (PR_SET_PDEATHSIG(2const), man-pages 6.9): the signal is sent when the
 * parent ends; it is not inherited by fork and is cleared when the
 * effective or filesystem uid or gid changes (so the helper sets it again
 * after giving up root), and it is kept across execve of a binary that is
 * not set-uid.  "If the parent ... [has] already terminated by the time
 * of the PR_SET_PDEATHSIG operation, then no parent-death signal is
 * sent": hence getppid() after it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "config.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "orphan.h"

#define CLOSE_LOOP_MAX	65536	/* the loop's bound, RLIMIT_NOFILE above */

void
child_close_from(int lowfd)
{
	long	fd, max;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0U) == 0)
		return;
#endif
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > CLOSE_LOOP_MAX)
		max = CLOSE_LOOP_MAX;
	for (fd = lowfd; fd < max; fd++)
		(void)close((int)fd);
}

int
die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return -1;
	return getppid() == parent ? 0 : -1;
}
