/*
 * daemon/flows/flows.c: the history and the classifier, on recorded samples
 * (readings as flows_linux.c makes them from sock_diag: tcp_info and
 * skmem figures of transfers over a 150 ms path), and on the bounds of
 * the history (entries, age), the counts of closed flows, and what a
 * non-root client is shown; tools/diagnose/diagnose_words.c's sentences
 * and the status line from the same flows.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tcptuned.h"
#include "flows.h"
#include "tcptunectl.h"
#include "diagnose/diagnose.h"


#define MIB		(1024ULL * 1024)
#define RTT_150MS	150000

static struct flow_limits
linux_limits(uint64_t rmem, uint64_t wmem, uint64_t wanted)
{
	struct flow_limits	l;

	memset(&l, 0, sizeof(l));
	l.rcv_auto = (struct flow_ceiling){ "net.ipv4.tcp_rmem", rmem,
	    wanted, 1, false };
	l.rcv_fixed = (struct flow_ceiling){ "net.core.rmem_max", 212992,
	    0, 2, true };
	l.snd_auto = (struct flow_ceiling){ "net.ipv4.tcp_wmem", wmem,
	    wanted, 1, false };
	l.snd_fixed = (struct flow_ceiling){ "net.core.wmem_max", 212992,
	    0, 2, true };
	return l;
}

static struct flow_reading
reading(uint64_t id, uint32_t rtt)
{
	struct flow_reading	r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.uid = 1000;
	r.rtt_us = rtt;
	r.known = FLOW_KNOWS_LIMITED | FLOW_KNOWS_CWND | FLOW_KNOWS_UID |
	    FLOW_KNOWS_RECEIVED;
	snprintf(r.local, sizeof(r.local), "10.77.0.1:%u", 40000 + (unsigned)id);
	snprintf(r.remote, sizeof(r.remote), "203.0.113.7:443");
	return r;
}

/* Two passes a second apart: the flow's first and second reading. */
static const struct flow *
two_passes(struct flow_history *h, const struct flow_reading *a,
    const struct flow_reading *b, const struct flow_limits *l)
{
	flows_begin_pass(h, 1000);
	flows_take(h, a, l, 1000);
	flows_end_pass(h, 1000);
	flows_begin_pass(h, 2000);
	flows_take(h, b, l, 2000);
	flows_end_pass(h, 2000);
	for (size_t i = 0; i < FLOWS_MAX; i++)
		if (h->flows[i].used && h->flows[i].last.id == b->id)
			return &h->flows[i];
	return NULL;
}

/* A download that moved bytes in a second with its buffer at rcvbuf. */
static const struct flow *
download(struct flow_history *h, uint64_t bytes, uint64_t rcvbuf,
    const struct flow_limits *l)
{
	struct flow_reading	a = reading(1, RTT_150MS), b;

	a.bytes_received = 1 * MIB;
	a.rcvbuf = rcvbuf / 2;
	b = a;
	b.bytes_received += bytes;
	b.rcvbuf = rcvbuf;
	return two_passes(h, &a, &b, l);
}

/*
 * The history of the tests below: a verdict's ceiling points into its
 * flow, so the history outlives the helpers that classify (upload() freed
 * its own, and valgrind saw test_send_buffer read the key after).
 */
static struct flow_history	verdict_history;

