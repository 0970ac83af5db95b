/*
 * tools/output_prom.c, linked alone with a stand-in for the client: the
 * exact metrics for a known reply, label values escaped as the exposition
 * format wants (\\, \", \n, invalid UTF-8 as U+FFFD), the backend's word
 * as its label and its tree in another, tcptune_up 0 when no daemon
 * answers, and --textfile's file: replaced whole by a rename, mode 0644,
 * no temporary file left, an error for a missing directory.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifdef __APPLE__
#define _DARWIN_C_SOURCE	/* mkdtemp beside _POSIX_C_SOURCE */
#endif

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "prom.h"
#include "tcptunectl.h"

/* ---- the client, as the test wants it */

static int			 fake_rv;
static struct msg_key_status	 fake_keys[2];
static struct msg_daemon_info	 fake_info;
static int			 warnings;

int
client_request(const char *path, uint32_t request, struct reply *r)
{
	(void)path;
	memset(r, 0, sizeof(*r));
	r->request = request;
	if (fake_rv != CTL_OK)
		return fake_rv;
	r->info = fake_info;
	r->keys = calloc(2, sizeof(*r->keys));
	assert_non_null(r->keys);
	memcpy(r->keys, fake_keys, sizeof(fake_keys));
	r->nkeys = 2;
	return CTL_OK;
}

void
reply_free(struct reply *r)
{
	free(r->keys);
	r->keys = NULL;
}

bool
reply_all_in_force(const struct reply *r)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].state != KS_IN_FORCE)
			return false;
	return true;
}

void
ctl_warn(const char *fmt, ...)
{
	(void)fmt;
	warnings++;
}

void
ctl_warnx(const char *fmt, ...)
{
	(void)fmt;
	warnings++;
}

/* ---- helpers */

static char	dir[256];

static char *
capture(void (*fn)(FILE *, const void *), const void *arg)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void
label_fn(FILE *f, const void *arg)
{
	prom_label_value(f, arg);
}

static void
expect_label(const char *in, const char *want)
{
	char	*got = capture(label_fn, in);

	assert_string_equal(got, want);
	free(got);
}

static void
fill_reply(void)
{
	memset(&fake_info, 0, sizeof(fake_info));
	memset(fake_keys, 0, sizeof(fake_keys));
	fake_info.started = 1700000000;
	fake_info.now = 1700000100;
	fake_info.last_reload = 1700000000;
	fake_info.last_reload_ok = 1;
	fake_info.last_check = 1700000099;
	fake_info.check_interval = 60;
	fake_info.nkeys = 2;
	fake_info.checks = 17;
	strcpy(fake_info.version, "0.1");
	strcpy(fake_info.backend, "sysctl-dir");
	strcpy(fake_info.config_path, "/etc/tcptune.conf");
	strcpy(fake_info.managed_path, "/M P/o.plist");
	strcpy(fake_keys[0].name, "net.ipv4.tcp_rmem");
	strcpy(fake_keys[0].source, "/etc/tcptune.conf");
	fake_keys[0].state = KS_IN_FORCE;
	fake_keys[0].last_change = 1700000001;
	strcpy(fake_keys[1].name, "net.core.rmem_max");
	strcpy(fake_keys[1].source, "/M P/o.plist");
	fake_keys[1].state = KS_DRIFTED;
	fake_keys[1].corrections = 3;
}

