/*
 * tcptunectl's side of the AF_UNIX control socket (client_transport_win.c
 * is the named pipe's): a non-blocking connect within the request's
 * deadline, what each failure to connect means, the server's uid checked
 * before anything is sent, bytes in and out within the deadline; and the
 * terminal it prints to.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"
#include "compat_socket.h"

/* How often a connect to a full listen queue is tried again. */
#define RETRY_MS	50

static int
client_socket(void)
{
	int	fd, fl;

	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return -1;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) == -1 ||
	    (fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1) {
		close(fd);
		return -1;
	}
#ifdef SO_NOSIGPIPE
	{
		int	on = 1;

		if (setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on,
		    sizeof(on)) == -1) {
			close(fd);
			return -1;
		}
	}
#endif
	return fd;
}

/*
 * Whether this system was booted with systemd: sd_booted(3)'s test, the
 * directory /run/systemd/system, which systemd makes at boot
 * (src/libsystemd/sd-daemon/sd-daemon.c, sd_booted()).
 */
static bool
booted_with_systemd(void)
{
	struct stat	st;

	return lstat("/run/systemd/system", &st) == 0 && S_ISDIR(st.st_mode);
}

static int
connect_error(const char *path, int err)
{
	char	found[PATH_MAX + 128];

	switch (err) {
	case ENOENT:
	case ENOTDIR:
		snprintf(found, sizeof(found), "no socket at %s: tcptuned is "
		    "not running", path);
		return ctl_unreachable(found, booted_with_systemd());
	case ECONNREFUSED:
		/* The BSDs also refuse when the listen queue is full. */
		snprintf(found, sizeof(found), "connection to %s refused: "
		    "tcptuned is probably not running (stale socket), or too "
		    "busy", path);
		return ctl_unreachable(found, booted_with_systemd());
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

/*
 * Non-blocking, so that a listen queue that stays full cannot hold us
 * past the deadline.  Linux fails such a connect with EAGAIN and says
 * nothing of when to try again (connect(2), "EAGAIN ... for nonblocking
 * UNIX domain sockets"), so it is tried every RETRY_MS; FreeBSD and xnu
 * refuse it at once with ECONNREFUSED (unp_connect(), sys/kern/
 * uipc_usrreq.c and bsd/kern/uipc_usrreq.c: sonewconn() fails).  On all
 * three an AF_UNIX connect completes or fails within the call, so the
 * EINPROGRESS of a TCP connect does not come up; it would be reported
 * as any other error, not waited for.
 */
static int
client_connect(struct ctl_conn *c)
{
	struct sockaddr_un	sun;
	int			left;

	if (tt_sockaddr_un(&sun, c->path) == -1) {
		ctl_warnx("%s: socket path too long", c->path);
		return CTL_UNREACHABLE;
	}
	if ((c->fd = client_socket()) == -1) {
		ctl_warn("socket");
		return CTL_UNREACHABLE;
	}
	for (;;) {
		if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
			return CTL_OK;
		if (errno != EAGAIN)
			return connect_error(c->path, errno);
		if ((left = ctl_time_left(c)) == 0) {
			ctl_warnx("%s: the listen queue stayed full for %d s: "
			    "tcptuned is overloaded, or something else holds "
			    "the socket", c->path, c->timeout_ms / 1000);
			return CTL_UNREACHABLE;
		}
		poll(NULL, 0, left < RETRY_MS ? left : RETRY_MS);
	}
}

/*
 * The uid of the process that listens on the socket, as the kernel
 * recorded it at listen(2): Linux SO_PEERCRED (socket(7), unix(7));
 * macOS and FreeBSD getpeereid(3), "the credentials returned to the
 * connect(2) caller are those of its peer at the time it called
 * listen(2)" (FreeBSD's is LOCAL_PEERCRED of unix(4) underneath).
 */
static int
server_uid(int fd, uid_t *uid)
{
#if defined(SO_PEERCRED) && defined(__linux__)
	struct ucred	cred;
	socklen_t	len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1)
		return -1;
	if (len != sizeof(cred)) {
		errno = EINVAL;
		return -1;
	}
	*uid = cred.uid;
	return 0;
#else	/* configure requires getpeereid() off Linux */
	gid_t	gid;

	return getpeereid(fd, uid, &gid);
#endif
}

/*
 * Anyone may bind the socket's name when tcptuned is not running (a
 * sticky /tmp-like directory, a stale path): what answers must be the
 * daemon's uid before a word of it is believed.
 */
static int
check_server(const struct ctl_conn *c)
{
	uid_t	uid;

	if (server_uid(c->fd, &uid) == -1) {
		ctl_warn("%s: cannot learn who the server is", c->path);
		return CTL_UNREACHABLE;
	}
	if (uid == (uid_t)CTL_DAEMON_UID)
		return CTL_OK;
	ctl_warnx("refusing the server on %s: it runs as uid %lu, not as "
	    "tcptuned (uid %d): another program holds the socket", c->path,
	    (unsigned long)uid, CTL_DAEMON_UID);
	return CTL_UNREACHABLE;
}

/* ---- talking */

/* Connected, and the server checked; the descriptor closed otherwise. */
int
transport_connect(struct ctl_conn *c)
{
	int	rv;

	if ((rv = client_connect(c)) == CTL_OK)
		rv = check_server(c);
	if (rv != CTL_OK)
		transport_close(c);
	return rv;
}

void
transport_close(struct ctl_conn *c)
{
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
}

int
transport_send(const struct ctl_conn *c, const void *data, size_t len)
{
	struct pollfd	 pfd = { .fd = c->fd, .events = POLLOUT };
	const char	*buf = data;
	size_t		 off = 0;
	ssize_t		 n;

	while (off < len) {
		if (poll(&pfd, 1, ctl_time_left(c)) == 0)
			return ctl_timed_out(c, "could not send to");
		n = send(c->fd, buf + off, len - off, MSG_NOSIGNAL);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == -1 && (errno == EPIPE || errno == ECONNRESET)) {
			ctl_warnx("tcptuned closed the connection on %s",
			    c->path);
			return CTL_UNREACHABLE;
		}
		if (n == -1) {
			ctl_warn("sending to %s", c->path);
			return CTL_UNREACHABLE;
		}
		off += (size_t)n;
	}
	return CTL_OK;
}

