/*
 * The engine over the Windows backend's rules (lib/backend_win.c) on
 * a fake root/StandardCimv2 (tests/fake_cim.c): apply, drift, Group
 * Policy refused and never fought, a class this Windows lacks, the
 * namespace missing (Wine), read-only congestion providers, timestamps
 * and receive segment coalescing (read by advise), restore; the rules of
 * a real Windows (backend_win.c's list): Automatic empty and never
 * written, a client edition's refusal and the netsh fallback read back
 * through CIM, Scaling heuristics, the QoS policy value.
 * Built natively: the rules are plain C, and Wine cannot fake the CIM
 * classes, so this is where their success paths are tested.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>	/* mkdtemp on macOS; stdlib.h on glibc */
#include <cmocka.h>

#include "tcptuned.h"
#include "engine_fixture.h"
#include "cim.h"
#include "fake_cim.h"

static const char *windows_conf =
    "<plist version=\"1.0\"><dict>\n"
    "<key>CheckInterval</key><integer>10</integer>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>tcp.autotuninglevel</key><string>normal</string>\n"
    "<key>offload.rss</key><string>enabled</string>\n"
    "</dict></dict></plist>\n";

/* A Windows box that a "TCP optimizer" left with auto-tuning and RSS off. */
static int
setup(void **arg)
{
	struct fake_cim		*fc = fake_cim_new();
	struct sysctl_backend	*be;

	fake_cim_poke_level(fc, 0);
	fake_cim_poke_rss(fc, 0);
	assert_non_null(be = backend_windows_over(fake_cim_cim(fc)));
	*arg = fixture_new("tt-engine-win", be);
	((struct fixture *)*arg)->fc = fc;
	return 0;
}

static int
teardown(void **arg)
{
	fixture_free(*arg);	/* the backend frees the fake CIM too */
	return 0;
}

static void
test_apply_sets_every_template_and_rss(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_int_equal(key(f, "offload.rss")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
	assert_int_equal(fake_cim_level(f->fc, "Compat"), 3);
	assert_int_equal(fake_cim_rss(f->fc), 1);
	assert_string_equal(key(f, "tcp.autotuninglevel")->current, "normal");
	assert_string_equal(originals_get(&f->st, "tcp.autotuninglevel"),
	    "disabled");
	assert_string_equal(originals_get(&f->st, "offload.rss"),
	    "disabled");
	assert_true(engine_all_in_force(&f->e));
}

static void
test_drift_reverted(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(windows_conf));
	fake_cim_poke_level(f->fc, 1);		/* netsh ... highlyrestricted */
	fake_cim_poke_rss(f->fc, 0);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
	assert_int_equal(fake_cim_rss(f->fc), 1);
	assert_int_equal(key(f, "tcp.autotuninglevel")->corrections, 1);
	assert_int_equal(key(f, "offload.rss")->corrections, 1);
}

/* Group Policy's level is shown and reported, and never written over. */
static void
test_group_policy_refused_not_fought(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;
	unsigned		 before;

	fake_cim_group_policy(f->fc, 1);
	before = fake_cim_nupdates(f->fc);
	engine_configure(&f->e, parse(windows_conf));
	k = key(f, "tcp.autotuninglevel");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, EPERM);
	assert_non_null(strstr(k->note, "Group Policy sets the auto-tuning "
	    "level"));
	assert_non_null(strstr(k->note, "highlyrestricted"));
	assert_string_equal(k->current, "highlyrestricted");
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
	/* Only RSS was written. */
	assert_int_equal(fake_cim_nupdates(f->fc), before + 1);
	assert_int_equal(key(f, "offload.rss")->state, KS_IN_FORCE);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(fake_cim_nupdates(f->fc), before + 1);
	/* The policy goes away: the next check applies the local level. */
	fake_cim_group_policy(f->fc, -1);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
}

/* Group Policy that sets the wanted level anyway: in force, no write. */
static void
test_group_policy_agreeing(void **arg)
{
	struct fixture	*f = *arg;

	fake_cim_group_policy(f->fc, 3);
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
}

