/*
 * tcptunectl measure's verdict and report, on made-up rounds: faster,
 * slower, the two kinds of "no difference", inconclusive for spread and
 * for overlap, no comparison, medians, and the JSON and text shapes;
 * the URL as measure shows it (its password hidden), and hostile bytes
 * in the URL and the verdict escaped in both outputs.
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

#define MAXR	(MEASURE_ROUNDS_MAX * 2)

/* Rounds from pairs of steady rates, alternating original and tuned. */
struct rig {
	struct mround	r[MAXR];
	struct mreport	m;
};

static void
add(struct rig *g, enum measure_side side, double mbps, uint64_t rcvbuf,
    uint32_t rtt_us)
{
	struct mround	*r = &g->r[g->m.nrounds++];

	memset(r, 0, sizeof(*r));
	r->side = side;
	r->mbps = mbps * 0.8;
	r->mbps_steady = mbps;
	r->secs = 3;
	r->bytes = (uint64_t)(mbps * 1e6 / 8 * 3);
	r->rcvbuf = rcvbuf;
	r->rtt_us = rtt_us;
}

static void
rig_init(struct rig *g, bool compared)
{
	memset(g, 0, sizeof(*g));
	g->m.url = "http://example.test/file";
	g->m.seconds = 3;
	g->m.rounds = g->r;
	g->m.compared = compared;
}

static void
test_median(void **arg)
{
	double	odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	(void)arg;
	assert_true(median_of(odd, 3) == 2);
	assert_true(median_of(even, 4) == 2.5);
	assert_true(median_of(odd, 0) == 0);
}

static void
test_faster(void **arg)
{
	struct rig	g;
	int		i;
	double		o[] = { 181, 175, 190 }, t[] = { 612, 590, 640 };

	(void)arg;
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add(&g, SIDE_ORIGINAL, o[i], 6 << 20, 150000);
		add(&g, SIDE_TUNED, t[i], 40 << 20, 150000);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_FASTER);
	assert_true(g.m.verdict.ratio > 3.3 && g.m.verdict.ratio < 3.5);
	assert_string_equal(g.m.verdict.text, "tuned is 3.4x faster (median "
	    "612 vs 181 Mbit/s, 3 rounds each)");
	assert_int_equal(g.m.orig.n, 3);
	assert_true(g.m.orig.median == 181 && g.m.tuned.median == 612);
}

static void
test_slower(void **arg)
{
	struct rig	g;

	(void)arg;
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 500, 1 << 20, 20000);
	add(&g, SIDE_TUNED, 300, 8 << 20, 20000);
	add(&g, SIDE_ORIGINAL, 520, 1 << 20, 20000);
	add(&g, SIDE_TUNED, 310, 8 << 20, 20000);
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_SLOWER);
	assert_non_null(strstr(g.m.verdict.text, "tuned is 1.7x slower"));
	assert_non_null(strstr(g.m.verdict.text, "2 rounds each"));
}

/* Same rates, buffers alike: the original window was enough. */
static void
test_same_window(void **arg)
{
	struct rig	g;
	int		i;

	(void)arg;
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add(&g, SIDE_ORIGINAL, 900 + i, 2 << 20, 12000);
		add(&g, SIDE_TUNED, 905 - i, 2 << 20, 12000);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_SAME_WINDOW);
	assert_non_null(strstr(g.m.verdict.text, "no difference: at 12 ms "
	    "the original window already covers this path's "
	    "bandwidth-delay product"));
	assert_non_null(strstr(g.m.verdict.text, "1.3 MiB"));	/* BDP */
}

/* Same rates although the tuned buffer grew: something else limits. */
static void
test_same_limit(void **arg)
{
	struct rig	g;
	int		i;

	(void)arg;
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add(&g, SIDE_ORIGINAL, 95, 6 << 20, 40000);
		add(&g, SIDE_TUNED, 94 + i, 24 << 20, 40000);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_SAME_LIMIT);
	assert_non_null(strstr(g.m.verdict.text, "no difference: the server "
	    "or line limits this stream (both sides at ~95 Mbit/s"));
}

