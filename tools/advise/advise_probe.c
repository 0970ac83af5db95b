/*
 * tcptunectl advise --host: the round trip to a host, measured as the time
 * a non-blocking TCP connect takes to be answered.  No ICMP, no raw
 * sockets, no root: the SYN goes out, the SYN-ACK (or a reset) comes back,
 * and that is one round trip, plus the peer's time to answer a SYN, which
 * is tiny next to any path worth tuning for.
 *
 * Decisions, documented in tcptunectl(8), ADVICE:
 *   - A refused connect (RST) is a round trip to the host's TCP stack and
 *     counts as a sample; the output says the port refused.
 *   - No answer within the timeout, an ICMP error (host or network
 *     unreachable) or a name that does not resolve: no round trip, and
 *     advise exits 2.
 *   - The name is resolved in a child process, so that a resolver that
 *     hangs is held to the same timeout as the connects.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advise.h"

#define MAX_ADDRS	4	/* addresses of a name that are tried */

/* What the resolving child sends back, in one write below PIPE_BUF. */
struct resolved {
	int			gai;		/* getaddrinfo's result */
	int			sys;		/* errno for EAI_SYSTEM */
	int			n;
	socklen_t		len[MAX_ADDRS];
	struct sockaddr_storage	addr[MAX_ADDRS];
};

