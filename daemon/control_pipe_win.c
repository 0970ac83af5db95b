/*
 * The control server's Windows transport: the named pipe \\.\pipe\tcptune
 * (control_posix.c is the AF_UNIX side; control.c does the protocol).
 *
 * Why a named pipe rather than AF_UNIX (Windows 10 1803+): a pipe carries
 * a security descriptor of its own and tells the server who the client is
 * (ImpersonateNamedPipeClient), and it needs no file in a directory whose
 * ACL would then matter; OpenVPN's interactive service does the same.
 *
 *   - The pipe's owner: SYSTEM (Administrators when not run as the
 *     service), which tcptunectl checks.  Its DACL: SYSTEM and
 *     Administrators full control; Everyone read and write data only,
 *     not FILE_CREATE_PIPE_INSTANCE, so nobody else
 *     can add an instance and answer in our name; network logons denied,
 *     and PIPE_REJECT_REMOTE_CLIENTS.  The first instance is made with
 *     FILE_FLAG_FIRST_PIPE_INSTANCE: if the name exists (another tcptuned,
 *     or a program squatting on it) the daemon refuses to start.
 *   - Who: after the client's first bytes, ImpersonateNamedPipeClient,
 *     OpenThreadToken, RevertToSelf; privileged when the token's user is
 *     LocalSystem or CheckTokenMembership finds BUILTIN\Administrators
 *     enabled (an elevated prompt: UAC's filtered token has it deny-only).
 *     Anything that cannot be read refuses the client: never assumed.
 *     The per-user id for control.c's limits is a hash of the user's SID.
 *   - PIPE_INSTANCES instances, each with one overlapped operation at a
 *     time (connect, read or write) on its own event in the loop
 *     (event_win.c).  More clients wait in WaitNamedPipe on their side.
 * Sources (Microsoft Learn, win32): CreateNamedPipeW, "Named Pipe
 * Security and Access Rights", "Named Pipe Server Using Overlapped I/O",
 * ImpersonateNamedPipeClient, CheckTokenMembership.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
#include <sddl.h>

#include "tcptuned.h"
#include "event.h"
#include "win.h"

#define PIPE_INSTANCES	16	/* within the loop's 64 handles */
#define PIPE_BUFSIZE	(64 * 1024)
/*
 * O:SY the owner, LocalSystem, set explicitly: tcptunectl refuses a pipe
 * whose owner is not SYSTEM or Administrators (client_transport_win.c).
 * A daemon run by an elevated Administrator rather than as the service
 * may not name SYSTEM as owner (CreateNamedPipeW fails with
 * ERROR_INVALID_OWNER: an owner must be the token's user or one of its
 * groups with SE_GROUP_OWNER, "Ownership of Objects", Microsoft Learn);
 * it then uses O:BA, the Administrators group its elevated token holds.
 * D:P protected; SY, BA: GENERIC_ALL; NU (network logons): denied; WD
 * (Everyone): exactly what tcptunectl opens with, FILE_READ_DATA (0x1) |
 * FILE_WRITE_DATA (0x2) | SYNCHRONIZE (0x100000) | READ_CONTROL
 * (0x20000, to read the owner), i.e. 0x120003: not
 * FILE_CREATE_PIPE_INSTANCE (0x4, FILE_APPEND_DATA's bit, which
 * GENERIC_WRITE and FILE_GENERIC_WRITE include), nor the attribute, EA,
 * WRITE_DAC and WRITE_OWNER rights ("Named Pipe Security and Access
 * Rights").
 */
#define PIPE_DACL	L"D:P(D;;GA;;;NU)(A;;GA;;;SY)(A;;GA;;;BA)(A;;0x120003;;;WD)"
#define PIPE_SDDL	L"O:SY" PIPE_DACL
#define PIPE_SDDL_ADMIN	L"O:BA" PIPE_DACL

enum inst_state {
	IS_LISTENING,	/* ConnectNamedPipe in flight */
	IS_CONNECTED,	/* connected at once: nothing in flight */
	IS_READING,	/* ReadFile in flight */
	IS_WRITING,	/* WriteFile in flight */
	IS_IDLE,	/* connected, nothing in flight: waits for a kick */
	IS_KICKED,	/* the event was set by hand: look again */
	IS_LINGERING	/* replied and done: ReadFile until the client closes */
};

