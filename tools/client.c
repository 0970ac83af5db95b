/*
 * The client side of the control protocol: connect, send one request,
 * read its replies up to MSG_END and check the whole stream against the
 * grammar of that request before anything is printed.  Each failure is
 * reported here, once, and mapped to an exit status.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"

/* What a request is answered with: [head] item* [tail] MSG_END(count). */
struct grammar {
	uint32_t	request;
	uint32_t	head;	/* exactly one, first; 0 none */
	uint32_t	item;	/* any number, counted by MSG_END; 0 none */
	uint32_t	tail;	/* exactly one, last before MSG_END; 0 none */
};

static const struct grammar grammars[] = {
	{ MSG_STATUS,	MSG_DAEMON_INFO, MSG_KEY_STATUS,	0 },
	{ MSG_RELOAD,	0,		 MSG_CONFIG_ERROR,	MSG_RESULT },
	{ MSG_RESTORE,	0,		 0,			MSG_RESULT },
	{ MSG_RESUME,	0,		 0,			MSG_RESULT },
	{ MSG_LEASE,	0,		 0,			MSG_RESULT },
};

enum phase {
	PH_HEAD,	/* waiting for the head */
	PH_ITEMS,	/* items, then the tail or MSG_END */
	PH_END,		/* the tail came: only MSG_END now */
	PH_DONE
};

struct session {
	const char		*path;
	const struct grammar	*g;
	struct reply		*r;
	enum phase		 phase;
	uint32_t		 seq;
	size_t			 nmsgs;		/* replies read */
};

/* Room for any payload: every type has one exact size, all below this. */
union payload {
	struct msg_daemon_info	di;
	struct msg_key_status	ks;
	struct msg_config_error	ce;
	struct msg_result	rs;
	struct msg_version	vs;
	struct msg_end		end;
};

static int	bad_reply(const char *, ...) TT_PRINTF(1, 2);

static int
bad_reply(const char *fmt, ...)
{
	char	buf[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ctl_warnx("bad reply from tcptuned: %s", buf);
	return CTL_PROTOCOL;
}

/* ---- connecting */

static int
client_socket(void)
{
	int	fd;

#ifdef SOCK_CLOEXEC
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
#else
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd != -1 && fcntl(fd, F_SETFD, FD_CLOEXEC) == -1) {
		close(fd);
		fd = -1;
	}
#endif
#ifdef SO_NOSIGPIPE
	{
		int	on = 1;

		if (fd != -1 && setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on,
		    sizeof(on)) == -1) {
			close(fd);
			fd = -1;
		}
	}
#endif
	return fd;
}

static int
connect_error(const char *path, int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		ctl_warnx("no socket at %s: is tcptuned running?", path);
		break;
	case ECONNREFUSED:
		ctl_warnx("connection to %s refused: tcptuned is probably "
		    "not running (stale socket)", path);
		break;
	case EACCES:
	case EPERM:
		ctl_warnx("%s: permission denied: this user may not use "
		    "tcptuned's socket", path);
		break;
	default:
		ctl_warnx("cannot connect to tcptuned on %s: %s", path,
		    strerror(err));
		break;
	}
	return CTL_UNREACHABLE;
}

static int
client_connect(const char *path, int *fdp)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (tt_strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path)) {
		ctl_warnx("%s: socket path too long", path);
		return CTL_UNREACHABLE;
	}
	if ((fd = client_socket()) == -1) {
		ctl_warn("socket");
		return CTL_UNREACHABLE;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		int err = errno;

		close(fd);
		return connect_error(path, err);
	}
	*fdp = fd;
	return CTL_OK;
}

/* ---- checking and keeping the replies */

static bool
expected(const struct session *s, uint32_t type)
{
	const struct grammar	*g = s->g;

	switch (s->phase) {
	case PH_HEAD:
		return type == g->head;
	case PH_ITEMS:
		return (g->item != 0 && type == g->item) ||
		    type == (g->tail != 0 ? g->tail : MSG_END);
	case PH_END:
		return type == MSG_END;
	default:
		return false;
	}
}

/* Enumerations are checked here so that the output can trust them. */
static int
check_payload(uint32_t type, const union payload *p)
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
take_end(struct session *s, const struct msg_end *end)
{
	size_t	n = s->r->nkeys + s->r->nerrors;

	if (end->count != n)
		return bad_reply("the end message counts %u %s messages, "
		    "%zu came", end->count, s->g->item != 0 ?
		    proto_type_name(s->g->item) : "list", n);
	s->phase = PH_DONE;
	return CTL_OK;
}

