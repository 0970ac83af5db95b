/*
 * diagnose: the daemon's side of tcptunectl diagnose.  Sampling passes
 * (flows_os.sample, the OS's table: flows.h) into the history (flows.c) run on a tick of their
 * own, FLOW_TICK_MS, not the check cycle: while the machine is busy
 * (FLOW_QUIET_SEGS), and once a FLOW_QUIET_MAX_MS however quiet, the
 * tick itself sleeping up to FLOW_SLEEP_MAX_MS while nothing moves; where
 * the OS sends close notices (Linux), each connection is judged as it
 * closes, whenever that is.  Passes and notices together spend at most
 * FLOW_CPU_SHARE's share of a CPU (struct flow_budget): out of budget, a
 * pass is put off and the notices are left unread, their fd out of the
 * loop, until the budget is back; a user who closes sockets as fast as
 * they can costs the daemon no more than that (bench/flows/closes.sh).
 * Each pass reads the ceilings in force through the sysctl backend and
 * what the configuration wants for them; a MSG_DIAGNOSE gets the
 * history's counts and the flows this client may see: root all of them,
 * anyone else only its own uid's (docs/SECURITY.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"
#include "flows.h"

struct diagnose {
	struct flow_history	*hist;
	struct engine		*engine;
	struct sysctl_backend	*be;
	struct evloop		*loop;
	struct ev_timer		*tick;
	struct flow_limits	 lim;	/* of the last pass */
	struct flow_quiet	 quiet;	/* and the tick's period */
	uint64_t		 now_ms;
	uint64_t		 pass_bytes;	/* the pass's connections' */
	struct flow_budget	 budget;	/* passes and notices: CPU */
	uint64_t		 throttled;	/* passes put off: FLOW_CPU_SHARE */
	uint64_t		 closes_lost;	/* dropped, the queue full */
	uint64_t		 notices_put_off;	/* reading stopped: budget */
	struct ev_timer		*resume;	/* the notices read again */
	int			 watch_fd;	/* close notices; -1 none */
	bool			 watch_paused;	/* out of the loop: budget */
	char			 watch_why[TT_TEXT_MAX];	/* why none */
};

static void	on_tick(void *);
static void	on_close_notice(int, bool, bool, void *);
static void	on_resume(void *);
static void	wake_tick(struct diagnose *);

/* Close notices, where the OS has them; else why not, for the report. */
static void
watch_closes(struct diagnose *d)
{
	if (flows_os.watch_open == NULL) {
		d->watch_fd = -1;
		tt_strlcpy(d->watch_why, "this system sends no close notices",
		    sizeof(d->watch_why));
	} else
		d->watch_fd = flows_os.watch_open(d->watch_why,
		    sizeof(d->watch_why));
	if (d->watch_fd == -1) {
		log_info("diagnose: %s; connections are judged at the passes",
		    d->watch_why);
		return;
	}
	if ((d->resume = ev_timer_new(d->loop, on_resume, d)) == NULL ||
	    ev_fd_add(d->loop, d->watch_fd, on_close_notice, d) == -1) {
		tt_strlcpy(d->watch_why, "cannot watch the close notices",
		    sizeof(d->watch_why));
		log_warnx("diagnose: %s", d->watch_why);
		close(d->watch_fd);
		d->watch_fd = -1;
	}
}

struct diagnose *
diagnose_new(struct engine *e, struct sysctl_backend *be,
    struct evloop *loop)
{
	struct diagnose	*d;

	/* calloc, not malloc and memset: the history's pages stay shared
	   zero pages until flows fill them (resident size, BENCHMARKS.md). */
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->hist = calloc(1, sizeof(*d->hist))) == NULL) {
		free(d);
		return NULL;
	}
	d->engine = e;
	d->be = be;
	d->loop = loop;
	d->quiet.tick_ms = FLOW_TICK_MS;
	if ((d->tick = ev_timer_new(loop, on_tick, d)) == NULL ||
	    ev_timer_start_lax(d->tick, FLOW_TICK_MS,
	    FLOW_TICK_MS / FLOW_TICK_LEEWAY) == -1) {
		ev_timer_free(d->tick);
		free(d->hist);
		free(d);
		return NULL;
	}
	watch_closes(d);
	return d;
}

void
diagnose_free(struct diagnose *d)
{
	if (d == NULL)
		return;
	if (d->watch_fd != -1) {
		if (!d->watch_paused)
			ev_fd_del(d->loop, d->watch_fd);
		close(d->watch_fd);
	}
	ev_timer_free(d->resume);
	ev_timer_free(d->tick);
	flows_free(d->hist);
	free(d->hist);
	free(d);
}

