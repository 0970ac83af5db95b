/*
 * What differs between Unix systems and Windows beneath the shared code:
 * replacing a file atomically, the monotonic clock, whether this is WSL,
 * and the registry policy Unix has none of (os_win.c and policy_win.c
 * are the Windows side).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "tcptune.h"
#include "compat_socket.h"

/*
 * A temporary file for name in the directory dirfd (O_EXCL, O_NOFOLLOW:
 * never through someone's link) holding data, mode whatever the umask,
 * flushed to disk.  Its name in tmp; -1 with errno, nothing left behind.
 */
static int
write_temp_at(int dirfd, const char *name, char *tmp, size_t tmplen,
    const void *data, size_t len, mode_t mode)
{
	int	fd, saved;

	if (tt_snprintf(tmp, tmplen, "%s" TT_ATOMIC_TMP "%ld", name,
	    (long)getpid()) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	(void)unlinkat(dirfd, tmp, 0);	/* a crash's leftover of this pid */
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, mode);
	if (fd == -1)
		return -1;
	/* The mode asked for, whatever the umask (a .prom file is 0644). */
	if (fchmod(fd, mode) == -1 || write_all(fd, data, len) == -1 ||
	    fsync(fd) == -1) {
		saved = errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		errno = saved;
		return -1;
	}
	if (close(fd) == -1) {
		saved = errno;
		unlinkat(dirfd, tmp, 0);
		errno = saved;
		return -1;
	}
	return 0;
}

static int
unlink_temp_fail(int dirfd, const char *tmp)
{
	int	saved = errno;

	unlinkat(dirfd, tmp, 0);
	errno = saved;
	return -1;
}

/*
 * Replace name in the directory dirfd with data so that a crash at any
 * point leaves either the old or the new contents, never a mix: write a
 * temporary file beside it, fsync, rename over, fsync the directory.
 * Working from the held directory means a path renamed meanwhile cannot
 * redirect the write.
 */
int
write_file_atomic_at(int dirfd, const char *name, const void *data,
    size_t len, mode_t mode)
{
	char	tmp[NAME_MAX + 1];

	if (write_temp_at(dirfd, name, tmp, sizeof(tmp), data, len,
	    mode) == -1)
		return -1;
	if (renameat(dirfd, tmp, dirfd, name) == -1)
		return unlink_temp_fail(dirfd, tmp);
	return fsync(dirfd);
}

/*
 * The same, for a name that must not exist yet (EEXIST if it does, the
 * file left alone): linkat(2) refuses an existing name in one step, a
 * symlink there too; where a file system has no links the name is
 * claimed with O_EXCL first, then the temporary file renamed over it.
 */
int
write_file_new_at(int dirfd, const char *name, const void *data,
    size_t len, mode_t mode)
{
	char	tmp[NAME_MAX + 1];
	int	fd;

	if (write_temp_at(dirfd, name, tmp, sizeof(tmp), data, len,
	    mode) == -1)
		return -1;
	if (linkat(dirfd, tmp, dirfd, name, 0) == 0) {
		(void)unlinkat(dirfd, tmp, 0);
		return fsync(dirfd);
	}
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != EXDEV)
		return unlink_temp_fail(dirfd, tmp);
	if ((fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, mode)) == -1)
		return unlink_temp_fail(dirfd, tmp);
	close(fd);
	if (renameat(dirfd, tmp, dirfd, name) == -1)
		return unlink_temp_fail(dirfd, tmp);
	return fsync(dirfd);
}

/* The same for a path: its directory is opened for the while. */
int
write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	char		 dir[PATH_MAX];
	const char	*slash = strrchr(path, '/'), *name = path;
	int		 dirfd, rv, saved;

	if (slash == NULL)
		tt_strlcpy(dir, ".", sizeof(dir));
	else if (tt_snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
	    (int)(slash - path), path) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	} else
		name = slash + 1;
	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	rv = write_file_atomic_at(dirfd, name, data, len, mode);
	saved = errno;
	close(dirfd);
	errno = saved;
	return rv;
}

/* Seconds on a clock that neither jumps nor goes back with the date. */
time_t
tt_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Milliseconds on the same clock, for debouncing. */
uint64_t
tt_mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int
tt_sockaddr_un(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (tt_strlcpy(sun->sun_path, path, sizeof(sun->sun_path)) >=
	    sizeof(sun->sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * WSL, the Windows Subsystem for Linux: inside it, the sysctls tcptune
 * sets change WSL's own Linux network stack (WSL 2 runs a real Linux
 * kernel in a utility VM), not Windows', which carries the traffic of
 * Windows programs.  tcptuned, check, advise and status say so, once, plainly.
 *
 * How WSL is recognised: the kernel's release names it, "Microsoft" in
 * WSL 1 ("4.4.0-19041-Microsoft"), "microsoft-standard" in WSL 2
 * ("4.19.128-microsoft-standard", later "...-microsoft-standard-WSL2"),
 * as the WSL maintainers answer in https://github.com/microsoft/WSL/issues/4555;
 * and WSL sets WSL_DISTRO_NAME in a distribution's environment (not in a
 * service's, hence the release first for tcptuned).  Either is enough.
 */

/* "microsoft" or "wsl" anywhere in s, any case. */
static bool
names_wsl(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (strncasecmp(s + i, "microsoft", 9) == 0 ||
		    strncasecmp(s + i, "wsl", 3) == 0)
			return true;
	return false;
}

/*
 * Whether this Linux runs inside WSL.  With root NULL the release is
 * uname(2)'s, the same string as /proc/sys/kernel/osrelease without
 * opening it (tcptunectl check opens nothing but its file, and never
 * /proc/sys: tests/config/golden.sh); a test gives root, a directory
 * holding a fake proc/sys/kernel/osrelease.
 */
bool
tt_wsl(const char *root)
{
	char		 path[PATH_MAX], rel[256];
	const char	*env = getenv("WSL_DISTRO_NAME");
	struct utsname	 u;
	FILE		*f;
	bool		 wsl = false;

	if (env != NULL && env[0] != '\0')
		return true;
	if (root == NULL)
		return uname(&u) == 0 && names_wsl(u.release);
	if (tt_snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease",
	    root) == -1 || (f = fopen(path, "re")) == NULL)
		return false;
	if (fgets(rel, sizeof(rel), f) != NULL)
		wsl = names_wsl(rel);
	fclose(f);
	return wsl;
}

/*
 * No registry policy on Unix: the managed preferences file (config_model.c)
 * is the fleet's layer there.  policy_win.c is the Windows side.
 */
int
policy_load(struct config **cfg, struct errlist *errs)
{
	(void)errs;
	*cfg = NULL;
	return 0;
}

bool
policy_present(void)
{
	return false;
}
