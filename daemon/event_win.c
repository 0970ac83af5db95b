/*
 * The event loop on Windows (event.h), over WaitForMultipleObjects: each
 * source is a kernel object that becomes signalled, as in libuv's
 * src/win loop and OpenVPN's interactive service.
 *   timers       waitable timers (CreateWaitableTimerExW, synchronization
 *                kind, so each expiry wakes the loop once), periodic by
 *                SetWaitableTimer's lPeriod;
 *   file watch   FindFirstChangeNotificationW on the file's directory
 *                (names, writes, sizes, security), re-armed with
 *                FindNextChangeNotification; it fires for any entry of
 *                the directory, callers debounce and compare contents;
 *   handles      anything else signalled: the service's stop and reload
 *                events (supervisor_win.c), the pipe's overlapped events
 *                (control_pipe_win.c).
 * Descriptors (ev_fd_*) and signals (ev_signal) do not exist here: they
 * fail with ENOSYS, and nothing in the Windows build calls them.  At most
 * MAXIMUM_WAIT_OBJECTS (64) sources; the wait starts at a rotating index
 * so a source that is always ready cannot starve the others.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

#include "tcptuned.h"
#include "event_backend.h"
#include "win.h"

struct source {
	HANDLE		 h;
	ev_cb		 cb;
	void		*arg;
	bool		 dead;
};

struct evloop {
	struct ev_core	 core;		/* first: event_backend.h */
	struct source	 src[MAXIMUM_WAIT_OBJECTS];
	size_t		 n;
	size_t		 rotate;
	size_t		 ready;		/* the source the wait returned */
	bool		 dispatching;
};

struct ev_timer {
	struct evloop	*loop;
	HANDLE		 h;
	ev_cb		 cb;
	void		*arg;
	bool		 armed;
};

struct ev_watch {
	struct evloop	*loop;
	HANDLE		 h;
	ev_cb		 cb;
	void		*arg;
};

struct evloop *
ev_new(void)
{
	return calloc(1, sizeof(struct evloop));
}

void
ev_free(struct evloop *loop)
{
	free(loop);
}

int
ev_handle_add(struct evloop *loop, void *h, ev_cb cb, void *arg)
{
	if (loop->n == MAXIMUM_WAIT_OBJECTS) {
		errno = EMFILE;
		return -1;
	}
	loop->src[loop->n].h = h;
	loop->src[loop->n].cb = cb;
	loop->src[loop->n].arg = arg;
	loop->src[loop->n].dead = false;
	loop->n++;
	return 0;
}

static void
compact(struct evloop *loop)
{
	size_t	i, j = 0;

	for (i = 0; i < loop->n; i++)
		if (!loop->src[i].dead)
			loop->src[j++] = loop->src[i];
	loop->n = j;
}

/* Safe from a callback: the entry is dropped after the dispatch. */
void
ev_handle_del(struct evloop *loop, void *h)
{
	size_t	i;

	for (i = 0; i < loop->n; i++)
		if (loop->src[i].h == h)
			loop->src[i].dead = true;
	if (!loop->dispatching)
		compact(loop);
}

/* One source at a time: the wait names one signalled object. */
int
ev_backend_wait(struct evloop *loop)
{
	HANDLE	hs[MAXIMUM_WAIT_OBJECTS];
	size_t	map[MAXIMUM_WAIT_OBJECTS], i, k, n = 0;
	DWORD	r;

	for (k = 0; k < loop->n; k++) {
		i = (k + loop->rotate) % loop->n;
		hs[n] = loop->src[i].h;
		map[n++] = i;
	}
	if (n == 0) {
		errno = EINVAL;
		return -1;
	}
	r = WaitForMultipleObjects((DWORD)n, hs, FALSE, INFINITE);
	if (r >= WAIT_OBJECT_0 + n) {
		errno = win_errno(GetLastError());
		return -1;
	}
	loop->ready = map[r - WAIT_OBJECT_0];
	loop->rotate = (loop->ready + 1) % loop->n;
	return 1;
}

void
ev_backend_dispatch(struct evloop *loop, int i)
{
	struct source	*s = &loop->src[loop->ready];

	(void)i;
	loop->dispatching = true;
	if (!s->dead)
		s->cb(s->arg);
	loop->dispatching = false;
}

/* Sources deleted by the callback go now. */
void
ev_backend_batch_end(struct evloop *loop)
{
	compact(loop);
}

/* ---- not on Windows */

int
ev_fd_add(struct evloop *loop, int fd, ev_fd_cb cb, void *arg)
{
	(void)loop; (void)fd; (void)cb; (void)arg;
	errno = ENOSYS;
	return -1;
}

