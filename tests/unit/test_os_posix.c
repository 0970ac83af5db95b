/*
 * lib/os_posix.c's tt_wsl: WSL recognised from a fake
 * proc/sys/kernel/osrelease under a root directory (WSL 1 and WSL 2
 * release strings, microsoft/WSL issue 4555), or from WSL_DISTRO_NAME; a
 * plain Linux, no file, an empty variable: not WSL.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcptune.h"

static char	root[64];

/* root/proc/sys/kernel/osrelease holding rel (NULL: no file). */
static void
fake_release(const char *rel)
{
	char	path[256];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
	unlink(path);
	if (rel == NULL)
		return;
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%s\n", rel);
	fclose(f);
}

static int
setup(void **arg)
{
	char	path[256];

	(void)arg;
	snprintf(root, sizeof(root), "/tmp/test_os_posix.XXXXXX");
	if (mkdtemp(root) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/sys/kernel", root);
	return mkdir(path, 0755);
}

static int
teardown(void **arg)
{
	char	cmd[128];

	(void)arg;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_release(void **arg)
{
	(void)arg;
	unsetenv("WSL_DISTRO_NAME");
	fake_release("5.15.153.1-microsoft-standard-WSL2");
	assert_true(tt_wsl(root));
	fake_release("4.4.0-19041-Microsoft");
	assert_true(tt_wsl(root));
	fake_release("4.19.128-microsoft-standard");
	assert_true(tt_wsl(root));
	fake_release("6.12.48+deb13-amd64");
	assert_false(tt_wsl(root));
	fake_release(NULL);
	assert_false(tt_wsl(root));
}

static void
test_environment(void **arg)
{
	(void)arg;
	fake_release("6.12.48+deb13-amd64");
	setenv("WSL_DISTRO_NAME", "Ubuntu", 1);
	assert_true(tt_wsl(root));
	setenv("WSL_DISTRO_NAME", "", 1);
	assert_false(tt_wsl(root));
	unsetenv("WSL_DISTRO_NAME");
	assert_false(tt_wsl(root));
	/* the note names both stacks and the way to Windows' own */
	assert_non_null(strstr(TT_WSL_NOTE, "WSL's own Linux network stack, "
	    "not Windows'"));
	assert_non_null(strstr(TT_WSL_NOTE, "tcptune.msi"));
}

/* No root: this machine's own release, from uname(2). */
static void
test_this_machine(void **arg)
{
	struct utsname	u;

	(void)arg;
	unsetenv("WSL_DISTRO_NAME");
	assert_int_equal(uname(&u), 0);
	assert_int_equal(tt_wsl(NULL), strcasestr(u.release, "microsoft") !=
	    NULL || strcasestr(u.release, "wsl") != NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_environment),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests_name("os_posix", tests, setup, teardown);
}
