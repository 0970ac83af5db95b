/*
 * What differs between Unix systems and Windows beneath the shared code:
 * replacing a file atomically and the monotonic clock (os_win.c is the
 * Windows side).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptune.h"

static int
fsync_dir_of(const char *path)
{
	char	 dir[PATH_MAX];
	char	*slash;
	int	 fd, rv;

	if (tt_strlcpy(dir, path, sizeof(dir)) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	slash = strrchr(dir, '/');
	if (slash == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	rv = fsync(fd);
	close(fd);
	return rv;
}

/*
 * Replace path with data so that a crash at any point leaves either the old
 * or the new contents, never a mix: write a temporary file beside it, fsync,
 * rename over, fsync the directory.
 */
int
write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	char	tmp[PATH_MAX];
	int	fd, saved;

	if (tt_snprintf(tmp, sizeof(tmp), "%s" TT_ATOMIC_TMP "%ld", path,
	    (long)getpid()) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    mode);
	if (fd == -1)
		return -1;
	if (write_all(fd, data, len) == -1 || fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	return fsync_dir_of(path);
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

/* Seconds on a clock that neither jumps nor goes back with the date. */
time_t
tt_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Milliseconds on the same clock, for debouncing. */
uint64_t
tt_mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}
