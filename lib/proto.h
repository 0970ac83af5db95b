/*
 * The control protocol between tcptuned and tcptunectl.
 *
 * AF_UNIX SOCK_STREAM.  Every message is a struct msg_hdr followed by
 * hdr.len bytes of payload.  Both ends run on the same machine, so fields
 * are in host byte order (as OpenBSD's imsg).  Each message type has one
 * exact payload size (proto_payload_size()); anything else is a protocol
 * error and the connection is closed.
 *
 * A request gets a reply stream that always ends with MSG_END, whose count
 * says how many list items (keys, config errors) came before it.
 *
 *   status   -> MSG_DAEMON_INFO, MSG_KEY_STATUS x n, [MSG_DIAG_SUMMARY],
 *               MSG_END(n)
 *   reload   -> MSG_CONFIG_ERROR x n, MSG_RESULT, MSG_END(n)
 *   restore  -> MSG_RESULT, MSG_END(0)
 *   resume   -> MSG_RESULT, MSG_END(0)
 *   lease    -> MSG_RESULT, MSG_END(0)
 *   diagnose -> MSG_DIAG_SUMMARY, MSG_FLOW x n, MSG_END(n)
 *   a request with another version -> MSG_VERSION, then the daemon closes
 *               (on Windows once the client has closed, or its idle
 *               timeout passed: control_pipe_win.c, start_linger)
 *
 * The hello: a header of version TT_PROTO_HELLO_VERSION, which no version
 * has, is answered by every tcptuned, of any version, with MSG_VERSION
 * and the same seq (struct msg_hdr and struct msg_version never change).
 * A starting tcptuned sends it to tell a running daemon from a stale
 * socket (daemon/control_posix.c).
 *
 * Version history (bump TT_PROTO_VERSION when any payload changes):
 *   1  first version.
 *   2  msg_key_status.source: the file the key's wanted value came from
 *      (the config or the managed preferences file); msg_daemon_info
 *      .last_check (wall clock of the last check cycle, 0 none) and
 *      .managed_path (the managed preferences file in use, "" none);
 *      MSG_LEASE (a timed pause for tcptunectl measure) and the lease
 *      fields of struct msg_daemon_info.
 *   3  msg_daemon_info.damaged_copies and .ndamaged: the damaged originals
 *      files the state directory keeps, paths one a line, oldest first.
 *   4  MSG_DIAGNOSE (struct msg_diagnose), answered by MSG_DIAG_SUMMARY
 *      and MSG_FLOW: the connections the daemon samples and what held
 *      them (daemon/flows/flows.c).  Anyone may ask; a non-root client gets
 *      its own uid's connections in full and the others as counts.
 *   5  msg_diag_summary: what the history may have missed (whether close
 *      notices are watched and why not, notices dropped, connections
 *      seen only as they closed, entries evicted, passes put off, the
 *      tick), so that diagnose never says "no connection" blind.
 *   6  status's reply ends with diagnose's MSG_DIAG_SUMMARY (where the
 *      daemon samples flows), so one status is one snapshot on one
 *      connection, not two.
 *   7  msg_key_status.others: the other places that set the key
 *      (lib/other_sources.c), filled for a drifted, contested or
 *      corrected key, one Mode enforce lowered and one Mode at-least
 *      keeps above the config's value; "" otherwise.  msg_flow: the
 *      path's least round trip (what allowed_bps is at), flags (the
 *      path was full, judged from the close notice, the window scale not
 *      said) and window_cap (a window scale that keeps the connection
 *      below the receive ceiling now); msg_diag_summary.capped and
 *      .capped_unknown, their count.
 *      msg_diag_summary.tick_now_ms (was padding): the sampling tick's
 *      period now, longer while nothing moves (FLOW_SLEEP_MAX_MS).
 *      MSG_RELOAD, MSG_RESTORE and MSG_RESUME carry struct msg_change:
 *      the client's command line, so that the log names who changed
 *      what (uid and pid come from the socket, the command from the
 *      client: a claim, logged as one); msg_daemon_info.paused_since,
 *      .paused_uid, .paused_pid and .paused_command: who paused, and
 *      when, kept over a restart (daemon/originals.c).
 */
#ifndef TCPTUNE_PROTO_H
#define TCPTUNE_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "tcptune.h"

