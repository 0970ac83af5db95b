/*
 * AF_UNIX sockets the same way on Linux, macOS and FreeBSD: one home for
 * the fallbacks the Unix files share (the daemon's socket, the client's,
 * sd_notify, the blocking protocol I/O of the tests).
 */
#ifndef TCPTUNE_COMPAT_SOCKET_H
#define TCPTUNE_COMPAT_SOCKET_H

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

/*
 * macOS has no MSG_NOSIGNAL: there SO_NOSIGPIPE is set on each socket
 * instead (setsockopt(2)), and send() takes no flag.
 */
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL	0
#endif

/* os_posix.c: sun for path; -1 and ENAMETOOLONG when it does not fit. */
int	tt_sockaddr_un(struct sockaddr_un *, const char *);

#endif /* TCPTUNE_COMPAT_SOCKET_H */
