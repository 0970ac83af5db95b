/*
 * daemon/log_limit.c alone, on a fake clock and a fake log: one line per
 * uid per interval with the count of the rest, root never limited, the
 * table's bound whatever the number of uids, the counts written by a
 * flush and never lost, and a line the log would hide spends nothing.
 */
#include "config.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tcptuned.h"

#define MAX_LINES	4096

static time_t		fake_now = 1000;
static bool		fake_verbose;
static char		lines[MAX_LINES][256];
static enum log_level	levels[MAX_LINES];
static size_t		nlines;

static time_t
fake_clock(void)
{
	return fake_now;
}

/* The log as log_limit.c sees it (lib/log.c is not linked). */
bool
log_enabled(enum log_level pri)
{
	return pri != TT_LOG_DEBUG || fake_verbose;
}

void
log_at(enum log_level pri, const char *fmt, ...)
{
	va_list	ap;

	assert_true(nlines < MAX_LINES);
	va_start(ap, fmt);
	vsnprintf(lines[nlines], sizeof(lines[0]), fmt, ap);
	va_end(ap);
	levels[nlines++] = pri;
}

static struct log_limit	lim;

static int
setup(void **arg)
{
	(void)arg;
	fake_now = 1000;
	fake_verbose = false;
	nlines = 0;
	log_limit_init(&lim, fake_clock);
	return 0;
}

static struct ctl_peer
user(unsigned long uid)
{
	struct ctl_peer	p;

	memset(&p, 0, sizeof(p));
	p.user = uid;
	p.privileged = false;
	p.pid = -1;
	return p;
}

static void
denied(const struct ctl_peer *p, int n)
{
	int	i;

	for (i = 0; i < n; i++)
		log_limited(&lim, p, TT_LOG_ERR, "control: uid %lu asked for "
		    "restore: denied", p != NULL ? p->user : 0UL);
}

/* 2000 denials in one second: one line, the rest in the next line. */
static void
test_one_line_per_interval(void **arg)
{
	struct ctl_peer	nobody = user(65534);

	(void)arg;
	denied(&nobody, 2000);
	assert_int_equal(nlines, 1);
	assert_string_equal(lines[0],
	    "control: uid 65534 asked for restore: denied");
	fake_now += LOG_LIMIT_EVERY - 1;
	denied(&nobody, 1);
	assert_int_equal(nlines, 1);
	assert_true(log_limit_pending(&lim));
	fake_now += 1;
	denied(&nobody, 1);
	assert_int_equal(nlines, 2);
	assert_string_equal(lines[1], "control: uid 65534 asked for restore: "
	    "denied (2000 more from uid 65534 in the last 10 s)");
	assert_false(log_limit_pending(&lim));
}

static void
test_root_unlimited(void **arg)
{
	struct ctl_peer	root = user(0);

	(void)arg;
	root.privileged = true;
	denied(&root, 500);
	assert_int_equal(nlines, 500);
	assert_false(log_limit_pending(&lim));
}

/* Each uid has its own line: one user cannot silence another. */
static void
test_uids_apart(void **arg)
{
	struct ctl_peer	a = user(1000), b = user(1001);

	(void)arg;
	denied(&a, 50);
	denied(&b, 50);
	assert_int_equal(nlines, 2);
	assert_non_null(strstr(lines[1], "uid 1001"));
}

/*
 * The flush writes a count once its uid may log again, and that is the
 * uid's line for the interval; at exit (all) every count is written.
 */
static void
test_flush(void **arg)
{
	struct ctl_peer	nobody = user(65534);

	(void)arg;
	denied(&nobody, 2000);
	log_limit_flush(&lim, false);
	assert_int_equal(nlines, 1);
	fake_now += LOG_LIMIT_EVERY + 3;
	log_limit_flush(&lim, false);
	assert_int_equal(nlines, 2);
	assert_string_equal(lines[1], "control: 1999 more from uid 65534 in "
	    "the last 13 s, not logged (one line per uid per 10 s)");
	assert_int_equal(levels[1], TT_LOG_ERR);
	assert_false(log_limit_pending(&lim));
	denied(&nobody, 7);		/* within the flush's interval */
	assert_int_equal(nlines, 2);
	log_limit_flush(&lim, true);	/* at exit: whatever the time */
	assert_int_equal(nlines, 3);
	assert_non_null(strstr(lines[2], "7 more from uid 65534 in the last 0 s"));
	log_limit_flush(&lim, true);
	assert_int_equal(nlines, 3);
}

