/*
 * flows: the machine's own TCP connections, read on a tick of their own
 * (FLOW_TICK_MS), kept in a short history bounded in entries and age
 * (memory only, never on disk), and classified by what held each one
 * back: this machine's receive or send buffer at its ceiling, the far
 * end's window, the network, or the application.
 *
 * flows.c (the history) and flows_verdict.c (the classifier) are the
 * same on every OS.  The readings come from one per-OS file behind a
 * table of functions (struct flows_ops, below): flows_linux.c
 * (NETLINK_SOCK_DIAG), flows_darwin.c (pcblist_n), flows_win.c
 * (GetPerTcpConnectionEStats), flows_null.c (none).
 */
#ifndef TCPTUNE_FLOWS_H
#define TCPTUNE_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "proto.h"

#define FLOWS_MAX		256	/* connections in the history */
#define FLOWS_UID_SHARE		(FLOWS_MAX / 4)	/* one owner's, when full */
#define FLOWS_MAX_AGE		3600	/* seconds a gone one is kept */
#define FLOW_MIN_BYTES		(1024 * 1024)	/* "a meaningful amount" */
#define FLOW_MIN_RTT_US		2000	/* below: a LAN or loopback */
/*
 * A buffer verdict whose rate is more than FLOW_RATE_SLACK times what
 * that buffer allows at the connection's round trip contradicts itself
 * (a window per round trip is the most a buffer gives): such a flow is
 * left unclassified, never counted as held (a forged verdict's tell).
 */
#define FLOW_RATE_SLACK		4
/*
 * A buffer binds only when the rate is at least FLOW_BINDS_NUM/DEN of
 * what it allows (half of it a round trip, flows_window_rate) at the
 * path's own round trip (its least: tcpi_min_rtt, or the lowest the flow
 * showed), and the round trip did not grow to FLOW_RTT_GROWN_PCT % of
 * that least: a flow whose round trip grew kept more in flight than the
 * path passes (the excess waits in a queue), so the path was full and a
 * larger buffer would not help (flows_verdict.c).  A buffer that held a
 * flow gives it about 5/8 of itself a round trip on Linux (the measured
 * scaling ratio: tools/advise/advise_model.c, LINUX_RCV_MEASURED) and
 * all of it on macOS and Windows, 1.25 and 2 times that half; one the
 * flow did not fill gives less: a 64 MiB download that filled a 1 Gbit/s
 * link at 150 ms ran at 0.54 of it, which 1/2 called receive-buffer
 * (bench/flows/accuracy.sh).  3/4 keeps a margin on both sides (the
 * slowest held run seen on a busy machine: 0.88).
 */
#define FLOW_BINDS_NUM		3
#define FLOW_BINDS_DEN		4
/*
 * An upload's send queue this full of its send buffer (1/2) had its
 * writer blocked on the buffer (flows_verdict.c send_queue_full): a
 * blocked writer keeps 2/3 or more queued, a reading between its wake-up
 * and its next write a little less (0.65 of 8 MiB on a busy machine,
 * bench/flows/accuracy.sh); a paced one about what is in flight (0.09
 * of 20 MiB at 100 Mbit/s).
 */
#define FLOW_SND_QUEUE_FULL_NUM	1
#define FLOW_SND_QUEUE_FULL_DEN	2
#define FLOW_RTT_GROWN_PCT	150
/*
 * A download whose sender sent less than the window offered: held by the
 * far end's program (or its send buffer) when the window this end offered
 * allowed at least FLOW_WINDOW_SPARE times the rate, and the path showed
 * no sign of being the limit (no out-of-order packet received: no loss;
 * the round trip not grown).  A 100 Mbit/s paced sender had a 49 to 64 MB
 * buffer's window, 1.3 to 1.8 Gbit/s at 150 ms, 7 to 18 times its rate; a
 * download at a 1 Gbit/s link's rate under a 64 MiB ceiling 2 to 3 times
 * (bench/flows/accuracy.sh).
 */
#define FLOW_WINDOW_SPARE	4
/*
 * A pass costs a dump of the kernel's whole connection table (on Linux a
 * walk of every bucket of the established hash, 262144 on a 24 GiB
 * machine: about 1.5 ms per address family).  When the OS counts TCP
 * segments, a check cycle that moved fewer than FLOW_QUIET_SEGS, after
 * one that did too, skips its pass: no transfer worth diagnosing ran, and
 * the pass after the last busy one has seen how it ended.  A quiet
 * machine still gets a pass every FLOW_QUIET_MAX_MS.
 */
