/*
 * What the parse helper (daemon/parse_helper.c, tcptune-parse) tells
 * tcptuned over their socketpair: a fixed binary answer with sizes, like
 * lib/proto.h, sent once and read to its end.  The daemon trusts none of
 * it: parse_wire_decode() checks every field again (docs/SECURITY.md,
 * "Privilege separation").  One file's answer: a helper parses one file
 * and never lays one over another, so nothing in it says "managed".
 *
 * Not lib/proto.h's messages, though built the same way: this answer is
 * one-shot, read to its end with a size known beforehand (PW_MAX_BYTES),
 * between two programs of one build (the sibling rule or one package),
 * so it needs no versions to negotiate nor seq; and none of it must ever
 * be taken from a control client, so its own magic keeps the two apart.
 *
 *   struct pw_head, then nerrs struct pw_error, then nkeys struct pw_key;
 *   the total length is exactly that, and every byte after a string's
 *   NUL is 0.  ok = 1: a config, nerrs = 0; ok = 0: nerrs >= 1, no keys.
 */
#ifndef TCPTUNE_PARSE_WIRE_H
#define TCPTUNE_PARSE_WIRE_H

#include <stdint.h>

#include "tcptune.h"

#define PW_MAGIC	0x54545057u	/* "TTPW" */
#define PW_VERSION	3u	/* 2: no managed fields (one file);
				   3: metrics_dir */
#define PW_MAX_ERRORS	512	/* config.c lists at most 101 a file */
#define PW_TEXT_MAX	1280	/* proto.h's TT_TEXT_MAX */

#define PW_RESTORE	0x1	/* RestoreOnExit */
#define PW_ALLOW_ANY	0x2	/* AllowAnySysctl */

struct pw_head {
	uint32_t	magic;
	uint32_t	version;
	uint32_t	ok;
	uint32_t	nerrs;
	uint32_t	nkeys;
	uint32_t	check_interval;
	uint32_t	set;		/* CONFIG_SET_* */
	uint32_t	flags;		/* PW_* */
	uint64_t	digest;
	char		metrics_dir[TT_METRICS_DIR_MAX];	/* "" none (3) */
};

struct pw_error {
	char		text[PW_TEXT_MAX];
};

struct pw_key {
	char		name[TT_NAME_MAX];
	char		value[TT_VALUE_MAX];
	uint32_t	numeric;
	uint32_t	mode;
	uint32_t	on_reject;
	int32_t		line;
	uint32_t	pad;
};

/* The largest answer there can be: what the daemon reads at most. */
#define PW_MAX_BYTES	(sizeof(struct pw_head) + \
	PW_MAX_ERRORS * sizeof(struct pw_error) + \
	TT_MAX_KEYS * sizeof(struct pw_key))

/* parse_wire.c */
int	 parse_wire_encode(const struct config *, const struct errlist *,
	    char **, size_t *);
int	 parse_wire_decode(const char *, size_t, const char *, struct config **,
	    struct errlist *, char *, size_t);
/* 1 when the config's bytes say AllowAnySysctl <true/>, else 0. */
int	 parse_wire_says_allow_any(const char *, size_t);

#endif /* TCPTUNE_PARSE_WIRE_H */
