/*
 * A blocking client of the wire protocol for the tests, the fuzzers and
 * the benchmarks (test_proto, fuzz_proto, statusbench): whole messages
 * over a socket, each part of a read bounded by poll(2).  tcptunectl has
 * its own client (tools/client.c, with a deadline per exchange) and the
 * daemon its own non-blocking, bounded buffers (daemon/control.c).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto.h"
#include "compat_socket.h"
#include "proto_client.h"

/* All len bytes of buf to fd, however many writes that takes. */
static int
io_send(int fd, const void *buf, size_t len)
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

/*
 * Exactly len bytes from fd, each part waited for at most timeout_ms;
 * ETIMEDOUT, or ECONNRESET for an end of file before len.
 */
static int
io_recv(int fd, void *buf, size_t len, int timeout_ms)
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

int
proto_write_msg(int fd, uint32_t type, uint32_t seq, const void *payload,
    size_t len)
{
	char	buf[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t	total;

	if ((total = proto_encode(buf, sizeof(buf), type, seq, payload,
	    len)) == 0) {
		errno = EMSGSIZE;
		return -1;
	}
	return io_send(fd, buf, total);
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

	if (io_recv(fd, h, sizeof(*h), timeout_ms) == -1)
		return -1;
	rv = proto_check_header(h, why, sizeof(why));
	if (rv == 1 && h->type == MSG_VERSION &&
	    h->len == sizeof(struct msg_version))
		rv = 0;
	if (rv != 0 || h->len > buflen) {
		errno = EPROTO;
		return -1;
	}
	if (io_recv(fd, buf, h->len, timeout_ms) == -1)
		return -1;
	proto_terminate_strings(h->type, buf);
	return 0;
}
