/*
 * The state directory's file operations on Windows, beneath originals.c
 * (originals_posix.c is the Unix side).  The directory, %ProgramData%\tcptune
 * by default, is made with a protected DACL (SYSTEM and Administrators
 * full control, nobody else anything), must pass the same ACL rule as
 * the config (trust_win.c: owned by Administrators or SYSTEM, not
 * writable by Users, Everyone or Authenticated Users), and is held open
 * without FILE_SHARE_DELETE, so it cannot be renamed or removed under the
 * daemon: what st->dirfd (a C runtime descriptor of that handle) stands
 * for.  The lock is the file "lock" opened without sharing, which Windows
 * lets go when the process ends, however it ends.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>
#include <sddl.h>

#include "tcptuned.h"
#include "win.h"

/* Protected (P), SYSTEM and Administrators full, inherited by children. */
#define STATE_DIR_SDDL	L"D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)"

static int
child_path(const struct originals *st, const char *name, wchar_t *out,
    size_t len)
{
	char	path[TT_WPATH_MAX];

	if (tt_snprintf(path, sizeof(path), "%s\\%s", st->dir, name) == -1) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return win_wpath(path, out, len);
}

static DWORD
make_dir(const wchar_t *wdir)
{
	SECURITY_ATTRIBUTES	sa;
	PSECURITY_DESCRIPTOR	sd = NULL;
	DWORD			err = ERROR_SUCCESS;

	if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
	    STATE_DIR_SDDL, SDDL_REVISION_1, &sd, NULL))
		return GetLastError();
	memset(&sa, 0, sizeof(sa));
	sa.nLength = sizeof(sa);
	sa.lpSecurityDescriptor = sd;
	if (!CreateDirectoryW(wdir, &sa))
		err = GetLastError();
	LocalFree(sd);
	return err == ERROR_ALREADY_EXISTS ? ERROR_SUCCESS : err;
}

int
originals_os_open_dir(const char *dir, char *why, size_t len)
{
	wchar_t	wdir[TT_WPATH_MAX];
	char	text[256];
	HANDLE	h;
	DWORD	err;
	int	fd;

	if (win_wpath(dir, wdir, TT_WPATH_MAX) == -1) {
		snprintf(why, len, "state directory %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	if ((err = make_dir(wdir)) != ERROR_SUCCESS) {
		win_strerror(err, text, sizeof(text));
		snprintf(why, len, "cannot create state directory %s: %s",
		    dir, text);
		return TRUSTED_DIR_NOT_CREATED;
	}
	h = CreateFileW(wdir, READ_CONTROL | FILE_LIST_DIRECTORY,
	    FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
	    FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		win_strerror(GetLastError(), text, sizeof(text));
		snprintf(why, len, "state directory %s: %s", dir, text);
		return -1;
	}
	if (win_trusted_object(h, true, text, sizeof(text)) == -1) {
		snprintf(why, len, "state directory %s %s: refusing to use it",
		    dir, text);
		CloseHandle(h);
		return -1;
	}
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDONLY)) == -1) {
		CloseHandle(h);
		snprintf(why, len, "state directory %s: out of descriptors",
		    dir);
		return -1;
	}
	return fd;
}

