/*
 * The control protocol server, whatever carries it (control_posix.c: an
 * AF_UNIX socket).  The transport hands in each client's identity and
 * bytes and takes out the bytes to send; this file parses requests,
 * checks who may ask for what, asks the daemon through its control_ops,
 * and bounds what any user can make the daemon hold:
 *
 *  - slots: CONTROL_MAX_CLIENTS at once, of which CONTROL_ROOT_RESERVE
 *    only privileged clients may take, and CONTROL_MAX_PER_USER for any
 *    one unprivileged user, so no user can lock root out;
 *  - output: one reply at a time per client (the next request is not
 *    read until the previous reply is sent), at most CONTROL_MAX_OUTPUT
 *    each, and CONTROL_OUTPUT_BUDGET across all unprivileged clients:
 *    past it their requests wait until others have read their replies;
 *  - a change (reload, restore, resume, lease) whose client has gone before the
 *    daemon reached it is not carried out: its sender was already told
 *    it failed;
 *  - the log: every line a client can cause goes through the server's
 *    log_limit (below), at most one per uid per LOG_LIMIT_EVERY.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"

struct ctl_client {
	struct ctl_server	*srv;
	void			*conn;		/* the transport's */
	struct ctl_peer		 peer;
	char			 in[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t			 inlen;
	char			*out;
	size_t			 outlen;
	size_t			 outoff;	/* sent from out so far */
	size_t			 outcap;
	time_t			 last_active;	/* tt_mono() */
	bool			 closing;	/* close once the output is out */
	bool			 input_ended;	/* answer what came, then close */
	bool			 waiting;	/* for the output budget */
	bool			 reloading;	/* its reload's answer comes later */
	uint32_t		 reload_seq;
	struct ctl_client	*next;
};

struct user_count {
	unsigned long	user;
	int		n;
};

struct ctl_server {
	struct control_ops	 ops;
	struct ctl_io		 io;
	struct ctl_client	*clients;
	int			 nclients;
	int			 nunprivileged;
	int			 max_clients;
	size_t			 unprivileged_out;	/* queued, not sent */
	struct user_count	*users;		/* unprivileged, n > 0 */
	size_t			 nusers;
	struct log_limit	 log;	/* what clients cause */
};

typedef void (*request_fn)(struct ctl_client *, uint32_t);

static void	process(struct ctl_client *);

/* ---- bounds */

static struct user_count *
user_slot(struct ctl_server *s, unsigned long user)
{
	size_t	i;

	for (i = 0; i < s->nusers; i++)
		if (s->users[i].user == user)
			return &s->users[i];
	return NULL;
}

static void
user_add(struct ctl_server *s, unsigned long user, int delta)
{
	struct user_count	*u = user_slot(s, user);

	if (u == NULL && delta > 0) {
		u = &s->users[s->nusers++];	/* sized for max_clients */
		u->user = user;
		u->n = 0;
	}
	if (u == NULL)
		return;
	u->n += delta;
	if (u->n <= 0)
		*u = s->users[--s->nusers];
}

/* Why this peer may not have a slot now; NULL if it may. */
static const char *
slot_refusal(const struct ctl_server *s, const struct ctl_peer *p)
{
	const struct user_count	*u;
	size_t			 i;

	if (s->nclients >= s->max_clients)
		return "every client slot is in use";
	if (p->privileged)
		return NULL;
	if (s->nunprivileged >= s->max_clients - CONTROL_ROOT_RESERVE)
		return "every slot but those kept for root is in use";
	for (i = 0, u = s->users; i < s->nusers; i++, u++)
		if (u->user == p->user && u->n >= CONTROL_MAX_PER_USER)
			return "this user holds the most connections one user "
			    "may";
	return NULL;
}

/* ---- the log */

