/*
 * The engine: from a validated config to values in force.  It applies keys
 * in plan order (ceilings first), restores in reverse, re-checks on every
 * tick, reverts drift, and backs off from a key that something else keeps
 * changing instead of fighting it in a tight loop.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcptuned.h"

#define CLAMP_MAX_TRIES	64

void
engine_init(struct engine *e, struct sysctl_backend *be, struct originals *st)
{
	memset(e, 0, sizeof(*e));
	e->be = be;
	e->originals = st;
	e->mono = tt_mono;
}

void
engine_free(struct engine *e)
{
	free(e->keys);
	config_free(e->cfg);
	e->keys = NULL;
	e->cfg = NULL;
	e->nkeys = 0;
}

/* The key of that name in the plan, or NULL. */
const struct engine_key *
engine_find_key(const struct engine *e, const char *name)
{
	size_t	i;

	for (i = 0; i < e->nkeys; i++)
		if (strcmp(e->keys[i].cfg.name, name) == 0)
			return &e->keys[i];
	return NULL;
}

/*
 * The backend's own reason (Group Policy, a missing CIM class) replaces
 * the generic note when it has one; true then.
 */
static bool
backend_note(const struct engine *e, struct engine_key *k)
{
	return e->be->explain != NULL && e->be->explain(e->be, k->cfg.name,
	    k->note, sizeof(k->note)) == 0;
}

static void
set_refused(const struct engine *e, struct engine_key *k, int err,
    const char *what)
{
	bool	report = k->state != KS_REFUSED || k->err != err;

	k->state = KS_REFUSED;
	k->err = err;
	if (err == ENOENT)
		tt_strlcpy(k->note, "no such sysctl on this system",
		    sizeof(k->note));
	else if (err == EACCES || err == EPERM)
		tt_strlcpy(k->note, "not writable here (a global key inside "
		    "a container or namespace, or not root)", sizeof(k->note));
	if (backend_note(e, k) && report)
		log_warnx("%s: %s %s refused: %s: %s", k->cfg.name, what,
		    k->applied, strerror(err), k->note);
	else if (report)
		log_warnx("%s: %s %s refused: %s", k->cfg.name, what,
		    k->applied, strerror(err));
}

static int
read_key(struct engine *e, struct engine_key *k)
{
	int	err;

	err = e->be->get(e->be, k->cfg.name, k->current, sizeof(k->current));
	if (err != 0) {
		bool report = k->state != KS_REFUSED || k->err != err;

		k->current[0] = '\0';
		k->state = KS_REFUSED;
		k->err = err;
		if (err == ENOENT)
			tt_strlcpy(k->note, "no such sysctl on this system",
			    sizeof(k->note));
		if (backend_note(e, k) && report)
			log_warnx("%s: cannot read: %s: %s", k->cfg.name,
			    strerror(err), k->note);
		else if (report)
			log_warnx("%s: cannot read: %s", k->cfg.name,
			    strerror(err));
	}
	return err;
}

/* Write and read back: a write is only believed when the kernel shows it. */
static int
write_key(struct engine *e, struct engine_key *k, const char *value)
{
	char	old[TT_VALUE_MAX];
	int	err;

	tt_strlcpy(old, k->current, sizeof(old));
	if ((err = e->be->set(e->be, k->cfg.name, value)) != 0)
		return err;
	if ((err = read_key(e, k)) != 0)
		return err;
	if (!value_equal(k->current, value)) {
		log_warnx("%s: wrote %s but the kernel kept %s", k->cfg.name,
		    value, k->current);
		return ERANGE;
	}
	log_notice("%s: %s -> %s", k->cfg.name, old, k->current);
	k->last_change = time(NULL);
	tt_strlcpy(k->written, k->current, sizeof(k->written));
	return 0;
}

static bool
clampable(int err)
{
	return err == ERANGE || err == EINVAL || err == ENOBUFS;
}

