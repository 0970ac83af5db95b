/*
 * measure_limit_protocols() (tools/measure/measure_net.c) against a fake
 * curl_easy_setopt: a libcurl that takes the _STR forms (7.85 and
 * later), one that answers them CURLE_UNKNOWN_OPTION as macOS 11-13's
 * 7.64.1, 7.77.0 and 7.84.0 do, one that takes the first _STR option
 * only, and one that refuses every form.  The limit must hold (both
 * options set, in one form) or the caller be told.
 *
 * An upload's pure parts: its rates from its clock (the bytes a send
 * buffer held at the first second not counted as carried, the end at
 * the server's answer), the line for a refused upload, and --method.
 */
#include "config.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#define CURL_DISABLE_DEPRECATION	1
#include <curl/curl.h>

#include "measure.h"
#include "measure_curlopt.h"

/* What the fake libcurl was given, and what it takes. */
struct fake_curl {
	bool	str_known;	/* 7.85 or later */
	bool	redir_str_known;
	bool	num_known;
	char	protocols[32];
	char	redir_protocols[32];
	long	protocol_bits;
	long	redir_protocol_bits;
	int	calls;
};

static CURLcode
fake_str(void *h, CURLoption opt, const char *v)
{
	struct fake_curl	*c = h;

	c->calls++;
	if (opt == CURLOPT_PROTOCOLS_STR && c->str_known)
		strncpy(c->protocols, v, sizeof(c->protocols) - 1);
	else if (opt == CURLOPT_REDIR_PROTOCOLS_STR && c->redir_str_known)
		strncpy(c->redir_protocols, v, sizeof(c->redir_protocols) - 1);
	else
		return CURLE_UNKNOWN_OPTION;
	return CURLE_OK;
}

static CURLcode
fake_num(void *h, CURLoption opt, long v)
{
	struct fake_curl	*c = h;

	c->calls++;
	if (!c->num_known)
		return CURLE_UNKNOWN_OPTION;
	if (opt == CURLOPT_PROTOCOLS)
		c->protocol_bits = v;
	else if (opt == CURLOPT_REDIR_PROTOCOLS)
		c->redir_protocol_bits = v;
	else
		return CURLE_UNKNOWN_OPTION;
	return CURLE_OK;
}

static const struct curl_setter	setter = { fake_str, fake_num };
#define HTTP_BITS	((long)(CURLPROTO_HTTP | CURLPROTO_HTTPS))

static void
test_new_libcurl_takes_str(void **arg)
{
	struct fake_curl	c = { true, true, true, "", "", 0, 0, 0 };

	(void)arg;
	assert_int_equal(measure_limit_protocols(&c, &setter),
	    MEASURE_PROTOS_STR);
	assert_string_equal(c.protocols, "http,https");
	assert_string_equal(c.redir_protocols, "http,https");
	assert_int_equal(c.protocol_bits, 0);
	assert_int_equal(c.calls, 2);
}

/* macOS 11-13: the _STR options unknown; the bitmasks hold the limit. */
static void
test_old_libcurl_falls_back(void **arg)
{
	struct fake_curl	c = { false, false, true, "", "", 0, 0, 0 };

	(void)arg;
	assert_int_equal(measure_limit_protocols(&c, &setter),
	    MEASURE_PROTOS_BITS);
	assert_int_equal(c.protocol_bits, HTTP_BITS);
	assert_int_equal(c.redir_protocol_bits, HTTP_BITS);
}

/* Half of the _STR pair taken: the bitmasks still set both. */
static void
test_half_str_falls_back(void **arg)
{
	struct fake_curl	c = { true, false, true, "", "", 0, 0, 0 };

	(void)arg;
	assert_int_equal(measure_limit_protocols(&c, &setter),
	    MEASURE_PROTOS_BITS);
	assert_int_equal(c.redir_protocol_bits, HTTP_BITS);
}

/* Nothing holds: the caller is told, so it does not measure. */
static void
test_nothing_holds(void **arg)
{
	struct fake_curl	c = { false, false, false, "", "", 0, 0, 0 };

	(void)arg;
	assert_int_equal(measure_limit_protocols(&c, &setter), -1);
}