static void
test_inconclusive_spread(void **arg)
{
	struct rig	g;

	(void)arg;
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 100, 1 << 20, 0);
	add(&g, SIDE_TUNED, 110, 1 << 20, 0);
	add(&g, SIDE_ORIGINAL, 300, 1 << 20, 0);
	add(&g, SIDE_TUNED, 320, 1 << 20, 0);
	add(&g, SIDE_ORIGINAL, 200, 1 << 20, 0);
	add(&g, SIDE_TUNED, 210, 1 << 20, 0);
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(g.m.verdict.text, "inconclusive: rounds vary "
	    "by more than 50 %"));
}

/* The medians differ but a tuned round falls among the original ones. */
static void
test_inconclusive_overlap(void **arg)
{
	struct rig	g;

	(void)arg;
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 100, 1 << 20, 0);
	add(&g, SIDE_TUNED, 130, 1 << 20, 0);
	add(&g, SIDE_ORIGINAL, 104, 1 << 20, 0);
	add(&g, SIDE_TUNED, 102, 1 << 20, 0);
	add(&g, SIDE_ORIGINAL, 98, 1 << 20, 0);
	add(&g, SIDE_TUNED, 135, 1 << 20, 0);
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_INCONCLUSIVE);
	assert_non_null(strstr(g.m.verdict.text, "overlap"));
}

/* Without RTT the window verdict still reads, without the BDP sum. */
static void
test_same_window_no_rtt(void **arg)
{
	struct rig	g;

	(void)arg;
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 50, 1 << 20, 0);
	add(&g, SIDE_TUNED, 51, 1 << 20, 0);
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_SAME_WINDOW);
	assert_null(strstr(g.m.verdict.text, " ms"));
}

static void
test_no_comparison(void **arg)
{
	struct rig	g;

	(void)arg;
	rig_init(&g, false);
	snprintf(g.m.why_not, sizeof(g.m.why_not), "not root");
	add(&g, SIDE_CURRENT, 80, 1 << 20, 1000);
	add(&g, SIDE_CURRENT, 90, 1 << 20, 1000);
	add(&g, SIDE_CURRENT, 85, 1 << 20, 1000);
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_NO_COMPARISON);
	assert_true(g.m.verdict.ratio == 0);
	assert_string_equal(g.m.verdict.text, "no comparison made: not root; "
	    "the current settings: median 85 Mbit/s after the first second, "
	    "3 rounds");
}

/* The output, through a memory stream. */
static char *
render(struct mreport *m, bool json, bool chart)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json)
		mreport_json(f, m);
	else
		mreport_text(f, m, chart);
	fclose(f);
	return buf;
}

static void
test_outputs(void **arg)
{
	struct rig	 g;
	char		*out;

	(void)arg;
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 181, 6 << 20, 150000);
	add(&g, SIDE_TUNED, 612, 40 << 20, 150000);
	mreport_finish(&g.m);
	out = render(&g.m, true, false);
	assert_non_null(strstr(out, "\"compared\": true"));
	assert_non_null(strstr(out, "\"no_comparison_reason\": null"));
	assert_non_null(strstr(out, "\"kind\": \"faster\""));
	assert_non_null(strstr(out, "\"mbps_after_first_second\": 612"));
	assert_non_null(strstr(out, "\"rtt_ms\": 150"));
	free(out);
	out = render(&g.m, false, true);
	assert_non_null(strstr(out, "verdict: tuned is 3.4x faster"));
	assert_non_null(strstr(out, "########################################"
	    " 612 Mbit/s"));	/* the fastest round fills the bar */
	free(out);
	out = render(&g.m, false, false);
	assert_null(strstr(out, "###"));
	free(out);
}

/* ---- the URL as shown: measure_url.c */

struct redact_case {
	const char	*in, *want;
};

