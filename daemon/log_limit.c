/*
 * The bound on what a non-root client can make the daemon log.  Every
 * line a client's connection or request causes (a refusal, a denial, bad
 * input, an idle close) goes through here, keyed by the peer's uid: at
 * most one line per uid per LOG_LIMIT_EVERY seconds, the rest counted and
 * the count carried by that uid's next line ("N more from uid U in the
 * last T s") or by log_limit_flush() once the uid may log again.
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
 * tests/unit/test_log_limit.c), so every rule here is tested without
 * waiting.  Only libc and log_at()/log_enabled() are used, so the test
 * links this one file.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tcptuned.h"

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