/* Recorded: 4 MiB tcp_rmem[2], 150 ms; 19 MB in a second (152 Mbit/s). */
static void
test_receive_buffer(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_verdict	 v;
	const struct flow	*f;

	(void)arg;
	flows_init(h);
	f = download(h, 19 * 1000 * 1000, 4 * MIB, &l);
	assert_non_null(f);
	flows_classify(f, &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_true(v.receiving);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_rmem");
	assert_int_equal(v.ceiling_bytes, 4 * MIB);
	assert_int_equal(v.rate_bps, 152000000);
	/* half of 4 MiB per 150 ms */
	assert_int_equal(v.allowed_bps, flows_window_rate(4 * MIB, RTT_150MS));
	assert_true(v.allowed_bps > 111000000 && v.allowed_bps < 112000000);
	/* the configured 64 MiB: 16 times as much */
	assert_int_equal(v.possible_bps, flows_window_rate(64 * MIB, RTT_150MS));
	assert_true(v.possible_bps > v.rate_bps);
}

/* After tuning: 64 MiB ceiling, the buffer at 12 MiB: not this end. */
static void
test_receive_tuned(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 64 * MIB);
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	flows_classify(download(h, 100 * 1000 * 1000, 12 * MIB, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_null(v.ceiling);
	assert_int_equal(v.possible_bps, 0);
}

/* At the ceiling but far slower than it allows: not the buffer. */
static void
test_receive_at_ceiling_slow(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	flows_classify(download(h, 3 * MIB, 4 * MIB, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
}

/* A program's SO_RCVBUF, capped at rmem_max: twice rmem_max. */
static void
test_receive_fixed(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;
	struct flow_reading	 a = reading(2, 20000), b;

	(void)arg;
	flows_init(h);
	a.bytes_received = 1 * MIB;
	a.rcvbuf = 2 * 212992;
	b = a;
	b.bytes_received += 12 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_string_equal(v.ceiling->key, "net.core.rmem_max");
	assert_int_equal(v.ceiling_bytes, 212992);
	assert_int_equal(v.possible_bps, 0);	/* not configured */
}

/* The receive queue full: the program did not read. */
static void
test_receive_application(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;
	struct flow_reading	 a = reading(3, RTT_150MS), b;

	(void)arg;
	flows_init(h);
	a.bytes_received = 1 * MIB;
	a.rcvbuf = 6 * MIB;
	b = a;
	b.bytes_received += 2 * MIB;
	b.rmem_alloc = 5 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_APPLICATION);
}

/*
 * A receiver that kept up at its fastest interval and fell behind only at
 * the end (starved by a busy machine) is not the application: the queue
 * is judged at the peak, not at the last reading.
 */
static void
test_receive_queue_full_late(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;
	struct flow_reading	 a = reading(3, RTT_150MS), b, c;
	const struct flow	*f = NULL;

	(void)arg;
	flows_init(h);
	a.bytes_received = 1 * MIB;
	a.rcvbuf = 6 * MIB;
	b = a;
	b.bytes_received += 100 * MIB;	/* the peak, its queue empty */
	c = b;
	c.bytes_received += 10 * MIB;
	c.rmem_alloc = 5 * MIB;		/* full only at the end */
	(void)two_passes(h, &a, &b, &l);
	flows_begin_pass(h, 3000);
	flows_take(h, &c, &l, 3000);
	flows_end_pass(h, 3000);
	for (size_t i = 0; i < FLOWS_MAX; i++)
		if (h->flows[i].used && h->flows[i].last.id == c.id)
			f = &h->flows[i];
	assert_non_null(f);
	flows_classify(f, &v);
	assert_int_not_equal(v.held, HELD_APPLICATION);
	assert_int_equal(v.held, HELD_NETWORK);
}

static bool	upload_paced;
static uint64_t	upload_wnd, upload_cwnd = 732688, upload_bytes = 20 * MIB;
static uint64_t	upload_queued;	/* sk_wmem_queued at b; 0 not known */

/* An upload over a second with its busy and limited times (µs). */
static void
upload(uint64_t busy, uint64_t sndbuf_lim, uint64_t rwnd_lim, uint64_t sndbuf,
    struct flow_verdict *v)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(6 * MIB, 4 * MIB, 32 * MIB);
	struct flow_reading	 a = reading(4, RTT_150MS), b;

	flows_init(h);
	a.bytes_acked = 1 * MIB;
	a.busy_us = 5000000;
	b = a;
	b.bytes_acked += upload_bytes;
	b.busy_us += busy;
	b.cwnd_bytes = upload_cwnd;
	b.peer_wnd = upload_wnd;
	b.known |= upload_wnd ? FLOW_KNOWS_PEER_WND : 0;
	b.sndbuf_limited_us = sndbuf_lim;
	b.rwnd_limited_us = rwnd_lim;
	b.sndbuf = sndbuf;
	b.wmem_queued = upload_queued;
	b.known |= upload_queued ? FLOW_KNOWS_SND_QUEUE : 0;
	a.app_limited = b.app_limited = upload_paced;
	flows_classify(two_passes(h, &a, &b, &l), v);
}

static void
test_send_buffer(void **arg)
{
	struct flow_verdict	v;

	(void)arg;
	upload(1000000, 800000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_false(v.receiving);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_wmem");
	assert_int_equal(v.possible_bps, flows_window_rate(32 * MIB, RTT_150MS));
	/* a program's small SO_SNDBUF: send-buffer, but no sysctl to name
	   (at a rate 128 KiB allows at 150 ms: 20 MiB a second through it
	   would contradict the verdict, test_rate_contradiction) */
	upload_bytes = 1 * MIB;
	upload(1000000, 800000, 0, 128 * 1024, &v);
	upload_bytes = 20 * MIB;
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_null(v.ceiling);
}

/*
 * Held by a 4 MiB tcp_wmem ceiling at 150 ms in slow start: the
 * sndbuf-limited time low (the connection cwnd-limited), every rate
 * sample application-limited, but the send queue near the buffer at the
 * fastest interval (12 MiB a second, 101 Mbit/s, of the 112 that 4 MiB
 * allows): send-buffer.  Before the queue was read: application, 18 of
 * 18 runs in bench/flows/accuracy.sh.
 */
static void
test_send_buffer_by_queue(void **arg)
{
	struct flow_verdict	v;

	(void)arg;
	upload_bytes = 12 * MIB;
	upload_cwnd = 2 * MIB;
	upload_paced = true;
	upload_queued = 4 * MIB - 200000;
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_wmem");
	assert_int_equal(v.allowed_bps, flows_window_rate(4 * MIB, RTT_150MS));
	/* recorded on a busy machine: 5446896 of 8 MiB, 0.65, the
	   writer woken and not yet refilling; half queued is full */
	upload_queued = 4 * MIB * 65 / 100;
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	upload_queued = 4 * MIB / 2;
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	/* the buffer below its ceiling: autotuning would grow it, not it */
	upload_queued = 3 * MIB;
	upload(1000000, 100000, 0, 3 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	/* 3 MiB a second, 25 Mbit/s: far below what 4 MiB allows */
	upload_bytes = 3 * MIB;
	upload_queued = 4 * MIB - 200000;
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	upload_queued = 0;
	upload_paced = false;
	upload_cwnd = 732688;
	upload_bytes = 20 * MIB;
}

/*
 * Recorded (bench/flows/accuracy.sh, 8 MiB tcp_wmem, 150 ms): the send
 * queue 6.1 to 6.6 MB of 8388608 in every live reading, and the fastest
 * interval the one the close notice ended, which carries no queue: the
 * last live reading's stands for it, send-buffer (it read application).
 */
static void
test_send_queue_at_close(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(6 * MIB, 8 * MIB, 0);
	struct flow_reading	 a = reading(7, RTT_150MS), b, c;
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	a.bytes_acked = 6 * MIB;
	a.busy_us = 1000000;
	a.sndbuf = 8 * MIB;
	a.wmem_queued = 6149112;
	a.known |= FLOW_KNOWS_SND_QUEUE;
	a.app_limited = true;
	b = a;
	b.bytes_acked += 38 * MIB;	/* 319 Mbit/s */
	b.busy_us += 1000000;
	flows_begin_pass(h, 1000);
	flows_take(h, &a, &l, 1000);
	flows_end_pass(h, 1000);
	flows_begin_pass(h, 2000);
	flows_take(h, &b, &l, 2000);
	flows_end_pass(h, 2000);
	c = b;		/* the close notice: no buffers, no queue */
	c.bytes_acked += 45 * MIB;	/* 377 Mbit/s, the fastest */
	c.busy_us += 1000000;
	c.sndbuf = c.wmem_queued = 0;
	c.known &= ~(uint32_t)FLOW_KNOWS_SND_QUEUE;
	flows_close(h, &c, &l, 3000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_wmem");
	free(h);
}

/*
 * A paced sender at a rate 4 MiB would allow (80 Mbit/s of 112), its
 * buffer at the ceiling and its samples application-limited, keeps only
 * what is in flight queued, under half of the buffer: application,
 * not send-buffer.
 */
static void
test_paced_queue_small(void **arg)
{
	struct flow_verdict	v;

	(void)arg;
	upload_bytes = 10000000;	/* 80 Mbit/s */
	upload_cwnd = 3 * MIB;
	upload_paced = true;
	upload_queued = 1500000;	/* 150 ms of 80 Mbit/s in flight */
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	upload_queued = 4 * MIB / 2 - 1;	/* just under half */
	upload(1000000, 100000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	upload_queued = 0;
	upload_paced = false;
	upload_cwnd = 732688;
	upload_bytes = 20 * MIB;
}

static void
test_peer_network_application(void **arg)
{
	struct flow_verdict	v;

	(void)arg;
	upload(1000000, 0, 900000, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_PEER_WINDOW);
	assert_null(v.ceiling);
	upload(1000000, 100000, 100000, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_NETWORK);
	upload(5000000, 0, 1792000, 4 * MIB, &v);	/* window unknown */
	assert_int_equal(v.held, HELD_NETWORK);
	upload(200000, 0, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	/* recorded: iperf3 -b 20M, busy all along, no app-limited sample,
	   a 2794640-byte congestion window at 125 ms (here 150 ms) */
	upload_cwnd = 2794640;
	upload_bytes = 2500000;		/* 20 Mbit/s */
	upload(5004000, 0, 0, 2 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	upload_cwnd = 400000;		/* 21 Mbit/s: the window binds */
	upload(5004000, 0, 0, 2 * MIB, &v);
	assert_int_equal(v.held, HELD_NETWORK);
	upload_cwnd = 732688;
	upload_bytes = 20 * MIB;
	upload_paced = true;	/* busy all along, app-limited samples */
	upload(1000000, 0, 0, 4 * MIB, &v);
	upload_paced = false;
	assert_int_equal(v.held, HELD_APPLICATION);
	/* recorded: a far end's 512 KiB buffer, 36 % rwnd-limited, its
	   window 326272 below the congestion window 732688, 25 Mbit/s */
	upload_wnd = 326272;
	upload_bytes = 1 * MIB;	/* 8.4 Mbit/s: under half of 17.4, and
				   of the congestion window's 39 */
	upload(5000000, 0, 1792000, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	upload_bytes = 3 * MIB;
	upload(5000000, 0, 1792000, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_PEER_WINDOW);
	upload_cwnd = 300000;	/* the congestion window the smaller */
	upload(5000000, 0, 1792000, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_NETWORK);
	upload_wnd = 0;
	upload_cwnd = 732688;
	upload_bytes = 20 * MIB;
	/* exactly half limited is not "dominant" */
	upload(1000000, 500000, 0, 4 * MIB, &v);
	assert_int_equal(v.held, HELD_NETWORK);
}

/* An OS without limited times (macOS): the send buffer at its ceiling. */
static void
test_send_without_times(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(6 * MIB, 1 * MIB, 0);
	struct flow_verdict	 v;
	struct flow_reading	 a = reading(5, 50000), b;

	(void)arg;
	flows_init(h);
	a.known = FLOW_KNOWS_UID;
	a.bytes_acked = 1 * MIB;
	b = a;
	b.bytes_acked += 10 * MIB;
	b.sndbuf = 1 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_wmem");
	b.sndbuf = 512 * 1024;
	b.id = 6;
	a.id = 6;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	free(h);
}

/* Loopback, too little data, one reading only: unclassified. */
static void
test_unclassified(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;
	struct flow_reading	 a = reading(7, 40), b;

	(void)arg;
	flows_init(h);
	a.bytes_received = 1 * MIB;
	a.rcvbuf = 4 * MIB;
	b = a;
	b.bytes_received += 100 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_UNCLASSIFIED);	/* 40 us */
	a = reading(8, RTT_150MS);
	a.bytes_received = 100 * 1024;
	b = a;
	b.bytes_received += 500 * 1024;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_UNCLASSIFIED);	/* 500 KiB */
	/* under 64 KiB in all: never takes a slot */
	a = reading(9, RTT_150MS);
	a.bytes_received = 1000;
	flows_begin_pass(h, 3000);
	flows_take(h, &a, &l, 3000);
	flows_end_pass(h, 3000);
	for (size_t i = 0; i < FLOWS_MAX; i++)
		assert_false(h->flows[i].used && h->flows[i].last.id == 9);
	free(h);
}

static size_t
used(const struct flow_history *h)
{
	size_t	i, n = 0;

	for (i = 0; i < FLOWS_MAX; i++)
		n += h->flows[i].used;
	return n;
}

/* More flows than slots: bounded, the oldest gone; then aged out. */
static void
test_bounds(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_reading	 r;
	uint64_t		 id;

	(void)arg;
	flows_init(h);
	for (id = 1; id <= FLOWS_MAX + 10; id++) {
		flows_begin_pass(h, id * 1000);
		r = reading(id, RTT_150MS);
		r.bytes_received = 2 * MIB;
		flows_take(h, &r, &l, id * 1000);
		flows_end_pass(h, id * 1000);
	}
	assert_int_equal(used(h), FLOWS_MAX);
	for (size_t i = 0; i < FLOWS_MAX; i++)
		assert_true(h->flows[i].last.id > 10);
	flows_begin_pass(h, (FLOWS_MAX + 10) * 1000ULL + FLOWS_MAX_AGE * 1000);
	flows_end_pass(h, (FLOWS_MAX + 10) * 1000ULL + FLOWS_MAX_AGE * 1000);
	assert_int_equal(used(h), 1);	/* the last, seen within the hour */
	flows_begin_pass(h, (FLOWS_MAX + 11) * 1000ULL + FLOWS_MAX_AGE * 1000);
	flows_end_pass(h, (FLOWS_MAX + 11) * 1000ULL + FLOWS_MAX_AGE * 1000);
	assert_int_equal(used(h), 0);
	free(h);
}

/*
 * A close notice (Linux's, as flows_linux.c hands it in: tcp_info at
 * close, no owner, no buffers) ends a download read live once: judged
 * at once with the buffer and owner of its live reading, counted once,
 * never reopened by a later dump.
 */
static void
test_close_notice(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 a = reading(1, RTT_150MS), b;
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	a.bytes_received = 1 * MIB;
	a.rcvbuf = 4 * MIB;
	flows_begin_pass(h, 1000);
	flows_take(h, &a, &l, 1000);
	flows_end_pass(h, 1000);
	b = a;
	b.bytes_received += 19 * 1000 * 1000;
	b.rcvbuf = 0;
	b.uid = 0;
	b.known &= ~(uint32_t)FLOW_KNOWS_UID;
	flows_close(h, &b, &l, 2000);
	assert_false(h->flows[0].open);
	assert_int_equal(h->held_total[HELD_RECEIVE_BUFFER], 1);
	assert_true(flows_owned_by(&h->flows[0], 1000));
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	/* a dump read before the close, taken after: not reopened */
	flows_begin_pass(h, 2500);
	flows_take(h, &b, &l, 2500);
	flows_end_pass(h, 2500);
	flows_close(h, &b, &l, 3000);
	assert_false(h->flows[0].open);
	assert_int_equal(h->held_total[HELD_RECEIVE_BUFFER], 1);
	assert_int_equal(h->closes, 2);
	assert_int_equal(h->closes_unsampled, 0);
	free(h);
}

/*
 * A program that closes long after its transfer (iperf3 sends its report
 * first): the transfer ends when data last moved (tcpi_last_data_sent),
 * not at the close, so an upload busy all its transfer is not an idle
 * application.
 */
static void
test_close_after_idle(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 a = reading(1, RTT_150MS), b;
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	a.bytes_acked = 1 * MIB;
	a.busy_us = 100000;
	a.cwnd_bytes = 512 * 1024;
	flows_begin_pass(h, 1000);
	flows_take(h, &a, &l, 1000);
	flows_end_pass(h, 1000);
	b = a;
	b.bytes_acked += 6 * MIB;
	b.busy_us += 2000000;
	b.known &= ~(uint32_t)FLOW_KNOWS_UID;
	b.idle_ms = 5000;
	flows_close(h, &b, &l, 8000);
	assert_int_equal(h->flows[0].last_ms, 3000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_NETWORK);
	free(h);
}

/*
 * An upload paced at 20 Mbit/s, 150 ms away, read at 1000 ms and again
 * at 2000 ms: a second's 2.5 MB between the two.  a is its last reading.
 */
static void
paced_upload(struct flow_history *h, const struct flow_limits *l,
    struct flow_reading *a)
{
	flows_init(h);
	a->bytes_acked = 1 * MIB;
	a->busy_us = 1000000;
	a->cwnd_bytes = 2 * MIB;
	flows_begin_pass(h, 1000);
	flows_take(h, a, l, 1000);
	flows_end_pass(h, 1000);
	a->bytes_acked += 2500000;
	a->busy_us += 1000000;
	flows_begin_pass(h, 2000);
	flows_take(h, a, l, 2000);
	flows_end_pass(h, 2000);
}

/*
 * An upload read after its last data went out, before the last of it was
 * acknowledged (a round trip, more where a queue in the path stretches
 * it): the window acknowledged after that reading has no interval of its
 * own, so it gives no rate.  Its close once ended a millisecond after the
 * reading, and a sender paced at 20 Mbit/s read as 2 Gbit/s there (seen
 * as 1.5 Gbit/s, "network", in tests/system/diagnose.sh under valgrind).
 */
static void
test_close_tail_no_rate(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 a = reading(1, RTT_150MS), b;
	struct flow_verdict	 v;

	(void)arg;
	paced_upload(h, &l, &a);
	b = a;
	b.bytes_acked += 250000;	/* in flight at the reading */
	b.idle_ms = 400;		/* last data sent at 1900 */
	flows_close(h, &b, &l, 2300);
	assert_int_equal(h->flows[0].last_ms, 2000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.rate_bps, 20000000);
	assert_int_equal(v.held, HELD_APPLICATION);
	free(h);
}

/*
 * A close a few ms after the last live reading, with a window's bytes
 * acknowledged between (diagnose.sh 14 on a loaded machine: a sender
 * paced at 20 Mbit/s judged network at 419 Mbit/s): an interval shorter
 * than a round trip gives no rate.  So do live readings closer than a
 * round trip, whose bytes count in the next interval instead.
 */
static void
test_sub_rtt_interval_no_rate(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 a = reading(1, RTT_150MS), b;
	struct flow_verdict	 v;

	(void)arg;
	paced_upload(h, &l, &a);
	a.bytes_acked += 250000;	/* a burst of acks 50 ms later */
	flows_take(h, &a, &l, 2050);
	a.bytes_acked += 2250000;	/* 2.5 MB since 2000: 20 Mbit/s */
	flows_take(h, &a, &l, 3000);
	b = a;
	b.bytes_acked += 250000;	/* in flight at that reading */
	b.idle_ms = 295;		/* the close's end: 3005, 5 ms on */
	flows_close(h, &b, &l, 3300);
	assert_int_equal(h->flows[0].last_ms, 3005);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.rate_bps, 20000000);
	assert_int_equal(v.held, HELD_APPLICATION);
	free(h);
}

/*
 * Connections no pass read: an upload held by its send buffer judged
 * from its notice alone (its rate over its busy time); a download whose
 * notice has no tcpi_rcv_space stays unclassified (no rate from one
 * reading: test_close_only_download has it), an owner never made up.
 */
static void
test_close_unsampled(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 1 * MIB, 16 * MIB);
	struct flow_reading	 up = reading(1, RTT_150MS), down;
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	up.known &= ~(uint32_t)FLOW_KNOWS_UID;
	up.bytes_acked = 12 * MIB;
	up.busy_us = 2000000;
	up.sndbuf_limited_us = 1500000;
	flows_close(h, &up, &l, 10000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_int_equal(v.rate_bps, 12 * MIB * 8 / 2);
	assert_int_equal(h->held_total[HELD_SEND_BUFFER], 1);
	assert_false(flows_owned_by(&h->flows[0], 0));
	down = reading(2, RTT_150MS);
	down.known &= ~(uint32_t)FLOW_KNOWS_UID;
	down.bytes_received = 20 * MIB;
	flows_close(h, &down, &l, 10000);
	flows_classify(&h->flows[1], &v);
	assert_int_equal(v.held, HELD_UNCLASSIFIED);
	assert_int_equal(h->closes_unsampled, 2);
	free(h);
}

/*
 * Both ends this machine's own are never evidence, however long the
 * round trip (a user's loopback connections with delayed ACKs: 40 ms):
 * loopback in either family, IPv4-mapped, the same address on both
 * ends, two of the machine's addresses; neither a reading nor a close
 * notice takes a slot or counts.
 */
static void
test_local_pairs(void **arg)
{
	static const char *const local[][2] = {
		{ "127.0.0.1:40001", "127.0.0.1:5201" },
		{ "127.0.0.1:40001", "127.0.1.1:5201" },
		{ "[::1]:40001", "[::1]:5201" },
		{ "[::ffff:127.0.0.1]:40001", "[::ffff:127.0.0.1]:5201" },
		{ "10.77.0.1:40001", "10.77.0.1:5201" },
		{ "10.77.0.1:40001", "192.0.2.9:5201" },
		{ "[2001:db8::1]:40001", "[2001:db8::2]:5201" },
	};
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 r;
	size_t			 i;

	(void)arg;
	flows_init(h);
	assert_int_equal(flows_addr_add(&h->local, "10.77.0.1"), 0);
	assert_int_equal(flows_addr_add(&h->local, "192.0.2.9"), 0);
	assert_int_equal(flows_addr_add(&h->local, "2001:db8::2"), 0);
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		r = reading(i + 1, 40000);
		tt_strlcpy(r.local, local[i][0], sizeof(r.local));
		tt_strlcpy(r.remote, local[i][1], sizeof(r.remote));
		r.bytes_acked = 20 * MIB;
		assert_true(flows_local_pair(&r, &h->local));
		flows_begin_pass(h, 1000);
		flows_take(h, &r, &l, 1000);
		flows_end_pass(h, 1000);
		r.bytes_acked = 40 * MIB;
		r.sndbuf_limited_us = r.busy_us = 1000000;
		flows_close(h, &r, &l, 2000);
	}
	assert_int_equal(used(h), 0);
	for (i = 0; i < HELD_COUNT; i++)
		assert_int_equal(h->held_total[i], 0);
	/* the far end of the delay line is not local */
	r = reading(99, 40000);
	tt_strlcpy(r.local, "10.77.0.1:40001", sizeof(r.local));
	tt_strlcpy(r.remote, "10.77.0.2:5201", sizeof(r.remote));
	assert_false(flows_local_pair(&r, &h->local));
	r.bytes_acked = 20 * MIB;
	flows_begin_pass(h, 3000);
	flows_take(h, &r, &l, 3000);
	flows_end_pass(h, 3000);
	assert_int_equal(used(h), 1);
	flows_free(h);
	free(h);
}

/*
 * However many addresses the machine has (a table of 128 stopped there):
 * a connection between its 1000th and 999th is not evidence.
 */
static void
test_many_addresses(void **arg)
{
	struct flow_addrs	a;
	struct flow_reading	r = reading(1, 40000);
	char			host[TT_ADDR_MAX];
	unsigned		i;

	(void)arg;
	memset(&a, 0, sizeof(a));
	for (i = 0; i < 1000; i++) {
		snprintf(host, sizeof(host), "10.201.%u.%u", i / 250, i % 250);
		assert_int_equal(flows_addr_add(&a, host), 0);
	}
	assert_int_equal(a.n, 1000);
	tt_strlcpy(r.local, "10.201.3.248:40001", sizeof(r.local));
	tt_strlcpy(r.remote, "10.201.3.249:5201", sizeof(r.remote));
	assert_true(flows_local_pair(&r, &a));
	tt_strlcpy(r.remote, "10.202.0.1:5201", sizeof(r.remote));
	assert_false(flows_local_pair(&r, &a));
	/* a list that could not be had whole: nothing is evidence */
	a.partial = true;
	assert_true(flows_local_pair(&r, &a));
	free(a.host);
}

/*
 * A buffer verdict its own numbers contradict is no verdict: a download
 * at 2 Gbit/s through a 4 MiB buffer at 150 ms (which allows 112 Mbit/s)
 * was not held by that buffer, whatever the buffer's size says; it is
 * left unclassified and counted nowhere.  At 4 times, it still is.
 */
static void
test_rate_contradiction(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_verdict	 v;
	const struct flow	*f;

	(void)arg;
	flows_init(h);
	f = download(h, 250 * 1000 * 1000, 4 * MIB, &l);
	flows_classify(f, &v);
	assert_int_equal(v.held, HELD_UNCLASSIFIED);
	assert_null(v.ceiling);
	flows_begin_pass(h, 3000);
	flows_end_pass(h, 3000);
	assert_int_equal(h->held_total[HELD_RECEIVE_BUFFER], 0);
	flows_init(h);
	f = download(h, 50 * 1000 * 1000, 4 * MIB, &l);	/* 400 Mbit/s */
	flows_classify(f, &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	free(h);
}

/*
 * One owner's flood cannot push another's connections out: uid 1000's
 * ten stay while uid 65534 opens three times the table; the flood
 * recycles its own entries once the history is full.
 */
static void
test_uid_share(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_reading	 r;
	size_t			 i, kept = 0;
	uint64_t		 id;

	(void)arg;
	flows_init(h);
	flows_begin_pass(h, 1000);
	for (id = 1; id <= 10; id++) {
		r = reading(id, RTT_150MS);
		r.bytes_received = 2 * MIB;
		flows_take(h, &r, &l, 1000);
	}
	flows_end_pass(h, 1000);
	for (id = 11; id <= 10 + 3 * FLOWS_MAX; id++) {
		flows_begin_pass(h, id * 1000);
		r = reading(id, RTT_150MS);
		r.uid = 65534;
		r.bytes_received = 2 * MIB;
		flows_take(h, &r, &l, id * 1000);
		flows_end_pass(h, id * 1000);
	}
	assert_int_equal(used(h), FLOWS_MAX);
	for (i = 0; i < FLOWS_MAX; i++)
		kept += h->flows[i].last.uid == 1000;
	assert_int_equal(kept, 10);
	assert_true(h->evicted > 0);
	free(h);
}

/*
 * Connections seen only in their close notice have no owner: never shown
 * as uid 0, and they never take the place of one whose owner is known.
 * uid 65534's few hundred short uploads, closed before any pass read
 * them, leave root's own 256 (closed too) where they were.
 */
static void
test_unknown_owner(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;
	struct msg_flow		 m;
	struct flow_reading	 r;
	size_t			 i, root = 0, unknown = 0;
	uint64_t		 id;

	(void)arg;
	flows_init(h);
	flows_begin_pass(h, 1000);
	for (id = 1; id <= FLOWS_MAX; id++) {
		r = reading(id, RTT_150MS);
		r.uid = 0;
		r.bytes_received = 2 * MIB;
		flows_take(h, &r, &l, 1000);
	}
	flows_end_pass(h, 1000);
	flows_begin_pass(h, 2000);	/* root's have closed */
	flows_end_pass(h, 2000);
	for (id = 1001; id <= 1000 + 3 * FLOWS_MAX; id++) {
		r = reading(id, RTT_150MS);
		r.known &= ~(uint32_t)FLOW_KNOWS_UID;
		r.uid = 0;	/* what a notice's idiag_uid says */
		r.bytes_acked = 2 * MIB;
		r.busy_us = 1000000;
		flows_close(h, &r, &l, id * 1000);
	}
	for (i = 0; i < FLOWS_MAX; i++) {
		root += (h->flows[i].last.known & FLOW_KNOWS_UID) &&
		    h->flows[i].last.uid == 0;
		unknown += !(h->flows[i].last.known & FLOW_KNOWS_UID);
	}
	assert_int_equal(root, FLOWS_MAX);
	assert_int_equal(unknown, 0);
	/* with room, one is kept: shown as nobody's, not root's */
	flows_init(h);
	flows_close(h, &r, &l, 5000);
	flows_classify(&h->flows[0], &v);
	flows_to_msg(&h->flows[0], &v, &m);
	assert_int_equal(m.uid, TT_UID_UNKNOWN);
	assert_false(flows_owned_by(&h->flows[0], 0));
	free(h);
}

/*
 * A service's remote clients (connections whose local port is a
 * listening port: sshd's, a web server's, all root's) have a share of
 * their own: 3 times the table of them leave root's own ten uploads.
 */
static void
test_passive_share(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 0);
	struct flow_reading	 r, lsn;
	size_t			 i, kept = 0, passive = 0;
	uint64_t		 id;

	(void)arg;
	flows_init(h);
	memset(&lsn, 0, sizeof(lsn));
	lsn.listening = true;
	lsn.known = FLOW_KNOWS_UID;
	tt_strlcpy(lsn.local, "0.0.0.0:22", sizeof(lsn.local));
	tt_strlcpy(lsn.remote, "0.0.0.0:0", sizeof(lsn.remote));
	flows_begin_pass(h, 1000);
	flows_take(h, &lsn, &l, 1000);
	for (id = 1; id <= 10; id++) {
		r = reading(id, RTT_150MS);
		r.uid = 0;
		r.bytes_acked = 2 * MIB;
		flows_take(h, &r, &l, 1000);
	}
	flows_end_pass(h, 1000);
	for (id = 11; id <= 10 + 3 * FLOWS_MAX; id++) {
		flows_begin_pass(h, id * 1000);
		flows_take(h, &lsn, &l, id * 1000);
		r = reading(id, RTT_150MS);
		r.uid = 0;
		snprintf(r.local, sizeof(r.local), "10.77.0.1:22");
		snprintf(r.remote, sizeof(r.remote), "198.51.100.%u:%u",
		    (unsigned)(id % 250), 40000 + (unsigned)id);
		r.bytes_received = 2 * MIB;
		flows_take(h, &r, &l, id * 1000);
		flows_end_pass(h, id * 1000);
	}
	assert_int_equal(used(h), FLOWS_MAX);
	for (i = 0; i < FLOWS_MAX; i++) {
		kept += h->flows[i].last.id <= 10;
		passive += h->flows[i].passive;
	}
	assert_int_equal(kept, 10);
	assert_true(passive > 0);
	/* a listener is no connection: it takes no slot */
	for (i = 0; i < FLOWS_MAX; i++)
		assert_string_not_equal(h->flows[i].last.local, "0.0.0.0:22");
	free(h);
}

/*
 * A download read in two passes a second apart, its buffer at rcvbuf, its
 * round trips as the kernel gives them: tcpi_rtt (a download's stays at
 * the handshake's), tcpi_rcv_rtt (the receiver's own), tcpi_min_rtt.
 */
static const struct flow *
download_rtts(struct flow_history *h, uint64_t bytes, uint64_t rcvbuf,
    const struct flow_limits *l, uint32_t rtt, uint32_t rcv_rtt,
    uint32_t min_rtt)
{
	struct flow_reading	a = reading(1, rtt), b;

	a.known |= FLOW_KNOWS_MIN_RTT;
	a.min_rtt_us = min_rtt;
	a.rcv_rtt_us = rcv_rtt;
	a.bytes_received = 1 * MIB;
	a.rcvbuf = rcvbuf / 2;
	b = a;
	b.bytes_received += bytes;
	b.rcvbuf = rcvbuf;
	return two_passes(h, &a, &b, l);
}

/*
 * Issue 42: at a 64 MiB ceiling, a 900 Mbit/s download on a 150 ms path
 * whose queue stretched the round trip to 400 ms was called receive-buffer
 * (at 400 ms, 64 MiB allows 671 Mbit/s).  Judged at the path's own 150 ms
 * and with its round trip grown past 150 %, it is the network, the path
 * full; the same in the sender's smoothed RTT or the receiver's own.
 */
static void
test_path_full(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 a, b;
	struct flow_verdict	 v;
	struct msg_flow		 m;
	char			 line[1024];

	(void)arg;
	flows_init(h);
	flows_classify(download_rtts(h, 112500000, 64 * MIB, &l, 400000,
	    0, RTT_150MS), &v);
	assert_int_equal(v.rate_bps, 900000000);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	assert_int_equal(v.path_rtt_us, RTT_150MS);
	flows_init(h);
	flows_classify(download_rtts(h, 112500000, 64 * MIB, &l, RTT_150MS,
	    400000, RTT_150MS), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	flows_to_msg(&h->flows[0], &v, &m);
	diagnose_sentence(&m, line, sizeof(line));
	assert_non_null(strstr(line, "ran at 900 Mbit/s, held by the network: "
	    "the path was full"));
	assert_non_null(strstr(line, "a larger buffer would not help"));
	/* sndbuf-limited with the round trip grown: the path, not the buffer */
	flows_init(h);
	a = reading(4, RTT_150MS);
	a.known |= FLOW_KNOWS_MIN_RTT;
	a.min_rtt_us = RTT_150MS;
	a.bytes_acked = 1 * MIB;
	b = a;
	b.rtt_us = 400000;
	b.bytes_acked += 20 * MIB;
	b.busy_us = 2000000;
	b.sndbuf_limited_us = 1500000;
	b.sndbuf = 4 * MIB;
	b.cwnd_bytes = 20 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
}

/*
 * The rate is weighed against what the buffer allows at the path's
 * least round trip: 1.1 Gbit/s at 200 ms (not grown past 150 % of 150)
 * is over 3/4 of what 64 MiB allows at 200 ms (1.34 Gbit/s) but under
 * 3/4 of it at 150 ms (1.79 Gbit/s): network, not full.  The 4 MiB
 * ceiling at the same round trips binds, and says what it allows at
 * the path's 150 ms.
 */
static void
test_path_min_rtt(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 0);
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	flows_classify(download_rtts(h, 137500000, 64 * MIB, &l, 200000,
	    200000, RTT_150MS), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_false(v.path_full);
	l = linux_limits(4 * MIB, 4 * MIB, 0);
	flows_init(h);
	flows_classify(download_rtts(h, 19000000, 4 * MIB, &l, 200000,
	    200000, RTT_150MS), &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_int_equal(v.allowed_bps, flows_window_rate(4 * MIB,
	    RTT_150MS));
	/* with no tcpi_min_rtt, the lowest round trip the flow showed */
	flows_init(h);
	flows_classify(download_rtts(h, 19000000, 4 * MIB, &l, RTT_150MS,
	    0, 0), &v);
	assert_int_equal(v.path_rtt_us, RTT_150MS);
}

/* A download's close notice, as tcp_get_info fills it. */
static struct flow_reading
closed_download(uint64_t id, uint64_t bytes, uint64_t rcv_space,
    uint32_t rcv_rtt)
{
	struct flow_reading	r = reading(id, RTT_150MS);

	r.known &= ~(uint32_t)FLOW_KNOWS_UID;
	r.known |= FLOW_KNOWS_MIN_RTT | FLOW_KNOWS_RCV_SPACE |
	    FLOW_KNOWS_WSCALE;
	r.min_rtt_us = RTT_150MS;
	r.rcv_rtt_us = rcv_rtt;
	r.rcv_space = rcv_space;
	r.bytes_received = bytes;
	r.bytes_acked = 200;
	return r;
}

/*
 * A download that began and ended between two passes, judged from its
 * close notice alone (tcpi_rcv_space over tcpi_rcv_rtt): at a 4 MiB
 * ceiling, 2.6 MB read per 150 ms (139 Mbit/s) is the receive buffer; at
 * 64 MiB, 17 MB per 400 ms (340 Mbit/s) with the round trip grown is
 * the network; its rate and span come from the notice.
 */
static void
test_close_only_download(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 r = closed_download(3, 50 * MIB, 2600000,
				    RTT_150MS);
	struct flow_verdict	 v;
	struct msg_flow		 m;
	char			 line[1024];

	(void)arg;
	flows_init(h);
	flows_close(h, &r, &l, 10000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_true(v.receiving);
	assert_true(v.at_close);
	assert_int_equal(v.rate_bps, 2600000ULL * 8000000 / RTT_150MS);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_rmem");
	assert_int_equal(h->held_total[HELD_RECEIVE_BUFFER], 1);
	flows_to_msg(&h->flows[0], &v, &m);
	diagnose_sentence(&m, line, sizeof(line));
	assert_non_null(strstr(line, "judged from the kernel's TCP info at "
	    "its close"));
	l = linux_limits(64 * MIB, 4 * MIB, 0);
	r = closed_download(4, 200 * MIB, 17000000, 400000);
	flows_close(h, &r, &l, 20000);
	flows_classify(&h->flows[1], &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	assert_int_equal(h->held_total[HELD_NETWORK], 1);
	/* closed: its window scale caps nothing any more */
	assert_int_equal(v.window_cap, 0);
	free(h);
}

/*
 * Connections opened before the receive ceiling rose: the window scale
 * their SYN fixed (tcpi_rcv_wscale) keeps them below the ceiling now,
 * 65535 << scale.  At a 64 MiB ceiling one opened under the stock 6 MiB
 * (scale 7: 8 MiB) is named, in diagnose even unjudged and in status's
 * count; one opened after (scale 11) is not; nor one whose scale the OS
 * does not say (Windows), which is counted as unknown instead.
 */
static void
test_window_cap(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(64 * MIB, 4 * MIB, 64 * MIB);
	struct flow_reading	 old = reading(5, RTT_150MS), young, win;
	struct msg_diag_summary	 s;
	struct flow_verdict	 v;
	struct msg_flow		 m;
	char			 line[1024];

	(void)arg;
	flows_init(h);
	old.known |= FLOW_KNOWS_WSCALE;
	old.rcv_wscale = 7;
	old.bytes_received = 200 * 1024;
	young = old;
	young.id = 6;
	snprintf(young.local, sizeof(young.local), "10.77.0.1:40006");
	young.rcv_wscale = 11;
	win = old;
	win.id = 7;
	snprintf(win.local, sizeof(win.local), "10.77.0.1:40007");
	win.known &= ~(uint32_t)FLOW_KNOWS_WSCALE;
	flows_begin_pass(h, 1000);
	flows_take(h, &old, &l, 1000);
	flows_take(h, &young, &l, 1000);
	flows_take(h, &win, &l, 1000);
	flows_end_pass(h, 1000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.held, HELD_UNCLASSIFIED);
	assert_int_equal(v.window_cap, 65535ULL << 7);
	flows_to_msg(&h->flows[0], &v, &m);
	assert_int_equal(m.window_cap, 65535ULL << 7);
	diagnose_cap_sentence(&m, line, sizeof(line));
	assert_string_equal(line, "it cannot use the receive ceiling now: "
	    "its window scale, fixed when it opened (before the ceiling "
	    "rose), caps its window at 8 MiB; reconnecting picks up the new "
	    "value");
	flows_classify(&h->flows[1], &v);
	assert_int_equal(v.window_cap, 0);
	flows_to_msg(&h->flows[1], &v, &m);
	diagnose_cap_sentence(&m, line, sizeof(line));
	assert_string_equal(line, "");
	flows_classify(&h->flows[2], &v);
	assert_int_equal(v.window_cap, 0);
	flows_to_msg(&h->flows[2], &v, &m);
	assert_true(m.flags & TT_FLOW_WSCALE_UNKNOWN);
	flows_summary(h, 0, true, &s);
	assert_int_equal(s.capped, 1);
	assert_int_equal(s.capped_unknown, 1);
	diagnose_status_line(&s, line, sizeof(line));
	assert_string_equal(line, "1 open connection cannot use the receive "
	    "ceiling now (opened before it rose: reconnecting picks it up); "
	    "see tcptunectl diagnose");
	/* under the ceiling it opened with (6 MiB), scale 7 reaches it */
	l = linux_limits(6 * MIB, 4 * MIB, 0);
	flows_begin_pass(h, 2000);
	flows_take(h, &old, &l, 2000);
	flows_end_pass(h, 2000);
	flows_classify(&h->flows[0], &v);
	assert_int_equal(v.window_cap, 0);
	free(h);
}

/*
 * A download read in two passes a second apart, its figures as recorded
 * from a sender paced by iperf3 -R -b 100M (bench/flows/accuracy.sh, 64
 * MiB ceilings, 150 ms): bytes in the second, the receive buffer at
 * rcvbuf, the receiver's round trip rcv_rtt at the second reading, ooo
 * segments received out of order between the two; known: what the OS
 * tells besides the usual (FLOW_KNOWS_RCV_OOO, or not).
 */
static const struct flow *
download_ooo(struct flow_history *h, const struct flow_limits *l,
    uint64_t bytes, uint64_t rcvbuf, uint32_t rcv_rtt, uint32_t ooo,
    uint32_t known)
{
	struct flow_reading	a = reading(12, 150440), b;

	a.known |= FLOW_KNOWS_MIN_RTT | known;
	a.min_rtt_us = 150335;
	a.rcv_rtt_us = 150335;
	a.bytes_received = 20 * MIB;
	a.rcvbuf = rcvbuf;
	a.rcv_ooopack = 12;	/* before the history: not counted */
	b = a;
	b.bytes_received += bytes;
	b.rcv_rtt_us = rcv_rtt;
	b.rcv_ooopack += ooo;
	return two_passes(h, &a, &b, l);
}

/*
 * Recorded: a download from a sender paced at 100 Mbit/s, its receive
 * buffer at 49085952 (no ceiling: 64 MiB), the round trip at 150 ms all
 * along, nothing received out of order: the far end sent no faster,
 * application (it read network).  With segments out of order (a loss),
 * with the round trip grown (a queue), without an out-of-order count (as
 * macOS and Windows read), or at a rate the window nearly allowed: the
 * network, as before.
 */
static void
test_download_sender_slow(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 64 * MIB, 0);
	struct flow_verdict	 v;
	struct msg_flow		 m;
	char			 line[1024];

	(void)arg;
	flows_init(h);
	flows_classify(download_ooo(h, &l, 12513874, 49085952, 150335, 0,
	    FLOW_KNOWS_RCV_OOO), &v);
	assert_int_equal(v.rate_bps, 100110992);
	assert_int_equal(v.held, HELD_APPLICATION);
	assert_true(v.sender_slow);
	assert_false(v.path_full);
	flows_to_msg(&h->flows[0], &v, &m);
	diagnose_sentence(&m, line, sizeof(line));
	assert_non_null(strstr(line, "ran at 100 Mbit/s: the sender sent no "
	    "faster than this, its program or its send buffer, not this "
	    "machine nor the path"));
	/* 37 segments out of order: a loss cut the sender's window */
	flows_init(h);
	flows_classify(download_ooo(h, &l, 12513874, 49085952, 150335, 37,
	    FLOW_KNOWS_RCV_OOO), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_false(v.sender_slow);
	/* the receiver's round trip grown to 240 ms: a queue, the path full */
	flows_init(h);
	flows_classify(download_ooo(h, &l, 12513874, 49085952, 240000, 0,
	    FLOW_KNOWS_RCV_OOO), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	/* no out-of-order count (macOS, Windows, Linux before 5.4) */
	flows_init(h);
	flows_classify(download_ooo(h, &l, 12513874, 49085952, 150335, 0, 0),
	    &v);
	assert_int_equal(v.held, HELD_NETWORK);
	/* 400 Mbit/s: the window (1.3 Gbit/s) not FLOW_WINDOW_SPARE times */
	flows_init(h);
	flows_classify(download_ooo(h, &l, 50000000, 49085952, 150335, 0,
	    FLOW_KNOWS_RCV_OOO), &v);
	assert_int_equal(v.held, HELD_NETWORK);
}

/*
 * An upload at an 8 MiB tcp_wmem ceiling, as recorded on a busy machine
 * (bench/flows/accuracy.sh): 275 Mbit/s at the fastest interval with its
 * round trip at 269 ms of the path's 150 (the delay line starved of CPU),
 * the send queue 6805576 of 8388608, the far end's window 24133632; the
 * congestion window cwnd, in flight and unsent as given, known the bits
 * tcp_info gives on top of the usual (FLOW_KNOWS_NOTSENT, or not).
 */
static const struct flow *
busy_upload(struct flow_history *h, const struct flow_limits *l,
    uint64_t cwnd, uint64_t in_flight, uint64_t notsent, uint32_t known)
{
	struct flow_reading	a = reading(11, RTT_150MS), b;

	a.known |= FLOW_KNOWS_MIN_RTT | FLOW_KNOWS_PEER_WND |
	    FLOW_KNOWS_SND_QUEUE | known;
	a.min_rtt_us = 150067;
	a.bytes_acked = 20 * MIB;
	a.busy_us = 1000000;
	a.sndbuf = 8 * MIB;
	a.wmem_queued = 6000000;
	a.app_limited = true;
	a.peer_wnd = 24133632;
	a.cwnd_bytes = cwnd;
	a.in_flight = in_flight;
	a.notsent = notsent;
	b = a;
	b.rtt_us = 268933;
	b.bytes_acked += 34406412;	/* 275 Mbit/s */
	b.busy_us += 1000000;
	b.sndbuf_limited_us = 100000;
	b.wmem_queued = 6805576;
	return two_passes(h, &a, &b, l);
}

/*
 * Its whole buffer in flight (6.6 MB, nothing unsent) and its congestion
 * window at 19 MB, room to spare: the buffer held it whatever the round
 * trip did, send-buffer (it read network, the path-full guard).  Held by
 * a full congestion window instead (5 MB in flight, 1.5 MB unsent behind
 * it): network, the path full.  Where tcp_info does not say what was
 * unsent (before 4.6; macOS, Windows): network, as before.
 */
static void
test_send_buffer_round_trip_grown(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 8 * MIB, 0);
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	flows_classify(busy_upload(h, &l, 19046992, 6600000, 0,
	    FLOW_KNOWS_NOTSENT), &v);
	assert_int_equal(v.rate_bps, 275251296);
	assert_int_equal(v.held, HELD_SEND_BUFFER);
	assert_false(v.path_full);
	assert_string_equal(v.ceiling->key, "net.ipv4.tcp_wmem");
	/* the far end's window the smaller, and full: network */
	flows_init(h);
	flows_classify(busy_upload(h, &l, 30000000, 24000000, 600000,
	    FLOW_KNOWS_NOTSENT), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	flows_init(h);
	flows_classify(busy_upload(h, &l, 5000000, 5000000, 1500000,
	    FLOW_KNOWS_NOTSENT), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	flows_init(h);
	flows_classify(busy_upload(h, &l, 19046992, 6600000, 0, 0), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
}

/*
 * An upload with 64 MiB ceilings at both ends, in three passes as
 * recorded (bench/flows/accuracy.sh, quiet): its fastest interval the
 * second, 689 Mbit/s at a 200 ms round trip (150 ms the path's), the
 * far end's window there peer_wnd against a 35 MB congestion window,
 * retrans segments retransmitted in it; then its last reading, slower,
 * the round trip at 672 ms and the far end's window shrunk to 25 MB.
 * rwnd-limited 35 % of its busy time.
 */
static const struct flow *
upload_64(struct flow_history *h, const struct flow_limits *l,
    uint64_t peer_wnd, uint32_t retrans)
{
	struct flow_reading	a = reading(13, 150092), b, c;

	flows_init(h);
	a.known |= FLOW_KNOWS_MIN_RTT | FLOW_KNOWS_PEER_WND;
	a.min_rtt_us = 150092;
	a.bytes_acked = 30 * MIB;
	a.busy_us = 1000000;
	a.sndbuf = 64 * MIB;
	a.cwnd_bytes = 20000000;
	a.peer_wnd = 20000000;
	b = a;
	b.rtt_us = 200000;
	b.bytes_acked += 86148715;	/* 689 Mbit/s */
	b.busy_us += 1000000;
	b.rwnd_limited_us = 700000;
	b.cwnd_bytes = 35196536;
	b.peer_wnd = peer_wnd;
	b.retrans = retrans;
	c = b;
	c.rtt_us = 671994;
	c.bytes_acked += 40000000;	/* 320 Mbit/s */
	c.busy_us += 1000000;
	c.peer_wnd = 25333760;
	flows_begin_pass(h, 1000);
	flows_take(h, &a, l, 1000);
	flows_end_pass(h, 1000);
	flows_begin_pass(h, 2000);
	flows_take(h, &b, l, 2000);
	flows_end_pass(h, 2000);
	flows_begin_pass(h, 3000);
	flows_take(h, &c, l, 3000);
	flows_end_pass(h, 3000);
	return &h->flows[0];
}

/*
 * The far end's window judged where the flow was fastest and at the
 * path's round trip: 41.9 MB there, over the congestion window, did not
 * hold it (it read peer-window from the last reading's 25 MB at 672 ms):
 * network.  A 25 MB window under the congestion window at the fastest
 * interval allows 1.35 Gbit/s at 150 ms, binding at 689 Mbit/s: but the
 * sender retransmitted in that interval, the path full, network; with no
 * loss there, peer-window.  Linux's rwnd-limited time over half of the
 * busy time with the round trip grown at the fastest interval: network.
 */
static void
test_peer_window_at_peak(void **arg)
{
	struct flow_history	*h = &verdict_history;
	struct flow_limits	 l = linux_limits(64 * MIB, 64 * MIB, 0);
	struct flow_reading	 a, b;
	struct flow_verdict	 v;

	(void)arg;
	flows_classify(upload_64(h, &l, 41943040, 0), &v);
	assert_int_equal(v.rate_bps, 689189720);
	assert_int_equal(v.held, HELD_NETWORK);
	flows_classify(upload_64(h, &l, 25333760, 2400), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_false(v.path_full);
	flows_classify(upload_64(h, &l, 25333760, 0), &v);
	assert_int_equal(v.held, HELD_PEER_WINDOW);
	/* rwnd-limited 90 % of the time, the round trip at 400 ms */
	flows_init(h);
	a = reading(14, RTT_150MS);
	a.known |= FLOW_KNOWS_MIN_RTT;
	a.min_rtt_us = RTT_150MS;
	a.bytes_acked = 1 * MIB;
	a.busy_us = 1000000;
	b = a;
	b.rtt_us = 400000;
	b.bytes_acked += 20 * MIB;
	b.busy_us += 1000000;
	b.rwnd_limited_us = 900000;
	b.sndbuf = 4 * MIB;
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	assert_true(v.path_full);
	/* at 150 ms all along: the far end's window, as before */
	b.rtt_us = RTT_150MS;
	flows_init(h);
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_PEER_WINDOW);
}

/* A flow that closes is counted once by its verdict; privacy counts. */
static void
test_counts_and_privacy(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct msg_diag_summary	 s;
	char			 line[256];

	(void)arg;
	flows_init(h);
	download(h, 19 * 1000 * 1000, 4 * MIB, &l);
	flows_begin_pass(h, 3000);
	flows_end_pass(h, 3000);
	flows_begin_pass(h, 4000);
	flows_end_pass(h, 4000);
	assert_int_equal(h->held_total[HELD_RECEIVE_BUFFER], 1);
	flows_summary(h, 1000, false, &s);
	assert_int_equal(s.ntracked, 1);
	assert_int_equal(s.nhidden, 0);
	assert_int_equal(s.held_recent[HELD_RECEIVE_BUFFER], 1);
	assert_int_equal(s.rcv_ceiling_flows, 1);
	assert_int_equal(s.rcv_ceiling_bytes, 4 * MIB);
	flows_summary(h, 1001, false, &s);
	assert_int_equal(s.nhidden, 1);
	flows_summary(h, 1001, true, &s);
	assert_int_equal(s.nhidden, 0);
	diagnose_status_line(&s, line, sizeof(line));
	assert_string_equal(line, "1 transfer in the last hour was held by "
	    "the 4 MiB receive ceiling (net.ipv4.tcp_rmem); see tcptunectl "
	    "diagnose");
	free(h);
}

/* The sentence a person reads. */
/* diagnose_text or diagnose_json of r, into buf. */
static void
report(void (*print)(FILE *, const struct reply *), const struct reply *r,
    char *buf, size_t len)
{
	FILE	*f = fmemopen(buf, len, "w");

	assert_non_null(f);
	print(f, r);
	fclose(f);
}

/*
 * diagnose_text of r into buf: each line within 80 columns, then the
 * running text joined again (a line break and the indent after it as
 * one space) for the sentences to be found whole.
 */
static void
text_report(const struct reply *r, char *buf, size_t len)
{
	char	*p, *q, *line;

	report(diagnose_text, r, buf, len);
	for (line = buf; *line != '\0'; line = p + 1) {
		if ((p = strchr(line, '\n')) == NULL)
			p = line + strlen(line) - 1;
		assert_in_range(p - line, 0, 80);
	}
	for (p = q = buf; *p != '\0'; p++) {
		if (*p == '\n' && p[1] == ' ') {
			while (p[1] == ' ')
				p++;
			*q++ = ' ';
		} else
			*q++ = *p;
	}
	*q = '\0';
}

/*
 * With nothing in the history, "no connection" is said alone only when
 * nothing could have been missed; else each reason, in text and JSON.
 */
static void
test_blind_spots(void **arg)
{
	struct reply	 r;
	static char	 out[8192];

	(void)arg;
	memset(&r, 0, sizeof(r));
	r.diag.last_pass = 1;
	r.diag.tick_ms = 1000;
	r.diag.watching = 1;
	tt_strlcpy(r.diag.sampler, "sock_diag", sizeof(r.diag.sampler));
	text_report(&r, out, sizeof(out));
	assert_non_null(strstr(out, "no connection in the last hour"));
	report(diagnose_json, &r, out, sizeof(out));
	assert_non_null(strstr(out, "\"may_have_missed\": []"));

	r.diag.watching = 0;
	tt_strlcpy(r.diag.watch_why, "sock_diag close notices: Operation "
	    "not permitted", sizeof(r.diag.watch_why));
	r.diag.closes_lost = 3;
	r.diag.evicted = 7;
	text_report(&r, out, sizeof(out));
	assert_null(strstr(out, "no connection in the last hour"));
	assert_non_null(strstr(out, "it may have missed some"));
	assert_non_null(strstr(out, "not as they close (sock_diag close "
	    "notices: Operation not permitted)"));
	assert_non_null(strstr(out, "dropped close notices 3 times"));
	assert_non_null(strstr(out, "7 older connections were dropped"));
	report(diagnose_json, &r, out, sizeof(out));
	assert_non_null(strstr(out, "\"no-close-notices\""));
	assert_non_null(strstr(out, "\"close-notices-dropped\""));
	assert_non_null(strstr(out, "\"history-full\""));
	assert_non_null(strstr(out, "\"close_notices\": false"));
}

/* diagnose --json gives its times as status --json does: ISO 8601 UTC. */
static void
test_json_times(void **arg)
{
	struct reply	 r;
	struct msg_flow	 flow;
	static char	 out[8192];

	(void)arg;
	memset(&r, 0, sizeof(r));
	memset(&flow, 0, sizeof(flow));
	r.diag.last_pass = 1764979200;		/* 2025-12-06 00:00:00 UTC */
	flow.last_seen = 1764979261;
	r.flows = &flow;
	r.nflows = 1;
	report(diagnose_json, &r, out, sizeof(out));
	assert_non_null(strstr(out, "\"last_pass\": \"2025-12-06T00:00:00Z\""));
	assert_non_null(strstr(out, "\"last_seen\": \"2025-12-06T00:01:01Z\""));
	r.diag.last_pass = 0;			/* no pass yet */
	r.nflows = 0;
	report(diagnose_json, &r, out, sizeof(out));
	assert_non_null(strstr(out, "\"last_pass\": null"));
}

/* A connection's sentence under its line, within 80 columns. */
static void
test_text_width(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_verdict	 v;
	struct msg_flow		 m;
	const struct flow	*f;
	struct reply		 r;
	static char		 out[8192];

	(void)arg;
	flows_init(h);
	f = download(h, 26875000, 4 * MIB, &l);	/* 215 Mbit/s */
	flows_classify(f, &v);
	flows_to_msg(f, &v, &m);
	memset(&r, 0, sizeof(r));
	r.diag.last_pass = 1;
	r.diag.watching = 1;
	r.flows = &m;
	r.nflows = 1;
	text_report(&r, out, sizeof(out));
	assert_non_null(strstr(out, "because this machine's receive buffer "
	    "stops at 4 MiB (net.ipv4.tcp_rmem); at the path's 150 ms"));
	free(h);
}

static void
test_sentence(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l = linux_limits(4 * MIB, 4 * MIB, 64 * MIB);
	struct flow_verdict	 v;
	struct msg_flow		 m;
	const struct flow	*f;
	char			 line[1024];

	(void)arg;
	flows_init(h);
	f = download(h, 26875000, 4 * MIB, &l);	/* 215 Mbit/s */
	flows_classify(f, &v);
	flows_to_msg(f, &v, &m);
	diagnose_sentence(&m, line, sizeof(line));
	assert_string_equal(line, "your download from 203.0.113.7 ran at "
	    "215 Mbit/s because this machine's receive buffer stops at "
	    "4 MiB (net.ipv4.tcp_rmem); at the path's 150 ms round trip that "
	    "is the most one stream can do; at the ceiling tcptune.conf sets it could reach "
	    "1.79 Gbit/s, where the path allows");
	m.held_by = HELD_PEER_WINDOW;
	diagnose_sentence(&m, line, sizeof(line));
	assert_non_null(strstr(line, "far end's receive window"));
	/* an address with a terminal escape in it is shown escaped */
	tt_strlcpy(m.remote, "[2001:db8::\x1b]:443", sizeof(m.remote));
	diagnose_sentence(&m, line, sizeof(line));
	assert_null(strchr(line, '\x1b'));
	assert_non_null(strstr(line, "2001:db8::"));
	free(h);
}

/* Windows: ESTATS values in their documented units (ms, bytes). */
static const struct flow *
estats_two(struct flow_history *h, const struct estats_record *a,
    const struct estats_record *b, const char *level, const char *wanted)
{
	struct flow_reading	ra, rb;
	struct flow_limits	l;

	flows_estats_limits(level, &l);
	l.rcv_auto.wanted = flows_estats_level_window(wanted);
	flows_estats_reading(a, &ra);
	flows_estats_reading(b, &rb);
	return two_passes(h, &ra, &rb, &l);
}

static struct estats_record
estats(uint64_t id)
{
	struct estats_record	e;

	memset(&e, 0, sizeof(e));
	e.id = id;
	tt_strlcpy(e.local, "192.0.2.10:50100", sizeof(e.local));
	tt_strlcpy(e.remote, "203.0.113.7:443", sizeof(e.remote));
	e.SmoothedRtt = 150;
	e.CurCwnd = 4 * MIB;
	return e;
}

static void
test_estats_levels(void **arg)
{
	(void)arg;
	/* 65535 << 0, 2, 4, 8, 14 (docs/DESIGN.md §3 Windows) */
	assert_int_equal(flows_estats_level_window("disabled"), 65535);
	assert_int_equal(flows_estats_level_window("highlyrestricted"), 262140);
	assert_int_equal(flows_estats_level_window("restricted"), 1048560);
	assert_int_equal(flows_estats_level_window("normal"), 16776960);
	assert_int_equal(flows_estats_level_window("experimental"),
	    1073725440);
	assert_int_equal(flows_estats_level_window("enabled"), 0);
}

/* A download at "restricted": its window at 1 MiB, 52 Mbit/s at 150 ms. */
static void
test_estats_receive(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct estats_record	 a = estats(1), b;
	struct flow_verdict	 v;
	struct msg_diag_summary	 s;

	(void)arg;
	flows_init(h);
	a.DataBytesIn = 2 * MIB;
	a.MaxRwinSent = 524280;
	b = a;
	b.DataBytesIn += 6500000;
	b.MaxRwinSent = 1048560;
	flows_classify(estats_two(h, &a, &b, "restricted", "normal"), &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_string_equal(v.ceiling->key, "tcp.autotuninglevel");
	assert_int_equal(v.ceiling_bytes, 1048560);
	/* one window per round trip: 1048560 * 8 / 0.15 */
	assert_int_equal(v.allowed_bps, 1048560ULL * 8000000 / 150000);
	assert_int_equal(v.possible_bps, 16776960ULL * 8000000 / 150000);
	/* at "normal" the same window is far below the ceiling */
	flows_init(h);
	flows_classify(estats_two(h, &a, &b, "normal", "normal"), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	/* no owner: a user who is not an administrator sees a count, even
	   one whose identity happens to be the reading's uid */
	flows_summary(h, 0, false, &s);
	assert_int_equal(s.nhidden, 1);
	flows_summary(h, UINT32_MAX, false, &s);
	assert_int_equal(s.nhidden, 1);
	free(h);
}

/* Uploads: "Receiver Limited" and "Sender Limited" times (ms). */
static void
test_estats_send(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct estats_record	 a = estats(2), b;
	struct flow_verdict	 v;

	(void)arg;
	flows_init(h);
	a.DataBytesOut = 2 * MIB;
	b = a;
	b.DataBytesOut += 3 * MIB;
	b.SndLimTimeRwin = 800;
	b.SndLimTimeCwnd = 150;
	b.CurRwinRcvd = 512 * 1024;
	flows_classify(estats_two(h, &a, &b, "normal", ""), &v);
	assert_int_equal(v.held, HELD_PEER_WINDOW);
	flows_init(h);
	b.SndLimTimeRwin = 0;
	b.SndLimTimeCwnd = 200;
	b.SndLimTimeSnd = 800;
	b.CurRwinRcvd = 8 * MIB;	/* a far end with room */
	flows_classify(estats_two(h, &a, &b, "normal", ""), &v);
	assert_int_equal(v.held, HELD_APPLICATION);
	flows_init(h);
	b.SndLimTimeCwnd = 950;
	b.SndLimTimeSnd = 50;
	b.CurCwnd = 400000;	/* 21 Mbit/s at 150 ms: the window binds */
	flows_classify(estats_two(h, &a, &b, "normal", ""), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	free(h);
}

/*
 * macOS: net.inet.tcp.pcblist_n buffers built from the test's own copies
 * of xnu's structures (apple-oss-distributions/xnu bsd/netinet/in_pcb.h
 * xinpgen, xinpcb_n; bsd/sys/socketvar.h xsocket_n, xsockbuf_n,
 * xsockstat_n; bsd/netinet/tcp_var.h xtcpcb_n; all under #pragma
 * pack(4)), laid out as bsd/netinet/in_pcblist.c get_pcblist_n writes
 * them: the parser reads them by its own offsets, so a wrong one fails
 * here.  Fields the parser does not read are kept, to keep the offsets.
 */
#pragma pack(4)
struct t_xinpgen {
	uint32_t	xig_len, xig_count;
	uint64_t	xig_gen, xig_sogen;
};
struct t_xinpcb_n {
	uint32_t	xi_len, xi_kind;
	uint64_t	xi_inpp;
	uint16_t	inp_fport, inp_lport;
	uint64_t	inp_ppcb, inp_gencnt;
	int32_t		inp_flags;
	uint32_t	inp_flow;
	uint8_t		inp_vflag, inp_ip_ttl, inp_ip_p;
	union { uint32_t pad[4]; uint8_t a[16]; } faddr, laddr;
	struct { uint8_t tos; } d4;
	struct { uint8_t hlim; int32_t cksum; uint16_t ifindex;
		int16_t hops; } d6;
	uint32_t	inp_flowhash, inp_flags2;
};
struct t_xsocket_n {
	uint32_t	xso_len, xso_kind;
	uint64_t	xso_so;
	int16_t		so_type;
	uint32_t	so_options;
	int16_t		so_linger, so_state;
	uint64_t	so_pcb;
	int32_t		xso_protocol, xso_family;
	int16_t		so_qlen, so_incqlen, so_qlimit, so_timeo;
	uint16_t	so_error;
	int32_t		so_pgid;
	uint32_t	so_oobmark, so_uid;
	int32_t		so_last_pid, so_e_pid;
	uint64_t	so_gencnt;
	uint32_t	so_flags, so_flags1;
	int32_t		so_usecount, so_retaincnt;
	uint32_t	xso_filter_flags;
};
struct t_xsockbuf_n {
	uint32_t	xsb_len, xsb_kind, sb_cc, sb_hiwat, sb_mbcnt,
			sb_mbmax;
	int32_t		sb_lowat;
	int16_t		sb_flags, sb_timeo;
};
struct t_xsockstat_n {
	uint32_t	xst_len, xst_kind;
	uint64_t	stats[4][4];	/* rx/tx packets and bytes */
};
struct t_xtcpcb_n {
	uint32_t	xt_len, xt_kind;
	uint64_t	t_segq;
	int32_t		t_dupacks, t_timer[4], t_state;
	uint32_t	t_flags;
	int32_t		t_force;
	uint32_t	snd_una, snd_max, snd_nxt, snd_up, snd_wl1, snd_wl2,
			iss, irs, rcv_nxt, rcv_adv, rcv_wnd, rcv_up, snd_wnd,
			snd_cwnd, snd_ssthresh, t_maxopd, t_rcvtime,
			t_starttime;
	int32_t		t_rtttime;
	uint32_t	t_rtseq;
	int32_t		t_rxtcur;
	uint32_t	t_maxseg;
	int32_t		t_srtt, t_rttvar, t_rxtshift;
	uint32_t	t_rttmin, t_rttupdated, max_sndwnd;
	int32_t		t_softerror;
	char		t_oobflags, t_iobc;
	uint8_t		snd_scale, rcv_scale, request_r_scale,
			requested_s_scale;
	uint32_t	ts_recent, ts_recent_age, last_ack_sent, cc_send,
			cc_recv, snd_recover, snd_cwnd_prev,
			snd_ssthresh_prev;
};
#pragma pack()

/* The packed offsets of the xnu headers, counted by hand. */
_Static_assert(sizeof(struct t_xinpgen) == 24, "xinpgen");
_Static_assert(sizeof(struct t_xinpcb_n) == 104, "xinpcb_n");
_Static_assert(offsetof(struct t_xinpcb_n, inp_gencnt) == 28, "gencnt");
_Static_assert(offsetof(struct t_xinpcb_n, faddr) == 48, "faddr");
_Static_assert(sizeof(struct t_xsocket_n) == 104, "xsocket_n");
_Static_assert(offsetof(struct t_xsocket_n, so_uid) == 64, "so_uid");
_Static_assert(sizeof(struct t_xsockbuf_n) == 32, "xsockbuf_n");
_Static_assert(sizeof(struct t_xsockstat_n) == 136, "xsockstat_n");
_Static_assert(sizeof(struct t_xtcpcb_n) == 204, "xtcpcb_n");
_Static_assert(offsetof(struct t_xtcpcb_n, t_srtt) == 136, "t_srtt");

#define PCB_ITEM	(104 + 104 + 32 + 32 + 136 + 208)	/* ROUNDUP64 */

/* One connection as a test describes it. */
struct pcb_conn {
	int		v6;
	uint8_t		laddr[16], faddr[16];
	uint16_t	lport, fport;
	uint32_t	uid, state, srtt_ms, rcv_hiwat, rcv_cc, snd_hiwat;
	uint32_t	iss, irs, acked, received, snd_wnd, snd_cwnd;
	uint64_t	gen;
};

static unsigned char	pcb_buf[24 + 8 * PCB_ITEM + 24];

static size_t
pcb_put(size_t off, const void *rec, size_t len)
{
	memcpy(pcb_buf + off, rec, len);
	return off + ((len + 7) & ~(size_t)7);
}

static size_t
pcb_item(size_t off, const struct pcb_conn *c)
{
	struct t_xinpcb_n	inp = { .xi_len = 104, .xi_kind = 0x10 };
	struct t_xsocket_n	so = { .xso_len = 104, .xso_kind = 0x01 };
	struct t_xsockbuf_n	rcv = { .xsb_len = 32, .xsb_kind = 0x02 },
				snd = { .xsb_len = 32, .xsb_kind = 0x04 };
	struct t_xsockstat_n	st = { .xst_len = 136, .xst_kind = 0x08 };
	struct t_xtcpcb_n	tp = { .xt_len = 204, .xt_kind = 0x20 };

	inp.inp_fport = (uint16_t)(c->fport >> 8 | c->fport << 8);
	inp.inp_lport = (uint16_t)(c->lport >> 8 | c->lport << 8);
	inp.inp_gencnt = c->gen;
	inp.inp_vflag = c->v6 ? 0x2 : 0x1;
	memcpy(c->v6 ? inp.faddr.a : inp.faddr.a + 12, c->faddr,
	    c->v6 ? 16 : 4);
	memcpy(c->v6 ? inp.laddr.a : inp.laddr.a + 12, c->laddr,
	    c->v6 ? 16 : 4);
	so.xso_protocol = 6;
	so.xso_family = c->v6 ? 30 : 2;
	so.so_uid = c->uid;
	rcv.sb_hiwat = c->rcv_hiwat;
	rcv.sb_cc = c->rcv_cc;
	snd.sb_hiwat = c->snd_hiwat;
	st.stats[0][1] = 3ULL * c->received;	/* not what is read */
	tp.t_state = (int32_t)c->state;
	tp.t_srtt = (int32_t)(c->srtt_ms << 5);	/* TCP_RTT_SHIFT */
	tp.iss = c->iss;
	tp.snd_una = c->iss + 1 + c->acked;
	tp.irs = c->irs;
	tp.rcv_nxt = c->irs + 1 + c->received;
	tp.snd_wnd = c->snd_wnd;
	tp.snd_cwnd = c->snd_cwnd;
	off = pcb_put(off, &inp, sizeof(inp));
	off = pcb_put(off, &so, sizeof(so));
	off = pcb_put(off, &rcv, sizeof(rcv));
	off = pcb_put(off, &snd, sizeof(snd));
	off = pcb_put(off, &st, sizeof(st));
	return pcb_put(off, &tp, sizeof(tp));
}

/* A whole buffer: the xinpgen, the items, the trailing xinpgen. */
static size_t
pcb_list(const struct pcb_conn *c, size_t n)
{
	struct t_xinpgen	g = { .xig_len = 24, .xig_gen = 1000 };
	size_t			off, i;

	memset(pcb_buf, 0, sizeof(pcb_buf));
	g.xig_count = (uint32_t)n;
	off = pcb_put(0, &g, sizeof(g));
	for (i = 0; i < n; i++)
		off = pcb_item(off, &c[i]);
	return pcb_put(off, &g, sizeof(g));
}

static struct flow_reading	pcb_got[8];
static size_t			pcb_ngot;

static void
pcb_take(void *arg, const struct flow_reading *r)
{
	(void)arg;
	if (pcb_ngot < NITEMS(pcb_got))
		pcb_got[pcb_ngot++] = *r;
}

static int
pcb_parse(size_t len)
{
	char	why[256];

	pcb_ngot = 0;
	return flows_pcblist_parse(pcb_buf, len, pcb_take, NULL, why,
	    sizeof(why));
}

static struct pcb_conn
pcb_download(uint32_t received, uint32_t hiwat)
{
	struct pcb_conn	c = { .lport = 50123, .fport = 443, .uid = 501,
			    .state = 4, .srtt_ms = 150, .snd_hiwat = 131072,
			    .iss = 0xfffff000, .irs = 77, .acked = 900,
			    .snd_wnd = 131072, .snd_cwnd = 14480, .gen = 7 };

	memcpy(c.laddr, "\xc0\x00\x02\x0a", 4);
	memcpy(c.faddr, "\xcb\x00\x71\x07", 4);
	c.received = received;
	c.rcv_hiwat = hiwat;
	return c;
}

/* A reading as pcblist_n gives it: each field from its record. */
static void
test_pcblist_reading(void **arg)
{
	struct pcb_conn		c[2];
	const struct flow_reading *r = &pcb_got[0];
	uint32_t		v;

	(void)arg;
	c[0] = pcb_download(5 * MIB, 4 * MIB);
	c[0].rcv_cc = 12345;
	c[1] = c[0];
	c[1].state = 1;		/* a listener: its port only */
	assert_int_equal(pcb_parse(pcb_list(c, 2)), 2);
	assert_int_equal(pcb_ngot, 2);
	assert_false(r->listening);
	assert_true(pcb_got[1].listening);
	assert_string_equal(r->local, "192.0.2.10:50123");
	assert_string_equal(r->remote, "203.0.113.7:443");
	assert_int_equal(r->id, 7);
	assert_int_equal(r->uid, 501);
	assert_int_equal(r->rtt_us, 150000);
	assert_int_equal(r->bytes_received, 5 * MIB);
	assert_int_equal(r->bytes_acked, 900);	/* iss wrapped past 2^32 */
	assert_int_equal(r->rcvbuf, 4 * MIB);
	assert_int_equal(r->rmem_alloc, 12345);
	assert_int_equal(r->sndbuf, 131072);
	assert_int_equal(r->peer_wnd, 131072);
	assert_int_equal(r->cwnd_bytes, 14480);
	assert_true(r->known & FLOW_KNOWS_UID);
	assert_false(r->known & FLOW_KNOWS_LIMITED);
	/* an item whose TCPCB is of a kind not read (XSO_KCREG): the next
	   item's records are that item's, not mixed with the short one */
	c[1] = c[0];
	c[1].state = 4;
	c[1].lport = 50999;
	c[1].gen = 8;
	(void)pcb_list(c, 2);
	v = 0x40;
	memcpy(pcb_buf + 24 + PCB_ITEM - 208 + 4, &v, 4);
	assert_int_equal(pcb_parse(24 + 2 * PCB_ITEM + 24), 1);
	assert_string_equal(r->local, "192.0.2.10:50999");
	assert_int_equal(r->id, 8);
	/* no connections at all: the two xinpgens */
	assert_int_equal(pcb_parse(pcb_list(c, 0)), 0);
}

/* IPv6 addresses in RFC 5952's short form, in brackets. */
static void
test_pcblist_v6(void **arg)
{
	struct pcb_conn	c = pcb_download(2 * MIB, 4 * MIB);

	(void)arg;
	c.v6 = 1;
	memcpy(c.laddr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
	memcpy(c.faddr, "\x20\x01\x0d\xb8\0\x01\0\0\0\0\0\x02\0\0\0\0", 16);
	assert_int_equal(pcb_parse(pcb_list(&c, 1)), 1);
	assert_string_equal(pcb_got[0].local, "[2001:db8::1]:50123");
	assert_string_equal(pcb_got[0].remote, "[2001:db8:1::2:0:0]:443");
	memset(c.laddr, 0, 16);
	memset(c.faddr, 0, 16);
	c.faddr[15] = 1;
	assert_int_equal(pcb_parse(pcb_list(&c, 1)), 1);
	assert_string_equal(pcb_got[0].local, "[::]:50123");
	assert_string_equal(pcb_got[0].remote, "[::1]:443");
}

/*
 * Truncated and garbage buffers: -1, never a read past the end (each
 * cut is copied to the end of a heap block of its own size, so a read
 * past it is what ASan and valgrind see).
 */
static void
test_pcblist_bad(void **arg)
{
	struct pcb_conn	c[2];
	size_t		len, cut;
	unsigned char	*p;
	char		why[256];
	uint32_t	v;
	int		rv;

	(void)arg;
	c[0] = pcb_download(5 * MIB, 4 * MIB);
	c[1] = c[0];
	len = pcb_list(c, 2);
	for (cut = 0; cut < len; cut++) {
		p = malloc(cut + 1);
		memcpy(p, pcb_buf, cut);
		pcb_ngot = 0;
		rv = flows_pcblist_parse(p, cut, pcb_take, NULL, why,
		    sizeof(why));
		free(p);
		assert_true(rv == -1 || (size_t)rv <= pcb_ngot);
		if (cut < len - 24)	/* before the trailing xinpgen */
			assert_int_equal(rv, -1);
	}
	/* a record length past the end; a TCPCB too short to read */
	v = 0x7ffffff0;
	memcpy(pcb_buf + 24, &v, 4);
	assert_int_equal(pcb_parse(len), -1);
	len = pcb_list(c, 1);
	v = 40;
	memcpy(pcb_buf + 24 + PCB_ITEM - 208, &v, 4);
	assert_int_equal(pcb_parse(len), -1);
	/* garbage after a good xinpgen: every byte the same */
	for (v = 0; v < 256; v += 17) {
		len = pcb_list(c, 1);
		memset(pcb_buf + 24, (int)v, PCB_ITEM);
		assert_true(pcb_parse(len) <= 0);
	}
}

/*
 * macOS's stock 4 MiB autorcvbufmax holding a download at 150 ms: the
 * buffer at the ceiling and the rate what it allows; tuned to 16 MiB,
 * the same buffer is not the limit.
 */
static void
test_pcblist_receive(void **arg)
{
	struct flow_history	*h = malloc(sizeof(*h));
	struct flow_limits	 l;
	struct flow_reading	 a, b;
	struct flow_verdict	 v;
	struct pcb_conn		 c = pcb_download(1 * MIB, 2 * MIB);
	const struct flow	*f;
	struct msg_flow		 m;
	char			 line[1024];

	(void)arg;
	/* the window scale caps: 4 MiB at scale 6, 64 KiB - 1 << 3 */
	assert_int_equal(flows_pcblist_rcv_reach(4 * MIB), 4194240);
	assert_int_equal(flows_pcblist_rcv_reach(16 * MIB), 16776960);
	assert_int_equal(flows_pcblist_rcv_reach(300000), 300000);
	assert_int_equal(flows_pcblist_rcv_reach(1ULL << 32), 65535ULL << 14);
	flows_pcblist_limits(4 * MIB, 4 * MIB, 8 * MIB, &l);
	l.rcv_auto.wanted = 16 * MIB;
	assert_int_equal(pcb_parse(pcb_list(&c, 1)), 1);
	a = pcb_got[0];
	/* sb_hiwat stops at 65535 << 6, the window scale 4 MiB chose */
	c = pcb_download(1 * MIB + 26875000, 65535 << 6);	/* 215 Mbit/s */
	assert_int_equal(pcb_parse(pcb_list(&c, 1)), 1);
	b = pcb_got[0];
	flows_init(h);
	f = two_passes(h, &a, &b, &l);
	flows_classify(f, &v);
	assert_int_equal(v.held, HELD_RECEIVE_BUFFER);
	assert_string_equal(v.ceiling->key, "net.inet.tcp.autorcvbufmax");
	assert_int_equal(v.ceiling_bytes, 4194240);
	assert_int_equal(v.possible_bps, flows_window_rate(16 * MIB,
	    RTT_150MS));
	flows_to_msg(f, &v, &m);
	diagnose_sentence(&m, line, sizeof(line));
	assert_string_equal(line, "your download from 203.0.113.7 ran at "
	    "215 Mbit/s because this machine's receive buffer stops at "
	    "4 MiB (net.inet.tcp.autorcvbufmax); at the path's 150 ms round "
	    "trip that is the most one stream can do; at the ceiling "
	    "tcptune.conf sets it could "
	    "reach 447 Mbit/s, where the path allows");
	flows_pcblist_limits(16 * MIB, 4 * MIB, 32 * MIB, &l);
	flows_init(h);
	flows_classify(two_passes(h, &a, &b, &l), &v);
	assert_int_equal(v.held, HELD_NETWORK);
	free(h);
}

/* /proc/net/snmp as Linux 6.18 writes it (the Tcp lines; others around). */
static const char snmp_text[] =
    "Ip: Forwarding DefaultTTL InReceives\n"
    "Ip: 1 64 9000\n"
    "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens "
    "AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs "
    "OutRsts InCsumErrors\n"
    "Tcp: 1 200 120000 -1 265 158 53 52 0 4941 3527 134 0 109 0\n"
    "Udp: InDatagrams NoPorts\n"
    "Udp: 10 2\n";

static void
test_snmp_segments(void **arg)
{
	uint64_t	segs = 0;

	(void)arg;
	assert_int_equal(flows_snmp_tcp_segs(snmp_text, &segs), 0);
	assert_int_equal(segs, 4941 + 3527);
	/* garbage, a names line alone, a pair without OutSegs: refused */
	assert_int_equal(flows_snmp_tcp_segs("", &segs), -1);
	assert_int_equal(flows_snmp_tcp_segs("Tcp: InSegs OutSegs\n",
	    &segs), -1);
	assert_int_equal(flows_snmp_tcp_segs("Tcp: InSegs Other\nTcp: 1 2\n",
	    &segs), -1);
	assert_int_equal(flows_snmp_tcp_segs("Tcp: InSegs OutSegs\n"
	    "Tcp: 10 20\n", &segs), 0);
	assert_int_equal(segs, 30);
}

/* A quiet machine skips passes, never two busy ones or the one after. */
static void
test_pass_due(void **arg)
{
	struct flow_quiet	q;
	uint64_t		t = 1000;

	(void)arg;
	memset(&q, 0, sizeof(q));
	assert_true(flows_pass_due(&q, 0, 100, t));	/* the first */
	assert_true(flows_pass_due(&q, 0, 110, t += 1000)); /* one quiet */
	assert_false(flows_pass_due(&q, 0, 120, t += 1000)); /* two */
	assert_false(flows_pass_due(&q, 0, 130, t += 1000));
	assert_true(flows_pass_due(&q, 0, 130 + FLOW_QUIET_SEGS,
	    t += 1000));			/* a transfer */
	assert_true(flows_pass_due(&q, 0, 200 + FLOW_QUIET_SEGS,
	    t += 1000));
	assert_true(flows_pass_due(&q, 0, 201 + FLOW_QUIET_SEGS,
	    t += 1000));			/* the one after: how it ended */
	assert_false(flows_pass_due(&q, 0, 202 + FLOW_QUIET_SEGS,
	    t += 1000));
	/* however quiet, one a FLOW_QUIET_MAX_MS */
	assert_true(flows_pass_due(&q, 0, 203 + FLOW_QUIET_SEGS,
	    t += FLOW_QUIET_MAX_MS));
	/* a counter that went back (a new namespace) or is unknown: a pass */
	assert_true(flows_pass_due(&q, 0, 5, t += 1000));
	assert_true(flows_pass_due(&q, -1, 0, t += 1000));
	assert_true(flows_pass_due(&q, -1, 0, t += 1000));
}

/*
 * One tick as diagnose.c's on_tick runs it on a segment count: a pass if
 * due, then the next period, which moves the clock *t on.
 */
static uint32_t
tick_on_segs(struct flow_quiet *q, uint64_t segs, uint64_t *t)
{
	bool		due = flows_pass_due(q, 0, segs, *t);
	uint32_t	period = flows_tick_next(q, due ? q->was_quiet : true);

	*t += period;
	return period;
}

/*
 * Nothing moves: the tick doubles up to FLOW_SLEEP_MAX_MS and stays
 * there, one wake-up a minute; segments moving at a long tick, or a close
 * notice, bring it back to FLOW_TICK_MS at once.
 */
static void
test_tick_backoff(void **arg)
{
	static const uint32_t	ramp[] = { 1000, 2000, 4000, 8000, 16000,
				    32000, 60000, 60000, 60000 };
	struct flow_quiet	q;
	uint64_t		t = 0, segs = 500, t0;
	size_t			i, ticks;

	(void)arg;
	assert_int_equal(FLOW_SLEEP_MAX_MS, 60000);
	memset(&q, 0, sizeof(q));
	for (i = 0; i < sizeof(ramp) / sizeof(ramp[0]); i++)
		assert_int_equal(tick_on_segs(&q, segs, &t), ramp[i]);
	/* an idle hour: one tick a minute, each a pass (FLOW_QUIET_MAX_MS) */
	for (t0 = t, ticks = 0; t - t0 < 3600000; ticks++) {
		assert_true(flows_pass_due(&q, 0, segs, t));
		assert_int_equal(flows_tick_next(&q, q.was_quiet), 60000);
		t += 60000;
	}
	assert_int_equal(ticks, 60);
	/* a trickle under FLOW_QUIET_SEGS in a whole sleep keeps it long */
	segs += FLOW_QUIET_SEGS - 1;
	assert_int_equal(tick_on_segs(&q, segs, &t), 60000);
	/* a transfer seen at a long tick: a pass, and back to 1 s */
	segs += FLOW_QUIET_SEGS;
	assert_true(flows_pass_due(&q, 0, segs, t));
	assert_int_equal(flows_tick_next(&q, q.was_quiet), FLOW_TICK_MS);
	t += FLOW_TICK_MS;
	segs += 5000;			/* still running: stays at 1 s */
	assert_int_equal(tick_on_segs(&q, segs, &t), FLOW_TICK_MS);
	assert_int_equal(tick_on_segs(&q, segs, &t), 2000);	/* ended */
	assert_int_equal(tick_on_segs(&q, segs, &t), 4000);
	/* a close notice (diagnose.c's wake_tick) */
	assert_int_equal(flows_tick_next(&q, false), FLOW_TICK_MS);
	/* a period never set counts as FLOW_TICK_MS */
	q.tick_ms = 0;
	assert_int_equal(flows_tick_next(&q, true), 2 * FLOW_TICK_MS);
}

/*
 * Without a segment count a pass's connections tell: quiet when their
 * bytes, together, moved less than FLOW_QUIET_BYTES either way.
 */
static void
test_bytes_quiet(void **arg)
{
	struct flow_quiet	q;
	uint64_t		b = 1000000;

	(void)arg;
	memset(&q, 0, sizeof(q));
	assert_false(flows_bytes_quiet(&q, b));		/* the first */
	assert_true(flows_bytes_quiet(&q, b));
	assert_true(flows_bytes_quiet(&q, b += FLOW_QUIET_BYTES - 1));
	assert_false(flows_bytes_quiet(&q, b += FLOW_QUIET_BYTES));
	assert_false(flows_bytes_quiet(&q, b -= FLOW_QUIET_BYTES));	/* gone */
	assert_true(flows_bytes_quiet(&q, b));
	assert_false(flows_bytes_quiet(&q, 0));		/* all closed */
	assert_true(flows_bytes_quiet(&q, 0));		/* none: idle */
}

/*
 * The budget the passes and the close notices share: a flood of notices
 * read whenever budget is left, each batch 2 ms of CPU, spends no more
 * than FLOW_CPU_SHARE's share of the wall clock (and one burst); out of
 * budget, the wait it names brings budget back; passes then spend the
 * same budget, so a flood of notices puts them off too.
 */
static void
test_budget(void **arg)
{
	struct flow_budget	b;
	uint64_t		t = 5000, spent = 0, end, wait, batches = 0;

	(void)arg;
	memset(&b, 0, sizeof(b));
	assert_true(flows_budget_left(&b, t));	/* a full burst at the start */
	for (end = t + 60000; t < end; t++) {
		if (!flows_budget_left(&b, t))
			continue;
		flows_budget_spend(&b, 2000);
		spent += 2000;
		batches++;
	}
	assert_true(batches > 0);
	assert_true(spent <= 60000ULL * 1000 / FLOW_CPU_SHARE +
	    FLOW_BUDGET_BURST_US + 2000);
	assert_true(spent >= 60000ULL * 1000 / FLOW_CPU_SHARE / 2);
	/* out of budget: the wait named, then budget again, not before */
	flows_budget_spend(&b, 50000);
	assert_false(flows_budget_left(&b, t));
	wait = flows_budget_wait_ms(&b);
	assert_true(wait >= 50000ULL * FLOW_CPU_SHARE / 1000);
	assert_false(flows_budget_left(&b, t + wait - 10));
	assert_true(flows_budget_left(&b, t + wait));
	assert_int_equal(flows_budget_wait_ms(&b), 0);
	/* a long quiet spell gives one burst, no more */
	assert_true(flows_budget_left(&b, t + 100000000));
	flows_budget_spend(&b, FLOW_BUDGET_BURST_US);
	assert_false(flows_budget_left(&b, t + 100000000));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_receive_buffer),
		cmocka_unit_test(test_receive_tuned),
		cmocka_unit_test(test_receive_at_ceiling_slow),
		cmocka_unit_test(test_receive_fixed),
		cmocka_unit_test(test_receive_application),
		cmocka_unit_test(test_receive_queue_full_late),
		cmocka_unit_test(test_send_buffer),
		cmocka_unit_test(test_send_buffer_by_queue),
		cmocka_unit_test(test_paced_queue_small),
		cmocka_unit_test(test_send_queue_at_close),
		cmocka_unit_test(test_peer_network_application),
		cmocka_unit_test(test_send_without_times),
		cmocka_unit_test(test_unclassified),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_close_notice),
		cmocka_unit_test(test_close_unsampled),
		cmocka_unit_test(test_close_after_idle),
		cmocka_unit_test(test_close_tail_no_rate),
		cmocka_unit_test(test_sub_rtt_interval_no_rate),
		cmocka_unit_test(test_local_pairs),
		cmocka_unit_test(test_many_addresses),
		cmocka_unit_test(test_rate_contradiction),
		cmocka_unit_test(test_uid_share),
		cmocka_unit_test(test_unknown_owner),
		cmocka_unit_test(test_passive_share),
		cmocka_unit_test(test_counts_and_privacy),
		cmocka_unit_test(test_sentence),
		cmocka_unit_test(test_blind_spots),
		cmocka_unit_test(test_estats_levels),
		cmocka_unit_test(test_estats_receive),
		cmocka_unit_test(test_estats_send),
		cmocka_unit_test(test_pcblist_reading),
		cmocka_unit_test(test_pcblist_v6),
		cmocka_unit_test(test_pcblist_bad),
		cmocka_unit_test(test_pcblist_receive),
		cmocka_unit_test(test_snmp_segments),
		cmocka_unit_test(test_pass_due),
		cmocka_unit_test(test_tick_backoff),
		cmocka_unit_test(test_bytes_quiet),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_json_times),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_path_full),
		cmocka_unit_test(test_path_min_rtt),
		cmocka_unit_test(test_close_only_download),
		cmocka_unit_test(test_window_cap),
		cmocka_unit_test(test_download_sender_slow),
		cmocka_unit_test(test_send_buffer_round_trip_grown),
		cmocka_unit_test(test_peer_window_at_peak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
