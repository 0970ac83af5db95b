/*
 * lib/trust_posix.c, the one rule for a path root trusts, on a tree made
 * in a temporary directory: each directory on the way root's and closed
 * to group and others, a root-owned sticky one only on the way (or last
 * with TRUST_STICKY_LAST), the last one a reader account's only with
 * TRUST_SERVICE_LAST, a symlink followed only when root owns it and then
 * walked again; trust_open_file() reading through root's links only and
 * saying ENOENT and ELOOP as the system does; trust_write_file() replacing
 * or refusing an existing name, refusing a tree a user can redirect when
 * root writes, and letting a user write their own file; and the sibling
 * rule (below).  The owner cases need root (chown); as anyone else they
 * skip.
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

#define NOBODY	65534

static void
make_file(const char *rel, const char *text, mode_t mode)
{
	char	p[512];
	int	fd;

	path_of(p, sizeof(p), rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd != -1);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(p, mode), 0);
}

static bool
exists(const char *rel)
{
	char		p[512];
	struct stat	st;

	path_of(p, sizeof(p), rel);
	return lstat(p, &st) == 0;
}

/* trust_open_dir(rel, flags) holds rel (same inode) or refuses with want. */
static void
expect_dir(const char *rel, int flags, const char *want)
{
	char		p[512], why[1024];
	struct stat	a, b;
	int		fd;

	path_of(p, sizeof(p), rel);
	fd = trust_open_dir(p, flags, 0, why, sizeof(why));
	if (want == NULL) {
		if (fd < 0)
			print_message("# %s: %s\n", p, why);
		assert_true(fd >= 0);
		assert_int_equal(fstat(fd, &a), 0);
		assert_int_equal(stat(p, &b), 0);
		assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
		close(fd);
		return;
	}
	if (fd >= 0 || strstr(why, want) == NULL)
		print_message("# %s: fd %d, why \"%s\", want \"%s\"\n", p, fd,
		    why, want);
	assert_int_equal(fd, -1);
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

static void
test_dirs(void **arg)
{
	char	p[512], why[1024];
	int	fd;

	(void)arg;
	make_dir("ok", 0755, 0);
	make_dir("ok/sub", 0700, 0);
	expect_dir("ok/sub", 0, NULL);
	expect_dir("ok/./sub/", 0, NULL);
	expect_dir("ok/../ok", 0, "\"..\" in the path");

	make_dir("open", 0775, 0);
	make_dir("open/sub", 0755, 0);
	expect_dir("open/sub", 0, "/open is writable by group or others");
	expect_dir("open", 0, "writable by group or others (owner uid");

	/* Root's sticky /tmp: passed through, but last only to read. */
	make_dir("sticky", 01777, 0);
	make_dir("sticky/sub", 0755, 0);
	expect_dir("sticky/sub", 0, NULL);
	expect_dir("sticky", 0, "/sticky is writable by group or others");
	expect_dir("sticky", TRUST_STICKY_LAST, NULL);

	/* Created when missing: the last component only. */
	path_of(p, sizeof(p), "ok/made");
	fd = trust_open_dir(p, 0, 0700, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	assert_true(exists("ok/made"));
	path_of(p, sizeof(p), "ok/no/made");
	assert_int_equal(trust_open_dir(p, 0, 0700, why, sizeof(why)),
	    TRUSTED_DIR_NOT_CREATED);
	assert_false(exists("ok/no"));
	expect_dir("ok/none", 0, "/ok/none: No such file or directory");

	/* Root's link: followed and its target walked, checks and all. */
	make_link("ok/sub", "rootlink", 0);
	expect_dir("rootlink", 0, NULL);
	make_link("open/sub", "rootlink-open", 0);
	expect_dir("rootlink-open", 0, "/open is writable by group or others");
	make_link("loop", "loop", 0);
	expect_dir("loop", 0, "too many symbolic links");
}

/* What only root can set up: other owners. */
static void
test_owners(void **arg)
{
	(void)arg;
	if (!need_root())
		skip();
	make_dir("nobody", 0755, NOBODY);
	make_dir("nobody/sub", 0755, 0);
	expect_dir("nobody/sub", 0, "/nobody is owned by another user");
	expect_dir("nobody/sub", TRUST_SERVICE_LAST,
	    "/nobody is owned by another user");
	make_dir("stickynobody", 01777, NOBODY);
	make_dir("stickynobody/sub", 0755, 0);
	expect_dir("stickynobody/sub", 0, "/stickynobody is owned by another");

	/* A user's link is never followed, whatever it points to. */
	make_dir("root", 0755, 0);
	make_link("root", "userlink", NOBODY);
	expect_dir("userlink", 0, "/userlink is a symbolic link owned by uid "
	    "65534; only root's links are followed");
	expect_dir("userlink", TRUST_SERVICE_LAST, "symbolic link owned by");

	/* The reader account's directory: last only, closed to others. */
	make_dir("root/textfile", 0755, NOBODY);
	expect_dir("root/textfile", 0, "/textfile is owned by another user");
	expect_dir("root/textfile", TRUST_SERVICE_LAST, NULL);
	make_dir("root/textfile/below", 0755, 0);
	expect_dir("root/textfile/below", TRUST_SERVICE_LAST,
	    "/textfile is owned by another user");
	make_dir("root/grouptext", 0775, NOBODY);
	expect_dir("root/grouptext", TRUST_SERVICE_LAST,
	    "writable by group or others");
	make_link("textfile", "root/textlink", NOBODY);
	expect_dir("root/textlink", TRUST_SERVICE_LAST,
	    "symbolic link owned by uid 65534");
}

static void
test_open_file(void **arg)
{
	char	p[512], why[1024], buf[16];
	int	fd;

	(void)arg;
	make_dir("f", 0755, 0);
	make_file("f/conf", "root's", 0644);
	make_link("conf", "f/link", 0);
	path_of(p, sizeof(p), "f/link");
	fd = trust_open_file(p, 0, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), 6);
	assert_int_equal(trust_file_check(fd, why, sizeof(why)), 0);
	close(fd);

	path_of(p, sizeof(p), "f/missing");
	assert_int_equal(trust_open_file(p, 0, why, sizeof(why)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(why, "");
	make_link("selfloop", "f/selfloop", 0);
	path_of(p, sizeof(p), "f/selfloop");
	assert_int_equal(trust_open_file(p, 0, why, sizeof(why)), -1);
	assert_int_equal(errno, ELOOP);
	assert_string_equal(why, "");
	path_of(p, sizeof(p), "f/");
	assert_int_equal(trust_open_file(p, 0, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not name a file"));

	if (!need_root())
		skip();
	make_link("conf", "f/userlink", NOBODY);
	path_of(p, sizeof(p), "f/userlink");
	assert_int_equal(trust_open_file(p, 0, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/f/userlink is a symbolic link owned by "
	    "uid 65534"));
	make_file("f/theirs", "x", 0644);
	path_of(p, sizeof(p), "f/theirs");
	assert_int_equal(chown(p, NOBODY, (gid_t)-1), 0);
	fd = trust_open_file(p, 0, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(trust_file_check(fd, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "owner 65534)"));
	close(fd);
}

static void
expect_content(const char *rel, const char *want, mode_t mode)
{
	char		p[512], buf[64];
	struct stat	st;
	ssize_t		n;
	int		fd;

	path_of(p, sizeof(p), rel);
	fd = open(p, O_RDONLY | O_NOFOLLOW);
	assert_true(fd != -1);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
	close(fd);
}

static void
test_write(void **arg)
{
	char	p[512], why[1024];

	(void)arg;
	make_dir("w", 0755, 0);
	path_of(p, sizeof(p), "w/out");
	assert_int_equal(trust_write_file(p, 0, "one", 3, 0644, why,
	    sizeof(why)), 0);
	expect_content("w/out", "one", 0644);
	assert_int_equal(trust_write_file(p, TRUST_NO_REPLACE, "two", 3, 0600,
	    why, sizeof(why)), -1);
	assert_int_equal(errno, EEXIST);
	expect_content("w/out", "one", 0644);
	assert_int_equal(trust_write_file(p, 0, "two", 3, 0600, why,
	    sizeof(why)), 0);
	expect_content("w/out", "two", 0600);
	/* A link in the name's place is replaced, never written through. */
	make_file("w/target", "target", 0644);
	make_link("target", "w/named", 0);
	path_of(p, sizeof(p), "w/named");
	assert_int_equal(trust_write_file(p, TRUST_NO_REPLACE, "x", 1, 0644,
	    why, sizeof(why)), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(trust_write_file(p, 0, "new", 3, 0644, why,
	    sizeof(why)), 0);
	expect_content("w/named", "new", 0644);
	expect_content("w/target", "target", 0644);
}

/*
 * Root writing under a directory a user owns: the user could swap the
 * last directory for a link to /etc, so nothing is written; as that user
 * (seteuid), writing their own file is theirs to decide.
 */
static void
test_write_owners(void **arg)
{
	char	p[512], why[1024];
	int	rv;

	(void)arg;
	if (!need_root())
		skip();
	make_dir("home", 0755, NOBODY);
	make_dir("home/out", 0755, NOBODY);
	make_dir("etc", 0755, 0);
	path_of(p, sizeof(p), "home/out/f");
	assert_int_equal(trust_write_file(p, TRUST_SERVICE_LAST, "x", 1, 0644,
	    why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/home is owned by another user"));
	assert_false(exists("home/out/f"));
	assert_int_equal(seteuid(NOBODY), 0);
	rv = trust_write_file(p, 0, "mine", 4, 0644, why, sizeof(why));
	assert_int_equal(seteuid(0), 0);
	assert_int_equal(rv, 0);
	expect_content("home/out/f", "mine", 0644);

	/* The reader's own directory, last: root writes into it. */
	make_dir("etc/textfile", 0755, NOBODY);
	path_of(p, sizeof(p), "etc/textfile/tcptune.prom");
	assert_int_equal(trust_write_file(p, TRUST_SERVICE_LAST, "m", 1, 0644,
	    why, sizeof(why)), 0);
	expect_content("etc/textfile/tcptune.prom", "m", 0644);
	assert_int_equal(trust_write_file(p, 0, "m", 1, 0644, why,
	    sizeof(why)), -1);
	assert_non_null(strstr(why, "/textfile is owned by another user"));
}

/*
 * ---- the sibling rule, on a tree of its own: a program beside the running one is allowed only when it
 * and every directory above it are root's or the running program's
 * owner's and writable by nobody else.  The hostile cases: a user's
 * helper beside root's program, a user's or a group-writable directory
 * on the way, a sticky world-writable last directory (/tmp itself), a
 * link swapped in for the helper, another user's helper in a user's
 * checkout; and the case that must work, a user's own checkout run by
 * root.  The owner cases need root (chown); as anyone else they skip.
 */

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

/*
 * One group (one TAP plan), two trees: the trust rule's, made before its
 * first case and removed after its last, then the sibling rule's.
 */
static int
trust_tree(void **arg)
{
	(void)arg;
	return tree_setup("test_trust");
}

static int
sibling_tree(void **arg)
{
	(void)arg;
	return tree_setup("test_sibling");
}

static int
tree_done(void **arg)
{
	(void)arg;
	return tree_teardown();
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_dirs, trust_tree),
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_open_file),
		cmocka_unit_test(test_write),
		cmocka_unit_test_teardown(test_write_owners, tree_done),
		cmocka_unit_test_setup(test_root_tree, sibling_tree),
		cmocka_unit_test(test_dirs_on_the_way),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_users_checkout),
		cmocka_unit_test_teardown(test_beside, tree_done),
	};

	return cmocka_run_group_tests_name("trust", tests, NULL, NULL);
}