static void TT_PRINTF(3, 4)
say(char *err, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* ---- HOST[:PORT] */

static int
parse_port(const char *s, int *port, char *err, size_t errlen)
{
	long long	v;

	if (*s < '0' || *s > '9' || parse_ll(s, &v) == -1 || v < 1 ||
	    v > 65535) {
		say(err, errlen, "the port \"%s\" is not a number from 1 to "
		    "65535", s);
		return -1;
	}
	*port = (int)v;
	return 0;
}

static int
host_chars_ok(const char *h, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if ((unsigned char)h[i] <= ' ' || h[i] == 0x7f ||
		    h[i] == '[' || h[i] == ']' || h[i] == '/')
			return 0;
	return n > 0;
}

/*
 * "host", "host:port", "1.2.3.4:port", "[v6]:port", "[v6]" or a bare
 * IPv6 literal (two colons or more: no port).  The port defaults to 443.
 */
int
adv_split_host(const char *arg, char *host, size_t hostlen, int *port,
    char *err, size_t errlen)
{
	const char	*h = arg, *end, *colon;
	size_t		 n;

	*port = ADV_PORT_DEFAULT;
	if (*arg == '[') {
		h = arg + 1;
		if ((end = strchr(h, ']')) == NULL || (end[1] != '\0' &&
		    end[1] != ':')) {
			say(err, errlen, "an IPv6 address is written "
			    "[ADDRESS] or [ADDRESS]:PORT");
			return -1;
		}
		if (end[1] == ':' && parse_port(end + 2, port, err,
		    errlen) == -1)
			return -1;
	} else if ((colon = strchr(arg, ':')) != NULL &&
	    strchr(colon + 1, ':') == NULL) {
		end = colon;
		if (parse_port(colon + 1, port, err, errlen) == -1)
			return -1;
	} else
		end = arg + strlen(arg);
	n = (size_t)(end - h);
	if (!host_chars_ok(h, n) || n >= hostlen) {
		say(err, errlen, "no host name or address");
		return -1;
	}
	memcpy(host, h, n);
	host[n] = '\0';
	return 0;
}

/* ---- resolving, within a deadline */

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
lookup(const char *host, int port, int flags, struct resolved *res)
{
	struct addrinfo	 hints, *ai, *p;
	char		 serv[16];

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | flags;
	snprintf(serv, sizeof(serv), "%d", port);
	memset(res, 0, sizeof(*res));
	if ((res->gai = getaddrinfo(host, serv, &hints, &ai)) != 0) {
		res->sys = errno;
		return;
	}
	for (p = ai; p != NULL && res->n < MAX_ADDRS; p = p->ai_next) {
		if (p->ai_addrlen > sizeof(res->addr[0]))
			continue;
		memcpy(&res->addr[res->n], p->ai_addr, p->ai_addrlen);
		res->len[res->n++] = p->ai_addrlen;
	}
	freeaddrinfo(ai);
}

/* The child's half: resolve, send the result, exit. */
static void TT_NORETURN
lookup_child(const char *host, int port, int fd)
{
	struct resolved	res;
	ssize_t		n;

	lookup(host, port, 0, &res);
	n = write(fd, &res, sizeof(res));
	_exit(n == (ssize_t)sizeof(res) ? 0 : 1);
}

/* Read the child's answer until the deadline; 0, or -1 on timeout. */
static int
read_answer(int fd, double deadline, struct resolved *res)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLIN };
	size_t		got = 0;
	ssize_t		n;
	int		ms, ready;

	while (got < sizeof(*res)) {
		if ((ms = (int)((deadline - now()) * 1000 + 0.999)) <= 0)
			return -1;
		if ((ready = poll(&pfd, 1, ms)) == -1 && errno == EINTR)
			continue;
		if (ready <= 0)
			return -1;
		n = read(fd, (char *)res + got, sizeof(*res) - got);
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/*
 * A name through the system resolver, in a child so that the timeout
 * holds whatever the resolver does; a numeric address directly.
 */
static int
resolve(const char *host, int port, double timeout, struct resolved *res,
    char *err, size_t errlen)
{
	int	pfd[2], rv, status;
	pid_t	pid;

	lookup(host, port, AI_NUMERICHOST, res);
	if (res->gai == 0)
		return 0;
	fflush(stdout);
	fflush(stderr);
	if (pipe(pfd) == -1 || (pid = fork()) == -1) {
		say(err, errlen, "cannot resolve: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(pfd[0]);
		lookup_child(host, port, pfd[1]);
	}
	close(pfd[1]);
	rv = read_answer(pfd[0], now() + timeout, res);
	close(pfd[0]);
	if (rv == -1)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (rv == -1)
		say(err, errlen, "cannot resolve %s within %.3g s", host,
		    timeout);
	else if (res->gai != 0)
		say(err, errlen, "cannot resolve %s: %s", host,
		    res->gai == EAI_SYSTEM ? strerror(res->sys) :
		    gai_strerror(res->gai));
	else if (res->n == 0)
		say(err, errlen, "%s has no usable address", host);
	return rv == -1 || res->gai != 0 || res->n == 0 ? -1 : 0;
}

/* ---- connecting */

enum outcome {
	OUT_ANSWER,		/* connected: a round trip */
	OUT_REFUSED,		/* reset: a round trip too */
	OUT_TIMEOUT,		/* no answer in time */
	OUT_ERROR		/* unreachable, or a local error */
};

static int
nonblocking_socket(int family)
{
	int	fd, fl;

	if ((fd = socket(family, SOCK_STREAM, 0)) == -1)
		return -1;
	if ((fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The connect's result, once poll says it has one. */
static int
wait_connect(int fd, double deadline, int *err)
{
	struct pollfd	pfd = { .fd = fd, .events = POLLOUT };
	socklen_t	len = sizeof(*err);
	int		ms, n;

	for (;;) {
		if ((ms = (int)((deadline - now()) * 1000 + 0.999)) <= 0)
			return -1;
		if ((n = poll(&pfd, 1, ms)) == 1)
			break;
		if (n == 0)
			return -1;
		if (errno != EINTR) {
			*err = errno;
			return 0;
		}
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, err, &len) == -1)
		*err = errno;
	return 0;
}

/* One connect: its outcome, its time in *rtt, its errno in *err. */
static enum outcome
connect_once(const struct sockaddr *sa, socklen_t salen, double timeout,
    double *rtt, int *err)
{
	double	t0;
	int	fd;

	*err = 0;
	if ((fd = nonblocking_socket(sa->sa_family)) == -1) {
		*err = errno;
		return OUT_ERROR;
	}
	t0 = now();
	if (connect(fd, sa, salen) == -1) {
		if (errno != EINPROGRESS)
			*err = errno;
		else if (wait_connect(fd, t0 + timeout, err) == -1) {
			close(fd);
			return OUT_TIMEOUT;
		}
	}
	*rtt = now() - t0;
	close(fd);
	if (*err == 0)
		return OUT_ANSWER;
	return *err == ECONNREFUSED ? OUT_REFUSED : OUT_ERROR;
}

static void
numeric(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
	if (getnameinfo(sa, len, buf, (socklen_t)size, NULL, 0,
	    NI_NUMERICHOST) != 0)
		snprintf(buf, size, "?");
}

static void
record(struct adv_probe *p, double *s, enum outcome o, double rtt)
{
	p->attempts++;
	if (o != OUT_ANSWER && o != OUT_REFUSED)
		return;
	s[p->samples++] = rtt;
	if (o == OUT_REFUSED)
		p->refused++;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
summarize(struct adv_probe *p, double *s)
{
	int	n = p->samples;

	qsort(s, (size_t)n, sizeof(s[0]), cmp_double);
	p->min = s[0];
	p->max = s[n - 1];
	p->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (p->median < ADV_RTT_MIN) {
		p->median = ADV_RTT_MIN;
		p->raised = true;
	}
}

static void
fail_text(const char *addr, int port, enum outcome o, int err,
    double timeout, char *buf, size_t len)
{
	if (o == OUT_TIMEOUT)
		say(buf, len, "no answer from %s port %d within %.3g s", addr,
		    port, timeout);
	else
		say(buf, len, "%s port %d: %s", addr, port, strerror(err));
}

/*
 * The first address that answers, tried once each: a host with a dead
 * IPv6 address and a live IPv4 one is still measured.  Its index, or -1.
 */
static int
first_answer(const struct resolved *res, int port, double timeout,
    struct adv_probe *p, double *s, char *err, size_t errlen)
{
	enum outcome	o;
	double		rtt = 0;
	int		i, e;

	for (i = 0; i < res->n; i++) {
		o = connect_once((const struct sockaddr *)&res->addr[i],
		    res->len[i], timeout, &rtt, &e);
		numeric((const struct sockaddr *)&res->addr[i], res->len[i],
		    p->addr, sizeof(p->addr));
		if (o == OUT_ANSWER || o == OUT_REFUSED) {
			record(p, s, o, rtt);
			return i;
		}
		if (i == 0)
			fail_text(p->addr, port, o, e, timeout, err, errlen);
	}
	return -1;
}

/*
 * Measure: count connects to host:port, each given timeout seconds.  The
 * median of those answered goes to p->median.  0, or -1 with the reason
 * in err (unresolvable, unreachable, no answer).
 */
int
adv_probe_rtt(const char *host, int port, int count, double timeout,
    struct adv_probe *p, char *err, size_t errlen)
{
	struct resolved	 res;
	double		 s[ADV_COUNT_MAX], rtt = 0;
	enum outcome	 o;
	int		 i, e;

	memset(p, 0, sizeof(*p));
	tt_strlcpy(p->host, host, sizeof(p->host));
	p->port = port;
	if (count < 1 || count > ADV_COUNT_MAX)
		count = ADV_COUNT_DEFAULT;
	if (resolve(host, port, timeout, &res, err, errlen) == -1)
		return -1;
	if ((i = first_answer(&res, port, timeout, p, s, err, errlen)) == -1)
		return -1;
	while (p->attempts < count) {
		o = connect_once((const struct sockaddr *)&res.addr[i],
		    res.len[i], timeout, &rtt, &e);
		record(p, s, o, rtt);
	}
	summarize(p, s);
	return 0;
}
