/*
 * The history of the machine's own TCP connections, the same on every OS
 * (flows.h); what held each one is flows_verdict.c's.  The per-OS file
 * hands in readings (flow_reading); nothing here reads the kernel, so
 * tests/unit/test_flows.c drives it with recorded samples.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcptuned.h"
#include "flows.h"

void
flows_init(struct flow_history *h)
{
	memset(h, 0, sizeof(*h));
}

/* What the history holds beyond itself: the address list. */
void
flows_free(struct flow_history *h)
{
	free(h->local.host);
	h->local.host = NULL;
	h->local.n = h->local.cap = 0;
}

/* One of this machine's addresses (no port): 0, or -1 out of memory. */
int
flows_addr_add(struct flow_addrs *a, const char *host)
{
	char	(*grown)[TT_ADDR_MAX];
	size_t	 cap;

	if (a->n == a->cap) {
		cap = a->cap > 0 ? a->cap * 2 : 32;
		if (cap > SIZE_MAX / sizeof(*grown) ||
		    (grown = realloc(a->host, cap * sizeof(*grown))) == NULL)
			return -1;
		a->host = grown;
		a->cap = cap;
	}
	tt_strlcpy(a->host[a->n++], host, sizeof(a->host[0]));
	return 0;
}

static uint64_t
moved(const struct flow_reading *r)
{
	return r->bytes_acked + r->bytes_received;
}

static struct flow *
find(struct flow_history *h, const struct flow_reading *r)
{
	size_t	i;

	for (i = 0; i < h->top; i++)
		if (h->flows[i].used && h->flows[i].last.id == r->id &&
		    strcmp(h->flows[i].last.remote, r->remote) == 0)
			return &h->flows[i];
	return NULL;
}

/* The local port of "addr:port" or "[v6]:port"; 0 none. */
static unsigned
port_of(const char *endpoint)
{
	const char	*colon = strrchr(endpoint, ':');
	unsigned long	 port;
	char		*end;

	if (colon == NULL)
		return 0;
	port = strtoul(colon + 1, &end, 10);
	return *end == '\0' && port < 65536 ? (unsigned)port : 0;
}

static bool
listening(const struct flow_history *h, unsigned port)
{
	return port != 0 && ((h->listen[0][port / 8] |
	    h->listen[1][port / 8]) & (1u << (port % 8)));
}

/* A connection accepted by a listener here (a service's client). */
static bool
passive(const struct flow_history *h, const struct flow_reading *r)
{
	return listening(h, port_of(r->local));
}

/*
 * Whose share an entry counts in: its owner, where the OS says; the
 * connections a listener of that owner accepted (a service's remote
 * clients: sshd's, a web server's) apart from the owner's own; all those
 * of an unknown owner (Windows, a connection seen only in its close
 * notice) as one.
 */
static bool
same_owner(const struct flow *f, const struct flow_reading *r, bool pasv)
{
	const struct flow_reading	*a = &f->last;

	if (!(a->known & FLOW_KNOWS_UID) || !(r->known & FLOW_KNOWS_UID))
		return !(a->known & FLOW_KNOWS_UID) &&
		    !(r->known & FLOW_KNOWS_UID);
	return a->uid == r->uid && f->passive == pasv;
}

/* Whether f is a better one to give up than best: gone, then older. */
static bool
staler(const struct flow *f, const struct flow *best)
{
	return best == NULL || (best->open && !f->open) ||
	    (best->open == f->open && f->last_ms < best->last_ms);
}

/*
 * A free slot among those used so far, a new one, else the one seen
 * longest ago (a gone one first); but an owner that holds
 * FLOWS_UID_SHARE entries of the full history gives up its own, so that
 * one user's connections (140 of them filled the table) cannot push
 * everyone else's out.  A connection whose owner is unknown takes only
 * the place of another such (NULL when there is none: it is not kept),
 * never that of one whose owner is known: a user's short connections,
 * seen only as they closed, evicted root's.
 */
