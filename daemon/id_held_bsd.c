/*
 * macOS and FreeBSD: whether any process holds a uid, by the kernel's
 * process table filtered by effective uid (KERN_PROC_UID) and by real uid
 * (KERN_PROC_RUID) (apple-oss-distributions/xnu bsd/sys/sysctl.h;
 * freebsd/freebsd-src sys/sys/sysctl.h).  There is no filter by saved
 * uid: a process whose saved uid alone is the id would have had to be
 * made so by root.  The size first asked for is an estimate with room to
 * spare (xnu adds KERN_PROCSLOP), so the table itself is read and its
 * entries counted.  Groups are not filtered on macOS; signals go by uid.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/sysctl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"
#include "confine.h"

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
