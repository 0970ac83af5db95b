/*
 * tcptunectl measure URL: the before-and-after test, run properly.
 *
 * With root and a running tcptuned, rounds alternate A, B, A, B...: each
 * A round takes a lease (MSG_LEASE) on a connection of its own, so the
 * daemon puts the original values back for it, downloads, and ends the
 * lease; each B round downloads on the tuned values.  The daemon ends a
 * lease by itself when its time runs out or its connection closes, so a
 * killed or crashed measure never leaves enforcement paused; this file
 * also ends it on every path out.  Without root or a daemon, the rounds
 * measure the settings as they are and the report says why no comparison
 * was made.  Each transfer opens a new TCP connection, which is what
 * takes the buffer ceilings in force at that moment.
 *
 * Either URL is measured in either direction: a download (the server
 * sends), an upload (--upload), or both in turn (--both), each direction
 * with rounds and a verdict of its own.  An http(s) upload PUTs a body
 * made in memory (--method post: POSTs it) for -t seconds
 * (measure_net.c); an iperf3://HOST[:PORT] URL runs the same rounds as
 * iperf3 tests (measure_iperf.c).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"
#include "measure.h"

static volatile int	interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void
catch_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* A whole number in [lo, hi], or -1. */
static long
parse_count(const char *s, long lo, long hi)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	return v;
}

/* Does a daemon answer on path?  Quietly: no daemon is a normal case. */
static bool
daemon_answers(const char *path, char *why, size_t len)
{
	struct sockaddr_un	sun;
	int			fd, ok;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (tt_strlcpy(sun.sun_path, path, sizeof(sun.sun_path)) >=
	    sizeof(sun.sun_path)) {
		snprintf(why, len, "the socket path %s is too long", path);
		return false;
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return false;
	}
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	if (!ok)
		snprintf(why, len, "no tcptuned answers on %s (%s), so there "
		    "are no original and tuned values to switch between", path,
		    strerror(errno));
	close(fd);
	return ok;
}

/*
 * Whether this run can compare: root, a daemon, enforcement not paused by
 * the user nor leased to another.  -1 with the exit status in *rv when
 * it must not run at all.
 */
static int
can_compare(const char *path, char *why, size_t len, int *rv)
{
	struct reply	r;

	if (geteuid() != 0) {
		snprintf(why, len, "not root: switching between the original "
		    "and the tuned values needs root (sudo tcptunectl "
		    "measure)");
		return 0;
	}
	if (!daemon_answers(path, why, len))
		return 0;
	if ((*rv = client_request(path, MSG_STATUS, &r)) != CTL_OK)
		return -1;
	if (r.info.lease) {
		ctl_warnx("another measurement holds enforcement paused (uid "
		    "%d, pid %d, %u s left): try again when it ends",
		    r.info.lease_uid, r.info.lease_pid, r.info.lease_left);
		reply_free(&r);
		*rv = CTL_FAIL;
		return -1;
	}
	if (r.info.paused) {
		snprintf(why, len, "enforcement is paused ('tcptunectl "
		    "restore'): the values in place are the originals; run "
		    "'tcptunectl resume' to compare");
		reply_free(&r);
		return 0;
	}
	reply_free(&r);
	return 1;
}

/* ---- the lease */

static int
lease_result(const struct reply *r)
{
	switch (r->result.code) {
	case RESULT_OK:
		return CTL_OK;
	case RESULT_DENIED:
		ctl_warnx("tcptuned refused the lease: %s", r->result.text);
		return CTL_DENIED;
	default:
		ctl_warnx("tcptuned refused the lease: %s", r->result.text);
		return r->result.code == RESULT_FAILED ? CTL_FAIL :
		    CTL_PROTOCOL;
	}
}

/* Originals in place for seconds, held by the connection in *fdp. */
static int
lease_take(const char *path, unsigned seconds, int *fdp)
{
	struct msg_lease	req;
	struct reply		r;
	int			rv;

	if ((rv = client_open(path, fdp)) != CTL_OK)
		return rv;
	memset(&req, 0, sizeof(req));
	req.seconds = seconds;
	rv = client_exchange(*fdp, path, MSG_LEASE, &req, sizeof(req), &r);
	if (rv == CTL_OK) {
		rv = lease_result(&r);
		reply_free(&r);
	}
	if (rv != CTL_OK) {
		close(*fdp);
		*fdp = -1;
	}
	return rv;
}

/*
 * Tuned values back: ask, then close, which ends the lease even when the
 * request could not be made (the daemon watches the connection).
 */
