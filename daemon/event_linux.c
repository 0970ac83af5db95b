/*
 * The Linux event loop: epoll, with timerfd for timers, signalfd for
 * signals and inotify for the config file.  Everything is an fd, so the
 * loop sleeps in one epoll_wait until something is due: no polling.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "tcptune.h"
#include "event_backend.h"

#define EV_MAX_SIGNALS	8
#define EV_BATCH	64

enum src_kind { SRC_FD, SRC_TIMER, SRC_SIGNALS, SRC_WATCH };

struct ev_src {
	enum src_kind	 kind;
	int		 fd;
	bool		 want_write;
	bool		 paused;
	bool		 dead;		/* freed after the current batch */
	ev_fd_cb	 fd_cb;
	ev_cb		 cb;
	void		*arg;
	struct evloop	*loop;
	struct ev_src	*next_dead;
};

struct ev_timer {
	struct ev_src	src;
};

struct ev_watch {
	struct ev_src	 src;
	int		 wd;
	char		 name[NAME_MAX + 1];
};

struct ev_sig {
	int	 signo;
	ev_cb	 cb;
	void	*arg;
};

struct evloop {
	struct ev_core	 core;		/* first: event_backend.h */
	int		 epfd;
	struct epoll_event batch[EV_BATCH];	/* the last epoll_wait's */
	struct ev_src	**fds;		/* by fd number */
	size_t		 nfds;
	struct ev_src	*sigsrc;
	sigset_t	 sigmask;
	struct ev_sig	 sigs[EV_MAX_SIGNALS];
	int		 nsigs;
	struct ev_src	*dead;
};

