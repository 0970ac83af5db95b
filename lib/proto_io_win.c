/*
 * proto_msg.c's bytes on Windows (proto_io.h; proto_io.c is the Unix
 * side), over a named pipe client handle opened with
 * FILE_FLAG_OVERLAPPED and wrapped in a C runtime descriptor
 * (_open_osfhandle), so client.c keeps its int fd.  Each part of a read
 * waits at most timeout_ms, then the I/O is cancelled (CancelIoEx).
 */
#include "config.h"

#include <errno.h>
#include <io.h>
#include <stdint.h>
#include <string.h>

#include <windows.h>

#include "proto_io.h"
#include "win.h"

/*
 * One overlapped transfer on h, waited for at most timeout_ms (-1: ever);
 * also tcptunectl's transport (client_transport_win.c).  -1 with errno
 * (ETIMEDOUT, ECONNRESET for a pipe the other end closed).
 */
int
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

int
proto_io_send(int fd, const void *buf, size_t len)
{
	HANDLE		 h = (HANDLE)_get_osfhandle(fd);
	const char	*p = buf;
	DWORD		 n;

	while (len > 0) {		/* WriteFile only reads p */
		if (win_transfer(h, true, (void *)(uintptr_t)p, (DWORD)len, &n,
		    -1) == -1)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int
proto_io_recv(int fd, void *buf, size_t len, int timeout_ms)
{
	HANDLE	 h = (HANDLE)_get_osfhandle(fd);
	char	*p = buf;
	DWORD	 n;

	while (len > 0) {
		if (win_transfer(h, false, p, (DWORD)len, &n, timeout_ms) == -1)
			return -1;
		if (n == 0) {
			errno = ECONNRESET;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}
