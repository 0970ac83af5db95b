/*
 * tcptunectl advise: from a path (rate and round trip) to the socket
 * buffer ceilings one TCP stream needs, on Linux, macOS and FreeBSD, and
 * the receive window auto-tuning level it needs on Windows.
 *
 *   advise_units.c   units: --rate, --rtt, --timeout and sizes parsed,
 *                    rates, sizes and times formatted
 *   advise_model.c   pure arithmetic and platform knowledge, fed a list
 *                    of sysctl values (read live or given), so the unit
 *                    test runs all three platforms' models anywhere
 *   advise_words.c   the sentences: why each row, the notes and the
 *                    verdict, from the model's identifiers and numbers
 *   advise_output.c  the result as text, JSON or a tcptune.conf plist
 *   advise_probe.c   a round trip measured with TCP connects
 *   advise.c         the command: options, live values, the plist checked
 *   advise_apply.c   --apply: the keys to raise set in tcptuned's config
 *                    through set.c, reloaded
 *   advise_posix.c   what the command needs of a Unix: uname, --host,
 *                    --config FILE written in place
 *   advise_win.c     the same on Windows (no --host there)
 */
#ifndef ADVISE_H
#define ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tcptune.h"

/* What --rate and --rtt take: anything else is a typo or a unit slip. */
#define ADV_RATE_MIN		1e3		/* bit/s */
#define ADV_RATE_MAX		1e12
#define ADV_RTT_MIN		10e-6		/* seconds */
#define ADV_RTT_MAX		10.0
#define ADV_TIMEOUT_MIN		0.01
#define ADV_TIMEOUT_MAX		10.0
#define ADV_TIMEOUT_DEFAULT	2.0
#define ADV_COUNT_DEFAULT	5
#define ADV_COUNT_MAX		100
#define ADV_PORT_DEFAULT	443

/*
 * RFC 7323 section 2.3: the window scale is at most 14, so no TCP window
 * exceeds 65535 << 14 bytes, whatever the buffers (Linux TCP_MAX_WSCALE,
 * xnu TCP_MAX_WINSHIFT, FreeBSD TCP_MAX_WINSHIFT).
 */
#define ADV_MAX_WINDOW		(65535LL << 14)

#define ADV_MAX_VALUES		32	/* sysctl values in one input */
#define ADV_MAX_SETS		16	/* --set options */
#define ADV_MAX_KEYS		8	/* rows of advice */
#define ADV_MAX_NOTES		12
#define ADV_NOTE_MAX		1280	/* one sentence of advise_words.c */
#define ADV_TEXT_MAX		800	/* the verdict */

/* Why a --rate, --rtt or --timeout value was refused. */
enum adv_perr {
	PERR_OK = 0,
	PERR_EMPTY,		/* "" */
	PERR_SYNTAX,		/* not a number: "abc", "inf", " 5" */
	PERR_NEGATIVE,		/* "-5" */
	PERR_ZERO,		/* "0", "0ms" */
	PERR_UNIT,		/* an unknown unit or trailing junk: "5x" */
	PERR_AMBIGUOUS,		/* "100MB": bits or bytes? */
	PERR_NO_UNIT,		/* --rate "1000": bit/s or Mbit/s? */
	PERR_OVERFLOW,		/* beyond a double: "1e400" */
	PERR_TOO_LOW,		/* below the range */
	PERR_TOO_HIGH		/* above the range */
};

/* One sysctl value as the model sees it. */
struct adv_value {
	char	name[TT_NAME_MAX];
	char	value[TT_VALUE_MAX];	/* normalized; "" when unknown */
	int	err;			/* why it could not be read, or 0 */
	char	why[160];		/* the backend's reason, or "" */
	bool	given;			/* from --set, not read */
};

struct adv_input {
	enum tt_os	 os;
	bool		 live;		/* read from this machine */
	double		 rate;		/* bit/s */
	double		 rtt;		/* seconds */
	struct adv_value values[ADV_MAX_VALUES];
	size_t		 nvalues;
};