struct evloop *
ev_new(void)
{
	struct evloop	*loop;

	if ((loop = calloc(1, sizeof(*loop))) == NULL)
		return NULL;
	if ((loop->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		free(loop);
		return NULL;
	}
	sigemptyset(&loop->sigmask);
	return loop;
}

static void
reap(struct evloop *loop)
{
	struct ev_src	*s;

	while ((s = loop->dead) != NULL) {
		loop->dead = s->next_dead;
		free(s);
	}
}

static void
kill_src(struct evloop *loop, struct ev_src *s)
{
	epoll_ctl(loop->epfd, EPOLL_CTL_DEL, s->fd, NULL);
	s->dead = true;
	s->next_dead = loop->dead;
	loop->dead = s;
}

void
ev_free(struct evloop *loop)
{
	size_t	i;

	if (loop == NULL)
		return;
	for (i = 0; i < loop->nfds; i++)
		if (loop->fds[i] != NULL)
			kill_src(loop, loop->fds[i]);
	if (loop->sigsrc != NULL) {
		close(loop->sigsrc->fd);
		kill_src(loop, loop->sigsrc);
	}
	reap(loop);
	free(loop->fds);
	close(loop->epfd);
	free(loop);
}

static int
src_register(struct evloop *loop, struct ev_src *s, uint32_t events)
{
	struct epoll_event	ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.ptr = s;
	s->loop = loop;
	return epoll_ctl(loop->epfd, EPOLL_CTL_ADD, s->fd, &ev);
}

static int
src_update(struct ev_src *s)
{
	struct epoll_event	ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = (s->paused ? 0 : EPOLLIN) | (s->want_write ? EPOLLOUT : 0);
	ev.data.ptr = s;
	return epoll_ctl(s->loop->epfd, EPOLL_CTL_MOD, s->fd, &ev);
}

int
ev_fd_add(struct evloop *loop, int fd, ev_fd_cb cb, void *arg)
{
	struct ev_src	*s, **grown;
	size_t		 n;

	if (fd < 0)
		return -1;
	if ((size_t)fd >= loop->nfds) {
		n = (size_t)fd + 64;
		if ((grown = realloc(loop->fds, n * sizeof(*grown))) == NULL)
			return -1;
		memset(grown + loop->nfds, 0, (n - loop->nfds) * sizeof(*grown));
		loop->fds = grown;
		loop->nfds = n;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return -1;
	s->kind = SRC_FD;
	s->fd = fd;
	s->fd_cb = cb;
	s->arg = arg;
	if (src_register(loop, s, EPOLLIN) == -1) {
		free(s);
		return -1;
	}
	loop->fds[fd] = s;
	return 0;
}

static struct ev_src *
fd_src(struct evloop *loop, int fd)
{
	return fd >= 0 && (size_t)fd < loop->nfds ? loop->fds[fd] : NULL;
}

int
ev_fd_want_write(struct evloop *loop, int fd, bool on)
{
	struct ev_src	*s = fd_src(loop, fd);

	if (s == NULL)
		return -1;
	if (s->want_write == on)
		return 0;
	s->want_write = on;
	return src_update(s);
}

int
ev_fd_pause(struct evloop *loop, int fd, bool paused)
{
	struct ev_src	*s = fd_src(loop, fd);

	if (s == NULL)
		return -1;
	if (s->paused == paused)
		return 0;
	s->paused = paused;
	return src_update(s);
}

/* The caller closes fd after this. */
void
ev_fd_del(struct evloop *loop, int fd)
{
	struct ev_src	*s = fd_src(loop, fd);

	if (s == NULL)
		return;
	loop->fds[fd] = NULL;
	kill_src(loop, s);
}

struct ev_timer *
ev_timer_new(struct evloop *loop, ev_cb cb, void *arg)
{
	struct ev_timer	*t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->src.kind = SRC_TIMER;
	t->src.cb = cb;
	t->src.arg = arg;
	t->src.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (t->src.fd == -1 || src_register(loop, &t->src, EPOLLIN) == -1) {
		if (t->src.fd != -1)
			close(t->src.fd);
		free(t);
		return NULL;
	}
	return t;
}

int
ev_timer_start(struct ev_timer *t, unsigned ms, bool periodic)
{
	struct itimerspec	its;

	memset(&its, 0, sizeof(its));
	if (ms == 0)
		ms = 1;		/* zero would disarm */
	its.it_value.tv_sec = ms / 1000;
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
	if (periodic)
		its.it_interval = its.it_value;
	return timerfd_settime(t->src.fd, 0, &its, NULL);
}

/*
 * timerfd_settime takes no slack: fs/timerfd.c arms its hrtimer with
 * hrtimer_start(), no range, and the task's timer_slack_ns widens only
 * the task's own sleeps (fs/select.c, select_estimate_accuracy, for
 * poll and epoll_wait timeouts).  The timer fires on time.
 */
int
ev_timer_start_lax(struct ev_timer *t, unsigned ms, unsigned leeway_ms)
{
	(void)leeway_ms;
	return ev_timer_start(t, ms, false);
}

void
ev_timer_stop(struct ev_timer *t)
{
	struct itimerspec	its;

	memset(&its, 0, sizeof(its));
	timerfd_settime(t->src.fd, 0, &its, NULL);
}

void
ev_timer_free(struct ev_timer *t)
{
	if (t == NULL)
		return;
	close(t->src.fd);
	kill_src(t->src.loop, &t->src);
}

/*
 * All signals share one signalfd; they are blocked so that nothing runs in
 * a signal handler and delivery waits for the loop.
 */
int
ev_signal(struct evloop *loop, int signo, ev_cb cb, void *arg)
{
	struct ev_src	*s = loop->sigsrc;

	if (loop->nsigs == EV_MAX_SIGNALS)
		return -1;
	sigaddset(&loop->sigmask, signo);
	if (sigprocmask(SIG_BLOCK, &loop->sigmask, NULL) == -1)
		return -1;
	if (s == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL)
			return -1;
		s->kind = SRC_SIGNALS;
		s->fd = signalfd(-1, &loop->sigmask, SFD_NONBLOCK | SFD_CLOEXEC);
		if (s->fd == -1 || src_register(loop, s, EPOLLIN) == -1) {
			free(s);
			return -1;
		}
		loop->sigsrc = s;
	} else if (signalfd(s->fd, &loop->sigmask, 0) == -1)
		return -1;
	loop->sigs[loop->nsigs].signo = signo;
	loop->sigs[loop->nsigs].cb = cb;
	loop->sigs[loop->nsigs].arg = arg;
	loop->nsigs++;
	return 0;
}

static void
dispatch_signals(struct evloop *loop)
{
	struct signalfd_siginfo	info;
	int			i;

	while (read(loop->sigsrc->fd, &info, sizeof(info)) ==
	    (ssize_t)sizeof(info))
		for (i = 0; i < loop->nsigs; i++)
			if (loop->sigs[i].signo == (int)info.ssi_signo)
				loop->sigs[i].cb(loop->sigs[i].arg);
}

/*
 * Editors replace a file by renaming a new one over it, which a watch on
 * the file itself would lose; so the directory is watched and events are
 * filtered by name.
 */
struct ev_watch *
ev_watch_file(struct evloop *loop, const char *path, ev_cb cb, void *arg)
{
	struct ev_watch	*w;
	char		 dir[PATH_MAX];
	const char	*slash = strrchr(path, '/');

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	if (slash == NULL) {
		tt_strlcpy(dir, ".", sizeof(dir));
		tt_strlcpy(w->name, path, sizeof(w->name));
	} else {
		tt_snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) ?
		    (int)(slash - path) : 1, path);
		tt_strlcpy(w->name, slash + 1, sizeof(w->name));
	}
	w->src.kind = SRC_WATCH;
	w->src.cb = cb;
	w->src.arg = arg;
	w->src.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->src.fd == -1)
		goto fail;
	w->wd = inotify_add_watch(w->src.fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO |
	    IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY);
	if (w->wd == -1 || src_register(loop, &w->src, EPOLLIN) == -1)
		goto fail;
	return w;
