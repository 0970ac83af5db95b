/*
 * tcptunectl advise: units as people write them (and every way of getting
 * them wrong), the arithmetic, the platforms' models from given
 * ceilings (an 8 GB Mac, Linux before and after 6.6, FreeBSD's headroom,
 * every Windows auto-tuning level and the flags for RSS, RSC, timestamps),
 * the JSON and the plist, which must parse back through config_parse, and
 * the round trip measured against listeners on 127.0.0.1 only.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "advise/advise.h"

#define MIB	(1024LL * 1024)

/* a within rel (a fraction) of b */
static bool
near(double a, double b, double rel)
{
	double	d = a > b ? a - b : b - a;

	return d <= (b > 0 ? b : -b) * rel;
}

static double
rate_of(const char *s)
{
	double	v = -1;

	assert_int_equal(adv_parse_rate(s, &v), PERR_OK);
	return v;
}

static double
rtt_of(const char *s)
{
	double	v = -1;

	assert_int_equal(adv_parse_rtt(s, &v), PERR_OK);
	return v;
}

static enum adv_perr
rate_err(const char *s)
{
	double	v = -1;
	enum adv_perr e = adv_parse_rate(s, &v);

	assert_true(v == -1);	/* untouched on error */
	return e;
}

static enum adv_perr
rtt_err(const char *s)
{
	double	v = -1;
	enum adv_perr e = adv_parse_rtt(s, &v);

	assert_true(v == -1);
	return e;
}

/* ---- units */

static void
test_rate_units(void **arg)
{
	(void)arg;
	assert_true(rate_of("500m") == 500e6);
	assert_true(rate_of("1g") == 1e9);
	assert_true(rate_of("10g") == 10e9);
	assert_true(rate_of("100M") == 100e6);
	assert_true(rate_of("2.5G") == 2.5e9);
	assert_true(rate_of("800mbit") == 800e6);
	assert_true(rate_of("1gbit") == 1e9);
	assert_true(rate_of("1GBit") == 1e9);
	assert_true(rate_of("1 Gbit/s") == 1e9);
	assert_true(rate_of("1gbits/s") == 1e9);
	assert_true(rate_of("1Gbps") == 1e9);
	assert_true(rate_of("800 Mb/s") == 800e6);
	assert_true(rate_of("1e9bit/s") == 1e9);
	assert_true(rate_of(".5g") == 500e6);
	/* bytes, clearly: times 8 */
	assert_true(rate_of("100MB/s") == 800e6);
	assert_true(rate_of("12.5MBps") == 100e6);
	assert_true(rate_of("1 gbyte/s") == 8e9);
	assert_true(rate_of("125 mbytes/s") == 1e9);
	/* the edges of the range are taken */
	assert_true(rate_of("1k") == 1e3);
	assert_true(rate_of("1t") == 1e12);
}

static void
test_rate_bad(void **arg)
{
	char	longnum[100];

	(void)arg;
	assert_int_equal(rate_err(""), PERR_EMPTY);
	/* a bare number: no silent bit/s */
	assert_int_equal(rate_err("0"), PERR_NO_UNIT);
	assert_int_equal(rate_err("1000"), PERR_NO_UNIT);
	assert_int_equal(rate_err("1000000"), PERR_NO_UNIT);
	assert_int_equal(rate_err("1e9"), PERR_NO_UNIT);
	assert_string_equal(adv_perr_text(PERR_NO_UNIT), "has no unit: say "
	    "1000M or 1g (bit/s), or 100MB/s (bytes)");
	assert_int_equal(rate_err("0g"), PERR_ZERO);
	assert_int_equal(rate_err("0.000g"), PERR_ZERO);
	assert_int_equal(rate_err("-1g"), PERR_NEGATIVE);
	assert_int_equal(rate_err("-0"), PERR_NEGATIVE);
	assert_int_equal(rate_err("+1g"), PERR_SYNTAX);
	assert_int_equal(rate_err("abc"), PERR_SYNTAX);
	assert_int_equal(rate_err("g"), PERR_SYNTAX);
	assert_int_equal(rate_err("inf"), PERR_SYNTAX);
	assert_int_equal(rate_err("nan"), PERR_SYNTAX);
	assert_int_equal(rate_err(" 1g"), PERR_SYNTAX);
	assert_int_equal(rate_err("."), PERR_SYNTAX);
	/* absurd units and trailing junk */
	assert_int_equal(rate_err("1x"), PERR_UNIT);
	assert_int_equal(rate_err("1gx"), PERR_UNIT);
	assert_int_equal(rate_err("1g "), PERR_UNIT);
	assert_int_equal(rate_err("1g!"), PERR_UNIT);
	assert_int_equal(rate_err("1g2"), PERR_UNIT);
	assert_int_equal(rate_err("1..2g"), PERR_UNIT);
	assert_int_equal(rate_err("0x10"), PERR_UNIT);
	assert_int_equal(rate_err("1ms"), PERR_UNIT);
	assert_int_equal(rate_err("1Gibit"), PERR_UNIT);
	assert_int_equal(rate_err("1  g"), PERR_UNIT);
	/* bits or bytes? */
	assert_int_equal(rate_err("1mb"), PERR_AMBIGUOUS);
	assert_int_equal(rate_err("100MB"), PERR_AMBIGUOUS);
	assert_int_equal(rate_err("1b"), PERR_AMBIGUOUS);
	/* overflow and range */
	assert_int_equal(rate_err("1e400"), PERR_OVERFLOW);
	assert_int_equal(rate_err("1e308t"), PERR_OVERFLOW);
	memset(longnum, '9', sizeof(longnum) - 1);
	longnum[sizeof(longnum) - 1] = '\0';
	assert_int_equal(rate_err(longnum), PERR_OVERFLOW);
	assert_int_equal(rate_err("999bit"), PERR_TOO_LOW);
	assert_int_equal(rate_err("0.5k"), PERR_TOO_LOW);
	assert_int_equal(rate_err("1.1t"), PERR_TOO_HIGH);
	assert_int_equal(rate_err("1e20bps"), PERR_TOO_HIGH);
	assert_int_equal(rate_err("200TB/s"), PERR_TOO_HIGH);
	assert_string_equal(adv_perr_text(PERR_AMBIGUOUS),
	    "is ambiguous: b could be bits or bytes (write Mbit or MB/s)");
}

static void
test_rtt_units(void **arg)
{
	double	t = -1;

	(void)arg;
	assert_true(near(rtt_of("150ms"), 0.15, 1e-12));
	assert_true(near(rtt_of("0.15s"), 0.15, 1e-12));
	assert_true(near(rtt_of("150"), 0.15, 1e-12));	/* plain = ms */
	assert_true(near(rtt_of("150000us"), 0.15, 1e-12));
	assert_true(near(rtt_of("150 ms"), 0.15, 1e-12));
	assert_true(near(rtt_of("150MS"), 0.15, 1e-12));
	assert_true(near(rtt_of("150\xc2\xb5s"), 150e-6, 1e-12));
	assert_true(near(rtt_of("2sec"), 2, 1e-12));
	assert_true(near(rtt_of("10us"), 10e-6, 1e-12));
	assert_true(near(rtt_of("10s"), 10, 1e-12));
	assert_int_equal(rtt_err(""), PERR_EMPTY);
	assert_int_equal(rtt_err("0"), PERR_ZERO);
	assert_int_equal(rtt_err("0ms"), PERR_ZERO);
	assert_int_equal(rtt_err("-5ms"), PERR_NEGATIVE);
	assert_int_equal(rtt_err("ms"), PERR_SYNTAX);
	assert_int_equal(rtt_err("150m"), PERR_UNIT);	/* minutes? no */
	assert_int_equal(rtt_err("150msx"), PERR_UNIT);
	assert_int_equal(rtt_err("150 ms "), PERR_UNIT);
	assert_int_equal(rtt_err("1h"), PERR_UNIT);
	assert_int_equal(rtt_err("1e999"), PERR_OVERFLOW);
	assert_int_equal(rtt_err("5us"), PERR_TOO_LOW);
	assert_int_equal(rtt_err("0.001"), PERR_TOO_LOW);
	assert_int_equal(rtt_err("10001"), PERR_TOO_HIGH);
	assert_int_equal(rtt_err("11s"), PERR_TOO_HIGH);
	/* --timeout: plain numbers are seconds */
	assert_int_equal(adv_parse_timeout("2", &t), PERR_OK);
	assert_true(near(t, 2, 1e-12));
	assert_int_equal(adv_parse_timeout("500ms", &t), PERR_OK);
	assert_true(near(t, 0.5, 1e-12));
	assert_int_equal(adv_parse_timeout("0", &t), PERR_ZERO);
	assert_int_equal(adv_parse_timeout("11", &t), PERR_TOO_HIGH);
	assert_int_equal(adv_parse_timeout("1ms", &t), PERR_TOO_LOW);
}

static void
test_sizes(void **arg)
{
	long long	v;

	(void)arg;
	assert_int_equal(adv_parse_size("64M", &v), 0);
	assert_true(v == 64 * MIB);
	assert_int_equal(adv_parse_size("4096", &v), 0);
	assert_true(v == 4096);
	assert_int_equal(adv_parse_size("1g", &v), 0);
	assert_true(v == 1024 * MIB);
	assert_int_equal(adv_parse_size("8k", &v), 0);
	assert_true(v == 8192);
	assert_int_equal(adv_parse_size("", &v), -1);
	assert_int_equal(adv_parse_size("M", &v), -1);
	assert_int_equal(adv_parse_size("-1", &v), -1);
	assert_int_equal(adv_parse_size("1.5M", &v), -1);
	assert_int_equal(adv_parse_size("12x", &v), -1);
	assert_int_equal(adv_parse_size("9999999999999999999G", &v), -1);
	assert_int_equal(adv_parse_size("99999999999G", &v), -1);
}

