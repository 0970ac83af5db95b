/*
 * tcptunectl measure: the verdict on the rounds, and the report as text
 * (a table, medians, the ratio, the verdict, a bar chart on a terminal)
 * or JSON.  Nothing here measures or talks to the daemon: the verdict is
 * a pure function of the rounds, tested in tests/unit/test_measure_report.c.
 *
 * The rules (tcptunectl(8) says the same):
 *   - each side is judged by the median of its rounds' rate after the
 *     first second (slow start is the same whatever the buffers);
 *   - faster or slower: the medians differ by VERDICT_RATIO or more and
 *     no round of one side falls within the range of the other's;
 *   - no difference: the medians are within VERDICT_RATIO and neither
 *     side's rounds spread by more than VERDICT_SPREAD of its median.
 *     Then the reason: if the tuned side's receive buffer grew
 *     VERDICT_BUF_GROWTH times past the original's and went no faster,
 *     something else (the server, the line) limits the stream; else the
 *     original window already held this path's bandwidth-delay product;
 *   - anything else is inconclusive, with why;
 *   - harm: where the rounds know the sender's round trip under load
 *     (its mean smoothed RTT; in a download the server's, when it sends
 *     its report, else the report says why it is unknown) or its
 *     retransmissions per MB, a tuned side whose median RTT under load
 *     is VERDICT_HARM_RTT times the original's, or whose retransmissions
 *     per MB are VERDICT_HARM_RETRANS times (and at least
 *     VERDICT_HARM_RETRANS_MIN), with no tuned round within the
 *     original rounds' range, made the queue grow: a faster verdict
 *     reads "faster, but the queue grew: ...", any other says it too.
 *     Within the rounds' own spread nothing is called harm, as nothing
 *     is called a win.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"
#include "tcptunectl.h"
#include "json.h"
#include "measure.h"

#define BAR_WIDTH	40

const char *
side_name(enum measure_side side)
{
	switch (side) {
	case SIDE_ORIGINAL:	return "original";
	case SIDE_TUNED:	return "tuned";
	default:		return "current";
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], which it sorts; 0 for none. */
double
median_of(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The smallest and largest of v[0..n-1]; 0 for none. */
static void
range_of(const double *v, int n, double *min, double *max)
{
	int	i;

	*min = *max = 0;
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i] < *min)
			*min = v[i];
		if (i == 0 || v[i] > *max)
			*max = v[i];
	}
}

void
side_stats(const struct mround *r, int n, enum measure_side side,
    struct side_stats *st)
{
	double	steady[MEASURE_ROUNDS_MAX * 2], whole[MEASURE_ROUNDS_MAX * 2];
	double	rtt[MEASURE_ROUNDS_MAX * 2], buf[MEASURE_ROUNDS_MAX * 2];
	double	load[MEASURE_ROUNDS_MAX * 2], rtx[MEASURE_ROUNDS_MAX * 2];
	int	i, nrtt = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < n && st->n < MEASURE_ROUNDS_MAX * 2; i++) {
		if (r[i].side != side)
			continue;
		steady[st->n] = r[i].mbps_steady;
		whole[st->n] = r[i].mbps;
		buf[st->n] = (double)r[i].rcvbuf;
		if (st->n == 0 || r[i].mbps_steady < st->min)
			st->min = r[i].mbps_steady;
		if (st->n == 0 || r[i].mbps_steady > st->max)
			st->max = r[i].mbps_steady;
		if (r[i].rtt_us != 0)
			rtt[nrtt++] = r[i].rtt_us;
		if (r[i].rtt_load_us != 0)
			load[st->nload++] = r[i].rtt_load_us;
		if (r[i].has_retrans && r[i].bytes > 0)
			rtx[st->nretrans++] = r[i].retrans /
			    (r[i].bytes / 1e6);
		st->n++;
	}
	range_of(load, st->nload, &st->load_min, &st->load_max);
	range_of(rtx, st->nretrans, &st->rtx_min, &st->rtx_max);
	st->load_median = median_of(load, st->nload);
	st->rtx_median = median_of(rtx, st->nretrans);
	st->median = median_of(steady, st->n);
	st->median_whole = median_of(whole, st->n);
	st->rcvbuf = (uint64_t)median_of(buf, st->n);
	st->rtt_us = (uint32_t)median_of(rtt, nrtt);
}

