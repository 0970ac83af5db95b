/*
 * The event loop of macOS and FreeBSD: one kqueue for fds, timers, signals
 * and the config file watch, so the loop sleeps in one kevent(2) until
 * something is due.  Same behaviour as event_linux.c: callbacks run from
 * ev_run() only, ev_stop() ends the current batch, the loop owns fds and
 * signals while callers own their timers and watches.
 *
 * A source freed from a callback may still have events further on in the
 * batch kevent(2) returned; they are scrubbed from it before the free, so
 * nothing is kept alive for later.
 */
#ifdef HAVE_CONFIG_H		/* none in tests/lint/bsd_compile.sh */
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/event.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptune.h"
#include "event_backend.h"

#define EV_BATCH	64

/*
 * Timers on xnu run on mach_absolute_time, which stops while the Mac
 * sleeps, unless NOTE_MACH_CONTINUOUS_TIME asks for the continuous clock
 * (bsd/sys/event.h; bsd/kern/kern_event.c, filt_timerarm sets
 * THREAD_CALL_CONTINUOUS for it).  A check due during sleep then runs on
 * wake.  The timer's data is in milliseconds when no unit flag is given,
 * on both kernels (kqueue(2)).
 */
#ifdef NOTE_MACH_CONTINUOUS_TIME
#define EV_TIMER_FFLAGS	NOTE_MACH_CONTINUOUS_TIME
#else
#define EV_TIMER_FFLAGS	0
#endif

/*
 * O_EVTONLY (macOS, bsd/sys/fcntl.h) opens for event notification only:
 * the watch does not keep a volume from unmounting.
 */
#ifdef O_EVTONLY
#define EV_WATCH_OPEN	O_EVTONLY
#else
#define EV_WATCH_OPEN	O_RDONLY
#endif

#define EV_FILE_NOTES	(NOTE_DELETE | NOTE_RENAME | NOTE_WRITE | \
			    NOTE_EXTEND | NOTE_ATTRIB)

struct ev_fd {
	int		 fd;
	ev_fd_cb	 cb;
	void		*arg;
	bool		 want_write;
	bool		 paused;
	struct ev_fd	*next;
};

struct ev_timer {
	struct evloop	*loop;
	ev_cb		 cb;
	void		*arg;
	bool		 armed;
	bool		 periodic;
};

struct ev_sig {
	int		 signo;
	ev_cb		 cb;
	void		*arg;
	struct ev_sig	*next;
};

struct ev_watch {
	struct evloop	*loop;
	ev_cb		 cb;
	void		*arg;
	char		 path[PATH_MAX];
	int		 fd;		/* the file, -1 while it is missing */
	int		 dfd;		/* its directory */
	dev_t		 dev;		/* which file fd is */
	ino_t		 ino;
};

struct evloop {
	struct ev_core	 core;		/* first: event_backend.h */
	int		 kq;
	struct ev_fd	*fds;
	struct ev_sig	*sigs;
	struct kevent	 batch[EV_BATCH];	/* the last kevent(2)'s */
	int		 nbatch;	/* while it is dispatched, else 0 */
	int		 cur;
};

static int
kq_change(struct evloop *loop, uintptr_t ident, int filter, unsigned flags,
    unsigned fflags, intptr_t data, void *udata)
{
	struct kevent	kev;

	EV_SET(&kev, ident, filter, flags, fflags, data, udata);
	return kevent(loop->kq, &kev, 1, NULL, 0, NULL);
}

/* Drop the rest of the batch's events for a source about to go away. */
static void
scrub(struct evloop *loop, const void *udata)
{
	int	i;

	for (i = loop->cur + 1; i < loop->nbatch; i++)
		if (loop->batch[i].udata == udata)
			loop->batch[i].udata = NULL;
}

struct evloop *
ev_new(void)
{
	struct evloop	*loop;

	if ((loop = calloc(1, sizeof(*loop))) == NULL)
		return NULL;
	/* macOS has no kqueue1(); the flag keeps it from exec'd children. */
	if ((loop->kq = kqueue()) == -1 ||
	    fcntl(loop->kq, F_SETFD, FD_CLOEXEC) == -1) {
		if (loop->kq != -1)
			close(loop->kq);
		free(loop);
		return NULL;
	}
	return loop;
}