static void
check_redact(const struct redact_case *c, size_t n, bool text)
{
	char	out[4096];
	size_t	i, len;

	for (i = 0; i < n; i++) {
		len = text ? murl_redact_text(out, sizeof(out), c[i].in) :
		    murl_redact(out, sizeof(out), c[i].in);
		if (strcmp(out, c[i].want) != 0 || len != strlen(c[i].want))
			fail_msg("%s(\"%s\") = \"%s\" (%zu), want \"%s\"",
			    text ? "murl_redact_text" : "murl_redact", c[i].in,
			    out, len, c[i].want);
	}
}

static void
test_redact_url(void **arg)
{
	static const struct redact_case	c[] = {
		{ "https://user:pass@host/path", "https://***@host/path" },
		{ "http://user@host", "http://***@host" },
		{ "http://host/path", "http://host/path" },
		{ "", "" },
		/* an '@' after the authority is not userinfo */
		{ "http://host/a@b", "http://host/a@b" },
		{ "http://host?to=a@b", "http://host?to=a@b" },
		{ "http://host#a@b", "http://host#a@b" },
		{ "http://u:p@host:8080/x@y?z=@#@",
		    "http://***@host:8080/x@y?z=@#@" },
		/* to the last '@' of the authority: more hidden, not less */
		{ "http://a@b@host/", "http://***@host/" },
		{ "http://u:p@h@evil.test/x", "http://***@evil.test/x" },
		/* percent-encoding moves nothing */
		{ "http://u:p%40ss%2F@host/", "http://***@host/" },
		{ "http://host%40x/", "http://host%40x/" },
		/* IPv6 literals, a zone among them */
		{ "http://[::1]:8080/p@q", "http://[::1]:8080/p@q" },
		{ "http://u:p@[fe80::1%25eth0]:80/",
		    "http://***@[fe80::1%25eth0]:80/" },
		{ "http://user@[::1]/", "http://***@[::1]/" },
		/* the scheme in any case, any number of slashes */
		{ "HTTPS://U:P@Host", "HTTPS://***@Host" },
		{ "http:///u:p@host/", "http:///***@host/" },
		{ "http:\\\\u:p@host\\path", "http:\\\\***@host\\path" },
		/* no scheme: from the start, as curl guesses one */
		{ "user:pass@host/file", "***@host/file" },
		{ "http:user:pass@host", "***@host" },
		{ "host/file@x", "host/file@x" },
		/* empty userinfo, nothing after it, a space in it */
		{ "http://@host/", "http://***@host/" },
		{ "http://u:p@", "http://***@" },
		{ "http://u:p ss@host/", "http://***@host/" },
		/* the rest is kept for the escaper, byte for byte */
		{ "http://u\x1b:p\xc2\x9b@host/\x9b\xe2\x80\xae",
		    "http://***@host/\x9b\xe2\x80\xae" },
		/* a query's token is the user's to keep out (the man page) */
		{ "https://host/f?token=abc", "https://host/f?token=abc" },
	};

	(void)arg;
	check_redact(c, sizeof(c) / sizeof(c[0]), false);
}

/* libcurl's error text: every "scheme://" URL in it. */
static void
test_redact_text(void **arg)
{
	static const struct redact_case	c[] = {
		{ "Could not resolve host: example.test",
		    "Could not resolve host: example.test" },
		{ "URL 'http://u:p@h/x' and https://v:q@k?x=@ and ftp://w@z",
		    "URL 'http://***@h/x' and https://***@k?x=@ and ftp://***@z" },
		{ "ask me@mail.test, not http://h/a@b",
		    "ask me@mail.test, not http://h/a@b" },
		{ "x://a b@c", "x://a b@c" },
		{ "\"http://u:p@h\"", "\"http://***@h\"" },
		{ "<http://u:p@h>", "<http://***@h>" },
		{ "http:///u:p@h", "http:///***@h" },
	};

	(void)arg;
	check_redact(c, sizeof(c) / sizeof(c[0]), true);
}

/* As strlcpy(3): always ended, the whole length returned, nothing of
 * the password in a cut. */
