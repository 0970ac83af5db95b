/*
 * flows_addrs_posix.c: this machine's own addresses, for diagnose's rule
 * that a connection between two of them is never evidence (flows.c,
 * flows_local_pair), from getifaddrs(3) (Linux, macOS): every address of
 * every interface, up or not, of this network namespace.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ifaddrs.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

static void
add(struct flow_addrs *a, const struct sockaddr *sa)
{
	const void	*addr;

	if (sa->sa_family == AF_INET)
		addr = &((const struct sockaddr_in *)(const void *)sa)->sin_addr;
	else if (sa->sa_family == AF_INET6)
		addr = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	else
		return;
	if (inet_ntop(sa->sa_family, addr, a->host[a->n],
	    sizeof(a->host[a->n])) != NULL)
		a->n++;
}

int
flows_os_local_addrs(struct flow_addrs *a)
{
	struct ifaddrs	*list, *i;

	a->n = 0;
	if (getifaddrs(&list) == -1)
		return -1;
	for (i = list; i != NULL && a->n < FLOW_LOCAL_MAX; i = i->ifa_next)
		if (i->ifa_addr != NULL)
			add(a, i->ifa_addr);
	freeifaddrs(list);
	return 0;
}
