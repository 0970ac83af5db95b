/*
 * The config model's layers (lib/config_model.c), the managed preferences
 * file over the config, read in this process (lib/config.c) or handed
 * over as parsed, as tcptuned hands over the parse helper's answers:
 * key by key, CheckInterval and RestoreOnExit only when the managed file
 * gives them, the source of every key, a missing managed file as none, a
 * bad one refusing the whole load with both files' problems, the owner
 * check applied to it too, the merged key count bounded, and the
 * registry policy's reader the one the caller gives.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifdef __APPLE__
#define _DARWIN_C_SOURCE	/* mkdtemp beside _POSIX_C_SOURCE */
#endif

#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

#include "tcptune.h"

static char	dir[256];
static char	local_path[300];
static char	managed_path[300];

#define HEAD	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

static const char local_xml[] = HEAD
    "<plist version=\"1.0\"><dict>\n"
    "<key>CheckInterval</key><integer>30</integer>\n"
    "<key>RestoreOnExit</key><true/>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>net.a.one</key><string>1</string>\n"
    "<key>net.a.two</key><string>2</string>\n"
    "<key>net.a.three</key><string>3</string>\n"
    "</dict></dict></plist>\n";

/* Overrides two, adds four; says nothing of RestoreOnExit. */
static const char managed_xml[] = HEAD
    "<plist version=\"1.0\"><dict>\n"
    "<key>CheckInterval</key><integer>5</integer>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>net.a.two</key><dict><key>Value</key><string>22</string>"
    "<key>Mode</key><string>at-least</string></dict>\n"
    "<key>net.a.four</key><string>4</string>\n"
    "</dict></dict></plist>\n";

static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static void
print_errors(const struct errlist *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		print_message("# got: %s\n", errs->msg[i]);
}

static struct config *
load(int flags, struct errlist *errs)
{
	errlist_init(errs);
	return config_load_layers(local_path, managed_path, policy_load, flags,
	    errs);
}