/* 6.0 MiB, 512 KiB, 900 B */
static void
fmt_bytes(double b, char *buf, size_t len)
{
	if (b >= 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else if (b >= 1024.0)
		snprintf(buf, len, "%.0f KiB", b / 1024.0);
	else
		snprintf(buf, len, "%.0f B", b);
}

static double
spread(const struct side_stats *s)
{
	return s->median > 0 ? (s->max - s->min) / s->median : INFINITY;
}

static void
rounds_phrase(const struct side_stats *a, const struct side_stats *b,
    char *buf, size_t len)
{
	if (a->n == b->n)
		snprintf(buf, len, "%d round%s each", a->n,
		    a->n == 1 ? "" : "s");
	else
		snprintf(buf, len, "%d and %d rounds", b->n, a->n);
}

/*
 * A round trip as read from TCP_INFO (microseconds): "45 us" below
 * 0.1 ms (loopback, a LAN), "0.85 ms" below 10 ms, else "150.2 ms" -- so
 * a short path never reads "0.0 ms".
 */
void
fmt_rtt(uint32_t us, char *buf, size_t len)
{
	if (us == 0)
		snprintf(buf, len, "-");
	else if (us < 100)
		snprintf(buf, len, "%u us", us);
	else if (us < 10000)
		snprintf(buf, len, "%.2f ms", us / 1000.0);
	else
		snprintf(buf, len, "%.1f ms", us / 1000.0);
}

static void
judge_same(const struct side_stats *o, const struct side_stats *t,
    struct verdict *v)
{
	char	bdp[32], ob[32], tb[32], rtt[32];
	double	rtt_ms = o->rtt_us / 1000.0;

	fmt_bytes((double)o->rcvbuf, ob, sizeof(ob));
	fmt_bytes((double)t->rcvbuf, tb, sizeof(tb));
	if ((double)t->rcvbuf >= VERDICT_BUF_GROWTH * (double)o->rcvbuf &&
	    o->rcvbuf > 0) {
		v->kind = VERDICT_SAME_LIMIT;
		snprintf(v->text, sizeof(v->text), "no difference: the server "
		    "or line limits this stream (both sides at ~%.0f Mbit/s, "
		    "though the tuned receive buffer grew to %s against %s)",
		    (o->median + t->median) / 2, tb, ob);
		return;
	}
	v->kind = VERDICT_SAME_WINDOW;
	if (o->rcvbuf == 0 && t->rcvbuf == 0) {	/* iperf3: not known */
		snprintf(v->text, sizeof(v->text), "no difference: the "
		    "original window already covers this path's "
		    "bandwidth-delay product, or something else limits it");
		return;
	}
	if (o->rtt_us == 0) {
		snprintf(v->text, sizeof(v->text), "no difference: the "
		    "original window already covers this path's "
		    "bandwidth-delay product (receive buffer %s original, %s "
		    "tuned)", ob, tb);
		return;
	}
	fmt_bytes(o->median * 1e6 / 8 * rtt_ms / 1000, bdp, sizeof(bdp));
	if (o->rtt_us >= 10000)		/* "at 12 ms", as before */
		snprintf(rtt, sizeof(rtt), "%.0f ms", rtt_ms);
	else
		fmt_rtt(o->rtt_us, rtt, sizeof(rtt));
	snprintf(v->text, sizeof(v->text), "no difference: at %s the "
	    "original window already covers this path's bandwidth-delay "
	    "product (%.0f Mbit/s x %s = %s; receive buffer %s original, "
	    "%s tuned)", rtt, o->median, rtt, bdp, ob, tb);
}

/*
 * Whether the tuned side t raised the sender's RTT under load or its
 * retransmissions past the original side o's, beyond both sides' spread;
 * what grew in buf.
 */
static bool
queue_grew(const struct side_stats *o, const struct side_stats *t,
    char *buf, size_t len)
{
	char	a[32], b[32];
	bool	rtt, rtx;

	rtt = o->nload > 0 && t->nload > 0 &&
	    t->load_median >= VERDICT_HARM_RTT * o->load_median &&
	    t->load_min > o->load_max;
	rtx = o->nretrans > 0 && t->nretrans > 0 &&
	    t->rtx_median >= VERDICT_HARM_RETRANS_MIN &&
	    t->rtx_median >= VERDICT_HARM_RETRANS * o->rtx_median &&
	    t->rtx_min > o->rtx_max;
	buf[0] = '\0';
	if (rtt) {
		fmt_rtt((uint32_t)o->load_median, a, sizeof(a));
		fmt_rtt((uint32_t)t->load_median, b, sizeof(b));
		snprintf(buf, len, "the round trip under load rose from %s "
		    "to %s", a, b);
	}
	if (rtx)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s"
		    "retransmissions rose from %.1f to %.1f per MB",
		    rtt ? " and " : "", o->rtx_median, t->rtx_median);
	return rtt || rtx;
}