/*
 * The bound on what a non-root client can make the daemon log (the
 * server's log_limit).  Every line a client's connection or request
 * causes (a refusal, a denial, bad input, an idle close) goes through
 * here, keyed by the peer's uid: at most one line per uid per
 * LOG_LIMIT_EVERY seconds, the rest counted and the count carried by
 * that uid's next line ("N more from uid U in the last T s") or by
 * log_limit_flush() once the uid may log again.
 *
 * The table is fixed: LOG_LIMIT_USERS uids have a slot of their own, any
 * further uid shares the "other uids" slot, and a peer not yet identified
 * the "unidentified clients" slot.  So, however many uids take part, the
 * lines per interval are at most LOG_LIMIT_USERS + 2.  A log an attacker
 * fills hides the lines an admin needs (journald's per-service limit
 * drops them), so this bound is what keeps them.  Root's lines are not
 * limited: root is trusted.
 *
 * The clock is passed in (tt_mono in the daemon, a fake one in
 * tests/unit/test_control.c), so every rule here is tested without
 * waiting.
 */

#define LOG_LIMIT_LINE	1024

void
log_limit_init(struct log_limit *l, time_t (*now)(void))
{
	memset(l, 0, sizeof(*l));
	l->now = now;
}

/* The slot's count goes to the shared slot: the uid loses its own. */
static void
fold(struct log_slot *into, const struct log_slot *from)
{
	if (from->more == 0)
		return;
	if (into->more == 0 || from->since < into->since)
		into->since = from->since;
	if (into->more == 0 || from->worst < into->worst)
		into->worst = from->worst;
	into->more += from->more;
}

/*
 * The peer's slot: its own, a free one, or the one whose last line is
 * oldest once its interval is over (its count, if any, goes to "other
 * uids"); "other uids" when every slot is busy this interval.
 */
static struct log_slot *
slot_for(struct log_limit *l, const struct ctl_peer *p, time_t now)
{
	struct log_slot	*s, *victim = NULL;
	size_t		 i;

	if (p == NULL)
		return &l->unknown;
	for (i = 0; i < LOG_LIMIT_USERS; i++)
		if (l->users[i].used && l->users[i].user == p->user)
			return &l->users[i];
	for (i = 0; i < LOG_LIMIT_USERS; i++) {
		s = &l->users[i];
		if (!s->used) {
			victim = s;
			break;
		}
		if (now - s->last >= LOG_LIMIT_EVERY &&
		    (victim == NULL || s->last < victim->last))
			victim = s;
	}
	if (victim == NULL)
		return &l->other;
	if (victim->used)
		fold(&l->other, victim);
	memset(victim, 0, sizeof(*victim));
	victim->user = p->user;
	return victim;
}

static void
slot_name(const struct log_limit *l, const struct log_slot *s, char *buf,
    size_t len)
{
	if (s == &l->other)
		snprintf(buf, len, "other uids");
	else if (s == &l->unknown)
		snprintf(buf, len, "unidentified clients");
	else
		snprintf(buf, len, "uid %lu", s->user);
}

/* A line was written for the slot: its interval starts again. */
static void
slot_logged(struct log_slot *s, time_t now)
{
	s->used = true;
	s->last = s->since = now;
	s->more = 0;
}

static bool
slot_may_log(const struct log_slot *s, time_t now)
{
	return !s->used || now - s->last >= LOG_LIMIT_EVERY;
}

void
vlog_limited(struct log_limit *l, const struct ctl_peer *p,
    enum log_level pri, const char *fmt, va_list ap)
{
	struct log_slot	*s;
	char		 msg[LOG_LIMIT_LINE], who[64];
	time_t		 now;

	if (!log_enabled(pri))
		return;		/* a hidden line spends nothing */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (p != NULL && p->privileged) {
		log_at(pri, "%s", msg);
		return;
	}
	now = l->now();
	s = slot_for(l, p, now);
	if (!slot_may_log(s, now)) {
		if (s->more == 0 || pri < s->worst)
			s->worst = pri;
		s->more++;
		return;
	}
	slot_name(l, s, who, sizeof(who));
	if (s->more > 0)
		log_at(pri, "%s (%lu more from %s in the last %lld s)", msg,
		    s->more, who, (long long)(now - s->since));
	else
		log_at(pri, "%s", msg);
	slot_logged(s, now);
}

void
log_limited(struct log_limit *l, const struct ctl_peer *p,
    enum log_level pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_limited(l, p, pri, fmt, ap);
	va_end(ap);
}

