/*
 * tcptunectl's side of the named pipe \\.\pipe\tcptune on Windows
 * (client_transport_posix.c is the AF_UNIX side).  The handle is opened
 * overlapped, for win_transfer()'s timeouts, and with
 * SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION: the daemon may learn
 * who we are (ImpersonateNamedPipeClient), but a program squatting on
 * the name cannot act as us (CreateFileW, "Impersonation Levels",
 * Microsoft Learn).  All instances busy: wait for one (WaitNamedPipeW),
 * as long as a reply may take.  The pipe is opened with only the rights
 * the exchange needs and spoken to only when SYSTEM or Administrators own
 * it.  And the console it prints to.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <io.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include "tcptunectl.h"
#include "win.h"

/*
 * One overlapped transfer on h, waited for at most timeout_ms (-1: ever),
 * then cancelled (CancelIoEx).  -1 with errno (ETIMEDOUT, ECONNRESET for
 * a pipe the other end closed).
 */
static int
win_transfer(HANDLE h, bool writing, void *buf, DWORD len, DWORD *done,
    int timeout_ms)
{
	OVERLAPPED	ov;
	BOOL		ok;
	DWORD		err;

	memset(&ov, 0, sizeof(ov));
	if ((ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	ok = writing ? WriteFile(h, buf, len, NULL, &ov) :
	    ReadFile(h, buf, len, NULL, &ov);
	err = ok ? ERROR_SUCCESS : GetLastError();
	if (!ok && err == ERROR_IO_PENDING &&
	    WaitForSingleObject(ov.hEvent, timeout_ms < 0 ? INFINITE :
	    (DWORD)timeout_ms) == WAIT_TIMEOUT) {
		CancelIoEx(h, &ov);
		GetOverlappedResult(h, &ov, done, TRUE);
		CloseHandle(ov.hEvent);
		errno = ETIMEDOUT;
		return -1;
	}
	if (ok || err == ERROR_IO_PENDING || err == ERROR_MORE_DATA)
		ok = GetOverlappedResult(h, &ov, done, TRUE);
	err = ok ? ERROR_SUCCESS : GetLastError();
	CloseHandle(ov.hEvent);
	if (!ok && err != ERROR_MORE_DATA) {
		errno = err == ERROR_BROKEN_PIPE || err == ERROR_PIPE_NOT_CONNECTED
		    ? ECONNRESET : win_errno(err);
		return -1;
	}
	return 0;
}

/* No systemd here: the service is the Service Control Manager's. */
static bool
booted_with_systemd(void)
{
	return false;
}

static int
connect_error(const char *path, DWORD err)
{
	char	why[256], found[MAX_PATH + 128];

	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
		snprintf(found, sizeof(found), "no pipe at %s: tcptuned is "
		    "not running", path);
		return ctl_unreachable(found, booted_with_systemd());
	case ERROR_ACCESS_DENIED:
		ctl_warnx("%s: permission denied: this user may not use "
		    "tcptuned's pipe", path);
		break;
	case ERROR_PIPE_BUSY:
	case ERROR_SEM_TIMEOUT:
		ctl_warnx("every instance of %s stayed busy until the "
		    "deadline", path);
		break;
	default:
		win_strerror(err, why, sizeof(why));
		ctl_warnx("cannot connect to tcptuned on %s: %s", path, why);
		break;
	}
	return CTL_UNREACHABLE;
}

/*
 * Exactly the rights the exchange needs, which the pipe grants Everyone
 * (control_pipe_win.c, PIPE_DACL): read and write data, wait on the
 * handle, read the owner.  Not GENERIC_WRITE: it includes
 * FILE_CREATE_PIPE_INSTANCE, which the pipe refuses to non-admins
 * ("Named Pipe Security and Access Rights", Microsoft Learn).
 */
#define PIPE_CLIENT_ACCESS	(FILE_READ_DATA | FILE_WRITE_DATA | \
				 SYNCHRONIZE | READ_CONTROL)

static HANDLE
open_pipe(const wchar_t *wpath)
{
	return CreateFileW(wpath, PIPE_CLIENT_ACCESS, 0, NULL,
	    OPEN_EXISTING, FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT |
	    SECURITY_IDENTIFICATION, NULL);
}

/*
 * Whose pipe this is: tcptuned's is owned by SYSTEM (Administrators when
 * an elevated Administrator runs it); anything else is another program
 * holding the name, and is not spoken to.  GetSecurityInfo on the handle
 * with OWNER_SECURITY_INFORMATION, as PuTTY's named-pipe client checks
 * Pageant's pipe (windows/named-pipe-client.c, connect_to_named_pipe).
 */
