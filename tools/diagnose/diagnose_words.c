/*
 * What diagnose says, from a reply alone: one sentence per connection a
 * person can act on ("your download from 203.0.113.7 ran at 215 Mbit/s
 * because this machine's receive buffer stops at 4 MiB
 * (net.ipv4.tcp_rmem); at 150 ms that is the most one stream can do"),
 * the JSON of the same, and the line status adds.  Every string the
 * daemon sent is escaped before it reaches the terminal.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tcptunectl.h"
#include "json.h"
#include "advise/advise.h"
#include "diagnose/diagnose.h"

struct words {
	char	host[TT_ESCAPE_SIZE(TT_ADDR_MAX)];
	char	key[TT_ESCAPE_SIZE(TT_NAME_MAX)];
	char	rate[32], allowed[32], possible[32], rtt[32], ceiling[32];
	char	moved[32], path_rtt[32], cap[32];
};

/* The address without its port: "203.0.113.7", "2001:db8::1". */
static void
host_of(const char *addr, char *buf, size_t len)
{
	char	raw[TT_ADDR_MAX];
	char	*colon;

	tt_strlcpy(raw, addr[0] == '[' ? addr + 1 : addr, sizeof(raw));
	if ((colon = strrchr(raw, addr[0] == '[' ? ']' : ':')) != NULL)
		*colon = '\0';
	tt_escape(buf, len, raw);
}

static void
words_of(const struct msg_flow *f, struct words *w)
{
	host_of(f->remote, w->host, sizeof(w->host));
	tt_escape(w->key, sizeof(w->key), f->ceiling_key);
	adv_fmt_rate((double)f->rate_bps, w->rate, sizeof(w->rate));
	adv_fmt_rate((double)f->allowed_bps, w->allowed, sizeof(w->allowed));
	adv_fmt_rate((double)f->possible_bps, w->possible,
	    sizeof(w->possible));
	adv_fmt_time(f->rtt_us / 1e6, w->rtt, sizeof(w->rtt));
	adv_fmt_time((f->path_rtt_us > 0 ? f->path_rtt_us : f->rtt_us) / 1e6,
	    w->path_rtt, sizeof(w->path_rtt));
	adv_fmt_bytes((double)f->window_cap, w->cap, sizeof(w->cap));
	adv_fmt_bytes((double)f->ceiling_bytes, w->ceiling,
	    sizeof(w->ceiling));
	adv_fmt_bytes((double)f->bytes, w->moved, sizeof(w->moved));
}

/* Whose: an owner the OS did not say is never anyone's, root's least. */
static const char *
whose(const struct msg_flow *f)
{
	return f->uid == TT_UID_UNKNOWN ? "an unknown user's" : "your";
}

static const char *
transfer(const struct msg_flow *f)
{
	return f->receiving ? "download from" : "upload to";
}

/* receive-buffer and send-buffer: the ceiling, and what tuning gives. */
static void
buffer_sentence(const struct msg_flow *f, const struct words *w, char *buf,
    size_t len)
{
	const char	*side = f->held_by == HELD_RECEIVE_BUFFER ? "receive" :
			    "send";
	int		 n;

	if (f->ceiling_key[0] == '\0')
		n = snprintf(buf, len, "%s %s %s ran at %s because the "
		    "program's own %s buffer was full (it set its size "
		    "itself); at the path's %s round trip that buffer allows "
		    "%s", whose(f), transfer(f),
		    w->host, w->rate, side, w->path_rtt, w->allowed);
	else
		n = snprintf(buf, len, "%s %s %s ran at %s because this "
		    "machine's %s buffer stops at %s (%s); at the path's %s "
		    "round trip that is the most one stream can do", whose(f),
		    transfer(f), w->host, w->rate,
		    side, w->ceiling, w->key, w->path_rtt);
	if (n < 0 || (size_t)n >= len || f->possible_bps <= f->rate_bps)
		return;
	snprintf(buf + n, len - (size_t)n, "; at the ceiling tcptune.conf "
	    "sets it could reach %s, where the path allows", w->possible);
}

