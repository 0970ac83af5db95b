/*
 * The sysctl-directory backend: a sysctl is the file <root>/<name with
 * dots as slashes>, as under Linux's /proc/sys.  The root is /proc/sys on
 * Linux and any directory given with tcptuned -r on every Unix platform
 * (tests and dry runs point it at a tree of files).  A name is mapped to a
 * path only when no part of it could lead out of the root.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tcptune.h"

struct sysctl_dir_ctx {
	char	root[PATH_MAX];
	char	failed[TT_NAME_MAX];	/* the last get or set that failed */
	int	failed_err;
	bool	failed_set;		/* and it was a set */
};

/* Kept for explain: the engine asks right after the failure. */
static int
note_failure(struct sysctl_dir_ctx *ctx, const char *name, int err, bool set)
{
	if (err != 0) {
		tt_strlcpy(ctx->failed, name, sizeof(ctx->failed));
		ctx->failed_err = err;
		ctx->failed_set = set;
	}
	return err;
}

/* A part of a name: letters, digits, '_' and '-', and not "-..." */
static bool
component_ok(const char *s, size_t len)
{
	size_t	i;

	if (len == 0 || s[0] == '-')
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/*
 * root + "/" + name with its dots as slashes.  By hand rather than with
 * snprintf: this runs for every key of every check.
 */
static int
join_path(const char *root, const char *name, char *out, size_t len)
{
	size_t	rlen = strlen(root), nlen = strlen(name), i;

	if (rlen + 1 + nlen >= len)
		return ENAMETOOLONG;
	memcpy(out, root, rlen);
	out[rlen] = '/';
	for (i = 0; i <= nlen; i++)
		out[rlen + 1 + i] = name[i] == '.' ? '/' : name[i];
	return 0;
}

/*
 * "net.ipv4.tcp_rmem" -> "<root>/net/ipv4/tcp_rmem".  Rejects (EINVAL)
 * anything but dot-separated plain components, so "/", "..", white space
 * and empty parts never reach the file system.
 */
int
sysctl_dir_path(const char *root, const char *name, char *out, size_t len)
{
	const char	*p, *dot;
	size_t		 n, parts = 0;

	if (strlen(name) >= TT_NAME_MAX)
		return EINVAL;
	for (p = name;; p = dot + 1) {
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (!component_ok(p, n))
			return EINVAL;
		parts++;
		if (dot == NULL)
			break;
	}
	if (parts < 2)
		return EINVAL;
	return join_path(root, name, out, len);
}

/*
 * open(O_NOFOLLOW) met a symlink, which no /proc/sys file is: EINVAL, as
 * for any name that is not a sysctl.  Linux and macOS say ELOOP, FreeBSD
 * (where tcptuned -r runs on a sysctl directory) EMLINK (pjdfstest
 * open/16.t).
 */
static int
symlink_errno(int err)
{
	return err == ELOOP || err == EMLINK ? EINVAL : err;
}

static int
read_sysctl(struct sysctl_backend *be, const char *name, char *buf,
    size_t len)
{
	struct sysctl_dir_ctx	*ctx = be->ctx;
	char			 path[PATH_MAX], *raw;
	size_t			 rawlen;
	int			 fd, err;

	if ((err = sysctl_dir_path(ctx->root, name, path, sizeof(path))))
		return err;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) == -1)
		return symlink_errno(errno);
	if (read_file_bounded(fd, &raw, &rawlen, TT_VALUE_MAX * 4) == -1) {
		err = errno == EFBIG ? ERANGE : errno;
		close(fd);
		return err;
	}
	close(fd);
	err = value_normalize(raw, buf, len) == -1 ? ERANGE : 0;
	free(raw);
	return err;
}

/* One write of the whole value, as sysctl(8) does; proc handlers parse it. */
static int
write_sysctl(struct sysctl_backend *be, const char *name, const char *value)
{
	struct sysctl_dir_ctx	*ctx = be->ctx;
	char			 path[PATH_MAX], line[TT_VALUE_MAX + 1];
	ssize_t			 n;
	int			 fd, err, len;

	if ((err = sysctl_dir_path(ctx->root, name, path, sizeof(path))))
		return err;
	if ((len = tt_snprintf(line, sizeof(line), "%s\n", value)) == -1)
		return EINVAL;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd == -1)
		return symlink_errno(errno);
	do
		n = write(fd, line, (size_t)len);
	while (n == -1 && errno == EINTR);
	err = n == -1 ? errno : n != len ? EIO : 0;
	if (close(fd) == -1 && err == 0)
		err = errno;
	return err;
}