static void
test_formats(void **arg)
{
	char	b[32];

	(void)arg;
	adv_fmt_rate(1e9, b, sizeof(b));
	assert_string_equal(b, "1 Gbit/s");
	adv_fmt_rate(8388608.0 * 8 / 0.15, b, sizeof(b));
	assert_string_equal(b, "447 Mbit/s");
	adv_fmt_rate(2.5e9, b, sizeof(b));
	assert_string_equal(b, "2.5 Gbit/s");
	adv_fmt_rate(999.7e6, b, sizeof(b));
	assert_string_equal(b, "1 Gbit/s");
	adv_fmt_rate(99.44e6, b, sizeof(b));
	assert_string_equal(b, "99.4 Mbit/s");
	adv_fmt_rate(1500, b, sizeof(b));
	assert_string_equal(b, "1.5 kbit/s");
	adv_fmt_bytes(18750000, b, sizeof(b));
	assert_string_equal(b, "17.9 MiB");
	adv_fmt_bytes(16 * MIB, b, sizeof(b));
	assert_string_equal(b, "16 MiB");
	adv_fmt_bytes(512 * 1024, b, sizeof(b));
	assert_string_equal(b, "512 KiB");
	adv_fmt_bytes(100, b, sizeof(b));
	assert_string_equal(b, "100 bytes");
	adv_fmt_time(0.15, b, sizeof(b));
	assert_string_equal(b, "150 ms");
	adv_fmt_time(45e-6, b, sizeof(b));
	assert_string_equal(b, "45 us");
	adv_fmt_time(1.5, b, sizeof(b));
	assert_string_equal(b, "1.5 s");
}

static void
test_arithmetic(void **arg)
{
	(void)arg;
	assert_true(adv_pow2_at_least(1) == 1);
	assert_true(adv_pow2_at_least(37500000) == 64 * MIB);
	assert_true(adv_pow2_at_least(16 * MIB) == 16 * MIB);
	assert_true(adv_pow2_at_least(16 * MIB + 1) == 32 * MIB);
	/* xnu mbinit: 1/16 of the cluster pool, by RAM class */
	assert_true(xnu_high_sb_max(64 * MIB >> 11) == 4 * MIB);
	assert_true(xnu_high_sb_max(96 * MIB >> 11) == 6 * MIB);
	assert_true(xnu_high_sb_max(65536) == 8 * MIB);
	assert_true(xnu_high_sb_max(131072) == 16 * MIB);
	assert_true(xnu_high_sb_max(262144) == 32 * MIB);
	/* a 2 MiB pool: 128 KiB, raised to 1 MiB */
	assert_true(xnu_high_sb_max(1024) == MIB);
	/* sb_max_adj: 8/9 */
	assert_true(bsd_sb_max_adj(8 * MIB) == 7456540);
	assert_true(bsd_sb_max_adj(2 * MIB) == 1864135);
	assert_true(bsd_sb_max_adj(32 * MIB) == 29826161);
}

/* ---- models */

static void
input(struct adv_input *in, enum tt_os os, double rate, double rtt)
{
	memset(in, 0, sizeof(*in));
	in->os = os;
	in->live = true;
	in->rate = rate;
	in->rtt = rtt;
}

static void
set(struct adv_input *in, const char *name, const char *value)
{
	assert_int_equal(adv_input_set(in, name, value, 0, false), 0);
}

static const struct adv_key *
key(const struct adv_result *r, const char *name)
{
	size_t	i;

	for (i = 0; i < r->nkeys; i++)
		if (strcmp(r->keys[i].name, name) == 0)
			return &r->keys[i];
	return NULL;
}

/* A note whose sentence (advise_words.c) holds part. */
static bool
has_note(const struct adv_input *in, const struct adv_result *r,
    const char *part)
{
	char	text[ADV_NOTE_MAX];
	size_t	i;

	for (i = 0; i < r->nnotes; i++) {
		adv_note_text(in, r, &r->notes[i], text, sizeof(text));
		if (strstr(text, part) != NULL)
			return true;
	}
	return false;
}

/* The model said note id, whatever the words. */
static bool
has_note_id(const struct adv_result *r, enum adv_note_id id)
{
	size_t	i;

	for (i = 0; i < r->nnotes; i++)
		if (r->notes[i].id == id)
			return true;
	return false;
}

/* The verdict in words. */
static const char *
verdict_text(const struct adv_result *r)
{
	static char	text[ADV_TEXT_MAX];

	adv_verdict_text(r, text, sizeof(text));
	return text;
}

static void
linux_stock(struct adv_input *in, const char *release)
{
	input(in, TT_OS_LINUX, 1e9, 0.150);
	set(in, "kernel.osrelease", release);
	set(in, "net.ipv4.tcp_rmem", "4096\t131072\t6291456");
	set(in, "net.ipv4.tcp_wmem", "4096 16384 4194304");
	set(in, "net.core.rmem_max", "212992");
	set(in, "net.core.wmem_max", "212992");
	set(in, "net.ipv4.tcp_adv_win_scale", "1");
	set(in, "net.ipv4.tcp_moderate_rcvbuf", "1");
}

/*
 * A send buffer held at tcp_wmem[2] keeps 5/6 of it in flight (derived
 * from when the writer is woken, advise_model.c), not the half tcptune
 * sizes a raise at: so 4 MiB at 150 ms allows about 186 Mbit/s (195
 * measured, docs/BENCHMARKS.md), and only a tcp_wmem[2] too small for
 * the path at that share is raised, to 2 x BDP.
 */
static void
test_linux_send_capped(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	linux_stock(&in, "6.18.4-arch1");
	adv_model(&in, &r);
	assert_true(r.snd_ratio == 5.0 / 6.0 && r.snd_size_ratio == 0.5);
	assert_true(r.now_snd.buffer == 4194304);
	assert_true(r.now_snd.window == (long long)(4194304 * (5.0 / 6.0)));
	assert_true(near(r.now_snd.rate, 4194304 * (5.0 / 6.0) * 8 / 0.15,
	    1e-9));
	assert_string_equal(r.now_snd.limit, "net.ipv4.tcp_wmem");
	assert_non_null(k = key(&r, "net.ipv4.tcp_wmem"));
	assert_true(k->needed == 22500000 && k->change);
	assert_string_equal(k->recommended, "4096 16384 67108864");
	assert_true(r.rec_snd.rate == 1e9 && r.rec_snd.limit == NULL);

	/* 32 MiB holds 5/6 x 32 MiB > 18750000 in flight: kept */
	set(&in, "net.ipv4.tcp_wmem", "4096 16384 33554432");
	adv_model(&in, &r);
	assert_true(r.now_snd.rate == 1e9 && r.now_snd.limit == NULL);
	assert_non_null(k = key(&r, "net.ipv4.tcp_wmem"));
	assert_string_equal(k->recommended, "4096 16384 33554432");
	assert_false(k->change);
}

/*
 * docs/BENCHMARKS.md, "tcptunectl advise against the measurement": one
 * cubic stream over 1 Gbit/s at 150 ms on Linux 6.18, each row's
 * buffers given as the bench gives them; the medians of the run of
 * 7 December 2026, a quiet machine.  The prediction (the smaller of
 * receiving and sending) is pinned, and each is within 10 % of the
 * measured median.  The receive ratio 160/256 was fitted on the 16 MiB
 * row of an earlier run (557.4 Mbit/s) alone; the send share 5/6 is
 * derived, fitted on none.
 */
static void
test_linux_bench_rows(void **arg)
{
	static const struct {
		const char	*rmem, *wmem;
		double		 predicted, measured;	/* Mbit/s */
	} row[] = {
		{ "4096 131072 6291456", "4096 16384 4194304", 186.41, 193.1 },
		{ "4096 131072 4194304", "4096 16384 4194304", 139.81, 139.2 },
		{ "4096 131072 8388608", "4096 16384 8388608", 279.62, 278.4 },
		{ "4096 131072 16777216", "4096 16384 16777216", 559.24,
		    532.1 },
		{ "4096 131072 33554432", "4096 16384 4194304", 186.41, 193.7 },
		{ "4096 131072 67108864", "4096 16384 67108864", 1000, 923.1 },
	};
	struct adv_input	 in;
	struct adv_result	 r;
	double			 p;
	size_t			 i;

	(void)arg;
	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++) {
		input(&in, TT_OS_LINUX, 1e9, 0.15);
		set(&in, "kernel.osrelease", "6.18.44-fc-v1272");
		set(&in, "net.ipv4.tcp_rmem", row[i].rmem);
		set(&in, "net.ipv4.tcp_wmem", row[i].wmem);
		set(&in, "net.core.rmem_max", "4194304");
		set(&in, "net.core.wmem_max", "4194304");
		adv_model(&in, &r);
		p = (r.now_rcv.rate < r.now_snd.rate ? r.now_rcv.rate :
		    r.now_snd.rate) / 1e6;
		assert_true(near(p, row[i].predicted, 1e-4));
		assert_true(near(p, row[i].measured, 0.10));
	}
}

