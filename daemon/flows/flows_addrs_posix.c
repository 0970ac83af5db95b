/*
 * flows_addrs_posix.c: this machine's own addresses, for diagnose's rule
 * that a connection between two of them is never evidence (flows.c,
 * flows_local_pair), from getifaddrs(3) (Linux, macOS): every address of
 * every interface, up or not, of this network namespace, however many
 * (the list grows: flows_addr_add).  Out of memory, the list is partial
 * and no connection is evidence until a pass has it whole.
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

static int
add(struct flow_addrs *a, const struct sockaddr *sa)
{
	char		 host[TT_ADDR_MAX];
	const void	*addr;

	if (sa->sa_family == AF_INET)
		addr = &((const struct sockaddr_in *)(const void *)sa)->sin_addr;
	else if (sa->sa_family == AF_INET6)
		addr = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	else
		return 0;
	if (inet_ntop(sa->sa_family, addr, host, sizeof(host)) == NULL)
		return 0;
	return flows_addr_add(a, host);
}

int
flows_getifaddrs(struct flow_addrs *a)
{
	struct ifaddrs	*list, *i;

	a->n = 0;
	a->partial = false;
	if (getifaddrs(&list) == -1) {
		a->partial = true;
		return -1;
	}
	for (i = list; i != NULL; i = i->ifa_next)
		if (i->ifa_addr != NULL && add(a, i->ifa_addr) == -1) {
			a->partial = true;
			break;
		}
	freeifaddrs(list);
	return a->partial ? -1 : 0;
}
