/*
 * tcptunectl's side of the AF_UNIX control socket: connecting, and what
 * each failure to connect means; and the terminal it prints to.  client_transport_win.c connects to the
 * named pipe on Windows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

static int
client_socket(void)
{
	int	fd;

#ifdef SOCK_CLOEXEC
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
#else
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd != -1 && fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		close(fd);
		fd = -1;
	}
#endif
#ifdef SO_NOSIGPIPE
	{
		int	on = 1;

		if (fd != -1 && setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on,
		    sizeof(on)) == -1) {
			close(fd);
			fd = -1;
		}
	}
#endif
	return fd;
}

static int
connect_error(const char *path, int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		ctl_warnx("no socket at %s: is tcptuned running?", path);
		break;
	case ECONNREFUSED:
		ctl_warnx("connection to %s refused: tcptuned is probably "
		    "not running (stale socket)", path);
		break;
	case EACCES:
	case EPERM:
		ctl_warnx("%s: permission denied: this user may not use "
		    "tcptuned's socket", path);
		break;
	default:
		ctl_warnx("cannot connect to tcptuned on %s: %s", path,
		    strerror(err));
		break;
	}
	return CTL_UNREACHABLE;
}

/* A connected fd in *fdp and CTL_OK, or the exit status, reported. */
int
client_connect(const char *path, int *fdp)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (tt_strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path)) {
		ctl_warnx("%s: socket path too long", path);
		return CTL_UNREACHABLE;
	}
	if ((fd = client_socket()) == -1) {
		ctl_warn("socket");
		return CTL_UNREACHABLE;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		int err = errno;

		close(fd);
		return connect_error(path, err);
	}
	*fdp = fd;
	return CTL_OK;
}


int
term_columns(void)
{
	struct winsize	ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0)
		return ws.ws_col;
	return 0;
}
