/*
 * The sibling rule (docs/SECURITY.md, "Programs found beside another"):
 * a program run from beside the running one (tcptuned's tcptune-parse
 * in a build tree, the quick tcptunectl's tcptunectl-full) is run only
 * when it is exactly as trusted as the program that runs it.  It and
 * every directory from "/" down to it must be owned by root, by this
 * uid, or by the owner of the running program's file, and writable by
 * nobody else; a root-owned sticky directory (/tmp) may be passed
 * through but never hold it (trust_posix.c's walk, with that owner
 * believed as root).  Whoever owns tcptuned's file decides what it runs
 * anyway: a user's own checkout run by root works, a root-owned program
 * copied into /tmp beside a user's file does not run that file.
 *
 * The running program's path comes from self_exe_path() (self_linux.c,
 * self_darwin.c, self_freebsd.c): what the kernel says was executed,
 * never argv[0] or $PATH, which the caller chooses.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptune.h"

/* The directory of self, up levels more, into dir. */
static int
self_dir(const char *self, int up, char *dir, size_t len)
{
	char	*slash;

	if (tt_strlcpy(dir, self, len) >= len)
		return -1;
	for (; up >= 0; up--) {
		if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
			return -1;
		*slash = '\0';
	}
	return 0;
}

/*
 * path, a program self may run: 0, or -1 with errno and why ("path:
 * reason").  The file's owner and mode are judged on the descriptor the
 * walk opened, so a name swapped after the walk changes nothing judged.
 */
int
sibling_check(const char *self, const char *path, char *why, size_t whylen)
{
	struct stat	st;
	char		tw[1024];
	uid_t		peer;
	int		fd, saved;

	if (stat(self, &st) == -1) {
		saved = errno;
		(void)tt_why(why, whylen, "%s: %s", self, strerror(saved));
		errno = saved;
		return -1;
	}
	peer = st.st_uid;
	if ((fd = trust_open_file_as(path, 0, peer, tw, sizeof(tw))) == -1) {
		saved = errno;
		(void)tt_why(why, whylen, "%s: %s", path, tw[0] != '\0' ? tw :
		    strerror(saved));
		errno = saved;
		return -1;
	}
	saved = fstat(fd, &st);
	close(fd);
	if (saved == -1) {
		(void)tt_why(why, whylen, "%s: cannot stat it", path);
		errno = EIO;
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR) ||
	    (st.st_uid != 0 && st.st_uid != geteuid() && st.st_uid != peer) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		(void)tt_why(why, whylen, "%s: owner uid %lu, mode %04o: must "
		    "be an executable file owned by root or uid %lu (%s's "
		    "owner) and writable by nobody else", path,
		    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777),
		    (unsigned long)peer, self);
		errno = EACCES;
		return -1;
	}
	return 0;
}

/*
 * rel beside self (each leading "../" one directory up), into path, when
 * the sibling rule allows it.  0; or -1 with errno ENOENT when nothing is
 * there, any other errno when something is there and refused, and why.
 */
int
sibling_path(const char *self, const char *rel, char *path, size_t len,
    char *why, size_t whylen)
{
	char		dir[PATH_MAX];
	struct stat	st;
	int		up = 0;

	while (strncmp(rel, "../", 3) == 0) {
		rel += 3;
		up++;
	}
	if (self[0] != '/' || self_dir(self, up, dir, sizeof(dir)) == -1 ||
	    tt_snprintf(path, len, "%s/%s", dir, rel) == -1) {
		(void)tt_why(why, whylen, "%s: no directory for %s", self, rel);
		errno = ENAMETOOLONG;
		return -1;
	}
	/* Not there is not refused: the caller looks elsewhere. */
	if (lstat(path, &st) == -1 && errno == ENOENT) {
		(void)tt_why(why, whylen, "%s: %s", path, strerror(ENOENT));
		errno = ENOENT;
		return -1;
	}
	return sibling_check(self, path, why, whylen);
}

/* Whether path names a file in self's own directory. */
bool
sibling_beside(const char *self, const char *path)
{
	const char	*slash = strrchr(self, '/');
	size_t		 n;

	if (slash == NULL)
		return false;
	n = (size_t)(slash - self) + 1;
	return strncmp(self, path, n) == 0 && strchr(path + n, '/') == NULL;
}