static void
test_redact_cut(void **arg)
{
	const char	*url = "http://user:secret@host/path";
	char		 out[12], *big, *want;
	size_t		 len, i;

	(void)arg;
	len = murl_redact(NULL, 0, url);
	assert_int_equal(len, strlen("http://***@host/path"));
	for (i = 1; i <= sizeof(out); i++) {
		memset(out, 'X', sizeof(out));
		assert_int_equal(murl_redact(out, i, url), len);
		assert_int_equal(strlen(out), i - 1);
		assert_memory_equal(out, "http://***@host/path", i - 1);
	}
	/* a long password: the size needed, and all of it hidden */
	big = malloc(10000);
	want = malloc(10000);
	assert_non_null(big);
	assert_non_null(want);
	memcpy(big, "http://", 7);
	memset(big + 7, 's', 9000);
	strcpy(big + 9007, "@h/");
	len = murl_redact(NULL, 0, big);
	assert_int_equal(len, strlen("http://***@h/"));
	assert_int_equal(murl_redact(want, 10000, big), len);
	assert_string_equal(want, "http://***@h/");
	free(big);
	free(want);
}

/* No byte a terminal could act on: printable ASCII, tab and newline. */
static void
assert_plain(const char *out)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)out; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p >= 0x7f)
			fail_msg("byte 0x%02x at %zu in:\n%s", *p,
			    (size_t)(p - (const unsigned char *)out), out);
}

/*
 * C0, C1 (UTF-8 and raw) and bidi bytes in the URL and in the reason no
 * comparison was made (it quotes the socket path) reach neither output.
 */
static void
test_hostile_report(void **arg)
{
	struct rig	 g;
	char		*out;

	(void)arg;
	rig_init(&g, false);
	g.m.url = "http://host/\x1b[31m\x07\xc2\x9b\xe2\x80\xae\x9b";
	snprintf(g.m.why_not, sizeof(g.m.why_not), "no tcptuned answers on "
	    "/run/x\x1b]0;owned\x07\xc2\x9b" "2J\xe2\x80\xae.sock");
	add(&g, SIDE_CURRENT, 80, 1 << 20, 1000);
	mreport_finish(&g.m);
	out = render(&g.m, false, true);
	assert_plain(out);
	assert_non_null(strstr(out, "measure http://host/\\x1b[31m\\x07"
	    "\\u{009b}\\u{202e}\\x9b: "));
	assert_non_null(strstr(out, "/run/x\\x1b]0;owned\\x07\\u{009b}2J"
	    "\\u{202e}.sock"));
	free(out);
	out = render(&g.m, true, false);
	assert_plain(out);
	assert_non_null(strstr(out, "\"url\": \"http://host/\\u001b[31m"
	    "\\u0007\\u009b\\u202e\\ufffd\""));
	free(out);
}

/*
 * A short round trip reads as itself, never "0.0 ms"; the rcvwnd column
 * only when the kernel reported a window (macOS), else a note (Linux).
 */
/* A round of the upload kind: the sender's RTT under load, retransmits. */
static void
add_harm(struct rig *g, enum measure_side side, double mbps,
    uint32_t load_us, uint64_t retrans)
{
	struct mround	*r;

	add(g, side, mbps, 0, 20000);
	r = &g->r[g->m.nrounds - 1];
	r->rtt_load_us = load_us;
	r->retrans = retrans;
	r->has_retrans = true;
}

/* Faster, but the queue grew: the RTT under load, the retransmissions. */
static void
test_harm(void **arg)
{
	struct rig	 g;
	char		*out;
	int		 i;

	(void)arg;
	/* a send ceiling that fills the line's queue: 4x the RTT */
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add_harm(&g, SIDE_ORIGINAL, 12 + i, 21000 + 500 * i, 0);
		add_harm(&g, SIDE_TUNED, 19 + i, 80000 + 5000 * i, 0);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_FASTER);
	assert_true(g.m.verdict.harm);
	assert_string_equal(g.m.verdict.text, "faster, but the queue grew: "
	    "the round trip under load rose from 21.5 ms to 85.0 ms (median "
	    "of each side); tuned is 1.5x faster (median 20 vs 13 Mbit/s, 3 "
	    "rounds each)");
	out = render(&g.m, true, false);
	assert_non_null(strstr(out, "\"queue_grew\": true"));
	assert_non_null(strstr(out, "\"rtt_under_load_ms\": 85"));
	free(out);
	out = render(&g.m, false, false);
	assert_non_null(strstr(out, "load RTT  retrans\n"));
	free(out);
	/* retransmissions: 0.06 per MB against none */
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add_harm(&g, SIDE_ORIGINAL, 100 + i, 0, 0);
		add_harm(&g, SIDE_TUNED, 300 + i, 0, 2000);
	}
	mreport_finish(&g.m);
	assert_true(g.m.verdict.harm);
	assert_non_null(strstr(g.m.verdict.text, "faster, but the queue "
	    "grew: retransmissions rose from 0.0 to "));
}