static void
test_linux_after_6_6(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	linux_stock(&in, "6.18.4-arch1");
	adv_model(&in, &r);
	assert_true(near(r.bdp, 18750000, 1e-12));
	assert_true(r.window == 18750000);
	/* measured 160/256 judges; a raise is sized at the starting 1/2 */
	assert_true(r.rcv_ratio == 160.0 / 256 && r.rcv_size_ratio == 0.5 &&
	    r.snd_size_ratio == 0.5);
	assert_string_equal(r.kernel, "Linux 6.18.4-arch1");
	assert_non_null(k = key(&r, "net.ipv4.tcp_rmem"));
	assert_string_equal(k->current, "4096 131072 6291456");
	assert_string_equal(k->recommended, "4096 131072 67108864");
	assert_true(k->needed == 30000000 && k->change && !k->assumed);
	assert_int_equal(k->role, ROLE_CEILING);
	assert_non_null(k = key(&r, "net.ipv4.tcp_wmem"));
	assert_string_equal(k->recommended, "4096 16384 67108864");
	assert_non_null(k = key(&r, "net.core.rmem_max"));
	assert_string_equal(k->recommended, "67108864");
	assert_int_equal(k->role, ROLE_SOCKOPT);
	assert_null(key(&r, "net.ipv4.tcp_moderate_rcvbuf"));
	/* now: 160/256 of 6 MiB at 150 ms */
	assert_true(r.now_rcv.window == 3932160);
	assert_true(near(r.now_rcv.rate, 3932160.0 * 8 / 0.15, 1e-9));
	assert_string_equal(r.now_rcv.limit, "net.ipv4.tcp_rmem");
	assert_true(r.rec_rcv.rate == 1e9 && r.rec_rcv.limit == NULL);
	assert_true(r.rec_snd.rate == 1e9 && r.rec_snd.limit == NULL);
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_int_equal(r.streams, 1);
	assert_non_null(strstr(verdict_text(&r), "210 Mbit/s receiving"));
	assert_true(has_note(&in, &r, "scaling_ratio"));
	assert_true(has_note(&in, &r, "network namespace"));
	assert_true(has_note(&in, &r, "global"));
	assert_false(has_note(&in, &r, "marked *"));
	/* the model gives identifiers and numbers; the words come after */
	assert_true(has_note_id(&r, NOTE_LINUX_RCV_SCALED));
	assert_true(has_note_id(&r, NOTE_LINUX_NAMESPACE));
	assert_false(has_note_id(&r, NOTE_LINUX_RCV_ADV_WIN));
	assert_false(has_note_id(&r, NOTE_ASSUMED_LIVE));
	assert_int_equal(key(&r, "net.ipv4.tcp_rmem")->why, WHY_LINUX_RMEM);
	assert_int_equal(key(&r, "net.core.rmem_max")->why,
	    WHY_LINUX_RMEM_MAX);
	assert_false(r.now_rcv.window_limited);
}

static void
test_linux_before_6_6(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	linux_stock(&in, "5.15.0-91-generic");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 0.5);
	assert_true(has_note(&in, &r, "tcp_adv_win_scale 1"));
	assert_true(has_note_id(&r, NOTE_LINUX_RCV_ADV_WIN));
	assert_false(has_note_id(&r, NOTE_LINUX_RCV_SCALED));
	assert_string_equal(key(&r, "net.ipv4.tcp_rmem")->recommended,
	    "4096 131072 67108864");
	/* tcp_adv_win_scale 2: 3/4 is window, 25 MB of buffer do */
	set(&in, "net.ipv4.tcp_adv_win_scale", "2");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 0.75);
	assert_true(key(&r, "net.ipv4.tcp_rmem")->needed == 25000000);
	assert_string_equal(key(&r, "net.ipv4.tcp_rmem")->recommended,
	    "4096 131072 33554432");
	/* <= 0: space >> -scale */
	set(&in, "net.ipv4.tcp_adv_win_scale", "-1");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 0.5);
	set(&in, "net.ipv4.tcp_adv_win_scale", "0");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 1.0);
	/* 6.5 is before, 6.6 after: the sysctl no longer counts */
	set(&in, "kernel.osrelease", "6.5.13");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 1.0);
	set(&in, "kernel.osrelease", "6.6.0");
	adv_model(&in, &r);
	assert_true(r.rcv_ratio == 160.0 / 256);
}

static void
test_linux_enough_and_never_lower(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	size_t			 i;

	(void)arg;
	linux_stock(&in, "6.8.0");
	set(&in, "net.ipv4.tcp_rmem", "4096 131072 1073741824");
	set(&in, "net.ipv4.tcp_wmem", "4096 16384 67108864");
	adv_model(&in, &r);
	assert_int_equal(r.verdict, VERDICT_OK);
	/* nothing to change, so not even the SO_RCVBUF bound */
	for (i = 0; i < r.nkeys; i++)
		assert_false(r.keys[i].change);
	assert_string_equal(key(&r, "net.ipv4.tcp_rmem")->recommended,
	    "4096 131072 1073741824");
	assert_non_null(strstr(verdict_text(&r), "nothing needs to change"));
	/* tuning wmem: rmem_max stays, wmem_max follows wmem */
	in.rate = 4e9;
	adv_model(&in, &r);
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_false(key(&r, "net.ipv4.tcp_rmem")->change);
	assert_false(key(&r, "net.core.rmem_max")->change);
	assert_string_equal(key(&r, "net.ipv4.tcp_wmem")->recommended,
	    "4096 16384 268435456");
	assert_string_equal(key(&r, "net.core.wmem_max")->recommended,
	    "268435456");
}

static void
test_linux_autotuning_off(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	linux_stock(&in, "6.8.0");
	set(&in, "net.ipv4.tcp_moderate_rcvbuf", "0");
	adv_model(&in, &r);
	assert_non_null(k = key(&r, "net.ipv4.tcp_moderate_rcvbuf"));
	assert_int_equal(k->role, ROLE_SWITCH);
	assert_string_equal(k->recommended, "1");
	assert_true(r.now_rcv.buffer == 131072);
	assert_string_equal(r.now_rcv.limit, "net.ipv4.tcp_moderate_rcvbuf");
}

/* Unknown values: the stock defaults, marked, and why in a note. */
static void
test_unread_values(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	input(&in, TT_OS_LINUX, 1e9, 0.15);
	assert_int_equal(adv_input_set(&in, "net.core.rmem_max", NULL,
	    EACCES, false), 0);
	set(&in, "net.ipv4.tcp_rmem", "1 2");	/* not three: not believed */
	adv_model(&in, &r);
	assert_true(key(&r, "net.core.rmem_max")->assumed);
	assert_string_equal(key(&r, "net.core.rmem_max")->current, "212992");
	assert_true(key(&r, "net.ipv4.tcp_rmem")->assumed);
	/* no release: the newest stock values, 32 MiB from 6.16 */
	assert_string_equal(key(&r, "net.ipv4.tcp_rmem")->current,
	    "4096 131072 33554432");
	assert_true(has_note(&in, &r, "net.core.rmem_max here (Permission "
	    "denied)"));
	assert_true(has_note(&in, &r, "could not be read"));
	assert_true(has_note(&in, &r, "6.6 or later assumed"));
	assert_null(adv_input_get(&in, "net.core.rmem_max"));
	/* a given value replaces it */
	assert_int_equal(adv_input_set(&in, "net.core.rmem_max", "5", 0,
	    true), 0);
	assert_string_equal(adv_input_get(&in, "net.core.rmem_max"), "5");
	assert_true(in.values[0].given);
}

static void
mac(struct adv_input *in, const char *ncl)
{
	input(in, TT_OS_DARWIN, 1e9, 0.150);
	in->live = false;
	if (ncl != NULL)
		set(in, "kern.ipc.nmbclusters", ncl);
}

/* An 8 GB Mac on macOS 14.3 or older: a buffer gets 8/9 of maxsockbuf. */
static void
test_darwin_8gb(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	mac(&in, "65536");
	set(&in, "kernel.osrelease", "23.3.0");
	adv_model(&in, &r);
	assert_false(r.sb_whole);
	assert_string_equal(r.kernel, "macOS, Darwin 23.3.0");
	assert_true(r.sb_cap == 8 * MIB && r.ncl == 65536);
	assert_non_null(k = key(&r, "kern.ipc.maxsockbuf"));
	assert_string_equal(k->current, "8388608");
	assert_true(k->assumed);
	assert_string_equal(k->recommended, "8388608");
	assert_true(k->needed == 21093750 && k->clamp);
	/* what the path needs, as the shipped config: maxsockbuf holds it */
	assert_string_equal(key(&r, "net.inet.tcp.autorcvbufmax")->recommended,
	    "33554432");
	assert_false(key(&r, "net.inet.tcp.autorcvbufmax")->needed >
	    33554432);
	assert_int_equal(key(&r, "net.inet.tcp.recvspace")->role, ROLE_INFO);
	/* stock now: 4 MiB at 150 ms */
	assert_true(near(r.now_rcv.rate, 4194304.0 * 8 / 0.15, 1e-9));
	assert_string_equal(r.now_rcv.limit, "net.inet.tcp.autorcvbufmax");
	/* at best 8/9 of 8 MiB */
	assert_true(r.rec_rcv.buffer == 7456540);
	assert_true(near(r.rec_rcv.rate, 7456540.0 * 8 / 0.15, 1e-9));
	assert_string_equal(r.rec_rcv.limit, "kern.ipc.maxsockbuf");
	assert_int_equal(r.verdict, VERDICT_CAPPED);
	assert_int_equal(r.streams, 3);
	assert_non_null(strstr(verdict_text(&r),
	    "A stock Mac (modelled) cannot give one socket more than 7.11 "
	    "MiB"));
	assert_null(strstr(verdict_text(&r), "This Mac"));
	assert_non_null(strstr(verdict_text(&r), "8 MiB at most"));
	assert_non_null(strstr(verdict_text(&r), "about 398 Mbit/s"));
	assert_non_null(strstr(verdict_text(&r), "447 Mbit/s"));
	assert_non_null(strstr(verdict_text(&r), "not 1 Gbit/s"));
	assert_non_null(strstr(verdict_text(&r), "3 or more parallel"));
	assert_non_null(strstr(verdict_text(&r), "32 GB"));
	assert_true(has_note(&in, &r, "stock defaults of macOS"));
	assert_true(has_note(&in, &r, "Up to macOS 14.3 a socket buffer may use "
	    "at most 8/9"));
}