/* The harm, if any, said in v: first for a faster side, else after. */
static void
judge_harm(const struct side_stats *o, const struct side_stats *t,
    struct verdict *v)
{
	char	what[256], was[sizeof(v->text)];
	char	all[sizeof(was) + sizeof(what) + 64];	/* cut to v->text */

	if (v->kind == VERDICT_INCONCLUSIVE || !queue_grew(o, t, what,
	    sizeof(what)))
		return;
	v->harm = true;
	tt_strlcpy(was, v->text, sizeof(was));
	if (v->kind == VERDICT_FASTER)
		snprintf(all, sizeof(all), "faster, but the queue grew: %s "
		    "(median of each side); %s", what, was);
	else
		snprintf(all, sizeof(all), "%s; and the queue grew: %s "
		    "(median of each side)", was, what);
	tt_strlcpy(v->text, all, sizeof(v->text));
}

static void judge_speed(const struct side_stats *, const struct side_stats *,
    struct verdict *);

/* The verdict on the original side o against the tuned side t. */
void
judge(const struct side_stats *o, const struct side_stats *t,
    struct verdict *v)
{
	judge_speed(o, t, v);
	judge_harm(o, t, v);
}

/* The rate's verdict alone. */
static void
judge_speed(const struct side_stats *o, const struct side_stats *t,
    struct verdict *v)
{
	char	rounds[64];
	bool	apart = t->min > o->max || t->max < o->min;
	bool	steady = spread(o) <= VERDICT_SPREAD &&
		    spread(t) <= VERDICT_SPREAD;

	memset(v, 0, sizeof(*v));
	rounds_phrase(o, t, rounds, sizeof(rounds));
	if (o->n == 0 || t->n == 0 || o->median <= 0 || t->median <= 0) {
		v->kind = VERDICT_INCONCLUSIVE;
		snprintf(v->text, sizeof(v->text), "inconclusive: a side has "
		    "no rounds that moved data");
		return;
	}
	v->ratio = t->median / o->median;
	if (v->ratio >= VERDICT_RATIO && apart) {
		v->kind = VERDICT_FASTER;
		snprintf(v->text, sizeof(v->text), "tuned is %.1fx faster "
		    "(median %.0f vs %.0f Mbit/s, %s)", v->ratio, t->median,
		    o->median, rounds);
	} else if (v->ratio <= 1 / VERDICT_RATIO && apart) {
		v->kind = VERDICT_SLOWER;
		snprintf(v->text, sizeof(v->text), "tuned is %.1fx slower "
		    "(median %.0f vs %.0f Mbit/s, %s)", 1 / v->ratio,
		    t->median, o->median, rounds);
	} else if (v->ratio < VERDICT_RATIO && v->ratio > 1 / VERDICT_RATIO &&
	    steady)
		judge_same(o, t, v);
	else if (!steady) {
		v->kind = VERDICT_INCONCLUSIVE;
		snprintf(v->text, sizeof(v->text), "inconclusive: rounds vary "
		    "by more than %.0f %% of their median (original %.0f-%.0f, "
		    "tuned %.0f-%.0f Mbit/s); try more rounds (-n) or longer "
		    "ones (-t)", VERDICT_SPREAD * 100, o->min, o->max, t->min,
		    t->max);
	} else {
		v->kind = VERDICT_INCONCLUSIVE;
		snprintf(v->text, sizeof(v->text), "inconclusive: the medians "
		    "differ (%.0f vs %.0f Mbit/s) but the rounds of the two "
		    "sides overlap; try more rounds (-n)", t->median,
		    o->median);
	}
}