static int
lease_end(const char *path, int *fdp)
{
	struct msg_lease	req;
	struct reply		r;
	int			rv;

	if (*fdp == -1)
		return CTL_OK;
	memset(&req, 0, sizeof(req));
	rv = client_exchange(*fdp, path, MSG_LEASE, &req, sizeof(req), &r);
	if (rv == CTL_OK) {
		rv = lease_result(&r);
		reply_free(&r);
	}
	close(*fdp);
	*fdp = -1;
	return rv;
}

/* ---- the rounds */

struct run {
	const struct measure_args	*a;
	const char			*shown;	/* the URL, no password */
	struct mreport			*m;
	unsigned			 seconds;
	int				 rounds;
	int				 streams;	/* --streams N */
	bool				 tty;
	bool				 iperf;	/* an iperf3:// URL */
	bool				 post;	/* --method post */
	struct miperf_target		 target;	/* its host, port */
	enum measure_dir		 dir;	/* of the rounds under way */
	char				 host[256];	/* the server's */
};

/*
 * Before each round, the kernel's cached metrics for the server's
 * addresses forgotten (metrics_cache_linux.c), so that no round starts
 * from the ssthresh and RTT the one before it left; the first failure
 * is kept for the report, and the rounds go on.
 */
static void
forget_metrics(struct run *run)
{
	struct mreport	*m = run->m;
	char		 why[sizeof(m->metrics_why)];

	if (!m->metrics_cleared)
		return;
	if (run->host[0] == '\0') {
		m->metrics_cleared = false;
		tt_strlcpy(m->metrics_why, "the URL's host could not be read",
		    sizeof(m->metrics_why));
	} else if (mcache_forget(run->host, why, sizeof(why)) == -1) {
		m->metrics_cleared = false;
		tt_strlcpy(m->metrics_why, why, sizeof(m->metrics_why));
	}
}

/* One test against the iperf3 server on n streams. */
static void
iperf_opts(const struct run *run, int n, struct miperf_opts *io)
{
	memset(io, 0, sizeof(*io));
	io->host = run->target.host;
	io->port = run->target.port;
	io->shown = run->shown;
	io->seconds = run->seconds;
	io->streams = n;
	io->dir = run->dir;
}

/* One transfer of the round r, by the URL's kind. */
static int
transfer(const struct run *run, const struct mnet_opts *o, struct mround *r,
    struct mfault *f)
{
	struct miperf_opts	io;

	if (!run->iperf)
		return mnet_transfer(o, r, f);
	if (*o->interrupted) {		/* between two tests */
		f->code = MEX_INTERRUPTED;
		tt_strlcpy(f->text, "interrupted", sizeof(f->text));
		return -1;
	}
	iperf_opts(run, 1, &io);
	return miperf_round(&io, r, f);
}

static int
one_round(struct run *run, enum measure_side side, int i)
{
	struct mround	*r = &run->m->rounds[run->m->nrounds];
	struct mnet_opts o;
	struct mfault	 f;
	char		 label[64];
	int		 lease_fd = -1, rv;

	memset(r, 0, sizeof(*r));
	r->side = side;
	snprintf(label, sizeof(label), "%s %d/%d", side_name(side), i + 1,
	    run->rounds);
	memset(&o, 0, sizeof(o));
	o.url = run->a->url;
	o.shown = run->shown;
	o.seconds = run->seconds;
	o.progress = run->tty && !run->a->out->whole_stdout;
	o.label = label;
	o.interrupted = &interrupted;
	o.dir = run->dir;
	o.post = run->post;
	if (side == SIDE_ORIGINAL && (rv = lease_take(run->a->socket,
	    run->seconds + MEASURE_LEASE_SLACK, &lease_fd)) != CTL_OK)
		return rv;
	forget_metrics(run);
	rv = transfer(run, &o, r, &f);
	if (lease_end(run->a->socket, &lease_fd) != CTL_OK && rv == 0) {
		ctl_warnx("the lease could not be ended cleanly; tcptuned "
		    "ended it when the connection closed");
		return CTL_FAIL;
	}
	if (rv != 0) {
		ctl_warnx("%s", f.text);
		return f.code;
	}
	run->m->nrounds++;
	return CTL_OK;
}

static int
all_rounds(struct run *run)
{
	int	i, rv;

	for (i = 0; i < run->rounds; i++) {
		if (!run->m->compared) {
			if ((rv = one_round(run, SIDE_CURRENT, i)) != CTL_OK)
				return rv;
			continue;
		}
		if ((rv = one_round(run, SIDE_ORIGINAL, i)) != CTL_OK ||
		    (rv = one_round(run, SIDE_TUNED, i)) != CTL_OK)
			return rv;
	}
	return CTL_OK;
}