/*
 * The highest value the kernel takes, between lo (taken: it is the current
 * value) and hi (refused), found by halving.  Each try is a real write, so
 * the search ends on a write of the answer.
 */
static int
clamp_search(struct engine *e, struct engine_key *k, long long lo,
    long long hi, long long *found)
{
	char		try[TT_VALUE_MAX];
	long long	mid;
	int		n = 0;

	while (hi - lo > 1 && n++ < CLAMP_MAX_TRIES) {
		mid = lo + (hi - lo) / 2;
		if (value_with_last(k->cfg.value, mid, try, sizeof(try)) == -1)
			return EINVAL;
		if (e->be->set(e->be, k->cfg.name, try) == 0)
			lo = mid;
		else
			hi = mid;
	}
	*found = lo;
	return 0;
}

static int
clamp_key(struct engine *e, struct engine_key *k, int first_err)
{
	char		target[TT_VALUE_MAX], why[384] = "";
	long long	nums[TT_VALUE_MAX_WORDS], cur[TT_VALUE_MAX_WORDS], max;
	int		n, nc, err;

	n = value_numbers(k->cfg.value, nums, TT_VALUE_MAX_WORDS);
	nc = value_numbers(k->current, cur, TT_VALUE_MAX_WORDS);
	if (n <= 0 || nc != n)
		return first_err;
	if (e->be->ceiling == NULL ||
	    e->be->ceiling(e->be, k->cfg.name, &max, why, sizeof(why)) != 0 ||
	    max >= nums[n - 1]) {
		snprintf(why, sizeof(why), "the kernel refused %lld (%s); the "
		    "highest value it takes was found by trying",
		    nums[n - 1], errno_name(first_err));
		if (clamp_search(e, k, cur[nc - 1], nums[n - 1], &max) != 0)
			return first_err;
	}
	if (value_with_last(k->cfg.value, max, target, sizeof(target)) == -1)
		return first_err;
	tt_strlcpy(k->applied, target, sizeof(k->applied));
	if ((err = write_key(e, k, target)) != 0)
		return err;
	k->state = KS_CLAMPED;
	k->err = first_err;
	snprintf(k->note, sizeof(k->note), "clamped to %lld: %s", max, why);
	log_warnx("%s: %s", k->cfg.name, k->note);
	return 0;
}

static enum key_state
in_force_state(const struct engine_key *k)
{
	return strcmp(k->applied, k->cfg.value) == 0 ? KS_IN_FORCE :
	    KS_CLAMPED;
}

/* Bring one key to target; the outcome is in k->state. */
static int
enforce_key(struct engine *e, struct engine_key *k, const char *target)
{
	int	err;

	if ((err = write_key(e, k, target)) == 0) {
		k->state = in_force_state(k);
		if (k->state == KS_IN_FORCE) {
			k->err = 0;
			/* how it was applied, when the backend says (netsh) */
			if (!backend_note(e, k))
				k->note[0] = '\0';
		}
		return 0;
	}
	if (k->cfg.on_reject == REJECT_CLAMP && clampable(err) &&
	    clamp_key(e, k, err) == 0)
		return 0;
	set_refused(e, k, err, "value");
	return -1;
}

/*
 * What the key should be now, given its current value: the applied value,
 * or for at-least base (the current value, or what apply_key chose)
 * raised where it is below.  NULL when it is already there.
 */
static const char *
key_target(const struct engine_key *k, const char *base, char *buf,
    size_t len)
{
	if (k->cfg.mode != MODE_AT_LEAST)
		return value_equal(k->current, k->applied) ? NULL : k->applied;
	/*
	 * A check's common cases, the live value the config's (a string
	 * compare) or above it: nothing to write, and no raised value
	 * formatted (number parsing and snprintf made three quarters of a
	 * check's instructions: docs/BENCHMARKS.md, CPU per check cycle).
	 */
	if (base == k->current && (value_equal(k->current, k->applied) ||
	    value_at_least(k->current, k->applied) == 1))
		return NULL;
	if (value_raise(base, k->applied, buf, len) == -1)
		return value_at_least(k->current, k->applied) == 1 ? NULL :
		    k->applied;
	return value_equal(k->current, buf) ? NULL : buf;
}

