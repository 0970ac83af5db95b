/*
 * What event_common.c needs of the event loop's backends (event_linux.c,
 * event_bsd.c, event_win.c): each waits for its kernel's events and
 * dispatches them; the loop around the wait, ev_stop() and ev_turn() are
 * the same for all and live in event_common.c.
 */
#ifndef TCPTUNE_EVENT_BACKEND_H
#define TCPTUNE_EVENT_BACKEND_H

#include <stdbool.h>

#include "event.h"

/*
 * Every backend's struct evloop begins with this, so a pointer to the
 * loop, converted, points to it (C11 6.7.2.1p15: a pointer to a
 * structure points to its initial member).
 */
struct ev_core {
	bool		 stop;		/* ev_stop(): end this batch */
	unsigned long	 turn;		/* wake-ups so far */
};

/* Sleep until events come: how many (> 0), or -1 with errno (EINTR: again). */
int	ev_backend_wait(struct evloop *);
/* The i-th event of the batch ev_backend_wait gave. */
void	ev_backend_dispatch(struct evloop *, int);
/* After the batch, or the part of it before ev_stop(). */
void	ev_backend_batch_end(struct evloop *);

#endif /* TCPTUNE_EVENT_BACKEND_H */