static int
take(struct session *s, uint32_t type, const union payload *p)
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
accept_msg(struct session *s, const struct msg_hdr *h,
    const union payload *p)
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

/* ---- reading */

static int
read_error(const struct session *s, const struct msg_hdr *h, int err)
{
	char	why[128];

	switch (err) {
	case EPROTO:
		if (proto_check_header(h, why, sizeof(why)) == 0)
			tt_strlcpy(why, "malformed message", sizeof(why));
		return bad_reply("%s", why);
	case ETIMEDOUT:
		ctl_warnx("no reply from tcptuned on %s within %d s", s->path,
		    CTL_TIMEOUT_SEC);
		return CTL_UNREACHABLE;
	case ECONNRESET:
	case EPIPE:
		if (s->nmsgs > 0)
			return bad_reply("the connection closed before the "
			    "end of the reply");
		ctl_warnx("tcptuned closed the connection on %s without "
		    "replying", s->path);
		return CTL_UNREACHABLE;
	default:
		ctl_warnx("reading from %s: %s", s->path, strerror(err));
		return CTL_UNREACHABLE;
	}
}

static int
read_replies(struct session *s, int fd)
{
	struct msg_hdr	h;
	union payload	p;
	int		rv;

	while (s->phase != PH_DONE) {
		memset(&h, 0, sizeof(h));
		if (proto_read_msg(fd, &h, &p, sizeof(p),
		    CTL_TIMEOUT_SEC * 1000) == -1)
			return read_error(s, &h, errno);
		if ((rv = accept_msg(s, &h, &p)) != CTL_OK)
			return rv;
	}
	return CTL_OK;
}

static int
send_request(const struct session *s, int fd, const void *payload,
    size_t len)
{
	if (proto_write_msg(fd, s->g->request, s->seq, payload, len) == 0)
		return CTL_OK;
	if (errno == EPIPE || errno == ECONNRESET)
		ctl_warnx("tcptuned closed the connection on %s", s->path);
	else
		ctl_warn("sending to %s", s->path);
	return CTL_UNREACHABLE;
}

static const struct grammar *
grammar_of(uint32_t request)
{
	size_t	i;

	for (i = 0; i < sizeof(grammars) / sizeof(grammars[0]); i++)
		if (grammars[i].request == request)
			return &grammars[i];
	return NULL;
}

/* ---- the interface */

/*
 * Send one request to the daemon on path and read the whole reply into
 * *r.  CTL_OK, or the exit status after the failure has been reported;
 * *r only needs reply_free() on CTL_OK.
 */
int
client_request(const char *path, uint32_t request, struct reply *r)
{
	int	fd, rv;

	memset(r, 0, sizeof(*r));
	if ((rv = client_connect(path, &fd)) != CTL_OK)
		return rv;
	rv = client_exchange(fd, path, request, NULL, 0, r);
	close(fd);
	return rv;
}

/* A connection for several requests (measure holds its lease on one). */
int
client_open(const char *path, int *fdp)
{
	return client_connect(path, fdp);
}

/*
 * One request with its payload on an open connection, read and checked
 * as client_request does; *r only needs reply_free() on CTL_OK.
 */
int
client_exchange(int fd, const char *path, uint32_t request,
    const void *payload, size_t len, struct reply *r)
{
	struct session	s;
	int		rv;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	r->request = request;
	s.path = path;
	s.r = r;
	s.seq = (uint32_t)getpid();
	if ((s.g = grammar_of(request)) == NULL) {
		ctl_warnx("%s: no such request %u", __func__, request);
		return CTL_PROTOCOL;
	}
	s.phase = s.g->head != 0 ? PH_HEAD : PH_ITEMS;
	if ((rv = send_request(&s, fd, payload, len)) == CTL_OK)
		rv = read_replies(&s, fd);
	if (rv != CTL_OK)
		reply_free(r);
	return rv;
}

void
reply_free(struct reply *r)
{
	free(r->keys);
	free(r->errors);
	r->keys = NULL;
	r->errors = NULL;
	r->nkeys = r->nerrors = 0;
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
