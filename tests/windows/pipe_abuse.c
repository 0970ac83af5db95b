/*
 * pipe_abuse.exe PIPE: protocol abuse against tcptuned's named pipe, for
 * tests/windows/wine.sh.  Prints TAP lines ("ok N - ..." or "not ok"),
 * one per case; exit 0 when every case held.
 *   garbage        bytes that are no header: at most a version reply
 *                  (0xa5a5 is no version of ours), read whole
 *   oversize       a header announcing more than TT_PROTO_MAX_PAYLOAD
 *   version        another protocol version: MSG_VERSION back, whole,
 *                  however late it is read: the daemon hangs up only
 *                  when the client has closed (control_pipe_win.c,
 *                  start_linger), or its idle timeout passed
 *   many clients   more clients at once than pipe instances: the extra
 *                  ones wait (ERROR_PIPE_BUSY), none breaks the daemon
 *   alive          after all that, status still answers
 * A test tool only.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include <windows.h>

#include "proto.h"

#define MANY	40

static int	n, failed;

static void
result(int ok, const char *what)
{
	printf("%sok %d - pipe: %s\n", ok ? "" : "not ", ++n, what);
	if (!ok)
		failed++;
}

static HANDLE
open_pipe(const char *name, DWORD wait_ms)
{
	HANDLE	h;

	for (;;) {
		h = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL,
		    OPEN_EXISTING, 0, NULL);
		if (h != INVALID_HANDLE_VALUE || GetLastError() !=
		    ERROR_PIPE_BUSY || !WaitNamedPipeA(name, wait_ms))
			return h;
	}
}

static int
send_all(HANDLE h, const void *buf, DWORD len)
{
	DWORD	w;

	return WriteFile(h, buf, len, &w, NULL) && w == len ? 0 : -1;
}

/*
 * Reads until len bytes or EOF: the bytes read, or -1 on an error other
 * than the daemon's hang-up (said as a TAP comment).
 */
static long
read_upto(HANDLE h, char *buf, DWORD len)
{
	DWORD	got, total = 0;

	while (total < len) {
		if (!ReadFile(h, buf + total, len - total, &got, NULL)) {
			DWORD e = GetLastError();

			if (e == ERROR_BROKEN_PIPE || e == ERROR_NO_DATA ||
			    e == ERROR_PIPE_NOT_CONNECTED)
				break;
			printf("# ReadFile: error %lu after %lu bytes\n",
			    (unsigned long)e, (unsigned long)total);
			return -1;
		}
		if (got == 0)
			break;
		total += got;
	}
	return (long)total;
}

/* Reads len bytes: len, 0 at EOF before any, -1 otherwise. */
static long
read_exactly(HANDLE h, char *buf, DWORD len)
{
	long	got = read_upto(h, buf, len);

	return got == 0 || got == (long)len ? got : -1;
}

/*
 * Reads one message (a header and the payload it announces) after
 * wait_ms, a slow reader: the bytes read, 0 at EOF before any, -1 on an
 * error or a message cut short.
 */
static long
read_message(HANDLE h, char *buf, DWORD len, DWORD wait_ms)
{
	struct msg_hdr	hdr;
	long		got;
	DWORD		want;

	Sleep(wait_ms);
	if ((got = read_exactly(h, buf, sizeof(hdr))) <= 0)
		return got;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.len > len - sizeof(hdr))
		return -1;
	want = (DWORD)hdr.len;
	if (want > 0 && read_exactly(h, buf + sizeof(hdr), want) != (long)want)
		return -1;
	return (long)(sizeof(hdr) + want);
}

static void
garbage(const char *name)
{
	char	junk[64], buf[256];
	HANDLE	h = open_pipe(name, 5000);
	long	got = -2;

	memset(junk, 0xa5, sizeof(junk));
	if (h == INVALID_HANDLE_VALUE)
		printf("# open: error %lu\n", (unsigned long)GetLastError());
	else if (send_all(h, junk, sizeof(junk)) == 0)
		got = read_message(h, buf, sizeof(buf), 500);
	else	/* the daemon may hang up before all of it is written */
		got = 0;
	/* 0xa5a5 is no version: the rule is one MSG_VERSION, then EOF. */
	result(got == 0 || (got >= (long)sizeof(struct msg_hdr) &&
	    ((struct msg_hdr *)buf)->type == MSG_VERSION),
	    "garbage: at most a version reply, read whole");
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
}

