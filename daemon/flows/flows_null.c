/*
 * An OS whose connections tcptuned does not read (yet): FreeBSD.
 * diagnose answers with an empty history and says why.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

const char *const flows_os_name = "none";
const char *const flows_os_cannot_tell = "tcptuned does not read this "
    "system's TCP connections: nothing to diagnose";

int
flows_os_sample(void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t len)
{
	(void)take;
	(void)arg;
	(void)why;
	(void)len;
	return 0;
}

void
flows_os_limits(struct sysctl_backend *be, struct flow_limits *lim)
{
	(void)be;
	memset(lim, 0, sizeof(*lim));
}

uint64_t
flows_os_wanted(const struct flow_ceiling *c, const char *value)
{
	(void)c;
	(void)value;
	return 0;
}

/*
 * This machine's addresses are not listed here: only loopback and a
 * connection to its own address are known to be local (flows.c).
 */
int
flows_os_local_addrs(struct flow_addrs *a)
{
	a->n = 0;
	return 0;
}
