/*
 * What the parse helper does to itself (daemon/privdrop_posix.c,
 * daemon/confine_linux.c), each case in a child of its own: after the
 * drop it runs as the configured user with no way back to root, cannot
 * open a sysctl for writing or a root-only directory such as the socket
 * directory; once confined it cannot open any file, make a socket or exec
 * even what it could before.  Needs root (skipped otherwise).  A sysctl
 * is only opened, never written: this machine's values stay as they are.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcptune.h"
#include "confine.h"

#define SYSCTL_FILE	"/proc/sys/net/core/rmem_max"

static char	rootdir[] = "/tmp/test_confine.XXXXXX";

/* What a child found, one bit a failure (0: all as expected). */
enum {
	F_DROP = 1, F_UID = 2, F_BACK = 4, F_SYSCTL = 8, F_DIR = 16,
	F_CONFINE = 32, F_OPEN = 64, F_CALL = 128	/* socket, exec */
};

/* open(path) must fail with err (0: any error). */
static int
refused(const char *path, int flags, int err, int bit)
{
	int	fd = open(path, flags);

	if (fd != -1) {
		close(fd);	/* opened, never written */
		return bit;
	}
	return err == 0 || errno == err ? 0 : bit;
}

static int
after_drop(void)
{
	struct passwd	*pw = getpwnam(TT_PARSE_USER);
	char		 why[256];
	int		 r = 0;

	if (pw == NULL || confine_drop(TT_PARSE_USER, why, sizeof(why)) == -1)
		return F_DROP;
	if (getuid() != pw->pw_uid || geteuid() != pw->pw_uid ||
	    getgid() != pw->pw_gid)
		r |= F_UID;
	if (setuid(0) == 0 || seteuid(0) == 0)
		r |= F_BACK;
	r |= refused(SYSCTL_FILE, O_WRONLY, 0, F_SYSCTL);
	r |= refused(rootdir, O_RDONLY | O_DIRECTORY, EACCES, F_DIR);
	return r;
}

static int
after_confine(void)
{
	const char	*what = NULL;
	char		 why[256], *argv[] = { (char *)"true", NULL };
	int		 r, fd;

	if ((r = after_drop()) != 0)
		return r;
	if (confine_enter(why, sizeof(why), &what) == -1 || what == NULL)
		return F_CONFINE;
	r |= refused("/etc/hostname", O_RDONLY, EPERM, F_OPEN);
	r |= refused(SYSCTL_FILE, O_WRONLY, EPERM, F_SYSCTL);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) != -1 || errno != EPERM)
		r |= F_CALL;
	execv("/bin/true", argv);
	if (errno != EPERM)
		r |= F_CALL;
	(void)fd;
	return r;
}

static int
in_child(int (*fn)(void))
{
	pid_t	pid;
	int	status;

	assert_int_not_equal(pid = fork(), -1);
	if (pid == 0)
		_exit(fn());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_drop(void **state)
{
	(void)state;
	assert_int_equal(in_child(after_drop), 0);
}

static void
test_confine(void **state)
{
	(void)state;
	assert_int_equal(in_child(after_confine), 0);
}

/* Before anything: root can do what the child must not (the test works). */
static void
test_root_can(void **state)
{
	int	fd;

	(void)state;
	assert_int_not_equal(fd = open(rootdir, O_RDONLY | O_DIRECTORY), -1);
	close(fd);
	assert_int_not_equal(fd = open("/etc/hostname", O_RDONLY), -1);
	close(fd);
}

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(rootdir) == NULL || chmod(rootdir, 0700) == -1)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return rmdir(rootdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_can),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_confine),
	};

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root to give it up\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