fail:
	if (w->src.fd != -1)
		close(w->src.fd);
	free(w);
	return NULL;
}

static void
dispatch_watch(struct ev_watch *w)
{
	union {				/* aligned for the events */
		struct inotify_event	ev;
		char			bytes[4096];
	}			 u;
	char			*buf = u.bytes;
	const struct inotify_event *ie;
	ssize_t			 n;
	char			*p;
	bool			 hit = false;

	while ((n = read(w->src.fd, buf, sizeof(u))) > 0)
		for (p = buf; p < buf + n; p += sizeof(*ie) + ie->len) {
			ie = (const struct inotify_event *)p;
			if ((ie->mask & IN_Q_OVERFLOW) ||
			    (ie->len > 0 && strcmp(ie->name, w->name) == 0))
				hit = true;
		}
	if (hit)
		w->src.cb(w->src.arg);
}

void
ev_watch_free(struct ev_watch *w)
{
	if (w == NULL)
		return;
	close(w->src.fd);
	kill_src(w->src.loop, &w->src);
}

static void
dispatch(struct evloop *loop, struct ev_src *s, uint32_t events)
{
	uint64_t	ticks;

	if (s->dead)
		return;
	switch (s->kind) {
	case SRC_FD:
		s->fd_cb(s->fd, (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) != 0,
		    (events & EPOLLOUT) != 0, s->arg);
		break;
	case SRC_TIMER:
		if (read(s->fd, &ticks, sizeof(ticks)) == (ssize_t)sizeof(ticks))
			s->cb(s->arg);
		break;
	case SRC_SIGNALS:
		dispatch_signals(loop);
		break;
	case SRC_WATCH:
		dispatch_watch((struct ev_watch *)s);
		break;
	}
}

int
ev_backend_wait(struct evloop *loop)
{
	return epoll_wait(loop->epfd, loop->batch, EV_BATCH, -1);
}

void
ev_backend_dispatch(struct evloop *loop, int i)
{
	dispatch(loop, loop->batch[i].data.ptr, loop->batch[i].events);
}

/* Sources freed during the batch go now, when no event can name them. */
void
ev_backend_batch_end(struct evloop *loop)
{
	reap(loop);
}
