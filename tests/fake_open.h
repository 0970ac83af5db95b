/*
 * open(2) as FreeBSD's: a program that links this takes the place of
 * libc's open, and while fake_open_freebsd is set a symlink opened with
 * O_NOFOLLOW fails with EMLINK, as on FreeBSD, instead of ELOOP as on
 * Linux and macOS (FreeBSD open(2); pjdfstest tests/open/16.t).
 * Otherwise it is the system's open.
 */
#ifndef TCPTUNE_FAKE_OPEN_H
#define TCPTUNE_FAKE_OPEN_H

#include <stdbool.h>

extern bool	fake_open_freebsd;

#endif /* TCPTUNE_FAKE_OPEN_H */