/*
 * The same Mac on macOS 14.4 and later (xnu-10063: sbreserve clamps to
 * sb_max): one socket may have all 8 MiB; assumed when the release is
 * not known.
 */
static void
test_darwin_8gb_whole(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;
	const char		*rel[] = { NULL, "23.4.0", "24.6.0" };
	size_t			 i;

	(void)arg;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		mac(&in, "65536");
		if (rel[i] != NULL)
			set(&in, "kernel.osrelease", rel[i]);
		adv_model(&in, &r);
		assert_true(r.sb_whole);
		assert_non_null(k = key(&r, "kern.ipc.maxsockbuf"));
		assert_string_equal(k->recommended, "8388608");
		assert_true(k->needed == 18750000 && k->clamp);
		assert_true(r.rec_rcv.buffer == 8388608);
		assert_true(near(r.rec_rcv.rate, 8388608.0 * 8 / 0.15, 1e-9));
		assert_int_equal(r.verdict, VERDICT_CAPPED);
		assert_int_equal(r.streams, 3);
		assert_non_null(strstr(verdict_text(&r),
		    "A stock Mac (modelled) cannot give one socket more "
		    "than 8 MiB"));
		assert_non_null(strstr(verdict_text(&r), "about 447 Mbit/s"));
		assert_null(strstr(verdict_text(&r), "8/9"));
		assert_true(has_note(&in, &r, "From macOS 14.4 on a socket buffer "
		    "may use all"));
		assert_true(has_note(&in, &r, "14.4 or later assumed") ==
		    (rel[i] == NULL));
	}
	assert_string_equal(r.kernel, "macOS, Darwin 24.6.0");
}

/*
 * The stock values advise assumes follow the release (the catalogue's
 * xnu facts): macOS 10.15 (xnu-6153) shipped 2 MiB autotuning ceilings,
 * 11 and later 4 MiB from 4 GB of RAM; an unknown release is the newest.
 */
static void
test_darwin_stock_by_release(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;
	const char		*rel[] = { "19.6.0", "20.6.0", "24.6.0", NULL };
	const char		*want[] = { "2097152", "4194304", "4194304",
				    "4194304" };
	size_t			 i;

	(void)arg;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		mac(&in, "65536");
		if (rel[i] != NULL)
			set(&in, "kernel.osrelease", rel[i]);
		adv_model(&in, &r);
		assert_non_null(k = key(&r, "net.inet.tcp.autorcvbufmax"));
		assert_true(k->assumed);
		assert_string_equal(k->current, want[i]);
		assert_non_null(k = key(&r, "net.inet.tcp.autosndbufmax"));
		assert_string_equal(k->current, want[i]);
		assert_non_null(k = key(&r, "kern.ipc.maxsockbuf"));
		assert_string_equal(k->current, "8388608");
		assert_non_null(k = key(&r, "net.inet.tcp.recvspace"));
		assert_string_equal(k->current, "131072");
	}
}

static void
test_darwin_by_memory(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	/* 32 GB: 32 MiB, 8/9 of it holds 17.9 MiB */
	mac(&in, "262144");
	adv_model(&in, &r);
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_string_equal(key(&r, "kern.ipc.maxsockbuf")->recommended,
	    "33554432");
	assert_string_equal(key(&r, "net.inet.tcp.autorcvbufmax")->recommended,
	    "33554432");
	assert_true(r.rec_rcv.rate == 1e9 && r.rec_snd.rate == 1e9);
	/* 16 GB, from hw.memsize: 16 MiB, 795 Mbit/s, two streams */
	mac(&in, NULL);
	set(&in, "hw.memsize", "17179869184");
	adv_model(&in, &r);
	assert_true(r.ncl == 131072 && r.sb_cap == 16 * MIB);
	assert_int_equal(r.verdict, VERDICT_CAPPED);
	assert_int_equal(r.streams, 2);
	assert_true(has_note(&in, &r, "was not read: 131072"));
	/* 4 GB: 96 MB of clusters, 6 MiB */
	mac(&in, NULL);
	set(&in, "hw.memsize", "4294967296");
	adv_model(&in, &r);
	assert_true(r.sb_cap == 6 * MIB);
	/* a slow path fits even the 8 GB Mac: nothing changes */
	mac(&in, "65536");
	in.rate = 100e6;
	adv_model(&in, &r);
	assert_int_equal(r.verdict, VERDICT_OK);
	assert_false(key(&r, "kern.ipc.maxsockbuf")->change);
	/* autotuning off: sockets keep recvspace */
	mac(&in, "65536");
	set(&in, "net.inet.tcp.doautorcvbuf", "0");
	adv_model(&in, &r);
	assert_non_null(key(&r, "net.inet.tcp.doautorcvbuf"));
	assert_true(r.now_rcv.buffer == 131072);
}

/*
 * A 6 GB Mac: 96 MB of clusters, so a stock maxsockbuf of 6 MiB, not
 * SB_MAX's 8 (xnu mbinit, high_sb_max); nothing recommended above it.
 * macOS 10.15 needs twice the RAM for that pool, and keeps 2 MiB
 * autotuning ceilings (catalogue.c, xnu_mem).
 */
static void
test_darwin_ram_release(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;
	long long		 v;

	(void)arg;
	mac(&in, NULL);
	set(&in, "hw.memsize", "6442450944");
	adv_model(&in, &r);
	assert_true(r.ncl == 49152 && r.sb_cap == 6 * MIB);
	assert_non_null(k = key(&r, "kern.ipc.maxsockbuf"));
	assert_string_equal(k->current, "6291456");
	assert_int_equal(parse_ll(k->recommended, &v), 0);
	assert_true(v <= 6 * MIB);
	assert_string_equal(key(&r, "net.inet.tcp.autorcvbufmax")->current,
	    "4194304");
	/* macOS 10.15, 12 GB: the same pool, 2 MiB ceilings */
	mac(&in, NULL);
	set(&in, "hw.memsize", "12884901888");
	set(&in, "kernel.osrelease", "19.6.0");
	adv_model(&in, &r);
	assert_true(r.ncl == 49152 && r.sb_cap == 6 * MIB);
	assert_string_equal(key(&r, "kern.ipc.maxsockbuf")->current,
	    "6291456");
	assert_string_equal(key(&r, "net.inet.tcp.autorcvbufmax")->current,
	    "2097152");
	assert_true(r.pool_min_gb == 8 && r.pool_max_gb == 16);
}

static void
test_freebsd_headroom(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	input(&in, TT_OS_FREEBSD, 1e9, 0.150);
	in.live = false;
	adv_model(&in, &r);
	/* stock: 2 MiB of maxsockbuf leaves 8/9 of it */
	assert_true(r.now_rcv.buffer == 1864135);
	assert_string_equal(r.now_rcv.limit, "kern.ipc.maxsockbuf");
	assert_string_equal(key(&r, "net.inet.tcp.recvbuf_max")->recommended,
	    "33554432");
	assert_non_null(k = key(&r, "kern.ipc.maxsockbuf"));
	/* 9/8 of 32 MiB is 36 MiB: the next power of two */
	assert_string_equal(k->recommended, "67108864");
	assert_true(k->needed == 21093750);
	assert_true(bsd_sb_max_adj(64 * MIB) >= 32 * MIB);
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_true(r.sb_cap == 0);
	assert_true(has_note(&in, &r, "1.125 x"));
	/* a buffer at maxsockbuf itself: held to 8/9 */
	set(&in, "kern.ipc.maxsockbuf", "33554432");
	set(&in, "net.inet.tcp.recvbuf_max", "33554432");
	set(&in, "net.inet.tcp.sendbuf_max", "33554432");
	in.rate = 2e9;
	adv_model(&in, &r);
	assert_true(r.now_rcv.buffer == 29826161);
	assert_string_equal(r.now_rcv.limit, "kern.ipc.maxsockbuf");
	assert_string_equal(key(&r, "net.inet.tcp.recvbuf_max")->recommended,
	    "67108864");
	assert_string_equal(key(&r, "kern.ipc.maxsockbuf")->recommended,
	    "134217728");
}

