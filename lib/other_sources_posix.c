/*
 * The files of other tools (other_sources.c), opened as untrusted: the
 * daemon reads them as root, and anyone who can write one of their
 * directories could put a FIFO, a device, a huge file or a link there.
 * A regular file only, no link followed on open (O_NOFOLLOW) after one
 * is resolved and found inside the root, at most OTHER_FILE_MAX bytes,
 * and never waiting on a FIFO (O_NONBLOCK).  A text with a NUL byte is
 * refused by its reader (other_sources.c), not here: a binary plist has
 * them.
 */
#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sources.h"

/* root + path ("/etc/x" under "/tmp/r" is "/tmp/r/etc/x"); -1 too long. */
static int
rooted(const char *root, const char *path, char *buf, size_t len)
{
	int	n;

	if (strcmp(root, "/") == 0)
		n = snprintf(buf, len, "%s", path);
	else
		n = snprintf(buf, len, "%s%s", root, path);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * A symbolic link at full: 1 when it points at /dev/null (a masked
 * file, as systemd's conf-files.c takes one: null_or_empty()), else 0
 * with its target resolved into real, which must be inside the root;
 * -1 when it is not to be read.
 */
static int
resolve_link(const char *root, const char *full, char *real)
{
	char	target[PATH_MAX];
	ssize_t	n;
	size_t	rl = strlen(root);

	if ((n = readlink(full, target, sizeof(target) - 1)) == -1)
		return -1;
	target[n] = '\0';
	if (strcmp(target, "/dev/null") == 0)
		return 1;
	if (realpath(full, real) == NULL)
		return -1;
	if (strcmp(root, "/") != 0 && (strncmp(real, root, rl) != 0 ||
	    real[rl] != '/'))
		return -1;
	return 0;
}

char *
other_read_file(const char *root, const char *path, size_t *len)
{
	char		 full[PATH_MAX], real[PATH_MAX], *buf;
	const char	*open_path = full;
	struct stat	 st;
	ssize_t		 n;
	int		 fd;

	if (rooted(root, path, full, sizeof(full)) == -1 ||
	    lstat(full, &st) == -1)
		return NULL;
	if (S_ISLNK(st.st_mode)) {
		if (resolve_link(root, full, real) != 0)
			return NULL;		/* masked, or not to be read */
		open_path = real;
	}
	if ((fd = open(open_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return NULL;
	/* /proc files say 0 bytes: read those up to a page */
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > OTHER_FILE_MAX || (buf = malloc(st.st_size > 0 ?
	    (size_t)st.st_size + 1 : 4096)) == NULL) {
		close(fd);
		return NULL;
	}
	n = read(fd, buf, st.st_size > 0 ? (size_t)st.st_size : 4095);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

bool
other_file_exists(const char *root, const char *path)
{
	char		full[PATH_MAX];
	struct stat	st;

	return rooted(root, path, full, sizeof(full)) == 0 &&
	    lstat(full, &st) == 0;
}

void
other_dir_each(const char *root, const char *dir, size_t max,
    bool (*fn)(void *, const char *), void *arg)
{
	char		 full[PATH_MAX];
	struct dirent	*de;
	DIR		*d;
	size_t		 seen = 0;

	if (rooted(root, dir, full, sizeof(full)) == -1 ||
	    (d = opendir(full)) == NULL)
		return;
	while (seen++ < max && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.' && strlen(de->d_name) <
		    OTHER_NAME_MAX && !fn(arg, de->d_name))
			break;
	closedir(d);
}
