/*
 * tcptunectl measure's verdict and report, on made-up rounds: faster,
 * slower, the two kinds of "no difference", inconclusive for spread and
 * for overlap, no comparison, medians, and the JSON and text shapes.
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