static struct flow *
slot(struct flow_history *h, const struct flow_reading *r, bool pasv)
{
	struct flow	*best = NULL, *own = NULL, *f;
	size_t		 i, mine = 0;

	for (i = 0; i < h->top; i++) {
		f = &h->flows[i];
		if (!f->used)
			return f;
		if (same_owner(f, r, pasv)) {
			mine++;
			if (staler(f, own))
				own = f;
		}
		if (staler(f, best))
			best = f;
	}
	if (h->top < FLOWS_MAX)
		return &h->flows[h->top++];
	h->evicted++;
	if (!(r->known & FLOW_KNOWS_UID))
		return own;
	return mine >= FLOWS_UID_SHARE ? own : best;
}

/*
 * "addr:port" or "[v6]:port" into the address alone, an IPv4-mapped
 * IPv6 one as its IPv4 form.
 */
static void
host_of(const char *endpoint, char *buf, size_t len)
{
	const char	*end;
	size_t		 n;

	if (endpoint[0] == '[') {
		endpoint++;
		end = strchr(endpoint, ']');
	} else
		end = strrchr(endpoint, ':');
	n = end != NULL ? (size_t)(end - endpoint) : strlen(endpoint);
	if (n >= len)
		n = len - 1;
	memcpy(buf, endpoint, n);
	buf[n] = '\0';
	if (strncmp(buf, "::ffff:", 7) == 0 && strchr(buf + 7, ':') == NULL)
		memmove(buf, buf + 7, strlen(buf + 7) + 1);
}

static bool
loopback(const char *host)
{
	return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0;
}

static bool
is_local(const char *host, const struct flow_addrs *a)
{
	size_t	i;

	if (loopback(host))
		return true;
	for (i = 0; i < a->n; i++)
		if (strcmp(host, a->host[i]) == 0)
			return true;
	return false;
}

/*
 * Both ends this machine's own (loopback, the same address, or two of
 * its addresses): never evidence of a path's buffers, whatever the round
 * trip (any user's loopback connections with delayed ACKs reach 40 ms).
 */
bool
flows_local_pair(const struct flow_reading *r, const struct flow_addrs *a)
{
	char	local[TT_ADDR_MAX], remote[TT_ADDR_MAX];

	host_of(r->local, local, sizeof(local));
	host_of(r->remote, remote, sizeof(remote));
	/* the local end is this machine's by definition */
	return a->partial || strcmp(local, remote) == 0 ||
	    is_local(remote, a);
}

static void
start(struct flow *f, const struct flow_reading *r, bool pasv,
    uint64_t now_ms)
{
	memset(f, 0, sizeof(*f));
	f->used = true;
	f->passive = pasv;
	f->first = *r;
	f->first_ms = f->prev_ms = now_ms;
	f->prev_bytes = moved(r);
	flows_note_rtt(f, r, false);
}

/*
 * The rate of the interval since the last rated reading; the peak is
 * kept.  An interval shorter than a round trip gives no rate, and its
 * bytes count in the next one: acknowledgements come in bursts of up to
 * a window, so within a round trip a sender paced at 20 Mbit/s read as
 * 419 Mbit/s (a close 5 ms after a live reading, on a loaded machine).
 * Linux's own delivery rate drops such samples for the same reason
 * (torvalds/linux net/ipv4/tcp_rate.c, tcp_rate_gen: "Normally we expect
 * interval_us >= min-rtt").
 */
static void
update(struct flow *f, const struct flow_reading *r, uint64_t now_ms)
{
	uint64_t	bytes = moved(r), span_ms, bps;

	flows_note_rtt(f, r, false);
	if (now_ms >= f->prev_ms && bytes >= f->prev_bytes) {
		span_ms = now_ms - f->prev_ms;
		if (span_ms == 0 || span_ms * 1000 < r->rtt_us)
			return;
		bps = (bytes - f->prev_bytes) * 8000 / span_ms;
		if (bps > f->peak_bps) {
			f->peak_bps = bps;
			flows_note_rtt(f, r, true);
		}
	}
	f->prev_ms = now_ms;
	f->prev_bytes = bytes;
}

void
flows_begin_pass(struct flow_history *h, uint64_t now_ms)
{
	/* the older of the two becomes this pass's, cleared (untouched,
	   its pages stay shared zero pages, when nothing listened) */
	h->listen_now ^= 1;
	if (h->nlisten[h->listen_now] > 0)
		memset(h->listen[h->listen_now], 0,
		    sizeof(h->listen[h->listen_now]));
	h->nlisten[h->listen_now] = 0;
	h->passes++;
	h->last_pass_ms = now_ms;
	h->problem[0] = '\0';
}