/*
 * What at-least measures from when a config is applied.  It keeps what
 * someone else set higher, not what tcptuned set itself: where the value
 * is still tcptuned's own last write (the config before a reload), it is
 * the original's, so a ceiling its admin lowered takes effect.  After a
 * restart nothing says whose a higher value is: it is kept.
 */
static const char *
at_least_base(const struct engine *e, const struct engine_key *k)
{
	const char	*orig;

	if (k->written[0] != '\0' && value_equal(k->current, k->written) &&
	    (orig = originals_get(e->originals, k->cfg.name)) != NULL)
		return orig;
	return k->current;
}

/*
 * Whether writing target lowers a number that someone other than tcptuned
 * set (Mode enforce over a higher value): then the log and status say
 * what it replaced, for Mode at-least would have kept it.
 */
static bool
lowers_another(const struct engine_key *k, const char *target)
{
	char	high[TT_VALUE_MAX];

	if (k->cfg.mode != MODE_ENFORCE ||
	    (k->written[0] != '\0' && value_equal(k->current, k->written)) ||
	    value_raise(k->current, target, high, sizeof(high)) == -1)
		return false;
	return !value_equal(high, target);
}

/* First write of a key (start, reload, resume): original captured first. */
static void
apply_key(struct engine *e, struct engine_key *k)
{
	char		 buf[TT_VALUE_MAX], was[TT_VALUE_MAX];
	const char	*target;
	bool		 lowered;

	tt_strlcpy(k->applied, k->cfg.value, sizeof(k->applied));
	k->note[0] = '\0';
	k->lowered = false;
	if (read_key(e, k) != 0)
		return;
	if (originals_get(e->originals, k->cfg.name) == NULL)
		originals_set(e->originals, k->cfg.name, k->current);
	if ((target = key_target(k, at_least_base(e, k), buf,
	    sizeof(buf))) == NULL) {
		k->state = KS_IN_FORCE;
		k->err = 0;
		return;
	}
	tt_strlcpy(was, k->current, sizeof(was));
	lowered = lowers_another(k, target);
	if (enforce_key(e, k, target) == 0 && lowered) {
		log_warnx("%s: lowered from %s to %s: Mode enforce holds the "
		    "config's value exactly (Mode at-least keeps a higher one)",
		    k->cfg.name, was, k->current);
		snprintf(k->note, sizeof(k->note), "lowered from %s by Mode "
		    "enforce (Mode at-least keeps a higher value)", was);
		k->lowered = true;
	}
}

/* Put one original back: 1 when written, 0 when already so, -1 failed. */
static int
restore_key(struct engine *e, const char *name, const char *original)
{
	char	cur[TT_VALUE_MAX];
	int	err;

	if ((err = e->be->get(e->be, name, cur, sizeof(cur))) == 0 &&
	    value_equal(cur, original))
		return 0;
	if ((err = e->be->set(e->be, name, original)) != 0) {
		log_warnx("%s: cannot restore %s: %s", name, original,
		    strerror(err));
		return -1;
	}
	log_notice("%s: restored %s", name, original);
	return 1;
}

static bool
in_config(const struct config *cfg, const char *name)
{
	return cfg != NULL && config_find(cfg, name) != NULL;
}

/*
 * An original outside the managed sysctls is put back only when a config
 * (the running one, which set it, or the next) allows any sysctl: the
 * originals file is root's, but what it may make root write stays within
 * what a config may.
 */
static bool
may_restore(const struct engine *e, const struct config *next,
    const char *name)
{
	return sysctl_name_managed(name) ||
	    (e->cfg != NULL && e->cfg->allow_any_sysctl) ||
	    (next != NULL && next->allow_any_sysctl);
}

/*
 * Keys with an original on record that the new config no longer names get
 * it back, in reverse plan order (ceilings last), and are forgotten.
 */