/* No harm within the rounds' own spread, nor below the floors. */
static void
test_no_harm_in_spread(void **arg)
{
	struct rig	g;
	int		i;

	(void)arg;
	/* the medians 2x apart, but a tuned round within the original's */
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add_harm(&g, SIDE_ORIGINAL, 12, i == 2 ? 90000 : 21000, 0);
		add_harm(&g, SIDE_TUNED, 20, i == 0 ? 30000 : 60000, 0);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_FASTER);
	assert_false(g.m.verdict.harm);
	assert_string_equal(g.m.verdict.text, "tuned is 1.7x faster (median "
	    "20 vs 12 Mbit/s, 3 rounds each)");
	/* retransmissions that grew, but stay under the floor per MB */
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add_harm(&g, SIDE_ORIGINAL, 100, 0, 1);
		add_harm(&g, SIDE_TUNED, 300, 0, 20);
	}
	mreport_finish(&g.m);
	assert_false(g.m.verdict.harm);
	/* the same rates, a queue that grew: said after the verdict */
	rig_init(&g, true);
	for (i = 0; i < 3; i++) {
		add_harm(&g, SIDE_ORIGINAL, 100 + i, 20000, 0);
		add_harm(&g, SIDE_TUNED, 101 + i, 90000, 0);
	}
	mreport_finish(&g.m);
	assert_int_equal(g.m.verdict.kind, VERDICT_SAME_WINDOW);
	assert_true(g.m.verdict.harm);
	assert_non_null(strstr(g.m.verdict.text, "; and the queue grew: the "
	    "round trip under load rose from 20.0 ms to 90.0 ms"));
}

/* --both: one document, a report a direction. */
static void
test_both_directions(void **arg)
{
	struct rig	 d, u;
	char		*out;

	(void)arg;
	rig_init(&d, true);
	rig_init(&u, true);
	d.m.direction = "download";
	u.m.direction = "upload";
	add_harm(&d, SIDE_ORIGINAL, 100, 0, 0);
	add_harm(&d, SIDE_TUNED, 300, 0, 0);
	add_harm(&u, SIDE_ORIGINAL, 10, 20000, 0);
	add_harm(&u, SIDE_TUNED, 30, 90000, 0);
	mreport_finish(&d.m);
	mreport_finish(&u.m);
	d.m.upload = &u.m;
	out = render(&d.m, true, false);
	assert_non_null(strstr(out, "{\n  \"download\": {\n    \"url\""));
	assert_non_null(strstr(out, "\"upload\": {"));
	assert_non_null(strstr(out, "\"direction\": \"upload\""));
	free(out);
	out = render(&d.m, false, false);
	assert_non_null(strstr(out, "(download): 3 s per round"));
	assert_non_null(strstr(out, "(upload): 3 s per round"));
	assert_non_null(strstr(out, "verdict: faster, but the queue grew"));
	free(out);
}

