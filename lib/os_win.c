/*
 * What differs beneath the shared code on Windows (os_posix.c is the Unix
 * side): replacing a file atomically, the monotonic clock, and the path
 * and error helpers of win.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <shlobj.h>
#include <knownfolders.h>

#include "tcptune.h"
#include "win.h"

#define PROGRAMDATA	"%ProgramData%"

/* UTF-8 to UTF-16, with a leading %ProgramData% replaced; -1 and errno. */
int
win_wpath(const char *path, wchar_t *out, size_t len)
{
	PWSTR	 base = NULL;
	size_t	 used = 0, plen = strlen(PROGRAMDATA);
	int	 n;

	if (_strnicmp(path, PROGRAMDATA, plen) == 0) {
		if (SHGetKnownFolderPath(&FOLDERID_ProgramData, 0, NULL,
		    &base) != S_OK) {
			CoTaskMemFree(base);
			errno = ENOENT;
			return -1;
		}
		used = wcslen(base);
		if (used >= len) {
			CoTaskMemFree(base);
			errno = ENAMETOOLONG;
			return -1;
		}
		wmemcpy(out, base, used);
		CoTaskMemFree(base);
		path += plen;
	}
	n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1,
	    out + used, (int)(len - used));
	if (n == 0) {
		errno = GetLastError() == ERROR_INSUFFICIENT_BUFFER ?
		    ENAMETOOLONG : EINVAL;
		return -1;
	}
	return 0;
}

/* The errno closest to a Win32 error, for callers that speak errno. */
int
win_errno(DWORD err)
{
	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_DRIVE:	return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:	return EACCES;
	case ERROR_ALREADY_EXISTS:
	case ERROR_FILE_EXISTS:		return EEXIST;
	case ERROR_DISK_FULL:
	case ERROR_HANDLE_DISK_FULL:	return ENOSPC;
	case ERROR_WRITE_PROTECT:	return EROFS;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:		return ENOMEM;
	case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
	case ERROR_DIRECTORY:		return ENOTDIR;
	case ERROR_BROKEN_PIPE:
	case ERROR_NO_DATA:
	case ERROR_PIPE_NOT_CONNECTED:	return EPIPE;
	case ERROR_TIMEOUT:		return ETIMEDOUT;
	default:			return EIO;
	}
}

/* FormatMessage's text for err, without its trailing ".\r\n". */
void
win_strerror(DWORD err, char *buf, size_t len)
{
	DWORD	n;

	n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM |
	    FORMAT_MESSAGE_IGNORE_INSERTS, NULL, err, 0, buf, (DWORD)len, NULL);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
	    buf[n - 1] == '.'))
		buf[--n] = '\0';
	if (n == 0)
		snprintf(buf, len, "Windows error %lu", (unsigned long)err);
}

static int
write_handle(HANDLE h, const void *data, size_t len)
{
	const char	*p = data;
	DWORD		 n;

	while (len > 0) {
		DWORD chunk = len > 1 << 20 ? 1 << 20 : (DWORD)len;

		if (!WriteFile(h, p, chunk, &n, NULL))
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Replace path with data so that a crash leaves the old or the new file:
 * a temporary file beside it, flushed, then MoveFileExW with
 * MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH, which returns only
 * once the move is on disk (MoveFileExW docs).  The temporary file
 * inherits the directory's ACL; mode has no meaning here.
 */
int
write_file_atomic(const char *path, const void *data, size_t len,
    mode_t mode)
{
	wchar_t	wpath[TT_WPATH_MAX], wtmp[TT_WPATH_MAX + 32];
	HANDLE	h;
	DWORD	err;

	(void)mode;
	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1)
		return -1;
	swprintf(wtmp, sizeof(wtmp) / sizeof(wtmp[0]), L"%ls" TT_WATOMIC_TMP
	    L"%lu", wpath, (unsigned long)GetCurrentProcessId());
	h = CreateFileW(wtmp, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
	    FILE_ATTRIBUTE_NORMAL | FILE_FLAG_WRITE_THROUGH, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		errno = win_errno(GetLastError());
		return -1;
	}
	if (write_handle(h, data, len) == -1 || !FlushFileBuffers(h)) {
		err = GetLastError();
		CloseHandle(h);
		DeleteFileW(wtmp);
		errno = win_errno(err);
		return -1;
	}
	CloseHandle(h);
	if (!MoveFileExW(wtmp, wpath, MOVEFILE_REPLACE_EXISTING |
	    MOVEFILE_WRITE_THROUGH)) {
		err = GetLastError();
		DeleteFileW(wtmp);
		errno = win_errno(err);
		return -1;
	}
	return 0;
}

/* GetTickCount64: milliseconds since boot, never going back. */
time_t
tt_mono(void)
{
	return (time_t)(GetTickCount64() / 1000);
}

uint64_t
tt_mono_ms(void)
{
	return GetTickCount64();
}

/* Windows itself is not WSL (lib/os_posix.c, the Unix side). */
bool
tt_wsl(const char *root)
{
	(void)root;
	return false;
}
