/*
 * tcptuned: the daemon's private interfaces, grouped by file.
 */
#ifndef TCPTUNED_H
#define TCPTUNED_H

#include <stdarg.h>
#include <stdbool.h>
#include <time.h>

#include "tcptune.h"
#include "proto.h"
#include "sources.h"

/* Drift corrections closer together than this count towards "contested". */
#define CONTEST_WINDOW		300	/* seconds */
#define CONTEST_CORRECTIONS	3	/* within the window */
#define CONTEST_BACKOFF_MAX	3600	/* seconds between attempts, at most */

/*
 * originals.c: the store of original values (each key's value from before
 * tcptuned first wrote it), persisted with the paused flag.
 */
struct original {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];
};
/* A value a damaged copy holds for a key: reported, never believed. */
struct original_seen {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];
	char	copy[TT_NAME_MAX];	/* the copy's name in the directory */
};
/*
 * Who paused and when, kept in its own file beside the originals
 * (PAUSE_FILE) so that an uninstall can remove it with a plain rm: a
 * pause whose record is gone is not believed (originals.c).
 */
struct pause_origin {
	time_t		since;		/* wall clock; 0 not known */
	long		uid;		/* -1: not known */
	long		pid;		/* -1: not known */
	char		command[TT_COMMAND_MAX];	/* "" not said */
};
struct originals {
	int			 dirfd;		/* held open; -1 none */
	char			 dir[1024];
	char			 path[1024];
	struct original		*entries;
	size_t			 n;
	bool			 paused;
	bool			 pause_leased;	/* a lease's: saved as not paused */
	struct pause_origin	 pause_by;	/* the user's pause's */
	bool			 pause_dropped;	/* saved paused, no record:
						   not believed (at start) */
	bool			 dirty;		/* memory not on disk yet */
	char			 save_err[TT_TEXT_MAX];	/* cleared by a save */
	char			 corrupt[TT_TEXT_MAX];	/* a file set aside */
	char			 problem[TT_TEXT_MAX];	/* both; "" when fine */
	char			**aside;	/* damaged copies, oldest first */
	size_t			 naside;
	bool			 aside_pending;	/* damaged, still in its place */
	struct original_seen	*seen;		/* oldest copy's value per key */
	size_t			 nseen;
};
int		 originals_open(struct originals *, const char *);
void		 originals_close(struct originals *);
void		 originals_retry(struct originals *);
const char	*originals_get(const struct originals *, const char *);
int		 originals_set(struct originals *, const char *,
		    const char *);
int		 originals_forget(struct originals *, const char *);
int		 originals_set_paused(struct originals *, bool);
int		 originals_record_pause(struct originals *,
		    const struct pause_origin *);
int		 originals_set_lease_pause(struct originals *);
int		 originals_save(struct originals *);
unsigned	 originals_copies(const struct originals *, char *, size_t);
const char	*originals_seen(const struct originals *, const char *,
		    const char **);
#define ORIGINALS_LOCK_HELD	-1	/* another daemon has it */
#define ORIGINALS_LOCK_NONE	-2	/* no lock file can be made: go on */
#define ORIGINALS_LOCK_BAD	-3	/* not a file only root controls: stop */
/*
 * originals_posix.c | originals_win.c: the file operations beneath
 * originals.c, on the directory it holds open (st->dirfd).  open_dir
 * gives the held directory, TRUSTED_DIR_NOT_CREATED, or -1 (untrusted:
 * why says why);
 * read gives 0, an errno, or -1 for a file someone else controls (why);
 * writable, set_aside (EEXIST: the new name exists, nothing moved), list
 * and write give 0 or an errno.
 */
int		 originals_lock(struct originals *, char *, size_t);
void		 originals_sweep(struct originals *);
int		 originals_os_open_dir(const char *, char *, size_t);
int		 originals_os_writable(const struct originals *);
int		 originals_os_read(const struct originals *, const char *,
		    size_t, char **, size_t *, char *, size_t);
int		 originals_os_write(const struct originals *, const char *,
		    const void *, size_t);
int		 originals_os_set_aside(const struct originals *, const char *,
		    const char *);
int		 originals_os_list(const struct originals *, const char *,
		    char ***, size_t *);

