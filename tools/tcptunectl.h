/*
 * tcptunectl: the control tool's private interfaces, grouped by file.
 */
#ifndef TCPTUNECTL_H
#define TCPTUNECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tcptune.h"
#include "proto.h"
#include "advise.h"

/* Exit status, documented in --help and tcptunectl(8). */
enum ctl_exit {
	CTL_OK = 0,		/* success; status: every key in force */
	CTL_FAIL = 1,		/* not in force, rejected, errors, failed */
	CTL_UNREACHABLE = 2,	/* no daemon on the socket, or no reply */
	CTL_DENIED = 3,		/* the request needs root */
	CTL_PROTOCOL = 4,	/* bad reply, version mismatch */
	CTL_USAGE = 64		/* as sysexits.h EX_USAGE */
};

/* Seconds to wait for each part of a reply; a reload applies keys first. */
#define CTL_TIMEOUT_SEC		10
/* Bounds on what a reply may hold, so a broken daemon cannot exhaust us. */
#define CTL_MAX_KEYS		TT_MAX_KEYS
#define CTL_MAX_ERRORS		10000

/* One complete, validated reply stream. */
struct reply {
	uint32_t		 request;	/* MSG_STATUS, ... */
	struct msg_daemon_info	 info;		/* status */
	struct msg_key_status	*keys;		/* status, in plan order */
	size_t			 nkeys;
	struct msg_config_error	*errors;	/* reload */
	size_t			 nerrors;
	struct msg_result	 result;	/* reload, restore, resume */
};

/* tcptunectl.c: messages prefixed "tcptunectl: ", to stderr. */
void	 ctl_warn(const char *, ...) TT_PRINTF(1, 2);
void	 ctl_warnx(const char *, ...) TT_PRINTF(1, 2);

/* client.c */
int	 client_request(const char *, uint32_t, struct reply *);
int	 client_open(const char *, int *);
int	 client_exchange(int, const char *, uint32_t, const void *, size_t,
	    struct reply *);
void	 reply_free(struct reply *);
bool	 reply_all_in_force(const struct reply *);

/* output.c: one back-end per format, as bgpctl's struct output. */
struct output {
	void	(*status)(const struct reply *);
	void	(*result)(const char *, const struct reply *);
	void	(*version)(void);
	void	(*advise)(FILE *, const struct advice *);
};
extern const struct output	text_output;
extern const struct output	json_output;

/* advise.c */
int	 advise_run(const struct advise_args *, const struct output *);

#endif /* TCPTUNECTL_H */
