/*
 * The per-OS key catalogue (lib/catalogue.c) and a config checked against
 * it (lib/config_model.c): the table is consistent (every nearest key named
 * is a key of that OS, every ceiling a key written before those it caps,
 * every key of the apply plan and of the shipped configs catalogued),
 * "did you mean" (the distance is lib/util.c's), each kind of refusal, OS names, sizes in words, the kernel asked through a
 * backend, the daemon's reader (CONFIG_CHECK_OS) refusing what cannot
 * apply with file:line, and the macOS keys by xnu release (the facts,
 * the fake kernel against them, check's warnings).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "config.h"

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

#include "tcptune.h"
#include "fake_kernel.h"

static void
test_table_consistent(void **state)
{
	const struct cat_key	*k, *n;
	size_t			 i;
	int			 os;

	(void)state;
	for (i = 0; (k = catalogue_at(i)) != NULL; i++) {
		assert_non_null(k->what);
		assert_true(k->os != 0);
		assert_true(k->nums >= 0 && k->nums <= CAT_MAX_NUMS);
		assert_true(k->min <= k->max);
		/* A key is listed once: the first match is itself. */
		assert_ptr_equal(catalogue_find_any(k->name[strlen(k->name) -
		    1] == '.' ? "tcp.congestionprovider.x" : k->name), k);
		for (os = 0; os < TT_OS_N; os++) {
			if (k->alt[os] == NULL)
				continue;
			/* No nearest on an OS that has the key itself. */
			assert_false(k->os & TT_OS_BIT(os));
			n = catalogue_find(k->alt[os], (enum tt_os)os);
			if (n == NULL)
				fail_msg("%s: alt[%d] %s is not a key there",
				    k->name, os, k->alt[os]);
		}
	}
	assert_true(i > 30);
	assert_null(catalogue_at(i));
}

/*
 * The order column (plan.c's): a key's ceiling is a key of one of its
 * OSes, written before it.
 */
static void
test_table_ceilings(void **state)
{
	const struct cat_key	*k, *cap;
	size_t			 i;

	(void)state;
	for (i = 0; (k = catalogue_at(i)) != NULL; i++) {
		assert_true(k->rank == 0 || k->rank == 1);
		if (k->capped_by == NULL)
			continue;
		if ((cap = catalogue_find_any(k->capped_by)) == NULL)
			fail_msg("%s: ceiling %s is not catalogued", k->name,
			    k->capped_by);
		if ((cap->os & k->os) == 0 || cap->rank >= k->rank)
			fail_msg("%s: ceiling %s is not a key of its OS "
			    "written before it", k->name, k->capped_by);
	}
}

/* plan.c's ranks and the shipped configs' keys are all catalogued. */
static void
test_known_keys_catalogued(void **state)
{
	static const struct {
		const char	*name;
		enum tt_os	 os;
	} known[] = {
		{ "kern.ipc.maxsockbuf", TT_OS_DARWIN },
		{ "kern.ipc.maxsockbuf", TT_OS_FREEBSD },
		{ "net.inet.tcp.sendspace", TT_OS_DARWIN },
		{ "net.inet.tcp.recvspace", TT_OS_FREEBSD },
		{ "net.inet.tcp.autorcvbufmax", TT_OS_DARWIN },
		{ "net.inet.tcp.autosndbufmax", TT_OS_DARWIN },
		{ "net.inet.tcp.autosndbufinc", TT_OS_DARWIN },
		{ "net.inet.tcp.sendbuf_max", TT_OS_FREEBSD },
		{ "net.inet.tcp.recvbuf_max", TT_OS_FREEBSD },
		{ "net.inet.tcp.sendbuf_inc", TT_OS_FREEBSD },
		{ "net.core.rmem_max", TT_OS_LINUX },
		{ "net.core.wmem_max", TT_OS_LINUX },
		{ "net.ipv4.tcp_rmem", TT_OS_LINUX },
		{ "net.ipv4.tcp_wmem", TT_OS_LINUX },
		{ "tcp.autotuninglevel", TT_OS_WINDOWS },
		{ "offload.rss", TT_OS_WINDOWS },
		{ "tcp.congestionprovider.internet", TT_OS_WINDOWS },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NITEMS(known); i++)
		if (catalogue_find(known[i].name, known[i].os) == NULL)
			fail_msg("%s is not catalogued", known[i].name);
	assert_null(catalogue_find("tcp.congestionprovider.", TT_OS_WINDOWS));
	assert_null(catalogue_find("net.core.rmem_max", TT_OS_DARWIN));
}

static void
test_nearest(void **state)
{
	const struct cat_key	*k;

	(void)state;
	k = catalogue_nearest("net.ipv4.tcp_rmme", TT_OS_LINUX);
	assert_non_null(k);
	assert_string_equal(k->name, "net.ipv4.tcp_rmem");
	/* tcp_wmen: one change from wmem, two from rmem */
	k = catalogue_nearest("net.ipv4.tcp_wmen", TT_OS_LINUX);
	assert_string_equal(k->name, "net.ipv4.tcp_wmem");
	/* Too far, and short names take one edit only. */
	assert_null(catalogue_nearest("net.ipv4.tcp_keepalive_time",
	    TT_OS_LINUX));
	assert_null(catalogue_nearest("net.a", TT_OS_LINUX));
	/* Only this OS's keys. */
	assert_null(catalogue_nearest("kern.ipc.maxsockbf", TT_OS_LINUX));
	assert_non_null(catalogue_nearest("kern.ipc.maxsockbf", TT_OS_DARWIN));
}

/* verdict and message of one check */
static void
expect(const char *name, const char *value, enum tt_os os,
    enum cat_verdict want, const char *msg)
{
	char	why[512] = "";

	assert_int_equal(catalogue_check(name, value, os, why, sizeof(why)),
	    want);
	if (msg != NULL)
		assert_string_equal(why, msg);
}