#define FLOW_QUIET_SEGS		64
#define FLOW_QUIET_MAX_MS	60000
/*
 * The passes are not tied to CheckInterval (60 s as shipped: a transfer
 * that started and ended between two checks went unseen): a tick every
 * FLOW_TICK_MS reads the segment count and runs a pass while the machine
 * is busy, so a transfer of FLOW_TICK_MS or more is read while it runs.
 * A pass never starts before FLOW_CPU_SHARE times the last one's cost has
 * gone by: passes take at most 1/FLOW_CPU_SHARE of one CPU, however large
 * the connection table.
 */
#define FLOW_TICK_MS		1000
#define FLOW_CPU_SHARE		100
/*
 * While nothing moves the tick sleeps longer: each quiet tick (fewer than
 * FLOW_QUIET_SEGS since the one before; without a segment count, a pass
 * whose connections moved fewer than FLOW_QUIET_BYTES together) doubles
 * the period, up to FLOW_SLEEP_MAX_MS; a tick that sees more, or a close
 * notice, brings it back to FLOW_TICK_MS.  An idle daemon then wakes for
 * diagnose once a FLOW_SLEEP_MAX_MS, the check timer's wake-up beside it;
 * a transfer that starts during a sleep is judged at its close notice, or
 * read from the next tick on.  The timer may fire up to 1/FLOW_TICK_LEEWAY
 * of its period late, so that the OS can fold it into other wake-ups
 * (ev_timer_start_lax).
 */
#define FLOW_SLEEP_MAX_MS	60000	/* FLOW_QUIET_MAX_MS: a pass a tick */
#define FLOW_QUIET_BYTES	FLOW_TRACK_BYTES
#define FLOW_TICK_LEEWAY	10
/*
 * The close notices (Linux) spend the same share: one budget of CPU time
 * (struct flow_budget) that accrues at 1/FLOW_CPU_SHARE of the wall clock,
 * up to FLOW_BUDGET_BURST_US, and that the passes and the reading of
 * notices both spend, each what its CPU time was.  Out of budget, a pass
 * is put off and the notices are not read until the budget is back (the
 * kernel drops what its queue cannot hold: counted, and diagnose says
 * so).  At most FLOW_NOTICE_BATCH notices are read at one wake-up.
 */
#define FLOW_BUDGET_BURST_US	(FLOW_TICK_MS * 1000LL / FLOW_CPU_SHARE)
/*
 * Credit per second of wall clock, in CPU microseconds: nine tenths of
 * 1/FLOW_CPU_SHARE, the last tenth left for what the budget cannot see
 * (the event loop's wake-ups, the kernel's accounting of them): the
 * daemon's whole CPU, as /proc counts it, stays under the share
 * (bench/flows/closes.sh).
 */
#define FLOW_BUDGET_US_PER_S	(1000000 / FLOW_CPU_SHARE * 9 / 10)
#define FLOW_NOTICE_BATCH	64
/* A connection that moved less, both ways together, takes no slot. */
#define FLOW_TRACK_BYTES	(64 * 1024)

/* What an OS can tell of a connection (flow_reading.known). */
#define FLOW_KNOWS_LIMITED	0x01	/* rwnd/sndbuf-limited times */
#define FLOW_KNOWS_CWND		0x02	/* the congestion window */
#define FLOW_KNOWS_UID		0x04	/* the owner */
#define FLOW_KNOWS_RECEIVED	0x08	/* bytes received */
#define FLOW_KNOWS_PEER_WND	0x10	/* the far end's window */
#define FLOW_KNOWS_MIN_RTT	0x20	/* the kernel's least round trip */
#define FLOW_KNOWS_WSCALE	0x40	/* the window scales of the SYNs */
#define FLOW_KNOWS_RCV_SPACE	0x80	/* receive autotuning's rcv_space */
#define FLOW_KNOWS_SND_QUEUE	0x100	/* bytes queued in the send buffer */
#define FLOW_KNOWS_NOTSENT	0x200	/* bytes in flight and not yet sent */
#define FLOW_KNOWS_RCV_OOO	0x400	/* out-of-order packets received */