static void	at_close_words(const struct msg_flow *, char *, size_t);

void
diagnose_sentence(const struct msg_flow *f, char *buf, size_t len)
{
	struct words	w;

	words_of(f, &w);
	switch (f->held_by) {
	case HELD_RECEIVE_BUFFER:
	case HELD_SEND_BUFFER:
		buffer_sentence(f, &w, buf, len);
		break;
	case HELD_PEER_WINDOW:
		snprintf(buf, len, "%s upload to %s ran at %s, held by the "
		    "far end's receive window: its limit, not this "
		    "machine's buffers", whose(f), w.host, w.rate);
		break;
	case HELD_NETWORK:
		if (f->flags & TT_FLOW_PATH_FULL)
			snprintf(buf, len, "%s %s %s ran at %s, held by the "
			    "network: the path was full (its round trip grew "
			    "well past its own %s as a queue filled): a larger "
			    "buffer would not help", whose(f), transfer(f),
			    w.host, w.rate, w.path_rtt);
		else
			snprintf(buf, len, "%s %s %s ran at %s over %s, held "
			    "by the network or the far end (congestion, "
			    "loss), not by this machine's buffers", whose(f),
			    transfer(f), w.host, w.rate, w.rtt);
		break;
	case HELD_APPLICATION:
		if (f->flags & TT_FLOW_SENDER_SLOW)
			snprintf(buf, len, "%s download from %s ran at %s: "
			    "the sender sent no faster than this, its program "
			    "or its send buffer, not this machine nor the path "
			    "(no loss, no queue, the window offered far "
			    "larger)", whose(f), w.host, w.rate);
		else
			snprintf(buf, len, "%s %s %s ran at %s: nothing was "
			    "full, the program %s no faster", whose(f),
			    transfer(f), w.host, w.rate,
			    f->receiving ? "read" : "wrote");
		break;
	default:
		snprintf(buf, len, "a connection with %s moved %s over %s: "
		    "too little data or too short a round trip to tell",
		    w.host, w.moved, w.rtt);
		break;
	}
	at_close_words(f, buf, len);
}

/* A verdict from the close notice alone says so. */
static void
at_close_words(const struct msg_flow *f, char *buf, size_t len)
{
	size_t	n = strlen(buf);

	if ((f->flags & TT_FLOW_AT_CLOSE) && f->held_by != HELD_UNCLASSIFIED)
		snprintf(buf + n, len - n, " (judged from the kernel's TCP "
		    "info at its close: it began and ended between two "
		    "readings)");
}

/*
 * An open connection whose window scale, fixed when it opened, keeps it
 * below the receive ceiling now; "" none.
 */
void
diagnose_cap_sentence(const struct msg_flow *f, char *buf, size_t len)
{
	struct words	w;

	buf[0] = '\0';
	if (f->window_cap == 0)
		return;
	words_of(f, &w);
	snprintf(buf, len, "it cannot use the receive ceiling now: its "
	    "window scale, fixed when it opened (before the ceiling rose), "
	    "caps its window at %s; reconnecting picks up the new value",
	    w.cap);
}

/*
 * "2 open connections cannot use the receive ceiling now (opened before
 * it rose ...)", after "; " when it follows a sentence in buf.
 */
static void
capped_line(const struct msg_diag_summary *s, char *buf, size_t len,
    bool after)
{
	if (s->capped == 0 || len == 0)
		return;
	snprintf(buf, len, "%s%u open connection%s cannot use the receive "
	    "ceiling now (opened before it rose: reconnecting picks it up); "
	    "see tcptunectl diagnose", after ? "; " : "", s->capped,
	    s->capped == 1 ? "" : "s");
}