static void
oversize(const char *name)
{
	struct msg_hdr	hdr;
	char		buf[256];
	HANDLE		h = open_pipe(name, 5000);

	memset(&hdr, 0, sizeof(hdr));
	hdr.type = MSG_STATUS;
	hdr.len = TT_PROTO_MAX_PAYLOAD + 1;
	hdr.version = TT_PROTO_VERSION;
	result(h != INVALID_HANDLE_VALUE && send_all(h, &hdr,
	    sizeof(hdr)) == 0 && read_upto(h, buf, sizeof(buf)) == 0,
	    "oversize length: hung up");
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
}

static void
version(const char *name)
{
	struct msg_hdr	hdr, *r;
	char		buf[4096];
	HANDLE		h = open_pipe(name, 5000);
	long		got = -1;

	memset(&hdr, 0, sizeof(hdr));
	hdr.type = MSG_STATUS;
	hdr.version = TT_PROTO_VERSION + 7;
	if (h == INVALID_HANDLE_VALUE)
		printf("# open: error %lu\n", (unsigned long)GetLastError());
	else if (send_all(h, &hdr, sizeof(hdr)) == 0)
		got = read_message(h, buf, sizeof(buf), 500);
	r = (struct msg_hdr *)buf;
	result(got == (long)(sizeof(*r) + sizeof(struct msg_version)) &&
	    r->type == MSG_VERSION, "another version: MSG_VERSION back, whole, "
	    "read half a second late");
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
}

/* Sends a status request; 0 when a MSG_END comes back. */
static int
status(HANDLE h)
{
	struct msg_hdr	hdr;
	static char	buf[1 << 20];
	DWORD		got;
	long		have = 0, off = 0;

	memset(&hdr, 0, sizeof(hdr));
	hdr.type = MSG_STATUS;
	hdr.version = TT_PROTO_VERSION;
	if (send_all(h, &hdr, sizeof(hdr)) == -1)
		return -1;
	for (;;) {
		while (off + (long)sizeof(hdr) <= have) {
			memcpy(&hdr, buf + off, sizeof(hdr));
			if (off + (long)sizeof(hdr) + (long)hdr.len > have)
				break;
			if (hdr.type == MSG_END)
				return 0;
			off += (long)sizeof(hdr) + (long)hdr.len;
		}
		if (have == (long)sizeof(buf) || !ReadFile(h, buf + have,
		    (DWORD)(sizeof(buf) - (size_t)have), &got, NULL) || got == 0)
			return -1;
		have += (long)got;
	}
}

static void
many(const char *name)
{
	HANDLE	h[MANY];
	int	i, opened = 0, busy = 0;

	for (i = 0; i < MANY; i++) {
		h[i] = CreateFileA(name, GENERIC_READ | GENERIC_WRITE, 0, NULL,
		    OPEN_EXISTING, 0, NULL);
		if (h[i] != INVALID_HANDLE_VALUE)
			opened++;
		else if (GetLastError() == ERROR_PIPE_BUSY)
			busy++;
	}
	result(opened > 0 && opened + busy == MANY, "many clients: each "
	    "one connected or was told the pipe is busy");
	for (i = 0; i < MANY; i++)
		if (h[i] != INVALID_HANDLE_VALUE)
			CloseHandle(h[i]);
}

static void
alive(const char *name, const char *what)
{
	HANDLE	h = open_pipe(name, 10000);
	DWORD	mode = PIPE_READMODE_BYTE;

	if (h == INVALID_HANDLE_VALUE)
		printf("# open: error %lu\n", (unsigned long)GetLastError());
	else
		SetNamedPipeHandleState(h, &mode, NULL, NULL);
	result(h != INVALID_HANDLE_VALUE && status(h) == 0, what);
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pipe_abuse PIPE\n");
		return 64;
	}
	alive(argv[1], "status answers (before)");
	garbage(argv[1]);
	oversize(argv[1]);
	version(argv[1]);
	many(argv[1]);
	alive(argv[1], "status still answers (after)");
	fflush(stdout);
	return failed == 0 ? 0 : 1;
}
