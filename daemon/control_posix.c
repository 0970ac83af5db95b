/*
 * The control server's AF_UNIX transport: the socket, its directory and
 * its lock; accept with the peer's credentials (read from the kernel,
 * never assumed); reading and writing each client as control.c allows.
 *
 * One socket, one daemon: control_bind() holds the socket's directory
 * open (lib/trust_posix.c: only root can change it), takes "<socket>.lock"
 * beside the socket with flock(2) before it probes or removes anything,
 * and keeps both for the daemon's life.  Two daemons started at the same
 * moment cannot both bind: the second finds the lock held.  Whatever
 * answers on the name must be root's, or the daemon refuses to start.
 * At exit it unlinks the socket only if the name is still its own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"
#include "compat_socket.h"
#include "kernel_lock.h"

#define ACCEPTS_PER_EVENT	64	/* then the loop serves the others */
#define SUN_PATH_MAX	sizeof(((struct sockaddr_un *)0)->sun_path)
/*
 * How long a peer on the name has to answer the hello.  A tcptuned
 * answers from its loop in milliseconds; the bound only delays a start
 * over a stale socket whose copy outlives its daemon.
 */
#define HELLO_WAIT_MS	2000
#define HELLO_WAIT_TEXT	"2 s"
#define HELLO_SEQ	0x7463706cU	/* "tcpl": echoed in the answer */

struct conn {
	int			 fd;
	struct ctl_client	*client;
	struct control		*ctl;
	bool			 paused;	/* not reading */
	bool			 want_write;
	struct conn		*next;
};

struct control {
	int			 fd;		/* listening; -1 none */
	int			 dirfd;		/* the socket's directory */
	int			 lock_fd;
	char			 path[SUN_PATH_MAX];
	char			 name[SUN_PATH_MAX];	/* in dirfd */
	dev_t			 dev;		/* of the socket we bound */
	ino_t			 ino;
	struct evloop		*loop;
	struct ctl_server	*srv;
	struct conn		*conns;
	bool			 accept_paused;
	bool			 sweeping;	/* idle_timer runs */
	struct ev_timer		*idle_timer;
	struct ev_timer		*accept_timer;
};

static void	conn_free(struct conn *);
static void	pause_accept(struct control *, bool);
static void	sweep_sync(struct control *);

/*
 * Portable stand-ins for SOCK_NONBLOCK, SOCK_CLOEXEC and accept4, which
 * macOS lacks; there SO_NOSIGPIPE also keeps a vanished peer from killing
 * the daemon with SIGPIPE (elsewhere send() takes MSG_NOSIGNAL).
 */
static int
socket_setup(int fd)
{
	int	flags;
#ifdef SO_NOSIGPIPE
	int	one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof(one)) == -1)
		return -1;
#endif
	if ((flags = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		return -1;
	return 0;
}

/*
 * The peer's uid from the kernel, and its pid (for status to say who
 * holds a lease; -1 where the kernel does not tell).  Linux: both in
 * one SO_PEERCRED (socket(7)); macOS and FreeBSD: getpeereid(3), and on
 * macOS LOCAL_PEERPID at SOL_LOCAL (xnu bsd/sys/un.h).  -1 when the uid
 * cannot be read, and then the connection is refused: never assumed.
 */
static int
peer_cred(int fd, uid_t *uid, long *pid)
{
#if defined(SO_PEERCRED) && defined(__linux__)
	struct ucred	cred;
	socklen_t	len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1 ||
	    len != sizeof(cred))
		return -1;
	*uid = cred.uid;
	*pid = (long)cred.pid;
	return 0;
#else
	gid_t		gid;
#if defined(LOCAL_PEERPID) && defined(SOL_LOCAL)
	pid_t		peer;
	socklen_t	len = sizeof(peer);
#endif

	if (getpeereid(fd, uid, &gid) == -1)
		return -1;
	*pid = -1;
#if defined(LOCAL_PEERPID) && defined(SOL_LOCAL)
	if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &peer, &len) == 0 &&
	    len == sizeof(peer))
		*pid = (long)peer;
