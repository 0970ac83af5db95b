/*
 * tcptunectl measure: one download through libcurl, on a connection of its
 * own, cut at -t seconds or the body's end, with what TCP reached on the
 * way (RTT, receive buffer and window), and every failure turned into one
 * line and an exit status (measure.h).  Messages quote the URL as shown
 * (measure_url.c: its password hidden), never as given, and a redirect
 * measure does not follow (to ftp://, file://, or no URL at all) as the
 * server's answer, not the user's bad URL.
 *
 * TCP's view is read from the transfer's socket every SAMPLE_SEC while it
 * runs.  The socket is taken as libcurl makes it (CURLOPT_SOCKOPTFUNCTION)
 * and let go as it closes it (CURLOPT_CLOSESOCKETFUNCTION):
 * CURLINFO_ACTIVESOCKET knows no socket of a connection that may not be
 * reused (CURLOPT_FORBID_REUSE), which each round's is.
 *   Linux: TCP_INFO, struct tcp_info (tcp(7)): tcpi_rtt, the smoothed
 *     RTT in microseconds; the receive window is not in glibc's struct.
 *   macOS: TCP_CONNECTION_INFO, struct tcp_connection_info (xnu
 *     bsd/netinet/tcp.h, under !_POSIX_C_SOURCE || _DARWIN_C_SOURCE):
 *     tcpi_srtt, the average RTT in ms, and tcpi_rcv_wnd in bytes.
 *   Both: SO_RCVBUF, the receive buffer as autotuning has grown it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE	/* struct tcp_connection_info */
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "tcptunectl.h"
#include "measure.h"
#include "measure_curlopt.h"

#define SAMPLE_SEC	0.1
#define PROGRESS_SEC	0.25
#define RECV_BUFFER	(256 * 1024)	/* fewer callbacks at 1 Gbit/s */

struct xfer {
	const struct mnet_opts	*o;
	struct mround		*r;
	CURL			*h;
	curl_socket_t		 fd;		/* the transfer's; BAD none */
	double			 t0;		/* request start */
	double			 connected;	/* socket seen; 0 not yet */
	double			 first;		/* first body byte; 0 none */
	double			 last;		/* latest body byte */
	double			 at_1s;		/* first byte after 1 s */
	uint64_t		 bytes, bytes_1s;
	double			 next_sample, next_progress;
	bool			 time_up;	/* -t reached: our own stop */
	bool			 stalled;
	bool			 interrupted;
	char			*location;	/* the latest response's */
};

static double
now_sec(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int
mnet_init(struct mfault *f)
{
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		f->code = CTL_FAIL;
		snprintf(f->text, sizeof(f->text), "libcurl would not "
		    "initialise");
		return -1;
	}
	return 0;
}

void
mnet_cleanup(void)
{
	curl_global_cleanup();
}

/*
 * An http:// or https:// URL with a host, or a usage error that quotes
 * it as shown (its password hidden).
 */
int
mnet_check_url(const char *url, const char *shown, struct mfault *f)
{
	CURLU	*u;
	char	*scheme = NULL, *host = NULL;
	int	 rv = -1;

	f->code = CTL_USAGE;
	if ((u = curl_url()) == NULL) {
		snprintf(f->text, sizeof(f->text), "out of memory");
		return -1;
	}
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    host[0] == '\0')
		snprintf(f->text, sizeof(f->text), "bad URL \"%s\": give "
		    "http://HOST/PATH or https://HOST/PATH", shown);
	else if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)
		snprintf(f->text, sizeof(f->text), "bad URL \"%s\": only "
		    "http:// and https:// can be measured", shown);
	else
		rv = 0;
	curl_free(scheme);
	curl_free(host);
	curl_url_cleanup(u);
	if (rv == 0)
		f->code = 0;
	return rv;
}

