/*
 * tcptuned: applies the TCP-tuning sysctls of /etc/tcptune.conf, keeps them
 * in force, and answers tcptunectl.  It always runs in the foreground:
 * launchd, systemd and daemon(8) supervise it.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"
#include "kernel_lock.h"

#define DEBOUNCE_MS	300	/* editors write, rename and chmod in bursts */
#define DEBOUNCE_MAX_MS	2000	/* a file that never settles is read anyway */

struct options {
	const char	*config_path;
	const char	*managed_path;	/* "" none */
	const char	*socket_path;
	const char	*state_dir;
	const char	*sysctl_root;
	const char	*parse_helper;	/* tcptune-parse */
	char		 found_helper[PATH_MAX];	/* parse_helper_find */
	bool		 debug;
	bool		 check_only;
};

/*
 * The config being read by the helper, on the daemon's loop: one read at
 * a time.  A request that comes while one runs is coalesced into the one
 * read that starts when it ends, never lost and never answered from a
 * read that began before it was made.  forced: a reload (SIGHUP,
 * tcptunectl), which swaps the config whatever its digest; otherwise the
 * watch's read, which reloads only a change.
 */
struct reader {
	struct ctl_client	*client;
	bool			 next;		/* for the read after this one */
};
struct reading {
	struct parse_job	*job;		/* NULL: none running */
	bool			 forced;
	bool			 again;		/* another read is wanted */
	bool			 again_forced;
	struct reader		*clients;	/* answered when theirs ends */
	size_t			 nclients;
};

struct daemon {
	struct options		 opt;
	struct evloop		*loop;
	struct sysctl_backend	*be;
	struct originals	 originals;
	struct engine		 engine;
	struct other_sources	 others;	/* who else sets the keys */
	struct control		*ctl;
	struct ev_timer		*check_timer;
	struct ev_timer		*debounce_timer;
	struct ev_timer		*lease_timer;
	struct lease		 lease;
	struct ev_watch		*watch;
	struct ev_watch		*managed_watch;
	struct stat		 managed_dir;	/* watched, to see it replaced */
	struct policy_watch	*policy_watch;	/* Windows registry policy */
	time_t			 started;
	long			 pid;	/* read once, not a syscall a status */
	time_t			 last_reload;
	bool			 last_reload_ok;
	char			 last_reload_msg[TT_TEXT_MAX];
	uint64_t		 last_bad_digest;
	uint64_t		 first_event_ms;	/* of a burst; 0 none */
	unsigned long		 refreshed_turn;	/* 0: values stale */
	int			 lock_fd;
	struct kernel_lock	*kernel_lock;	/* one daemon per sysctls */
	struct diagnose		*diagnose;	/* the flows, sampled */
	struct reading		 reading;	/* the config, on the loop */
	const struct supervisor	*sup;
	char			 told[TT_TEXT_MAX];	/* its last status */
	char			 metrics_err[TT_TEXT_MAX];	/* logged once;
						   "" the file is written */
};

static void	watch_managed(struct daemon *);
static void	write_metrics(struct daemon *);
static void	read_config(struct daemon *, bool, struct ctl_client *);
static void	forget_reader(struct daemon *, const void *);

#define USAGE_WIDTH	80	/* a terminal's columns */
#define USAGE_INDENT	16	/* the column the option texts start at */

static void
usage(FILE *out)
{
	char		 text[4096];
	const char	*s, *nl;

	snprintf(text, sizeof(text),
	    "usage: tcptuned [-dnhV] [-f config] [-m managed] "
	    "[-P parse-helper]\n"
	    "                [-r sysctl-root] [-S state-dir] [-s socket]\n"
	    "  -d            debug: log to stderr, verbosely\n"
	    "  -f config     configuration file (default %s)\n"
	    "  -m managed    managed preferences file, read when present; "
	    "its keys\n"
	    "                win over the config's (default %s)\n"
	    "  -n            check the configuration (its owner and mode "
	    "too),\n"
	    "                print every error, and exit 0 or 1\n"
	    "  -P program    the parse helper, root's and writable by "
	    "nobody else,\n"
	    "                all the way from / (default\n"
	    "                %s)\n"
	    "  -r directory  read and write sysctls as files under this "
	    "directory\n"
	    "                (Linux layout; default " TT_SYSCTL_SOURCE ")\n"
	    "  -S directory  state directory for the original values\n"
	    "                (default %s)\n"
	    "  -s socket     control socket (default %s)\n"
	    "  -h, --help    this help\n"
	    "  -V, --version print the version\n",
	    TT_CONFIG_PATH, TT_MANAGED_PATH[0] ? "\"" TT_MANAGED_PATH "\"" :
	    "none", TT_PARSE_HELPER, TT_STATE_DIR, TT_SOCKET_PATH);
	for (s = text; (nl = strchr(s, '\n')) != NULL; s = nl + 1)
		/* past the option's name (min): the options column */
		tt_wrap_line(out, s, (size_t)(nl - s), USAGE_WIDTH,
		    USAGE_INDENT + 1, USAGE_WIDTH - USAGE_INDENT, USAGE_INDENT);
}

/*
 * The long forms people try first, wherever they stand: "tcptuned -d
 * --help" is a question, not a start with a bad option (issue 31).
 */
static void
long_forms(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			exit(0);
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("tcptuned %s (%s)\n", PACKAGE_VERSION,
			    TT_PLATFORM);
			exit(0);
		}
	}
}

