/*
 * The client side of the control protocol: connect, make sure the server
 * runs as tcptuned's uid, send one request, read its replies up to MSG_END
 * and check the whole stream against the grammar of that request before
 * anything is printed.  The whole request has one deadline, so no server
 * (a full listen queue, a stalled reply, an impostor) can make tcptunectl
 * hang.  Each failure is reported here, once, and mapped to an exit
 * status.
 *
 * The reply parser takes bytes, not a socket (reply_feed), so that the
 * socket, tests/unit/test_client.c and fuzz/fuzz_reply.c drive it alike.
 * The connection itself is the transport's: client_transport_posix.c (the
 * AF_UNIX socket), client_transport_win.c (the named pipe).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptunectl.h"

/* What a request is answered with: [head] item* [tail] MSG_END(count). */
struct grammar {
	uint32_t	request;
	uint32_t	head;	/* exactly one, first; 0 none */
	uint32_t	item;	/* any number, counted by MSG_END; 0 none */
	uint32_t	tail;	/* exactly one, last before MSG_END; 0 none */
	bool		tail_optional;	/* or none: a daemon without it */
};

static const struct grammar grammars[] = {
	/* status's tail: where the daemon samples flows (proto.h, 6) */
	{ MSG_STATUS,	MSG_DAEMON_INFO, MSG_KEY_STATUS, MSG_DIAG_SUMMARY, true },
	{ MSG_RELOAD,	0,		 MSG_CONFIG_ERROR, MSG_RESULT,	   false },
	{ MSG_RESTORE,	0,		 0,		   MSG_RESULT,	   false },
	{ MSG_RESUME,	0,		 0,		   MSG_RESULT,	   false },
	{ MSG_LEASE,	0,		 0,		   MSG_RESULT,	   false },
	{ MSG_DIAGNOSE,	MSG_DIAG_SUMMARY, MSG_FLOW,	   0,		   false },
};

enum phase {
	PH_HEAD,	/* waiting for the head */
	PH_ITEMS,	/* items, then the tail or MSG_END */
	PH_END,		/* the tail came: only MSG_END now */
	PH_DONE
};

static int	bad_reply(const char *, ...) TT_PRINTF(1, 2);

