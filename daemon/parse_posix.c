/*
 * The daemon's side of the parse helper (parse_helper.c): the files are
 * opened here, as root by the trust rule (config_file_open), and handed
 * to a child that execs tcptune-parse; its answer is read on the loop it
 * is given with a deadline timer (a helper that hangs is killed, never
 * waited on by a sleep), and checked again field by field
 * (parse_wire_decode).  A helper that crashes, hangs, exits without an
 * answer or answers garbage is one error of the reload, said in words:
 * the running configuration stays.
 *
 * The daemon reads on its own loop (parse_begin): a slow or stopped
 * helper holds only the reload, never status or the other requests.  The
 * deadline bounds the helper.  Start-up and tcptuned -n, with nothing
 * else to serve, wait on a private loop (parse_config).
 *
 * Nor does the daemon ever wait for the helper's exit: after the end of
 * its answer or the deadline it sends SIGKILL and reaps with WNOHANG,
 * again from a timer on the same loop until it has ended or
 * PARSE_REAP_MS have passed.  The helper runs as a uid of its own, so the
 * kill needs CAP_KILL (kernel/signal.c, check_kill_permission and
 * kill_ok_by_cred: a sender whose real or effective uid is neither the
 * target's real nor saved uid needs CAP_KILL in the target's user
 * namespace), which the systemd unit's CapabilityBoundingSet= grants.  A
 * kill that fails anyway (EPERM under a unit without it) is said in the
 * reload's error and not waited on: the helper is left on a list, reaped
 * with WNOHANG at each later read.  A helper that does not end is never
 * a daemon that stops answering.
 *
 * A helper parses one file and never merges: the config, then the
 * managed file when there is one, each by a helper of its own.  The
 * layers are laid over each other here by the one loader
 * (config_layers, given the helpers' answers),
 * then the registry policy and the catalogue (config_layers_finish), as
 * tcptunectl check does them in its own process.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

#define PARSE_DEADLINE_MS	(TT_PARSE_DEADLINE_SEC * 1000)	/* each helper's */
#define PARSE_REAP_MS		(TT_PARSE_REAP_SEC * 1000)	/* after the kill */
#define PARSE_REAP_POLL_MS	50	/* the longest step between reaps */
#define PARSE_FD_MOVED		10	/* above the helper's fds 3-4 */
#define PARSE_LEFT_MAX		8	/* helpers not yet reaped, kept */

struct parse_job {
	struct evloop	*loop;
	struct ev_timer	*timer;
	uint64_t	 deadline;	/* tt_mono_ms() */
	pid_t		 pid;		/* the helper of this layer */
	int		 sock;		/* our end; -1 once the answer ended */
	char		*buf;
	size_t		 len;
	bool		 too_long;
	bool		 timed_out;
	bool		 reaping;	/* killed, its exit awaited */
	bool		 ended;		/* reaped: status is its exit */
	int		 status;
	int		 kill_errno;	/* 0, or why the SIGKILL failed */
	unsigned	 reap_step;	/* ms to the next reap */
	int		 flags;
	char		*path;
	char		*managed;	/* NULL none */
	char		*helper;
	int		 layer;		/* the one being read: 0 path, 1 managed */
	int		 fds[2];	/* each layer's checked file; -1 done */
	struct config	*layers[2];	/* each layer's answer; NULL failed */
	struct errlist	 errs;		/* every layer's problems, in order */
	parse_done_fn	 done;
	void		*arg;
};

/*
 * The rule for the program root execs (docs/SECURITY.md): reached by the
 * trust rule from "/", a regular file passing the one owner rule
 * (trust_file_check: root or this uid owns it, writable by nobody else),
 * executable.  0, or -1 and why.
 */