static void
parse_options(int argc, char **argv, struct options *opt)
{
	int	ch;

	opt->config_path = TT_CONFIG_PATH;
	opt->managed_path = TT_MANAGED_PATH;
	opt->socket_path = TT_SOCKET_PATH;
	opt->state_dir = TT_STATE_DIR;
	long_forms(argc, argv);
	opt->parse_helper = NULL;	/* choose_helper() */
	while ((ch = getopt(argc, argv, "df:hm:nP:r:S:s:V")) != -1) {
		switch (ch) {
		case 'd': opt->debug = true; break;
		case 'f': opt->config_path = optarg; break;
		case 'm': opt->managed_path = optarg; break;
		case 'n': opt->check_only = true; break;
		case 'P': opt->parse_helper = optarg; break;
		case 'r': opt->sysctl_root = optarg; break;
		case 'S': opt->state_dir = optarg; break;
		case 's': opt->socket_path = optarg; break;
		case 'V':
			printf("tcptuned %s (%s)\n", PACKAGE_VERSION,
			    TT_PLATFORM);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(64);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tcptuned: unexpected argument: %s\n",
		    argv[optind]);
		usage(stderr);
		exit(64);
	}
}

/*
 * The config with the managed preferences over it (config_model.c),
 * read by the parse helper (parse_posix.c), and checked against this OS's
 * catalogue (config_model.c) unless -r points the daemon at a tree of files,
 * which holds whatever keys it was given (a FreeBSD or macOS config
 * exercised on Linux, a dry run).
 */
static int
config_flags(const struct options *opt)
{
	return CONFIG_CHECK_OWNER |
	    (opt->sysctl_root == NULL ? CONFIG_CHECK_OS : 0);
}

static struct config *
load_config(const struct daemon *d, struct errlist *errs)
{
	return parse_config(d->opt.parse_helper, d->opt.config_path,
	    d->opt.managed_path, config_flags(&d->opt), errs);
}

static bool
managed_present(const struct daemon *d)
{
	return config_managed_present(d->opt.managed_path);
}

static void
log_errors(const struct errlist *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		log_warnx("%s", errs->msg[i]);
}

/*
 * "reloaded FILE: 3 keys, 1 not in force", as status's last reload line
 * shows it: status is where the keys are, so it names no other place.
 */
static void
summarize(const struct daemon *d, char *msg, size_t len, const char *what)
{
	const struct engine	*e = &d->engine;
	size_t			 bad = engine_not_in_force(e);
	const char		*keys = e->nkeys == 1 ? "key" : "keys";

	if (d->originals.paused)
		snprintf(msg, len, "%s %s: %zu %s, enforcement paused", what,
		    e->cfg->path, e->nkeys, keys);
	else if (bad == 0)
		snprintf(msg, len, "%s %s: %zu %s, all in force", what,
		    e->cfg->path, e->nkeys, keys);
	else
		snprintf(msg, len, "%s %s: %zu %s, %zu not in force", what,
		    e->cfg->path, e->nkeys, keys, bad);
}

/*
 * The summary for the log and a command's reply, which are read apart
 * from status: with keys not in force, where to see which.
 */
static void
summarize_told(const struct daemon *d, char *msg, size_t len,
    const char *what)
{
	size_t	n;

	summarize(d, msg, len, what);
	n = strlen(msg);
	if (!d->originals.paused && engine_not_in_force(&d->engine) > 0)
		snprintf(msg + n, len - n, " (see tcptunectl status)");
}

/*
 * The keys' states in words: "4 keys: all in force", "4 keys: 2 in
 * force, 1 refused, 1 contested".
 */
static void
keys_line(const struct engine *e, char *line, size_t len)
{
	size_t	count[KS_STATE_COUNT] = { 0 };
	size_t	i, n;

	for (i = 0; i < e->nkeys; i++)
		if (e->keys[i].state < KS_STATE_COUNT)
			count[e->keys[i].state]++;
	if (count[KS_IN_FORCE] == e->nkeys) {
		snprintf(line, len, "%zu %s: all in force", e->nkeys,
		    e->nkeys == 1 ? "key" : "keys");
		return;
	}
	n = (size_t)snprintf(line, len, "%zu %s: %zu in force", e->nkeys,
	    e->nkeys == 1 ? "key" : "keys", count[KS_IN_FORCE]);
	for (i = 0; i < KS_STATE_COUNT && n < len; i++)
		if (i != KS_IN_FORCE && count[i] > 0)
			n += (size_t)snprintf(line + n, len - n, ", %zu %s",
			    count[i], key_state_name((uint32_t)i));
}

/*
 * "since 2026-12-07 15:04:05 UTC by uid 0 (pid 812, tcptunectl restore)",
 * from the pause's record (kept over a restart: originals.c).
 */
static void
pause_origin(const struct daemon *d, char *buf, size_t len)
{
	const struct pause_origin	*po = &d->originals.pause_by;
	struct tm			 tm;
	char				 stamp[32];

	if (po->since == 0 || gmtime_r(&po->since, &tm) == NULL ||
	    strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC",
	    &tm) == 0) {
		snprintf(buf, len, "since a time not recorded");
		return;
	}
	snprintf(buf, len, "since %s by uid %ld (pid %ld%s%s)", stamp,
	    po->uid, po->pid, po->command[0] != '\0' ? ", " : "",
	    po->command);
}

/* "uid 0, pid 812, command 'tcptunectl restore'", for the log. */
static void
peer_words(const struct ctl_peer *peer, char *buf, size_t len)
{
	snprintf(buf, len, "uid %lu, pid %ld, command '%s'", peer->user,
	    peer->pid, peer->command[0] != '\0' ? peer->command :
	    "(not said)");
}

/*
 * The state in one line, for the supervisor (systemctl status's
 * "Status:"): paused and by whom, or the keys' states, and a failed last
 * reload.  It must never say more than status does.
 */
