/*
 * What held a connection back, from its history entry (flows.h, flows.c
 * keeps the entries): the same on every OS, so tests/unit/test_flows.c
 * drives it with recorded readings.
 *
 * The rules, for a connection that moved FLOW_MIN_BYTES over a round
 * trip of at least FLOW_MIN_RTT_US (below, it is a LAN or loopback and
 * buffers are not its limit), at its rate over its fastest interval
 * between readings of at least a round trip (flows.c update):
 *
 *  - the round trip a buffer is judged at is the path's own, the least
 *    the connection showed (Linux tcpi_min_rtt, the windowed minimum of
 *    its RTT samples, net/ipv4/tcp_input.c tcp_update_rtt_min; else the
 *    lowest smoothed RTT of its readings), never one a queue inflated: a
 *    full path's queue stretches the round trip until any window looks
 *    binding (a 900 Mbit/s download at a 64 MiB ceiling read as
 *    receive-buffer);
 *  - the path was full when the round trip at the fastest interval (the
 *    larger of the sender's smoothed RTT and the receiver's own estimate,
 *    tcpi_rcv_rtt, net/ipv4/tcp_input.c tcp_rcv_rtt_measure_ts: a
 *    download's tcpi_rtt stays at the handshake's) grew to
 *    FLOW_RTT_GROWN_PCT % of the least: more was in flight than the path
 *    passes, the excess in a queue, so no buffer verdict stands (network,
 *    "a larger buffer would not help"), nor a peer-window one; but a
 *    sender whose whole send buffer was in flight with room in its
 *    windows at the fastest interval (Linux tcpi_notsent_bytes,
 *    tcpi_unacked: window_held) is held by that buffer whatever the round
 *    trip did (a delay line starved of CPU grows it too);
 *  - receiving (more bytes in than acknowledged out): receive-buffer
 *    when its receive buffer grew to a ceiling (the autotuning one, or
 *    fixed_factor times the one on a buffer a program set) and the rate
 *    was at least FLOW_BINDS_NUM/DEN of what that buffer allows at the
 *    path's round trip; else application when the receive queue held
 *    half the buffer at the fastest interval (the program did not read); else application too
 *    (the far end sent no faster: its program or its send buffer) when
 *    no segment arrived out of order over the flow's history (Linux
 *    tcpi_rcv_ooopack: no loss), the round trip did not grow (no queue)
 *    and the window the buffer offered allowed FLOW_WINDOW_SPARE times
 *    the rate (sender_held_back); else network (the sender's side, which
 *    this end cannot see: not this machine's buffers; also where the OS
 *    does not count out-of-order segments, macOS and Windows);
 *  - sending: where the OS says how long the connection was limited and
 *    by what (Linux tcp_info, include/uapi/linux/tcp.h: tcpi_busy_time is
 *    the total of the busy, rwnd-limited and sndbuf-limited times,
 *    net/ipv4/tcp.c tcp_get_info_chrono_stats), send-buffer or
 *    peer-window when that time is over half of the busy time; also
 *    send-buffer when the send queue held at least half of the
 *    send buffer at the fastest interval (Linux sk_wmem_queued,
 *    INET_DIAG_SKMEMINFO), the buffer at a ceiling and the rate near what
 *    it allows (send_queue_full: the limited time misses a sender held
 *    in slow start or on a long path); also
 *    peer-window when the far end's window (tcpi_snd_wnd) at the fastest
 *    interval is below the congestion window there and the rate is what
 *    it allows at the path's round trip; network instead of peer-window
 *    when the path was full at the fastest interval (the round trip grew,
 *    or segments were retransmitted in it);
 *    application when the connection was busy less than half of the
 *    time, or most of its rate samples were application-limited
 *    (tcpi_delivery_rate_app_limited), or its congestion window allowed
 *    over twice its rate (a paced sender keeps data in flight all the
 *    time, so busy alone does not show it); else network.  Where the OS
 *    does not say, send-buffer when the send buffer reached its ceiling
 *    at the rate it allows, else network;
 *  - a connection seen only in its close notice (Linux: the tcp_info at
 *    close, flows_linux.c) has no buffer sizes: its buffer is taken to be
 *    the autotuning ceiling, which the rate rule above then confirms or
 *    not; its rate is an upload's bytes over its busy time, a download's
 *    most bytes read in one round trip (tcpi_rcv_space, the most the
 *    program copied in one receiver RTT, net/ipv4/tcp_input.c
 *    tcp_rcv_space_adjust) over that round trip (flows_close_rate).
 *
 * "What a buffer allows": a TCP advertises about half of its receive
 * buffer as window (the rest is kernel overhead: Linux tcp_adv_win_scale
 * 1 before 6.6, scaling_ratio since, Documentation/networking/ip-sysctl.rst;
 * macOS and Windows count the buffer as window, so half is the cautious
 * side), and one window goes per round trip.
 *
 * A connection's receive window can never pass 65535 << its window
 * scale, fixed by the SYNs from the ceiling in force then (Linux
 * net/ipv4/tcp_output.c tcp_select_initial_window: the scale from the
 * larger of tcp_rmem[2] and rmem_max, the least with the ceiling under
 * 65536 << scale; xnu bsd/netinet/tcp_subr.c tcp_set_max_rwinscale, the
 * same from autorcvbufmax): one opened before a ceiling rose, with
 * 65536 << scale under the ceiling now, cannot use it until it
 * reconnects (flows_window_cap).
 */
