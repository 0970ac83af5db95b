/*
 * tcptunectl advise on a Unix: the kernel release from uname(3), the round
 * trip measured with TCP connects (advise_probe.c), and --config FILE put
 * in place without ever overwriting a file unasked (trust_write_file),
 * and what --apply asks of the system: root, and a key root may write.
 * advise_win.c is the same for Windows.
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
		return CTL_HOST_UNREACHABLE;	/* measure's 5, not tcptuned's 2 */
	}
	in->rtt = p->median;
	return CTL_OK;
}

/*
 * --config FILE: the plist, checked, put in place by the one trust rule
 * (trust_write_file): never over a file without --force (a link(2) of a
 * temporary file refuses an existing name in one step), and, run as
 * root, only in a directory no other user can redirect.
 */
int
advise_write_config(const char *path, bool force, const struct advice *adv)
{
	char	*buf = NULL, why[PATH_MAX + 256];
	size_t	 len = 0;
	FILE	*mf;
	int	 rv = CTL_FAIL;

	if ((mf = open_memstream(&buf, &len)) == NULL) {
		ctl_warn("%s", path);
		return CTL_FAIL;
	}
	advise_plist(mf, adv);
	if (fclose(mf) == EOF || advise_self_check(buf, len, path) == -1)
		goto out;
	if (trust_write_file(path, force ? 0 : TRUST_NO_REPLACE, buf, len,
	    CONFIG_MODE, why, sizeof(why)) == 0)
		rv = CTL_OK;
	else if (errno == EEXIST)
		ctl_warnx("%s exists: add --force to replace it", path);
	else
		ctl_warnx("cannot write %s: %s", path, why);
out:
	free(buf);
	return rv;
}


/* set and advise --apply write root's config. */
bool
advise_privileged(char *why, size_t len)
{
	if (geteuid() == 0)
		return true;
	snprintf(why, len, "it writes tcptuned's config (run it with sudo)");
	return false;
}

/*
 * Whether root may write the key here.  On Linux a global key (net.core.*)
 * is read only, even to root, in any network namespace but the first
 * one: a container's tcptuned would report it refused at every check.
 * access(2) asks the kernel's own check, which for /proc/sys gives root
 * the owner's bits only ("sysctl_perm does NOT grant the superuser all
 * rights automatically": torvalds/linux@v6.6:fs/proc/proc_sysctl.c,
 * test_perm), so a key shown 0444 is refused to root as to anyone.
 * Elsewhere, and when the answer is not a plain no, it is tried.
 */
bool
advise_key_writable(const char *name, char *why, size_t len)
{
#ifdef __linux__
	char	path[PATH_MAX];

	if (sysctl_dir_path(TT_PROC_SYS, name, path, sizeof(path)) != 0 ||
	    access(path, W_OK) == 0 || (errno != EACCES && errno != EPERM &&
	    errno != EROFS))
		return true;
	snprintf(why, len, "read only here, even to root (%s: a key of the "
	    "host's, seen from a container or network namespace?)",
	    strerror(errno));
	return false;
#else
	(void)name;
	(void)why;
	(void)len;
	return true;
#endif
}
