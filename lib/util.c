/*
 * Small utilities both programs need.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptune.h"

size_t
tt_strlcpy(char *dst, const char *src, size_t size)
{
	size_t	len = strlen(src);

	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* snprintf that reports truncation as -1, so callers cannot miss it. */
int
tt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return n;
}

/* All of data, across short writes and signals. */
int
write_all(int fd, const void *data, size_t len)
{
	const char	*p = data;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Replace name in the directory dirfd with data so that a crash at any
 * point leaves either the old or the new contents, never a mix: write a
 * temporary file beside it (O_EXCL, O_NOFOLLOW: never through someone's
 * link), fsync, rename over, fsync the directory.  Working from the held
 * directory means a path renamed meanwhile cannot redirect the write.
 */
int
write_file_atomic_at(int dirfd, const char *name, const void *data,
    size_t len, mode_t mode)
{
	char	tmp[NAME_MAX + 1];
	int	fd, saved;

	if (tt_snprintf(tmp, sizeof(tmp), "%s" TT_ATOMIC_TMP "%ld", name,
	    (long)getpid()) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	(void)unlinkat(dirfd, tmp, 0);	/* a crash's leftover of this pid */
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, mode);
	if (fd == -1)
		return -1;
	if (write_all(fd, data, len) == -1 || fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (renameat(dirfd, tmp, dirfd, name) == -1)
		goto fail;
	return fsync(dirfd);
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlinkat(dirfd, tmp, 0);
	errno = saved;
	return -1;
}

/* The same for a path: its directory is opened for the while. */
int
write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	char		 dir[PATH_MAX];
	const char	*slash = strrchr(path, '/'), *name = path;
	int		 dirfd, rv, saved;

	if (slash == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else if (tt_snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
	    (int)(slash - path), path) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	} else
		name = slash + 1;
	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	rv = write_file_atomic_at(dirfd, name, data, len, mode);
	saved = errno;
	close(dirfd);
	errno = saved;
	return rv;
}

/*
 * Read all of fd, refusing more than max bytes.  The buffer is
 * NUL-terminated for the caller's convenience.  EFBIG when too large.
 */
int
read_file_bounded(int fd, char **bufp, size_t *lenp, size_t max)
{
	char	*buf;
	size_t	 len = 0;
	ssize_t	 n;

	if ((buf = malloc(max + 2)) == NULL)
		return -1;
	for (;;) {
		n = read(fd, buf + len, max + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

uint64_t
fnv1a64(const void *data, size_t len)
{
	const unsigned char	*p = data;
	uint64_t		 h = 0xcbf29ce484222325ULL;

	while (len-- > 0) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* A whole decimal integer, optionally signed; -1 with errno set otherwise. */
int
parse_ll(const char *s, long long *out)
{
	char		*end;
	long long	 v;

	if (*s == '\0' || (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return -1;
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

/* The symbolic name of the errnos a sysctl write gives, for status lines. */
const char *
errno_name(int err)
{
	switch (err) {
	case 0:		return "";
	case ENOENT:	return "ENOENT";
	case EPERM:	return "EPERM";
	case EACCES:	return "EACCES";
	case ERANGE:	return "ERANGE";
	case EINVAL:	return "EINVAL";
	case EIO:	return "EIO";
	case ENOBUFS:	return "ENOBUFS";
	case EROFS:	return "EROFS";
	case ENOTDIR:	return "ENOTDIR";
	case EISDIR:	return "EISDIR";
	case EBUSY:	return "EBUSY";
	default:	return "error";
	}
}

/* Seconds on a clock that neither jumps nor goes back with the date. */
time_t
tt_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}