#include "config.h"

#include <string.h>

#include "tcptuned.h"
#include "flows.h"

#define TCP_MAXWIN	65535	/* RFC 7323 2.2: the unscaled window */

/* Bits per second one round trip of half of buf allows. */
uint64_t
flows_window_rate(uint64_t buf, uint32_t rtt_us)
{
	if (rtt_us == 0)
		return 0;
	return buf * 4000000ULL / rtt_us;
}

/* A reading's round trip now: the larger of the two ends' estimates. */
static uint32_t
rtt_now(const struct flow_reading *r)
{
	return r->rcv_rtt_us > r->rtt_us ? r->rcv_rtt_us : r->rtt_us;
}

/*
 * The send and receive queues and buffers of the reading that closed the
 * fastest interval (send_queue_full, receive_queue_full): 0, unknown,
 * when the reading does not say (macOS, Windows; a close notice has the
 * last live reading's, flows.c keep_unknown).
 */
static void
note_queues(struct flow *f, const struct flow_reading *r)
{
	bool	known = (r->known & FLOW_KNOWS_SND_QUEUE) && r->sndbuf > 0;

	f->peak_queued = known ? r->wmem_queued : 0;
	f->peak_sndbuf = known ? r->sndbuf : 0;
	f->peak_rmem = r->rcvbuf > 0 ? r->rmem_alloc : 0;
	f->peak_rcvbuf = r->rcvbuf;
}

/*
 * The sender's windows at the reading that closed the fastest interval,
 * and the segments it retransmitted in that interval (flows.c update
 * calls this before f->last becomes r: f->last is the reading before).
 * A reading taken once the transfer was over (nothing in flight, nothing
 * unsent: a close notice, after the last acknowledgement) says nothing of
 * what held it: the windows are then the last live reading's, as the
 * send queue is (flows.c keep_unknown).
 */
static void
note_peak(struct flow *f, const struct flow_reading *r)
{
	const struct flow_reading	*w = r;

	if ((r->known & FLOW_KNOWS_NOTSENT) && r->in_flight == 0 &&
	    r->notsent == 0 && f->readings > 0)
		w = &f->last;
	f->peak_known = w->known & (FLOW_KNOWS_CWND | FLOW_KNOWS_PEER_WND |
	    FLOW_KNOWS_NOTSENT);
	f->peak_cwnd = w->cwnd_bytes;
	f->peak_peer_wnd = w->peer_wnd;
	f->peak_in_flight = w->in_flight;
	f->peak_notsent = w->notsent;
	f->peak_retrans = r->retrans > f->last.retrans ?
	    r->retrans - f->last.retrans : 0;
	note_queues(f, r);
}

/*
 * The path's least round trip, kept lowest over the flow's readings; and
 * the round trip and the sender's windows at the peak rate, at_peak when
 * r gave it.
 */
void
flows_note_rtt(struct flow *f, const struct flow_reading *r, bool at_peak)
{
	uint32_t	least = r->rtt_us;

	if ((r->known & FLOW_KNOWS_MIN_RTT) && r->min_rtt_us > 0 &&
	    (least == 0 || r->min_rtt_us < least))
		least = r->min_rtt_us;
	if (least > 0 && (f->path_rtt_us == 0 || least < f->path_rtt_us))
		f->path_rtt_us = least;
	if (at_peak || f->peak_rtt_us == 0)
		f->peak_rtt_us = rtt_now(r);
	if (at_peak)
		note_peak(f, r);
}

