/*
 * Linux: the machine's TCP connections through NETLINK_SOCK_DIAG, the
 * interface ss(8) reads (sock_diag(7); include/uapi/linux/sock_diag.h,
 * include/uapi/linux/inet_diag.h).  One SOCK_DIAG_BY_FAMILY dump per
 * address family asks for INET_DIAG_INFO (struct tcp_info,
 * include/uapi/linux/tcp.h) and INET_DIAG_SKMEMINFO (the SK_MEMINFO_*
 * array: sk_rcvbuf, sk_sndbuf, the receive queue); the owner is
 * inet_diag_msg.idiag_uid, the connection's identity idiag_cookie.
 *
 * The ceilings (linux_limits): autotuning grows sk_rcvbuf up to
 * tcp_rmem[2] and sk_sndbuf up to tcp_wmem[2] (net/ipv4/tcp_input.c
 * tcp_rcv_space_adjust, tcp_sndbuf_expand); a program's SO_RCVBUF or
 * SO_SNDBUF gives twice its value, the value capped at rmem_max or
 * wmem_max (net/core/sock.c __sock_set_rcvbuf, sock_setsockopt), hence
 * fixed_factor 2.
 *
 * A kernel older than the fields we read sends a shorter tcp_info: what
 * it lacks reads as 0 and is not marked known (tcpi_busy_time and the
 * limited times came in 4.10, tcpi_bytes_received in 4.1, tcpi_min_rtt
 * in 4.6, tcpi_snd_wnd in 5.4, commit 8f7baad7f035; 6.2 added
 * tcpi_rcv_wnd; tcpi_notsent_bytes in 4.6, torvalds/linux commit
 * cd9b266095f4, and tcpi_rcv_ooopack in 5.4, commit f9af2dbbfe01: see
 * take_sender, take_receiver).
 */
#include "config.h"

#include <sys/socket.h>
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tcptuned.h"
#include "flows.h"

#define DIAG_BUF	(32 * 1024)

/*
 * Connections that carry data: established, or closing with data left;
 * and the listeners, whose ports tell a service's accepted clients from
 * its owner's own connections (flows.c).  The kernel's state numbers
 * (include/net/tcp_states.h; glibc's <netinet/tcp.h> has them too, but
 * also an older struct tcp_info that clashes with <linux/tcp.h>'s).
 */
#define ST_ESTABLISHED	1
#define ST_FIN_WAIT1	4
#define ST_CLOSE_WAIT	8
#define ST_LISTEN	10
#define DIAG_STATES	((1u << ST_ESTABLISHED) | (1u << ST_FIN_WAIT1) | \
			    (1u << ST_CLOSE_WAIT) | (1u << ST_LISTEN))

static void
format_addr(int family, const __be32 *addr, __be16 port, char *buf,
    size_t len)
{
	char	a[INET6_ADDRSTRLEN];

	if (inet_ntop(family, addr, a, sizeof(a)) == NULL)
		tt_strlcpy(a, "?", sizeof(a));
	if (family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", a, ntohs(port));
	else
		snprintf(buf, len, "%s:%u", a, ntohs(port));
}

#define HAS(len, field)	((len) >= offsetof(struct tcp_info, field) + \
			    sizeof(((struct tcp_info *)0)->field))

/*
 * The path's least round trip (tcpi_min_rtt: the windowed minimum of the
 * RTT samples, net/ipv4/tcp_input.c tcp_update_rtt_min), the receiver's
 * own round trip and the most the program read in one (tcpi_rcv_rtt,
 * tcpi_rcv_space: tcp_rcv_rtt_measure_ts, tcp_rcv_space_adjust), and the
 * window scales the SYNs fixed (tcpi_rcv_wscale, ours, and
 * tcpi_snd_wscale, the far end's; 0 both where TCPI_OPT_WSCALE says the
 * option was not agreed: net/ipv4/tcp.c tcp_get_info).
 */
static void
take_path(struct flow_reading *r, const struct tcp_info *ti, size_t len)
{
	r->rcv_rtt_us = ti->tcpi_rcv_rtt;
	r->rcv_space = ti->tcpi_rcv_space;
	r->known |= FLOW_KNOWS_RCV_SPACE | FLOW_KNOWS_WSCALE;
	if (ti->tcpi_options & TCPI_OPT_WSCALE) {
		r->rcv_wscale = ti->tcpi_rcv_wscale;
		r->snd_wscale = ti->tcpi_snd_wscale;
	}
	if (HAS(len, tcpi_min_rtt) && ti->tcpi_min_rtt != ~0u) {
		r->min_rtt_us = ti->tcpi_min_rtt;
		r->known |= FLOW_KNOWS_MIN_RTT;
	}
}

