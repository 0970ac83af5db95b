/*
 * The engine against the fake kernel with xnu's rules: order, the
 * maxsockbuf cap, clamp, at-least, once, restore order, originals kept
 * across restarts, and the back-off from a contested key.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <syslog.h>
#include <cmocka.h>

#include "tcptuned.h"
#include "engine_fixture.h"
#include "fake_kernel.h"
#include "fake_open.h"

static const char *darwin_conf =
    "<plist version=\"1.0\"><dict>\n"
    "<key>CheckInterval</key><integer>10</integer>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>net.inet.tcp.sendspace</key><integer>262144</integer>\n"
    "<key>net.inet.tcp.recvspace</key><integer>262144</integer>\n"
    "<key>net.inet.tcp.autorcvbufmax</key><integer>33554432</integer>\n"
    "<key>kern.ipc.maxsockbuf</key><integer>16777216</integer>\n"
    "</dict></dict></plist>\n";

/* The start of a config: maxsockbuf 16 MiB with OnReject clamp. */
#define CLAMPED_MAXSOCKBUF_16M						\
	"<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"	\
	"<key>kern.ipc.maxsockbuf</key><dict>"				\
	"<key>Value</key><integer>16777216</integer>"			\
	"<key>OnReject</key><string>clamp</string></dict>\n"

/* A fixture over the kernel fk, which it then owns; NULL: no fake. */
static int
setup_kernel(void **arg, struct fake_kernel *fk)
{
	struct fixture	*f;

	f = fixture_new("tt-engine", fk ? fake_backend_new(fk) : NULL);
	f->fk = fk;
	*arg = f;
	return 0;
}

static int
setup_macos(void **arg, unsigned ram_gb)
{
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_XNU);

	fake_kernel_stock_macos(fk, ram_gb);
	return setup_kernel(arg, fk);
}

static int
setup_mac16(void **arg)
{
	return setup_macos(arg, 16);
}

static int
setup_mac8(void **arg)
{
	return setup_macos(arg, 8);
}

static int
teardown(void **arg)
{
	struct fixture		*f = *arg;
	struct fake_kernel	*fk = f->fk;

	fake_open_freebsd = false;	/* a failed test may leave it set */
	fixture_free(f);
	fake_kernel_free(fk);
	return 0;
}

/* maxsockbuf must be raised before send/recvspace or they get ERANGE. */
static void
test_applies_in_dependency_order(void **arg)
{
	struct fixture	*f = *arg;

	assert_int_equal(engine_configure(&f->e, parse(darwin_conf)), 0);
	assert_int_equal(fake_kernel_nwrites(f->fk), 4);
	assert_string_equal(fake_kernel_write(f->fk, 0),
	    "kern.ipc.maxsockbuf=16777216");
	assert_string_equal(fake_kernel_peek(f->fk, "net.inet.tcp.sendspace"),
	    "262144");
	assert_int_equal(key(f, "net.inet.tcp.recvspace")->state, KS_IN_FORCE);
	assert_true(engine_all_in_force(&f->e));
}

static void
test_originals_captured_before_write(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	assert_string_equal(originals_get(&f->st, "kern.ipc.maxsockbuf"),
	    "8388608");
	assert_string_equal(originals_get(&f->st,
	    "net.inet.tcp.autorcvbufmax"), "4194304");
}

/* A restart, even after kill -9, must not take tuned values as originals. */
static void
test_restart_keeps_true_originals(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	stop(f);		/* as if killed: nothing restored */
	start(f);
	engine_configure(&f->e, parse(darwin_conf));
	assert_string_equal(originals_get(&f->st, "kern.ipc.maxsockbuf"),
	    "8388608");
	assert_string_equal(originals_get(&f->st, "net.inet.tcp.sendspace"),
	    "131072");
}

/* Restore goes in reverse: sendspace down before maxsockbuf. */
static void
test_restore_reverse_order(void **arg)
{
	struct fixture	*f = *arg;
	size_t		 n;

	engine_configure(&f->e, parse(darwin_conf));
	fake_kernel_clear_writes(f->fk);
	assert_int_equal(engine_restore(&f->e, true), 0);
	n = fake_kernel_nwrites(f->fk);
	assert_int_equal(n, 4);
	assert_string_equal(fake_kernel_write(f->fk, n - 1),
	    "kern.ipc.maxsockbuf=8388608");
	assert_string_equal(fake_kernel_peek(f->fk, "net.inet.tcp.sendspace"),
	    "131072");
	assert_true(f->st.paused);
	assert_int_equal(key(f, "kern.ipc.maxsockbuf")->state, KS_PAUSED);
}

static void
test_paused_not_enforced_and_survives_restart(void **arg)
{
	struct fixture	*f = *arg;

	struct pause_origin	po = { 1700000000, 0, 812,
				    "tcptunectl restore" };

	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(originals_record_pause(&f->st, &po), 0);
	engine_restore(&f->e, true);
	fake_kernel_clear_writes(f->fk);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(fake_kernel_nwrites(f->fk), 0);
	stop(f);
	start(f);
	assert_true(f->st.paused);
	/* who paused and when survive the restart with the pause */
	assert_int_equal(f->st.pause_by.since, 1700000000);
	assert_int_equal(f->st.pause_by.pid, 812);
	assert_string_equal(f->st.pause_by.command, "tcptunectl restore");
	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(fake_kernel_nwrites(f->fk), 0);
	assert_false(engine_all_in_force(&f->e));
	assert_int_equal(engine_resume(&f->e), 0);
	assert_true(engine_all_in_force(&f->e));
	assert_false(f->st.paused);
}

/*
 * A pause saved without its record (an uninstall removed it, issue 40)
 * is not believed at the next start: the daemon enforces, and knows to
 * say why.
 */
static void
test_pause_without_record_dropped(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	engine_restore(&f->e, true);
	stop(f);
	start(f);
	assert_false(f->st.paused);
	assert_true(f->st.pause_dropped);
	engine_configure(&f->e, parse(darwin_conf));
	assert_int_not_equal(fake_kernel_nwrites(f->fk), 0);
}

/* 8 GB Mac: maxsockbuf cannot pass 8 MiB; fail reports ERANGE. */
static void
test_maxsockbuf_refused_on_8gb(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;

	assert_int_equal(engine_configure(&f->e, parse(darwin_conf)), -1);
	k = key(f, "kern.ipc.maxsockbuf");
	assert_int_equal(k->state, KS_REFUSED);
	assert_int_equal(k->err, ERANGE);
	/* the others still went in, as far as the kernel allows */
	assert_int_equal(key(f, "net.inet.tcp.sendspace")->state, KS_IN_FORCE);
	assert_string_equal(fake_kernel_peek(f->fk, "kern.ipc.maxsockbuf"),
	    "8388608");
}