/*
 * 1000 uids, 10 lines each every second for 100 s: the lines are bounded
 * by the table (LOG_LIMIT_USERS + 2 per interval), and every line is
 * counted: written or in a count.
 */
static void
test_bound_whatever_the_uids(void **arg)
{
	struct ctl_peer	p;
	unsigned long	uid, counted = 0;
	size_t		i;
	const char	*m;
	int		sec, bound;

	(void)arg;
	for (sec = 0; sec < 100; sec++, fake_now++)
		for (uid = 1; uid <= 1000; uid++) {
			p = user(uid);
			denied(&p, 10);
		}
	log_limit_flush(&lim, true);
	bound = (LOG_LIMIT_USERS + 2) * (100 / LOG_LIMIT_EVERY + 1) +
	    LOG_LIMIT_USERS + 2;	/* and the flush at exit */
	assert_true(nlines <= (size_t)bound);
	assert_true(nlines > LOG_LIMIT_USERS);
	for (i = 0; i < nlines; i++) {
		if ((m = strstr(lines[i], " more from")) != NULL) {
			while (m > lines[i] && isdigit((unsigned char)m[-1]))
				m--;
			counted += strtoul(m, NULL, 10);
		}
		if (strstr(lines[i], "asked for") != NULL)
			counted++;
	}
	assert_int_equal(counted, 100UL * 1000 * 10);
	assert_false(log_limit_pending(&lim));
}

/* Past the table a uid shares "other uids"; an evicted count goes there. */
static void
test_other_uids(void **arg)
{
	struct ctl_peer	p;
	unsigned long	uid;

	(void)arg;
	for (uid = 1; uid <= LOG_LIMIT_USERS + 5; uid++) {
		p = user(uid);
		denied(&p, 2);
	}
	/* 16 own lines, 1 for "other uids" (uid 17), the rest counted */
	assert_int_equal(nlines, LOG_LIMIT_USERS + 1);
	fake_now += LOG_LIMIT_EVERY;
	p = user(5000);		/* takes the oldest slot; its 1 goes to other */
	denied(&p, 1);
	assert_int_equal(nlines, LOG_LIMIT_USERS + 2);
	log_limit_flush(&lim, false);
	assert_non_null(strstr(lines[nlines - 1], "more from other uids"));
	/* the other's 9 (uids 17..21, 2 each, less its line) and uid 1's 1 */
	assert_non_null(strstr(lines[nlines - 1], "control: 10 more from "
	    "other uids"));
}

/* A peer not identified yet (no uid) has its own slot. */
static void
test_unidentified(void **arg)
{
	struct ctl_peer	nobody = user(65534);

	(void)arg;
	denied(NULL, 100);
	denied(&nobody, 1);
	assert_int_equal(nlines, 2);
	log_limit_flush(&lim, true);
	assert_non_null(strstr(lines[2], "99 more from unidentified clients"));
}

/*
 * A debug line the log does not show spends nothing (the next error is
 * written); with -d it is limited like the rest, and the count's line has
 * the level of the most severe line it stands for.
 */
static void
test_levels(void **arg)
{
	struct ctl_peer	nobody = user(65534);

	(void)arg;
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: closing idle client");
	assert_int_equal(nlines, 0);
	denied(&nobody, 1);
	assert_int_equal(nlines, 1);
	fake_now += LOG_LIMIT_EVERY;
	fake_verbose = true;
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	assert_int_equal(nlines, 2);
	assert_int_equal(levels[1], TT_LOG_DEBUG);
	log_limit_flush(&lim, true);
	assert_int_equal(levels[2], TT_LOG_DEBUG);
	fake_now += LOG_LIMIT_EVERY;
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	log_limited(&lim, &nobody, TT_LOG_DEBUG, "control: bad header");
	denied(&nobody, 1);
	log_limit_flush(&lim, true);
	assert_int_equal(nlines, 5);
	assert_int_equal(levels[4], TT_LOG_ERR);
	assert_non_null(strstr(lines[4], "2 more from uid 65534"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_one_line_per_interval, setup),
		cmocka_unit_test_setup(test_root_unlimited, setup),
		cmocka_unit_test_setup(test_uids_apart, setup),
		cmocka_unit_test_setup(test_flush, setup),
		cmocka_unit_test_setup(test_bound_whatever_the_uids, setup),
		cmocka_unit_test_setup(test_other_uids, setup),
		cmocka_unit_test_setup(test_unidentified, setup),
		cmocka_unit_test_setup(test_levels, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
