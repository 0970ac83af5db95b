/*
 * The sysctl-directory backend against a temporary root: the name -> path
 * mapping (nothing may lead out of the root), reading, writing, and the
 * errors a real /proc/sys gives.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptune.h"
#include "fake_open.h"

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

	snprintf(f->root, sizeof(f->root), "/tmp/tt-sysctl-dir.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	put(f->root, "net/ipv4/tcp_rmem", "4096\t131072\t6291456\n", 0644);
	put(f->root, "net/ipv4/tcp_congestion_control", "cubic\n", 0644);
	put(f->root, "secret", "do not read\n", 0644);
	f->be = backend_sysctl_dir_new(f->root);
	assert_non_null(f->be);
	*arg = f;
	return 0;
}

static int
teardown(void **arg)
{
	struct fixture	*f = *arg;
	char		 cmd[128];

	fake_open_freebsd = false;	/* a failed test may leave it set */
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
	assert_int_equal(sysctl_dir_path("/proc/sys", "net.ipv4.tcp_rmem",
	    out, sizeof(out)), 0);
	assert_string_equal(out, "/proc/sys/net/ipv4/tcp_rmem");
	assert_int_equal(sysctl_dir_path("/r", "net.ipv4.conf.eth-0.rp_filter",
	    out, sizeof(out)), 0);
	assert_string_equal(out, "/r/net/ipv4/conf/eth-0/rp_filter");
}

/*
 * The name status reports says which tree: Linux's own, or a directory
 * given with -r on any platform (never "linux" on a Mac).
 */
