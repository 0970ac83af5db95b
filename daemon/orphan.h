/*
 * A child of tcptuned (the parse helper, between fork and exec and after)
 * must neither keep the daemon's descriptors nor outlive the daemon: a
 * copy of the listening socket or of a lock in a child would make a
 * daemon killed with -9 look alive to the next one (docs/RELIABILITY.md,
 * "Restart after a crash").  orphan_linux.c, orphan_bsd.c.
 */
#ifndef TCPTUNE_ORPHAN_H
#define TCPTUNE_ORPHAN_H

#include <sys/types.h>

/* Close every descriptor from lowfd up; async-signal-safe, never blocks. */
void	 child_close_from(int);
/*
 * Have the kernel kill this process when parent (its parent's pid, taken
 * before the fork) ends: -1 when parent has already ended, or when this
 * OS can only tell at this moment (then 0 means it was alive now).
 */
int	 die_with_parent(pid_t);

#endif /* TCPTUNE_ORPHAN_H */
