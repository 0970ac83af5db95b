/*
 * daemon/control.c, the transport-free control server, driven with a fake
 * daemon (control_ops) and a fake transport (ctl_io): replies, privilege,
 * slot limits and root's reserve, one reply at a time, the output budget,
 * a change whose sender has gone, the end of input, bad input, the bound
 * on one reply, requests in pieces, idle time and a lease holder; and the
 * bound on what a client can make the daemon log.
 */
#include "config.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tcptuned.h"

struct fake_daemon {
	uint32_t	nkeys;
	int		reloads, restores, resumes, statuses;
	long		changed_by;	/* the uid restore, resume or reload got */
	char		command[TT_COMMAND_MAX];	/* and the command */
};

struct fake_conn {
	bool	gone;
	int	kicks;
};

static struct fake_daemon	fd_state;

static void
fake_status(void *arg, struct msg_daemon_info *info)
{
	struct fake_daemon	*d = arg;

	memset(info, 0, sizeof(*info));
	info->nkeys = d->nkeys;
	d->statuses++;
}

static void
fake_key_status(void *arg, uint32_t i, struct msg_key_status *ks)
{
	(void)arg;
	memset(ks, 0, sizeof(*ks));
	snprintf(ks->name, sizeof(ks->name), "net.key%u", i);
}

static int
fake_reload(void *arg, struct errlist *errs, char *msg, size_t len)
{
	((struct fake_daemon *)arg)->reloads++;
	errlist_add(errs, "t.conf:1: one error");
	snprintf(msg, len, "reloaded");
	return -1;
}

static int
fake_restore(void *arg, const struct ctl_peer *peer, char *msg,
    size_t len)
{
	((struct fake_daemon *)arg)->restores++;
	((struct fake_daemon *)arg)->changed_by = (long)peer->user;
	tt_strlcpy(((struct fake_daemon *)arg)->command, peer->command,
	    TT_COMMAND_MAX);
	snprintf(msg, len, "restored");
	return 0;
}

static int
fake_resume(void *arg, const struct ctl_peer *peer, char *msg,
    size_t len)
{
	((struct fake_daemon *)arg)->resumes++;
	((struct fake_daemon *)arg)->changed_by = (long)peer->user;
	snprintf(msg, len, "resumed");
	return 0;
}

static int
fake_lease(void *arg, const void *holder, const struct ctl_peer *peer,
    uint32_t seconds, char *msg, size_t len)
{
	(void)arg;
	(void)holder;
	snprintf(msg, len, "lease of %u s for uid %lu", seconds, peer->user);
	return RESULT_OK;
}

static const void	*gone_holder;

static void
fake_client_gone(void *arg, const void *holder)
{
	(void)arg;
	gone_holder = holder;
}

static const void	*lease_holder;	/* fake_holds_lease's answer */

static bool
fake_holds_lease(void *arg, const void *holder)
{
	(void)arg;
	return holder != NULL && holder == lease_holder;
}

/* Two flows, the second the asker's only when it is uid 1000. */
static const struct ctl_peer	*diag_peer;
static bool			 diag_all;

static struct msg_flow *
fake_diagnose(void *arg, const struct ctl_peer *peer, bool all,
    struct msg_diag_summary *sum, size_t *n)
{
	struct msg_flow	*f;
	size_t		 shown = peer->privileged ? 2 : peer->user == 1000;

	(void)arg;
	diag_peer = peer;
	diag_all = all;
	memset(sum, 0, sizeof(*sum));
	sum->nflows = (uint32_t)shown;
	if (n == NULL)		/* status's summary: nothing to copy */
		return NULL;
	f = calloc(2, sizeof(*f));
	assert_non_null(f);
	*n = shown;
	return f;
}

static void
fake_kick(void *conn)
{
	((struct fake_conn *)conn)->kicks++;
}

static bool
fake_gone(void *conn)
{
	return ((struct fake_conn *)conn)->gone;
}

static struct ctl_server *
server(int max_clients)
{
	static const struct ctl_io	io = { fake_kick, fake_gone };
	struct control_ops		ops = { fake_status, fake_key_status,
					    fake_reload, fake_restore,
					    fake_resume, fake_lease,
					    fake_client_gone, fake_holds_lease,
					    &fd_state, fake_diagnose, NULL };
	struct ctl_server		*s;

	memset(&fd_state, 0, sizeof(fd_state));
	fd_state.nkeys = 3;
	lease_holder = NULL;
	s = ctl_server_new(&ops, &io, max_clients);
	assert_non_null(s);
	return s;
}