/* Statistics and verdict once every round is in. */
void
mreport_finish(struct mreport *m)
{
	side_stats(m->rounds, m->nrounds, SIDE_ORIGINAL, &m->orig);
	side_stats(m->rounds, m->nrounds, SIDE_TUNED, &m->tuned);
	side_stats(m->rounds, m->nrounds, SIDE_CURRENT, &m->current);
	if (m->compared) {
		judge(&m->orig, &m->tuned, &m->verdict);
		return;
	}
	memset(&m->verdict, 0, sizeof(m->verdict));
	m->verdict.kind = VERDICT_NO_COMPARISON;
	snprintf(m->verdict.text, sizeof(m->verdict.text), "no comparison "
	    "made: %s; the current settings: median %.0f Mbit/s after the "
	    "first second, %d round%s", m->why_not, m->current.median,
	    m->current.n, m->current.n == 1 ? "" : "s");
}

static const char *
verdict_name(enum verdict_kind k)
{
	switch (k) {
	case VERDICT_FASTER:		return "faster";
	case VERDICT_SLOWER:		return "slower";
	case VERDICT_SAME_WINDOW:	return "same_window";
	case VERDICT_SAME_LIMIT:	return "same_limited";
	case VERDICT_INCONCLUSIVE:	return "inconclusive";
	default:			return "no_comparison";
	}
}

/* ---- text */

/*
 * s escaped onto f (lib/util.c): the report quotes the URL and, in the
 * verdict, the socket path, both the user's and either may hold anything.
 * After a first-line label, as running text within CTL_TEXT_WIDTH columns.
 */
static void
put_safe_wrapped(FILE *f, const char *label, const char *s)
{
	char	 small[256], *buf = small;
	size_t	 len = tt_escape(small, sizeof(small), s) + 1;

	if (len > sizeof(small) && (buf = malloc(len)) != NULL)
		tt_escape(buf, len, s);
	ctl_wrap(f, label, "  ", buf != NULL ? buf : small, CTL_TEXT_WIDTH);
	if (buf != small)
		free(buf);
}


/* A receive buffer, "-" when unknown (an iperf3 test does not say). */
static void
fmt_buf(uint64_t b, char *buf, size_t len)
{
	if (b == 0)
		snprintf(buf, len, "-");
	else
		fmt_bytes((double)b, buf, len);
}

/* Whether any round knows its receive buffer: the http(s) form's do. */
static bool
has_rcvbuf(const struct mreport *m)
{
	int	i;

	for (i = 0; i < m->nrounds; i++)
		if (m->rounds[i].rcvbuf != 0)
			return true;
	return false;
}

/* Whether the kernel gave a receive window at all (not Linux's TCP_INFO). */
static bool
has_rcvwnd(const struct mreport *m)
{
	int	i;

	for (i = 0; i < m->nrounds; i++)
		if (m->rounds[i].rcvwnd != 0)
			return true;
	return false;
}

