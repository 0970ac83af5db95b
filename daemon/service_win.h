/*
 * Between the Windows service's entry (service_win.c) and its status
 * towards the Service Control Manager (supervisor_win.c).
 */
#ifndef TCPTUNE_SERVICE_WIN_H
#define TCPTUNE_SERVICE_WIN_H

#include <stdbool.h>
#include <wchar.h>

#define STOP_HINT_MS	10000	/* what a stop may take, told to the SCM */

bool	svc_status_begin(const wchar_t *);
void	svc_status_end(int);

#endif
