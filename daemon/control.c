/*
 * The control socket.  Anyone may ask for status; changes need root, known
 * from the peer's credentials read at accept (never assumed).  Clients are
 * bounded in number, queued output and idle time, and accept pauses when
 * the process runs out of descriptors rather than spinning.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"

#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL	0	/* macOS: SO_NOSIGPIPE is set per socket */
#endif

struct client {
	int		 fd;
	uid_t		 uid;
	char		 in[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t		 inlen;
	char		*out;
	size_t		 outlen;
	size_t		 outcap;
	time_t		 last_active;
	bool		 closing;	/* close once the output is out */
	struct control	*ctl;
	struct client	*next;
};

struct control {
	int		 fd;
	char		 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct evloop	*loop;
	struct daemon	*daemon;
	struct client	*clients;
	int		 nclients;
	int		 max_clients;	/* CONTROL_MAX_CLIENTS or fewer */
	bool		 accept_paused;
	struct ev_timer	*idle_timer;
	struct ev_timer	*accept_timer;
};

typedef void (*request_fn)(struct client *, uint32_t);

static void	client_free(struct client *);
static void	client_flush(struct client *);

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

static int
fill_sockaddr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (tt_strlcpy(sun->sun_path, path, sizeof(sun->sun_path)) >=
	    sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* 1: a daemon answers there; 0: nothing does (stale or no socket). */
int
control_probe(const char *path)
{
	struct sockaddr_un	sun;
	int			fd, rv;

	if (fill_sockaddr(&sun, path) == -1)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return -1;
	rv = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	if (!rv && errno != ECONNREFUSED && errno != ENOENT)
		rv = -1;
	close(fd);
	return rv;
}

/*
 * The socket's directory must be root's and not writable by others, or
 * someone could put their own socket in our place.
 */
static int
socket_dir_ok(const char *path)
{
	char		 dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char		*slash;
	struct stat	 sb;

	tt_strlcpy(dir, path, sizeof(dir));
	if ((slash = strrchr(dir, '/')) == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else
		*slash = '\0';
	if (dir[0] == '\0')
		tt_strlcpy(dir, "/", sizeof(dir));
	if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
		log_warn("mkdir %s", dir);
		return -1;
	}
	if (stat(dir, &sb) == -1) {
		log_warn("stat %s", dir);
		return -1;
	}
	if (sb.st_uid != geteuid() || (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		if ((sb.st_mode & S_ISVTX) && sb.st_uid == 0)
			return 0;	/* /tmp-like: sticky, root's */
		log_warnx("%s: the socket directory must be owned by uid %d "
		    "and not writable by group or others", dir,
		    (int)geteuid());
		return -1;
	}
	return 0;
}

static int
peer_uid(int fd, uid_t *uid)
{
#if defined(SO_PEERCRED) && defined(__linux__)
	struct ucred	cred;
	socklen_t	len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == -1 ||
	    len != sizeof(cred))
		return -1;
	*uid = cred.uid;
	return 0;
#else
	gid_t	gid;

	return getpeereid(fd, uid, &gid);
#endif
}

/*
 * The peer's pid, for status to say who holds a lease; -1 where the
 * kernel does not tell.  Linux: SO_PEERCRED (socket(7)); macOS:
 * LOCAL_PEERPID at SOL_LOCAL (xnu bsd/sys/un.h).
 */
static long
peer_pid(int fd)
{
#if defined(SO_PEERCRED) && defined(__linux__)
	struct ucred	cred;
	socklen_t	len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
	    len == sizeof(cred))
		return (long)cred.pid;
#elif defined(LOCAL_PEERPID) && defined(SOL_LOCAL)
	pid_t		pid;
	socklen_t	len = sizeof(pid);

	if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &len) == 0 &&
	    len == sizeof(pid))
		return (long)pid;
#else
	(void)fd;
#endif
	return -1;
}

static void
pause_accept(struct control *ctl, bool paused)
{
	if (ctl->accept_paused == paused)
		return;
	ctl->accept_paused = paused;
	ev_fd_pause(ctl->loop, ctl->fd, paused);
}

