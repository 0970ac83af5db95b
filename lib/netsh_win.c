/*
 * netsh.exe for the Windows backend, when the CIM provider refuses a
 * change (backend_win.c, netsh_fallback): the program at a fixed path,
 * GetSystemDirectoryW()\netsh.exe (%SystemRoot%\System32, never a
 * search of PATH or the current directory), a fixed argument vector
 * the backend builds from its own words, CreateProcessW with no shell
 * (Microsoft Learn, CreateProcessW: lpApplicationName given, so the
 * command line is not searched), its output read through a pipe and its
 * exit code taken with GetExitCodeProcess.  Nothing here comes from the
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
#define NETSH_WAIT_MS	30000	/* netsh answers in well under a second */

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

/* Everything the child writes, the first CIM_RUN_OUT - 1 bytes kept. */
static void
drain(HANDLE rd, struct cim_run *run)
{
	char	buf[256];
	DWORD	got;
	size_t	have = 0, take;

	while (ReadFile(rd, buf, sizeof(buf), &got, NULL) && got > 0) {
		take = sizeof(run->out) - 1 - have;
		if (take > got)
			take = got;
		memcpy(run->out + have, buf, take);
		have += take;
	}
	run->out[have] = '\0';
}

static int
wait_child(HANDLE proc, struct cim_run *run)
{
	DWORD	code;

	if (WaitForSingleObject(proc, NETSH_WAIT_MS) != WAIT_OBJECT_0) {
		TerminateProcess(proc, 1);
		return ETIMEDOUT;
	}
	if (!GetExitCodeProcess(proc, &code))
		return win_errno(GetLastError());
	run->exit_code = code;
	return 0;
}

int
netsh_run(const char *const *args, struct cim_run *run)
{
	SECURITY_ATTRIBUTES	sa = { sizeof(sa), NULL, TRUE };
	STARTUPINFOW		si;
	PROCESS_INFORMATION	pi;
	wchar_t			dir[MAX_PATH], exe[MAX_PATH + 16];
	wchar_t			cmd[NETSH_CMD_MAX];
	HANDLE			rd, wr;
	UINT			n;
	int			err;

	memset(run, 0, sizeof(*run));
	n = GetSystemDirectoryW(dir, MAX_PATH);
	if (n == 0 || n >= MAX_PATH)
		return ENOENT;
	swprintf(exe, sizeof(exe) / sizeof(exe[0]), L"%ls\\netsh.exe", dir);
	if ((err = command_line(args, cmd, NETSH_CMD_MAX)) != 0)
		return err;
	/* Only the write end is inherited; the daemon's other handles are
	 * created not inheritable. */
	if (!CreatePipe(&rd, &wr, &sa, 0))
		return win_errno(GetLastError());
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	memset(&si, 0, sizeof(si));
	si.cb = sizeof(si);
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = NULL;
	si.hStdOutput = si.hStdError = wr;
	if (!CreateProcessW(exe, cmd, NULL, NULL, TRUE, CREATE_NO_WINDOW,
	    NULL, dir, &si, &pi)) {
		err = win_errno(GetLastError());
		CloseHandle(rd);
		CloseHandle(wr);
		return err;
	}
	CloseHandle(wr);	/* EOF on rd once the child exits */
	CloseHandle(pi.hThread);
	drain(rd, run);
	CloseHandle(rd);
	err = wait_child(pi.hProcess, run);
	CloseHandle(pi.hProcess);
	return err;
}
