/*
 * The quick tcptunectl hands every command not in tcptunectl.c's
 * quick_commands to the full program, as git runs its commands from its
 * exec path: tcptunectl-full beside this program (a build tree), else at
 * ../libexec/tcptune from its directory (an install, DESTDIR or not, in
 * the usual layout: git's RUNTIME_PREFIX), else the one configure named
 * (TT_CTL_FULL).  The first two are found beside this program, so they
 * run only under the sibling rule (lib/trust_posix.c): a root-owned
 * tcptunectl copied into /tmp never runs a user's tcptunectl-full there.
 * One that is there but refused is an error, not a reason to look on.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

#define FULL_NAME	"tcptunectl-full"

/*
 * The full program beside this one into path: 0 when found and allowed,
 * 1 when neither place has one, -1 (said) when one is there but refused.
 */
static int
find_beside(char *path, size_t len)
{
	static const char *const places[] = {
		FULL_NAME, "../libexec/tcptune/" FULL_NAME
	};
	char	self[PATH_MAX], why[1024];
	size_t	i;

	if (self_exe_path(self, sizeof(self)) == -1)
		return 1;
	for (i = 0; i < NITEMS(places); i++) {
		if (sibling_path(self, places[i], path, len, why,
		    sizeof(why)) == 0)
			return 0;
		if (errno != ENOENT) {
			ctl_warnx("will not run %s", why);
			return -1;
		}
	}
	return 1;
}

int
ctl_exec_full(char *argv[])
{
	char	path[PATH_MAX];

	switch (find_beside(path, sizeof(path))) {
	case -1:
		return CTL_FAIL;
	case 1:
		tt_strlcpy(path, TT_CTL_FULL, sizeof(path));
		break;
	}
	argv[0] = path;
	execv(path, argv);
	ctl_warn("cannot run %s", path);
	return CTL_FAIL;
}
