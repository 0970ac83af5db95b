/*
 * The parse helper's process on Linux (confine.h): what it keeps of the
 * daemon, how long it lives, and what it may ask of the kernel.
 *
 * A child of tcptuned keeps none of its descriptors and dies with it.
 * close_range(2) (Linux 5.9) closes a whole range in one call; an older
 * kernel says ENOSYS and the loop does it.  PR_SET_PDEATHSIG
 * (PR_SET_PDEATHSIG(2const), man-pages 6.9): the signal is sent when the
 * parent ends; it is not inherited by fork and is cleared when the
 * effective or filesystem uid or gid changes (so the helper sets it again
 * after giving up root), and it is kept across execve of a binary that is
 * not set-uid.  "If the parent ... [has] already terminated by the time
 * of the PR_SET_PDEATHSIG operation, then no parent-death signal is
 * sent": hence getppid() after it.
 *
 * Whether any process holds an id, for the helper's drop to an id nobody
 * has, from /proc/PID/status, whose "Uid:" and "Gid:" lines give the
 * real, effective, saved and file-system ids (torvalds/linux
 * fs/proc/array.c, task_cred(), v6.6); asked as root, before root is
 * given up (privdrop_posix.c).  /proc mounted with hidepid (systemd's
 * ProtectProc=invisible) hides the processes of other users from a root
 * without CAP_SYS_PTRACE, and a scan would then call every id free: pid
 * 1, never the caller's, is looked for first, and where it cannot be
 * seen the answer is "cannot tell" (torvalds/linux fs/proc/base.c,
 * has_pid_permissions()).
 *
 * The helper, already without root, allows itself only the
 * system calls that reading two descriptors, parsing in memory and
 * writing the answer take, by a seccomp filter (seccomp(2); the kernel's
 * Documentation/userspace-api/seccomp_filter.rst): no open, no socket, no
 * exec.  Anything else fails with EPERM rather than killing the helper,
 * so a libc or libxml2 that probes a call gets an error it handles (an
 * encoding that iconv would load a module for is then an unknown one),
 * and a helper that misbehaves is still killed by the daemon's deadline.
 * PR_SET_NO_NEW_PRIVS first, as the kernel requires of a process without
 * CAP_SYS_ADMIN, and so no exec could gain privileges either.  Landlock
 * would only restrict paths, which no allowed call takes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "tcptune.h"
#include "confine.h"

#define CLOSE_LOOP_MAX	65536	/* the loop's bound, RLIMIT_NOFILE above */

void
child_close_from(int lowfd)
{
	long	fd, max;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lowfd, ~0U, 0U) == 0)
		return;
#endif
	max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > CLOSE_LOOP_MAX)
		max = CLOSE_LOOP_MAX;
	for (fd = lowfd; fd < max; fd++)
		(void)close((int)fd);
}

int
die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1)
		return -1;
	return getppid() == parent ? 0 : -1;
}

#if defined(__x86_64__)
#define TT_AUDIT_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TT_AUDIT_ARCH	AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define TT_AUDIT_ARCH	AUDIT_ARCH_I386
#endif

#define ALLOW(nr)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

#ifdef TT_AUDIT_ARCH
static struct sock_filter filter[] = {
	/* Another ABI's numbers mean other calls: refused outright. */
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TT_AUDIT_ARCH, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	ALLOW(SYS_read), ALLOW(SYS_write), ALLOW(SYS_writev),
	ALLOW(SYS_close), ALLOW(SYS_fstat), ALLOW(SYS_lseek),
#ifdef SYS_newfstatat
	ALLOW(SYS_newfstatat),
#endif
	ALLOW(SYS_mmap), ALLOW(SYS_munmap), ALLOW(SYS_mremap),
	ALLOW(SYS_mprotect), ALLOW(SYS_brk), ALLOW(SYS_madvise),
	ALLOW(SYS_futex), ALLOW(SYS_getrandom), ALLOW(SYS_clock_gettime),
	ALLOW(SYS_rt_sigreturn), ALLOW(SYS_rt_sigprocmask),
	/* abort(3) and exit */
	ALLOW(SYS_getpid), ALLOW(SYS_gettid), ALLOW(SYS_tgkill),
	ALLOW(SYS_exit), ALLOW(SYS_exit_group),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
};
#endif

int
confine_enter(char *why, size_t len, const char **what)
{
#ifdef TT_AUDIT_ARCH
	struct sock_fprog	prog = { (unsigned short)NITEMS(filter), filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return tt_why(why, len, "no_new_privs: %s", strerror(errno));
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == -1)
		return tt_why(why, len, "seccomp: %s", strerror(errno));
	*what = "seccomp filter (no open, socket or exec)";
#else
	(void)why;
	(void)len;
	*what = "no seccomp filter for this architecture";
#endif
	return 0;
}

/* ---- whether an id is held (privdrop_posix.c's choice of a free one) */

/* The line "Uid:\t0\t0\t0\t0" names id among its four numbers. */
static bool
line_names(const char *line, const char *tag, unsigned long id)
{
	const char	*p;
	char		*end;
	size_t		 tlen = strlen(tag);
	int		 i;

	if (strncmp(line, tag, tlen) != 0)
		return false;
	for (p = line + tlen, i = 0; i < 4; i++, p = end) {
		errno = 0;
		if (strtoul(p, &end, 10) == id && end != p && errno == 0)
			return true;
		if (end == p)
			break;
	}
	return false;
}

/* 1 when the process's status names id as a uid or gid, 0 otherwise. */
static int
process_holds(const char *pid, unsigned long id)
{
	char	 path[64], line[256];
	FILE	*f;
	int	 held = 0;

	(void)tt_snprintf(path, sizeof(path), "/proc/%s/status", pid);
	if ((f = fopen(path, "re")) == NULL)
		return 0;	/* gone since the directory was read */
	while (!held && fgets(line, sizeof(line), f) != NULL)
		held = line_names(line, "Uid:", id) ||
		    line_names(line, "Gid:", id);
	fclose(f);
	return held;
}

int
confine_id_held(unsigned long id, char *why, size_t len)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*dir;
	int		 held = 0;

	if (stat("/proc/1/status", &st) == -1)
		return tt_why(why, len, "/proc does not show every process "
		    "(/proc/1/status: %s)", strerror(errno));
	if ((dir = opendir("/proc")) == NULL)
		return tt_why(why, len, "/proc: %s", strerror(errno));
	while (!held && (de = readdir(dir)) != NULL)
		if (isdigit((unsigned char)de->d_name[0]))
			held = process_holds(de->d_name, id);
	closedir(dir);
	return held;
}