/* One reading of a pass: its history entry is made or brought up to date. */
void
flows_take(struct flow_history *h, const struct flow_reading *r,
    const struct flow_limits *lim, uint64_t now_ms)
{
	struct flow	*f;
	unsigned	 port;

	if (r->listening) {
		if ((port = port_of(r->local)) != 0) {
			h->listen[h->listen_now][port / 8] |= 1u << (port % 8);
			h->nlisten[h->listen_now]++;
		}
		return;
	}
	if (moved(r) < FLOW_TRACK_BYTES || flows_local_pair(r, &h->local))
		return;
	if ((f = find(h, r)) == NULL) {
		if ((f = slot(h, r, passive(h, r))) == NULL)
			return;
		start(f, r, passive(h, r), now_ms);
	} else if (!f->open)
		return;		/* judged already: closed since the dump */
	else
		update(f, r, now_ms);
	f->last = *r;
	f->last_ms = now_ms;
	f->limits = *lim;
	f->seen_pass = h->passes;
	f->open = true;
	f->readings++;
	f->app_limited += r->app_limited;
	if (r->rcvbuf > f->rcvbuf_max)
		f->rcvbuf_max = r->rcvbuf;
	if (r->sndbuf > f->sndbuf_max)
		f->sndbuf_max = r->sndbuf;
}

/* What the verdict of a closed connection rests on, for -d. */
static void
log_closed(const struct flow *f, const struct flow_verdict *v)
{
	log_debug("flow %s -> %s closed: %s, %llu bit/s, rtt %u us, busy "
	    "%llu us, rwnd-limited %llu, sndbuf-limited %llu over %llu ms, "
	    "app-limited %u of %u readings, rcvbuf %llu, sndbuf %llu, "
	    "cwnd %llu, peer window %llu, send queue %llu of %llu at the "
	    "peak; there cwnd %llu, peer window %llu, in flight %llu, "
	    "unsent %llu, retransmitted %u, rtt %u us of the path's %u; "
	    "out of order received %u",
	    f->last.local, f->last.remote, held_by_name(v->held),
	    (unsigned long long)v->rate_bps, f->last.rtt_us,
	    (unsigned long long)(f->last.busy_us - f->first.busy_us),
	    (unsigned long long)(f->last.rwnd_limited_us -
	    f->first.rwnd_limited_us),
	    (unsigned long long)(f->last.sndbuf_limited_us -
	    f->first.sndbuf_limited_us),
	    (unsigned long long)(f->last_ms - f->first_ms), f->app_limited,
	    f->readings, (unsigned long long)f->rcvbuf_max,
	    (unsigned long long)f->sndbuf_max,
	    (unsigned long long)f->last.cwnd_bytes,
	    (unsigned long long)f->last.peer_wnd,
	    (unsigned long long)f->peak_queued,
	    (unsigned long long)f->peak_sndbuf,
	    (unsigned long long)f->peak_cwnd,
	    (unsigned long long)f->peak_peer_wnd,
	    (unsigned long long)f->peak_in_flight,
	    (unsigned long long)f->peak_notsent, f->peak_retrans,
	    f->peak_rtt_us, f->path_rtt_us,
	    f->last.rcv_ooopack - (f->at_close ? 0 : f->first.rcv_ooopack));
}

/* A closed connection's verdict is final: counted once (held_total). */
static void
judge_closed(struct flow_history *h, struct flow *f)
{
	struct flow_verdict	 v;

	f->open = false;
	flows_classify(f, &v);
	log_closed(f, &v);
	if (v.held != HELD_UNCLASSIFIED)
		h->held_total[v.held]++;
}

/*
 * A connection not in this pass has closed; one older than
 * FLOWS_MAX_AGE is forgotten.
 */
void
flows_end_pass(struct flow_history *h, uint64_t now_ms)
{
	struct flow	*f;
	size_t		 i;

	for (i = 0; i < h->top; i++) {
		f = &h->flows[i];
		if (!f->used)
			continue;
		if (f->open && f->seen_pass != h->passes)
			judge_closed(h, f);
		if (!f->open && now_ms - f->last_ms > FLOWS_MAX_AGE * 1000ULL)
			f->used = false;
	}
}

