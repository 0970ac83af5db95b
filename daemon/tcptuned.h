/*
 * tcptuned: the daemon's private interfaces, grouped by file.
 */
#ifndef TCPTUNED_H
#define TCPTUNED_H

#include <stdbool.h>
#include <time.h>

#include "tcptune.h"
#include "proto.h"

/* Drift corrections closer together than this count towards "contested". */
#define CONTEST_WINDOW		300	/* seconds */
#define CONTEST_CORRECTIONS	3	/* within the window */
#define CONTEST_BACKOFF_MAX	3600	/* seconds between attempts, at most */

/* state.c: the persisted originals and the paused flag. */
struct state_entry {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];
};
struct state {
	char			 dir[1024];
	char			 path[1024];
	struct state_entry	*entries;
	size_t			 n;
	bool			 paused;
	bool			 pause_leased;	/* a lease's: saved as not paused */
	bool			 dirty;		/* memory not on disk yet */
	char			 save_err[TT_TEXT_MAX];	/* cleared by a save */
	char			 corrupt[TT_TEXT_MAX];	/* a file set aside */
	char			 problem[TT_TEXT_MAX];	/* both; "" when fine */
};
int		 state_open(struct state *, const char *);
void		 state_close(struct state *);
void		 state_retry(struct state *);
void		 state_sweep(struct state *);
const char	*state_original(const struct state *, const char *);
int		 state_set_original(struct state *, const char *, const char *);
int		 state_forget(struct state *, const char *);
int		 state_set_paused(struct state *, bool);
int		 state_set_lease_pause(struct state *);
int		 state_save(struct state *);
int		 state_lock(const char *);	/* -1 held, -2 cannot lock */

/* engine.c: desired state, apply, drift, restore. */
struct engine_key {
	struct config_key	 cfg;
	char			 applied[TT_VALUE_MAX];
	char			 current[TT_VALUE_MAX];
	char			 note[TT_TEXT_MAX];
	enum key_state		 state;
	int			 err;
	unsigned		 corrections;
	time_t			 last_change;		/* wall clock */
	time_t			 recent[CONTEST_CORRECTIONS];	/* mono */
	unsigned		 backoff;		/* level, 0 none */
	time_t			 next_attempt;		/* mono */
};
struct engine {
	struct sysctl_backend	*be;
	struct state		*state;
	struct config		*cfg;		/* owned */
	struct engine_key	*keys;		/* in plan order */
	size_t			 nkeys;
	uint64_t		 checks;
	time_t			 (*mono)(void);	/* tests set their clock */
};
void	 engine_init(struct engine *, struct sysctl_backend *, struct state *);
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
const struct engine_key *engine_key(const struct engine *, const char *);
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

/* control.c: the control socket. */
#define CONTROL_MAX_CLIENTS	512
#define CONTROL_IDLE_TIMEOUT	30	/* seconds */
#define CONTROL_MAX_OUTPUT	(1024 * 1024)	/* queued per client */
#define CONTROL_FD_RESERVE	16	/* descriptors clients never get */
struct control;
struct daemon;
struct evloop;
struct control	*control_open(const char *, struct evloop *, struct daemon *);
void		 control_close(struct control *);
int		 control_probe(const char *);

/* notify.c: systemd's sd_notify, without libsystemd. */
int	 notify_systemd(const char *);

/* tcptuned.c: what the control server asks of the daemon. */
void	 daemon_status(struct daemon *, struct msg_daemon_info *);
const struct engine *daemon_engine(struct daemon *);
int	 daemon_reload(struct daemon *, struct errlist *, char *, size_t);
int	 daemon_restore(struct daemon *, char *, size_t);
int	 daemon_resume(struct daemon *, char *, size_t);
int	 daemon_lease(struct daemon *, const void *, long, long, uint32_t,
	    char *, size_t);
void	 daemon_lease_gone(struct daemon *, const void *);
bool	 daemon_lease_held_by(struct daemon *, const void *);

#endif /* TCPTUNED_H */
