/*
 * Linux: the machine's TCP connections through NETLINK_SOCK_DIAG, the
 * interface ss(8) reads (sock_diag(7); include/uapi/linux/sock_diag.h,
 * include/uapi/linux/inet_diag.h).  One SOCK_DIAG_BY_FAMILY dump per
 * address family asks for INET_DIAG_INFO (struct tcp_info,
 * include/uapi/linux/tcp.h) and INET_DIAG_SKMEMINFO (the SK_MEMINFO_*
 * array: sk_rcvbuf, sk_sndbuf, the receive queue); the owner is
 * inet_diag_msg.idiag_uid, the connection's identity idiag_cookie.
 *
 * The ceilings (flows_os_limits): autotuning grows sk_rcvbuf up to
 * tcp_rmem[2] and sk_sndbuf up to tcp_wmem[2] (net/ipv4/tcp_input.c
 * tcp_rcv_space_adjust, tcp_sndbuf_expand); a program's SO_RCVBUF or
 * SO_SNDBUF gives twice its value, the value capped at rmem_max or
 * wmem_max (net/core/sock.c __sock_set_rcvbuf, sock_setsockopt), hence
 * fixed_factor 2.
 *
 * A kernel older than the fields we read sends a shorter tcp_info: what
 * it lacks reads as 0 and is not marked known (tcpi_busy_time and the
 * limited times came in 4.10, tcpi_bytes_received in 4.1, tcpi_snd_wnd
 * in 6.2).
 */
#include "config.h"

#include <sys/socket.h>
#include <arpa/inet.h>
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

const char *const flows_os_name = "sock_diag";
const char *const flows_os_cannot_tell = "";

#define DIAG_BUF	(32 * 1024)

/*
 * Connections that carry data: established, or closing with data left.
 * The kernel's state numbers (include/net/tcp_states.h; glibc's
 * <netinet/tcp.h> has them too, but also an older struct tcp_info that
 * clashes with <linux/tcp.h>'s).
 */
#define ST_ESTABLISHED	1
#define ST_FIN_WAIT1	4
#define ST_CLOSE_WAIT	8
#define DIAG_STATES	((1u << ST_ESTABLISHED) | (1u << ST_FIN_WAIT1) | \
			    (1u << ST_CLOSE_WAIT))

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

int
flows_os_sample(void (*take)(void *, const struct flow_reading *), void *arg,
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
 * INET_DIAG_PROTOCOL and INET_DIAG_INFO, the tcp_info at close, and
 * nothing else: no INET_DIAG_SKMEMINFO (no buffers) and idiag_uid left 0
 * (net/ipv4/inet_diag.c, inet_diag_handler_get_info), so the owner and
 * the buffers come from the connection's live readings.  Notices queue on
 * the socket; when its buffer is full the kernel drops them and the next
 * recv fails with ENOBUFS (netlink(7)), counted in *lost.
 */
#define WATCH_RCVBUF	(1024 * 1024)

int
flows_os_watch_open(char *why, size_t len)
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

int
flows_os_watch_read(int fd, void (*take)(void *, const struct flow_reading *),
    void *arg, uint64_t *lost)
{
	static _Alignas(struct nlmsghdr) char	buf[DIAG_BUF];
	struct notice_take	nt = { take, arg };
	ssize_t			n;

	for (;;) {
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

void
flows_os_limits(struct sysctl_backend *be, struct flow_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	ceiling(be, &lim->rcv_auto, "net.ipv4.tcp_rmem", 1);
	ceiling(be, &lim->rcv_fixed, "net.core.rmem_max", 2);
	ceiling(be, &lim->snd_auto, "net.ipv4.tcp_wmem", 1);
	ceiling(be, &lim->snd_fixed, "net.core.wmem_max", 2);
}

/* The bytes a configured value gives a ceiling: its last number. */
uint64_t
flows_os_wanted(const struct flow_ceiling *c, const char *value)
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
int
flows_os_segments(uint64_t *segs)
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