static struct ctl_client *
client(struct ctl_server *s, unsigned long user, struct fake_conn *conn)
{
	struct ctl_peer	peer = { user, user == 0, 4242, "" };

	return ctl_client_new(s, &peer, conn);
}

/* A request, with the command line a change request carries (v7). */
static void
send_request_as(struct ctl_client *c, uint32_t type, uint32_t seq,
    uint16_t version, const char *command)
{
	char		 msg[sizeof(struct msg_hdr) + sizeof(struct msg_change)];
	struct msg_hdr	 h;
	struct msg_change ch;

	memset(&h, 0, sizeof(h));
	memset(&ch, 0, sizeof(ch));
	h.type = type;
	h.seq = seq;
	h.version = version;
	if (type == MSG_RELOAD || type == MSG_RESTORE || type == MSG_RESUME) {
		h.len = sizeof(ch);
		memcpy(ch.command, command, strlen(command) < sizeof(ch.command) ?
		    strlen(command) : sizeof(ch.command));	/* maybe unended */
	}
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), &ch, h.len);
	ctl_client_input(c, msg, sizeof(h) + h.len);
}

static void
send_request(struct ctl_client *c, uint32_t type, uint32_t seq,
    uint16_t version)
{
	send_request_as(c, type, seq, version, "tcptunectl restore");
}

/* The bytes of a lease request for seconds, in msg; their count. */
static size_t
lease_request(char *msg, uint32_t seconds)
{
	struct msg_hdr		h;
	struct msg_lease	l;

	memset(&h, 0, sizeof(h));
	memset(&l, 0, sizeof(l));
	h.type = MSG_LEASE;
	h.len = sizeof(l);
	h.version = TT_PROTO_VERSION;
	l.seconds = seconds;
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), &l, sizeof(l));
	return sizeof(h) + sizeof(l);
}

/* How many bytes wait to be sent to the client. */
static size_t
pending(const struct ctl_client *c)
{
	size_t	len;

	(void)ctl_client_output(c, &len);
	return len;
}

/* The types of the messages in the client's output; their count. */
static size_t
output_types(const struct ctl_client *c, uint32_t *types, size_t max)
{
	const char	*p;
	struct msg_hdr	 h;
	size_t		 len, off = 0, n = 0;

	p = ctl_client_output(c, &len);
	while (off + sizeof(h) <= len && n < max) {
		memcpy(&h, p + off, sizeof(h));
		types[n++] = h.type;
		off += sizeof(h) + h.len;
	}
	assert_int_equal(off, len);
	return n;
}

/* The client reads everything queued for it. */
static void
drain(struct ctl_client *c)
{
	size_t	len;

	(void)ctl_client_output(c, &len);
	ctl_client_sent(c, len);
}

/* The result code in the output's MSG_RESULT; -1 if there is none. */
static long
result_code(const struct ctl_client *c)
{
	const char		*p;
	struct msg_hdr		 h;
	struct msg_result	 r;
	size_t			 len, off = 0;

	p = ctl_client_output(c, &len);
	while (off + sizeof(h) <= len) {
		memcpy(&h, p + off, sizeof(h));
		if (h.type == MSG_RESULT) {
			memcpy(&r, p + off + sizeof(h), sizeof(r));
			return r.code;
		}
		off += sizeof(h) + h.len;
	}
	return -1;
}

static void
test_status_reply(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*c = client(s, 1000, &k);
	uint32_t		 t[16];

	(void)arg;
	send_request(c, MSG_STATUS, 7, TT_PROTO_VERSION);
	assert_int_equal(output_types(c, t, 16), 6);
	assert_int_equal(t[0], MSG_DAEMON_INFO);
	assert_int_equal(t[1], MSG_KEY_STATUS);
	assert_int_equal(t[3], MSG_KEY_STATUS);
	assert_int_equal(t[4], MSG_DIAG_SUMMARY);	/* one snapshot */
	assert_int_equal(t[5], MSG_END);
	assert_false(ctl_client_finished(c));
	ctl_client_free(c);
	ctl_server_free(s);
}