/* What a row of advice is for. */
enum adv_role {
	ROLE_CEILING,		/* bounds autotuning: decides throughput */
	ROLE_SOCKOPT,		/* bounds SO_RCVBUF/SO_SNDBUF users only */
	ROLE_SWITCH,		/* turns autotuning on */
	ROLE_INFO		/* shown, not changed */
};

/*
 * What a row is for, in words (advise_words.c); the model says which.
 * The names (adv_why_name) are an interface: "why_id" in the JSON.
 */
enum adv_why {
	WHY_LINUX_RMEM,		/* tcp_rmem: the receive ceiling */
	WHY_LINUX_WMEM,
	WHY_LINUX_RMEM_MAX,	/* rmem_max: SO_RCVBUF users only */
	WHY_LINUX_WMEM_MAX,
	WHY_LINUX_MODERATE_OFF,	/* tcp_moderate_rcvbuf 0 */
	WHY_BSD_AUTORCV,	/* autorcvbufmax, recvbuf_max */
	WHY_BSD_AUTOSND,
	WHY_BSD_AUTORCV_OFF,	/* doautorcvbuf, recvbuf_auto 0 */
	WHY_XNU_MAXSOCKBUF,	/* with the ceiling of this Mac, sb_cap */
	WHY_XNU_NMBCLUSTERS,
	WHY_XNU_RECVSPACE,
	WHY_XNU_SENDSPACE,
	WHY_FREEBSD_MAXSOCKBUF,
	WHY_WIN_AUTOTUNING,	/* the level: the receive window's ceiling */
	WHY_WIN_RSS,
	WHY_WIN_RSC,		/* read only, shown */
	WHY_WIN_TIMESTAMPS,	/* read only, shown */
	WHY_COUNT
};

/* A note under the verdict, and the numbers its sentence needs. */
enum adv_note_id {
	NOTE_LINUX_RCV_SCALED,	/* 6.6+: arg[0] 1 when the version is known */
	NOTE_LINUX_RCV_ADV_WIN,	/* before 6.6: arg[0] tcp_adv_win_scale */
	NOTE_LINUX_SND,
	NOTE_LINUX_NAMESPACE,
	NOTE_XNU_NCL_DERIVED,	/* arg: nmbclusters, hw.memsize, assumed */
	NOTE_XNU_CEILING,
	NOTE_XNU_HEADROOM,	/* up to macOS 14.3: 8/9 of maxsockbuf */
	NOTE_XNU_WHOLE,		/* from 14.4: all of it; arg: release known */
	NOTE_XNU_SHIPPED,	/* each difference from the shipped config */
	NOTE_FREEBSD_HEADROOM,
	NOTE_FREEBSD_VNET,
	NOTE_WIN_LEVELS,	/* arg: current level, least that suffices
				   (-1: none), recommended */
	NOTE_WIN_REDUCED,	/* arg[0]: the level, below normal */
	NOTE_WIN_EXPERIMENTAL,	/* netsh's warning; arg[0] 1: it is the
				   level (read or --set), 0: not advised */
	NOTE_WIN_SEND,		/* no send-side ceiling to manage */
	NOTE_WIN_RSS_OFF,
	NOTE_WIN_RSC_OFF,
	NOTE_WIN_TIMESTAMPS_OFF,	/* arg[0]: 0 disabled, 2 allowed */
	NOTE_WIN_HEURISTICS_ON,	/* Windows Scaling heuristics enabled */
	NOTE_WIN_QOS_POLICY,	/* the QoS "Tcp Autotuning Level" is set */
	NOTE_CEILINGS,		/* ceilings, not allocations */
	NOTE_NEW_CONNECTIONS,
	NOTE_UNREAD,		/* the values with an err in the input */
	NOTE_ASSUMED_LIVE,	/* stock defaults stand in for unread ones */
	NOTE_ASSUMED_MODEL,	/* --platform: a machine from stock values */
	NOTE_NONE_READ,		/* live, and not one value could be read */
	NOTE_COUNT
};