/*
 * The peak rate of a connection seen only as it closed, and when it
 * started (first_ms) from its bytes at that rate.  A download's: the
 * most its program read in one receiver round trip (tcpi_rcv_space) over
 * that round trip; an upload keeps its bytes over its busy time
 * (flows.c start_at_close).
 */
void
flows_close_rate(struct flow *f, const struct flow_reading *r,
    uint64_t end_ms)
{
	uint32_t	rtt = r->rcv_rtt_us > 0 ? r->rcv_rtt_us : r->rtt_us;
	uint64_t	bps, ms;

	if (r->bytes_received <= r->bytes_acked ||
	    !(r->known & FLOW_KNOWS_RCV_SPACE) || r->rcv_space == 0 ||
	    rtt == 0)
		return;
	bps = r->rcv_space * 8000000ULL / rtt;
	if (bps == 0)
		return;
	/* rounded up: the average over the span stays at most the peak */
	ms = (r->bytes_received * 8000 + bps - 1) / bps;
	f->peak_bps = bps;
	f->peak_rtt_us = rtt_now(r);
	if (ms < end_ms)
		f->first_ms = f->prev_ms = end_ms - ms;
}

/* The round trip grew to FLOW_RTT_GROWN_PCT % of the path's: a queue. */
static bool
rtt_grew(const struct flow *f)
{
	return f->path_rtt_us > 0 && (uint64_t)f->peak_rtt_us * 100 >=
	    (uint64_t)f->path_rtt_us * FLOW_RTT_GROWN_PCT;
}

static bool
reached(const struct flow_ceiling *c, uint64_t buf)
{
	uint64_t	at = c->bytes * (c->factor > 0 ? c->factor : 1);

	if (c->key == NULL || c->bytes == 0)
		return false;
	return c->exact ? buf == at : buf >= at;
}

/*
 * The ceiling buf reached, of the two a direction has; NULL none.  A
 * program's own buffer is exactly fixed_factor times its capped request,
 * so only that size names the fixed ceiling: autotuning passes it by.
 */
static const struct flow_ceiling *
ceiling_reached(const struct flow_ceiling *autotune,
    const struct flow_ceiling *fixed, uint64_t buf)
{
	if (reached(autotune, buf))
		return autotune;
	if (reached(fixed, buf))
		return fixed;
	return NULL;
}

/* The buffer a ceiling gives one socket, in the buffer's own bytes. */
static uint64_t
ceiling_buffer(const struct flow_ceiling *c, uint64_t bytes)
{
	return c->factor > 1 ? bytes * c->factor : bytes;
}

/*
 * The buffer a direction's verdict looks at: the largest read live; for
 * a connection seen only at its close (no sizes in a notice), the
 * autotuning ceiling's, which the rate must then bear out (binds).
 */
static uint64_t
buffer_of(const struct flow *f, uint64_t seen, const struct flow_ceiling *c)
{
	if (seen == 0 && f->at_close)
		return ceiling_buffer(c, c->bytes);
	return seen;
}

/* The rate near what buf allows at the path's own round trip. */
static bool
binds(const struct flow_verdict *v, uint64_t buf)
{
	return v->rate_bps * FLOW_BINDS_DEN >= flows_window_rate(buf,
	    v->path_rtt_us) * FLOW_BINDS_NUM;
}

/*
 * At the fastest interval the sender's program had written more than its
 * windows let out: in flight and unsent together (tcpi_unacked segments,
 * tcpi_notsent_bytes) over the smaller of the congestion window and the
 * far end's.  A sender held by its send buffer has it all in flight and
 * room to spare in the window (in slow start the window grows to twice
 * the flight, net/ipv4/tcp_output.c tcp_cwnd_validate: 19 MB of window
 * for an 8 MiB buffer); one its congestion window holds on a full path
 * keeps data unsent behind a full window (45 MB queued of a 64 MiB
 * buffer, 29 MB of window).  Where the OS does not say (a kernel before
 * 4.6, macOS, Windows): true, the round trip alone decides, as before.
 */