/* metrics.c: DIR/tcptune.prom for node_exporter, 0 or -1 with why. */
int		 metrics_write(const char *, const struct msg_daemon_info *,
		    const struct msg_key_status *, size_t, char *, size_t);

/* engine.c: desired state, apply, drift, restore. */
struct engine_key {
	struct config_key	 cfg;
	char			 applied[TT_VALUE_MAX];
	char			 current[TT_VALUE_MAX];
	char			 written[TT_VALUE_MAX];	/* tcptuned's last
						   write, read back; kept
						   over a reload; "" none */
	char			 note[TT_TEXT_MAX];
	bool			 lowered;	/* by Mode enforce, at apply */
	enum key_state		 state;
	int			 err;
	unsigned		 corrections;
	time_t			 last_change;		/* wall clock */
	time_t			 recent[CONTEST_CORRECTIONS];	/* mono */
	unsigned		 backoff;		/* level, 0 none */
	time_t			 next_attempt;		/* mono */
	unsigned		 refusals;	/* in a row, of a refused key */
	uint64_t		 retry_check;	/* engine->checks to try at */
};
struct engine {
	struct sysctl_backend	*be;
	struct originals	*originals;
	struct config		*cfg;		/* owned */
	struct engine_key	*keys;		/* in plan order */
	size_t			 nkeys;
	uint64_t		 checks;
	time_t			 last_check;	/* wall clock; 0 none */
	time_t			 (*mono)(void);	/* tests set their clock */
	const struct other_sources *others;	/* the daemon's; NULL none */
};
void	 engine_init(struct engine *, struct sysctl_backend *,
	    struct originals *);
void	 engine_free(struct engine *);
int	 engine_configure(struct engine *, struct config *);
void	 engine_check(struct engine *);
void	 engine_refresh(struct engine *);
/* engine_restore: false and true keep their old meaning (exit, pause). */
enum restore_how {
	RESTORE_EXIT = 0,	/* originals back and forgotten */
	RESTORE_PAUSE = 1,	/* paused until resume or reload, saved */
	RESTORE_LEASE = 2	/* paused for a lease, never saved */
};
int	 engine_restore(struct engine *, int);
int	 engine_resume(struct engine *);
bool	 engine_all_in_force(const struct engine *);
size_t	 engine_not_in_force(const struct engine *);
const struct engine_key *engine_find_key(const struct engine *, const char *);
void	 engine_key_status(const struct engine *, const struct engine_key *,
	    struct msg_key_status *);

/* lease.c: the timed pause of tcptunectl measure. */
struct lease {
	bool		 active;
	const void	*holder;	/* the control client; compared only */
	long		 uid, pid;	/* pid -1: unknown */
	time_t		 expires;	/* monotonic */
};
enum lease_action {
	LEASE_GRANT,		/* originals back, the lease starts */
	LEASE_RENEW,		/* the holder's lease runs seconds from now */
	LEASE_END,		/* the holder ends it: enforce again */
	LEASE_BUSY,		/* someone else holds it */
	LEASE_NOT_HELD,		/* 0 seconds, but no lease runs */
	LEASE_PAUSED,		/* paused by restore: not a lease's to take */
	LEASE_TOO_LONG		/* over TT_LEASE_MAX_SEC */
};
enum lease_action lease_decide(const struct lease *, const void *, uint32_t,
	    bool);
void	 lease_grant(struct lease *, const void *, long, long, uint32_t,
	    time_t);
void	 lease_clear(struct lease *);
bool	 lease_held_by(const struct lease *, const void *);
bool	 lease_due(const struct lease *, time_t);
uint32_t lease_left(const struct lease *, time_t);
void	 lease_describe(const struct lease *, time_t, char *, size_t);

