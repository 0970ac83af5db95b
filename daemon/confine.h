/*
 * What the parse helper (parse_helper.c) does to itself before it reads
 * a byte of the config: give up root (privdrop_posix.c), then confine
 * what it can still ask of the kernel (confine_linux.c: seccomp;
 * confine_darwin.c: the sandbox; confine_none.c elsewhere).
 */
#ifndef TCPTUNE_CONFINE_H
#define TCPTUNE_CONFINE_H

#include <stddef.h>

/* The file descriptors the daemon hands the helper. */
#define PARSE_FD_ANSWER		3	/* the socketpair's end */
#define PARSE_FD_CONFIG		4

/* 0, or -1 and why: the user cannot be become, or root could come back. */
int	 confine_drop(const char *, char *, size_t);
/*
 * id_held_linux.c | id_held_bsd.c: whether any process has the id as a
 * uid (or gid, where the OS says): 1, 0, or -1 and why when it cannot be
 * told.  Asked as root.
 */
int	 confine_id_held(unsigned long, char *, size_t);
/* 0, or -1 and why; "what" says in a few words what was done. */
int	 confine_enter(char *, size_t, const char **);

#endif /* TCPTUNE_CONFINE_H */