/* 1 Tbit/s over 10 s: no window is that large. */
static void
test_window_limit(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	linux_stock(&in, "6.8.0");
	in.rate = 1e12;
	in.rtt = 10;
	adv_model(&in, &r);
	assert_true(r.window == ADV_MAX_WINDOW);
	assert_string_equal(key(&r, "net.ipv4.tcp_rmem")->recommended,
	    "4096 131072 2147483647");
	assert_true(r.rec_rcv.window == ADV_MAX_WINDOW);
	assert_int_equal(r.verdict, VERDICT_CAPPED);
	assert_int_equal(r.streams, 1165);
	assert_true(r.rec_rcv.window_limited && r.rec_rcv.limit == NULL);
	assert_string_equal(adv_limit_text(&r.rec_rcv), "the TCP window limit");
	assert_non_null(strstr(verdict_text(&r), "at most 1 GiB"));
}

static void
test_keys_and_names(void **arg)
{
	enum tt_os	os;

	(void)arg;
	assert_int_equal(catalogue_os_parse("Linux", &os), 0);
	assert_int_equal(os, TT_OS_LINUX);
	assert_int_equal(catalogue_os_parse("macos", &os), 0);
	assert_int_equal(os, TT_OS_DARWIN);
	assert_int_equal(catalogue_os_parse("freebsd", &os), 0);
	assert_int_equal(catalogue_os_parse("Windows", &os), 0);
	assert_int_equal(os, TT_OS_WINDOWS);
	assert_int_equal(catalogue_os_parse("win32", &os), -1);
	assert_true(adv_key_known(TT_OS_LINUX, "net.ipv4.tcp_rmem"));
	assert_true(adv_key_known(TT_OS_LINUX, "kernel.osrelease"));
	assert_false(adv_key_known(TT_OS_LINUX, "kern.ipc.maxsockbuf"));
	assert_true(adv_key_known(TT_OS_DARWIN, "hw.memsize"));
	assert_true(adv_key_known(TT_OS_FREEBSD, "net.inet.tcp.recvbuf_max"));
	assert_int_equal(adv_key_words("net.ipv4.tcp_wmem"), 3);
	assert_int_equal(adv_key_words("kernel.osrelease"), 0);
	assert_int_equal(adv_key_words("kern.ipc.maxsockbuf"), 1);
}

/* ---- output */

/* What a writer printed, NUL-terminated; free it. */
static char *
capture(void (*fn)(FILE *, const struct advice *), const struct advice *a,
    size_t *lenp)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, a);
	assert_int_equal(fclose(f), 0);
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

static void
advice_linux(struct advice *a)
{
	memset(a, 0, sizeof(*a));
	linux_stock(&a->in, "6.18.4");
	adv_model(&a->in, &a->res);
}

static void
test_json(void **arg)
{
	static struct advice	a;
	static struct adv_probe	p;
	char			*j;
	int			 depth = 0;
	const char		*s;
	bool			 quoted = false;

	(void)arg;
	advice_linux(&a);
	j = capture(advise_json, &a, NULL);
	assert_non_null(strstr(j, "\"version\": 1,"));
	assert_non_null(strstr(j, "\"rate_bps\": 1000000000,"));
	assert_non_null(strstr(j, "\"rtt_s\": 0.15,"));
	assert_non_null(strstr(j, "\"rtt_source\": \"given\""));
	assert_non_null(strstr(j, "\"measurement\": null"));
	assert_non_null(strstr(j, "\"bdp_bytes\": 18750000,"));
	assert_non_null(strstr(j, "\"window_bytes\": 18750000,"));
	assert_non_null(strstr(j, "\"os\": \"linux\""));
	assert_non_null(strstr(j,
	    "\"receive_window_per_buffer_byte\": 0.625"));
	/* a capped send buffer's share, and the share a raise is sized at */
	assert_non_null(strstr(j, "\"send_window_per_buffer_byte\": 0.8333"));
	assert_non_null(strstr(j,
	    "\"send_sizing_window_per_buffer_byte\": 0.5,"));
	assert_non_null(strstr(j, "\"recommended\": \"4096 131072 67108864\""));
	assert_non_null(strstr(j, "\"needed\": 30000000"));
	assert_non_null(strstr(j, "\"limited_by\": \"net.ipv4.tcp_rmem\""));
	assert_non_null(strstr(j, "\"verdict\": \"tune\""));
	assert_non_null(strstr(j, "\"streams\": 1"));
	assert_non_null(strstr(j, "\"config_file\": null"));
	assert_non_null(strstr(j, "\"maxsockbuf_ceiling\": null"));
	/* prose generated from identifiers, and the identifiers beside it */
	assert_non_null(strstr(j, "\"why\": \"the receive buffer autotuning"));
	assert_non_null(strstr(j, "\"why_id\": \"linux-rmem-ceiling\""));
	assert_non_null(strstr(j, "\"note_ids\": [\n"));
	assert_non_null(strstr(j, "\"linux-receive-window-scaling-ratio\""));
	assert_non_null(strstr(j, "\"new-connections-only\""));
	assert_non_null(strstr(j, "\"verdict_text\": \"Now one stream"));
	/* balanced, and nothing outside strings but JSON */
	for (s = j; *s != '\0'; s++) {
		if (*s == '"' && (s == j || s[-1] != '\\'))
			quoted = !quoted;
		else if (!quoted && (*s == '{' || *s == '['))
			depth++;
		else if (!quoted && (*s == '}' || *s == ']'))
			depth--;
		assert_true(depth >= 0);
	}
	assert_int_equal(depth, 0);
	assert_false(quoted);
	free(j);
	/* a measurement, with a host that needs escaping */
	memset(&p, 0, sizeof(p));
	snprintf(p.host, sizeof(p.host), "a\"b\n\x01\xff");
	snprintf(p.addr, sizeof(p.addr), "127.0.0.1");
	p.port = 443;
	p.attempts = p.samples = 5;
	p.median = 0.0002;
	a.probe = &p;
	j = capture(advise_json, &a, NULL);
	assert_non_null(strstr(j, "\"host\": \"a\\\"b\\n\\u0001\\ufffd\""));
	assert_non_null(strstr(j, "\"rtt_source\": \"measured\""));
	assert_non_null(strstr(j, "\"median_s\": 0.0002"));
	free(j);
}

/* Every identifier the model can give has a name and a sentence. */
static void
test_words_complete(void **arg)
{
	static struct adv_input	 in;
	static struct adv_result r;
	struct adv_key		 k;
	struct adv_note		 n;
	char			 text[ADV_TEXT_MAX];
	int			 i, j;

	(void)arg;
	linux_stock(&in, "6.18.4");
	adv_model(&in, &r);
	memset(&k, 0, sizeof(k));
	memset(&n, 0, sizeof(n));
	for (i = 0; i < WHY_COUNT; i++) {
		k.why = (enum adv_why)i;
		assert_string_not_equal(adv_why_name(k.why), "?");
		adv_why_text(&r, &k, text, sizeof(text));
		assert_true(strlen(text) > 10);
		for (j = 0; j < i; j++)
			assert_string_not_equal(adv_why_name(k.why),
			    adv_why_name((enum adv_why)j));
	}
	for (i = 0; i < NOTE_COUNT; i++) {
		n.id = (enum adv_note_id)i;
		assert_string_not_equal(adv_note_name(n.id), "?");
		adv_note_text(&in, &r, &n, text, sizeof(text));
		assert_true(strlen(text) > 10);
		for (j = 0; j < i; j++)
			assert_string_not_equal(adv_note_name(n.id),
			    adv_note_name((enum adv_note_id)j));
	}
	for (i = VERDICT_OK; i <= VERDICT_CAPPED; i++) {
		r.verdict = (enum adv_verdict)i;
		adv_verdict_text(&r, text, sizeof(text));
		assert_true(strlen(text) > 10);
	}
}

/* The plist parses back through the daemon's reader without a problem. */
static struct config *
parse_back(const struct advice *a)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		*buf;
	size_t		 len, i;

	buf = capture(advise_plist, a, &len);
	errlist_init(&errs);
	cfg = config_parse(buf, len, "advice.plist", &errs);
	for (i = 0; i < errs.n; i++)
		print_message("%s\n", errs.msg[i]);
	assert_int_equal(errs.n, 0);
	assert_non_null(cfg);
	errlist_clear(&errs);
	free(buf);
	return cfg;
}

static void
test_plist_linux(void **arg)
{
	static struct advice	 a;
	struct config		*cfg;
	const struct config_key	*k;

	(void)arg;
	advice_linux(&a);
	cfg = parse_back(&a);
	assert_int_equal(cfg->nkeys, 4);
	assert_int_equal(cfg->check_interval, TT_CHECK_DEFAULT);
	assert_non_null(k = config_find(cfg, "net.ipv4.tcp_rmem"));
	assert_string_equal(k->value, "4096 131072 67108864");
	assert_int_equal(k->mode, MODE_AT_LEAST);
	assert_non_null(k = config_find(cfg, "net.core.wmem_max"));
	assert_string_equal(k->value, "67108864");
	config_free(cfg);
}