static int
setup(void **arg)
{
	(void)arg;
	snprintf(dir, sizeof(dir), "%s/tt-layers.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(local_path, sizeof(local_path), "%s/tcptune.conf", dir);
	snprintf(managed_path, sizeof(managed_path), "%s/managed.plist", dir);
	return 0;
}

static int
teardown(void **arg)
{
	(void)arg;
	unlink(local_path);
	unlink(managed_path);
	return rmdir(dir);
}

static int
before(void **arg)
{
	(void)arg;
	unlink(managed_path);
	write_file(local_path, local_xml, 0644);
	return 0;
}

static void
expect_key(const struct config *cfg, size_t i, const char *name,
    const char *value, const char *source)
{
	assert_true(i < cfg->nkeys);
	assert_string_equal(cfg->keys[i].name, name);
	assert_string_equal(cfg->keys[i].value, value);
	assert_string_equal(config_key_source(cfg, &cfg->keys[i]), source);
}

static void
test_key_by_key(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;

	(void)arg;
	write_file(managed_path, managed_xml, 0644);
	cfg = load(0, &errs);
	if (cfg == NULL)
		print_errors(&errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->nkeys, 4);
	/* the local order, the managed value in place, then managed's own */
	expect_key(cfg, 0, "net.a.one", "1", local_path);
	expect_key(cfg, 1, "net.a.two", "22", managed_path);
	expect_key(cfg, 2, "net.a.three", "3", local_path);
	expect_key(cfg, 3, "net.a.four", "4", managed_path);
	/* the whole key is managed's: its mode too, and its line */
	assert_int_equal(cfg->keys[1].mode, MODE_AT_LEAST);
	assert_int_equal(cfg->keys[1].line, 5);
	assert_int_equal(cfg->check_interval, 5);
	assert_true(cfg->restore_on_exit);	/* not in managed: local's */
	assert_string_equal(cfg->path, local_path);
	assert_string_equal(cfg->managed_path, managed_path);
	config_free(cfg);
	errlist_clear(&errs);
}

static void
test_settings_only_when_given(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;

	(void)arg;
	write_file(managed_path, HEAD "<plist version=\"1.0\"><dict>\n"
	    "<key>RestoreOnExit</key><false/>\n</dict></plist>\n", 0644);
	cfg = load(0, &errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->check_interval, 30);
	assert_false(cfg->restore_on_exit);
	assert_int_equal(cfg->nkeys, 3);
	expect_key(cfg, 1, "net.a.two", "2", local_path);
	config_free(cfg);
	errlist_clear(&errs);
}

static void
test_absent_is_none(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg, *alone;

	(void)arg;
	cfg = load(0, &errs);
	assert_non_null(cfg);
	assert_int_equal(errs.n, 0);
	assert_string_equal(cfg->managed_path, "");
	expect_key(cfg, 0, "net.a.one", "1", local_path);
	/* the same digest as the file alone: no reload for nothing */
	alone = config_load(local_path, 0, &errs);
	assert_non_null(alone);
	assert_true(cfg->digest == alone->digest);
	config_free(alone);
	config_free(cfg);
	/* "" and NULL: no managed layer, whatever exists */
	write_file(managed_path, "not even XML", 0644);
	cfg = config_load_layers(local_path, "", policy_load, 0, &errs);
	assert_non_null(cfg);
	config_free(cfg);
	cfg = config_load_layers(local_path, NULL, policy_load, 0, &errs);
	assert_non_null(cfg);
	config_free(cfg);
	errlist_clear(&errs);
}

/*
 * The one test of "is there a managed layer" that the loader, the parse
 * helper's caller and the daemon's messages share.
 */
static void
test_managed_present(void **arg)
{
	char	under_file[400];

	(void)arg;
	assert_false(config_managed_present(NULL));
	assert_false(config_managed_present(""));
	assert_false(config_managed_present(managed_path));
	write_file(managed_path, "not even XML", 0644);
	assert_true(config_managed_present(managed_path));
	/* not ENOENT: reported as an error, not taken as no layer */
	snprintf(under_file, sizeof(under_file), "%s/x", local_path);
	assert_true(config_managed_present(under_file));
}

/* Adding the managed file, or changing it, changes the digest. */
static void
test_digest(void **arg)
{
	struct errlist	 errs;
	struct config	*a, *b, *c;

	(void)arg;
	a = load(0, &errs);
	write_file(managed_path, managed_xml, 0644);
	b = load(0, &errs);
	write_file(managed_path, HEAD "<plist version=\"1.0\"><dict>\n"
	    "<key>CheckInterval</key><integer>6</integer>\n"
	    "</dict></plist>\n", 0644);
	c = load(0, &errs);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a->digest != b->digest);
	assert_true(b->digest != c->digest);
	assert_true(a->digest != c->digest);
	config_free(a);
	config_free(b);
	config_free(c);
	errlist_clear(&errs);
}

