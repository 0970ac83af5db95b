/*
 * Linux: whether any process holds an id, from /proc/PID/status, whose
 * "Uid:" and "Gid:" lines give the real, effective, saved and file-system
 * ids (torvalds/linux fs/proc/array.c, task_cred(), v6.6).  The parse
 * helper asks this as root, before it gives root up
 * (privdrop_posix.c).
 *
 * /proc mounted with hidepid (systemd's ProtectProc=invisible) hides the
 * processes of other users from a root without CAP_SYS_PTRACE, and a
 * scan would then call every id free: pid 1, never the caller's, is
 * looked for first, and where it cannot be seen the answer is "cannot
 * tell" (torvalds/linux fs/proc/base.c, has_pid_permissions()).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tcptune.h"
#include "confine.h"

/* The line "Uid:\t0\t0\t0\t0" names id among its four numbers. */
static bool
line_names(const char *line, const char *tag, unsigned long id)
{
	const char	*p;
	char		*end;
	size_t		 tlen = strlen(tag);
	int		 i;

	if (strncmp(line, tag, tlen) != 0)
		return false;
	for (p = line + tlen, i = 0; i < 4; i++, p = end) {
		errno = 0;
		if (strtoul(p, &end, 10) == id && end != p && errno == 0)
			return true;
		if (end == p)
			break;
	}
	return false;
}

/* 1 when the process's status names id as a uid or gid, 0 otherwise. */
static int
process_holds(const char *pid, unsigned long id)
{
	char	 path[64], line[256];
	FILE	*f;
	int	 held = 0;

	(void)tt_snprintf(path, sizeof(path), "/proc/%s/status", pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;	/* gone since the directory was read */
	while (!held && fgets(line, sizeof(line), f) != NULL)
		held = line_names(line, "Uid:", id) ||
		    line_names(line, "Gid:", id);
	fclose(f);
	return held;
}

int
confine_id_held(unsigned long id, char *why, size_t len)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*dir;
	int		 held = 0;

	if (stat("/proc/1/status", &st) == -1)
		return tt_why(why, len, "/proc does not show every process "
		    "(/proc/1/status: %s)", strerror(errno));
	if ((dir = opendir("/proc")) == NULL)
		return tt_why(why, len, "/proc: %s", strerror(errno));
	while (!held && (de = readdir(dir)) != NULL)
		if (isdigit((unsigned char)de->d_name[0]))
			held = process_holds(de->d_name, id);
	closedir(dir);
	return held;
}
