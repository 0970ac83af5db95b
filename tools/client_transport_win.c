/*
 * tcptunectl's side of the named pipe \\.\pipe\tcptune on Windows
 * (client_transport_unix.c is the AF_UNIX side).  The handle is opened
 * overlapped, for proto_io_win.c's timeouts, and with
 * SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION: the daemon may learn
 * who we are (ImpersonateNamedPipeClient), but a program squatting on
 * the name cannot act as us (CreateFileW, "Impersonation Levels",
 * Microsoft Learn).  All instances busy: wait for one (WaitNamedPipeW),
 * as long as a reply may take.  And the console it prints to.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <string.h>

#include <windows.h>

#include "tcptunectl.h"
#include "win.h"

static int
connect_error(const char *path, DWORD err)
{
	char	why[256];

	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
		ctl_warnx("no pipe at %s: is tcptuned running?", path);
		break;
	case ERROR_ACCESS_DENIED:
		ctl_warnx("%s: permission denied: this user may not use "
		    "tcptuned's pipe", path);
		break;
	case ERROR_PIPE_BUSY:
	case ERROR_SEM_TIMEOUT:
		ctl_warnx("every instance of %s stayed busy for %d s",
		    path, CTL_TIMEOUT_SEC);
		break;
	default:
		win_strerror(err, why, sizeof(why));
		ctl_warnx("cannot connect to tcptuned on %s: %s", path, why);
		break;
	}
	return CTL_UNREACHABLE;
}

static HANDLE
open_pipe(const wchar_t *wpath)
{
	return CreateFileW(wpath, GENERIC_READ | GENERIC_WRITE, 0, NULL,
	    OPEN_EXISTING, FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT |
	    SECURITY_IDENTIFICATION, NULL);
}

int
client_connect(const char *path, int *fdp)
{
	wchar_t	wpath[TT_WPATH_MAX];
	HANDLE	h;
	int	fd;

	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1) {
		ctl_warnx("%s: not a usable pipe name", path);
		return CTL_UNREACHABLE;
	}
	h = open_pipe(wpath);
	if (h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_PIPE_BUSY &&
	    WaitNamedPipeW(wpath, CTL_TIMEOUT_SEC * 1000))
		h = open_pipe(wpath);
	if (h == INVALID_HANDLE_VALUE)
		return connect_error(path, GetLastError());
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY)) == -1) {
		CloseHandle(h);
		ctl_warn("%s", path);
		return CTL_UNREACHABLE;
	}
	*fdp = fd;
	return CTL_OK;
}

int
term_columns(void)
{
	CONSOLE_SCREEN_BUFFER_INFO	info;

	if (GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info))
		return info.srWindow.Right - info.srWindow.Left + 1;
	return 0;
}