static void
flush_one(struct log_limit *l, struct log_slot *s, time_t now, bool all)
{
	char	who[64];

	if (s->more == 0 || (!all && !slot_may_log(s, now)))
		return;
	slot_name(l, s, who, sizeof(who));
	log_at(s->worst, "control: %lu more from %s in the last %lld s, not "
	    "logged (one line per uid per %d s)", s->more, who,
	    (long long)(now - s->since), LOG_LIMIT_EVERY);
	slot_logged(s, now);
}

/*
 * The counts not yet written, each as the line its slot may write now;
 * all (at exit): every count, whatever the time.
 */
void
log_limit_flush(struct log_limit *l, bool all)
{
	time_t	now = l->now();
	size_t	i;

	for (i = 0; i < LOG_LIMIT_USERS; i++)
		flush_one(l, &l->users[i], now, all);
	flush_one(l, &l->other, now, all);
	flush_one(l, &l->unknown, now, all);
}

/* Some count waits for log_limit_flush(). */
bool
log_limit_pending(const struct log_limit *l)
{
	size_t	i;

	for (i = 0; i < LOG_LIMIT_USERS; i++)
		if (l->users[i].more > 0)
			return true;
	return l->other.more > 0 || l->unknown.more > 0;
}

void
ctl_server_log(struct ctl_server *s, const struct ctl_peer *p,
    enum log_level pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_limited(&s->log, p, pri, fmt, ap);
	va_end(ap);
}

/* Counts whose uid may log again are written (the transport's timer). */
void
ctl_server_log_tick(struct ctl_server *s)
{
	log_limit_flush(&s->log, false);
}

bool
ctl_server_log_pending(const struct ctl_server *s)
{
	return log_limit_pending(&s->log);
}

/* A line about the client, within the bound. */
static void	client_log(struct ctl_client *, enum log_level, const char *, ...)
		    TT_PRINTF(3, 4);

static void
client_log(struct ctl_client *c, enum log_level pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog_limited(&c->srv->log, &c->peer, pri, fmt, ap);
	va_end(ap);
}

/* ---- output */

static void
account(struct ctl_client *c, size_t added, size_t removed)
{
	if (c->peer.privileged)
		return;
	c->srv->unprivileged_out += added;
	c->srv->unprivileged_out -= removed;
}

static void
queue(struct ctl_client *c, uint32_t type, uint32_t seq, const void *payload,
    size_t len)
{
	size_t	need = sizeof(struct msg_hdr) + len, n;
	char	*grown;

	if (c->closing)
		return;
	if (c->outlen + need > CONTROL_MAX_OUTPUT) {
		client_log(c, TT_LOG_ERR, "control: a reply over %d bytes "
		    "for uid %lu: dropping the client", CONTROL_MAX_OUTPUT,
		    c->peer.user);
		account(c, 0, c->outlen - c->outoff);
		c->closing = true;
		c->outlen = c->outoff = 0;
		return;
	}
	if (c->outlen + need > c->outcap) {
		size_t cap = (c->outlen + need) * 2;

		if ((grown = realloc(c->out, cap)) == NULL)
			fatal("%s", __func__);
		c->out = grown;
		c->outcap = cap;
	}
	n = proto_encode(c->out + c->outlen, c->outcap - c->outlen, type, seq,
	    payload, len);
	c->outlen += n;
	account(c, n, 0);
}

static void
queue_end(struct ctl_client *c, uint32_t seq, uint32_t count)
{
	struct msg_end	end;

	memset(&end, 0, sizeof(end));
	end.count = count;
	queue(c, MSG_END, seq, &end, sizeof(end));
}

static void
queue_result(struct ctl_client *c, uint32_t seq, uint32_t code,
    const char *text)
{
	struct msg_result	res;

	memset(&res, 0, sizeof(res));
	res.code = code;
	tt_strlcpy(res.text, text, sizeof(res.text));
	queue(c, MSG_RESULT, seq, &res, sizeof(res));
}