static int
setup(void **arg)
{
	(void)arg;
	snprintf(dir, sizeof(dir), "%s/tt-prom.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **arg)
{
	char	path[300];

	(void)arg;
	snprintf(path, sizeof(path), "%s/tcptune.prom", dir);
	unlink(path);
	return rmdir(dir);
}

/* ---- tests */

static void
test_label_escapes(void **arg)
{
	(void)arg;
	expect_label("plain", "\"plain\"");
	expect_label("a\\b", "\"a\\\\b\"");
	expect_label("say \"hi\"", "\"say \\\"hi\\\"\"");
	expect_label("two\nlines", "\"two\\nlines\"");
	expect_label("caf\xc3\xa9", "\"caf\xc3\xa9\"");		/* UTF-8 kept */
	expect_label("\xff", "\"\xef\xbf\xbd\"");		/* not UTF-8 */
	expect_label("\xc3", "\"\xef\xbf\xbd\"");		/* cut short */
	expect_label("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"");	/* overlong */
	expect_label("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	expect_label("\xf4\x90\x80\x80",		/* past U+10FFFF */
	    "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	expect_label("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
	expect_label("", "\"\"");
}

static void
write_fn(FILE *f, const void *arg)
{
	prom_write(f, arg);
}

static const char want_up0[] =
    "# HELP tcptune_up 1 if tcptuned answered tcptunectl's status request, "
    "else 0.\n"
    "# TYPE tcptune_up gauge\n"
    "tcptune_up 0\n";

static void
test_down(void **arg)
{
	char	*got;

	(void)arg;
	got = capture(write_fn, NULL);
	assert_string_equal(got, want_up0);
	free(got);
}

static bool
has_line(const char *text, const char *line)
{
	size_t		 n = strlen(line);
	const char	*p;

	for (p = text; (p = strstr(p, line)) != NULL; p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void
test_metrics(void **arg)
{
	struct reply	 r;
	char		*got;
	static const char *const want[] = {
		"tcptune_up 1",
		"tcptune_info{version=\"0.1\",backend=\"sysctl-dir\","
		    "config=\"/etc/tcptune.conf\",managed=\"/M P/o.plist\"} 1",
		"# TYPE tcptune_checks_total counter",
		"tcptune_checks_total 17",
		"tcptune_last_check_timestamp_seconds 1700000099",
		"tcptune_check_interval_seconds 60",
		"tcptune_paused 0",
		"tcptune_last_reload_success 1",
		"tcptune_keys 2",
		"tcptune_key_state{key=\"net.ipv4.tcp_rmem\",state=\"in_force\"} 1",
		"tcptune_key_state{key=\"net.ipv4.tcp_rmem\",state=\"drifted\"} 0",
		"tcptune_key_state{key=\"net.core.rmem_max\",state=\"drifted\"} 1",
		"tcptune_key_state{key=\"net.core.rmem_max\",state=\"refused\"} 0",
		"# TYPE tcptune_key_corrections_total counter",
		"tcptune_key_corrections_total{key=\"net.core.rmem_max\"} 3",
		"tcptune_key_corrections_total{key=\"net.ipv4.tcp_rmem\"} 0",
		"tcptune_key_last_change_timestamp_seconds"
		    "{key=\"net.ipv4.tcp_rmem\"} 1700000001",
		"tcptune_key_source{key=\"net.core.rmem_max\","
		    "file=\"/M P/o.plist\"} 1",
		NULL
	};
	size_t		 i;

	(void)arg;
	fill_reply();
	fake_rv = CTL_OK;
	assert_int_equal(client_request("x", MSG_STATUS, &r), CTL_OK);
	got = capture(write_fn, &r);
	for (i = 0; want[i] != NULL; i++) {
		if (!has_line(got, want[i]))
			print_message("# missing: %s\n# in:\n%s", want[i], got);
		assert_true(has_line(got, want[i]));
	}
	free(got);
	reply_free(&r);
}

/* tcptune_info's line for a daemon whose backend status names so. */
static void
expect_info(const char *backend, const char *want)
{
	struct reply	 r;
	char		*got;

	fill_reply();
	snprintf(fake_info.backend, sizeof(fake_info.backend), "%s", backend);
	fake_rv = CTL_OK;
	assert_int_equal(client_request("x", MSG_STATUS, &r), CTL_OK);
	got = capture(write_fn, &r);
	if (!has_line(got, want))
		print_message("# missing: %s\n# in:\n%s", want, got);
	assert_true(has_line(got, want));
	free(got);
	reply_free(&r);
}

/*
 * The backend label is its word, as status --json's backend, not status's
 * "sysctl-dir (/proc/sys)": the live tree goes in sysctl_root.
 */
static void
test_backend_labels(void **arg)
{
	(void)arg;
	expect_info("sysctl-dir (/proc/sys)", "tcptune_info{version=\"0.1\","
	    "backend=\"sysctl-dir\",sysctl_root=\"/proc/sys\","
	    "config=\"/etc/tcptune.conf\",managed=\"/M P/o.plist\"} 1");
	expect_info("bsd", "tcptune_info{version=\"0.1\",backend=\"bsd\","
	    "config=\"/etc/tcptune.conf\",managed=\"/M P/o.plist\"} 1");
	expect_info("windows-cim", "tcptune_info{version=\"0.1\","
	    "backend=\"windows-cim\",config=\"/etc/tcptune.conf\","
	    "managed=\"/M P/o.plist\"} 1");
}

/* Each metric's samples together, after its one HELP and TYPE. */
static void
test_grouped(void **arg)
{
	struct reply	 r;
	char		*got, *line, *save = NULL, cur[128] = "", seen[4096] = "";
	char		 name[sizeof(cur) + 2];	/* " cur " */
	size_t		 n;

	(void)arg;
	fill_reply();
	fake_rv = CTL_OK;
	client_request("x", MSG_STATUS, &r);
	got = capture(write_fn, &r);
	for (line = strtok_r(got, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "# HELP ", 7) == 0) {
			n = strcspn(line + 7, " ");
			snprintf(cur, sizeof(cur), "%.*s", (int)n, line + 7);
			snprintf(name, sizeof(name), " %s ", cur);
			assert_null(strstr(seen, name));	/* once */
			strncat(seen, name, sizeof(seen) - strlen(seen) - 1);
			continue;
		}
		if (line[0] == '#')
			continue;
		n = strcspn(line, "{ ");
		assert_int_equal(n, strlen(cur));
		assert_true(strncmp(line, cur, n) == 0);
	}
	free(got);
	reply_free(&r);
}

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*buf;
	long	 n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static size_t
entries(const char *d)
{
	DIR		*dp = opendir(d);
	struct dirent	*de;
	size_t		 n = 0;

	assert_non_null(dp);
	while ((de = readdir(dp)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(dp);
	return n;
}

/*
 * What `tcptunectl status --textfile DIR` does with the back-end
 * (tcptunectl.c run_status): the exit status is status's, or CTL_FAIL
 * when the file could not be written.
 */
static int
status_to(const char *textfile)
{
	const struct output	*out = prom_output(textfile);
	struct reply		 r;
	int			 rv, wrv;

	assert_true(out->tells_unreachable);
	rv = client_request("x", MSG_STATUS, &r);
	wrv = out->status(rv == CTL_OK ? &r : NULL);
	if (rv == CTL_OK) {
		rv = reply_all_in_force(&r) ? CTL_OK : CTL_FAIL;
		reply_free(&r);
	}
	return wrv == -1 && rv == CTL_OK ? CTL_FAIL : rv;
}

static void
test_textfile(void **arg)
{
	char		 path[300], *text;
	struct stat	 st;
	ino_t		 ino;

	(void)arg;
	snprintf(path, sizeof(path), "%s/tcptune.prom", dir);
	fill_reply();
	fake_rv = CTL_OK;
	/* one key drifted: exit 1, as status */
	assert_int_equal(status_to(dir), CTL_FAIL);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(entries(dir), 1);	/* no temporary file left */
	text = slurp(path);
	assert_true(has_line(text, "tcptune_up 1"));
	free(text);
	ino = st.st_ino;

	/* the daemon gone: the file says so, replaced by a rename */
	fake_rv = CTL_UNREACHABLE;
	assert_int_equal(status_to(dir), CTL_UNREACHABLE);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_ino != ino);
	text = slurp(path);
	assert_string_equal(text, want_up0);
	free(text);
	assert_int_equal(entries(dir), 1);

	fake_keys[1].state = KS_IN_FORCE;
	fake_rv = CTL_OK;
	assert_int_equal(status_to(dir), CTL_OK);
}

static void
test_textfile_errors(void **arg)
{
	char	missing[300];

	(void)arg;
	fill_reply();
	fake_keys[1].state = KS_IN_FORCE;
	fake_rv = CTL_OK;
	snprintf(missing, sizeof(missing), "%s/no/such/dir", dir);
	warnings = 0;
	assert_int_equal(status_to(missing), CTL_FAIL);
	assert_int_equal(warnings, 1);
	/* no daemon and no directory: the daemon's exit status stays */
	fake_rv = CTL_UNREACHABLE;
	assert_int_equal(status_to(missing), CTL_UNREACHABLE);
	assert_int_equal(warnings, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_escapes),
		cmocka_unit_test(test_down),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_backend_labels),
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_textfile),
		cmocka_unit_test(test_textfile_errors),
	};

	return cmocka_run_group_tests_name("output_prom", tests, setup,
	    teardown);
}
