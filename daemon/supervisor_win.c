/*
 * tcptuned as a Windows service, and what it tells the Service Control
 * Manager.  Started by the SCM, the process hands its main thread to
 * StartServiceCtrlDispatcherW; the daemon itself (tcptuned_main) runs in
 * ServiceMain's thread.  The control handler turns STOP and SHUTDOWN into
 * the stop that SIGTERM is on Unix and PARAMCHANGE ("sc control tcptuned
 * paramchange") into the reload of SIGHUP, as events on the loop; the
 * service is RUNNING after the first apply and STOP_PENDING when the
 * daemon begins to stop.  With -d, -n, -h or -V, or when no SCM started
 * us (ERROR_FAILED_SERVICE_CONTROLLER_CONNECT), it runs in the console,
 * and Ctrl-C or closing the console stops it.  The daemon reaches all of
 * this only through the struct supervisor it is handed, as it reaches
 * supervisor_posix.c on Unix.  Sources: "Service Programs", "Writing a
 * ServiceMain Function", "Writing a Control Handler Function" (Microsoft
 * Learn, win32); OpenVPN's src/openvpnserv.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

#include "tcptuned.h"
#include "event.h"

#define STOP_HINT_MS	10000	/* what a stop may take, told to the SCM */
#define START_HINT_MS	30000	/* the first apply may wait on WMI */

static SERVICE_STATUS_HANDLE	status_handle;
static SERVICE_STATUS		status;
static HANDLE			stop_event, reload_event;
static bool			stopped_reported;

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

static int
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
 * The daemon's readiness, which supervisor_posix.c sends to systemd on
 * Linux: here the service becomes RUNNING after the first apply, and
 * STOP_PENDING when it begins to stop.
 */
static void
supervisor_ready(void)
{
	report(SERVICE_RUNNING, 0, 0);
}

static void
supervisor_stopping(void)
{
	report(SERVICE_STOP_PENDING, 0, STOP_HINT_MS);
}

/* fatal() exits from inside the daemon: still tell the SCM why. */
static void
report_exit(void)
{
	if (!stopped_reported)
		report(SERVICE_STOPPED, 1, 0);
}

/*
 * ServiceMain's start: the control handler registered, the events made,
 * START_PENDING told.  false when the service cannot run (then told
 * STOPPED where it could register).
 */
static bool
svc_status_begin(const wchar_t *name)
{
	status_handle = RegisterServiceCtrlHandlerExW(name, control_handler,
	    NULL);
	if (status_handle == NULL)
		return false;
	if (!make_events()) {
		report(SERVICE_STOPPED, 1, 0);
		return false;
	}
	report(SERVICE_START_PENDING, 0, START_HINT_MS);
	atexit(report_exit);
	return true;
}

/* ServiceMain's end: STOPPED, with the daemon's exit status. */
static void
svc_status_end(int rv)
{
	report(SERVICE_STOPPED, (DWORD)rv, 0);
}

/* The Service Control Manager started it: the Event Log has it all. */
static bool
supervisor_by_hand(void)
{
	return false;
}

static const struct supervisor win_supervisor = {
	supervisor_events, supervisor_ready, supervisor_stopping,
	supervisor_by_hand, NULL, NULL
};

/* ---- the service's entry */

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
	rv = tcptuned_main(saved_argc, saved_argv, &win_supervisor);
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
		return tcptuned_main(argc, argv, &win_supervisor);
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
		return tcptuned_main(argc, argv, &win_supervisor);
	return 1;
}