int
parse_helper_check(const char *path, char *why, size_t len)
{
	struct stat	st;
	char		tw[512], self[PATH_MAX];
	int		fd, rv;

	tw[0] = '\0';
	/* beside tcptuned (a build tree): as trusted as tcptuned itself */
	if (self_exe_path(self, sizeof(self)) == 0 &&
	    sibling_beside(self, path))
		return sibling_check(self, path, why, len);
	if (path[0] != '/')
		return tt_why(why, len, "%s: not an absolute path", path);
	if ((fd = trust_open_file(path, 0, tw, sizeof(tw))) == -1)
		return tt_why(why, len, "%s: %s", path, tw[0] ? tw :
		    strerror(errno));
	if ((rv = trust_file_check(fd, tw, sizeof(tw))) == 0 &&
	    fstat(fd, &st) == 0 && !(st.st_mode & S_IXUSR))
		rv = -1;
	close(fd);
	if (rv == -1)
		return tt_why(why, len, "%s: must be a regular executable file "
		    "owned by root and writable by nobody else%s%s%s", path,
		    tw[0] ? " (" : "", tw, tw[0] ? ")" : "");
	return 0;
}

/*
 * The helper to run when no -P names one: the configured one (make
 * install's), else the tcptune-parse beside tcptuned when the configured
 * one is not there (a build tree), under the sibling rule.  0 with its
 * path, or -1 and why, which says what to do.
 */
int
parse_helper_find(const char *configured, char *path, size_t len, char *why,
    size_t whylen)
{
	struct stat	st;
	char		self[PATH_MAX], sw[TT_TEXT_MAX];

	if (stat(configured, &st) == 0 || errno != ENOENT) {
		tt_strlcpy(path, configured, len);
		return 0;
	}
	if (self_exe_path(self, sizeof(self)) == -1)
		(void)tt_why(sw, sizeof(sw), "tcptuned's own path: %s",
		    strerror(errno));
	else if (sibling_path(self, "tcptune-parse", path, len, sw,
	    sizeof(sw)) == 0)
		return 0;
	return tt_why(why, whylen, "no parse helper: %s is not installed, "
	    "and the one beside tcptuned cannot be used: %s; run \"make "
	    "install\", or name a tcptune-parse with -P PATH", configured, sw);
}

/* In the child: fd to want, not close-on-exec. */
static void
place_fd(int fd, int want)
{
	if (fd != -1 && dup2(fd, want) == -1)
		_exit(127);
}

/*
 * The child, between fork and exec: nothing of the daemon's but fds 3-4.
 * The rest (the listening socket, the locks, the state directory, the
 * clients) is closed first, before anything that can wait: a daemon
 * killed now would otherwise live on in this copy, answering connects
 * and holding what the next daemon needs (docs/RELIABILITY.md, "Restart
 * after a crash").  Then it ends with the daemon (confine.h).
 */
static void
exec_helper(const char *helper, pid_t daemon_pid, int sock, int fd,
    const char *name)
{
	char		*argv[3], *envp[1] = { NULL };
	sigset_t	 none;

	sock = fcntl(sock, F_DUPFD_CLOEXEC, PARSE_FD_MOVED);
	fd = fcntl(fd, F_DUPFD_CLOEXEC, PARSE_FD_MOVED);
	place_fd(sock, PARSE_FD_ANSWER);
	place_fd(fd, PARSE_FD_CONFIG);
	child_close_from(PARSE_FD_CONFIG + 1);
	if (die_with_parent(daemon_pid) == -1)
		_exit(127);
	/* The daemon blocks and ignores signals for its loop: not the child. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	/* copies: execve's argv is not const (the daemon is one thread) */
	argv[0] = strdup("tcptune-parse");
	argv[1] = strdup(name);
	argv[2] = NULL;
	execve(helper, argv, envp);
	_exit(127);
}

static void	job_end(struct parse_job *);

static void
on_answer(int fd, bool readable, bool writable, void *arg)
{
	struct parse_job	*j = arg;
	char			 chunk[16384];
	ssize_t			 n;

	(void)readable;
	(void)writable;
	n = read(fd, chunk, sizeof(chunk));
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		job_end(j);
		return;
	}
	if (j->len + (size_t)n > PW_MAX_BYTES) {
		j->too_long = true;
		job_end(j);
		return;
	}
	if ((j->buf = realloc(j->buf, j->len + (size_t)n)) == NULL)
		fatal("%s", __func__);
	memcpy(j->buf + j->len, chunk, (size_t)n);
	j->len += (size_t)n;
}

