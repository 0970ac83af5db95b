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
	assert_null(r.load_unknown);
	/* a download: the sender is the server; the client's own round
	 * trips are not taken for its, and with no report from it they
	 * are unknown, and why is said */
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(upload_json, DIR_DOWNLOAD, &r, err,
	    sizeof(err)), 0);
	assert_int_equal(r.rtt_us, 0);
	assert_int_equal(r.rtt_load_us, 0);
	assert_int_equal(r.retrans, 7);
	assert_non_null(r.load_unknown);
	assert_non_null(strstr(r.load_unknown, "did not send its report"));
}

/*
 * A download's report, as libiperf 3.12 gave it for `iperf3 -c -R
 * --get-server-output -J -t 3 -O 1 -P 2` against `iperf3 -s -J` over the
 * delay line of bench/throughput at 20 Mbit/s and 20 ms, its intervals
 * cut to the first, "start" to three members and the CPU figures left
 * out: the client's own streams receive, their sender RTTs 0; the
 * server's report, under "server_output_json", has its sending streams'
 * round trips (min_rtt 57238 and 57058 us, mean_rtt 61615 and 61782).
 */
static const char download_json[] =
    "{\"start\":{\"connected\":[{\"socket\":5,\"local_host\":\"10.77.0.1"
    "\",\"local_port\":51500,\"remote_host\":\"10.77.0.2\",\"remote_port"
    "\":5201},{\"socket\":7,\"local_host\":\"10.77.0.1\",\"local_port\":5"
    "1506,\"remote_host\":\"10.77.0.2\",\"remote_port\":5201}],\"version"
    "\":\"iperf 3.12\",\"test_start\":{\"protocol\":\"TCP\",\"num_streams"
    "\":2,\"blksize\":131072,\"omit\":1,\"duration\":3,\"bytes\":0,\"bloc"
    "ks\":0,\"reverse\":1,\"tos\":0,\"target_bitrate\":0}},\"intervals\":"
    "[{\"streams\":[{\"socket\":5,\"start\":0,\"end\":1.000082,\"seconds"
    "\":1.000082015991211,\"bytes\":1262656,\"bits_per_second\":10100419."
    "604074525,\"omitted\":true,\"sender\":false},{\"socket\":7,\"start\""
    ":0,\"end\":1.000088,\"seconds\":1.0000879764556885,\"bytes\":1127992"
    ",\"bits_per_second\":9023142.17593219,\"omitted\":true,\"sender\":fa"
    "lse}],\"sum\":{\"start\":0,\"end\":1.000082,\"seconds\":1.0000820159"
    "91211,\"bytes\":2390648,\"bits_per_second\":19123615.5577145,\"omitt"
    "ed\":true,\"sender\":false}}],\"end\":{\"streams\":[{\"sender\":{\"s"
    "ocket\":5,\"start\":0,\"end\":3.022915,\"seconds\":3.022915,\"bytes"
    "\":3714120,\"bits_per_second\":9829240.980973663,\"retransmits\":0,"
    "\"max_snd_cwnd\":0,\"max_snd_wnd\":0,\"max_rtt\":0,\"min_rtt\":0,\"m"
    "ean_rtt\":0,\"sender\":false},\"receiver\":{\"socket\":5,\"start\":0"
    ",\"end\":2.999973,\"seconds\":2.999973,\"bytes\":3738736,\"bits_per_"
    "second\":9970052.39713824,\"sender\":false}},{\"sender\":{\"socket\""
    ":7,\"start\":0,\"end\":3.022915,\"seconds\":3.022915,\"bytes\":35186"
    "40,\"bits_per_second\":9311912.50829084,\"retransmits\":0,\"max_snd_"
    "cwnd\":0,\"max_snd_wnd\":0,\"max_rtt\":0,\"min_rtt\":0,\"mean_rtt\":"
    "0,\"sender\":false},\"receiver\":{\"socket\":7,\"start\":0,\"end\":2"
    ".999973,\"seconds\":2.999973,\"bytes\":3501264,\"bits_per_second\":9"
    "336788.03109228,\"sender\":false}}],\"sum_sent\":{\"start\":0,\"end"
    "\":3.022915,\"seconds\":3.022915,\"bytes\":7232760,\"bits_per_second"
    "\":19141153.4892645,\"retransmits\":0,\"sender\":false},\"sum_receiv"
    "ed\":{\"start\":0,\"end\":2.999973,\"seconds\":2.999973,\"bytes\":72"
    "40000,\"bits_per_second\":19306840.42823052,\"sender\":false},\"send"
    "er_tcp_congestion\":\"bbr\",\"receiver_tcp_congestion\":\"bbr\"},\"s"
    "erver_output_json\":{\"start\":{\"connected\":[{\"socket\":5,\"local"
    "_host\":\"10.77.0.2\",\"local_port\":5201,\"remote_host\":\"10.77.0."
    "1\",\"remote_port\":51500},{\"socket\":8,\"local_host\":\"10.77.0.2"
    "\",\"local_port\":5201,\"remote_host\":\"10.77.0.1\",\"remote_port\""
    ":51506}],\"version\":\"iperf 3.12\",\"test_start\":{\"protocol\":\"T"
    "CP\",\"num_streams\":2,\"blksize\":131072,\"omit\":1,\"duration\":3,"
    "\"bytes\":0,\"blocks\":0,\"reverse\":1,\"tos\":0,\"target_bitrate\":"
    "0}},\"intervals\":[{\"streams\":[{\"socket\":5,\"start\":0,\"end\":1"
    ".000072,\"seconds\":1.0000720024108887,\"bytes\":1649272,\"bits_per_"
    "second\":13193226.055916574,\"retransmits\":0,\"snd_cwnd\":83984,\"s"
    "nd_wnd\":604160,\"rtt\":66596,\"rttvar\":1009,\"pmtu\":1500,\"omitte"
    "d\":true,\"sender\":true},{\"socket\":8,\"start\":0,\"end\":1.000079"
    ",\"seconds\":1.0000790357589722,\"bytes\":1584112,\"bits_per_second"
    "\":12671894.46720317,\"retransmits\":0,\"snd_cwnd\":78192,\"snd_wnd"
    "\":390144,\"rtt\":66414,\"rttvar\":1046,\"pmtu\":1500,\"omitted\":tr"
    "ue,\"sender\":true}],\"sum\":{\"start\":0,\"end\":1.000072,\"seconds"
    "\":1.0000720024108887,\"bytes\":3233384,\"bits_per_second\":25865209"
    ".6425476,\"retransmits\":0,\"omitted\":true,\"sender\":true}}],\"end"
    "\":{\"streams\":[{\"sender\":{\"socket\":5,\"start\":0,\"end\":3.022"
    "915,\"seconds\":3.022915,\"bytes\":3714120,\"bits_per_second\":98292"
    "40.980973663,\"retransmits\":0,\"max_snd_cwnd\":83984,\"max_snd_wnd"
    "\":604160,\"max_rtt\":66596,\"min_rtt\":57238,\"mean_rtt\":61615,\"s"
    "ender\":true},\"receiver\":{\"socket\":5,\"start\":0,\"end\":3.02291"
    "5,\"seconds\":3.022915,\"bytes\":0,\"bits_per_second\":0,\"sender\":"
    "true}},{\"sender\":{\"socket\":8,\"start\":0,\"end\":3.022915,\"seco"
    "nds\":3.022915,\"bytes\":3518640,\"bits_per_second\":9311912.5082908"
    "4,\"retransmits\":0,\"max_snd_cwnd\":78192,\"max_snd_wnd\":390144,\""
    "max_rtt\":66414,\"min_rtt\":57058,\"mean_rtt\":61782,\"sender\":true"
    "},\"receiver\":{\"socket\":8,\"start\":0,\"end\":3.022915,\"seconds"
    "\":3.022915,\"bytes\":0,\"bits_per_second\":0,\"sender\":true}}],\"s"
    "um_sent\":{\"start\":0,\"end\":3.022915,\"seconds\":3.022915,\"bytes"
    "\":7232760,\"bits_per_second\":19141153.4892645,\"retransmits\":0,\""
    "sender\":true},\"sum_received\":{\"start\":0,\"end\":3.022915,\"seco"
    "nds\":3.022915,\"bytes\":0,\"bits_per_second\":0,\"sender\":true},\""
    "sender_tcp_congestion\":\"bbr\"}}}";