void
ev_free(struct evloop *loop)
{
	struct ev_fd	*f;
	struct ev_sig	*s;

	if (loop == NULL)
		return;
	while ((f = loop->fds) != NULL) {
		loop->fds = f->next;
		free(f);
	}
	while ((s = loop->sigs) != NULL) {
		loop->sigs = s->next;
		free(s);
	}
	close(loop->kq);	/* drops every knote with it */
	free(loop);
}

/* ---- fds */

static struct ev_fd *
fd_find(struct evloop *loop, int fd)
{
	struct ev_fd	*f;

	for (f = loop->fds; f != NULL; f = f->next)
		if (f->fd == fd)
			return f;
	return NULL;
}

int
ev_fd_add(struct evloop *loop, int fd, ev_fd_cb cb, void *arg)
{
	struct ev_fd	*f;

	if (fd < 0 || fd_find(loop, fd) != NULL) {
		errno = fd < 0 ? EBADF : EEXIST;
		return -1;
	}
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	f->fd = fd;
	f->cb = cb;
	f->arg = arg;
	if (kq_change(loop, (uintptr_t)fd, EVFILT_READ, EV_ADD, 0, 0, f) ==
	    -1) {
		free(f);
		return -1;
	}
	f->next = loop->fds;
	loop->fds = f;
	return 0;
}

/* EVFILT_WRITE exists only while wanted: a listening socket never has it. */
int
ev_fd_want_write(struct evloop *loop, int fd, bool on)
{
	struct ev_fd	*f = fd_find(loop, fd);

	if (f == NULL)
		return -1;
	if (f->want_write == on)
		return 0;
	if (kq_change(loop, (uintptr_t)fd, EVFILT_WRITE,
	    on ? EV_ADD | EV_ENABLE : EV_DELETE, 0, 0, f) == -1 &&
	    (on || errno != ENOENT))
		return -1;
	f->want_write = on;
	return 0;
}

int
ev_fd_pause(struct evloop *loop, int fd, bool paused)
{
	struct ev_fd	*f = fd_find(loop, fd);

	if (f == NULL)
		return -1;
	if (f->paused == paused)
		return 0;
	if (kq_change(loop, (uintptr_t)fd, EVFILT_READ,
	    paused ? EV_DISABLE : EV_ENABLE, 0, 0, f) == -1)
		return -1;
	f->paused = paused;
	return 0;
}

/* The caller closes fd after this; closing would drop the knotes anyway. */
void
ev_fd_del(struct evloop *loop, int fd)
{
	struct ev_fd	**fp, *f;

	for (fp = &loop->fds; (f = *fp) != NULL; fp = &f->next)
		if (f->fd == fd)
			break;
	if (f == NULL)
		return;
	*fp = f->next;
	kq_change(loop, (uintptr_t)fd, EVFILT_READ, EV_DELETE, 0, 0, NULL);
	if (f->want_write)
		kq_change(loop, (uintptr_t)fd, EVFILT_WRITE, EV_DELETE, 0, 0,
		    NULL);
	scrub(loop, f);
	free(f);
}

static void
dispatch_fd(const struct kevent *kev)
{
	struct ev_fd	*f = kev->udata;

	/* EOF and errors show on the read filter: read(2) reports them. */
	f->cb(f->fd, kev->filter == EVFILT_READ, kev->filter == EVFILT_WRITE,
	    f->arg);
}

/* ---- timers: the ident is the timer's address, unique while it lives */

struct ev_timer *
ev_timer_new(struct evloop *loop, ev_cb cb, void *arg)
{
	struct ev_timer	*t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->loop = loop;
	t->cb = cb;
	t->arg = arg;
	return t;
}

void
ev_timer_stop(struct ev_timer *t)
{
	if (t->armed)
		kq_change(t->loop, (uintptr_t)t, EVFILT_TIMER, EV_DELETE, 0, 0,
		    NULL);
	t->armed = false;
	/* An expiry already fetched must not fire after the stop. */
	scrub(t->loop, t);
}

/*
 * Deleting first makes a restart count from now on every kernel, rather
 * than leaning on how each one treats EV_ADD of a running timer.
 */
int
ev_timer_start(struct ev_timer *t, unsigned ms, bool periodic)
{
	unsigned	flags = EV_ADD | (periodic ? 0 : EV_ONESHOT);

	ev_timer_stop(t);
	if (ms == 0)
		ms = 1;		/* as event_linux.c: zero means soon */
	if (kq_change(t->loop, (uintptr_t)t, EVFILT_TIMER, flags,
	    EV_TIMER_FFLAGS, (intptr_t)ms, t) == -1)
		return -1;
	t->armed = true;
	t->periodic = periodic;
	return 0;
}

