/*
 * The trust rule and the config file it opens, on Windows (trust_posix.c
 * is the Unix side).  The one rule for a path the service trusts, used
 * for the config and the managed file (opened here, config_file_read()),
 * the state directory and its files (originals_win.c), and the registry
 * policy's keys (policy_win.c).  The owner/mode rule of sshd's
 * StrictModes becomes an ACL rule, for a file and for the directory that
 * holds it:
 *   - the owner is BUILTIN\Administrators, NT AUTHORITY\SYSTEM, or the
 *     account this program runs as (the service runs as SYSTEM; as
 *     sshd's StrictModes accepts root or the user, a process trusts its
 *     own files; under Wine every file is the Wine user's);
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
#include "config.h"

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
#define KEY_CHANGE_RIGHTS	(KEY_SET_VALUE | KEY_CREATE_SUB_KEY | \
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

/* The user of this process's token. */
static bool
sid_is_self(PSID sid)
{
	BYTE		 buf[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
	TOKEN_USER	*tu = (TOKEN_USER *)buf;
	HANDLE		 tok;
	DWORD		 got;
	bool		 same;

	if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok))
		return false;
	same = GetTokenInformation(tok, TokenUser, buf, sizeof(buf), &got) &&
	    EqualSid(sid, tu->User.Sid);
	CloseHandle(tok);
	return same;
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

/*
 * The security descriptor of h, an object of type, under the rules above
 * (rights: what would let someone change it).  0, or -1 with the reason
 * in why: "must be owned by ...", "must not be writable by ...", "cannot
 * read the ACL ...".
 */
static int
trusted_sd(HANDLE h, SE_OBJECT_TYPE type, DWORD rights, char *why,
    size_t len)
{
	PSECURITY_DESCRIPTOR	 sd = NULL;
	PSID			 owner = NULL;
	PACL			 dacl = NULL;
	const char		*who;
	char			 sid[128];
	DWORD			 err;
	int			 rv = 0;

	err = GetSecurityInfo(h, type, OWNER_SECURITY_INFORMATION |
	    DACL_SECURITY_INFORMATION, &owner, NULL, &dacl, NULL, &sd);
	if (err != ERROR_SUCCESS) {
		win_strerror(err, sid, sizeof(sid));
		snprintf(why, len, "cannot read its ACL (%s)", sid);
		return -1;
	}
	if (owner == NULL || (!sid_is(owner, WinBuiltinAdministratorsSid) &&
	    !sid_is(owner, WinLocalSystemSid) && !sid_is_self(owner))) {
		sid_text(owner, sid, sizeof(sid));
		snprintf(why, len, "must be owned by Administrators, SYSTEM or "
		    "the account tcptune runs as (owner %s)", sid);
		rv = -1;
	} else if ((who = who_may_change(dacl, rights)) != NULL) {
		snprintf(why, len, "must not be writable by Users, Everyone or "
		    "Authenticated Users (%s may change it)", who);
		rv = -1;
	}
	LocalFree(sd);
	return rv;
}

/* A file or directory, by handle. */
int
win_trusted_object(HANDLE h, bool dir, char *why, size_t len)
{
	return trusted_sd(h, SE_FILE_OBJECT, dir ? DIR_CHANGE_RIGHTS :
	    FILE_CHANGE_RIGHTS, why, len);
}

/*
 * A registry key (the policy, lib/policy_win.c): the same rule, with the
 * rights that change a key ("Registry Key Security and Access Rights",
 * Microsoft Learn).
 */
int
win_trusted_key(HKEY key, char *why, size_t len)
{
	return trusted_sd((HANDLE)key, SE_REGISTRY_KEY, KEY_CHANGE_RIGHTS, why,
	    len);
}

/*
 * tcptunectl's files (--textfile DIR): replaced whole as os_win.c does.
 * Not yet held to the ACL rule: the directory is opened by name
 * (docs/SECURITY.md, "Not covered").  0, or -1 with errno and why.
 */
int
trust_write_file(const char *path, int flags, const void *data, size_t len,
    mode_t mode, char *why, size_t whylen)
{
	(void)flags;
	why[0] = '\0';
	if (write_file_atomic(path, data, len, mode) == 0)
		return 0;
	snprintf(why, whylen, "%s", strerror(errno));
	return -1;
}

/* ---- the config file */

/*
 * Opening the configuration file, and the checks that decide whether the
 * service may believe it: the file and the directory that holds it must
 * pass the ACL rule above (win_trusted_object()).
 */

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
