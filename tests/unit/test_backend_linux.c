/*
 * The Linux backend against a temporary root: the name -> path mapping
 * (nothing may lead out of the root), reading, writing, and the errors a
 * real /proc/sys gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptune.h"

struct fixture {
	char			 root[64];
	struct sysctl_backend	*be;
};

static void
put(const char *root, const char *rel, const char *content, mode_t mode)
{
	char	path[PATH_MAX], cmd[PATH_MAX + 32];
	FILE	*fp;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	assert_int_equal(system(cmd), 0);
	assert_non_null(fp = fopen(path, "w"));
	fputs(content, fp);
	fclose(fp);
	chmod(path, mode);
}

static int
setup(void **arg)
{
	struct fixture	*f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/tt-linux.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	put(f->root, "net/ipv4/tcp_rmem", "4096\t131072\t6291456\n", 0644);
	put(f->root, "net/ipv4/tcp_congestion_control", "cubic\n", 0644);
	put(f->root, "secret", "do not read\n", 0644);
	f->be = backend_linux_new(f->root);
	assert_non_null(f->be);
	*arg = f;
	return 0;
}

static int
teardown(void **arg)
{
	struct fixture	*f = *arg;
	char		 cmd[128];

	backend_free(f->be);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->root);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void
test_path_mapping(void **arg)
{
	char	out[PATH_MAX];

	(void)arg;
	assert_int_equal(linux_sysctl_path("/proc/sys", "net.ipv4.tcp_rmem",
	    out, sizeof(out)), 0);
	assert_string_equal(out, "/proc/sys/net/ipv4/tcp_rmem");
	assert_int_equal(linux_sysctl_path("/r", "net.ipv4.conf.eth-0.rp_filter",
	    out, sizeof(out)), 0);
	assert_string_equal(out, "/r/net/ipv4/conf/eth-0/rp_filter");
}

/* Anything that could name a path outside the root is refused. */
static void
test_path_escapes_refused(void **arg)
{
	static const char *bad[] = {
		"net..ipv4", "..", ".net.ipv4", "net.ipv4.", "net/../..",
		"net.ipv4/../../etc/passwd", "net. ipv4", "net.ipv4 .x",
		"secret", "", "net.-x", "net.ip\tv4", "net.ipv4.*",
		"net.ipv4.tcp_rmem\n",
	};
	char	out[PATH_MAX];
	size_t	i;

	(void)arg;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(linux_sysctl_path("/proc/sys", bad[i], out,
		    sizeof(out)), EINVAL);
	memset(out, 'a', 200);
	out[3] = '.';
	out[200] = '\0';
	{
		char name[256];

		memcpy(name, out, 201);
		assert_int_equal(linux_sysctl_path("/proc/sys", name, out,
		    sizeof(out)), EINVAL);
	}
	assert_int_equal(linux_sysctl_path("/proc/sys", "net.ipv4.x", out, 12),
	    ENAMETOOLONG);
}

static void
test_get_normalizes(void **arg)
{
	struct fixture	*f = *arg;
	char		 buf[TT_VALUE_MAX];

	assert_int_equal(f->be->get(f->be, "net.ipv4.tcp_rmem", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "4096 131072 6291456");
	assert_int_equal(f->be->get(f->be, "net.ipv4.nosuch", buf,
	    sizeof(buf)), ENOENT);
	assert_int_equal(f->be->get(f->be, "net.ipv4", buf, sizeof(buf)),
	    EISDIR);
}

static void
test_set_writes_whole_value(void **arg)
{
	struct fixture	*f = *arg;
	char		 buf[TT_VALUE_MAX];

	assert_int_equal(f->be->set(f->be, "net.ipv4.tcp_congestion_control",
	    "bbr"), 0);
	assert_int_equal(f->be->get(f->be, "net.ipv4.tcp_congestion_control",
	    buf, sizeof(buf)), 0);
	assert_string_equal(buf, "bbr");
	/* shorter than before: no stale tail */
	assert_int_equal(f->be->set(f->be, "net.ipv4.tcp_rmem", "1 2 3"), 0);
	assert_int_equal(f->be->get(f->be, "net.ipv4.tcp_rmem", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "1 2 3");
	/* never creates a key */
	assert_int_equal(f->be->set(f->be, "net.ipv4.newkey", "1"), ENOENT);
}

/*
 * A key the kernel will not let us write.  Root writes even a 0444 file,
 * so as root a directory stands in for it (EISDIR); the namespace system
 * test shows the real EACCES of net.core.* there.
 */
static void
test_set_refused(void **arg)
{
	struct fixture	*f = *arg;

	if (geteuid() == 0) {
		assert_int_equal(f->be->set(f->be, "net.ipv4", "1"), EISDIR);
		return;
	}
	put(f->root, "net/core/rmem_max", "212992\n", 0444);
	assert_int_equal(f->be->set(f->be, "net.core.rmem_max", "1"), EACCES);
}

/* A symlink inside the root is not followed out of it. */
static void
test_symlink_not_followed(void **arg)
{
	struct fixture	*f = *arg;
	char		 path[PATH_MAX], buf[TT_VALUE_MAX];

	snprintf(path, sizeof(path), "%s/net/ipv4/link", f->root);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	assert_int_equal(f->be->get(f->be, "net.ipv4.link", buf, sizeof(buf)),
	    EINVAL);
}

static void
test_value_too_long(void **arg)
{
	struct fixture	*f = *arg;
	char		 big[TT_VALUE_MAX * 8], buf[TT_VALUE_MAX];

	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(f->root, "net/ipv4/big", big, 0644);
	assert_int_equal(f->be->get(f->be, "net.ipv4.big", buf, sizeof(buf)),
	    ERANGE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_mapping),
		cmocka_unit_test(test_path_escapes_refused),
		cmocka_unit_test_setup_teardown(test_get_normalizes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_set_writes_whole_value,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_value_too_long, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
