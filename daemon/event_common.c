/*
 * The event loop's part that is the same on every backend: wait, count
 * the wake-up, dispatch the batch until ev_stop(), again (event.h).
 */
#include "config.h"

#include <errno.h>

#include "event_backend.h"

static struct ev_core *
core(struct evloop *loop)
{
	return (struct ev_core *)(void *)loop;
}

int
ev_run(struct evloop *loop)
{
	struct ev_core	*c = core(loop);
	int		 n, i;

	c->stop = false;
	while (!c->stop) {
		n = ev_backend_wait(loop);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		c->turn++;
		for (i = 0; i < n && !c->stop; i++)
			ev_backend_dispatch(loop, i);
		ev_backend_batch_end(loop);
	}
	return 0;
}

void
ev_stop(struct evloop *loop)
{
	core(loop)->stop = true;
}

unsigned long
ev_turn(const struct evloop *loop)
{
	return ((const struct ev_core *)(const void *)loop)->turn;
}