/* With clamp, the highest accepted value is found and said. */
static void
test_maxsockbuf_clamped_on_8gb(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;
	const char *conf =
	    CLAMPED_MAXSOCKBUF_16M
	    "<key>net.inet.tcp.autorcvbufmax</key><integer>33554432</integer>\n"
	    "</dict></dict></plist>\n";

	engine_configure(&f->e, parse(conf));
	k = key(f, "kern.ipc.maxsockbuf");
	assert_int_equal(k->state, KS_CLAMPED);
	assert_string_equal(k->applied, "8388608");
	assert_string_equal(fake_kernel_peek(f->fk, "kern.ipc.maxsockbuf"),
	    "8388608");
	assert_non_null(strstr(k->note, "clamped to 8388608"));
	/* autorcvbufmax goes in, but its effective ceiling is reported */
	k = key(f, "net.inet.tcp.autorcvbufmax");
	assert_int_equal(k->state, KS_IN_FORCE);
	assert_non_null(strstr(k->note, "effective ceiling 8388608"));
	/* a clamped key is enforced at its clamped value */
	fake_kernel_poke(f->fk, "kern.ipc.maxsockbuf", "1048576");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(fake_kernel_peek(f->fk, "kern.ipc.maxsockbuf"),
	    "8388608");
}

/* A ceiling known beforehand, as the bsd backend computes on macOS. */
static int
known_ceiling(struct sysctl_backend *be, const char *name, long long *max,
    char *why, size_t whylen)
{
	(void)be;
	if (strcmp(name, "kern.ipc.maxsockbuf") != 0)
		return ENOENT;
	*max = 8388608;
	snprintf(why, whylen, "capped by kern.ipc.nmbclusters");
	return 0;
}

/* With a known ceiling the engine writes it at once and says why. */
static void
test_clamp_to_known_ceiling(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;
	const char *conf =
	    CLAMPED_MAXSOCKBUF_16M
	    "</dict></dict></plist>\n";

	f->be->ceiling = known_ceiling;
	fake_kernel_poke(f->fk, "kern.ipc.maxsockbuf", "4194304");
	engine_configure(&f->e, parse(conf));
	k = key(f, "kern.ipc.maxsockbuf");
	assert_int_equal(k->state, KS_CLAMPED);
	assert_string_equal(k->applied, "8388608");
	assert_non_null(strstr(k->note, "capped by kern.ipc.nmbclusters"));
	/* the refused try, then the ceiling: no search */
	assert_int_equal(fake_kernel_nwrites(f->fk), 1);
	assert_string_equal(fake_kernel_write(f->fk, 0),
	    "kern.ipc.maxsockbuf=8388608");
}

static void
test_drift_reverted_and_counted(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "4194304");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "33554432");
	assert_int_equal(key(f, "net.inet.tcp.autorcvbufmax")->corrections, 1);
	assert_int_equal(f->e.checks, 1);
}

/* Status between checks shows drift at once, and writes nothing. */
static void
test_refresh_shows_drift_without_writing(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	fake_kernel_clear_writes(f->fk);
	fake_kernel_poke(f->fk, "net.inet.tcp.recvspace", "65536");
	engine_refresh(&f->e);
	assert_int_equal(key(f, "net.inet.tcp.recvspace")->state, KS_DRIFTED);
	assert_string_equal(key(f, "net.inet.tcp.recvspace")->current, "65536");
	assert_false(engine_all_in_force(&f->e));
	assert_int_equal(fake_kernel_nwrites(f->fk), 0);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.inet.tcp.recvspace")->state, KS_IN_FORCE);
	assert_int_equal(fake_kernel_nwrites(f->fk), 1);
}

static void
test_at_least_and_once(void **arg)
{
	struct fixture	*f = *arg;
	const char *conf =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>net.inet.tcp.autorcvbufmax</key><dict>"
	    "<key>Value</key><integer>8388608</integer>"
	    "<key>Mode</key><string>at-least</string></dict>\n"
	    "<key>net.inet.tcp.autosndbufinc</key><dict>"
	    "<key>Value</key><integer>65536</integer>"
	    "<key>Mode</key><string>once</string></dict>\n"
	    "</dict></dict></plist>\n";

	engine_configure(&f->e, parse(conf));
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "8388608");
	/* higher: kept */
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "16777216");
	/* once: drift left alone, reported */
	fake_kernel_poke(f->fk, "net.inet.tcp.autosndbufinc", "8192");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "16777216");
	assert_int_equal(key(f, "net.inet.tcp.autorcvbufmax")->state,
	    KS_IN_FORCE);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autosndbufinc"), "8192");
	assert_int_equal(key(f, "net.inet.tcp.autosndbufinc")->state,
	    KS_DRIFTED);
	/* lower: raised */
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "1024");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "8388608");
}

/* A config of one key at value, Mode at-least. */
static const char *
at_least_conf(const char *name, const char *value)
{
	static char	conf[512];

	snprintf(conf, sizeof(conf),
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>%s</key><dict>"
	    "<key>Value</key><integer>%s</integer>"
	    "<key>Mode</key><string>at-least</string></dict>\n"
	    "</dict></dict></plist>\n", name, value);
	return conf;
}

/*
 * at-least never lowers what someone else set higher: at the first apply
 * (the admin's sysctl.d value when the package starts tcptuned), and
 * after a reload; but a ceiling its admin lowers in the config takes
 * effect where the value is still tcptuned's own, measured from the
 * original (autorcvbufmax is 4 MiB on the stock kernel).
 */
static void
test_at_least_lowers_only_its_own(void **arg)
{
	struct fixture	*f = *arg;
	const char	*name = "net.inet.tcp.autorcvbufmax";
	const char	*other = "net.inet.tcp.autosndbufmax";

	fake_kernel_poke(f->fk, other, "33554432");	/* set by an admin */
	engine_configure(&f->e, parse(at_least_conf(other, "16777216")));
	assert_string_equal(fake_kernel_peek(f->fk, other), "33554432");
	assert_int_equal(key(f, other)->state, KS_IN_FORCE);

	engine_configure(&f->e, parse(at_least_conf(name, "16777216")));
	assert_string_equal(fake_kernel_peek(f->fk, name), "16777216");
	fake_kernel_poke(f->fk, name, "33554432");	/* an admin, later */
	engine_configure(&f->e, parse(at_least_conf(name, "8388608")));
	assert_string_equal(fake_kernel_peek(f->fk, name), "33554432");

	fake_kernel_poke(f->fk, name, "1024");
	fake_now += 10;
	engine_check(&f->e);		/* raised: tcptuned's own from here */
	assert_string_equal(fake_kernel_peek(f->fk, name), "8388608");
	engine_configure(&f->e, parse(at_least_conf(name, "16777216")));
	assert_string_equal(fake_kernel_peek(f->fk, name), "16777216");
	engine_configure(&f->e, parse(at_least_conf(name, "6291456")));
	assert_string_equal(fake_kernel_peek(f->fk, name), "6291456");
	assert_int_equal(key(f, name)->state, KS_IN_FORCE);
}