static bool
window_held(const struct flow *f)
{
	uint64_t	wnd = f->peak_cwnd;

	if ((f->peak_known & (FLOW_KNOWS_NOTSENT | FLOW_KNOWS_CWND)) !=
	    (FLOW_KNOWS_NOTSENT | FLOW_KNOWS_CWND))
		return true;
	if ((f->peak_known & FLOW_KNOWS_PEER_WND) && f->peak_peer_wnd > 0 &&
	    f->peak_peer_wnd < wnd)
		wnd = f->peak_peer_wnd;
	return f->peak_in_flight + f->peak_notsent > wnd;
}

/*
 * The path was full at the fastest interval: its round trip grew (a
 * queue), so a larger buffer would not have helped.  Not for a sender
 * whose whole send buffer was in flight with room in its windows
 * (window_held): that buffer held it whatever the round trip did (an
 * 8 MiB upload's round trip grew to 269 ms of 150 on a busy machine, its
 * delay line starved of CPU, with 19 MB of congestion window).
 */
static bool
path_full_for(const struct flow *f, enum held_by held)
{
	return rtt_grew(f) && (held != HELD_SEND_BUFFER || window_held(f));
}

/*
 * The ceiling's figures into v: what it allows, what the wanted one
 * would; network instead when the path was full (path_full_for).
 */
static void
held_by_ceiling(const struct flow *f, struct flow_verdict *v,
    enum held_by held, const struct flow_ceiling *c, uint64_t buf)
{
	if (path_full_for(f, held)) {
		v->held = HELD_NETWORK;
		v->path_full = true;
		return;
	}
	v->allowed_bps = flows_window_rate(buf, v->path_rtt_us);
	if (v->allowed_bps > 0 && v->rate_bps / FLOW_RATE_SLACK >
	    v->allowed_bps) {
		v->allowed_bps = 0;	/* contradicts itself: no verdict */
		return;
	}
	v->held = held;
	v->ceiling = c;
	if (c == NULL)
		return;
	v->ceiling_bytes = c->bytes;
	if (c->wanted > c->bytes)
		v->possible_bps = flows_window_rate(ceiling_buffer(c,
		    c->wanted), v->path_rtt_us);
}

/* Network: the path, full when the round trip grew. */
static void
held_by_network(const struct flow *f, struct flow_verdict *v)
{
	v->held = HELD_NETWORK;
	v->path_full = rtt_grew(f);
}

/*
 * A download the far end sent slower than this end's window allowed,
 * with no sign the path held it: no segment received out of order over
 * the flow's history (tcpi_rcv_ooopack, the first reading's against the
 * last: no loss), the round trip not grown (no queue), and the window
 * the largest receive buffer offered allowing FLOW_WINDOW_SPARE times
 * the rate at the path's round trip.  The far end's program (paced, as
 * iperf3 -b) or its send buffer held it.  A sender whose congestion
 * window a loss cut shows the hole here; one that filled the path, the
 * queue.  Where the OS does not count out-of-order segments (macOS and
 * Windows readings, a kernel before 5.4): not judged, network as before.
 */
static bool
sender_held_back(const struct flow *f, const struct flow_verdict *v)
{
	uint32_t	before = f->at_close ? 0 : f->first.rcv_ooopack;

	if (!(f->last.known & FLOW_KNOWS_RCV_OOO) || (!f->at_close &&
	    !(f->first.known & FLOW_KNOWS_RCV_OOO)))
		return false;
	if (f->last.rcv_ooopack != before || rtt_grew(f))
		return false;
	return v->rate_bps * FLOW_WINDOW_SPARE <=
	    flows_window_rate(f->rcvbuf_max, v->path_rtt_us);
}

/*
 * The program read slower than data came: its receive queue held half
 * of the buffer at the fastest interval (where that reading did not say,
 * at the last).  Not the last reading alone: a receiver a busy machine
 * starved for a moment at the end of a download that filled a 1 Gbit/s
 * link read as application (tests/system/diagnose.sh, under load).
 */
static bool
receive_queue_full(const struct flow *f)
{
	if (f->peak_rcvbuf > 0)
		return f->peak_rmem * 2 >= f->peak_rcvbuf;
	return f->last.rcvbuf > 0 && f->last.rmem_alloc * 2 >= f->last.rcvbuf;
}