/* control.c: the control protocol server, over any transport. */
#define CONTROL_MAX_CLIENTS	512	/* at once, everyone */
#define CONTROL_ROOT_RESERVE	16	/* of those, kept for root */
#define CONTROL_MAX_PER_USER	32	/* held by one unprivileged user */
#define CONTROL_IDLE_TIMEOUT	30	/* seconds */
#define CONTROL_MAX_OUTPUT	(1024 * 1024)	/* one client's reply */
#define CONTROL_OUTPUT_BUDGET	(4 * 1024 * 1024) /* all unprivileged */
#define CONTROL_FD_RESERVE	16	/* descriptors clients never get */
/* Who a client is, as the transport learned it from the OS. */
struct ctl_peer {
	unsigned long	user;		/* uid: per-user limits, logs */
	bool		privileged;	/* may change things (root) */
	long		pid;		/* -1: the OS does not say */
	char		command[TT_COMMAND_MAX];	/* its last change
					   request's, as the client says;
					   "" none said */
};
struct ctl_client;
/* What the server asks of the daemon; each gets ops->arg. */
struct control_ops {
	/* fills info, with nkeys, from one refresh of the live values */
	void	(*status)(void *, struct msg_daemon_info *);
	void	(*key_status)(void *, uint32_t, struct msg_key_status *);
	int	(*reload)(void *, struct errlist *, char *, size_t);
	/* restore and resume: peer is who asked, for the log and status */
	int	(*restore)(void *, const struct ctl_peer *, char *, size_t);
	int	(*resume)(void *, const struct ctl_peer *, char *, size_t);
	/* MSG_LEASE from holder (a client, compared only): a result_code */
	int	(*lease)(void *, const void *, const struct ctl_peer *, uint32_t,
		    char *, size_t);
	void	(*client_gone)(void *, const void *);	/* ends its lease */
	bool	(*holds_lease)(void *, const void *);	/* never idle then */
	void	 *arg;
	/* MSG_DIAGNOSE: the summary, and the flows peer may see (malloc'd,
	   *n of them; NULL none); n NULL: the summary alone, for status,
	   nothing allocated */
	struct msg_flow *(*diagnose)(void *, const struct ctl_peer *, bool,
		    struct msg_diag_summary *, size_t *);
	/*
	 * MSG_RELOAD answered later (NULL: reload answers at once): the
	 * daemon calls ctl_client_reload_done(client) when its reload ends,
	 * unless client_gone came first.
	 */
	void	(*reload_begin)(void *, struct ctl_client *,
		    const struct ctl_peer *);
};
/* What the server asks of the transport, for one connection. */
struct ctl_io {
	void	(*kick)(void *);	/* look at its room and output again */
	bool	(*gone)(void *);	/* the peer has closed its end */
};
struct ctl_server;
struct ctl_client;
struct ctl_server *ctl_server_new(const struct control_ops *,
		    const struct ctl_io *, int);
void		 ctl_server_free(struct ctl_server *);
bool		 ctl_server_full(const struct ctl_server *);
struct ctl_client *ctl_client_new(struct ctl_server *, const struct ctl_peer *,
		    void *);
void		 ctl_client_free(struct ctl_client *);
size_t		 ctl_client_room(const struct ctl_client *);
void		 ctl_client_input(struct ctl_client *, const void *, size_t);
void		*ctl_client_input_space(struct ctl_client *, size_t *);
void		 ctl_client_input_read(struct ctl_client *, size_t);
void		 ctl_client_input_end(struct ctl_client *);
const void	*ctl_client_output(const struct ctl_client *, size_t *);
void		 ctl_client_sent(struct ctl_client *, size_t);
bool		 ctl_client_finished(const struct ctl_client *);
time_t		 ctl_client_idle(const struct ctl_client *, time_t);
const struct ctl_peer *ctl_client_peer(const struct ctl_client *);
void		 ctl_client_reload_done(struct ctl_client *, int,
		    const struct errlist *, const char *);
/* A line about a peer (NULL: not identified yet), within the log's bound. */
void		 ctl_server_log(struct ctl_server *, const struct ctl_peer *,
		    enum log_level, const char *, ...) TT_PRINTF(4, 5);
void		 ctl_server_log_tick(struct ctl_server *);
bool		 ctl_server_log_pending(const struct ctl_server *);

/* control_posix.c | control_pipe_win.c: the server on its transport. */
struct control;
struct evloop;
struct control	*control_bind(const char *, char *, size_t);
int		 control_start(struct control *, struct evloop *,
		    const struct control_ops *);
void		 control_close(struct control *);

/*
 * control.c: what a non-root client can make the daemon log, at most
 * one line per uid per LOG_LIMIT_EVERY, with a count of the rest; so at
 * most LOG_LIMIT_USERS + 2 lines per interval whatever the uids.  A NULL
 * peer is one not identified yet; a privileged peer is never limited.
 */
