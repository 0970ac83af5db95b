/*
 * open(2) with FreeBSD's errno for a symlink under O_NOFOLLOW: see
 * fake_open.h.  openat is not replaced, so it does the real work.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>

#include "fake_open.h"

bool	fake_open_freebsd;

int
open(const char *path, int flags, ...)
{
	struct stat	sb;
	va_list		ap;
	mode_t		mode = 0;

	if (flags & O_CREAT) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (fake_open_freebsd && (flags & O_NOFOLLOW) &&
	    lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		errno = EMLINK;
		return -1;
	}
	return openat(AT_FDCWD, path, flags, mode);
}