/* Mode enforce over a higher value someone set: said, with the value. */
static void
test_enforce_lowering_is_said(void **arg)
{
	struct fixture	*f = *arg;
	const char	*name = "net.inet.tcp.autorcvbufmax";
	const char *conf =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>net.inet.tcp.autorcvbufmax</key><integer>8388608</integer>\n"
	    "</dict></dict></plist>\n";

	fake_kernel_poke(f->fk, name, "33554432");
	engine_configure(&f->e, parse(conf));
	assert_string_equal(fake_kernel_peek(f->fk, name), "8388608");
	assert_non_null(strstr(key(f, name)->note,
	    "lowered from 33554432 by Mode enforce"));
	/* its own value again at a reload: nothing to say */
	engine_configure(&f->e, parse(conf));
	assert_string_equal(key(f, name)->note, "");
}

/* A key changed back again and again is backed off, exponentially. */
static void
test_contested_backoff(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;
	int		 i, writes = 0;

	engine_configure(&f->e, parse(darwin_conf));
	for (i = 0; i < 3; i++) {
		fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "1");
		fake_now += 10;
		engine_check(&f->e);
	}
	k = key(f, "net.inet.tcp.autorcvbufmax");
	assert_int_equal(k->corrections, 3);
	assert_int_equal(k->backoff, 1);
	/* next attempt 20 s later: the checks before it do not write */
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "1");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(k->state, KS_CONTESTED);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "1");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(k->corrections, 4);
	assert_int_equal(k->backoff, 2);
	/* keep fighting for an hour: far fewer writes than checks */
	fake_kernel_clear_writes(f->fk);
	for (i = 0; i < 360; i++) {
		fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "1");
		fake_now += 10;
		engine_check(&f->e);
	}
	writes = (int)fake_kernel_nwrites(f->fk);
	assert_true(writes < 12);
	assert_true(writes >= 2);
	/* left alone for the window: no longer contested */
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "33554432");
	fake_now += CONTEST_WINDOW + CONTEST_BACKOFF_MAX;
	engine_check(&f->e);
	assert_int_equal(k->backoff, 0);
	assert_int_equal(k->state, KS_IN_FORCE);
}

/* Kernel refusals are per key: the rest still goes in. */
static void
test_refusals_per_key(void **arg)
{
	struct fixture	*f = *arg;
	const char *conf =
	    "<plist version=\"1.0\"><dict><key>AllowAnySysctl</key><true/>"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.inet.tcp.nosuchkey</key><integer>1</integer>\n"
	    "<key>kern.ostype</key><string>Linux</string>\n"
	    "<key>net.inet.tcp.autosndbufmax</key><integer>2147483648</integer>\n"
	    "<key>net.inet.tcp.autosndbufinc</key><integer>65536</integer>\n"
	    "<key>net.inet.tcp.autorcvbufmax</key><integer>8388608</integer>\n"
	    "</dict></dict></plist>\n";

	fake_kernel_fail_set(f->fk, "net.inet.tcp.autosndbufinc", EIO);
	assert_int_equal(engine_configure(&f->e, parse(conf)), -1);
	assert_int_equal(key(f, "net.inet.tcp.nosuchkey")->err, ENOENT);
	assert_int_equal(key(f, "kern.ostype")->err, EPERM);
	assert_int_equal(key(f, "net.inet.tcp.autosndbufmax")->err, ERANGE);
	assert_int_equal(key(f, "net.inet.tcp.autosndbufinc")->err, EIO);
	assert_int_equal(key(f, "net.inet.tcp.autorcvbufmax")->state,
	    KS_IN_FORCE);
	/* the obstacle goes away: the next check brings the key in */
	fake_kernel_fail_set(f->fk, "net.inet.tcp.autosndbufinc", 0);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.inet.tcp.autosndbufinc")->state,
	    KS_IN_FORCE);
	/* restore still works for the keys that were written */
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "4194304");
}

/* A kernel that stores something else is not believed. */
static void
test_readback_mismatch(void **arg)
{
	struct fixture	*f = *arg;

	fake_kernel_store_instead(f->fk, "net.inet.tcp.autorcvbufmax",
	    "1048576");
	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(key(f, "net.inet.tcp.autorcvbufmax")->state,
	    KS_REFUSED);
}

static void
test_read_failure_reported(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	fake_kernel_fail_get(f->fk, "net.inet.tcp.recvspace", EIO);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.inet.tcp.recvspace")->state, KS_REFUSED);
	assert_int_equal(key(f, "net.inet.tcp.recvspace")->err, EIO);
	assert_int_equal(key(f, "kern.ipc.maxsockbuf")->state, KS_IN_FORCE);
}

/* Reload: dropped keys get their originals back and are forgotten. */
static void
test_reload_restores_dropped(void **arg)
{
	struct fixture	*f = *arg;
	const char *smaller =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>16777216</integer>\n"
	    "</dict></dict></plist>\n";

	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(engine_configure(&f->e, parse(smaller)), 0);
	assert_string_equal(fake_kernel_peek(f->fk, "net.inet.tcp.sendspace"),
	    "131072");
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.inet.tcp.autorcvbufmax"), "4194304");
	assert_null(originals_get(&f->st, "net.inet.tcp.sendspace"));
	assert_non_null(originals_get(&f->st, "kern.ipc.maxsockbuf"));
	assert_int_equal(f->e.nkeys, 1);
}

/* Keys on record from an earlier run but no longer configured. */
static void
test_start_restores_keys_left_from_before(void **arg)
{
	struct fixture	*f = *arg;
	const char *only_max =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>16777216</integer>\n"
	    "</dict></dict></plist>\n";

	engine_configure(&f->e, parse(darwin_conf));
	stop(f);
	start(f);
	engine_configure(&f->e, parse(only_max));
	assert_string_equal(fake_kernel_peek(f->fk, "net.inet.tcp.recvspace"),
	    "131072");
	assert_string_equal(fake_kernel_peek(f->fk, "kern.ipc.maxsockbuf"),
	    "16777216");
}

/*
 * An original on record outside the managed sysctls (kern.corefile here)
 * is not written back while no config allows any sysctl, and stays on
 * record; once a config allows it, it is restored and forgotten.
 */
static void
test_unmanaged_original_not_restored(void **arg)
{
	struct fixture	*f = *arg;
	const char *only_max =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>16777216</integer>\n"
	    "</dict></dict></plist>\n";
	const char *allowing =
	    "<plist version=\"1.0\"><dict><key>AllowAnySysctl</key><true/>"
	    "<key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>16777216</integer>\n"
	    "</dict></dict></plist>\n";

	assert_int_equal(fake_kernel_add(f->fk, "kern.corefile", FK_STRING,
	    "/cores/core.%P", true), 0);
	assert_int_equal(originals_set(&f->st, "kern.corefile",
	    "|/tmp/evil"), 0);
	engine_configure(&f->e, parse(only_max));
	assert_string_equal(fake_kernel_peek(f->fk, "kern.corefile"),
	    "/cores/core.%P");
	assert_non_null(originals_get(&f->st, "kern.corefile"));
	engine_configure(&f->e, parse(allowing));
	assert_string_equal(fake_kernel_peek(f->fk, "kern.corefile"),
	    "|/tmp/evil");
	assert_null(originals_get(&f->st, "kern.corefile"));
}

