/*
 * tcptuned as a Windows service.  Started by the Service Control Manager
 * the process hands its main thread to StartServiceCtrlDispatcherW; the
 * daemon itself (tcptuned_main) runs in ServiceMain's thread, and the
 * handler (RegisterServiceCtrlHandlerExW) turns controls into events on
 * the loop: STOP and SHUTDOWN into the stop that SIGTERM is on Unix,
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
#include "event.h"

#define SERVICE_NAME	L"tcptuned"
static wchar_t	service_name[] = SERVICE_NAME;
#define START_HINT_MS	30000	/* the first apply may wait on WMI */
#define STOP_HINT_MS	10000

static SERVICE_STATUS_HANDLE	status_handle;
static SERVICE_STATUS		status;
static HANDLE			stop_event, reload_event;
static int			saved_argc;
static char		      **saved_argv;
static bool			stopped_reported;
static HANDLE			service_done;	/* ServiceMain has returned */

static void
report(DWORD state, DWORD exit_code, DWORD hint)
{
	if (status_handle == NULL)
		return;
	status.dwServiceType = SERVICE_WIN32_OWN_PROCESS;
	status.dwCurrentState = state;
	status.dwControlsAccepted = state == SERVICE_RUNNING ?
	    SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN |
	    SERVICE_ACCEPT_PARAMCHANGE : 0;
	status.dwWin32ExitCode = exit_code == 0 ? NO_ERROR :
	    ERROR_SERVICE_SPECIFIC_ERROR;
	status.dwServiceSpecificExitCode = exit_code;
	status.dwWaitHint = hint;
	if (state == SERVICE_START_PENDING || state == SERVICE_STOP_PENDING)
		status.dwCheckPoint++;
	else
		status.dwCheckPoint = 0;
	SetServiceStatus(status_handle, &status);
	if (state == SERVICE_STOPPED)
		stopped_reported = true;
}

static DWORD WINAPI
control_handler(DWORD control, DWORD type, LPVOID data, LPVOID ctx)
{
	(void)type; (void)data; (void)ctx;
	switch (control) {
	case SERVICE_CONTROL_STOP:
	case SERVICE_CONTROL_SHUTDOWN:
		report(SERVICE_STOP_PENDING, 0, STOP_HINT_MS);
		SetEvent(stop_event);
		return NO_ERROR;
	case SERVICE_CONTROL_PARAMCHANGE:
		SetEvent(reload_event);
		return NO_ERROR;
	case SERVICE_CONTROL_INTERROGATE:
		return NO_ERROR;
	default:
		return ERROR_CALL_NOT_IMPLEMENTED;
	}
}

static BOOL WINAPI
console_handler(DWORD event)
{
	switch (event) {
	case CTRL_C_EVENT:
	case CTRL_BREAK_EVENT:
	case CTRL_CLOSE_EVENT:
	case CTRL_SHUTDOWN_EVENT:
		SetEvent(stop_event);
		return TRUE;
	default:
		return FALSE;
	}
}

static bool
make_events(void)
{
	if (stop_event == NULL)
		stop_event = CreateEventW(NULL, FALSE, FALSE, NULL);
	if (reload_event == NULL)
		reload_event = CreateEventW(NULL, FALSE, FALSE, NULL);
	return stop_event != NULL && reload_event != NULL;
}

int
supervisor_events(struct evloop *loop, void (*reload)(void *),
    void (*stop)(void *), void *arg)
{
	if (!make_events() ||
	    ev_handle_add(loop, stop_event, stop, arg) == -1 ||
	    ev_handle_add(loop, reload_event, reload, arg) == -1)
		return -1;
	if (status_handle == NULL)
		SetConsoleCtrlHandler(console_handler, TRUE);
	return 0;
}

/*
 * The daemon's readiness, which notify.c sends to systemd on Linux: here
 * the service becomes RUNNING after the first apply, and STOP_PENDING
 * when it begins to stop.
 */
int
notify_systemd(const char *msg)
{
	if (strncmp(msg, "READY=1", 7) == 0)
		report(SERVICE_RUNNING, 0, 0);
	else if (strncmp(msg, "STOPPING=1", 10) == 0)
		report(SERVICE_STOP_PENDING, 0, STOP_HINT_MS);
	return 0;
}

/* fatal() exits from inside the daemon: still tell the SCM why. */
static void
report_exit(void)
{
	if (!stopped_reported)
		report(SERVICE_STOPPED, 1, 0);
}

static void WINAPI
service_main(DWORD argc, LPWSTR *argv)
{
	int	rv;

	(void)argc; (void)argv;	/* the image path's arguments are ours */
	status_handle = RegisterServiceCtrlHandlerExW(SERVICE_NAME,
	    control_handler, NULL);
	if (status_handle == NULL)
		return;
	if (!make_events()) {
		report(SERVICE_STOPPED, 1, 0);
		return;
	}
	report(SERVICE_START_PENDING, 0, START_HINT_MS);
	atexit(report_exit);
	rv = tcptuned_main(saved_argc, saved_argv);
	report(SERVICE_STOPPED, (DWORD)rv, 0);
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
