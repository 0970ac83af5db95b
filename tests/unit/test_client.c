/*
 * tools/client.c: tcptunectl's side of the protocol, fed bytes.  Every
 * grammar, fed whole, a byte at a time and in odd chunks; every way a
 * reply can be wrong, with its exit status and its message (escaped).
 * The socket half (deadline, server uid) is tests/system/client.sh.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptunectl.h"

#define SEQ	4242

/* ---- building reply streams */

struct stream {
	unsigned char	*buf;
	size_t		 len;
	size_t		 cap;
};

static struct stream	st;

static void
st_reset(void)
{
	if (st.buf == NULL) {
		st.cap = 1024 * 1024;
		st.buf = malloc(st.cap);
		assert_non_null(st.buf);
	}
	st.len = 0;
}

static void
st_raw(const void *p, size_t len)
{
	assert_true(st.len + len <= st.cap);
	memcpy(st.buf + st.len, p, len);
	st.len += len;
}

static void
st_put(uint32_t type, uint32_t seq, const void *payload, size_t len)
{
	size_t	n;

	n = proto_encode(st.buf + st.len, st.cap - st.len, type, seq, payload,
	    len);
	assert_true(n > 0);
	st.len += n;
}

static void
st_hdr(uint32_t type, uint32_t len, uint32_t seq, uint16_t version,
    uint16_t flags)
{
	struct msg_hdr	h = { type, len, seq, version, flags };

	st_raw(&h, sizeof(h));
}

static void
put_info(uint32_t nkeys, uint32_t paused)
{
	struct msg_daemon_info	di;

	memset(&di, 0, sizeof(di));
	di.pid = 77;
	di.nkeys = nkeys;
	di.paused = paused;
	snprintf(di.version, sizeof(di.version), "0.1");
	snprintf(di.backend, sizeof(di.backend), "sysctl-dir");
	st_put(MSG_DAEMON_INFO, SEQ, &di, sizeof(di));
}

static void
put_key(const char *name, uint32_t state, uint32_t mode, uint32_t rej)
{
	struct msg_key_status	ks;

	memset(&ks, 0, sizeof(ks));
	snprintf(ks.name, sizeof(ks.name), "%s", name);
	snprintf(ks.wanted, sizeof(ks.wanted), "4096 131072 6291456");
	ks.state = state;
	ks.mode = mode;
	ks.on_reject = rej;
	st_put(MSG_KEY_STATUS, SEQ, &ks, sizeof(ks));
}

static void
put_error(const char *text)
{
	struct msg_config_error	ce;

	memset(&ce, 0, sizeof(ce));
	snprintf(ce.text, sizeof(ce.text), "%s", text);
	st_put(MSG_CONFIG_ERROR, SEQ, &ce, sizeof(ce));
}

static void
put_result(uint32_t code, const char *text)
{
	struct msg_result	rs;

	memset(&rs, 0, sizeof(rs));
	rs.code = code;
	snprintf(rs.text, sizeof(rs.text), "%s", text);
	st_put(MSG_RESULT, SEQ, &rs, sizeof(rs));
}

static void
put_diag(uint32_t ntracked)
{
	struct msg_diag_summary	ds;

	memset(&ds, 0, sizeof(ds));
	ds.ntracked = ntracked;
	st_put(MSG_DIAG_SUMMARY, SEQ, &ds, sizeof(ds));
}

static void
put_end(uint32_t count)
{
	struct msg_end	end = { count, 0 };

	st_put(MSG_END, SEQ, &end, sizeof(end));
}

/* ---- what tcptunectl says on stderr */

static char	errtext[8192];
static FILE	*errfile;
static int	 saved_stderr = -1;

static void
capture_start(void)
{
	fflush(stderr);
	errfile = tmpfile();
	assert_non_null(errfile);
	saved_stderr = dup(STDERR_FILENO);
	assert_true(saved_stderr != -1);
	assert_true(dup2(fileno(errfile), STDERR_FILENO) != -1);
}

static const char *
capture_stop(void)
{
	size_t	n;

	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	rewind(errfile);
	n = fread(errtext, 1, sizeof(errtext) - 1, errfile);
	errtext[n] = '\0';
	fclose(errfile);
	return errtext;
}