static void
test_plist_darwin_freebsd(void **arg)
{
	static struct advice	 a;
	static struct adv_probe	 p;
	struct config		*cfg;
	const struct config_key	*k;
	char			*buf;

	(void)arg;
	memset(&a, 0, sizeof(a));
	mac(&a.in, "65536");
	adv_model(&a.in, &a.res);
	/* a host name with "--" must not end the comments early */
	memset(&p, 0, sizeof(p));
	snprintf(p.host, sizeof(p.host), "a--b.example-");
	a.probe = &p;
	buf = capture(advise_plist, &a, NULL);
	assert_null(strstr(buf, "a--b"));
	assert_non_null(strstr(buf, "a- -b.example-"));
	/* the options, named without "--" (XML), never as "- -set" */
	assert_null(strstr(buf, "- -set"));
	assert_null(strstr(buf, "- -platform"));
	assert_non_null(strstr(buf, "option platform models a machine"));
	assert_non_null(strstr(buf, "named below as \"option set\""));
	free(buf);
	cfg = parse_back(&a);
	assert_non_null(k = config_find(cfg, "kern.ipc.maxsockbuf"));
	assert_string_equal(k->value, "8388608");
	assert_int_equal(k->on_reject, REJECT_CLAMP);
	assert_non_null(config_find(cfg, "net.inet.tcp.autosndbufmax"));
	/* shown only: not held by tcptuned */
	assert_null(config_find(cfg, "net.inet.tcp.recvspace"));
	assert_null(config_find(cfg, "kern.ipc.nmbclusters"));
	config_free(cfg);
	memset(&a, 0, sizeof(a));
	input(&a.in, TT_OS_FREEBSD, 1e9, 0.15);
	adv_model(&a.in, &a.res);
	cfg = parse_back(&a);
	assert_int_equal(cfg->nkeys, 3);
	assert_string_equal(config_find(cfg, "kern.ipc.maxsockbuf")->value,
	    "67108864");
	config_free(cfg);
}

/* The widest line of a text, in bytes (the advice is ASCII). */
static size_t
longest_line(const char *t)
{
	size_t	n, most = 0;

	while (*t != '\0') {
		n = strcspn(t, "\n");
		if (n > most)
			most = n;
		t += n + (t[n] == '\n');
	}
	return most;
}

static void
test_text(void **arg)
{
	static struct advice	 a;
	char			*t;

	(void)arg;
	advice_linux(&a);
	t = capture(advise_text, &a, NULL);
	assert_non_null(strstr(t, "Path        1 Gbit/s, round trip 150 ms\n"));
	assert_non_null(strstr(t, "18750000 bytes (17.9 MiB)"));
	/* each size under its bytes; the config and JSON keep bytes only */
	assert_non_null(strstr(t, "\nnet.ipv4.tcp_rmem  4096 131072 6291456"
	    "  4096 131072 67108864  30000000  raise\n"
	    "                   4 KiB 128 KiB 6 MiB  4 KiB 128 KiB 64 MiB"
	    "  28.6 MiB\n"));
	assert_true(longest_line(t) <= 80);
	assert_non_null(strstr(t, "Verdict: "));
	assert_non_null(strstr(t, "Add --config FILE"));
	free(t);
	memset(&a, 0, sizeof(a));
	mac(&a.in, "65536");
	adv_model(&a.in, &a.res);
	a.config_path = "out.plist";
	t = capture(advise_text, &a, NULL);
	assert_non_null(strstr(t, "cannot give one socket more than 8 MiB"));
	assert_non_null(strstr(t, "8388608*"));
	assert_non_null(strstr(t, "* stock default"));
	assert_non_null(strstr(t, "capped"));
	assert_non_null(strstr(t, "Wrote out.plist"));
	free(t);
}

/* ---- Windows */

static void
windows(struct adv_input *in, double rate, double rtt, const char *level)
{
	input(in, TT_OS_WINDOWS, rate, rtt);
	in->live = false;
	if (level != NULL)
		set(in, "tcp.autotuninglevel", level);
}

/*
 * What macOS advice says against tcptune's shipped config (the README's
 * values): every difference, with its reason; "This Mac" only when the
 * values were read on one; nothing "kept so it stays" that is capped.
 */
static void
test_darwin_shipped(void **arg)
{
	static struct advice	 a;
	struct adv_input	*in = &a.in;
	struct adv_result	*r = &a.res;
	char			*t;

	(void)arg;
	memset(&a, 0, sizeof(a));
	mac(in, "131072");			/* 16 GB: 16 MiB at most */
	adv_model(in, r);
	assert_true(has_note(in, r, "Compared with tcptune's shipped macOS "
	    "config (the README's values): net.inet.tcp.recvspace stays 131072 "
	    "(262144 there): only a new socket's first buffer, which "
	    "autotuning grows"));
	assert_true(has_note(in, r, "net.inet.tcp.autosndbufinc (65536 "
	    "there) is left alone: it sets how fast send autotuning grows a "
	    "buffer, not how far"));
	/* the same as shipped: not listed */
	assert_false(has_note(in, r, "kern.ipc.maxsockbuf 16777216 ("));
	assert_false(has_note(in, r, "autorcvbufmax 33554432 ("));
	assert_string_equal(key(r, "net.inet.tcp.autorcvbufmax")->recommended,
	    "33554432");
	t = capture(advise_text, &a, NULL);
	assert_non_null(strstr(t, "capped: kern.ipc.maxsockbuf stays below "
	    "the 18750000 bytes (17.9 MiB) this\n  path needs"));
	assert_null(strstr(t, "This Mac"));
	free(t);
	t = capture(advise_plist, &a, NULL);
	assert_null(strstr(t, "Already enough"));
	assert_non_null(strstr(t, "cannot be set higher here"));
	free(t);
	/* an 8 GB Mac: maxsockbuf below the shipped value, said why */
	mac(in, "65536");
	adv_model(in, r);
	assert_true(has_note(in, r, "kern.ipc.maxsockbuf 8388608 (16777216 "
	    "there): the most it can be here"));
	/* a short path: less than shipped is enough */
	mac(in, "131072");
	in->rate = 100e6;
	in->rtt = 0.05;
	adv_model(in, r);
	assert_true(has_note(in, r, "net.inet.tcp.autorcvbufmax 4194304 "
	    "(33554432 there): enough for this path, which needs 625000"));
	/* read on a Mac: "This Mac" */
	mac(in, "65536");
	in->live = true;
	adv_model(in, r);
	assert_non_null(strstr(verdict_text(r), "This Mac cannot give one "
	    "socket more than 8 MiB"));
}

/* Microsoft's table of levels: no scale, then 2, 4, 8, 14. */
static void
test_windows_ceilings(void **arg)
{
	static const struct {
		const char	*name;
		int		 scale;
		long long	 window;
	} want[] = {
		{ "disabled", -1, 65535 },
		{ "highlyrestricted", 2, 262140 },
		{ "restricted", 4, 1048560 },
		{ "normal", 8, 16776960 },
		{ "experimental", 14, 1073725440 },
	};
	int	i;

	(void)arg;
	assert_int_equal(adv_win_levels(), 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(adv_win_level_name(i), want[i].name);
		assert_int_equal(adv_win_level_scale(i), want[i].scale);
		assert_true(adv_win_level_window(i) == want[i].window);
	}
	/* experimental's window is the TCP limit itself */
	assert_true(adv_win_level_window(4) == ADV_MAX_WINDOW);
	assert_string_equal(adv_win_level_name(5), "?");
	assert_string_equal(adv_key_word("tcp.autotuninglevel", "Normal"),
	    "normal");
	assert_string_equal(adv_key_word("tcp.timestamps", "ALLOWED"),
	    "allowed");
	assert_null(adv_key_word("offload.rss", "on"));
	assert_null(adv_key_word("tcp.autotuninglevel", "fast"));
	assert_int_equal(adv_key_words("offload.rsc"), 0);
	assert_true(adv_key_known(TT_OS_WINDOWS, "tcp.timestamps"));
	assert_false(adv_key_known(TT_OS_WINDOWS, "net.ipv4.tcp_rmem"));
}

/* Every level at 1 Gbit/s and 150 ms: 18.75 MB, more than normal's. */
static void
test_windows_each_level_long_path(void **arg)
{
	static const double	 mbit[] = {
		3.4952, 13.9808, 55.9232, 894.7712, 1000
	};
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;
	int			 i;

	(void)arg;
	for (i = 0; i < 5; i++) {
		windows(&in, 1e9, 0.15, adv_win_level_name(i));
		adv_model(&in, &r);
		assert_true(r.window == 18750000);
		assert_int_equal(r.win_level, i);
		assert_int_equal(r.win_least, 4);
		/* normal, never experimental unless it is the level */
		assert_int_equal(r.win_rec, i == 4 ? 4 : 3);
		assert_true(r.now_rcv.window == adv_win_level_window(i));
		assert_true(near(r.now_rcv.rate, mbit[i] * 1e6, 1e-4));
		assert_true(near(r.rec_rcv.rate, mbit[i == 4 ? 4 : 3] * 1e6,
		    1e-4));
		assert_true(r.now_snd.rate == 1e9);
		k = key(&r, "tcp.autotuninglevel");
		assert_string_equal(k->current, adv_win_level_name(i));
		assert_false(k->assumed);
		assert_string_equal(k->recommended, i == 4 ? "experimental" :
		    "normal");
		assert_true(k->needed == 18750000);
		assert_int_equal(k->role, ROLE_CEILING);
		assert_int_equal(k->why, WHY_WIN_AUTOTUNING);
		assert_int_equal(r.verdict, i == 4 ? VERDICT_OK :
		    VERDICT_CAPPED);
		assert_int_equal(r.streams, i == 4 ? 1 : 2);
		assert_int_equal(has_note_id(&r, NOTE_WIN_REDUCED), i < 3);
		assert_true(has_note_id(&r, NOTE_WIN_LEVELS));
		assert_true(has_note(&in, &r, i == 4 ? "experimental is the "
		    "least level that holds the 18750000 bytes" : "Only "
		    "experimental holds the 18750000 bytes"));
		/* Microsoft's warning, whether kept or not proposed */
		assert_true(has_note(&in, &r, "\"WARNING: This can "
		    "dramatically degrade performance in common scenarios and "
		    "should only be used for research purposes.\""));
		assert_true(has_note(&in, &r, i == 4 ? "experimental is kept "
		    "because it is the level already" : "To see what it would "
		    "give, model it with --set tcp.autotuninglevel="
		    "experimental."));
		if (i < 4)
			assert_null(strstr(verdict_text(&r), "experimental"));
	}
	windows(&in, 1e9, 0.15, NULL);		/* the stock level */
	adv_model(&in, &r);
	assert_true(key(&r, "tcp.autotuninglevel")->assumed);
	assert_string_equal(r.now_rcv.limit, "tcp.autotuninglevel");
	assert_string_equal(verdict_text(&r), "With auto-tuning level "
	    "normal, Microsoft's default, a receive window grows to 16 MiB: "
	    "one stream receives about 895 Mbit/s at 150 ms, not the 1 "
	    "Gbit/s that needs 17.9 MiB in flight. Use 2 or more parallel "
	    "streams.");
	/* from disabled: one step, to normal, and what it was */
	windows(&in, 1e9, 0.15, "disabled");
	adv_model(&in, &r);
	assert_string_equal(key(&r, "tcp.autotuninglevel")->recommended,
	    "normal");
	assert_non_null(strstr(verdict_text(&r), "(with disabled now: 64 "
	    "KiB, about 3.5 Mbit/s)"));
	windows(&in, 1e9, 0.15, NULL);
	adv_model(&in, &r);
	assert_true(has_note_id(&r, NOTE_ASSUMED_MODEL));
}

