/*
 * tcptunectl measure iperf3://: the URL's rules (host, port, IPv6 in
 * brackets, what is refused) and the figures read from libiperf's JSON
 * report (tools/measure/measure_iperf_parse.c), on reports shaped as
 * iperf 3.12's -J output, without libiperf or a server.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

static void
test_url_good(void **arg)
{
	struct miperf_target	t;
	char			err[256];

	(void)arg;
	assert_int_equal(miperf_parse_url("iperf3://server.example", &t, err,
	    sizeof(err)), 0);
	assert_string_equal(t.host, "server.example");
	assert_int_equal(t.port, 5201);
	assert_int_equal(miperf_parse_url("IPERF3://10.0.0.2:5301/", &t, err,
	    sizeof(err)), 0);
	assert_string_equal(t.host, "10.0.0.2");
	assert_int_equal(t.port, 5301);
	assert_int_equal(miperf_parse_url("iperf3://[2001:db8::1]:9", &t, err,
	    sizeof(err)), 0);
	assert_string_equal(t.host, "2001:db8::1");
	assert_int_equal(t.port, 9);
	assert_int_equal(miperf_parse_url("iperf3://[::1]", &t, err,
	    sizeof(err)), 0);
	assert_string_equal(t.host, "::1");
	assert_int_equal(t.port, 5201);
	assert_true(miperf_is_url("iperf3://x"));
	assert_false(miperf_is_url("http://x/iperf3://"));
	assert_false(miperf_is_url("iperf://x"));
}

static void
test_url_bad(void **arg)
{
	static const char *const bad[] = {
		"iperf3://", "iperf3://:5201", "iperf3://host:", "iperf3://host:0",
		"iperf3://host:65536", "iperf3://host:52x", "iperf3://host:-1",
		"iperf3://host/path", "iperf3://user@host", "iperf3://host?x",
		"iperf3://host#x", "iperf3://[::1", "iperf3://[::1]x",
		"iperf3://[]:5201", "http://host/"
	};
	struct miperf_target	t;
	char			err[256];
	size_t			i;

	(void)arg;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (miperf_parse_url(bad[i], &t, err, sizeof(err)) != -1)
			fail_msg("%s was taken", bad[i]);
		assert_true(err[0] != '\0');
	}
}

/* An upload's report, cut to what measure reads, and a bit more. */
static const char upload_json[] =
    "{\n\t\"start\":\t{\"connected\": [{\"socket\": 5}], \"version\": "
    "\"iperf 3.12\", \"x\": [1, {\"a\": \"}]\\\"\"}, true, null]},\n"
    "\t\"intervals\":\t[{\"streams\": [], \"sum\": {\"start\": 0, "
    "\"seconds\": 1.0, \"bytes\": 1000000}},\n"
    "\t\t{\"streams\": [], \"sum\": {\"seconds\": 1.0, \"bytes\": "
    "2500000}},\n"
    "\t\t{\"streams\": [], \"sum\": {\"seconds\": 1.0, \"bytes\": "
    "2500000}}],\n"
    "\t\"end\":\t{\"streams\": [\n"
    "\t\t{\"sender\": {\"bytes\": 3000000, \"retransmits\": 3, "
    "\"max_rtt\": 90000, \"min_rtt\": 20500, \"mean_rtt\": 60000}},\n"
    "\t\t{\"sender\": {\"bytes\": 3000000, \"retransmits\": 4, "
    "\"max_rtt\": 95000, \"min_rtt\": 20100, \"mean_rtt\": 70000}}],\n"
    "\t\"sum_sent\": {\"seconds\": 3.0, \"bytes\": 6000000, "
    "\"bits_per_second\": 16000000, \"retransmits\": 7},\n"
    "\t\"sum_received\": {\"seconds\": 3.1, \"bytes\": 5900000, "
    "\"bits_per_second\": 15225806.45}}\n}\n";

