/*
 * tcptunectl measure iperf3://HOST[:PORT]: the URL, and the figures of
 * one test read from the JSON report libiperf writes (iperf3 -J's).
 * Pure, so that the rules are tested without libiperf or a server
 * (tests/unit/test_measure_iperf.c); measure_iperf.c runs the tests.
 *
 * The JSON is read in place by a small reader that walks one path
 * ("end.sum_received.bytes", "end.streams.0.sender.mean_rtt") and skips
 * everything else: libiperf bundles cJSON but installs no header for it,
 * and measure needs a dozen numbers.  A document the reader cannot walk
 * is an error said as such, never a figure of 0.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "measure.h"

#define JSON_DEPTH_MAX	64	/* iperf3's reports nest 5 deep */

bool
miperf_is_url(const char *url)
{
	return url != NULL && strncasecmp(url, MIPERF_SCHEME,
	    strlen(MIPERF_SCHEME)) == 0;
}

/* "5201" as a port, or -1. */
static int
parse_port(const char *s)
{
	char	*end;
	long	 v;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < 1 || v > 65535)
		return -1;
	return (int)v;
}

/* The host and the ":PORT" after it; an IPv6 literal in brackets. */
static int
split_host_port(const char *auth, struct miperf_target *t)
{
	const char	*colon;
	size_t		 n;

	if (auth[0] == '[') {
		if ((colon = strchr(auth, ']')) == NULL)
			return -1;
		n = (size_t)(colon - auth - 1);
		auth++;
		colon++;
		if (*colon != '\0' && *colon != ':')
			return -1;
	} else {
		colon = strchr(auth, ':');
		n = colon != NULL ? (size_t)(colon - auth) : strlen(auth);
	}
	if (n == 0 || n >= sizeof(t->host))
		return -1;
	memcpy(t->host, auth, n);
	t->host[n] = '\0';
	t->port = MIPERF_PORT_DEFAULT;
	if (colon != NULL && *colon == ':' &&
	    (t->port = parse_port(colon + 1)) == -1)
		return -1;
	return 0;
}

/*
 * iperf3://HOST[:PORT][/] into t; -1 and a line in err for anything else:
 * a path, a query or a user name mean nothing to an iperf3 server, and
 * measuring another thing than the one asked for would be worse than
 * saying so.
 */
int
miperf_parse_url(const char *url, struct miperf_target *t, char *err,
    size_t len)
{
	char		 auth[sizeof(t->host) + 16];
	const char	*p;
	size_t		 n;

	memset(t, 0, sizeof(*t));
	if (!miperf_is_url(url)) {
		snprintf(err, len, "not an iperf3:// URL");
		return -1;
	}
	p = url + strlen(MIPERF_SCHEME);
	n = strcspn(p, "/?#@");
	if (p[n] == '@' || p[n] == '?' || p[n] == '#' ||
	    (p[n] == '/' && p[n + 1] != '\0') || n >= sizeof(auth)) {
		snprintf(err, len, "give iperf3://HOST or iperf3://HOST:PORT, "
		    "no user, path or query");
		return -1;
	}
	memcpy(auth, p, n);
	auth[n] = '\0';
	if (split_host_port(auth, t) == -1) {
		snprintf(err, len, "give iperf3://HOST or iperf3://HOST:PORT "
		    "(PORT from 1 to 65535, an IPv6 address in brackets)");
		return -1;
	}
	return 0;
}

/* ---- the JSON reader */

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the string at p (at its '"'), or NULL. */
static const char *
skip_string(const char *p)
{
	for (p++; *p != '\0' && *p != '"'; p++)
		if (*p == '\\' && *++p == '\0')
			return NULL;
	return *p == '"' ? p + 1 : NULL;
}

static const char *skip_value(const char *, int);

/* Past the object or array at p, or NULL. */
static const char *
skip_nested(const char *p, int depth)
{
	char	close = *p == '{' ? '}' : ']';

	if (depth > JSON_DEPTH_MAX)
		return NULL;
	p = skip_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (*p != '"' || (p = skip_string(p)) == NULL)
				return NULL;
			if (*(p = skip_ws(p)) != ':')
				return NULL;
			p = skip_ws(p + 1);
		}
		if ((p = skip_value(p, depth + 1)) == NULL)
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p != ',')
			return NULL;
		p = skip_ws(p + 1);
	}
}