static int
restore_dropped(struct engine *e, const struct config *next)
{
	struct config_key	 *tmp;
	const struct config_key	**order;
	const char		 *orig;
	size_t			  i, n = 0;
	int			  failed = 0;

	tmp = calloc(e->originals->n + 1, sizeof(*tmp));
	order = calloc(e->originals->n + 1, sizeof(*order));
	if (tmp == NULL || order == NULL)
		fatal("%s", __func__);
	for (i = 0; i < e->originals->n; i++) {
		if (in_config(next, e->originals->entries[i].name))
			continue;
		if (!may_restore(e, next, e->originals->entries[i].name)) {
			log_warnx("%s: an original on record, outside the "
			    "network sysctls and no config allows it: not "
			    "restoring it", e->originals->entries[i].name);
			continue;
		}
		tt_strlcpy(tmp[n].name, e->originals->entries[i].name,
		    sizeof(tmp[n].name));
		order[n] = &tmp[n];
		n++;
	}
	plan_sort(order, n);
	for (i = n; i-- > 0;) {
		orig = originals_get(e->originals, order[i]->name);
		if (restore_key(e, order[i]->name, orig) != -1)
			originals_forget(e->originals, order[i]->name);
		else
			failed++;
	}
	free(order);
	free(tmp);
	return failed ? -1 : 0;
}

/* Counters and back-off survive a reload for keys that stay the same. */
static void
carry_over(const struct engine *e, struct engine_key *k)
{
	const struct engine_key	*old = engine_find_key(e, k->cfg.name);

	if (old == NULL)
		return;
	k->corrections = old->corrections;
	k->last_change = old->last_change;
	tt_strlcpy(k->written, old->written, sizeof(k->written));
	if (strcmp(old->cfg.value, k->cfg.value) == 0 &&
	    old->cfg.mode == k->cfg.mode) {
		memcpy(k->recent, old->recent, sizeof(k->recent));
		k->backoff = old->backoff;
		k->next_attempt = old->next_attempt;
	}
}

static struct engine_key *
build_keys(const struct engine *e, const struct config *cfg)
{
	const struct config_key	**order;
	struct engine_key	 *keys;
	size_t			  i;

	order = calloc(cfg->nkeys + 1, sizeof(*order));
	keys = calloc(cfg->nkeys + 1, sizeof(*keys));
	if (order == NULL || keys == NULL)
		fatal("%s", __func__);
	for (i = 0; i < cfg->nkeys; i++)
		order[i] = &cfg->keys[i];
	plan_sort(order, cfg->nkeys);
	for (i = 0; i < cfg->nkeys; i++) {
		keys[i].cfg = *order[i];
		tt_strlcpy(keys[i].applied, order[i]->value,
		    sizeof(keys[i].applied));
		carry_over(e, &keys[i]);
	}
	free(order);
	return keys;
}

/*
 * The most one socket buffer can have under the ceiling cap at capval:
 * the backend knows when only part of it is usable (8/9 of maxsockbuf on
 * FreeBSD and macOS up to 14.3).
 */
static long long
usable_under(struct engine *e, const char *cap, long long capval)
{
	long long	max;

	if (e->be->sockbuf_max == NULL ||
	    e->be->sockbuf_max(e->be, cap, capval, &max) != 0)
		return capval;
	return max;
}

/* Say when a value cannot take full effect because of its ceiling. */
static void
note_ceilings(struct engine *e)
{
	const char	*cap;
	char		 capval[TT_VALUE_MAX];
	long long	 v, c, u;
	size_t		 i;

	for (i = 0; i < e->nkeys; i++) {
		struct engine_key *k = &e->keys[i];

		if ((cap = sysctl_capped_by(k->cfg.name)) == NULL ||
		    k->state != KS_IN_FORCE ||
		    e->be->get(e->be, cap, capval, sizeof(capval)) != 0 ||
		    value_numbers(k->applied, &v, 1) != 1 ||
		    value_numbers(capval, &c, 1) != 1 ||
		    v <= (u = usable_under(e, cap, c)))
			continue;
		if (u == c)
			snprintf(k->note, sizeof(k->note), "effective ceiling "
			    "%lld: sockets are capped at %s", c, cap);
		else
			snprintf(k->note, sizeof(k->note), "effective ceiling "
			    "%lld: a socket buffer may use %lld of %s %lld",
			    u, u, cap, c);
	}
}

