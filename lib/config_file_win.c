/*
 * Opening the configuration file on Windows, and the checks that decide
 * whether the service may believe it (trust_posix.c is the Unix
 * side): the file and the directory that holds it must pass the ACL
 * rule of trust_win.c (win_trusted_object()).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "tcptune.h"
#include "win.h"

static bool
acl_usable(const char *path, const char *what, HANDLE h, bool dir,
    struct errlist *errs)
{
	char	why[256];

	if (win_trusted_object(h, dir, why, sizeof(why)) == 0)
		return true;
	errlist_add(errs, "%s: %s %s: refusing to use it", path, what, why);
	return false;
}

/* The directory that holds the file the handle has open, really. */
static bool
dir_usable(const char *path, HANDLE file, struct errlist *errs)
{
	wchar_t	 real[TT_WPATH_MAX], *slash;
	HANDLE	 dir;
	DWORD	 n;
	bool	 ok;

	n = GetFinalPathNameByHandleW(file, real, TT_WPATH_MAX,
	    FILE_NAME_NORMALIZED);
	if (n == 0 || n >= TT_WPATH_MAX ||
	    (slash = wcsrchr(real, L'\\')) == NULL) {
		errlist_add(errs, "%s: cannot tell which directory holds it: "
		    "refusing to use it", path);
		return false;
	}
	*slash = L'\0';
	dir = CreateFileW(real, READ_CONTROL, FILE_SHARE_READ |
	    FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
	    FILE_FLAG_BACKUP_SEMANTICS, NULL);
	if (dir == INVALID_HANDLE_VALUE) {
		errlist_add(errs, "%s: cannot open its directory: refusing to "
		    "use it", path);
		return false;
	}
	ok = acl_usable(path, "its directory", dir, true, errs);
	CloseHandle(dir);
	return ok;
}

/* 0, EFBIG, or -1 for a refusal said in errs. */
static int
file_usable(const char *path, HANDLE h, int flags, struct errlist *errs)
{
	BY_HANDLE_FILE_INFORMATION	info;
	unsigned long long		size;

	if (GetFileType(h) != FILE_TYPE_DISK ||
	    !GetFileInformationByHandle(h, &info) ||
	    (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
		errlist_add(errs, "%s: not a regular file: refusing to read "
		    "it", path);
		return -1;
	}
	if ((flags & CONFIG_CHECK_OWNER) &&
	    (!acl_usable(path, "the file", h, false, errs) ||
	    !dir_usable(path, h, errs)))
		return -1;
	size = (unsigned long long)info.nFileSizeHigh << 32 |
	    info.nFileSizeLow;
	return size > TT_CONFIG_MAX_BYTES ? EFBIG : 0;
}

static int
read_all(HANDLE h, char **bufp, size_t *lenp)
{
	char	*buf;
	size_t	 len = 0;
	DWORD	 n;

	if ((buf = malloc(TT_CONFIG_MAX_BYTES + 2)) == NULL)
		return -1;
	for (;;) {
		if (!ReadFile(h, buf + len, (DWORD)(TT_CONFIG_MAX_BYTES + 1 -
		    len), &n, NULL)) {
			free(buf);
			errno = win_errno(GetLastError());
			return -1;
		}
		if (n == 0)
			break;
		len += n;
		if (len > TT_CONFIG_MAX_BYTES) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int
config_file_read(const char *path, int flags, char **bufp, size_t *lenp,
    struct errlist *errs)
{
	wchar_t	wpath[TT_WPATH_MAX];
	char	why[256];
	HANDLE	h;
	int	rv;

	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1)
		return errno;
	h = CreateFileW(wpath, GENERIC_READ | READ_CONTROL, FILE_SHARE_READ |
	    FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
	    FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		DWORD err = GetLastError();

		if (win_errno(err) == ENOENT)
			return ENOENT;
		/* Windows' own words say more than an errno would. */
		win_strerror(err, why, sizeof(why));
		errlist_add(errs, "%s: %s", path, why);
		return -1;
	}
	if ((rv = file_usable(path, h, flags, errs)) == 0 &&
	    read_all(h, bufp, lenp) == -1)
		rv = errno;
	CloseHandle(h);
	return rv;
}