/* Whether a round knows the sender's RTT under load or retransmissions. */
static bool
has_harm(const struct mreport *m)
{
	int	i;

	for (i = 0; i < m->nrounds; i++)
		if (m->rounds[i].rtt_load_us != 0 || m->rounds[i].has_retrans)
			return true;
	return false;
}

/*
 * Why the sender's round trip under load is unknown, where a round says
 * (an iperf3 download from a server that does not send it); else NULL.
 */
static const char *
load_unknown(const struct mreport *m)
{
	int	i;

	for (i = 0; i < m->nrounds; i++)
		if (m->rounds[i].load_unknown != NULL)
			return m->rounds[i].load_unknown;
	return NULL;
}

static void
text_harm(FILE *f, const struct mround *r)
{
	char	load[32], rtx[32];

	fmt_rtt(r->rtt_load_us, load, sizeof(load));
	if (r->has_retrans)
		snprintf(rtx, sizeof(rtx), "%llu",
		    (unsigned long long)r->retrans);
	else
		snprintf(rtx, sizeof(rtx), "-");
	fprintf(f, "  %9s  %7s", load, rtx);
}

/*
 * The table's optional columns.  An iperf3 round knows no receive
 * buffer, and its time is -t: without rcvbuf the time goes too, which
 * keeps the load RTT and retrans columns within 80.
 */
struct cols {
	bool	buf;		/* time and rcvbuf: the http(s) form's */
	bool	wnd;		/* rcvwnd: where the kernel gives it */
	bool	harm;		/* load RTT and retrans: iperf3's */
};

static void
text_round(FILE *f, int i, const struct mround *r, const struct cols *c)
{
	char	bytes[32], buf[32], rtt[32], wnd[32];

	fmt_bytes((double)r->bytes, bytes, sizeof(bytes));
	fmt_buf(r->rcvbuf, buf, sizeof(buf));
	fmt_rtt(r->rtt_us, rtt, sizeof(rtt));
	if (r->rcvwnd != 0)
		fmt_bytes((double)r->rcvwnd, wnd, sizeof(wnd));
	else
		snprintf(wnd, sizeof(wnd), "-");
	fprintf(f, "%5d  %-8s  %8.1f  %8.1f  %10s", i + 1, side_name(r->side),
	    r->mbps, r->mbps_steady, bytes);
	if (c->buf)
		fprintf(f, "  %6.1f s  %9s  %9s", r->secs, rtt, buf);
	else
		fprintf(f, "  %9s", rtt);
	if (c->wnd)
		fprintf(f, "  %9s", wnd);
	if (c->harm)
		text_harm(f, r);
	fprintf(f, "%s\n", r->ended ? "  (body ended)" : "");
}

static void
text_median(FILE *f, const struct side_stats *s, enum measure_side side,
    const struct cols *c)
{
	char	buf[32], rtt[32], load[32];

	if (s->n == 0)
		return;
	fmt_buf(s->rcvbuf, buf, sizeof(buf));
	fmt_rtt(s->rtt_us, rtt, sizeof(rtt));
	fprintf(f, "%-6s %-8s  %8.1f  %8.1f  %10s", "median", side_name(side),
	    s->median_whole, s->median, "");
	if (c->buf)
		fprintf(f, "  %8s  %9s  %9s", "", rtt, buf);
	else
		fprintf(f, "  %9s", rtt);
	if (c->harm && s->nload > 0) {
		fmt_rtt((uint32_t)s->load_median, load, sizeof(load));
		fprintf(f, "  %9s", load);
	}
	fputc('\n', f);
}

static void
text_bars(FILE *f, const struct mreport *m)
{
	double	top = 0;
	int	i, n;

	for (i = 0; i < m->nrounds; i++)
		if (m->rounds[i].mbps_steady > top)
			top = m->rounds[i].mbps_steady;
	if (top <= 0)
		return;
	fputc('\n', f);
	for (i = 0; i < m->nrounds; i++) {
		const struct mround *r = &m->rounds[i];

		n = (int)lround(r->mbps_steady / top * BAR_WIDTH);
		fprintf(f, "%3d %-8s |%.*s%*s %.0f Mbit/s\n", i + 1,
		    side_name(r->side), n,
		    "########################################", BAR_WIDTH - n,
		    "", r->mbps_steady);
	}
}

