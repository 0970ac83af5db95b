/*
 * The daemon's side of the parse helper (parse_helper.c): the files are
 * opened here, as root by the trust rule (config_file_open), and handed
 * to a child that execs tcptune-parse; its answer is read on a private
 * event loop with a deadline timer (a helper that hangs is killed, never
 * waited on by a sleep), and checked again field by field
 * (parse_wire_decode).  A helper that crashes, hangs, exits without an
 * answer or answers garbage is one error of the reload, said in words:
 * the running configuration stays.
 *
 * The daemon's loop waits while the helper runs, as it waited while it
 * parsed in-process before: at most PARSE_DEADLINE_MS, a few ms usually.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tcptuned.h"
#include "event.h"
#include "confine.h"
#include "parse_wire.h"
#include "catalogue.h"
#include "orphan.h"

#define PARSE_DEADLINE_MS	10000
#define PARSE_FD_MOVED		10	/* above the helper's fds 3-5 */

struct answer {
	struct evloop	*loop;
	struct ev_timer	*timer;
	uint64_t	 deadline;	/* tt_mono_ms() */
	char		*buf;
	size_t		 len;
	bool		 too_long;
	bool		 timed_out;
};

/*
 * The rule for the program root execs (docs/SECURITY.md): reached by the
 * trust rule from "/", a regular file root (or this uid) owns, writable
 * by nobody else, executable.  0, or -1 and why.
 */
