/*
 * One tcptuned per set of sysctls (kernel_lock.h), on Unix: a lock file
 * named for the unit, in TT_KERNEL_LOCK_DIR/locks (configure:
 * runstatedir/tcptune, /run/tcptune on Linux), held with a record lock
 * (fcntl F_SETLK) for the daemon's life.
 *
 * The directory is fixed when tcptuned is built and named by no option,
 * so two daemons given different sockets and state directories still
 * meet there.  It is opened with trust_open_dir(): every directory from
 * "/" is root's and nobody else may write it, so no user can create the
 * lock file first, swap it or point the name elsewhere.  The locks live
 * in a subdirectory only root may enter (the socket's directory, often
 * the same, must stay searchable), in files made 0600 whatever the umask
 * (a start by hand has 022, not the unit's UMask): no other user can
 * open one, so none can hold it and keep tcptuned from starting.
 *
 * A record lock, not flock(2): fcntl(2) and POSIX ("Record locks are not
 * inherited by a child created via fork(2)"), where a flock(2) lock
 * belongs to the open file, which a child shares until it closes its
 * copy.  A daemon killed while its parse helper was between fork and
 * exec would otherwise live on in the child for the next start to find
 * (docs/RELIABILITY.md, "Restart after a crash").  The lock ends with its
 * holder however it ends (kill -9 too), so a stale lock never blocks a
 * start; F_GETLK names the process that holds it, and the holder writes
 * its pid, socket and state directory into the file, for the refusal to
 * name it and to tell a tcptuned from another process.  The daemon opens
 * the file once: closing any other descriptor of it would drop the lock.
 *
 * Why not a Linux abstract socket, which is per network namespace and
 * gone with its process (unix(7))?  Anyone may bind an abstract name, so
 * a user who binds it first would keep tcptuned from starting, and it
 * would not serve -r trees, macOS or FreeBSD.  A file in a root-only
 * directory cannot be squatted.  What the file cannot see: two daemons
 * in one network namespace but with different /run (a container with the
 * host's network) do not meet (docs/SECURITY.md).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptuned.h"
#include "kernel_lock.h"

#define LOCK_TRIES	8	/* a holder unlinking its file at exit: again */
#define LOCK_HELD	-2	/* lock_file(): another daemon has it */
#define IDENTITY_MAX	(3 * 4 * 1024 + 64)
#define LOCK_SUBDIR	"locks"	/* in TT_KERNEL_LOCK_DIR, root's alone */

struct kernel_lock {
	int	dirfd;		/* TT_KERNEL_LOCK_DIR/locks, held */
	int	fd;		/* the lock file, locked; -1 none */
	long	holder;		/* LOCK_HELD: its pid, -1 unknown */
	int	treefd;		/* the -r tree, held: its dev:ino stays its own */
	char	file[64];	/* the lock file's name in dirfd */
	char	unit[TT_TEXT_MAX];	/* for messages */
};

#ifdef __linux__
/*
 * net.* is per network namespace.  namespaces(7): two processes are in
 * the same namespace when the device IDs and inode numbers of their
 * /proc/pid/ns/ links are the same (stat(2) follows the link; proc(5),
 * /proc/pid/ns/); readlink shows "net:[inode]".  Without /proc the unit
 * is the whole kernel: it only keeps more daemons apart.
 */