/* ---- feeding */

/*
 * The whole of st through a fresh parser in chunks of chunk bytes (0:
 * at once); the status, and what was said in *said.
 */
static int
feed(uint32_t request, struct reply *r, size_t chunk, enum feed *how,
    const char **said)
{
	struct reply_session	*s = malloc(sizeof(*s));
	size_t			 off = 0, n, used;
	int			 status = -1;

	assert_non_null(s);
	assert_int_equal(reply_begin(s, request, SEQ, r), CTL_OK);
	capture_start();
	*how = FEED_MORE;
	while (off < st.len && *how == FEED_MORE) {
		n = chunk == 0 || st.len - off < chunk ? st.len - off : chunk;
		*how = reply_feed(s, st.buf + off, n, &used, &status);
		assert_true(used <= n);
		if (*how == FEED_MORE)
			assert_int_equal(used, n);
		off += used;
	}
	if (*how == FEED_MORE)
		status = reply_eof(s, "/test.sock");
	*said = capture_stop();
	free(s);
	return status;
}

static const size_t chunks[] = { 0, 1, 7, 16, 4096 };
#define NCHUNKS	(sizeof(chunks) / sizeof(chunks[0]))

/* A good stream: done, in every chunking, nothing said. */
static void
expect_done(uint32_t request, struct reply *r)
{
	const char	*said;
	enum feed	 how;
	size_t		 i;

	for (i = 0; i < NCHUNKS; i++) {
		if (i > 0)
			reply_free(r);
		assert_int_equal(feed(request, r, chunks[i], &how, &said),
		    CTL_OK);
		assert_int_equal(how, FEED_DONE);
		assert_string_equal(said, "");
	}
}

/* A bad stream: the status and the message, in every chunking. */
static void
expect_fail(uint32_t request, int want, const char *msg)
{
	struct reply	 r;
	const char	*said;
	enum feed	 how;
	size_t		 i;

	for (i = 0; i < NCHUNKS; i++) {
		assert_int_equal(feed(request, &r, chunks[i], &how, &said),
		    want);
		if (strstr(said, msg) == NULL)
			fail_msg("chunk %zu: \"%s\" not in \"%s\"", chunks[i],
			    msg, said);
		reply_free(&r);
	}
}

/* ---- the grammars */

static void
test_status(void **arg)
{
	struct reply	r;

	(void)arg;
	st_reset();
	put_info(2, 0);
	put_key("net.a", KS_IN_FORCE, MODE_ENFORCE, REJECT_FAIL);
	put_key("net.b", KS_CLAMPED, MODE_AT_LEAST, REJECT_CLAMP);
	put_end(2);
	expect_done(MSG_STATUS, &r);
	assert_int_equal(r.request, MSG_STATUS);
	assert_int_equal(r.info.pid, 77);
	assert_int_equal(r.nkeys, 2);
	assert_string_equal(r.keys[1].name, "net.b");
	assert_int_equal(r.keys[1].state, KS_CLAMPED);
	assert_false(reply_all_in_force(&r));
	reply_free(&r);
	assert_null(r.keys);
}

/* Status ends with diagnose's summary: one snapshot, one connection. */
static void
test_status_with_diag(void **arg)
{
	struct reply	r;

	(void)arg;
	st_reset();
	put_info(1, 0);
	put_key("net.a", KS_IN_FORCE, MODE_ENFORCE, REJECT_FAIL);
	put_diag(9);
	put_end(1);
	expect_done(MSG_STATUS, &r);
	assert_int_equal(r.nkeys, 1);
	assert_true(r.has_diag);
	assert_int_equal(r.diag.ntracked, 9);
	reply_free(&r);
	/* without it (no flows sampled): no summary, not a bad reply */
	st_reset();
	put_info(0, 0);
	put_end(0);
	expect_done(MSG_STATUS, &r);
	assert_false(r.has_diag);
	reply_free(&r);
	/* the summary is the tail: a key after it is out of place */
	st_reset();
	put_info(2, 0);
	put_key("net.a", KS_IN_FORCE, MODE_ENFORCE, REJECT_FAIL);
	put_diag(9);
	put_key("net.b", KS_IN_FORCE, MODE_ENFORCE, REJECT_FAIL);
	put_end(2);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "unexpected key-status message");
}