static void
state_line(const struct daemon *d, char *line, size_t len)
{
	char	part[256];	/* keys' counts, who and when: short */
	size_t	n;

	if (d->lease.active) {
		lease_describe(&d->lease, tt_mono(), part, sizeof(part));
		snprintf(line, len, "paused for a measurement by %s: enforcing "
		    "again when it ends", part);
	} else if (d->originals.paused) {
		pause_origin(d, part, sizeof(part));
		snprintf(line, len, "paused %s: the originals stay until "
		    "'tcptunectl resume'", part);
	} else {
		keys_line(&d->engine, part, sizeof(part));
		snprintf(line, len, "%s%s", part, engine_not_in_force(
		    &d->engine) > 0 ? " (tcptunectl status says which)" : "");
	}
	n = strlen(line);
	if (!d->last_reload_ok && n < len)
		snprintf(line + n, len - n, "; the last reload failed, the "
		    "running configuration stays (tcptunectl status)");
}

/*
 * Tell the supervisor the state, and write the metrics file, when it has
 * changed since it was told.
 */
static void
tell_state(struct daemon *d)
{
	char	line[TT_TEXT_MAX];

	state_line(d, line, sizeof(line));
	if (strcmp(line, d->told) == 0)
		return;
	tt_strlcpy(d->told, line, sizeof(d->told));
	write_metrics(d);
	if (d->sup != NULL && d->sup->status != NULL)
		d->sup->status(line);
}

/* Forget the lease without resuming: the caller decides what follows. */
static void
end_lease(struct daemon *d, const char *why)
{
	if (!d->lease.active)
		return;
	log_info("lease of uid %ld ended by %s", d->lease.uid, why);
	lease_clear(&d->lease);
	ev_timer_stop(d->lease_timer);
}

static void
arm_check_timer(struct daemon *d)
{
	if (ev_timer_start(d->check_timer,
	    d->engine.cfg->check_interval * 1000U, true) == -1)
		fatal("check timer");
}

/*
 * The other places that set the config's keys (lib/other_sources.c),
 * under TT_SOURCES_ROOT or /: read at start, where each is said in the
 * log, and again at each reload; status shows them beside a key they
 * may explain (engine_key_status).  Read as untrusted files; what
 * cannot be read is passed over.  No launchd reader: that parses XML,
 * which this process leaves to its parse helper (check reads the jobs).
 */
static void
read_other_sources(struct daemon *d, bool say)
{
	char	said[TT_TEXT_MAX];
	size_t	i;

	other_sources_free(&d->others);
	other_sources_scan(other_sources_root(), catalogue_host_os(),
	    d->engine.cfg, NULL, &d->others);
	d->engine.others = &d->others;
	for (i = 0; say && i < d->engine.nkeys; i++)
		if (other_sources_say(&d->others, d->engine.keys[i].cfg.name,
		    said, sizeof(said)) > 0)
			log_notice("%s: %s", d->engine.keys[i].cfg.name, said);
}

/*
 * Swap in cfg, freshly loaded (NULL when it had errors, which errs holds):
 * a bad file never leaves the daemon half-configured.  A reload also ends
 * a pause.
 */
static int
reload_with(struct daemon *d, struct config *cfg, struct errlist *errs,
    char *msg, size_t len)
{
	d->refreshed_turn = 0;
	d->last_reload = time(NULL);
	if (cfg == NULL) {
		log_errors(errs);
		snprintf(msg, len, "%s%s%s%s has %zu error%s: keeping the "
		    "running configuration", d->opt.config_path,
		    managed_present(d) ? " with " : "", managed_present(d) ?
		    d->opt.managed_path : "", policy_present() ?
		    " with the registry policy" : "", errs->n,
		    errs->n == 1 ? "" : "s");
		log_warnx("%s", msg);
		d->last_reload_ok = false;
		tt_strlcpy(d->last_reload_msg, msg, sizeof(d->last_reload_msg));
		return -1;
	}
	end_lease(d, "a reload");
	originals_set_paused(&d->originals, false);
	engine_configure(&d->engine, cfg);
	read_other_sources(d, false);
	arm_check_timer(d);
	summarize(d, d->last_reload_msg, sizeof(d->last_reload_msg),
	    "reloaded");
	summarize_told(d, msg, len, "reloaded");
	log_notice("%s", msg);
	d->last_reload_ok = true;
	d->last_bad_digest = 0;
	return 0;
}

/* Parse into a new config beside the running one; swap only on success. */
static int
daemon_reload(struct daemon *d, struct errlist *errs, char *msg, size_t len)
{
	return reload_with(d, load_config(d, errs), errs, msg, len);
}

static int
daemon_restore(struct daemon *d, const struct ctl_peer *peer, char *msg,
    size_t len)
{
	struct pause_origin	po;
	char			who[64 + TT_COMMAND_MAX];
	int			rv;

	d->refreshed_turn = 0;
	end_lease(d, "restore");	/* the pause is the user's from now */
	memset(&po, 0, sizeof(po));
	po.since = time(NULL);
	po.uid = (long)peer->user;
	po.pid = peer->pid;
	tt_strlcpy(po.command, peer->command, sizeof(po.command));
	(void)originals_record_pause(&d->originals, &po);	/* logged */
	rv = engine_restore(&d->engine, RESTORE_PAUSE);

	snprintf(msg, len, rv == 0 ? "originals restored; enforcement paused "
	    "until 'tcptunectl resume' or a reload" : "some originals could "
	    "not be restored (see the log); enforcement paused");
	peer_words(peer, who, sizeof(who));
	if (rv == 0)
		log_notice("%s (asked by %s)", msg, who);
	else
		log_warnx("%s (asked by %s)", msg, who);
	return rv;
}

