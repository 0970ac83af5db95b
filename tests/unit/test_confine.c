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
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tcptune.h"
#include "confine.h"

#define SYSCTL_FILE	"/proc/sys/net/core/rmem_max"

static char	rootdir[] = "/tmp/test_confine.XXXXXX";
/* A file anyone may read, made here: not one of the system's, which a
 * container may not have. */
static char	readable[] = "/tmp/test_confine_r.XXXXXX";

/* What a child found, one bit a failure (0: all as expected). */
enum {
	F_DROP = 1, F_UID = 2, F_BACK = 4, F_SYSCTL = 8, F_DIR = 16,
	F_CONFINE = 32, F_OPEN = 64, F_CALL = 128,	/* socket, exec */
	F_READ = 256
};

static const char *const bit_names[] = {
	"confine_drop failed", "wrong uid or gid after the drop",
	"setuid(0) or seteuid(0) worked", "a sysctl opened for writing",
	"the root-only directory opened", "confine_enter failed",
	"a file opened once confined", "socket or exec worked once confined",
	"the world-readable file not readable after the drop"
};

/* The child's bits, spelled out (cmocka prints only the number). */
static void
print_bits(int r)
{
	size_t	i;

	for (i = 0; i < NITEMS(bit_names); i++)
		if (r & (1 << i))
			print_error("child: %s\n", bit_names[i]);
}

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

/*
 * The configured user's ids, or where there is no such user an id of its
 * own from the unused range privdrop_posix.c picks from (never nobody's).
 */
static bool
ids_expected(const struct passwd *pw)
{
	uid_t	uid = getuid();

	if (pw != NULL)
		return uid == pw->pw_uid && geteuid() == pw->pw_uid &&
		    getgid() == pw->pw_gid;
	return uid >= 65520 && uid <= 65533 && geteuid() == uid &&
	    getgid() == (gid_t)uid;
}

static int
after_drop(void)
{
	struct passwd	*pw = getpwnam(TT_PARSE_USER);
	char		 why[256];
	int		 r = 0;

	if (confine_drop(TT_PARSE_USER, why, sizeof(why)) == -1)
		return F_DROP;
	if (!ids_expected(pw))
		r |= F_UID;
	if (setuid(0) == 0 || seteuid(0) == 0)
		r |= F_BACK;
	r |= refused(SYSCTL_FILE, O_WRONLY, 0, F_SYSCTL);
	r |= refused(rootdir, O_RDONLY | O_DIRECTORY, EACCES, F_DIR);
	if (refused(readable, O_RDONLY, 0, 1) == 0)
		r |= F_READ;	/* so what confine refuses, only it refuses */
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
	r |= refused(readable, O_RDONLY, EPERM, F_OPEN);
	r |= refused(SYSCTL_FILE, O_WRONLY, EPERM, F_SYSCTL);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) != -1 || errno != EPERM)
		r |= F_CALL;
	execv("/bin/true", argv);
	if (errno != EPERM)
		r |= F_CALL;
	(void)fd;
	return r;
}

/* fn's bits from a child of its own: through shared memory, since an
 * exit status keeps only eight of them. */
static int
in_child(int (*fn)(void))
{
	int	*bits, status, r;
	pid_t	 pid;

	bits = mmap(NULL, sizeof(*bits), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(bits != MAP_FAILED);
	*bits = -1;
	assert_int_not_equal(pid = fork(), -1);
	if (pid == 0) {
		*bits = fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		print_error("child: killed by signal %d\n", WTERMSIG(status));
	assert_true(WIFEXITED(status));
	r = *bits;
	munmap(bits, sizeof(*bits));
	print_bits(r);
	return r;
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

/* Root's processes hold uid 0; nothing holds an id past every range. */
static void
test_id_held(void **state)
{
	char	why[256];

	(void)state;
	assert_int_equal(confine_id_held(0, why, sizeof(why)), 1);
	assert_int_equal(confine_id_held(4000000000UL, why, sizeof(why)), 0);
}

/* Before anything: root can do what the child must not (the test works). */
static void
test_root_can(void **state)
{
	int	fd;

	(void)state;
	assert_int_not_equal(fd = open(rootdir, O_RDONLY | O_DIRECTORY), -1);
	close(fd);
	assert_int_not_equal(fd = open(readable, O_RDONLY), -1);
	close(fd);
}

static int
setup(void **state)
{
	(void)state;
	int	fd;

	if (mkdtemp(rootdir) == NULL || chmod(rootdir, 0700) == -1)
		return -1;
	if ((fd = mkstemp(readable)) == -1)
		return -1;
	close(fd);
	return chmod(readable, 0644);
}

static int
teardown(void **state)
{
	(void)state;
	unlink(readable);
	return rmdir(rootdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_can),
		cmocka_unit_test(test_id_held),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_confine),
	};

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root to give it up\n");
		return 0;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