/* The host of a checked URL into buf (no brackets): 0, or -1. */
int
mnet_url_host(const char *url, char *buf, size_t len)
{
	CURLU	*u;
	char	*host = NULL;
	size_t	 n;
	int	 rv = -1;

	if ((u = curl_url()) == NULL)
		return -1;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		n = strlen(host);
		if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
			host[n - 1] = '\0';
			rv = tt_strlcpy(buf, host + 1, len) < len ? 0 : -1;
		} else
			rv = tt_strlcpy(buf, host, len) < len ? 0 : -1;
	}
	curl_free(host);
	curl_url_cleanup(u);
	return rv;
}

/* ---- TCP's view of the transfer */

static void
sample_tcp(struct xfer *x, curl_socket_t fd)
{
	struct mround	*r = x->r;
	int		 buf = 0;
	socklen_t	 len = sizeof(buf);
	uint32_t	 rtt_us = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, &len) == 0 &&
	    buf > 0 && (uint64_t)buf > r->rcvbuf)
		r->rcvbuf = (uint64_t)buf;
#if defined(__APPLE__) && defined(TCP_CONNECTION_INFO)
	{
		struct tcp_connection_info	ci;

		len = sizeof(ci);
		memset(&ci, 0, sizeof(ci));
		if (getsockopt(fd, IPPROTO_TCP, TCP_CONNECTION_INFO, &ci,
		    &len) == 0) {
			rtt_us = ci.tcpi_srtt * 1000;
			if (ci.tcpi_rcv_wnd > r->rcvwnd)
				r->rcvwnd = ci.tcpi_rcv_wnd;
		}
	}
#elif defined(__linux__) && defined(TCP_INFO)
	{
		struct tcp_info	ti;

		len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0)
			rtt_us = ti.tcpi_rtt;
	}
#endif
	/* The smallest smoothed RTT is the one least swollen by the queue
	 * this very transfer builds. */
	if (rtt_us != 0 && (r->rtt_us == 0 || rtt_us < r->rtt_us))
		r->rtt_us = rtt_us;
}

static void
show_progress(struct xfer *x, double now)
{
	double	secs = x->first > 0 ? now - x->first : 0;
	double	mbps = secs > 0 ? x->bytes * 8 / secs / 1e6 : 0;

	printf("\r  %s: %7.1f Mbit/s, %6.1f MB in %4.1f s ", x->o->label,
	    mbps, x->bytes / 1e6, secs);
	fflush(stdout);
}

/* Every socket libcurl opens for the transfer; the last is the live one. */
static int
on_socket(void *arg, curl_socket_t fd, curlsocktype purpose)
{
	struct xfer	*x = arg;

	if (purpose == CURLSOCKTYPE_IPCXN)
		x->fd = fd;
	return CURL_SOCKOPT_OK;
}

static int
on_close(void *arg, curl_socket_t fd)
{
	struct xfer	*x = arg;

	if (fd == x->fd) {
		sample_tcp(x, fd);	/* what it reached, at the end */
		x->fd = CURL_SOCKET_BAD;
	}
	return close(fd);
}

/* TCP is connected once libcurl has a connect time for it. */
static bool
connected(const struct xfer *x)
{
	curl_off_t	us = 0;

	return curl_easy_getinfo(x->h, CURLINFO_CONNECT_TIME_T, &us) ==
	    CURLE_OK && us > 0;
}

static int
on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer	*x = arg;
	double		 now = now_sec(), since;

	(void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
	if (x->o->interrupted != NULL && *x->o->interrupted) {
		x->interrupted = true;
		return 1;
	}
	if (now >= x->next_sample) {
		x->next_sample = now + SAMPLE_SEC;
		if (x->connected == 0 && connected(x))
			x->connected = now;
		if (x->connected > 0 && x->fd != CURL_SOCKET_BAD)
			sample_tcp(x, x->fd);
	}
	/* Connecting has its own timeout; from then on, silence counts. */
	since = x->last > 0 ? x->last : x->connected;
	if (since > 0 && now - since >= MEASURE_STALL_SEC) {
		x->stalled = true;
		return 1;
	}
	if (x->o->progress && now >= x->next_progress) {
		x->next_progress = now + PROGRESS_SEC;
		show_progress(x, now);
	}
	return 0;
}

