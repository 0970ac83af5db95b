/*
 * A small event loop: fds, timers, signals and a file watch, over kqueue
 * (macOS, FreeBSD: event_bsd.c) or epoll with timerfd, signalfd and
 * inotify (Linux: event_linux.c); on Windows timers, the file watch and
 * kernel handles over WaitForMultipleObjects (event_win.c).  Callbacks run
 * from ev_run() only, never from a signal handler.
 */
#ifndef TCPTUNE_EVENT_H
#define TCPTUNE_EVENT_H

#include <stdbool.h>

struct evloop;
struct ev_timer;
struct ev_watch;

typedef void (*ev_fd_cb)(int fd, bool readable, bool writable, void *arg);
typedef void (*ev_cb)(void *arg);

struct evloop	*ev_new(void);
void		 ev_free(struct evloop *);
int		 ev_run(struct evloop *);	/* until ev_stop(); -1 on error */
void		 ev_stop(struct evloop *);
/*
 * How many times the loop has woken up so far: callbacks of one wake-up
 * see one number, so work they share (one refresh of the live values for
 * a burst of status requests) can be done once for all of them.
 */
unsigned long	 ev_turn(const struct evloop *);

/* Watch fd for reading, and for writing while want_write is set. */
int	 ev_fd_add(struct evloop *, int, ev_fd_cb, void *);
int	 ev_fd_want_write(struct evloop *, int, bool);
int	 ev_fd_pause(struct evloop *, int, bool);	/* stop reading */
void	 ev_fd_del(struct evloop *, int);

/* A timer fires once after ms, or every ms when periodic. */
struct ev_timer	*ev_timer_new(struct evloop *, ev_cb, void *);
int		 ev_timer_start(struct ev_timer *, unsigned, bool);
/*
 * Once, after ms, or up to leeway ms later: the OS may fire it with
 * other wake-ups rather than wake for it alone (macOS: kqueue's
 * NOTE_LEEWAY; Windows: SetWaitableTimerEx's TolerableDelay).  Linux's
 * timerfd and FreeBSD's kqueue take no leeway: there it fires on time.
 */
int		 ev_timer_start_lax(struct ev_timer *, unsigned, unsigned);
void		 ev_timer_stop(struct ev_timer *);
void		 ev_timer_free(struct ev_timer *);

/* The signal is blocked or ignored for the process and delivered here. */
int	 ev_signal(struct evloop *, int, ev_cb, void *);

/*
 * Calls cb when the file at path is written, replaced (an editor's rename),
 * removed or created again.  Callers debounce.
 */
struct ev_watch	*ev_watch_file(struct evloop *, const char *, ev_cb, void *);
void		 ev_watch_free(struct ev_watch *);

#ifdef _WIN32
/*
 * Windows: cb runs each time the kernel object h is signalled (an
 * auto-reset event, a pipe's overlapped event).  ev_handle_del is safe
 * from a callback.
 */
int	 ev_handle_add(struct evloop *, void *, ev_cb, void *);
void	 ev_handle_del(struct evloop *, void *);
#endif

#endif /* TCPTUNE_EVENT_H */