#define TT_PROTO_VERSION	7
#define TT_PROTO_HELLO_VERSION	0	/* never a version: see above */
#define TT_PROTO_MAX_PAYLOAD	(16 * 1024)
#define TT_TEXT_MAX		1280	/* room for a long path and more */
#define TT_ADDR_MAX		64	/* "[v6 address]:port" with the NUL */
#define TT_COMMAND_MAX		128	/* a client's command line, cut */

/*
 * How long a read of the config may take (daemon/parse_posix.c): each
 * parse helper answers within TT_PARSE_DEADLINE_SEC or is killed, and is
 * reaped within TT_PARSE_REAP_SEC after that, or left behind.  A read is
 * of up to two files (the config, then the managed file), a helper each,
 * and a reload that comes during a read waits for that read first.  So
 * tcptunectl's reload waits for two whole reads and a margin
 * (TT_RELOAD_WAIT_SEC): a helper's failure reaches the client in its own
 * words, never as the client's "busy or hung".  One place for both ends,
 * so that they cannot drift apart.
 */
#define TT_PARSE_DEADLINE_SEC	10
#define TT_PARSE_REAP_SEC	1
#define TT_PARSE_READ_MAX_SEC	(2 * (TT_PARSE_DEADLINE_SEC + TT_PARSE_REAP_SEC))
#define TT_RELOAD_WAIT_SEC	50	/* a literal: --help prints it */
_Static_assert(TT_RELOAD_WAIT_SEC >= 2 * TT_PARSE_READ_MAX_SEC + 5,
    "tcptunectl's reload must outwait two reads of the config");

struct msg_hdr {
	uint32_t	type;
	uint32_t	len;		/* payload bytes after the header */
	uint32_t	seq;		/* echoed in every reply */
	uint16_t	version;
	uint16_t	flags;		/* zero */
};

enum msg_type {
	/* requests */
	MSG_STATUS = 1,
	MSG_RELOAD,
	MSG_RESTORE,
	MSG_RESUME,
	MSG_LEASE,		/* payload struct msg_lease */
	MSG_DIAGNOSE,		/* payload struct msg_diagnose (v4) */
	/* replies */
	MSG_DAEMON_INFO = 100,
	MSG_KEY_STATUS,
	MSG_CONFIG_ERROR,
	MSG_RESULT,
	MSG_VERSION,
	MSG_END,
	MSG_DIAG_SUMMARY,	/* v4 */
	MSG_FLOW		/* v4 */
};

/* What the engine knows of one key; also the status line for it. */
enum key_state {
	KS_PENDING = 0,		/* not applied yet */
	KS_IN_FORCE,		/* current == wanted (or >= for at-least) */
	KS_CLAMPED,		/* the kernel's highest accepted value is set */
	KS_REFUSED,		/* the kernel refused it: see err */
	KS_CONTESTED,		/* someone keeps changing it: backing off */
	KS_PAUSED,		/* originals restored, enforcement paused */
	KS_DRIFTED,		/* changed outside: once keys stay so, the
				   next check corrects the others */
	KS_STATE_COUNT
};

struct msg_daemon_info {
	int64_t		started;	/* wall clock, seconds */
	int64_t		now;
	int64_t		last_reload;	/* 0: never */
	int64_t		last_check;	/* 0: none yet (v2) */
	int32_t		pid;
	int32_t		last_reload_ok;	/* 1 ok, 0 failed */
	uint32_t	check_interval;
	uint32_t	nkeys;
	uint32_t	paused;
	uint32_t	restore_on_exit;
	uint32_t	lease;		/* 1: paused for a lease (paused is 1) */
	int32_t		lease_uid;	/* its holder */
	int32_t		lease_pid;	/* -1: the kernel does not say */
	uint32_t	lease_left;	/* seconds until it ends by itself */
	uint64_t	checks;		/* check cycles run */
	char		version[32];
	char		backend[32];
	char		config_path[1024];
	char		managed_path[1024];	/* "" none in use (v2) */
	char		last_reload_msg[TT_TEXT_MAX];
	char		state_problem[TT_TEXT_MAX];	/* "" when fine */
	char		damaged_copies[TT_TEXT_MAX];	/* paths, '\n' between,
							   oldest first (v3) */
	uint32_t	ndamaged;	/* how many; may be more than listed */
	uint32_t	pad;
	int64_t		paused_since;	/* wall clock; 0 not known (v7) */
	int32_t		paused_uid;	/* -1: not known (v7) */
	int32_t		paused_pid;	/* -1: not known (v7) */
	char		paused_command[TT_COMMAND_MAX];	/* "" not said (v7) */
};