static void
test_status_no_keys(void **arg)
{
	struct reply	r;

	(void)arg;
	st_reset();
	put_info(0, 0);
	put_end(0);
	expect_done(MSG_STATUS, &r);
	assert_int_equal(r.nkeys, 0);
	assert_true(reply_all_in_force(&r));
	reply_free(&r);
	/* paused: not all in force though every key is */
	st_reset();
	put_info(1, 1);
	put_key("net.a", KS_IN_FORCE, MODE_ONCE, REJECT_FAIL);
	put_end(1);
	expect_done(MSG_STATUS, &r);
	assert_false(reply_all_in_force(&r));
	reply_free(&r);
}

static void
test_reload(void **arg)
{
	struct reply	r;
	char		text[64];
	int		i;

	(void)arg;
	st_reset();
	for (i = 0; i < 70; i++) {	/* past the first 64 of the array */
		snprintf(text, sizeof(text), "t.conf:%d: bad", i + 1);
		put_error(text);
	}
	put_result(RESULT_FAILED, "the new configuration has 70 errors");
	put_end(70);
	expect_done(MSG_RELOAD, &r);
	assert_int_equal(r.nerrors, 70);
	assert_string_equal(r.errors[69].text, "t.conf:70: bad");
	assert_int_equal(r.result.code, RESULT_FAILED);
	reply_free(&r);
	st_reset();
	put_result(RESULT_OK, "reloaded");
	put_end(0);
	expect_done(MSG_RELOAD, &r);
	assert_int_equal(r.nerrors, 0);
	reply_free(&r);
}

static void
test_restore_resume(void **arg)
{
	struct reply	r;

	(void)arg;
	st_reset();
	put_result(RESULT_OK, "originals restored");
	put_end(0);
	expect_done(MSG_RESTORE, &r);
	assert_string_equal(r.result.text, "originals restored");
	reply_free(&r);
	expect_done(MSG_RESUME, &r);
	assert_int_equal(r.request, MSG_RESUME);
	reply_free(&r);
	st_reset();
	put_result(RESULT_DENIED, "");
	put_end(0);
	expect_done(MSG_RESTORE, &r);
	assert_int_equal(r.result.code, RESULT_DENIED);
	reply_free(&r);
}

/* Bytes after MSG_END are not taken: the daemon sends none. */
static void
test_trailing(void **arg)
{
	struct reply_session	*s = malloc(sizeof(*s));
	struct reply		 r;
	size_t			 used, len;
	int			 status;

	(void)arg;
	assert_non_null(s);
	st_reset();
	put_result(RESULT_OK, "ok");
	put_end(0);
	len = st.len;
	put_end(0);
	assert_int_equal(reply_begin(s, MSG_RESUME, SEQ, &r), CTL_OK);
	assert_int_equal(reply_feed(s, st.buf, st.len, &used, &status),
	    FEED_DONE);
	assert_int_equal(used, len);
	assert_int_equal(status, CTL_OK);
	/* and an empty feed changes nothing */
	assert_int_equal(reply_feed(s, st.buf, 0, &used, &status), FEED_DONE);
	assert_int_equal(used, 0);
	reply_free(&r);
	assert_int_equal(reply_begin(s, MSG_STATUS, SEQ, &r), CTL_OK);
	assert_int_equal(reply_feed(s, st.buf, 0, &used, &status), FEED_MORE);
	reply_free(&r);
	free(s);
}

static void
test_unknown_request(void **arg)
{
	struct reply_session	s;
	struct reply		r;

	(void)arg;
	capture_start();
	assert_int_equal(reply_begin(&s, MSG_KEY_STATUS, SEQ, &r),
	    CTL_PROTOCOL);
	assert_non_null(strstr(capture_stop(), "no such request 101"));
}

/* ---- bad replies */