/*
 * Take a new, validated config (owned from here on): restore what it
 * dropped, then apply it in plan order unless enforcement is paused.
 * Returns -1 when some key was not brought in force.
 */
int
engine_configure(struct engine *e, struct config *cfg)
{
	struct engine_key	*keys;
	size_t			 i;
	int			 rv;

	rv = restore_dropped(e, cfg);
	keys = build_keys(e, cfg);
	engine_free(e);
	e->cfg = cfg;
	e->keys = keys;
	e->nkeys = cfg->nkeys;
	for (i = 0; i < e->nkeys; i++) {
		if (e->originals->paused) {
			read_key(e, &e->keys[i]);
			e->keys[i].state = KS_PAUSED;
			continue;
		}
		apply_key(e, &e->keys[i]);
		if (e->keys[i].state != KS_IN_FORCE)
			rv = -1;
	}
	note_ceilings(e);
	return rv;
}

static int
recent_corrections(const struct engine_key *k, time_t now)
{
	int	i, n = 0;

	for (i = 0; i < CONTEST_CORRECTIONS; i++)
		if (k->recent[i] != 0 && now - k->recent[i] < CONTEST_WINDOW)
			n++;
	return n;
}

static void
back_off(struct engine *e, struct engine_key *k, time_t now)
{
	time_t	delay = e->cfg->check_interval;
	unsigned i;

	k->backoff++;
	for (i = 0; i < k->backoff && delay < CONTEST_BACKOFF_MAX; i++)
		delay *= 2;
	if (delay > CONTEST_BACKOFF_MAX)
		delay = CONTEST_BACKOFF_MAX;
	k->next_attempt = now + delay;
	snprintf(k->note, sizeof(k->note), "contested: something else keeps "
	    "changing it (%u corrections so far); next correction in %lld s",
	    k->corrections, (long long)delay);
	log_warnx("%s: %s", k->cfg.name, k->note);
}

/* Revert drift, unless the key is contested and its back-off runs. */
static void
correct_key(struct engine *e, struct engine_key *k, const char *target,
    time_t now)
{
	if (k->backoff > 0 && now < k->next_attempt) {
		k->state = KS_CONTESTED;
		return;
	}
	log_notice("%s: drifted to %s, restoring %s", k->cfg.name, k->current,
	    target);
	if (enforce_key(e, k, target) == -1)
		return;
	k->corrections++;
	memmove(&k->recent[1], &k->recent[0],
	    (CONTEST_CORRECTIONS - 1) * sizeof(k->recent[0]));
	k->recent[0] = now;
	/* Once contested, every correction doubles the wait until the key
	 * has stayed put for a whole window (see check_key). */
	if (k->backoff > 0 ||
	    recent_corrections(k, now) >= CONTEST_CORRECTIONS)
		back_off(e, k, now);
}

/*
 * A refused key is tried again at the next check, then after 2, 4, 8...
 * checks, at most CONTEST_BACKOFF_MAX seconds apart: a key the kernel
 * will not take (EPERM in a container, a missing module) costs a write
 * and a log line an hour, not one each check.  Counted in checks, not
 * seconds, so a slow check never pushes it further.  Taken: back to 0.
 */
