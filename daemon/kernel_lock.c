/*
 * What both sides of the kernel lock (kernel_lock_posix.c,
 * kernel_lock_win.c) say the same way: the holder's identity, written as
 * "key value" lines beside the lock, and the refusal a second daemon
 * makes from it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"
#include "kernel_lock.h"

/* One "key value" line of the holder's text, control bytes made '?'. */
static void
identity_field(const char *text, const char *key, char *out, size_t len)
{
	const char	*p;
	size_t		 klen = strlen(key), i;

	tt_strlcpy(out, "?", len);
	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, key, klen) != 0 || p[klen] != ' ')
			continue;
		p += klen + 1;
		for (i = 0; i + 1 < len && p[i] != '\0' && p[i] != '\n' &&
		    p[i] != '\r'; i++)
			out[i] = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ?
			    '?' : p[i];
		out[i] = '\0';
		return;
	}
}

/* The holder's lines: its pid, socket (or pipe) and state directory. */
int
kernel_lock_identity(char *text, size_t len, unsigned long pid,
    const char *socket_path, const char *state_dir)
{
	char	esock[4096], estate[4096];
	int	n;

	tt_escape(esock, sizeof(esock), socket_path);
	tt_escape(estate, sizeof(estate), state_dir);
	n = snprintf(text, len, "pid %lu\nsocket %s\nstate %s\n", pid, esock,
	    estate);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* The second daemon's refusal, naming the holder from its lines. */
void
kernel_lock_refusal(const char *text, const char *unit, const char *lock,
    char *why, size_t len)
{
	char	pid[32], sock[1024], state[1024];

	identity_field(text, "pid", pid, sizeof(pid));
	identity_field(text, "socket", sock, sizeof(sock));
	identity_field(text, "state", state, sizeof(state));
	snprintf(why, len, "another tcptuned (pid %s, socket %s, state %s) "
	    "already manages the sysctls of %s; stop it first (it holds %s)",
	    pid, sock, state, unit, lock);
}

/*
 * Whether the holder's lines name pid, the process the kernel says holds
 * the lock (-1: it does not say, and the lines are believed).
 */
int
kernel_lock_held_by_writer(const char *text, long pid)
{
	char	named[32], *end;
	long	n;

	if (pid == -1)
		return 1;
	identity_field(text, "pid", named, sizeof(named));
	n = strtol(named, &end, 10);
	return end != named && *end == '\0' && n == pid;
}
