/*
 * Opening the configuration file on Unix systems, and the checks that
 * decide whether root may believe it: owner and mode of the file, and
 * of every directory above it by the one rule of trust_posix.c, which
 * also opens it.  config_file_win.c is the Windows side.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L		/* O_CLOEXEC, fstat */
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
	return true;
}

/*
 * With CONFIG_CHECK_OWNER the file is reached as trust_open_file() says:
 * every directory from "/" held and checked (a root-owned sticky one
 * such as /tmp allowed, last too: root only reads root's file there,
 * and nobody else may rename it, sticky(7)), a symlink followed only
 * when root owns it, so /etc/tcptune.conf may still be root's link to
 * the real file.  Whoever can rename entries in a directory on the way
 * could put another file in its place.  Without it (tcptunectl check)
 * anyone's file is read as named.
 */
static int
open_config(const char *path, int flags, struct errlist *errs)
{
	char	why[512];
	int	fd;

	if ((flags & CONFIG_CHECK_OWNER) == 0)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	else
		fd = trust_open_file(path, TRUST_STICKY_LAST, why, sizeof(why));
	if (fd != -1)
		return fd;
	if ((flags & CONFIG_CHECK_OWNER) && why[0] != '\0')
		errlist_add(errs, "%s: %s: refusing to use it", path, why);
	else
		config_file_error(errs, path, errno);
	return -1;
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

	if ((fd = open_config(path, flags, errs)) == -1)
		return -1;
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

