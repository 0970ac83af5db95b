/*
 * tcptuned as a Windows service.  Started by the Service Control Manager
 * the process hands its main thread to StartServiceCtrlDispatcherW; the
 * daemon itself (tcptuned_main) runs in ServiceMain's thread, and the
 * handler (supervisor_win.c) turns controls into events on the loop: STOP and SHUTDOWN into the stop that SIGTERM is on Unix,
 * PARAMCHANGE ("sc control tcptuned paramchange") into the reload of
 * SIGHUP.  With -d, -n, -h or -V, or when no SCM started us
 * (ERROR_FAILED_SERVICE_CONTROLLER_CONNECT), it runs in the console, and
 * Ctrl-C or closing the console stops it.  Sources: "Service Programs",
 * "Writing a ServiceMain Function", "Writing a Control Handler Function"
 * (Microsoft Learn, win32); OpenVPN's src/openvpnserv.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "tcptuned.h"
#include "service_win.h"

#define SERVICE_NAME	L"tcptuned"
static wchar_t	service_name[] = SERVICE_NAME;

static int			saved_argc;
static char		      **saved_argv;
static HANDLE			service_done;	/* ServiceMain has returned */

static void WINAPI
service_main(DWORD argc, LPWSTR *argv)
{
	int	rv;

	(void)argc; (void)argv;	/* the image path's arguments are ours */
	if (!svc_status_begin(SERVICE_NAME))
		return;
	rv = tcptuned_main(saved_argc, saved_argv);
	svc_status_end(rv);
	SetEvent(service_done);
}

/* The options that mean a person at a console, not the SCM. */
static bool
interactive(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++)
		if (argv[i][0] == '-' && strpbrk(argv[i] + 1, "dnhV") != NULL)
			return true;
	return false;
}

int
main(int argc, char **argv)
{
	SERVICE_TABLE_ENTRYW	table[] = {
		{ service_name, service_main },
		{ NULL, NULL }
	};

	saved_argc = argc;
	saved_argv = argv;
	if (interactive(argc, argv))
		return tcptuned_main(argc, argv);
	service_done = CreateEventW(NULL, TRUE, FALSE, NULL);
	if (StartServiceCtrlDispatcherW(table)) {
		/*
		 * Wine's dispatcher can return while ServiceMain is still
		 * shutting down: exiting then would cut the shutdown short.
		 */
		if (service_done != NULL)
			WaitForSingleObject(service_done, STOP_HINT_MS);
		return 0;
	}
	if (GetLastError() == ERROR_FAILED_SERVICE_CONTROLLER_CONNECT)
		return tcptuned_main(argc, argv);
	return 1;
}
