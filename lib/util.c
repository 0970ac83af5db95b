/*
 * Small utilities both programs need.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/*
 * The reason for a failure, into the caller's why: -1, for a function
 * that fails with its reason ("return tt_why(why, len, ...)").
 */
int
tt_why(char *why, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	(void)vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
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
