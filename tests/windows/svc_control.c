/*
 * svc_control.exe NAME: sends SERVICE_CONTROL_PARAMCHANGE to the service
 * NAME (ControlService), which Wine's sc.exe cannot send, for
 * tests/windows/wine.sh.  Exit 0, or 1 with the Windows error.  A test
 * tool only.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>

#include <windows.h>

int
main(int argc, char **argv)
{
	SC_HANDLE	scm, svc;
	SERVICE_STATUS	st;
	BOOL		ok;

	if (argc != 2) {
		fprintf(stderr, "usage: svc_control NAME\n");
		return 64;
	}
	if ((scm = OpenSCManagerA(NULL, NULL, SC_MANAGER_CONNECT)) == NULL ||
	    (svc = OpenServiceA(scm, argv[1], SERVICE_PAUSE_CONTINUE |
	    SERVICE_QUERY_STATUS)) == NULL) {
		fprintf(stderr, "svc_control: %lu\n", GetLastError());
		return 1;
	}
	ok = ControlService(svc, SERVICE_CONTROL_PARAMCHANGE, &st);
	if (!ok)
		fprintf(stderr, "svc_control: %lu\n", GetLastError());
	CloseServiceHandle(svc);
	CloseServiceHandle(scm);
	return ok ? 0 : 1;
}
