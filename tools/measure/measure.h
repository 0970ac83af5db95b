/*
 * tcptunectl measure: single-stream download throughput, before and after
 * the tuning.  measure.c runs the experiment (rounds, the daemon's lease),
 * measure_net.c does one transfer with libcurl (a download, or an upload
 * by PUT or POST), measure_iperf.c one test
 * against an iperf3 server with libiperf (measure_iperf_none.c where the
 * build has none, measure_iperf_parse.c reads its URL and its JSON),
 * measure_report.c judges and prints.  The verdict is pure and tested
 * (tests/unit/test_measure_report.c, tests/unit/test_measure_iperf.c).
 */
#ifndef TCPTUNECTL_MEASURE_H
#define TCPTUNECTL_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct output;

#define MEASURE_ROUNDS_DEFAULT	3	/* each side, as the advice goes */
#define MEASURE_ROUNDS_MAX	20
#define MEASURE_TIME_DEFAULT	10	/* seconds per transfer */
#define MEASURE_TIME_MAX	300
#define MEASURE_MIN_SEC		1.0	/* a body must last this long */
#define MEASURE_STALL_SEC	5	/* no byte for this long: stalled */
#define MEASURE_CONNECT_SEC	10	/* name lookup, connect, TLS */
#define MEASURE_MAX_REDIRS	5
#define MEASURE_STREAMS_MAX	16	/* --streams N, N from 2 */
#define MEASURE_STREAMS_HELD	0.6	/* one stream under this share of N:
					   a per-stream limit */
#define MEASURE_STREAMS_SAME	0.8	/* at least this share: no window
					   limit */
/* A lease outlives its round by the connect and stall allowances. */
#define MEASURE_LEASE_SLACK	(MEASURE_CONNECT_SEC + MEASURE_STALL_SEC + 15)

/* Exit status of measure beyond tcptunectl's own (tcptunectl.h). */
enum measure_exit {
	MEX_UNREACHABLE = 5,	/* DNS failure, refused, no route, timeout */
	MEX_HTTP = 6,		/* an HTTP error status, too many redirects,
				   a redirect measure does not follow */
	MEX_TLS = 7,		/* certificate or handshake */
	MEX_STALLED = 8,	/* no data for MEASURE_STALL_SEC, cut off */
	MEX_SHORT = 9,		/* the body ends within MEASURE_MIN_SEC */
	MEX_REFUSED = 10,	/* an iperf3 server busy with another test,
				   or speaking a protocol libiperf does not */
	MEX_INTERRUPTED = 130	/* SIGINT, SIGTERM, SIGHUP: as a shell's */
};

enum measure_side {
	SIDE_CURRENT,		/* no comparison: the settings as they are */
	SIDE_ORIGINAL,		/* A: the originals, under a lease */
	SIDE_TUNED		/* B: tcptuned's values */
};

/* Which way the data flows: the server sends, or this machine does. */
enum measure_dir {
	DIR_DOWNLOAD,
	DIR_UPLOAD
};

/* One transfer. */
struct mround {
	enum measure_side side;
	double		 secs;		/* first byte to last */
	uint64_t	 bytes;
	double		 mbps;		/* over the whole transfer */
	double		 mbps_steady;	/* after the first second */
	uint32_t	 rtt_us;	/* smallest smoothed RTT seen; 0 unknown */
	uint64_t	 rcvbuf;	/* largest receive buffer seen */
	uint64_t	 rcvwnd;	/* largest receive window; 0 unknown */
	bool		 ended;		/* the body ended before -t */
	uint32_t	 rtt_load_us;	/* mean smoothed RTT under load, the
					   sender's; 0 unknown */
	uint64_t	 retrans;	/* segments the sender sent again */
	bool		 has_retrans;	/* retrans is known */
	const char	*load_unknown;	/* why rtt_load_us is unknown where
					   the report must say: a static
					   string, or NULL */
};

/* What went wrong with a transfer: one line in err, and its exit. */
struct mfault {
	int	 code;		/* 0 or enum measure_exit, CTL_USAGE */
	char	 text[512];
};

/* measure.c: the command; the arguments as given, checked there. */
struct measure_args {
	const char	*url;		/* as given: may hold a password */
	const char	*rounds;	/* -n; NULL default */
	const char	*seconds;	/* -t; NULL default */
	const char	*socket;
	const char	*streams;	/* --streams N; NULL: rounds */
	bool		 upload;	/* --upload: this machine sends */
	bool		 both;		/* --both: download, then upload */
	const char	*method;	/* --method: an http(s) upload's; NULL
					   PUT */
	const struct output *out;	/* the report's format */
};
int	 measure_run(const struct measure_args *);

/* measure_net.c */
struct mnet_opts {
	const char	*url;
	const char	*shown;		/* url as messages show it (murl_redact) */
	unsigned	 seconds;
	bool		 progress;	/* a live rate on stdout (a terminal) */
	const char	*label;		/* "original 2/3" for the progress */
	volatile int	*interrupted;	/* set by SIGINT: stop now */
	enum measure_dir dir;		/* an upload: PUT or POST a body */
	bool		 post;		/* the upload by POST, not PUT */
};
int	 mnet_init(struct mfault *);
void	 mnet_cleanup(void);
int	 mnet_check_url(const char *, const char *, struct mfault *);
int	 mnet_url_host(const char *, char *, size_t);
int	 mnet_easy_common(void *, const char *, char *);	/* a CURL * */
int	 mnet_transfer(const struct mnet_opts *, struct mround *,
	    struct mfault *);