/* Shorter paths: the least level that suffices, and never lower one. */
static void
test_windows_short_paths(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	/* 100 Mbit/s at 10 ms: 125000 bytes, highlyrestricted holds it */
	windows(&in, 100e6, 0.01, "normal");
	adv_model(&in, &r);
	assert_int_equal(r.win_least, 1);
	assert_int_equal(r.win_rec, 3);
	assert_int_equal(r.verdict, VERDICT_OK);
	assert_false(key(&r, "tcp.autotuninglevel")->change);
	assert_non_null(strstr(verdict_text(&r), "nothing needs to change"));
	/* disabled: 64 KiB in 10 ms, the tuning guide's "only 51 Mbps" */
	windows(&in, 100e6, 0.01, "disabled");
	adv_model(&in, &r);
	assert_true(near(r.now_rcv.rate, 52.428e6, 1e-4));
	assert_string_equal(key(&r, "tcp.autotuninglevel")->recommended,
	    "normal");
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_true(has_note(&in, &r, "turned down (disabled)"));
	/* restricted holds it, but is below normal: raised anyway */
	windows(&in, 20e6, 0.05, "restricted");
	adv_model(&in, &r);
	assert_int_equal(r.win_least, 1);
	assert_true(r.now_rcv.rate == 20e6);
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_non_null(strstr(verdict_text(&r), "turned down, though"));
	assert_string_equal(key(&r, "tcp.autotuninglevel")->recommended,
	    "normal");
	assert_true(key(&r, "tcp.autotuninglevel")->change);
	assert_true(has_note_id(&r, NOTE_WIN_REDUCED));
	/* experimental kept, though normal would do */
	windows(&in, 1e9, 0.01, "experimental");
	adv_model(&in, &r);
	assert_int_equal(r.win_least, 3);
	assert_string_equal(key(&r, "tcp.autotuninglevel")->recommended,
	    "experimental");
	assert_false(key(&r, "tcp.autotuninglevel")->change);
	/* 10 Gbit/s at 1 s: 1.25 GB, beyond any window */
	windows(&in, 10e9, 1.0, "normal");
	adv_model(&in, &r);
	assert_int_equal(r.win_least, 4);
	assert_int_equal(r.win_rec, 3);
	assert_int_equal(r.verdict, VERDICT_CAPPED);
	assert_int_equal(r.streams, 75);
	assert_non_null(strstr(verdict_text(&r), "75 or more parallel"));
	/* asked for experimental: beyond any window still */
	windows(&in, 10e9, 1.0, "experimental");
	adv_model(&in, &r);
	assert_true(r.rec_rcv.window_limited);
	assert_int_equal(r.streams, 2);
	assert_non_null(strstr(verdict_text(&r), "at most 1 GiB"));
}

/* Receive-Side Scaling off, RSC off, timestamps as they ship. */
static void
test_windows_flags(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;
	const struct adv_key	*k;

	(void)arg;
	windows(&in, 100e6, 0.01, "normal");
	adv_model(&in, &r);
	assert_false(has_note_id(&r, NOTE_WIN_RSS_OFF));
	assert_false(has_note_id(&r, NOTE_WIN_RSC_OFF));
	assert_true(has_note_id(&r, NOTE_WIN_TIMESTAMPS_OFF));
	assert_string_equal(key(&r, "tcp.timestamps")->current, "disabled");
	assert_true(key(&r, "tcp.timestamps")->assumed);
	set(&in, "offload.rss", "disabled");
	set(&in, "offload.rsc", "Disabled");
	set(&in, "tcp.timestamps", "enabled");
	adv_model(&in, &r);
	k = key(&r, "offload.rss");
	assert_int_equal(k->role, ROLE_SWITCH);
	assert_string_equal(k->recommended, "enabled");
	assert_true(k->change);
	/* the window suffices, but the advice is to change RSS */
	assert_int_equal(r.verdict, VERDICT_TUNE);
	assert_non_null(strstr(verdict_text(&r), "Receive-Side Scaling is "
	    "off"));
	assert_true(has_note(&in, &r, "usually beneficial"));
	k = key(&r, "offload.rsc");
	assert_int_equal(k->role, ROLE_INFO);
	assert_string_equal(k->current, "disabled");
	assert_false(k->change);
	assert_true(has_note_id(&r, NOTE_WIN_RSC_OFF));
	assert_false(has_note_id(&r, NOTE_WIN_TIMESTAMPS_OFF));
	set(&in, "tcp.timestamps", "allowed");
	adv_model(&in, &r);
	assert_true(has_note(&in, &r, "timestamps are only allowed"));
	/* a value read that no level names: the stock one, marked */
	set(&in, "tcp.autotuninglevel", "7");
	adv_model(&in, &r);
	assert_true(key(&r, "tcp.autotuninglevel")->assumed);
	assert_int_equal(r.win_level, 3);
}

/* Scaling heuristics on, a QoS policy value: each flagged, with the fix. */
static void
test_windows_heuristics_and_qos(void **arg)
{
	struct adv_input	 in;
	struct adv_result	 r;

	(void)arg;
	windows(&in, 100e6, 0.01, "normal");
	adv_model(&in, &r);
	assert_false(has_note_id(&r, NOTE_WIN_HEURISTICS_ON));
	assert_false(has_note_id(&r, NOTE_WIN_QOS_POLICY));
	set(&in, "tcp.scalingheuristics", "Enabled");
	set(&in, "qos.tcpautotuninglevel", "off");
	adv_model(&in, &r);
	assert_true(has_note_id(&r, NOTE_WIN_HEURISTICS_ON));
	assert_true(has_note(&in, &r, "netsh interface tcp set heuristics "
	    "disabled"));
	assert_true(has_note_id(&r, NOTE_WIN_QOS_POLICY));
	assert_true(has_note(&in, &r, "\"Tcp Autotuning Level\" = \"off\" "
	    "under HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\QoS"));
	set(&in, "qos.tcpautotuninglevel", "notconfigured");
	adv_model(&in, &r);
	assert_false(has_note_id(&r, NOTE_WIN_QOS_POLICY));
	/* the spellings tools write: "Not Configured" sets nothing */
	set(&in, "qos.tcpautotuninglevel", "Not Configured");
	adv_model(&in, &r);
	assert_false(has_note_id(&r, NOTE_WIN_QOS_POLICY));
	set(&in, "qos.tcpautotuninglevel", "Highly Restricted");
	adv_model(&in, &r);
	assert_true(has_note_id(&r, NOTE_WIN_QOS_POLICY));
}

/* Read live on a Windows without the classes (Wine): why, once. */
static void
test_windows_unread(void **arg)
{
	static const char	*why = "MSFT_NetTCPSetting is not on this "
	    "Windows (root/StandardCimv2: WBEM_E_INVALID_CLASS 0x80041010)";
	struct adv_input	 in;
	struct adv_result	 r;
	char			 text[ADV_NOTE_MAX];
	size_t			 i;

	(void)arg;
	windows(&in, 1e9, 0.05, NULL);
	in.live = true;
	set(&in, "offload.rss", "enabled");	/* this one was read */
	assert_int_equal(adv_input_set(&in, "tcp.autotuninglevel", NULL,
	    ENOENT, false), 0);
	adv_input_why(&in, "tcp.autotuninglevel", why);
	assert_int_equal(adv_input_set(&in, "tcp.timestamps", NULL, ENOENT,
	    false), 0);
	adv_input_why(&in, "tcp.timestamps", why);
	adv_model(&in, &r);
	assert_true(has_note_id(&r, NOTE_ASSUMED_LIVE));
	for (i = 0; i < r.nnotes; i++)
		if (r.notes[i].id == NOTE_UNREAD)
			adv_note_text(&in, &r, &r.notes[i], text, sizeof(text));
	assert_non_null(strstr(text, "Could not read tcp.autotuninglevel, "
	    "tcp.timestamps here (MSFT_NetTCPSetting is not on this Windows"));
	/* the reason once, not per key */
	assert_null(strstr(strstr(text, why) + 1, why));
	assert_false(r.none_read);
	/* nothing read at all: said plainly, a stock Windows modelled */
	assert_int_equal(adv_input_set(&in, "offload.rss", NULL, ENOENT,
	    false), 0);
	assert_int_equal(adv_input_set(&in, "offload.rsc", NULL, ENOENT,
	    false), 0);
	assert_int_equal(adv_input_set(&in, "tcp.scalingheuristics", NULL,
	    ENOENT, false), 0);
	/* the registry answers even where CIM does not (Wine) */
	set(&in, "qos.tcpautotuninglevel", "notconfigured");
	adv_model(&in, &r);
	assert_true(r.none_read);
	assert_true(has_note_id(&r, NOTE_NONE_READ));
	assert_false(has_note_id(&r, NOTE_ASSUMED_LIVE));
	assert_true(has_note(&in, &r, "the advice is for a stock Windows, as "
	    "--platform windows gives it"));
	/* a value given with --set is something known: not "nothing" */
	assert_int_equal(adv_input_set(&in, "offload.rss", "enabled", 0,
	    true), 0);
	adv_model(&in, &r);
	assert_false(r.none_read);
}

