/*
 * tools/nearest.c: the "did you mean" it gives for tcptunectl's commands
 * (the distance is lib/util.c's, tests/unit/test_util.c); no guess for a
 * word unlike any of them.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tcptunectl.h"

static const char *const cmds[] = {
	"status", "reload", "check", "restore", "resume", "advise", "measure",
	"help", "version"
};

static void
test_nearest(void **arg)
{
	(void)arg;
	assert_string_equal(ctl_nearest("stauts", cmds, NITEMS(cmds)),
	    "status");
	assert_string_equal(ctl_nearest("reolad", cmds, NITEMS(cmds)),
	    "reload");
	assert_string_equal(ctl_nearest("advice", cmds, NITEMS(cmds)),
	    "advise");
	assert_string_equal(ctl_nearest("restor", cmds, NITEMS(cmds)),
	    "restore");
	assert_string_equal(ctl_nearest("mesure", cmds, NITEMS(cmds)),
	    "measure");
	assert_string_equal(ctl_nearest("Status", cmds, NITEMS(cmds)),
	    "status");
	/* nothing near: no guess */
	assert_null(ctl_nearest("frobnicate", cmds, NITEMS(cmds)));
	assert_null(ctl_nearest("xy", cmds, NITEMS(cmds)));
	assert_null(ctl_nearest("", cmds, NITEMS(cmds)));
	assert_null(ctl_nearest("sta", cmds, NITEMS(cmds)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nearest),
	};

	return cmocka_run_group_tests_name("nearest", tests, NULL, NULL);
}