static void
test_check(void **state)
{
	(void)state;
	expect("net.ipv4.tcp_rmem", "4096 131072 67108864", TT_OS_LINUX,
	    CAT_OK, NULL);
	expect("net.ipv4.tcp_rmem", "4096", TT_OS_LINUX, CAT_REFUSED,
	    "net.ipv4.tcp_rmem takes three numbers: min default max, not 1");
	expect("kern.ipc.maxsockbuf", "16777216", TT_OS_LINUX, CAT_REFUSED,
	    "kern.ipc.maxsockbuf is a macOS/FreeBSD key; on Linux use "
	    "net.core.rmem_max");
	expect("net.inet.tcp.autosndbufinc", "65536", TT_OS_LINUX,
	    CAT_REFUSED, "net.inet.tcp.autosndbufinc is a macOS key; Linux "
	    "has no equivalent");
	expect("net.ipv4.tcp_rmme", "1 2 3", TT_OS_LINUX, CAT_REFUSED,
	    "net.ipv4.tcp_rmme is not a Linux key: did you mean "
	    "net.ipv4.tcp_rmem?");
	expect("net.ipv4.tcp_wmem", "4096 16384 4294967296", TT_OS_LINUX,
	    CAT_REFUSED, "net.ipv4.tcp_wmem: 4294967296 is out of range: at "
	    "most 2147483647 (2 GiB - 1)");
	expect("net.ipv4.tcp_adv_win_scale", "-2", TT_OS_LINUX, CAT_OK,
	    NULL);
	expect("net.ipv4.tcp_adv_win_scale", "-32", TT_OS_LINUX, CAT_REFUSED,
	    "net.ipv4.tcp_adv_win_scale: -32 is out of range: at least -31");
	expect("net.ipv4.tcp_rmem", "8192 4096 65536", TT_OS_LINUX,
	    CAT_REFUSED, NULL);
	expect("net.ipv4.tcp_congestion_control", "bbr", TT_OS_LINUX, CAT_OK,
	    NULL);
	expect("tcp.autotuninglevel", "normal", TT_OS_WINDOWS, CAT_OK, NULL);
	expect("tcp.autotuninglevel", "fast", TT_OS_WINDOWS, CAT_REFUSED,
	    "tcp.autotuninglevel takes disabled, highlyrestricted, "
	    "restricted, normal or experimental, not \"fast\"");
	expect("tcp.congestionprovider.internet", "cubic", TT_OS_WINDOWS,
	    CAT_OK, NULL);
	/* xnu: LOW_SB_MAX 18432 < v; FreeBSD: at least 2304. */
	expect("kern.ipc.maxsockbuf", "4608", TT_OS_DARWIN, CAT_REFUSED,
	    "kern.ipc.maxsockbuf: 4608 is out of range: at least 18433");
	expect("kern.ipc.maxsockbuf", "18432", TT_OS_DARWIN, CAT_REFUSED,
	    NULL);
	expect("kern.ipc.maxsockbuf", "18433", TT_OS_DARWIN, CAT_OK, NULL);
	expect("kern.ipc.maxsockbuf", "4608", TT_OS_FREEBSD, CAT_OK, NULL);
	expect("kern.ipc.maxsockbuf", "2303", TT_OS_FREEBSD, CAT_REFUSED,
	    "kern.ipc.maxsockbuf: 2303 is out of range: at least 2304");
	/* xnu's skmem ints are signed ("I"). */
	expect("net.inet.tcp.autorcvbufmax", "2147483648", TT_OS_DARWIN,
	    CAT_REFUSED,
	    "net.inet.tcp.autorcvbufmax: 2147483648 is out of range: at most "
	    "2147483647 (2 GiB - 1)");
	expect("net.a", "1", TT_OS_LINUX, CAT_UNKNOWN, NULL);
	expect("vm.swappiness", "1", TT_OS_LINUX, CAT_UNKNOWN, NULL);
	/* Mode 0444: a write fails whatever the value. */
	expect("net.ipv4.tcp_available_congestion_control", "reno cubic",
	    TT_OS_LINUX, CAT_REFUSED, "net.ipv4.tcp_available_congestion_"
	    "control is read only: set net.ipv4.tcp_congestion_control "
	    "instead");
	expect("net.core.netdev_rss_key", "00:11", TT_OS_LINUX, CAT_REFUSED,
	    "net.core.netdev_rss_key is read only: the kernel only reports "
	    "it");
	expect("net.ipv4.tcp_available_ulp", "tls", TT_OS_FREEBSD,
	    CAT_UNKNOWN, NULL);
}

/* The congestion controls the kernel lists, and a word among them. */
static void
test_kernel_words(void **state)
{
	const char	*module = NULL;

	(void)state;
	assert_string_equal(catalogue_words_key(
	    "net.ipv4.tcp_congestion_control", TT_OS_LINUX, &module),
	    "net.ipv4.tcp_available_congestion_control");
	assert_string_equal(module, "tcp_");
	assert_null(catalogue_words_key("net.inet.tcp.cc.algorithm",
	    TT_OS_FREEBSD, &module));
	assert_null(catalogue_words_key("net.ipv4.tcp_rmem", TT_OS_LINUX,
	    &module));
	assert_true(catalogue_word_listed("cubic", "reno cubic"));
	assert_true(catalogue_word_listed("reno", "reno cubic"));
	assert_true(catalogue_word_listed("bbr", " bbr\n"));
	assert_false(catalogue_word_listed("bbr", "reno cubic"));
	assert_false(catalogue_word_listed("cub", "reno cubic"));
	assert_false(catalogue_word_listed("cubic2", "reno cubic"));
	assert_false(catalogue_word_listed("", "reno cubic"));
	assert_false(catalogue_word_listed("reno", ""));
}