/* Past the value at p (no leading space), or NULL. */
static const char *
skip_value(const char *p, int depth)
{
	if (*p == '"')
		return skip_string(p);
	if (*p == '{' || *p == '[')
		return skip_nested(p, depth);
	if (*p == '\0' || *p == ',' || *p == '}' || *p == ']')
		return NULL;
	while (*p != '\0' && *p != ',' && *p != '}' && *p != ']' &&
	    *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
		p++;
	return p;
}

/* The value of member key (n bytes) of the object at p, or NULL. */
static const char *
member(const char *p, const char *key, size_t n)
{
	const char	*k, *end;

	if (*p != '{')
		return NULL;
	p = skip_ws(p + 1);
	while (*p == '"') {
		k = p + 1;
		if ((end = skip_string(p)) == NULL)
			return NULL;
		if (*(p = skip_ws(end)) != ':')
			return NULL;
		p = skip_ws(p + 1);
		if ((size_t)(end - 1 - k) == n && memcmp(k, key, n) == 0)
			return p;
		if ((p = skip_value(p, 1)) == NULL)
			return NULL;
		if (*(p = skip_ws(p)) != ',')
			return NULL;
		p = skip_ws(p + 1);
	}
	return NULL;
}

/* The element i of the array at p, or NULL. */
static const char *
element(const char *p, long i)
{
	if (*p != '[')
		return NULL;
	p = skip_ws(p + 1);
	if (*p == ']')
		return NULL;
	for (; i > 0; i--) {
		if ((p = skip_value(p, 1)) == NULL)
			return NULL;
		if (*(p = skip_ws(p)) != ',')
			return NULL;
		p = skip_ws(p + 1);
	}
	return p;
}

/*
 * The value at path in json: names of members and indexes of arrays
 * joined by '.', as "end.streams.0.sender.mean_rtt"; NULL when absent.
 */
const char *
mjson_at(const char *json, const char *path)
{
	const char	*p = skip_ws(json), *seg = path;
	size_t		 n;
	char		*end;
	long		 i;

	while (p != NULL && *seg != '\0') {
		n = strcspn(seg, ".");
		if (*p == '[') {
			i = strtol(seg, &end, 10);
			p = end == seg + n && i >= 0 ? element(p, i) : NULL;
		} else
			p = member(p, seg, n);
		seg += n;
		if (*seg == '.')
			seg++;
	}
	return p;
}

int
mjson_num(const char *json, const char *path, double *v)
{
	const char	*p = mjson_at(json, path);
	char		*end;

	if (p == NULL || (*p != '-' && !isdigit((unsigned char)*p)))
		return -1;
	*v = strtod(p, &end);
	return end == p ? -1 : 0;
}

/* The string at path, its escapes kept as they are; -1 when absent. */
int
mjson_str(const char *json, const char *path, char *buf, size_t len)
{
	const char	*p = mjson_at(json, path), *end;
	size_t		 n;

	if (p == NULL || *p != '"' || (end = skip_string(p)) == NULL ||
	    len == 0)
		return -1;
	n = (size_t)(end - p - 2);
	if (n >= len)
		n = len - 1;
	memcpy(buf, p + 1, n);
	buf[n] = '\0';
	return 0;
}

/* ---- one test's figures */

/*
 * The sender's round trips, as its kernel smoothed them (iperf3 reads
 * TCP_INFO's tcpi_rtt on the sending side only), from the report at
 * prefix ("" the client's own, "server_output_json." the server's): the
 * smallest minimum of the streams and the mean of their means.  False
 * when no stream has them.
 */
static bool
sender_rtts(const char *json, const char *prefix, struct mround *r)
{
	char	path[96];
	double	min, mean, sum = 0;
	int	i, n = 0;

	for (i = 0; i < MEASURE_STREAMS_MAX; i++) {
		snprintf(path, sizeof(path), "%send.streams.%d.sender.min_rtt",
		    prefix, i);
		if (mjson_num(json, path, &min) == -1)
			break;
		snprintf(path, sizeof(path), "%send.streams.%d.sender.mean_rtt",
		    prefix, i);
		if (mjson_num(json, path, &mean) == -1 || mean <= 0 ||
		    min <= 0)
			continue;
		if (r->rtt_us == 0 || min < r->rtt_us)
			r->rtt_us = (uint32_t)min;
		sum += mean;
		n++;
	}
	if (n > 0)
		r->rtt_load_us = (uint32_t)(sum / n);
	return n > 0;
}

/*
 * A download's round trips: the server sends, and only its own report
 * has them.  measure_iperf.c asks for it (iperf3 -c --get-server-output);
 * an iperf3 server puts its JSON report under "server_output_json" when
 * it runs with -J, else its text under "server_output_text", which has
 * no round trips (send_results() in iperf3's src/iperf_api.c).  Where
 * they are missing, why is kept for the report to say.
 */
static void
server_rtts(const char *json, struct mround *r)
{
	if (sender_rtts(json, "server_output_json.", r))
		return;
	if (mjson_at(json, "server_output_json") != NULL)
		r->load_unknown = "the iperf3 server's report has no round "
		    "trips (its system's TCP_INFO gives it none)";
	else if (mjson_at(json, "server_output_text") != NULL)
		r->load_unknown = "the iperf3 server sends its report as "
		    "text, which has no round trips (a server run as "
		    "iperf3 -s -J sends them)";
	else
		r->load_unknown = "the iperf3 server did not send its "
		    "report (an iperf3 older than 3.0.5 does not)";
}

/*
 * The round from libiperf's JSON report json: the rate as the receiver
 * counted it, the retransmissions and the round trips as the sender's
 * kernel did (in a download the server's: libiperf passes its
 * retransmissions on itself, its round trips in its own report).  -1 and a
 * line in err when the report holds an error or no figures.
 *
 * The test omits its first second (iperf3 -O 1, measure_iperf.c), so the
 * totals are already the rate after the first second that the http(s)
 * form calls steady; both rates of the round are that one.  The
 * one-second intervals are not used: in an upload they are the sender's
 * writes into its socket buffer, which a large buffer inflates far past
 * what the line carries.
 */
int
miperf_read_round(const char *json, enum measure_dir dir, struct mround *r,
    char *err, size_t len)
{
	double	bps, bytes, secs, rtx;

	if (mjson_str(json, "error", err, len) == 0)
		return -1;
	if (mjson_num(json, "end.sum_received.bits_per_second", &bps) == -1 ||
	    mjson_num(json, "end.sum_received.bytes", &bytes) == -1 ||
	    mjson_num(json, "end.sum_received.seconds", &secs) == -1) {
		snprintf(err, len, "the iperf3 report has no totals");
		return -1;
	}
	r->mbps = r->mbps_steady = bps / 1e6;
	r->bytes = (uint64_t)bytes;
	r->secs = secs;
	if (mjson_num(json, "end.sum_sent.retransmits", &rtx) == 0 &&
	    rtx >= 0) {
		r->retrans = (uint64_t)rtx;
		r->has_retrans = true;
	}
	if (dir == DIR_UPLOAD)
		sender_rtts(json, "", r);
	else
		server_rtts(json, r);
	return 0;
}
