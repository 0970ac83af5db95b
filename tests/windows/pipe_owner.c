/*
 * pipe_owner.exe, for tests/windows/wine.sh:
 *   pipe_owner.exe owner PIPE
 *	prints the SID of PIPE's owner (GetSecurityInfo on a handle opened
 *	with tcptunectl's rights), exit 0; exit 1 when it cannot.
 *   pipe_owner.exe squat PIPE SDDL SECONDS
 *	holds PIPE with that security descriptor, as a program squatting on
 *	tcptuned's name would, holding each client until it hangs up, for
 *	SECONDS;
 *	prints "ready" once the pipe exists.
 * A test tool only.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

static int
owner(const char *pipe)
{
	PSECURITY_DESCRIPTOR	 sd = NULL;
	PSID			 sid = NULL;
	char			*s = NULL;
	HANDLE			 h;

	h = CreateFileA(pipe, FILE_READ_DATA | FILE_WRITE_DATA | SYNCHRONIZE |
	    READ_CONTROL, 0, NULL, OPEN_EXISTING, 0, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		printf("open: error %lu\n", GetLastError());
		return 1;
	}
	if (GetSecurityInfo(h, SE_KERNEL_OBJECT, OWNER_SECURITY_INFORMATION,
	    &sid, NULL, NULL, NULL, &sd) != ERROR_SUCCESS || sid == NULL ||
	    !ConvertSidToStringSidA(sid, &s)) {
		printf("owner: error %lu\n", GetLastError());
		return 1;
	}
	printf("%s\n", s);
	LocalFree(s);
	LocalFree(sd);
	CloseHandle(h);
	return 0;
}

/*
 * Keep a client connected until it hangs up, as a squatter that wants the
 * client's requests would: dropping it at once raced the client's owner
 * check (Wine then answers "Pipe not connected" to GetSecurityInfo, and
 * the test saw that refusal instead of the one naming the owner).
 */
static void
hold_client(HANDLE h)
{
	char	buf[512];
	DWORD	n;

	while (ReadFile(h, buf, sizeof(buf), &n, NULL))
		;
}

static int
squat(const char *pipe, const char *sddl, int seconds)
{
	SECURITY_ATTRIBUTES	sa;
	PSECURITY_DESCRIPTOR	sd = NULL;
	DWORD			end = GetTickCount() + (DWORD)seconds * 1000;
	HANDLE			h;

	if (!ConvertStringSecurityDescriptorToSecurityDescriptorA(sddl,
	    SDDL_REVISION_1, &sd, NULL)) {
		printf("sddl: error %lu\n", GetLastError());
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.nLength = sizeof(sa);
	sa.lpSecurityDescriptor = sd;
	h = CreateNamedPipeA(pipe, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE |
	    PIPE_WAIT, 1, 4096, 4096, 0, &sa);
	if (h == INVALID_HANDLE_VALUE) {
		printf("create: error %lu\n", GetLastError());
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while ((int)(end - GetTickCount()) > 0) {
		if (ConnectNamedPipe(h, NULL) ||
		    GetLastError() == ERROR_PIPE_CONNECTED) {
			hold_client(h);
			DisconnectNamedPipe(h);
		} else
			Sleep(100);
	}
	CloseHandle(h);
	LocalFree(sd);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "owner") == 0)
		return owner(argv[2]);
	if (argc == 5 && strcmp(argv[1], "squat") == 0)
		return squat(argv[2], argv[3], atoi(argv[4]));
	fprintf(stderr, "usage: pipe_owner.exe owner PIPE | "
	    "squat PIPE SDDL SECONDS\n");
	return 2;
}
