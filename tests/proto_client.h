/*
 * tests/proto_client.c: a blocking client of the wire protocol, for the
 * tests, fuzzers and benchmarks.  Both return 0, or -1 with errno (EPROTO
 * for a header that breaks lib/proto.h's rules, ETIMEDOUT, ECONNRESET).
 */
#ifndef TCPTUNE_PROTO_CLIENT_H
#define TCPTUNE_PROTO_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

int	 proto_write_msg(int, uint32_t, uint32_t, const void *, size_t);
int	 proto_read_msg(int, struct msg_hdr *, void *, size_t, int);

#endif
