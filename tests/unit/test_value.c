/*
 * Values as text: folding, comparison, at-least and raise on vectors, and
 * the plan order.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tcptune.h"

static void
test_normalize(void **arg)
{
	char	out[TT_VALUE_MAX];

	(void)arg;
	assert_int_equal(value_normalize("  4096\t131072 \n 6291456\n", out,
	    sizeof(out)), 0);
	assert_string_equal(out, "4096 131072 6291456");
	assert_int_equal(value_normalize(" \t\n", out, sizeof(out)), -1);
	assert_int_equal(value_normalize("", out, sizeof(out)), -1);
	/* too long for the buffer */
	assert_int_equal(value_normalize("123456", out, 6), -1);
	assert_int_equal(value_normalize("12345", out, 6), 0);
}

/* The QoS value as tools write it in the wild, one word each. */
static void
test_policy_word(void **arg)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		{ "Highly Restricted", "highlyrestricted" },
		{ "HIGHLY_RESTRICTED", "highlyrestricted" },
		{ "highlyrestricted", "highlyrestricted" },
		{ " Off ", "off" },
		{ "Normal", "normal" },
		{ "Not Configured", "notconfigured" },
		{ "Restricted\t", "restricted" },
	};
	char	out[TT_VALUE_MAX], same[32];
	size_t	i;

	(void)arg;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(value_policy_word(cases[i].in, out,
		    sizeof(out)), 0);
		assert_string_equal(out, cases[i].want);
	}
	/* in place, as backend_win.c uses it */
	snprintf(same, sizeof(same), "Highly Restricted");
	assert_int_equal(value_policy_word(same, same, sizeof(same)), 0);
	assert_string_equal(same, "highlyrestricted");
	assert_int_equal(value_policy_word(" _ ", out, sizeof(out)), -1);
	assert_int_equal(value_policy_word("", out, sizeof(out)), -1);
	assert_int_equal(value_policy_word("Off On", out, 6), 0);
	assert_int_equal(value_policy_word("Off Ons", out, 6), -1);
}

static void
test_equal(void **arg)
{
	(void)arg;
	assert_true(value_equal("4096\t131072\t6291456", "4096 131072 6291456"));
	assert_false(value_equal("4096 131072 6291457", "4096 131072 6291456"));
	assert_true(value_equal("cubic\n", "cubic"));
	assert_false(value_equal("cubic", "reno"));
}

static void
test_numbers(void **arg)
{
	long long	n[4];

	(void)arg;
	assert_int_equal(value_numbers("1 2 3", n, 4), 3);
	assert_true(n[2] == 3);
	assert_int_equal(value_numbers("1 x 3", n, 4), -1);
	assert_int_equal(value_numbers("1 2 3 4 5", n, 4), -1);
	assert_int_equal(value_numbers("99999999999999999999", n, 4), -1);
	assert_int_equal(value_numbers("-5", n, 4), 1);
	assert_true(n[0] == -5);
}

static void
test_at_least_and_raise(void **arg)
{
	char	out[TT_VALUE_MAX];

	(void)arg;
	assert_int_equal(value_at_least("10 20 30", "10 20 30"), 1);
	assert_int_equal(value_at_least("10 25 30", "10 20 30"), 1);
	assert_int_equal(value_at_least("10 20 29", "10 20 30"), 0);
	assert_int_equal(value_at_least("cubic", "reno"), -1);
	assert_int_equal(value_at_least("1 2", "1 2 3"), -1);
	assert_int_equal(value_raise("4096 262144 100", "4096 131072 200", out,
	    sizeof(out)), 0);
	assert_string_equal(out, "4096 262144 200");
	assert_int_equal(value_raise("a", "1", out, sizeof(out)), -1);
}

static void
test_with_last(void **arg)
{
	char	out[TT_VALUE_MAX];

	(void)arg;
	assert_int_equal(value_with_last("4096 131072 67108864", 8388608, out,
	    sizeof(out)), 0);
	assert_string_equal(out, "4096 131072 8388608");
	assert_int_equal(value_with_last("16777216", 8388608, out,
	    sizeof(out)), 0);
	assert_string_equal(out, "8388608");
	assert_int_equal(value_with_last("cubic", 1, out, sizeof(out)), -1);
	assert_int_equal(value_with_last("1 2 3", 1234567, out, 6), -1);
}

static void
test_plan_order(void **arg)
{
	struct config_key	 k[4];
	const struct config_key	*p[4];
	size_t			 i;

	(void)arg;
	memset(k, 0, sizeof(k));
	tt_strlcpy(k[0].name, "net.inet.tcp.sendspace", TT_NAME_MAX);
	tt_strlcpy(k[1].name, "net.inet.tcp.autorcvbufmax", TT_NAME_MAX);
	tt_strlcpy(k[2].name, "kern.ipc.maxsockbuf", TT_NAME_MAX);
	tt_strlcpy(k[3].name, "net.inet.tcp.recvspace", TT_NAME_MAX);
	for (i = 0; i < 4; i++)
		p[i] = &k[i];
	plan_sort(p, 4);
	assert_string_equal(p[0]->name, "kern.ipc.maxsockbuf");
	/* the rest keep file order */
	assert_string_equal(p[1]->name, "net.inet.tcp.sendspace");
	assert_string_equal(p[2]->name, "net.inet.tcp.autorcvbufmax");
	assert_string_equal(p[3]->name, "net.inet.tcp.recvspace");
	assert_string_equal(sysctl_capped_by("net.inet.tcp.autosndbufmax"),
	    "kern.ipc.maxsockbuf");
	assert_null(sysctl_capped_by("net.ipv4.tcp_rmem"));
}

static void
test_parse_ll(void **arg)
{
	long long	v;

	(void)arg;
	assert_int_equal(parse_ll("42", &v), 0);
	assert_true(v == 42);
	assert_int_equal(parse_ll("", &v), -1);
	assert_int_equal(parse_ll(" 42", &v), -1);
	assert_int_equal(parse_ll("42x", &v), -1);
	assert_int_equal(parse_ll("9223372036854775808", &v), -1);
	assert_int_equal(parse_ll("-9223372036854775808", &v), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_policy_word),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_at_least_and_raise),
		cmocka_unit_test(test_with_last),
		cmocka_unit_test(test_plan_order),
		cmocka_unit_test(test_parse_ll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
