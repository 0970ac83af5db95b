/*
 * netsh.exe for the Windows backend, when the CIM provider refuses a
 * change (backend_win.c, netsh_fallback): the program at a fixed path,
 * GetSystemDirectoryW()\netsh.exe (%SystemRoot%\System32, never a
 * search of PATH or the current directory), a fixed argument vector
 * the backend builds from its own words, CreateProcessW with no shell
 * (Microsoft Learn, CreateProcessW: lpApplicationName given, so the
 * command line is not searched), run by run_win.c: its output read
 * through a pipe, the only handle it inherits, within CIM_NETSH_LIMIT_S
 * for the whole run, and its exit code.  Nothing here comes from the
 * configuration file but the value, which backend_win.c has checked
 * against its table of words before it gets here.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

#include "tcptune.h"
#include "cim.h"
#include "win.h"

#define NETSH_CMD_MAX	512

/* Only words netsh is given by backend_win.c: letters, digits, '='. */
static bool
plain_word(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '='))
			return false;
	return true;
}

/* "netsh.exe arg ...": no quoting needed, plain_word() saw to it. */
static int
command_line(const char *const *args, wchar_t *cmd, size_t len)
{
	size_t	i, n;

	n = (size_t)swprintf(cmd, len, L"netsh.exe");
	for (i = 0; args[i] != NULL; i++) {
		if (!plain_word(args[i]) || n + strlen(args[i]) + 2 >= len)
			return EINVAL;
		n += (size_t)swprintf(cmd + n, len - n, L" %hs", args[i]);
	}
	return 0;
}

int
netsh_run(const char *const *args, struct cim_run *run)
{
	wchar_t	dir[MAX_PATH], exe[MAX_PATH + 16];
	wchar_t	cmd[NETSH_CMD_MAX];
	DWORD	err;
	UINT	n;
	int	bad;

	memset(run, 0, sizeof(*run));
	n = GetSystemDirectoryW(dir, MAX_PATH);
	if (n == 0 || n >= MAX_PATH)
		return ENOENT;
	swprintf(exe, sizeof(exe) / sizeof(exe[0]), L"%ls\\netsh.exe", dir);
	if ((bad = command_line(args, cmd, NETSH_CMD_MAX)) != 0)
		return bad;
	/* the deadline is the whole run's: a netsh that hangs, with or
	 * without output, is ended and the daemon's one thread goes on */
	err = win_run(exe, cmd, dir, CIM_NETSH_LIMIT_S * 1000, run->out,
	    sizeof(run->out), &run->exit_code);
	if (err == ERROR_TIMEOUT)
		return ETIMEDOUT;
	return err == ERROR_SUCCESS ? 0 : win_errno(err);
}