static void
test_missing_class_others_apply(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;

	fake_cim_fail_class(f->fc, "MSFT_NetOffloadGlobalSetting",
	    CIM_E_INVALID_CLASS);
	engine_configure(&f->e, parse(windows_conf));
	k = key(f, "offload.rss");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, ENOENT);
	assert_non_null(strstr(k->note, "MSFT_NetOffloadGlobalSetting is not "
	    "on this Windows"));
	assert_non_null(strstr(k->note, "0x80041010"));
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
}

/* Wine: root/StandardCimv2 does not exist; every key says so. */
static void
test_no_namespace_every_key_reported(void **arg)
{
	struct fixture	*f = *arg;

	fake_cim_fail_class(f->fc, "MSFT_NetTCPSetting",
	    CIM_E_INVALID_NAMESPACE);
	fake_cim_fail_class(f->fc, "MSFT_NetOffloadGlobalSetting",
	    CIM_E_INVALID_NAMESPACE);
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->err, ENOENT);
	assert_non_null(strstr(key(f, "tcp.autotuninglevel")->note,
	    "WBEM_E_INVALID_NAMESPACE 0x8004100E"));
	assert_non_null(strstr(key(f, "offload.rss")->note,
	    "WBEM_E_INVALID_NAMESPACE 0x8004100E"));
	fake_now += 10;
	engine_check(&f->e);		/* keeps running, keeps reporting */
	assert_int_equal(f->e.checks, 1);
}

static void
test_access_denied(void **arg)
{
	struct fixture	*f = *arg;

	fake_cim_fail_update(f->fc, "MSFT_NetTCPSetting", CIM_E_ACCESS_DENIED);
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->err, EACCES);
	assert_non_null(strstr(key(f, "tcp.autotuninglevel")->note,
	    "LocalSystem"));
	assert_string_equal(key(f, "tcp.autotuninglevel")->current,
	    "disabled");
}

static void
test_restore_puts_originals_back(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
	assert_int_equal(fake_cim_level(f->fc, "Datacenter"), 0);
	assert_int_equal(fake_cim_rss(f->fc), 0);
	assert_true(f->st.paused);
	assert_int_equal(key(f, "offload.rss")->state, KS_PAUSED);
}

/* The originals survive a restart of the daemon (a crash, a reboot). */
static void
test_originals_survive_restart(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(windows_conf));
	stop(f);
	start(f);
	engine_configure(&f->e, parse(windows_conf));
	assert_string_equal(originals_get(&f->st, "tcp.autotuninglevel"),
	    "disabled");
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
}

static void
test_congestion_provider_read_only(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;
	unsigned		 before = fake_cim_nupdates(f->fc);

	engine_configure(&f->e, parse(
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>tcp.congestionprovider.internet</key><string>cubic</string>\n"
	    "<key>tcp.congestionprovider.compat</key><string>ctcp</string>\n"
	    "<key>tcp.congestionprovider.nosuch</key><string>cubic</string>\n"
	    "</dict></dict></plist>\n"));
	assert_int_equal(key(f, "tcp.congestionprovider.internet")->state,
	    KS_IN_FORCE);
	k = key(f, "tcp.congestionprovider.compat");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, EROFS);
	assert_string_equal(k->current, "newreno");
	assert_non_null(strstr(k->note, "read-only"));
	assert_int_equal(key(f, "tcp.congestionprovider.nosuch")->err, ENOENT);
	assert_int_equal(fake_cim_nupdates(f->fc), before);
}

/* The backend's reading of name, which must succeed. */
static const char *
read_key(struct fixture *f, const char *name)
{
	static char	buf[32];

	assert_int_equal(f->be->get(f->be, name, buf, sizeof(buf)), 0);
	return buf;
}

