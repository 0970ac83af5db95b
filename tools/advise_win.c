/*
 * tcptunectl advise on Windows.  The advisor models the socket-buffer
 * ceilings of Linux, macOS and FreeBSD (advise_model.c); Windows has no
 * such ceiling to raise (the receive window is auto-tuned), so there is
 * nothing for it to compute yet, and it says so rather than print a
 * plan for another system (README, platform table).
 */
#include "config.h"

#include <stdio.h>

#include "tcptunectl.h"

int
advise_run(const struct advise_args *a, const struct output *out)
{
	(void)a;
	(void)out;
	ctl_warnx("advise is not available on Windows: the receive window "
	    "is auto-tuned there; keep tcp.autotuninglevel at normal "
	    "(tcptune.conf(5))");
	return CTL_USAGE;
}
