/*
 * The Windows registry policy as a config layer (lib/config_policy.c,
 * config_merge_policy in lib/config_model.c), on any system: values as
 * policy_win.c hands them over, checked as a config's are, each problem
 * naming the registry key and value; laid over the config and the managed
 * file key by key; each key's source; CheckInterval and RestoreOnExit only
 * when given; a bad policy refusing the whole layer.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcptune.h"

#define HEAD	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

static const char local_xml[] = HEAD
    "<plist version=\"1.0\"><dict>\n"
    "<key>CheckInterval</key><integer>30</integer>\n"
    "<key>RestoreOnExit</key><true/>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>tcp.autotuninglevel</key><string>restricted</string>\n"
    "<key>offload.rss</key><string>enabled</string>\n"
    "</dict></dict></plist>\n";

static struct policy_value
sz(const char *name, const char *text)
{
	struct policy_value	v;

	memset(&v, 0, sizeof(v));
	snprintf(v.name, sizeof(v.name), "%s", name);
	snprintf(v.text, sizeof(v.text), "%s", text);
	v.type = POLICY_SZ;
	v.regtype = 1;		/* REG_SZ */
	return v;
}

static struct policy_value
dword(const char *name, unsigned long n)
{
	struct policy_value	v;

	memset(&v, 0, sizeof(v));
	snprintf(v.name, sizeof(v.name), "%s", name);
	v.type = POLICY_DWORD;
	v.dword = n;
	v.regtype = 4;		/* REG_DWORD */
	return v;
}

static struct config *
local(void)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_parse(local_xml, sizeof(local_xml) - 1, "tcptune.conf",
	    &errs);
	assert_non_null(cfg);
	errlist_clear(&errs);
	return cfg;
}

static void
print_errors(const struct errlist *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		print_message("# got: %s\n", errs->msg[i]);
}

/* Exactly one error, and it is want. */
static void
expect_error(const struct policy_value *top, size_t ntop,
    const struct policy_value *sys, size_t nsys, const char *want)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_policy(top, ntop, sys, nsys, &errs);
	assert_null(cfg);
	print_errors(&errs);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], want);
	errlist_clear(&errs);
}

static void
test_layer_key_by_key(void **arg)
{
	struct policy_value	 top[] = { dword("CheckInterval", 5) };
	struct policy_value	 sys[] = { sz("tcp.autotuninglevel", "normal"),
				    sz("tcp.timestamps", "disabled") };
	struct errlist		 errs;
	struct config		*pol, *cfg;
	char			 names[256];

	(void)arg;
	errlist_init(&errs);
	pol = config_policy(top, 1, sys, 2, &errs);
	print_errors(&errs);
	assert_non_null(pol);
	assert_string_equal(pol->path, "policy HKLM\\SOFTWARE\\Policies\\"
	    "tcptune\\Sysctls");
	cfg = config_merge_policy(local(), pol, &errs);
	assert_non_null(cfg);
	assert_int_equal(cfg->nkeys, 3);
	/* the config's order, the policy's value in place, then its own */
	assert_string_equal(cfg->keys[0].name, "tcp.autotuninglevel");
	assert_string_equal(cfg->keys[0].value, "normal");
	assert_string_equal(config_key_source(cfg, &cfg->keys[0]),
	    TT_POLICY_SOURCE);
	assert_string_equal(cfg->keys[1].value, "enabled");
	assert_string_equal(config_key_source(cfg, &cfg->keys[1]),
	    "tcptune.conf");
	assert_string_equal(config_key_source(cfg, &cfg->keys[2]),
	    TT_POLICY_SOURCE);
	assert_int_equal(cfg->check_interval, 5);
	assert_true(cfg->restore_on_exit);	/* not in the policy */
	config_layer_names(cfg, names, sizeof(names));
	assert_string_equal(names, TT_POLICY_SOURCE);
	config_free(cfg);
	errlist_clear(&errs);
}

/* The policy wins over the managed file too; each source stays right. */
static void
test_over_managed(void **arg)
{
	static const char managed_xml[] = HEAD "<plist version=\"1.0\">"
	    "<dict>\n<key>Sysctls</key><dict>\n"
	    "<key>offload.rss</key><string>disabled</string>\n"
	    "<key>tcp.autotuninglevel</key><string>disabled</string>\n"
	    "</dict></dict></plist>\n";
	struct policy_value	 sys[] = { sz("tcp.autotuninglevel", "normal") };
	struct errlist		 errs;
	struct config		*m, *cfg;
	char			 names[256];

	(void)arg;
	errlist_init(&errs);
	m = config_parse(managed_xml, sizeof(managed_xml) - 1, "managed",
	    &errs);
	assert_non_null(m);
	cfg = config_merge(local(), m, &errs);
	cfg = config_merge_policy(cfg, config_policy(NULL, 0, sys, 1, &errs),
	    &errs);
	assert_non_null(cfg);
	assert_string_equal(cfg->keys[0].value, "normal");
	assert_string_equal(config_key_source(cfg, &cfg->keys[0]),
	    TT_POLICY_SOURCE);
	assert_string_equal(cfg->keys[1].value, "disabled");
	assert_string_equal(config_key_source(cfg, &cfg->keys[1]), "managed");
	config_layer_names(cfg, names, sizeof(names));
	assert_string_equal(names, "managed, then " TT_POLICY_SOURCE);
	config_free(cfg);
	errlist_clear(&errs);
}