static size_t
on_data(char *data, size_t size, size_t n, void *arg)
{
	struct xfer	*x = arg;
	double		 now = now_sec();

	(void)data;
	if (x->first == 0)
		x->first = now;
	if (x->at_1s == 0 && now - x->first >= 1.0) {
		x->at_1s = now;
		x->bytes_1s = x->bytes;
	}
	x->bytes += (uint64_t)size * n;
	x->last = now;
	if (now - x->first >= x->o->seconds) {
		x->time_up = true;
		return 0;	/* stops the transfer: CURLE_WRITE_ERROR */
	}
	return size * n;
}

/*
 * The Location of the latest response, for the message when measure
 * cannot follow it (libcurl's own names only the scheme).  Kept whole:
 * cut, it could lose the '@' that ends a password in it.
 */
static size_t
on_header(char *data, size_t size, size_t n, void *arg)
{
	struct xfer	*x = arg;
	size_t		 len = size * n;

	if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		free(x->location);	/* a new response */
		x->location = NULL;
	} else if (len >= 9 && strncasecmp(data, "Location:", 9) == 0) {
		for (data += 9, len -= 9; len > 0 && (*data == ' ' ||
		    *data == '\t'); len--)
			data++;
		while (len > 0 && strchr(" \t\r\n", data[len - 1]) != NULL)
			len--;
		free(x->location);
		if ((x->location = malloc(len + 1)) != NULL) {
			memcpy(x->location, data, len);
			x->location[len] = '\0';
		}
	}
	return size * n;
}

/* ---- the protocols a transfer may use */

/*
 * CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR came in libcurl
 * 7.85.0 and replace the bitmask forms CURLOPT_PROTOCOLS and
 * CURLOPT_REDIR_PROTOCOLS, deprecated then but still honoured (libcurl's
 * CURLOPT_PROTOCOLS_STR(3) and CURLOPT_PROTOCOLS(3) pages, "AVAILABILITY"
 * and "DEPRECATED").  macOS 11, 12 and 13 ship libcurl 7.64.1, 7.77.0 and
 * 7.84.0 (apple-oss-distributions/curl), which answer the _STR options
 * with CURLE_UNKNOWN_OPTION: a binary built against newer headers would
 * then run with no limit at all, redirects to file:// or ftp:// included.
 * So the choice is made at run time, by the answer: the _STR forms when
 * libcurl takes them, else the bitmasks; when neither holds, the transfer
 * does not start.  The setters come in as functions, so
 * tests/unit/test_measure_net.c can play an old libcurl.
 */
#define PROTOS		"http,https"
#define PROTO_BITS	((long)(CURLPROTO_HTTP | CURLPROTO_HTTPS))

/* Both forms on purpose: no deprecation warning for the old one here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
int
measure_limit_protocols(void *h, const struct curl_setter *s)
{
#if LIBCURL_VERSION_NUM >= 0x075500	/* the headers know the _STR forms */
	if (s->str(h, CURLOPT_PROTOCOLS_STR, PROTOS) == CURLE_OK &&
	    s->str(h, CURLOPT_REDIR_PROTOCOLS_STR, PROTOS) == CURLE_OK)
		return MEASURE_PROTOS_STR;
#endif
	if (s->num(h, CURLOPT_PROTOCOLS, PROTO_BITS) == CURLE_OK &&
	    s->num(h, CURLOPT_REDIR_PROTOCOLS, PROTO_BITS) == CURLE_OK)
		return MEASURE_PROTOS_BITS;
	return -1;
}
#pragma GCC diagnostic pop

/* ---- one transfer */

static CURLcode
set_str(void *h, CURLoption opt, const char *v)
{
	return curl_easy_setopt((CURL *)h, opt, v);
}

static CURLcode
set_num(void *h, CURLoption opt, long v)
{
	return curl_easy_setopt((CURL *)h, opt, v);
}

/*
 * What every transfer of measure's sets, one or --streams N at once: the
 * URL, one TCP connection of its own, no proxy, redirects within the
 * limit, http and https only whatever libcurl runs (measure_limit_protocols).
 * 0, or -1 when libcurl would not limit the protocols: nothing may start.
 */
