/*
 * Blocking message I/O for tcptunectl and the tests.  The daemon has its
 * own non-blocking, bounded buffers in control.c.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto.h"
#include "compat_socket.h"

int
proto_write_msg(int fd, uint32_t type, uint32_t seq, const void *payload,
    size_t len)
{
	char		 buf[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t		 total, off = 0;
	ssize_t		 n;

	if ((total = proto_encode(buf, sizeof(buf), type, seq, payload,
	    len)) == 0) {
		errno = EMSGSIZE;
		return -1;
	}
	while (off < total) {
		n = send(fd, buf + off, total - off, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes, waiting at most timeout_ms for each part. */
static int
read_exact(int fd, void *buf, size_t len, int timeout_ms)
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

/*
 * One message: header into *h, payload into buf.  A header that breaks the
 * rules gives EPROTO; a version reply is returned as is for the caller to
 * report both versions.
 */
int
proto_read_msg(int fd, struct msg_hdr *h, void *buf, size_t buflen,
    int timeout_ms)
{
	char	why[128];
	int	rv;

	if (read_exact(fd, h, sizeof(*h), timeout_ms) == -1)
		return -1;
	rv = proto_check_header(h, why, sizeof(why));
	if (rv == 1 && h->type == MSG_VERSION &&
	    h->len == sizeof(struct msg_version))
		rv = 0;
	if (rv != 0 || h->len > buflen) {
		errno = EPROTO;
		return -1;
	}
	if (read_exact(fd, buf, h->len, timeout_ms) == -1)
		return -1;
	proto_terminate_strings(h->type, buf);
	return 0;
}