/*
 * What the sender had in flight (tcpi_unacked, packets_out, in segments
 * of tcpi_snd_mss) and what its program had written that was not sent
 * yet (tcpi_notsent_bytes, write_seq - snd_nxt: net/ipv4/tcp.c
 * tcp_get_info): flows_verdict.c tells a sender whose whole buffer was in
 * flight from one its congestion window held back.
 */
static void
take_sender(struct flow_reading *r, const struct tcp_info *ti, size_t len)
{
	if (!HAS(len, tcpi_notsent_bytes))
		return;
	r->in_flight = (uint64_t)ti->tcpi_unacked * ti->tcpi_snd_mss;
	r->notsent = ti->tcpi_notsent_bytes;
	r->known |= FLOW_KNOWS_NOTSENT;
}

/*
 * The segments received out of order over the connection's life
 * (tcpi_rcv_ooopack: counted as one goes to the out-of-order queue,
 * net/ipv4/tcp_input.c tcp_data_queue_ofo): a hole, a segment the path
 * lost (or reordered), seen from the receiving end.
 */
static void
take_receiver(struct flow_reading *r, const struct tcp_info *ti, size_t len)
{
	if (!HAS(len, tcpi_rcv_ooopack))
		return;
	r->rcv_ooopack = ti->tcpi_rcv_ooopack;
	r->known |= FLOW_KNOWS_RCV_OOO;
}

static void
take_info(struct flow_reading *r, const void *data, size_t len)
{
	struct tcp_info	ti;

	memset(&ti, 0, sizeof(ti));
	memcpy(&ti, data, len < sizeof(ti) ? len : sizeof(ti));
	r->rtt_us = ti.tcpi_rtt;
	r->retrans = ti.tcpi_total_retrans;
	r->cwnd_bytes = (uint64_t)ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	r->known |= FLOW_KNOWS_CWND;
	r->bytes_acked = ti.tcpi_bytes_acked;
	r->app_limited = ti.tcpi_delivery_rate_app_limited;
	/* a download sends no data and an upload gets none: the smaller */
	r->idle_ms = ti.tcpi_last_data_sent < ti.tcpi_last_data_recv ?
	    ti.tcpi_last_data_sent : ti.tcpi_last_data_recv;
	take_path(r, &ti, len);
	take_sender(r, &ti, len);
	take_receiver(r, &ti, len);
	if (HAS(len, tcpi_bytes_received)) {
		r->bytes_received = ti.tcpi_bytes_received;
		r->known |= FLOW_KNOWS_RECEIVED;
	}
	if (HAS(len, tcpi_snd_wnd)) {
		r->peer_wnd = ti.tcpi_snd_wnd;
		r->known |= FLOW_KNOWS_PEER_WND;
	}
	if (HAS(len, tcpi_sndbuf_limited)) {
		r->busy_us = ti.tcpi_busy_time;
		r->rwnd_limited_us = ti.tcpi_rwnd_limited;
		r->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
		r->known |= FLOW_KNOWS_LIMITED;
	}
}

static void
take_meminfo(struct flow_reading *r, const void *data, size_t len)
{
	uint32_t	mem[SK_MEMINFO_VARS];

	memset(mem, 0, sizeof(mem));
	memcpy(mem, data, len < sizeof(mem) ? len : sizeof(mem));
	r->rcvbuf = mem[SK_MEMINFO_RCVBUF];
	r->sndbuf = mem[SK_MEMINFO_SNDBUF];
	r->rmem_alloc = mem[SK_MEMINFO_RMEM_ALLOC];
	/* sk_wmem_queued: the skbs in the write queue and the
	   retransmit queue, sent or not (net/core/sock.c sk_get_meminfo) */
	if (len >= (SK_MEMINFO_WMEM_QUEUED + 1) * sizeof(uint32_t)) {
		r->wmem_queued = mem[SK_MEMINFO_WMEM_QUEUED];
		r->known |= FLOW_KNOWS_SND_QUEUE;
	}
}