#endif
	return 0;
#endif
}

/* ---- one connection */

/* Read and write interest as control.c's state for the client says. */
static void
conn_sync(struct conn *k)
{
	size_t	out;
	bool	pause = ctl_client_room(k->client) == 0;
	bool	want = (ctl_client_output(k->client, &out), out > 0);

	if (pause != k->paused) {
		k->paused = pause;
		ev_fd_pause(k->ctl->loop, k->fd, pause);
	}
	if (want != k->want_write) {
		k->want_write = want;
		ev_fd_want_write(k->ctl->loop, k->fd, want);
	}
}

static void
io_kick(void *arg)
{
	conn_sync(arg);
}

/*
 * The peer has closed the connection (both ways: a client that only shut
 * down its sending side still waits for the reply).  Its request bytes
 * may still be buffered here, but whoever sent them has stopped waiting.
 * A stream socket whose peer has closed polls POLLHUP (Linux unix_poll()
 * in net/unix/af_unix.c: sk_shutdown == SHUTDOWN_MASK, set for the
 * survivor by unix_release_sock()).
 */
static bool
io_gone(void *arg)
{
	struct conn	*k = arg;
	struct pollfd	 pfd;

	pfd.fd = k->fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR));
}

/* -1 when the connection is gone (and freed). */
static int
conn_flush(struct conn *k)
{
	const void	*out;
	size_t		 len;
	ssize_t		 n;

	for (;;) {
		out = ctl_client_output(k->client, &len);
		if (len == 0)
			break;
		n = send(k->fd, out, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n == -1) {		/* EPIPE: the client went away */
			conn_free(k);
			return -1;
		}
		ctl_client_sent(k->client, (size_t)n);
	}
	if (ctl_client_finished(k->client)) {
		conn_free(k);
		return -1;
	}
	conn_sync(k);
	return 0;
}

static void
conn_read(struct conn *k)
{
	size_t	room;
	void	*space = ctl_client_input_space(k->client, &room);
	ssize_t	n;

	if (room == 0) {
		/* not reading: only a hang-up is reported (epoll) */
		if (io_gone(k))
			conn_free(k);
		return;
	}
	n = read(k->fd, space, room);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n == -1) {
		conn_free(k);
		return;
	}
	if (n == 0)
		ctl_client_input_end(k->client);
	else
		ctl_client_input_read(k->client, (size_t)n);
	conn_flush(k);
}

static void
conn_event(int fd, bool readable, bool writable, void *arg)
{
	struct conn	*k = arg;

	(void)fd;
	if (writable) {
		conn_flush(k);
		return;		/* k may be gone; reading waits a turn */
	}
	if (readable)
		conn_read(k);
}

static void
conn_free(struct conn *k)
{
	struct control	 *ctl = k->ctl;
	struct conn	**pp;

	for (pp = &ctl->conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == k) {
			*pp = k->next;
			break;
		}
	ev_fd_del(ctl->loop, k->fd);
	close(k->fd);
	ctl_client_free(k->client);	/* may kick others: k is unlinked */
	free(k);
	sweep_sync(ctl);
	if (ctl->accept_paused && !ctl_server_full(ctl->srv)) {
		log_notice("control: a client left: accepting again");
		pause_accept(ctl, false);
	}
}

static void
conn_new(struct control *ctl, int fd, uid_t uid, long pid)
{
	struct ctl_peer	 peer;
	struct conn	*k;

	peer.user = (unsigned long)uid;
	peer.privileged = uid == 0;
	peer.pid = pid;
	if ((k = calloc(1, sizeof(*k))) == NULL) {
		close(fd);
		return;
	}
	k->fd = fd;
	k->ctl = ctl;
	if ((k->client = ctl_client_new(ctl->srv, &peer, k)) == NULL) {
		close(fd);
		free(k);
		return;
	}
	if (ev_fd_add(ctl->loop, fd, conn_event, k) == -1) {
		ctl_server_log(ctl->srv, &peer, TT_LOG_ERR, "control: "
		    "ev_fd_add: %s", strerror(errno));
		ctl_client_free(k->client);
		close(fd);
		free(k);
		return;
	}
	k->next = ctl->conns;
	ctl->conns = k;
	sweep_sync(ctl);
	if (ctl_server_full(ctl->srv)) {
		log_warnx("control: every client slot is taken: pausing "
		    "accept until one leaves");
		pause_accept(ctl, true);
	}
}

