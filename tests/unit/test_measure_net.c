/*
 * measure_limit_protocols() (tools/measure/measure_net.c) against a fake
 * curl_easy_setopt: a libcurl that takes the _STR forms (7.85 and
 * later), one that answers them CURLE_UNKNOWN_OPTION as macOS 11-13's
 * 7.64.1, 7.77.0 and 7.84.0 do, one that takes the first _STR option
 * only, and one that refuses every form.  The limit must hold (both
 * options set, in one form) or the caller be told.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_libcurl_takes_str),
		cmocka_unit_test(test_old_libcurl_falls_back),
		cmocka_unit_test(test_half_str_falls_back),
		cmocka_unit_test(test_nothing_holds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
