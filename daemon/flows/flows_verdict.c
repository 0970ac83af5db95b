/*
 * What held a connection back, from its history entry (flows.h, flows.c
 * keeps the entries): the same on every OS, so tests/unit/test_flows.c
 * drives it with recorded readings.
 *
 * The rules, for a connection that moved FLOW_MIN_BYTES over a round
 * trip of at least FLOW_MIN_RTT_US (below, it is a LAN or loopback and
 * buffers are not its limit), at its rate over its fastest interval
 * between readings of at least a round trip (update):
 *
 *  - receiving (more bytes in than acknowledged out): receive-buffer
 *    when its receive buffer grew to a ceiling (the autotuning one, or
 *    fixed_factor times the one on a buffer a program set) and the rate
 *    was at least half of what that buffer allows at this round trip;
 *    else application when the receive queue holds half the buffer (the
 *    program did not read); else network (the sender's side, which this
 *    end cannot see: not this machine's buffers);
 *  - sending: where the OS says how long the connection was limited and
 *    by what (Linux tcp_info, include/uapi/linux/tcp.h: tcpi_busy_time is
 *    the total of the busy, rwnd-limited and sndbuf-limited times,
 *    net/ipv4/tcp.c tcp_get_info_chrono_stats), send-buffer or
 *    peer-window when that time is over half of the busy time; also
 *    peer-window when the far end's window (tcpi_snd_wnd) is below the
 *    congestion window and the rate is what it allows;
 *    application when the connection was busy less than half of the
 *    time, or most of its rate samples were application-limited
 *    (tcpi_delivery_rate_app_limited), or its congestion window allowed
 *    over twice its rate (a paced sender keeps data in flight all the
 *    time, so busy alone does not show it); else network.  Where the OS does not say, send-buffer
 *    when the send buffer reached its ceiling at the rate it allows,
 *    else network.
 *
 * "What a buffer allows": a TCP advertises about half of its receive
 * buffer as window (the rest is kernel overhead: Linux tcp_adv_win_scale
 * 1 before 6.6, scaling_ratio since, Documentation/networking/ip-sysctl.rst;
 * macOS and Windows count the buffer as window, so half is the cautious
 * side), and one window goes per round trip.
 */
#include "config.h"

#include <string.h>

#include "tcptuned.h"
#include "flows.h"

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

/* The ceiling's figures into v: what it allows, what the wanted one would. */
static void
held_by_ceiling(struct flow_verdict *v, enum held_by held,
    const struct flow_ceiling *c, uint64_t buf, uint32_t rtt_us)
{
	v->allowed_bps = flows_window_rate(buf, rtt_us);
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
		    c->wanted), rtt_us);
}

static void
classify_receiving(const struct flow *f, struct flow_verdict *v)
{
	const struct flow_ceiling	*c;
	uint64_t			 buf = f->rcvbuf_max;

	c = ceiling_reached(&f->limits.rcv_auto, &f->limits.rcv_fixed, buf);
	if (c != NULL && v->rate_bps * 2 >= flows_window_rate(buf,
	    f->last.rtt_us)) {
		held_by_ceiling(v, HELD_RECEIVE_BUFFER, c, buf, f->last.rtt_us);
		return;
	}
	if (f->last.rcvbuf > 0 && f->last.rmem_alloc * 2 >= f->last.rcvbuf)
		v->held = HELD_APPLICATION;
	else
		v->held = HELD_NETWORK;
}

/*
 * The far end's window smaller than the congestion window, and the rate
 * what that window gives per round trip: the window binds, even when the
 * kernel's rwnd-limited time stays under half (it counts only the moments
 * a segment waited on the window: 36 % of a transfer held at 320 KiB by
 * a far end's 512 KiB buffer, in tests/system/diagnose.sh).
 */
static bool
peer_window_binds(const struct flow_reading *r, uint64_t rate_bps)
{
	if (!(r->known & FLOW_KNOWS_PEER_WND) || r->peer_wnd == 0 ||
	    r->rtt_us == 0 || r->peer_wnd >= r->cwnd_bytes)
		return false;
	return rate_bps * 2 >= r->peer_wnd * 8000000 / r->rtt_us;
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

	if (busy > 0 && snd * 2 > busy)
		held_by_ceiling(v, HELD_SEND_BUFFER, ceiling_reached(
		    &f->limits.snd_auto, &f->limits.snd_fixed, f->sndbuf_max),
		    f->sndbuf_max, f->last.rtt_us);
	else if ((busy > 0 && rwnd * 2 > busy) ||
	    peer_window_binds(&f->last, v->rate_bps))
		v->held = HELD_PEER_WINDOW;
	else if (busy * 2 < wall_us || f->app_limited * 2 > f->readings ||
	    cwnd_spare(&f->last, v->rate_bps))
		v->held = HELD_APPLICATION;
	else
		v->held = HELD_NETWORK;
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
	if (c != NULL && v->rate_bps * 2 >= flows_window_rate(buf,
	    f->last.rtt_us))
		held_by_ceiling(v, HELD_SEND_BUFFER, c, buf, f->last.rtt_us);
	else
		v->held = HELD_NETWORK;
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
	if (v->bytes < FLOW_MIN_BYTES || f->last.rtt_us < FLOW_MIN_RTT_US ||
	    f->last_ms <= f->first_ms)
		return;		/* HELD_UNCLASSIFIED */
	if (v->receiving)
		classify_receiving(f, v);
	else
		classify_sending(f, v);
}