static void
classify_receiving(const struct flow *f, struct flow_verdict *v)
{
	const struct flow_ceiling	*c;
	uint64_t			 buf;

	buf = buffer_of(f, f->rcvbuf_max, &f->limits.rcv_auto);
	c = ceiling_reached(&f->limits.rcv_auto, &f->limits.rcv_fixed, buf);
	if (c != NULL && binds(v, buf)) {
		held_by_ceiling(f, v, HELD_RECEIVE_BUFFER, c, buf);
		return;
	}
	if (receive_queue_full(f))
		v->held = HELD_APPLICATION;
	else if (sender_held_back(f, v)) {
		v->held = HELD_APPLICATION;
		v->sender_slow = true;
	} else
		held_by_network(f, v);
}

/*
 * The far end's window smaller than the congestion window, and the rate
 * what that window gives per round trip: the window binds, even when the
 * kernel's rwnd-limited time stays under half (it counts only the moments
 * a segment waited on the window: 36 % of a transfer held at 320 KiB by
 * a far end's 512 KiB buffer, in tests/system/diagnose.sh).  Both windows
 * as they were at the fastest interval (a transfer's last reading has a
 * window shrunk at its end), and one window per the path's own round
 * trip, never one a queue inflated (a 25 MB window at a 672 ms smoothed
 * RTT looked binding at 689 Mbit/s; at 150 ms it allows 1.35 Gbit/s).
 */
static bool
peer_window_binds(const struct flow *f, const struct flow_verdict *v)
{
	uint64_t	wnd = f->last.peer_wnd, cwnd = f->last.cwnd_bytes;

	if (f->peak_known & FLOW_KNOWS_PEER_WND) {
		wnd = f->peak_peer_wnd;
		cwnd = f->peak_cwnd;
	} else if (!(f->last.known & FLOW_KNOWS_PEER_WND))
		return false;
	if (wnd == 0 || v->path_rtt_us == 0 || wnd >= cwnd)
		return false;
	return v->rate_bps * 2 >= wnd * 8000000 / v->path_rtt_us;
}

/*
 * Peer-window, unless the path was full at the fastest interval: its
 * round trip grew, or it dropped segments (the sender retransmitted in
 * that interval).  A flight the far end's window bounded still filled the
 * path, so a larger window would not have helped: network.  Linux counts
 * as rwnd-limited a sender in slow start whose far end's window, grown by
 * receive autotuning once a round trip, trails it (a 6 s upload with 64
 * MiB ceilings at both ends, over a path it then filled).
 */
static void
held_by_peer_window(const struct flow *f, struct flow_verdict *v)
{
	if (rtt_grew(f) || f->peak_retrans > 0)
		held_by_network(f, v);
	else
		v->held = HELD_PEER_WINDOW;
}

/*
 * The congestion window allowed over twice the rate: neither the network
 * nor a window held the flow, the program wrote no faster (a sender
 * paced at 20 Mbit/s kept a 2.7 MB window at 125 ms, 178 Mbit/s).
 */
static bool
cwnd_spare(const struct flow_reading *r, uint64_t rate_bps)
{
	if (!(r->known & FLOW_KNOWS_CWND) || r->rtt_us == 0)
		return false;
	return rate_bps * 2 < r->cwnd_bytes * 8000000 / r->rtt_us;
}

/*
 * The send queue held at least FLOW_SND_QUEUE_FULL_NUM/DEN of the send
 * buffer at the fastest interval: the writer was blocked on a full
 * buffer.  A writer fills the buffer to sk_sndbuf and sleeps
 * (include/net/sock.h __sk_stream_memory_free) until as much is free as
 * half of what is queued (net/core/stream.c sk_stream_write_space,
 * sk_stream_wspace >= sk_stream_min_wspace), a third of the buffer: a
 * sender held by its buffer keeps two thirds of it queued or more (a
 * little less when read before the woken writer refilled it: hence
 * half, FLOW_SND_QUEUE_FULL_NUM/DEN); a
 * paced or idle program keeps about what is in flight, far below (the
 * buffer autotunes to twice the congestion window's memory,
 * net/ipv4/tcp_input.c tcp_sndbuf_expand).  Linux's send-buffer-limited
 * time misses such a sender: it runs only while the connection is not
 * cwnd-limited (net/ipv4/tcp_output.c tcp_cwnd_validate), so it stays
 * low in slow start and on a long path; and a buffer all in flight
 * leaves less than a segment unsent, which marks the rate samples
 * application-limited (net/ipv4/tcp_rate.c tcp_rate_check_app_limited),
 * as a slow program's would be.
 */
