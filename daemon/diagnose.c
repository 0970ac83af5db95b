/*
 * diagnose: the daemon's side of tcptunectl diagnose.  Each check cycle
 * runs one sampling pass (flows_os_sample) into the history (flows.c),
 * except on a quiet machine (FLOW_QUIET_SEGS),
 * with the ceilings in force read through the sysctl backend and what
 * the configuration wants for them; a MSG_DIAGNOSE gets the history's
 * counts and the flows this client may see: root all of them, anyone
 * else only its own uid's (docs/SECURITY.md).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

struct diagnose {
	struct flow_history	*hist;
	struct engine		*engine;
	struct sysctl_backend	*be;
	struct flow_limits	 lim;	/* of the pass under way */
	struct flow_quiet	 quiet;
	uint64_t		 now_ms;
};

struct diagnose *
diagnose_new(struct engine *e, struct sysctl_backend *be)
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
	return d;
}

void
diagnose_free(struct diagnose *d)
{
	if (d == NULL)
		return;
	free(d->hist);
	free(d);
}

/* What the configuration wants for a ceiling's key, in its bytes. */
static void
wanted(const struct engine *e, struct flow_ceiling *c)
{
	const struct engine_key	*k;

	if (c->key == NULL || (k = engine_find_key(e, c->key)) == NULL)
		return;
	c->wanted = flows_os_wanted(c, k->applied[0] ? k->applied :
	    k->cfg.value);
}

static void
take(void *arg, const struct flow_reading *r)
{
	struct diagnose	*d = arg;

	flows_take(d->hist, r, &d->lim, d->now_ms);
}

/*
 * One sampling pass, unless the machine is quiet (flows_pass_due): its
 * cost is kept for status and the benchmark.
 */
void
diagnose_pass(struct diagnose *d)
{
	char		why[TT_TEXT_MAX];
	uint64_t	t0 = tt_mono_ms(), segs = 0;
	int		have;

	have = flows_os_segments(&segs);
	if (!flows_pass_due(&d->quiet, have, segs, t0))
		return;

	flows_os_limits(d->be, &d->lim);
	wanted(d->engine, &d->lim.rcv_auto);
	wanted(d->engine, &d->lim.rcv_fixed);
	wanted(d->engine, &d->lim.snd_auto);
	wanted(d->engine, &d->lim.snd_fixed);
	d->now_ms = tt_mono_ms();
	flows_begin_pass(d->hist, d->now_ms);
	if (flows_os_sample(take, d, why, sizeof(why)) == -1) {
		log_warnx("diagnose: %s", why);
		tt_strlcpy(d->hist->problem, why, sizeof(d->hist->problem));
	}
	flows_end_pass(d->hist, d->now_ms);
	d->hist->last_pass_ms_cost = tt_mono_ms() - t0;
}

static bool
shown(const struct flow *f, const struct flow_verdict *v,
    const struct ctl_peer *peer, bool all)
{
	if (!all && v->held == HELD_UNCLASSIFIED)
		return false;
	return peer->privileged || flows_owned_by(f, peer->user);
}

/*
 * The reply to one diagnose: the summary, and the flows this peer may
 * see in an array of *n (NULL when none or out of memory: the summary
 * still counts them).
 */
struct msg_flow *
diagnose_reply(struct diagnose *d, const struct ctl_peer *peer, bool all,
    struct msg_diag_summary *sum, size_t *n)
{
	struct flow_verdict	 v;
	struct msg_flow		*out;
	const struct flow	*f;
	size_t			 i;

	flows_summary(d->hist, peer->user, peer->privileged, sum);
	*n = 0;
	if ((out = calloc(FLOWS_MAX, sizeof(*out))) == NULL)
		return NULL;
	for (i = 0; i < d->hist->top; i++) {
		if (!(f = &d->hist->flows[i])->used)
			continue;
		flows_classify(f, &v);
		if (shown(f, &v, peer, all))
			flows_to_msg(f, &v, &out[(*n)++]);
	}
	sum->nflows = (uint32_t)*n;
	return out;
}