static int
daemon_resume(struct daemon *d, const struct ctl_peer *peer, char *msg,
    size_t len)
{
	char	who[64 + TT_COMMAND_MAX];

	d->refreshed_turn = 0;
	peer_words(peer, who, sizeof(who));
	log_notice("resume asked by %s", who);
	end_lease(d, "resume");
	/*
	 * Resumed is success, even with keys refused: enforcement is on, and
	 * the message and status say which keys are not in force (a failure
	 * here would read as "not resumed" to a script).
	 */
	(void)engine_resume(&d->engine);
	summarize_told(d, msg, len, "resumed");
	log_notice("%s", msg);
	return 0;
}

/* The lease is over: enforce again, and say so in the log. */
static int
lease_resume(struct daemon *d, const char *why, char *msg, size_t len)
{
	int	rv;

	d->refreshed_turn = 0;
	end_lease(d, why);
	rv = engine_resume(&d->engine);
	summarize_told(d, msg, len, "lease over: enforcing again;");
	log_notice("%s", msg);
	return rv;
}

static void
arm_lease_timer(struct daemon *d)
{
	uint32_t	left = lease_left(&d->lease, tt_mono());

	/* The timer may be early or late by the clock's grain; on_lease
	 * checks the lease itself and re-arms for what is left. */
	if (ev_timer_start(d->lease_timer, left * 1000U + 100, false) == -1)
		log_warn("lease timer");
}

static void
on_lease_timer(void *arg)
{
	struct daemon	*d = arg;
	char		 msg[TT_TEXT_MAX];

	if (!d->lease.active)
		return;
	if (!lease_due(&d->lease, tt_mono())) {
		arm_lease_timer(d);
		return;
	}
	lease_resume(d, "its time running out", msg, sizeof(msg));
	tell_state(d);
}

/*
 * MSG_LEASE from a root client: holder is its connection.  Returns an
 * enum result_code, with the reply's text in msg.
 */
static int
daemon_lease(struct daemon *d, const void *holder, long uid, long pid,
    uint32_t seconds, char *msg, size_t len)
{
	char	who[128];
	time_t	now = tt_mono();

	lease_describe(&d->lease, now, who, sizeof(who));
	switch (lease_decide(&d->lease, holder, seconds, d->originals.paused)) {
	case LEASE_TOO_LONG:
		snprintf(msg, len, "a lease lasts at most %d s",
		    TT_LEASE_MAX_SEC);
		return RESULT_BAD_REQUEST;
	case LEASE_BUSY:
		snprintf(msg, len, "enforcement is already paused for a "
		    "measurement by %s", who);
		return RESULT_FAILED;
	case LEASE_NOT_HELD:
		/* Ending is idempotent: the lease may have run out first. */
		snprintf(msg, len, "no lease of this connection to end");
		return RESULT_OK;
	case LEASE_PAUSED:
		snprintf(msg, len, "enforcement is paused by 'tcptunectl "
		    "restore': the originals are in place until resume");
		return RESULT_FAILED;
	case LEASE_END:
		/* Over whatever the keys do next: status tells about them. */
		lease_resume(d, "its holder", msg, len);
		return RESULT_OK;
	case LEASE_RENEW:
		lease_grant(&d->lease, holder, uid, pid, seconds, now);
		arm_lease_timer(d);
		snprintf(msg, len, "lease renewed: %u s", seconds);
		return RESULT_OK;
	case LEASE_GRANT:
		break;
	}
	lease_grant(&d->lease, holder, uid, pid, seconds, now);
	d->refreshed_turn = 0;
	if (engine_restore(&d->engine, RESTORE_LEASE) == -1) {
		lease_resume(d, "a failed restore", msg, len);
		snprintf(msg, len, "some originals could not be restored (see "
		    "the log): enforcing again, no lease");
		return RESULT_FAILED;
	}
	arm_lease_timer(d);
	lease_describe(&d->lease, now, who, sizeof(who));
	snprintf(msg, len, "originals restored for a measurement by %s; "
	    "enforcing again when the lease ends or its connection closes",
	    who);
	log_notice("%s", msg);
	return RESULT_OK;
}

/* The holder's connection closed: the lease ends with it. */
static void
daemon_lease_gone(struct daemon *d, const void *holder)
{
	char	msg[TT_TEXT_MAX];

	if (lease_held_by(&d->lease, holder))
		lease_resume(d, "its connection closing", msg, sizeof(msg));
}

static bool
daemon_lease_held_by(struct daemon *d, const void *holder)
{
	return lease_held_by(&d->lease, holder);
}

/*
 * The live values, read once for all the status requests of one wake-up
 * of the loop: a burst of requests, however large, costs the kernel one
 * read of each key.  A change in between makes the next status read again.
 */
static void
refresh_once(struct daemon *d)
{
	unsigned long	turn = ev_turn(d->loop);

	if (d->refreshed_turn == turn && turn != 0)
		return;
	engine_refresh(&d->engine);
	d->refreshed_turn = turn;
}

/* Who paused and when, for status: a lease's pause is told apart. */
static void
fill_pause_origin(const struct daemon *d, struct msg_daemon_info *info)
{
	const struct pause_origin	*po = &d->originals.pause_by;

	info->paused_uid = info->paused_pid = -1;
	if (!d->originals.paused || d->originals.pause_leased)
		return;
	info->paused_since = po->since;
	info->paused_uid = (int32_t)po->uid;
	info->paused_pid = (int32_t)po->pid;
	tt_strlcpy(info->paused_command, po->command,
	    sizeof(info->paused_command));
}

