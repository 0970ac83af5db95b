/*
 * delayline: a user-space emulated link between two network namespaces,
 * for kernels without sch_netem.
 *
 *	delayline -a NSPATH -A IFNAME -b NSPATH -B IFNAME
 *	    -r RATE_BITS -d ONE_WAY_DELAY_US -q QUEUE_BYTES [-v]
 *
 * It creates one TUN device (IFF_TUN | IFF_NO_PI) inside each namespace
 * (setns to it, open /dev/net/tun, TUNSETIFF, setns back), and forwards
 * every packet read from one to the other through a model of one
 * bottleneck link per direction:
 *
 *   departure = max(arrival, last departure) + len * 8 / rate
 *   delivery  = departure + one-way delay
 *
 * A packet that finds more than QUEUE_BYTES still waiting to be
 * serialised is dropped (drop-tail) and counted.  Packets wait in a
 * per-direction byte ring in arrival order; as delivery times only grow,
 * the ring is also the delivery order.  The devices are not persistent:
 * they disappear when the process exits.
 *
 * SIGUSR1 prints the counters; SIGINT/SIGTERM print them and exit 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* setns, ppoll */
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <net/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define PKT_MAX		65536	/* largest frame a TUN read can return */
#define READ_BATCH	64	/* reads per fd per wake-up, for fairness */
#define REC_HDR		16	/* ring record: deliver_ns, len, pad */

struct dir {
	const char	*name;		/* "a>b" */
	int		 in, out;	/* read from in, write to out */
	uint8_t		*ring;
	size_t		 cap, head, tail, used;	/* tail: next to deliver */
	uint64_t	 last_dep;	/* ns: when the link is free again */
	uint64_t	 pkts, bytes, delivered, drops, ring_drops, werr;
	uint64_t	 max_backlog;	/* bytes waiting for the link */
};

struct opts {
	const char	*ns[2], *ifname[2];
	uint64_t	 rate, delay_ns, limit;
	int		 verbose;
};

static volatile sig_atomic_t got_stop, got_dump;

static void
on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_dump = 1;
	else
		got_stop = 1;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	fputs("delayline: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (saved != 0)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
	exit(1);
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t
parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-')
		die("bad %s: '%s'", what, s);
	errno = 0;
	return v;
}

/* Open a TUN device named IFNAME inside the namespace at NSPATH. */
static int
tun_in_ns(const char *nspath, const char *ifname)
{
	struct ifreq ifr;
	int home, ns, fd;

	if ((home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) == -1)
		die("open /proc/self/ns/net");
	if ((ns = open(nspath, O_RDONLY | O_CLOEXEC)) == -1)
		die("open %s", nspath);
	if (setns(ns, CLONE_NEWNET) == -1)
		die("setns %s", nspath);
	if ((fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC)) == -1)
		die("open /dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		die("interface name too long: %s", ifname);
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(fd, TUNSETIFF, &ifr) == -1)
		die("TUNSETIFF %s in %s", ifname, nspath);
	if (setns(home, CLONE_NEWNET) == -1)
		die("setns back");
	close(ns);
	close(home);
	return fd;
}

/*
 * Ring capacity: what waits for the link (at most the queue limit) plus
 * what is on the wire (rate * delay), doubled for record headers of small
 * packets (ACKs), plus room for a wrap.
 */
static void
dir_init(struct dir *d, const char *name, int in, int out,
    const struct opts *o)
{
	double wire = (double)o->rate / 8 * (double)o->delay_ns / 1e9;

	memset(d, 0, sizeof(*d));
	d->name = name;
	d->in = in;
	d->out = out;
	d->cap = 2 * ((size_t)o->limit + (size_t)wire) + 4 * PKT_MAX;
	if ((d->ring = malloc(d->cap)) == NULL)
		die("malloc %zu", d->cap);
}

static size_t
rec_size(size_t len)
{
	return REC_HDR + ((len + 7) & ~(size_t)7);
}

/*
 * Where a record of SZ bytes can go, or SIZE_MAX when the ring is full.
 * A record never wraps: when the end is too short it goes at the start,
 * and ring_commit() marks the end as skipped.
 */
