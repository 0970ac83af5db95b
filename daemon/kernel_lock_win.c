/*
 * One tcptuned per machine on Windows (kernel_lock.h): the TCP settings
 * are the machine's, whatever pipe and state directory a daemon is given
 * (-r is refused here: backend.c).
 *
 * The lock is a named file-mapping object in the global namespace,
 * Global\tcptuned-sysctls, held for the daemon's life; Windows closes a
 * process's handles however it ends, and the object goes with the last
 * one.  Its memory holds the holder's pid, pipe and state directory, so
 * a second daemon can name the first.  Why a file mapping and not a
 * mutex: creating a file-mapping object in the global namespace from a
 * session other than session 0 needs SeCreateGlobalPrivilege ("Kernel
 * object namespaces", Microsoft Learn), which administrators and services
 * hold and a standard user does not, so a user logged on cannot squat
 * the name first; a mutex anyone may create there.  It is made with a
 * protected DACL (SYSTEM and Administrators only: CreateFileMapping,
 * SECURITY_ATTRIBUTES) and this process's user as its owner.  A name that
 * exists already is another daemon's only when its owner is SYSTEM,
 * Administrators or this account (win_trusted_object);
 * one that exists and cannot be opened (ERROR_ACCESS_DENIED) or has
 * another owner is refused too, saying so: we cannot tell that it is not
 * a tcptuned, and a squatter needs the privilege above.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <sddl.h>

#include "tcptuned.h"
#include "kernel_lock.h"
#include "win.h"

#define LOCK_NAME	L"Global\\tcptuned-sysctls"
#define LOCK_NAME_A	"Global\\tcptuned-sysctls"
#define IDENTITY_MAX	4096

struct kernel_lock {
	HANDLE	 map;
	char	*view;		/* IDENTITY_MAX bytes; NULL none */
};

/*
 * The SDDL of the object: owned by this process's user (SYSTEM for the
 * service; the owner a process may always assign), SYSTEM and
 * Administrators only.  Without an owner Windows takes the token's
 * default owner, and Wine its primary group, which the check of an
 * existing object would not know from a squatter's.
 */
static int
lock_sddl(wchar_t *sddl, size_t len)
{
	BYTE		 buf[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
	TOKEN_USER	*tu = (TOKEN_USER *)buf;
	HANDLE		 tok;
	DWORD		 got;
	wchar_t		*sid = NULL;
	BOOL		 ok;

	if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &tok))
		return -1;
	ok = GetTokenInformation(tok, TokenUser, buf, sizeof(buf), &got) &&
	    ConvertSidToStringSidW(tu->User.Sid, &sid);
	CloseHandle(tok);
	if (!ok)
		return -1;
	_snwprintf(sddl, len, L"O:%lsD:P(A;;GA;;;SY)(A;;GA;;;BA)", sid);
	sddl[len - 1] = L'\0';
	LocalFree(sid);
	return 0;
}

static HANDLE
create_map(DWORD *err)
{
	SECURITY_ATTRIBUTES	sa;
	PSECURITY_DESCRIPTOR	sd = NULL;
	HANDLE			h;
	wchar_t			sddl[256];

	if (lock_sddl(sddl, sizeof(sddl) / sizeof(sddl[0])) == -1 ||
	    !ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl,
	    SDDL_REVISION_1, &sd, NULL)) {
		*err = GetLastError();
		return NULL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.nLength = sizeof(sa);
	sa.lpSecurityDescriptor = sd;
	SetLastError(ERROR_SUCCESS);
	h = CreateFileMappingW(INVALID_HANDLE_VALUE, &sa, PAGE_READWRITE, 0,
	    IDENTITY_MAX, LOCK_NAME);
	*err = GetLastError();
	LocalFree(sd);
	return h;
}

/* The refusal, naming the holder from what it wrote into the object. */
static void
refuse(struct kernel_lock *kl, char *why, size_t len)
{
	char	text[IDENTITY_MAX + 1];

	text[0] = '\0';
	if ((kl->view = MapViewOfFile(kl->map, FILE_MAP_READ, 0, 0,
	    IDENTITY_MAX)) != NULL) {
		memcpy(text, kl->view, IDENTITY_MAX);
		text[IDENTITY_MAX] = '\0';
	}
	kernel_lock_refusal(text, "this machine", LOCK_NAME_A, why, len);
}

static void
write_identity(struct kernel_lock *kl, const char *pipe, const char *state)
{
	if ((kl->view = MapViewOfFile(kl->map, FILE_MAP_WRITE, 0, 0,
	    IDENTITY_MAX)) == NULL ||
	    kernel_lock_identity(kl->view, IDENTITY_MAX,
	    (unsigned long)GetCurrentProcessId(), pipe, state) == -1)
		log_warnx("%s: cannot say who holds it", LOCK_NAME_A);
}

struct kernel_lock *
kernel_lock_take(const char *sysctl_root, const char *socket_path,
    const char *state_dir, char *why, size_t len)
{
	struct kernel_lock	*kl;
	char			 text[256];
	DWORD			 err;

	(void)sysctl_root;	/* refused on Windows after this */
	if ((kl = calloc(1, sizeof(*kl))) == NULL) {
		snprintf(why, len, "%s", strerror(errno));
		return NULL;
	}
	if ((kl->map = create_map(&err)) == NULL) {
		win_strerror(err, text, sizeof(text));
		snprintf(why, len, err == ERROR_ACCESS_DENIED ? "%s exists and "
		    "this account may not open it (%s): another tcptuned runs "
		    "as another account, or someone holds the name; stop it "
		    "first" : "cannot create %s (%s): cannot make sure no other "
		    "tcptuned manages the sysctls", LOCK_NAME_A, text);
		kernel_lock_release(kl);
		return NULL;
	}
	if (err == ERROR_ALREADY_EXISTS) {
		if (win_trusted_object(kl->map, false, text, sizeof(text)) == -1)
			snprintf(why, len, "%s exists but was made by another "
			    "account than this one, SYSTEM or Administrators (it "
			    "%s): stop the tcptuned or whatever holds it first",
			    LOCK_NAME_A, text);
		else
			refuse(kl, why, len);
		kernel_lock_release(kl);
		return NULL;
	}
	write_identity(kl, socket_path, state_dir);
	return kl;
}

void
kernel_lock_release(struct kernel_lock *kl)
{
	if (kl == NULL)
		return;
	if (kl->view != NULL)
		UnmapViewOfFile(kl->view);
	if (kl->map != NULL)
		CloseHandle(kl->map);
	free(kl);
}
