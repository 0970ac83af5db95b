/*
 * measure --streams: the table and the verdict, from the two rates alone
 * (tests/unit/test_measure_report.c).  One stream held to a small share
 * of what N streams reach on the same path is held by a per-stream limit:
 * its window, that is this machine's or the server's socket buffers,
 * which buffer tuning addresses; one stream about as fast as N is not
 * window-limited, and bigger buffers will not make it faster.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "tcptunectl.h"
#include "json.h"
#include "measure.h"

static const char *const numbers[] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen"
};

static void
count_word(int n, char *buf, size_t len)
{
	if (n >= 0 && (size_t)n < NITEMS(numbers))
		tt_strlcpy(buf, numbers[n], len);
	else
		snprintf(buf, len, "%d", n);
}

/* The verdict on one stream's rate against n streams'. */
void
mstreams_verdict(const struct mstreams *one, const struct mstreams *many,
    char *buf, size_t len)
{
	double	share = many->rate_bps > 0 ? one->rate_bps / many->rate_bps : 1;
	char	n[16];

	count_word(many->streams, n, sizeof(n));
	if (share >= MEASURE_STREAMS_SAME)
		snprintf(buf, len, "one stream is as fast as %s: not a window "
		    "limit; bigger buffers will not make one stream faster", n);
	else if (share < MEASURE_STREAMS_HELD)
		snprintf(buf, len, "one stream gets %.0f %% of %s: a "
		    "per-stream limit, which buffer tuning addresses",
		    share * 100, n);
	else
		snprintf(buf, len, "one stream gets %.0f %% of %s: partly a "
		    "per-stream limit", share * 100, n);
}

void
mstreams_text(FILE *out, const char *shown, const struct mstreams *one,
    const struct mstreams *many)
{
	char	verdict[256];

	mstreams_verdict(one, many, verdict, sizeof(verdict));
	fprintf(out, "%s, the settings in force\n", shown);
	fprintf(out, "%-8s %14s\n", "streams", "Mbit/s");
	fprintf(out, "%-8d %14.1f\n", one->streams, one->rate_bps / 1e6);
	fprintf(out, "%-8d %14.1f\n", many->streams, many->rate_bps / 1e6);
	ctl_wrap(out, "", "", verdict, CTL_TEXT_WIDTH);
}

static void
json_row(struct json *j, const struct mstreams *r)
{
	json_open(j, NULL, '{');
	json_int(j, "streams", r->streams);
	json_uint(j, "rate_bps", (unsigned long long)r->rate_bps);
	json_uint(j, "bytes", (unsigned long long)r->bytes);
	json_close(j, '}');
}

void
mstreams_json(FILE *out, const char *shown, const struct mstreams *one,
    const struct mstreams *many)
{
	struct json	j;
	char		verdict[256];

	mstreams_verdict(one, many, verdict, sizeof(verdict));
	json_begin(&j, out);
	json_open(&j, NULL, '{');
	json_str(&j, "url", shown);
	json_open(&j, "streams", '[');
	json_row(&j, one);
	json_row(&j, many);
	json_close(&j, ']');
	json_num(&j, "share", many->rate_bps > 0 ?
	    one->rate_bps / many->rate_bps : 1);
	json_str(&j, "verdict", verdict);
	json_close(&j, '}');
	fputc('\n', out);
}