/* The daemon's part of a status reply, from what it holds: no reads. */
static void
fill_daemon_info(const struct daemon *d, struct msg_daemon_info *info)
{
	memset(info, 0, sizeof(*info));
	info->started = d->started;
	info->now = time(NULL);
	info->last_reload = d->last_reload;
	info->last_check = d->engine.last_check;
	info->pid = (int32_t)d->pid;
	info->last_reload_ok = d->last_reload_ok;
	info->check_interval = d->engine.cfg->check_interval;
	info->nkeys = (uint32_t)d->engine.nkeys;
	info->paused = d->originals.paused;
	info->restore_on_exit = d->engine.cfg->restore_on_exit;
	info->checks = d->engine.checks;
	info->lease = d->lease.active;
	info->lease_uid = (int32_t)d->lease.uid;
	info->lease_pid = (int32_t)d->lease.pid;
	info->lease_left = lease_left(&d->lease, tt_mono());
	tt_strlcpy(info->version, PACKAGE_VERSION, sizeof(info->version));
	tt_strlcpy(info->backend, d->be->name, sizeof(info->backend));
	tt_strlcpy(info->config_path, d->opt.config_path,
	    sizeof(info->config_path));
	config_layer_names(d->engine.cfg, info->managed_path,
	    sizeof(info->managed_path));
	tt_strlcpy(info->last_reload_msg, d->last_reload_msg,
	    sizeof(info->last_reload_msg));
	tt_strlcpy(info->state_problem, d->originals.problem,
	    sizeof(info->state_problem));
	info->ndamaged = originals_copies(&d->originals, info->damaged_copies,
	    sizeof(info->damaged_copies));
	fill_pause_origin(d, info);
}

/*
 * The metrics file, when the config names its directory: after every
 * check (so at least once a CheckInterval, whatever changed) and every
 * change of state.  A failure is logged once, and its end.
 */
static void
write_metrics(struct daemon *d)
{
	const char		*dir = d->engine.cfg->metrics_dir;
	struct msg_daemon_info	 info;
	struct msg_key_status	*keys;
	char			 why[TT_TEXT_MAX];
	size_t			 i, n = d->engine.nkeys;

	if (dir[0] == '\0')
		return;
	fill_daemon_info(d, &info);
	if ((keys = calloc(n + 1, sizeof(*keys))) == NULL)
		fatal("%s", __func__);
	for (i = 0; i < n; i++)
		engine_key_status(&d->engine, &d->engine.keys[i], &keys[i]);
	if (metrics_write(dir, &info, keys, n, why, sizeof(why)) == -1) {
		if (strcmp(why, d->metrics_err) != 0)
			log_warnx("cannot write the metrics file %s/tcptune.prom "
			    "(MetricsTextfileDirectory): %s", dir, why);
		tt_strlcpy(d->metrics_err, why, sizeof(d->metrics_err));
	} else if (d->metrics_err[0] != '\0') {
		log_notice("metrics file %s/tcptune.prom written again", dir);
		d->metrics_err[0] = '\0';
	}
	free(keys);
}

/* ---- what the control server asks of the daemon (control_ops) */

/* A status reply starts here: the live values are read first. */
static void
op_status(void *arg, struct msg_daemon_info *info)
{
	refresh_once(arg);
	fill_daemon_info(arg, info);
}

static void
op_key_status(void *arg, uint32_t i, struct msg_key_status *ks)
{
	const struct engine	*e = &((struct daemon *)arg)->engine;

	if (i < e->nkeys)
		engine_key_status(e, &e->keys[i], ks);
	else
		memset(ks, 0, sizeof(*ks));
}

static int
op_reload(void *arg, struct errlist *errs, char *msg, size_t len)
{
	return daemon_reload(arg, errs, msg, len);
}

static int
op_restore(void *arg, const struct ctl_peer *peer, char *msg, size_t len)
{
	int	rv = daemon_restore(arg, peer, msg, len);

	tell_state(arg);
	return rv;
}

static int
op_resume(void *arg, const struct ctl_peer *peer, char *msg, size_t len)
{
	int	rv = daemon_resume(arg, peer, msg, len);

	tell_state(arg);
	return rv;
}

static int
op_lease(void *arg, const void *holder, const struct ctl_peer *peer,
    uint32_t seconds, char *msg, size_t len)
{
	int	rv = daemon_lease(arg, holder, (long)peer->user, peer->pid,
		    seconds, msg, len);

	tell_state(arg);
	return rv;
}

static void
op_client_gone(void *arg, const void *holder)
{
	forget_reader(arg, holder);
	daemon_lease_gone(arg, holder);
	tell_state(arg);
}

static void
op_reload_begin(void *arg, struct ctl_client *client,
    const struct ctl_peer *peer)
{
	char	who[64 + TT_COMMAND_MAX];

	peer_words(peer, who, sizeof(who));
	log_notice("reload asked by %s", who);
	read_config(arg, true, client);
}

static bool
op_holds_lease(void *arg, const void *holder)
{
	return daemon_lease_held_by(arg, holder);
}

static struct msg_flow *
op_diagnose(void *arg, const struct ctl_peer *peer, bool all,
    struct msg_diag_summary *sum, size_t *n)
{
	return diagnose_reply(((struct daemon *)arg)->diagnose, peer, all, sum,
	    n);
}

static void
on_check(void *arg)
{
	struct daemon	*d = arg;

	d->refreshed_turn = 0;
	engine_check(&d->engine);
	originals_retry(&d->originals);
	watch_managed(d);
	write_metrics(d);	/* each check: a stale file is one it missed */
	tell_state(d);
}

