/*
 * The state directory's file operations on Unix systems, beneath
 * originals.c (originals_win.c is the Windows side): the directory
 * checked up to / and held open (lib/trust_posix.c), files opened at it with
 * O_NOFOLLOW, the sweep of interrupted saves and the one-daemon lock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptuned.h"

#define STATE_FILE	"originals"

int
originals_os_open_dir(const char *dir, char *why, size_t len)
{
	return trust_open_dir(dir, 0, 0700, why, len);
}

int
originals_os_writable(const struct originals *st)
{
	return faccessat(st->dirfd, ".", W_OK, 0) == -1 ? errno : 0;
}

/*
 * O_NONBLOCK: a FIFO planted in its place must not hang us.  A file that
 * root does not own is reported as -1, with why.
 */
int
originals_os_read(const struct originals *st, const char *name, size_t max,
    char **bufp, size_t *lenp, char *why, size_t whylen)
{
	int	fd, err = 0;

	if ((fd = openat(st->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK)) == -1)
		return errno;
	if (trust_file_owner(fd, why, whylen) == -1)
		err = -1;
	else if (read_file_bounded(fd, bufp, lenp, max) == -1)
		err = errno;
	close(fd);
	return err;
}

int
originals_os_write(const struct originals *st, const char *name,
    const void *data, size_t len)
{
	return write_file_atomic_at(st->dirfd, name, data, len, 0600) == -1 ?
	    errno : 0;
}

/*
 * Rename from to to, never over an existing to: a damaged copy set aside
 * is never replaced.  EEXIST when to exists.
 *
 * Linux: renameat2(2) with RENAME_NOREPLACE ("Don't overwrite newpath of
 * the rename. Return an error if newpath already exists", Linux 3.15,
 * glibc 2.28), EINVAL where the file system does not support the flag.
 * macOS: renameatx_np(2) with RENAME_EXCL (10.12), EEXIST if to exists;
 * ENOTSUP where the file system cannot.  Elsewhere (FreeBSD) and as the
 * fallback: linkat(2), which fails with EEXIST when the new name exists
 * and, with flags 0, links a symbolic link itself, not its target, then
 * unlinkat(2) of the old name.  A directory cannot be linked (EPERM,
 * link(2)); it is renamed once fstatat finds no to, and rename(2) can then
 * only replace an empty directory, which holds nothing.  The directory is
 * root's and the daemon holds its lock, so nothing else names files here.
 */
int
originals_os_set_aside(const struct originals *st, const char *from,
    const char *to)
{
	struct stat	sb;

#if defined(RENAME_NOREPLACE)
	if (renameat2(st->dirfd, from, st->dirfd, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return errno;
#elif defined(RENAME_EXCL)
	if (renameatx_np(st->dirfd, from, st->dirfd, to, RENAME_EXCL) == 0)
		return 0;
	if (errno != ENOTSUP && errno != EINVAL)
		return errno;
#endif
	if (linkat(st->dirfd, from, st->dirfd, to, 0) == 0)
		return unlinkat(st->dirfd, from, 0) == -1 ? errno : 0;
	if (errno != EPERM && errno != EISDIR)
		return errno;
	if (fstatat(st->dirfd, to, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		return EEXIST;
	if (errno != ENOENT)
		return errno;
	return renameat(st->dirfd, from, st->dirfd, to) == -1 ? errno : 0;
}

/*
 * The names in the directory that start with prefix, in *namesp (each
 * and the array malloc'd); 0 or an errno.
 */
int
originals_os_list(const struct originals *st, const char *prefix,
    char ***namesp, size_t *np)
{
	struct dirent	*de;
	DIR		*dp;
	char		**names = NULL, **grown;
	size_t		 n = 0;
	int		 fd;

	*namesp = NULL;
	*np = 0;
	if ((fd = openat(st->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC))
	    == -1)
		return errno;
	if ((dp = fdopendir(fd)) == NULL) {
		close(fd);
		return errno;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if ((grown = realloc(names, (n + 1) * sizeof(*names))) == NULL
		    || (grown[n] = strdup(de->d_name)) == NULL)
			fatal("%s", __func__);
		names = grown;
		n++;
	}
	closedir(dp);
	*namesp = names;
	*np = n;
	return 0;
}

/*
 * Temporary files of a save that a crash (kill -9) interrupted.  Called
 * with the lock held, so no other instance is writing one.
 */
void
originals_sweep(struct originals *st)
{
	static const char	 prefix[] = STATE_FILE TT_ATOMIC_TMP;
	struct dirent		*de;
	DIR			*dp;
	int			 fd;

	if (st->dirfd == -1 || (fd = dup(st->dirfd)) == -1)
		return;
	if ((dp = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		if (unlinkat(dirfd(dp), de->d_name, 0) == 0)
			log_notice("removed %s/%s, left by an interrupted save",
			    st->dir, de->d_name);
	}
	closedir(dp);
}

/*
 * One daemon per state directory, whatever socket each was given.
 * Returns the locked fd; ORIGINALS_LOCK_HELD when another process holds the
 * lock; ORIGINALS_LOCK_NONE when the directory cannot hold a lock file
 * (read-only, full), where the caller goes on without one rather than
 * stop enforcing; ORIGINALS_LOCK_BAD when the lock is not a file only root
 * controls (a symlink, someone else's file), which stops the daemon: a
 * lock that can be swapped lets two daemons share the directory.  why
 * says what happened.  flock(2) works on a descriptor opened read-only,
 * so an existing lock file on a read-only file system still serves.
 */
int
originals_lock(struct originals *st, char *why, size_t whylen)
{
	char	detail[TT_TEXT_MAX];
	int	fd, err;

	tt_strlcpy(why, "the directory is not usable", whylen);
	if (st->dirfd == -1)
		return ORIGINALS_LOCK_NONE;
	fd = openat(st->dirfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC |
	    O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd == -1 && (errno == EROFS || errno == EACCES))
		fd = openat(st->dirfd, "lock", O_RDONLY | O_CLOEXEC |
		    O_NOFOLLOW | O_NONBLOCK);
	if (fd == -1) {
		err = errno;
		(void)tt_snprintf(why, whylen, "%s/lock: %s", st->dir,
		    err == ELOOP || err == EMLINK ? "a symbolic link" :
		    strerror(err));
		return err == EROFS || err == ENOSPC || err == EDQUOT ||
		    err == ENOENT ? ORIGINALS_LOCK_NONE : ORIGINALS_LOCK_BAD;
	}
	if (trust_file_check(fd, detail, sizeof(detail)) == -1) {
		(void)tt_snprintf(why, whylen, "%s/lock: %s", st->dir, detail);
		close(fd);
		return ORIGINALS_LOCK_BAD;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		err = errno;
		close(fd);
		(void)tt_snprintf(why, whylen, "%s/lock: %s", st->dir,
		    strerror(err));
		return err == EWOULDBLOCK ? ORIGINALS_LOCK_HELD :
		    ORIGINALS_LOCK_NONE;
	}
	return fd;
}
