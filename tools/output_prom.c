/*
 * tcptunectl status --prometheus and --textfile DIR: the status in the
 * Prometheus text exposition format (0.0.4), for node_exporter's textfile
 * collector.  A back-end of its own beside output.c (text, JSON), as
 * bgpctl keeps ometric.c beside output.c and json.c.
 *
 * Format rules followed here (Prometheus "Exposition formats", text
 * format): lines end with \n; a metric's HELP and TYPE come once, before
 * its samples, and all samples of one metric are together; in HELP text
 * \ and newline are written \\ and \n; in label values \, " and newline
 * are written \\, \" and \n; label values are UTF-8.  Counters end in
 * _total, times are in seconds ("Metric and label naming").
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

#include "tcptunectl.h"

#define PROM_FILE	"tcptune.prom"

/* Label values for enum key_state, in the snake case PromQL users type. */
static const char *const state_label[KS_STATE_COUNT] = {
	[KS_PENDING] = "pending",
	[KS_IN_FORCE] = "in_force",
	[KS_CLAMPED] = "clamped",
	[KS_REFUSED] = "refused",
	[KS_CONTESTED] = "contested",
	[KS_PAUSED] = "paused",
	[KS_DRIFTED] = "drifted",
};

/*
 * Length of the valid UTF-8 sequence at s, or 0: no overlong forms, no
 * surrogates, nothing past U+10FFFF (RFC 3629, section 4).
 */
static size_t
utf8_len(const unsigned char *s)
{
	size_t		 n, i;
	unsigned long	 cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* A label value, quoted and escaped; a byte that is not UTF-8 as U+FFFD. */
void
prom_label_value(FILE *f, const char *str)
{
	const unsigned char	*s = (const unsigned char *)str;
	size_t			 n;

	fputc('"', f);
	while (*s != '\0') {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if ((n = utf8_len(s)) == 0) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		} else {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

static void
family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name value, for a metric without labels. */
static void
single(FILE *f, const char *name, const char *type, const char *help,
    long long value)
{
	family(f, name, type, help);
	fprintf(f, "%s %lld\n", name, value);
}

/* name{key="..."[,label="..."]} value */
static void
key_sample(FILE *f, const char *name, const char *key, const char *label,
    const char *lvalue, long long value)
{
	fprintf(f, "%s{key=", name);
	prom_label_value(f, key);
	if (label != NULL) {
		fprintf(f, ",%s=", label);
		prom_label_value(f, lvalue);
	}
	fprintf(f, "} %lld\n", value);
}

static void
write_daemon(FILE *f, const struct msg_daemon_info *di)
{
	family(f, "tcptune_info", "gauge",
	    "tcptuned's version, sysctl backend and files; always 1.");
	fputs("tcptune_info{version=", f);
	prom_label_value(f, di->version);
	fputs(",backend=", f);
	prom_label_value(f, di->backend);
	fputs(",config=", f);
	prom_label_value(f, di->config_path);
	fputs(",managed=", f);
	prom_label_value(f, di->managed_path);
	fputs("} 1\n", f);
	single(f, "tcptune_start_time_seconds", "gauge",
	    "When tcptuned started, in seconds since the epoch.", di->started);
	single(f, "tcptune_checks_total", "counter",
	    "Check cycles tcptuned has run since it started.",
	    (long long)di->checks);
	if (di->last_check != 0)
		single(f, "tcptune_last_check_timestamp_seconds", "gauge",
		    "When tcptuned last checked every key, in seconds since "
		    "the epoch.", di->last_check);
	single(f, "tcptune_check_interval_seconds", "gauge",
	    "Seconds between two checks (CheckInterval).", di->check_interval);
	single(f, "tcptune_paused", "gauge",
	    "1 while enforcement is paused by tcptunectl restore.",
	    di->paused != 0);
	if (di->last_reload != 0) {
		single(f, "tcptune_last_reload_timestamp_seconds", "gauge",
		    "When the configuration was last loaded, in seconds since "
		    "the epoch.", di->last_reload);
		single(f, "tcptune_last_reload_success", "gauge",
		    "1 if the last load of the configuration succeeded.",
		    di->last_reload_ok != 0);
	}
	single(f, "tcptune_state_problem", "gauge",
	    "1 when the state directory has a problem (see tcptunectl "
	    "status).", di->state_problem[0] != '\0');
	single(f, "tcptune_keys", "gauge", "Sysctls in the configuration.",
	    di->nkeys);
}

static void
write_keys(FILE *f, const struct reply *r)
{
	const struct msg_key_status	*ks;
	size_t				 i;
	uint32_t			 s;

	family(f, "tcptune_key_state", "gauge",
	    "1 for the state a sysctl is in, 0 for the others.");
	for (i = 0; i < r->nkeys; i++)
		for (s = 0; s < KS_STATE_COUNT; s++)
			key_sample(f, "tcptune_key_state", r->keys[i].name,
			    "state", state_label[s], r->keys[i].state == s);
	family(f, "tcptune_key_corrections_total", "counter",
	    "Times tcptuned put a sysctl back after it was changed outside.");
	for (i = 0; i < r->nkeys; i++)
		key_sample(f, "tcptune_key_corrections_total", r->keys[i].name,
		    NULL, NULL, r->keys[i].corrections);
	family(f, "tcptune_key_last_change_timestamp_seconds", "gauge",
	    "When tcptuned last wrote a sysctl, in seconds since the epoch "
	    "(0: never).");
	for (i = 0; i < r->nkeys; i++)
		key_sample(f, "tcptune_key_last_change_timestamp_seconds",
		    r->keys[i].name, NULL, NULL, r->keys[i].last_change);
	family(f, "tcptune_key_source", "gauge",
	    "The file a sysctl's wanted value comes from; always 1.");
	for (i = 0; i < r->nkeys; i++) {
		ks = &r->keys[i];
		key_sample(f, "tcptune_key_source", ks->name, "file",
		    ks->source, 1);
	}
}

/* Closed connections by what held them, since the daemon started. */
static void
write_flows(FILE *f, const struct reply *r)
{
	uint32_t	i;

	if (!r->has_diag)
		return;
	family(f, "tcptune_flows_held_total", "counter", "Closed TCP "
	    "connections that moved real data over a real round trip, by "
	    "what held them (tcptunectl diagnose).");
	for (i = HELD_UNCLASSIFIED + 1; i < HELD_COUNT; i++)
		fprintf(f, "tcptune_flows_held_total{held_by=\"%s\"} %llu\n",
		    held_by_name(i),
		    (unsigned long long)r->diag.held_total[i]);
}

/* The metrics of r, or only tcptune_up 0 when r is NULL (no daemon). */
void
prom_write(FILE *f, const struct reply *r)
{
	single(f, "tcptune_up", "gauge",
	    "1 if tcptuned answered tcptunectl's status request, else 0.",
	    r != NULL);
	if (r == NULL)
		return;
	write_daemon(f, &r->info);
	write_keys(f, r);
	write_flows(f, r);
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