#define LOG_LIMIT_EVERY		10	/* seconds between lines about a uid */
#define LOG_LIMIT_USERS		16	/* uids with a slot of their own */
struct log_slot {
	unsigned long	 user;
	bool		 used;		/* has written a line */
	time_t		 last;		/* that line; the clock's */
	time_t		 since;		/* what more counts started then */
	unsigned long	 more;		/* lines not written since */
	enum log_level	 worst;		/* the most severe of them */
};
struct log_limit {
	struct log_slot	 users[LOG_LIMIT_USERS];
	struct log_slot	 other;		/* uids past the table */
	struct log_slot	 unknown;	/* peers not identified */
	time_t		(*now)(void);
};
void	 log_limit_init(struct log_limit *, time_t (*)(void));
void	 log_limited(struct log_limit *, const struct ctl_peer *,
	    enum log_level, const char *, ...) TT_PRINTF(4, 5);
void	 vlog_limited(struct log_limit *, const struct ctl_peer *,
	    enum log_level, const char *, va_list) TT_PRINTF(4, 0);
void	 log_limit_flush(struct log_limit *, bool);
bool	 log_limit_pending(const struct log_limit *);

/*
 * supervisor_posix.c | supervisor_win.c: the program's main(), which
 * hands tcptuned_main() its supervisor: what the supervisor asks for, on
 * the loop: reload (SIGHUP; the service's PARAMCHANGE) and stop (SIGTERM,
 * SIGINT; the service's STOP and SHUTDOWN, Ctrl-C); and what the daemon
 * tells it: ready (systemd's READY=1; the service RUNNING), again after
 * each read of the config, and stopping.  A table, as control.c's
 * control_ops, so that the supervisor calls the daemon and the daemon
 * calls back only through it; NULL where the supervisor has no place for
 * a fact (the Service Control Manager shows no text and has no reloading
 * state: the Event Log has each change).
 */
struct supervisor {
	int	(*events)(struct evloop *, void (*)(void *), void (*)(void *),
		    void *);
	void	(*ready)(void);
	void	(*stopping)(void);
	bool	(*by_hand)(void);	/* no supervisor to read the log */
	void	(*reloading)(void);	/* a read of the config began */
	void	(*status)(const char *);	/* the state changed: one line */
};

/*
 * policy_watch_win.c | policy_watch_posix.c: cb on the loop when the
 * registry policy may have changed (RegNotifyChangeKeyValue); callers
 * debounce and compare.  NULL where there is nothing to watch (Unix).
 */
struct policy_watch;
struct policy_watch *policy_watch_new(struct evloop *, void (*)(void *),
	    void *);
void	 policy_watch_free(struct policy_watch *);

/* diagnose.c: the flow history's sampling and its replies (flows.h). */
struct diagnose;
struct diagnose	*diagnose_new(struct engine *, struct sysctl_backend *,
		    struct evloop *);
void		 diagnose_free(struct diagnose *);
struct msg_flow	*diagnose_reply(struct diagnose *, const struct ctl_peer *, bool,
		    struct msg_diag_summary *, size_t *);

/*
 * parse_posix.c | parse_win.c: the config and the managed file, read by
 * the parse helper tcptune-parse (parse_helper.c) on Unix, in-process on
 * Windows.  helper: the program's path, checked by parse_helper_check;
 * flags: CONFIG_CHECK_OS for this OS's catalogue (CONFIG_CHECK_OWNER is
 * always so).
 */
struct config	*parse_config(const char *, const char *, const char *,
		    int, struct errlist *);
/*
 * The same read on the daemon's loop: done(cfg or NULL, errs, arg) when
 * it ends; NULL when it could not start (errs says why; no done then).
 */
typedef void (*parse_done_fn)(struct config *, struct errlist *, void *);
struct parse_job;
struct evloop;
struct parse_job *parse_begin(struct evloop *, const char *, const char *,
		    const char *, int, parse_done_fn, void *, struct errlist *);
void		 parse_cancel(struct parse_job *);
int		 parse_report(const char *, const char *, const char *, int,
		    FILE *, FILE *);
int		 parse_helper_check(const char *, char *, size_t);
int		 parse_helper_find(const char *, char *, size_t, char *,
		    size_t);

/* tcptuned.c */
int	 tcptuned_main(int, char **, const struct supervisor *);

#endif /* TCPTUNED_H */