/* One connection, in one pass, as the OS tells it. */
struct flow_reading {
	uint64_t	id;		/* the OS's own, stable for its life */
	char		local[TT_ADDR_MAX];	/* "addr:port", [v6]:port */
	char		remote[TT_ADDR_MAX];
	uint32_t	uid;
	uint32_t	known;		/* FLOW_KNOWS_* */
	uint32_t	rtt_us;		/* smoothed */
	uint32_t	retrans;	/* segments retransmitted, all life */
	uint64_t	bytes_acked;	/* sent and acknowledged */
	uint64_t	bytes_received;
	uint64_t	busy_us;	/* with data to send, all kinds */
	uint64_t	rwnd_limited_us;	/* of busy_us */
	uint64_t	sndbuf_limited_us;	/* of busy_us */
	uint64_t	cwnd_bytes;	/* congestion window */
	uint64_t	peer_wnd;	/* the far end's advertised window */
	uint64_t	rcvbuf;		/* receive buffer, its limit now */
	uint64_t	sndbuf;
	uint64_t	rmem_alloc;	/* in the receive queue now */
	uint64_t	wmem_queued;	/* in the send queue now, sent or
					   not (Linux sk_wmem_queued) */
	uint32_t	idle_ms;	/* since data last moved; 0 unknown */
	bool		app_limited;	/* the last rate sample was */
	bool		listening;	/* a listener: its port, no flow */
	uint32_t	min_rtt_us;	/* the kernel's least; 0 unknown */
	uint32_t	rcv_rtt_us;	/* the receiver's own estimate */
	uint64_t	rcv_space;	/* most the program read in one */
	uint8_t		rcv_wscale;	/* ours, fixed by the SYNs */
	uint8_t		snd_wscale;	/* the far end's */
	uint64_t	in_flight;	/* sent, not acknowledged (bytes) */
	uint64_t	notsent;	/* written by the program, not sent */
	uint32_t	rcv_ooopack;	/* out-of-order packets, all life */
};


/*
 * The ceilings in force for one direction: the autotuning one (Linux
 * tcp_rmem[2]; macOS autorcvbufmax) and the one on a buffer a program
 * sets itself (rmem_max; maxsockbuf); with what tcptune's configuration
 * wants for each (0: not configured), for the rate tuning would allow.
 */
struct flow_ceiling {
	const char	*key;		/* static; NULL none known */
	uint64_t	bytes;		/* what the key allows */
	uint64_t	wanted;		/* what the config wants; 0 none */
	uint32_t	factor;		/* buffer bytes per byte of the key:
					   Linux SO_RCVBUF 2, a Windows window
					   2 (readings count twice the window
					   as buffer, half being window) */
	bool		exact;		/* reached only at exactly that size
					   (a program's own buffer) */
};
struct flow_limits {
	struct flow_ceiling	rcv_auto, rcv_fixed, snd_auto, snd_fixed;
};

/* One connection in the history. */
struct flow {
	struct flow_reading	first, last;
	struct flow_limits	limits;		/* at the last reading */
	uint64_t		first_ms, last_ms;	/* tt_mono_ms() */
	uint64_t		prev_ms;
	uint64_t		prev_bytes;	/* both directions, at prev_ms */
	uint64_t		peak_bps;	/* fastest interval */
	uint64_t		rcvbuf_max, sndbuf_max;
	uint32_t		readings, app_limited;	/* how many were */
	uint64_t		seen_pass;	/* the last pass it was in */
	bool			open;		/* seen in the last pass */
	bool			used;
	bool			passive;	/* accepted: its local port
						   was listening */
	bool			at_close;	/* first seen in its close
						   notice */
	uint32_t		path_rtt_us;	/* the least round trip */
	uint32_t		peak_rtt_us;	/* the one at peak_bps */
	uint64_t		peak_queued;	/* send queue and buffer of */
	uint64_t		peak_sndbuf;	/* the reading at peak_bps;
						   0 unknown */
	uint64_t		peak_rmem;	/* receive queue and buffer */
	uint64_t		peak_rcvbuf;	/* of it; 0 unknown */
	/*
	 * The sender's windows at peak_bps (flows_verdict.c note_peak):
	 * what held the fastest interval, not the whole life.
	 */
	uint32_t		peak_known;	/* FLOW_KNOWS_* of these */
	uint64_t		peak_cwnd, peak_peer_wnd;
	uint64_t		peak_in_flight, peak_notsent;
	uint32_t		peak_retrans;	/* segments, in the interval */
};

/*
 * This machine's own addresses, as flows_os.local_addrs found them:
 * all of them, however many (a fixed table of 128 made a connection
 * between two addresses past it evidence again); grown as needed by
 * flows_addr_add(), freed by flows_free().  partial: the list could not
 * be had whole (out of memory), so no connection is taken as evidence.
 */