/* "3 transfers in the last hour were held by the 4 MiB receive ceiling" */
void
diagnose_status_line(const struct msg_diag_summary *s, char *buf, size_t len)
{
	char	bytes[32], key[TT_ESCAPE_SIZE(TT_NAME_MAX)];

	buf[0] = '\0';
	if (s->rcv_ceiling_flows == 0) {
		capped_line(s, buf, len, false);
		return;
	}
	adv_fmt_bytes((double)s->rcv_ceiling_bytes, bytes, sizeof(bytes));
	tt_escape(key, sizeof(key), s->rcv_ceiling_key);
	snprintf(buf, len, "%u transfer%s in the last hour %s held by the %s "
	    "receive ceiling (%s); see tcptunectl diagnose",
	    s->rcv_ceiling_flows, s->rcv_ceiling_flows == 1 ? "" : "s",
	    s->rcv_ceiling_flows == 1 ? "was" : "were", bytes, key);
	capped_line(s, buf + strlen(buf), len - strlen(buf), true);
}

/*
 * What the history may have missed, and why: a word for JSON and a
 * sentence for the text, each where it applies.  With none of these,
 * "no connection" is the whole truth; with any, it is not said alone.
 */
struct blind_spot {
	const char	*word;
	bool		 (*applies)(const struct msg_diag_summary *);
	void		 (*say)(FILE *, const struct msg_diag_summary *);
};

/*
 * A sentence as running text within CTL_TEXT_WIDTH columns: first before
 * it, indent before each line it runs on to.
 */
static void say(FILE *, const char *, const char *, const char *, ...)
    TT_PRINTF(4, 5);
static void
say(FILE *out, const char *first, const char *indent, const char *fmt, ...)
{
	char	buf[2 * TT_ESCAPE_SIZE(TT_TEXT_MAX)];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ctl_wrap(out, first, indent, buf, CTL_TEXT_WIDTH);
}

static bool
no_sampler(const struct msg_diag_summary *s)
{
	return s->cannot_tell[0] != '\0' && strcmp(s->sampler, "none") == 0;
}

static void
say_no_sampler(FILE *out, const struct msg_diag_summary *s)
{
	(void)s;
	say(out, "  ", "    ", "tcptuned cannot read this system's connections");
}

static bool
no_notices(const struct msg_diag_summary *s)
{
	return !s->watching && !no_sampler(s);
}

static void
say_no_notices(FILE *out, const struct msg_diag_summary *s)
{
	char	t[TT_ESCAPE_SIZE(TT_TEXT_MAX)];

	tt_escape(t, sizeof(t), s->watch_why[0] ? s->watch_why : "unknown");
	say(out, "  ", "    ", "connections are read every %.3g s while the "
	    "machine is busy, not as they close (%s): a transfer shorter "
	    "than that, or one that started and ended while the machine "
	    "was idle (read every %.3g s now), may not have been seen",
	    s->tick_ms / 1000.0, t, (s->tick_now_ms != 0 ? s->tick_now_ms :
	    s->tick_ms) / 1000.0);
}

static bool
notices_lost(const struct msg_diag_summary *s)
{
	return s->closes_lost > 0;
}

static void
say_notices_lost(FILE *out, const struct msg_diag_summary *s)
{
	say(out, "  ", "    ", "the kernel dropped close notices %llu time%s "
	    "(its queue was full): connections that closed then were seen "
	    "only if a pass read them", (unsigned long long)s->closes_lost,
	    s->closes_lost == 1 ? "" : "s");
}

static bool
unsampled(const struct msg_diag_summary *s)
{
	return s->closes_unsampled > 0;
}

static void
say_unsampled(FILE *out, const struct msg_diag_summary *s)
{
	say(out, "  ", "    ", "%llu connection%s closed before any pass read "
	    "%s: judged from the kernel's TCP info at close, which carries "
	    "no buffer sizes (a buffer verdict there is against the ceiling; "
	    "one with no receive round trip or rate cannot be judged)",
	    (unsigned long long)s->closes_unsampled,
	    s->closes_unsampled == 1 ? "" : "s",
	    s->closes_unsampled == 1 ? "it" : "them");
}

static bool
history_full(const struct msg_diag_summary *s)
{
	return s->evicted > 0;
}

static void
say_history_full(FILE *out, const struct msg_diag_summary *s)
{
	say(out, "  ", "    ", "the history was full: %llu older "
	    "connection%s dropped", (unsigned long long)s->evicted,
	    s->evicted == 1 ? " was" : "s were");
}