/* ---- accepting */

static void
pause_accept(struct control *ctl, bool paused)
{
	if (ctl->accept_paused == paused)
		return;
	ctl->accept_paused = paused;
	ev_fd_pause(ctl->loop, ctl->fd, paused);
}

/*
 * 0 for one more, -1 when the queue is empty or accept must wait.  Until
 * the peer's uid is read, a line is about an unidentified client
 * (ctl_server_log with no peer): a user's connections cause these too.
 */
static int
accept_one(struct control *ctl)
{
	uid_t	uid;
	long	pid;
	int	cfd, saved;

	if ((cfd = accept(ctl->fd, NULL, NULL)) == -1) {
		saved = errno;
		if (saved == EMFILE || saved == ENFILE) {
			ctl_server_log(ctl->srv, NULL, TT_LOG_ERR, "control: "
			    "out of file descriptors: pausing accept for a "
			    "second");
			pause_accept(ctl, true);
			ev_timer_start(ctl->accept_timer, 1000, false);
		} else if (saved != EAGAIN && saved != EINTR &&
		    saved != ECONNABORTED)
			ctl_server_log(ctl->srv, NULL, TT_LOG_ERR, "control: "
			    "accept: %s", strerror(saved));
		return saved == ECONNABORTED || saved == EINTR ? 0 : -1;
	}
	if (socket_setup(cfd) == -1) {
		ctl_server_log(ctl->srv, NULL, TT_LOG_ERR, "control: socket "
		    "setup: %s", strerror(errno));
		close(cfd);
		return 0;
	}
	if (peer_cred(cfd, &uid, &pid) == -1) {
		ctl_server_log(ctl->srv, NULL, TT_LOG_ERR, "control: cannot "
		    "read the peer's credentials: refusing the connection: %s",
		    strerror(errno));
		close(cfd);
		return 0;
	}
	conn_new(ctl, cfd, uid, pid);
	return 0;
}

/*
 * A connection over a user's limit is accepted and closed at once
 * (control.c says whether it may stay), so the listen queue keeps moving
 * and root's connection reaches the slots kept for it, however many
 * connections users open.  Accept pauses only when every slot, root's
 * too, is taken (then root's own clients hold them), and on EMFILE.
 */
static void
accept_event(int fd, bool readable, bool writable, void *arg)
{
	struct control	*ctl = arg;
	int		 i;

	(void)fd;
	(void)writable;
	if (!readable)
		return;
	for (i = 0; i < ACCEPTS_PER_EVENT && !ctl->accept_paused; i++)
		if (accept_one(ctl) == -1)
			break;
	sweep_sync(ctl);	/* a refusal may have left a count */
}

static void
accept_resume(void *arg)
{
	struct control	*ctl = arg;

	if (!ctl_server_full(ctl->srv))
		pause_accept(ctl, false);
}

static void
idle_sweep(void *arg)
{
	struct control	*ctl = arg;
	struct conn	*k, *next;
	time_t		 now = tt_mono();

	for (k = ctl->conns; k != NULL; k = next) {
		next = k->next;
		if (ctl_client_idle(k->client, now) >= CONTROL_IDLE_TIMEOUT) {
			ctl_server_log(ctl->srv, ctl_client_peer(k->client),
			    TT_LOG_DEBUG, "control: closing idle client uid %lu",
			    ctl_client_peer(k->client)->user);
			conn_free(k);
		}
	}
	ctl_server_log_tick(ctl->srv);
	sweep_sync(ctl);
}

/*
 * The sweep runs while there are clients to time out or counts of
 * unlogged lines to write (a user's flood leaves one after it has gone).
 */