/* The next request waits until the previous reply is out. */
static void
test_one_reply_at_a_time(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*c = client(s, 1000, &k);
	uint32_t		 t[16];
	size_t			 len;

	(void)arg;
	send_request(c, MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_int_equal(ctl_client_room(c), 0);
	assert_int_equal(fd_state.statuses, 1);
	(void)ctl_client_output(c, &len);
	ctl_client_sent(c, len / 2);	/* half read: still one reply held */
	assert_int_equal(ctl_client_room(c), 0);
	ctl_client_sent(c, len - len / 2);
	assert_true(ctl_client_room(c) > 0);
	/* two pipelined: answered one after the other */
	send_request(c, MSG_STATUS, 2, TT_PROTO_VERSION);
	assert_int_equal(output_types(c, t, 16), 6);
	drain(c);
	assert_int_equal(fd_state.statuses, 2);
	ctl_client_free(c);
	ctl_server_free(s);
}

/* Pipelined requests, then the end of input: all answered, then done. */
static void
test_input_end(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*c = client(s, 1000, &k);
	struct msg_hdr		 h[2];

	(void)arg;
	memset(h, 0, sizeof(h));
	h[0].type = h[1].type = MSG_STATUS;
	h[0].version = h[1].version = TT_PROTO_VERSION;
	ctl_client_input(c, h, sizeof(h));
	ctl_client_input_end(c);
	assert_int_equal(ctl_client_room(c), 0);
	assert_false(ctl_client_finished(c));
	drain(c);
	assert_false(ctl_client_finished(c));	/* the second reply */
	drain(c);
	assert_true(ctl_client_finished(c));
	assert_int_equal(fd_state.statuses, 2);
	ctl_client_free(c);
	ctl_server_free(s);
}

static void
test_per_user_limit(void **arg)
{
	struct ctl_server	*s = server(CONTROL_MAX_CLIENTS);
	struct ctl_client	*c[CONTROL_MAX_PER_USER + 1];
	struct ctl_client	*other, *root;
	struct fake_conn	 k = { 0 };
	int			 i;

	(void)arg;
	for (i = 0; i < CONTROL_MAX_PER_USER; i++)
		assert_non_null(c[i] = client(s, 1000, &k));
	assert_null(client(s, 1000, &k));
	assert_non_null(other = client(s, 1001, &k));
	assert_non_null(root = client(s, 0, &k));
	ctl_client_free(c[0]);		/* a slot of user 1000 frees */
	assert_non_null(c[0] = client(s, 1000, &k));
	for (i = 0; i < CONTROL_MAX_PER_USER; i++)
		ctl_client_free(c[i]);
	ctl_client_free(other);
	ctl_client_free(root);
	ctl_server_free(s);
}

/* Of 20 slots, 16 are root's: users get 4, root gets every one. */
static void
test_root_reserve(void **arg)
{
	struct ctl_server	*s = server(CONTROL_ROOT_RESERVE + 4);
	struct ctl_client	*c[CONTROL_ROOT_RESERVE + 4];
	struct fake_conn	 k = { 0 };
	int			 i, n = 0;

	(void)arg;
	for (i = 0; i < 4; i++)
		assert_non_null(c[n++] = client(s, 1000 + (unsigned)i, &k));
	assert_null(client(s, 2000, &k));
	while (n < CONTROL_ROOT_RESERVE + 4) {
		assert_false(ctl_server_full(s));
		assert_non_null(c[n++] = client(s, 0, &k));
	}
	assert_true(ctl_server_full(s));
	assert_null(client(s, 0, &k));
	while (n > 0)
		ctl_client_free(c[--n]);
	ctl_server_free(s);
}

/*
 * The command a client claims is kept for the log made safe: ended
 * within its field, a newline or escape (a forged log line) made '?'.
 */
static void
test_change_command_made_safe(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*root = client(s, 0, &k);
	char			 longest[TT_COMMAND_MAX + 1];

	(void)arg;
	send_request_as(root, MSG_RESTORE, 1, TT_PROTO_VERSION,
	    "set x\nFAKE line\033[31m");
	assert_int_equal(result_code(root), RESULT_OK);
	assert_string_equal(fd_state.command, "set x?FAKE line?[31m");
	drain(root);
	memset(longest, 'a', sizeof(longest) - 1);
	longest[sizeof(longest) - 1] = '\0';
	send_request_as(root, MSG_RESTORE, 2, TT_PROTO_VERSION, longest);
	assert_int_equal(result_code(root), RESULT_OK);
	assert_int_equal(strlen(fd_state.command), TT_COMMAND_MAX - 1);
	ctl_client_free(root);
	ctl_server_free(s);
}

static void
test_changes_need_privilege(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*user = client(s, 1000, &k);
	struct ctl_client	*root = client(s, 0, &k);
	uint32_t		 t[16];

	(void)arg;
	fd_state.changed_by = -1;
	send_request(user, MSG_RESTORE, 1, TT_PROTO_VERSION);
	assert_int_equal(result_code(user), RESULT_DENIED);
	assert_int_equal(fd_state.restores, 0);
	assert_int_equal(fd_state.changed_by, -1);
	drain(user);
	send_request(root, MSG_RESTORE, 1, TT_PROTO_VERSION);
	assert_int_equal(result_code(root), RESULT_OK);
	/* who asked reaches the daemon, for its log and status */
	assert_int_equal(fd_state.changed_by, 0);
	assert_string_equal(fd_state.command, "tcptunectl restore");
	drain(root);
	send_request(root, MSG_RESUME, 2, TT_PROTO_VERSION);
	assert_int_equal(result_code(root), RESULT_OK);
	drain(root);
	send_request(root, MSG_RELOAD, 3, TT_PROTO_VERSION);
	assert_int_equal(output_types(root, t, 16), 3);
	assert_int_equal(t[0], MSG_CONFIG_ERROR);
	assert_int_equal(result_code(root), RESULT_FAILED);
	assert_int_equal(fd_state.restores, 1);
	assert_int_equal(fd_state.resumes, 1);
	assert_int_equal(fd_state.reloads, 1);
	ctl_client_free(user);
	ctl_client_free(root);
	ctl_server_free(s);
}

/* The daemon's reload_begin: the client is answered later. */
static struct ctl_client	*reloading;

static void
fake_reload_begin(void *arg, struct ctl_client *c,
    const struct ctl_peer *peer)
{
	((struct fake_daemon *)arg)->reloads++;
	((struct fake_daemon *)arg)->changed_by = (long)peer->user;
	reloading = c;
}

/*
 * A reload answered when the daemon's read ends: nothing is sent and no
 * request of that client is taken until then, another client is served
 * meanwhile, and the answer kicks the transport.
 */
static void
test_reload_later(void **arg)
{
	struct ctl_server	*s;
	struct fake_conn	 k = { 0 }, k2 = { 0 };
	struct ctl_client	*root, *other;
	struct errlist		 errs;
	uint32_t		 t[16];
	struct control_ops	 ops = { fake_status, fake_key_status,
				    fake_reload, fake_restore, fake_resume,
				    fake_lease, fake_client_gone,
				    fake_holds_lease, &fd_state, fake_diagnose,
				    fake_reload_begin };
	static const struct ctl_io io = { fake_kick, fake_gone };

	(void)arg;
	memset(&fd_state, 0, sizeof(fd_state));
	assert_non_null(s = ctl_server_new(&ops, &io, 64));
	root = client(s, 0, &k);
	other = client(s, 1000, &k2);
	reloading = NULL;
	send_request(root, MSG_RELOAD, 7, TT_PROTO_VERSION);
	assert_ptr_equal(reloading, root);
	assert_int_equal(pending(root), 0);
	assert_int_equal(ctl_client_room(root), 0);
	assert_false(ctl_client_finished(root));
	send_request(other, MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_true(pending(other) > 0);
	errlist_init(&errs);
	errlist_add(&errs, "t.conf:2: an error");
	ctl_client_reload_done(root, -1, &errs, "has 1 error");
	errlist_clear(&errs);
	assert_true(k.kicks > 0);
	assert_int_equal(output_types(root, t, 16), 3);
	assert_int_equal(t[0], MSG_CONFIG_ERROR);
	assert_int_equal(result_code(root), RESULT_FAILED);
	assert_int_equal(fd_state.reloads, 1);
	ctl_client_free(other);
	ctl_client_free(root);
	ctl_server_free(s);
}

/* A lease is root's; freeing its holder's client tells the daemon. */
static void
test_lease_dispatch(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*user = client(s, 1000, &k);
	struct ctl_client	*root = client(s, 0, &k);
	char			 msg[sizeof(struct msg_hdr) +
				    sizeof(struct msg_lease)];
	size_t			 n = lease_request(msg, 5);

	(void)arg;
	ctl_client_input(user, msg, n);
	assert_int_equal(result_code(user), RESULT_DENIED);
	ctl_client_input(root, msg, n);
	assert_int_equal(result_code(root), RESULT_OK);
	gone_holder = NULL;
	ctl_client_free(root);
	assert_ptr_equal(gone_holder, root);
	ctl_client_free(user);
	ctl_server_free(s);
}

/* Diagnose: anyone may ask; the daemon gets who asks and --all. */
static void
test_diagnose_dispatch(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*user = client(s, 1000, &k);
	struct ctl_client	*other = client(s, 1001, &k);
	struct msg_hdr		 h;
	struct msg_diagnose	 d;
	char			 msg[sizeof(h) + sizeof(d)];
	uint32_t		 types[8];

	(void)arg;
	memset(&h, 0, sizeof(h));
	memset(&d, 0, sizeof(d));
	h.type = MSG_DIAGNOSE;
	h.len = sizeof(d);
	h.version = TT_PROTO_VERSION;
	d.all = 1;
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), &d, sizeof(d));
	ctl_client_input(user, msg, sizeof(msg));
	assert_int_equal(diag_peer->user, 1000);
	assert_false(diag_peer->privileged);
	assert_true(diag_all);
	assert_int_equal(output_types(user, types, 8), 3);
	assert_int_equal(types[0], MSG_DIAG_SUMMARY);
	assert_int_equal(types[1], MSG_FLOW);
	assert_int_equal(types[2], MSG_END);
	ctl_client_input(other, msg, sizeof(msg));
	assert_int_equal(output_types(other, types, 8), 2);
	assert_int_equal(types[1], MSG_END);
	ctl_client_free(user);
	ctl_client_free(other);
	ctl_server_free(s);
}

