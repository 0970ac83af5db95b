/*
 * Choosing the sysctl backend for this platform.
 */
#include <stdlib.h>

#include "tcptune.h"

/*
 * With a root directory the Linux backend is used on any platform: tests
 * and dry runs point it at a tree of files.
 */
struct sysctl_backend *
backend_platform_new(const char *root)
{
#if defined(__APPLE__) || defined(__FreeBSD__)
	if (root == NULL)
		return backend_bsd_new();
#endif
	return backend_linux_new(root ? root : "/proc/sys");
}

void
backend_free(struct sysctl_backend *be)
{
	if (be != NULL && be->free != NULL)
		be->free(be);
}