static int
check_owner(HANDLE h, const char *path)
{
	PSECURITY_DESCRIPTOR	 sd = NULL;
	PSID			 owner = NULL;
	char			 why[256], *sid = NULL;
	DWORD			 e;
	bool			 ours;

	e = GetSecurityInfo(h, SE_KERNEL_OBJECT, OWNER_SECURITY_INFORMATION,
	    &owner, NULL, NULL, NULL, &sd);
	if (e != ERROR_SUCCESS) {
		win_strerror(e, why, sizeof(why));
		ctl_warnx("%s: cannot read the pipe's owner (%s): not speaking "
		    "to a pipe whose owner is unknown", path, why);
		return CTL_UNREACHABLE;
	}
	ours = owner != NULL && IsValidSid(owner) &&
	    (IsWellKnownSid(owner, WinLocalSystemSid) ||
	    IsWellKnownSid(owner, WinBuiltinAdministratorsSid));
	if (!ours) {
		if (owner == NULL || !ConvertSidToStringSidA(owner, &sid))
			sid = NULL;
		ctl_warnx("%s is owned by %s, not SYSTEM or Administrators: it "
		    "is not tcptuned's pipe (another program holds the name); "
		    "refusing to use it", path, sid != NULL ? sid : "nobody");
		LocalFree(sid);
	}
	LocalFree(sd);
	return ours ? CTL_OK : CTL_UNREACHABLE;
}

/*
 * The pipe, within the request's deadline, served by SYSTEM or
 * Administrators (check_owner); the AF_UNIX side asks for the uid.
 */
int
transport_connect(struct ctl_conn *c)
{
	wchar_t	wpath[TT_WPATH_MAX];
	HANDLE	h;

	if (win_wpath(c->path, wpath, TT_WPATH_MAX) == -1) {
		ctl_warnx("%s: not a usable pipe name", c->path);
		return CTL_UNREACHABLE;
	}
	h = open_pipe(wpath);
	if (h == INVALID_HANDLE_VALUE && GetLastError() == ERROR_PIPE_BUSY &&
	    WaitNamedPipeW(wpath, (DWORD)ctl_time_left(c)))
		h = open_pipe(wpath);
	if (h == INVALID_HANDLE_VALUE)
		return connect_error(c->path, GetLastError());
	if (check_owner(h, c->path) != CTL_OK) {
		CloseHandle(h);
		return CTL_UNREACHABLE;
	}
	if ((c->fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY)) == -1) {
		CloseHandle(h);
		ctl_warn("%s", c->path);
		return CTL_UNREACHABLE;
	}
	return CTL_OK;
}

void
transport_close(struct ctl_conn *c)
{
	if (c->fd != -1)
		_close(c->fd);		/* closes the handle too */
	c->fd = -1;
}

int
transport_send(const struct ctl_conn *c, const void *data, size_t len)
{
	HANDLE		 h = (HANDLE)_get_osfhandle(c->fd);
	const char	*buf = data;
	DWORD		 n;

	while (len > 0) {
		if (win_transfer(h, true, (void *)(uintptr_t)buf, (DWORD)len, &n,
		    ctl_time_left(c)) == -1) {
			if (errno == ETIMEDOUT)
				return ctl_timed_out(c, "could not send to");
			ctl_warnx("tcptuned closed the connection on %s",
			    c->path);
			return CTL_UNREACHABLE;
		}
		buf += n;
		len -= n;
	}
	return CTL_OK;
}

/* Some bytes, or *got 0 when the daemon closed the pipe. */
int
transport_recv(const struct ctl_conn *c, void *buf, size_t len, size_t *got)
{
	HANDLE	h = (HANDLE)_get_osfhandle(c->fd);
	DWORD	n = 0;

	if (win_transfer(h, false, buf, (DWORD)len, &n, ctl_time_left(c)) ==
	    -1) {
		if (errno == ETIMEDOUT)
			return ctl_timed_out(c,
			    "no complete reply from tcptuned on");
		if (errno == ECONNRESET) {
			*got = 0;
			return CTL_OK;
		}
		ctl_warnx("reading from %s: %s", c->path, strerror(errno));
		return CTL_UNREACHABLE;
	}
	*got = n;
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

/* No colour: a console shows escapes only once VT mode is on. */
bool
term_colour(void)
{
	return false;
}

/* No pager on Windows: the text goes to stdout. */
FILE *
term_pager(void)
{
	return stdout;
}

int
term_pager_close(FILE *f)
{
	(void)f;
	return 0;
}