/*
 * One inet_diag_msg and its attributes into a reading.  Not const: the
 * uapi macros (NLMSG_DATA, RTA_DATA, RTA_NEXT) cast to plain pointers.
 */
static int
parse_msg(struct nlmsghdr *nh, struct flow_reading *r)
{
	struct inet_diag_msg	*m = NLMSG_DATA(nh);
	struct rtattr		*a;
	int			 len;

	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
		return -1;
	memset(r, 0, sizeof(*r));
	r->id = (uint64_t)m->id.idiag_cookie[0] |
	    (uint64_t)m->id.idiag_cookie[1] << 32;
	r->uid = m->idiag_uid;
	r->known = FLOW_KNOWS_UID;
	r->listening = m->idiag_state == ST_LISTEN;
	format_addr(m->idiag_family, m->id.idiag_src, m->id.idiag_sport,
	    r->local, sizeof(r->local));
	format_addr(m->idiag_family, m->id.idiag_dst, m->id.idiag_dport,
	    r->remote, sizeof(r->remote));
	len = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(*m)));
	for (a = (struct rtattr *)(m + 1); RTA_OK(a, len);
	    a = RTA_NEXT(a, len)) {
		if (a->rta_type == INET_DIAG_INFO)
			take_info(r, RTA_DATA(a), RTA_PAYLOAD(a));
		else if (a->rta_type == INET_DIAG_SKMEMINFO)
			take_meminfo(r, RTA_DATA(a), RTA_PAYLOAD(a));
	}
	return 0;
}

/*
 * NLMSG_OK's test with the sizes unsigned on both sides (the macro
 * compares the __u32 length with an int: -Wsign-compare under clang).
 */
static bool
nl_ok(const struct nlmsghdr *nh, size_t left)
{
	return left >= sizeof(*nh) && nh->nlmsg_len >= sizeof(*nh) &&
	    nh->nlmsg_len <= left;
}

/* The messages of one datagram: 1 at NLMSG_DONE, 0, or -1 with errno. */
static int
take_batch(char *buf, size_t n, void (*take)(void *,
    const struct flow_reading *), void *arg)
{
	struct flow_reading	 r;
	struct nlmsghdr		*nh;
	size_t			 left, step = 0;

	for (nh = (struct nlmsghdr *)buf, left = n; nl_ok(nh, left);
	    nh = (struct nlmsghdr *)((char *)nh + step), left -= step) {
		if (nh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			errno = e->error < 0 ? -e->error : EPROTO;
			return -1;
		}
		if (parse_msg(nh, &r) == 0)
			take(arg, &r);
		step = NLMSG_ALIGN(nh->nlmsg_len);
		if (step > left)
			break;
	}
	return 0;
}

static int
send_dump(int fd, int family)
{
	struct {
		struct nlmsghdr		nh;
		struct inet_diag_req_v2	r;
	} req;
	struct sockaddr_nl	sa;

	memset(&req, 0, sizeof(req));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	req.nh.nlmsg_len = sizeof(req);
	req.nh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.r.sdiag_family = (uint8_t)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = DIAG_STATES;
	req.r.idiag_ext = (1u << (INET_DIAG_INFO - 1)) |
	    (1u << (INET_DIAG_SKMEMINFO - 1));
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
	    sizeof(sa)) == -1)
		return -1;
	return 0;
}

/* 1 when the dump is done, 0 for more, -1 with errno. */
static int
read_batch(int fd, char *buf, void (*take)(void *,
    const struct flow_reading *), void *arg)
{
	ssize_t			 n;

	if ((n = recv(fd, buf, DIAG_BUF, 0)) == -1)
		return errno == EINTR ? 0 : -1;
	return take_batch(buf, (size_t)n, take, arg);
}

static int
dump_family(int fd, int family, void (*take)(void *,
    const struct flow_reading *), void *arg)
{
	/* aligned for the nlmsghdr at its start (C11) */
	static _Alignas(struct nlmsghdr) char	buf[DIAG_BUF];
	int		rv;

	if (send_dump(fd, family) == -1)
		return -1;
	while ((rv = read_batch(fd, buf, take, arg)) == 0)
		;
	return rv == 1 ? 0 : -1;
}

