/*
 * The state directory's file operations on Unix systems (state_win.c is
 * the Windows side): reading the originals, making the directory, the
 * sweep of interrupted saves and the one-daemon lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptuned.h"

/*
 * The whole file into *bufp: 0, or an errno (ENOENT when there is none).
 * O_NONBLOCK: a FIFO planted in its place must not hang us.
 */
int
state_file_read(const char *path, size_t max, char **bufp, size_t *lenp)
{
	int	fd, err = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK)) == -1)
		return errno;
	if (read_file_bounded(fd, bufp, lenp, max) == -1)
		err = errno;
	close(fd);
	return err;
}

/* 0 when dir exists (made 0700 if it did not), or an errno. */
int
state_dir_make(const char *dir)
{
	return mkdir(dir, 0700) == -1 && errno != EEXIST ? errno : 0;
}

int
state_dir_writable(const char *dir)
{
	return access(dir, W_OK) == -1 ? errno : 0;
}

/*
 * Temporary files of a save that a crash (kill -9) interrupted.  Called
 * with the lock held, so no other instance is writing one.
 */
void
state_sweep(struct state *st)
{
	static const char	 prefix[] = "originals" TT_ATOMIC_TMP;
	struct dirent		*de;
	DIR			*dp;

	if ((dp = opendir(st->dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		if (unlinkat(dirfd(dp), de->d_name, 0) == 0)
			log_info("removed %s/%s, left by an interrupted save",
			    st->dir, de->d_name);
	}
	closedir(dp);
}

/*
 * One daemon per state directory, whatever socket each was given.
 * Returns the locked fd; -1 when another process holds the lock; -2 when
 * the directory cannot hold a lock file (read-only, full), where the
 * caller goes on without one rather than stop enforcing.  flock(2) works
 * on a descriptor opened read-only, so an existing lock file on a
 * read-only file system still serves.
 */
int
state_lock(const char *dir)
{
	char	path[1100];
	int	fd;

	snprintf(path, sizeof(path), "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1)
		return -2;
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		int saved = errno;

		close(fd);
		return saved == EWOULDBLOCK ? -1 : -2;
	}
	return fd;
}
