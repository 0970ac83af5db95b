/*
 * tcptunectl measure on Windows.  The measurement needs libcurl, which
 * this build does not carry, and a lease from a daemon whose Windows keys
 * (the auto-tuning level, RSS) are not buffer ceilings a single download
 * would show the worth of; so it says it is not available rather than
 * measure half an experiment (docs/DESIGN.md §5, the platform table).
 */
#include "config.h"

#include "tcptunectl.h"
#include "measure.h"

int
measure_run(const struct measure_args *a)
{
	(void)a;
	ctl_warnx("measure is not available on Windows yet: run it from a "
	    "Linux or macOS machine on the same path, or measure by hand "
	    "before and after 'tcptunectl restore'");
	return CTL_USAGE;
}
