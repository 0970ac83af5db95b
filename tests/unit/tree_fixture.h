/*
 * A directory tree for the trust-rule tests (test_trust_posix.c: the
 * trust rule's group and the sibling rule's), made under a fresh 0755
 * directory in /tmp (root's and sticky: passed through on the way) and
 * removed after the group.
 */
#ifndef TCPTUNE_TREE_FIXTURE_H
#define TCPTUNE_TREE_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>

extern char	tree_top[256];

void	path_of(char *, size_t, const char *);
void	make_dir(const char *, mode_t, uid_t);
void	make_link(const char *, const char *, uid_t);
int	tree_setup(const char *);
int	tree_teardown(void);

#endif
