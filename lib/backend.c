/*
 * Choosing the sysctl backend for this platform.
 */
#include "config.h"

#include <stdlib.h>

#include "tcptune.h"

/*
 * With a root directory the sysctl-directory backend is used on any Unix
 * platform: tests and dry runs point it at a tree of files.  Windows has
 * the CIM backend only (backend_win.c over cim_win.c).
 */
struct sysctl_backend *
backend_platform_new(const char *root)
{
#if defined(_WIN32)
	/* No sysctl tree to point at: tcptuned refuses -r there. */
	return root == NULL ? backend_windows_new() : NULL;
#else
#if defined(__APPLE__) || defined(__FreeBSD__)
	if (root == NULL)
		return backend_bsd_new();
#endif
	return backend_sysctl_dir_new(root ? root : TT_PROC_SYS);
#endif
}

void
backend_free(struct sysctl_backend *be)
{
	if (be != NULL && be->free != NULL)
		be->free(be);
}