struct control;

struct inst {
	struct control		*ctl;
	HANDLE			 pipe;
	OVERLAPPED		 ov;
	enum inst_state		 state;
	bool			 wrote;		/* a reply went out */
	bool			 input_ended;	/* the client closed its end */
	struct ctl_client	*client;	/* NULL until identified */
	char			 buf[sizeof(struct msg_hdr) +
				    TT_PROTO_MAX_PAYLOAD];
};

struct control {
	wchar_t			 name[TT_WPATH_MAX];
	char			 path[TT_WPATH_MAX];
	PSECURITY_DESCRIPTOR	 sd;
	HANDLE			 first;		/* made by control_bind */
	struct evloop		*loop;
	struct ctl_server	*srv;
	struct ev_timer		*idle_timer;
	struct inst		 inst[PIPE_INSTANCES];
	size_t			 ninst;
};

static void	inst_pump(struct inst *);
static void	inst_listen(struct inst *);

static HANDLE
make_instance(struct control *ctl, bool first)
{
	SECURITY_ATTRIBUTES	sa;

	memset(&sa, 0, sizeof(sa));
	sa.nLength = sizeof(sa);
	sa.lpSecurityDescriptor = ctl->sd;
	return CreateNamedPipeW(ctl->name, PIPE_ACCESS_DUPLEX |
	    FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0),
	    PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT |
	    PIPE_REJECT_REMOTE_CLIENTS, PIPE_UNLIMITED_INSTANCES, PIPE_BUFSIZE,
	    PIPE_BUFSIZE, 0, &sa);
}

/* ---- who the client is */