static void
queue(struct client *c, uint32_t type, uint32_t seq, const void *payload,
    size_t len)
{
	size_t	need = sizeof(struct msg_hdr) + len;
	char	*grown;

	if (c->closing)
		return;
	if (c->outlen + need > CONTROL_MAX_OUTPUT) {
		log_warnx("control: client output over %d bytes: dropping it",
		    CONTROL_MAX_OUTPUT);
		c->closing = true;
		c->outlen = 0;
		return;
	}
	if (c->outlen + need > c->outcap) {
		size_t cap = (c->outlen + need) * 2;

		if ((grown = realloc(c->out, cap)) == NULL)
			fatal("%s", __func__);
		c->out = grown;
		c->outcap = cap;
	}
	c->outlen += proto_encode(c->out + c->outlen, c->outcap - c->outlen,
	    type, seq, payload, len);
}

static void
queue_end(struct client *c, uint32_t seq, uint32_t count)
{
	struct msg_end	end;

	memset(&end, 0, sizeof(end));
	end.count = count;
	queue(c, MSG_END, seq, &end, sizeof(end));
}

static void
queue_result(struct client *c, uint32_t seq, uint32_t code, const char *text)
{
	struct msg_result	res;

	memset(&res, 0, sizeof(res));
	res.code = code;
	tt_strlcpy(res.text, text, sizeof(res.text));
	queue(c, MSG_RESULT, seq, &res, sizeof(res));
}

static void
do_status(struct client *c, uint32_t seq)
{
	const struct engine	*e = daemon_engine(c->ctl->daemon);
	struct msg_daemon_info	 info;
	struct msg_key_status	 ks;
	size_t			 i;

	daemon_status(c->ctl->daemon, &info);
	queue(c, MSG_DAEMON_INFO, seq, &info, sizeof(info));
	for (i = 0; i < e->nkeys; i++) {
		engine_key_status(e, &e->keys[i], &ks);
		queue(c, MSG_KEY_STATUS, seq, &ks, sizeof(ks));
	}
	queue_end(c, seq, (uint32_t)e->nkeys);
}

static void
do_reload(struct client *c, uint32_t seq)
{
	struct msg_config_error	ce;
	struct errlist		errs;
	char			msg[TT_TEXT_MAX];
	size_t			i;
	int			rv;

	errlist_init(&errs);
	rv = daemon_reload(c->ctl->daemon, &errs, msg, sizeof(msg));
	for (i = 0; i < errs.n; i++) {
		memset(&ce, 0, sizeof(ce));
		tt_strlcpy(ce.text, errs.msg[i], sizeof(ce.text));
		queue(c, MSG_CONFIG_ERROR, seq, &ce, sizeof(ce));
	}
	queue_result(c, seq, rv == 0 ? RESULT_OK : RESULT_FAILED, msg);
	queue_end(c, seq, (uint32_t)errs.n);
	errlist_clear(&errs);
}

static void
do_restore(struct client *c, uint32_t seq)
{
	char	msg[TT_TEXT_MAX];
	int	rv = daemon_restore(c->ctl->daemon, msg, sizeof(msg));

	queue_result(c, seq, rv == 0 ? RESULT_OK : RESULT_FAILED, msg);
	queue_end(c, seq, 0);
}

static void
do_resume(struct client *c, uint32_t seq)
{
	char	msg[TT_TEXT_MAX];
	int	rv = daemon_resume(c->ctl->daemon, msg, sizeof(msg));

	queue_result(c, seq, rv == 0 ? RESULT_OK : RESULT_FAILED, msg);
	queue_end(c, seq, 0);
}

/* The payload is still in c->in: handle_request runs before it moves. */
static void
do_lease(struct client *c, uint32_t seq)
{
	struct msg_lease	req;
	char			msg[TT_TEXT_MAX];
	int			code;

	memcpy(&req, c->in + sizeof(struct msg_hdr), sizeof(req));
	code = daemon_lease(c->ctl->daemon, c, (long)c->uid, peer_pid(c->fd),
	    req.seconds, msg, sizeof(msg));
	queue_result(c, seq, (uint32_t)code, msg);
	queue_end(c, seq, 0);
}

static const struct request {
	uint32_t	 type;
	bool		 needs_root;
	request_fn	 fn;
} requests[] = {
	{ MSG_STATUS,	false,	do_status },
	{ MSG_RELOAD,	true,	do_reload },
	{ MSG_RESTORE,	true,	do_restore },
	{ MSG_RESUME,	true,	do_resume },
	{ MSG_LEASE,	true,	do_lease },
};

