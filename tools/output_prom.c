/*
 * tcptunectl status --prometheus and --textfile DIR: the status in the
 * Prometheus text exposition format (0.0.4), for node_exporter's textfile
 * collector.  A back-end of its own beside output.c (text, JSON), as
 * bgpctl keeps ometric.c beside output.c and json.c; the format itself is
 * lib/prom.c's, shared with tcptuned's own writer (daemon/metrics.c).
 *
 * When no daemon answers, tcptune_up 0 is still written, so that an alert
 * on it fires instead of the metrics silently going stale.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prom.h"
#include "tcptunectl.h"

/* The metrics of r, or only tcptune_up 0 when r is NULL (no daemon). */
void
prom_write(FILE *f, const struct reply *r)
{
	prom_single(f, "tcptune_up", "gauge",
	    "1 if tcptuned answered tcptunectl's status request, else 0.",
	    r != NULL);
	if (r == NULL)
		return;
	prom_write_status(f, &r->info, r->keys, r->nkeys, r->has_diag ?
	    &r->diag : NULL);
}

/*
 * DIR/tcptune.prom, replaced whole: node_exporter's textfile collector
 * reads only *.prom files and may read at any moment, so the metrics are
 * made in a temporary stream first and written beside the file, then
 * renamed over it (node_exporter README, "Textfile Collector").  Mode
 * 0644: node_exporter is not root.  Written as root, DIR is walked by the
 * one trust rule (trust_write_file), DIR itself allowed to be the
 * account's that reads it (TRUST_SERVICE_LAST) but nothing above it.
 */
static int
write_textfile(const char *dir, const struct reply *r)
{
	char	 path[PATH_MAX], why[PATH_MAX + 256], *buf = NULL;
	FILE	*f;
	long	 len;
	int	 rv = -1;

	if (snprintf(path, sizeof(path), "%s/%s", dir, PROM_FILE) >=
	    (int)sizeof(path)) {
		ctl_warnx("--textfile %s: the path is too long", dir);
		return -1;
	}
	if ((f = tmpfile()) == NULL) {
		ctl_warn("--textfile: a temporary file");
		return -1;
	}
	prom_write(f, r);
	if (fflush(f) == EOF || ferror(f) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 ||
	    (buf = malloc((size_t)len + 1)) == NULL ||
	    fread(buf, 1, (size_t)len, f) != (size_t)len)
		ctl_warn("--textfile: the metrics");
	else if (trust_write_file(path, TRUST_SERVICE_LAST, buf, (size_t)len,
	    0644, why, sizeof(why)) == -1)
		ctl_warnx("--textfile: cannot write %s: %s", path, why);
	else
		rv = 0;
	free(buf);
	fclose(f);
	return rv;
}

static const char	*textfile_dir;	/* --textfile DIR; NULL: stdout */

/* r NULL: no daemon answered, which is a metric too (tcptune_up 0). */
static int
prom_status(const struct reply *r)
{
	if (textfile_dir != NULL)
		return write_textfile(textfile_dir, r);
	prom_write(stdout, r);
	return 0;
}

/* Only status has a Prometheus form: anything else as a comment line. */
static void
prom_result(const char *cmd, const struct reply *r)
{
	printf("# %s: %s\n", cmd, result_code_name(r->result.code));
}

static void
prom_version(void)
{
	printf("# tcptunectl %s (control protocol %d)\n", PACKAGE_VERSION,
	    TT_PROTO_VERSION);
}

static const struct output prom_out = {
	.whole_stdout = true,
	.tells_unreachable = true,
	.status = prom_status,
	.result = prom_result,
	.version = prom_version,
};

/* status --prometheus (dir NULL: to stdout) or --textfile dir. */
const struct output *
prom_output(const char *dir)
{
	textfile_dir = dir;
	return &prom_out;
}