/*
 * The head line: the direction is named when it is not the download
 * alone (the http(s) form's only one).
 */
static void
text_head(FILE *f, const struct mreport *m, bool both)
{
	char	head[2048];	/* a URL, cut past that */
	bool	named = m->direction != NULL &&
		    (both || strcmp(m->direction, "upload") == 0);

	snprintf(head, sizeof(head), "%s%s%s%s: %u s per round, %s", m->url,
	    named ? " (" : "", named ? m->direction : "", named ? ")" : "",
	    m->seconds, m->compared ? "original and tuned values in turn" :
	    "current settings only");
	put_safe_wrapped(f, "measure ", head);
}

static void text_one(FILE *, const struct mreport *, bool, bool);

/* The report, and with --both the upload's after the download's. */
void
mreport_text(FILE *f, const struct mreport *m, bool chart)
{
	text_one(f, m, chart, m->upload != NULL);
	if (m->upload != NULL) {
		fputc('\n', f);
		text_one(f, m->upload, chart, true);
	}
}

static void
text_one(FILE *f, const struct mreport *m, bool chart, bool both)
{
	struct cols	c = { has_rcvbuf(m), has_rcvwnd(m), has_harm(m) };
	int		i;

	text_head(f, m, both);
	if (m->compared && !m->metrics_cleared) {
		char	note[sizeof(m->metrics_why) + 160];

		snprintf(note, sizeof(note), "the kernel's cached metrics for "
		    "the server could not be cleared before each round (%s): a "
		    "round may start from the ssthresh and RTT the one before "
		    "it left)", m->metrics_why);
		ctl_wrap(f, "(", " ", note, CTL_TEXT_WIDTH);
	}
	fputc('\n', f);
	fprintf(f, "%5s  %-8s  %8s  %8s  %10s", "round", "side", "Mbit/s",
	    "after 1s", "bytes");
	if (c.buf)
		fprintf(f, "  %8s  %9s  %9s", "time", "RTT", "rcvbuf");
	else
		fprintf(f, "  %9s", "RTT");
	if (c.wnd)
		fprintf(f, "  %9s", "rcvwnd");
	if (c.harm)
		fprintf(f, "  %9s  %7s", "load RTT", "retrans");
	fputc('\n', f);
	for (i = 0; i < m->nrounds; i++)
		text_round(f, i, &m->rounds[i], &c);
	text_median(f, &m->orig, SIDE_ORIGINAL, &c);
	text_median(f, &m->tuned, SIDE_TUNED, &c);
	text_median(f, &m->current, SIDE_CURRENT, &c);
	if (!c.wnd && c.buf)
		ctl_wrap(f, "(", " ", "no rcvwnd column: the kernel does not "
		    "report the receive window here, as Linux's TCP_INFO does "
		    "not; rcvbuf is the buffer autotuning grew, SO_RCVBUF)",
		    CTL_TEXT_WIDTH);
	if (load_unknown(m) != NULL) {
		char	note[256];

		snprintf(note, sizeof(note), "the round trip under load is "
		    "unknown: %s)", load_unknown(m));
		ctl_wrap(f, "(", " ", note, CTL_TEXT_WIDTH);
	}
	if (m->compared && m->verdict.ratio > 0)
		fprintf(f, "ratio  tuned / original: %.2f (medians after the "
		    "first second)\n", m->verdict.ratio);
	if (chart)
		text_bars(f, m);
	fputc('\n', f);
	put_safe_wrapped(f, "verdict: ", m->verdict.text);
}

/* ---- json */