static void
sweep_sync(struct control *ctl)
{
	bool	want = ctl->conns != NULL || ctl_server_log_pending(ctl->srv);

	if (want == ctl->sweeping)
		return;
	ctl->sweeping = want;
	if (want)
		ev_timer_start(ctl->idle_timer, 1000 * CONTROL_IDLE_TIMEOUT / 3,
		    true);
	else
		ev_timer_stop(ctl->idle_timer);
}

/*
 * Clients may hold only the descriptors the daemon does not need itself:
 * each sysctl read or write, config load and state save opens one for a
 * moment, and a client that took the last of them would make the engine
 * see EMFILE instead of the kernel's values.  So the bound is the limit
 * less what is open now (the loop, timers, watch, locks, socket) less a
 * reserve.  Counted once, at start: these are all long-lived.
 */
static int
client_budget(void)
{
	struct rlimit	rl;
	long		limit, open_now = 0, fd, budget;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur == RLIM_INFINITY)
		return CONTROL_MAX_CLIENTS;
	limit = rl.rlim_cur > (rlim_t)65536 ? 65536 : (long)rl.rlim_cur;
	for (fd = 0; fd < limit && fd < 4096; fd++)
		if (fcntl((int)fd, F_GETFD) != -1)
			open_now++;
	budget = limit - open_now - CONTROL_FD_RESERVE;
	if (budget > CONTROL_MAX_CLIENTS)
		return CONTROL_MAX_CLIENTS;
	if (budget <= CONTROL_ROOT_RESERVE)
		log_warnx("control: descriptor limit %ld: at most %ld clients at "
		    "once, all kept for root", limit, budget < 1 ? 1 : budget);
	else if (budget < CONTROL_MAX_CLIENTS)
		log_info("control: descriptor limit %ld: at most %ld clients at "
		    "once", limit, budget);
	return budget < 1 ? 1 : (int)budget;
}

/* ---- the name */

/* Split path into the directory to hold open and the socket's name in it. */
static int
split_path(struct control *ctl, const char *path, char *dir, size_t dirlen)
{
	const char	*slash = strrchr(path, '/');

	if (tt_strlcpy(ctl->path, path, sizeof(ctl->path)) >=
	    sizeof(ctl->path))
		return -1;
	if (slash == NULL)
		tt_strlcpy(dir, ".", dirlen);
	else if (tt_snprintf(dir, dirlen, "%.*s", slash == path ? 1 :
	    (int)(slash - path), path) == -1)
		return -1;
	tt_strlcpy(ctl->name, slash == NULL ? path : slash + 1,
	    sizeof(ctl->name));
	return ctl->name[0] == '\0' ? -1 : 0;
}

/*
 * Whether a peer answered the hello (lib/proto.h) on fd within
 * HELLO_WAIT_MS: MSG_VERSION, with our seq.  A copy of a dead daemon's
 * listening socket (in a child it left, or a process stopped before it
 * could close it) accepts but never answers; what it queued ends with
 * the copy, so the read ends early then.  false with what happened in
 * what.
 */
static bool
hello_answered(int fd, const char **what)
{
	struct msg_hdr	hello, reply;
	struct pollfd	pfd;
	uint64_t	end = tt_mono_ms() + HELLO_WAIT_MS, now;
	size_t		got = 0;
	ssize_t		n;

	memset(&hello, 0, sizeof(hello));
	hello.type = MSG_STATUS;
	hello.seq = HELLO_SEQ;
	hello.version = TT_PROTO_HELLO_VERSION;
	*what = "it took no hello";
	if (send(fd, &hello, sizeof(hello), MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(hello))
		return false;
	*what = "no answer within " HELLO_WAIT_TEXT;
	while (got < sizeof(reply) && (now = tt_mono_ms()) < end) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)(end - now)) == -1 && errno != EINTR)
			return false;
		n = read(fd, (char *)&reply + got, sizeof(reply) - got);
		if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
			*what = "it closed the connection without an answer";
			return false;
		}
		if (n > 0)
			got += (size_t)n;
	}
	if (got < sizeof(reply))
		return false;
	*what = "its answer is not tcptuned's";
	return reply.type == MSG_VERSION && reply.seq == HELLO_SEQ;
}