/* A reply of one result: the answer to all but status and reload. */
static void
queue_answer(struct ctl_client *c, uint32_t seq, uint32_t code,
    const char *text)
{
	queue_result(c, seq, code, text);
	queue_end(c, seq, 0);
}

/* ---- requests */

/*
 * Diagnose's summary, as status's tail: one status is then one snapshot
 * on one connection (its line and metrics), where flows are sampled.
 */
static void
queue_diag_summary(struct ctl_client *c, uint32_t seq)
{
	const struct control_ops	*ops = &c->srv->ops;
	struct msg_diag_summary		 sum;

	if (ops->diagnose == NULL)
		return;
	(void)ops->diagnose(ops->arg, &c->peer, false, &sum, NULL);
	queue(c, MSG_DIAG_SUMMARY, seq, &sum, sizeof(sum));
}

static void
do_status(struct ctl_client *c, uint32_t seq)
{
	const struct control_ops	*ops = &c->srv->ops;
	struct msg_daemon_info		 info;
	struct msg_key_status		 ks;
	uint32_t			 i;

	ops->status(ops->arg, &info);
	queue(c, MSG_DAEMON_INFO, seq, &info, sizeof(info));
	for (i = 0; i < info.nkeys; i++) {
		ops->key_status(ops->arg, i, &ks);
		queue(c, MSG_KEY_STATUS, seq, &ks, sizeof(ks));
	}
	queue_diag_summary(c, seq);
	queue_end(c, seq, info.nkeys);
}

/* A reload's reply: every error of the file, then the result. */
static void
queue_reload_reply(struct ctl_client *c, uint32_t seq, int rv,
    const struct errlist *errs, const char *msg)
{
	struct msg_config_error	ce;
	size_t			i;

	for (i = 0; i < errs->n; i++) {
		memset(&ce, 0, sizeof(ce));
		tt_strlcpy(ce.text, errs->msg[i], sizeof(ce.text));
		queue(c, MSG_CONFIG_ERROR, seq, &ce, sizeof(ce));
	}
	queue_result(c, seq, rv == 0 ? RESULT_OK : RESULT_FAILED, msg);
	queue_end(c, seq, (uint32_t)errs->n);
}

/*
 * A reload the daemon runs on its loop is answered when it ends
 * (ctl_client_reload_done); the client's next request waits for that
 * answer, as for any other, and everyone else is served meanwhile.
 */
static void
do_reload(struct ctl_client *c, uint32_t seq)
{
	const struct control_ops	*ops = &c->srv->ops;
	struct errlist			 errs;
	char				 msg[TT_TEXT_MAX];
	int				 rv;

	if (ops->reload_begin != NULL) {
		c->reloading = true;
		c->reload_seq = seq;
		ops->reload_begin(ops->arg, c, &c->peer);
		return;
	}
	errlist_init(&errs);
	rv = ops->reload(ops->arg, &errs, msg, sizeof(msg));
	queue_reload_reply(c, seq, rv, &errs, msg);
	errlist_clear(&errs);
}

/* The daemon's reload for c has ended: its answer goes out. */
void
ctl_client_reload_done(struct ctl_client *c, int rv,
    const struct errlist *errs, const char *msg)
{
	if (!c->reloading)
		return;
	c->reloading = false;
	queue_reload_reply(c, c->reload_seq, rv, errs, msg);
	c->srv->io.kick(c->conn);
}

/* restore and resume: the daemon's answer, as it is. */
static void
do_change(struct ctl_client *c, uint32_t seq,
    int (*change)(void *, const struct ctl_peer *, char *, size_t))
{
	char	msg[TT_TEXT_MAX];
	int	rv = change(c->srv->ops.arg, &c->peer, msg, sizeof(msg));

	queue_answer(c, seq, rv == 0 ? RESULT_OK : RESULT_FAILED, msg);
}

static void
do_restore(struct ctl_client *c, uint32_t seq)
{
	do_change(c, seq, c->srv->ops.restore);
}

static void
do_resume(struct ctl_client *c, uint32_t seq)
{
	do_change(c, seq, c->srv->ops.resume);
}