/*
 * What a close notice does not carry (Linux sends no owner and no
 * buffers: net/ipv4/inet_diag.c inet_diag_handler_get_info) is kept from
 * the connection's last live reading.
 */
static void
keep_unknown(struct flow_reading *r, const struct flow_reading *last)
{
	if (!(r->known & FLOW_KNOWS_UID) && (last->known & FLOW_KNOWS_UID)) {
		r->uid = last->uid;
		r->known |= FLOW_KNOWS_UID;
	}
	if (r->rcvbuf == 0 && r->sndbuf == 0) {
		r->rcvbuf = last->rcvbuf;
		r->sndbuf = last->sndbuf;
		r->rmem_alloc = last->rmem_alloc;
	}
	/* the send queue as the interval to the close began: a notice
	   often closes an upload's fastest interval (send_queue_full) */
	if (!(r->known & FLOW_KNOWS_SND_QUEUE) &&
	    (last->known & FLOW_KNOWS_SND_QUEUE)) {
		r->wmem_queued = last->wmem_queued;
		r->known |= FLOW_KNOWS_SND_QUEUE;
	}
}

/*
 * A connection never read live, seen first in its close notice: its
 * history starts with nothing moved, as long before as it was busy
 * sending (tcpi_busy_time); a download (busy 0) as long before as its
 * bytes took at the rate its receive autotuning saw (flows_close_rate).
 */
static void
start_at_close(struct flow_history *h, struct flow *f,
    const struct flow_reading *r, uint64_t now_ms)
{
	start(f, r, passive(h, r), now_ms);
	f->first.bytes_acked = f->first.bytes_received = 0;
	f->first.busy_us = f->first.rwnd_limited_us = 0;
	f->first.sndbuf_limited_us = 0;
	f->prev_bytes = 0;
	if (r->busy_us / 1000 < now_ms)
		f->first_ms = f->prev_ms = now_ms - r->busy_us / 1000;
	f->at_close = true;
	flows_close_rate(f, r, now_ms);
	h->closes_unsampled++;
}

/*
 * When a closing connection last moved data: a program may close it well
 * after its transfer (iperf3 after its report), and that idle time is not
 * part of the transfer (it read as an idle application).  Never before
 * the last live reading, and then at it, not a millisecond after: an
 * upload's last data goes out a round trip or more before its last
 * acknowledgement comes in, and a reading between the two left a window
 * of bytes to the close; over a made-up 1 ms that window read as a rate
 * (1.5 Gbit/s for a sender paced at 20 Mbit/s, on a loaded machine where
 * a queue in the path stretched the round trip), so that interval gives
 * no rate (update).
 */
static uint64_t
transfer_end(const struct flow_reading *r, uint64_t after_ms,
    uint64_t now_ms)
{
	uint64_t	end = now_ms;

	if (r->idle_ms > 0 && r->idle_ms < now_ms)
		end = now_ms - r->idle_ms;
	return end > after_ms ? end : after_ms;
}

/*
 * A close notice: the connection's last reading ends its history entry
 * and its verdict is counted, whenever it closed (flows.h).  Its
 * app-limited flag is not counted: every connection ends app-limited.
 */
void
flows_close(struct flow_history *h, const struct flow_reading *r,
    const struct flow_limits *lim, uint64_t now_ms)
{
	struct flow_reading	 last = *r;
	struct flow		*f;
	uint64_t		 end_ms;

	h->closes++;
	if (moved(r) < FLOW_TRACK_BYTES || flows_local_pair(r, &h->local))
		return;
	if ((f = find(h, r)) != NULL) {
		if (!f->open)
			return;
		keep_unknown(&last, &f->last);
		end_ms = transfer_end(r, f->last_ms, now_ms);
	} else {
		if ((f = slot(h, r, passive(h, r))) == NULL)
			return;
		end_ms = transfer_end(r, 0, now_ms);
		start_at_close(h, f, r, end_ms);
		f->limits = *lim;
	}
	update(f, &last, end_ms);
	f->last = last;
	f->last_ms = end_ms;
	f->readings++;
	judge_closed(h, f);
}

/* ---- to the wire */

void
flows_to_msg(const struct flow *f, const struct flow_verdict *v,
    struct msg_flow *m)
{
	uint64_t	age_s = 0, now_ms = tt_mono_ms();

