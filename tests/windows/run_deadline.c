/*
 * run_deadline.exe, for tests/windows/wine.sh: lib/run_win.c's win_run(),
 * the runner netsh_win.c gives netsh.exe, on children that misbehave.
 * Itself is each child:
 *   run_deadline.exe		runs the cases, printing TAP lines ("ok N -
 *				..."), exit 0 when every one passed
 *   run_deadline.exe hang	writes nothing and never exits
 *   run_deadline.exe talk	writes "partial\n", then never exits
 *   run_deadline.exe flood N	writes N bytes, exits 3
 *   run_deadline.exe leak H	writes "leak" to handle H, exits 0 when it
 *				could (the handle was inherited)
 * What each case shows is the run's own result (ERROR_TIMEOUT, the
 * output kept, the exit code), never a time measured around it.
 * A test tool only.
 */
#ifdef HAVE_CONFIG_H		/* scripts/test-windows.sh: no configure */
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

#include "win.h"

#define SAFETY_MS	120000	/* TT_WAIT_LIMIT: only a run that never ends */
#define SHORT_MS	1000	/* the deadline a hanging child is given */

static int	ntests, nfailed;

static void
report(int pass, const char *what, DWORD err, const char *out)
{
	printf("%sok %d - run: %s\n", pass ? "" : "not ", ++ntests, what);
	if (!pass)
		printf("# result %lu, output \"%s\"\n", (unsigned long)err, out);
	nfailed += !pass;
	fflush(stdout);
}

/* This program again, with args: win_run()'s result. */
static DWORD
run_self(const wchar_t *args, DWORD limit_ms, char *out, size_t outlen,
    unsigned long *code)
{
	wchar_t	self[MAX_PATH], cmd[MAX_PATH + 64];

	if (GetModuleFileNameW(NULL, self, MAX_PATH) >= MAX_PATH)
		return ERROR_FILENAME_EXCED_RANGE;
	swprintf(cmd, sizeof(cmd) / sizeof(cmd[0]), L"run_deadline.exe %ls",
	    args);
	return win_run(self, cmd, NULL, limit_ms, out, outlen, code);
}

/* A child that writes more than a pipe holds, then exits: all read. */
static void
case_flood(void)
{
	char		out[64];
	unsigned long	code;
	DWORD		err;

	err = run_self(L"flood 200000", SAFETY_MS, out, sizeof(out), &code);
	report(err == ERROR_SUCCESS && code == 3 &&
	    strspn(out, "x") == sizeof(out) - 1,
	    "a child that writes 200000 bytes and exits 3: read to its end, "
	    "the first bytes kept, exit 3", err, out);
}

/* Silent and hung: ended at the deadline, not waited for. */
static void
case_hang(void)
{
	char		out[64];
	unsigned long	code;
	DWORD		err;

	err = run_self(L"hang", SHORT_MS, out, sizeof(out), &code);
	report(err == ERROR_TIMEOUT && out[0] == '\0',
	    "a child that writes nothing and hangs: ended, ERROR_TIMEOUT",
	    err, out);
}

/*
 * Writes, then hangs: the run still ends at its deadline, with what was
 * written.  A deadline that passed before the child (a slow start under
 * Wine) wrote anything is doubled: that it ends is the test, not when.
 */
static void
case_talk(void)
{
	char		out[64];
	unsigned long	code;
	DWORD		err, limit = SHORT_MS;

	do {
		err = run_self(L"talk", limit, out, sizeof(out), &code);
		limit *= 2;
	} while (err == ERROR_TIMEOUT && out[0] == '\0' && limit <= SAFETY_MS);
	report(err == ERROR_TIMEOUT && strcmp(out, "partial\n") == 0,
	    "a child that writes, then hangs: ended, ERROR_TIMEOUT, its "
	    "output kept", err, out);
}

/* An inheritable handle the run was not given stays with the parent. */
static void
case_inherit(void)
{
	SECURITY_ATTRIBUTES	sa = { sizeof(sa), NULL, TRUE };
	wchar_t			args[64];
	char			out[64];
	unsigned long		code;
	HANDLE			rd, wr;
	DWORD			err, avail = 0;

	if (!CreatePipe(&rd, &wr, &sa, 0)) {
		report(0, "an unrelated inheritable handle is not inherited",
		    GetLastError(), "");
		return;
	}
	swprintf(args, sizeof(args) / sizeof(args[0]), L"leak %llu",
	    (unsigned long long)(ULONG_PTR)wr);
	err = run_self(args, SAFETY_MS, out, sizeof(out), &code);
	CloseHandle(wr);
	if (!PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL))
		avail = 0;
	CloseHandle(rd);
	report(err == ERROR_SUCCESS && avail == 0 && code <= 1,
	    "an unrelated inheritable handle is not inherited (only the "
	    "output pipe is)", err, avail > 0 ? "leak reached the parent" :
	    out);
}

static int
child(int argc, char **argv)
{
	HANDLE	out = GetStdHandle(STD_OUTPUT_HANDLE);
	DWORD	put;
	char	x[4096];
	long	n;

	if (strcmp(argv[1], "hang") == 0)
		Sleep(INFINITE);
	if (strcmp(argv[1], "talk") == 0) {
		WriteFile(out, "partial\n", 8, &put, NULL);
		Sleep(INFINITE);
	}
	if (strcmp(argv[1], "flood") == 0 && argc == 3) {
		memset(x, 'x', sizeof(x));
		for (n = atol(argv[2]); n > 0; n -= (long)sizeof(x))
			WriteFile(out, x, n < (long)sizeof(x) ? (DWORD)n :
			    sizeof(x), &put, NULL);
		return 3;
	}
	if (strcmp(argv[1], "leak") == 0 && argc == 3)
		return WriteFile((HANDLE)(ULONG_PTR)strtoull(argv[2], NULL, 10),
		    "leak", 4, &put, NULL) ? 0 : 1;
	return 2;
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		return child(argc, argv);
	case_flood();
	case_hang();
	case_talk();
	case_inherit();
	printf("1..%d\n", ntests);
	return nfailed > 0;
}