/* RestoreOnExit as a DWORD 0/1; a policy's digest changes with a value. */
static void
test_settings_and_digest(void **arg)
{
	struct policy_value	 top[] = { dword("RestoreOnExit", 0) };
	struct policy_value	 sys[] = { sz("offload.rss", "enabled") };
	struct errlist		 errs;
	struct config		*a, *b;

	(void)arg;
	errlist_init(&errs);
	a = config_policy(top, 1, sys, 1, &errs);
	assert_non_null(a);
	assert_false(a->restore_on_exit);
	assert_true(a->set & CONFIG_SET_RESTORE);
	assert_false(a->set & CONFIG_SET_INTERVAL);
	sys[0] = sz("offload.rss", "disabled");
	b = config_policy(top, 1, sys, 1, &errs);
	assert_non_null(b);
	assert_true(a->digest != b->digest);
	config_free(a);
	config_free(b);
	errlist_clear(&errs);
}

/* Each problem config.c finds, said for the registry key and value. */
static void
test_bad_values_named(void **arg)
{
	struct policy_value	v[2];

	(void)arg;
	v[0] = sz("tcp.autotuninglevel", "");
	expect_error(NULL, 0, v, 1, "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"tcp.autotuninglevel\": tcp.autotuninglevel: "
	    "empty value");
	v[0] = sz("kernel.core_pattern", "|/tmp/x");
	expect_error(NULL, 0, v, 1, "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"kernel.core_pattern\": kernel.core_pattern is "
	    "not a network or socket-buffer sysctl (net.*, kern.ipc.*, tcp.*, "
	    "offload.*): tcptune changes no other unless AllowAnySysctl is "
	    "<true/>");
	v[0] = sz("tcp..x", "1");
	expect_error(NULL, 0, v, 1, "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"tcp..x\": \"tcp..x\" is not a sysctl name: it "
	    "has an empty part (a leading, trailing or doubled dot)");
	v[0] = dword("CheckInterval", 0);
	expect_error(v, 1, NULL, 0, "HKLM\\SOFTWARE\\Policies\\tcptune, "
	    "value \"CheckInterval\": CheckInterval must be between 1 and "
	    "86400 seconds, not 0");
	v[0] = sz("CheckInterval", "soon");
	expect_error(v, 1, NULL, 0, "HKLM\\SOFTWARE\\Policies\\tcptune, "
	    "value \"CheckInterval\": CheckInterval must be an <integer>, not "
	    "<string>");
	v[0] = dword("Colour", 1);
	v[1] = sz("net.x.y", "1");
	expect_error(v, 1, v + 1, 1, "HKLM\\SOFTWARE\\Policies\\tcptune, "
	    "value \"Colour\": unknown key \"Colour\" (expected CheckInterval, "
	    "RestoreOnExit, AllowAnySysctl, Sysctls or MetricsTextfileDirectory)");
}

/* What config.c is never shown: other types, cut names, XML's specials. */
static void
test_raw_refusals(void **arg)
{
	struct policy_value	v[2];
	struct errlist		errs;
	struct config		*cfg;

	(void)arg;
	v[0] = sz("offload.rss", "");
	v[0].type = POLICY_OTHER;
	v[0].regtype = 3;	/* REG_BINARY */
	v[1] = sz("tcp.autotuninglevel", "normal");
	expect_error(NULL, 0, v, 2, "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"offload.rss\": registry type 3 is neither "
	    "REG_SZ nor REG_DWORD");
	v[0] = sz("offload.rss", "enabled");
	v[0].cut = true;
	expect_error(NULL, 0, v, 2, "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"offload.rss\": the name or the text is too long");
	/* markup in a value is text, not XML: it reaches the checks whole */
	v[0] = sz("net.a.b", "1 <x/> &amp;");
	errlist_init(&errs);
	cfg = config_policy(NULL, 0, v, 1, &errs);
	assert_non_null(cfg);
	assert_string_equal(cfg->keys[0].value, "1 <x/> &amp;");
	config_free(cfg);
	/* a control byte fails on its own value's line */
	v[0] = sz("net.a.b", "1\x01");
	cfg = config_policy(NULL, 0, v, 1, &errs);
	assert_null(cfg);
	assert_true(errs.n >= 1);
	assert_true(strncmp(errs.msg[0], "HKLM\\SOFTWARE\\Policies\\tcptune\\"
	    "Sysctls, value \"net.a.b\": ", 54) == 0);
	errlist_clear(&errs);
}

/* A policy and a config naming more than TT_MAX_KEYS between them. */
static void
test_merged_count_bounded(void **arg)
{
	struct policy_value	*v;
	struct errlist		 errs;
	struct config		*pol;
	char			 name[32];
	size_t			 i;

	(void)arg;
	v = calloc(TT_MAX_KEYS, sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < TT_MAX_KEYS; i++) {
		snprintf(name, sizeof(name), "net.p.k%zu", i);
		v[i] = sz(name, "1");
	}
	errlist_init(&errs);
	pol = config_policy(NULL, 0, v, TT_MAX_KEYS, &errs);
	assert_non_null(pol);
	assert_null(config_merge_policy(local(), pol, &errs));
	assert_int_equal(errs.n, 1);
	assert_non_null(strstr(errs.msg[0], "more than 256"));
	errlist_clear(&errs);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layer_key_by_key),
		cmocka_unit_test(test_over_managed),
		cmocka_unit_test(test_settings_and_digest),
		cmocka_unit_test(test_bad_values_named),
		cmocka_unit_test(test_raw_refusals),
		cmocka_unit_test(test_merged_count_bounded),
	};

	return cmocka_run_group_tests_name("config_policy", tests, NULL, NULL);
}