static bool
send_queue_full(const struct flow *f)
{
	return f->peak_sndbuf > 0 && f->peak_queued * FLOW_SND_QUEUE_FULL_DEN >=
	    f->peak_sndbuf * FLOW_SND_QUEUE_FULL_NUM;
}

/*
 * Held by the send buffer although the limited time did not say so: the
 * queue full (send_queue_full), the buffer at a ceiling, and the rate
 * near what that buffer allows at the path's round trip (binds).
 */
static bool
send_buffer_by_queue(const struct flow *f, const struct flow_verdict *v,
    uint64_t buf)
{
	return send_queue_full(f) && binds(v, buf) &&
	    ceiling_reached(&f->limits.snd_auto, &f->limits.snd_fixed,
	    buf) != NULL;
}

/* Sending, where the OS keeps the limited times. */
static void
classify_sending_timed(const struct flow *f, struct flow_verdict *v)
{
	uint64_t	busy = f->last.busy_us - f->first.busy_us;
	uint64_t	snd = f->last.sndbuf_limited_us -
			    f->first.sndbuf_limited_us;
	uint64_t	rwnd = f->last.rwnd_limited_us -
			    f->first.rwnd_limited_us;
	uint64_t	wall_us = (f->last_ms - f->first_ms) * 1000;
	uint64_t	buf = buffer_of(f, f->sndbuf_max, &f->limits.snd_auto);

	if ((busy > 0 && snd * 2 > busy) || send_buffer_by_queue(f, v, buf))
		held_by_ceiling(f, v, HELD_SEND_BUFFER, ceiling_reached(
		    &f->limits.snd_auto, &f->limits.snd_fixed, buf), buf);
	else if ((busy > 0 && rwnd * 2 > busy) || peer_window_binds(f, v))
		held_by_peer_window(f, v);
	else if (busy * 2 < wall_us || f->app_limited * 2 > f->readings ||
	    cwnd_spare(&f->last, v->rate_bps))
		v->held = HELD_APPLICATION;
	else
		held_by_network(f, v);
}

static void
classify_sending(const struct flow *f, struct flow_verdict *v)
{
	const struct flow_ceiling	*c;
	uint64_t			 buf = f->sndbuf_max;

	if (f->last.known & FLOW_KNOWS_LIMITED) {
		classify_sending_timed(f, v);
		return;
	}
	c = ceiling_reached(&f->limits.snd_auto, &f->limits.snd_fixed, buf);
	if (c != NULL && binds(v, buf))
		held_by_ceiling(f, v, HELD_SEND_BUFFER, c, buf);
	else
		held_by_network(f, v);
}

/*
 * The window an open connection's receive window scale caps it at, when
 * that is below the receive ceiling now (the larger of the two, as the
 * kernel picks the scale from): 0 when it is not, or unknown.
 */
uint64_t
flows_window_cap(const struct flow *f)
{
	uint64_t	ceiling = f->limits.rcv_auto.bytes;

	if (!f->open || !(f->last.known & FLOW_KNOWS_WSCALE) ||
	    f->last.rcv_wscale > 14)
		return 0;
	if (f->limits.rcv_fixed.bytes > ceiling)
		ceiling = f->limits.rcv_fixed.bytes;
	if (((uint64_t)TCP_MAXWIN + 1) << f->last.rcv_wscale >= ceiling)
		return 0;
	return (uint64_t)TCP_MAXWIN << f->last.rcv_wscale;
}

void
flows_classify(const struct flow *f, struct flow_verdict *v)
{
	uint64_t	in = f->last.bytes_received - f->first.bytes_received;
	uint64_t	out = f->last.bytes_acked - f->first.bytes_acked;

	memset(v, 0, sizeof(*v));
	v->receiving = in > out;
	v->bytes = in > out ? in : out;
	v->rate_bps = f->peak_bps;
	v->path_rtt_us = f->path_rtt_us > 0 ? f->path_rtt_us : f->last.rtt_us;
	v->at_close = f->at_close;
	v->window_cap = flows_window_cap(f);
	if (v->bytes < FLOW_MIN_BYTES || f->last.rtt_us < FLOW_MIN_RTT_US ||
	    f->last_ms <= f->first_ms)
		return;		/* HELD_UNCLASSIFIED */
	if (v->receiving)
		classify_receiving(f, v);
	else
		classify_sending(f, v);
}
