/*
 * lib/trust_posix.c's sibling rule, on a tree made in a temporary
 * directory: a program beside the running one is allowed only when it
 * and every directory above it are root's or the running program's
 * owner's and writable by nobody else.  The hostile cases: a user's
 * helper beside root's program, a user's or a group-writable directory
 * on the way, a sticky world-writable last directory (/tmp itself), a
 * link swapped in for the helper, another user's helper in a user's
 * checkout; and the case that must work, a user's own checkout run by
 * root.  The owner cases need root (chown); as anyone else they skip.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifdef __APPLE__
#define _DARWIN_C_SOURCE	/* mkdtemp beside _POSIX_C_SOURCE */
#endif

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tcptune.h"
#include "tree_fixture.h"

#define USER	65534	/* nobody: a user who is not root */
#define OTHER	65533	/* another one */

static void
make_prog(const char *rel, mode_t mode, uid_t uid)
{
	char	p[512];
	int	fd;

	path_of(p, sizeof(p), rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd != -1);
	close(fd);
	assert_int_equal(chmod(p, mode), 0);
	assert_int_equal(chown(p, uid, (gid_t)-1), 0);
}

/*
 * rel beside the program self (both under tree_top): allowed (want NULL,
 * the path the expected one), or refused with want in the reason.
 */
static void
expect(const char *self, const char *rel, const char *want_path,
    const char *want)
{
	char	s[512], path[PATH_MAX], why[1024], wp[512];
	int	rv;

	path_of(s, sizeof(s), self);
	rv = sibling_path(s, rel, path, sizeof(path), why, sizeof(why));
	if (want == NULL) {
		if (rv != 0)
			print_message("# %s beside %s: %s\n", rel, s, why);
		assert_int_equal(rv, 0);
		path_of(wp, sizeof(wp), want_path);
		assert_string_equal(path, wp);
		return;
	}
	if (rv == 0 || strstr(why, want) == NULL)
		print_message("# %s beside %s: rv %d, why \"%s\", want "
		    "\"%s\"\n", rel, s, rv, why, want);
	assert_int_equal(rv, -1);
	assert_non_null(strstr(why, want));
}

static bool
need_root(void)
{
	if (geteuid() == 0)
		return true;
	print_message("# not root: cannot chown test files\n");
	return false;
}

/* An install, and a root build tree: root's all the way. */
static void
test_root_tree(void **arg)
{
	char	s[512], path[PATH_MAX], why[1024];

	(void)arg;
	if (!need_root())
		return;
	make_dir("usr", 0755, 0);
	make_dir("usr/bin", 0755, 0);
	make_dir("usr/libexec", 0755, 0);
	make_dir("usr/libexec/tcptune", 0755, 0);
	make_prog("usr/bin/prog", 0755, 0);
	make_prog("usr/bin/helper", 0755, 0);
	make_prog("usr/libexec/tcptune/full", 0755, 0);
	expect("usr/bin/prog", "helper", "usr/bin/helper", NULL);
	expect("usr/bin/prog", "../libexec/tcptune/full",
	    "usr/libexec/tcptune/full", NULL);

	/* Nothing there: ENOENT, so the caller looks elsewhere. */
	path_of(s, sizeof(s), "usr/bin/prog");
	assert_int_equal(sibling_path(s, "none", path, sizeof(path), why,
	    sizeof(why)), -1);
	assert_int_equal(errno, ENOENT);

	/* The helper itself: a user's, group-writable, not executable. */
	make_prog("usr/bin/users", 0755, USER);
	expect("usr/bin/prog", "users", NULL, "owner uid 65534, mode 0755");
	make_prog("usr/bin/groupw", 0775, 0);
	expect("usr/bin/prog", "groupw", NULL, "mode 0775: must be");
	make_prog("usr/bin/noexec", 0644, 0);
	expect("usr/bin/prog", "noexec", NULL, "must be an executable file");
}

