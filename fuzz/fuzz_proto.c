/*
 * The control protocol on arbitrary bytes, from both ends.
 *
 * Request side: the input as the daemon's control.c takes it from a
 * client: a header copied out, proto_check_header(), and a payload of the
 * length the header allowed; every accepted message re-encodes to the same
 * bytes.  Reply side: the input as tcptunectl reads it, through
 * proto_read_msg() over a socketpair, with every string of every reply
 * forced to end and then read.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "proto.h"
#include "proto_client.h"

/* Read every string of a message, as output.c would print them. */
static size_t
touch_strings(uint32_t type, const void *payload)
{
	const struct msg_daemon_info	*di = payload;
	const struct msg_key_status	*ks = payload;
	const struct msg_config_error	*ce = payload;
	const struct msg_result		*rs = payload;

	switch (type) {
	case MSG_DAEMON_INFO:
		return strlen(di->version) + strlen(di->backend) +
		    strlen(di->config_path) + strlen(di->last_reload_msg) +
		    strlen(di->state_problem) + strlen(di->damaged_copies);
	case MSG_KEY_STATUS:
		return strlen(ks->name) + strlen(ks->wanted) +
		    strlen(ks->applied) + strlen(ks->current) +
		    strlen(ks->original) + strlen(ks->note) +
		    strlen(key_state_name(ks->state));
	case MSG_CONFIG_ERROR:
		return strlen(ce->text);
	case MSG_RESULT:
		return strlen(rs->text) + strlen(result_code_name(rs->code));
	default:
		return strlen(proto_type_name(type));
	}
}

/* One message of the input, as control.c takes it; 0 when it may go on. */
static int
request_one(const uint8_t **p, size_t *left)
{
	struct msg_hdr	 h;
	char		 why[128], *out;
	uint8_t		*payload;
	size_t		 total, n;
	int		 rv;

	if (*left < sizeof(h))
		return -1;
	memcpy(&h, *p, sizeof(h));
	rv = proto_check_header(&h, why, sizeof(why));
	FUZZ_CHECK(rv >= -1 && rv <= 1);
	if (rv != 0) {
		FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL);
		return -1;	/* the daemon replies once and closes */
	}
	FUZZ_CHECK(h.len <= TT_PROTO_MAX_PAYLOAD);
	FUZZ_CHECK(proto_payload_size(h.type) == (long)h.len);
	total = sizeof(h) + h.len;
	if (*left < total)
		return -1;	/* waits for more: the input ends here */
	/* exact sizes, so that any read past a payload is caught */
	if ((payload = malloc(h.len ? h.len : 1)) == NULL ||
	    (out = malloc(total)) == NULL)
		abort();
	memcpy(payload, *p + sizeof(h), h.len);
	n = proto_encode(out, total, h.type, h.seq, payload, h.len);
	FUZZ_CHECK(n == total && memcmp(out, *p, total) == 0);
	FUZZ_CHECK(proto_encode(out, total - 1, h.type, h.seq, payload,
	    h.len) == 0);
	proto_terminate_strings(h.type, payload);
	touch_strings(h.type, payload);
	free(out);
	free(payload);
	*p += total;
	*left -= total;
	return 0;
}

/* The client's reader on the same bytes. */
static void
replies(const uint8_t *data, size_t size)
{
	static char	 buf[TT_PROTO_MAX_PAYLOAD];
	struct msg_hdr	 h;
	int		 sv[2], i;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		abort();
	/* the socket buffer holds far more than the harness is given */
	if (write(sv[0], data, size) != (ssize_t)size)
		abort();
	shutdown(sv[0], SHUT_WR);
	for (i = 0; i < 1000; i++) {
		if (proto_read_msg(sv[1], &h, buf, sizeof(buf), 1000) == -1) {
			FUZZ_CHECK(errno == EPROTO || errno == ECONNRESET);
			break;
		}
		FUZZ_CHECK(h.len <= sizeof(buf));
		touch_strings(h.type, buf);
	}
	close(sv[0]);
	close(sv[1]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t	*p = data;
	size_t		 left = size;

	if (size > 4 * (sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD))
		return 0;
	while (request_one(&p, &left) == 0)
		;
	replies(data, size);
	return 0;
}