/* The payload is still in c->in: handle_request runs before it moves. */
static void
do_lease(struct ctl_client *c, uint32_t seq)
{
	const struct control_ops	*ops = &c->srv->ops;
	struct msg_lease		 req;
	char				 msg[TT_TEXT_MAX];
	int				 code;

	memcpy(&req, c->in + sizeof(struct msg_hdr), sizeof(req));
	code = ops->lease(ops->arg, c, &c->peer, req.seconds, msg,
	    sizeof(msg));
	queue_answer(c, seq, (uint32_t)code, msg);
}

/* Anyone may ask: the daemon shows a non-root peer only its own flows. */
static void
do_diagnose(struct ctl_client *c, uint32_t seq)
{
	const struct control_ops	*ops = &c->srv->ops;
	struct msg_diagnose		 req;
	struct msg_diag_summary		 sum;
	struct msg_flow			*flows;
	size_t				 i, n;

	if (ops->diagnose == NULL) {
		queue_answer(c, seq, RESULT_BAD_REQUEST, "no flows sampled");
		return;
	}
	memcpy(&req, c->in + sizeof(struct msg_hdr), sizeof(req));
	flows = ops->diagnose(ops->arg, &c->peer, req.all != 0, &sum, &n);
	queue(c, MSG_DIAG_SUMMARY, seq, &sum, sizeof(sum));
	for (i = 0; i < n; i++)
		queue(c, MSG_FLOW, seq, &flows[i], sizeof(flows[i]));
	queue_end(c, seq, (uint32_t)n);
	free(flows);
}

static const struct request {
	uint32_t	 type;
	bool		 privileged;	/* changes something */
	request_fn	 fn;
} requests[] = {
	{ MSG_STATUS,	false,	do_status },
	{ MSG_RELOAD,	true,	do_reload },
	{ MSG_RESTORE,	true,	do_restore },
	{ MSG_RESUME,	true,	do_resume },
	{ MSG_LEASE,	true,	do_lease },
	{ MSG_DIAGNOSE,	false,	do_diagnose },
};

static const struct request *
request_of(uint32_t type)
{
	size_t	i;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (requests[i].type == type)
			return &requests[i];
	return NULL;
}

static void
deny(struct ctl_client *c, const struct msg_hdr *h)
{
	char	text[TT_TEXT_MAX];

	snprintf(text, sizeof(text), "%s needs root",
	    proto_type_name(h->type));
	client_log(c, TT_LOG_ERR, "control: uid %lu asked for %s: denied",
	    c->peer.user, proto_type_name(h->type));
	queue_answer(c, h->seq, RESULT_DENIED, text);
}

/*
 * A change request's command line (struct msg_change), kept with the
 * peer for the daemon's log: the payload is still in c->in.
 */
static void
take_command(struct ctl_client *c, const struct msg_hdr *h)
{
	struct msg_change	req;

	if (h->len != sizeof(req))
		return;
	memcpy(&req, c->in + sizeof(struct msg_hdr), sizeof(req));
	proto_terminate_strings(h->type, &req);
	tt_strlcpy(c->peer.command, req.command, sizeof(c->peer.command));
}

static void
handle_request(struct ctl_client *c, const struct msg_hdr *h)
{
	const struct request	*r = request_of(h->type);

	if (r == NULL) {
		queue_answer(c, h->seq, RESULT_BAD_REQUEST,
		    "not a request a client may send");
		c->closing = true;
		return;
	}
	if (r->privileged && !c->peer.privileged) {
		deny(c, h);
		return;
	}
	if (r->privileged && c->srv->io.gone(c->conn)) {
		client_log(c, TT_LOG_ERR, "control: uid %lu's %s came after it "
		    "had gone: not carried out", c->peer.user,
		    proto_type_name(h->type));
		c->closing = true;
		return;
	}
	if (h->type == MSG_RELOAD || h->type == MSG_RESTORE ||
	    h->type == MSG_RESUME)
		take_command(c, h);
	r->fn(c, h->seq);
}