static void
test_read_download(void **arg)
{
	struct mround	r;
	char		err[256];

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(download_json, DIR_DOWNLOAD, &r,
	    err, sizeof(err)), 0);
	assert_true(r.mbps > 19.30 && r.mbps < 19.31);
	assert_int_equal(r.bytes, 7240000);
	/* the server's: the smaller minimum, the mean of the means */
	assert_int_equal(r.rtt_us, 57058);
	assert_int_equal(r.rtt_load_us, (61615 + 61782) / 2);
	/* the server's retransmissions, passed on by libiperf itself */
	assert_true(r.has_retrans);
	assert_int_equal(r.retrans, 0);
	assert_null(r.load_unknown);
	/* an upload's reading of it: its own senders only, none here */
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(download_json, DIR_UPLOAD, &r,
	    err, sizeof(err)), 0);
	assert_int_equal(r.rtt_load_us, 0);
	assert_null(r.load_unknown);
}

/* A server without -J sends text; a server's report without RTTs. */
static void
test_read_download_unknown(void **arg)
{
	static const char text[] = "{\"end\": {\"streams\": [{\"sender\": "
	    "{\"min_rtt\": 0, \"mean_rtt\": 0}}], \"sum_sent\": "
	    "{\"retransmits\": 2}, \"sum_received\": {\"bits_per_second\": "
	    "8e6, \"bytes\": 1e6, \"seconds\": 1}},\n\"server_output_text\": "
	    "\"[  5]   0.00-1.00   sec  1.00 MBytes  8.00 Mbits/sec    2   "
	    "sender\\n\"}";
	static const char bare[] = "{\"end\": {\"sum_received\": "
	    "{\"bits_per_second\": 8e6, \"bytes\": 1e6, \"seconds\": 1}},"
	    "\"server_output_json\": {\"end\": {\"streams\": [{\"sender\": "
	    "{\"bytes\": 1e6}}]}}}";
	struct mround	r;
	char		err[256];

	(void)arg;
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(text, DIR_DOWNLOAD, &r, err,
	    sizeof(err)), 0);
	assert_int_equal(r.rtt_us, 0);
	assert_int_equal(r.rtt_load_us, 0);
	assert_true(r.has_retrans);
	assert_int_equal(r.retrans, 2);
	assert_non_null(r.load_unknown);
	assert_non_null(strstr(r.load_unknown, "as text"));
	assert_non_null(strstr(r.load_unknown, "iperf3 -s -J"));
	memset(&r, 0, sizeof(r));
	assert_int_equal(miperf_read_round(bare, DIR_DOWNLOAD, &r, err,
	    sizeof(err)), 0);
	assert_int_equal(r.rtt_load_us, 0);
	assert_non_null(r.load_unknown);
	assert_non_null(strstr(r.load_unknown, "has no round trips"));
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
		cmocka_unit_test(test_read_download),
		cmocka_unit_test(test_read_download_unknown),
		cmocka_unit_test(test_read_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