/* Some bytes, or *got 0 when the daemon closed the connection. */
int
transport_recv(const struct ctl_conn *c, void *buf, size_t len, size_t *got)
{
	struct pollfd	pfd = { .fd = c->fd, .events = POLLIN };
	ssize_t		n;

	for (;;) {
		if (poll(&pfd, 1, ctl_time_left(c)) == 0)
			return ctl_timed_out(c,
			    "no complete reply from tcptuned on");
		n = read(c->fd, buf, len);
		if (n == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n == 0 || (n == -1 && errno == ECONNRESET)) {
			*got = 0;
			return CTL_OK;
		}
		if (n == -1) {
			ctl_warn("reading from %s", c->path);
			return CTL_UNREACHABLE;
		}
		*got = (size_t)n;
		return CTL_OK;
	}
}

/* The terminal's width when stdout is one, else 0. */
int
term_columns(void)
{
	struct winsize	ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0)
		return ws.ws_col;
	return 0;
}

/*
 * Colour for states when stdout is a terminal that shows it, unless
 * NO_COLOR is set to anything (https://no-color.org).
 */
bool
term_colour(void)
{
	const char	*no = getenv("NO_COLOR");
	const char	*term = getenv("TERM");

	return isatty(STDOUT_FILENO) && (no == NULL || no[0] == '\0') &&
	    term != NULL && strcmp(term, "dumb") != 0;
}

/*
 * Whether the program a command line starts (its first word) can be run:
 * a path, or a name found in $PATH.  popen() reports a missing program
 * only by sh's "not found" and an exit status after the text is gone, so
 * it is looked for first.
 */
static bool
runnable(const char *command)
{
	char		 prog[256], path[1024];
	const char	*dirs = getenv("PATH"), *end;
	size_t		 n = strcspn(command, " \t");

	if (n == 0 || n >= sizeof(prog))
		return false;
	memcpy(prog, command, n);
	prog[n] = '\0';
	if (strchr(prog, '/') != NULL)
		return access(prog, X_OK) == 0;
	for (; dirs != NULL && *dirs != '\0'; dirs = *end ? end + 1 : end) {
		end = dirs + strcspn(dirs, ":");
		if ((size_t)snprintf(path, sizeof(path), "%.*s/%s",
		    (int)(end - dirs), dirs, prog) < sizeof(path) &&
		    end > dirs && access(path, X_OK) == 0)
			return true;
	}
	return false;
}

/*
 * A pager for a long text when stdout is a terminal: $PAGER, else
 * "less -R" (man(1)'s habit), else "more"; stdout otherwise, or when
 * none of them is installed (a minimal container has no less).
 */
FILE *
term_pager(void)
{
	const char	*pager = getenv("PAGER");
	FILE		*f;

	if (!isatty(STDOUT_FILENO))
		return stdout;
	if (pager == NULL || pager[0] == '\0')
		pager = runnable("less") ? "less -R" : "more";
	if (!runnable(pager))
		return stdout;
	fflush(stdout);
	if ((f = popen(pager, "w")) == NULL)
		return stdout;
	return f;
}

/* 0, or -1 when the text could not be written. */
int
term_pager_close(FILE *f)
{
	int	bad;

	if (f == stdout)
		return 0;
	bad = ferror(f);
	return pclose(f) == -1 || bad ? -1 : 0;
}