static void
reply_version(struct ctl_client *c, const struct msg_hdr *h)
{
	struct msg_version	v;

	memset(&v, 0, sizeof(v));
	v.server_version = TT_PROTO_VERSION;
	v.client_version = h->version;
	queue(c, MSG_VERSION, h->seq, &v, sizeof(v));
	c->closing = true;
}

static bool
over_budget(const struct ctl_client *c)
{
	return !c->peer.privileged &&
	    c->srv->unprivileged_out >= CONTROL_OUTPUT_BUDGET;
}

/*
 * Take the next complete request, if its reply may be made now: one reply
 * at a time, within the budget.  -1 when the client must be dropped.
 */
static int
parse_one(struct ctl_client *c)
{
	struct msg_hdr	h;
	char		why[128];
	size_t		total;
	int		rv;

	if (c->closing || c->outlen > 0 || c->reloading ||
	    c->inlen < sizeof(h))
		return 0;
	memcpy(&h, c->in, sizeof(h));
	if ((rv = proto_check_header(&h, why, sizeof(why))) == 1) {
		reply_version(c, &h);
		return 0;
	}
	if (rv == -1) {
		client_log(c, TT_LOG_DEBUG, "control: uid %lu: %s",
		    c->peer.user, why);
		return -1;
	}
	total = sizeof(h) + h.len;
	if (c->inlen < total)
		return 0;
	if (over_budget(c)) {
		c->waiting = true;
		return 0;
	}
	c->waiting = false;
	handle_request(c, &h);
	memmove(c->in, c->in + total, c->inlen - total);
	c->inlen -= total;
	return 0;
}

/* A request that can be answered now is; -1 drops the client. */
static void
process(struct ctl_client *c)
{
	if (parse_one(c) == -1) {
		c->closing = true;
		account(c, 0, c->outlen - c->outoff);
		c->outlen = c->outoff = 0;
	}
}

/* Output was sent or dropped: clients waiting for the budget may go on. */
static void
wake_waiting(struct ctl_server *s)
{
	struct ctl_client	*c;

	for (c = s->clients; c != NULL; c = c->next) {
		if (s->unprivileged_out >= CONTROL_OUTPUT_BUDGET)
			return;
		if (!c->waiting)
			continue;
		process(c);
		if (!c->waiting)
			s->io.kick(c->conn);
	}
}

/* ---- the transport's side */

struct ctl_server *
ctl_server_new(const struct control_ops *ops, const struct ctl_io *io,
    int max_clients)
{
	struct ctl_server	*s;

	if (max_clients < 1)
		max_clients = 1;
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->users = calloc((size_t)max_clients, sizeof(*s->users))) ==
	    NULL) {
		free(s);
		return NULL;
	}
	s->ops = *ops;
	s->io = *io;
	s->max_clients = max_clients;
	log_limit_init(&s->log, tt_mono);
	return s;
}

/* The clients must have been freed first (their transport owns them). */
void
ctl_server_free(struct ctl_server *s)
{
	if (s == NULL)
		return;
	log_limit_flush(&s->log, true);	/* no count is lost at exit */
	free(s->users);
	free(s);
}

/* Every slot is taken: nobody, root included, can have one now. */
bool
ctl_server_full(const struct ctl_server *s)
{
	return s->nclients >= s->max_clients;
}

/* A slot for a new connection, or NULL (logged) when the peer may not have one. */
struct ctl_client *
ctl_client_new(struct ctl_server *s, const struct ctl_peer *peer, void *conn)
{
	struct ctl_client	*c;
	const char		*why;

	if ((why = slot_refusal(s, peer)) != NULL) {
		ctl_server_log(s, peer, TT_LOG_ERR, "control: refusing a "
		    "connection from uid %lu: %s", peer->user, why);
		return NULL;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		ctl_server_log(s, peer, TT_LOG_ERR, "control: %s: %s",
		    __func__, strerror(errno));
		return NULL;
	}
	c->srv = s;
	c->conn = conn;
	c->peer = *peer;
	c->peer.command[0] = '\0';	/* said by its change requests only */
	c->last_active = tt_mono();
	c->next = s->clients;
	s->clients = c;
	s->nclients++;
	if (!peer->privileged) {
		s->nunprivileged++;
		user_add(s, peer->user, 1);
	}
	return c;
}