static void
on_sighup(void *arg)
{
	struct daemon	*d = arg;

	log_notice("SIGHUP: reloading %s", d->opt.config_path);
	read_config(d, true, NULL);
}

static void
on_sigterm(void *arg)
{
	struct daemon	*d = arg;

	log_notice("exiting on signal");
	ev_stop(d->loop);
}

/* One digest for a whole list of errors, to tell one bad version from another. */
static uint64_t
errors_digest(const struct errlist *errs)
{
	uint64_t	h = 0;
	size_t		i;

	for (i = 0; i < errs->n; i++)
		h = h * 31 + fnv1a64(errs->msg[i], strlen(errs->msg[i]));
	return h;
}

/*
 * The file holds the running configuration again after a failed read (a
 * typo put right, or the second half of a write the first read caught
 * half done): that failure is over, so the read is a successful reload,
 * "unchanged", and the same bad file later is reported again.  Nothing
 * is applied: the running configuration is what the file says.
 */
static void
reload_unchanged(struct daemon *d)
{
	char	msg[TT_TEXT_MAX];

	d->last_reload = time(NULL);
	d->last_reload_ok = true;
	d->last_bad_digest = 0;
	summarize(d, d->last_reload_msg, sizeof(d->last_reload_msg),
	    "reloaded (unchanged)");
	summarize_told(d, msg, sizeof(msg), "reloaded (unchanged)");
	log_notice("%s", msg);
}

/*
 * The watch's read ended: reload if the contents differ from the running
 * config.  A bad file is reported once per set of errors, not again on
 * every event while an editor is at work.  0, or -1 for a failed reload;
 * msg says what was done ("" nothing).
 */
static int
config_changed(struct daemon *d, struct config *cfg, struct errlist *errs,
    char *msg, size_t len)
{
	msg[0] = '\0';
	if (cfg != NULL && cfg->digest == d->engine.cfg->digest) {
		if (!d->last_reload_ok)
			reload_unchanged(d);
		config_free(cfg);
		return 0;
	}
	if (cfg == NULL && errs->n > 0 &&
	    errors_digest(errs) == d->last_bad_digest)
		return -1;
	log_notice("%s changed: reloading", d->opt.config_path);
	if (reload_with(d, cfg, errs, msg, len) == -1) {
		d->last_bad_digest = errors_digest(errs);
		return -1;
	}
	return 0;
}

static void	read_start(struct daemon *);

/* Answer the clients whose read this was; the others' comes next. */
static void
answer_readers(struct daemon *d, int rv, const struct errlist *errs,
    const char *msg)
{
	struct reading	*r = &d->reading;
	size_t		 i, kept = 0;

	for (i = 0; i < r->nclients; i++) {
		if (r->clients[i].next) {
			r->clients[kept].client = r->clients[i].client;
			r->clients[kept++].next = false;
		} else
			ctl_client_reload_done(r->clients[i].client, rv, errs,
			    msg);
	}
	r->nclients = kept;
}

/* The helper's answer, on the loop: the read is over. */
static void
on_config_read(struct config *cfg, struct errlist *errs, void *arg)
{
	struct daemon	*d = arg;
	struct reading	*r = &d->reading;
	char		 msg[TT_TEXT_MAX];
	int		 rv;

	r->job = NULL;
	if (r->forced)
		rv = reload_with(d, cfg, errs, msg, sizeof(msg));
	else
		rv = config_changed(d, cfg, errs, msg, sizeof(msg));
	answer_readers(d, rv, errs, msg);
	if (r->again) {
		r->forced = r->again_forced;
		r->again = r->again_forced = false;
		read_start(d);
		return;
	}
	d->sup->ready();	/* the unit leaves "reloading" */
	tell_state(d);
}

static void
read_start(struct daemon *d)
{
	struct reading	*r = &d->reading;
	struct errlist	 errs;

	if (d->sup->reloading != NULL)
		d->sup->reloading();
	errlist_init(&errs);
	r->job = parse_begin(d->loop, d->opt.parse_helper,
	    d->opt.config_path, d->opt.managed_path, config_flags(&d->opt),
	    on_config_read, d, &errs);
	if (r->job == NULL)
		on_config_read(NULL, &errs, d);
	errlist_clear(&errs);
}

/*
 * Read the config: forced for a reload, else the watch's read; client,
 * when not NULL, is answered when the read made for it ends.
 */
static void
read_config(struct daemon *d, bool forced, struct ctl_client *client)
{
	struct reading	*r = &d->reading;
	bool		 running = r->job != NULL;

	if (client != NULL) {
		if ((r->clients = realloc(r->clients, (r->nclients + 1) *
		    sizeof(*r->clients))) == NULL)
			fatal("%s", __func__);
		r->clients[r->nclients].client = client;
		r->clients[r->nclients++].next = running;
	}
	if (running) {
		log_debug("%s is being read: another read follows",
		    d->opt.config_path);
		r->again = true;
		r->again_forced |= forced;
		return;
	}
	r->forced = forced;
	read_start(d);
}

/* A client waiting for a reload has gone: nothing to answer. */
static void
forget_reader(struct daemon *d, const void *client)
{
	struct reading	*r = &d->reading;
	size_t		 i;

	for (i = 0; i < r->nclients; i++)
		if (r->clients[i].client == client) {
			r->clients[i] = r->clients[--r->nclients];
			return;
		}
}

/* The file settled: the watch reads it. */
static void
on_config_settled(void *arg)
{
	struct daemon	*d = arg;

	d->first_event_ms = 0;
	log_debug("%s settled or changed for long enough: reading it",
	    d->opt.config_path);
	read_config(d, false, NULL);
}

