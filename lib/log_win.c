/*
 * The system log on Windows: the Application event log, source "tcptune"
 * (RegisterEventSourceW, ReportEventW).  Each line is one event whose
 * only insertion string is the message; errors are EVENTLOG_ERROR_TYPE,
 * the rest EVENTLOG_INFORMATION_TYPE.  The event ID is the one message
 * of lib/eventlog_messages.mc, "%1", linked into tcptuned.exe, which the
 * installer registers as the source's EventMessageFile: Event Viewer then
 * shows the line itself.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "tcptune.h"

#define TT_EVENT_SOURCE	L"tcptune"
#define TT_EVENT_ID	1	/* TT_MSG_EVENT of eventlog_messages.mc */

static HANDLE	source;

void
log_sink_open(const char *ident)
{
	(void)ident;	/* the source is the product's, whichever program */
	if (source == NULL)
		source = RegisterEventSourceW(NULL, TT_EVENT_SOURCE);
}

void
log_sink_write(enum log_level level, const char *msg)
{
	wchar_t		 wmsg[2400];
	const wchar_t	*strings[1] = { wmsg };
	WORD		 type;

	if (source == NULL)
		return;
	if (MultiByteToWideChar(CP_UTF8, 0, msg, -1, wmsg,
	    (int)(sizeof(wmsg) / sizeof(wmsg[0]))) == 0)
		wmsg[0] = L'\0';
	wmsg[sizeof(wmsg) / sizeof(wmsg[0]) - 1] = L'\0';
	type = level <= TT_LOG_ERR ? EVENTLOG_ERROR_TYPE :
	    EVENTLOG_INFORMATION_TYPE;
	ReportEventW(source, type, 0, TT_EVENT_ID, NULL, 1, 0, strings, NULL);
}