/* What the configuration wants for a ceiling's key, in its bytes. */
static void
wanted(const struct engine *e, struct flow_ceiling *c)
{
	const struct engine_key	*k;

	if (c->key == NULL || flows_os.wanted == NULL ||
	    (k = engine_find_key(e, c->key)) == NULL)
		return;
	c->wanted = flows_os.wanted(c, k->applied[0] ? k->applied :
	    k->cfg.value);
}

static void
take(void *arg, const struct flow_reading *r)
{
	struct diagnose	*d = arg;

	d->pass_bytes += r->bytes_acked + r->bytes_received;
	flows_take(d->hist, r, &d->lim, d->now_ms);
}

static void
take_closed(void *arg, const struct flow_reading *r)
{
	struct diagnose	*d = arg;

	flows_close(d->hist, r, &d->lim, tt_mono_ms());
}

/* The process's CPU time in microseconds, from clock(); 0 unknown. */
static uint64_t
cpu_now_us(void)
{
	clock_t	c = clock();

	return c == (clock_t)-1 ? 0 : (uint64_t)c * 1000000 / CLOCKS_PER_SEC;
}

static void
spend(struct diagnose *d, uint64_t cpu0)
{
	uint64_t	cpu1 = cpu_now_us();

	if (cpu0 != 0 && cpu1 >= cpu0)
		flows_budget_spend(&d->budget, cpu1 - cpu0);
}

/*
 * Out of budget: the notices' fd leaves the loop until it is back (not
 * ev_fd_pause: a queue that overflows meanwhile sets the socket's error,
 * and epoll reports an error whatever the events asked, at every turn).
 */
static void
pause_notices(struct diagnose *d)
{
	uint64_t	wait = flows_budget_wait_ms(&d->budget);

	ev_fd_del(d->loop, d->watch_fd);
	d->watch_paused = true;
	d->notices_put_off++;
	if (ev_timer_start(d->resume, wait > UINT32_MAX ? UINT32_MAX :
	    (unsigned)wait, false) == -1)
		log_warn("diagnose: close notices put off");
}

static void
on_resume(void *arg)
{
	struct diagnose	*d = arg;
	uint64_t	 cpu0 = cpu_now_us();

	if (!d->watch_paused)
		return;
	if (!flows_budget_left(&d->budget, tt_mono_ms())) {
		d->watch_paused = false;	/* pause_notices takes it out */
		pause_notices(d);
		return;
	}
	if (ev_fd_add(d->loop, d->watch_fd, on_close_notice, d) == -1) {
		log_warn("diagnose: close notices");
		return;
	}
	d->watch_paused = false;
	spend(d, cpu0);
}

static void
on_close_notice(int fd, bool readable, bool writable, void *arg)
{
	struct diagnose	*d = arg;
	uint64_t	 lost = d->closes_lost, closes = d->hist->closes, cpu0;

	(void)readable;
	(void)writable;
	if (!flows_budget_left(&d->budget, tt_mono_ms())) {
		pause_notices(d);
		return;
	}
	cpu0 = cpu_now_us();
	if (flows_os.watch_read(fd, take_closed, d, &d->closes_lost,
	    FLOW_NOTICE_BATCH) == -1)
		log_warn("diagnose: close notices");
	spend(d, cpu0);
	if (d->closes_lost > lost)
		log_warnx("diagnose: the kernel dropped close notices, its "
		    "queue full (%llu times so far); those connections are "
		    "judged at the next pass",
		    (unsigned long long)d->closes_lost);
	if (d->hist->closes > closes)
		wake_tick(d);
	if (!flows_budget_left(&d->budget, tt_mono_ms()))
		pause_notices(d);
}

static void
read_limits(struct diagnose *d)
{
	if (flows_os.limits != NULL)
		flows_os.limits(d->be, &d->lim);
	else
		memset(&d->lim, 0, sizeof(d->lim));
	wanted(d->engine, &d->lim.rcv_auto);
	wanted(d->engine, &d->lim.rcv_fixed);
	wanted(d->engine, &d->lim.snd_auto);
	wanted(d->engine, &d->lim.snd_fixed);
}

/*
 * Whether a pass may start now: budget left (struct flow_budget).  CPU
 * time, from clock() (the process's user and system time on glibc and
 * macOS: the dump's kernel work is done in our recv calls), not wall
 * time, which a loaded machine stretches: at a load of 12 a pass of a few
 * ms of CPU took 60 ms and put the next off by 6 s, past a short transfer.
 */
static bool
within_cpu_share(struct diagnose *d, uint64_t now_ms)
{
	if (flows_budget_left(&d->budget, now_ms))
		return true;
	d->throttled++;
	return false;
}