struct flow_addrs {
	char		(*host)[TT_ADDR_MAX];	/* no port */
	size_t		 n, cap;
	bool		 partial;
};

struct flow_history {
	struct flow	 flows[FLOWS_MAX];
	size_t		 top;		/* flows[top...] never used: never
					   read either, so their pages stay
					   untouched (resident size) */
	uint64_t	 passes;
	uint64_t	 last_pass_ms;
	uint64_t	 last_pass_ms_cost;	/* how long the last pass took */
	uint64_t	 held_total[HELD_COUNT];	/* since start */
	uint64_t	 closes;	/* close notices taken */
	uint64_t	 closes_unsampled;	/* of those, never read live */
	uint64_t	 evicted;	/* entries taken over, the table full */
	struct flow_addrs local;	/* both ends in it: never evidence */
	/* the listening ports of this pass and the one before (a dump
	   reads IPv4 before IPv6, a dual-stack listener after its clients) */
	uint8_t		 listen[2][65536 / 8];
	size_t		 nlisten[2];	/* ports set in each */
	unsigned	 listen_now;	/* which of the two is this pass's */
	char		 problem[TT_TEXT_MAX];	/* the last pass's, "" fine */
};

/* What held a flow, and what it could do without that. */
struct flow_verdict {
	enum held_by	 held;
	bool		 receiving;	/* a download, from this side */
	uint64_t	 rate_bps;
	uint64_t	 bytes;		/* moved while in the history */
	const struct flow_ceiling *ceiling;	/* buffer kinds; else NULL */
	uint64_t	 ceiling_bytes;
	uint64_t	 allowed_bps;	/* what the ceiling allows at this RTT */
	uint64_t	 possible_bps;	/* at the wanted ceiling; 0 unknown */
	uint32_t	 path_rtt_us;	/* the least: what allowed_bps uses */
	bool		 path_full;	/* the round trip grew: a queue */
	bool		 sender_slow;	/* a download the far end sent no
					   faster (application) */
	bool		 at_close;	/* judged from its close notice */
	uint64_t	 window_cap;	/* 65535 << its receive window scale,
					   below the ceiling now; 0 none */
};

/*
 * flows_estats.c: what Windows's extended TCP statistics say of one
 * connection (tcpestats.h, the documented ROD structures; flows_win.c
 * copies them in), into a reading; and an auto-tuning level's window.
 * Portable, so tests/unit/test_flows.c checks it with recorded values.
 */
struct estats_record {
	uint64_t	id;
	char		local[TT_ADDR_MAX], remote[TT_ADDR_MAX];
	uint64_t	DataBytesOut, DataBytesIn;	/* DATA_ROD */
	uint32_t	SmoothedRtt;			/* PATH_ROD, ms */
	uint32_t	SndLimTimeRwin, SndLimTimeCwnd,	/* SND_CONG_ROD, ms */
			SndLimTimeSnd, CurCwnd;
	uint32_t	CurRwinSent, MaxRwinSent;	/* REC_ROD */
	uint32_t	CurRwinRcvd;			/* OBS_REC_ROD */
};
void	 flows_estats_reading(const struct estats_record *,
	    struct flow_reading *);
uint64_t flows_estats_level_window(const char *);
void	 flows_estats_limits(const char *, struct flow_limits *);

/*
 * flows_pcblist.c: macOS's net.inet.tcp.pcblist_n records into readings,
 * each handed to take(arg, reading): the number taken, or -1 with why
 * for a buffer that does not hold together (nothing past len is read);
 * and the macOS ceilings from autorcvbufmax, autosndbufmax, maxsockbuf,
 * the receive one as far as the window scale lets a buffer grow.
 * Portable, so tests/unit/test_flows.c checks it with built buffers.
 */
int	 flows_pcblist_parse(const void *, size_t,
	    void (*)(void *, const struct flow_reading *), void *, char *,
	    size_t);
void	 flows_pcblist_limits(uint64_t, uint64_t, uint64_t,
	    struct flow_limits *);
uint64_t flows_pcblist_rcv_reach(uint64_t);

/* flows.c */
void	 flows_init(struct flow_history *);
void	 flows_free(struct flow_history *);
int	 flows_addr_add(struct flow_addrs *, const char *);
void	 flows_begin_pass(struct flow_history *, uint64_t);
void	 flows_take(struct flow_history *, const struct flow_reading *,
	    const struct flow_limits *, uint64_t);
void	 flows_end_pass(struct flow_history *, uint64_t);
void	 flows_close(struct flow_history *, const struct flow_reading *,
	    const struct flow_limits *, uint64_t);