static bool
token_user_is_system(HANDLE tok)
{
	BYTE		 buf[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
	BYTE		 sys[SECURITY_MAX_SID_SIZE];
	TOKEN_USER	*tu = (TOKEN_USER *)buf;
	DWORD		 len = sizeof(sys), got;

	return GetTokenInformation(tok, TokenUser, buf, sizeof(buf), &got) &&
	    CreateWellKnownSid(WinLocalSystemSid, NULL, sys, &len) &&
	    EqualSid(tu->User.Sid, sys);
}

static int
token_user_id(HANDLE tok, unsigned long *id, char *text, size_t len)
{
	BYTE		 buf[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
	TOKEN_USER	*tu = (TOKEN_USER *)buf;
	DWORD		 got;
	char		*s;

	if (!GetTokenInformation(tok, TokenUser, buf, sizeof(buf), &got) ||
	    !ConvertSidToStringSidA(tu->User.Sid, &s))
		return -1;
	*id = (unsigned long)fnv1a64(s, strlen(s));
	tt_strlcpy(text, s, len);
	LocalFree(s);
	return 0;
}

/* The client's identity from its token; -1 when it cannot be read. */
static int
identify(HANDLE pipe, struct ctl_peer *peer, char *sid, size_t sidlen)
{
	BYTE	admins[SECURITY_MAX_SID_SIZE];
	DWORD	len = sizeof(admins);
	HANDLE	tok = NULL;
	BOOL	member = FALSE;
	int	rv = -1;

	if (!ImpersonateNamedPipeClient(pipe))
		return -1;
	if (!OpenThreadToken(GetCurrentThread(), TOKEN_QUERY, TRUE, &tok))
		tok = NULL;
	if (!RevertToSelf())
		fatalx("control: RevertToSelf failed: cannot go on as the "
		    "client");
	if (tok == NULL)
		return -1;
	if (token_user_id(tok, &peer->user, sid, sidlen) == 0 &&
	    CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, admins,
	    &len) && CheckTokenMembership(tok, admins, &member)) {
		peer->privileged = member || token_user_is_system(tok);
		rv = 0;
	}
	CloseHandle(tok);
	return rv;
}

/* ---- one instance */

static void
inst_drop(struct inst *in)
{
	DWORD	n;

	if (in->state == IS_READING || in->state == IS_WRITING ||
	    in->state == IS_LINGERING) {
		CancelIoEx(in->pipe, &in->ov);
		GetOverlappedResult(in->pipe, &in->ov, &n, TRUE);
	}
	if (in->client != NULL) {
		ctl_client_free(in->client);
		in->client = NULL;
	}
	DisconnectNamedPipe(in->pipe);
	inst_listen(in);
}

/* Let the loop call us again: a kick, or a synchronous completion. */
static void
inst_kick_self(struct inst *in)
{
	in->state = IS_KICKED;
	SetEvent(in->ov.hEvent);
}

static void
inst_listen(struct inst *in)
{
	ResetEvent(in->ov.hEvent);
	in->state = IS_LISTENING;
	in->wrote = in->input_ended = false;
	if (ConnectNamedPipe(in->pipe, &in->ov))
		return;		/* the event is set */
	switch (GetLastError()) {
	case ERROR_IO_PENDING:
		break;
	case ERROR_PIPE_CONNECTED:	/* came between create and connect */
		in->state = IS_CONNECTED;
		SetEvent(in->ov.hEvent);
		break;
	default:	/* a client that left at once: listen again */
		DisconnectNamedPipe(in->pipe);
		SetEvent(in->ov.hEvent);
		in->state = IS_KICKED;
		break;
	}
}

static void
start_read(struct inst *in, size_t room)
{
	if (room > sizeof(in->buf))
		room = sizeof(in->buf);
	ResetEvent(in->ov.hEvent);
	in->state = IS_READING;
	if (!ReadFile(in->pipe, in->buf, (DWORD)room, NULL, &in->ov) &&
	    GetLastError() != ERROR_IO_PENDING && GetLastError() !=
	    ERROR_MORE_DATA) {
		/* the client went away; nothing is in flight to wait for */
		in->state = IS_IDLE;
		inst_drop(in);
	}
}

static void
start_write(struct inst *in, const void *out, size_t len)
{
	ResetEvent(in->ov.hEvent);
	in->state = IS_WRITING;
	if (len > PIPE_BUFSIZE)
		len = PIPE_BUFSIZE;
	if (!WriteFile(in->pipe, out, (DWORD)len, NULL, &in->ov) &&
	    GetLastError() != ERROR_IO_PENDING) {
		in->state = IS_IDLE;
		inst_drop(in);
	}
}

/*
 * Done with a client that has not closed its end, after a reply (a
 * MSG_VERSION, then the close proto.h promises): DisconnectNamedPipe now
 * would discard what the client has not read yet ("When the server
 * process disconnects a pipe instance, any unread data in the pipe is
 * discarded", DisconnectNamedPipe, Microsoft Learn), and FlushFileBuffers,
 * which waits for the client to read it, would stop the daemon's only
 * thread.  So the instance reads, dropping what comes, until the client
 * closes (ERROR_BROKEN_PIPE) or the idle sweep ends it: the close the
 * client sees comes after the reply, never instead of it.  A socket's
 * close keeps what was sent: control_posix.c needs none of this.
 */
static void
start_linger(struct inst *in)
{
	ResetEvent(in->ov.hEvent);
	in->state = IS_LINGERING;
	if (!ReadFile(in->pipe, in->buf, sizeof(in->buf), NULL, &in->ov) &&
	    GetLastError() != ERROR_IO_PENDING && GetLastError() !=
	    ERROR_MORE_DATA) {
		in->state = IS_IDLE;	/* closed already: nothing in flight */
		inst_drop(in);
	}
}

/* The next operation, as control.c's state for the client says. */
static void
inst_pump(struct inst *in)
{
	const void	*out;
	size_t		 len, room;

	out = ctl_client_output(in->client, &len);
	if (len > 0) {
		start_write(in, out, len);
		return;
	}
	if (ctl_client_finished(in->client)) {
		if (in->wrote && !in->input_ended)
			start_linger(in);
		else
			inst_drop(in);
		return;
	}
	if ((room = ctl_client_room(in->client)) > 0) {
		start_read(in, room);
		return;
	}
	ResetEvent(in->ov.hEvent);
	in->state = IS_IDLE;	/* a request being answered: wait for kick */
}

/* The first bytes came: now the client can be asked who it is. */
static void
first_input(struct inst *in, DWORD n)
{
	struct ctl_peer	peer;
	char		sid[128];

	memset(&peer, 0, sizeof(peer));
	if (identify(in->pipe, &peer, sid, sizeof(sid)) == -1) {
		ctl_server_log(in->ctl->srv, NULL, TT_LOG_ERR, "control: "
		    "cannot read the client's identity (%lu): refusing the "
		    "connection", (unsigned long)GetLastError());
		inst_drop(in);
		return;
	}
	ctl_server_log(in->ctl->srv, &peer, TT_LOG_DEBUG, "control: client "
	    "%s%s", sid, peer.privileged ? " (Administrators or SYSTEM)" : "");
	if ((in->client = ctl_client_new(in->ctl->srv, &peer, in)) == NULL) {
		inst_drop(in);
		return;
	}
	ctl_client_input(in->client, in->buf, n);
	inst_pump(in);
}

static void
read_done(struct inst *in, BOOL ok, DWORD n)
{
	if (!ok && GetLastError() != ERROR_MORE_DATA) {
		/* ERROR_BROKEN_PIPE: the client closed, both ways */
		if (in->client == NULL) {
			inst_drop(in);
			return;
		}
		in->input_ended = true;
		ctl_client_input_end(in->client);
		inst_pump(in);
		return;
	}
	if (in->client == NULL) {
		first_input(in, n);
		return;
	}
	if (n > 0)
		ctl_client_input(in->client, in->buf, n);
	inst_pump(in);
}

static void
inst_event(void *arg)
{
	struct inst	*in = arg;
	DWORD		 n = 0;
	BOOL		 ok;

	switch (in->state) {
	case IS_LISTENING:
		ok = GetOverlappedResult(in->pipe, &in->ov, &n, FALSE);
		if (!ok && GetLastError() != ERROR_PIPE_CONNECTED) {
			DisconnectNamedPipe(in->pipe);
			inst_listen(in);
			return;
		}
		start_read(in, sizeof(struct msg_hdr));
		break;
	case IS_CONNECTED:
		start_read(in, sizeof(struct msg_hdr));
		break;
	case IS_READING:
		ok = GetOverlappedResult(in->pipe, &in->ov, &n, FALSE);
		read_done(in, ok, n);
		break;
	case IS_WRITING:
		if (!GetOverlappedResult(in->pipe, &in->ov, &n, FALSE)) {
			inst_drop(in);	/* the client went away mid-reply */
			return;
		}
		if (n > 0)
			in->wrote = true;
		ctl_client_sent(in->client, n);
		inst_pump(in);
		break;
	case IS_LINGERING:
		/* what it sends now is not read: only its close is awaited */
		if (GetOverlappedResult(in->pipe, &in->ov, &n, FALSE) ||
		    GetLastError() == ERROR_MORE_DATA)
			start_linger(in);
		else
			inst_drop(in);
		break;
	case IS_KICKED:
		if (in->client == NULL)
			inst_listen(in);
		else
			inst_pump(in);
		break;
	case IS_IDLE:
		ResetEvent(in->ov.hEvent);
		break;
	}
}

/* ---- what control.c asks of the transport */

static void
io_kick(void *arg)
{
	struct inst	*in = arg;

	if (in->state == IS_IDLE)
		inst_kick_self(in);
}

/* A pipe whose client closed fails PeekNamedPipe with ERROR_BROKEN_PIPE. */
static bool
io_gone(void *arg)
{
	struct inst	*in = arg;

	return !PeekNamedPipe(in->pipe, NULL, 0, NULL, NULL, NULL);
}

static void
idle_sweep(void *arg)
{
	struct control	*ctl = arg;
	time_t		 now = tt_mono();
	size_t		 i;

	for (i = 0; i < ctl->ninst; i++) {
		struct inst *in = &ctl->inst[i];

		if (in->client != NULL && ctl_client_idle(in->client, now) >=
		    CONTROL_IDLE_TIMEOUT) {
			ctl_server_log(ctl->srv, ctl_client_peer(in->client),
			    TT_LOG_DEBUG, "control: closing an idle client");
			inst_drop(in);
		}
	}
	ctl_server_log_tick(ctl->srv);	/* counts of lines not logged */
}

/* ---- the interface */

static struct control *
bind_fail(struct control *ctl, char *why, size_t len, const char *text)
{
	tt_strlcpy(why, text, len);
	if (ctl->sd != NULL)
		LocalFree(ctl->sd);
	free(ctl);
	return NULL;
}

/*
 * The first instance, before any sysctl is touched: the name is ours or
 * the daemon does not start.
 */
struct control *
control_bind(const char *path, char *why, size_t len)
{
	struct control	*ctl;
	char		 text[TT_TEXT_MAX], err[200];
	DWORD		 e;

	if ((ctl = calloc(1, sizeof(*ctl))) == NULL)
		return NULL;
	tt_strlcpy(ctl->path, path, sizeof(ctl->path));
	if (win_wpath(path, ctl->name, TT_WPATH_MAX) == -1)
		return bind_fail(ctl, why, len, "not a usable pipe name");
	if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(PIPE_SDDL,
	    SDDL_REVISION_1, &ctl->sd, NULL))
		return bind_fail(ctl, why, len, "cannot build the pipe's "
		    "security descriptor");
	ctl->first = make_instance(ctl, true);
	if (ctl->first == INVALID_HANDLE_VALUE &&
	    GetLastError() == ERROR_INVALID_OWNER) {
		/* not LocalSystem: owned by Administrators instead */
		LocalFree(ctl->sd);
		ctl->sd = NULL;
		if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
		    PIPE_SDDL_ADMIN, SDDL_REVISION_1, &ctl->sd, NULL))
			return bind_fail(ctl, why, len, "cannot build the "
			    "pipe's security descriptor");
		ctl->first = make_instance(ctl, true);
	}
	if (ctl->first == INVALID_HANDLE_VALUE) {
		e = GetLastError();
		win_strerror(e, err, sizeof(err));
		snprintf(text, sizeof(text), "%s: %s", path,
		    e == ERROR_ACCESS_DENIED || e == ERROR_PIPE_BUSY ?
		    "the name is taken: another tcptuned, or another program, "
		    "holds it" : err);
		return bind_fail(ctl, why, len, text);
	}
	return ctl;
}