static void
test_rtt_and_window(void **arg)
{
	struct rig	 g;
	char		*out, rtt[32];

	(void)arg;
	fmt_rtt(0, rtt, sizeof(rtt));
	assert_string_equal(rtt, "-");
	fmt_rtt(45, rtt, sizeof(rtt));
	assert_string_equal(rtt, "45 us");
	fmt_rtt(850, rtt, sizeof(rtt));
	assert_string_equal(rtt, "0.85 ms");
	fmt_rtt(150200, rtt, sizeof(rtt));
	assert_string_equal(rtt, "150.2 ms");
	rig_init(&g, false);
	add(&g, SIDE_CURRENT, 900, 6 << 20, 38);	/* loopback */
	add(&g, SIDE_CURRENT, 910, 6 << 20, 40);
	mreport_finish(&g.m);
	out = render(&g.m, false, false);
	assert_null(strstr(out, "0.0 ms"));
	assert_non_null(strstr(out, "38 us"));
	assert_null(strstr(out, "  rcvwnd"));
	/* running text, wrapped at 80 columns */
	assert_non_null(strstr(out, "(no rcvwnd column: the kernel does not "
	    "report the receive window here, as\n Linux's TCP_INFO does "
	    "not;"));
	free(out);
	g.r[0].rcvwnd = 4 << 20;			/* macOS gives one */
	out = render(&g.m, false, false);
	assert_non_null(strstr(out, "   rcvbuf     rcvwnd\n"));
	assert_non_null(strstr(out, "    4.0 MiB\n"));
	assert_null(strstr(out, "no rcvwnd column"));
	free(out);
	/* the same-window verdict at a sub-millisecond round trip */
	rig_init(&g, true);
	add(&g, SIDE_ORIGINAL, 900, 6 << 20, 300);
	add(&g, SIDE_TUNED, 905, 6 << 20, 300);
	mreport_finish(&g.m);
	assert_null(strstr(g.m.verdict.text, "0.0 ms"));
}

/* --streams: the three verdicts at their thresholds, and the JSON. */
static void
test_streams_verdict(void **arg)
{
	struct mstreams	 one = { 1, 0, 200e6 }, many = { 4, 0, 830e6 };
	char		 v[256], *doc = NULL;
	size_t		 len = 0;
	FILE		*f;

	(void)arg;
	mstreams_verdict(&one, &many, v, sizeof(v));
	assert_string_equal(v, "one stream gets 24 % of four: a per-stream "
	    "limit, which buffer tuning addresses");
	many.rate_bps = 250e6;	/* 80 % */
	mstreams_verdict(&one, &many, v, sizeof(v));
	assert_string_equal(v, "one stream is as fast as four: not a window "
	    "limit; bigger buffers will not make one stream faster");
	many.rate_bps = 300e6;	/* 67 % */
	mstreams_verdict(&one, &many, v, sizeof(v));
	assert_string_equal(v, "one stream gets 67 % of four: partly a "
	    "per-stream limit");
	many.rate_bps = 0;	/* nothing came: not a claim of a limit */
	mstreams_verdict(&one, &many, v, sizeof(v));
	assert_non_null(strstr(v, "as fast as"));
	many.rate_bps = 800e6;
	many.streams = 20;
	mstreams_verdict(&one, &many, v, sizeof(v));
	assert_non_null(strstr(v, "of 20:"));
	many.streams = 4;
	f = open_memstream(&doc, &len);
	assert_non_null(f);
	mstreams_json(f, "http://h/x", &one, &many);
	fclose(f);
	assert_non_null(strstr(doc, "\"streams\": 1,"));
	assert_non_null(strstr(doc, "\"streams\": 4,"));
	assert_non_null(strstr(doc, "\"rate_bps\": 200000000"));
	free(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_faster),
		cmocka_unit_test(test_slower),
		cmocka_unit_test(test_same_window),
		cmocka_unit_test(test_same_limit),
		cmocka_unit_test(test_inconclusive_spread),
		cmocka_unit_test(test_inconclusive_overlap),
		cmocka_unit_test(test_same_window_no_rtt),
		cmocka_unit_test(test_no_comparison),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_redact_url),
		cmocka_unit_test(test_redact_text),
		cmocka_unit_test(test_redact_cut),
		cmocka_unit_test(test_hostile_report),
		cmocka_unit_test(test_rtt_and_window),
		cmocka_unit_test(test_streams_verdict),
		cmocka_unit_test(test_harm),
		cmocka_unit_test(test_no_harm_in_spread),
		cmocka_unit_test(test_both_directions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