/* What advise reads: stock values, a change, never a write. */
static void
test_timestamps_and_rsc_read_only(void **arg)
{
	struct fixture	*f = *arg;
	char		 buf[32], why[256];
	unsigned	 before = fake_cim_nupdates(f->fc);

	assert_string_equal(read_key(f, "tcp.timestamps"), "disabled");
	assert_string_equal(read_key(f, "offload.rsc"), "enabled");
	fake_cim_poke_timestamps(f->fc, 2);
	fake_cim_poke_rsc(f->fc, 0);
	assert_string_equal(read_key(f, "tcp.timestamps"), "allowed");
	assert_string_equal(read_key(f, "offload.rsc"), "disabled");
	fake_cim_poke_timestamps(f->fc, 9);	/* a value no doc names */
	assert_string_equal(read_key(f, "tcp.timestamps"), "9");
	assert_int_equal(f->be->set(f->be, "tcp.timestamps", "enabled"),
	    EROFS);
	assert_int_equal(f->be->set(f->be, "offload.rsc", "enabled"), EROFS);
	assert_int_equal(f->be->explain(f->be, "offload.rsc", why,
	    sizeof(why)), 0);
	assert_non_null(strstr(why, "read-only"));
	assert_int_equal(fake_cim_nupdates(f->fc), before);
	/* the class missing, as under Wine: a reason advise can show */
	fake_cim_fail_class(f->fc, "MSFT_NetTCPSetting", CIM_E_INVALID_CLASS);
	assert_int_equal(f->be->get(f->be, "tcp.timestamps", buf,
	    sizeof(buf)), ENOENT);
	assert_int_equal(f->be->explain(f->be, "tcp.timestamps", why,
	    sizeof(why)), 0);
	assert_non_null(strstr(why, "MSFT_NetTCPSetting is not on this "
	    "Windows"));
}

/*
 * A real Windows: Automatic has every tuning property empty; it is never
 * written, and the other templates are.
 */
static void
test_automatic_never_written(void **arg)
{
	struct fixture	*f = *arg;

	assert_string_equal(read_key(f, "tcp.autotuninglevel"), "disabled");
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_automatic_writes(f->fc), 0);
	assert_int_equal(fake_cim_level(f->fc, "InternetCustom"), 3);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
	assert_int_equal(fake_cim_netsh_calls(f->fc), 0);
	assert_string_equal(key(f, "tcp.autotuninglevel")->note, "");
}

/* A client edition refuses the built-in templates: netsh applies it. */
static void
test_client_edition_netsh_fallback(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;

	fake_cim_client_edition(f->fc, CIM_E_INVALID_PARAMETER);
	engine_configure(&f->e, parse(windows_conf));
	k = key(f, "tcp.autotuninglevel");
	assert_int_equal(k->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_netsh_calls(f->fc), 1);
	assert_string_equal(fake_cim_netsh_args(f->fc),
	    "interface tcp set global autotuninglevel=normal");
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 3);
	assert_int_equal(fake_cim_level(f->fc, "Compat"), 3);
	assert_non_null(strstr(k->note, "applied with netsh interface tcp "
	    "set global autotuninglevel=normal"));
	assert_non_null(strstr(k->note, "WBEM_E_INVALID_PARAMETER"));
	assert_non_null(strstr(k->note, "InternetCustom and DatacenterCustom"));
	assert_string_equal(originals_get(&f->st, "tcp.autotuninglevel"),
	    "disabled");
	/* restore goes the same way */
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
	assert_int_equal(fake_cim_netsh_calls(f->fc), 2);
}

/* Each form error 87 and its siblings take when they reach WMI. */
static void
test_every_refusal_form_falls_back(void **arg)
{
	static const int32_t forms[] = { CIM_E_INVALID_PARAMETER,
	    CIM_E_INVALIDARG, CIM_E_INVALID_METHOD_PARAMETERS,
	    CIM_E_NOT_SUPPORTED, CIM_E_ILLEGAL_OPERATION, CIM_E_READ_ONLY,
	    CIM_E_NOT_CAPABLE };
	struct fixture	*f = *arg;
	char		 why[256];
	size_t		 i;

	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		fake_cim_poke_level(f->fc, 0);
		fake_cim_client_edition(f->fc, forms[i]);
		assert_int_equal(f->be->set(f->be, "tcp.autotuninglevel",
		    "restricted"), 0);
		assert_int_equal(fake_cim_netsh_calls(f->fc), i + 1);
		assert_int_equal(fake_cim_level(f->fc, "Datacenter"), 2);
		assert_int_equal(f->be->explain(f->be, "tcp.autotuninglevel",
		    why, sizeof(why)), 0);
		assert_non_null(strstr(why, cim_strerror(forms[i])));
	}
	/* access denied is not a refusal netsh would get past */
	fake_cim_fail_update(f->fc, "MSFT_NetTCPSetting", CIM_E_ACCESSDENIED);
	assert_int_equal(f->be->set(f->be, "tcp.autotuninglevel", "normal"),
	    EACCES);
	assert_int_equal(fake_cim_netsh_calls(f->fc), i);
}

