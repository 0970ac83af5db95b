/*
 * The control protocol's rules, shared by both ends: one payload size per
 * message type, bounded lengths, strings forced to terminate.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "proto.h"

struct msg_rule {
	uint32_t	 type;
	const char	*name;
	size_t		 size;
};

static const struct msg_rule msg_rules[] = {
	{ MSG_STATUS,		"status",	0 },
	{ MSG_RELOAD,		"reload",	sizeof(struct msg_change) },
	{ MSG_RESTORE,		"restore",	sizeof(struct msg_change) },
	{ MSG_RESUME,		"resume",	sizeof(struct msg_change) },
	{ MSG_LEASE,		"lease",	sizeof(struct msg_lease) },
	{ MSG_DIAGNOSE,		"diagnose",	sizeof(struct msg_diagnose) },
	{ MSG_DAEMON_INFO,	"daemon-info",	sizeof(struct msg_daemon_info) },
	{ MSG_KEY_STATUS,	"key-status",	sizeof(struct msg_key_status) },
	{ MSG_CONFIG_ERROR,	"config-error",	sizeof(struct msg_config_error) },
	{ MSG_RESULT,		"result",	sizeof(struct msg_result) },
	{ MSG_VERSION,		"version",	sizeof(struct msg_version) },
	{ MSG_END,		"end",		sizeof(struct msg_end) },
	{ MSG_DIAG_SUMMARY,	"diag-summary",	sizeof(struct msg_diag_summary) },
	{ MSG_FLOW,		"flow",		sizeof(struct msg_flow) },
};

static const struct msg_rule *
msg_rule(uint32_t type)
{
	size_t	i;

	for (i = 0; i < sizeof(msg_rules) / sizeof(msg_rules[0]); i++)
		if (msg_rules[i].type == type)
			return &msg_rules[i];
	return NULL;
}

/* The exact payload size of a type, or -1 for an unknown type. */
long
proto_payload_size(uint32_t type)
{
	const struct msg_rule	*r = msg_rule(type);

	return r ? (long)r->size : -1;
}

const char *
proto_type_name(uint32_t type)
{
	const struct msg_rule	*r = msg_rule(type);

	return r ? r->name : "unknown";
}

/*
 * 0 when the header is acceptable, 1 when only the version differs (the
 * peer gets a MSG_VERSION reply), -1 with a reason otherwise.  The version
 * is checked first so that a future client with new types is told about
 * versions rather than about an unknown type.
 */
int
proto_check_header(const struct msg_hdr *h, char *why, size_t whylen)
{
	long	size;

	if (h->version != TT_PROTO_VERSION) {
		snprintf(why, whylen, "protocol version %u, expected %u",
		    h->version, TT_PROTO_VERSION);
		return 1;
	}
	if (h->len > TT_PROTO_MAX_PAYLOAD) {
		snprintf(why, whylen, "payload of %u bytes exceeds %u",
		    h->len, TT_PROTO_MAX_PAYLOAD);
		return -1;
	}
	if ((size = proto_payload_size(h->type)) == -1) {
		snprintf(why, whylen, "unknown message type %u", h->type);
		return -1;
	}
	if (h->len != (uint32_t)size) {
		snprintf(why, whylen, "%s message of %u bytes, expected %ld",
		    proto_type_name(h->type), h->len, size);
		return -1;
	}
	if (h->flags != 0) {
		snprintf(why, whylen, "unknown flags 0x%x", h->flags);
		return -1;
	}
	return 0;
}

/* Header and payload into buf; returns the bytes used, 0 if too small. */
size_t
proto_encode(void *buf, size_t buflen, uint32_t type, uint32_t seq,
    const void *payload, size_t len)
{
	struct msg_hdr	h;

	if (len > TT_PROTO_MAX_PAYLOAD || buflen < sizeof(h) + len)
		return 0;
	memset(&h, 0, sizeof(h));
	h.type = type;
	h.len = (uint32_t)len;
	h.seq = seq;
	h.version = TT_PROTO_VERSION;
	memcpy(buf, &h, sizeof(h));
	if (len > 0)
		memcpy((char *)buf + sizeof(h), payload, len);
	return sizeof(h) + len;
}