/* ctl_warnx escapes the line: the daemon's text is shown, not obeyed. */
static int
bad_reply(const char *fmt, ...)
{
	char	buf[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ctl_warnx("bad reply from tcptuned: %s", buf);
	return CTL_PROTOCOL;
}

/* ---- checking and keeping the replies */

static bool
expected(const struct reply_session *s, uint32_t type)
{
	const struct grammar	*g = s->g;

	switch (s->phase) {
	case PH_HEAD:
		return type == g->head;
	case PH_ITEMS:
		return (g->item != 0 && type == g->item) ||
		    type == (g->tail != 0 ? g->tail : MSG_END) ||
		    (g->tail_optional && type == MSG_END);
	default:	/* PH_END; reply_feed stops at PH_DONE */
		return type == MSG_END;
	}
}

/* Enumerations are checked here so that the output can trust them. */
static int
check_payload(uint32_t type, const union reply_payload *p)
{
	if (type == MSG_KEY_STATUS && p->ks.state >= KS_STATE_COUNT)
		return bad_reply("key %s in unknown state %u", p->ks.name,
		    p->ks.state);
	if (type == MSG_KEY_STATUS && p->ks.mode > MODE_AT_LEAST)
		return bad_reply("key %s in unknown mode %u", p->ks.name,
		    p->ks.mode);
	if (type == MSG_KEY_STATUS && p->ks.on_reject > REJECT_CLAMP)
		return bad_reply("key %s with unknown on-reject %u",
		    p->ks.name, p->ks.on_reject);
	if (type == MSG_FLOW && p->fl.held_by >= HELD_COUNT)
		return bad_reply("flow %s held by unknown %u", p->fl.remote,
		    p->fl.held_by);
	if (type == MSG_RESULT && p->rs.code > RESULT_BAD_REQUEST)
		return bad_reply("unknown result code %u", p->rs.code);
	return CTL_OK;
}

static int
take_key(struct reply *r, const struct msg_key_status *ks)
{
	struct msg_key_status	*keys;

	if (r->nkeys == CTL_MAX_KEYS)
		return bad_reply("more than %d keys", CTL_MAX_KEYS);
	keys = realloc(r->keys, (r->nkeys + 1) * sizeof(*keys));
	if (keys == NULL) {
		ctl_warn("%s", __func__);
		return CTL_FAIL;
	}
	r->keys = keys;
	r->keys[r->nkeys++] = *ks;
	return CTL_OK;
}

static int
take_error(struct reply *r, const struct msg_config_error *ce)
{
	struct msg_config_error	*errs;

	if (r->nerrors == CTL_MAX_ERRORS)
		return bad_reply("more than %d config errors", CTL_MAX_ERRORS);
	if (r->nerrors % 64 == 0) {
		errs = realloc(r->errors, (r->nerrors + 64) * sizeof(*errs));
		if (errs == NULL) {
			ctl_warn("%s", __func__);
			return CTL_FAIL;
		}
		r->errors = errs;
	}
	r->errors[r->nerrors++] = *ce;
	return CTL_OK;
}

static int
take_flow(struct reply *r, const struct msg_flow *fl)
{
	struct msg_flow	*flows;

	if (r->nflows == CTL_MAX_FLOWS)
		return bad_reply("more than %d flows", CTL_MAX_FLOWS);
	flows = realloc(r->flows, (r->nflows + 1) * sizeof(*flows));
	if (flows == NULL) {
		ctl_warn("%s", __func__);
		return CTL_FAIL;
	}
	r->flows = flows;
	r->flows[r->nflows++] = *fl;
	return CTL_OK;
}

static int
take_end(struct reply_session *s, const struct msg_end *end)
{
	size_t	n = s->r->nkeys + s->r->nerrors + s->r->nflows;

	if (end->count != n)
		return bad_reply("the end message counts %u %s messages, "
		    "%zu came", end->count, s->g->item != 0 ?
		    proto_type_name(s->g->item) : "list", n);
	s->phase = PH_DONE;
	return CTL_OK;
}

static int
take(struct reply_session *s, uint32_t type, const union reply_payload *p)
{
	struct reply	*r = s->r;
	int		 rv;

	if ((rv = check_payload(type, p)) != CTL_OK)
		return rv;
	if (type == MSG_END)
		return take_end(s, &p->end);
	if (type == MSG_DAEMON_INFO) {
		r->info = p->di;
		s->phase = PH_ITEMS;
	} else if (type == MSG_KEY_STATUS)
		return take_key(r, &p->ks);
	else if (type == MSG_CONFIG_ERROR)
		return take_error(r, &p->ce);
	else if (type == MSG_DIAG_SUMMARY) {
		/* diagnose's head, status's tail */
		r->diag = p->ds;
		r->has_diag = true;
		s->phase = type == s->g->head ? PH_ITEMS : PH_END;
	} else if (type == MSG_FLOW)
		return take_flow(r, &p->fl);
	else if (type == MSG_RESULT) {
		r->result = p->rs;
		s->phase = PH_END;
	}
	return CTL_OK;
}

static int
version_mismatch(const struct msg_version *v)
{
	ctl_warnx("protocol version mismatch: tcptuned speaks version %u, "
	    "tcptunectl version %u; use the tcptunectl that came with "
	    "this tcptuned", v->server_version, v->client_version);
	return CTL_PROTOCOL;
}

static int
accept_msg(struct reply_session *s, const struct msg_hdr *h,
    const union reply_payload *p)
{
	s->nmsgs++;
	if (h->type == MSG_VERSION)
		return version_mismatch(&p->vs);
	if (h->seq != s->seq)
		return bad_reply("%s message with sequence number %u, "
		    "expected %u", proto_type_name(h->type), h->seq, s->seq);
	if (!expected(s, h->type))
		return bad_reply("unexpected %s message in the reply to %s",
		    proto_type_name(h->type), proto_type_name(s->g->request));
	return take(s, h->type, p);
}

/* ---- the reply parser */

static const struct grammar *
grammar_of(uint32_t request)
{
	size_t	i;

	for (i = 0; i < sizeof(grammars) / sizeof(grammars[0]); i++)
		if (grammars[i].request == request)
			return &grammars[i];
	return NULL;
}

/*
 * A parser for the reply to request, whose messages must carry seq, into
 * *r (zeroed here).  CTL_OK, or CTL_PROTOCOL for a request it does not
 * know.
 */
int
reply_begin(struct reply_session *s, uint32_t request, uint32_t seq,
    struct reply *r)
{
	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
	r->request = request;
	s->r = r;
	s->seq = seq;
	if ((s->g = grammar_of(request)) == NULL) {
		ctl_warnx("%s: no such request %u", __func__, request);
		return CTL_PROTOCOL;
	}
	s->phase = s->g->head != 0 ? PH_HEAD : PH_ITEMS;
	return CTL_OK;
}

/*
 * A whole header: the rules of proto_check_header(), except that a reply
 * of another version may be MSG_VERSION, which says both versions.
 */
static int
check_header(const struct msg_hdr *h)
{
	char	why[128];
	int	rv;

	rv = proto_check_header(h, why, sizeof(why));
	if (rv == 1 && h->type == MSG_VERSION &&
	    h->len == sizeof(struct msg_version))
		rv = 0;
	if (rv != 0)
		return bad_reply("%s", why);
	if (h->len > sizeof(union reply_payload))	/* cannot happen */
		return bad_reply("%s message of %u bytes",
		    proto_type_name(h->type), h->len);
	return CTL_OK;
}

/*
 * Take what data holds of the next message; *used says how much.  CTL_OK
 * and s->have back at 0 when a message was complete and taken.
 */
static int
feed_one(struct reply_session *s, const unsigned char *data, size_t len,
    size_t *used)
{
	size_t	hsize = sizeof(s->h), n;
	int	rv;

	*used = 0;
	if (s->have < hsize) {
		n = hsize - s->have < len ? hsize - s->have : len;
		memcpy((char *)&s->h + s->have, data, n);
		s->have += n;
		*used = n;
		if (s->have < hsize)
			return CTL_OK;
		if ((rv = check_header(&s->h)) != CTL_OK)
			return rv;
	}
	n = hsize + s->h.len - s->have;
	if (n > len - *used)
		n = len - *used;
	memcpy((char *)&s->p + (s->have - hsize), data + *used, n);
	s->have += n;
	*used += n;
	if (s->have < hsize + s->h.len)
		return CTL_OK;
	s->have = 0;
	proto_terminate_strings(s->h.type, &s->p);
	return accept_msg(s, &s->h, &s->p);
}

/*
 * Feed the next len bytes of the stream, in chunks of any size.  *used
 * gets the bytes taken: all of them, or up to the end of the reply (the
 * daemon sends nothing after it).  On FEED_DONE the reply is in the
 * struct reply given to reply_begin; on FEED_ERROR the failure has been
 * reported and *status is the exit status.
 */
enum feed
reply_feed(struct reply_session *s, const void *data, size_t len,
    size_t *used, int *status)
{
	const unsigned char	*p = data;
	size_t			 n, off = 0;
	int			 rv;

	*status = CTL_OK;
	for (;;) {
		if (s->phase == PH_DONE) {
			*used = off;
			return FEED_DONE;
		}
		if (off == len)
			break;
		if ((rv = feed_one(s, p + off, len - off, &n)) != CTL_OK) {
			*used = off + n;
			*status = rv;
			return FEED_ERROR;
		}
		off += n;
	}
	*used = off;
	return FEED_MORE;
}

/* The stream ended before the reply did: the exit status, reported. */
int
reply_eof(const struct reply_session *s, const char *path)
{
	if (s->nmsgs > 0 || s->have > 0)
		return bad_reply("the connection closed before the end of "
		    "the reply");
	ctl_warnx("tcptuned closed the connection on %s without replying",
	    path);
	return CTL_UNREACHABLE;
}

/*
 * The request's deadline: whole seconds from TCPTUNECTL_TIMEOUT, else
 * CTL_TIMEOUT_SEC, or for a reload TT_RELOAD_WAIT_SEC, longer than the
 * daemon's own bound on its reads (proto.h): a parse helper that hangs
 * is then reported in the daemon's words, not as a daemon busy or hung.
 */
static int
request_timeout(uint32_t request, int *ms)
{
	const char	*env = getenv(CTL_TIMEOUT_ENV);
	long long	 v;

	*ms = (request == MSG_RELOAD ? TT_RELOAD_WAIT_SEC : CTL_TIMEOUT_SEC) *
	    1000;
	if (env == NULL || *env == '\0')
		return CTL_OK;
	if (parse_ll(env, &v) == -1 || v < 1 || v > CTL_TIMEOUT_MAX) {
		ctl_warnx("%s=\"%s\" is not a number of seconds from 1 to %d",
		    CTL_TIMEOUT_ENV, env, CTL_TIMEOUT_MAX);
		return CTL_USAGE;
	}
	*ms = (int)v * 1000;
	return CTL_OK;
}

/* ---- connecting */

static int
send_request(const struct ctl_conn *c, const struct reply_session *s,
    const void *payload, size_t plen)
{
	char	buf[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t	len;

	if ((len = proto_encode(buf, sizeof(buf), s->g->request, s->seq,
	    payload, plen)) == 0) {
		ctl_warnx("%s: a request of %zu bytes does not fit", __func__,
		    plen);
		return CTL_PROTOCOL;
	}
	return transport_send(c, buf, len);
}

/* Whatever comes, until the reply is complete, bad, or the time is up. */
static int
read_replies(const struct ctl_conn *c, struct reply_session *s)
{
	char	buf[8192];
	size_t	n, used;
	int	status;

	for (;;) {
		if ((status = transport_recv(c, buf, sizeof(buf), &n)) != CTL_OK)
			return status;
		if (n == 0)
			return reply_eof(s, c->path);
		if (reply_feed(s, buf, n, &used, &status) != FEED_MORE)
			return status;
	}
}

/* ---- the interface */

/*
 * A connection to the daemon, checked to be its server's, with the
 * deadline of request (0: of any but a reload).
 */
static int
open_checked(struct ctl_conn *c, uint32_t request)
{
	int	rv;

	if ((rv = request_timeout(request, &c->timeout_ms)) != CTL_OK)
		return rv;
	ctl_deadline_start(c);
	return transport_connect(c);
}

/* What this run of the program is, for the daemon's log (proto.h, 7). */
static struct msg_change	command_line;

/*
 * Kept as words joined by spaces and cut at TT_COMMAND_MAX: set, unset
 * and advise --apply all send a reload, and the log tells them apart.
 * The program is named "tcptunectl" whatever argv[0] is: the quick
 * client runs its commands as tcptunectl-full (ctl_exec.c), a detail of
 * the install, not what the user typed.
 */
void
client_name_command(int argc, char **argv)
{
	size_t	used;
	int	i;
	int	n;

	tt_strlcpy(command_line.command, "tcptunectl",
	    sizeof(command_line.command));
	used = strlen(command_line.command);
	for (i = 1; i < argc && used < sizeof(command_line.command); i++) {
		n = snprintf(command_line.command + used,
		    sizeof(command_line.command) - used, " %s", argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	proto_printable(command_line.command);
}

static bool
is_change(uint32_t request)
{
	return request == MSG_RELOAD || request == MSG_RESTORE ||
	    request == MSG_RESUME;
}

/* One request on an open connection, within a deadline of its own. */
static int
exchange(struct ctl_conn *c, uint32_t request, const void *payload, size_t len,
    struct reply *r)
{
	struct reply_session	*s;
	int			 rv;

	memset(r, 0, sizeof(*r));
	if ((s = malloc(sizeof(*s))) == NULL) {
		ctl_warn("%s", __func__);
		return CTL_FAIL;
	}
	ctl_deadline_start(c);
	if (payload == NULL && is_change(request)) {
		payload = &command_line;
		len = sizeof(command_line);
	}
	if ((rv = reply_begin(s, request, (uint32_t)getpid(), r)) == CTL_OK &&
	    (rv = send_request(c, s, payload, len)) == CTL_OK)
		rv = read_replies(c, s);
	free(s);
	if (rv != CTL_OK)
		reply_free(r);
	return rv;
}

/*
 * Send one request to the daemon on path and read the whole reply into
 * *r.  CTL_OK, or the exit status after the failure has been reported;
 * *r only needs reply_free() on CTL_OK.
 */
int
client_request(const char *path, uint32_t request, struct reply *r)
{
	return client_request_with(path, request, NULL, 0, r);
}

/* The same with a payload (diagnose). */
int
client_request_with(const char *path, uint32_t request, const void *payload,
    size_t len, struct reply *r)
{
	struct ctl_conn	c = { .path = path, .fd = -1 };
	int		rv;

	memset(r, 0, sizeof(*r));
	if ((rv = open_checked(&c, request)) != CTL_OK)
		return rv;
	rv = exchange(&c, request, payload, len, r);
	transport_close(&c);
	return rv;
}

/* A connection for several requests (measure holds its lease on one). */
int
client_open(const char *path, int *fdp)
{
	struct ctl_conn	c = { .path = path, .fd = -1 };
	int		rv;

	if ((rv = open_checked(&c, 0)) == CTL_OK)
		*fdp = c.fd;
	return rv;
}

/*
 * One request with its payload on a connection from client_open(), read
 * and checked as client_request() does; *r only needs reply_free() on
 * CTL_OK.
 */
int
client_exchange(int fd, const char *path, uint32_t request,
    const void *payload, size_t len, struct reply *r)
{
	struct ctl_conn	c = { .path = path, .fd = fd };
	int		rv;

	if ((rv = request_timeout(request, &c.timeout_ms)) != CTL_OK)
		return rv;
	return exchange(&c, request, payload, len, r);
}

void
reply_free(struct reply *r)
{
	free(r->keys);
	free(r->errors);
	free(r->flows);
	r->keys = NULL;
	r->errors = NULL;
	r->flows = NULL;
	r->nkeys = r->nerrors = r->nflows = 0;
}

/* Every key in force and enforcement not paused: status exits 0. */
bool
reply_all_in_force(const struct reply *r)
{
	size_t	i;

	if (r->info.paused)
		return false;
	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].state != KS_IN_FORCE)
			return false;
	return true;
}
