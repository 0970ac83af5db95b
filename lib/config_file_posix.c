/*
 * Opening the configuration file on Unix systems, and the checks that
 * decide whether root may believe it: owner and mode of the file and of
 * every directory above it.  config_file_win.c is the Windows side.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L		/* O_CLOEXEC, fstat, realpath */
#endif

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptune.h"

/*
 * FreeBSD's <sys/stat.h> declares S_ISVTX (0001000) only when
 * __XSI_VISIBLE, which _POSIX_C_SOURCE alone does not turn on.
 */
#ifndef S_ISVTX
#define S_ISVTX		0001000
#endif

/*
 * Whoever can rename entries in a directory on the way to the file can put
 * another file in its place, so each directory of its canonical path, up
 * to /, must be root's and not writable by group or others: as OpenSSH's
 * safe_path() (misc.c: realpath(), then dirname() up to "/", refusing
 * mode & 022 or an owner other than root or the user).  Unlike safe_path(),
 * a root-owned directory with the sticky bit (/tmp) is accepted: "a file
 * in a sticky directory may only be removed or renamed by a user if [...]
 * the user is the owner of the file, the owner of the directory, or the
 * super-user" (sticky(7) of FreeBSD and xnu, bsd/man/man7/sticky.7; Linux
 * rename(2), EPERM), so nobody but root can replace root's file in it.
 * The file is already open; this checks that the name cannot be pointed
 * at another file behind our back, for the next reload.
 */
static bool
dir_unsafe(const struct stat *st)
{
	return st->st_uid != 0 || ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (st->st_mode & S_ISVTX) == 0);
}

static bool
dirs_usable(const char *path, struct errlist *errs)
{
	struct stat	 st;
	char		 real[PATH_MAX], *slash;
	bool		 ok = true;

	/* A buffer, not realpath(path, NULL): older macOS needs one. */
	if (realpath(path, real) == NULL) {
		config_file_error(errs, path, errno);
		return false;
	}
	while (ok && (slash = strrchr(real, '/')) != NULL) {
		slash[slash == real] = '\0';	/* "/etc" -> "/", "/" stays */
		if (stat(real, &st) == -1) {
			errlist_add(errs, "%s: %s: %s", path, real,
			    strerror(errno));
			ok = false;
		} else if (dir_unsafe(&st)) {
			errlist_add(errs, "%s: directory %s must be owned by "
			    "root and not writable by group or others unless "
			    "sticky (mode %04o, owner %lu): refusing to use "
			    "it", path, real, (unsigned)(st.st_mode & 07777),
			    (unsigned long)st.st_uid);
			ok = false;
		}
		if (strcmp(real, "/") == 0)
			break;
	}
	return ok;
}

/*
 * As sshd's StrictModes: the file decides what root writes to the kernel,
 * so only root may be able to change it, or the directories that hold it.
 */
static bool
file_usable(const char *path, int fd, int flags, struct errlist *errs)
{
	struct stat	st;

	if (fstat(fd, &st) == -1) {
		config_file_error(errs, path, errno);
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		errlist_add(errs, "%s: not a regular file: refusing to read "
		    "it", path);
		return false;
	}
	if ((flags & CONFIG_CHECK_OWNER) && (st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)) {
		errlist_add(errs, "%s: must be owned by root and not writable "
		    "by group or others (mode %04o, owner %lu): refusing to "
		    "use it", path, (unsigned)(st.st_mode & 07777),
		    (unsigned long)st.st_uid);
		return false;
	}
	if (st.st_size > TT_CONFIG_MAX_BYTES) {
		config_file_error(errs, path, EFBIG);
		return false;
	}
	return (flags & CONFIG_CHECK_OWNER) == 0 || dirs_usable(path, errs);
}

/*
 * The whole file, checked first (file_usable).  O_NONBLOCK so that a FIFO
 * put in its place cannot hang the daemon in open(2); fstat then refuses
 * anything but a regular file.  0 and *bufp (NUL-terminated, to free), or
 * -1 with the reasons in errs.
 */
int
config_file_read(const char *path, int flags, char **bufp, size_t *lenp,
    struct errlist *errs)
{
	int	fd, rv = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd == -1) {
		config_file_error(errs, path, errno);
		return -1;
	}
	if (!file_usable(path, fd, flags, errs))
		goto out;
	if (read_file_bounded(fd, bufp, lenp, TT_CONFIG_MAX_BYTES) == -1) {
		config_file_error(errs, path, errno);
		goto out;
	}
	rv = 0;
out:
	close(fd);
	return rv;
}

