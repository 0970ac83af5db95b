/*
 * tcptunectl diagnose: one MSG_DIAGNOSE to tcptuned, its reply printed.
 * No root needed: the daemon shows a non-root caller its own
 * connections and counts the others.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "tcptunectl.h"
#include "diagnose/diagnose.h"

/* The reply to one diagnose into *r; CTL_OK, or reported. */
int
diagnose_fetch(const char *socket, bool all, struct reply *r)
{
	struct msg_diagnose	req;

	memset(&req, 0, sizeof(req));
	req.all = all ? 1 : 0;
	return client_request_with(socket, MSG_DIAGNOSE, &req, sizeof(req), r);
}

int
diagnose_run(const struct diagnose_args *a)
{
	struct reply	r;
	int		rv;

	if ((rv = diagnose_fetch(a->socket, a->all, &r)) != CTL_OK)
		return rv;
	a->out->diagnose(stdout, &r);
	reply_free(&r);
	return CTL_OK;
}