/*
 * A change request's payload (v7): the command line the client runs, as
 * it says (printable ASCII; the daemon replaces anything else with '?').
 */
struct msg_change {
	char		command[TT_COMMAND_MAX];
};

/*
 * A timed pause: the daemon puts the originals back and enforces again by
 * itself when the seconds run out, when this connection closes, on resume
 * or on a lease of 0 seconds from the holder, whichever comes first.  The
 * holder renews it by asking again; anyone else is refused while it runs.
 */
#define TT_LEASE_MAX_SEC	600
struct msg_lease {
	uint32_t	seconds;	/* 1..TT_LEASE_MAX_SEC; 0 ends it */
	uint32_t	pad;
};

struct msg_key_status {
	char		name[TT_NAME_MAX];
	char		wanted[TT_VALUE_MAX];	/* as configured */
	char		applied[TT_VALUE_MAX];	/* what we write (clamped) */
	char		current[TT_VALUE_MAX];	/* last read; "" unknown */
	char		original[TT_VALUE_MAX];	/* "" none captured */
	char		note[TT_TEXT_MAX];	/* why clamped, ceiling, ... */
	char		source[1024];	/* file of the wanted value (v2) */
	char		others[512];	/* who else sets it (v7); a status of
					   256 keys stays under 1 MiB */
	int64_t		last_change;	/* wall clock of our last write */
	int64_t		next_attempt;	/* contested: wall clock */
	uint32_t	state;		/* enum key_state */
	uint32_t	mode;		/* enum key_mode */
	uint32_t	on_reject;	/* enum on_reject */
	int32_t		err;		/* errno of the last refusal */
	uint32_t	corrections;	/* drift reverted */
	uint32_t	has_original;
};

/* What held a connection back (daemon/flows/flows.c classifies). */
enum held_by {
	HELD_UNCLASSIFIED = 0,	/* too little data, or no real RTT */
	HELD_RECEIVE_BUFFER,	/* this machine's receive buffer ceiling */
	HELD_SEND_BUFFER,	/* this machine's send buffer ceiling */
	HELD_PEER_WINDOW,	/* the far end's receive window */
	HELD_NETWORK,		/* congestion window, loss, the path */
	HELD_APPLICATION,	/* nothing full: the program asked no more */
	HELD_COUNT
};

struct msg_diagnose {
	uint32_t	all;		/* 1: the unclassified ones too */
	uint32_t	pad;
};

/* The head of a diagnose reply: the whole history, as counts. */
struct msg_diag_summary {
	int64_t		now;		/* wall clock, seconds */
	int64_t		last_pass;	/* wall clock; 0 none yet */
	uint64_t	pass_ms;	/* the last pass's cost */
	uint64_t	held_total[HELD_COUNT];	/* since start, all users */
	uint32_t	held_recent[HELD_COUNT];	/* in the history */
	uint32_t	nflows;		/* MSG_FLOW that follow */
	uint32_t	nhidden;	/* other users': counted, not shown */
	uint32_t	ntracked;	/* in the history, all users */
	uint32_t	history_sec;	/* how far back it goes, at most */
	uint64_t	rcv_ceiling_bytes;	/* the receive-buffer flows' */
	uint32_t	rcv_ceiling_flows;	/* how many held by it */
	uint32_t	tick_now_ms;	/* the tick's period now: longer while idle */
	char		rcv_ceiling_key[TT_NAME_MAX];
	char		sampler[32];	/* "sock_diag", "pcblist_n", ... */
	char		cannot_tell[TT_TEXT_MAX];	/* what this OS hides */
	char		problem[TT_TEXT_MAX];	/* the last pass's, "" fine */
	uint64_t	closes;		/* close notices taken */
	uint64_t	closes_lost;	/* dropped by the kernel: queue full */
	uint64_t	closes_unsampled;	/* closed before any pass read them */
	uint64_t	evicted;	/* history entries taken over, full */
	uint64_t	throttled;	/* passes, notices put off: CPU share */
	uint32_t	tick_ms;	/* a pass this often while busy */
	uint32_t	watching;	/* 1: close notices watched */
	char		watch_why[TT_TEXT_MAX];	/* why not; "" watching */
	uint32_t	capped;		/* open, below the receive ceiling
					   by their window scale */
	uint32_t	capped_unknown;	/* open, their scale not said */
};

