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
 * so only root may be able to change it (trust_file_owner, the one owner
 * rule), or the directories that hold it (open_config).  0, an errno
 * (EFBIG past the bound), or -1 for a refusal said in errs.
 */
static int
file_usable(const char *path, int fd, int flags, struct errlist *errs)
{
	struct stat	st;
	char		why[256];

	if (fstat(fd, &st) == -1)
		return errno;
	if (!S_ISREG(st.st_mode)) {
		errlist_add(errs, "%s: not a regular file: refusing to read "
		    "it", path);
		return -1;
	}
	if ((flags & CONFIG_CHECK_OWNER) &&
	    trust_file_owner(fd, why, sizeof(why)) == -1) {
		errlist_add(errs, "%s: %s: refusing to use it", path, why);
		return -1;
	}
	if (st.st_size > TT_CONFIG_MAX_BYTES)
		return EFBIG;
	return 0;
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
/* The descriptor; -1 and *err: an errno, or -1 when said in errs. */
static int
open_config(const char *path, int flags, struct errlist *errs, int *err)
{
	char	why[512];
	int	fd;

	why[0] = '\0';
	if ((flags & CONFIG_CHECK_OWNER) == 0)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	else
		fd = trust_open_file(path, TRUST_STICKY_LAST, why, sizeof(why));
	if (fd != -1)
		return fd;
	*err = errno;
	if ((flags & CONFIG_CHECK_OWNER) && why[0] != '\0') {
		errlist_add(errs, "%s: %s: refusing to use it", path, why);
		*err = -1;
	}
	return -1;
}

/*
 * The file opened and checked (file_usable), not read: tcptuned hands the
 * descriptor to its parse helper, which cannot open root's files once it
 * has given up root.  The descriptor, or -1 and *err as below.
 */
int
config_file_open(const char *path, int flags, struct errlist *errs, int *err)
{
	int	fd;

	if ((fd = open_config(path, flags, errs, err)) == -1)
		return -1;
	if ((*err = file_usable(path, fd, flags, errs)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The whole file, checked first (file_usable).  O_NONBLOCK so that a FIFO
 * put in its place cannot hang the daemon in open(2); fstat then refuses
 * anything but a regular file.  0 and *bufp (NUL-terminated, to free),
 * an errno, or -1 with the reasons in errs (tcptune.h).
 */
int
config_file_read(const char *path, int flags, char **bufp, size_t *lenp,
    struct errlist *errs)
{
	int	fd, rv;

	if ((fd = config_file_open(path, flags, errs, &rv)) == -1)
		return rv;
	rv = 0;
	if (read_file_bounded(fd, bufp, lenp, TT_CONFIG_MAX_BYTES) == -1)
		rv = errno;
	close(fd);
	return rv;
}