static void	job_reap(struct parse_job *);

/*
 * The timer wakes the loop; the monotonic clock says whether the time is
 * up: a timer that fires early (bench/daemon/timescale.so divides every
 * timer of the process) only re-arms for what is left.  Once the helper
 * is killed the same timer drives its reaping.
 */
static void
on_deadline(void *arg)
{
	struct parse_job	*j = arg;
	uint64_t		 now = tt_mono_ms();

	if (j->reaping) {
		job_reap(j);
		return;
	}
	if (now < j->deadline &&
	    ev_timer_start(j->timer, (unsigned)(j->deadline - now), false) == 0)
		return;
	j->timed_out = true;
	job_end(j);
}

/* Read the answer on j->loop, until its end or the deadline: 0 or -1. */
static int
job_watch(struct parse_job *j)
{
	j->deadline = tt_mono_ms() + PARSE_DEADLINE_MS;
	if ((j->timer == NULL &&
	    (j->timer = ev_timer_new(j->loop, on_deadline, j)) == NULL) ||
	    ev_timer_start(j->timer, PARSE_DEADLINE_MS, false) == -1 ||
	    ev_fd_add(j->loop, j->sock, on_answer, j) == -1)
		return -1;
	return 0;
}

/* ---- ending the helper: never waited on */

/* Helpers killed but not yet reaped: reaped at each later read. */
static pid_t	left[PARSE_LEFT_MAX];

static void
reap_left(void)
{
	int	i, status;

	for (i = 0; i < PARSE_LEFT_MAX; i++)
		if (left[i] > 0 && (waitpid(left[i], &status, WNOHANG) != 0 ||
		    (kill(left[i], SIGKILL) == -1 && errno == ESRCH)))
			left[i] = 0;
}

/* pid is no one's to wait for now: on the list, or forgotten when full. */
static void
leave(pid_t pid)
{
	int	i;

	for (i = 0; i < PARSE_LEFT_MAX; i++)
		if (left[i] <= 0) {
			left[i] = pid;
			return;
		}
	log_warnx("parse helper %ld: not ended, and not reaped", (long)pid);
}

/*
 * Kill the helper (its answer has ended, or its time is up, or no one
 * waits for it any more), and reap it if it has ended: never a blocking
 * wait.  A SIGKILL that fails is remembered for the words (layer_why).
 */
static void
helper_kill(struct parse_job *j)
{
	j->kill_errno = kill(j->pid, SIGKILL) == -1 ? errno : 0;
	j->ended = waitpid(j->pid, &j->status, WNOHANG) == j->pid;
}

static int
killed_by(int sig, char *why, size_t len)
{
	return tt_why(why, len, "it was killed by signal %d (%s)", sig,
	    strsignal(sig));
}

/*
 * How the helper ended, in words, into why; 0 when it exited with 0 or
 * nothing is known against it.  A SIGKILL may be ours, after the end of
 * an answer, and is no failure then: *killed says it, and the answer is
 * judged on its own (layer_result), as it is when the helper has not
 * ended yet (its answer complete, its exit not seen within PARSE_REAP_MS,
 * or our kill refused).
 */
static int
layer_why(const struct parse_job *j, bool *killed, char *why, size_t len)
{
	*killed = false;
	if (j->timed_out && j->kill_errno != 0)
		return tt_why(why, len, "it did not answer within %d ms and "
		    "could not be killed: %s (tcptuned needs CAP_KILL to "
		    "signal the helper's uid)", PARSE_DEADLINE_MS,
		    strerror(j->kill_errno));
	if (j->timed_out)
		return tt_why(why, len, "it did not answer within %d ms and "
		    "was killed", PARSE_DEADLINE_MS);
	if (!j->ended)
		return 0;
	if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0)
		return 0;
	if (WIFEXITED(j->status))
		return tt_why(why, len, "it exited with status %d%s",
		    WEXITSTATUS(j->status), WEXITSTATUS(j->status) == 127 ?
		    " (it could not be started)" : "");
	if (WTERMSIG(j->status) == SIGKILL) {
		*killed = true;
		return 0;
	}
	return killed_by(WTERMSIG(j->status), why, len);
}

