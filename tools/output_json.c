/*
 * tcptunectl's JSON output (--json), as bgpctl's output_json.c: one
 * struct output of three (output.c, output_prom.c), printing replies that
 * client.c has already checked.
 *
 * The JSON shapes are an interface: fields may be added, never renamed or
 * removed.  Times are ISO-8601 UTC strings, or null for "never".
 *
 * status:
 *   { "daemon": { "pid": int, "version": str, "backend": str,
 *       "config_path": str, "started": time, "now": time,
 *       "uptime": seconds, "check_interval": seconds, "checks": int,
 *       "nkeys": int, "paused": bool, "restore_on_exit": bool,
 *       "paused_by": null | { "since": time|null, "uid": int|null,
 *           "pid": int|null, "command": str|null },
 *       "lease": null | { "uid": int, "pid": int|null, "seconds_left": int },
 *       "last_reload": time|null, "last_reload_ok": bool|null,
 *       "last_reload_message": str, "state_problem": str|null,
 *       "damaged_originals": { "count": int,
 *           "paths": [ str, ... ] (oldest first; fewer than count when
 *           they do not all fit) } },
 *     "keys": [ { "name": str,
 *       "state": "pending"|"in force"|"clamped"|"refused"|"contested"|
 *           "paused"|"drifted",
 *       "mode": "enforce"|"once"|"at-least", "on_reject": "fail"|"clamp",
 *       "wanted": str, "applied": str|null, "current": str|null,
 *       "original": str|null,
 *       "error": null | { "errno": "ERANGE", "message": str },
 *       "corrections": int, "last_change": time|null,
 *       "next_attempt": time|null, "note": str,
 *       "also_set_by": str }, ... ],
 *     "all_in_force": bool }
 * reload, restore, resume:
 *   { "result": "ok"|"failed"|"denied"|"bad request", "message": str,
 *     "errors": [ "file:line: message", ... ] }
 * version:
 *   { "version": str, "protocol": int }
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include "tcptunectl.h"
#include "json.h"
#include "advise/advise.h"
#include "diagnose/diagnose.h"
#include "measure/measure.h"

static struct json	js;

static void
json_error(const char *key, int err)
{
	char	buf[32];

	if (err == 0) {
		json_null(&js, key);
		return;
	}
	json_open(&js, key, '{');
	json_str(&js, "errno", errno_label(err, buf, sizeof(buf)));
	json_str(&js, "message", strerror(err));
	json_close(&js, '}');
}

/* An int, or null where the daemon does not know it (-1). */
static void
json_known(const char *key, int32_t v)
{
	if (v >= 0)
		json_int(&js, key, v);
	else
		json_null(&js, key);
}

/* "paused_by": who paused and when, null when not paused by a user. */
static void
json_paused_by(const struct msg_daemon_info *di)
{
	if (!di->paused || di->lease) {
		json_null(&js, "paused_by");
		return;
	}
	json_open(&js, "paused_by", '{');
	json_time(&js, "since", di->paused_since);
	json_known("uid", di->paused_uid);
	json_known("pid", di->paused_pid);
	json_str(&js, "command", di->paused_command[0] != '\0' ?
	    di->paused_command : NULL);
	json_close(&js, '}');
}

/* "damaged_originals": how many the daemon keeps and their paths. */
static void
json_damaged(const struct msg_daemon_info *di)
{
	char	 paths[sizeof(di->damaged_copies)];
	char	*p, *next;

	json_open(&js, "damaged_originals", '{');
	json_uint(&js, "count", di->ndamaged);
	json_open(&js, "paths", '[');
	tt_strlcpy(paths, di->damaged_copies, sizeof(paths));
	for (p = paths; p != NULL && *p != '\0'; p = next) {
		if ((next = strchr(p, '\n')) != NULL)
			*next++ = '\0';
		json_str(&js, NULL, p);
	}
	json_close(&js, ']');
	json_close(&js, '}');
}

/*
 * The backend's word (sysctl-dir, bsd, windows-cim), as tcptunectl(8)
 * promises it to a program: without the tree the text form names after
 * it ("sysctl-dir (/proc/sys)").
 */
static void
json_backend(const char *backend)
{
	char	word[sizeof(((struct msg_daemon_info *)0)->backend)];

	tt_strlcpy(word, backend, sizeof(word));
	word[strcspn(word, " ")] = '\0';
	json_str(&js, "backend", word);
}

