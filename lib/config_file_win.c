/*
 * Opening the configuration file on Windows, and the checks that decide
 * whether the service may believe it (config_file_posix.c is the Unix
 * side).  The owner/mode rule of sshd's StrictModes becomes an ACL rule,
 * for the file and for the directory that holds it:
 *   - the owner is BUILTIN\Administrators or NT AUTHORITY\SYSTEM;
 *   - no allow entry gives Everyone, BUILTIN\Users or Authenticated Users
 *     a right to change it: write or append data, add or delete entries
 *     (directories), delete, change the DACL or the owner, GENERIC_WRITE
 *     or GENERIC_ALL; a NULL DACL (everyone may do anything) is refused.
 * Inherit-only entries do not apply to the object itself and are passed
 * over.  The directories above (C:\ProgramData, C:\) are not checked:
 * ProgramData lets Users create entries but not delete or rename those
 * of others, so the tcptune directory, owned by Administrators with its
 * own protected ACL, cannot be replaced (README: installing by hand).
 * Sources: GetSecurityInfo, ACCESS_ALLOWED_ACE, CreateWellKnownSid and
 * "File Security and Access Rights" (Microsoft Learn, win32).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include "tcptune.h"
#include "win.h"

#define FILE_CHANGE_RIGHTS	(FILE_WRITE_DATA | FILE_APPEND_DATA | \
	FILE_WRITE_EA | DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | \
	GENERIC_ALL)
#define DIR_CHANGE_RIGHTS	(FILE_ADD_FILE | FILE_DELETE_CHILD | \
	DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL)

static const struct {
	WELL_KNOWN_SID_TYPE	 type;
	const char		*name;
} untrusted[] = {
	{ WinWorldSid, "Everyone" },
	{ WinBuiltinUsersSid, "Users" },
	{ WinAuthenticatedUserSid, "Authenticated Users" },
};

static bool
sid_is(PSID sid, WELL_KNOWN_SID_TYPE type)
{
	BYTE	buf[SECURITY_MAX_SID_SIZE];
	DWORD	len = sizeof(buf);

	return CreateWellKnownSid(type, NULL, buf, &len) && EqualSid(sid, buf);
}

static void
sid_text(PSID sid, char *buf, size_t len)
{
	char	*s = NULL;

	if (sid != NULL && ConvertSidToStringSidA(sid, &s)) {
		tt_strlcpy(buf, s, len);
		LocalFree(s);
	} else
		tt_strlcpy(buf, "unknown", len);
}

/* The name of the first untrusted group that may change the object. */
static const char *
who_may_change(PACL dacl, DWORD rights)
{
	ACE_HEADER		*ace;
	ACCESS_ALLOWED_ACE	*allow;
	DWORD			 i;
	size_t			 j;

	if (dacl == NULL)
		return "everyone (no DACL)";
	for (i = 0; i < dacl->AceCount; i++) {
		if (!GetAce(dacl, i, (void **)&ace))
			return "an unreadable ACL entry";
		if (ace->AceType != ACCESS_ALLOWED_ACE_TYPE ||
		    (ace->AceFlags & INHERIT_ONLY_ACE) != 0)
			continue;
		allow = (ACCESS_ALLOWED_ACE *)ace;
		if ((allow->Mask & rights) == 0)
			continue;
		for (j = 0; j < sizeof(untrusted) / sizeof(untrusted[0]); j++)
			if (sid_is(&allow->SidStart, untrusted[j].type))
				return untrusted[j].name;
	}
	return NULL;
}

/* One object, by handle: what is wrong with it, or NULL. */
static bool
acl_usable(const char *path, const char *what, HANDLE h, DWORD rights,
    struct errlist *errs)
{
	PSECURITY_DESCRIPTOR	 sd = NULL;
	PSID			 owner = NULL;
	PACL			 dacl = NULL;
	const char		*who;
	char			 sid[128];
	DWORD			 err;
	bool			 ok = true;

	err = GetSecurityInfo(h, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION |
	    DACL_SECURITY_INFORMATION, &owner, NULL, &dacl, NULL, &sd);
	if (err != ERROR_SUCCESS) {
		win_strerror(err, sid, sizeof(sid));
		errlist_add(errs, "%s: cannot read the ACL of %s (%s): "
		    "refusing to use it", path, what, sid);
		return false;
	}
	if (owner == NULL || (!sid_is(owner, WinBuiltinAdministratorsSid) &&
	    !sid_is(owner, WinLocalSystemSid))) {
		sid_text(owner, sid, sizeof(sid));
		errlist_add(errs, "%s: %s must be owned by Administrators or "
		    "SYSTEM (owner %s): refusing to use it", path, what, sid);
		ok = false;
	} else if ((who = who_may_change(dacl, rights)) != NULL) {
		errlist_add(errs, "%s: %s must not be writable by Users, "
		    "Everyone or Authenticated Users (%s may change it): "
		    "refusing to use it", path, what, who);
		ok = false;
	}
	LocalFree(sd);
	return ok;
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
	ok = acl_usable(path, "its directory", dir, DIR_CHANGE_RIGHTS, errs);
	CloseHandle(dir);
	return ok;
}

static bool
file_usable(const char *path, HANDLE h, int flags, struct errlist *errs)
{
	BY_HANDLE_FILE_INFORMATION	info;
	unsigned long long		size;

	if (GetFileType(h) != FILE_TYPE_DISK ||
	    !GetFileInformationByHandle(h, &info) ||
	    (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
		errlist_add(errs, "%s: not a regular file: refusing to read "
		    "it", path);
		return false;
	}
	if ((flags & CONFIG_CHECK_OWNER) &&
	    (!acl_usable(path, "the file", h, FILE_CHANGE_RIGHTS, errs) ||
	    !dir_usable(path, h, errs)))
		return false;
	size = (unsigned long long)info.nFileSizeHigh << 32 |
	    info.nFileSizeLow;
	if (size > TT_CONFIG_MAX_BYTES) {
		errlist_add(errs, "%s: larger than %d bytes: refusing to read "
		    "it", path, TT_CONFIG_MAX_BYTES);
		return false;
	}
	return true;
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
	int	rv = -1;

	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1) {
		errlist_add(errs, "%s: %s", path, strerror(errno));
		return -1;
	}
	h = CreateFileW(wpath, GENERIC_READ | READ_CONTROL, FILE_SHARE_READ |
	    FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
	    FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		DWORD err = GetLastError();

		if (win_errno(err) == ENOENT)
			errlist_add(errs, "%s: %s", path, strerror(ENOENT));
		else {
			win_strerror(err, why, sizeof(why));
			errlist_add(errs, "%s: %s", path, why);
		}
		return -1;
	}
	if (!file_usable(path, h, flags, errs))
		goto out;
	if (read_all(h, bufp, lenp) == -1) {
		if (errno == EFBIG)
			errlist_add(errs, "%s: larger than %d bytes: refusing "
			    "to read it", path, TT_CONFIG_MAX_BYTES);
		else
			errlist_add(errs, "%s: %s", path, strerror(errno));
		goto out;
	}
	rv = 0;
out:
	CloseHandle(h);
	return rv;
}