static void
test_os_names(void **state)
{
	enum tt_os	os = TT_OS_N;

	(void)state;
	assert_int_equal(catalogue_os_parse("linux", &os), 0);
	assert_int_equal(os, TT_OS_LINUX);
	assert_int_equal(catalogue_os_parse("macos", &os), 0);
	assert_int_equal(os, TT_OS_DARWIN);
	assert_int_equal(catalogue_os_parse("mac", &os), 0);
	assert_int_equal(os, TT_OS_DARWIN);
	assert_int_equal(catalogue_os_parse("win11", &os), 0);
	assert_int_equal(os, TT_OS_WINDOWS);
	assert_int_equal(catalogue_os_parse("amiga", &os), -1);
	assert_string_equal(catalogue_os_label(TT_OS_FREEBSD), "FreeBSD");
	assert_string_equal(catalogue_os_name(TT_OS_DARWIN), "darwin");
	assert_string_equal(catalogue_os_word(TT_OS_DARWIN), "macos");
	assert_string_equal(catalogue_os_always_key(TT_OS_WINDOWS),
	    "tcp.autotuninglevel");
}

/* Each OS's name and the word a message tells a user to type parse back. */
static void
test_os_words_parse(void **state)
{
	enum tt_os	os, got;

	(void)state;
	for (os = 0; os < TT_OS_N; os++) {
		assert_int_equal(catalogue_os_parse(catalogue_os_name(os),
		    &got), 0);
		assert_int_equal(got, os);
		assert_int_equal(catalogue_os_parse(catalogue_os_word(os),
		    &got), 0);
		assert_int_equal(got, os);
		assert_non_null(catalogue_os_always_key(os));
	}
}

/* The one list of OSes messages name, in each style (issue 33). */
static void
test_os_list(void **state)
{
	char	buf[CAT_OS_LIST_MAX], small[12];

	(void)state;
	catalogue_os_list(CAT_OS_LABELS, buf, sizeof(buf));
	assert_string_equal(buf, "Linux, macOS, FreeBSD and Windows");
	catalogue_os_list(CAT_OS_NAMES, buf, sizeof(buf));
	assert_string_equal(buf, "linux, darwin, freebsd or windows");
	catalogue_os_list(CAT_OS_WORDS, buf, sizeof(buf));
	assert_string_equal(buf, "linux, darwin (mac, macos, osx), freebsd "
	    "or windows (win, win10, win11)");
	catalogue_os_list(CAT_OS_WORDS, small, sizeof(small));
	assert_string_equal(small, "linux, darw");
}

/* Every word the list offers is one --platform takes. */
static void
test_os_list_parses(void **state)
{
	char		 buf[CAT_OS_LIST_MAX], *w;
	size_t		 n, words = 0;
	enum tt_os	 os;

	(void)state;
	catalogue_os_list(CAT_OS_WORDS, buf, sizeof(buf));
	for (w = buf; *(w += strspn(w, " ,()")) != '\0'; w += n) {
		n = strcspn(w, " ,()");
		if (w[n] != '\0')
			w[n++] = '\0';
		if (strcmp(w, "or") != 0) {
			assert_int_equal(catalogue_os_parse(w, &os), 0);
			words++;
		}
	}
	assert_int_equal(words, 10);
}

/* words holds the same words as codes, in any order. */
static bool
same_words(const char *const *words, const char *const *codes)
{
	size_t	i, j, n = 0;

	for (i = 0; words[i] != NULL; i++) {
		for (j = 0; codes[j] != NULL; j++)
			if (strcmp(words[i], codes[j]) == 0)
				break;
		if (codes[j] == NULL)
			return false;
	}
	while (codes[n] != NULL)
		n++;
	return i == n;
}

/*
 * Every Windows key check knows is one the backend serves (win_keys[]),
 * with the same words; and the backend's refusal of another lists them
 * (issue 33: a Windows key is one row).
 */
static void
test_win_keys(void **state)
{
	const struct cat_key		*k;
	const struct cat_win_key	*w;
	char				 name[TT_NAME_MAX], list[CAT_WIN_KEYS_MAX];
	size_t				 i;

	(void)state;
	for (i = 0; (k = catalogue_at(i)) != NULL; i++) {
		if (!(k->os & TT_OS_BIT(TT_OS_WINDOWS)))
			continue;
		snprintf(name, sizeof(name), "%s%s", k->name,
		    k->name[strlen(k->name) - 1] == '.' ? "internet" : "");
		w = catalogue_win_key(name);
		assert_non_null(w);
		if (w->codes != NULL && k->words != NULL)
			assert_true(same_words(k->words, w->codes));
	}
	assert_true(catalogue_win_key("tcp.autotuninglevel")->writable);
	assert_false(catalogue_win_key("offload.rsc")->writable);
	assert_string_equal(catalogue_win_key("offload.rss")->codes[0],
	    "disabled");
	assert_null(catalogue_win_key("tcp.congestionprovider."));
	assert_null(catalogue_win_key("net.inet.tcp.sendspace"));
	catalogue_win_key_list(list, sizeof(list));
	assert_string_equal(list, "tcp.autotuninglevel, offload.rss and, "
	    "read-only, tcp.congestionprovider.<template>, tcp.timestamps, "
	    "tcp.scalingheuristics, qos.tcpautotuninglevel and offload.rsc");
}

