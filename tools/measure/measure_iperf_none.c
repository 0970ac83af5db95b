/*
 * tcptunectl measure iperf3://... where configure found no libiperf (the
 * macOS and Windows cross builds, a Linux without libiperf-dev): the
 * command says so, with measure's usage status, and http(s) URLs are
 * measured as ever.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "tcptunectl.h"
#include "measure.h"

static int
no_libiperf(const struct miperf_opts *o, struct mfault *f)
{
	memset(f, 0, sizeof(*f));
	f->code = CTL_USAGE;
	snprintf(f->text, sizeof(f->text), "%s: this tcptunectl was built "
	    "without libiperf, so it cannot measure against an iperf3 "
	    "server; measure an http:// or https:// URL instead", o->shown);
	return -1;
}

/* Whether iperf3:// can be measured: no, said in f for the URL shown. */
bool
miperf_built(const char *shown, struct mfault *f)
{
	struct miperf_opts	o;

	memset(&o, 0, sizeof(o));
	o.shown = shown;
	no_libiperf(&o, f);
	return false;
}

int
miperf_round(const struct miperf_opts *o, struct mround *r,
    struct mfault *f)
{
	(void)r;
	return no_libiperf(o, f);
}

int
miperf_streams(const struct miperf_opts *o, struct mstreams *s,
    struct mfault *f)
{
	(void)s;
	return no_libiperf(o, f);
}