static int
add_instance(struct control *ctl, HANDLE pipe)
{
	struct inst	*in = &ctl->inst[ctl->ninst];

	in->ctl = ctl;
	in->pipe = pipe;
	in->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	if (in->ov.hEvent == NULL ||
	    ev_handle_add(ctl->loop, in->ov.hEvent, inst_event, in) == -1) {
		if (in->ov.hEvent != NULL)
			CloseHandle(in->ov.hEvent);
		return -1;
	}
	ctl->ninst++;
	inst_listen(in);
	return 0;
}

int
control_start(struct control *ctl, struct evloop *loop,
    const struct control_ops *ops)
{
	static const struct ctl_io	io = { io_kick, io_gone };
	HANDLE				pipe;

	ctl->loop = loop;
	ctl->srv = ctl_server_new(ops, &io, PIPE_INSTANCES);
	ctl->idle_timer = ev_timer_new(loop, idle_sweep, ctl);
	if (ctl->srv == NULL || ctl->idle_timer == NULL ||
	    ev_timer_start(ctl->idle_timer, 1000 * CONTROL_IDLE_TIMEOUT / 3,
	    true) == -1 || add_instance(ctl, ctl->first) == -1) {
		log_warnx("control: cannot start the pipe server");
		return -1;
	}
	ctl->first = INVALID_HANDLE_VALUE;
	while (ctl->ninst < PIPE_INSTANCES) {
		if ((pipe = make_instance(ctl, false)) == INVALID_HANDLE_VALUE) {
			log_warnx("control: %zu pipe instances only (%lu)",
			    ctl->ninst, (unsigned long)GetLastError());
			break;
		}
		if (add_instance(ctl, pipe) == -1) {
			CloseHandle(pipe);
			break;
		}
	}
	return 0;
}

void
control_close(struct control *ctl)
{
	size_t	i;
	DWORD	n;

	if (ctl == NULL)
		return;
	for (i = 0; i < ctl->ninst; i++) {
		struct inst *in = &ctl->inst[i];

		CancelIoEx(in->pipe, NULL);
		GetOverlappedResult(in->pipe, &in->ov, &n, TRUE);
		if (in->client != NULL)
			ctl_client_free(in->client);
		ev_handle_del(ctl->loop, in->ov.hEvent);
		CloseHandle(in->ov.hEvent);
		CloseHandle(in->pipe);
	}
	if (ctl->first != INVALID_HANDLE_VALUE && ctl->first != NULL)
		CloseHandle(ctl->first);
	ev_timer_free(ctl->idle_timer);
	ctl_server_free(ctl->srv);
	LocalFree(ctl->sd);
	free(ctl);
}
