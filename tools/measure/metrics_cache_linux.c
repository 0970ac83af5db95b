/*
 * tcptunectl measure on Linux: forget what the kernel learnt about the
 * test's destination before each round.  When a connection closes, Linux
 * keeps its destination's ssthresh, RTT and RTT variance in the
 * tcp_metrics cache and starts the next connection to that address from
 * them (tcp_init_metrics(), net/ipv4/tcp_metrics.c), so without this an
 * original round would start from what the tuned round before it learnt,
 * and the other way round.
 *
 * The cache is cleared through its generic netlink family, as `ip
 * tcp_metrics delete ADDRESS` does: TCP_METRICS_CMD_DEL with
 * TCP_METRICS_ATTR_ADDR_IPV4 or _IPV6 (include/uapi/linux/tcp_metrics.h).
 * The kernel's tcp_metrics_nl_cmd_del() flushes the whole cache when no
 * address is given, so a request here always carries one; it answers
 * ESRCH when nothing is cached for the address (not an error here), and
 * the command needs CAP_NET_ADMIN (GENL_ADMIN_PERM in tcp_metrics_nl_ops).
 * The cache is per network namespace (net_eq() in every lookup there), so
 * a test in a namespace clears its own.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/tcp_metrics.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"
#include "measure.h"

#define NL_BUF		8192

struct nlreq {
	struct nlmsghdr		nh;
	struct genlmsghdr	gh;
	char			attrs[64];
};

static void
put_attr(struct nlreq *r, unsigned short type, const void *data,
    size_t len)
{
	struct nlattr	*a = (struct nlattr *)((char *)r + r->nh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

/*
 * A request: each its own sequence number, so that an answer is never
 * taken for another's (a GETFAMILY answered with its message and, were
 * an ACK asked, an ACK after it).
 */
static void
start_req(struct nlreq *r, unsigned short family, unsigned char cmd,
    unsigned char version, unsigned short flags)
{
	static unsigned int	seq;

	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r->nh.nlmsg_type = family;
	r->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nh.nlmsg_seq = ++seq;
	r->gh.cmd = cmd;
	r->gh.version = version;
}

/*
 * Sends r and reads the answer into buf: 0 and its length, or the
 * kernel's error as a negative errno.
 */
static int
exchange(int fd, struct nlreq *r, char *buf, size_t size, ssize_t *got)
{
	struct nlmsghdr	*nh = (struct nlmsghdr *)buf;
	struct nlmsgerr	*e;

	if (send(fd, r, r->nh.nlmsg_len, 0) == -1)
		return -errno;
	do {
		if ((*got = recv(fd, buf, size, 0)) == -1)
			return -errno;
		if (!NLMSG_OK(nh, (size_t)*got))
			return -EPROTO;
	} while (nh->nlmsg_seq != r->nh.nlmsg_seq);
	if (nh->nlmsg_type == NLMSG_ERROR) {
		e = NLMSG_DATA(nh);
		return e->error;
	}
	return 0;
}

/* The id of the tcp_metrics family (CTRL_CMD_GETFAMILY), or -errno. */
static int
family_id(int fd)
{
	struct nlreq	 r;
	char		 buf[NL_BUF];
	struct nlmsghdr	*nh = (struct nlmsghdr *)buf;
	struct nlattr	*a;
	ssize_t		 got;
	int		 rv, left;

	start_req(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, TCP_METRICS_GENL_NAME,
	    sizeof(TCP_METRICS_GENL_NAME));
	if ((rv = exchange(fd, &r, buf, sizeof(buf), &got)) < 0)
		return rv;
	a = (struct nlattr *)((char *)NLMSG_DATA(nh) + GENL_HDRLEN);
	left = (int)nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	    a->nla_len <= left) {
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(unsigned short *)((char *)a + NLA_HDRLEN);
		left -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return -EPROTO;
}

/* One address's entry deleted: 0, nothing cached too, or -errno. */
static int
delete_addr(int fd, int family, const struct sockaddr *sa)
{
	struct nlreq	 r;
	char		 buf[NL_BUF];
	ssize_t		 got;
	int		 rv;

	start_req(&r, (unsigned short)family, TCP_METRICS_CMD_DEL,
	    TCP_METRICS_GENL_VERSION, NLM_F_ACK);
	if (sa->sa_family == AF_INET)
		put_attr(&r, TCP_METRICS_ATTR_ADDR_IPV4,
		    &((const struct sockaddr_in *)(const void *)sa)->sin_addr,
		    4);
	else
		put_attr(&r, TCP_METRICS_ATTR_ADDR_IPV6,
		    &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
		    16);
	rv = exchange(fd, &r, buf, sizeof(buf), &got);
	return rv == -ESRCH ? 0 : rv;
}

/* Every address of host: its cached metrics forgotten. */
static int
delete_host(int fd, int family, const char *host, char *why, size_t len)
{
	struct addrinfo	 hints, *res, *ai;
	int		 rv = 0, gai;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((gai = getaddrinfo(host, NULL, &hints, &res)) != 0) {
		snprintf(why, len, "%s: %s", host, gai_strerror(gai));
		return -1;
	}
	for (ai = res; ai != NULL && rv == 0; ai = ai->ai_next)
		if (ai->ai_family == AF_INET || ai->ai_family == AF_INET6)
			rv = delete_addr(fd, family, ai->ai_addr);
	freeaddrinfo(res);
	if (rv == -EPERM || rv == -EACCES)
		snprintf(why, len, "it needs CAP_NET_ADMIN (root)");
	else if (rv < 0)
		snprintf(why, len, "tcp_metrics: %s", strerror(-rv));
	return rv < 0 ? -1 : 0;
}

/*
 * Forget the kernel's cached metrics for host: 0, or -1 and why (one
 * phrase, as "it needs CAP_NET_ADMIN (root)").
 */
int
mcache_forget(const char *host, char *why, size_t len)
{
	int	fd, family, rv;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_GENERIC)) == -1) {
		snprintf(why, len, "netlink: %s", strerror(errno));
		return -1;
	}
	if ((family = family_id(fd)) < 0) {
		snprintf(why, len, "the kernel has no tcp_metrics family "
		    "(%s)", strerror(-family));
		close(fd);
		return -1;
	}
	rv = delete_host(fd, family, host, why, len);
	close(fd);
	return rv;
}
