/*
 * macOS: the machine's TCP connections from net.inet.tcp.pcblist_n, the
 * sysctl netstat(1) reads (apple-oss-distributions/network_cmds
 * netstat.tproj/inet.c protopr: a sizing call, then the read).  The
 * records are parsed by flows_pcblist.c; the sources of their layout
 * are written there.
 *
 * The SDK's headers do not declare the records: struct xinpcb_n,
 * xsocket_n, xsockbuf_n and xtcpcb_n are under #ifdef PRIVATE in xnu's
 * bsd/netinet/in_pcb.h, bsd/sys/socketvar.h and bsd/netinet/tcp_var.h,
 * and the macOS SDK (zig 0.11's included) ships no in_pcb.h nor
 * tcp_var.h at all.  So there is nothing in the SDK to check the
 * parser's offsets against at compile time: tests/unit/test_flows.c
 * checks them against its own copies of the xnu structures.
 *
 * The ceilings are net.inet.tcp.autorcvbufmax, autosndbufmax and
 * kern.ipc.maxsockbuf, read through the sysctl backend
 * (flows_pcblist_limits).
 */
#include "config.h"

#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

#define PCBLIST		"net.inet.tcp.pcblist_n"
#define PCBLIST_TRIES	3	/* connections come between the calls */
#define PCBLIST_SLACK	(64 * 1024)

/* The records, in a buffer of *len bytes the caller frees; NULL with errno. */
static void *
read_pcblist(size_t *len)
{
	void	*buf = NULL;
	size_t	 want;
	int	 i;

	for (i = 0; i < PCBLIST_TRIES; i++) {
		want = 0;
		if (sysctlbyname(PCBLIST, NULL, &want, NULL, 0) == -1)
			return NULL;
		want += PCBLIST_SLACK;
		free(buf);
		if ((buf = malloc(want)) == NULL)
			return NULL;
		*len = want;
		if (sysctlbyname(PCBLIST, buf, len, NULL, 0) == 0)
			return buf;
		if (errno != ENOMEM)
			break;
	}
	free(buf);
	return NULL;
}

static int
darwin_sample(void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t len)
{
	void	*buf;
	size_t	 n;
	int	 rv;

	if ((buf = read_pcblist(&n)) == NULL) {
		snprintf(why, len, "%s: %s", PCBLIST, strerror(errno));
		return -1;
	}
	rv = flows_pcblist_parse(buf, n, take, arg, why, len);
	free(buf);
	return rv == -1 ? -1 : 0;
}

/* A sysctl's number through the backend; 0 unknown. */
static uint64_t
read_number(struct sysctl_backend *be, const char *key)
{
	char		value[TT_VALUE_MAX];
	long long	n[TT_VALUE_MAX_WORDS];

	if (be->get(be, key, value, sizeof(value)) != 0)
		return 0;
	return value_numbers(value, n, TT_VALUE_MAX_WORDS) == 1 && n[0] > 0 ?
	    (uint64_t)n[0] : 0;
}

static void
darwin_limits(struct sysctl_backend *be, struct flow_limits *lim)
{
	flows_pcblist_limits(read_number(be, "net.inet.tcp.autorcvbufmax"),
	    read_number(be, "net.inet.tcp.autosndbufmax"),
	    read_number(be, "kern.ipc.maxsockbuf"), lim);
}

/* A configured value in bytes: these keys hold one number. */
static uint64_t
darwin_wanted(const struct flow_ceiling *c, const char *value)
{
	long long	n[TT_VALUE_MAX_WORDS];

	(void)c;
	return value_numbers(value, n, TT_VALUE_MAX_WORDS) == 1 && n[0] > 0 ?
	    (uint64_t)n[0] : 0;
}

/*
 * No segment count read cheaply, no close notices: every tick gets its
 * pass, bounded by its CPU time (diagnose.c).
 */
const struct flows_ops flows_os = {
	.name = "pcblist_n",
	.cannot_tell = "macOS does not say how long a connection waited on "
	    "the far end's window or on its send buffer, nor whether a "
	    "program sent more slowly than it could: an upload is "
	    "send-buffer only when its buffer reached the ceiling at the "
	    "rate that allows, else network; byte counts of a connection "
	    "past 4 GiB wrap",
	.sample = darwin_sample,
	.limits = darwin_limits,
	.wanted = darwin_wanted,
	.local_addrs = flows_getifaddrs,
};