	memset(m, 0, sizeof(*m));
	tt_strlcpy(m->local, f->last.local, sizeof(m->local));
	tt_strlcpy(m->remote, f->last.remote, sizeof(m->remote));
	if (v->ceiling != NULL && v->ceiling->key != NULL)
		tt_strlcpy(m->ceiling_key, v->ceiling->key,
		    sizeof(m->ceiling_key));
	m->ceiling_bytes = v->ceiling_bytes;
	m->rate_bps = v->rate_bps;
	m->allowed_bps = v->allowed_bps;
	m->possible_bps = v->possible_bps;
	m->bytes = v->bytes;
	if (now_ms > f->last_ms)
		age_s = (now_ms - f->last_ms) / 1000;
	m->last_seen = (int64_t)time(NULL) - (int64_t)age_s;
	m->rtt_us = f->last.rtt_us;
	m->held_by = v->held;
	m->uid = f->last.known & FLOW_KNOWS_UID ? f->last.uid :
	    TT_UID_UNKNOWN;
	m->receiving = v->receiving;
	m->open = f->open;
	m->path_rtt_us = v->path_rtt_us;
	m->window_cap = v->window_cap;
	m->flags = (v->path_full ? TT_FLOW_PATH_FULL : 0) |
	    (v->at_close ? TT_FLOW_AT_CLOSE : 0) |
	    (v->sender_slow ? TT_FLOW_SENDER_SLOW : 0) |
	    (f->last.known & FLOW_KNOWS_WSCALE ? 0 : TT_FLOW_WSCALE_UNKNOWN);
}

/* Whether uid owns f: never when the OS does not say (Windows). */
bool
flows_owned_by(const struct flow *f, unsigned long uid)
{
	return (f->last.known & FLOW_KNOWS_UID) && f->last.uid == uid;
}

/* The receive ceiling most of the history's receive-buffer flows hit. */
static void
summary_ceiling(const struct flow_verdict *v, struct msg_diag_summary *s)
{
	if (v->held != HELD_RECEIVE_BUFFER || v->ceiling == NULL ||
	    v->ceiling->key == NULL)
		return;
	s->rcv_ceiling_flows++;
	if (s->rcv_ceiling_bytes == 0 || v->ceiling_bytes <
	    s->rcv_ceiling_bytes) {
		s->rcv_ceiling_bytes = v->ceiling_bytes;
		tt_strlcpy(s->rcv_ceiling_key, v->ceiling->key,
		    sizeof(s->rcv_ceiling_key));
	}
}

/* The open connections a window scale keeps below the ceiling now. */
static void
summary_window_cap(const struct flow *f, const struct flow_verdict *v,
    struct msg_diag_summary *s)
{
	if (v->window_cap > 0)
		s->capped++;
	else if (f->open && !(f->last.known & FLOW_KNOWS_WSCALE))
		s->capped_unknown++;
}

/*
 * The counts of the whole history, every user's; nhidden counts the
 * classified flows a client that is not privileged does not see (not
 * its uid's).
 */
void
flows_summary(const struct flow_history *h, unsigned long uid,
    bool privileged, struct msg_diag_summary *s)
{
	struct flow_verdict	 v;
	const struct flow	*f;
	size_t			 i;

	memset(s, 0, sizeof(*s));
	s->now = (int64_t)time(NULL);
	if (h->passes > 0)
		s->last_pass = s->now - (int64_t)((tt_mono_ms() -
		    h->last_pass_ms) / 1000);
	s->pass_ms = h->last_pass_ms_cost;
	s->history_sec = FLOWS_MAX_AGE;
	memcpy(s->held_total, h->held_total, sizeof(s->held_total));
	tt_strlcpy(s->problem, h->problem, sizeof(s->problem));
	s->closes = h->closes;
	s->closes_unsampled = h->closes_unsampled;
	s->evicted = h->evicted;
	s->tick_ms = FLOW_TICK_MS;
	for (i = 0; i < h->top; i++) {
		if (!(f = &h->flows[i])->used)
			continue;
		s->ntracked++;
		flows_classify(f, &v);
		s->held_recent[v.held]++;
		summary_ceiling(&v, s);
		summary_window_cap(f, &v, s);
		if (!privileged && !flows_owned_by(f, uid) &&
		    v.held != HELD_UNCLASSIFIED)
			s->nhidden++;
	}
}
