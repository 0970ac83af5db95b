/*
 * The Prometheus text exposition format (0.0.4) of tcptuned's status, one
 * copy for both writers: tcptunectl status --prometheus and --textfile
 * (tools/output_prom.c) and tcptuned's own MetricsTextfileDirectory file
 * (daemon/metrics.c).  Portable C on stdio, for every platform.
 *
 * Format rules followed here (Prometheus "Exposition formats", text
 * format): lines end with \n; a metric's HELP and TYPE come once, before
 * its samples, and all samples of one metric are together; in HELP text
 * \ and newline are written \\ and \n; in label values \, " and newline
 * are written \\, \" and \n; label values are UTF-8.  Counters end in
 * _total, times are in seconds ("Metric and label naming").
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "prom.h"

/* Room for the backend's name, its word or its tree. */
#define BACKEND_SIZE	sizeof(((struct msg_daemon_info *)0)->backend)

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
void
prom_single(FILE *f, const char *name, const char *type, const char *help,
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

/*
 * The backend's name as status prints it, "WORD" or "WORD (TREE)"
 * (lib/backend_sysctl_dir.c names the live kernel's tree so), split into
 * WORD and TREE ("" when it names none).
 */
static void
backend_split(const char *name, char word[BACKEND_SIZE],
    char tree[BACKEND_SIZE])
{
	size_t	n = strcspn(name, " "), len;

	snprintf(word, BACKEND_SIZE, "%.*s", (int)n, name);
	tree[0] = '\0';
	name += n;
	len = strlen(name);
	if (len > 3 && strncmp(name, " (", 2) == 0 && name[len - 1] == ')')
		snprintf(tree, BACKEND_SIZE, "%.*s", (int)(len - 3), name + 2);
}

/*
 * The backend as labels: a label value is matched on, so the word alone,
 * as status --json's backend (tcptunectl(8)), and the tree in a label of
 * its own, sysctl_root, when the name gives one (the live /proc/sys).
 */
static void
backend_labels(FILE *f, const char *name)
{
	char	word[BACKEND_SIZE], tree[BACKEND_SIZE];

	backend_split(name, word, tree);
	fputs(",backend=", f);
	prom_label_value(f, word);
	if (tree[0] == '\0')
		return;
	fputs(",sysctl_root=", f);
	prom_label_value(f, tree);
}

static void
write_daemon(FILE *f, const struct msg_daemon_info *di)
{
	family(f, "tcptune_info", "gauge",
	    "tcptuned's version, sysctl backend and files; always 1.");
	fputs("tcptune_info{version=", f);
	prom_label_value(f, di->version);
	backend_labels(f, di->backend);
	fputs(",config=", f);
	prom_label_value(f, di->config_path);
	fputs(",managed=", f);
	prom_label_value(f, di->managed_path);
	fputs("} 1\n", f);
	prom_single(f, "tcptune_start_time_seconds", "gauge",
	    "When tcptuned started, in seconds since the epoch.", di->started);
	prom_single(f, "tcptune_checks_total", "counter",
	    "Check cycles tcptuned has run since it started.",
	    (long long)di->checks);
	if (di->last_check != 0)
		prom_single(f, "tcptune_last_check_timestamp_seconds", "gauge",
		    "When tcptuned last checked every key, in seconds since "
		    "the epoch.", di->last_check);
	prom_single(f, "tcptune_check_interval_seconds", "gauge",
	    "Seconds between two checks (CheckInterval).", di->check_interval);
	prom_single(f, "tcptune_paused", "gauge",
	    "1 while enforcement is paused by tcptunectl restore.",
	    di->paused != 0);
	if (di->last_reload != 0) {
		prom_single(f, "tcptune_last_reload_timestamp_seconds", "gauge",
		    "When the configuration was last loaded, in seconds since "
		    "the epoch.", di->last_reload);
		prom_single(f, "tcptune_last_reload_success", "gauge",
		    "1 if the last load of the configuration succeeded.",
		    di->last_reload_ok != 0);
	}
	prom_single(f, "tcptune_state_problem", "gauge",
	    "1 when the state directory has a problem (see tcptunectl "
	    "status).", di->state_problem[0] != '\0');
	prom_single(f, "tcptune_keys", "gauge", "Sysctls in the configuration.",
	    di->nkeys);
}

static void
write_keys(FILE *f, const struct msg_key_status *keys, size_t nkeys)
{
	const struct msg_key_status	*ks;
	size_t				 i;
	uint32_t			 s;

	family(f, "tcptune_key_state", "gauge",
	    "1 for the state a sysctl is in, 0 for the others.");
	for (i = 0; i < nkeys; i++)
		for (s = 0; s < KS_STATE_COUNT; s++)
			key_sample(f, "tcptune_key_state", keys[i].name,
			    "state", state_label[s], keys[i].state == s);
	family(f, "tcptune_key_corrections_total", "counter",
	    "Times tcptuned put a sysctl back after it was changed outside.");
	for (i = 0; i < nkeys; i++)
		key_sample(f, "tcptune_key_corrections_total", keys[i].name,
		    NULL, NULL, keys[i].corrections);
	family(f, "tcptune_key_last_change_timestamp_seconds", "gauge",
	    "When tcptuned last wrote a sysctl, in seconds since the epoch "
	    "(0: never).");
	for (i = 0; i < nkeys; i++)
		key_sample(f, "tcptune_key_last_change_timestamp_seconds",
		    keys[i].name, NULL, NULL, keys[i].last_change);
	family(f, "tcptune_key_source", "gauge",
	    "The file a sysctl's wanted value comes from; always 1.");
	for (i = 0; i < nkeys; i++) {
		ks = &keys[i];
		key_sample(f, "tcptune_key_source", ks->name, "file",
		    ks->source, 1);
	}
}

/* Closed connections by what held them, since the daemon started. */
static void
write_flows(FILE *f, const struct msg_diag_summary *diag)
{
	uint32_t	i;

	if (diag == NULL)
		return;
	family(f, "tcptune_flows_held_total", "counter", "Closed TCP "
	    "connections that moved real data over a real round trip, by "
	    "what held them (tcptunectl diagnose).");
	for (i = HELD_UNCLASSIFIED + 1; i < HELD_COUNT; i++)
		fprintf(f, "tcptune_flows_held_total{held_by=\"%s\"} %llu\n",
		    held_by_name(i),
		    (unsigned long long)diag->held_total[i]);
}

/* The metrics of a status: the daemon, its keys, flows when diag. */
void
prom_write_status(FILE *f, const struct msg_daemon_info *di,
    const struct msg_key_status *keys, size_t nkeys,
    const struct msg_diag_summary *diag)
{
	write_daemon(f, di);
	write_keys(f, keys, nkeys);
	write_flows(f, diag);
}
