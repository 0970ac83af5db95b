/*
 * The quick tcptunectl hands every command not in tcptunectl.c's
 * quick_commands to the full program, as git runs its commands from its
 * exec path: tcptunectl-full beside this program (a build tree), else at
 * ../libexec/tcptune from its directory (an install, DESTDIR or not, in
 * the usual layout: git's RUNTIME_PREFIX), else the one configure named
 * (TT_CTL_FULL).  Relative to the directory /proc/self/exe names: whoever
 * can write there controls tcptunectl itself anyway.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

#define FULL_NAME	"tcptunectl-full"

/* rel (a path from this program's directory), if it is executable. */
static int
from_self(const char *rel, char *buf, size_t len)
{
	ssize_t	 n;
	char	*slash;

	if ((n = readlink("/proc/self/exe", buf, len - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL ||
	    (size_t)(slash + 1 - buf) + strlen(rel) + 1 > len)
		return -1;
	memcpy(slash + 1, rel, strlen(rel) + 1);
	return access(buf, X_OK);
}

int
ctl_exec_full(char *argv[])
{
	char	path[4096];

	if (from_self(FULL_NAME, path, sizeof(path)) == -1 &&
	    from_self("../libexec/tcptune/" FULL_NAME, path, sizeof(path)) == -1)
		tt_strlcpy(path, TT_CTL_FULL, sizeof(path));
	argv[0] = path;
	execv(path, argv);
	ctl_warn("cannot run %s", path);
	return CTL_FAIL;
}
