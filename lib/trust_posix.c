/*
 * The trust rule and the config file it opens, on Unix systems
 * (trust_win.c is the Windows side).  The one rule for a path root
 * trusts: the config and the managed file the daemon reads, its state
 * and socket directories, and every file a root-run tcptunectl writes
 * (--textfile, advise --config).  Nothing is opened by name past "/": no
 * user but root can redirect what root later reads, writes or unlinks
 * there.  Here too what is opened through it: the config files
 * (config_file_open and _read), and the programs run from beside the
 * running one (the sibling rule).
 *
 * The walk starts at "/" and opens one component at a time with
 * O_NOFOLLOW from the directory before it, checking each one it holds:
 * like OpenSSH's safe_path(), every directory on the way must be owned by
 * root (or this process's uid) and not writable by group or others, except
 * that a root-owned sticky directory (/tmp) may be passed through, since
 * nobody but root can rename or remove root's entries in it (sticky(7);
 * Linux rename(2), EPERM).  The last directory itself must not be
 * writable by anyone else at all, sticky or not, unless TRUST_STICKY_LAST
 * says root only reads a file root owns there: to create, any user could
 * have made the name first.  A symbolic link on the way (macOS's /var ->
 * private/var, /var/run -> /run) is followed only when root or this uid
 * owns it (it was found in a directory already checked), and its target
 * is walked again from "/".
 *
 * TRUST_SERVICE_LAST: the last directory may belong to another account,
 * the service that reads what root writes there (node_exporter's textfile
 * directory, owned by e.g. prometheus), when nobody else may write it.
 * Only the last: the walk to it is root's, nothing below it is walked and
 * a link that account owns is never followed.  Root only makes new files
 * there (O_EXCL, O_NOFOLLOW) and renames them over the name from the held
 * directory, so that account can change the file it reads, nothing else.
 *
 * The caller keeps the returned descriptor and works through openat(),
 * renameat(), linkat() and unlinkat(), so a name swapped after the walk
 * cannot send root's writes elsewhere.  All of these are POSIX.1-2008;
 * on macOS "the openat function was introduced in OS X 10.10" (xnu,
 * bsd/man/man2/open.2, HISTORY), whose flags include O_DIRECTORY and
 * O_NOFOLLOW (ELOOP on a link); gnulib's openat page names Mac OS X 10.4
 * as the last without O_DIRECTORY, and FreeBSD 10.1 as giving EMLINK.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptune.h"

#define LINKS_MAX	32	/* as the kernels' own limits on a lookup */

struct walk {
	char	 done[PATH_MAX];	/* the directories opened so far */
	char	 rest[PATH_MAX];	/* what is left to open */
	char	*why;
	size_t	 whylen;
	int	 links;
	int	 flags;			/* TRUST_* */
	uid_t	 peer;			/* trusted too: see trust_open_file_as */
};

static int	walk_fail(struct walk *, const char *, ...) TT_PRINTF(2, 3);
static int	open_dir_as(const char *, int, mode_t, uid_t, char *, size_t);
static int	file_owner_as(int, int, char *, size_t);

static int
walk_fail(struct walk *w, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(w->why, w->whylen, fmt, ap);
	va_end(ap);
	errno = EACCES;
	return -1;
}

/*
 * root, peer, and this uid unless TRUST_AS_ROOT judges as root-run
 * tcptuned would, whoever asks (tcptunectl check).
 */
static bool
owner_trusted(uid_t uid, uid_t peer, int flags)
{
	return uid == 0 || uid == peer ||
	    ((flags & TRUST_AS_ROOT) == 0 && uid == geteuid());
}

/*
 * Why a directory on the way (or the last one) cannot be trusted; NULL
 * if it can.
 */
static const char *
dir_problem(const struct stat *st, bool last, int flags, uid_t peer)
{
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (!owner_trusted(st->st_uid, peer, flags) &&
	    !(last && (flags & TRUST_SERVICE_LAST)))
		return "owned by another user";
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) == 0)
		return NULL;
	if ((!last || (flags & TRUST_STICKY_LAST)) &&
	    (st->st_mode & S_ISVTX) && st->st_uid == 0)
		return NULL;
	return "writable by group or others";
}