/* netsh refused too: both refusals named, the key refused. */
static void
test_netsh_fails_too(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;

	fake_cim_client_edition(f->fc, CIM_E_INVALIDARG);
	fake_cim_netsh(f->fc, FAKE_NETSH_FAILS, 1,
	    "\r\nThe requested operation requires elevation.\r\n");
	engine_configure(&f->e, parse(windows_conf));
	k = key(f, "tcp.autotuninglevel");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, EPERM);
	assert_non_null(strstr(k->note, "E_INVALIDARG (Windows error 87) "
	    "0x80070057"));
	assert_non_null(strstr(k->note, "failed too (exit 1: The requested "
	    "operation requires elevation.)"));
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
}

/* netsh hung and was ended at its deadline: said so, the key refused. */
static void
test_netsh_hangs(void **arg)
{
	struct fixture		*f = *arg;
	const struct engine_key	*k;

	fake_cim_client_edition(f->fc, CIM_E_INVALIDARG);
	fake_cim_netsh(f->fc, FAKE_NETSH_HANGS, 0, "");
	engine_configure(&f->e, parse(windows_conf));
	k = key(f, "tcp.autotuninglevel");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, ETIMEDOUT);
	assert_non_null(strstr(k->note, "E_INVALIDARG (Windows error 87) "
	    "0x80070057"));
	assert_non_null(strstr(k->note, "; netsh interface tcp set global "
	    "autotuninglevel=normal did not finish within 30 s and was "
	    "ended"));
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
}

/* netsh says Ok but the value did not change: the read-back catches it. */
static void
test_netsh_read_back(void **arg)
{
	struct fixture	*f = *arg;
	char		 why[256];

	fake_cim_client_edition(f->fc, CIM_E_INVALID_PARAMETER);
	fake_cim_netsh(f->fc, FAKE_NETSH_IGNORES, 0, "");
	assert_int_equal(f->be->set(f->be, "tcp.autotuninglevel", "normal"),
	    EIO);
	assert_int_equal(f->be->explain(f->be, "tcp.autotuninglevel", why,
	    sizeof(why)), 0);
	assert_non_null(strstr(why, "exited 0 (Ok.) but tcp.autotuninglevel "
	    "still reads disabled"));
	fake_cim_netsh(f->fc, FAKE_NETSH_CANNOT_RUN, 0, "");
	assert_int_equal(f->be->set(f->be, "tcp.autotuninglevel", "normal"),
	    ENOENT);
	assert_int_equal(f->be->explain(f->be, "tcp.autotuninglevel", why,
	    sizeof(why)), 0);
	assert_non_null(strstr(why, "netsh.exe could not be run"));
}

static void
test_rss_netsh_fallback(void **arg)
{
	struct fixture	*f = *arg;

	fake_cim_fail_update(f->fc, "MSFT_NetOffloadGlobalSetting",
	    CIM_E_INVALID_PARAMETER);
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "offload.rss")->state, KS_IN_FORCE);
	assert_int_equal(fake_cim_rss(f->fc), 1);
	assert_string_equal(fake_cim_netsh_args(f->fc),
	    "interface tcp set global rss=enabled");
	assert_non_null(strstr(key(f, "offload.rss")->note, "applied with "
	    "netsh interface tcp set global rss=enabled"));
}