/* A directory on the way that someone else may change. */
static void
test_dirs_on_the_way(void **arg)
{
	(void)arg;
	if (!need_root())
		return;
	make_dir("user", 0755, USER);
	make_dir("user/bin", 0755, 0);
	make_prog("user/bin/prog", 0755, 0);
	make_prog("user/bin/helper", 0755, 0);
	expect("user/bin/prog", "helper", NULL,
	    "/user is owned by another user");

	make_dir("group", 0775, 0);
	make_dir("group/bin", 0755, 0);
	make_prog("group/bin/prog", 0755, 0);
	make_prog("group/bin/helper", 0755, 0);
	expect("group/bin/prog", "helper", NULL,
	    "/group is writable by group or others");

	/* Root's sticky directory: passed through, never the last one. */
	make_dir("sticky", 01777, 0);
	make_dir("sticky/bin", 0755, 0);
	make_prog("sticky/bin/prog", 0755, 0);
	make_prog("sticky/bin/helper", 0755, 0);
	expect("sticky/bin/prog", "helper", "sticky/bin/helper", NULL);
	make_prog("sticky/prog", 0755, 0);
	make_prog("sticky/helper", 0755, USER);
	expect("sticky/prog", "helper", NULL,
	    "/sticky is writable by group or others");
	make_prog("sticky/roots", 0755, 0);
	expect("sticky/prog", "roots", NULL,
	    "/sticky is writable by group or others");
}

/* A link swapped in for the helper. */
static void
test_links(void **arg)
{
	char	evil[512];

	(void)arg;
	if (!need_root())
		return;
	make_dir("l", 0755, 0);
	make_dir("l/bin", 0755, 0);
	make_dir("l/user", 0755, USER);
	make_prog("l/bin/prog", 0755, 0);
	make_prog("l/bin/real", 0755, 0);
	make_prog("l/user/evil", 0755, USER);
	make_link("real", "l/bin/users-link", USER);
	expect("l/bin/prog", "users-link", NULL,
	    "is a symbolic link owned by uid 65534");
	path_of(evil, sizeof(evil), "l/user/evil");
	make_link(evil, "l/bin/roots-link", 0);
	expect("l/bin/prog", "roots-link", NULL,
	    "/l/user is owned by another user");
	make_link("real", "l/bin/good-link", 0);
	expect("l/bin/prog", "good-link", "l/bin/good-link", NULL);
}

/*
 * A user's own checkout: root running it runs what the user built, and
 * the helper beside it is exactly as trusted.  Someone else's is not.
 */
static void
test_users_checkout(void **arg)
{
	(void)arg;
	if (!need_root())
		return;
	make_dir("home", 0755, 0);
	make_dir("home/user", 0755, USER);
	make_dir("home/user/src", 0755, USER);
	make_prog("home/user/src/prog", 0755, USER);
	make_prog("home/user/src/helper", 0755, USER);
	make_prog("home/user/src/others", 0755, OTHER);
	make_prog("home/user/src/groupw", 0775, USER);
	expect("home/user/src/prog", "helper", "home/user/src/helper", NULL);
	expect("home/user/src/prog", "others", NULL, "owner uid 65533");
	expect("home/user/src/prog", "groupw", NULL, "mode 0775");

	/* Root's program in that checkout: the user's helper is not root's. */
	make_prog("home/user/src/rootprog", 0755, 0);
	expect("home/user/src/rootprog", "helper", NULL,
	    "/home/user is owned by another user");
}

static void
test_beside(void **arg)
{
	(void)arg;
	assert_true(sibling_beside("/a/b/prog", "/a/b/helper"));
	assert_false(sibling_beside("/a/b/prog", "/a/b/c/helper"));
	assert_false(sibling_beside("/a/b/prog", "/a/helper"));
	assert_false(sibling_beside("/a/b/prog", "/a/bc/helper"));
	assert_false(sibling_beside("prog", "/a/helper"));
}

static int
setup(void **arg)
{
	(void)arg;
	return tree_setup("test_sibling");
}

static int
teardown(void **arg)
{
	(void)arg;
	return tree_teardown();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_tree),
		cmocka_unit_test(test_dirs_on_the_way),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_users_checkout),
		cmocka_unit_test(test_beside),
	};

	return cmocka_run_group_tests_name("sibling", tests, setup, teardown);
}