/*
 * Each event pushes the reload back by DEBOUNCE_MS, but no further than
 * DEBOUNCE_MAX_MS after the first of the burst: a file rewritten more
 * often than the debounce (a flapping generator) is still read, and the
 * daemon converges while it flaps.
 */
static void
on_config_event(void *arg)
{
	struct daemon	*d = arg;
	uint64_t	 now = tt_mono_ms();

	if (d->first_event_ms == 0)
		d->first_event_ms = now;
	else if (now - d->first_event_ms >= DEBOUNCE_MAX_MS - DEBOUNCE_MS)
		return;		/* the armed timer fires soon enough */
	ev_timer_start(d->debounce_timer, DEBOUNCE_MS, false);
}

/*
 * /Library/Managed Preferences may not exist until the first profile
 * comes: until it can be watched, each check tries again, and a watch
 * that starts reads the file at once (an unchanged digest is no reload).
 */
static int
managed_dir_stat(const struct daemon *d, struct stat *st)
{
	char	dir[1024];
	char	*slash;

	tt_strlcpy(dir, d->opt.managed_path, sizeof(dir));
	if ((slash = strrchr(dir, '/')) == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else
		slash[slash == dir] = '\0';
	return stat(dir, st);
}

/*
 * The same if the directory was removed or replaced since the watch
 * began (a profile removed, another installed): the old watch sees
 * nothing in a new directory.  Its inode may be reused at once, so a
 * changed ctime counts too; that costs at most one needless read of the
 * file per check (the digest is unchanged: no reload).
 */
static void
watch_managed(struct daemon *d)
{
	struct stat	st;

	if (d->opt.managed_path[0] == '\0')
		return;
	if (managed_dir_stat(d, &st) == -1) {
		ev_watch_free(d->managed_watch);
		d->managed_watch = NULL;
		return;
	}
	if (d->managed_watch != NULL && st.st_dev == d->managed_dir.st_dev &&
	    st.st_ino == d->managed_dir.st_ino &&
	    st.st_ctime == d->managed_dir.st_ctime)
		return;
	ev_watch_free(d->managed_watch);
	d->managed_watch = ev_watch_file(d->loop, d->opt.managed_path,
	    on_config_event, d);
	d->managed_dir = st;
	if (d->managed_watch != NULL && d->started != 0) {
		log_debug("watching %s", d->opt.managed_path);
		on_config_event(d);
	}
}

static void
setup_events(struct daemon *d, const struct supervisor *sup)
{
	if ((d->loop = ev_new()) == NULL)
		fatal("event loop");
	if (sup->events(d->loop, on_sighup, on_sigterm, d) == -1)
		fatal("signals");
	d->check_timer = ev_timer_new(d->loop, on_check, d);
	d->debounce_timer = ev_timer_new(d->loop, on_config_settled, d);
	d->lease_timer = ev_timer_new(d->loop, on_lease_timer, d);
	if (d->check_timer == NULL || d->debounce_timer == NULL ||
	    d->lease_timer == NULL)
		fatal("timers");
	d->watch = ev_watch_file(d->loop, d->opt.config_path, on_config_event,
	    d);
	if (d->watch == NULL)
		log_warn("cannot watch %s: reload with SIGHUP or tcptunectl",
		    d->opt.config_path);
	watch_managed(d);
	d->policy_watch = policy_watch_new(d->loop, on_config_event, d);
}

/*
 * The state directory, its lock and the originals, all checked before any
 * sysctl is touched: a directory someone else could write is refused as a
 * whole, for a forged originals file there would make root "restore" what
 * they chose.
 */
static const char *
state_checks(struct daemon *d)
{
	static char	why[TT_TEXT_MAX + 64];
	char		lockwhy[TT_TEXT_MAX];

	if (originals_open(&d->originals, d->opt.state_dir) == -1) {
		(void)tt_snprintf(why, sizeof(why), "state directory %s: %s",
		    d->opt.state_dir, d->originals.problem);
		return why;
	}
	d->lock_fd = originals_lock(&d->originals, lockwhy, sizeof(lockwhy));
	if (d->lock_fd == ORIGINALS_LOCK_HELD)
		return "another tcptuned holds the state directory's lock";
	if (d->lock_fd == ORIGINALS_LOCK_BAD) {
		(void)tt_snprintf(why, sizeof(why), "%s: refusing to share the "
		    "state directory on a lock that can be swapped", lockwhy);
		return why;
	}
	if (d->lock_fd == ORIGINALS_LOCK_NONE)
		log_warnx("cannot lock %s/lock (%s): going on without the "
		    "lock", d->opt.state_dir, d->originals.problem[0] ?
		    d->originals.problem : lockwhy);
	else
		originals_sweep(&d->originals);
	return NULL;
}

/* Everything that can refuse to start, before any sysctl is touched. */
static struct config *
startup_checks(struct daemon *d)
{
	struct errlist	 errs;
	struct config	*cfg;
	const char	*why;
	char		 bindwhy[TT_TEXT_MAX];

	errlist_init(&errs);
	if ((cfg = load_config(d, &errs)) == NULL) {
		log_errors(&errs);
		fatalx("%s: %zu error%s, not starting", d->opt.config_path,
		    errs.n, errs.n == 1 ? "" : "s");
	}
	errlist_clear(&errs);
	if ((d->ctl = control_bind(d->opt.socket_path, bindwhy,
	    sizeof(bindwhy))) == NULL) {
		config_free(cfg);
		fatalx("%s", bindwhy);
	}
	/* Before the originals are read: a second daemon's would be tuned. */
	if ((d->kernel_lock = kernel_lock_take(d->opt.sysctl_root,
	    d->opt.socket_path, d->opt.state_dir, bindwhy,
	    sizeof(bindwhy))) == NULL) {
		control_close(d->ctl);
		config_free(cfg);
		fatalx("%s", bindwhy);
	}
	if ((why = state_checks(d)) != NULL) {
		config_free(cfg);
		fatalx("%s", why);
	}
	if ((d->be = backend_platform_new(d->opt.sysctl_root)) == NULL) {
		config_free(cfg);
		fatalx("cannot set up the sysctl backend");
	}
	return cfg;
}

static void
shutdown_daemon(struct daemon *d)
{
	char	msg[TT_TEXT_MAX];

	/* A measurement's originals are not what this daemon leaves. */
	if (d->lease.active)
		lease_resume(d, "the daemon exiting", msg, sizeof(msg));
	if (d->engine.cfg != NULL && d->engine.cfg->restore_on_exit) {
		log_notice("RestoreOnExit: putting the originals back");
		engine_restore(&d->engine, RESTORE_EXIT);
	}
	control_close(d->ctl);
	other_sources_free(&d->others);
	parse_cancel(d->reading.job);
	free(d->reading.clients);
	ev_watch_free(d->watch);
	ev_watch_free(d->managed_watch);
	policy_watch_free(d->policy_watch);
	ev_timer_free(d->check_timer);
	ev_timer_free(d->debounce_timer);
	ev_timer_free(d->lease_timer);
	diagnose_free(d->diagnose);	/* its timer and fd are the loop's */
	ev_free(d->loop);
	engine_free(&d->engine);
	originals_close(&d->originals);
	backend_free(d->be);
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	kernel_lock_release(d->kernel_lock);
}

/*
 * A pause an earlier run left is said at start, with who and when; one
 * whose record an uninstall removed is not believed, and said so loudly.
 */
static void
say_pause_at_start(const struct daemon *d)
{
	char	origin[256 + TT_COMMAND_MAX];

	if (d->originals.pause_dropped)
		log_warnx("the state directory %s says enforcement is paused, "
		    "but the pause's record (%s/pause) is gone, as an "
		    "uninstall leaves it: not paused, enforcing (tcptunectl "
		    "restore pauses again)", d->originals.dir,
		    d->originals.dir);
	if (!d->originals.paused)
		return;
	pause_origin(d, origin, sizeof(origin));
	log_warnx("enforcement is paused %s, as an earlier run left it: the "
	    "originals stay until 'tcptunectl resume' or a reload", origin);
}

/*
 * Without -P: the installed helper, or in a build tree the one beside
 * tcptuned (parse_helper_find).  With none usable nothing can be read:
 * say what to do, before any config error could be blamed.
 */
static int
choose_helper(struct options *opt, char *why, size_t len)
{
	if (opt->parse_helper != NULL)
		return 0;
	if (parse_helper_find(TT_PARSE_HELPER, opt->found_helper,
	    sizeof(opt->found_helper), why, len) == -1)
		return -1;
	opt->parse_helper = opt->found_helper;
	return 0;
}

/* main() is in supervisor_posix.c or supervisor_win.c. */
int
tcptuned_main(int argc, char **argv, const struct supervisor *sup)
{
	struct daemon	 d;
	struct config	*cfg;
	char		 msg[TT_TEXT_MAX];
	struct control_ops ops = { op_status, op_key_status, op_reload,
			    op_restore, op_resume, op_lease, op_client_gone,
			    op_holds_lease, NULL, op_diagnose,
			    op_reload_begin };

	memset(&d, 0, sizeof(d));
	ops.arg = &d;
	d.sup = sup;
	lease_clear(&d.lease);
	parse_options(argc, argv, &d.opt);
	if (choose_helper(&d.opt, msg, sizeof(msg)) == -1 && d.opt.check_only) {
		fprintf(stderr, "tcptuned: %s\n", msg);
		return 1;
	}
	/* the errors on stderr, the report on stdout, as tcptunectl check */
	if (d.opt.check_only)
		return parse_report(d.opt.parse_helper, d.opt.config_path,
		    d.opt.managed_path, config_flags(&d.opt), stdout, stderr);
	log_init(d.opt.debug, d.opt.debug, "tcptuned");
	/* by hand: a start-up failure is said where the user looks */
	log_echo_errors(sup->by_hand());
	if (d.opt.parse_helper == NULL)
		fatalx("%s", msg);
	log_info("parse helper %s", d.opt.parse_helper);
	d.lock_fd = -1;
	cfg = startup_checks(&d);
	setup_events(&d, sup);
	d.started = time(NULL);
	d.pid = (long)getpid();	/* the daemon never forks to go on */
	engine_init(&d.engine, d.be, &d.originals);
	engine_configure(&d.engine, cfg);
	read_other_sources(&d, true);
	if ((d.diagnose = diagnose_new(&d.engine, d.be, d.loop)) == NULL)
		fatal("diagnose");
	summarize(&d, d.last_reload_msg, sizeof(d.last_reload_msg),
	    "started with");
	summarize_told(&d, msg, sizeof(msg), "started with");
	log_notice("%s", msg);
	if (tt_wsl(NULL))
		log_notice("%s", TT_WSL_NOTE);
	d.last_reload = d.started;
	d.last_reload_ok = true;
	if (control_start(d.ctl, d.loop, &ops) == -1)
		fatalx("cannot serve %s", d.opt.socket_path);
	arm_check_timer(&d);
	log_echo_errors(0);	/* started: the log is the place from here */
	say_pause_at_start(&d);
	sup->ready();
	tell_state(&d);
	if (ev_run(d.loop) == -1)
		log_warn("event loop");
	sup->stopping();
	shutdown_daemon(&d);
	return 0;
}