/* RestoreOnExit: originals back and forgotten, to be taken afresh. */
static void
test_restore_on_exit_forgets(void **arg)
{
	struct fixture	*f = *arg;

	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(engine_restore(&f->e, false), 0);
	assert_false(f->st.paused);
	assert_int_equal(f->st.n, 0);
	assert_string_equal(fake_kernel_peek(f->fk, "kern.ipc.maxsockbuf"),
	    "8388608");
}

static void
test_status_message(void **arg)
{
	struct fixture		*f = *arg;
	struct msg_key_status	 ks;

	engine_configure(&f->e, parse(darwin_conf));
	engine_key_status(&f->e, key(f, "kern.ipc.maxsockbuf"), &ks);
	assert_string_equal(ks.name, "kern.ipc.maxsockbuf");
	assert_string_equal(ks.wanted, "16777216");
	assert_string_equal(ks.current, "16777216");
	assert_string_equal(ks.original, "8388608");
	assert_int_equal(ks.has_original, 1);
	assert_int_equal(ks.state, KS_IN_FORCE);
}

/* Linux: vectors compare with white space folded; clamp the last value. */
static void
test_linux_vectors_and_clamp_by_search(void **arg)
{
	struct fixture	*f = *arg;
	const char *conf =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><dict>"
	    "<key>Value</key><integer>99999999</integer>"
	    "<key>OnReject</key><string>clamp</string></dict>\n"
	    "</dict></dict></plist>\n";
	const struct engine_key *k;

	/* no ceiling hook in the fake backend: the engine must search */
	engine_configure(&f->e, parse(conf));
	k = key(f, "kern.ipc.maxsockbuf");
	assert_int_equal(k->state, KS_CLAMPED);
	assert_string_equal(k->applied, "16777216");
	assert_true(value_equal("4096\t131072  6291456", "4096 131072 6291456"));
}

/*
 * A value of more than 16 numbers (values may hold TT_VALUE_MAX_WORDS) is
 * clamped like any other: only its last number is lowered.
 */
static void
test_clamp_long_vector(void **arg)
{
	struct fixture	*f = *arg;
	char		 conf[2048], want[TT_VALUE_MAX], cur[TT_VALUE_MAX];
	const struct engine_key *k;
	int		 i;

	want[0] = cur[0] = '\0';
	for (i = 0; i < 19; i++) {
		strcat(want, "1 ");
		strcat(cur, "1 ");
	}
	strcat(want, "99999999");
	strcat(cur, "5");
	assert_int_equal(fake_kernel_add(f->fk, "net.test.vec", FK_STRING, cur,
	    true), 0);
	fake_kernel_fail_set_n(f->fk, "net.test.vec", ERANGE, 1);
	snprintf(conf, sizeof(conf), "<plist version=\"1.0\"><dict><key>"
	    "Sysctls</key><dict><key>net.test.vec</key><dict><key>Value</key>"
	    "<string>%s</string><key>OnReject</key><string>clamp</string>"
	    "</dict></dict></dict></plist>\n", want);
	engine_configure(&f->e, parse(conf));
	k = key(f, "net.test.vec");
	/* the wanted value refused once, then the search finds a ceiling */
	assert_int_equal(k->state, KS_CLAMPED);
	assert_int_equal(k->err, ERANGE);
	assert_non_null(strstr(k->note, "clamped to "));
	assert_int_equal(strncmp(k->applied, want, 38), 0);
}

/*
 * Linux as seen in a namespace, with every refusal a kernel gives at the
 * same time: one key each for ENOENT, EACCES, EPERM, ERANGE, EINVAL and
 * EIO (and EIO on read), beside three healthy keys.
 */
static int
setup_linux_mix(void **arg)
{
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_NONE);

	fake_kernel_stock_linux(fk, "6.11.0");	/* net.core read only */
	fake_kernel_add(fk, "net.ipv4.tcp_limit_output_bytes", FK_INT,
	    "1048576", true);
	fake_kernel_add(fk, "net.ipv4.tcp_notsent_lowat", FK_UINT,
	    "4294967295", true);
	fake_kernel_add(fk, "net.ipv4.tcp_adv_win_scale", FK_INT, "1", true);
	fake_kernel_add(fk, "net.ipv4.tcp_mem", FK_STRING,
	    "94011 125351 188022", true);
	fake_kernel_fail_set(fk, "net.core.wmem_max", EPERM);
	fake_kernel_fail_set(fk, "net.ipv4.tcp_adv_win_scale", EIO);
	fake_kernel_fail_get(fk, "net.ipv4.tcp_mem", EIO);
	return setup_kernel(arg, fk);
}

#define HEALTHY_RMEM	"4096 131072 67108864"
#define HEALTHY_WMEM	"4096 16384 67108864"

static const char *linux_mix_conf =
    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
    "<key>net.ipv4.tcp_rmem</key><string>" HEALTHY_RMEM "</string>\n"
    "<key>net.ipv4.tcp_wmem</key><dict><key>Value</key><string>"
    HEALTHY_WMEM "</string><key>Mode</key><string>at-least</string>"
    "</dict>\n"
    "<key>net.ipv4.tcp_congestion_control</key><string>reno</string>\n"
    "<key>net.ipv4.tcp_nosuch</key><integer>1</integer>\n"
    "<key>net.core.rmem_max</key><integer>67108864</integer>\n"
    "<key>net.core.wmem_max</key><integer>67108864</integer>\n"
    "<key>net.ipv4.tcp_limit_output_bytes</key>"
    "<integer>4294967296</integer>\n"
    "<key>net.ipv4.tcp_notsent_lowat</key><string>fast</string>\n"
    "<key>net.ipv4.tcp_adv_win_scale</key><integer>2</integer>\n"
    "<key>net.ipv4.tcp_mem</key><string>1 2 3</string>\n"
    "</dict></dict></plist>\n";

/* The keys that fail, the errno each gets, and the value they keep. */
static const struct {
	const char	*name;
	int		 err;
	const char	*value;		/* NULL: no such key */
} mix_failing[] = {
	{ "net.ipv4.tcp_nosuch",		ENOENT,	NULL },
	{ "net.core.rmem_max",			EACCES,	"212992" },
	{ "net.core.wmem_max",			EPERM,	"212992" },
	{ "net.ipv4.tcp_limit_output_bytes",	ERANGE,	"1048576" },
	{ "net.ipv4.tcp_notsent_lowat",		EINVAL,	"4294967295" },
	{ "net.ipv4.tcp_adv_win_scale",		EIO,	"1" },
	{ "net.ipv4.tcp_mem",			EIO,	"94011 125351 188022" },
};
#define NFAILING	(sizeof(mix_failing) / sizeof(mix_failing[0]))

static bool
healthy_in_force(struct fixture *f)
{
	return key(f, "net.ipv4.tcp_rmem")->state == KS_IN_FORCE &&
	    key(f, "net.ipv4.tcp_wmem")->state == KS_IN_FORCE &&
	    key(f, "net.ipv4.tcp_congestion_control")->state == KS_IN_FORCE &&
	    value_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    HEALTHY_RMEM) &&
	    value_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    HEALTHY_WMEM) &&
	    strcmp(fake_kernel_peek(f->fk, "net.ipv4.tcp_congestion_control"),
	    "reno") == 0;
}