static size_t
ring_reserve(struct dir *d, size_t sz)
{
	if (d->used == 0) {
		d->head = d->tail = 0;
		return d->cap >= sz ? 0 : SIZE_MAX;
	}
	if (d->head > d->tail) {
		if (d->cap - d->head >= sz)
			return d->head;
		return d->tail >= sz ? 0 : SIZE_MAX;
	}
	if (d->head < d->tail && d->tail - d->head >= sz)
		return d->head;
	return SIZE_MAX;	/* head == tail with data: full */
}

/* Take SZ bytes at AT, as given by ring_reserve(). */
static void
ring_commit(struct dir *d, size_t at, size_t sz)
{
	if (d->used != 0 && at != d->head) {	/* wrapped: skip the end */
		if (d->cap - d->head >= REC_HDR)
			memset(d->ring + d->head, 0, REC_HDR);
		d->used += d->cap - d->head;
	}
	d->head = at + sz;
	if (d->head == d->cap)
		d->head = 0;
	d->used += sz;
}

/* A packet of LEN bytes sits at the ring's head: schedule it or drop it. */
static void
dir_enqueue(struct dir *d, size_t at, size_t len, uint64_t now,
    const struct opts *o)
{
	uint64_t start, backlog, dep, deliver;
	uint32_t len32 = (uint32_t)len;

	start = d->last_dep > now ? d->last_dep : now;
	/* bytes still waiting for the link, from the time it is busy */
	backlog = (uint64_t)((double)(start - now) * (double)o->rate / 8e9);
	if (backlog + len > o->limit) {
		d->drops++;
		return;
	}
	if (backlog + len > d->max_backlog)
		d->max_backlog = backlog + len;
	dep = start + (uint64_t)len * 8 * 1000000000u / o->rate;
	d->last_dep = dep;
	deliver = dep + o->delay_ns;
	memcpy(d->ring + at, &deliver, sizeof(deliver));
	memcpy(d->ring + at + 8, &len32, sizeof(len32));
	ring_commit(d, at, rec_size(len));
}

/* Read up to READ_BATCH packets from D's input straight into the ring. */
static void
dir_read(struct dir *d, const struct opts *o)
{
	static uint8_t scratch[PKT_MAX];
	size_t at;
	ssize_t n;
	int i;

	for (i = 0; i < READ_BATCH; i++) {
		at = ring_reserve(d, rec_size(PKT_MAX));
		n = read(d->in, at == SIZE_MAX ? scratch : d->ring + at + REC_HDR,
		    PKT_MAX);
		if (n <= 0) {
			if (n == -1 && errno != EAGAIN && errno != EINTR)
				die("read %s", d->name);
			errno = 0;
			return;
		}
		d->pkts++;
		d->bytes += (uint64_t)n;
		if (at == SIZE_MAX) {
			d->ring_drops++;
			continue;
		}
		dir_enqueue(d, at, (size_t)n, now_ns(), o);
	}
}

/* Write every packet due by NOW; return the next delivery time or 0. */
static uint64_t
dir_deliver(struct dir *d, uint64_t now)
{
	uint64_t when;
	uint32_t len;

	while (d->used > 0) {
		if (d->cap - d->tail < REC_HDR) {	/* skipped short end */
			d->used -= d->cap - d->tail;
			d->tail = 0;
			continue;
		}
		memcpy(&when, d->ring + d->tail, sizeof(when));
		memcpy(&len, d->ring + d->tail + 8, sizeof(len));
		if (len == 0) {				/* skip marker */
			d->used -= d->cap - d->tail;
			d->tail = 0;
			continue;
		}
		if (when > now)
			return when;
		if (write(d->out, d->ring + d->tail + REC_HDR, len) != (ssize_t)len)
			d->werr++;
		d->delivered++;
		d->used -= rec_size(len);
		d->tail += rec_size(len);
		if (d->tail == d->cap)
			d->tail = 0;
	}
	return 0;
}

static void
dir_print(const struct dir *d)
{
	fprintf(stderr, "delayline %s: packets %" PRIu64 " bytes %" PRIu64
	    " delivered %" PRIu64 " drops %" PRIu64 " ring_drops %" PRIu64
	    " write_errors %" PRIu64 " max_queue_bytes %" PRIu64 "\n",
	    d->name, d->pkts, d->bytes, d->delivered, d->drops, d->ring_drops,
	    d->werr, d->max_backlog);
}

