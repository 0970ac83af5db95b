/*
 * The trust-rule tests' tree (tree_fixture.h).  Owners are set only when
 * not root's, so that the cases that need no chown run as anyone.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifdef __APPLE__
#define _DARWIN_C_SOURCE	/* mkdtemp beside _POSIX_C_SOURCE */
#endif

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tcptune.h"
#include "tree_fixture.h"

char	tree_top[256];

/* rel under the tree's top, into buf. */
void
path_of(char *buf, size_t len, const char *rel)
{
	assert_true(tt_snprintf(buf, len, "%s/%s", tree_top, rel) != -1);
}

void
make_dir(const char *rel, mode_t mode, uid_t uid)
{
	char	p[512];

	path_of(p, sizeof(p), rel);
	assert_int_equal(mkdir(p, mode), 0);
	assert_int_equal(chmod(p, mode), 0);
	if (uid != 0)
		assert_int_equal(chown(p, uid, (gid_t)-1), 0);
}

void
make_link(const char *target, const char *rel, uid_t uid)
{
	char	p[512];

	path_of(p, sizeof(p), rel);
	assert_int_equal(symlink(target, p), 0);
	if (uid != 0)
		assert_int_equal(lchown(p, uid, (gid_t)-1), 0);
}

/* A fresh /tmp/NAME.XXXXXX as the tree's top: 0, or -1. */
int
tree_setup(const char *name)
{
	umask(022);
	if (tt_snprintf(tree_top, sizeof(tree_top), "/tmp/%s.XXXXXX", name) ==
	    -1 || mkdtemp(tree_top) == NULL)
		return -1;
	return chmod(tree_top, 0755);
}

int
tree_teardown(void)
{
	char	cmd[300];

	if (tt_snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_top) == -1)
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}
