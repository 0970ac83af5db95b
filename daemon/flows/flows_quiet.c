/*
 * flows_quiet.c: whether a check cycle's sampling pass is due, and the
 * segment count it is judged by (FLOW_QUIET_SEGS in flows.h).  Apart
 * from flows.c, which the per-OS readers are called from: flows_linux.c
 * calls this file, and nothing here calls back (tests/lint/call_cycles.sh).
 * How long the tick sleeps while nothing moves (FLOW_SLEEP_MAX_MS).
 * And the CPU budget the passes and the close notices share
 * (struct flow_budget).
 * Portable, so tests/unit/test_flows.c checks it on any OS.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

/*
 * have is what flows_os.segments returned (0: segs is the count now),
 * now_ms the cycle's time.  A pass is due unless the count is known, this
 * cycle and the one before each moved fewer than FLOW_QUIET_SEGS, and a
 * pass ran less than FLOW_QUIET_MAX_MS ago.
 */
bool
flows_pass_due(struct flow_quiet *q, int have, uint64_t segs,
    uint64_t now_ms)
{
	bool	quiet, due;

	quiet = have == 0 && q->have && segs >= q->segs &&
	    segs - q->segs < FLOW_QUIET_SEGS;
	due = !(quiet && q->was_quiet) ||
	    now_ms - q->last_pass_ms >= FLOW_QUIET_MAX_MS;
	q->have = have == 0;
	q->segs = segs;
	q->was_quiet = quiet;
	if (due)
		q->last_pass_ms = now_ms;
	return due;
}

/*
 * Where the OS counts no segments (macOS, Windows), a pass tells instead:
 * bytes is the sum of its connections' counters, sent and received.
 * Quiet when it differs from the last pass's by less than
 * FLOW_QUIET_BYTES; a connection that came or went with much moved shows
 * too, as the sum jumps or drops.  The first pass is never quiet.
 */
bool
flows_bytes_quiet(struct flow_quiet *q, uint64_t bytes)
{
	uint64_t	moved;
	bool		quiet;

	moved = bytes >= q->bytes ? bytes - q->bytes : q->bytes - bytes;
	quiet = q->have_bytes && moved < FLOW_QUIET_BYTES;
	q->bytes = bytes;
	q->have_bytes = true;
	return quiet;
}

/*
 * The tick's next period (FLOW_SLEEP_MAX_MS in flows.h): FLOW_TICK_MS
 * after a tick that saw something move, else twice the last, at most
 * FLOW_SLEEP_MAX_MS.  Doubling, not a jump to the longest: a machine that
 * moves a little now and then is still read often, and an idle one costs
 * a handful of ticks before it sleeps.
 */
_Static_assert(FLOW_SLEEP_MAX_MS <= FLOW_QUIET_MAX_MS,
    "a quiet machine gets its pass a FLOW_QUIET_MAX_MS");

uint32_t
flows_tick_next(struct flow_quiet *q, bool quiet)
{
	uint32_t	period = q->tick_ms < FLOW_TICK_MS ? FLOW_TICK_MS :
			    q->tick_ms;

	if (!quiet)
		period = FLOW_TICK_MS;
	else if (period < FLOW_SLEEP_MAX_MS / 2)
		period *= 2;
	else
		period = FLOW_SLEEP_MAX_MS;
	q->tick_ms = period;
	return period;
}

/*
 * InSegs plus OutSegs from the "Tcp:" lines of Linux's /proc/net/snmp
 * (a line of names, then one of numbers; IPv6's segments are counted in
 * the same MIB), parsed here so that test_flows checks it on any OS.
 * 0, or -1 when the text has no such pair.
 */
int
flows_snmp_tcp_segs(const char *text, uint64_t *segs)
{
	const char	*names, *values, *n, *v;
	size_t		 nlen, vlen;
	uint64_t	 sum = 0;
	int		 found = 0;

	if ((names = strstr(text, "Tcp: ")) == NULL ||
	    (values = strstr(names + 5, "Tcp: ")) == NULL)
		return -1;
	n = names + 5;
	v = values + 5;
	while (*n != '\n' && *n != '\0' && *v != '\n' && *v != '\0') {
		nlen = strcspn(n, " \n");
		vlen = strcspn(v, " \n");
		if ((nlen == 6 && strncmp(n, "InSegs", 6) == 0) ||
		    (nlen == 7 && strncmp(n, "OutSegs", 7) == 0)) {
			sum += strtoull(v, NULL, 10);
			found++;
		}
		n += nlen + (n[nlen] == ' ');
		v += vlen + (v[vlen] == ' ');
	}
	if (found != 2)
		return -1;
	*segs = sum;
	return 0;
}

/*
 * The budget (FLOW_BUDGET_US_PER_S, FLOW_BUDGET_BURST_US in flows.h):
 * credit accrues with the wall clock, a full burst at the
 * start, never more; whether any is left now.
 */
bool
flows_budget_left(struct flow_budget *b, uint64_t now_ms)
{
	uint64_t	gap;

	if (!b->started) {
		b->started = true;
		b->at_ms = now_ms;
		b->credit_us = FLOW_BUDGET_BURST_US;
	} else if (now_ms > b->at_ms) {
		/* an hour is past any debt: no overflow however long */
		gap = now_ms - b->at_ms < 3600000 ? now_ms - b->at_ms :
		    3600000;
		b->credit_us += (int64_t)(gap * FLOW_BUDGET_US_PER_S / 1000);
		if (b->credit_us > FLOW_BUDGET_BURST_US)
			b->credit_us = FLOW_BUDGET_BURST_US;
		b->at_ms = now_ms;
	}
	return b->credit_us > 0;
}

/* CPU time spent: it may take the credit below 0 (owed). */
void
flows_budget_spend(struct flow_budget *b, uint64_t cpu_us)
{
	if (cpu_us > 3600000000ULL)	/* an hour of CPU: nonsense */
		cpu_us = 3600000000ULL;
	b->credit_us -= (int64_t)cpu_us;
}

/* How long until credit is back, in ms (at least 1 when none is left). */
uint64_t
flows_budget_wait_ms(const struct flow_budget *b)
{
	if (b->credit_us > 0)
		return 0;
	return (uint64_t)(-b->credit_us) * 1000 / FLOW_BUDGET_US_PER_S + 1;
}
