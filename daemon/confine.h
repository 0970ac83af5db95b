/*
 * What the parse helper (parse_helper.c) does to itself before it reads
 * a byte of the config: give up root (privdrop_posix.c), then confine
 * what it can still ask of the kernel (confine_linux.c: seccomp;
 * confine_bsd.c: nothing yet).  And, from the fork on (parse_posix.c),
 * what keeps it from outliving the daemon or holding its descriptors: a
 * copy of the listening socket or of a lock in a child would make a
 * daemon killed with -9 look alive to the next one (docs/RELIABILITY.md,
 * "Restart after a crash").  confine_linux.c, confine_bsd.c.
 */
#ifndef TCPTUNE_CONFINE_H
#define TCPTUNE_CONFINE_H

#include <sys/types.h>

#include <stddef.h>

/* The file descriptors the daemon hands the helper. */
#define PARSE_FD_ANSWER		3	/* the socketpair's end */
#define PARSE_FD_CONFIG		4

/* 0, or -1 and why: the user cannot be become, or root could come back. */
int	 confine_drop(const char *, char *, size_t);
/*
 * Whether any process has the id as a
 * uid (or gid, where the OS says): 1, 0, or -1 and why when it cannot be
 * told.  Asked as root.
 */
int	 confine_id_held(unsigned long, char *, size_t);
/* 0, or -1 and why; "what" says in a few words what was done. */
int	 confine_enter(char *, size_t, const char **);

/* Close every descriptor from lowfd up; async-signal-safe, never blocks. */
void	 child_close_from(int);
/*
 * Have the kernel kill this process when parent (its parent's pid, taken
 * before the fork) ends: -1 when parent has already ended, or when this
 * OS can only tell at this moment (then 0 means it was alive now).
 */
int	 die_with_parent(pid_t);

#endif /* TCPTUNE_CONFINE_H */