static bool
has_prefix(const struct errlist *errs, const char *prefix)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		if (strncmp(errs->msg[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* A bad managed file refuses the load; both files' problems are listed. */
static void
test_bad_managed(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		 want[400];

	(void)arg;
	write_file(managed_path, HEAD "<plist version=\"1.0\"><dict>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.a.two</key><dict><key>Mode</key><string>often</string>"
	    "<key>Value</key><string>2</string></dict>\n"
	    "</dict></dict></plist>\n", 0644);
	cfg = load(0, &errs);
	assert_null(cfg);
	snprintf(want, sizeof(want), "%s:4: ", managed_path);
	if (!has_prefix(&errs, want))
		print_errors(&errs);
	assert_true(has_prefix(&errs, want));
	errlist_clear(&errs);

	write_file(local_path, HEAD "<plist version=\"1.0\"><dict>\n"
	    "<key>Bogus</key><true/>\n</dict></plist>\n", 0644);
	cfg = load(0, &errs);
	assert_null(cfg);
	snprintf(want, sizeof(want), "%s:3: ", local_path);
	assert_true(has_prefix(&errs, want));
	snprintf(want, sizeof(want), "%s:4: ", managed_path);
	assert_true(has_prefix(&errs, want));
	errlist_clear(&errs);
}

/* What macOS writes is binary: read (test_bplist.c); a broken one refused. */
static void
test_binary_plist(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		 want[400];

	(void)arg;
	write_file(managed_path, "bplist00\xd1\x01\x02", 0644);
	cfg = load(0, &errs);
	assert_null(cfg);
	snprintf(want, sizeof(want), "%s: binary property list: truncated",
	    managed_path);
	if (!has_prefix(&errs, want))
		print_errors(&errs);
	assert_true(has_prefix(&errs, want));
	errlist_clear(&errs);
}

/* The managed file gets the config's owner and mode checks. */
static void
test_owner_checked(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		 want[400];

	(void)arg;
	if (geteuid() != 0)
		skip();
	write_file(managed_path, managed_xml, 0664);
	cfg = load(CONFIG_CHECK_OWNER, &errs);
	assert_null(cfg);
	snprintf(want, sizeof(want), "%s: must be owned by root", managed_path);
	if (!has_prefix(&errs, want))
		print_errors(&errs);
	assert_true(has_prefix(&errs, want));
	errlist_clear(&errs);
	assert_int_equal(chmod(managed_path, 0644), 0);
	assert_int_equal(chown(managed_path, 65534, 0), 0);
	cfg = load(CONFIG_CHECK_OWNER, &errs);
	assert_null(cfg);
	assert_true(has_prefix(&errs, want));
	errlist_clear(&errs);
	assert_int_equal(chown(managed_path, 0, 0), 0);
	cfg = load(CONFIG_CHECK_OWNER, &errs);
	if (cfg == NULL)
		print_errors(&errs);
	assert_non_null(cfg);
	config_free(cfg);
	errlist_clear(&errs);
}

/* A file with n distinct keys named net.PREFIX.kI. */
static void
write_keys(const char *path, const char *prefix, int n)
{
	FILE	*f = fopen(path, "w");
	int	 i;

	assert_non_null(f);
	fprintf(f, HEAD "<plist version=\"1.0\"><dict><key>Sysctls</key>"
	    "<dict>\n");
	for (i = 0; i < n; i++)
		fprintf(f, "<key>net.%s.k%d</key><string>%d</string>\n",
		    prefix, i, i);
	fprintf(f, "</dict></dict></plist>\n");
	assert_int_equal(fclose(f), 0);
}

static void
test_merged_count_bounded(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;

	(void)arg;
	write_keys(local_path, "l", TT_MAX_KEYS);
	write_keys(managed_path, "l", TT_MAX_KEYS);	/* the same names */
	cfg = load(0, &errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->nkeys, TT_MAX_KEYS);
	config_free(cfg);
	write_keys(managed_path, "m", 1);
	cfg = load(0, &errs);
	assert_null(cfg);
	assert_int_equal(errs.n, 1);
	assert_non_null(strstr(errs.msg[0], "more than"));
	errlist_clear(&errs);
}

/*
 * tcptuned -n's report: the layers in use and "configuration OK" on out,
 * the errors on err and nothing on out, as tcptunectl check's.
 */
static void
test_report(void **arg)
{
	char	*buf = NULL, *ebuf = NULL;
	size_t	 len = 0, elen = 0;
	FILE	*out, *err;

	(void)arg;
	out = open_memstream(&buf, &len);
	err = open_memstream(&ebuf, &elen);
	assert_non_null(out);
	assert_non_null(err);
	assert_int_equal(config_report_layers(local_path, managed_path,
	    policy_load, 0, out, err), 0);
	fflush(out);
	fflush(err);
	assert_string_equal(buf, "configuration OK\n");
	assert_int_equal(elen, 0);
	write_file(managed_path, managed_xml, 0644);
	rewind(out);
	assert_int_equal(config_report_layers(local_path, managed_path,
	    policy_load, 0, out, err), 0);
	fputc('\0', out);
	fflush(out);
	fflush(err);
	assert_non_null(strstr(buf, "managed preferences: "));
	assert_non_null(strstr(buf, "configuration OK\n"));
	assert_int_equal(elen, 0);
	write_file(managed_path, "<plist>", 0644);
	rewind(out);
	assert_int_equal(config_report_layers(local_path, managed_path,
	    policy_load, 0, out, err), 1);
	fflush(out);
	assert_int_equal(ftell(out), 0);	/* nothing on out */
	fputc('\0', err);
	fflush(err);
	assert_true(strncmp(ebuf, managed_path, strlen(managed_path)) == 0);
	assert_null(strstr(ebuf, "configuration OK"));
	fclose(out);
	fclose(err);
	free(buf);
	free(ebuf);
}

/* A config from text, labelled as its file. */
static struct config *
parsed(const char *xml, const char *label, struct errlist *errs)
{
	return config_parse(xml, strlen(xml), label, errs);
}

/* policy_load_fn: no policy, or a policy that cannot be read. */
static int
no_policy(struct config **cfg, struct errlist *errs)
{
	(void)errs;
	*cfg = NULL;
	return 0;
}

static int
bad_policy(struct config **cfg, struct errlist *errs)
{
	*cfg = NULL;
	errlist_add(errs, "policy: refused");
	return -1;
}

/*
 * config_layers() on layers already parsed, as tcptuned hands over the
 * helper's answers: a managed layer whose read failed fails the whole,
 * no managed layer is the config alone; then the policy read by the
 * reader given, its failure failing the load.
 */
static void
test_layers_as_parsed(void **arg)
{
	struct errlist	 errs;
	struct config	*cfg;

	(void)arg;
	errlist_init(&errs);
	cfg = config_layers(parsed(local_xml, "local", &errs),
	    parsed(managed_xml, "managed", &errs), true, &errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->nkeys, 4);
	expect_key(cfg, 1, "net.a.two", "22", "managed");
	config_free(cfg);
	cfg = config_layers(parsed(local_xml, "local", &errs), NULL, false,
	    &errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->nkeys, 3);
	assert_string_equal(cfg->managed_path, "");
	config_free(cfg);
	/* a failed read: nothing, and what was read freed (ASan sees it) */
	assert_null(config_layers(parsed(local_xml, "local", &errs), NULL,
	    true, &errs));
	assert_null(config_layers(NULL, parsed(managed_xml, "managed",
	    &errs), true, &errs));
	assert_int_equal(errs.n, 0);
	cfg = config_layers_finish(config_layers(parsed(local_xml, "local",
	    &errs), NULL, false, &errs), no_policy, NULL, &errs, NULL);
	assert_non_null(cfg);
	config_free(cfg);
	assert_null(config_layers_finish(config_layers(parsed(local_xml,
	    "local", &errs), NULL, false, &errs), bad_policy, NULL, &errs,
	    NULL));
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], "policy: refused");
	errlist_clear(&errs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_key_by_key, before),
		cmocka_unit_test_setup(test_settings_only_when_given, before),
		cmocka_unit_test_setup(test_absent_is_none, before),
		cmocka_unit_test_setup(test_managed_present, before),
		cmocka_unit_test_setup(test_digest, before),
		cmocka_unit_test_setup(test_bad_managed, before),
		cmocka_unit_test_setup(test_binary_plist, before),
		cmocka_unit_test_setup(test_owner_checked, before),
		cmocka_unit_test_setup(test_merged_count_bounded, before),
		cmocka_unit_test_setup(test_report, before),
		cmocka_unit_test(test_layers_as_parsed),
	};

	return cmocka_run_group_tests_name("config_model", tests, setup,
	    teardown);
}
