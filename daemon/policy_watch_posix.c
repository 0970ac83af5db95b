/*
 * No registry on Unix: the managed preferences file is watched as a file
 * (tcptuned.c).  policy_watch_win.c is the Windows side.
 */
#include "config.h"

#include <stddef.h>

#include "tcptuned.h"

struct policy_watch *
policy_watch_new(struct evloop *loop, void (*cb)(void *), void *arg)
{
	(void)loop;
	(void)cb;
	(void)arg;
	return NULL;
}

void
policy_watch_free(struct policy_watch *w)
{
	(void)w;
}