int
mnet_easy_common(CURL *h, const char *url, char *errbuf)
{
	static const struct curl_setter	setter = { set_str, set_num };

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "tcptunectl-measure/"
	    PACKAGE_VERSION);
	/* One TCP connection per transfer: nothing reused or shared. */
	curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
	curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
	/* The path measured is this machine's to the server, not a proxy's. */
	curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, (long)MEASURE_MAX_REDIRS);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, (long)MEASURE_CONNECT_SEC);
	return measure_limit_protocols(h, &setter) == -1 ? -1 : 0;
}

static int
set_options(CURL *h, struct xfer *x, char *errbuf)
{
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, (long)RECV_BUFFER);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, x);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, on_socket);
	curl_easy_setopt(h, CURLOPT_SOCKOPTDATA, x);
	curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, on_close);
	curl_easy_setopt(h, CURLOPT_CLOSESOCKETDATA, x);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
	return mnet_easy_common(h, x->o->url, errbuf);
}

static int
fault(struct mfault *f, int code, const char *fmt, ...) TT_PRINTF(3, 4);

static int
fault(struct mfault *f, int code, const char *fmt, ...)
{
	va_list	ap;

	f->code = code;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * libcurl's own words when it has some, else its code's name; a URL in
 * them shown without its password.
 */
static const char *
curl_why(CURLcode rc, const char *errbuf, char *buf, size_t len)
{
	murl_redact_text(buf, len, errbuf[0] != '\0' ? errbuf :
	    curl_easy_strerror(rc));
	return buf;
}

/*
 * Whether the server's answer was a redirect.  CURLINFO_RESPONSE_CODE(3)
 * is "the last received HTTP ... response code", "zero if no server
 * response code has been received"; CURLINFO_REDIRECT_COUNT(3) counts
 * the redirects followed.  With libcurl 7.88.1 a redirect to ftp:// that
 * CURLOPT_REDIR_PROTOCOLS refuses ends with the 302 and a count of 1, a
 * Location it cannot parse likewise; the URL given, refused before any
 * request, with 0 and 0.  (CURLINFO_REDIRECT_URL is NULL when libcurl
 * follows redirects itself, so it cannot tell.)
 */
static bool
redirected(const struct xfer *x)
{
	long	status = 0, count = 0;

	curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(x->h, CURLINFO_REDIRECT_COUNT, &count);
	return (status >= 300 && status < 400) || count > 0;
}

/*
 * A redirect measure cannot follow is the server's answer, not a bad
 * URL from the user: told as such, with the target as the server gave it
 * (or as libcurl resolved it), its password hidden.
 */
static int
redirect_fault(CURLcode rc, const struct xfer *x, const char *why,
    struct mfault *f)
{
	char		 to[sizeof(f->text)];
	char		*eff = NULL;
	const char	*target = x->location;

	if (target == NULL && curl_easy_getinfo(x->h, CURLINFO_EFFECTIVE_URL,
	    &eff) == CURLE_OK)
		target = eff;
	murl_redact(to, sizeof(to), target != NULL ? target : "?");
	if (rc == CURLE_UNSUPPORTED_PROTOCOL)
		return fault(f, MEX_HTTP, "%s: the server redirected to %s, "
		    "which measure does not follow (only http:// and "
		    "https://)", x->o->shown, to);
	return fault(f, MEX_HTTP, "%s: the server redirected to \"%s\", "
	    "which measure cannot follow: %s", x->o->shown, to, why);
}

static int
map_error(CURLcode rc, const struct xfer *x, const char *errbuf,
    struct mfault *f)
{
	const char	*url = x->o->shown;
	char		 buf[CURL_ERROR_SIZE * 2];
	const char	*why = curl_why(rc, errbuf, buf, sizeof(buf));
	long		 status = 0;

	switch (rc) {
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
		if (redirected(x))
			return redirect_fault(rc, x, why, f);
		return fault(f, CTL_USAGE, "bad URL \"%s\": %s", url, why);
	case CURLE_COULDNT_RESOLVE_HOST:
		return fault(f, MEX_UNREACHABLE, "%s: %s", url, why);
	case CURLE_COULDNT_CONNECT:
		return fault(f, MEX_UNREACHABLE, "%s: %s", url, why);
	case CURLE_OPERATION_TIMEDOUT:
		return fault(f, MEX_UNREACHABLE, "%s: no connection within "
		    "%d s (%s)", url, MEASURE_CONNECT_SEC, why);
	case CURLE_HTTP_RETURNED_ERROR:
		curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
		return fault(f, MEX_HTTP, "%s: the server answered HTTP %ld",
		    url, status);
	case CURLE_TOO_MANY_REDIRECTS:
		return fault(f, MEX_HTTP, "%s: more than %d redirects", url,
		    MEASURE_MAX_REDIRS);
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
		return fault(f, MEX_TLS, "%s: TLS failed: %s", url, why);
	case CURLE_ABORTED_BY_CALLBACK:
		if (x->interrupted)
			return fault(f, MEX_INTERRUPTED, "interrupted");
		return fault(f, MEX_STALLED, "%s: the server stalled: no data "
		    "for %d s%s", url, MEASURE_STALL_SEC, x->bytes > 0 ?
		    " in mid-transfer" : " after the connection was made");
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
		return fault(f, MEX_STALLED, "%s: the transfer broke off: %s",
		    url, why);
	default:
		return fault(f, CTL_FAIL, "%s: %s", url, why);
	}
}

/* The round's figures from what came in; a body under a second fails. */
static int
finish_round(const struct xfer *x, struct mround *r, struct mfault *f)
{
	double	end = x->last;

	r->bytes = x->bytes;
	r->secs = x->first > 0 ? end - x->first : 0;
	r->ended = !x->time_up;
	if (r->secs < MEASURE_MIN_SEC)
		return fault(f, MEX_SHORT, "%s: the body is too short to "
		    "measure: %llu bytes in %.2f s; give a file that takes at "
		    "least %.0f s, better the whole -t %u s", x->o->shown,
		    (unsigned long long)x->bytes, r->secs, MEASURE_MIN_SEC,
		    x->o->seconds);
	r->mbps = r->bytes * 8 / r->secs / 1e6;
	if (x->at_1s > 0 && end - x->at_1s >= 0.25)
		r->mbps_steady = (x->bytes - x->bytes_1s) * 8 /
		    (end - x->at_1s) / 1e6;
	else
		r->mbps_steady = r->mbps;
	return 0;
}

int
mnet_transfer(const struct mnet_opts *o, struct mround *r, struct mfault *f)
{
	struct xfer	x;
	char		errbuf[CURL_ERROR_SIZE];
	CURLcode	rc;
	int		rv;

	memset(&x, 0, sizeof(x));
	memset(f, 0, sizeof(*f));
	errbuf[0] = '\0';
	x.o = o;
	x.r = r;
	x.fd = CURL_SOCKET_BAD;
	if ((x.h = curl_easy_init()) == NULL)
		return fault(f, CTL_FAIL, "libcurl: cannot start a transfer");
	if (set_options(x.h, &x, errbuf) == -1) {
		curl_easy_cleanup(x.h);
		return fault(f, CTL_FAIL, "libcurl would not limit the "
		    "transfer to http and https (CURLOPT_PROTOCOLS_STR and "
		    "CURLOPT_PROTOCOLS both refused): not measuring");
	}
	x.t0 = now_sec();
	rc = curl_easy_perform(x.h);
	if (o->progress)
		printf("\r%*s\r", 60, "");
	if (rc == CURLE_WRITE_ERROR && x.time_up)
		rc = CURLE_OK;
	rv = rc == CURLE_OK ? finish_round(&x, r, f) :
	    map_error(rc, &x, errbuf, f);
	curl_easy_cleanup(x.h);
	free(x.location);
	return rv;
}
