/*
 * tcptunectl measure iperf3://HOST[:PORT]: one test against an iperf3
 * server through libiperf, iperf3's own library, as `iperf3 -c HOST -p
 * PORT -t SECONDS -O 1 -P STREAMS [-R --get-server-output] -J` runs it.
 * A download is iperf3's reverse mode (the server sends), an upload its
 * normal one.  Each test opens new TCP connections, which take the
 * buffer ceilings in force at that moment, as the http(s) form's do.
 * The figures are read from libiperf's JSON (measure_iperf_parse.c).
 * Built where configure found libiperf (HAVE_LIBIPERF); elsewhere
 * measure_iperf_none.c says so.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <iperf_api.h>

#include "tcptunectl.h"
#include "measure.h"

/*
 * iperf3 -s opens its listening socket anew for each test and closes it
 * when the test ends (iperf_server_listen() at the start of
 * iperf_run_server(), the listener closed in cleanup_server(); iperf3's
 * src/iperf_server_api.c), so a test started right after another can
 * find the port closed, or be reset from the old socket's queue.  Such a
 * test, which never reached the server, is tried again a few times,
 * MIPERF_RETRY_MS apart: a wrong port still fails, a second later.
 */
#define MIPERF_TRIES	5
#define MIPERF_OMIT_SEC	1	/* as the http(s) form's steady rate */
#define MIPERF_RETRY_MS	250

static bool
not_reached(int err, int sys_errno)
{
	return (err == IECONNECT && sys_errno == ECONNREFUSED) ||
	    ((err == IERECVMESSAGE || err == IECTRLCLOSE ||
	    err == IESENDCOOKIE) && sys_errno == ECONNRESET);
}

static void
pause_ms(long ms)
{
	struct timespec	ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* A failed test: one line, and measure's exit status for its kind. */
static int
iperf_fault(const struct miperf_opts *o, int err, const char *why,
    struct mfault *f)
{
	switch (err) {
	case IEACCESSDENIED:
		/* iperf3 -s runs one test at a time: ACCESS_DENIED */
		f->code = MEX_REFUSED;
		snprintf(f->text, sizeof(f->text), "%s: the server is busy "
		    "running another test; try again later", o->shown);
		return -1;
	case IEMESSAGE:
	case IECTRLCLOSE:
	case IERECVMESSAGE:
	case IERECVRESULTS:
		/* the handshake broke off: most often a server of an
		 * iperf3 version (or a program) that does not speak this
		 * libiperf's protocol */
		f->code = MEX_REFUSED;
		snprintf(f->text, sizeof(f->text), "%s: the server broke off "
		    "the iperf3 exchange (%s): is it an iperf3 server, of a "
		    "version this libiperf speaks?", o->shown, why);
		return -1;
	case IECONNECT:
	case IESENDCOOKIE:
		f->code = MEX_UNREACHABLE;
		break;
	default:
		f->code = MEX_STALLED;
		break;
	}
	snprintf(f->text, sizeof(f->text), "%s: %s", o->shown, why);
	return -1;
}

/* The test as iperf3 -c would set it up. */
static struct iperf_test *
new_test(const struct miperf_opts *o)
{
	struct iperf_test	*t;

	if ((t = iperf_new_test()) == NULL)
		return NULL;
	if (iperf_defaults(t) < 0) {
		iperf_free_test(t);
		return NULL;
	}
	iperf_set_test_role(t, 'c');
	iperf_set_test_server_hostname(t, o->host);
	iperf_set_test_server_port(t, o->port);
	iperf_set_test_duration(t, (int)o->seconds);
	/* the first second, slow start's, left out of the totals (-O 1) */
	iperf_set_test_omit(t, MIPERF_OMIT_SEC);
	iperf_set_test_num_streams(t, o->streams);
	iperf_set_test_reverse(t, o->dir == DIR_DOWNLOAD);
	/*
	 * In a download the server sends, and only its kernel knows the
	 * round trip under load: ask for its report (--get-server-output),
	 * which holds them when the server runs with -J
	 * (measure_iperf_parse.c reads it, and says when it does not).
	 */
	if (o->dir == DIR_DOWNLOAD)
		iperf_set_test_get_server_output(t, 1);
	iperf_set_test_connect_timeout(t, MEASURE_CONNECT_SEC * 1000);
	iperf_set_test_json_output(t, 1);
	/*
	 * In JSON mode libiperf writes the report to its output file at the
	 * end as well as keeping it; that file is /dev/null here, so that
	 * measure's stdout holds its own report only.
	 */
	iperf_set_test_logfile(t, "/dev/null");
	if (iperf_open_logfile(t) < 0) {
		iperf_free_test(t);
		return NULL;
	}
	return t;
}

/* Whether iperf3:// can be measured: yes, this build has libiperf. */
bool
miperf_built(const char *shown, struct mfault *f)
{
	(void)shown;
	(void)f;
	return true;
}

/*
 * One test: the round in r, or -1 and *f.  In JSON mode libiperf returns
 * 0 from a failed test and puts the error in the report, so both i_errno
 * and the report's "error" are read.
 */
/*
 * libiperf's client loop goes on through a signal (select's EINTR is
 * retried) and has no receive timeout in its API, so a test whose server
 * or path stops answering would hang, and Ctrl-C would not stop it.  A
 * watchdog (SIGALRM, the test's time plus the connect and stall
 * allowances) and SIGINT, SIGTERM, SIGHUP jump out of it instead.  The
 * test is then abandoned, not freed (libiperf's state is unknown), and
 * measure exits after its one line; the sockets close with the process,
 * which also ends a lease.
 */
static sigjmp_buf		 escape;
static volatile sig_atomic_t	 armed;

static void
on_escape(int sig)
{
	if (armed)
		siglongjmp(escape, sig);
}

static void
arm(bool on, struct sigaction *saved)
{
	static const int	 sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGALRM };
	struct sigaction	 sa;
	size_t			 i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_escape;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (on)
			sigaction(sigs[i], &sa, &saved[i]);
		else
			sigaction(sigs[i], &saved[i], NULL);
	}
	armed = on;
}