struct adv_note {
	enum adv_note_id id;
	long long	 arg[3];
};

struct adv_key {
	const char	*name;
	char		 current[TT_VALUE_MAX];	/* "" when unknown */
	bool		 assumed;	/* current is the stock default */
	bool		 given;		/* current came from --set */
	char		 recommended[TT_VALUE_MAX];
	long long	 needed;	/* least this path needs; 0: none */
	bool		 change;	/* recommended differs from current */
	bool		 clamp;		/* plist: OnReject clamp */
	enum adv_role	 role;
	enum adv_why	 why;
};

/* One direction of one stream. */
struct adv_dir {
	long long	 buffer;	/* the per-socket ceiling, bytes */
	long long	 window;	/* what that lets be in flight */
	double		 rate;		/* bit/s one stream reaches */
	const char	*limit;		/* the key holding it back, or NULL */
	bool		 window_limited;	/* held by ADV_MAX_WINDOW */
};

enum adv_verdict {
	VERDICT_OK,		/* the current values reach the rate */
	VERDICT_TUNE,		/* the recommended values reach it */
	VERDICT_CAPPED		/* not even they: a hard ceiling */
};

struct adv_result {
	enum tt_os	 os;
	double		 rate;
	double		 rtt;
	double		 bdp;		/* bytes in flight at the full rate */
	long long	 window;	/* what one stream needs: bdp, capped */
	double		 rcv_ratio;	/* receive window per buffer byte */
	double		 rcv_size_ratio;	/* the same, planned: what a
					   raised tcp_rmem[2] is sized at */
	double		 snd_ratio;	/* in flight per byte of a send
					   buffer at its ceiling */
	double		 snd_size_ratio;	/* the same, planned: what
					   the recommendation is sized at */
	char		 kernel[64];	/* "Linux 6.18.4", "macOS", ... */
	long long	 sb_cap;	/* macOS: the most maxsockbuf takes */
	long long	 ncl;		/* macOS: kern.ipc.nmbclusters */
	bool		 sb_whole;	/* a buffer may have all of maxsockbuf */
	int		 pool_min_gb;	/* macOS: the RAM that gives ncl, */
	int		 pool_max_gb;	/* from .. below (0: no bound); */
					/* min -1: not a stock pool */
	int		 ram_for_window;	/* macOS: the least GB whose
					   ceiling holds the window; 0 none */
	int		 win_level;	/* Windows: the auto-tuning level now */
	int		 win_least;	/* the least that suffices, -1 none */
	int		 win_rec;	/* the level recommended */
	bool		 none_read;	/* live, yet nothing could be read */
	bool		 live;		/* values read on this machine (a Mac
					   only when running on one) */
	struct adv_key	 keys[ADV_MAX_KEYS];
	size_t		 nkeys;
	struct adv_dir	 now_rcv, now_snd, rec_rcv, rec_snd;
	enum adv_verdict verdict;
	int		 streams;	/* parallel streams the rate needs */
	struct adv_note	 notes[ADV_MAX_NOTES];
	size_t		 nnotes;
};

/* A round trip measured by advise_probe.c. */
struct adv_probe {
	char	host[256];	/* as given */
	char	addr[64];	/* the numeric address answered */
	int	port;
	int	attempts;
	int	samples;	/* attempts that gave a round trip */
	int	refused;	/* of those, answered by a reset */
	double	min, median, max;	/* seconds */
	bool	raised;		/* below ADV_RTT_MIN, raised to it */
};

/* Everything one advise run prints. */
struct advice {
	struct adv_input	 in;
	struct adv_result	 res;
	const struct adv_probe	*probe;		/* NULL: --rtt was given */
	const char		*config_path;	/* --config FILE written */
};