static int
linux_sample(void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t len)
{
	int	fd, rv = 0;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd == -1) {
		snprintf(why, len, "NETLINK_SOCK_DIAG: %s", strerror(errno));
		return -1;
	}
	if (dump_family(fd, AF_INET, take, arg) == -1 ||
	    dump_family(fd, AF_INET6, take, arg) == -1) {
		snprintf(why, len, "sock_diag dump: %s", strerror(errno));
		rv = -1;
	}
	close(fd);
	return rv;
}

/*
 * Close notices: the kernel multicasts each TCP socket's last state as it
 * is destroyed to the sock_diag groups SKNLGRP_INET_TCP_DESTROY and
 * SKNLGRP_INET6_TCP_DESTROY, in the socket's own network namespace
 * (torvalds/linux net/core/sock_diag.c, sock_diag_broadcast_destroy_work
 * and sock_diag_bind, at b4f27969; 4.9 and later).  Binding needs no
 * capability (NL_CFG_F_NONROOT_RECV).  A notice is one inet_diag_msg with
 * INET_DIAG_PROTOCOL and INET_DIAG_INFO, the tcp_info at close (always:
 * inet_diag_handler_get_info reserves it whatever the subscriber asked,
 * filled by tcp_diag_get_info, net/ipv4/tcp_diag.c, from tcp_get_info,
 * net/ipv4/tcp.c: the busy, rwnd- and sndbuf-limited times, tcpi_min_rtt,
 * tcpi_rcv_space, the byte counts, the window scales; what flows_verdict.c
 * judges a connection never read live by), and nothing else: no INET_DIAG_SKMEMINFO (no buffers) and idiag_uid left 0
 * (net/ipv4/inet_diag.c, inet_diag_handler_get_info), so the owner and
 * the buffers come from the connection's live readings.  Notices queue on
 * the socket; when its buffer is full the kernel drops them and the next
 * recv fails with ENOBUFS (netlink(7)), counted in *lost.
 */
#define WATCH_RCVBUF	(1024 * 1024)

/*
 * What diagnose never uses is dropped by the kernel before it reaches the
 * daemon: a classic BPF socket filter on the notices' socket (netlink runs
 * it per receiver before queueing a multicast: torvalds/linux
 * net/netlink/af_netlink.c do_one_broadcast, sk_filter).  Without it, any
 * user with no network at all made tcptuned spend 25-40 % of a CPU by
 * looping socket(); close().  A notice is built by
 * inet_diag_handler_get_info (net/ipv4/inet_diag.c), called from
 * sock_diag_broadcast_destroy_work (net/core/sock_diag.c):
 *
 *   0   struct nlmsghdr, nlmsg_type SOCK_DIAG_BY_FAMILY
 *   16  struct inet_diag_msg (include/uapi/linux/inet_diag.h), its
 *       addresses from inet_diag_msg_common_fill: idiag_dport and the
 *       idiag_src, idiag_dst words in network byte order
 *   88  INET_DIAG_PROTOCOL, a u8: nlattr of length 5, aligned to 8
 *   96  INET_DIAG_INFO (nla_reserve_64bit), the tcp_info; or at 100 after
 *       a 4-byte INET_DIAG_PAD where the arch pads for 64-bit data
 *
 * idiag_state tells nothing (a socket is freed in TCP_CLOSE), so:
 * dropped are a socket with no peer (idiag_dport 0: never connected, or
 * a listener), one whose peer is loopback or its own address (IPv4,
 * IPv6, IPv4-mapped), and one that moved under FLOW_TRACK_BYTES each way
 * (tcpi_bytes_acked and tcpi_bytes_received both below 2^16): none of
 * them can take a slot in the history (flows.c; FLOW_MIN_BYTES, one
 * way, is what a verdict needs).  Anything else, a layout the filter
 * does not know among it, reaches the daemon, which judges it as before
 * (and whose reading of notices is bounded by the CPU budget, flows.h).
 *
 * BPF_ABS loads read big-endian; the kernel's header fields and tcp_info
 * are in host order: compared through be16_of()/be32_of(), the value a
 * load gives of the host's bytes.  A load past the notice would drop it:
 * the length is checked first.
 */
_Static_assert(FLOW_TRACK_BYTES == 1 << 16,
    "the notice filter tests the bytes above the low 16 bits");

#define NL_INFO0	(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct inet_diag_msg)) \
			    + 8)