static void
json_daemon(const struct msg_daemon_info *di)
{
	json_open(&js, "daemon", '{');
	json_int(&js, "pid", di->pid);
	json_str(&js, "version", di->version);
	json_backend(di->backend);
	json_str(&js, "config_path", di->config_path);
	json_str(&js, "managed_path", di->managed_path[0] ? di->managed_path :
	    NULL);
	json_time(&js, "started", di->started);
	json_time(&js, "now", di->now);
	json_int(&js, "uptime", di->now - di->started);
	json_uint(&js, "check_interval", di->check_interval);
	json_uint(&js, "checks", di->checks);
	json_time(&js, "last_check", di->last_check);
	json_uint(&js, "nkeys", di->nkeys);
	json_bool(&js, "paused", di->paused != 0);
	json_bool(&js, "restore_on_exit", di->restore_on_exit != 0);
	json_paused_by(di);
	if (di->lease) {
		json_open(&js, "lease", '{');
		json_int(&js, "uid", di->lease_uid);
		if (di->lease_pid >= 0)
			json_int(&js, "pid", di->lease_pid);
		else
			json_null(&js, "pid");
		json_uint(&js, "seconds_left", di->lease_left);
		json_close(&js, '}');
	} else
		json_null(&js, "lease");
	json_time(&js, "last_reload", di->last_reload);
	if (di->last_reload == 0)
		json_null(&js, "last_reload_ok");
	else
		json_bool(&js, "last_reload_ok", di->last_reload_ok != 0);
	json_str(&js, "last_reload_message", di->last_reload_msg);
	json_str(&js, "state_problem", di->state_problem[0] ?
	    di->state_problem : NULL);
	json_damaged(di);
	json_close(&js, '}');
}

static void
json_key(const struct msg_key_status *ks)
{
	json_open(&js, NULL, '{');
	json_str(&js, "name", ks->name);
	json_str(&js, "state", key_state_name(ks->state));
	json_str(&js, "mode", key_mode_name(ks->mode));
	json_str(&js, "on_reject", on_reject_name(ks->on_reject));
	json_str(&js, "wanted", ks->wanted);
	json_str(&js, "source", ks->source);
	json_str(&js, "applied", ks->applied[0] ? ks->applied : NULL);
	json_str(&js, "current", ks->current[0] ? ks->current : NULL);
	json_str(&js, "original", ks->has_original ? ks->original : NULL);
	json_error("error", ks->err);
	json_uint(&js, "corrections", ks->corrections);
	json_time(&js, "last_change", ks->last_change);
	json_time(&js, "next_attempt", ks->next_attempt);
	json_str(&js, "note", ks->note);
	json_str(&js, "also_set_by", ks->others);
	json_close(&js, '}');
}

static int
json_status(const struct reply *r)
{
	size_t	i;

	json_begin(&js, stdout);
	json_open(&js, NULL, '{');
	json_daemon(&r->info);
	json_open(&js, "keys", '[');
	for (i = 0; i < r->nkeys; i++)
		json_key(&r->keys[i]);
	json_close(&js, ']');
	json_bool(&js, "all_in_force", reply_all_in_force(r));
	json_close(&js, '}');
	return 0;
}

static void
json_result(const char *cmd, const struct reply *r)
{
	size_t	i;

	(void)cmd;
	json_begin(&js, stdout);
	json_open(&js, NULL, '{');
	json_str(&js, "result", result_code_name(r->result.code));
	json_str(&js, "message", r->result.text);
	json_open(&js, "errors", '[');
	for (i = 0; i < r->nerrors; i++)
		json_str(&js, NULL, r->errors[i].text);
	json_close(&js, ']');
	json_close(&js, '}');
}

static void
json_version(void)
{
	json_begin(&js, stdout);
	json_open(&js, NULL, '{');
	json_str(&js, "version", PACKAGE_VERSION);
	json_int(&js, "protocol", TT_PROTO_VERSION);
	json_close(&js, '}');
}

#ifndef TT_CTL_QUICK
/* No bar chart in a document. */
static void
json_measure(FILE *f, const struct mreport *m, bool chart)
{
	(void)chart;
	mreport_json(f, m);
}
#endif

const struct output json_output = {
	.whole_stdout = true,
	.tells_unreachable = false,
	.status = json_status,
	.result = json_result,
	.version = json_version,
	.diagnose = diagnose_json,
#ifndef TT_CTL_QUICK	/* the quick one execs the full one for these */
	.advice = advise_json,
	.measure = json_measure,
	.measure_streams = mstreams_json,
#endif
};
