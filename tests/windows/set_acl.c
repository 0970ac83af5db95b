/*
 * set_acl.exe PATH SDDL: gives PATH the owner and DACL of the SDDL string
 * (SetNamedSecurityInfoW), so the Wine tests can make a config or state
 * directory, or a registry key (a PATH of MACHINE\..., SE_REGISTRY_KEY's
 * form), that the ACL rule (lib/trust_win.c) must accept or refuse.  Exit 0, or 1 with the Windows error.  A test tool only.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>
#include <wchar.h>

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

int
main(void)
{
	PSECURITY_DESCRIPTOR	sd = NULL;
	PSID			owner = NULL;
	PACL			dacl = NULL;
	BOOL			present = FALSE, def = FALSE;
	LPWSTR			*argv;
	SECURITY_INFORMATION	what = 0;
	int			argc;
	DWORD			err;

	argv = CommandLineToArgvW(GetCommandLineW(), &argc);
	if (argv == NULL || argc != 3) {
		fprintf(stderr, "usage: set_acl PATH SDDL\n");
		return 64;
	}
	if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(argv[2],
	    SDDL_REVISION_1, &sd, NULL)) {
		fprintf(stderr, "set_acl: bad SDDL (%lu)\n", GetLastError());
		return 1;
	}
	if (GetSecurityDescriptorOwner(sd, &owner, &def) && owner != NULL)
		what |= OWNER_SECURITY_INFORMATION;
	if (GetSecurityDescriptorDacl(sd, &present, &dacl, &def) && present)
		what |= DACL_SECURITY_INFORMATION |
		    PROTECTED_DACL_SECURITY_INFORMATION;
	err = SetNamedSecurityInfoW(argv[1], wcsncmp(argv[1], L"MACHINE\\",
	    8) == 0 ? SE_REGISTRY_KEY : SE_FILE_OBJECT, what, owner, NULL, dacl,
	    NULL);
	if (err != ERROR_SUCCESS) {
		fprintf(stderr, "set_acl: %lu\n", err);
		return 1;
	}
	return 0;
}