static void
test_windows_outputs(void **arg)
{
	static struct advice	 a;
	struct config		*cfg;
	const struct config_key	*k;
	char			*j, *t;

	(void)arg;
	memset(&a, 0, sizeof(a));
	windows(&a.in, 1e9, 0.15, "restricted");
	set(&a.in, "offload.rss", "disabled");
	adv_model(&a.in, &a.res);
	j = capture(advise_json, &a, NULL);
	assert_non_null(strstr(j, "\"os\": \"windows\""));
	assert_non_null(strstr(j, "\"level\": \"restricted\""));
	assert_non_null(strstr(j, "\"window_ceiling_bytes\": 1048560,"));
	assert_non_null(strstr(j, "\"least_level\": \"experimental\""));
	assert_non_null(strstr(j, "\"recommended_level\": \"normal\""));
	assert_non_null(strstr(j, "\"windows-experimental-warning\""));
	assert_non_null(strstr(j, "\"name\": \"disabled\",\n"));
	assert_non_null(strstr(j, "\"scale\": null"));
	assert_non_null(strstr(j, "\"scale\": 14,"));
	assert_non_null(strstr(j, "\"window_ceiling_bytes\": 1073725440"));
	assert_non_null(strstr(j, "\"why_id\": \"windows-autotuning-level\""));
	assert_non_null(strstr(j, "\"windows-autotuning-ceilings\""));
	assert_non_null(strstr(j, "\"windows-autotuning-reduced\""));
	assert_non_null(strstr(j, "\"windows-rss-off\""));
	assert_non_null(strstr(j, "\"limited_by\": \"tcp.autotuninglevel\""));
	assert_non_null(strstr(j, "\"verdict\": \"capped\""));
	free(j);
	t = capture(advise_text, &a, NULL);
	assert_non_null(strstr(t, "Windows (--platform)"));
	/* no AT LEAST column for levels: the window is said below */
	assert_non_null(strstr(t, "KEY                  CURRENT     "
	    "RECOMMENDED  CHANGE\ntcp.autotuninglevel  restricted  normal"
	    "       raise, capped\n"));
	assert_null(strstr(t, "AT LEAST"));
	assert_non_null(strstr(t, "tcp.autotuninglevel: this path needs a "
	    "receive window of 18750000 bytes\n  (17.9 MiB); normal lets it "
	    "grow to 16 MiB."));
	assert_null(strstr(t, "experimental  "));
	/* merged by hand, not put in its place; --apply named (issue 45) */
	assert_non_null(strstr(t, "%ProgramData%\\tcptune\\tcptune.conf by "
	    "hand"));
	assert_non_null(strstr(t, "--apply"));
	assert_non_null(strstr(t, "held by tcp.autotuninglevel"));
	assert_non_null(strstr(t, "offload.rsc          enabled*"));
	free(t);
	/* the plist: the two keys tcptuned holds, enforced, nothing else */
	t = capture(advise_plist, &a, NULL);
	assert_non_null(strstr(t, "%ProgramData%\\tcptune\\tcptune.conf"));
	assert_null(strstr(t, "at-least"));
	assert_non_null(strstr(t, "<string>normal</string>"));
	assert_null(strstr(t, "<string>experimental</string>"));
	free(t);
	cfg = parse_back(&a);
	assert_int_equal(cfg->nkeys, 2);
	assert_non_null(k = config_find(cfg, "tcp.autotuninglevel"));
	assert_string_equal(k->value, "normal");
	assert_int_equal(k->mode, MODE_ENFORCE);
	assert_non_null(k = config_find(cfg, "offload.rss"));
	assert_string_equal(k->value, "enabled");
	assert_null(config_find(cfg, "offload.rsc"));
	assert_null(config_find(cfg, "tcp.timestamps"));
	config_free(cfg);
}

/* ---- --host */

static void
split_ok(const char *arg, const char *want_host, int want_port)
{
	char	host[64], err[128];
	int	port = -1;

	assert_int_equal(adv_split_host(arg, host, sizeof(host), &port, err,
	    sizeof(err)), 0);
	assert_string_equal(host, want_host);
	assert_int_equal(port, want_port);
}

static void
split_bad(const char *arg)
{
	char	host[64], err[128] = "";
	int	port;

	assert_int_equal(adv_split_host(arg, host, sizeof(host), &port, err,
	    sizeof(err)), -1);
	assert_true(err[0] != '\0');
}

static void
test_split_host(void **arg)
{
	(void)arg;
	split_ok("example.com", "example.com", 443);
	split_ok("localhost:8080", "localhost", 8080);
	split_ok("127.0.0.1:1", "127.0.0.1", 1);
	split_ok("[::1]:65535", "::1", 65535);
	split_ok("[::1]", "::1", 443);
	split_ok("::1", "::1", 443);
	split_ok("fe80::1", "fe80::1", 443);
	split_bad("");
	split_bad(":80");
	split_bad("host:");
	split_bad("host:0");
	split_bad("host:65536");
	split_bad("host:http");
	split_bad("host:-1");
	split_bad("[::1");
	split_bad("[::1]x");
	split_bad("[::1]:");
	split_bad("[]:80");
	split_bad("a b");
	split_bad("a/b");
}

/* A listener on 127.0.0.1 (only), on a port the kernel picks. */
static int
listener(int *port)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof(sin);
	int			fd;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true((fd = socket(AF_INET, SOCK_STREAM, 0)) != -1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(fd, 16), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

static void
test_probe_loopback(void **arg)
{
	struct adv_probe	p;
	char			err[256] = "";
	int			fd, port;

	(void)arg;
	fd = listener(&port);
	assert_int_equal(adv_probe_rtt("127.0.0.1", port, 3, 2.0, &p, err,
	    sizeof(err)), 0);
	assert_int_equal(p.attempts, 3);
	assert_int_equal(p.samples, 3);
	assert_int_equal(p.refused, 0);
	assert_string_equal(p.addr, "127.0.0.1");
	assert_true(p.min <= p.median && p.median <= p.max);
	assert_true(p.median >= ADV_RTT_MIN && p.median < 0.5);
	close(fd);
	/* the port is closed now: a reset is a round trip too */
	assert_int_equal(adv_probe_rtt("127.0.0.1", port, 2, 2.0, &p, err,
	    sizeof(err)), 0);
	assert_int_equal(p.samples, 2);
	assert_int_equal(p.refused, 2);
	/* a name that cannot resolve (RFC 6761: .invalid never does) */
	assert_int_equal(adv_probe_rtt("tcptune-test.invalid", 443, 1, 2.0,
	    &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot resolve tcptune-test.invalid"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_units),
		cmocka_unit_test(test_rate_bad),
		cmocka_unit_test(test_rtt_units),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_linux_send_capped),
		cmocka_unit_test(test_linux_bench_rows),
		cmocka_unit_test(test_linux_after_6_6),
		cmocka_unit_test(test_linux_before_6_6),
		cmocka_unit_test(test_linux_enough_and_never_lower),
		cmocka_unit_test(test_linux_autotuning_off),
		cmocka_unit_test(test_unread_values),
		cmocka_unit_test(test_darwin_8gb),
		cmocka_unit_test(test_darwin_8gb_whole),
		cmocka_unit_test(test_darwin_shipped),
		cmocka_unit_test(test_darwin_stock_by_release),
		cmocka_unit_test(test_darwin_by_memory),
		cmocka_unit_test(test_darwin_ram_release),
		cmocka_unit_test(test_freebsd_headroom),
		cmocka_unit_test(test_window_limit),
		cmocka_unit_test(test_keys_and_names),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_words_complete),
		cmocka_unit_test(test_plist_linux),
		cmocka_unit_test(test_plist_darwin_freebsd),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_windows_ceilings),
		cmocka_unit_test(test_windows_each_level_long_path),
		cmocka_unit_test(test_windows_short_paths),
		cmocka_unit_test(test_windows_flags),
		cmocka_unit_test(test_windows_heuristics_and_qos),
		cmocka_unit_test(test_windows_unread),
		cmocka_unit_test(test_windows_outputs),
		cmocka_unit_test(test_split_host),
		cmocka_unit_test(test_probe_loopback),
	};

	return cmocka_run_group_tests_name("advise", tests, NULL, NULL);
}