static void
handle_request(struct client *c, const struct msg_hdr *h)
{
	const struct request	*r = NULL;
	char			 text[TT_TEXT_MAX];
	size_t			 i;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (requests[i].type == h->type)
			r = &requests[i];
	if (r == NULL) {
		queue_result(c, h->seq, RESULT_BAD_REQUEST,
		    "not a request a client may send");
		queue_end(c, h->seq, 0);
		c->closing = true;
		return;
	}
	if (r->needs_root && c->uid != 0) {
		snprintf(text, sizeof(text), "%s needs root",
		    proto_type_name(h->type));
		log_info("control: uid %d asked for %s: denied", (int)c->uid,
		    proto_type_name(h->type));
		queue_result(c, h->seq, RESULT_DENIED, text);
		queue_end(c, h->seq, 0);
		return;
	}
	r->fn(c, h->seq);
}

static void
reply_version(struct client *c, const struct msg_hdr *h)
{
	struct msg_version	v;

	memset(&v, 0, sizeof(v));
	v.server_version = TT_PROTO_VERSION;
	v.client_version = h->version;
	queue(c, MSG_VERSION, h->seq, &v, sizeof(v));
	c->closing = true;
}

/* Take every complete message in the input; -1 to drop the client. */
static int
client_parse(struct client *c)
{
	struct msg_hdr	h;
	char		why[128];
	size_t		total;
	int		rv;

	while (!c->closing && c->inlen >= sizeof(h)) {
		memcpy(&h, c->in, sizeof(h));
		if ((rv = proto_check_header(&h, why, sizeof(why))) == 1) {
			reply_version(c, &h);
			break;
		}
		if (rv == -1) {
			log_debug("control: uid %d: %s", (int)c->uid, why);
			return -1;
		}
		total = sizeof(h) + h.len;
		if (c->inlen < total)
			break;
		handle_request(c, &h);
		memmove(c->in, c->in + total, c->inlen - total);
		c->inlen -= total;
	}
	return 0;
}

static void
client_flush(struct client *c)
{
	ssize_t	n;

	while (c->outlen > 0) {
		n = send(c->fd, c->out, c->outlen, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n == -1) {		/* EPIPE: the client went away */
			client_free(c);
			return;
		}
		memmove(c->out, c->out + n, c->outlen - (size_t)n);
		c->outlen -= (size_t)n;
	}
	if (c->outlen == 0 && c->closing) {
		client_free(c);
		return;
	}
	ev_fd_want_write(c->ctl->loop, c->fd, c->outlen > 0);
}

static void
client_event(int fd, bool readable, bool writable, void *arg)
{
	struct client	*c = arg;
	ssize_t		 n;

	(void)fd;
	c->last_active = tt_mono();
	if (writable) {
		client_flush(c);
		return;		/* c may be gone; reading waits a turn */
	}
	if (!readable)
		return;
	if (c->closing) {	/* drain and ignore until the reply is out */
		char junk[512];

		if ((n = read(c->fd, junk, sizeof(junk))) == 0 ||
		    (n == -1 && errno != EAGAIN && errno != EINTR))
			client_free(c);
		return;
	}
	n = read(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		client_free(c);
		return;
	}
	c->inlen += (size_t)n;
	if (client_parse(c) == -1) {
		client_free(c);
		return;
	}
	client_flush(c);
}