/* By trying: a file made and removed again says more than the ACL. */
int
originals_os_writable(const struct originals *st)
{
	wchar_t	probe[TT_WPATH_MAX];
	char	name[32];
	HANDLE	h;

	snprintf(name, sizeof(name), ".probe.%lu",
	    (unsigned long)GetCurrentProcessId());
	if (child_path(st, name, probe, TT_WPATH_MAX) == -1)
		return errno;
	h = CreateFileW(probe, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
	    FILE_FLAG_DELETE_ON_CLOSE, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return win_errno(GetLastError());
	CloseHandle(h);
	return 0;
}

static int
read_handle(HANDLE h, size_t max, char **bufp, size_t *lenp)
{
	char	*buf;
	size_t	 len = 0;
	DWORD	 n;

	if ((buf = malloc(max + 2)) == NULL)
		return ENOMEM;
	while (len <= max) {
		if (!ReadFile(h, buf + len, (DWORD)(max + 1 - len), &n, NULL)) {
			free(buf);
			return win_errno(GetLastError());
		}
		if (n == 0)
			break;
		len += n;
	}
	if (len > max) {
		free(buf);
		return EFBIG;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/*
 * A link or junction in its place is ELOOP and a directory EISDIR, which
 * originals.c sets aside, as O_NOFOLLOW and O_NONBLOCK make them on Unix.
 */
int
originals_os_read(const struct originals *st, const char *name, size_t max,
    char **bufp, size_t *lenp, char *why, size_t whylen)
{
	BY_HANDLE_FILE_INFORMATION	 info;
	wchar_t				 wpath[TT_WPATH_MAX];
	char				 text[256];
	HANDLE				 h;
	int				 err;

	if (child_path(st, name, wpath, TT_WPATH_MAX) == -1)
		return errno;
	h = CreateFileW(wpath, GENERIC_READ | READ_CONTROL, FILE_SHARE_READ,
	    NULL, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT |
	    FILE_FLAG_BACKUP_SEMANTICS, NULL);
	if (h == INVALID_HANDLE_VALUE)
		return win_errno(GetLastError());
	if (!GetFileInformationByHandle(h, &info))
		err = win_errno(GetLastError());
	else if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
		err = ELOOP;
	else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
		err = EISDIR;
	else if (win_trusted_object(h, false, text, sizeof(text)) == -1) {
		snprintf(why, whylen, "it %s", text);
		err = -1;
	} else
		err = read_handle(h, max, bufp, lenp);
	CloseHandle(h);
	return err;
}

int
originals_os_write(const struct originals *st, const char *name,
    const void *data, size_t len)
{
	char	path[TT_WPATH_MAX];

	if (tt_snprintf(path, sizeof(path), "%s\\%s", st->dir, name) == -1)
		return ENAMETOOLONG;
	return write_file_atomic(path, data, len, 0600) == -1 ? errno : 0;
}

/*
 * MoveFileExW without MOVEFILE_REPLACE_EXISTING fails when the new name
 * exists (ERROR_ALREADY_EXISTS, as win_errno gives EEXIST): a damaged copy
 * set aside is never replaced.
 */
int
originals_os_set_aside(const struct originals *st, const char *from,
    const char *to)
{
	wchar_t	wfrom[TT_WPATH_MAX], wto[TT_WPATH_MAX];
	DWORD	err;

	if (child_path(st, from, wfrom, TT_WPATH_MAX) == -1 ||
	    child_path(st, to, wto, TT_WPATH_MAX) == -1)
		return errno;
	if (MoveFileExW(wfrom, wto, MOVEFILE_WRITE_THROUGH))
		return 0;
	err = GetLastError();
	return err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS ?
	    EEXIST : win_errno(err);
}

/* The names that start with prefix, as originals_posix.c's. */
int
originals_os_list(const struct originals *st, const char *prefix,
    char ***namesp, size_t *np)
{
	WIN32_FIND_DATAW	 fd;
	wchar_t			 pat[TT_WPATH_MAX];
	char			 name[MAX_PATH * 3], glob[TT_NAME_MAX];
	char			**names = NULL, **grown;
	size_t			 n = 0;
	HANDLE			 h;
	DWORD			 err;

	*namesp = NULL;
	*np = 0;
	if (tt_snprintf(glob, sizeof(glob), "%s*", prefix) == -1 ||
	    child_path(st, glob, pat, TT_WPATH_MAX) == -1)
		return ENAMETOOLONG;
	if ((h = FindFirstFileW(pat, &fd)) == INVALID_HANDLE_VALUE) {
		err = GetLastError();
		return err == ERROR_FILE_NOT_FOUND ? 0 : win_errno(err);
	}
	do {
		if (WideCharToMultiByte(CP_UTF8, 0, fd.cFileName, -1, name,
		    sizeof(name), NULL, NULL) == 0)
			continue;
		if ((grown = realloc(names, (n + 1) * sizeof(*names))) == NULL
		    || (grown[n] = strdup(name)) == NULL)
			fatal("%s", __func__);
		names = grown;
		n++;
	} while (FindNextFileW(h, &fd));
	FindClose(h);
	*namesp = names;
	*np = n;
	return 0;
}

/* Temporary files of a save that a crash interrupted; lock held. */
void
originals_sweep(struct originals *st)
{
	WIN32_FIND_DATAW	fd;
	wchar_t			pat[TT_WPATH_MAX], victim[TT_WPATH_MAX];
	char			name[MAX_PATH * 3];
	HANDLE			h;

	if (st->dirfd == -1 ||
	    child_path(st, "originals.tmp.*", pat, TT_WPATH_MAX) == -1)
		return;
	if ((h = FindFirstFileW(pat, &fd)) == INVALID_HANDLE_VALUE)
		return;
	do {
		if (WideCharToMultiByte(CP_UTF8, 0, fd.cFileName, -1, name,
		    sizeof(name), NULL, NULL) == 0 ||
		    child_path(st, name, victim, TT_WPATH_MAX) == -1)
			continue;
		if (DeleteFileW(victim))
			log_notice("removed %s\\%s, left by an interrupted save",
			    st->dir, name);
	} while (FindNextFileW(h, &fd));
	FindClose(h);
}

int
originals_lock(struct originals *st, char *why, size_t whylen)
{
	wchar_t	wpath[TT_WPATH_MAX];
	char	text[256];
	HANDLE	h;
	DWORD	err;
	int	fd;

	tt_strlcpy(why, "the directory is not usable", whylen);
	if (st->dirfd == -1 || child_path(st, "lock", wpath, TT_WPATH_MAX) ==
	    -1)
		return ORIGINALS_LOCK_NONE;
	h = CreateFileW(wpath, GENERIC_READ | GENERIC_WRITE | READ_CONTROL, 0,
	    NULL, OPEN_ALWAYS, FILE_FLAG_OPEN_REPARSE_POINT, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		err = GetLastError();
		win_strerror(err, text, sizeof(text));
		(void)tt_snprintf(why, whylen, "%s\\lock: %s", st->dir, text);
		return err == ERROR_SHARING_VIOLATION ? ORIGINALS_LOCK_HELD :
		    ORIGINALS_LOCK_NONE;
	}
	if (win_trusted_object(h, false, text, sizeof(text)) == -1) {
		(void)tt_snprintf(why, whylen, "%s\\lock %s", st->dir, text);
		CloseHandle(h);
		return ORIGINALS_LOCK_BAD;
	}
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDWR)) == -1) {
		CloseHandle(h);
		return ORIGINALS_LOCK_NONE;
	}
	return fd;
}