#define MSG_OFF(f)	(NLMSG_HDRLEN + offsetof(struct inet_diag_msg, f))
#define ID_OFF(f)	(MSG_OFF(id) + offsetof(struct inet_diag_sockid, f))
#define INFO_END	(offsetof(struct tcp_info, tcpi_bytes_received) + \
			    sizeof(((struct tcp_info *)0)->tcpi_bytes_received))
#define ACKED		offsetof(struct tcp_info, tcpi_bytes_acked)
#define RECEIVED	offsetof(struct tcp_info, tcpi_bytes_received)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HI16		2	/* bytes 2-3, then 4-7, of a u64 */
#define HI32		4
#else
#define HI16		4	/* bytes 4-5, then 0-3 */
#define HI32		0
#endif

static uint32_t
be32_of(const void *p)
{
	const unsigned char	*b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
}

static uint32_t
be16_of(uint16_t v)
{
	const unsigned char	*b = (const unsigned char *)&v;

	return (uint32_t)b[0] << 8 | b[1];
}

#define FILTER_MAX	160

struct filter {
	struct sock_filter	f[FILTER_MAX];
	unsigned short		n;
};

static void
op(struct filter *p, uint16_t code, uint32_t k)
{
	if (p->n < FILTER_MAX)
		p->f[p->n++] = (struct sock_filter)BPF_STMT(code, k);
}

