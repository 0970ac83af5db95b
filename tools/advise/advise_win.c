/*
 * tcptunectl advise on Windows: what advise_posix.c does on a Unix.  The
 * live values come through the CIM backend (advise.c, read_live), so
 * there is no kernel release to read; --host is not measured here (the
 * prober speaks POSIX sockets); --config FILE is written beside FILE and
 * moved into place with MoveFileExW, which without
 * MOVEFILE_REPLACE_EXISTING refuses an existing file (MoveFileExW docs):
 * nothing is overwritten without --force.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

#include "tcptunectl.h"
#include "advise.h"
#include "win.h"

#define PLIST_MAX	(1024 * 1024)	/* far above any advice */

/* Windows keys have no release to go with them: never asked for. */
void
advise_read_release(struct adv_input *in)
{
	adv_input_set(in, "kernel.osrelease", NULL, ENOSYS, false);
}

int
advise_measure(const char *arg, int count, double timeout,
    struct adv_input *in, struct adv_probe *p)
{
	(void)count;
	(void)timeout;
	(void)in;
	(void)p;
	ctl_warnx("--host %s: measuring the round trip is not available on "
	    "Windows; give it with --rtt (ping or Test-NetConnection shows "
	    "it)", arg);
	return CTL_USAGE;
}

/* The plist in tmp, read back whole into buf (NUL-terminated). */
static int
read_back(FILE *f, char **buf, size_t *len)
{
	long	n;

	if (fflush(f) == EOF || fseek(f, 0, SEEK_END) == -1 ||
	    (n = ftell(f)) < 0 || n > PLIST_MAX || fseek(f, 0, SEEK_SET) == -1)
		return -1;
	if ((*buf = malloc((size_t)n + 1)) == NULL)
		return -1;
	if (fread(*buf, 1, (size_t)n, f) != (size_t)n) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

/* A new file, opened for reading and writing; NULL and errno. */
static FILE *
create_new(const wchar_t *wtmp)
{
	HANDLE	h;
	FILE	*f;
	int	fd;

	h = CreateFileW(wtmp, GENERIC_READ | GENERIC_WRITE, 0, NULL,
	    CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		errno = win_errno(GetLastError());
		return NULL;
	}
	if ((fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY)) == -1) {
		CloseHandle(h);
		return NULL;
	}
	if ((f = _fdopen(fd, "w+b")) == NULL)
		_close(fd);
	return f;
}

/* tmp, checked, becomes path; -1 after a message. */
static int
check_and_move(FILE *f, const wchar_t *wtmp, const wchar_t *wpath,
    const char *path, bool force)
{
	char	*buf = NULL;
	size_t	 len = 0;
	DWORD	 err;
	int	 rv;

	if (read_back(f, &buf, &len) == -1) {
		ctl_warn("cannot write %s", path);
		fclose(f);
		return -1;
	}
	rv = advise_self_check(buf, len, path);
	free(buf);
	if (fclose(f) == EOF && rv == 0) {
		ctl_warn("cannot write %s", path);
		return -1;
	}
	if (rv == -1)
		return -1;
	if (MoveFileExW(wtmp, wpath, MOVEFILE_WRITE_THROUGH |
	    (force ? MOVEFILE_REPLACE_EXISTING : 0)))
		return 0;
	err = GetLastError();
	if (err == ERROR_ALREADY_EXISTS || err == ERROR_FILE_EXISTS)
		ctl_warnx("%s exists: add --force to replace it", path);
	else {
		errno = win_errno(err);
		ctl_warn("%s", path);
	}
	return -1;
}

int
advise_write_config(const char *path, bool force, const struct advice *adv)
{
	wchar_t	 wpath[TT_WPATH_MAX], wtmp[TT_WPATH_MAX + 32];
	FILE	*f;

	if (win_wpath(path, wpath, TT_WPATH_MAX) == -1) {
		ctl_warn("%s", path);
		return CTL_FAIL;
	}
	swprintf(wtmp, sizeof(wtmp) / sizeof(wtmp[0]), L"%ls" TT_WATOMIC_TMP
	    L"%lu", wpath, (unsigned long)GetCurrentProcessId());
	if ((f = create_new(wtmp)) == NULL) {
		ctl_warn("cannot write %s", path);
		return CTL_FAIL;
	}
	advise_plist(f, adv);
	if (check_and_move(f, wtmp, wpath, path, force) == -1) {
		DeleteFileW(wtmp);
		return CTL_FAIL;
	}
	return CTL_OK;
}

/* set and advise --apply write the service's config. */
bool
advise_privileged(char *why, size_t len)
{
	SID_IDENTIFIER_AUTHORITY nt = SECURITY_NT_AUTHORITY;
	PSID			 admins = NULL;
	BOOL			 member = FALSE;

	if (AllocateAndInitializeSid(&nt, 2, SECURITY_BUILTIN_DOMAIN_RID,
	    DOMAIN_ALIAS_RID_ADMINS, 0, 0, 0, 0, 0, 0, &admins)) {
		if (!CheckTokenMembership(NULL, admins, &member))
			member = FALSE;
		FreeSid(admins);
	}
	if (member)
		return true;
	snprintf(why, len, "it writes tcptuned's config (run it from an "
	    "elevated prompt)");
	return false;
}

/* The service's backend says what it refuses: every key is tried. */
bool
advise_key_writable(const char *name, char *why, size_t len)
{
	(void)name;
	(void)why;
	(void)len;
	return true;
}
