/*
 * The byte transport under proto_msg.c's blocking messages, one per OS:
 * proto_io.c (a socket) and proto_io_win.c (a named pipe behind a C
 * runtime descriptor).  Both return 0, or -1 with errno.
 */
#ifndef PROTO_IO_H
#define PROTO_IO_H

#include <stddef.h>

/* All len bytes of buf to fd, however many writes that takes. */
int	proto_io_send(int, const void *, size_t);
/* Exactly len bytes from fd, each part waited for at most timeout_ms;
 * ETIMEDOUT, or ECONNRESET for an end of file before len. */
int	proto_io_recv(int, void *, size_t, int);

#endif
