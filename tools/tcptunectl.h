/*
 * tcptunectl: the control tool's private interfaces, grouped by file.
 */
#ifndef TCPTUNECTL_H
#define TCPTUNECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tcptune.h"
#include "proto.h"

/* Exit status, documented in --help and tcptunectl(8). */
enum ctl_exit {
	CTL_OK = 0,		/* success; status: every key in force */
	CTL_FAIL = 1,		/* not in force, rejected, errors, failed */
	CTL_UNREACHABLE = 2,	/* no daemon on the socket, or no reply */
	CTL_DENIED = 3,		/* the request needs root */
	CTL_PROTOCOL = 4,	/* bad reply, version mismatch */
	/* advise --host as measure (MEX_UNREACHABLE): the host, not tcptuned */
	CTL_HOST_UNREACHABLE = 5,
	CTL_USAGE = 64		/* as sysexits.h EX_USAGE */
};

/*
 * Seconds the whole request may take, connect to the end of the reply;
 * a reload's is TT_RELOAD_WAIT_SEC (proto.h: longer than the daemon's
 * bound on reading the config).  TCPTUNECTL_TIMEOUT overrides both.
 */
#define CTL_TIMEOUT_SEC		10
#define CTL_TIMEOUT_MAX		3600
#define CTL_TIMEOUT_ENV		"TCPTUNECTL_TIMEOUT"
/*
 * The uid the daemon runs as: a server on the socket with any other uid
 * is an impostor.  tcptuned has no unprivileged mode today, so root;
 * only scripts/trips.sh, measuring as a user, builds with the user's.
 */
#ifndef CTL_DAEMON_UID
#define CTL_DAEMON_UID		0
#endif
/* Bounds on what a reply may hold, so a broken daemon cannot exhaust us. */
#define CTL_MAX_KEYS		TT_MAX_KEYS
#define CTL_MAX_ERRORS		10000
#define CTL_MAX_FLOWS		4096

/* One complete, validated reply stream. */
struct reply {
	uint32_t		 request;	/* MSG_STATUS, ... */
	struct msg_daemon_info	 info;		/* status */
	struct msg_key_status	*keys;		/* status, in plan order */
	size_t			 nkeys;
	struct msg_config_error	*errors;	/* reload */
	size_t			 nerrors;
	struct msg_result	 result;	/* reload, restore, resume */
	struct msg_diag_summary	 diag;		/* diagnose */
	struct msg_flow		*flows;		/* diagnose */
	size_t			 nflows;
	bool			 has_diag;	/* status: diag is filled */
};

#define CTL_NAME	"tcptunectl"

/* import.c: sysctl.conf, launchd plist or netsh lines as a tcptune.conf. */
int	 import_run(const char *, const char *);

/* set.c: set KEY=VALUE... and unset KEY... in the config, then reload. */
struct output;
/* How set_apply holds a key new to the config. */
struct set_new {
	enum key_mode	 mode;
	enum on_reject	 on_reject;
};
int	 set_run(const char *, const char *, char *const *, int, bool,
	    const struct output *);
int	 set_daemon_config(const char *, char *, size_t);
struct config	*set_config_read(const char *);
int	 set_apply(const char *, const char *, const char *, char *const *,
	    int, const struct set_new *, const struct config_notes *,
	    const struct output *);

/*
 * advise/advise_posix.c | advise/advise_win.c: what set, unset and
 * advise --apply ask of the system: whether this user may write
 * tcptuned's config, and whether the kernel takes a key (why not in the
 * buffer).
 */
bool	 advise_privileged(char *, size_t);
bool	 advise_key_writable(const char *, char *, size_t);

/* ctl_log.c: messages prefixed "tcptunectl: ", escaped, to stderr. */
void	 ctl_warn(const char *, ...) TT_PRINTF(1, 2);
void	 ctl_warnx(const char *, ...) TT_PRINTF(1, 2);
void	 ctl_warnx_wrap(const char *, ...) TT_PRINTF(1, 2);
#define CTL_TEXT_WIDTH	80	/* running text a person reads: ctl_wrap */
void	 ctl_wrap(FILE *, const char *, const char *, const char *, int);
size_t	 ctl_wrap_buf(char *, size_t, const char *, const char *,
	    const char *, int);

/* nearest.c: "did you mean" */
const char *ctl_nearest(const char *, const char *const *, size_t);

/*
 * ctl_exec.c (the quick tcptunectl, Linux): run the command in the full
 * program, tcptunectl-full, with the same arguments; returns only on
 * failure, with the exit status.
 */
int	 ctl_exec_full(char *[]);

/*
 * client_transport_posix.c | client_transport_win.c: the connection to
 * the daemon for one request at a time, each within the deadline; every
 * function reports its own failure and returns the exit status (CTL_OK).
 */