static void
test_version_mismatch(void **arg)
{
	struct msg_version	v = { TT_PROTO_VERSION + 1, TT_PROTO_VERSION };
	char			want[128];

	(void)arg;
	st_reset();
	st_hdr(MSG_VERSION, sizeof(v), SEQ, TT_PROTO_VERSION + 1, 0);
	st_raw(&v, sizeof(v));
	snprintf(want, sizeof(want), "protocol version mismatch: tcptuned "
	    "speaks version %d, tcptunectl version %d", TT_PROTO_VERSION + 1,
	    TT_PROTO_VERSION);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, want);
	/* in this version too, and whatever its seq */
	st_reset();
	st_put(MSG_VERSION, 99, &v, sizeof(v));
	expect_fail(MSG_RESTORE, CTL_PROTOCOL, "protocol version mismatch");
	/* any other type of another version is a bad header */
	st_reset();
	st_hdr(MSG_END, sizeof(struct msg_end), SEQ, TT_PROTO_VERSION + 1, 0);
	snprintf(want, sizeof(want), "bad reply from tcptuned: protocol "
	    "version %d, expected %d", TT_PROTO_VERSION + 1, TT_PROTO_VERSION);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, want);
	st_reset();
	st_hdr(MSG_VERSION, 4, SEQ, TT_PROTO_VERSION + 1, 0);
	snprintf(want, sizeof(want), "protocol version %d",
	    TT_PROTO_VERSION + 1);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, want);
}

static void
test_bad_headers(void **arg)
{
	(void)arg;
	st_reset();
	st_hdr(999, 0, SEQ, TT_PROTO_VERSION, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "unknown message type 999");
	st_reset();
	st_hdr(MSG_END, 9, SEQ, TT_PROTO_VERSION, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL,
	    "end message of 9 bytes, expected 8");
	st_reset();
	st_hdr(MSG_END, TT_PROTO_MAX_PAYLOAD + 1, SEQ, TT_PROTO_VERSION, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "exceeds");
	st_reset();
	st_hdr(MSG_END, 8, SEQ, TT_PROTO_VERSION, 4);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "unknown flags 0x4");
}

static void
test_wrong_seq(void **arg)
{
	struct msg_end	end = { 0, 0 };

	(void)arg;
	st_reset();
	put_result(RESULT_OK, "");
	st_put(MSG_END, SEQ + 1, &end, sizeof(end));
	expect_fail(MSG_RESTORE, CTL_PROTOCOL,
	    "end message with sequence number 4243, expected 4242");
}

static void
test_unexpected_types(void **arg)
{
	(void)arg;
	/* status: the head must come first, and once */
	st_reset();
	put_end(0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL,
	    "unexpected end message in the reply to status");
	st_reset();
	put_info(0, 0);
	put_info(0, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL,
	    "unexpected daemon-info message in the reply to status");
	st_reset();
	put_info(0, 0);
	put_result(RESULT_OK, "");
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "unexpected result message");
	/* reload: no keys; one result; nothing between result and end */
	st_reset();
	put_key("net.a", KS_IN_FORCE, 0, 0);
	expect_fail(MSG_RELOAD, CTL_PROTOCOL,
	    "unexpected key-status message in the reply to reload");
	st_reset();
	put_end(0);
	expect_fail(MSG_RELOAD, CTL_PROTOCOL, "unexpected end message");
	st_reset();
	put_result(RESULT_OK, "");
	put_error("late");
	expect_fail(MSG_RELOAD, CTL_PROTOCOL, "unexpected config-error");
	st_reset();
	put_result(RESULT_OK, "");
	put_result(RESULT_OK, "");
	expect_fail(MSG_RELOAD, CTL_PROTOCOL, "unexpected result message");
	/* restore: no config errors; a request type is no reply */
	st_reset();
	put_error("x");
	expect_fail(MSG_RESTORE, CTL_PROTOCOL,
	    "unexpected config-error message in the reply to restore");
	st_reset();
	st_put(MSG_RESTORE, SEQ, &(struct msg_change){ "" },
	    sizeof(struct msg_change));
	expect_fail(MSG_RESUME, CTL_PROTOCOL,
	    "unexpected restore message in the reply to resume");
}