void
ctl_client_free(struct ctl_client *c)
{
	struct ctl_server	 *s = c->srv;
	struct ctl_client	**pp;

	for (pp = &s->clients; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	s->ops.client_gone(s->ops.arg, c);	/* a lease it held ends */
	account(c, 0, c->outlen - c->outoff);
	s->nclients--;
	if (!c->peer.privileged) {
		s->nunprivileged--;
		user_add(s, c->peer.user, -1);
	}
	free(c->out);
	free(c);
	wake_waiting(s);
}

/*
 * How many bytes the client's input may take now.  0 while a reply is
 * being sent or waits for the budget: the transport stops reading, so a
 * client that never reads its replies cannot queue more of them.  A
 * closing client's input is read and thrown away.
 */
size_t
ctl_client_room(const struct ctl_client *c)
{
	if (c->closing)
		return sizeof(c->in);
	if (c->outlen > 0 || c->waiting || c->reloading || c->input_ended)
		return 0;
	return sizeof(c->in) - c->inlen;
}

/* The peer will send no more (it may still read): answer what it sent. */
void
ctl_client_input_end(struct ctl_client *c)
{
	c->input_ended = true;
}

/* A whole request is in the input. */
static bool
request_pending(const struct ctl_client *c)
{
	struct msg_hdr	h;

	if (c->inlen < sizeof(h))
		return false;
	memcpy(&h, c->in, sizeof(h));
	return h.len <= TT_PROTO_MAX_PAYLOAD && c->inlen >= sizeof(h) + h.len;
}

/* Bytes read from the client: at most ctl_client_room(). */
void
ctl_client_input(struct ctl_client *c, const void *buf, size_t len)
{
	if (!c->closing) {
		if (len > sizeof(c->in) - c->inlen)
			len = sizeof(c->in) - c->inlen;
		memcpy(c->in + c->inlen, buf, len);
	}
	ctl_client_input_read(c, len);
}

/*
 * Where a transport may read the client's input to, *room bytes
 * (ctl_client_room()), then tell ctl_client_input_read() how many came:
 * no buffer of its own, whose 16 KiB on the stack made a status request
 * the daemon's deepest call, and its stack as deep (BENCHMARKS.md,
 * memory).  A closing client's input lands at the start, to be thrown
 * away.
 */
void *
ctl_client_input_space(struct ctl_client *c, size_t *room)
{
	*room = ctl_client_room(c);
	return c->closing ? c->in : c->in + c->inlen;
}

/* len bytes are in the input: copied there, or read to its space. */
void
ctl_client_input_read(struct ctl_client *c, size_t len)
{
	c->last_active = tt_mono();
	if (c->closing)
		return;
	c->inlen += len;
	process(c);
}

const void *
ctl_client_output(const struct ctl_client *c, size_t *len)
{
	static const char	none[1];

	*len = c->outlen - c->outoff;
	return c->out == NULL ? none : c->out + c->outoff;
}

/* n bytes of the output went out; the next request may be answered. */
void
ctl_client_sent(struct ctl_client *c, size_t n)
{
	c->last_active = tt_mono();
	c->outoff += n;
	account(c, 0, n);
	if (c->outoff < c->outlen)
		return;
	c->outoff = c->outlen = 0;
	process(c);
	wake_waiting(c->srv);
}

/*
 * Nothing left to send, and nothing more to answer (closing, or the input
 * ended with no whole request left): the transport may let it go.
 */
bool
ctl_client_finished(const struct ctl_client *c)
{
	return c->outlen == 0 && !c->reloading && (c->closing ||
	    (c->input_ended && !request_pending(c)));
}

/* Seconds without traffic; a lease holder waits out a transfer (its lease bounds it). */
time_t
ctl_client_idle(const struct ctl_client *c, time_t now)
{
	if (c->reloading || c->srv->ops.holds_lease(c->srv->ops.arg, c))
		return 0;
	return now - c->last_active;
}

const struct ctl_peer *
ctl_client_peer(const struct ctl_client *c)
{
	return &c->peer;
}
