/*
 * The state directory's file operations on Windows (state_posix.c is the
 * Unix side).  The directory, %ProgramData%\tcptune by default, is made
 * with a protected DACL: SYSTEM and Administrators full control, nobody
 * else anything, so the originals are the service's alone.  The lock is
 * the file "lock" opened with no sharing, which Windows releases when
 * the process ends however it ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <sddl.h>

#include "tcptuned.h"
#include "win.h"

/* Protected (P), SYSTEM and Administrators full, inherited by children. */
#define STATE_DIR_SDDL	L"D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)"

int
state_file_read(const char *path, size_t max, char **bufp, size_t *lenp)
{
	wchar_t		 wpath[TT_WPATH_MAX];
	LARGE_INTEGER	 size;
	HANDLE		 h;
	char		*buf;
	DWORD		 n, attr;
	size_t		 len = 0;

	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1)
		return errno;
	attr = GetFileAttributesW(wpath);
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (attr & FILE_ATTRIBUTE_DIRECTORY))
		return EISDIR;
	if (attr != INVALID_FILE_ATTRIBUTES &&
	    (attr & FILE_ATTRIBUTE_REPARSE_POINT))
		return ELOOP;	/* a link planted in its place: set aside */
	h = CreateFileW(wpath, GENERIC_READ, FILE_SHARE_READ, NULL,
	    OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return win_errno(GetLastError());
	if (!GetFileSizeEx(h, &size) || (unsigned long long)size.QuadPart >
	    max) {
		CloseHandle(h);
		return EFBIG;
	}
	if ((buf = malloc(max + 2)) == NULL) {
		CloseHandle(h);
		return ENOMEM;
	}
	while (ReadFile(h, buf + len, (DWORD)(max + 1 - len), &n, NULL) &&
	    n > 0 && len <= max)
		len += n;
	CloseHandle(h);
	if (len > max) {
		free(buf);
		return EFBIG;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int
state_dir_make(const char *dir)
{
	SECURITY_ATTRIBUTES	sa;
	wchar_t			wdir[TT_WPATH_MAX];
	PSECURITY_DESCRIPTOR	sd = NULL;
	BOOL			ok;
	DWORD			err;

	if (win_wpath(dir, wdir, TT_WPATH_MAX) == -1)
		return errno;
	if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
	    STATE_DIR_SDDL, SDDL_REVISION_1, &sd, NULL))
		return EIO;
	memset(&sa, 0, sizeof(sa));
	sa.nLength = sizeof(sa);
	sa.lpSecurityDescriptor = sd;
	ok = CreateDirectoryW(wdir, &sa);
	err = GetLastError();
	LocalFree(sd);
	return ok || err == ERROR_ALREADY_EXISTS ? 0 : win_errno(err);
}

/* By trying: a file made and removed again says more than the ACL. */
int
state_dir_writable(const char *dir)
{
	wchar_t	wdir[TT_WPATH_MAX], probe[TT_WPATH_MAX + 32];
	HANDLE	h;

	if (win_wpath(dir, wdir, TT_WPATH_MAX) == -1)
		return errno;
	swprintf(probe, sizeof(probe) / sizeof(probe[0]), L"%ls\\.probe.%lu",
	    wdir, (unsigned long)GetCurrentProcessId());
	h = CreateFileW(probe, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
	    FILE_FLAG_DELETE_ON_CLOSE, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return win_errno(GetLastError());
	CloseHandle(h);
	return 0;
}

/* Temporary files of a save that a crash interrupted; lock held. */
void
state_sweep(struct state *st)
{
	WIN32_FIND_DATAW	fd;
	wchar_t			wdir[TT_WPATH_MAX], pat[TT_WPATH_MAX + 32];
	wchar_t			victim[TT_WPATH_MAX + MAX_PATH];
	HANDLE			h;

	if (win_wpath(st->dir, wdir, TT_WPATH_MAX) == -1)
		return;
	swprintf(pat, sizeof(pat) / sizeof(pat[0]), L"%ls\\originals"
	    TT_WATOMIC_TMP L"*", wdir);
	if ((h = FindFirstFileW(pat, &fd)) == INVALID_HANDLE_VALUE)
		return;
	do {
		swprintf(victim, sizeof(victim) / sizeof(victim[0]),
		    L"%ls\\%ls", wdir, fd.cFileName);
		if (DeleteFileW(victim))
			log_info("removed an interrupted save's temporary "
			    "file in %s", st->dir);
	} while (FindNextFileW(h, &fd));
	FindClose(h);
}

/*
 * One daemon per state directory: "lock" held open without sharing.  A
 * C runtime descriptor, so tcptuned.c closes it with close().
 */
int
state_lock(const char *dir)
{
	wchar_t	wdir[TT_WPATH_MAX], wpath[TT_WPATH_MAX + 8];
	HANDLE	h;
	DWORD	err;
	int	fd;

	if (win_wpath(dir, wdir, TT_WPATH_MAX) == -1)
		return -2;
	swprintf(wpath, sizeof(wpath) / sizeof(wpath[0]), L"%ls\\lock", wdir);
	h = CreateFileW(wpath, GENERIC_READ | GENERIC_WRITE, 0, NULL,
	    OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		err = GetLastError();
		return err == ERROR_SHARING_VIOLATION ? -1 : -2;
	}
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDWR)) == -1) {
		CloseHandle(h);
		return -2;
	}
	return fd;
}