static void
test_size_human(void **state)
{
	char	buf[32];

	(void)state;
	tt_size_human(67108864, buf, sizeof(buf));
	assert_string_equal(buf, "64 MiB");
	tt_size_human(212992, buf, sizeof(buf));
	assert_string_equal(buf, "208 KiB");
	tt_size_human(1536LL << 20, buf, sizeof(buf));
	assert_string_equal(buf, "1.5 GiB");
	tt_size_human(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1000 bytes");
	tt_size_human(4LL << 40, buf, sizeof(buf));
	assert_string_equal(buf, "4 TiB");
	/* exact: no decimal, however small the unit */
	tt_size_human(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4 KiB");
	tt_size_human(1024, buf, sizeof(buf));
	assert_string_equal(buf, "1 KiB");
	tt_size_human(131072, buf, sizeof(buf));
	assert_string_equal(buf, "128 KiB");
	tt_size_human(6291456, buf, sizeof(buf));
	assert_string_equal(buf, "6 MiB");
	tt_size_human(5LL << 50, buf, sizeof(buf));
	assert_string_equal(buf, "5120 TiB");
	/* not exact: one decimal, even where it reads .0 */
	tt_size_human(19660800 + 1, buf, sizeof(buf));
	assert_string_equal(buf, "18.8 MiB");
	tt_size_human(18750000, buf, sizeof(buf));
	assert_string_equal(buf, "17.9 MiB");
	tt_size_human(87380, buf, sizeof(buf));
	assert_string_equal(buf, "85.3 KiB");
	tt_size_human(4097, buf, sizeof(buf));
	assert_string_equal(buf, "4.0 KiB");
	tt_size_human(1025, buf, sizeof(buf));
	assert_string_equal(buf, "1.0 KiB");
	tt_size_human(1048575, buf, sizeof(buf));
	assert_string_equal(buf, "1.0 MiB");
	tt_size_human(1048063, buf, sizeof(buf));
	assert_string_equal(buf, "1023.5 KiB");
	tt_size_human(2147483647, buf, sizeof(buf));
	assert_string_equal(buf, "2.0 GiB");
	tt_size_human((5LL << 40) + 1, buf, sizeof(buf));
	assert_string_equal(buf, "5.0 TiB");
	/* under a KiB: bytes */
	tt_size_human(1023, buf, sizeof(buf));
	assert_string_equal(buf, "1023 bytes");
	tt_size_human(1, buf, sizeof(buf));
	assert_string_equal(buf, "1 byte");
	tt_size_human(0, buf, sizeof(buf));
	assert_string_equal(buf, "0 bytes");
}

/* The human size beside a value, only for a key whose unit is bytes. */
static void
test_size_human_value(void **state)
{
	char	buf[96];

	(void)state;
	assert_true(catalogue_size_human("net.core.rmem_max", "67108864",
	    ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "64 MiB");
	assert_true(catalogue_size_human("net.core.rmem_max", "212992",
	    ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "208 KiB");
	assert_true(catalogue_size_human("net.ipv4.tcp_rmem",
	    "4096 131072 67108864", ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "4 KiB, 128 KiB, 64 MiB");
	/* as /proc gives it: tabs */
	assert_true(catalogue_size_human("net.ipv4.tcp_wmem",
	    "4096\t16384\t4194304", ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "4 KiB, 16 KiB, 4 MiB");
	assert_true(catalogue_size_human("net.ipv4.tcp_rmem",
	    "4096 87380 6291456", ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "4 KiB, 85.3 KiB, 6 MiB");
	assert_true(catalogue_size_human("kern.ipc.maxsockbuf", "8388608",
	    ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "8 MiB");
	assert_true(catalogue_size_human("net.inet.tcp.recvspace", "1000",
	    ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "1000 bytes");

	/* counts, switches, words, keys in no catalogue: nothing */
	assert_false(catalogue_size_human("net.ipv4.tcp_mem",
	    "4096 131072 67108864", ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_false(catalogue_size_human("net.ipv4.tcp_window_scaling", "1",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("kern.ipc.nmbclusters", "131072",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("tcp.autotuninglevel", "normal",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.example.rmem", "4096", ", ", buf,
	    sizeof(buf)));
	/* not the key's integers: nothing */
	assert_false(catalogue_size_human("net.ipv4.tcp_rmem", "4096 131072",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.ipv4.tcp_rmem",
	    "4096 131072 67108864 1", ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.core.rmem_max", "",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.core.rmem_max", "64M",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.core.rmem_max", "-4096",
	    ", ", buf, sizeof(buf)));
	assert_false(catalogue_size_human("net.core.rmem_max",
	    "99999999999999999999", ", ", buf, sizeof(buf)));
	assert_string_equal(buf, "");
	/* no room: nothing rather than a part */
	assert_false(catalogue_size_human("net.ipv4.tcp_rmem",
	    "4096 131072 67108864", ", ", buf, 12));
	assert_string_equal(buf, "");
}

static void
test_parse_size(void **state)
{
	static const struct {
		const char	*in;
		long long	 want;	/* -1: refused */
	} cases[] = {
		{ "4096", 4096 }, { "256K", 262144 }, { "256k", 262144 },
		{ "16M", 16777216 }, { "32MiB", 33554432 },
		{ "32mib", 33554432 }, { "1G", 1073741824 },
		{ "1GiB", 1073741824 }, { "2T", 2199023255552LL },
		{ "0", 0 }, { "", -1 }, { "M", -1 }, { "-4K", -1 },
		{ "+4K", -1 }, { "2.5M", -1 }, { "32MB", -1 }, { "4 K", -1 },
		{ "16Mi", -1 }, { "16X", -1 }, { "9223372036854775807", LLONG_MAX },
		{ "9223372036854775808", -1 }, { "8388608T", -1 },
	};
	long long	v;
	size_t		i;

	(void)state;
	for (i = 0; i < NITEMS(cases); i++) {
		v = -1;
		if (tt_parse_size(cases[i].in, &v) == -1)
			v = -1;
		if (v != cases[i].want)
			fail_msg("\"%s\": %lld, want %lld", cases[i].in, v,
			    cases[i].want);
	}
	assert_true(tt_size_has_unit("16M"));
	assert_false(tt_size_has_unit("16"));
	assert_false(tt_size_has_unit("16MB"));
}

/* A config's sizes with units, read as bytes for byte keys only. */
static void
test_config_sizes(void **state)
{
	static const char xml[] =
	    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.ipv4.tcp_rmem</key><string>4K 128K\t32MiB</string>\n"
	    "<key>kern.ipc.maxsockbuf</key><string>16M</string>\n"
	    "<key>net.x.y</key><string>16M</string>\n"
	    "<key>net.ipv4.tcp_adv_win_scale</key><string>1K</string>\n"
	    "</dict></dict></plist>\n";
	struct errlist	 errs;
	struct config	*cfg;

	(void)state;
	errlist_init(&errs);
	cfg = config_parse(xml, sizeof(xml) - 1, "t.conf", &errs);
	assert_non_null(cfg);
	assert_string_equal(config_find(cfg, "net.ipv4.tcp_rmem")->value,
	    "4096 131072 33554432");
	assert_true(config_find(cfg, "net.ipv4.tcp_rmem")->numeric);
	assert_string_equal(config_find(cfg, "kern.ipc.maxsockbuf")->value,
	    "16777216");
	/* Not known to count bytes: kept as written. */
	assert_string_equal(config_find(cfg, "net.x.y")->value, "16M");
	assert_string_equal(config_find(cfg,
	    "net.ipv4.tcp_adv_win_scale")->value, "1K");
	config_free(cfg);
	errlist_clear(&errs);
}

/* A backend that has only the keys listed in its ctx. */
static int
list_get(struct sysctl_backend *be, const char *name, char *buf, size_t len)
{
	const char *const	*have;

	for (have = be->ctx; *have != NULL; have++)
		if (strcmp(*have, name) == 0) {
			tt_strlcpy(buf, "1", len);
			return 0;
		}
	return ENOENT;
}

static const char conf_xml[] =
    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>net.core.rmem_max</key><integer>67108864</integer>\n"
    "<key>net.core.wmem_max</key><integer>67108864</integer>\n"
    "<key>net.x.y</key><integer>1</integer>\n"
    "<key>net.z.y</key><integer>1</integer>\n"
    "</dict></dict></plist>\n";

static void
test_config_against_kernel(void **state)
{
	static const char *have[] = {
		"net.core.rmem_max", "net.z.y", NULL
	};
	struct sysctl_backend	 be = { "list", list_get, NULL, NULL, NULL,
				    NULL, NULL, (void *)have, NULL };
	struct errlist		 errs, warns;
	struct config		*cfg;

	(void)state;
	errlist_init(&errs);
	errlist_init(&warns);
	cfg = config_parse(conf_xml, sizeof(conf_xml) - 1, "t.conf", &errs);
	assert_non_null(cfg);
	assert_int_equal(config_check_os(cfg, TT_OS_LINUX, &be, &errs,
	    &warns), 2);
	assert_string_equal(errs.msg[0], "t.conf:5: net.core.wmem_max is a "
	    "Linux key, but this kernel does not have it");
	assert_string_equal(errs.msg[1], "t.conf:6: net.x.y does not exist "
	    "in this kernel (sysctl -a does not list it)");
	assert_int_equal(warns.n, 1);
	assert_string_equal(warns.msg[0], "t.conf:7: warning: net.z.y is not "
	    "in tcptune's catalogue of Linux keys: tcptuned sets it "
	    "unchecked");
	errlist_clear(&errs);
	errlist_clear(&warns);
	/* Offline (no backend): only warnings for the unknown ones. */
	assert_int_equal(config_check_os(cfg, TT_OS_LINUX, NULL, &errs,
	    &warns), 0);
	assert_int_equal(warns.n, 2);
	/* The same keys on macOS: two Linux keys named as such. */
	assert_int_equal(config_check_os(cfg, TT_OS_DARWIN, NULL, &errs,
	    NULL), 2);
	assert_string_equal(errs.msg[0], "t.conf:4: net.core.rmem_max is a "
	    "Linux key; on macOS use kern.ipc.maxsockbuf");
	config_free(cfg);
	errlist_clear(&errs);
	errlist_clear(&warns);
}

/* The daemon's reader: CONFIG_CHECK_OS refuses, without it as before. */
static void
test_daemon_reader(void **state)
{
	static const char bad[] =
	    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>tcp.autotuninglevl</key><string>normal</string>\n"
	    "<key>net.ipv4.tcp_rmme</key><string>1 2 3</string>\n"
	    "<key>kern.ipc.maxsockbf</key><integer>16777216</integer>\n"
	    "</dict></dict></plist>\n";
	char		 path[] = "/tmp/tt-catalogue.XXXXXX";
	struct errlist	 errs;
	struct config	*cfg;
	FILE		*f;
	int		 fd;

	(void)state;
	assert_true((fd = mkstemp(path)) != -1);
	assert_non_null(f = fdopen(fd, "w"));
	assert_int_equal(fputs(bad, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	errlist_init(&errs);
	cfg = config_load_layers(path, NULL, policy_load, 0, &errs);
	assert_non_null(cfg);
	config_free(cfg);
	cfg = config_load_layers(path, NULL, policy_load, CONFIG_CHECK_OS,
	    &errs);
	assert_null(cfg);
	/* The host's catalogue decides which are near misses. */
	assert_true(errs.n >= 1);
	assert_non_null(strstr(errs.msg[0], "did you mean"));
	assert_non_null(strstr(errs.msg[0], path));
	errlist_clear(&errs);
	unlink(path);
}

/*
 * The macOS keys by xnu release: every catalogued macOS key has a fact
 * for the newest release, the ranges of one key do not overlap, and the
 * lookups by Darwin major give what xnu's sources say.
 */
static void
test_xnu_facts(void **state)
{
	const struct cat_key	*k;
	const struct cat_xnu	*x, *y;
	size_t			 i, j;

	(void)state;
	for (i = 0; (k = catalogue_at(i)) != NULL; i++)
		if (k->os & TT_OS_BIT(TT_OS_DARWIN)) {
			if (catalogue_xnu(k->name, 0) == NULL)
				fail_msg("%s: no xnu fact", k->name);
			assert_non_null(k->since);
		}
	for (i = 0; (x = catalogue_xnu_at(i)) != NULL; i++) {
		assert_non_null(catalogue_find(x->name, TT_OS_DARWIN));
		assert_non_null(x->note);
		assert_true(x->to == 0 || x->from <= x->to);
		assert_true(x->min <= x->max);
		for (j = i + 1; (y = catalogue_xnu_at(j)) != NULL; j++)
			if (strcmp(x->name, y->name) == 0)
				assert_true(x->to != 0 && x->to < y->from);
	}
	assert_int_equal(catalogue_xnu("net.inet.tcp.rfc1323", 14)->stock, 1);
	assert_int_equal(catalogue_xnu("net.inet.tcp.rfc1323", 19)->stock,
	    CAT_XNU_ABSENT);
	assert_int_equal(catalogue_xnu("net.inet.tcp.rfc1323", 24)->stock,
	    CAT_XNU_ABSENT);
	assert_int_equal(catalogue_xnu("net.inet.tcp.doautosndbuf", 19)->stock,
	    1);
	assert_int_equal(catalogue_xnu("net.inet.tcp.doautosndbuf", 0)->stock,
	    CAT_XNU_ABSENT);
	assert_int_equal(catalogue_xnu("net.inet.tcp.autorcvbufmax",
	    19)->stock, 2097152);
	assert_int_equal(catalogue_xnu("net.inet.tcp.autorcvbufmax",
	    22)->stock, 4194304);
	assert_ptr_equal(catalogue_xnu("net.inet.tcp.autorcvbufmax", 24),
	    catalogue_xnu("net.inet.tcp.autorcvbufmax", 0));
	assert_null(catalogue_xnu("net.inet.tcp.sendspace", 18));
	assert_null(catalogue_xnu("net.ipv4.tcp_rmem", 0));
}

/*
 * The fake macOS kernel the engine tests run on agrees with the newest
 * xnu facts: its stock values, the keys it lacks, maxsockbuf's bound.
 */
static void
test_xnu_fake_kernel(void **state)
{
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_XNU);
	struct sysctl_backend	*be;
	const struct cat_xnu	*x;
	char			 buf[TT_VALUE_MAX], why[256];
	long long		 v;
	size_t			 i;

	(void)state;
	fake_kernel_stock_macos(fk, 16);
	be = fake_backend_new(fk);
	for (i = 0; (x = catalogue_xnu_at(i)) != NULL; i++) {
		if (x->to != 0)
			continue;
		if (x->stock == CAT_XNU_ABSENT) {
			assert_int_equal(be->get(be, x->name, buf,
			    sizeof(buf)), ENOENT);
			assert_int_equal(be->set(be, x->name, "1"), ENOENT);
			continue;
		}
		if (be->get(be, x->name, buf, sizeof(buf)) == ENOENT)
			continue;	/* not modelled */
		assert_int_equal(parse_ll(buf, &v), 0);
		if (v != x->stock)
			fail_msg("%s: fake %lld, xnu %lld", x->name, v,
			    x->stock);
	}
	/* sysctl_sb_max: LOW_SB_MAX < v, as the catalogue checks it. */
	assert_int_equal(be->set(be, "kern.ipc.maxsockbuf", "18432"), ERANGE);
	assert_int_equal(catalogue_check("kern.ipc.maxsockbuf", "18432",
	    TT_OS_DARWIN, why, sizeof(why)), CAT_REFUSED);
	assert_int_equal(be->set(be, "kern.ipc.maxsockbuf", "18433"), 0);
	assert_int_equal(catalogue_check("kern.ipc.maxsockbuf", "18433",
	    TT_OS_DARWIN, why, sizeof(why)), CAT_OK);
	/* skmem ints: any int, nothing past it. */
	assert_int_equal(be->set(be, "net.inet.tcp.autorcvbufmax",
	    "2147483647"), 0);
	assert_int_equal(be->set(be, "net.inet.tcp.autorcvbufmax",
	    "2147483648"), ERANGE);
	be->free(be);
	fake_kernel_free(fk);
	/* Below 4 GB of RAM the autotuning ceilings start at 2 MiB. */
	fk = fake_kernel_new(FK_RULES_XNU);
	fake_kernel_stock_macos(fk, 2);
	assert_string_equal(fake_kernel_peek(fk, "net.inet.tcp.autorcvbufmax"),
	    "2097152");
	assert_string_equal(fake_kernel_peek(fk, "net.inet.tcp.autosndbufmax"),
	    "2097152");
	fake_kernel_free(fk);
}

/*
 * Linux's net.core buffers: the catalogue's least is what the kernel
 * takes (SOCK_MIN_RCVBUF, SOCK_MIN_SNDBUF on x86-64), one byte less is
 * refused by both.
 */
static void
test_linux_least(void **state)
{
	static const char *const names[] = {
		"net.core.rmem_max", "net.core.wmem_max",
		"net.core.rmem_default", "net.core.wmem_default"
	};
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_LINUX);
	struct sysctl_backend	*be;
	const struct cat_key	*k;
	char			 v[32], why[256];
	size_t			 i;

	(void)state;
	fake_kernel_stock_linux_host(fk);
	be = fake_backend_new(fk);
	for (i = 0; i < NITEMS(names); i++) {
		assert_non_null(k = catalogue_find(names[i], TT_OS_LINUX));
		snprintf(v, sizeof(v), "%lld", k->min);
		if (be->set(be, names[i], v) != 0)
			fail_msg("%s: the kernel refuses %s, the catalogue's "
			    "least", names[i], v);
		snprintf(v, sizeof(v), "%lld", k->min - 1);
		assert_int_equal(be->set(be, names[i], v), EINVAL);
		assert_int_equal(catalogue_check(names[i], v, TT_OS_LINUX,
		    why, sizeof(why)), CAT_REFUSED);
	}
	expect("net.core.wmem_max", "4607", TT_OS_LINUX, CAT_REFUSED,
	    "net.core.wmem_max: 4607 is out of range: at least 4608");
	expect("net.core.rmem_default", "2304", TT_OS_LINUX, CAT_OK, NULL);
	be->free(be);
	fake_kernel_free(fk);
}

/*
 * FreeBSD's buffer keys are ints (SYSCTL_INT): the catalogue's top is the
 * fake kernel's, one more is refused by both.
 */
static void
test_freebsd_ints(void **state)
{
	struct fake_kernel	*fk = fake_kernel_new(FK_RULES_FREEBSD);
	struct sysctl_backend	*be;
	const struct cat_key	*k;
	char			 v[32], why[256];
	size_t			 i;
	int			 n = 0;

	(void)state;
	fake_kernel_stock_freebsd(fk);
	be = fake_backend_new(fk);
	for (i = 0; (k = catalogue_at(i)) != NULL; i++) {
		if (!(k->os & TT_OS_BIT(TT_OS_FREEBSD)) || k->nums != 1 ||
		    be->get(be, k->name, v, sizeof(v)) != 0)
			continue;
		n++;
		snprintf(v, sizeof(v), "%lld", k->max);
		if (be->set(be, k->name, v) != 0)
			fail_msg("%s: the kernel refuses %s, the catalogue's "
			    "top", k->name, v);
		snprintf(v, sizeof(v), "%lld", k->max + 1);
		if (strcmp(k->name, "kern.ipc.maxsockbuf") == 0)
			continue;	/* a u_long: no top below 2^63 */
		assert_int_not_equal(be->set(be, k->name, v), 0);
		assert_int_equal(catalogue_check(k->name, v, TT_OS_FREEBSD,
		    why, sizeof(why)), CAT_REFUSED);
	}
	assert_int_equal(n, 6);
	assert_int_equal(be->get(be, "net.inet.tcp.recvbuf_inc", v,
	    sizeof(v)), ENOENT);
	be->free(be);
	fake_kernel_free(fk);
}

/*
 * Linux's global keys from a child network namespace: the fake of each
 * release gives what the catalogue says (absent before 6.11, read only
 * from it; tcp_mem and default_qdisc never there), and the note status
 * shows names the release's behaviour.
 */
static void
test_linux_netns(void **state)
{
	static const char *const releases[] = {
		"5.15.0", "6.10.14", "6.11.0", "6.18.4"
	};
	const struct cat_key	*k;
	struct fake_kernel	*fk;
	struct sysctl_backend	*be;
	char			 buf[TT_VALUE_MAX];
	size_t			 i, r;
	int			 major, minor, want, got, globals;

	(void)state;
	for (r = 0; r < NITEMS(releases); r++) {
		fk = fake_kernel_new(FK_RULES_LINUX);
		fake_kernel_stock_linux(fk, releases[r]);
		be = fake_backend_new(fk);
		assert_int_equal(sscanf(releases[r], "%d.%d", &major, &minor),
		    2);
		globals = 0;
		for (i = 0; (k = catalogue_at(i)) != NULL; i++) {
			if (!(k->os & TT_OS_BIT(TT_OS_LINUX)))
				continue;
			want = catalogue_linux_netns(k->name, major, minor);
			got = be->set(be, k->name, "1");
			if (want == 0)
				continue;
			globals++;
			if (got != want)
				fail_msg("%s on %s: fake %d, catalogue %d",
				    k->name, releases[r], got, want);
		}
		assert_int_equal(globals, 7);
		be->free(be);
		fake_kernel_free(fk);
	}
	assert_int_equal(catalogue_linux_netns("net.ipv4.tcp_rmem", 6, 18), 0);
	assert_int_equal(catalogue_linux_netns("net.ipv4.tcp_mem", 6, 18),
	    ENOENT);
	assert_int_equal(catalogue_linux_netns("net.core.default_qdisc", 6,
	    18), ENOENT);
	assert_true(catalogue_linux_netns_note("net.core.rmem_max", ENOENT,
	    "6.10.14-amd64", buf, sizeof(buf)));
	assert_string_equal(buf, "a global key, absent from a child network "
	    "namespace before Linux 6.11 (this is 6.10): set it on the host");
	assert_true(catalogue_linux_netns_note("net.core.wmem_max", EACCES,
	    "6.18.4", buf, sizeof(buf)));
	assert_string_equal(buf, "a global key, read only in a child network "
	    "namespace from Linux 6.11: set it on the host");
	assert_true(catalogue_linux_netns_note("net.ipv4.tcp_mem", ENOENT,
	    "6.18.4", buf, sizeof(buf)));
	assert_string_equal(buf, "a global key, which no child network "
	    "namespace has: set it on the host");
	/* Not what a namespace gives: the engine's own words. */
	assert_false(catalogue_linux_netns_note("net.core.rmem_max", ENOENT,
	    "6.18.4", buf, sizeof(buf)));
	assert_false(catalogue_linux_netns_note("net.core.rmem_max", EINVAL,
	    "6.10.1", buf, sizeof(buf)));
	assert_false(catalogue_linux_netns_note("net.ipv4.tcp_rmem", EACCES,
	    "6.18.4", buf, sizeof(buf)));
	assert_false(catalogue_linux_netns_note("net.core.rmem_max", EACCES,
	    "garbage", buf, sizeof(buf)));
}

/*
 * The stock maxsockbuf and autotuning ceilings follow RAM and release
 * (xnu ncl_table in bsd/kern/uipc_mbuf.c at xnu-6153.141.1 and
 * 7195.141.2 to 11417.121.6, high_sb_max in mbinit, tcp_init), in the
 * catalogue and in the fake Mac: the figures are the sources', by hand.
 */
static void
test_xnu_ram(void **state)
{
	static const struct {
		const char	*release;
		unsigned	 gb;
		const char	*ncl, *sb, *autobuf;
	} macs[] = {
		{ "24.6.0", 2, "32768", "4194304", "2097152" },
		{ "24.6.0", 6, "49152", "6291456", "4194304" },
		{ "24.6.0", 8, "65536", "8388608", "4194304" },
		{ "20.6.0", 6, "49152", "6291456", "4194304" },
		{ "24.6.0", 32, "262144", "8388608", "4194304" },
		{ "19.6.0", 6, "32768", "4194304", "2097152" },
		{ "19.6.0", 12, "49152", "6291456", "2097152" },
		{ "19.6.0", 16, "65536", "8388608", "2097152" },
	};
	struct fake_kernel	*fk;
	size_t			 i;

	(void)state;
	for (i = 0; i < NITEMS(macs); i++) {
		fk = fake_kernel_new(FK_RULES_XNU);
		fake_kernel_stock_macos_on(fk, macs[i].gb, macs[i].release);
		assert_string_equal(fake_kernel_peek(fk,
		    "kern.ipc.nmbclusters"), macs[i].ncl);
		assert_string_equal(fake_kernel_peek(fk, "kern.ipc.maxsockbuf"),
		    macs[i].sb);
		assert_string_equal(fake_kernel_peek(fk,
		    "net.inet.tcp.autorcvbufmax"), macs[i].autobuf);
		assert_string_equal(fake_kernel_peek(fk,
		    "net.inet.tcp.autosndbufmax"), macs[i].autobuf);
		fake_kernel_free(fk);
	}
	assert_int_equal(catalogue_xnu_stock("kern.ipc.maxsockbuf", 24,
	    6LL << 30), 6291456);
	assert_int_equal(catalogue_xnu_stock("kern.ipc.maxsockbuf", 0,
	    3LL << 30), 4194304);
	assert_int_equal(catalogue_xnu_stock("net.inet.tcp.autorcvbufmax",
	    19, 64LL << 30), 2097152);
	assert_int_equal(catalogue_xnu_stock("net.inet.tcp.sendspace", 24,
	    6LL << 30), 131072);
	assert_int_equal(catalogue_xnu_stock("net.inet.tcp.doautosndbuf", 24,
	    6LL << 30), CAT_XNU_ABSENT);
	/* a release older than the table's: its oldest rows */
	assert_int_equal(catalogue_xnu_mem(18, 12LL << 30)->pool, 96 << 20);
}

static const char conf_xnu[] =
    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n"
    "<key>Sysctls</key><dict>\n"
    "<key>kern.ipc.maxsockbuf</key><string>16M</string>\n"
    "<key>net.inet.tcp.rfc1323</key><integer>1</integer>\n"
    "<key>net.inet.tcp.sendspace</key><string>20M</string>\n"
    "<key>net.inet.tcp.recvspace</key><string>15M</string>\n"
    "<key>net.inet.tcp.doautosndbuf</key><integer>1</integer>\n"
    "</dict></dict></plist>\n";

/* check --platform macos: what some xnu lacks or refuses, as warnings. */
static void
test_xnu_warnings(void **state)
{
	struct errlist		 errs, warns;
	struct config		*cfg;

	(void)state;
	errlist_init(&errs);
	errlist_init(&warns);
	cfg = config_parse(conf_xnu, sizeof(conf_xnu) - 1, "t.conf", &errs);
	assert_non_null(cfg);
	assert_int_equal(config_check_os(cfg, TT_OS_DARWIN, NULL, &errs,
	    &warns), 0);
	assert_int_equal(warns.n, 4);
	assert_string_equal(warns.msg[0], "t.conf:5: warning: "
	    "net.inet.tcp.rfc1323 is not on macOS 11 or later (xnu-7195 "
	    "removed it), nor on a release kernel of 10.11 to 10.15 (DEBUG "
	    "kernels only)");
	assert_string_equal(warns.msg[1], "t.conf:6: warning: "
	    "net.inet.tcp.sendspace: 20971520 is above kern.ipc.maxsockbuf "
	    "16777216: every macOS refuses it (ERANGE)");
	assert_string_equal(warns.msg[2], "t.conf:7: warning: "
	    "net.inet.tcp.recvspace: 15728640 is above 14911488, 8/9 of "
	    "kern.ipc.maxsockbuf 16777216: macOS up to 14.3 (xnu-10002) "
	    "refuses it (ERANGE), 14.4 (xnu-10063) on takes it");
	assert_non_null(strstr(warns.msg[3], "net.inet.tcp.doautosndbuf is "
	    "not on macOS 11 or later"));
	errlist_clear(&warns);
	/* FreeBSD has the same keys and none of xnu's rules. */
	assert_int_equal(config_check_os(cfg, TT_OS_FREEBSD, NULL, &errs,
	    &warns), 1);
	assert_int_equal(warns.n, 0);
	config_free(cfg);
	errlist_clear(&errs);
	errlist_clear(&warns);
}

/* Without maxsockbuf in the file, the stock 8 MiB is the bound. */
static void
test_xnu_warnings_stock(void **state)
{
	static const char	 xml[] =
	    "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.inet.tcp.sendspace</key><string>8M</string>\n"
	    "<key>net.inet.tcp.recvspace</key><string>256K</string>\n"
	    "</dict></dict></plist>\n";
	struct errlist		 errs, warns;
	struct config		*cfg;

	(void)state;
	errlist_init(&errs);
	errlist_init(&warns);
	cfg = config_parse(xml, sizeof(xml) - 1, "t.conf", &errs);
	assert_non_null(cfg);
	assert_int_equal(config_check_os(cfg, TT_OS_DARWIN, NULL, &errs,
	    &warns), 0);
	assert_int_equal(warns.n, 2);
	assert_string_equal(warns.msg[0], "t.conf:4: warning: "
	    "net.inet.tcp.sendspace: 8388608 is above kern.ipc.maxsockbuf "
	    "6291456, the stock value below 8 GB of RAM (1/16 of the mbuf "
	    "pool; macOS 10.15: below 16 GB): such a Mac refuses it "
	    "(ERANGE)");
	assert_string_equal(warns.msg[1], "t.conf:4: warning: "
	    "net.inet.tcp.sendspace: 8388608 is above 7454720, 8/9 of "
	    "kern.ipc.maxsockbuf 8388608 (stock): macOS up to 14.3 "
	    "(xnu-10002) refuses it (ERANGE), 14.4 (xnu-10063) on takes it");
	config_free(cfg);
	errlist_clear(&errs);
	errlist_clear(&warns);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_table_ceilings),
		cmocka_unit_test(test_known_keys_catalogued),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_kernel_words),
		cmocka_unit_test(test_os_names),
		cmocka_unit_test(test_os_words_parse),
		cmocka_unit_test(test_os_list),
		cmocka_unit_test(test_os_list_parses),
		cmocka_unit_test(test_win_keys),
		cmocka_unit_test(test_size_human),
		cmocka_unit_test(test_size_human_value),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_config_sizes),
		cmocka_unit_test(test_config_against_kernel),
		cmocka_unit_test(test_daemon_reader),
		cmocka_unit_test(test_linux_least),
		cmocka_unit_test(test_freebsd_ints),
		cmocka_unit_test(test_linux_netns),
		cmocka_unit_test(test_xnu_facts),
		cmocka_unit_test(test_xnu_fake_kernel),
		cmocka_unit_test(test_xnu_ram),
		cmocka_unit_test(test_xnu_warnings),
		cmocka_unit_test(test_xnu_warnings_stock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
