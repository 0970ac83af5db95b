/*
 * macOS: _NSGetExecutablePath() "copies the path of the main executable
 * into the buffer buf" and returns -1 when the buffer is too small; the
 * path "may be a symbolic link and not the real file" (dyld(3), the
 * function's declaration in <mach-o/dyld.h>), hence realpath(3).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <mach-o/dyld.h>
#include <stdint.h>
#include <stdlib.h>

#include "tcptune.h"

int
self_exe_path(char *buf, size_t len)
{
	char		raw[PATH_MAX], real[PATH_MAX];
	uint32_t	size = sizeof(raw);

	if (_NSGetExecutablePath(raw, &size) != 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (realpath(raw, real) == NULL)
		return -1;
	if (tt_strlcpy(buf, real, len) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}
