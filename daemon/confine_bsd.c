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
 * Whether any process holds a uid, for the helper's drop to an id nobody
 * has: the kernel's process table filtered by effective uid
 * (KERN_PROC_UID) and by real uid (KERN_PROC_RUID)
 * (apple-oss-distributions/xnu bsd/sys/sysctl.h; freebsd/freebsd-src
 * sys/sys/sysctl.h).  There is no filter by saved uid: a process whose
 * saved uid alone is the id would have had to be made so by root.  The
 * size first asked for is an estimate with room to spare (xnu adds
 * KERN_PROCSLOP), so the table itself is read and its entries counted.
 * Groups are not filtered on macOS; signals go by uid.
 *
 * No confinement beyond the user yet (FreeBSD could use Capsicum's
 * cap_enter(2)): the helper relies on having given up root
 * (privdrop_posix.c) alone.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- whether an id is held (privdrop_posix.c's choice of a free one) */

/* The number of processes the filter matches, or -1 and why. */
static int
count_matching(int filter, unsigned long id, char *why, size_t len)
{
	int	 mib[4] = { CTL_KERN, KERN_PROC, filter, (int)id };
	size_t	 size = 0;
	void	*buf;
	bool	 more;

	if (sysctl(mib, 4, NULL, &size, NULL, 0) == -1)
		return tt_why(why, len, "kern.proc: %s", strerror(errno));
	if (size == 0)
		return 0;
	if ((buf = malloc(size)) == NULL)
		return tt_why(why, len, "kern.proc: %s", strerror(errno));
	more = false;
	if (sysctl(mib, 4, buf, &size, NULL, 0) == -1) {
		/* ENOMEM: more processes than the estimate, so some */
		if (errno != ENOMEM) {
			free(buf);
			return tt_why(why, len, "kern.proc: %s",
			    strerror(errno));
		}
		more = true;
	}
	free(buf);
	return more || size >= sizeof(struct kinfo_proc) ? 1 : 0;
}

int
confine_id_held(unsigned long id, char *why, size_t len)
{
	int	n;

	if ((n = count_matching(KERN_PROC_UID, id, why, len)) != 0)
		return n;
	return count_matching(KERN_PROC_RUID, id, why, len);
}
