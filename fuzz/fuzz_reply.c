/*
 * tcptunectl's reply parser (tools/client.c, reply_feed) on arbitrary
 * bytes, as a hostile server on the socket could send them.
 *
 * The first byte picks the request (modulo the six: status, reload,
 * restore, resume, lease, diagnose; the seeds of before lease and
 * diagnose, 0-3, pick as they did) and the second the size of the
 * chunks the rest is fed in (0: all at once), so that every split of the
 * stream is reached.
 * Checked: the parser takes exactly what it is given until it is done or
 * fails; a reply it calls done keeps its grammar (counts, enums, strings
 * that end); and whatever it says on stderr is escaped: no control
 * character but the line's end, no C1 or bidi control, valid UTF-8.
 */
#include "config.h"

#include <sys/types.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tcptunectl.h"

static const uint32_t requests[] = {
	MSG_STATUS, MSG_RELOAD, MSG_RESTORE, MSG_RESUME, MSG_LEASE,
	MSG_DIAGNOSE
};
#define NREQUESTS	(sizeof(requests) / sizeof(requests[0]))

/*
 * While the parser runs, stderr goes to a file of our own, read back
 * after each input; FUZZ_CHECK's own words go to the real stderr.
 */
static FILE	*said;
static int	 real_stderr = -1;

static void
capture_start(void)
{
	if (said == NULL && ((said = tmpfile()) == NULL ||
	    (real_stderr = dup(STDERR_FILENO)) == -1))
		abort();
	fflush(stderr);
	if (dup2(fileno(said), STDERR_FILENO) == -1)
		abort();
}

static void
capture_stop(void)
{
	fflush(stderr);
	if (dup2(real_stderr, STDERR_FILENO) == -1)
		abort();
}

static void
check_said(void)
{
	static char	 buf[65536];
	const char	*p;
	uint32_t	 cp;
	size_t		 n, len;
	off_t		 end;

	if ((end = lseek(fileno(said), 0, SEEK_CUR)) == -1)
		abort();
	len = (size_t)end < sizeof(buf) - 1 ? (size_t)end : sizeof(buf) - 1;
	FUZZ_CHECK(pread(fileno(said), buf, len, 0) == (ssize_t)len);
	buf[len] = '\0';
	for (p = buf; *p != '\0'; p += n) {
		n = tt_utf8_decode(p, &cp);
		FUZZ_CHECK(n > 0);
		FUZZ_CHECK(cp == '\n' || !tt_unsafe_char(cp));
	}
	FUZZ_CHECK(len == 0 || buf[len - 1] == '\n');
	if (ftruncate(fileno(said), 0) == -1 ||
	    lseek(fileno(said), 0, SEEK_SET) == -1)
		abort();
}

static bool
ends(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* A reply called done is what the grammar of its request allows. */
static void
check_reply(const struct reply *r)
{
	size_t	i;

	FUZZ_CHECK(r->nkeys <= CTL_MAX_KEYS);
	FUZZ_CHECK(r->nerrors <= CTL_MAX_ERRORS);
	FUZZ_CHECK(r->request == MSG_STATUS || r->nkeys == 0);
	FUZZ_CHECK(r->request == MSG_RELOAD || r->nerrors == 0);
	FUZZ_CHECK(r->result.code <= RESULT_BAD_REQUEST);
	FUZZ_CHECK(ends(r->result.text, sizeof(r->result.text)));
	FUZZ_CHECK(ends(r->info.version, sizeof(r->info.version)));
	FUZZ_CHECK(ends(r->info.state_problem,
	    sizeof(r->info.state_problem)));
	FUZZ_CHECK(ends(r->info.damaged_copies,
	    sizeof(r->info.damaged_copies)));
	for (i = 0; i < r->nkeys; i++) {
		FUZZ_CHECK(r->keys[i].state < KS_STATE_COUNT);
		FUZZ_CHECK(r->keys[i].mode <= MODE_AT_LEAST);
		FUZZ_CHECK(r->keys[i].on_reject <= REJECT_CLAMP);
		FUZZ_CHECK(ends(r->keys[i].name, sizeof(r->keys[i].name)));
		FUZZ_CHECK(ends(r->keys[i].note, sizeof(r->keys[i].note)));
	}
	for (i = 0; i < r->nerrors; i++)
		FUZZ_CHECK(ends(r->errors[i].text, sizeof(r->errors[i].text)));
	FUZZ_CHECK(r->nflows <= CTL_MAX_FLOWS);
	FUZZ_CHECK(r->request == MSG_DIAGNOSE || r->nflows == 0);
	FUZZ_CHECK(!r->has_diag || r->request == MSG_STATUS ||
	    r->request == MSG_DIAGNOSE);
	FUZZ_CHECK(r->request != MSG_DIAGNOSE || r->has_diag);
	if (r->has_diag) {
		FUZZ_CHECK(ends(r->diag.rcv_ceiling_key,
		    sizeof(r->diag.rcv_ceiling_key)));
		FUZZ_CHECK(ends(r->diag.sampler, sizeof(r->diag.sampler)));
		FUZZ_CHECK(ends(r->diag.problem, sizeof(r->diag.problem)));
	}
	for (i = 0; i < r->nflows; i++) {
		FUZZ_CHECK(ends(r->flows[i].local, sizeof(r->flows[i].local)));
		FUZZ_CHECK(ends(r->flows[i].remote,
		    sizeof(r->flows[i].remote)));
		FUZZ_CHECK(ends(r->flows[i].ceiling_key,
		    sizeof(r->flows[i].ceiling_key)));
	}
	(void)reply_all_in_force(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct reply_session	s;
	struct reply			r;
	enum feed			how = FEED_MORE;
	size_t				off = 2, n, used, chunk;
	bool				took_all = true, over = false;
	int				status = -1, begun;

	if (size < 2)
		return 0;
	chunk = data[1];
	capture_start();
	begun = reply_begin(&s, requests[data[0] % NREQUESTS], 7, &r);
	while (begun == CTL_OK && off < size && how == FEED_MORE) {
		n = chunk == 0 || size - off < chunk ? size - off : chunk;
		how = reply_feed(&s, data + off, n, &used, &status);
		over |= used > n;
		took_all &= how != FEED_MORE || used == n;
		off += used;
	}
	if (how == FEED_MORE)
		status = reply_eof(&s, "/fuzz.sock");
	capture_stop();
	FUZZ_CHECK(begun == CTL_OK);
	FUZZ_CHECK(!over && took_all);
	if (how == FEED_DONE) {
		FUZZ_CHECK(status == CTL_OK);
		check_reply(&r);
	} else
		FUZZ_CHECK(status == CTL_PROTOCOL || status == CTL_UNREACHABLE ||
		    status == CTL_FAIL);
	reply_free(&r);
	check_said();
	return 0;
}
