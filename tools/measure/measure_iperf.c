/*
 * tcptunectl measure iperf3://HOST[:PORT]: one test against an iperf3
 * server through libiperf, iperf3's own library, as `iperf3 -c HOST -p
 * PORT -t SECONDS -P STREAMS [-R] -J --get-server-output` runs it.  A
 * download is iperf3's reverse mode (the server sends), an upload its
 * normal one.  Each test opens new TCP connections, which take the
 * buffer ceilings in force at that moment, as the http(s) form's do.
 * The figures are read from libiperf's JSON (measure_iperf_parse.c).
 * Built where configure found libiperf (HAVE_LIBIPERF); elsewhere
 * measure_iperf_none.c says so.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <iperf_api.h>

#include "tcptunectl.h"
#include "measure.h"

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
	iperf_set_test_num_streams(t, o->streams);
	iperf_set_test_reverse(t, o->dir == DIR_DOWNLOAD);
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
	int			 rv, err;

	memset(f, 0, sizeof(*f));
	if ((t = new_test(o)) == NULL) {
		f->code = CTL_FAIL;
		snprintf(f->text, sizeof(f->text), "libiperf: cannot set up "
		    "a test: %s", iperf_strerror(i_errno));
		return -1;
	}
	i_errno = IENONE;
	rv = iperf_run_client(t);
	err = i_errno;
	json = iperf_get_test_json_output_string(t);
	if (rv < 0 || err != IENONE || json == NULL)
		rv = iperf_fault(o, err, iperf_strerror(err), f);
	else if ((rv = miperf_read_round(json, o->dir, r, why,
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