/*
 * macOS: NOTE_LEEWAY, "ext[1] holds leeway for power aware timers"
 * (xnu bsd/sys/event.h), in the data's unit, ms here (bsd/kern/
 * kern_event.c, filt_timervalidate); ext[] is only in struct kevent64_s,
 * hence kevent64() for this one change.  FreeBSD's kqueue(2) has no such
 * flag: the timer fires on time.
 */
#if defined(NOTE_LEEWAY) && defined(EV_SET64)
static int
kq_timer_lax(struct ev_timer *t, unsigned ms, unsigned leeway_ms)
{
	struct kevent64_s	kev;

	EV_SET64(&kev, (uint64_t)(uintptr_t)t, EVFILT_TIMER,
	    EV_ADD | EV_ONESHOT, EV_TIMER_FFLAGS | NOTE_LEEWAY, (int64_t)ms,
	    (uint64_t)(uintptr_t)t, 0, (uint64_t)leeway_ms);
	return kevent64(t->loop->kq, &kev, 1, NULL, 0, 0, NULL);
}
#else
static int
kq_timer_lax(struct ev_timer *t, unsigned ms, unsigned leeway_ms)
{
	(void)leeway_ms;
	return kq_change(t->loop, (uintptr_t)t, EVFILT_TIMER,
	    EV_ADD | EV_ONESHOT, EV_TIMER_FFLAGS, (intptr_t)ms, t);
}
#endif

int
ev_timer_start_lax(struct ev_timer *t, unsigned ms, unsigned leeway_ms)
{
	ev_timer_stop(t);
	if (ms == 0)
		ms = 1;		/* as ev_timer_start */
	if (kq_timer_lax(t, ms, leeway_ms) == -1)
		return -1;
	t->armed = true;
	t->periodic = false;
	return 0;
}

void
ev_timer_free(struct ev_timer *t)
{
	if (t == NULL)
		return;
	ev_timer_stop(t);
	free(t);
}

static void
dispatch_timer(struct ev_timer *t)
{
	if (!t->armed)
		return;
	if (!t->periodic)
		t->armed = false;	/* EV_ONESHOT removed the knote */
	t->cb(t->arg);
}

/* ---- signals */

static bool
signal_known(struct evloop *loop, int signo)
{
	struct ev_sig	*s;

	for (s = loop->sigs; s != NULL; s = s->next)
		if (s->signo == signo)
			return true;
	return false;
}

/*
 * EVFILT_SIGNAL sees a signal even when it is ignored: xnu posts the note
 * before it discards an ignored signal (bsd/kern/kern_sig.c,
 * psignal_internal), as FreeBSD does (kqueue(2)).  So the signal is set to
 * SIG_IGN and no handler ever runs, except SIGCHLD, which SIG_IGN would
 * hide from the filter (kqueue(2)) and whose default already ignores it.
 */
static int
signal_take(struct evloop *loop, int signo, struct ev_sig *s)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signo == SIGCHLD ? SIG_DFL : SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, NULL) == -1)
		return -1;
	return kq_change(loop, (uintptr_t)signo, EVFILT_SIGNAL, EV_ADD, 0, 0,
	    s);
}