/* ---- an upload's rates */

#define MB	1000000ULL
#define assert_near(a, b)	assert_true((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

/*
 * 10 MB written by the first second, 4 MB of them still in the send
 * buffer: 6 MB carried.  100 MB in all, answered at 11 s: the steady
 * rate is the 94 MB carried from 1 s to 11 s, not the 90 MB after the
 * writes (which a larger buffer would make look faster), and the whole
 * rate ends at the answer, not at the transfer's end.
 */
static void
test_upload_rate_counts_carried_bytes(void **arg)
{
	struct upload_clock	c = { .first = 100.0, .at_1s = 101.0,
				    .written_1s = 10 * MB, .queued_1s = 4 * MB,
				    .answered = 111.0, .done = 111.5,
				    .bytes = 100 * MB };
	struct mround		r;

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(mnet_upload_rates(&c, &r), 0);
	assert_true(r.bytes == 100 * MB);
	assert_near(r.secs, 11.0);
	assert_near(r.mbps, 100 * 8 / 11.0);
	assert_near(r.mbps_steady, 94 * 8 / 10.0);
	assert_false(r.ended);
}

/* No answer seen (none after the body): the transfer's end. */
static void
test_upload_rate_without_answer(void **arg)
{
	struct upload_clock	c = { .first = 100.0, .at_1s = 101.0,
				    .written_1s = 10 * MB, .done = 105.0,
				    .bytes = 50 * MB };
	struct mround		r;

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(mnet_upload_rates(&c, &r), 0);
	assert_near(r.secs, 5.0);
	assert_near(r.mbps_steady, 40 * 8 / 4.0);
}

/* Answered within the first second: too short, no rate. */
static void
test_upload_rate_too_short(void **arg)
{
	struct upload_clock	c = { .first = 100.0, .answered = 100.4,
				    .done = 100.5, .bytes = 1 * MB };
	struct mround		r;

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(mnet_upload_rates(&c, &r), -1);
	assert_true(r.mbps == 0);
}

/* ---- a refused upload, --method */

static void
test_refused_put_says_status_and_way_out(void **arg)
{
	char	buf[512];

	(void)arg;
	mnet_refused_text(buf, sizeof(buf), "http://***@h/x", 405, false);
	assert_non_null(strstr(buf, "http://***@h/x: the server answered "
	    "HTTP 405 to the upload (PUT)"));
	assert_non_null(strstr(buf, "give a URL that accepts a PUT"));
	assert_non_null(strstr(buf, "curl -T FILE URL"));
	assert_non_null(strstr(buf, "--method post"));
}

static void
test_refused_post_names_post(void **arg)
{
	char	buf[512];

	(void)arg;
	mnet_refused_text(buf, sizeof(buf), "http://h/x", 403, true);
	assert_non_null(strstr(buf, "HTTP 403 to the upload (POST)"));
	assert_non_null(strstr(buf, "curl --data-binary @FILE URL"));
	assert_null(strstr(buf, "--method"));
	mnet_refused_text(buf, sizeof(buf), "http://h/x", 411, false);
	assert_non_null(strstr(buf, "chunked"));
	assert_null(strstr(buf, "--method"));
}

static void
test_method_names(void **arg)
{
	bool	post = true;

	(void)arg;
	assert_int_equal(mnet_method("put", &post), 0);
	assert_false(post);
	assert_int_equal(mnet_method("POST", &post), 0);
	assert_true(post);
	assert_int_equal(mnet_method("patch", &post), -1);
	assert_int_equal(mnet_method("", &post), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_libcurl_takes_str),
		cmocka_unit_test(test_old_libcurl_falls_back),
		cmocka_unit_test(test_half_str_falls_back),
		cmocka_unit_test(test_nothing_holds),
		cmocka_unit_test(test_upload_rate_counts_carried_bytes),
		cmocka_unit_test(test_upload_rate_without_answer),
		cmocka_unit_test(test_upload_rate_too_short),
		cmocka_unit_test(test_refused_put_says_status_and_way_out),
		cmocka_unit_test(test_refused_post_names_post),
		cmocka_unit_test(test_method_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