struct ctl_conn {
	const char	*path;
	int		 fd;		/* -1: none */
	int		 timeout_ms;
	int64_t		 deadline;	/* monotonic ms */
};
int	 transport_connect(struct ctl_conn *);	/* and check the server */
int	 transport_send(const struct ctl_conn *, const void *, size_t);
int	 transport_recv(const struct ctl_conn *, void *, size_t, size_t *);
void	 transport_close(struct ctl_conn *);
/* The terminal's width when stdout is one, else 0. */
int	 term_columns(void);
bool	 term_colour(void);		/* colour states on stdout */
FILE	*term_pager(void);		/* stdout when not a terminal */
int	 term_pager_close(FILE *);

/*
 * The exchange's deadline (connect, send and the whole reply): set by
 * client.c, read by the transports while they wait.
 */
static inline void
ctl_deadline_start(struct ctl_conn *c)
{
	c->deadline = (int64_t)tt_mono_ms() + c->timeout_ms;
}

/* Milliseconds left, 0 when the time is up. */
static inline int
ctl_time_left(const struct ctl_conn *c)
{
	int64_t	left = c->deadline - (int64_t)tt_mono_ms();

	return left > 0 ? (int)left : 0;
}

/* ctl_log.c: the message at the deadline's end; CTL_UNREACHABLE. */
int	 ctl_timed_out(const struct ctl_conn *, const char *);
/*
 * ctl_log.c: no daemon, said with the next step on this platform (and
 * its service manager: systemd or not, as the transport found) in one
 * message; CTL_UNREACHABLE.  The note, what the command did not do, is
 * said in that message.
 */
void	 ctl_start_hint(enum tt_os, bool, const char *, bool, char *,
	    size_t);
void	 ctl_unreachable_note(const char *);
int	 ctl_unreachable(const char *, bool);

/*
 * client.c: the request over the socket, and the reply parser it feeds
 * the bytes it reads (reply_begin, then reply_feed per chunk, and
 * reply_eof if the stream ends first); the parser is also driven by
 * tests/unit/test_client.c and fuzz/fuzz_reply.c.
 */
int	 client_request(const char *, uint32_t, struct reply *);
void	 client_name_command(int, char **);
int	 client_request_with(const char *, uint32_t, const void *, size_t,
	    struct reply *);
int	 client_open(const char *, int *);
int	 client_exchange(int, const char *, uint32_t, const void *, size_t,
	    struct reply *);
void	 reply_free(struct reply *);
bool	 reply_all_in_force(const struct reply *);

enum feed {
	FEED_MORE,	/* the reply is not complete: feed more */
	FEED_DONE,	/* complete and valid: *status is CTL_OK */
	FEED_ERROR	/* reported on stderr; *status is the exit status */
};

/* Room for any payload: every type has one exact size, all below this. */
union reply_payload {
	struct msg_daemon_info	di;
	struct msg_key_status	ks;
	struct msg_config_error	ce;
	struct msg_result	rs;
	struct msg_version	vs;
	struct msg_end		end;
	struct msg_diag_summary	ds;
	struct msg_flow		fl;
};

struct grammar;

struct reply_session {
	const struct grammar	*g;
	struct reply		*r;
	int			 phase;
	uint32_t		 seq;
	size_t			 nmsgs;		/* messages taken */
	size_t			 have;		/* bytes of the next one */
	struct msg_hdr		 h;
	union reply_payload	 p;
};

int	 reply_begin(struct reply_session *, uint32_t, uint32_t,
	    struct reply *);
enum feed reply_feed(struct reply_session *, const void *, size_t, size_t *,
	    int *);
int	 reply_eof(const struct reply_session *, const char *);

/*
 * One back-end per format, as bgpctl's struct output: output.c (text),
 * output_json.c, output_prom.c; chosen once, in tcptunectl.c, whose
 * option table refuses a format for a command it has no member for.
 * The members are the commands' own writers (diagnose_words.c,
 * advise_output.c, measure_report.c): no command asks which format it
 * was given.
 */
struct advice;
struct mreport;
struct mstreams;
struct output {
	bool	  whole_stdout;	/* one document: nothing else goes there */
	/* status is given NULL too, when no daemon answered (tcptune_up 0) */
	bool	  tells_unreachable;
	/* 0, or -1 when what it writes could not be written (told) */
	int	(*status)(const struct reply *);
	void	(*result)(const char *, const struct reply *);
	void	(*version)(void);
	void	(*diagnose)(FILE *, const struct reply *);
	/* the full program's commands: NULL in the quick tcptunectl */
	void	(*advice)(FILE *, const struct advice *);
	/* the rounds' report; the bool: a bar chart (stdout a terminal) */
	void	(*measure)(FILE *, const struct mreport *, bool);
	/* --streams N: the URL as shown, one stream, then N */
	void	(*measure_streams)(FILE *, const char *,
		    const struct mstreams *, const struct mstreams *);
};
extern const struct output	text_output;
extern const struct output	text_short_output;	/* status --short */
extern const struct output	json_output;
/* output.c: times in UTC, an errno's name; also output_json.c's. */
const char	*errno_label(int, char *, size_t);

/*
 * output_prom.c: status in the Prometheus text format, on stdout (dir
 * NULL) or as DIR/tcptune.prom for node_exporter's textfile collector.
 */
const struct output *prom_output(const char *);
void	 prom_write(FILE *, const struct reply *);

#endif /* TCPTUNECTL_H */