static void
refusal_back_off(struct engine *e, struct engine_key *k)
{
	uint64_t	skip, most;

	if (k->state != KS_REFUSED) {
		if (k->refusals > 1)
			log_info("%s: taken after %u refused tries",
			    k->cfg.name, k->refusals);
		k->refusals = 0;
		k->retry_check = 0;
		return;
	}
	k->refusals++;
	most = CONTEST_BACKOFF_MAX / (e->cfg->check_interval ?
	    e->cfg->check_interval : 1);
	skip = k->refusals > 20 ? most : 1ULL << (k->refusals - 1);
	if (skip > most)
		skip = most > 0 ? most : 1;
	k->retry_check = e->checks + skip;
}

static void
check_key(struct engine *e, struct engine_key *k, time_t now)
{
	char		 buf[TT_VALUE_MAX];
	const char	*target;

	if (e->originals->paused) {
		if (read_key(e, k) == 0)
			k->state = KS_PAUSED;
		return;
	}
	if (k->state == KS_REFUSED) {
		/* Retried (apply_key reads first), for the obstacle may
		 * have gone, but backing off as a contested key does. */
		if (e->checks >= k->retry_check) {
			apply_key(e, k);
			refusal_back_off(e, k);
		}
		return;
	}
	if (read_key(e, k) != 0)
		return;
	if ((target = key_target(k, k->current, buf, sizeof(buf))) == NULL) {
		k->state = in_force_state(k);
		if (k->backoff > 0 && now - k->recent[0] >= CONTEST_WINDOW) {
			log_notice("%s: no longer contested", k->cfg.name);
			k->backoff = 0;
			k->note[0] = '\0';
		}
		return;
	}
	if (k->cfg.mode == MODE_ONCE) {
		k->state = KS_DRIFTED;
		return;
	}
	correct_key(e, k, target, now);
}

/* One tick: read every key, correct what drifted. */
void
engine_check(struct engine *e)
{
	time_t	now = e->mono();
	size_t	i;

	e->checks++;
	for (i = 0; i < e->nkeys; i++)
		check_key(e, &e->keys[i], now);
	e->last_check = time(NULL);
}

/*
 * Fresh current values for a status reply, between checks: drift shows
 * at once, and the next check corrects it.  Nothing is written here.
 */
void
engine_refresh(struct engine *e)
{
	char	buf[TT_VALUE_MAX];
	size_t	i;

	for (i = 0; i < e->nkeys; i++) {
		struct engine_key *k = &e->keys[i];

		if (k->state != KS_IN_FORCE && k->state != KS_CLAMPED &&
		    k->state != KS_DRIFTED)
			continue;
		if (read_key(e, k) != 0)
			continue;
		if (key_target(k, k->current, buf, sizeof(buf)) != NULL)
			k->state = KS_DRIFTED;
		else
			k->state = in_force_state(k);
	}
}

/*
 * Originals back, in reverse plan order.  With pause, enforcement stops
 * until resume or a reload, and that survives a restart; without it (exit
 * with RestoreOnExit) the originals are forgotten, to be taken afresh.
 * The pause is saved only once every original is back: a crash half-way
 * must not leave a restart paused over a mix of tuned and original values
 * (it applies the config instead, and the client saw no reply).  A
 * lease's pause (RESTORE_LEASE) is never saved at all.
 */
int
engine_restore(struct engine *e, int how)
{
	const char	*orig;
	size_t		 i;
	int		 failed = 0;

	for (i = e->nkeys; i-- > 0;) {
		struct engine_key *k = &e->keys[i];

		if ((orig = originals_get(e->originals, k->cfg.name)) == NULL)
			continue;
		switch (restore_key(e, k->cfg.name, orig)) {
		case -1:
			failed++;
			continue;
		case 1:
			k->last_change = time(NULL);
			break;
		}
		if (how == RESTORE_EXIT)
			originals_forget(e->originals, k->cfg.name);
		read_key(e, k);
		k->state = KS_PAUSED;
	}
	if (how == RESTORE_PAUSE)
		originals_set_paused(e->originals, true);
	else if (how == RESTORE_LEASE)
		originals_set_lease_pause(e->originals);
	return failed ? -1 : 0;
}

