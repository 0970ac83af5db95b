/*
 * The quick tcptunectl hands every command not marked quick in
 * tcptunectl.c's table to the full program, as git runs its commands
 * from its exec path: tcptunectl-full beside this program when there is
 * one (a build tree), else the one installed in libexecdir (TT_CTL_FULL).
 * Beside means in the directory /proc/self/exe names, which whoever can
 * write that directory controls anyway, as they control tcptunectl.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

#define FULL_NAME	"tcptunectl-full"

/* tcptunectl-full in this program's own directory, if it is there. */
static int
beside_self(char *buf, size_t len)
{
	ssize_t	 n;
	char	*slash;

	if ((n = readlink("/proc/self/exe", buf, len - 1)) <= 0)
		return -1;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL ||
	    (size_t)(slash + 1 - buf) + sizeof(FULL_NAME) > len)
		return -1;
	memcpy(slash + 1, FULL_NAME, sizeof(FULL_NAME));
	return access(buf, X_OK);
}

int
ctl_exec_full(char *argv[])
{
	char	path[4096];

	if (beside_self(path, sizeof(path)) == -1)
		tt_strlcpy(path, TT_CTL_FULL, sizeof(path));
	argv[0] = path;
	execv(path, argv);
	ctl_warn("cannot run %s", path);
	return CTL_FAIL;
}