/* One sampling pass, its cost kept for status and the benchmark. */
static void
sample(struct diagnose *d, uint64_t t0)
{
	char		why[TT_TEXT_MAX];

	read_limits(d);
	if (flows_os.local_addrs == NULL)
		d->hist->local.n = 0;
	else if (flows_os.local_addrs(&d->hist->local) == -1)
		log_warn("diagnose: this machine's addresses");
	d->now_ms = tt_mono_ms();
	d->pass_bytes = 0;
	flows_begin_pass(d->hist, d->now_ms);
	if (flows_os.sample != NULL &&
	    flows_os.sample(take, d, why, sizeof(why)) == -1) {
		log_warnx("diagnose: %s", why);
		tt_strlcpy(d->hist->problem, why, sizeof(d->hist->problem));
	}
	flows_end_pass(d->hist, d->now_ms);
	d->hist->last_pass_ms_cost = tt_mono_ms() - t0;
}

/* The tick again after period ms, late by a tenth if that saves a wake-up. */
static void
arm_tick(struct diagnose *d, uint32_t period)
{
	if (ev_timer_start_lax(d->tick, period, period / FLOW_TICK_LEEWAY) ==
	    -1)
		log_warn("diagnose: the sampling tick");
}

/*
 * A close notice came (a transfer ended, others may run): a tick that
 * sleeps long is brought back to FLOW_TICK_MS from now.
 */
static void
wake_tick(struct diagnose *d)
{
	if (d->quiet.tick_ms > FLOW_TICK_MS)
		arm_tick(d, flows_tick_next(&d->quiet, false));
}

/*
 * One tick's work: a pass unless the machine is quiet (flows_pass_due);
 * the whole of it spends the budget, the segment count's read too.
 * Whether the tick was quiet (FLOW_SLEEP_MAX_MS): by the segment count,
 * or without one by what the pass's connections moved.
 */
static bool
tick_quiet(struct diagnose *d, uint64_t t0)
{
	uint64_t	segs = 0, cpu0 = cpu_now_us();
	int		have;
	bool		quiet;

	have = flows_os.segments != NULL ? flows_os.segments(&segs) : -1;
	if (flows_pass_due(&d->quiet, have, segs, t0)) {
		sample(d, t0);
		quiet = have == 0 ? d->quiet.was_quiet :
		    flows_bytes_quiet(&d->quiet, d->pass_bytes);
	} else
		quiet = true;	/* a pass is skipped only when quiet */
	spend(d, cpu0);
	return quiet;
}

/* The tick: its work, then the next, sooner or later (flows_tick_next). */
static void
on_tick(void *arg)
{
	struct diagnose	*d = arg;
	uint64_t	 t0 = tt_mono_ms();
	bool		 quiet = false;	/* out of budget: busy */

	if (within_cpu_share(d, t0))
		quiet = tick_quiet(d, t0);
	arm_tick(d, flows_tick_next(&d->quiet, quiet));
}

static bool
shown(const struct flow *f, const struct flow_verdict *v,
    const struct ctl_peer *peer, bool all)
{
	/* unjudged yet, but its window scale keeps it below the ceiling */
	if (!all && v->held == HELD_UNCLASSIFIED && v->window_cap == 0)
		return false;
	return peer->privileged || flows_owned_by(f, peer->user);
}

/*
 * The reply to one diagnose: the summary, and the flows this peer may
 * see in an array of *n (NULL when none or out of memory: the summary
 * still counts them).  n NULL: the summary alone (status's tail, asked
 * at every status), the flows counted, not copied.
 */
struct msg_flow *
diagnose_reply(struct diagnose *d, const struct ctl_peer *peer, bool all,
    struct msg_diag_summary *sum, size_t *n)
{
	struct flow_verdict	 v;
	struct msg_flow		*out = NULL;
	const struct flow	*f;
	size_t			 i, count = 0;

	flows_summary(d->hist, peer->user, peer->privileged, sum);
	tt_strlcpy(sum->sampler, flows_os.name, sizeof(sum->sampler));
	tt_strlcpy(sum->cannot_tell, flows_os.cannot_tell,
	    sizeof(sum->cannot_tell));
	sum->closes_lost = d->closes_lost;
	sum->throttled = d->throttled + d->notices_put_off;
	sum->watching = d->watch_fd != -1;
	sum->tick_now_ms = d->quiet.tick_ms;
	tt_strlcpy(sum->watch_why, d->watch_why, sizeof(sum->watch_why));
	if (n != NULL) {
		*n = 0;
		if ((out = calloc(FLOWS_MAX, sizeof(*out))) == NULL)
			return NULL;
	}
	for (i = 0; i < d->hist->top; i++) {
		if (!(f = &d->hist->flows[i])->used)
			continue;
		flows_classify(f, &v);
		if (!shown(f, &v, peer, all))
			continue;
		if (out != NULL)
			flows_to_msg(f, &v, &out[count]);
		count++;
	}
	sum->nflows = (uint32_t)count;
	if (n != NULL)
		*n = count;
	return out;
}
