/*
 * tcptunectl measure: one download through libcurl, on a connection of its
 * own, cut at -t seconds or the body's end, with what TCP reached on the
 * way (RTT, receive buffer and window), or one upload (--upload, --both):
 * a body made in memory, PUT (POST with --method post) for -t seconds,
 * with what the rate cost (below); every failure turned into one
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
 *
 * An upload makes this machine the sender, so its socket also tells what
 * the rate cost, as iperf3 reads it on its sending side: the mean
 * smoothed RTT after the first second (the RTT under load) and the
 * segments sent again (Linux tcpi_total_retrans, macOS
 * tcpi_txretransmitpackets).  Its rate is the line's, not the writes':
 * the bytes written but not acknowledged at the first second (Linux
 * SIOCOUTQ, "not sent + not acked" in linux/sockios.h, tcp_ioctl() in
 * net/ipv4/tcp.c; macOS tcpi_snd_sbbytes, "bytes in send socket buffer,
 * including in-flight data") are not counted as carried then, and the
 * body ends when the server answers it (mnet_upload_rates).  The body
 * is chunked (its length is not known before -t ends it) and sent over
 * HTTP/1.1: an HTTP/2 stream's own flow-control window, the server's
 * choice, would bound the rate whatever TCP's buffers.  Redirects are
 * not followed (the body would have to be sent again): one is an error
 * that names the target.  The upload's receive buffer is left unknown,
 * as an iperf3 round's: the window that matters is the server's.
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
#ifdef __linux__
#include <sys/ioctl.h>
#include <linux/sockios.h>	/* SIOCOUTQ */
#endif

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
#define SEND_BUFFER	(256 * 1024)	/* as much for an upload's writes */
#define BODY_PATTERN	(64 * 1024)	/* the upload body repeats this */

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
	/* an upload's: at_1s, first, bytes, bytes_1s and last as above,
	 * last also moved by the acknowledgements of a written body */
	bool			 upload;
	double			 body_end;	/* the body's end written */
	double			 answered;	/* a status line after it */
	uint64_t		 queued_1s;	/* unacknowledged at at_1s */
	uint64_t		 queued;	/* at the latest sample */
	double			 load_sum;	/* RTTs sampled under load */
	unsigned		 load_n;
	struct curl_slist	*headers;	/* POST's Content-Type */
};

/* What a socket told of its connection; a field unknown stays 0. */
struct tcp_view {
	uint32_t	rtt_us;		/* the smoothed RTT */
	uint64_t	rcvbuf;
	uint64_t	rcvwnd;
	bool		has_retrans;
	uint64_t	retrans;	/* segments sent again, so far */
	bool		has_queued;
	uint64_t	queued;		/* written, not yet acknowledged */
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
read_tcp(curl_socket_t fd, struct tcp_view *v)
{
	int		buf = 0;
	socklen_t	len = sizeof(buf);

	memset(v, 0, sizeof(*v));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, &len) == 0 && buf > 0)
		v->rcvbuf = (uint64_t)buf;
#if defined(__APPLE__) && defined(TCP_CONNECTION_INFO)
	{
		struct tcp_connection_info	ci;

		len = sizeof(ci);
		memset(&ci, 0, sizeof(ci));
		if (getsockopt(fd, IPPROTO_TCP, TCP_CONNECTION_INFO, &ci,
		    &len) == 0) {
			v->rtt_us = ci.tcpi_srtt * 1000;
			v->rcvwnd = ci.tcpi_rcv_wnd;
			v->retrans = ci.tcpi_txretransmitpackets;
			v->has_retrans = true;
			v->queued = ci.tcpi_snd_sbbytes;
			v->has_queued = true;
		}
	}
#elif defined(__linux__) && defined(TCP_INFO)
	{
		struct tcp_info	ti;
		int		outq = 0;

		len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0) {
			v->rtt_us = ti.tcpi_rtt;
			v->retrans = ti.tcpi_total_retrans;
			v->has_retrans = true;
		}
		if (ioctl(fd, SIOCOUTQ, &outq) == 0 && outq >= 0) {
			v->queued = (uint64_t)outq;
			v->has_queued = true;
		}
	}
#endif
}

/*
 * An upload's sample: the retransmissions so far, the RTT under load
 * once the first second is over and until the server answers, and the
 * acknowledgements as progress (the stall clock).
 */
static void
sample_upload(struct xfer *x, const struct tcp_view *v)
{
	struct mround	*r = x->r;

	if (v->has_retrans) {
		r->retrans = v->retrans;
		r->has_retrans = true;
	}
	if (v->rtt_us != 0 && x->at_1s > 0 && x->answered == 0) {
		x->load_sum += v->rtt_us;
		x->load_n++;
		r->rtt_load_us = (uint32_t)(x->load_sum / x->load_n);
	}
	if (v->has_queued && v->queued != x->queued) {
		x->queued = v->queued;
		x->last = now_sec();
	}
}