/* A change whose sender has hung up is not carried out. */
static void
test_gone_sender(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { .gone = true };
	struct ctl_client	*root = client(s, 0, &k);

	(void)arg;
	send_request(root, MSG_RESTORE, 1, TT_PROTO_VERSION);
	assert_int_equal(fd_state.restores, 0);
	assert_true(ctl_client_finished(root));
	ctl_client_free(root);
	ctl_server_free(s);
}

/*
 * Big replies for users stop at the budget: the next user's request
 * waits (nothing read, nothing made) until another user reads, and is
 * then answered and its transport kicked.  Root is not budgeted.
 */
static void
test_output_budget(void **arg)
{
	struct ctl_server	*s = server(CONTROL_MAX_CLIENTS);
	struct fake_conn	 k[CONTROL_MAX_PER_USER];
	struct ctl_client	*c[CONTROL_MAX_PER_USER], *root;
	size_t			 len, queued = 0;
	int			 i, n = 0;

	(void)arg;
	fd_state.nkeys = 256;		/* about 640 KiB a reply */
	memset(k, 0, sizeof(k));
	for (n = 0; queued < CONTROL_OUTPUT_BUDGET; n++) {
		assert_true(n < CONTROL_MAX_PER_USER);
		c[n] = client(s, 1000, &k[n]);
		send_request(c[n], MSG_STATUS, 1, TT_PROTO_VERSION);
		assert_true((len = pending(c[n])) > 0);
		queued += len;
	}
	c[n] = client(s, 1000, &k[n]);
	send_request(c[n], MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_int_equal(pending(c[n]), 0);
	assert_int_equal(ctl_client_room(c[n]), 0);
	root = client(s, 0, &k[0]);
	send_request(root, MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_true(pending(root) > 0);
	drain(c[0]);			/* one user reads: the budget frees */
	assert_true(pending(c[n]) > 0);
	assert_true(k[n].kicks > 0);
	for (i = 0; i <= n; i++)
		ctl_client_free(c[i]);
	ctl_client_free(root);
	ctl_server_free(s);
}

static void
test_bad_input(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*c;
	struct msg_hdr		 h;
	char			 msg[sizeof(h) + sizeof(struct msg_end)];
	uint32_t		 t[4];

	(void)arg;
	memset(&h, 0, sizeof(h));
	/* another version: told both, then closed once that is out */
	c = client(s, 1000, &k);
	send_request(c, MSG_STATUS, 1, 99);
	assert_int_equal(output_types(c, t, 4), 1);
	assert_int_equal(t[0], MSG_VERSION);
	assert_false(ctl_client_finished(c));
	drain(c);
	assert_true(ctl_client_finished(c));
	ctl_client_free(c);
	/* a reply type sent as a request: bad request, then closed */
	c = client(s, 1000, &k);
	memset(msg, 0, sizeof(msg));
	h.type = MSG_END;
	h.len = sizeof(struct msg_end);
	h.seq = 1;
	h.version = TT_PROTO_VERSION;
	h.flags = 0;
	memcpy(msg, &h, sizeof(h));
	ctl_client_input(c, msg, sizeof(h) + sizeof(struct msg_end));
	assert_int_equal(result_code(c), RESULT_BAD_REQUEST);
	drain(c);
	assert_true(ctl_client_finished(c));
	ctl_client_free(c);
	/* a length past the bound: dropped, nothing sent */
	c = client(s, 1000, &k);
	memset(&h, 0, sizeof(h));
	h.type = MSG_STATUS;
	h.version = TT_PROTO_VERSION;
	h.len = 1u << 30;
	ctl_client_input(c, &h, sizeof(h));
	assert_true(ctl_client_finished(c));
	/* a closing client's input is taken and thrown away */
	assert_true(ctl_client_room(c) > 0);
	ctl_client_input(c, &h, sizeof(h));
	assert_true(ctl_client_finished(c));
	assert_true(ctl_client_idle(c, tt_mono() + 5) >= 5);
	assert_int_equal(ctl_client_peer(c)->user, 1000);
	ctl_client_free(c);
	ctl_server_free(s);
}

/*
 * A reply past CONTROL_MAX_OUTPUT (root's too: the budget spares root,
 * this bound does not) drops the client with nothing sent, and what it
 * had queued leaves the budget.
 */
static void
test_reply_over_bound(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*root = client(s, 0, &k);
	struct ctl_client	*user;

	(void)arg;
	fd_state.nkeys = CONTROL_MAX_OUTPUT /
	    sizeof(struct msg_key_status) + 1;
	send_request(root, MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_int_equal(pending(root), 0);
	assert_true(ctl_client_finished(root));
	ctl_client_free(root);
	/* a user's too big reply gives its budget back */
	user = client(s, 1000, &k);
	send_request(user, MSG_STATUS, 1, TT_PROTO_VERSION);
	assert_true(ctl_client_finished(user));
	ctl_client_free(user);
	fd_state.nkeys = 1;
	user = client(s, 1000, &k);
	send_request(user, MSG_STATUS, 2, TT_PROTO_VERSION);
	assert_true(pending(user) > 0);
	ctl_client_free(user);
	ctl_server_free(s);
}

/* A request that comes in pieces is answered once it is whole. */
static void
test_request_in_pieces(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*root = client(s, 0, &k);
	char			 msg[sizeof(struct msg_hdr) +
				    sizeof(struct msg_lease)];
	size_t			 n = lease_request(msg, 5);
	size_t			 part = sizeof(struct msg_hdr) + 2;

	(void)arg;
	ctl_client_input(root, msg, part);
	assert_int_equal(pending(root), 0);
	assert_true(ctl_client_room(root) > 0);
	ctl_client_input(root, msg + part, n - part);
	assert_int_equal(result_code(root), RESULT_OK);
	drain(root);
	/* the input ends inside a request: nothing more to answer */
	ctl_client_input(root, msg, part);
	assert_false(ctl_client_finished(root));
	ctl_client_input_end(root);
	assert_true(ctl_client_finished(root));
	ctl_client_free(root);
	ctl_server_free(s);
}

/*
 * Idle time counts from the last traffic either way; a lease holder is
 * never idle (its lease bounds it), so a measure's transfer keeps it.
 */
static void
test_idle(void **arg)
{
	struct ctl_server	*s = server(64);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*c = client(s, 0, &k);
	time_t			 now = tt_mono();

	(void)arg;
	assert_true(ctl_client_idle(c, now + 100) >= 100);
	lease_holder = c;
	assert_int_equal(ctl_client_idle(c, now + 100), 0);
	lease_holder = NULL;
	now = tt_mono();		/* traffic from here on: idle from it */
	send_request(c, MSG_STATUS, 1, TT_PROTO_VERSION);
	drain(c);
	assert_true(ctl_client_idle(c, now) <= 0);
	ctl_client_free(c);
	ctl_server_free(s);
}

/* A server asked for no slots has one: root can still connect. */
static void
test_at_least_one_slot(void **arg)
{
	struct ctl_server	*s = server(0);
	struct fake_conn	 k = { 0 };
	struct ctl_client	*root;

	(void)arg;
	assert_false(ctl_server_full(s));
	assert_non_null(root = client(s, 0, &k));
	assert_true(ctl_server_full(s));
	assert_null(client(s, 0, &k));
	ctl_client_free(root);
	ctl_server_free(s);
}

/*
 * ---- the log's bound, on a fake clock and the log's sink: one line per
 * uid per interval with the count of the rest, root never limited, the
 * table's bound whatever the number of uids, the counts written by a
 * flush and never lost, and a line the log would hide spends nothing.
 */

#define MAX_LINES	4096

static time_t		fake_now = 1000;
static char		lines[MAX_LINES][256];
static enum log_level	levels[MAX_LINES];
static size_t		nlines;

static time_t
fake_clock(void)
{
	return fake_now;
}

/*
 * The system log as lib/log.c writes to it (log_posix.c is not linked):
 * each line as written, with its level, once log_setup() has sent the
 * log there.
 */
void
log_sink_open(const char *ident)
{
	(void)ident;
}

void
log_sink_write(enum log_level pri, const char *msg)
{
	assert_true(nlines < MAX_LINES);
	snprintf(lines[nlines], sizeof(lines[0]), "%s", msg);
	levels[nlines++] = pri;
}

static struct log_limit	lim;

/* The log to the sink above, -d as verbose says. */
static void
log_to_sink(int verbose)
{
	log_init(0, verbose, "test_control");
}

static int
log_setup(void **arg)
{
	(void)arg;
	fake_now = 1000;
	nlines = 0;
	log_to_sink(0);
	log_limit_init(&lim, fake_clock);
	return 0;
}

static int
log_teardown(void **arg)
{
	(void)arg;
	log_init(1, 0, "test_control");
	return 0;
}

static struct ctl_peer
peer_of(unsigned long uid)
{
	struct ctl_peer	p;

	memset(&p, 0, sizeof(p));
	p.user = uid;
	p.privileged = false;
	p.pid = -1;
	return p;
}

static void
denied(const struct ctl_peer *p, int n)
{
	int	i;

	for (i = 0; i < n; i++)
		log_limited(&lim, p, TT_LOG_ERR, "control: uid %lu asked for "
		    "restore: denied", p != NULL ? p->user : 0UL);
}

/* 2000 denials in one second: one line, the rest in the next line. */
static void
test_log_one_line_per_interval(void **arg)
{
	struct ctl_peer	nobody = peer_of(65534);

	(void)arg;
	denied(&nobody, 2000);
	assert_int_equal(nlines, 1);
	assert_string_equal(lines[0],
	    "control: uid 65534 asked for restore: denied");
	fake_now += LOG_LIMIT_EVERY - 1;
	denied(&nobody, 1);
	assert_int_equal(nlines, 1);
	assert_true(log_limit_pending(&lim));
	fake_now += 1;
	denied(&nobody, 1);
	assert_int_equal(nlines, 2);
	assert_string_equal(lines[1], "control: uid 65534 asked for restore: "
	    "denied (2000 more from uid 65534 in the last 10 s)");
	assert_false(log_limit_pending(&lim));
}

static void
test_log_root_unlimited(void **arg)
{
	struct ctl_peer	root = peer_of(0);

	(void)arg;
	root.privileged = true;
	denied(&root, 500);
	assert_int_equal(nlines, 500);
	assert_false(log_limit_pending(&lim));
}

/* Each uid has its own line: one user cannot silence another. */
static void
test_log_uids_apart(void **arg)
{
	struct ctl_peer	a = peer_of(1000), b = peer_of(1001);

	(void)arg;
	denied(&a, 50);
	denied(&b, 50);
	assert_int_equal(nlines, 2);
	assert_non_null(strstr(lines[1], "uid 1001"));
}

/*
 * The flush writes a count once its uid may log again, and that is the
 * uid's line for the interval; at exit (all) every count is written.
 */
static void
test_log_flush(void **arg)
{
	struct ctl_peer	nobody = peer_of(65534);

	(void)arg;
	denied(&nobody, 2000);
	log_limit_flush(&lim, false);
	assert_int_equal(nlines, 1);
	fake_now += LOG_LIMIT_EVERY + 3;
	log_limit_flush(&lim, false);
	assert_int_equal(nlines, 2);
	assert_string_equal(lines[1], "control: 1999 more from uid 65534 in "
	    "the last 13 s, not logged (one line per uid per 10 s)");
	assert_int_equal(levels[1], TT_LOG_ERR);
	assert_false(log_limit_pending(&lim));
	denied(&nobody, 7);		/* within the flush's interval */
	assert_int_equal(nlines, 2);
	log_limit_flush(&lim, true);	/* at exit: whatever the time */
	assert_int_equal(nlines, 3);
	assert_non_null(strstr(lines[2], "7 more from uid 65534 in the last 0 s"));
	log_limit_flush(&lim, true);
	assert_int_equal(nlines, 3);
}

/*
 * 1000 uids, 10 lines each every second for 100 s: the lines are bounded
 * by the table (LOG_LIMIT_USERS + 2 per interval), and every line is
 * counted: written or in a count.
 */
static void
test_log_bound_whatever_the_uids(void **arg)
{
	struct ctl_peer	p;
	unsigned long	uid, counted = 0;
	size_t		i;
	const char	*m;
	int		sec, bound;

	(void)arg;
	for (sec = 0; sec < 100; sec++, fake_now++)
		for (uid = 1; uid <= 1000; uid++) {
			p = peer_of(uid);
			denied(&p, 10);
		}
	log_limit_flush(&lim, true);
	bound = (LOG_LIMIT_USERS + 2) * (100 / LOG_LIMIT_EVERY + 1) +
	    LOG_LIMIT_USERS + 2;	/* and the flush at exit */
	assert_true(nlines <= (size_t)bound);
	assert_true(nlines > LOG_LIMIT_USERS);
	for (i = 0; i < nlines; i++) {
		if ((m = strstr(lines[i], " more from")) != NULL) {
			while (m > lines[i] && isdigit((unsigned char)m[-1]))
				m--;
			counted += strtoul(m, NULL, 10);
		}
		if (strstr(lines[i], "asked for") != NULL)
			counted++;
	}
	assert_int_equal(counted, 100UL * 1000 * 10);
	assert_false(log_limit_pending(&lim));
}

/* Past the table a uid shares "other uids"; an evicted count goes there. */
static void
test_log_other_uids(void **arg)
{
	struct ctl_peer	p;
	unsigned long	uid;

	(void)arg;
	for (uid = 1; uid <= LOG_LIMIT_USERS + 5; uid++) {
		p = peer_of(uid);
		denied(&p, 2);
	}
	/* 16 own lines, 1 for "other uids" (uid 17), the rest counted */
	assert_int_equal(nlines, LOG_LIMIT_USERS + 1);
	fake_now += LOG_LIMIT_EVERY;
	p = peer_of(5000);	/* takes the oldest slot; its 1 goes to other */
	denied(&p, 1);
	assert_int_equal(nlines, LOG_LIMIT_USERS + 2);
	log_limit_flush(&lim, false);
	assert_non_null(strstr(lines[nlines - 1], "more from other uids"));
	/* the other's 9 (uids 17..21, 2 each, less its line) and uid 1's 1 */
	assert_non_null(strstr(lines[nlines - 1], "control: 10 more from "
	    "other uids"));
}

/* A peer not identified yet (no uid) has its own slot. */
static void
test_log_unidentified(void **arg)
{
	struct ctl_peer	nobody = peer_of(65534);

	(void)arg;
	denied(NULL, 100);
	denied(&nobody, 1);
	assert_int_equal(nlines, 2);
	log_limit_flush(&lim, true);
	assert_non_null(strstr(lines[2], "99 more from unidentified clients"));
}

/*
 * A debug line the log does not show spends nothing (the next error is
 * written); with -d it is limited like the rest, and the count's line has
 * the level of the most severe line it stands for.
 */
static void
test_log_levels(void **arg)
{
	struct ctl_peer	nobody = peer_of(65534);

	(void)arg;
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: closing idle client");
	assert_int_equal(nlines, 0);
	denied(&nobody, 1);
	assert_int_equal(nlines, 1);
	fake_now += LOG_LIMIT_EVERY;
	log_to_sink(1);
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	assert_int_equal(nlines, 2);
	assert_int_equal(levels[1], TT_LOG_DEBUG);
	log_limit_flush(&lim, true);
	assert_int_equal(levels[2], TT_LOG_DEBUG);
	fake_now += LOG_LIMIT_EVERY;
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	denied(&nobody, 1);
	log_limit_flush(&lim, true);
	assert_int_equal(nlines, 5);
	assert_int_equal(levels[4], TT_LOG_ERR);
	assert_non_null(strstr(lines[4], "2 more from uid 65534"));
}

#define LOG_TEST(t)	\
	cmocka_unit_test_setup_teardown(t, log_setup, log_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_reply),
		cmocka_unit_test(test_one_reply_at_a_time),
		cmocka_unit_test(test_input_end),
		cmocka_unit_test(test_per_user_limit),
		cmocka_unit_test(test_root_reserve),
		cmocka_unit_test(test_changes_need_privilege),
		cmocka_unit_test(test_change_command_made_safe),
		cmocka_unit_test(test_gone_sender),
		cmocka_unit_test(test_lease_dispatch),
		cmocka_unit_test(test_diagnose_dispatch),
		cmocka_unit_test(test_output_budget),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_reply_over_bound),
		cmocka_unit_test(test_request_in_pieces),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_reload_later),
		cmocka_unit_test(test_at_least_one_slot),
		LOG_TEST(test_log_one_line_per_interval),
		LOG_TEST(test_log_root_unlimited),
		LOG_TEST(test_log_uids_apart),
		LOG_TEST(test_log_flush),
		LOG_TEST(test_log_bound_whatever_the_uids),
		LOG_TEST(test_log_other_uids),
		LOG_TEST(test_log_unidentified),
		LOG_TEST(test_log_levels),
	};

	log_init(1, 0, "test_control");
	return cmocka_run_group_tests_name("control", tests, NULL, NULL);
}