int
engine_resume(struct engine *e)
{
	size_t	i;
	int	rv = 0;

	originals_set_paused(e->originals, false);
	for (i = 0; i < e->nkeys; i++) {
		apply_key(e, &e->keys[i]);
		if (e->keys[i].state != KS_IN_FORCE)
			rv = -1;
	}
	note_ceilings(e);
	return rv;
}

bool
engine_all_in_force(const struct engine *e)
{
	return !e->originals->paused && engine_not_in_force(e) == 0;
}

/* How many keys are not in force (paused, refused, drifted, ...). */
size_t
engine_not_in_force(const struct engine *e)
{
	size_t	i, n = 0;

	for (i = 0; i < e->nkeys; i++)
		if (e->keys[i].state != KS_IN_FORCE)
			n++;
	return n;
}

/*
 * Both values where the original on record is not the one a damaged copy
 * holds: the copy's may be the value from before tcptuned wrote the key.
 */
static void
note_damaged_copy(const struct engine *e, const char *name, const char *orig,
    struct msg_key_status *ks)
{
	const char	*copy, *value;
	size_t		 len = strlen(ks->note);

	if ((value = originals_seen(e->originals, name, &copy)) == NULL ||
	    (orig != NULL && strcmp(orig, value) == 0))
		return;
	(void)tt_snprintf(ks->note + len, sizeof(ks->note) - len, "%sthe "
	    "damaged copy %s holds %s as its original; see RECOVERY in "
	    "tcptuned(8)", len > 0 ? "; " : "", copy, value);
}

/*
 * The other places that set the key (other_sources.c), where they may be
 * why it moved or what it replaced: a drifted, corrected or contested
 * key, one Mode enforce lowered, and one Mode at-least holds above the
 * config's value (someone else's higher value, kept: whose it is is the
 * first thing an admin asks).
 */
static void
note_others(const struct engine *e, const struct engine_key *k,
    struct msg_key_status *ks)
{
	bool	kept_higher;

	kept_higher = k->cfg.mode == MODE_AT_LEAST &&
	    k->state == KS_IN_FORCE && !value_equal(k->current, k->cfg.value);
	if (e->others == NULL || !(k->state == KS_DRIFTED ||
	    k->state == KS_CONTESTED || k->corrections > 0 || k->lowered ||
	    kept_higher))
		return;
	(void)other_sources_say(e->others, k->cfg.name, ks->others,
	    sizeof(ks->others));
}

void
engine_key_status(const struct engine *e, const struct engine_key *k,
    struct msg_key_status *ks)
{
	const char	*orig = originals_get(e->originals, k->cfg.name);
	time_t		 mono = e->mono();

	memset(ks, 0, sizeof(*ks));
	tt_strlcpy(ks->name, k->cfg.name, sizeof(ks->name));
	tt_strlcpy(ks->wanted, k->cfg.value, sizeof(ks->wanted));
	tt_strlcpy(ks->applied, k->applied, sizeof(ks->applied));
	tt_strlcpy(ks->current, k->current, sizeof(ks->current));
	tt_strlcpy(ks->original, orig ? orig : "", sizeof(ks->original));
	tt_strlcpy(ks->note, k->note, sizeof(ks->note));
	note_damaged_copy(e, k->cfg.name, orig, ks);
	note_others(e, k, ks);
	tt_strlcpy(ks->source, config_key_source(e->cfg, &k->cfg),
	    sizeof(ks->source));
	ks->has_original = orig != NULL;
	ks->last_change = k->last_change;
	if (k->state == KS_CONTESTED)
		ks->next_attempt = time(NULL) + (k->next_attempt - mono);
	if (k->state == KS_REFUSED && k->retry_check > e->checks + 1)
		ks->next_attempt = e->last_check + (time_t)((k->retry_check -
		    e->checks) * e->cfg->check_interval);
	ks->state = k->state;
	ks->mode = k->cfg.mode;
	ks->on_reject = k->cfg.on_reject;
	ks->err = k->err;
	ks->corrections = k->corrections;
}
