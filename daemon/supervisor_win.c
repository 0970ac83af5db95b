/*
 * What tcptuned tells the Service Control Manager, and the events it
 * hears from it: the service's status (SetServiceStatus), the control
 * handler that turns STOP and SHUTDOWN into the stop of SIGTERM and
 * PARAMCHANGE into the reload of SIGHUP, and the console's Ctrl-C when
 * it runs in a console.  The daemon (tcptuned.c) reaches it through
 * supervisor_events(), supervisor_ready() and supervisor_stopping(), as
 * it reaches supervisor_posix.c on Unix; service_win.c, the program's
 * entry, through svc_status_begin() and svc_status_end().  Sources:
 * "Writing a ServiceMain Function", "Writing a Control Handler Function"
 * (Microsoft Learn, win32).
 */
#include "config.h"

#include <stdlib.h>

#include <windows.h>

#include "tcptuned.h"
#include "event.h"
#include "service_win.h"

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
 * The daemon's readiness, which supervisor_posix.c sends to systemd on
 * Linux: here the service becomes RUNNING after the first apply, and
 * STOP_PENDING when it begins to stop.
 */
void
supervisor_ready(void)
{
	report(SERVICE_RUNNING, 0, 0);
}

void
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
bool
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
void
svc_status_end(int rv)
{
	report(SERVICE_STOPPED, (DWORD)rv, 0);
}
