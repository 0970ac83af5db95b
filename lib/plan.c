/*
 * What tcptune knows about particular keys: which ones are ceilings for
 * others, and so the order in which to apply them.
 */
#include <string.h>

#include "tcptune.h"

struct key_rule {
	const char	*name;
	int		 rank;		/* lower is applied first */
	const char	*capped_by;	/* the ceiling that limits it */
};

static const struct key_rule key_rules[] = {
	/*
	 * macOS: sendspace/recvspace above sb_max give ERANGE
	 * (bsd/netinet/tcp_usrreq.c, sysctl_tcp_sospace), so maxsockbuf
	 * goes first when raising and last when restoring.  autoXbufmax
	 * are accepted unchecked and capped per socket at sb_max later
	 * (tcp_input.c, tcp_output.c, sbreserve in uipc_socket2.c).
	 */
	{ "kern.ipc.maxsockbuf",		0, NULL },
	{ "net.inet.tcp.sendspace",		1, "kern.ipc.maxsockbuf" },
	{ "net.inet.tcp.recvspace",		1, "kern.ipc.maxsockbuf" },
	{ "net.inet.tcp.autorcvbufmax",		1, "kern.ipc.maxsockbuf" },
	{ "net.inet.tcp.autosndbufmax",		1, "kern.ipc.maxsockbuf" },
	/* FreeBSD: buffers above sb_max_adj fail (sys/kern/uipc_sockbuf.c) */
	{ "net.inet.tcp.sendbuf_max",		1, "kern.ipc.maxsockbuf" },
	{ "net.inet.tcp.recvbuf_max",		1, "kern.ipc.maxsockbuf" },
	/*
	 * Linux: rmem_max/wmem_max bound SO_RCVBUF/SO_SNDBUF, not the
	 * autotuning ceilings in tcp_rmem/tcp_wmem; set them first anyway
	 * so a reader never sees the per-socket limit below the auto one.
	 */
	{ "net.core.rmem_max",			0, NULL },
	{ "net.core.wmem_max",			0, NULL },
};

static const struct key_rule *
key_rule(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof(key_rules) / sizeof(key_rules[0]); i++)
		if (strcmp(key_rules[i].name, name) == 0)
			return &key_rules[i];
	return NULL;
}

int
sysctl_rank(const char *name)
{
	const struct key_rule	*r = key_rule(name);

	return r ? r->rank : 1;
}

const char *
sysctl_capped_by(const char *name)
{
	const struct key_rule	*r = key_rule(name);

	return r ? r->capped_by : NULL;
}

/* Stable: keys of one rank keep the order of the config file. */
void
plan_sort(const struct config_key **keys, size_t n)
{
	const struct config_key	*k;
	size_t			 i, j;

	for (i = 1; i < n; i++) {
		k = keys[i];
		for (j = i; j > 0 && sysctl_rank(keys[j - 1]->name) >
		    sysctl_rank(k->name); j--)
			keys[j] = keys[j - 1];
		keys[j] = k;
	}
}
