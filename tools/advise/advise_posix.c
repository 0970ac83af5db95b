/*
 * tcptunectl advise on a Unix: the kernel release from uname(3), the round
 * trip measured with TCP connects (advise_probe.c), and --config FILE put
 * in place without ever overwriting a file unasked.  advise_win.c is the
 * same for Windows.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcptunectl.h"
#include "advise.h"

#define CONFIG_MODE	0644

void
advise_read_release(struct adv_input *in)
{
	struct utsname	u;

	if (uname(&u) == -1)
		adv_input_set(in, "kernel.osrelease", NULL, errno, false);
	else
		adv_input_set(in, "kernel.osrelease", u.release, 0, false);
}

/* --host: the median of count TCP connects becomes the round trip. */
int
advise_measure(const char *arg, int count, double timeout,
    struct adv_input *in, struct adv_probe *p)
{
	char	host[256], err[512];
	int	port;

	if (adv_split_host(arg, host, sizeof(host), &port, err,
	    sizeof(err)) == -1) {
		ctl_warnx("--host \"%s\": %s", arg, err);
		return CTL_USAGE;
	}
	if (adv_probe_rtt(host, port, count, timeout, p, err,
	    sizeof(err)) == -1) {
		ctl_warnx("--host %s: %s", arg, err);
		return CTL_UNREACHABLE;
	}
	in->rtt = p->median;
	return CTL_OK;
}

/* A temporary file beside path holding data, mode 0644 whatever umask. */
static int
write_temp(const char *tmp, const char *data, size_t len)
{
	int	fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    CONFIG_MODE);
	if (fd == -1)
		return -1;
	if (fchmod(fd, CONFIG_MODE) == -1 || write_all(fd, data, len) == -1 ||
	    fsync(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return close(fd);
}

/*
 * Put tmp in place as path.  link(2) refuses an existing path in one step,
 * so no file is ever overwritten without --force; where links are not
 * supported the name is claimed with O_EXCL first.
 */
static int
install(const char *tmp, const char *path, bool force)
{
	int	fd;

	if (force)
		return rename(tmp, path);
	if (link(tmp, path) == 0)
		return unlink(tmp) == -1 && errno != ENOENT ? -1 : 0;
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != EXDEV)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, CONFIG_MODE)) == -1)
		return -1;
	close(fd);
	return rename(tmp, path);
}

/* --config FILE: the plist, checked, put in place. */
int
advise_write_config(const char *path, bool force, const struct advice *adv)
{
	char	*buf = NULL, tmp[PATH_MAX];
	size_t	 len = 0;
	FILE	*mf;
	int	 rv = CTL_FAIL, saved;

	if ((mf = open_memstream(&buf, &len)) == NULL) {
		ctl_warn("%s", path);
		return CTL_FAIL;
	}
	advise_plist(mf, adv);
	if (fclose(mf) == EOF || advise_self_check(buf, len, path) == -1)
		goto out;
	if (tt_snprintf(tmp, sizeof(tmp), "%s" TT_ATOMIC_TMP "%ld", path,
	    (long)getpid()) == -1) {
		ctl_warnx("%s: name too long", path);
		goto out;
	}
	if (write_temp(tmp, buf, len) == -1)
		ctl_warn("cannot write %s", path);
	else if (install(tmp, path, force) == -1) {
		saved = errno;
		unlink(tmp);
		if (saved == EEXIST)
			ctl_warnx("%s exists: add --force to replace it", path);
		else {
			errno = saved;
			ctl_warn("%s", path);
		}
	} else
		rv = CTL_OK;
out:
	free(buf);
	return rv;
}