static void
test_scaling_heuristics_reported(void **arg)
{
	struct fixture	*f = *arg;

	assert_string_equal(read_key(f, "tcp.scalingheuristics"), "disabled");
	fake_cim_poke_heuristics(f->fc, 1);
	assert_string_equal(read_key(f, "tcp.scalingheuristics"), "enabled");
	assert_int_equal(f->be->set(f->be, "tcp.scalingheuristics",
	    "disabled"), EROFS);
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->state, KS_IN_FORCE);
	assert_non_null(strstr(key(f, "tcp.autotuninglevel")->note,
	    "Windows Scaling heuristics are enabled (InternetCustom)"));
}

/* The QoS policy value: read by its path, named where it rules. */
static void
test_qos_policy_named(void **arg)
{
	struct fixture	*f = *arg;

	assert_string_equal(read_key(f, "qos.tcpautotuninglevel"),
	    "notconfigured");
	assert_int_equal(f->be->set(f->be, "qos.tcpautotuninglevel", "off"),
	    EROFS);
	fake_cim_qos_policy(f->fc, "Highly Restricted");
	fake_cim_group_policy(f->fc, 1);
	/* as tools write it, spaces and all: one word */
	assert_string_equal(read_key(f, "qos.tcpautotuninglevel"),
	    "highlyrestricted");
	engine_configure(&f->e, parse(windows_conf));
	assert_int_equal(key(f, "tcp.autotuninglevel")->err, EPERM);
	assert_non_null(strstr(key(f, "tcp.autotuninglevel")->note,
	    "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\QoS "
	    "\"Tcp Autotuning Level\" = \"Highly Restricted\""));
	assert_int_equal(fake_cim_netsh_calls(f->fc), 0);
	fake_cim_qos_policy(f->fc, "Off");
	assert_string_equal(read_key(f, "qos.tcpautotuninglevel"), "off");
	fake_cim_qos_policy(f->fc, "HIGHLY_RESTRICTED");
	assert_string_equal(read_key(f, "qos.tcpautotuninglevel"),
	    "highlyrestricted");
}

static void
test_bad_values_and_keys(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>tcp.autotuninglevel</key><string>Normal</string>\n"
	    "<key>offload.rss</key><string>on</string>\n"
	    "<key>net.inet.tcp.sendspace</key><integer>65536</integer>\n"
	    "</dict></dict></plist>\n"));
	assert_int_equal(key(f, "tcp.autotuninglevel")->err, EINVAL);
	assert_non_null(strstr(key(f, "tcp.autotuninglevel")->note,
	    "not a level"));
	assert_int_equal(key(f, "offload.rss")->err, EINVAL);
	assert_string_equal(key(f, "offload.rss")->note,
	    "not a value: enabled or disabled");
	assert_int_equal(key(f, "net.inet.tcp.sendspace")->err, ENOENT);
	/* the list of keys is lib/catalogue.c's win_keys[], word for word */
	assert_string_equal(key(f, "net.inet.tcp.sendspace")->note,
	    "not a Windows key: tcp.autotuninglevel, offload.rss and, "
	    "read-only, tcp.congestionprovider.<template>, tcp.timestamps, "
	    "tcp.scalingheuristics, qos.tcpautotuninglevel and offload.rsc "
	    "are (tcptune.conf(5))");
	assert_int_equal(fake_cim_level(f->fc, "Internet"), 0);
}

#define T(fn)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_apply_sets_every_template_and_rss),
		T(test_drift_reverted),
		T(test_group_policy_refused_not_fought),
		T(test_group_policy_agreeing),
		T(test_missing_class_others_apply),
		T(test_no_namespace_every_key_reported),
		T(test_access_denied),
		T(test_restore_puts_originals_back),
		T(test_originals_survive_restart),
		T(test_congestion_provider_read_only),
		T(test_timestamps_and_rsc_read_only),
		T(test_bad_values_and_keys),
		T(test_automatic_never_written),
		T(test_client_edition_netsh_fallback),
		T(test_every_refusal_form_falls_back),
		T(test_netsh_fails_too),
		T(test_netsh_hangs),
		T(test_netsh_read_back),
		T(test_rss_netsh_fallback),
		T(test_scaling_heuristics_reported),
		T(test_qos_policy_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