static void
sample_tcp(struct xfer *x, curl_socket_t fd)
{
	struct mround	*r = x->r;
	struct tcp_view	 v;

	read_tcp(fd, &v);
	if (x->upload)
		sample_upload(x, &v);
	else {
		if (v.rcvbuf > r->rcvbuf)
			r->rcvbuf = v.rcvbuf;
		if (v.rcvwnd > r->rcvwnd)
			r->rcvwnd = v.rcvwnd;
	}
	/* The smallest smoothed RTT is the one least swollen by the queue
	 * this very transfer builds. */
	if (v.rtt_us != 0 && (r->rtt_us == 0 || v.rtt_us < r->rtt_us))
		r->rtt_us = v.rtt_us;
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
	if (x->upload)
		return size * n;	/* the answer's body: not measured */
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
 * The upload's body: a pseudo-random pattern (xorshift32), made once, so
 * that no compressing box on the way carries it faster than the bytes
 * counted; written from where the body is, so it does not restart at
 * each write.
 */
static void
fill_body(char *buf, size_t len, uint64_t at)
{
	static unsigned char	pattern[BODY_PATTERN];
	static bool		made;
	uint32_t		v = 2463534242u;
	size_t			i, off, n;

	if (!made) {
		for (i = 0; i < sizeof(pattern); i++) {
			v ^= v << 13;
			v ^= v >> 17;
			v ^= v << 5;
			pattern[i] = (unsigned char)v;
		}
		made = true;
	}
	for (i = 0; i < len; i += n) {
		off = (size_t)((at + i) % sizeof(pattern));
		n = sizeof(pattern) - off < len - i ? sizeof(pattern) - off :
		    len - i;
		memcpy(buf + i, pattern + off, n);
	}
}

/* Written and not yet acknowledged on the socket; 0 when not known. */
static uint64_t
queued_now(const struct xfer *x)
{
	struct tcp_view	v;

	if (x->fd == CURL_SOCKET_BAD)
		return 0;
	read_tcp(x->fd, &v);
	return v.queued;
}

/* The upload's body, -t seconds of it from the first byte written. */
static size_t
on_read(char *buf, size_t size, size_t n, void *arg)
{
	struct xfer	*x = arg;
	double		 now = now_sec();
	size_t		 len = size * n;

	if (x->first == 0)
		x->first = now;
	if (x->body_end > 0 || now - x->first >= x->o->seconds) {
		if (x->body_end == 0)
			x->body_end = now;
		x->time_up = true;
		return 0;	/* the end: libcurl sends the last chunk */
	}
	if (x->at_1s == 0 && now - x->first >= 1.0) {
		x->at_1s = now;
		x->bytes_1s = x->bytes;
		x->queued_1s = queued_now(x);
	}
	fill_body(buf, len, x->bytes);
	x->bytes += len;
	x->last = now;
	return len;
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
		/* the server's answer to the whole body: its end */
		if (x->upload && x->body_end > 0 && x->answered == 0)
			x->answered = now_sec();
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

/*
 * An upload: PUT as curl -T does, or POST as curl --data-binary does,
 * the body chunked and over HTTP/1.1 (the head of this file says why);
 * the answer's body, if any, is read and dropped by on_data.  0, or -1
 * when out of memory.
 */
static int
set_upload(CURL *h, struct xfer *x)
{
	curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
	curl_easy_setopt(h, CURLOPT_READDATA, x);
	curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, (long)SEND_BUFFER);
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	if (!x->o->post) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		return 0;
	}
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, -1L);
	/* not libcurl's default form type: the body is no form */
	if ((x->headers = curl_slist_append(NULL, "Content-Type: "
	    "application/octet-stream")) == NULL)
		return -1;
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->headers);
	return 0;
}

/* 0; -1 when libcurl would not limit the protocols, -2 out of memory. */
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
	if (mnet_easy_common(h, x->o->url, errbuf) == -1)
		return -1;
	/* after the common options: an upload follows no redirect */
	return x->upload && set_upload(h, x) == -1 ? -2 : 0;
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
		if (x->upload) {
			f->code = MEX_HTTP;
			mnet_refused_text(f->text, sizeof(f->text), url,
			    status, x->o->post);
			return -1;
		}
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
		if (x->upload)
			return fault(f, MEX_STALLED, "%s: the server stalled: "
			    "it took no data for %d s%s", url,
			    MEASURE_STALL_SEC, x->body_end > 0 ? " and gave "
			    "no answer after the body" : x->bytes > 0 ?
			    " in mid-upload" : " after the connection was made");
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

/* ---- an upload's end */

/*
 * The rates of an upload from its clock c into r; -1 when the body was
 * carried in under MEASURE_MIN_SEC (the server answered it early).
 */
int
mnet_upload_rates(const struct upload_clock *c, struct mround *r)
{
	double		end = c->answered > 0 ? c->answered : c->done;
	uint64_t	carried_1s = 0;

	r->bytes = c->bytes;
	r->secs = c->first > 0 && end > c->first ? end - c->first : 0;
	r->ended = false;	/* the body ends at -t, by our own hand */
	r->mbps = r->mbps_steady = 0;
	if (r->secs < MEASURE_MIN_SEC)
		return -1;
	r->mbps = r->bytes * 8 / r->secs / 1e6;
	if (c->written_1s > c->queued_1s)
		carried_1s = c->written_1s - c->queued_1s;
	if (c->at_1s > 0 && end - c->at_1s >= 0.25 && c->bytes > carried_1s)
		r->mbps_steady = (c->bytes - carried_1s) * 8 /
		    (end - c->at_1s) / 1e6;
	else
		r->mbps_steady = r->mbps;
	return 0;
}