/*
 * Whether a tcptuned answers on the name: 0 nothing (no socket, or a
 * stale one, said in the log), 1 and why otherwise, naming its uid when
 * it is not root's.  A connect is not an answer: a copy of a dead
 * daemon's socket accepts too.  A listener whose queue is full is taken
 * for a daemon (EAGAIN on a non-blocking connect: no hello can be sent).
 */
static int
probe(struct control *ctl, char *why, size_t len)
{
	struct sockaddr_un	sun;
	const char		*what;
	uid_t			uid;
	long			pid;
	int			fd, rv = 0;

	if (tt_sockaddr_un(&sun, ctl->path) == -1 ||
	    (fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    socket_setup(fd) == -1)
		return tt_why(why, len, "%s: %s", ctl->path,
		    strerror(errno)) == -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		if (peer_cred(fd, &uid, &pid) == 0 && uid != 0 &&
		    uid != geteuid()) {
			rv = 1;
			tt_why(why, len, "uid %lu answers on %s; it is not "
			    "tcptuned: remove it before starting",
			    (unsigned long)uid, ctl->path);
		} else if (hello_answered(fd, &what)) {
			rv = 1;
			tt_why(why, len, "another tcptuned is running (it "
			    "answers on %s)", ctl->path);
		} else
			log_warnx("%s accepts connections but is no running "
			    "tcptuned (%s): a stale socket, replacing it",
			    ctl->path, what);
	} else if (errno == EAGAIN || errno == EINPROGRESS) {
		rv = 1;
		tt_why(why, len, "another tcptuned is running (%s is "
		    "listened on, its queue full)", ctl->path);
	} else if (errno != ECONNREFUSED && errno != ENOENT) {
		rv = 1;
		tt_why(why, len, "probing %s: %s", ctl->path,
		    strerror(errno));
	}
	close(fd);
	return rv;
}

/*
 * The lock beside the socket, held for the daemon's life.  A record lock
 * (fcntl F_SETLK), not flock(2): a child does not inherit it
 * (kernel_lock_posix.c, lock_whole_file()).
 */
static int
take_lock(struct control *ctl, char *why, size_t len)
{
	char	lock[SUN_PATH_MAX + 8];
	long	holder;

	(void)tt_snprintf(lock, sizeof(lock), "%s.lock", ctl->name);
	ctl->lock_fd = openat(ctl->dirfd, lock, O_RDWR | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW | O_NONBLOCK, 0600);
	if (ctl->lock_fd == -1)
		return tt_why(why, len, "%s.lock: %s", ctl->path,
		    errno == ELOOP || errno == EMLINK ? "a symbolic link" :
		    strerror(errno));
	if (trust_file_check(ctl->lock_fd, why, len) == -1) {
		char	detail[TT_TEXT_MAX];

		tt_strlcpy(detail, why, sizeof(detail));
		return tt_why(why, len, "%s.lock: %s", ctl->path, detail);
	}
	if (lock_whole_file(ctl->lock_fd, &holder) == 0)
		return 0;
	if (errno != EAGAIN)
		return tt_why(why, len, "%s.lock: %s", ctl->path,
		    strerror(errno));
	return tt_why(why, len, "another tcptuned is starting or running on "
	    "%s (pid %ld holds %s.lock)", ctl->path, holder, ctl->path);
}

