/*
 * kernel_lock_posix.c | kernel_lock_win.c: one tcptuned per set of
 * sysctls, whatever socket and state directory each was given.
 *
 * The unit is what the daemon's writes would reach: a -r sysctl tree is
 * its own unit; otherwise the network namespace on Linux (net.* is per
 * namespace), the whole kernel on macOS and FreeBSD, the machine on
 * Windows.  The lock is taken before any sysctl or originals file is
 * touched and held for the daemon's life; the holder leaves its pid,
 * socket and state directory with it, so that a second daemon refusing
 * to start can name the first.
 */
#ifndef KERNEL_LOCK_H
#define KERNEL_LOCK_H

#include <stddef.h>

struct kernel_lock;

/*
 * sysctl_root: the -r tree, NULL for the running kernel's sysctls.  The
 * lock, or NULL with the reason (another daemon named) in why.
 */
struct kernel_lock *kernel_lock_take(const char *sysctl_root,
		    const char *socket_path, const char *state_dir, char *why,
		    size_t whylen);
void		 kernel_lock_release(struct kernel_lock *);

/* kernel_lock.c: the holder's identity, and the refusal made from it. */
int	 kernel_lock_identity(char *, size_t, unsigned long, const char *,
	    const char *);
void	 kernel_lock_refusal(const char *, const char *, const char *, char *,
	    size_t);
int	 kernel_lock_held_by_writer(const char *, long);

/* kernel_lock_posix.c: a record lock, which a child does not inherit. */
int	 lock_whole_file(int, long *);

#endif /* KERNEL_LOCK_H */