static int
check_dir(struct walk *w, int fd, bool last)
{
	struct stat	 st;
	const char	*problem;

	if (fstat(fd, &st) == -1)
		return walk_fail(w, "%s: %s", w->done, strerror(errno));
	if ((problem = dir_problem(&st, last, w->flags, w->peer)) != NULL)
		return walk_fail(w, "%s is %s (owner uid %lu, mode %04o); only "
		    "root may be able to change it", w->done, problem,
		    (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

/* Take the next component off w->rest into comp; false when none is left. */
static bool
next_component(struct walk *w, char *comp, size_t len)
{
	char	*p = w->rest, *slash;

	while (*p == '/')
		p++;
	if (*p == '\0')
		return false;
	if ((slash = strchr(p, '/')) != NULL)
		*slash = '\0';
	tt_strlcpy(comp, p, len);
	if (slash != NULL)
		memmove(w->rest, slash + 1, strlen(slash + 1) + 1);
	else
		w->rest[0] = '\0';
	return true;
}

static bool
rest_empty(const struct walk *w)
{
	const char	*p = w->rest;

	while (*p == '/')
		p++;
	return *p == '\0';
}

/*
 * comp in dirfd is a link: go on from its target, with what was left
 * after it.  Its owner must be trusted; the directory holding it is.
 */
static int
follow_link(struct walk *w, int dirfd, const char *comp)
{
	char		target[PATH_MAX], next[PATH_MAX];
	struct stat	st;
	ssize_t		n;

	if (++w->links > LINKS_MAX)
		return walk_fail(w, "too many symbolic links at %s/%s",
		    w->done, comp);
	if (fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) == -1)
		return walk_fail(w, "%s/%s: %s", w->done, comp,
		    strerror(errno));
	if (!S_ISLNK(st.st_mode))
		return walk_fail(w, "%s/%s is not a directory", w->done, comp);
	if (!owner_trusted(st.st_uid, w->peer, w->flags))
		return walk_fail(w, "%s/%s is a symbolic link owned by uid "
		    "%lu; only root's links are followed", w->done, comp,
		    (unsigned long)st.st_uid);
	if ((n = readlinkat(dirfd, comp, target, sizeof(target) - 1)) == -1)
		return walk_fail(w, "%s/%s: %s", w->done, comp,
		    strerror(errno));
	target[n] = '\0';
	if (tt_snprintf(next, sizeof(next), "%s%s%s/%s",
	    target[0] == '/' ? "" : w->done, target[0] == '/' ? "" : "/",
	    target, w->rest) == -1)
		return walk_fail(w, "%s/%s: path too long", w->done, comp);
	tt_strlcpy(w->rest, next, sizeof(w->rest));
	return 0;
}

/* Open "/" and check it; w->done becomes "". */
static int
open_root(struct walk *w)
{
	int	fd;

	w->done[0] = '\0';
	if ((fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return walk_fail(w, "/: %s", strerror(errno));
	tt_strlcpy(w->done, "/", sizeof(w->done));
	if (check_dir(w, fd, rest_empty(w)) == -1) {
		close(fd);
		return -1;
	}
	w->done[0] = '\0';
	return fd;
}

#define STEP_RESTART	-2	/* comp was a link: walk again from "/" */
#define STEP_MISSING	-3	/* not there, and not made */

/*
 * One step: open comp below fd (creating it with mode when it is the last
 * one, mode is not 0 and it is missing).  The new fd, -1 on failure, or
 * STEP_RESTART or STEP_MISSING.
 */
static int
step(struct walk *w, int fd, const char *comp, mode_t mode)
{
	bool	last = rest_empty(w);
	int	nfd;

	if (strcmp(comp, "..") == 0)
		return walk_fail(w, "%s: \"..\" in the path", w->done);
	nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (nfd == -1 && errno == ENOENT && mode != 0) {
		if (!last || (mkdirat(fd, comp, mode) == -1 && errno != EEXIST)) {
			(void)walk_fail(w, "cannot create %s/%s: %s", w->done,
			    comp, strerror(errno));
			return STEP_MISSING;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	}
	if (nfd == -1 && (errno == ELOOP || errno == EMLINK || errno == ENOTDIR))
		return follow_link(w, fd, comp) == -1 ? -1 : STEP_RESTART;
	if (nfd == -1)
		return walk_fail(w, "%s/%s: %s", w->done, comp, strerror(errno));
	if (tt_snprintf(w->done + strlen(w->done), sizeof(w->done) -
	    strlen(w->done), "/%s", comp) == -1) {
		close(nfd);
		return walk_fail(w, "%s: path too long", w->done);
	}
	if (check_dir(w, nfd, last) == -1) {
		close(nfd);
		return -1;
	}
	return nfd;
}

/* w->rest: path, made absolute from the working directory. */
static int
walk_start(struct walk *w, const char *path, int flags, uid_t peer,
    char *why, size_t whylen)
{
	memset(w, 0, sizeof(*w));
	w->why = why;
	w->whylen = whylen;
	w->flags = flags;
	w->peer = peer;
	why[0] = '\0';
	if (path[0] != '/') {
		if (getcwd(w->rest, sizeof(w->rest)) == NULL)
			return walk_fail(w, "%s: %s", path, strerror(errno));
		(void)tt_strlcpy(w->rest + strlen(w->rest), "/",
		    sizeof(w->rest) - strlen(w->rest));
	}
	if (tt_strlcpy(w->rest + strlen(w->rest), path, sizeof(w->rest) -
	    strlen(w->rest)) >= sizeof(w->rest) - strlen(w->rest))
		return walk_fail(w, "%s: path too long", path);
	return 0;
}

/*
 * The directory at path, opened and checked as above (flags: TRUST_*);
 * created (mode) when missing and mode is not 0.  A descriptor, or -1
 * with the reason in why, or TRUSTED_DIR_NOT_CREATED when it is missing
 * and could not be made (a read-only or full file system, a missing
 * parent).  ENOTDIR and ELOOP both send step() to follow_link(), which
 * refuses what is not a link; FreeBSD gives EMLINK for O_NOFOLLOW on a
 * link (open(2)).
 */
int
trust_open_dir(const char *path, int flags, mode_t mode, char *why,
    size_t whylen)
{
	return open_dir_as(path, flags, mode, geteuid(), why, whylen);
}

static int
open_dir_as(const char *path, int flags, mode_t mode, uid_t peer, char *why,
    size_t whylen)
{
	struct walk	w;
	char		comp[NAME_MAX + 1];
	int		fd, nfd;

	if (walk_start(&w, path, flags, peer, why, whylen) == -1 ||
	    (fd = open_root(&w)) == -1)
		return -1;
	while (next_component(&w, comp, sizeof(comp))) {
		if (strcmp(comp, ".") == 0)
			continue;
		nfd = step(&w, fd, comp, mode);
		close(fd);
		if (nfd == STEP_RESTART)
			nfd = open_root(&w);
		if (nfd == STEP_MISSING)
			return TRUSTED_DIR_NOT_CREATED;
		if (nfd == -1)
			return -1;
		fd = nfd;
	}
	return fd;
}

/*
 * path split into its directory (dir, "." for none) and the name in it;
 * -1 (why) when no file is named: "", "/", "x/", "..", ".".
 */
static int
split_name(const char *path, char *dir, size_t dirlen, const char **namep,
    char *why, size_t whylen)
{
	const char	*slash = strrchr(path, '/');
	const char	*name = slash == NULL ? path : slash + 1;

	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		(void)tt_snprintf(why, whylen, "%s: does not name a file",
		    path);
		errno = EINVAL;
		return -1;
	}
	if (slash == NULL)
		tt_strlcpy(dir, ".", dirlen);
	else if (tt_snprintf(dir, dirlen, "%.*s", slash == path ? 1 :
	    (int)(slash - path), path) == -1) {
		(void)tt_snprintf(why, whylen, "%s: path too long", path);
		errno = ENAMETOOLONG;
		return -1;
	}
	*namep = name;
	return 0;
}

/*
 * name in dirfd is a link to read through: root's (or ours), its target
 * (relative to dir) in next.  -1 with why when it may not be followed.
 */
static int
file_link(int dirfd, const char *dir, const char *name, uid_t peer,
    int flags, char *next, size_t nextlen, char *why, size_t whylen)
{
	char		target[PATH_MAX];
	struct stat	st;
	ssize_t		n;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    (n = readlinkat(dirfd, name, target, sizeof(target) - 1)) == -1)
		return -1;
	target[n] = '\0';
	if (!owner_trusted(st.st_uid, peer, flags)) {
		(void)tt_snprintf(why, whylen, "%s/%s is a symbolic link owned "
		    "by uid %lu; only root's links are followed", dir, name,
		    (unsigned long)st.st_uid);
		errno = EACCES;
		return -1;
	}
	if (tt_snprintf(next, nextlen, "%s%s%s", target[0] == '/' ? "" : dir,
	    target[0] == '/' ? "" : "/", target) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * A file to read, reached as above: its directory walked (flags), the
 * file opened at it with O_NOFOLLOW and O_NONBLOCK (a FIFO planted in its
 * place cannot hang us in open(2)); a link there is followed only when
 * root owns it, and its target walked again.  The caller judges the file
 * itself by fstat (trust_file_check).  A descriptor, or -1: why says why
 * a directory or link was refused, or is empty and errno says what the
 * system said (ENOENT, ELOOP after LINKS_MAX links).
 */
int
trust_open_file(const char *path, int flags, char *why, size_t whylen)
{
	return trust_open_file_as(path, flags, flags & TRUST_AS_ROOT ? 0 :
	    geteuid(), why, whylen);
}

/*
 * trust_open_file, with the files and directories of one more owner
 * believed as root's: peer, the owner of the running program, for a
 * program found beside it (the sibling rule, below).  Whoever owns
 * tcptuned decides what it runs anyway; nobody else may have a say on
 * the way.
 */
int
trust_open_file_as(const char *path, int flags, uid_t peer, char *why,
    size_t whylen)
{
	char		 cur[PATH_MAX], dir[PATH_MAX];
	const char	*name;
	int		 dirfd, fd = -1, links, saved;

	why[0] = '\0';
	tt_strlcpy(cur, path, sizeof(cur));
	for (links = 0; links <= LINKS_MAX; links++) {
		if (split_name(cur, dir, sizeof(dir), &name, why, whylen) == -1 ||
		    (dirfd = open_dir_as(dir, flags, 0, peer, why, whylen)) < 0)
			return -1;
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY |
		    O_NOFOLLOW | O_NONBLOCK);
		if (fd != -1 || (errno != ELOOP && errno != EMLINK)) {
			saved = errno;
			close(dirfd);
			errno = saved;
			return fd;
		}
		saved = file_link(dirfd, dir, name, peer, flags, cur,
		    sizeof(cur), why, whylen) == -1 ? errno : 0;
		close(dirfd);
		if (saved != 0) {
			errno = saved;
			return -1;
		}
	}
	errno = ELOOP;
	return -1;
}

/*
 * path written whole (trust_write_file's rule in tcptune.h): its
 * directory is walked when this process is root; a user writing their own
 * file is not root's problem, and the directory is opened as they named
 * it.  0, or -1 with errno and in why what was refused, or the system's
 * word for what failed.
 */
int
trust_write_file(const char *path, int flags, const void *data, size_t len,
    mode_t mode, char *why, size_t whylen)
{
	char		 dir[PATH_MAX];
	const char	*name;
	int		 dirfd, rv, saved;

	why[0] = '\0';
	if (split_name(path, dir, sizeof(dir), &name, why, whylen) == -1)
		return -1;
	if (geteuid() == 0)
		dirfd = trust_open_dir(dir, flags & TRUST_SERVICE_LAST, 0, why,
		    whylen);
	else if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		(void)tt_snprintf(why, whylen, "%s: %s", dir, strerror(errno));
	if (dirfd < 0)
		return -1;
	if (flags & TRUST_NO_REPLACE)
		rv = write_file_new_at(dirfd, name, data, len, mode);
	else
		rv = write_file_atomic_at(dirfd, name, data, len, mode);
	saved = errno;
	close(dirfd);
	if (rv == -1)
		(void)tt_snprintf(why, whylen, "%s", strerror(saved));
	errno = saved;
	return rv;
}

/*
 * The one owner rule for a file root believes (the config, the managed
 * file, the state files, the locks, the parse helper it execs): a file
 * opened through a trusted directory is believed only when root (or this
 * uid, as sshd's StrictModes accepts the user's own files) owns it and
 * nobody else may write it.  A file someone else could write may say
 * anything.  0, or -1 with the reason in why.
 */
int
trust_file_owner(int fd, char *why, size_t whylen)
{
	return file_owner_as(fd, 0, why, whylen);
}

/* trust_file_owner, root's alone believed with TRUST_AS_ROOT. */
static int
file_owner_as(int fd, int flags, char *why, size_t whylen)
{
	struct stat	st;

	if (fstat(fd, &st) == -1) {
		(void)tt_snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (!owner_trusted(st.st_uid, 0, flags) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		(void)tt_snprintf(why, whylen, "must be owned by root and not "
		    "writable by group or others (mode %04o, owner %lu)",
		    (unsigned)(st.st_mode & 07777), (unsigned long)st.st_uid);
		return -1;
	}
	return 0;
}

/* trust_file_owner, for a regular file only.  0, or -1 and why. */
int
trust_file_check(int fd, char *why, size_t whylen)
{
	struct stat	st;

	if (fstat(fd, &st) == -1) {
		(void)tt_snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		(void)tt_snprintf(why, whylen, "not a regular file");
		return -1;
	}
	return trust_file_owner(fd, why, whylen);
}

/* ---- the config files */

/*
 * Opening the configuration file, and the checks that decide whether
 * root may believe it: owner and mode of the file, and of every
 * directory above it by the one rule above, which also opens it.
 */

/* CONFIG_AS_ROOT: the trust rule as root-run tcptuned applies it. */
static int
trust_flags(int flags)
{
	return flags & CONFIG_AS_ROOT ? TRUST_AS_ROOT : 0;
}

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
	if ((flags & CONFIG_CHECK_OWNER) && file_owner_as(fd, trust_flags(flags),
	    why, sizeof(why)) == -1) {
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
		fd = trust_open_file(path, TRUST_STICKY_LAST |
		    trust_flags(flags), why, sizeof(why));
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

/* ---- the sibling rule */

/*
 * The sibling rule (docs/SECURITY.md, "Programs found beside another"):
 * a program run from beside the running one (tcptuned's tcptune-parse
 * in a build tree, the quick tcptunectl's tcptunectl-full) is run only
 * when it is exactly as trusted as the program that runs it.  It and
 * every directory from "/" down to it must be owned by root, by this
 * uid, or by the owner of the running program's file, and writable by
 * nobody else; a root-owned sticky directory (/tmp) may be passed
 * through but never hold it (the walk above, with that owner
 * believed as root).  Whoever owns tcptuned's file decides what it runs
 * anyway: a user's own checkout run by root works, a root-owned program
 * copied into /tmp beside a user's file does not run that file.
 *
 * The running program's path comes from self_exe_path() (self_linux.c,
 * self_darwin.c, self_freebsd.c): what the kernel says was executed,
 * never argv[0] or $PATH, which the caller chooses.
 */

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