static const char *
layer_name(const struct parse_job *j)
{
	return j->layer == 0 ? j->path : j->managed;
}

/*
 * Start the helper on the layer's file (kept open here for said_allow_any
 * until the layer's result): 0, 1 when it started but cannot be watched
 * (it is to be reaped as timed out), or -1 and why.
 */
static int
layer_spawn(struct parse_job *j, char *why, size_t len)
{
	int	sp[2], fd = j->fds[j->layer], rv = 0;
	pid_t	self = getpid();

	/* No SOCK_CLOEXEC on macOS: the daemon is one thread, no race. */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == -1)
		return tt_why(why, len, "socketpair: %s", strerror(errno));
	(void)fcntl(sp[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(sp[1], F_SETFD, FD_CLOEXEC);
	if ((j->pid = fork()) == -1)
		rv = tt_why(why, len, "fork: %s", strerror(errno));
	else if (j->pid == 0)
		exec_helper(j->helper, self, sp[1], fd, layer_name(j));
	close(sp[1]);
	if (rv == -1) {
		close(sp[0]);
		return -1;
	}
	j->sock = sp[0];
	(void)fcntl(j->sock, F_SETFL, fcntl(j->sock, F_GETFL) | O_NONBLOCK);
	if (job_watch(j) == -1) {
		log_warn("parse helper: event loop");
		j->timed_out = true;	/* no loop to wait on: kill it */
		return 1;
	}
	return 0;
}

/*
 * Whether the layer's file, as the daemon opened it, says AllowAnySysctl
 * <true/> itself (parse_wire_says_allow_any): the helper's answer alone
 * never widens what root may write.  pread, at offset 0: the helper's
 * copy of the descriptor shares the file offset.
 */
static bool
said_allow_any(int fd)
{
	char	*buf;
	size_t	 len = 0;
	ssize_t	 n;
	bool	 said;

	if ((buf = malloc(TT_CONFIG_MAX_BYTES)) == NULL)
		fatal("%s", __func__);
	while (len < TT_CONFIG_MAX_BYTES && ((n = pread(fd, buf + len,
	    TT_CONFIG_MAX_BYTES - len, (off_t)len)) > 0 ||
	    (n == -1 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	said = fd != -1 && parse_wire_says_allow_any(buf, len) == 1;
	free(buf);
	return said;
}

/*
 * The layer's helper reaped and its answer checked: the layer's config,
 * or NULL with why in j->errs.  Ready for the next layer's helper.
 */
static struct config *
layer_result(struct parse_job *j)
{
	struct config	*cfg = NULL;
	char		 why[TT_TEXT_MAX];
	bool		 killed;

	if (!j->ended && j->pid > 0)
		leave(j->pid);
	if (layer_why(j, &killed, why, sizeof(why)) == -1 ||
	    (j->too_long && tt_why(why, sizeof(why), "its answer is longer "
	    "than any can be") == -1) || parse_wire_decode(j->buf, j->len,
	    layer_name(j), &cfg, &j->errs, why, sizeof(why)) == -1) {
		/* not a whole answer: the SIGKILL came before it, not ours */
		if (killed)
			killed_by(SIGKILL, why, sizeof(why));
		errlist_add(&j->errs, "%s: the parse helper %s failed: %s",
		    layer_name(j), j->helper, why);
		cfg = NULL;
	}
	if (cfg != NULL && cfg->allow_any_sysctl &&
	    !said_allow_any(j->fds[j->layer])) {
		errlist_add(&j->errs, "%s: the parse helper %s failed: its "
		    "answer allows any sysctl, and the file does not say "
		    "<key>AllowAnySysctl</key> <true/> in its top dict as "
		    "tcptuned reads it (an XML plist in UTF-8, the key "
		    "written plainly, once)", layer_name(j), j->helper);
		config_free(cfg);
		cfg = NULL;
	}
	if (j->fds[j->layer] != -1)
		close(j->fds[j->layer]);
	j->fds[j->layer] = -1;
	free(j->buf);
	j->buf = NULL;
	j->len = 0;
	j->too_long = j->timed_out = j->reaping = j->ended = false;
	j->kill_errno = 0;
	j->pid = -1;
	return cfg;
}

/* Both layers read: laid over each other, the policy and the catalogue. */
static struct config *
job_result(struct parse_job *j)
{
	struct config_target	 host = { catalogue_host_os(), NULL };
	struct config		*cfg;

	/* the answers are taken; their problems are in j->errs, in order */
	cfg = config_layers(j->layers[0], j->layers[1], j->managed != NULL,
	    &j->errs);
	j->layers[0] = j->layers[1] = NULL;
	/* the policy and this OS's catalogue: no parser needed here */
	return config_layers_finish(cfg, policy_load, (j->flags &
	    CONFIG_CHECK_OS) ? &host : NULL, &j->errs, NULL);
}

static void
job_free(struct parse_job *j)
{
	int	i;

	if (j->sock != -1) {
		ev_fd_del(j->loop, j->sock);
		close(j->sock);
	}
	for (i = 0; i < 2; i++) {
		if (j->fds[i] != -1)
			close(j->fds[i]);
		config_free(j->layers[i]);
	}
	errlist_clear(&j->errs);
	ev_timer_free(j->timer);
	free(j->buf);
	free(j->path);
	free(j->managed);
	free(j->helper);
	free(j);
}

/*
 * The layer's helper started and watched: true.  false when it could
 * not be: its failure in j->errs (one that started but cannot be
 * watched is reaped as timed out, which says so).
 */
static bool
layer_start(struct parse_job *j)
{
	char	why[TT_TEXT_MAX];
	int	rv;

	if ((rv = layer_spawn(j, why, sizeof(why))) == 0)
		return true;
	if (rv == 1) {		/* started, but no loop to read it on */
		helper_kill(j);
		config_free(layer_result(j));
	}
	else
		errlist_add(&j->errs, "%s: the parse helper %s failed: %s",
		    layer_name(j), j->helper, why);
	return false;
}

/* The managed file's helper, after the config's: true when it runs. */
static bool
next_layer(struct parse_job *j)
{
	if (j->layer == 1 || j->managed == NULL)
		return false;
	j->layer = 1;
	return layer_start(j);
}

/* The layer's helper has ended, or is left: the next layer, or the end. */
static void
layer_end(struct parse_job *j)
{
	struct config	*cfg;

	j->layers[j->layer] = layer_result(j);
	if (next_layer(j))
		return;
	cfg = job_result(j);
	j->done(cfg, &j->errs, j->arg);
	job_free(j);
}

/*
 * Reap the killed helper, without waiting: again from the timer, at
 * growing steps, until it has ended or PARSE_REAP_MS have passed.  A
 * helper our kill did not reach is not waited for at all.
 */
static void
job_reap(struct parse_job *j)
{
	if (!j->ended)
		j->ended = waitpid(j->pid, &j->status, WNOHANG) == j->pid;
	if (!j->ended && j->kill_errno == 0 && tt_mono_ms() < j->deadline) {
		j->reap_step = j->reap_step * 2 > PARSE_REAP_POLL_MS ?
		    PARSE_REAP_POLL_MS : j->reap_step * 2;
		if (ev_timer_start(j->timer, j->reap_step, false) == 0)
			return;
	}
	j->reaping = false;
	layer_end(j);
}

/*
 * A layer's answer ended, or its time is up: the helper killed and
 * reaped (job_reap), then the next layer's helper, or the caller learns
 * the result.
 */
static void
job_end(struct parse_job *j)
{
	ev_fd_del(j->loop, j->sock);
	close(j->sock);
	j->sock = -1;
	ev_timer_stop(j->timer);
	helper_kill(j);
	j->reaping = true;
	j->reap_step = 1;
	j->deadline = tt_mono_ms() + PARSE_REAP_MS;
	job_reap(j);
}

/* A read no one waits for any more (the daemon exiting). */
void
parse_cancel(struct parse_job *j)
{
	if (j == NULL)
		return;
	if (j->pid > 0) {
		helper_kill(j);
		if (!j->ended)
			leave(j->pid);
	}
	job_free(j);
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

static struct parse_job *
job_new(struct evloop *loop, const char *helper, const char *path,
    const char *managed, int flags)
{
	struct parse_job	*j;

	if ((j = calloc(1, sizeof(*j))) == NULL ||
	    (j->path = strdup(path)) == NULL ||
	    (j->helper = strdup(helper)) == NULL ||
	    (managed != NULL && (j->managed = strdup(managed)) == NULL))
		fatal("%s", __func__);
	j->loop = loop;
	j->flags = flags;
	j->sock = -1;
	j->pid = -1;
	j->fds[0] = j->fds[1] = -1;
	errlist_init(&j->errs);
	return j;
}

static void
errs_copy(struct errlist *to, const struct errlist *from)
{
	size_t	i;

	for (i = 0; i < from->n; i++)
		errlist_add(to, "%s", from->msg[i]);
}

/*
 * The first layer's helper, when both files could be opened: 0, or -1
 * with every error in errs (the job freed).
 */
static int
job_start(struct parse_job *j, struct errlist *errs)
{
	if (j->fds[0] != -1 && (j->fds[1] != -1 || j->managed == NULL) &&
	    layer_start(j))
		return 0;
	errs_copy(errs, &j->errs);
	job_free(j);
	return -1;
}

/*
 * Read path with managed over it when that file exists (NULL or "":
 * none), as config_load_layers() reads them, through the helper, on
 * loop: done(cfg, errs, arg) is called from loop with a config, or NULL
 * and every error, the helper's failure among them.  NULL when the read
 * could not start, its errors in errs (done is not called then).
 */
struct parse_job *
parse_begin(struct evloop *loop, const char *helper, const char *path,
    const char *managed, int flags, parse_done_fn done, void *arg,
    struct errlist *errs)
{
	struct parse_job	*j;
	char			 why[TT_TEXT_MAX];
	bool			 have_managed;

	reap_left();
	have_managed = config_managed_present(managed);
	if (parse_helper_check(helper, why, sizeof(why)) == -1) {
		errlist_add(errs, "%s: cannot use the parse helper: %s", path,
		    why);
		return NULL;
	}
	j = job_new(loop, helper, path, have_managed ? managed : NULL, flags);
	j->done = done;
	j->arg = arg;
	j->fds[0] = open_checked(path, errs);
	if (have_managed)
		j->fds[1] = open_checked(managed, errs);
	return job_start(j, errs) == 0 ? j : NULL;
}

struct sync_read {
	struct evloop	*loop;
	struct errlist	*errs;
	struct config	*cfg;
};

static void
sync_done(struct config *cfg, struct errlist *errs, void *arg)
{
	struct sync_read	*r = arg;

	r->cfg = cfg;
	errs_copy(r->errs, errs);
	ev_stop(r->loop);
}

/*
 * The same, waited for on a private loop: a config, or NULL with every
 * error in errs.
 */
struct config *
parse_config(const char *helper, const char *path, const char *managed,
    int flags, struct errlist *errs)
{
	struct sync_read	r;

	memset(&r, 0, sizeof(r));
	r.errs = errs;
	if ((r.loop = ev_new()) == NULL) {
		errlist_add(errs, "%s: the parse helper %s failed: event loop: "
		    "%s", path, helper, strerror(errno));
		return NULL;
	}
	if (parse_begin(r.loop, helper, path, managed, flags, sync_done, &r,
	    errs) != NULL && ev_run(r.loop) == -1)
		log_warn("parse helper: event loop");
	ev_free(r.loop);
	return r.cfg;
}

/*
 * tcptuned -n through the helper: every problem of both files, one a
 * line, on err, or "configuration OK" on out after naming the managed
 * file in use, as config_report_layers() prints them.  0 when good, 1
 * otherwise.
 */
int
parse_report(const char *helper, const char *path, const char *managed,
    int flags, FILE *out, FILE *err)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = parse_config(helper, path, managed, flags, &errs);
	return config_report_result(cfg, &errs, path, out, err);
}