/* Every failing key refused with its own errno, shown so in its status. */
static void
assert_failing_reported(struct fixture *f, size_t from)
{
	struct msg_key_status	ks;
	size_t			i;

	for (i = from; i < NFAILING; i++) {
		const char *v = fake_kernel_peek(f->fk, mix_failing[i].name);

		engine_key_status(&f->e, key(f, mix_failing[i].name), &ks);
		if (ks.state != KS_REFUSED || ks.err != mix_failing[i].err)
			fail_msg("%s: state %s err %d, expected refused %s",
			    mix_failing[i].name, key_state_name(ks.state),
			    ks.err, errno_name(mix_failing[i].err));
		/* never written: the kernel still has its own value */
		if (mix_failing[i].value == NULL)
			assert_null(v);
		else
			assert_string_equal(v, mix_failing[i].value);
	}
}

/* No write ever reached a key outside the allowed list. */
static void
assert_writes_only_to(struct fixture *f, const char *const *names)
{
	size_t	i, j, n;

	for (i = 0; i < fake_kernel_nwrites(f->fk); i++) {
		const char *w = fake_kernel_write(f->fk, i);

		for (j = 0; names[j] != NULL; j++) {
			n = strlen(names[j]);
			if (strncmp(w, names[j], n) == 0 && w[n] == '=')
				break;
		}
		if (names[j] == NULL)
			fail_msg("unexpected write %s", w);
	}
}

static const char *const healthy_names[] = {
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem",
	"net.ipv4.tcp_congestion_control", NULL
};

/*
 * All refusals at once: the healthy keys still go in, stay enforced
 * through drift, and the refused ones keep their own errno every check.
 */
static void
test_error_mix_healthy_keys_enforced(void **arg)
{
	struct fixture	*f = *arg;
	int		 i;

	assert_int_equal(engine_configure(&f->e, parse(linux_mix_conf)), -1);
	assert_true(healthy_in_force(f));
	assert_failing_reported(f, 0);
	assert_false(engine_all_in_force(&f->e));
	for (i = 0; i < 3; i++) {
		fake_kernel_poke(f->fk, "net.ipv4.tcp_rmem", "4096 87380 6291456");
		fake_kernel_poke(f->fk, "net.ipv4.tcp_wmem", "4096 16384 4194304");
		fake_kernel_poke(f->fk, "net.ipv4.tcp_congestion_control",
		    "cubic");
		fake_now += 10;
		engine_check(&f->e);
		assert_true(healthy_in_force(f));
		assert_failing_reported(f, 0);
	}
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->corrections, 3);
	assert_int_equal(key(f, "net.ipv4.tcp_wmem")->corrections, 3);
	assert_writes_only_to(f, healthy_names);
	/* at-least: a bigger value set by someone else is kept */
	fake_kernel_poke(f->fk, "net.ipv4.tcp_wmem", "8192 65536 134217728");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    "8192 65536 134217728");
}

/*
 * The EIO faults go away: the next check brings those keys in (the one
 * that could not be read gets its original taken first), the others stay
 * refused.  Restore then puts back every key that was changed and writes
 * nothing to the refused or unknown ones.
 */
static void
test_error_mix_recovery_and_restore(void **arg)
{
	struct fixture	*f = *arg;
	static const char *const restored[] = {
		"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem",
		"net.ipv4.tcp_congestion_control", "net.ipv4.tcp_adv_win_scale",
		"net.ipv4.tcp_mem", NULL
	};
	size_t		 i;

	engine_configure(&f->e, parse(linux_mix_conf));
	assert_null(originals_get(&f->st, "net.ipv4.tcp_mem"));
	assert_null(originals_get(&f->st, "net.ipv4.tcp_nosuch"));
	fake_kernel_fail_set(f->fk, "net.ipv4.tcp_adv_win_scale", 0);
	fake_kernel_fail_get(f->fk, "net.ipv4.tcp_mem", 0);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_adv_win_scale")->state,
	    KS_IN_FORCE);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.ipv4.tcp_adv_win_scale"), "2");
	assert_int_equal(key(f, "net.ipv4.tcp_mem")->state, KS_IN_FORCE);
	assert_string_equal(originals_get(&f->st, "net.ipv4.tcp_mem"),
	    "94011 125351 188022");
	assert_true(healthy_in_force(f));
	for (i = 0; i < NFAILING - 2; i++)
		assert_int_equal(key(f, mix_failing[i].name)->err,
		    mix_failing[i].err);
	assert_failing_reported(f, NFAILING);	/* none left: no-op */

	fake_kernel_clear_writes(f->fk);
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    "4096 131072 6291456");
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    "4096 16384 4194304");
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.ipv4.tcp_congestion_control"), "cubic");
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.ipv4.tcp_adv_win_scale"), "1");
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_mem"),
	    "94011 125351 188022");
	assert_int_equal(fake_kernel_nwrites(f->fk), 5);
	assert_writes_only_to(f, restored);
	for (i = 0; i < NFAILING - 2; i++)
		if (mix_failing[i].value != NULL)
			assert_string_equal(fake_kernel_peek(f->fk,
			    mix_failing[i].name), mix_failing[i].value);
	assert_null(fake_kernel_peek(f->fk, "net.ipv4.tcp_nosuch"));
}

static const char *healthy_conf =
    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
    "<key>net.ipv4.tcp_rmem</key><string>" HEALTHY_RMEM "</string>\n"
    "<key>net.ipv4.tcp_wmem</key><string>" HEALTHY_WMEM "</string>\n"
    "<key>net.ipv4.tcp_congestion_control</key><string>reno</string>\n"
    "</dict></dict></plist>\n";

/*
 * Faults that last a few accesses, as a busy kernel gives: a failed read
 * or write is reported with its errno, then the key comes back by itself
 * on a later check.
 */
static void
test_transient_faults_recover(void **arg)
{
	struct fixture	*f = *arg;

	assert_int_equal(engine_configure(&f->e, parse(healthy_conf)), 0);
	/* one failed read: refused for one check, then in force again */
	fake_kernel_fail_get_n(f->fk, "net.ipv4.tcp_rmem", EIO, 1);
	fake_kernel_clear_writes(f->fk);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_REFUSED);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->err, EIO);
	assert_int_equal(key(f, "net.ipv4.tcp_wmem")->state, KS_IN_FORCE);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_IN_FORCE);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->err, 0);
	assert_int_equal(fake_kernel_nwrites(f->fk), 0);
	/* drift while writes fail twice: corrected on the third check */
	fake_kernel_poke(f->fk, "net.ipv4.tcp_wmem", "1 2 3");
	fake_kernel_fail_set_n(f->fk, "net.ipv4.tcp_wmem", EAGAIN, 2);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_wmem")->err, EAGAIN);
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_wmem")->state, KS_REFUSED);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    "1 2 3");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.tcp_wmem")->state, KS_IN_FORCE);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    HEALTHY_WMEM);
	assert_true(healthy_in_force(f));
}

/* Checks until n, one each 10 s of the fake clock. */
static void
checks_until(struct fixture *f, uint64_t n)
{
	while (f->e.checks < n) {
		fake_now += 10;
		engine_check(&f->e);
	}
}