/*
 * One test, run; its report (NULL none) and i_errno, errno in *sys; or
 * NULL and the signal that cut it off in *sig.
 */
static const char *
run_test(struct iperf_test *t, const struct miperf_opts *o, int *err,
    int *sys, int *sig)
{
	struct sigaction	saved[4];
	int			rv;

	*sig = 0;
	if ((rv = sigsetjmp(escape, 1)) != 0) {
		alarm(0);
		arm(false, saved);
		*sig = rv;
		return NULL;
	}
	arm(true, saved);
	alarm(o->seconds + MIPERF_OMIT_SEC + MEASURE_CONNECT_SEC +
	    MEASURE_STALL_SEC);
	i_errno = IENONE;
	errno = 0;
	rv = iperf_run_client(t);
	*sys = errno;
	*err = i_errno;
	alarm(0);
	arm(false, saved);
	if (rv < 0 && *err == IENONE)
		*err = IEINITTEST;
	return iperf_get_test_json_output_string(t);
}

/* A test cut off by a signal: one line, its status; t is abandoned. */
static int
cut_off(const struct miperf_opts *o, int sig, struct mfault *f)
{
	if (sig == SIGALRM) {
		f->code = MEX_STALLED;
		snprintf(f->text, sizeof(f->text), "%s: the test did not end "
		    "within %u s: the server or the path stopped answering",
		    o->shown, o->seconds + MIPERF_OMIT_SEC +
		    MEASURE_CONNECT_SEC + MEASURE_STALL_SEC);
	} else {
		f->code = MEX_INTERRUPTED;
		snprintf(f->text, sizeof(f->text), "interrupted");
	}
	return -1;
}

/*
 * One test: the round in r, or -1 and *f.  In JSON mode libiperf returns
 * 0 from a failed test and puts the error in the report, so both i_errno
 * and the report's "error" are read.
 */
int
miperf_round(const struct miperf_opts *o, struct mround *r,
    struct mfault *f)
{
	struct iperf_test	*t;
	const char		*json;
	char			 why[256];
	int			 rv, err, sys, sig, tries = 0;

	memset(f, 0, sizeof(*f));
	do {
		if (tries > 0)
			pause_ms(MIPERF_RETRY_MS);
		if ((t = new_test(o)) == NULL) {
			f->code = CTL_FAIL;
			snprintf(f->text, sizeof(f->text), "libiperf: cannot "
			    "set up a test: %s", iperf_strerror(i_errno));
			return -1;
		}
		json = run_test(t, o, &err, &sys, &sig);
		if (sig != 0)
			return cut_off(o, sig, f);
		if (err == IENONE || !not_reached(err, sys) ||
		    ++tries >= MIPERF_TRIES)
			break;
		iperf_free_test(t);
	} while (1);
	if (err != IENONE || json == NULL) {
		errno = sys;	/* iperf_strerror() appends strerror(errno) */
		rv = iperf_fault(o, err, iperf_strerror(err), f);
	} else if ((rv = miperf_read_round(json, o->dir, r, why,
	    sizeof(why))) == -1)
		iperf_fault(o, IENONE, why, f);
	iperf_free_test(t);
	return rv;
}

/* --streams N: the same test on o->streams connections, as one rate. */
int
miperf_streams(const struct miperf_opts *o, struct mstreams *s,
    struct mfault *f)
{
	struct mround	r;

	memset(&r, 0, sizeof(r));
	if (miperf_round(o, &r, f) == -1)
		return -1;
	s->streams = o->streams;
	s->bytes = r.bytes;
	s->rate_bps = r.mbps_steady * 1e6;
	return 0;
}
