/*
 * proto_msg.c's bytes over a socket (proto_io.h): poll(2) bounds each
 * part of a read.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto_io.h"
#include "compat_socket.h"

int
proto_io_send(int fd, const void *buf, size_t len)
{
	const char	*p = buf;
	ssize_t		 n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
proto_io_recv(int fd, void *buf, size_t len, int timeout_ms)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLIN };
	char		*p = buf;
	ssize_t		 n;
	int		 r;

	while (len > 0) {
		r = poll(&pfd, 1, timeout_ms);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return -1;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		n = read(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