#define TERMINATE(field)	((field)[sizeof(field) - 1] = '\0')

/*
 * A peer's free text made safe to log and show: a byte outside printable
 * ASCII (a newline that would forge a log line, an escape) becomes '?'.
 */
void
proto_printable(char *s)
{
	for (; *s != '\0'; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
}

/* Never trust a peer's strings to end: force every one of them to. */
void
proto_terminate_strings(uint32_t type, void *payload)
{
	struct msg_daemon_info	*di = payload;
	struct msg_key_status	*ks = payload;
	struct msg_config_error	*ce = payload;
	struct msg_result	*rs = payload;
	struct msg_diag_summary	*ds = payload;
	struct msg_flow		*fl = payload;

	switch (type) {
	case MSG_DAEMON_INFO:
		TERMINATE(di->version);
		TERMINATE(di->backend);
		TERMINATE(di->config_path);
		TERMINATE(di->managed_path);
		TERMINATE(di->last_reload_msg);
		TERMINATE(di->state_problem);
		TERMINATE(di->damaged_copies);
		TERMINATE(di->paused_command);
		proto_printable(di->paused_command);
		break;
	case MSG_RELOAD:
	case MSG_RESTORE:
	case MSG_RESUME:
		TERMINATE(((struct msg_change *)payload)->command);
		proto_printable(((struct msg_change *)payload)->command);
		break;
	case MSG_KEY_STATUS:
		TERMINATE(ks->name);
		TERMINATE(ks->wanted);
		TERMINATE(ks->applied);
		TERMINATE(ks->current);
		TERMINATE(ks->original);
		TERMINATE(ks->note);
		TERMINATE(ks->source);
		TERMINATE(ks->others);
		break;
	case MSG_CONFIG_ERROR:
		TERMINATE(ce->text);
		break;
	case MSG_RESULT:
		TERMINATE(rs->text);
		break;
	case MSG_DIAG_SUMMARY:
		TERMINATE(ds->rcv_ceiling_key);
		TERMINATE(ds->sampler);
		TERMINATE(ds->cannot_tell);
		TERMINATE(ds->problem);
		TERMINATE(ds->watch_why);
		break;
	case MSG_FLOW:
		TERMINATE(fl->local);
		TERMINATE(fl->remote);
		TERMINATE(fl->ceiling_key);
		break;
	default:
		break;
	}
}

static const char *const held_by_names[HELD_COUNT] = {
	[HELD_UNCLASSIFIED] = "unclassified",
	[HELD_RECEIVE_BUFFER] = "receive-buffer",
	[HELD_SEND_BUFFER] = "send-buffer",
	[HELD_PEER_WINDOW] = "peer-window",
	[HELD_NETWORK] = "network",
	[HELD_APPLICATION] = "application",
};

/* The names diagnose --json and the Prometheus label use. */
const char *
held_by_name(uint32_t held)
{
	return held < HELD_COUNT ? held_by_names[held] : "unknown";
}

static const char *const key_state_names[KS_STATE_COUNT] = {
	[KS_PENDING] = "pending",
	[KS_IN_FORCE] = "in force",
	[KS_CLAMPED] = "clamped",
	[KS_REFUSED] = "refused",
	[KS_CONTESTED] = "contested",
	[KS_PAUSED] = "paused",
	[KS_DRIFTED] = "drifted",
};

const char *
key_state_name(uint32_t state)
{
	return state < KS_STATE_COUNT ? key_state_names[state] : "unknown";
}

const char *
result_code_name(uint32_t code)
{
	switch (code) {
	case RESULT_OK:		return "ok";
	case RESULT_FAILED:	return "failed";
	case RESULT_DENIED:	return "denied";
	case RESULT_BAD_REQUEST: return "bad request";
	default:		return "unknown";
	}
}