static int
sysctl_dir_get(struct sysctl_backend *be, const char *name, char *buf,
    size_t len)
{
	return note_failure(be->ctx, name, read_sysctl(be, name, buf, len),
	    false);
}

static int
sysctl_dir_set(struct sysctl_backend *be, const char *name, const char *value)
{
	return note_failure(be->ctx, name, write_sysctl(be, name, value),
	    true);
}

/*
 * Whether a set of name would be refused, nothing written: the file
 * missing (ENOENT), or writable by nobody, root included (EACCES: proc
 * gives root the owner's bits, so a global key read only in a child
 * network namespace is 0444 there).  Kept as a failed set for explain.
 */
static int
sysctl_dir_probe(struct sysctl_backend *be, const char *name)
{
	struct sysctl_dir_ctx	*ctx = be->ctx;
	char			 path[PATH_MAX];
	struct stat		 st;
	int			 err;

	if ((err = sysctl_dir_path(ctx->root, name, path, sizeof(path))) == 0)
		err = stat(path, &st) == -1 ? errno :
		    (st.st_mode & 0222) == 0 ? EACCES : 0;
	return note_failure(ctx, name, err, true);
}

/*
 * A word the kernel has no such thing for (Linux: a congestion control
 * neither registered nor loadable as a module, ENOENT): the ones it
 * offers, from the key that lists them in the same tree.
 */
static int
words_note(struct sysctl_backend *be, const char *name, char *buf,
    size_t len)
{
	struct sysctl_dir_ctx	*ctx = be->ctx;
	const char		*list_key, *module;
	char			 list[TT_VALUE_MAX];

	if (!ctx->failed_set || ctx->failed_err != ENOENT ||
	    (list_key = catalogue_words_key(name, TT_OS_LINUX,
	    &module)) == NULL ||
	    read_sysctl(be, list_key, list, sizeof(list)) != 0)
		return -1;
	snprintf(buf, len, "not available here (available: %s)", list);
	return 0;
}

/*
 * Why the last failure of name: a word the kernel lacks (words_note), or
 * a global key refused in a child network namespace, in the words of
 * this kernel's release (kernel.osrelease in the same tree): absent
 * before Linux 6.11, read only from it (catalogue_linux_netns_note).
 */
static int
sysctl_dir_explain(struct sysctl_backend *be, const char *name, char *buf,
    size_t len)
{
	struct sysctl_dir_ctx	*ctx = be->ctx;
	char			 release[TT_VALUE_MAX];

	if (strcmp(ctx->failed, name) != 0)
		return -1;
	if (words_note(be, name, buf, len) == 0)
		return 0;
	if (read_sysctl(be, "kernel.osrelease", release, sizeof(release)) != 0)
		return -1;
	return catalogue_linux_netns_note(name, ctx->failed_err, release, buf,
	    len) ? 0 : -1;
}

static void
sysctl_dir_free(struct sysctl_backend *be)
{
	free(be->ctx);
	free(be);
}

struct sysctl_backend *
backend_sysctl_dir_new(const char *root)
{
	struct sysctl_backend	*be;
	struct sysctl_dir_ctx	*ctx;

	be = calloc(1, sizeof(*be));
	ctx = calloc(1, sizeof(*ctx));
	if (be == NULL || ctx == NULL ||
	    tt_strlcpy(ctx->root, root, sizeof(ctx->root)) >= sizeof(ctx->root)) {
		free(be);
		free(ctx);
		return NULL;
	}
	/* Which tree, in the name status reports: the live kernel's or not. */
	be->name = strcmp(ctx->root, TT_PROC_SYS) == 0 ?
	    "sysctl-dir (" TT_PROC_SYS ")" : "sysctl-dir";
	be->get = sysctl_dir_get;
	be->set = sysctl_dir_set;
	be->explain = sysctl_dir_explain;
	be->probe = sysctl_dir_probe;
	be->free = sysctl_dir_free;
	be->ctx = ctx;
	return be;
}