/*
 * A refused key backs off as a contested one does: tried again at the
 * next check, then after 2, 4, 8 checks, not each check; its status says
 * when; once taken, a new refusal starts again at the next check.  The
 * kernel refuses tcp_rmem's first five writes: the start, checks 1, 2,
 * 4 and 8; check 16 takes it (each check before would have, before).
 */
static void
test_refused_key_backs_off(void **arg)
{
	struct fixture		*f = *arg;
	struct msg_key_status	 ks;

	fake_kernel_fail_set_n(f->fk, "net.ipv4.tcp_rmem", EPERM, 5);
	assert_int_equal(engine_configure(&f->e, parse(healthy_conf)), -1);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_REFUSED);
	checks_until(f, 9);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->refusals, 4);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->retry_check, 16);
	engine_key_status(&f->e, key(f, "net.ipv4.tcp_rmem"), &ks);
	assert_int_equal(ks.state, KS_REFUSED);
	assert_int_equal(ks.err, EPERM);
	assert_true(ks.next_attempt > f->e.last_check);
	checks_until(f, 15);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_REFUSED);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    "4096 131072 6291456");
	checks_until(f, 16);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_IN_FORCE);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->refusals, 0);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    HEALTHY_RMEM);
	/* drift, one refused correction: tried again at the next check */
	fake_kernel_poke(f->fk, "net.ipv4.tcp_rmem", "1 2 3");
	fake_kernel_fail_set_n(f->fk, "net.ipv4.tcp_rmem", EPERM, 1);
	checks_until(f, 17);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_REFUSED);
	checks_until(f, 18);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_IN_FORCE);
	assert_true(healthy_in_force(f));
}

/*
 * A restore that meets a failed read still restores; one whose write fails
 * says so and does the others; the next restore finishes the job.
 */
static void
test_restore_through_faults(void **arg)
{
	struct fixture	*f = *arg;

	assert_int_equal(engine_configure(&f->e, parse(healthy_conf)), 0);
	fake_kernel_fail_get_n(f->fk, "net.ipv4.tcp_congestion_control", EIO,
	    1);
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_string_equal(fake_kernel_peek(f->fk,
	    "net.ipv4.tcp_congestion_control"), "cubic");
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    "4096 131072 6291456");
	assert_int_equal(engine_resume(&f->e), 0);
	fake_kernel_fail_set_n(f->fk, "net.ipv4.tcp_rmem", EIO, 1);
	assert_int_equal(engine_restore(&f->e, true), -1);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    HEALTHY_RMEM);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_wmem"),
	    "4096 16384 4194304");
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    "4096 131072 6291456");
}

/*
 * The engine over the real sysctl-directory backend and a sysctl tree in
 * a temporary directory, with refusals the file system gives: a missing
 * key (ENOENT), a directory where the value should be (EISDIR), an empty
 * value (ERANGE) and a symlink (EINVAL), beside three healthy keys.
 */
static void
put_file(const char *root, const char *rel, const char *content)
{
	char	 path[PATH_MAX], cmd[PATH_MAX + 32];
	FILE	*fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	assert_non_null(fp = fopen(path, "w"));
	fputs(content, fp);
	assert_int_equal(fclose(fp), 0);
}

static const char *
read_file(const char *root, const char *name, char *buf, size_t len)
{
	struct sysctl_backend	*be = backend_sysctl_dir_new(root);
	int			 err;

	assert_non_null(be);
	err = be->get(be, name, buf, len);
	backend_free(be);
	return err == 0 ? buf : errno_name(err);
}

static int
setup_sysctl_dir_root(void **arg)
{
	struct fixture	*f;
	char		 root[PATH_MAX], path[PATH_MAX + 16];

	setup_kernel(arg, NULL);
	f = *arg;
	snprintf(root, sizeof(root), "%s/sys", f->dir);
	put_file(root, "net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
	put_file(root, "net/ipv4/tcp_wmem", "4096\t16384\t4194304\n");
	put_file(root, "net/ipv4/tcp_congestion_control", "cubic\n");
	put_file(root, "net/ipv4/conf/all/rp_filter", "0\n");
	put_file(root, "net/ipv4/empty", "");
	snprintf(path, sizeof(path), "%s/net/ipv4/link", root);
	assert_int_equal(symlink("tcp_rmem", path), 0);
	assert_non_null(f->be = backend_sysctl_dir_new(root));
	f->e.be = f->be;	/* start() saw none */
	return 0;
}

static void
test_sysctl_dir_backend_error_mix(void **arg)
{
	struct fixture	*f = *arg;
	char		 root[PATH_MAX], buf[TT_VALUE_MAX];
	const char *conf =
	    "<plist version=\"1.0\"><dict><key>Sysctls</key><dict>\n"
	    "<key>net.ipv4.tcp_rmem</key><string>" HEALTHY_RMEM "</string>\n"
	    "<key>net.ipv4.tcp_wmem</key><string>" HEALTHY_WMEM "</string>\n"
	    "<key>net.ipv4.tcp_congestion_control</key><string>reno</string>\n"
	    "<key>net.ipv4.nosuch</key><integer>1</integer>\n"
	    "<key>net.ipv4.conf</key><integer>1</integer>\n"
	    "<key>net.ipv4.empty</key><integer>7</integer>\n"
	    "<key>net.ipv4.link</key><string>1 2 3</string>\n"
	    "</dict></dict></plist>\n";

	snprintf(root, sizeof(root), "%s/sys", f->dir);
	assert_int_equal(engine_configure(&f->e, parse(conf)), -1);
	assert_int_equal(key(f, "net.ipv4.nosuch")->err, ENOENT);
	assert_int_equal(key(f, "net.ipv4.conf")->err, EISDIR);
	assert_int_equal(key(f, "net.ipv4.empty")->err, ERANGE);
	assert_int_equal(key(f, "net.ipv4.link")->err, EINVAL);
	assert_int_equal(key(f, "net.ipv4.tcp_rmem")->state, KS_IN_FORCE);
	assert_int_equal(key(f, "net.ipv4.tcp_congestion_control")->state,
	    KS_IN_FORCE);
	/* drift, put back; the refused keys stay refused */
	put_file(root, "net/ipv4/tcp_rmem", "4096\t87380\t6291456\n");
	put_file(root, "net/ipv4/tcp_congestion_control", "cubic\n");
	fake_now += 10;
	engine_check(&f->e);
	assert_string_equal(read_file(root, "net.ipv4.tcp_rmem", buf,
	    sizeof(buf)), HEALTHY_RMEM);
	assert_string_equal(read_file(root, "net.ipv4.tcp_congestion_control",
	    buf, sizeof(buf)), "reno");
	assert_int_equal(key(f, "net.ipv4.link")->err, EINVAL);
	/* the empty key gets a value: taken as original, then tuned */
	put_file(root, "net/ipv4/empty", "5\n");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(key(f, "net.ipv4.empty")->state, KS_IN_FORCE);
	assert_string_equal(read_file(root, "net.ipv4.empty", buf,
	    sizeof(buf)), "7");
	/* restore: every changed key back, the others as they were */
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_string_equal(read_file(root, "net.ipv4.tcp_rmem", buf,
	    sizeof(buf)), "4096 131072 6291456");
	assert_string_equal(read_file(root, "net.ipv4.tcp_wmem", buf,
	    sizeof(buf)), "4096 16384 4194304");
	assert_string_equal(read_file(root, "net.ipv4.tcp_congestion_control",
	    buf, sizeof(buf)), "cubic");
	assert_string_equal(read_file(root, "net.ipv4.empty", buf,
	    sizeof(buf)), "5");
	assert_string_equal(read_file(root, "net.ipv4.nosuch", buf,
	    sizeof(buf)), "ENOENT");
	assert_string_equal(read_file(root, "net.ipv4.conf.all.rp_filter", buf,
	    sizeof(buf)), "0");
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The damaged copies in dir (up to max names in names), sorted; how many. */
static size_t
list_copies(const char *dir, char names[][64], size_t max)
{
	struct dirent	*de;
	DIR		*dp;
	size_t		 n = 0;

	assert_non_null(dp = opendir(dir));
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, "originals.corrupt", 17) != 0)
			continue;
		if (n < max)
			tt_strlcpy(names[n], de->d_name, 64);
		n++;
	}
	closedir(dp);
	if (n > 0 && max > 0)	/* names may be NULL when only counting */
		qsort(names, n < max ? n : max, 64, cmp_names);
	return n;
}

