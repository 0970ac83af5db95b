/*
 * Windows Subsystem for Linux: inside it, the sysctls tcptune sets change
 * WSL's own Linux network stack (WSL 2 runs a real Linux kernel in a
 * utility VM), not Windows', which carries the traffic of Windows
 * programs.  tcptuned, check, advise and status say so, once, plainly.
 *
 * How WSL is recognised: the kernel's release names it, "Microsoft" in
 * WSL 1 ("4.4.0-19041-Microsoft"), "microsoft-standard" in WSL 2
 * ("4.19.128-microsoft-standard", later "...-microsoft-standard-WSL2"),
 * as the WSL maintainers answer in https://github.com/microsoft/WSL/issues/4555;
 * and WSL sets WSL_DISTRO_NAME in a distribution's environment (not in a
 * service's, hence the release first for tcptuned).  Either is enough.
 */
#include "config.h"

#include <sys/utsname.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tcptune.h"

/* "microsoft" or "wsl" anywhere in s, any case. */
static bool
names_wsl(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (strncasecmp(s + i, "microsoft", 9) == 0 ||
		    strncasecmp(s + i, "wsl", 3) == 0)
			return true;
	return false;
}

/*
 * Whether this Linux runs inside WSL.  With root NULL the release is
 * uname(2)'s, the same string as /proc/sys/kernel/osrelease without
 * opening it (tcptunectl check opens nothing but its file, and never
 * /proc/sys: tests/config/golden.sh); a test gives root, a directory
 * holding a fake proc/sys/kernel/osrelease.
 */
bool
tt_wsl(const char *root)
{
	char		 path[PATH_MAX], rel[256];
	const char	*env = getenv("WSL_DISTRO_NAME");
	struct utsname	 u;
	FILE		*f;
	bool		 wsl = false;

	if (env != NULL && env[0] != '\0')
		return true;
	if (root == NULL)
		return uname(&u) == 0 && names_wsl(u.release);
	if (tt_snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease",
	    root) == -1 || (f = fopen(path, "re")) == NULL)
		return false;
	if (fgets(rel, sizeof(rel), f) != NULL)
		wsl = names_wsl(rel);
	fclose(f);
	return wsl;
}
