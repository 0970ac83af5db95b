/*
 * One child program run to its end or to a deadline, for netsh_win.c:
 * its stdout and stderr through one pipe, the first bytes kept, its exit
 * code.  The daemon has one thread, so nothing here may block past the
 * deadline.  A ReadFile on an anonymous pipe returns only once the child
 * writes or every write handle is closed, and such a pipe has no
 * overlapped I/O (Microsoft Learn, "Anonymous Pipe Operations",
 * https://learn.microsoft.com/en-us/windows/win32/ipc/anonymous-pipe-operations),
 * so the pipe is read only as far as PeekNamedPipe says bytes are there,
 * between waits on the process, against one GetTickCount64 deadline for
 * the whole run.  A child still running then is ended with
 * TerminateProcess.
 *
 * Only the pipe's write end is inherited: the handle list
 * (PROC_THREAD_ATTRIBUTE_HANDLE_LIST, "a list of handles to be inherited
 * by the child process", Microsoft Learn, UpdateProcThreadAttribute:
 * https://learn.microsoft.com/en-us/windows/win32/api/processthreadsapi/nf-processthreadsapi-updateprocthreadattribute)
 * limits bInheritHandles to it, whatever else in the process was made
 * inheritable (Raymond Chen, "Programmatically controlling which handles
 * are inherited by new processes in Win32",
 * https://devblogs.microsoft.com/oldnewthing/20111216-00/?p=8873).
 * Compiled on Windows only; also built alone into
 * tests/windows/run_deadline.exe, so it needs nothing else of lib/.
 */
#ifdef HAVE_CONFIG_H		/* tests/windows/run_deadline.c: no configure */
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "win.h"

#define RUN_POLL_MS	20	/* between looks at the pipe */
#define RUN_KILL_MS	5000	/* for a terminated child to be gone */

struct run_out {
	char	*buf;
	size_t	 len, have;	/* have < len: room for the NUL */
};

/* What the pipe holds now, never waiting for more. */
static void
read_ready(HANDLE rd, struct run_out *o)
{
	char	chunk[512];
	DWORD	avail, got;
	size_t	take;

	/* PeekNamedPipe fails once every writer is gone (ERROR_BROKEN_PIPE) */
	while (PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL) && avail > 0 &&
	    ReadFile(rd, chunk, avail < sizeof(chunk) ? avail : sizeof(chunk),
	    &got, NULL) && got > 0) {
		take = o->len - 1 - o->have;	/* the rest is read, not kept */
		if (take > got)
			take = got;
		memcpy(o->buf + o->have, chunk, take);
		o->have += take;
		o->buf[o->have] = '\0';
	}
}

/*
 * Read the pipe until the child has exited, or end it at the deadline:
 * ERROR_SUCCESS, ERROR_TIMEOUT or the error of a failed wait.  What the
 * child wrote before it exited is in the pipe: it is read after the exit
 * is seen, so nothing is lost to the order of the two.
 */
static DWORD
read_until_exit(HANDLE proc, HANDLE rd, struct run_out *o, DWORD limit_ms)
{
	ULONGLONG	start = GetTickCount64(), spent;
	DWORD		w = WAIT_TIMEOUT, err = ERROR_TIMEOUT;

	for (;;) {
		read_ready(rd, o);
		if (w == WAIT_OBJECT_0)
			return ERROR_SUCCESS;
		spent = GetTickCount64() - start;
		if (spent >= limit_ms)
			break;
		w = WaitForSingleObject(proc, limit_ms - spent < RUN_POLL_MS ?
		    (DWORD)(limit_ms - spent) : RUN_POLL_MS);
		if (w == WAIT_FAILED) {
			err = GetLastError();
			break;
		}
	}
	TerminateProcess(proc, 1);
	WaitForSingleObject(proc, RUN_KILL_MS);
	return err;
}

/* *list: a list that lets the child inherit h alone. */
static DWORD
inherit_only(HANDLE *h, LPPROC_THREAD_ATTRIBUTE_LIST *list)
{
	SIZE_T	size = 0;
	DWORD	err;

	InitializeProcThreadAttributeList(NULL, 1, 0, &size);
	if (size == 0)
		return GetLastError();
	if ((*list = malloc(size)) == NULL)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (!InitializeProcThreadAttributeList(*list, 1, 0, &size)) {
		err = GetLastError();
		free(*list);
		return err;
	}
	if (!UpdateProcThreadAttribute(*list, 0,
	    PROC_THREAD_ATTRIBUTE_HANDLE_LIST, h, sizeof(*h), NULL, NULL)) {
		err = GetLastError();
		DeleteProcThreadAttributeList(*list);
		free(*list);
		return err;
	}
	return ERROR_SUCCESS;
}

/* exe with cmd, its output on wr alone; the process in *pi. */
static DWORD
start_child(const wchar_t *exe, wchar_t *cmd, const wchar_t *dir, HANDLE wr,
    PROCESS_INFORMATION *pi)
{
	STARTUPINFOEXW	si;
	DWORD		err;

	memset(&si, 0, sizeof(si));
	si.StartupInfo.cb = sizeof(si);
	si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
	si.StartupInfo.hStdInput = NULL;
	si.StartupInfo.hStdOutput = si.StartupInfo.hStdError = wr;
	if ((err = inherit_only(&wr, &si.lpAttributeList)) != ERROR_SUCCESS)
		return err;
	if (!CreateProcessW(exe, cmd, NULL, NULL, TRUE,
	    CREATE_NO_WINDOW | EXTENDED_STARTUPINFO_PRESENT, NULL, dir,
	    &si.StartupInfo, pi))
		err = GetLastError();
	DeleteProcThreadAttributeList(si.lpAttributeList);
	free(si.lpAttributeList);
	return err;
}

DWORD
win_run(const wchar_t *exe, wchar_t *cmd, const wchar_t *dir,
    DWORD limit_ms, char *out, size_t outlen, unsigned long *exit_code)
{
	SECURITY_ATTRIBUTES	sa = { sizeof(sa), NULL, TRUE };
	PROCESS_INFORMATION	pi;
	struct run_out		o = { out, outlen, 0 };
	HANDLE			rd, wr;
	DWORD			err, code;

	out[0] = '\0';
	*exit_code = 0;
	if (!CreatePipe(&rd, &wr, &sa, 0))
		return GetLastError();
	SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
	err = start_child(exe, cmd, dir, wr, &pi);
	CloseHandle(wr);	/* the child's copy is the only writer left */
	if (err != ERROR_SUCCESS) {
		CloseHandle(rd);
		return err;
	}
	CloseHandle(pi.hThread);
	err = read_until_exit(pi.hProcess, rd, &o, limit_ms);
	if (err == ERROR_SUCCESS && !GetExitCodeProcess(pi.hProcess, &code))
		err = GetLastError();
	else if (err == ERROR_SUCCESS)
		*exit_code = code;
	CloseHandle(rd);
	CloseHandle(pi.hProcess);
	return err;
}