static void
running_unit(struct kernel_lock *kl)
{
	struct stat	st;

	if (stat("/proc/self/ns/net", &st) == -1) {
		log_warn("/proc/self/ns/net: locking the whole kernel's sysctls");
		tt_strlcpy(kl->file, "kernel.lock", sizeof(kl->file));
		tt_strlcpy(kl->unit, "this kernel", sizeof(kl->unit));
		return;
	}
	(void)tt_snprintf(kl->file, sizeof(kl->file), "net.%ju.%ju.lock",
	    (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
	(void)tt_snprintf(kl->unit, sizeof(kl->unit), "network namespace "
	    "net:[%ju]", (uintmax_t)st.st_ino);
}
#else
/* macOS, FreeBSD: one set of sysctls per kernel (sysctl(3)). */
static void
running_unit(struct kernel_lock *kl)
{
	tt_strlcpy(kl->file, "kernel.lock", sizeof(kl->file));
	tt_strlcpy(kl->unit, "this kernel", sizeof(kl->unit));
}
#endif

/* A -r tree, by the dev:ino of its root, whatever name reached it. */
static int
tree_unit(struct kernel_lock *kl, const char *root, char *why, size_t len)
{
	struct stat	st;

	kl->treefd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (kl->treefd == -1 || fstat(kl->treefd, &st) == -1)
		return tt_why(why, len, "sysctl root %s: %s", root,
		    strerror(errno));
	(void)tt_snprintf(kl->file, sizeof(kl->file), "tree.%ju.%ju.lock",
	    (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
	(void)tt_snprintf(kl->unit, sizeof(kl->unit), "sysctl tree %s "
	    "(%ju:%ju)", root, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
	return 0;
}

/*
 * A write lock on the whole of fd, without waiting: 0, or -1 with errno
 * (EAGAIN when another process holds it, its pid in *holder, -1 when the
 * kernel does not say).  Also the socket's lock (control_posix.c).
 */
int
lock_whole_file(int fd, long *holder)
{
	struct flock	fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_SETLK, &fl) == 0)
		return 0;
	if (errno != EAGAIN && errno != EACCES)
		return -1;
	*holder = -1;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		*holder = (long)fl.l_pid;
	errno = EAGAIN;
	return -1;
}

/*
 * LOCK_SUBDIR in the held parent, made 0700 when missing: root's, and
 * nobody else's to enter.  Its fd, or -1 and why.
 */
static int
private_dir(int parent, char *why, size_t len)
{
	struct stat	st;
	int		fd;

	if (mkdirat(parent, LOCK_SUBDIR, 0700) == -1 && errno != EEXIST)
		return tt_why(why, len, "%s/%s: %s", TT_KERNEL_LOCK_DIR,
		    LOCK_SUBDIR, strerror(errno));
	fd = openat(parent, LOCK_SUBDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1) {
		(void)tt_why(why, len, "%s/%s: %s", TT_KERNEL_LOCK_DIR,
		    LOCK_SUBDIR, errno == ELOOP ? "a symbolic link" :
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	/* The parent is root's alone: only root can have made it wider. */
	if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
	    ((st.st_mode & 077) && fchmod(fd, 0700) == -1)) {
		close(fd);
		return tt_why(why, len, "%s/%s: not a directory only root "
		    "may enter", TT_KERNEL_LOCK_DIR, LOCK_SUBDIR);
	}
	return fd;
}

/* fd is (still) the file the name stands for. */
static bool
still_named(const struct kernel_lock *kl, int fd)
{
	struct stat	held, named;

	return fstat(fd, &held) == 0 && fstatat(kl->dirfd, kl->file, &named,
	    AT_SYMLINK_NOFOLLOW) == 0 && held.st_dev == named.st_dev &&
	    held.st_ino == named.st_ino;
}

/*
 * Open and lock the unit's file: the locked fd, LOCK_HELD (*heldfd is the
 * holder's file, to read who it is; kl->holder its pid) or -1.  A holder
 * unlinks its file at exit with the lock held, so a file locked once the
 * name has moved on is opened again: two daemons never hold two files of
 * one name.
 */
static int
lock_file(struct kernel_lock *kl, int *heldfd, char *why, size_t len)
{
	char	detail[TT_TEXT_MAX];
	int	fd, i;

	for (i = 0; i < LOCK_TRIES; i++) {
		fd = openat(kl->dirfd, kl->file, O_RDWR | O_CREAT | O_CLOEXEC |
		    O_NOFOLLOW | O_NONBLOCK, 0600);
		if (fd == -1)
			return tt_why(why, len, "%s/%s/%s: %s",
			    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file,
			    errno == ELOOP || errno == EMLINK ?
			    "a symbolic link" : strerror(errno));
		if (trust_file_check(fd, detail, sizeof(detail)) == -1) {
			close(fd);
			return tt_why(why, len, "%s/%s/%s: %s",
			    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file, detail);
		}
		if (lock_whole_file(fd, &kl->holder) == 0) {
			if (still_named(kl, fd))
				return fd;
		} else if (errno == EAGAIN) {
			*heldfd = fd;
			return LOCK_HELD;
		} else {
			(void)tt_why(why, len, "%s/%s/%s: %s",
			    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file,
			    strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	return tt_why(why, len, "%s/%s/%s keeps being replaced",
	    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file);
}

/*
 * The refusal, naming the holder from what it wrote into fd, or as what
 * it is not: a process other than the one the file names holds it (a
 * tcptuned writes its pid as soon as it holds the lock).
 */
static int
refuse(const struct kernel_lock *kl, int fd, char *why, size_t len)
{
	char	text[IDENTITY_MAX], lock[1024];
	ssize_t	n;

	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	(void)tt_snprintf(lock, sizeof(lock), "%s/%s/%s", TT_KERNEL_LOCK_DIR,
	    LOCK_SUBDIR, kl->file);
	if (kernel_lock_held_by_writer(text, kl->holder))
		kernel_lock_refusal(text, kl->unit, lock, why, len);
	else
		(void)tt_snprintf(why, len, "pid %ld, which is not a tcptuned "
		    "managing the sysctls of %s, holds %s; not starting while "
		    "it does", kl->holder, kl->unit, lock);
	return -1;
}

/* An absolute form of path, for the holder's file. */
static void
absolute(const char *path, char *out, size_t len)
{
	char	cwd[1024];

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) != NULL)
		(void)tt_snprintf(out, len, "%s/%s", cwd, path);
	else
		tt_strlcpy(out, path, len);
}

/* Who holds the lock, for the next daemon's refusal. */
static void
write_identity(const struct kernel_lock *kl, const char *sock,
    const char *state)
{
	char	text[IDENTITY_MAX], asock[2048], astate[2048];
	int	n;

	absolute(sock, asock, sizeof(asock));
	absolute(state, astate, sizeof(astate));
	n = kernel_lock_identity(text, sizeof(text), (unsigned long)getpid(),
	    asock, astate);
	if (n == -1 || ftruncate(kl->fd, 0) == -1 ||
	    pwrite(kl->fd, text, (size_t)n, 0) != n)
		log_warn("%s/%s/%s: cannot say who holds it",
		    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file);
}

struct kernel_lock *
kernel_lock_take(const char *sysctl_root, const char *socket_path,
    const char *state_dir, char *why, size_t len)
{
	struct kernel_lock	*kl;
	char			 detail[TT_TEXT_MAX];
	int			 held = -1, parent;

	if ((kl = calloc(1, sizeof(*kl))) == NULL) {
		(void)tt_why(why, len, "%s", strerror(errno));
		return NULL;
	}
	kl->dirfd = kl->fd = kl->treefd = -1;
	if (sysctl_root != NULL) {
		if (tree_unit(kl, sysctl_root, why, len) == -1)
			goto fail;
	} else
		running_unit(kl);
	if ((parent = trust_open_dir(TT_KERNEL_LOCK_DIR, 0, 0755, detail,
	    sizeof(detail))) < 0 || (kl->dirfd = private_dir(parent, detail,
	    sizeof(detail))) == -1) {
		(void)tt_why(why, len, "lock directory: %s: cannot make "
		    "sure no other tcptuned manages the same sysctls", detail);
		if (parent >= 0)
			close(parent);
		goto fail;
	}
	close(parent);
	if ((kl->fd = lock_file(kl, &held, why, len)) == LOCK_HELD) {
		(void)refuse(kl, held, why, len);
		close(held);
		kl->fd = -1;
		goto fail;
	}
	if (kl->fd == -1)
		goto fail;
	write_identity(kl, socket_path, state_dir);
	log_debug("holding %s/%s/%s for the sysctls of %s",
	    TT_KERNEL_LOCK_DIR, LOCK_SUBDIR, kl->file, kl->unit);
	return kl;
fail:
	kernel_lock_release(kl);
	return NULL;
}

/* The file goes while still locked and still ours: see lock_file(). */
void
kernel_lock_release(struct kernel_lock *kl)
{
	if (kl == NULL)
		return;
	if (kl->fd != -1) {
		if (still_named(kl, kl->fd))
			(void)unlinkat(kl->dirfd, kl->file, 0);
		close(kl->fd);
	}
	if (kl->dirfd >= 0)
		close(kl->dirfd);
	if (kl->treefd != -1)
		close(kl->treefd);
	free(kl);
}