bool	 flows_local_pair(const struct flow_reading *,
	    const struct flow_addrs *);
void	 flows_to_msg(const struct flow *, const struct flow_verdict *,
	    struct msg_flow *);
bool	 flows_owned_by(const struct flow *, unsigned long);
void	 flows_summary(const struct flow_history *, unsigned long, bool,
	    struct msg_diag_summary *);

/* flows_verdict.c: what held a flow (flows_classify), from its readings */
uint64_t flows_window_rate(uint64_t, uint32_t);
void	 flows_classify(const struct flow *, struct flow_verdict *);
void	 flows_note_rtt(struct flow *, const struct flow_reading *, bool);
void	 flows_close_rate(struct flow *, const struct flow_reading *,
	    uint64_t);
uint64_t flows_window_cap(const struct flow *);

/* Whether a pass is due (FLOW_QUIET_SEGS): the segment count then. */
struct flow_quiet {
	uint64_t	segs;		/* at the last cycle; */
	bool		have;		/* ... when known */
	bool		was_quiet;	/* the last cycle moved little */
	uint64_t	last_pass_ms;
	uint64_t	bytes;		/* the last pass's connections', */
	bool		have_bytes;	/* ... once a pass counted them */
	uint32_t	tick_ms;	/* the tick's period now */
};
bool	 flows_pass_due(struct flow_quiet *, int, uint64_t, uint64_t);
bool	 flows_bytes_quiet(struct flow_quiet *, uint64_t);
uint32_t flows_tick_next(struct flow_quiet *, bool);

/* The CPU time diagnose may spend now (FLOW_CPU_SHARE). */
struct flow_budget {
	uint64_t	at_ms;		/* credit counted up to then */
	int64_t		credit_us;	/* below 0: spent ahead */
	bool		started;
};
bool	 flows_budget_left(struct flow_budget *, uint64_t);
void	 flows_budget_spend(struct flow_budget *, uint64_t);
uint64_t flows_budget_wait_ms(const struct flow_budget *);
int	 flows_snmp_tcp_segs(const char *, uint64_t *);

/*
 * What an OS gives diagnose, as a table of functions: one const instance,
 * flows_os, per OS file (flows_linux.c, flows_darwin.c, flows_win.c,
 * flows_null.c), the one Makefile.am builds, as tools/'s struct output
 * is one per format.  What the OS lacks is NULL, and diagnose.c does
 * without it.
 *
 * sample: one pass over the OS's connections, each handed to take(arg,
 *	reading); 0, or -1 with why.  NULL: no reading (FreeBSD).
 * limits: the ceilings, through the sysctl backend.  NULL: none known.
 * wanted: the bytes a configured value gives a ceiling; NULL: 0.
 * segments: the stack's TCP segments in and out, 0 or -1; NULL: not
 *	counted cheaply (macOS, Windows), every tick gets its pass.
 * local_addrs: this machine's addresses, 0 or -1; NULL: none listed
 *	(only loopback and the same address at both ends are local).
 * watch_open: close notices (Linux): an fd that becomes readable when
 *	connections close, or -1 with why.  NULL: none (diagnose says
 *	what passes alone may miss).
 * watch_read: each notice read, at most max of them, handed to take(arg,
 *	reading) as the connection's last reading (what the OS does not say
 *	in a notice is not marked known); notices the kernel dropped, its
 *	queue full, added to *lost.  0 when the queue is empty, 1 when max
 *	were read (more may wait), or -1 with errno.
 */
struct sysctl_backend;
struct flows_ops {
	const char	*name;		/* the sampler: "sock_diag", ... */
	const char	*cannot_tell;	/* what this OS hides; "" nothing */
	int		(*sample)(void (*)(void *, const struct flow_reading *),
			    void *, char *, size_t);
	void		(*limits)(struct sysctl_backend *, struct flow_limits *);
	uint64_t	(*wanted)(const struct flow_ceiling *, const char *);
	int		(*segments)(uint64_t *);
	int		(*local_addrs)(struct flow_addrs *);
	int		(*watch_open)(char *, size_t);
	int		(*watch_read)(int, void (*)(void *,
			    const struct flow_reading *), void *, uint64_t *,
			    size_t);
};
extern const struct flows_ops flows_os;

/* flows_addrs_posix.c: getifaddrs, for Linux's and macOS's tables. */
int	 flows_getifaddrs(struct flow_addrs *);

#endif /* TCPTUNE_FLOWS_H */