int	 mnet_method(const char *, bool *);	/* "put", "post": 0, or -1 */

/* measure_streams.c, measure_streams_report.c: --streams N */
struct mstreams {
	int		 streams;
	uint64_t	 bytes;
	double		 rate_bps;	/* after the first second */
};
int	 mstreams_transfer(const struct mnet_opts *, int, struct mstreams *,
	    struct mfault *);
void	 mstreams_verdict(const struct mstreams *, const struct mstreams *,
	    char *, size_t);
void	 mstreams_text(FILE *, const char *, const struct mstreams *,
	    const struct mstreams *);
void	 mstreams_json(FILE *, const char *, const struct mstreams *,
	    const struct mstreams *);

/* measure_iperf.c, measure_iperf_none.c: iperf3://HOST[:PORT] */
struct miperf_opts {
	const char	*host;
	int		 port;
	const char	*shown;		/* the URL as given */
	unsigned	 seconds;
	int		 streams;	/* parallel streams, 1 for rounds */
	enum measure_dir dir;
};
bool	 miperf_built(const char *, struct mfault *);
int	 miperf_round(const struct miperf_opts *, struct mround *,
	    struct mfault *);
int	 miperf_streams(const struct miperf_opts *, struct mstreams *,
	    struct mfault *);

/* measure_iperf_parse.c: pure, tested without libiperf */
#define MIPERF_SCHEME		"iperf3://"
#define MIPERF_PORT_DEFAULT	5201	/* iperf3's own */
struct miperf_target {
	char	host[256];
	int	port;
};
bool	 miperf_is_url(const char *);
int	 miperf_parse_url(const char *, struct miperf_target *, char *,
	    size_t);
const char *mjson_at(const char *, const char *);
int	 mjson_num(const char *, const char *, double *);
int	 mjson_str(const char *, const char *, char *, size_t);
int	 miperf_read_round(const char *, enum measure_dir, struct mround *,
	    char *, size_t);

/* metrics_cache_linux.c, metrics_cache_none.c */
int	 mcache_forget(const char *, char *, size_t);

/* measure_url.c */
size_t	 murl_redact(char *, size_t, const char *);
size_t	 murl_redact_text(char *, size_t, const char *);

/* measure_report.c */
enum verdict_kind {
	VERDICT_FASTER,
	VERDICT_SLOWER,
	VERDICT_SAME_WINDOW,	/* the original window covers the BDP */
	VERDICT_SAME_LIMIT,	/* the server or line limits the stream */
	VERDICT_INCONCLUSIVE,
	VERDICT_NO_COMPARISON
};
/* The rules' thresholds, in the man page too. */
#define VERDICT_RATIO		1.2	/* medians this far apart differ */
#define VERDICT_SPREAD		0.5	/* (max - min) / median of a side */
#define VERDICT_BUF_GROWTH	1.5	/* tuned buffer grew this much more */
/* Harm: a faster tuned side whose queue grew, tcptunectl(8) says so too */
#define VERDICT_HARM_RTT	1.5	/* RTT under load this many times */
#define VERDICT_HARM_RETRANS	2.0	/* retransmissions per MB, times */
#define VERDICT_HARM_RETRANS_MIN 0.5	/* ... and at least this per MB */

struct side_stats {
	int		 n;
	double		 median, min, max;	/* steady Mbit/s */
	double		 median_whole;
	uint32_t	 rtt_us;		/* median of the known; 0 none */
	uint64_t	 rcvbuf;		/* median */
	int		 nload;			/* rounds with an RTT under load */
	double		 load_median, load_min, load_max;	/* us */
	int		 nretrans;		/* rounds with retransmissions */
	double		 rtx_median, rtx_min, rtx_max;	/* per MB sent */
};
struct verdict {
	enum verdict_kind kind;
	double		  ratio;	/* tuned / original medians; 0 none */
	bool		  harm;		/* faster, but the queue grew */
	char		  text[512];
};
struct mreport {
	const char	*url;		/* murl_redact's: no password */
	const char	*direction;	/* "download", "upload" */
	const struct mreport *upload;	/* --both: the upload's report */
	unsigned	 seconds;
	bool		 compared;
	char		 why_not[256];	/* no comparison: the reason */
	bool		 metrics_cleared;	/* tcp_metrics, every round */
	char		 metrics_why[160];	/* else why not */
	struct mround	*rounds;
	int		 nrounds;
	struct side_stats orig, tuned, current;
	struct verdict	 verdict;
};
double	 median_of(double *, int);
void	 fmt_rtt(uint32_t, char *, size_t);	/* "45 us", "0.85 ms" */
void	 side_stats(const struct mround *, int, enum measure_side,
	    struct side_stats *);
void	 judge(const struct side_stats *, const struct side_stats *,
	    struct verdict *);
void	 mreport_finish(struct mreport *);
void	 mreport_text(FILE *, const struct mreport *, bool);
void	 mreport_json(FILE *, const struct mreport *);
const char *side_name(enum measure_side);

#endif /* TCPTUNECTL_MEASURE_H */