int
parse_helper_check(const char *path, char *why, size_t len)
{
	struct stat	st;
	char		tw[512];
	int		fd;

	tw[0] = '\0';
	if (path[0] != '/')
		return tt_why(why, len, "%s: not an absolute path", path);
	if ((fd = trust_open_file(path, 0, tw, sizeof(tw))) == -1)
		return tt_why(why, len, "%s: %s", path, tw[0] ? tw :
		    strerror(errno));
	if (fstat(fd, &st) == -1) {
		close(fd);
		return tt_why(why, len, "%s: %s", path, strerror(errno));
	}
	close(fd);
	if (!S_ISREG(st.st_mode) || (st.st_uid != 0 &&
	    st.st_uid != geteuid()) || (st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    !(st.st_mode & S_IXUSR))
		return tt_why(why, len, "%s: must be a regular executable file "
		    "owned by root and writable by nobody else", path);
	return 0;
}

/* In the child: fd to want, not close-on-exec. */
static void
place_fd(int fd, int want)
{
	if (fd != -1 && dup2(fd, want) == -1)
		_exit(127);
}

/*
 * The child, between fork and exec: nothing of the daemon's but fds 3-5.
 * The rest (the listening socket, the locks, the state directory, the
 * clients) is closed first, before anything that can wait: a daemon
 * killed now would otherwise live on in this copy, answering connects
 * and holding what the next daemon needs (docs/RELIABILITY.md, "Restart
 * after a crash").  Then it ends with the daemon (orphan.h).
 */
static void
exec_helper(const char *helper, pid_t daemon_pid, int sock, int cfd,
    int mfd, const char *path, const char *managed)
{
	char		*argv[4], *envp[1] = { NULL };
	sigset_t	 none;

	sock = fcntl(sock, F_DUPFD_CLOEXEC, PARSE_FD_MOVED);
	cfd = fcntl(cfd, F_DUPFD_CLOEXEC, PARSE_FD_MOVED);
	if (mfd != -1)
		mfd = fcntl(mfd, F_DUPFD_CLOEXEC, PARSE_FD_MOVED);
	place_fd(sock, PARSE_FD_ANSWER);
	place_fd(cfd, PARSE_FD_CONFIG);
	place_fd(mfd, PARSE_FD_MANAGED);
	child_close_from(mfd == -1 ? PARSE_FD_MANAGED : PARSE_FD_MANAGED + 1);
	if (die_with_parent(daemon_pid) == -1)
		_exit(127);
	/* The daemon blocks and ignores signals for its loop: not the child. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	/* copies: execve's argv is not const (the daemon is one thread) */
	argv[0] = strdup("tcptune-parse");
	argv[1] = strdup(path);
	argv[2] = managed == NULL ? NULL : strdup(managed);
	argv[3] = NULL;
	execve(helper, argv, envp);
	_exit(127);
}

static void
on_answer(int fd, bool readable, bool writable, void *arg)
{
	struct answer	*a = arg;
	char		 chunk[16384];
	ssize_t		 n;

	(void)readable;
	(void)writable;
	n = read(fd, chunk, sizeof(chunk));
	if (n == -1 && errno == EINTR)
		return;
	if (n <= 0) {
		ev_stop(a->loop);
		return;
	}
	if (a->len + (size_t)n > PW_MAX_BYTES) {
		a->too_long = true;
		ev_stop(a->loop);
		return;
	}
	if ((a->buf = realloc(a->buf, a->len + (size_t)n)) == NULL)
		fatal("%s", __func__);
	memcpy(a->buf + a->len, chunk, (size_t)n);
	a->len += (size_t)n;
}

/*
 * The timer wakes the loop; the monotonic clock says whether the time is
 * up: a timer that fires early (bench/daemon/timescale.so divides every
 * timer of the process) only re-arms for what is left.
 */
static void
on_deadline(void *arg)
{
	struct answer	*a = arg;
	uint64_t	 now = tt_mono_ms();

	if (now < a->deadline &&
	    ev_timer_start(a->timer, (unsigned)(a->deadline - now), false) == 0)
		return;
	a->timed_out = true;
	ev_stop(a->loop);
}

/* Read the whole answer, or until the deadline: 0, or -1 (no loop). */
static int
read_answer(int sock, struct answer *a)
{
	struct ev_timer	*t;
	int		 rv = -1;

	if ((a->loop = ev_new()) == NULL)
		return -1;
	a->deadline = tt_mono_ms() + PARSE_DEADLINE_MS;
	if ((t = a->timer = ev_timer_new(a->loop, on_deadline, a)) != NULL &&
	    ev_timer_start(t, PARSE_DEADLINE_MS, false) == 0 &&
	    ev_fd_add(a->loop, sock, on_answer, a) == 0)
		rv = ev_run(a->loop);
	ev_fd_del(a->loop, sock);
	ev_timer_free(t);
	ev_free(a->loop);
	return rv;
}

/*
 * How the helper ended, in words, into why; 0 when it exited with 0.
 * It is killed first in any case: its answer has ended (it closed its
 * end, by exiting, which sets the status before the descriptors close) or
 * the deadline passed, and a helper that closed its end but lives on is
 * not waited for.  Our kill after the end of an answer is no failure:
 * the answer is judged on its own.
 */
static int
reap(pid_t pid, bool timed_out, char *why, size_t len)
{
	int	status;

	(void)kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return tt_why(why, len, "waitpid: %s", strerror(errno));
	if (timed_out)
		return tt_why(why, len, "it did not answer within %d ms and "
		    "was killed", PARSE_DEADLINE_MS);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return tt_why(why, len, "it exited with status %d%s",
		    WEXITSTATUS(status), WEXITSTATUS(status) == 127 ?
		    " (it could not be started)" : "");
	if (WTERMSIG(status) == SIGKILL)
		return 0;
	return tt_why(why, len, "it was killed by signal %d (%s)",
	    WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/*
 * Run the helper on the open files: 0 and *cfgp (NULL when the files
 * have errors, added to errs), or -1 and why when the helper failed.
 */
static int
run_helper(const char *helper, int cfd, int mfd, const char *path,
    const char *managed, struct config **cfgp, struct errlist *errs,
    char *why, size_t len)
{
	struct answer	 a;
	int		 sp[2];
	pid_t		 pid, self = getpid();

	memset(&a, 0, sizeof(a));
	/* No SOCK_CLOEXEC on macOS: the daemon is one thread, no race. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
		return tt_why(why, len, "socketpair: %s", strerror(errno));
	(void)fcntl(sp[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(sp[1], F_SETFD, FD_CLOEXEC);
	if ((pid = fork()) == -1) {
		close(sp[0]);
		close(sp[1]);
		return tt_why(why, len, "fork: %s", strerror(errno));
	}
	if (pid == 0)
		exec_helper(helper, self, sp[1], cfd, mfd, path, managed);
	close(sp[1]);
	if (read_answer(sp[0], &a) == -1) {
		a.timed_out = true;	/* no loop to wait on: kill it */
		log_warn("parse helper: event loop");
	}
	close(sp[0]);
	if (reap(pid, a.timed_out, why, len) == -1 || (a.too_long &&
	    tt_why(why, len, "its answer is longer than any can be") == -1) ||
	    parse_wire_decode(a.buf, a.len, path, managed, cfgp, errs, why,
	    len) == -1) {
		free(a.buf);
		return -1;
	}
	free(a.buf);
	return 0;
}

/* The checked descriptor of a file, or -1 with its error in errs. */
static int
open_checked(const char *path, struct errlist *errs)
{
	int	fd, err = 0;

	if ((fd = config_file_open(path, CONFIG_CHECK_OWNER, errs, &err)) ==
	    -1 && err > 0)
		config_file_error(errs, path, err);
	return fd;
}

/*
 * path with managed over it when that file exists (NULL or "": none), as
 * config_load_layers() reads them, through the helper.  A config, or
 * NULL with every error in errs, the helper's failure among them.
 */
struct config *
parse_config(const char *helper, const char *path, const char *managed,
    int flags, struct errlist *errs)
{
	struct config	*cfg = NULL;
	struct stat	 st;
	char		 why[TT_TEXT_MAX];
	int		 cfd, mfd = -1;
	bool		 have_managed;

	have_managed = managed != NULL && managed[0] != '\0' &&
	    (stat(managed, &st) == 0 || errno != ENOENT);
	if (parse_helper_check(helper, why, sizeof(why)) == -1) {
		errlist_add(errs, "%s: cannot use the parse helper: %s", path,
		    why);
		return NULL;
	}
	cfd = open_checked(path, errs);
	if (have_managed)
		mfd = open_checked(managed, errs);
	if (cfd != -1 && (mfd != -1 || !have_managed) &&
	    run_helper(helper, cfd, mfd, path, have_managed ? managed : NULL,
	    &cfg, errs, why, sizeof(why)) == -1)
		errlist_add(errs, "%s: the parse helper %s failed: %s", path,
		    helper, why);
	if (cfd != -1)
		close(cfd);
	if (mfd != -1)
		close(mfd);
	/* this OS's catalogue: pure table lookups, no parser needed here */
	if (cfg != NULL && (flags & CONFIG_CHECK_OS) && config_check_os(cfg,
	    catalogue_host_os(), NULL, errs, NULL) > 0) {
		config_free(cfg);
		cfg = NULL;
	}
	return cfg;
}

/*
 * tcptuned -n through the helper: every problem of both files, one a
 * line, or "configuration OK" after naming the managed file in use, as
 * config_report_layers() prints them.  0 when good, 1 otherwise.
 */
int
parse_report(const char *helper, const char *path, const char *managed,
    int flags, FILE *out)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = parse_config(helper, path, managed, flags, &errs);
	return config_report_result(cfg, &errs, path, out);
}