int
ev_signal(struct evloop *loop, int signo, ev_cb cb, void *arg)
{
	struct ev_sig	*s, **tail;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return -1;
	s->signo = signo;
	s->cb = cb;
	s->arg = arg;
	if (!signal_known(loop, signo) && signal_take(loop, signo, s) == -1) {
		free(s);
		return -1;
	}
	for (tail = &loop->sigs; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = s;
	return 0;
}

/* Every callback given for the signal, in the order they were added. */
static void
dispatch_signal(struct evloop *loop, int signo)
{
	struct ev_sig	*s;

	for (s = loop->sigs; s != NULL; s = s->next)
		if (s->signo == signo)
			s->cb(s->arg);
}

/* ---- the config file watch */

static void
watch_close_file(struct ev_watch *w)
{
	if (w->fd != -1)
		close(w->fd);	/* its knote goes with it */
	w->fd = -1;
}

/* Open the file at the path, if there is one now, and watch it. */
static void
watch_open_file(struct ev_watch *w)
{
	struct stat	st;

	w->fd = open(w->path, EV_WATCH_OPEN | O_CLOEXEC);
	if (w->fd == -1)
		return;
	if (fstat(w->fd, &st) == -1 ||
	    kq_change(w->loop, (uintptr_t)w->fd, EVFILT_VNODE,
	    EV_ADD | EV_CLEAR, EV_FILE_NOTES, 0, w) == -1) {
		watch_close_file(w);
		return;
	}
	w->dev = st.st_dev;
	w->ino = st.st_ino;
}

/*
 * The directory changed: some name in it came, went or was renamed.  It
 * matters only when the path now names another file than the one open,
 * or one has appeared where there was none.
 */
static bool
watch_recheck(struct ev_watch *w)
{
	struct stat	st;
	bool		present = stat(w->path, &st) == 0;

	if (w->fd == -1 && !present)
		return false;
	if (w->fd != -1 && present && st.st_dev == w->dev &&
	    st.st_ino == w->ino)
		return false;
	watch_close_file(w);
	watch_open_file(w);
	return true;
}

/*
 * The file itself changed.  After a delete or rename (an editor's save
 * renames a new file over it) the path is opened again, since it may
 * already name the new file; if not, the directory says when it comes.
 */
static void
watch_file_event(struct ev_watch *w, unsigned fflags)
{
	if (fflags & (NOTE_DELETE | NOTE_RENAME)) {
		watch_close_file(w);
		watch_open_file(w);
	}
}

static void
dispatch_watch(struct ev_watch *w, const struct kevent *kev)
{
	if (w->fd != -1 && kev->ident == (uintptr_t)w->fd)
		watch_file_event(w, kev->fflags);
	else if (!watch_recheck(w))
		return;
	w->cb(w->arg);
}

static int
watch_open_dir(struct ev_watch *w)
{
	char		 dir[PATH_MAX];
	const char	*slash = strrchr(w->path, '/');

	if (slash == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else if (tt_snprintf(dir, sizeof(dir), "%.*s",
	    slash == w->path ? 1 : (int)(slash - w->path), w->path) == -1)
		return -1;
	w->dfd = open(dir, EV_WATCH_OPEN | O_DIRECTORY | O_CLOEXEC);
	if (w->dfd == -1)
		return -1;
	return kq_change(w->loop, (uintptr_t)w->dfd, EVFILT_VNODE,
	    EV_ADD | EV_CLEAR, NOTE_WRITE, 0, w);
}

/*
 * The file is watched for changes and its directory for the file being
 * replaced, removed or created; the file need not exist yet.
 */
struct ev_watch *
ev_watch_file(struct evloop *loop, const char *path, ev_cb cb, void *arg)
{
	struct ev_watch	*w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->loop = loop;
	w->cb = cb;
	w->arg = arg;
	w->fd = w->dfd = -1;
	if (tt_strlcpy(w->path, path, sizeof(w->path)) >= sizeof(w->path) ||
	    watch_open_dir(w) == -1) {
		if (w->dfd != -1)
			close(w->dfd);
		free(w);
		return NULL;
	}
	watch_open_file(w);
	return w;
}

void
ev_watch_free(struct ev_watch *w)
{
	if (w == NULL)
		return;
	scrub(w->loop, w);
	watch_close_file(w);
	close(w->dfd);
	free(w);
}

/* ---- the loop */

static void
dispatch(struct evloop *loop, const struct kevent *kev)
{
	if (kev->udata == NULL)		/* scrubbed */
		return;
	switch (kev->filter) {
	case EVFILT_READ:
	case EVFILT_WRITE:
		dispatch_fd(kev);
		break;
	case EVFILT_TIMER:
		dispatch_timer(kev->udata);
		break;
	case EVFILT_SIGNAL:
		dispatch_signal(loop, (int)kev->ident);
		break;
	case EVFILT_VNODE:
		dispatch_watch(kev->udata, kev);
		break;
	default:
		break;
	}
}

int
ev_backend_wait(struct evloop *loop)
{
	int	n = kevent(loop->kq, NULL, 0, loop->batch, EV_BATCH, NULL);

	loop->nbatch = n > 0 ? n : 0;
	return n;
}

void
ev_backend_dispatch(struct evloop *loop, int i)
{
	loop->cur = i;
	dispatch(loop, &loop->batch[i]);
}

/* Nothing is left to scrub until the next batch. */
void
ev_backend_batch_end(struct evloop *loop)
{
	loop->nbatch = loop->cur = 0;
}