/*
 * The line for an upload answered with status >= 400: what the status
 * says of uploads, and what to give instead, in curl's words for the
 * same upload (curl -T FILE URL puts, curl --data-binary @FILE URL posts).
 */
void
mnet_refused_text(char *buf, size_t len, const char *shown, long status,
    bool post)
{
	const char	*method = post ? "POST" : "PUT";
	const char	*curl = post ? "curl --data-binary @FILE URL" :
			    "curl -T FILE URL";
	const char	*other = post ? "" : ", or try --method post";
	const char	*why;

	switch (status) {
	case 405:	/* Method Not Allowed */
	case 501:	/* Not Implemented */
		why = "it takes no upload there by that method";
		break;
	case 401:
	case 403:
		why = "it does not let this client upload there";
		break;
	case 411:	/* Length Required */
		why = "it wants the body's length first, and measure's body "
		    "runs for -t seconds, chunked";
		other = "";
		break;
	case 413:	/* Content Too Large */
		why = "the body is larger than it takes (a shorter -t sends "
		    "less)";
		other = "";
		break;
	default:
		why = "it refused the upload";
		break;
	}
	snprintf(buf, len, "%s: the server answered HTTP %ld to the upload "
	    "(%s): %s; give a URL that accepts a %s of any size, as %s "
	    "would send%s", shown, status, method, why, method, curl, other);
}

/*
 * An upload that libcurl saw end well: the server's answer must be one
 * of success.  A redirect is not followed (the body would go twice), a
 * 1xx alone is no answer.
 */
static int
upload_answered(const struct xfer *x, struct mfault *f)
{
	long	status = 0;
	char	to[sizeof(f->text) / 2];

	curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300)
		return 0;
	if (status >= 300 && status < 400) {
		murl_redact(to, sizeof(to), x->location != NULL ?
		    x->location : "?");
		return fault(f, MEX_HTTP, "%s: the server redirected the "
		    "upload (HTTP %ld) to %s, which measure does not follow "
		    "(the body would be sent twice): give that URL", x->o->shown,
		    status, to);
	}
	return fault(f, MEX_HTTP, "%s: the server gave no answer of success "
	    "to the upload (HTTP %ld)", x->o->shown, status);
}

static int
finish_upload(const struct xfer *x, struct mround *r, struct mfault *f)
{
	struct upload_clock	c;

	if (upload_answered(x, f) == -1)
		return -1;
	memset(&c, 0, sizeof(c));
	c.first = x->first;
	c.at_1s = x->at_1s;
	c.written_1s = x->bytes_1s;
	c.queued_1s = x->queued_1s;
	c.answered = x->answered;
	c.done = now_sec();
	c.bytes = x->bytes;
	if (mnet_upload_rates(&c, r) == -1)
		return fault(f, MEX_SHORT, "%s: the server answered the upload "
		    "within its first second (%llu bytes in %.2f s): give a URL "
		    "that takes a body for the whole -t %u s", x->o->shown,
		    (unsigned long long)x->bytes, r->secs, x->o->seconds);
	return 0;
}

/* "put" or "post", as --method gives it, into *post: 0, or -1. */
int
mnet_method(const char *name, bool *post)
{
	if (strcasecmp(name, "put") == 0)
		*post = false;
	else if (strcasecmp(name, "post") == 0)
		*post = true;
	else
		return -1;
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
	x.upload = o->dir == DIR_UPLOAD;
	if ((x.h = curl_easy_init()) == NULL)
		return fault(f, CTL_FAIL, "libcurl: cannot start a transfer");
	if ((rv = set_options(x.h, &x, errbuf)) != 0) {
		curl_easy_cleanup(x.h);
		curl_slist_free_all(x.headers);
		if (rv == -2)
			return fault(f, CTL_FAIL, "out of memory");
		return fault(f, CTL_FAIL, "libcurl would not limit the "
		    "transfer to http and https (CURLOPT_PROTOCOLS_STR and "
		    "CURLOPT_PROTOCOLS both refused): not measuring");
	}
	x.t0 = now_sec();
	rc = curl_easy_perform(x.h);
	if (o->progress)
		printf("\r%*s\r", 60, "");
	if (rc == CURLE_WRITE_ERROR && x.time_up && !x.upload)
		rc = CURLE_OK;
	if (rc != CURLE_OK)
		rv = map_error(rc, &x, errbuf, f);
	else
		rv = x.upload ? finish_upload(&x, r, f) :
		    finish_round(&x, r, f);
	curl_easy_cleanup(x.h);
	curl_slist_free_all(x.headers);
	free(x.location);
	return rv;
}