/* A stale socket goes; anything else in its place stays, and so do we. */
static int
clear_name(struct control *ctl, char *why, size_t len)
{
	struct stat	st;

	if (fstatat(ctl->dirfd, ctl->name, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return errno == ENOENT ? 0 : tt_why(why, len, "%s: %s",
		    ctl->path, strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return tt_why(why, len, "%s exists and is not a socket: not "
		    "removing it", ctl->path);
	if (unlinkat(ctl->dirfd, ctl->name, 0) == -1)
		return tt_why(why, len, "removing the stale %s: %s",
		    ctl->path, strerror(errno));
	return 0;
}

static int
listen_on(struct control *ctl, char *why, size_t len)
{
	struct sockaddr_un	sun;
	struct stat		st;
	mode_t			old;
	int			rv;

	if (tt_sockaddr_un(&sun, ctl->path) == -1 ||
	    (ctl->fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    socket_setup(ctl->fd) == -1)
		return tt_why(why, len, "%s: %s", ctl->path,
		    strerror(errno));
	/* 0666: anyone may connect for status; changes check the uid. */
	old = umask(0111);
	rv = bind(ctl->fd, (struct sockaddr *)&sun, sizeof(sun));
	umask(old);
	if (rv == -1 || listen(ctl->fd, 128) == -1)
		return tt_why(why, len, "%s: %s", ctl->path,
		    strerror(errno));
	if (fstatat(ctl->dirfd, ctl->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		ctl->dev = st.st_dev;
		ctl->ino = st.st_ino;
	}
	return 0;
}

/*
 * Take the socket's name before any sysctl is touched: directory checked
 * and held, lock taken, nothing (or only a stale socket) there, bound and
 * listening.  Connections wait in the queue until control_start().  NULL
 * with the reason in why.
 */
struct control *
control_bind(const char *path, char *why, size_t len)
{
	struct control	*ctl;
	char		 dir[SUN_PATH_MAX], detail[TT_TEXT_MAX];

	if ((ctl = calloc(1, sizeof(*ctl))) == NULL) {
		tt_why(why, len, "%s", strerror(errno));
		return NULL;
	}
	ctl->fd = ctl->dirfd = ctl->lock_fd = -1;
	if (split_path(ctl, path, dir, sizeof(dir)) == -1) {
		tt_why(why, len, "%s: not a usable socket path (at most %zu "
		    "bytes)", path, SUN_PATH_MAX - 1);
		goto fail;
	}
	if ((ctl->dirfd = trust_open_dir(dir, 0, 0755, detail,
	    sizeof(detail))) < 0) {
		tt_why(why, len, "socket directory: %s", detail);
		goto fail;
	}
	if (take_lock(ctl, why, len) == -1 || probe(ctl, why, len) != 0 ||
	    clear_name(ctl, why, len) == -1 || listen_on(ctl, why, len) == -1)
		goto fail;
	return ctl;
fail:
	control_close(ctl);
	return NULL;
}

int
control_start(struct control *ctl, struct evloop *loop,
    const struct control_ops *ops)
{
	static const struct ctl_io	io = { io_kick, io_gone };

	ctl->loop = loop;
	ctl->srv = ctl_server_new(ops, &io, client_budget());
	ctl->idle_timer = ev_timer_new(loop, idle_sweep, ctl);
	ctl->accept_timer = ev_timer_new(loop, accept_resume, ctl);
	if (ctl->srv == NULL || ctl->idle_timer == NULL ||
	    ctl->accept_timer == NULL ||
	    ev_fd_add(loop, ctl->fd, accept_event, ctl) == -1) {
		log_warn("control: event loop");
		return -1;
	}
	return 0;
}

/* The name is unlinked only while it is still the socket we bound. */
static void
unlink_ours(struct control *ctl)
{
	struct stat	st;

	if (fstatat(ctl->dirfd, ctl->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == ctl->dev && st.st_ino == ctl->ino)
		unlinkat(ctl->dirfd, ctl->name, 0);
}

void
control_close(struct control *ctl)
{
	if (ctl == NULL)
		return;
	while (ctl->conns != NULL)
		conn_free(ctl->conns);
	if (ctl->fd != -1) {
		if (ctl->loop != NULL)
			ev_fd_del(ctl->loop, ctl->fd);
		close(ctl->fd);
		if (ctl->ino != 0)
			unlink_ours(ctl);
	}
	ctl_server_free(ctl->srv);
	if (ctl->dirfd != -1)
		close(ctl->dirfd);
	if (ctl->lock_fd != -1)
		close(ctl->lock_fd);
	ev_timer_free(ctl->idle_timer);
	ev_timer_free(ctl->accept_timer);
	free(ctl);
}