static bool
throttled(const struct msg_diag_summary *s)
{
	return s->throttled > 0;
}

static void
say_throttled(FILE *out, const struct msg_diag_summary *s)
{
	say(out, "  ", "    ", "its work was put off %llu time%s to keep it "
	    "under 1 %% of a CPU (a large connection table, or a flood of "
	    "closing connections): connections that closed then were seen "
	    "only if a pass read them", (unsigned long long)s->throttled,
	    s->throttled == 1 ? "" : "s");
}

static bool
failed(const struct msg_diag_summary *s)
{
	return s->problem[0] != '\0';
}

static void
say_failed(FILE *out, const struct msg_diag_summary *s)
{
	char	t[TT_ESCAPE_SIZE(TT_TEXT_MAX)];

	tt_escape(t, sizeof(t), s->problem);
	say(out, "  ", "    ", "the last sampling failed: %s", t);
}

static const struct blind_spot blind_spots[] = {
	{ "no-sampler",		no_sampler,	say_no_sampler },
	{ "no-close-notices",	no_notices,	say_no_notices },
	{ "close-notices-dropped", notices_lost, say_notices_lost },
	{ "closed-before-sampled", unsampled,	say_unsampled },
	{ "history-full",	history_full,	say_history_full },
	{ "passes-put-off",	throttled,	say_throttled },
	{ "sampling-failed",	failed,		say_failed },
};

static size_t
blind_count(const struct msg_diag_summary *s)
{
	size_t	i, n = 0;

	for (i = 0; i < sizeof(blind_spots) / sizeof(blind_spots[0]); i++)
		n += blind_spots[i].applies(s);
	return n;
}

static void
text_blind_spots(FILE *out, const struct msg_diag_summary *s)
{
	size_t	i;

	for (i = 0; i < sizeof(blind_spots) / sizeof(blind_spots[0]); i++)
		if (blind_spots[i].applies(s))
			blind_spots[i].say(out, s);
}

static void
text_summary(FILE *out, const struct reply *r)
{
	const struct msg_diag_summary	*s = &r->diag;
	char				 t[TT_ESCAPE_SIZE(TT_TEXT_MAX)];

	if (s->cannot_tell[0] != '\0') {
		tt_escape(t, sizeof(t), s->cannot_tell);
		say(out, "note: ", "  ", "%s", t);
	}
	if (s->last_pass == 0 && s->closes == 0)
		fprintf(out, "tcptuned has not sampled the connections yet\n");
	else if (r->nflows == 0 && blind_count(s) == 0)
		say(out, "", "", "no connection in the last hour moved "
		    "enough data over a long enough round trip to tell what "
		    "held it");
	else if (r->nflows == 0)
		say(out, "", "", "no connection tcptuned saw in the last "
		    "hour moved enough data over a long enough round trip to "
		    "tell what held it; it may have missed some:");
	else if (blind_count(s) > 0)
		fprintf(out, "tcptuned may have missed connections:\n");
	text_blind_spots(out, s);
	if (s->nhidden > 0)
		say(out, "", "", "%u connection%s of other users not shown "
		    "(root sees them)", s->nhidden, s->nhidden == 1 ? "" : "s");
}

void
diagnose_text(FILE *out, const struct reply *r)
{
	char	line[1024], local[TT_ESCAPE_SIZE(TT_ADDR_MAX)];
	char	remote[TT_ESCAPE_SIZE(TT_ADDR_MAX)];
	size_t	i;

	for (i = 0; i < r->nflows; i++) {
		const struct msg_flow *f = &r->flows[i];

		diagnose_sentence(f, line, sizeof(line));
		tt_escape(local, sizeof(local), f->local);
		tt_escape(remote, sizeof(remote), f->remote);
		fprintf(out, "%s -> %s  %s%s\n", local, remote,
		    held_by_name(f->held_by), f->open ? "" : " (closed)");
		ctl_wrap(out, "  ", "  ", line, CTL_TEXT_WIDTH);
		diagnose_cap_sentence(f, line, sizeof(line));
		if (line[0] != '\0')
			ctl_wrap(out, "  ", "  ", line, CTL_TEXT_WIDTH);
	}
	text_summary(out, r);
}

