/*
 * MetricsTextfileDirectory (tcptune.conf(5)): tcptuned writes
 * node_exporter's textfile itself, DIR/tcptune.prom, so that the metrics
 * do not depend on a timer running tcptunectl status --textfile (issue
 * 40).  The format is lib/prom.c's, the one tcptunectl writes, with a
 * timestamp metric ahead of it: a file that stops changing is visible as
 * stale.  Portable C: the file is made in a tmpfile(3), as tcptunectl
 * does, and written by trust_write_file() (a temporary file beside it,
 * then a rename), under the same trust rule as --textfile.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"
#include "tcptuned.h"

/* The file's bytes in *bufp (malloc'd), *lenp; -1 with why. */
static int
render(const struct msg_daemon_info *di, const struct msg_key_status *keys,
    size_t nkeys, char **bufp, size_t *lenp, char *why, size_t wlen)
{
	FILE	*f;
	long	 len;
	int	 rv = -1;

	*bufp = NULL;
	if ((f = tmpfile()) == NULL) {
		tt_snprintf(why, wlen, "a temporary file: %s", strerror(errno));
		return -1;
	}
	prom_single(f, "tcptune_textfile_timestamp_seconds", "gauge",
	    "When tcptuned last wrote this file, in seconds since the epoch; "
	    "a file that stops changing is stale.", di->now);
	prom_write_status(f, di, keys, nkeys, NULL);
	if (fflush(f) == EOF || ferror(f) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 ||
	    (*bufp = malloc((size_t)len + 1)) == NULL ||
	    fread(*bufp, 1, (size_t)len, f) != (size_t)len)
		tt_snprintf(why, wlen, "the metrics: %s", strerror(errno));
	else {
		*lenp = (size_t)len;
		rv = 0;
	}
	fclose(f);
	if (rv == -1) {
		free(*bufp);
		*bufp = NULL;
	}
	return rv;
}

/*
 * DIR/tcptune.prom, replaced whole, mode 0644 (node_exporter is not
 * root): DIR walked by the one trust rule (TRUST_SERVICE_LAST: DIR may be
 * the reader account's, nothing above it), as tcptunectl's --textfile.
 */
int
metrics_write(const char *dir, const struct msg_daemon_info *di,
    const struct msg_key_status *keys, size_t nkeys, char *why, size_t wlen)
{
	char	path[TT_METRICS_DIR_MAX + 32], *buf;
	size_t	len;
	int	rv;

	if (tt_snprintf(path, sizeof(path), "%s/%s", dir, PROM_FILE) == -1) {
		tt_snprintf(why, wlen, "%s: the path is too long", dir);
		return -1;
	}
	if (render(di, keys, nkeys, &buf, &len, why, wlen) == -1)
		return -1;
	rv = trust_write_file(path, TRUST_SERVICE_LAST, buf, len, 0644, why,
	    wlen);
	free(buf);
	return rv;
}