static void
put_copy(const char *dir, const char *name, const char *text, const char *mode)
{
	char	 path[PATH_MAX];
	FILE	*fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(fp = fopen(path, mode));
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/*
 * Three damaged originals files in a row, each time with the tuned values
 * in place (the first file held the true originals, the next two the
 * tuned values taken after a fault): every one is kept under a name of
 * its own, never replaced, and so is a copy an earlier version kept as
 * originals.corrupt; the oldest new copy still holds the true original,
 * and the store reports it beside the one it took.
 */
static void
test_three_faults_keep_every_copy(void **arg)
{
	struct fixture	*f = *arg;
	char		 names[8][64], buf[TT_TEXT_MAX], text[PATH_MAX + 64];
	const char	*copy, *seen;
	FILE		*fp;
	int		 i;

	engine_configure(&f->e, parse(darwin_conf));
	put_copy(f->dir, "originals.corrupt", "from an earlier version\n", "w");
	for (i = 0; i < 3; i++) {
		stop(f);
		put_copy(f->dir, "originals", "damaged\n", "a");
		start(f);
		engine_configure(&f->e, parse(darwin_conf));
		assert_string_equal(originals_get(&f->st, "kern.ipc.maxsockbuf"),
		    "16777216");
		seen = originals_seen(&f->st, "kern.ipc.maxsockbuf", &copy);
		assert_non_null(seen);
		assert_string_equal(seen, "8388608");
		assert_int_equal(list_copies(f->dir, NULL, 0), i + 2);
	}
	assert_int_equal(list_copies(f->dir, names, 8), 4);
	assert_string_equal(names[0], "originals.corrupt");
	assert_string_equal(copy, names[1]);
	assert_int_equal(originals_copies(&f->st, buf, sizeof(buf)), 4);
	snprintf(text, sizeof(text), "/originals.corrupt\n");
	assert_non_null(strstr(buf, text));
	snprintf(text, sizeof(text), "%s/%s", f->dir, names[3]);
	assert_non_null(strstr(buf, text));
	snprintf(text, sizeof(text), "%s/originals.corrupt", f->dir);
	assert_non_null(fp = fopen(text, "r"));
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "from an earlier version\n");
	snprintf(text, sizeof(text), "%s/%s", f->dir, names[1]);
	assert_non_null(fp = fopen(text, "r"));
	buf[fread(buf, 1, sizeof(buf) - 1, fp)] = '\0';
	fclose(fp);
	assert_non_null(strstr(buf, "original kern.ipc.maxsockbuf 8388608\n"));
}

/*
 * An originals file that cannot be read for a reason that says nothing
 * about the file (here EACCES: uid 65534 and a root-only directory) is
 * neither believed nor set aside: originals_open fails, so tcptuned does not
 * start, and the saved originals stay where they are.
 */