static void
json_flow(struct json *j, const struct msg_flow *f)
{
	json_open(j, NULL, '{');
	json_str(j, "local", f->local);
	json_str(j, "remote", f->remote);
	json_str(j, "direction", f->receiving ? "receive" : "send");
	json_num(j, "rtt_ms", f->rtt_us / 1000.0);
	json_num(j, "path_rtt_ms", f->path_rtt_us / 1000.0);
	json_bool(j, "path_full", (f->flags & TT_FLOW_PATH_FULL) != 0);
	json_bool(j, "judged_at_close", (f->flags & TT_FLOW_AT_CLOSE) != 0);
	if (f->flags & TT_FLOW_WSCALE_UNKNOWN)
		json_null(j, "window_cap");
	else
		json_uint(j, "window_cap", f->window_cap);
	json_uint(j, "rate_bps", f->rate_bps);
	json_str(j, "held_by", held_by_name(f->held_by));
	if (f->ceiling_key[0] != '\0') {
		json_open(j, "ceiling", '{');
		json_str(j, "key", f->ceiling_key);
		json_uint(j, "bytes", f->ceiling_bytes);
		json_close(j, '}');
	} else
		json_null(j, "ceiling");
	if (f->allowed_bps > 0)
		json_uint(j, "allowed_bps", f->allowed_bps);
	else
		json_null(j, "allowed_bps");
	if (f->possible_bps > 0)
		json_uint(j, "possible_bps", f->possible_bps);
	else
		json_null(j, "possible_bps");
	json_uint(j, "bytes", f->bytes);
	if (f->uid == TT_UID_UNKNOWN)
		json_null(j, "uid");
	else
		json_uint(j, "uid", f->uid);
	json_bool(j, "open", f->open != 0);
	json_time(j, "last_seen", f->last_seen);
	json_close(j, '}');
}

/* "may_have_missed": the words of the blind spots that apply. */
static void
json_blind_spots(struct json *j, const struct msg_diag_summary *s)
{
	size_t	i;

	json_open(j, "may_have_missed", '[');
	for (i = 0; i < sizeof(blind_spots) / sizeof(blind_spots[0]); i++)
		if (blind_spots[i].applies(s))
			json_str(j, NULL, blind_spots[i].word);
	json_close(j, ']');
}

void
diagnose_json(FILE *out, const struct reply *r)
{
	const struct msg_diag_summary	*s = &r->diag;
	struct json			 j;
	size_t				 i;

	json_begin(&j, out);
	json_open(&j, NULL, '{');
	/* "nothing" is null throughout, as for last_pass (issue 45) */
	json_text(&j, "sampler", s->sampler);
	json_time(&j, "last_pass", s->last_pass);
	json_text(&j, "cannot_tell", s->cannot_tell);
	json_text(&j, "problem", s->problem);
	json_uint(&j, "hidden", s->nhidden);
	json_bool(&j, "close_notices", s->watching != 0);
	json_text(&j, "close_notices_problem", s->watching ? "" :
	    s->watch_why);
	json_uint(&j, "tick_ms", s->tick_ms);
	if (s->tick_now_ms == 0)	/* a daemon before protocol 7 */
		json_null(&j, "tick_now_ms");
	else
		json_uint(&j, "tick_now_ms", s->tick_now_ms);
	json_uint(&j, "closes", s->closes);
	json_uint(&j, "closes_dropped", s->closes_lost);
	json_uint(&j, "closed_before_sampled", s->closes_unsampled);
	json_uint(&j, "evicted", s->evicted);
	json_uint(&j, "passes_put_off", s->throttled);
	json_uint(&j, "below_ceiling", s->capped);
	json_uint(&j, "window_scale_unknown", s->capped_unknown);
	json_blind_spots(&j, s);
	json_open(&j, "flows", '[');
	for (i = 0; i < r->nflows; i++)
		json_flow(&j, &r->flows[i]);
	json_close(&j, ']');
	json_close(&j, '}');
	fputc('\n', out);
}
