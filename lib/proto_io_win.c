/*
 * Blocking message I/O for tcptunectl on Windows (proto_io.c is the Unix
 * side), over a named pipe client handle opened with
 * FILE_FLAG_OVERLAPPED and wrapped in a C runtime descriptor
 * (_open_osfhandle), so client.c keeps its int fd.  Each part of a read
 * waits at most timeout_ms, then the I/O is cancelled (CancelIoEx).
 */
#include "config.h"

#include <errno.h>
#include <io.h>
#include <string.h>

#include <windows.h>

#include "proto.h"
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
proto_write_msg(int fd, uint32_t type, uint32_t seq, const void *payload,
    size_t len)
{
	char	buf[sizeof(struct msg_hdr) + TT_PROTO_MAX_PAYLOAD];
	size_t	total, off = 0;
	HANDLE	h = (HANDLE)_get_osfhandle(fd);
	DWORD	n;

	if ((total = proto_encode(buf, sizeof(buf), type, seq, payload,
	    len)) == 0) {
		errno = EMSGSIZE;
		return -1;
	}
	while (off < total) {
		if (win_transfer(h, true, buf + off, (DWORD)(total - off), &n,
		    -1) == -1)
			return -1;
		off += n;
	}
	return 0;
}

static int
read_exact(int fd, void *buf, size_t len, int timeout_ms)
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

/* As proto_io.c: EPROTO for a header that breaks the rules. */
int
proto_read_msg(int fd, struct msg_hdr *h, void *buf, size_t buflen,
    int timeout_ms)
{
	char	why[128];
	int	rv;

	if (read_exact(fd, h, sizeof(*h), timeout_ms) == -1)
		return -1;
	rv = proto_check_header(h, why, sizeof(why));
	if (rv == 1 && h->type == MSG_VERSION &&
	    h->len == sizeof(struct msg_version))
		rv = 0;
	if (rv != 0 || h->len > buflen) {
		errno = EPROTO;
		return -1;
	}
	if (read_exact(fd, buf, h->len, timeout_ms) == -1)
		return -1;
	proto_terminate_strings(h->type, buf);
	return 0;
}