/* The options of tcptunectl advise, as given; checked by advise_run. */
struct advise_args {
	const char	*rate;
	const char	*rtt;
	const char	*host;
	const char	*count;
	const char	*timeout;
	const char	*platform;
	const char	*config;	/* FILE; "" or "-" stdout */
	bool		 config_set;
	bool		 force;
	const char	*sets[ADV_MAX_SETS];
	int		 nsets;
	bool		 apply;		/* --apply */
	const char	*file;		/* --apply -f FILE */
	const char	*socket;	/* the daemon's, for --apply */
	const struct output *out;	/* the advice; --apply's status */
};

/* advise_units.c */
enum adv_perr	 adv_parse_rate(const char *, double *);
enum adv_perr	 adv_parse_rtt(const char *, double *);
enum adv_perr	 adv_parse_timeout(const char *, double *);
const char	*adv_perr_text(enum adv_perr);
int		 adv_parse_size(const char *, long long *);
bool		 adv_ieq(const char *, const char *);
void		 adv_fmt_rate(double, char *, size_t);
void		 adv_fmt_bytes(double, char *, size_t);
void		 adv_fmt_time(double, char *, size_t);

/* advise_model.c */
const char *const *adv_os_keys(enum tt_os);
bool		 adv_key_known(enum tt_os, const char *);
int		 adv_key_words(const char *);
const char	*adv_key_word(const char *, const char *);
void		 adv_key_word_choices(const char *, char *, size_t);
int		 adv_input_set(struct adv_input *, const char *, const char *,
		    int, bool);
void		 adv_input_why(struct adv_input *, const char *, const char *);
const char	*adv_input_get(const struct adv_input *, const char *);
bool		 adv_input_given(const struct adv_input *, const char *);
long long	 adv_pow2_at_least(long long);
void		 adv_model(const struct adv_input *, struct adv_result *);
const char	*adv_verdict_name(enum adv_verdict);
int		 adv_win_levels(void);
const char	*adv_win_level_name(int);
int		 adv_win_level_scale(int);
long long	 adv_win_level_window(int);

/* advise_words.c */
const char	*adv_why_name(enum adv_why);
void		 adv_why_text(const struct adv_result *, const struct adv_key *,
		    char *, size_t);
const char	*adv_note_name(enum adv_note_id);
void		 adv_note_text(const struct adv_input *,
		    const struct adv_result *, const struct adv_note *, char *,
		    size_t);
void		 adv_verdict_text(const struct adv_result *, char *, size_t);
const char	*adv_limit_text(const struct adv_dir *);

/* advise_output.c */
void	 advise_text(FILE *, const struct advice *);
void	 advise_json(FILE *, const struct advice *);

/* advise_apply.c: --apply, after the model; a CTL_ exit status. */
int	 advise_apply(const struct advise_args *, struct advice *);

/* advise.c: the command, printed through a->out. */
int	 advise_run(const struct advise_args *);
void	 advise_plist(FILE *, const struct advice *);
/* advise's comments in a config, the same for --config and --apply. */
#define ADV_COMMENT_MAX	8192
struct advise_notes {
	const struct advice	*advice;
	char			 head[ADV_COMMENT_MAX];
	char			 key[ADV_COMMENT_MAX];
};
void	 advise_notes(const struct advice *, const struct config *,
	    struct advise_notes *, struct config_notes *);
void	 advise_key_hold(const struct adv_key *, enum key_mode *,
	    enum on_reject *);

/*
 * advise_posix.c or advise_win.c.  advise_measure and advise_write_config
 * return a CTL_ exit status after their own message.
 */
void	 advise_read_release(struct adv_input *);
int	 advise_measure(const char *, int, double, struct adv_input *,
	    struct adv_probe *);
int	 advise_write_config(const char *, bool, const struct advice *);

/* advise_output.c: the plist parses back (a failure is a bug, told); 0 or -1. */
int	 advise_self_check(const char *, size_t, const char *);

/* advise_probe.c: 0, or -1 after a message in err. */
int	 adv_split_host(const char *, char *, size_t, int *, char *,
	    size_t);
int	 adv_probe_rtt(const char *, int, int, double, struct adv_probe *,
	    char *, size_t);

#endif /* ADVISE_H */