/* An iperf3:// URL parsed into run->target, or an http(s) one checked. */
static int
check_url(const struct measure_args *a, struct run *run)
{
	struct mfault	f;
	char		why[256];

	run->iperf = miperf_is_url(a->url);
	if (run->iperf) {
		if (miperf_parse_url(a->url, &run->target, why,
		    sizeof(why)) == -1) {
			ctl_warnx("bad URL \"%s\": %s", run->shown, why);
			return CTL_USAGE;
		}
		tt_strlcpy(run->host, run->target.host, sizeof(run->host));
		if (a->method != NULL) {
			ctl_warnx("--method: an iperf3 test has no HTTP "
			    "method; it is for http(s) uploads");
			return CTL_USAGE;
		}
		/* before any lease or round: said once, with its status */
		if (!miperf_built(run->shown, &f)) {
			ctl_warnx("%s", f.text);
			return f.code;
		}
		return CTL_OK;
	}
	if ((a->upload || a->both) && a->streams != NULL) {
		ctl_warnx("--streams with --%s: an http(s) URL's uploads are "
		    "measured in rounds (-n) only", a->both ? "both" :
		    "upload");
		return CTL_USAGE;
	}
	if (mnet_check_url(a->url, run->shown, &f) == -1) {
		ctl_warnx("%s", f.text);
		return f.code;
	}
	if (mnet_url_host(a->url, run->host, sizeof(run->host)) == -1)
		run->host[0] = '\0';
	return CTL_OK;
}

static int
check_args(const struct measure_args *a, struct run *run)
{
	long		v;

	run->rounds = MEASURE_ROUNDS_DEFAULT;
	run->seconds = MEASURE_TIME_DEFAULT;
	if (a->url == NULL) {
		ctl_warnx("measure needs a URL: tcptunectl measure "
		    "http://HOST/FILE");
		return CTL_USAGE;
	}
	if (a->rounds != NULL) {
		if ((v = parse_count(a->rounds, 1, MEASURE_ROUNDS_MAX)) < 0) {
			ctl_warnx("-n %s: rounds must be a whole number from 1 "
			    "to %d", a->rounds, MEASURE_ROUNDS_MAX);
			return CTL_USAGE;
		}
		run->rounds = (int)v;
	}
	if (a->seconds != NULL) {
		if ((v = parse_count(a->seconds, 2, MEASURE_TIME_MAX)) < 0) {
			ctl_warnx("-t %s: seconds must be a whole number from 2 "
			    "to %d", a->seconds, MEASURE_TIME_MAX);
			return CTL_USAGE;
		}
		run->seconds = (unsigned)v;
	}
	if (a->upload && a->both) {
		ctl_warnx("--upload and --both: --both measures the upload "
		    "as well as the download");
		return CTL_USAGE;
	}
	if (a->method != NULL && mnet_method(a->method, &run->post) == -1) {
		ctl_warnx("--method %s: give put (the default) or post",
		    a->method);
		return CTL_USAGE;
	}
	if (a->method != NULL && !a->upload && !a->both) {
		ctl_warnx("--method: the method of an upload, with --upload "
		    "or --both");
		return CTL_USAGE;
	}
	if (a->streams != NULL) {
		if ((v = parse_count(a->streams, 2, MEASURE_STREAMS_MAX)) < 0) {
			ctl_warnx("--streams %s: streams must be a whole number "
			    "from 2 to %d", a->streams, MEASURE_STREAMS_MAX);
			return CTL_USAGE;
		}
		if (a->rounds != NULL) {
			ctl_warnx("--streams and -n: --streams runs one round "
			    "of each");
			return CTL_USAGE;
		}
		run->streams = (int)v;
	}
	return check_url(a, run);
}

/*
 * The URL as every message and the report show it, its password hidden
 * (measure_url.c); NULL when out of memory, said.
 */
static char *
shown_url(const char *url)
{
	size_t	 len = murl_redact(NULL, 0, url) + 1;
	char	*shown;

	if ((shown = malloc(len)) == NULL) {
		ctl_warn("%s", __func__);
		return NULL;
	}
	murl_redact(shown, len, url);
	return shown;
}

/* The directions asked for: download only unless --upload or --both. */
static int
directions(const struct measure_args *a, enum measure_dir *dirs)
{
	if (a->both) {
		dirs[0] = DIR_DOWNLOAD;
		dirs[1] = DIR_UPLOAD;
		return 2;
	}
	dirs[0] = a->upload ? DIR_UPLOAD : DIR_DOWNLOAD;
	return 1;
}

static const char *
dir_name(enum measure_dir dir)
{
	return dir == DIR_UPLOAD ? "upload" : "download";
}

