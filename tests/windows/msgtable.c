/*
 * msgtable.exe FILE ID TEXT: prints message ID of FILE's message table
 * with TEXT as its %1, as Event Viewer formats an event from the
 * source's EventMessageFile (LoadLibraryEx as a data file, then
 * FormatMessage from that module).  Exit 0, or 1 with the Windows error.
 * A test tool only: tests/windows/msi.sh checks tcptuned.exe with it.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>

#include <windows.h>

int
main(void)
{
	LPWSTR		*argv;
	HMODULE		 mod;
	DWORD_PTR	 args[1];
	wchar_t		 wout[512];
	char		 out[1024];
	int		 argc;

	argv = CommandLineToArgvW(GetCommandLineW(), &argc);
	if (argv == NULL || argc != 4) {
		fprintf(stderr, "usage: msgtable FILE ID TEXT\n");
		return 2;
	}
	mod = LoadLibraryExW(argv[1], NULL, LOAD_LIBRARY_AS_DATAFILE);
	if (mod == NULL) {
		fprintf(stderr, "LoadLibraryEx: error %lu\n", GetLastError());
		return 1;
	}
	args[0] = (DWORD_PTR)argv[3];
	if (FormatMessageW(FORMAT_MESSAGE_FROM_HMODULE |
	    FORMAT_MESSAGE_ARGUMENT_ARRAY, mod,
	    (DWORD)wcstoul(argv[2], NULL, 0), 0, wout,
	    sizeof(wout) / sizeof(wout[0]), (va_list *)args) == 0) {
		fprintf(stderr, "FormatMessage: error %lu\n", GetLastError());
		return 1;
	}
	if (WideCharToMultiByte(CP_UTF8, 0, wout, -1, out, sizeof(out),
	    NULL, NULL) == 0)
		return 1;
	printf("[%s]\n", out);
	return 0;
}
