/*
 * The protocol codec: header rules, bounds, version mismatch, truncation,
 * strings forced to end, and the blocking reader over a socketpair.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "proto.h"
#include "proto_client.h"

static struct msg_hdr
hdr(uint32_t type, uint32_t len)
{
	struct msg_hdr	h;

	memset(&h, 0, sizeof(h));
	h.type = type;
	h.len = len;
	h.version = TT_PROTO_VERSION;
	return h;
}

static void
test_header_rules(void **arg)
{
	struct msg_hdr	h;
	char		why[128];

	(void)arg;
	h = hdr(MSG_STATUS, 0);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), 0);
	h = hdr(MSG_STATUS, 4);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "expected 0"));
	h = hdr(MSG_KEY_STATUS, sizeof(struct msg_key_status) - 1);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	h = hdr(MSG_KEY_STATUS, sizeof(struct msg_key_status));
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), 0);
	h = hdr(999, 0);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unknown message type"));
	/* version 2: a lease carries its seconds, nothing less or more */
	h = hdr(MSG_LEASE, sizeof(struct msg_lease));
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), 0);
	h = hdr(MSG_LEASE, 0);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "lease message of 0 bytes"));
	assert_string_equal(proto_type_name(MSG_LEASE), "lease");
	h = hdr(MSG_STATUS, TT_PROTO_MAX_PAYLOAD + 1);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "exceeds"));
	h = hdr(MSG_STATUS, 0xffffffffu);
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
	h = hdr(MSG_STATUS, 0);
	h.flags = 1;
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), -1);
}

/* Another version is told apart from garbage, whatever else it sends. */
static void
test_version_mismatch(void **arg)
{
	struct msg_hdr	h;
	char		why[128];

	(void)arg;
	h = hdr(12345, 99999);
	h.version = TT_PROTO_VERSION + 1;
	assert_int_equal(proto_check_header(&h, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "protocol version"));
}

static void
test_encode_bounds(void **arg)
{
	char			buf[64];
	struct msg_end		end = { 3, 0 };
	struct msg_hdr		h;

	(void)arg;
	assert_int_equal(proto_encode(buf, sizeof(buf), MSG_END, 7, &end,
	    sizeof(end)), sizeof(h) + sizeof(end));
	memcpy(&h, buf, sizeof(h));
	assert_int_equal(h.seq, 7);
	assert_int_equal(h.len, sizeof(end));
	assert_int_equal(proto_encode(buf, 10, MSG_END, 7, &end, sizeof(end)),
	    0);
	assert_int_equal(proto_encode(buf, sizeof(buf), MSG_END, 7, &end,
	    TT_PROTO_MAX_PAYLOAD + 1), 0);
}

static void
test_strings_terminated(void **arg)
{
	struct msg_key_status	ks;
	struct msg_result	rs;

	(void)arg;
	memset(&ks, 'A', sizeof(ks));
	proto_terminate_strings(MSG_KEY_STATUS, &ks);
	assert_int_equal(strlen(ks.name), sizeof(ks.name) - 1);
	assert_int_equal(strlen(ks.note), sizeof(ks.note) - 1);
	assert_int_equal(strlen(ks.original), sizeof(ks.original) - 1);
	assert_int_equal(strlen(ks.source), sizeof(ks.source) - 1);
	memset(&rs, 'B', sizeof(rs));
	proto_terminate_strings(MSG_RESULT, &rs);
	assert_int_equal(strlen(rs.text), sizeof(rs.text) - 1);
}

static void
test_roundtrip_and_truncation(void **arg)
{
	struct msg_result	res, got;
	struct msg_hdr		h;
	int			sv[2];

	(void)arg;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	memset(&res, 0, sizeof(res));
	res.code = RESULT_DENIED;
	strcpy(res.text, "reload needs root");
	assert_int_equal(proto_write_msg(sv[0], MSG_RESULT, 9, &res,
	    sizeof(res)), 0);
	assert_int_equal(proto_read_msg(sv[1], &h, &got, sizeof(got), 1000),
	    0);
	assert_int_equal(h.type, MSG_RESULT);
	assert_int_equal(h.seq, 9);
	assert_string_equal(got.text, "reload needs root");
	/* a header cut short, then the peer goes: an error, not a hang */
	assert_int_equal(write(sv[0], &h, 5), 5);
	close(sv[0]);
	assert_int_equal(proto_read_msg(sv[1], &h, &got, sizeof(got), 1000),
	    -1);
	assert_int_equal(errno, ECONNRESET);
	close(sv[1]);
}

static void
test_read_rejects_bad_header_and_timeout(void **arg)
{
	struct msg_result	got;
	struct msg_hdr		h = hdr(MSG_RESULT, 4);
	int			sv[2];

	(void)arg;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], &h, sizeof(h)), sizeof(h));
	assert_int_equal(proto_read_msg(sv[1], &h, &got, sizeof(got), 1000),
	    -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(proto_read_msg(sv[1], &h, &got, sizeof(got), 50),
	    -1);
	assert_int_equal(errno, ETIMEDOUT);
	close(sv[0]);
	close(sv[1]);
}

static void
test_names(void **arg)
{
	(void)arg;
	assert_string_equal(key_state_name(KS_IN_FORCE), "in force");
	assert_string_equal(key_state_name(KS_STATE_COUNT), "unknown");
	assert_string_equal(proto_type_name(MSG_RELOAD), "reload");
	assert_string_equal(result_code_name(RESULT_DENIED), "denied");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_rules),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_encode_bounds),
		cmocka_unit_test(test_strings_terminated),
		cmocka_unit_test(test_roundtrip_and_truncation),
		cmocka_unit_test(test_read_rejects_bad_header_and_timeout),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
