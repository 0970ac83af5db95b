/*
 * tcptunectl measure --streams N: the same URL over one TCP connection,
 * then over N at once, on the settings in force, through libcurl's multi
 * interface (one easy handle per connection, each on a fresh connection
 * of its own).  The question it answers is the one the tuning guides
 * start from: when one stream is slow and N are fast, each stream is
 * held by a per-stream limit (its window, that is the socket buffers);
 * when one is as fast as N, the window is not the limit.  The rates and
 * the verdict are measure_streams_report.c's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tcptunectl.h"
#include "measure.h"

#define STREAMS_BUFFER	(256 * 1024)
#define STREAMS_POLL_MS	100

struct streams_run {
	double		 t_first;	/* first byte on any stream; 0 none */
	double		 t_1s;		/* one second later, when reached */
	double		 t_last;
	uint64_t	 bytes, bytes_1s;
};

static double
now_sec(void)
{
	return tt_mono_ms() / 1000.0;
}

static size_t
on_bytes(char *data, size_t size, size_t n, void *arg)
{
	struct streams_run	*s = arg;
	double			 now = now_sec();

	(void)data;
	if (s->t_first == 0)
		s->t_first = now;
	if (s->t_1s == 0 && now - s->t_first >= 1.0) {
		s->t_1s = now;
		s->bytes_1s = s->bytes;
	}
	s->bytes += size * n;
	s->t_last = now;
	return size * n;
}

static CURL *
stream_handle(const char *url, struct streams_run *s, char *errbuf)
{
	CURL	*h;

	if ((h = curl_easy_init()) == NULL)
		return NULL;
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, (long)MEASURE_STALL_SEC);
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, (long)STREAMS_BUFFER);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_bytes);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, s);
	if (mnet_easy_common(h, url, errbuf) == -1) {
		curl_easy_cleanup(h);
		return NULL;
	}
	return h;
}

/* A failed stream: one line and measure's exit status for it. */
static int
stream_fault(CURLcode rc, const char *shown, const char *errbuf,
    struct mfault *f)
{
	int	code;

	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
		code = MEX_UNREACHABLE;
		break;
	case CURLE_HTTP_RETURNED_ERROR:
	case CURLE_TOO_MANY_REDIRECTS:
	case CURLE_UNSUPPORTED_PROTOCOL:
		code = MEX_HTTP;
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
		code = MEX_TLS;
		break;
	default:
		code = MEX_STALLED;
		break;
	}
	f->code = code;
	snprintf(f->text, sizeof(f->text), "%s: %s", shown, errbuf[0] ?
	    errbuf : curl_easy_strerror(rc));
	return -1;
}

/* Until every stream ended, the time is up, or one failed; 0 or -1. */
static int
drive(CURLM *m, const struct mnet_opts *o, struct streams_run *s,
    const char *errbuf, struct mfault *f)
{
	CURLMsg	*msg;
	int	 running = 1, left;

	while (running > 0) {
		if (*o->interrupted) {
			f->code = MEX_INTERRUPTED;
			tt_strlcpy(f->text, "interrupted", sizeof(f->text));
			return -1;
		}
		curl_multi_perform(m, &running);
		while ((msg = curl_multi_info_read(m, &left)) != NULL)
			if (msg->msg == CURLMSG_DONE &&
			    msg->data.result != CURLE_OK)
				return stream_fault(msg->data.result, o->shown,
				    errbuf, f);
		if (s->t_first > 0 && now_sec() - s->t_first >= o->seconds)
			break;
		curl_multi_poll(m, NULL, 0, STREAMS_POLL_MS, NULL);
	}
	return 0;
}

/* The rate after the first second, as measure's steady rate; else whole. */
static int
finish(const struct streams_run *s, const struct mnet_opts *o, int n,
    struct mstreams *r, struct mfault *f)
{
	double	whole = s->t_last - s->t_first;

	r->streams = n;
	r->bytes = s->bytes;
	if (s->t_first == 0 || whole < MEASURE_MIN_SEC) {
		f->code = MEX_SHORT;
		snprintf(f->text, sizeof(f->text), "%s: the body is too short "
		    "to measure: %llu bytes in %.2f s over %d stream%s",
		    o->shown, (unsigned long long)s->bytes, whole, n,
		    n == 1 ? "" : "s");
		return -1;
	}
	if (s->t_1s > 0 && s->t_last - s->t_1s >= 0.25)
		r->rate_bps = (s->bytes - s->bytes_1s) * 8 /
		    (s->t_last - s->t_1s);
	else
		r->rate_bps = s->bytes * 8 / whole;
	return 0;
}

/* n downloads of o->url at once for o->seconds; 0, or -1 and *f. */
int
mstreams_transfer(const struct mnet_opts *o, int n, struct mstreams *r,
    struct mfault *f)
{
	struct streams_run	 s;
	CURL			*h[MEASURE_STREAMS_MAX];
	CURLM			*m;
	char			 errbuf[CURL_ERROR_SIZE];
	int			 i, rv = -1;

	memset(&s, 0, sizeof(s));
	memset(f, 0, sizeof(*f));
	memset(h, 0, sizeof(h));
	errbuf[0] = '\0';
	if ((m = curl_multi_init()) == NULL) {
		f->code = CTL_FAIL;
		tt_strlcpy(f->text, "libcurl: cannot start", sizeof(f->text));
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((h[i] = stream_handle(o->url, &s, errbuf)) == NULL ||
		    curl_multi_add_handle(m, h[i]) != CURLM_OK)
			break;
	if (i < n) {
		f->code = CTL_FAIL;
		tt_strlcpy(f->text, "libcurl: cannot start", sizeof(f->text));
	} else if (drive(m, o, &s, errbuf, f) == 0)
		rv = finish(&s, o, n, r, f);
	for (i = 0; i < n && h[i] != NULL; i++) {
		curl_multi_remove_handle(m, h[i]);
		curl_easy_cleanup(h[i]);
	}
	curl_multi_cleanup(m);
	return rv;
}
