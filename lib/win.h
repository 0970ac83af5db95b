/*
 * Windows helpers shared by the Windows files of lib/, daemon/ and tools/
 * (os_win.c).  Paths are UTF-8 in the rest of tcptune and UTF-16 for the
 * Win32 calls; a path may start with %ProgramData%, replaced by the
 * known folder (SHGetKnownFolderPath), not by the environment variable a
 * caller could set.
 */
#ifndef TCPTUNE_WIN_H
#define TCPTUNE_WIN_H

#include <stdbool.h>
#include <stddef.h>

#include <windows.h>

#define TT_WPATH_MAX	1024

int	 win_wpath(const char *, wchar_t *, size_t);
int	 win_errno(DWORD);
void	 win_strerror(DWORD, char *, size_t);
/* trust_win.c: owned by Administrators or SYSTEM, nobody else writes */
int	 win_trusted_object(HANDLE, bool, char *, size_t);
int	 win_trusted_key(HKEY, char *, size_t);
/*
 * run_win.c: exe run with the command line cmd in dir, to its end or for
 * limit_ms at most, inheriting only its output pipe: the first outlen - 1
 * bytes of its stdout and stderr in out, its exit code.  ERROR_SUCCESS,
 * ERROR_TIMEOUT (it was ended), or the Win32 error of the step that failed.
 */
DWORD	 win_run(const wchar_t *exe, wchar_t *cmd, const wchar_t *dir,
	    DWORD limit_ms, char *out, size_t outlen,
	    unsigned long *exit_code);

#endif /* TCPTUNE_WIN_H */
