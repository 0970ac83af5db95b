/*
 * Blocking message I/O for tcptunectl and the tests, over any byte
 * transport (proto_io.h).  The daemon has its own non-blocking, bounded
 * buffers in control.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "proto.h"
#include "proto_io.h"

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
	return proto_io_send(fd, buf, total);
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

	if (proto_io_recv(fd, h, sizeof(*h), timeout_ms) == -1)
		return -1;
	rv = proto_check_header(h, why, sizeof(why));
	if (rv == 1 && h->type == MSG_VERSION &&
	    h->len == sizeof(struct msg_version))
		rv = 0;
	if (rv != 0 || h->len > buflen) {
		errno = EPROTO;
		return -1;
	}
	if (proto_io_recv(fd, buf, h->len, timeout_ms) == -1)
		return -1;
	proto_terminate_strings(h->type, buf);
	return 0;
}
