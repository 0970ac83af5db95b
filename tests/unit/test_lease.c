/*
 * The lease of tcptunectl measure: its rules on a fake clock (grant,
 * renew, busy for others, end by its holder only, expiry, a user's pause
 * not taken over, the upper bound), and the engine and state under it:
 * originals in force during a lease, never saved as paused, so a daemon
 * killed mid-lease starts enforcing; a restore during a lease is saved.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptuned.h"
#include "engine_fixture.h"
#include "fake_kernel.h"

static const int	client_a, client_b;	/* two holders, by address */

static void
test_grant_and_expire(void **arg)
{
	struct lease	l;

	(void)arg;
	lease_clear(&l);
	assert_int_equal(lease_decide(&l, &client_a, 30, false), LEASE_GRANT);
	lease_grant(&l, &client_a, 0, 4242, 30, fake_now);
	assert_true(lease_held_by(&l, &client_a));
	assert_false(lease_held_by(&l, &client_b));
	assert_int_equal(lease_left(&l, fake_now), 30);
	assert_false(lease_due(&l, fake_now + 29));
	assert_true(lease_due(&l, fake_now + 30));
	assert_int_equal(lease_left(&l, fake_now + 31), 0);
	lease_clear(&l);
	assert_false(lease_due(&l, fake_now + 100));
	assert_false(lease_held_by(&l, &client_a));
}

static void
test_busy_for_others_renew_for_holder(void **arg)
{
	struct lease	l;

	(void)arg;
	lease_clear(&l);
	lease_grant(&l, &client_a, 0, 1, 30, fake_now);
	assert_int_equal(lease_decide(&l, &client_b, 30, true), LEASE_BUSY);
	assert_int_equal(lease_decide(&l, &client_b, 0, true), LEASE_BUSY);
	assert_int_equal(lease_decide(&l, &client_a, 30, true), LEASE_RENEW);
	lease_grant(&l, &client_a, 0, 1, 60, fake_now + 20);
	assert_int_equal(lease_left(&l, fake_now + 20), 60);
	assert_int_equal(lease_decide(&l, &client_a, 0, true), LEASE_END);
}

static void
test_refusals(void **arg)
{
	struct lease	l;

	(void)arg;
	lease_clear(&l);
	assert_int_equal(lease_decide(&l, &client_a, 0, false),
	    LEASE_NOT_HELD);
	/* paused by restore: the user's pause is not a lease's to end */
	assert_int_equal(lease_decide(&l, &client_a, 10, true), LEASE_PAUSED);
	assert_int_equal(lease_decide(&l, &client_a, TT_LEASE_MAX_SEC + 1,
	    false), LEASE_TOO_LONG);
	assert_int_equal(lease_decide(&l, &client_a, TT_LEASE_MAX_SEC,
	    false), LEASE_GRANT);
}

static void
test_describe(void **arg)
{
	struct lease	l;
	char		buf[128];

	(void)arg;
	lease_clear(&l);
	lease_describe(&l, fake_now, buf, sizeof(buf));
	assert_string_equal(buf, "no lease");
	lease_grant(&l, &client_a, 0, 77, 30, fake_now);
	lease_describe(&l, fake_now + 5, buf, sizeof(buf));
	assert_string_equal(buf, "uid 0 (pid 77), 25 s left");
	lease_grant(&l, &client_a, 0, -1, 30, fake_now);
	lease_describe(&l, fake_now, buf, sizeof(buf));
	assert_string_equal(buf, "uid 0, 30 s left");
}

/* ---- the engine and the state under a lease */

static const char *linux_conf =
    "<plist version=\"1.0\"><dict>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>net.ipv4.tcp_rmem</key><string>4096 131072 67108864</string>\n"
    "</dict></dict></plist>\n";

/* The daemon (re)started with linux_conf. */
static void
restart(struct fixture *f)
{
	stop(f);
	start(f);
	engine_configure(&f->e, parse(linux_conf));
}

static int
setup(void **arg)
{
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_NONE);
	struct fixture		*f;

	fake_kernel_stock_linux(fk, "6.11.0");
	f = fixture_new("tt-lease", fake_backend_new(fk));
	f->fk = fk;
	engine_configure(&f->e, parse(linux_conf));
	*arg = f;
	return 0;
}

static int
teardown(void **arg)
{
	struct fixture		*f = *arg;
	struct fake_kernel	*fk = f->fk;

	fixture_free(f);
	fake_kernel_free(fk);
	return 0;
}

/* The "paused N" line of the saved state, as the next start reads it. */
static int
saved_paused(struct fixture *f)
{
	char	 path[128], line[256];
	FILE	*fp;
	int	 paused = -1;

	snprintf(path, sizeof(path), "%s/originals", f->dir);
	assert_non_null(fp = fopen(path, "r"));
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "paused %d", &paused) == 1)
			break;
	fclose(fp);
	return paused;
}

static void
test_lease_pause_restores_and_is_not_saved(void **arg)
{
	struct fixture	*f = *arg;
	const char	*orig = "4096 131072 6291456";
	char		 tuned[64];

	snprintf(tuned, sizeof(tuned), "%s",
	    fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"));
	assert_string_not_equal(tuned, orig);
	assert_int_equal(engine_restore(&f->e, RESTORE_LEASE), 0);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    orig);
	assert_true(f->st.paused);
	assert_int_equal(saved_paused(f), 0);
	/* the checks leave the originals alone during the lease */
	fake_kernel_clear_writes(f->fk);
	fake_now += 60;
	engine_check(&f->e);
	assert_int_equal(fake_kernel_nwrites(f->fk), 0);
	/* killed mid-lease: the next start enforces */
	restart(f);
	assert_false(f->st.paused);
	assert_string_equal(fake_kernel_peek(f->fk, "net.ipv4.tcp_rmem"),
	    tuned);
	assert_true(engine_all_in_force(&f->e));
}

static void
test_lease_end_enforces(void **arg)
{
	struct fixture	*f = *arg;

	engine_restore(&f->e, RESTORE_LEASE);
	assert_int_equal(engine_resume(&f->e), 0);
	assert_false(f->st.paused);
	assert_false(f->st.pause_leased);
	assert_true(engine_all_in_force(&f->e));
	assert_int_equal(saved_paused(f), 0);
}

/* A restore during a lease makes the pause the user's: saved. */
static void
test_restore_during_lease_is_saved(void **arg)
{
	struct fixture		*f = *arg;
	struct pause_origin	 po = { 1700000000, 0, 812, "restore" };

	engine_restore(&f->e, RESTORE_LEASE);
	assert_int_equal(saved_paused(f), 0);
	/* the daemon records who pauses first (daemon_restore) */
	assert_int_equal(originals_record_pause(&f->st, &po), 0);
	assert_int_equal(engine_restore(&f->e, RESTORE_PAUSE), 0);
	assert_false(f->st.pause_leased);
	assert_int_equal(saved_paused(f), 1);
	restart(f);
	assert_true(f->st.paused);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grant_and_expire),
		cmocka_unit_test(test_busy_for_others_renew_for_holder),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_describe),
		cmocka_unit_test_setup_teardown(
		    test_lease_pause_restores_and_is_not_saved, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lease_end_enforces,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_restore_during_lease_is_saved, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
