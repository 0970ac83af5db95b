/*
 * The parse helper's process on FreeBSD and macOS (confine.h): what it
 * keeps of the daemon, how long it lives, and what it may ask of the
 * kernel.
 *
 * FreeBSD: closefrom(2); procctl(2) PROC_PDEATHSIG_CTL (FreeBSD 11.2)
 * asks for a signal when the parent ends, like Linux's PR_SET_PDEATHSIG:
 * cleared by fork, kept across execve of a binary that is not set-uid,
 * and not sent when the parent had already ended, hence getppid() after.
 * macOS has neither: the descriptors are closed one by one, and whether
 * the parent lives is only checked now (getppid(2) names the new parent,
 * launchd, once it has ended).  The helper holds nothing of the daemon's
 * after exec, so one that lives on keeps no restart from coming up.
 *
 * No confinement beyond the user yet (FreeBSD could use Capsicum's
 * cap_enter(2)): the helper relies on having given up root
 * (privdrop_posix.c) alone.
 */
#include "config.h"

#include <signal.h>
#include <stddef.h>
#include <unistd.h>
#ifdef __FreeBSD__
#include <sys/procctl.h>
#endif

#include "tcptune.h"
#include "confine.h"

#define CLOSE_LOOP_MAX	65536	/* the loop's bound, RLIMIT_NOFILE above */

void
child_close_from(int lowfd)
{
#ifdef __FreeBSD__
	closefrom(lowfd);
#else
	long	fd, max = sysconf(_SC_OPEN_MAX);

	if (max < 0 || max > CLOSE_LOOP_MAX)
		max = CLOSE_LOOP_MAX;
	for (fd = lowfd; fd < max; fd++)
		(void)close((int)fd);
#endif
}

int
die_with_parent(pid_t parent)
{
#if defined(__FreeBSD__) && defined(PROC_PDEATHSIG_CTL)
	int	sig = SIGKILL;

	if (procctl(P_PID, 0, PROC_PDEATHSIG_CTL, &sig) == -1)
		return -1;
#endif
	return getppid() == parent ? 0 : -1;
}

int
confine_enter(char *why, size_t len, const char **what)
{
	(void)why;
	(void)len;
	*what = "no confinement on this system beyond the user";
	return 0;
}