/* A jump; its index, for a forward target patched once known. */
static unsigned short
jump(struct filter *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	if (p->n < FILTER_MAX)
		p->f[p->n++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
	return p->n - 1;
}

/* The false branch of the jump at i: to the next instruction emitted. */
static void
land(struct filter *p, unsigned short i)
{
	p->f[i].jf = (uint8_t)(p->n - i - 1);
}

static void
ret_if(struct filter *p, uint32_t k, bool keep)
{
	jump(p, BPF_JMP | BPF_JEQ | BPF_K, k, 0, 1);
	op(p, BPF_RET | BPF_K, keep ? 0xffffffff : 0);
}

static void
accept_unless(struct filter *p, uint32_t k)
{
	jump(p, BPF_JMP | BPF_JEQ | BPF_K, k, 1, 0);
	op(p, BPF_RET | BPF_K, 0xffffffff);
}

/* A |= the scratch word; kept there too. */
static void
or_into(struct filter *p, bool first)
{
	if (!first) {
		op(p, BPF_LDX | BPF_MEM, 0);
		op(p, BPF_ALU | BPF_OR | BPF_X, 0);
	}
	op(p, BPF_ST, 0);
}

/*
 * A = 0 when the 16 bytes at off equal want[] (each 32-bit word xor'd
 * with want's word, masked, or'd together); against the other address
 * (other != 0) instead of want when other is set.
 */
static void
addr_differs(struct filter *p, uint32_t off, const uint32_t want[4],
    const uint32_t mask[4], uint32_t other)
{
	int	i;

	for (i = 0; i < 4; i++) {
		if (other != 0) {
			op(p, BPF_LD | BPF_W | BPF_ABS, other + 4 * i);
			op(p, BPF_MISC | BPF_TAX, 0);
		}
		op(p, BPF_LD | BPF_W | BPF_ABS, off + 4 * i);
		if (other != 0)
			op(p, BPF_ALU | BPF_XOR | BPF_X, 0);
		else {
			op(p, BPF_ALU | BPF_AND | BPF_K, mask[i]);
			op(p, BPF_ALU | BPF_XOR | BPF_K, want[i]);
		}
		or_into(p, i == 0);
	}
}

/* One direction's count, a u64 at off past X: kept when 2^16 or more. */
static void
keep_if_moved(struct filter *p, uint32_t off)
{
	op(p, BPF_LD | BPF_H | BPF_IND, off + HI16);
	accept_unless(p, 0);
	op(p, BPF_LD | BPF_W | BPF_IND, off + HI32);
	accept_unless(p, 0);
}

static void
notice_filter(struct filter *p)
{
	static const uint32_t	ones[4] = { ~0u, ~0u, ~0u, ~0u };
	static const uint32_t	zero[4], lo6[4] = { 0, 0, 0, 1 };
	static const uint32_t	mapped[4] = { 0, 0, 0xffff, 0x7f000000 };
	static const uint32_t	mapped_mask[4] = { ~0u, ~0u, ~0u, 0xff000000 };
	struct nlattr		proto = { 5, INET_DIAG_PROTOCOL };
	unsigned short		i;

	memset(p, 0, sizeof(*p));
	/* short of a whole notice: the daemon reads it (no load past it) */
	op(p, BPF_LD | BPF_W | BPF_LEN, 0);
	jump(p, BPF_JMP | BPF_JGE | BPF_K, NL_INFO0 + 8 + INFO_END, 1, 0);
	op(p, BPF_RET | BPF_K, 0xffffffff);
	op(p, BPF_LD | BPF_H | BPF_ABS, offsetof(struct nlmsghdr, nlmsg_type));
	accept_unless(p, be16_of(SOCK_DIAG_BY_FAMILY));
	/* no peer: never connected, or a listener */
	op(p, BPF_LD | BPF_H | BPF_ABS, ID_OFF(idiag_dport));
	ret_if(p, 0, false);
	/* IPv4: loopback, unspecified, or the same address at both ends */
	op(p, BPF_LD | BPF_B | BPF_ABS, MSG_OFF(idiag_family));
	i = jump(p, BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 0, 0);
	op(p, BPF_LD | BPF_W | BPF_ABS, ID_OFF(idiag_dst));
	ret_if(p, 0, false);
	op(p, BPF_ALU | BPF_AND | BPF_K, 0xff000000);
	ret_if(p, 0x7f000000, false);
	op(p, BPF_LD | BPF_W | BPF_ABS, ID_OFF(idiag_src));
	op(p, BPF_MISC | BPF_TAX, 0);
	op(p, BPF_LD | BPF_W | BPF_ABS, ID_OFF(idiag_dst));
	op(p, BPF_ALU | BPF_XOR | BPF_X, 0);
	ret_if(p, 0, false);
	land(p, i);
	/* IPv6: ::1, ::, ::ffff:127.0.0.0/104, or the same at both ends */
	op(p, BPF_LD | BPF_B | BPF_ABS, MSG_OFF(idiag_family));
	i = jump(p, BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 0, 0);
	addr_differs(p, ID_OFF(idiag_dst), lo6, ones, 0);
	ret_if(p, 0, false);
	addr_differs(p, ID_OFF(idiag_dst), zero, ones, 0);
	ret_if(p, 0, false);
	addr_differs(p, ID_OFF(idiag_dst), mapped, mapped_mask, 0);
	ret_if(p, 0, false);
	addr_differs(p, ID_OFF(idiag_dst), NULL, NULL, ID_OFF(idiag_src));
	ret_if(p, 0, false);
	land(p, i);
	/* the tcp_info: X its attribute, after INET_DIAG_PROTOCOL and a pad */
	op(p, BPF_LD | BPF_W | BPF_ABS, NL_INFO0 - 8);
	accept_unless(p, be32_of(&proto));
	op(p, BPF_LDX | BPF_W | BPF_IMM, NL_INFO0);
	op(p, BPF_LD | BPF_H | BPF_ABS, NL_INFO0 + 2);
	i = jump(p, BPF_JMP | BPF_JEQ | BPF_K, be16_of(INET_DIAG_PAD), 0, 0);
	op(p, BPF_LDX | BPF_W | BPF_IMM, NL_INFO0 + 4);
	op(p, BPF_LD | BPF_H | BPF_ABS, NL_INFO0 + 4 + 2);
	land(p, i);
	accept_unless(p, be16_of(INET_DIAG_INFO));
	keep_if_moved(p, NLA_HDRLEN + ACKED);
	keep_if_moved(p, NLA_HDRLEN + RECEIVED);
	op(p, BPF_RET | BPF_K, 0);
}

/* The filter on fd: 0, or -1 with errno (the daemon then reads all). */
static int
attach_filter(int fd)
{
	static struct filter	p;
	struct sock_fprog	prog;

	notice_filter(&p);
	if (p.n >= FILTER_MAX) {
		errno = E2BIG;
		return -1;
	}
	prog.len = p.n;
	prog.filter = p.f;
	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
	    sizeof(prog));
}