static struct timespec
until(uint64_t next, uint64_t now)
{
	struct timespec ts = { 1, 0 };	/* idle: wake now and then */
	uint64_t dt;

	if (next != 0) {
		dt = next > now ? next - now : 0;
		ts.tv_sec = (time_t)(dt / 1000000000u);
		ts.tv_nsec = (long)(dt % 1000000000u);
	}
	return ts;
}

static void
run(struct dir *dirs, const struct opts *o)
{
	struct pollfd pfd[2];
	struct timespec ts;
	uint64_t now, n0, n1, next;
	sigset_t none;
	int i;

	sigemptyset(&none);
	pfd[0].fd = dirs[0].in;
	pfd[1].fd = dirs[1].in;
	pfd[0].events = pfd[1].events = POLLIN;
	while (!got_stop) {
		if (got_dump) {
			got_dump = 0;
			dir_print(&dirs[0]);
			dir_print(&dirs[1]);
		}
		now = now_ns();
		n0 = dir_deliver(&dirs[0], now);
		n1 = dir_deliver(&dirs[1], now);
		next = n0 == 0 ? n1 : (n1 == 0 || n0 < n1 ? n0 : n1);
		ts = until(next, now);
		/* signals stay blocked outside ppoll, so none is lost */
		if (ppoll(pfd, 2, &ts, &none) == -1) {
			if (errno != EINTR)
				die("ppoll");
			errno = 0;
			continue;
		}
		for (i = 0; i < 2; i++)
			if (pfd[i].revents & POLLIN)
				dir_read(&dirs[i], o);
			else if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL))
				die("tun device %s gone", dirs[i].name);
	}
}

static void
usage(void)
{
	fputs("usage: delayline -a NSPATH -A IFNAME -b NSPATH -B IFNAME"
	    " -r RATE_BIT_S -d ONE_WAY_DELAY_US -q QUEUE_BYTES\n", stderr);
	exit(64);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt(argc, argv, "a:A:b:B:r:d:q:v")) != -1) {
		switch (c) {
		case 'a': o->ns[0] = optarg; break;
		case 'A': o->ifname[0] = optarg; break;
		case 'b': o->ns[1] = optarg; break;
		case 'B': o->ifname[1] = optarg; break;
		case 'r': o->rate = parse_u64(optarg, "rate"); break;
		case 'd': o->delay_ns = parse_u64(optarg, "delay"); break;
		case 'q': o->limit = parse_u64(optarg, "queue"); break;
		case 'v': o->verbose = 1; break;
		default: usage();
		}
	}
	/* up to 10 s one way and 100 Gbit/s: no overflow in ns arithmetic */
	if (optind != argc || !o->ns[0] || !o->ns[1] || !o->ifname[0] ||
	    !o->ifname[1] || o->rate == 0 || o->limit < PKT_MAX ||
	    o->delay_ns > 10000000u || o->rate > 100000000000ull)
		usage();
	o->delay_ns *= 1000;	/* given in microseconds */
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct dir dirs[2];
	struct sigaction sa;
	sigset_t block;
	int fa, fb;

	parse_args(argc, argv, &o);
	fa = tun_in_ns(o.ns[0], o.ifname[0]);
	fb = tun_in_ns(o.ns[1], o.ifname[1]);
	dir_init(&dirs[0], "a>b", fa, fb, &o);
	dir_init(&dirs[1], "b>a", fb, fa, &o);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	/* wake-ups on time matter more than power here: 1 ns of slack */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	fprintf(stderr, "delayline: %s@%s <-> %s@%s, %" PRIu64 " bit/s, "
	    "one-way %" PRIu64 " us, queue %" PRIu64 " bytes\n",
	    o.ifname[0], o.ns[0], o.ifname[1], o.ns[1], o.rate,
	    o.delay_ns / 1000, o.limit);
	run(dirs, &o);
	dir_print(&dirs[0]);
	dir_print(&dirs[1]);
	return 0;
}
