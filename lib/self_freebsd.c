/*
 * FreeBSD: the sysctl { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, pid }
 * gives the path of a process's executable, "-1 means this process"
 * (freebsd-src, sys/kern/kern_proc.c, sysctl_kern_proc_pathname(); the
 * mib as sysctl(3) describes it).  A process with no text vnode gets
 * nothing back (length 0): refused below.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>

#include "tcptune.h"

int
self_exe_path(char *buf, size_t len)
{
	int	mib[4] = { CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1 };
	size_t	n = len;

	if (sysctl(mib, 4, buf, &n, NULL, 0) == -1)
		return -1;
	if (n == 0 || buf[0] != '/') {
		errno = ENOENT;
		return -1;
	}
	return 0;
}
