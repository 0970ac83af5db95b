/*
 * tcptunectl measure where measure cannot clear the kernel's cached
 * per-destination TCP metrics between rounds (macOS, FreeBSD: their
 * route entries keep an RTT and ssthresh too, but measure clears only
 * Linux's tcp_metrics cache, metrics_cache_linux.c): the report says so.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>

#include "measure.h"

int
mcache_forget(const char *host, char *why, size_t len)
{
	(void)host;
	snprintf(why, len, "measure clears only Linux's tcp_metrics cache");
	return -1;
}