/* One stream, then n at once, to the iperf3 server, each direction. */
static int
iperf_streams(const struct measure_args *a, struct run *run, int n)
{
	struct mstreams		 one, many;
	struct miperf_opts	 io;
	struct mfault		 f;
	enum measure_dir	 dirs[2];
	char			 label[sizeof(run->target.host) + 64];
	int			 i, ndirs = directions(a, dirs);

	catch_signals();
	for (i = 0; i < ndirs; i++) {
		run->dir = dirs[i];
		iperf_opts(run, 1, &io);
		if (miperf_streams(&io, &one, &f) == -1 ||
		    (io.streams = n, miperf_streams(&io, &many, &f)) == -1) {
			ctl_warnx("%s", f.text);
			return f.code;
		}
		snprintf(label, sizeof(label), "%s, %s", run->shown,
		    dir_name(run->dir));
		a->out->measure_streams(stdout, label, &one, &many);
	}
	return CTL_OK;
}

/* One stream, then n at once, on the settings in force: no lease. */
static int
run_streams(const struct measure_args *a, struct run *run, int n)
{
	struct mstreams	 one, many;
	struct mnet_opts o;
	struct mfault	 f;
	int		 rv = 0;

	if (run->iperf)
		return iperf_streams(a, run, n);
	memset(&o, 0, sizeof(o));
	o.url = a->url;
	o.shown = run->shown;
	o.seconds = run->seconds;
	o.interrupted = &interrupted;
	if (mnet_init(&f) == -1) {
		ctl_warnx("%s", f.text);
		return f.code;
	}
	catch_signals();
	if (mstreams_transfer(&o, 1, &one, &f) == -1 ||
	    mstreams_transfer(&o, n, &many, &f) == -1)
		rv = -1;
	mnet_cleanup();
	if (rv == -1) {
		ctl_warnx("%s", f.text);
		return f.code;
	}
	a->out->measure_streams(stdout, run->shown, &one, &many);
	return CTL_OK;
}

/* The rounds of one direction into m, its statistics and verdict. */
static int
direction_rounds(struct run *run, struct mreport *m, struct mround *rounds,
    enum measure_dir dir)
{
	int	rv;

	m->rounds = rounds;
	m->nrounds = 0;
	m->direction = dir_name(dir);
	run->m = m;
	run->dir = dir;
	if ((rv = all_rounds(run)) != CTL_OK)
		return rv;
	mreport_finish(m);
	return CTL_OK;
}

/* The checks, the rounds and the report, run->shown in every line. */
static int
run_measure(const struct measure_args *a, struct run *run)
{
	static struct mround rounds[2][MEASURE_ROUNDS_MAX * 2];
	struct mreport	 m[2];
	struct mfault	 f;
	enum measure_dir dirs[2];
	int		 rv, c, i, ndirs;

	memset(m, 0, sizeof(m));
	run->m = &m[0];
	if ((rv = check_args(a, run)) != CTL_OK)
		return rv;
	if (a->streams != NULL)
		return run_streams(a, run, run->streams);
	run->tty = isatty(STDOUT_FILENO);
	if ((c = can_compare(a->socket, m[0].why_not, sizeof(m[0].why_not),
	    &rv)) == -1)
		return rv;
	ndirs = directions(a, dirs);
	for (i = 0; i < ndirs; i++) {
		m[i].url = run->shown;
		m[i].seconds = run->seconds;
		m[i].compared = c == 1;
		m[i].metrics_cleared = true;	/* until a round could not */
		memcpy(m[i].why_not, m[0].why_not, sizeof(m[i].why_not));
	}
	if (!run->iperf && mnet_init(&f) == -1) {
		ctl_warnx("%s", f.text);
		return f.code;
	}
	catch_signals();
	for (i = 0, rv = CTL_OK; i < ndirs && rv == CTL_OK; i++)
		rv = direction_rounds(run, &m[i], rounds[i], dirs[i]);
	if (!run->iperf)
		mnet_cleanup();
	if (rv != CTL_OK)
		return rv;	/* told on stderr; nothing on stdout */
	if (ndirs == 2)
		m[0].upload = &m[1];
	a->out->measure(stdout, &m[0], run->tty);
	return CTL_OK;
}

int
measure_run(const struct measure_args *a)
{
	struct run	 run;
	char		*shown = NULL;
	int		 rv;

	memset(&run, 0, sizeof(run));
	run.a = a;
	if (a->url != NULL && (shown = shown_url(a->url)) == NULL)
		return CTL_FAIL;
	run.shown = shown;
	rv = run_measure(a, &run);
	free(shown);
	return rv;
}