static int
watch_open(char *why, size_t len)
{
	struct sockaddr_nl	sa;
	int			fd, size = WATCH_RCVBUF;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
	    NETLINK_SOCK_DIAG);
	if (fd == -1) {
		snprintf(why, len, "NETLINK_SOCK_DIAG: %s", strerror(errno));
		return -1;
	}
	/* a larger queue for a burst of closes; the default where refused */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (attach_filter(fd) == -1)
		log_warn("diagnose: close notices unfiltered");
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = (1u << (SKNLGRP_INET_TCP_DESTROY - 1)) |
	    (1u << (SKNLGRP_INET6_TCP_DESTROY - 1));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1) {
		snprintf(why, len, "sock_diag close notices: %s",
		    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

struct notice_take {
	void	(*take)(void *, const struct flow_reading *);
	void	 *arg;
};

/* A notice's idiag_uid is not the owner's: not known. */
static void
take_notice(void *arg, const struct flow_reading *r)
{
	const struct notice_take	*nt = arg;
	struct flow_reading		 n = *r;

	n.uid = 0;
	n.known &= ~(uint32_t)FLOW_KNOWS_UID;
	nt->take(nt->arg, &n);
}

static int
watch_read(int fd, void (*take)(void *, const struct flow_reading *),
    void *arg, uint64_t *lost, size_t max)
{
	static _Alignas(struct nlmsghdr) char	buf[DIAG_BUF];
	struct notice_take	nt = { take, arg };
	ssize_t			n;
	size_t			read = 0;

	for (;;) {
		if (read++ >= max)
			return 1;
		if ((n = recv(fd, buf, sizeof(buf), 0)) == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			if (errno != ENOBUFS)
				return -1;
			(*lost)++;
			continue;
		}
		(void)take_batch(buf, (size_t)n, take_notice, &nt);
	}
}

/* The last number of a sysctl's value (tcp_rmem's max); 0 unknown. */
static uint64_t
read_last(struct sysctl_backend *be, const char *key)
{
	char		value[TT_VALUE_MAX];
	long long	n[TT_VALUE_MAX_WORDS];
	int		count;

	if (be->get(be, key, value, sizeof(value)) != 0)
		return 0;
	count = value_numbers(value, n, TT_VALUE_MAX_WORDS);
	return count > 0 && n[count - 1] > 0 ? (uint64_t)n[count - 1] : 0;
}

static void
ceiling(struct sysctl_backend *be, struct flow_ceiling *c, const char *key,
    uint32_t factor)
{
	c->key = key;
	c->bytes = read_last(be, key);
	c->factor = factor;
	c->exact = factor > 1;	/* a program's buffer: twice its request */
}

static void
linux_limits(struct sysctl_backend *be, struct flow_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	ceiling(be, &lim->rcv_auto, "net.ipv4.tcp_rmem", 1);
	ceiling(be, &lim->rcv_fixed, "net.core.rmem_max", 2);
	ceiling(be, &lim->snd_auto, "net.ipv4.tcp_wmem", 1);
	ceiling(be, &lim->snd_fixed, "net.core.wmem_max", 2);
}

/* The bytes a configured value gives a ceiling: its last number. */
static uint64_t
linux_wanted(const struct flow_ceiling *c, const char *value)
{
	long long	n[TT_VALUE_MAX_WORDS];
	int		count;

	(void)c;
	count = value_numbers(value, n, TT_VALUE_MAX_WORDS);
	return count > 0 && n[count - 1] > 0 ? (uint64_t)n[count - 1] : 0;
}

/*
 * TCP segments in and out of this network namespace's stack, from
 * /proc/net/snmp (per namespace, IPv4 and IPv6 in one MIB): a read of
 * about 2 KB, against the dump a pass costs.
 */
static int
linux_segments(uint64_t *segs)
{
	char	buf[8192];
	size_t	have = 0;
	ssize_t	n;
	int	fd;

	if ((fd = open("/proc/net/snmp", O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (have < sizeof(buf) - 1 &&
	    (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0)
		have += (size_t)n;
	close(fd);
	buf[have] = '\0';
	return flows_snmp_tcp_segs(buf, segs);
}

const struct flows_ops flows_os = {
	.name = "sock_diag",
	.cannot_tell = "",
	.sample = linux_sample,
	.limits = linux_limits,
	.wanted = linux_wanted,
	.segments = linux_segments,
	.local_addrs = flows_getifaddrs,
	.watch_open = watch_open,
	.watch_read = watch_read,
};