static void
test_name_says_which_tree(void **arg)
{
	struct sysctl_backend	*be;

	(void)arg;
	assert_non_null(be = backend_sysctl_dir_new(TT_PROC_SYS));
	assert_string_equal(be->name, "sysctl-dir (/proc/sys)");
	backend_free(be);
	assert_non_null(be = backend_sysctl_dir_new("/tmp/root"));
	assert_string_equal(be->name, "sysctl-dir");
	backend_free(be);
	assert_non_null(be = backend_sysctl_dir_new("/proc/sys/net"));
	assert_string_equal(be->name, "sysctl-dir");
	backend_free(be);
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
		assert_int_equal(sysctl_dir_path("/proc/sys", bad[i], out,
		    sizeof(out)), EINVAL);
	memset(out, 'a', 200);
	out[3] = '.';
	out[200] = '\0';
	{
		char name[256];

		memcpy(name, out, 201);
		assert_int_equal(sysctl_dir_path("/proc/sys", name, out,
		    sizeof(out)), EINVAL);
	}
	assert_int_equal(sysctl_dir_path("/proc/sys", "net.ipv4.x", out, 12),
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

/* The same where open(O_NOFOLLOW) says EMLINK, as FreeBSD's does. */
static void
test_symlink_not_followed_emlink(void **arg)
{
	struct fixture	*f = *arg;
	char		 path[PATH_MAX], buf[TT_VALUE_MAX];

	snprintf(path, sizeof(path), "%s/net/ipv4/link", f->root);
	assert_int_equal(symlink("/etc/hostname", path), 0);
	fake_open_freebsd = true;
	assert_int_equal(f->be->get(f->be, "net.ipv4.link", buf, sizeof(buf)),
	    EINVAL);
	assert_int_equal(f->be->set(f->be, "net.ipv4.link", "1"), EINVAL);
	fake_open_freebsd = false;
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

/*
 * Kernel errors in a mix: one root holding a healthy key beside a key for
 * every way /proc/sys refuses, all used in one pass.  Each gets its own
 * errno and the healthy keys are read and written as if alone.  The
 * permission errors need a user that permissions stop, so as root the pass
 * runs in a child that drops to nobody (65534), the owner of the healthy
 * files; otherwise in this process.
 */
struct mix_op {
	const char	*name;
	const char	*set;		/* NULL: a get */
	int		 err;		/* expected */
};

static const struct mix_op mix_ops[] = {
	{ "net.ipv4.tcp_rmem",		"4096 131072 67108864",	0 },
	{ "net.ipv4.tcp_rmem",		NULL,			0 },
	{ "net.ipv4.nosuch",		NULL,			ENOENT },
	{ "net.ipv4.nosuch",		"1",			ENOENT },
	{ "net.core.rmem_max",		NULL,			0 },
	{ "net.core.rmem_max",		"67108864",		EACCES },
	{ "net.ipv4.secret",		NULL,			EACCES },
	{ "net.ipv4.secret",		"1",			EACCES },
	{ "net.ipv4.conf",		NULL,			EISDIR },
	{ "net.ipv4.conf",		"1",			EISDIR },
	{ "net.ipv4.empty",		NULL,			ERANGE },
	{ "net.ipv4.huge",		NULL,			ERANGE },
	{ "net.ipv4.link",		NULL,			EINVAL },
	{ "net.ipv4.link",		"1",			EINVAL },
	{ "net.ipv4..x",		"1",			EINVAL },
	{ "net.ipv4.tcp_wmem",		"4096 16384 67108864",	0 },
	{ "net.ipv4.tcp_wmem",		NULL,			0 },
};
#define NMIX	(sizeof(mix_ops) / sizeof(mix_ops[0]))

static void
mix_root(struct fixture *f)
{
	char	path[PATH_MAX], huge[TT_VALUE_MAX * 5];

	memset(huge, '1', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	put(f->root, "net/ipv4/tcp_wmem", "4096\t16384\t4194304\n", 0644);
	put(f->root, "net/core/rmem_max", "212992\n", 0444);
	put(f->root, "net/ipv4/secret", "1\n", 0000);
	put(f->root, "net/ipv4/conf/all/rp_filter", "0\n", 0644);
	put(f->root, "net/ipv4/empty", "", 0644);
	put(f->root, "net/ipv4/huge", huge, 0644);
	snprintf(path, sizeof(path), "%s/net/ipv4/link", f->root);
	assert_int_equal(symlink("tcp_rmem", path), 0);
	assert_int_equal(chmod(f->root, 0755), 0);
}

static void
run_mix(struct fixture *f, int *res)
{
	char	buf[TT_VALUE_MAX];
	size_t	i;

	for (i = 0; i < NMIX; i++)
		res[i] = mix_ops[i].set ?
		    f->be->set(f->be, mix_ops[i].name, mix_ops[i].set) :
		    f->be->get(f->be, mix_ops[i].name, buf, sizeof(buf));
}

/* run_mix as nobody, the results back through a pipe. */
static void
run_mix_as_nobody(struct fixture *f, int *res)
{
	char	path[PATH_MAX];
	int	fds[2], st;
	pid_t	pid;

	snprintf(path, sizeof(path), "%s/net/ipv4/tcp_rmem", f->root);
	assert_int_equal(chown(path, 65534, 65534), 0);
	snprintf(path, sizeof(path), "%s/net/ipv4/tcp_wmem", f->root);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(pipe(fds), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		close(fds[0]);
		if (setgroups(0, NULL) == -1 || setgid(65534) == -1 ||
		    setuid(65534) == -1)
			_exit(2);
		run_mix(f, res);
		_exit(write(fds[1], res, NMIX * sizeof(*res)) ==
		    (ssize_t)(NMIX * sizeof(*res)) ? 0 : 3);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], res, NMIX * sizeof(*res)),
	    (ssize_t)(NMIX * sizeof(*res)));
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void
test_error_mix(void **arg)
{
	struct fixture	*f = *arg;
	char		 buf[TT_VALUE_MAX];
	int		 res[NMIX];
	size_t		 i, bad = 0;

	mix_root(f);
	if (geteuid() == 0)
		run_mix_as_nobody(f, res);
	else
		run_mix(f, res);
	for (i = 0; i < NMIX; i++) {
		if (res[i] == mix_ops[i].err)
			continue;
		print_error("%s %s: %s, expected %s\n", mix_ops[i].set ?
		    "set" : "get", mix_ops[i].name, errno_name(res[i]),
		    errno_name(mix_ops[i].err));
		bad++;
	}
	assert_int_equal(bad, 0);
	assert_int_equal(f->be->get(f->be, "net.ipv4.tcp_rmem", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "4096 131072 67108864");
	assert_int_equal(f->be->get(f->be, "net.core.rmem_max", buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "212992");
}

/*
 * A write the kernel takes only in part comes back as EIO, not success
 * (the file size limit makes one, as honestly as a proc handler's short
 * write); a write it takes none of gives the kernel's own errno.
 */
static void
test_short_write_is_eio(void **arg)
{
	struct fixture	*f = *arg;
	struct rlimit	 old, lim;
	void		(*oldsig)(int);
	int		 short_err, none_err;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	oldsig = signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 4;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	short_err = f->be->set(f->be, "net.ipv4.tcp_rmem", "1 2 3");
	lim.rlim_cur = 0;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	none_err = f->be->set(f->be, "net.ipv4.tcp_rmem", "1 2 3");
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, oldsig);
	assert_int_equal(short_err, EIO);
	assert_int_equal(none_err, EFBIG);
	/* and the next write, with no limit, goes in whole */
	assert_int_equal(f->be->set(f->be, "net.ipv4.tcp_rmem", "1 2 3"), 0);
}

/*
 * A global key refused as a child network namespace refuses it: the
 * backend explains it by the release in the tree's kernel/osrelease.
 */
static void
test_global_key_explained(void **arg)
{
	struct fixture	*f = *arg;
	char		 why[256];

	put(f->root, "kernel/osrelease", "6.10.14-amd64\n", 0444);
	put(f->root, "net/core/somaxconn", "4096\n", 0644);
	assert_int_equal(f->be->set(f->be, "net.core.rmem_max", "8388608"),
	    ENOENT);
	assert_non_null(f->be->explain);
	assert_int_equal(f->be->explain(f->be, "net.core.rmem_max", why,
	    sizeof(why)), 0);
	assert_string_equal(why, "a global key, absent from a child network "
	    "namespace before Linux 6.11 (this is 6.10): set it on the host");
	/* Only the key that failed last, and only as a namespace fails. */
	assert_int_equal(f->be->explain(f->be, "net.core.wmem_max", why,
	    sizeof(why)), -1);
	assert_int_equal(f->be->set(f->be, "net.ipv4.tcp_nosuch", "1"),
	    ENOENT);
	assert_int_equal(f->be->explain(f->be, "net.ipv4.tcp_nosuch", why,
	    sizeof(why)), -1);
	/* From 6.11 the key is there: its absence is not the namespace's. */
	put(f->root, "kernel/osrelease", "6.11.0\n", 0444);
	assert_int_equal(f->be->get(f->be, "net.core.rmem_max", why,
	    sizeof(why)), ENOENT);
	assert_int_equal(f->be->explain(f->be, "net.core.rmem_max", why,
	    sizeof(why)), -1);
}

/*
 * check's probe: a key writable by nobody (as a child network namespace
 * of Linux 6.11 on shows a global key, 0444), or missing, is a set
 * refused, explained as the daemon's failed write is; nothing written.
 */
static void
test_probe_explained(void **arg)
{
	struct fixture	*f = *arg;
	char		 why[256];

	put(f->root, "kernel/osrelease", "6.12.1\n", 0444);
	put(f->root, "net/core/rmem_max", "212992\n", 0444);
	assert_non_null(f->be->probe);
	assert_int_equal(f->be->probe(f->be, "net.core.rmem_max"), EACCES);
	assert_int_equal(f->be->explain(f->be, "net.core.rmem_max", why,
	    sizeof(why)), 0);
	assert_string_equal(why, "a global key, read only in a child network "
	    "namespace from Linux 6.11: set it on the host");
	assert_int_equal(f->be->get(f->be, "net.core.rmem_max", why,
	    sizeof(why)), 0);
	assert_string_equal(why, "212992");
	/* writable: nothing to say; missing and not global: not explained */
	assert_int_equal(f->be->probe(f->be, "net.ipv4.tcp_rmem"), 0);
	assert_int_equal(f->be->probe(f->be, "net.ipv4.tcp_nosuch"), ENOENT);
	assert_int_equal(f->be->explain(f->be, "net.ipv4.tcp_nosuch", why,
	    sizeof(why)), -1);
}

/*
 * A congestion control the kernel has not (ENOENT on the write): the
 * backend names those it offers, from the same tree.
 */
static void
test_congestion_control_explained(void **arg)
{
	struct fixture	*f = *arg;
	char		 why[256], path[PATH_MAX];

	/* as the kernel's handler refuses it: the tree's file is not there */
	snprintf(path, sizeof(path), "%s/net/ipv4/tcp_congestion_control",
	    f->root);
	assert_int_equal(unlink(path), 0);
	put(f->root, "net/ipv4/tcp_available_congestion_control",
	    "reno cubic\n", 0444);
	assert_int_equal(f->be->set(f->be, "net.ipv4.tcp_congestion_control",
	    "bbr2"), ENOENT);
	assert_int_equal(f->be->explain(f->be,
	    "net.ipv4.tcp_congestion_control", why, sizeof(why)), 0);
	assert_string_equal(why, "not available here (available: reno cubic)");
	/* A read that fails is not a word refused. */
	assert_int_equal(f->be->get(f->be, "net.ipv4.tcp_congestion_control",
	    why, sizeof(why)), ENOENT);
	assert_int_equal(f->be->explain(f->be,
	    "net.ipv4.tcp_congestion_control", why, sizeof(why)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_mapping),
		cmocka_unit_test(test_path_escapes_refused),
		cmocka_unit_test(test_name_says_which_tree),
		cmocka_unit_test_setup_teardown(test_get_normalizes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_set_writes_whole_value,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_symlink_not_followed_emlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_value_too_long, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_error_mix, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_global_key_explained,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_explained,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_congestion_control_explained, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_write_is_eio, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
