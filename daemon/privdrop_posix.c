/*
 * The parse helper gives up root for a user of no privilege (configure
 * --with-parse-user, default nobody), the way OpenBSD's daemons drop to
 * _ntp or _bgpd: setgroups, setgid, setuid, in that order (setuid last,
 * once nothing else needs root), then checked, for a setuid(0) that still
 * works means root could come back (CERT POS37-C, "Ensure that privilege
 * relinquishment is successful").
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE		/* setgroups */
#endif

#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "tcptune.h"
#include "confine.h"

static int
dropped(uid_t uid, gid_t gid, char *why, size_t len)
{
	gid_t	groups[2];

	if (getuid() != uid || geteuid() != uid || getgid() != gid ||
	    getegid() != gid)
		return tt_why(why, len, "ids not all changed");
	if (getgroups(2, groups) > 1 || (getgroups(2, groups) == 1 &&
	    groups[0] != gid))
		return tt_why(why, len, "supplementary groups kept");
	if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))
		return tt_why(why, len, "root could be regained");
	return 0;
}

/*
 * Become user; a helper not started by root (a test run as a user)
 * stays who it is, having nothing to give up.
 */
int
confine_drop(const char *user, char *why, size_t len)
{
	struct passwd	*pw;
	uid_t		 uid;
	gid_t		 gid;

	if (geteuid() != 0)
		return 0;
	errno = 0;
	if ((pw = getpwnam(user)) == NULL)
		return tt_why(why, len, "no user %s%s%s", user,
		    errno ? ": " : "", errno ? strerror(errno) : "");
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	if (uid == 0)
		return tt_why(why, len, "user %s is root", user);
	if (setgroups(1, &gid) == -1 || setgid(gid) == -1 ||
	    setuid(uid) == -1)
		return tt_why(why, len, "becoming %s: %s", user,
		    strerror(errno));
	return dropped(uid, gid, why, len);
}