/* msg_flow.uid of a connection whose owner the OS did not say. */
#define TT_UID_UNKNOWN	UINT32_MAX

/* One connection and its verdict. */
struct msg_flow {
	char		local[TT_ADDR_MAX];
	char		remote[TT_ADDR_MAX];
	char		ceiling_key[TT_NAME_MAX];	/* "" none */
	uint64_t	ceiling_bytes;
	uint64_t	rate_bps;	/* its fastest check interval */
	uint64_t	allowed_bps;	/* what the ceiling allows at rtt */
	uint64_t	possible_bps;	/* at the configured ceiling; 0 ? */
	uint64_t	bytes;		/* moved while watched */
	int64_t		last_seen;	/* wall clock */
	uint32_t	rtt_us;
	uint32_t	held_by;	/* enum held_by */
	uint32_t	uid;		/* TT_UID_UNKNOWN: not said */
	uint32_t	receiving;	/* 1 download, 0 upload */
	uint32_t	open;		/* 1 still open at the last pass */
	uint32_t	path_rtt_us;	/* the least: allowed_bps's */
	uint32_t	flags;		/* TT_FLOW_* */
	uint32_t	pad;
	uint64_t	window_cap;	/* its window scale's cap, below
					   the receive ceiling; 0 none */
};
#define TT_FLOW_PATH_FULL	0x1	/* the round trip grew: a queue */
#define TT_FLOW_AT_CLOSE	0x2	/* judged from its close notice */
#define TT_FLOW_WSCALE_UNKNOWN	0x4	/* the OS does not say its scale */
#define TT_FLOW_SENDER_SLOW	0x8	/* application: the far end sent no
					   faster (a download) */

struct msg_config_error {
	char		text[TT_TEXT_MAX];
};

enum result_code {
	RESULT_OK = 0,
	RESULT_FAILED,		/* e.g. the new config has errors */
	RESULT_DENIED,		/* needs root */
	RESULT_BAD_REQUEST
};

struct msg_result {
	uint32_t	code;		/* enum result_code */
	uint32_t	pad;
	char		text[TT_TEXT_MAX];
};

struct msg_version {
	uint32_t	server_version;
	uint32_t	client_version;
};

struct msg_end {
	uint32_t	count;
	uint32_t	pad;
};

/*
 * struct msg_hdr and struct msg_version never change, in any version: a
 * peer of another version must still be able to read the mismatch reply.
 * The exact sizes below catch any layout change, which needs a version bump.
 */
_Static_assert(sizeof(struct msg_hdr) == 16, "msg_hdr layout");
_Static_assert(sizeof(struct msg_version) == 8, "msg_version layout");
_Static_assert(sizeof(struct msg_daemon_info) == 6184, "daemon_info v7");
_Static_assert(sizeof(struct msg_change) == 128, "change v7");
_Static_assert(sizeof(struct msg_lease) == 8, "lease v2");
_Static_assert(sizeof(struct msg_key_status) == 4008, "key_status v7");
_Static_assert(sizeof(struct msg_config_error) == 1280, "config_error v1");
_Static_assert(sizeof(struct msg_result) == 1288, "result v1");
_Static_assert(sizeof(struct msg_end) == 8, "end v1");
_Static_assert(sizeof(struct msg_diagnose) == 8, "diagnose v4");
_Static_assert(sizeof(struct msg_diag_summary) == 4184, "diag_summary v7");
_Static_assert(sizeof(struct msg_flow) == 344, "flow v7");
_Static_assert(sizeof(struct msg_daemon_info) <= TT_PROTO_MAX_PAYLOAD,
    "daemon info too large");
_Static_assert(sizeof(struct msg_key_status) <= TT_PROTO_MAX_PAYLOAD,
    "key status too large");

/* proto.c */
long		 proto_payload_size(uint32_t);
const char	*proto_type_name(uint32_t);
int		 proto_check_header(const struct msg_hdr *, char *, size_t);
size_t		 proto_encode(void *, size_t, uint32_t, uint32_t, const void *,
		    size_t);
void		 proto_terminate_strings(uint32_t, void *);
void		 proto_printable(char *);
const char	*key_state_name(uint32_t);
const char	*result_code_name(uint32_t);
const char	*held_by_name(uint32_t);

#endif /* TCPTUNE_PROTO_H */