static void
test_bad_enums(void **arg)
{
	(void)arg;
	st_reset();
	put_info(1, 0);
	put_key("net.a", KS_STATE_COUNT, 0, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "key net.a in unknown state 7");
	st_reset();
	put_info(1, 0);
	put_key("net.a", KS_IN_FORCE, MODE_AT_LEAST + 1, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "key net.a in unknown mode 3");
	st_reset();
	put_info(1, 0);
	put_key("net.a", KS_IN_FORCE, 0, REJECT_CLAMP + 1);
	expect_fail(MSG_STATUS, CTL_PROTOCOL,
	    "key net.a with unknown on-reject 2");
	st_reset();
	put_result(RESULT_BAD_REQUEST + 1, "");
	expect_fail(MSG_RESTORE, CTL_PROTOCOL, "unknown result code 4");
}

/* The peer chose the key's name: it reaches stderr escaped. */
static void
test_hostile_names(void **arg)
{
	struct reply	 r;
	const char	*said;
	enum feed	 how;

	(void)arg;
	st_reset();
	put_info(1, 0);
	put_key("net.\x1b]0;owned\x07\xc2\x9b" "2J\xe2\x80\xae\xff", 99, 0, 0);
	assert_int_equal(feed(MSG_STATUS, &r, 0, &how, &said), CTL_PROTOCOL);
	assert_string_equal(said, "tcptunectl: bad reply from tcptuned: key "
	    "net.\\x1b]0;owned\\x07\\u{009b}2J\\u{202e}\\xff in unknown "
	    "state 99\n");
	reply_free(&r);
}

static void
test_count_mismatch(void **arg)
{
	(void)arg;
	st_reset();
	put_info(2, 0);
	put_key("net.a", KS_IN_FORCE, 0, 0);
	put_key("net.b", KS_IN_FORCE, 0, 0);
	put_end(3);
	expect_fail(MSG_STATUS, CTL_PROTOCOL,
	    "the end message counts 3 key-status messages, 2 came");
	st_reset();
	put_error("t.conf:1: x");
	put_result(RESULT_FAILED, "");
	put_end(0);
	expect_fail(MSG_RELOAD, CTL_PROTOCOL,
	    "counts 0 config-error messages, 1 came");
	st_reset();
	put_result(RESULT_OK, "");
	put_end(1);
	expect_fail(MSG_RESUME, CTL_PROTOCOL,
	    "the end message counts 1 list messages, 0 came");
}

static void
test_too_many(void **arg)
{
	int	i;

	(void)arg;
	st_reset();
	put_info(CTL_MAX_KEYS + 1, 0);
	for (i = 0; i <= CTL_MAX_KEYS; i++)
		put_key("net.a", KS_IN_FORCE, 0, 0);
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "more than 256 keys");
}

/* 10001 config errors: fed one message at a time, as they would come. */
static void
test_too_many_errors(void **arg)
{
	struct reply_session	*s = malloc(sizeof(*s));
	struct reply		 r;
	enum feed		 how = FEED_MORE;
	size_t			 used;
	int			 i, status;

	(void)arg;
	assert_non_null(s);
	st_reset();
	put_error("t.conf:1: e");
	assert_int_equal(reply_begin(s, MSG_RELOAD, SEQ, &r), CTL_OK);
	capture_start();
	for (i = 0; i <= CTL_MAX_ERRORS && how == FEED_MORE; i++)
		how = reply_feed(s, st.buf, st.len, &used, &status);
	assert_non_null(strstr(capture_stop(), "more than 10000 config "
	    "errors"));
	assert_int_equal(how, FEED_ERROR);
	assert_int_equal(status, CTL_PROTOCOL);
	assert_int_equal(i, CTL_MAX_ERRORS + 1);
	reply_free(&r);
	free(s);
}