static void
test_unreadable_originals_not_set_aside(void **arg)
{
	struct fixture	*f = *arg;
	struct originals	 st;
	struct stat	 sb;
	char		 path[PATH_MAX];
	int		 status;
	pid_t		 pid;

	if (geteuid() != 0)
		skip();
	engine_configure(&f->e, parse(darwin_conf));
	snprintf(path, sizeof(path), "%s/originals", f->dir);
	assert_int_equal(stat(path, &sb), 0);
	/* The directory readable, the 0600 file not: EACCES on the file. */
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		if (setgroups(0, NULL) == -1 || setgid(65534) == -1 ||
		    setuid(65534) == -1)
			_exit(2);
		if (originals_open(&st, f->dir) != -1)
			_exit(3);
		_exit(strstr(st.problem, "cannot read") != NULL ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(list_copies(f->dir, NULL, 0), 0);
}

/*
 * A symlink in place of the originals file is set aside like any other
 * unusable file, also where open(O_NOFOLLOW) says EMLINK (FreeBSD) rather
 * than ELOOP: taken for "cannot read", it would keep tcptuned from
 * starting.
 */
static void
test_symlinked_originals_set_aside(void **arg)
{
	struct fixture	*f = *arg;
	struct originals	 st;
	struct stat	 sb;
	char		 path[PATH_MAX], target[PATH_MAX + 16];
	int		 freebsd;

	for (freebsd = 0; freebsd <= 1; freebsd++) {
		snprintf(path, sizeof(path), "%s/originals", f->dir);
		snprintf(target, sizeof(target), "%s/elsewhere", f->dir);
		unlink(path);
		assert_int_equal(symlink(target, path), 0);
		fake_open_freebsd = freebsd;
		memset(&st, 0, sizeof(st));
		assert_int_equal(originals_open(&st, f->dir), 0);
		fake_open_freebsd = false;
		assert_non_null(strstr(st.problem, "kept as"));
		assert_int_equal(lstat(path, &sb), -1);
		originals_close(&st);
	}
}

/*
 * maxsockbuf 16 MiB, autorcvbufmax 16 MiB and sendspace 32 MiB with
 * OnReject clamp, on a Mac of kern.osrelease rel.
 */
static void
configure_sockbufs(struct fixture *f, const char *rel)
{
	const char *conf =
	    CLAMPED_MAXSOCKBUF_16M
	    "<key>net.inet.tcp.autorcvbufmax</key><integer>16777216</integer>\n"
	    "<key>net.inet.tcp.sendspace</key><dict>"
	    "<key>Value</key><integer>33554432</integer>"
	    "<key>OnReject</key><string>clamp</string></dict>\n"
	    "</dict></dict></plist>\n";

	fake_kernel_poke(f->fk, "kern.osrelease", rel);
	engine_configure(&f->e, parse(conf));
	assert_string_equal(key(f, "kern.ipc.maxsockbuf")->applied,
	    "16777216");
}

/*
 * macOS 14.4 and later: a socket buffer may have all of maxsockbuf, so
 * autorcvbufmax at maxsockbuf takes full effect, and sendspace is clamped
 * to maxsockbuf itself (xnu-10063 sysctl_tcp_sospace, sbreserve).
 */
static void
test_sockbufs_whole_maxsockbuf(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;

	configure_sockbufs(f, "23.4.0");
	k = key(f, "net.inet.tcp.autorcvbufmax");
	assert_int_equal(k->state, KS_IN_FORCE);
	assert_string_equal(k->note, "");
	k = key(f, "net.inet.tcp.sendspace");
	assert_int_equal(k->state, KS_CLAMPED);
	assert_string_equal(k->applied, "16777216");
	assert_string_equal(fake_kernel_peek(f->fk, "net.inet.tcp.sendspace"),
	    "16777216");
}

/*
 * Up to macOS 14.3 (xnu-10002): a buffer gets at most 8/9 of maxsockbuf
 * (sbreserve's sb_max_adj), and sendspace at most
 * (sb_max / (MSIZE + MCLBYTES)) * MCLBYTES.
 */
static void
test_sockbufs_before_14_4(void **arg)
{
	struct fixture	*f = *arg;
	const struct engine_key *k;

	configure_sockbufs(f, "23.3.0");
	k = key(f, "net.inet.tcp.autorcvbufmax");
	assert_int_equal(k->state, KS_IN_FORCE);
	assert_string_equal(k->note, "effective ceiling 14913080: a socket "
	    "buffer may use 14913080 of kern.ipc.maxsockbuf 16777216");
	k = key(f, "net.inet.tcp.sendspace");
	assert_int_equal(k->state, KS_CLAMPED);
	assert_string_equal(k->applied, "14911488");
}

/*
 * syslog(3) as lib/log.c reaches it once log_init has left stderr: these
 * definitions take the place of libc's in this program, so each message
 * is kept with its priority and none leaves the test.
 */
#define NSYSLOG	64
static struct {
	int	pri;
	char	msg[256];
} syslogged[NSYSLOG];
static size_t	nsyslogged;

void
openlog(const char *ident, int option, int facility)
{
	(void)ident;
	(void)option;
	(void)facility;
}

void
vsyslog(int pri, const char *fmt, va_list ap)
{
	if (nsyslogged == NSYSLOG)
		return;
	syslogged[nsyslogged].pri = LOG_PRI(pri);
	vsnprintf(syslogged[nsyslogged].msg, sizeof(syslogged[0].msg), fmt,
	    ap);
	nsyslogged++;
}

void
syslog(int pri, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsyslog(pri, fmt, ap);
	va_end(ap);
}

/* The priority of the one message that holds text. */
static int
syslog_pri(const char *text)
{
	size_t	i, found = NSYSLOG;

	for (i = 0; i < nsyslogged; i++)
		if (strstr(syslogged[i].msg, text) != NULL) {
			assert_int_equal(found, NSYSLOG);
			found = i;
		}
	if (found == NSYSLOG)
		fail_msg("nothing logged with \"%s\"", text);
	return syslogged[found].pri;
}

/*
 * Changes, corrections and restores go to syslog at LOG_NOTICE, which the
 * macOS unified log keeps and FreeBSD's syslog.conf shows; LOG_INFO would
 * be dropped by both.  Refusals go at LOG_ERR.
 */
static void
test_state_changes_logged_at_notice(void **arg)
{
	struct fixture	*f = *arg;

	nsyslogged = 0;
	log_init(0, 0, "test_engine");
	engine_configure(&f->e, parse(darwin_conf));
	assert_int_equal(syslog_pri("kern.ipc.maxsockbuf: 8388608 -> "
	    "16777216"), LOG_NOTICE);
	fake_kernel_poke(f->fk, "net.inet.tcp.autorcvbufmax", "4194304");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(syslog_pri("net.inet.tcp.autorcvbufmax: drifted to "
	    "4194304"), LOG_NOTICE);
	fake_kernel_fail_set(f->fk, "net.inet.tcp.recvspace", EPERM);
	fake_kernel_poke(f->fk, "net.inet.tcp.recvspace", "65536");
	fake_now += 10;
	engine_check(&f->e);
	assert_int_equal(syslog_pri("net.inet.tcp.recvspace: value 262144 "
	    "refused"), LOG_ERR);
	fake_kernel_fail_set(f->fk, "net.inet.tcp.recvspace", 0);
	assert_int_equal(engine_restore(&f->e, true), 0);
	assert_int_equal(syslog_pri("kern.ipc.maxsockbuf: restored 8388608"),
	    LOG_NOTICE);
	log_init(1, 0, NULL);
}

#define T(fn, setup)	cmocka_unit_test_setup_teardown(fn, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_applies_in_dependency_order, setup_mac16),
		T(test_originals_captured_before_write, setup_mac16),
		T(test_restart_keeps_true_originals, setup_mac16),
		T(test_unreadable_originals_not_set_aside, setup_mac16),
		T(test_symlinked_originals_set_aside, setup_mac16),
		T(test_three_faults_keep_every_copy, setup_mac16),
		T(test_restore_reverse_order, setup_mac16),
		T(test_paused_not_enforced_and_survives_restart, setup_mac16),
		T(test_pause_without_record_dropped, setup_mac16),
		T(test_maxsockbuf_refused_on_8gb, setup_mac8),
		T(test_maxsockbuf_clamped_on_8gb, setup_mac8),
		T(test_clamp_to_known_ceiling, setup_mac8),
		T(test_sockbufs_whole_maxsockbuf, setup_mac16),
		T(test_sockbufs_before_14_4, setup_mac16),
		T(test_drift_reverted_and_counted, setup_mac16),
		T(test_state_changes_logged_at_notice, setup_mac16),
		T(test_refresh_shows_drift_without_writing, setup_mac16),
		T(test_at_least_and_once, setup_mac16),
		T(test_at_least_lowers_only_its_own, setup_mac16),
		T(test_enforce_lowering_is_said, setup_mac16),
		T(test_contested_backoff, setup_mac16),
		T(test_refusals_per_key, setup_mac16),
		T(test_readback_mismatch, setup_mac16),
		T(test_read_failure_reported, setup_mac16),
		T(test_reload_restores_dropped, setup_mac16),
		T(test_start_restores_keys_left_from_before, setup_mac16),
		T(test_unmanaged_original_not_restored, setup_mac16),
		T(test_restore_on_exit_forgets, setup_mac16),
		T(test_status_message, setup_mac16),
		T(test_linux_vectors_and_clamp_by_search, setup_mac16),
		T(test_clamp_long_vector, setup_mac16),
		T(test_error_mix_healthy_keys_enforced, setup_linux_mix),
		T(test_error_mix_recovery_and_restore, setup_linux_mix),
		T(test_transient_faults_recover, setup_linux_mix),
		T(test_refused_key_backs_off, setup_linux_mix),
		T(test_restore_through_faults, setup_linux_mix),
		T(test_sysctl_dir_backend_error_mix, setup_sysctl_dir_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