static void
client_free(struct client *c)
{
	struct control	 *ctl = c->ctl;
	struct client	**pp;

	for (pp = &ctl->clients; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	daemon_lease_gone(ctl->daemon, c);	/* the holder went: enforce */
	ev_fd_del(ctl->loop, c->fd);
	close(c->fd);
	free(c->out);
	free(c);
	ctl->nclients--;
	if (ctl->nclients == 0)
		ev_timer_stop(ctl->idle_timer);
	if (ctl->accept_paused)
		log_info("control: a client left (%d now): accepting again",
		    ctl->nclients);
	pause_accept(ctl, false);
}

/*
 * Clients may hold only the descriptors the daemon does not need itself:
 * each sysctl read or write, config load and state save opens one for a
 * moment, and a client that took the last of them would make the engine
 * see EMFILE instead of the kernel's values.  So the bound is the limit
 * less what is open now (the loop, timers, watch, lock, socket) less a
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
	if (budget < 1) {
		log_warnx("control: descriptor limit %ld leaves no room for "
		    "clients: serving one at a time", limit);
		return 1;
	}
	if (budget < CONTROL_MAX_CLIENTS)
		log_info("control: descriptor limit %ld: at most %ld clients at "
		    "once", limit, budget);
	return (int)budget;
}

static void
client_new(struct control *ctl, int fd, uid_t uid)
{
	struct client	*c;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->uid = uid;
	c->ctl = ctl;
	c->last_active = tt_mono();
	if (ev_fd_add(ctl->loop, fd, client_event, c) == -1) {
		log_warn("control: ev_fd_add");
		close(fd);
		free(c);
		return;
	}
	c->next = ctl->clients;
	ctl->clients = c;
	if (ctl->nclients++ == 0)
		ev_timer_start(ctl->idle_timer, 1000 * CONTROL_IDLE_TIMEOUT / 3,
		    true);
	if (ctl->nclients >= ctl->max_clients) {
		log_warnx("control: %d clients, the most allowed: pausing "
		    "accept until one leaves", ctl->nclients);
		pause_accept(ctl, true);
	}
}

static void
accept_event(int fd, bool readable, bool writable, void *arg)
{
	struct control	*ctl = arg;
	uid_t		 uid;
	int		 cfd;

	(void)writable;
	if (!readable)
		return;
	if ((cfd = accept(fd, NULL, NULL)) == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			log_warnx("control: out of file descriptors: pausing "
			    "accept for a second");
			pause_accept(ctl, true);
			ev_timer_start(ctl->accept_timer, 1000, false);
		} else if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED)
			log_warn("control: accept");
		return;
	}
	if (socket_setup(cfd) == -1) {
		log_warn("control: socket setup");
		close(cfd);
		return;
	}
	if (peer_uid(cfd, &uid) == -1) {
		log_warn("control: cannot read the peer's credentials: "
		    "refusing the connection");
		close(cfd);
		return;
	}
	client_new(ctl, cfd, uid);
}

static void
accept_resume(void *arg)
{
	struct control	*ctl = arg;

	if (ctl->nclients < ctl->max_clients)
		pause_accept(ctl, false);
}

static void
idle_sweep(void *arg)
{
	struct control	*ctl = arg;
	struct client	*c, *next;
	time_t		 now = tt_mono();

	for (c = ctl->clients; c != NULL; c = next) {
		next = c->next;
		/* A lease holder waits out a transfer; the lease bounds it. */
		if (daemon_lease_held_by(ctl->daemon, c))
			continue;
		if (now - c->last_active >= CONTROL_IDLE_TIMEOUT) {
			log_debug("control: closing idle client uid %d",
			    (int)c->uid);
			client_free(c);
		}
	}
}

static int
listen_on(struct control *ctl, const char *path)
{
	struct sockaddr_un	sun;
	mode_t			old;
	int			rv;

	if (fill_sockaddr(&sun, path) == -1)
		return -1;
	if ((ctl->fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    socket_setup(ctl->fd) == -1)
		return -1;
	if (unlink(path) == -1 && errno != ENOENT)
		return -1;
	/* 0666: anyone may connect for status; changes check the uid. */
	old = umask(0111);
	rv = bind(ctl->fd, (struct sockaddr *)&sun, sizeof(sun));
	umask(old);
	if (rv == -1 || listen(ctl->fd, 128) == -1)
		return -1;
	return 0;
}

struct control *
control_open(const char *path, struct evloop *loop, struct daemon *d)
{
	struct control	*ctl;

	if ((ctl = calloc(1, sizeof(*ctl))) == NULL)
		return NULL;
	ctl->fd = -1;
	ctl->loop = loop;
	ctl->daemon = d;
	tt_strlcpy(ctl->path, path, sizeof(ctl->path));
	if (socket_dir_ok(path) == -1)
		goto fail;
	if (listen_on(ctl, path) == -1) {
		log_warn("control socket %s", path);
		goto fail;
	}
	ctl->idle_timer = ev_timer_new(loop, idle_sweep, ctl);
	ctl->accept_timer = ev_timer_new(loop, accept_resume, ctl);
	if (ctl->idle_timer == NULL || ctl->accept_timer == NULL ||
	    ev_fd_add(loop, ctl->fd, accept_event, ctl) == -1) {
		log_warn("control: event loop");
		goto fail;
	}
	ctl->max_clients = client_budget();
	return ctl;
fail:
	control_close(ctl);
	return NULL;
}

void
control_close(struct control *ctl)
{
	if (ctl == NULL)
		return;
	while (ctl->clients != NULL)
		client_free(ctl->clients);
	if (ctl->fd != -1) {
		ev_fd_del(ctl->loop, ctl->fd);
		close(ctl->fd);
		unlink(ctl->path);
	}
	ev_timer_free(ctl->idle_timer);
	ev_timer_free(ctl->accept_timer);
	free(ctl);
}