/* Cut anywhere: in a header, in a payload, between messages. */
static void
test_truncated(void **arg)
{
	struct reply	 r;
	const char	*said;
	enum feed	 how;
	size_t		 full, cut[] = { 1, 15, 16, 17, 3720, 3721, 3719 };
	size_t		 i;

	(void)arg;
	st_reset();
	put_info(1, 0);
	put_key("net.a", KS_IN_FORCE, 0, 0);
	put_end(1);
	full = st.len;
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		st.len = cut[i];
		assert_int_equal(feed(MSG_STATUS, &r, 1, &how, &said),
		    CTL_PROTOCOL);
		assert_int_equal(how, FEED_MORE);
		assert_non_null(strstr(said, "the connection closed before "
		    "the end of the reply"));
		reply_free(&r);
	}
	st.len = full - 1;
	expect_fail(MSG_STATUS, CTL_PROTOCOL, "closed before the end");
	/* nothing at all: the daemon hung up without a word */
	st.len = 0;
	assert_int_equal(feed(MSG_STATUS, &r, 0, &how, &said),
	    CTL_UNREACHABLE);
	assert_string_equal(said, "tcptunectl: tcptuned closed the "
	    "connection on /test.sock without replying\n");
}

/*
 * No daemon: the next step for each platform's service manager, and with
 * no config, that the service needs one first (issue 45).
 */
static void
test_start_hints(void **arg)
{
	static const struct {
		enum tt_os	 os;
		bool		 systemd, config;
		const char	*want;
	} cases[] = {
		{ TT_OS_LINUX, true, true, "start it with `sudo systemctl "
		    "start tcptuned`; if it stops, `systemctl status tcptuned` "
		    "and `journalctl -u tcptuned` say why" },
		{ TT_OS_LINUX, false, true, "start it with `sudo service "
		    "tcptuned start`; if it stops, the system log says why" },
		{ TT_OS_FREEBSD, false, true, "start it with `sudo sysrc "
		    "tcptuned_enable=YES && sudo service tcptuned start`; if it "
		    "stops, /var/log/messages says why" },
		{ TT_OS_DARWIN, false, true, "start it with `sudo launchctl "
		    "bootstrap system /Library/LaunchDaemons/"
		    "org.tcptune.tcptuned.plist`; if it stops, `log show --last "
		    "1h --predicate 'process == \"tcptuned\"'` says why" },
		{ TT_OS_WINDOWS, false, true, "start it with `sc start "
		    "tcptuned`; if it stops, `sc query tcptuned` and the "
		    "Application event log say why" },
		{ TT_OS_LINUX, true, false, "no /etc/tcptune.conf: the service "
		    "does not start without one; write one with `tcptunectl "
		    "advise --rate RATE --rtt TIME --config /etc/tcptune.conf` "
		    "or `tcptunectl import FILE` (a sysctl.conf), then `sudo "
		    "systemctl start tcptuned`" },
		{ TT_OS_DARWIN, true, false, "no /etc/tcptune.conf: the "
		    "service does not start without one; write one with "
		    "`tcptunectl advise --rate RATE --rtt TIME --config "
		    "/etc/tcptune.conf` or `tcptunectl import FILE` (a "
		    "sysctl.conf), then `sudo launchctl bootstrap system "
		    "/Library/LaunchDaemons/org.tcptune.tcptuned.plist`" },
	};
	char	buf[1024];
	size_t	i;

	(void)arg;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ctl_start_hint(cases[i].os, cases[i].systemd,
		    "/etc/tcptune.conf", cases[i].config, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
}

/* ctl_log.c: the strerror part too, and the whole line escaped. */
static void
test_ctl_warn(void **arg)
{
	(void)arg;
	capture_start();
	errno = ENOENT;
	ctl_warn("open %s", "/tmp/\x1b[2J\xe2\x80\xae");
	assert_int_equal(errno, ENOENT);
	ctl_warnx("%s", "plain");
	assert_string_equal(capture_stop(), "tcptunectl: open "
	    "/tmp/\\x1b[2J\\u{202e}: No such file or directory\n"
	    "tcptunectl: plain\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_status_no_keys),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_restore_resume),
		cmocka_unit_test(test_trailing),
		cmocka_unit_test(test_unknown_request),
		cmocka_unit_test(test_version_mismatch),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_wrong_seq),
		cmocka_unit_test(test_unexpected_types),
		cmocka_unit_test(test_bad_enums),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_count_mismatch),
		cmocka_unit_test(test_status_with_diag),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_too_many_errors),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_start_hints),
		cmocka_unit_test(test_ctl_warn),
	};
	int	rv;

	rv = cmocka_run_group_tests(tests, NULL, NULL);
	free(st.buf);
	return rv;
}