static void
json_side(struct json *js, const char *key, const struct side_stats *s)
{
	if (s->n == 0) {
		json_null(js, key);
		return;
	}
	json_open(js, key, '{');
	json_int(js, "rounds", s->n);
	json_num(js, "median_mbps", s->median);
	json_num(js, "min_mbps", s->min);
	json_num(js, "max_mbps", s->max);
	json_num(js, "median_mbps_whole", s->median_whole);
	if (s->rtt_us != 0)
		json_num(js, "rtt_ms", s->rtt_us / 1000.0);
	else
		json_null(js, "rtt_ms");
	json_uint(js, "rcvbuf", s->rcvbuf);
	if (s->nload > 0)
		json_num(js, "rtt_under_load_ms", s->load_median / 1000.0);
	else
		json_null(js, "rtt_under_load_ms");
	if (s->nretrans > 0)
		json_num(js, "retransmits_per_mb", s->rtx_median);
	else
		json_null(js, "retransmits_per_mb");
	json_close(js, '}');
}

static void
json_round(struct json *js, int i, const struct mround *r)
{
	json_open(js, NULL, '{');
	json_int(js, "round", i + 1);
	json_str(js, "side", side_name(r->side));
	json_num(js, "mbps", r->mbps);
	json_num(js, "mbps_after_first_second", r->mbps_steady);
	json_uint(js, "bytes", r->bytes);
	json_num(js, "seconds", r->secs);
	if (r->rtt_us != 0)
		json_num(js, "rtt_ms", r->rtt_us / 1000.0);
	else
		json_null(js, "rtt_ms");
	json_uint(js, "rcvbuf", r->rcvbuf);
	if (r->rcvwnd != 0)
		json_uint(js, "rcvwnd", r->rcvwnd);
	else
		json_null(js, "rcvwnd");
	json_bool(js, "body_ended", r->ended);
	if (r->rtt_load_us != 0)
		json_num(js, "rtt_under_load_ms", r->rtt_load_us / 1000.0);
	else
		json_null(js, "rtt_under_load_ms");
	if (r->has_retrans)
		json_uint(js, "retransmits", r->retrans);
	else
		json_null(js, "retransmits");
	json_close(js, '}');
}

/* One direction's report as an object, under key (NULL: at the top). */
static void
json_report(struct json *js, const char *key, const struct mreport *m)
{
	int	i;

	json_open(js, key, '{');
	json_str(js, "url", m->url);
	json_str(js, "direction", m->direction != NULL ? m->direction :
	    "download");
	json_uint(js, "seconds", m->seconds);
	json_bool(js, "compared", m->compared);
	json_str(js, "no_comparison_reason", m->compared ? NULL : m->why_not);
	json_bool(js, "tcp_metrics_cleared", m->metrics_cleared);
	json_str(js, "tcp_metrics_not_cleared_reason", m->metrics_cleared ?
	    NULL : m->metrics_why);
	json_str(js, "rtt_under_load_unknown_reason", load_unknown(m));
	json_open(js, "rounds", '[');
	for (i = 0; i < m->nrounds; i++)
		json_round(js, i, &m->rounds[i]);
	json_close(js, ']');
	json_side(js, "original", &m->orig);
	json_side(js, "tuned", &m->tuned);
	json_side(js, "current", &m->current);
	if (m->verdict.ratio > 0)
		json_num(js, "ratio", m->verdict.ratio);
	else
		json_null(js, "ratio");
	json_open(js, "verdict", '{');
	json_str(js, "kind", verdict_name(m->verdict.kind));
	json_str(js, "text", m->verdict.text);
	json_bool(js, "queue_grew", m->verdict.harm);
	json_close(js, '}');
	json_close(js, '}');
}

/*
 * The report as one document; with --both, the download's and the
 * upload's under "download" and "upload".
 */
void
mreport_json(FILE *f, const struct mreport *m)
{
	struct json	js;

	json_begin(&js, f);
	if (m->upload == NULL)
		json_report(&js, NULL, m);
	else {
		json_open(&js, NULL, '{');
		json_report(&js, "download", m);
		json_report(&js, "upload", m->upload);
		json_close(&js, '}');
	}
	fputc('\n', f);
}
