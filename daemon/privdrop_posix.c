/*
 * The parse helper gives up root for a user of no privilege (configure
 * --with-parse-user, default _tcptune, which the packages create), the
 * way OpenBSD's daemons drop to _ntp or _bgpd: setgroups, setgid, setuid,
 * in that order (setuid last, once nothing else needs root), then
 * checked, for a setuid(0) that still works means root could come back
 * (CERT POS37-C, "Ensure that privilege relinquishment is successful").
 *
 * The user must be the helper's alone: any process of the same uid may
 * signal it (SIGKILL fails every reload, SIGSTOP stalls one), which is
 * why it is not nobody.  Where the user does not exist (a build tree, a
 * source install) the helper takes an id that no account, no group and
 * no process has, from PICK_FIRST to PICK_LAST: systemd's table of ranges
 * leaves 65520-65533 unused, between its dynamic service users (61184-
 * 65519, which DynamicUser= hands out at any time) and nobody
 * (systemd/systemd docs/UIDS-GIDS.md, "Summary").  Only root can give a
 * process an id no process holds, so no one else can come to share it
 * (docs/SECURITY.md).
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

#define PICK_FIRST	65520
#define PICK_LAST	65533

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

/* An id for uid and gid that nothing has: 0, or -1 and why. */
static int
pick_free_id(const char *user, uid_t *uid, gid_t *gid, char *why,
    size_t len)
{
	char		held_why[256];
	unsigned long	id;
	int		held;

	for (id = PICK_FIRST; id <= PICK_LAST; id++) {
		if (getpwuid((uid_t)id) != NULL || getgrgid((gid_t)id) != NULL)
			continue;
		if ((held = confine_id_held(id, held_why,
		    sizeof(held_why))) == -1)
			return tt_why(why, len, "no user %s, and no id can be "
			    "proved free: %s", user, held_why);
		if (held == 0) {
			*uid = (uid_t)id;
			*gid = (gid_t)id;
			return 0;
		}
	}
	return tt_why(why, len, "no user %s, and every id from %d to %d is "
	    "in use", user, PICK_FIRST, PICK_LAST);
}

/*
 * Become user, or an id of its own where there is no such user; a helper
 * not started by root (a test run as a user) stays who it is, having
 * nothing to give up.
 */
int
confine_drop(const char *user, char *why, size_t len)
{
	struct passwd	*pw;
	uid_t		 uid;
	gid_t		 gid;

	if (geteuid() != 0)
		return 0;
	if ((pw = getpwnam(user)) != NULL) {
		uid = pw->pw_uid;
		gid = pw->pw_gid;
	} else if (pick_free_id(user, &uid, &gid, why, len) == -1)
		return -1;
	if (uid == 0)
		return tt_why(why, len, "user %s is root", user);
	if (setgroups(1, &gid) == -1 || setgid(gid) == -1 ||
	    setuid(uid) == -1)
		return tt_why(why, len, "becoming %s: %s", user,
		    strerror(errno));
	return dropped(uid, gid, why, len);
}