static void
test_json_reader(void **arg)
{
	double	v;
	char	s[64];

	(void)arg;
	assert_int_equal(mjson_num(upload_json, "end.sum_sent.retransmits",
	    &v), 0);
	assert_true(v == 7);
	assert_int_equal(mjson_num(upload_json,
	    "end.streams.1.sender.mean_rtt", &v), 0);
	assert_true(v == 70000);
	assert_int_equal(mjson_str(upload_json, "start.version", s,
	    sizeof(s)), 0);
	assert_string_equal(s, "iperf 3.12");
	assert_int_equal(mjson_num(upload_json, "end.streams.2.sender.min_rtt",
	    &v), -1);
	assert_int_equal(mjson_num(upload_json, "end.nothing", &v), -1);
	assert_int_equal(mjson_num(upload_json, "start.version", &v), -1);
	assert_int_equal(mjson_str(upload_json, "error", s, sizeof(s)), -1);
	/* broken documents: absent, never a number */
	assert_int_equal(mjson_num("{\"a\": {\"b\": 1", "a.c", &v), -1);
	assert_int_equal(mjson_num("{\"a\" 1}", "a", &v), -1);
	assert_int_equal(mjson_num("[1, 2", "5", &v), -1);
	assert_int_equal(mjson_num("", "a", &v), -1);
	assert_int_equal(mjson_num("{\"s\": \"\\", "t", &v), -1);
}

static void
test_read_upload(void **arg)
{
	struct mround	r;
	char		err[256];

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(upload_json, DIR_UPLOAD, &r, err,
	    sizeof(err)), 0);
	assert_true(r.mbps > 15.2 && r.mbps < 15.3);
	assert_int_equal(r.bytes, 5900000);
	assert_true(r.secs > 3.09 && r.secs < 3.11);
	/* the receiver's total, after the omitted second; not the
	 * sender's intervals (20 Mbit/s in the 2nd and 3rd s here) */
	assert_true(r.mbps_steady == r.mbps);
	assert_int_equal(r.rtt_us, 20100);	/* the smaller minimum */
	assert_int_equal(r.rtt_load_us, 65000);	/* the mean of means */
	assert_true(r.has_retrans);
	assert_int_equal(r.retrans, 7);
	/* a download: the sender is the server, its RTTs unknown */
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(upload_json, DIR_DOWNLOAD, &r, err,
	    sizeof(err)), 0);
	assert_int_equal(r.rtt_us, 0);
	assert_int_equal(r.rtt_load_us, 0);
	assert_int_equal(r.retrans, 7);
}

static void
test_read_errors(void **arg)
{
	struct mround	r;
	char		err[256];

	(void)arg;
	assert_int_equal(miperf_read_round("{\"start\": {}, \"intervals\": [],"
	    " \"end\": {}, \"error\": \"the server is busy running a test. "
	    "try again later\"}", DIR_DOWNLOAD, &r, err, sizeof(err)), -1);
	assert_string_equal(err, "the server is busy running a test. try "
	    "again later");
	assert_int_equal(miperf_read_round("{\"end\": {}}", DIR_DOWNLOAD, &r,
	    err, sizeof(err)), -1);
	assert_string_equal(err, "the iperf3 report has no totals");
	/* the totals alone make a round */
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round("{\"intervals\": [{\"sum\": "
	    "{\"seconds\": 1, \"bytes\": 5}}], \"end\": {\"sum_received\": "
	    "{\"bits_per_second\": 8e6, \"bytes\": 1e6, \"seconds\": 1}}}",
	    DIR_DOWNLOAD, &r, err, sizeof(err)), 0);
	assert_true(r.mbps_steady == 8);
	assert_false(r.has_retrans);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url_good),
		cmocka_unit_test(test_url_bad),
		cmocka_unit_test(test_json_reader),
		cmocka_unit_test(test_read_upload),
		cmocka_unit_test(test_read_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