int
ev_fd_want_write(struct evloop *loop, int fd, bool on)
{
	(void)loop; (void)fd; (void)on;
	errno = ENOSYS;
	return -1;
}

int
ev_fd_pause(struct evloop *loop, int fd, bool paused)
{
	(void)loop; (void)fd; (void)paused;
	errno = ENOSYS;
	return -1;
}

void
ev_fd_del(struct evloop *loop, int fd)
{
	(void)loop; (void)fd;
}

int
ev_signal(struct evloop *loop, int sig, ev_cb cb, void *arg)
{
	(void)loop; (void)sig; (void)cb; (void)arg;
	errno = ENOSYS;
	return -1;
}

/* ---- timers */

static void
timer_fired(void *arg)
{
	struct ev_timer	*t = arg;

	t->cb(t->arg);
}

struct ev_timer *
ev_timer_new(struct evloop *loop, ev_cb cb, void *arg)
{
	struct ev_timer	*t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->loop = loop;
	t->cb = cb;
	t->arg = arg;
	t->h = CreateWaitableTimerExW(NULL, NULL, 0, TIMER_ALL_ACCESS);
	if (t->h == NULL || ev_handle_add(loop, t->h, timer_fired, t) == -1) {
		if (t->h != NULL)
			CloseHandle(t->h);
		free(t);
		return NULL;
	}
	return t;
}

/* A relative due time is negative, in 100 ns units (SetWaitableTimer). */
int
ev_timer_start(struct ev_timer *t, unsigned ms, bool periodic)
{
	LARGE_INTEGER	due;

	due.QuadPart = -(LONGLONG)ms * 10000;
	if (!SetWaitableTimer(t->h, &due, periodic ? (LONG)ms : 0, NULL, NULL,
	    FALSE)) {
		errno = win_errno(GetLastError());
		return -1;
	}
	t->armed = true;
	return 0;
}

/*
 * SetWaitableTimerEx's TolerableDelay, in ms: "the tolerable delay for
 * expiration time", which lets the system coalesce the expiry with other
 * timers' (learn.microsoft.com, synchapi.h, SetWaitableTimerEx; Windows 7
 * and later).  No wake context: the timer does not wake a sleeping
 * machine, as SetWaitableTimer's fResume FALSE above.
 */
int
ev_timer_start_lax(struct ev_timer *t, unsigned ms, unsigned leeway_ms)
{
	LARGE_INTEGER	due;

	due.QuadPart = -(LONGLONG)ms * 10000;
	if (!SetWaitableTimerEx(t->h, &due, 0, NULL, NULL, NULL,
	    (ULONG)leeway_ms)) {
		errno = win_errno(GetLastError());
		return -1;
	}
	t->armed = true;
	return 0;
}

void
ev_timer_stop(struct ev_timer *t)
{
	if (t->armed)
		CancelWaitableTimer(t->h);
	t->armed = false;
}

void
ev_timer_free(struct ev_timer *t)
{
	if (t == NULL)
		return;
	ev_handle_del(t->loop, t->h);
	CloseHandle(t->h);
	free(t);
}

/* ---- the config file's directory */

static void
watch_fired(void *arg)
{
	struct ev_watch	*w = arg;

	FindNextChangeNotification(w->h);
	w->cb(w->arg);
}

struct ev_watch *
ev_watch_file(struct evloop *loop, const char *path, ev_cb cb, void *arg)
{
	struct ev_watch	*w;
	wchar_t		 dir[TT_WPATH_MAX], *sep;

	if (win_wpath(path, dir, TT_WPATH_MAX) == -1)
		return NULL;
	sep = wcsrchr(dir, L'\\');
	if (sep == NULL || (wcsrchr(dir, L'/') != NULL &&
	    wcsrchr(dir, L'/') > sep))
		sep = wcsrchr(dir, L'/');
	if (sep == NULL)
		wcscpy(dir, L".");
	else
		*sep = L'\0';
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->loop = loop;
	w->cb = cb;
	w->arg = arg;
	w->h = FindFirstChangeNotificationW(dir, FALSE,
	    FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_LAST_WRITE |
	    FILE_NOTIFY_CHANGE_SIZE | FILE_NOTIFY_CHANGE_SECURITY);
	if (w->h == INVALID_HANDLE_VALUE) {
		errno = win_errno(GetLastError());
		free(w);
		return NULL;
	}
	if (ev_handle_add(loop, w->h, watch_fired, w) == -1) {
		FindCloseChangeNotification(w->h);
		free(w);
		return NULL;
	}
	return w;
}

void
ev_watch_free(struct ev_watch *w)
{
	if (w == NULL)
		return;
	ev_handle_del(w->loop, w->h);
	FindCloseChangeNotification(w->h);
	free(w);
}
