/*
 * lib/util.c's escaping: what reaches a terminal or a log is shown,
 * never obeyed; and lib/log.c, which escapes every line it writes.  Its
 * tt_strlcat and tt_edit_distance.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptune.h"

static void
expect_escape(const char *in, const char *want)
{
	char	out[256];

	assert_int_equal(tt_escape(out, sizeof(out), in), strlen(want));
	assert_string_equal(out, want);
}

static void
test_plain(void **arg)
{
	(void)arg;
	expect_escape("", "");
	expect_escape("4096 131072 6291456", "4096 131072 6291456");
	/* printable UTF-8 stays: Latin-1, CJK, an emoji, NBSP, U+2065 */
	expect_escape("\xc3\xa9t\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80",
	    "\xc3\xa9t\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
	expect_escape("\xc2\xa0\xe2\x81\xa5", "\xc2\xa0\xe2\x81\xa5");
	/* a backslash stays, so escaping twice changes nothing */
	expect_escape("a\\x41", "a\\x41");
}

static void
test_c0_del(void **arg)
{
	(void)arg;
	expect_escape("\x1b[2J", "\\x1b[2J");
	expect_escape("a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd");
	expect_escape("\x01\x1f\x7f", "\\x01\\x1f\\x7f");
}

static void
test_c1(void **arg)
{
	(void)arg;
	/* as UTF-8: U+0080, U+0085 (NEL), U+009B (CSI), U+009F (APC) */
	expect_escape("\xc2\x80\xc2\x85\xc2\x9b\xc2\x9f",
	    "\\u{0080}\\u{0085}\\u{009b}\\u{009f}");
	/* as raw bytes, which are not UTF-8 either */
	expect_escape("1\x85" "2\x9b" "31m\x9f", "1\\x852\\x9b31m\\x9f");
	/* U+00A0 is the first printable one after them */
	expect_escape("\xc2\xa0", "\xc2\xa0");
}

static void
test_bidi(void **arg)
{
	static const struct {
		const char	*in;
		const char	*want;
	} cases[] = {
		{ "\xd8\x9c", "\\u{061c}" },
		{ "\xe2\x80\x8e", "\\u{200e}" },
		{ "\xe2\x80\x8f", "\\u{200f}" },
		{ "\xe2\x80\xaa", "\\u{202a}" },
		{ "\xe2\x80\xab", "\\u{202b}" },
		{ "\xe2\x80\xac", "\\u{202c}" },
		{ "\xe2\x80\xad", "\\u{202d}" },
		{ "\xe2\x80\xae", "\\u{202e}" },
		{ "\xe2\x81\xa6", "\\u{2066}" },
		{ "\xe2\x81\xa7", "\\u{2067}" },
		{ "\xe2\x81\xa8", "\\u{2068}" },
		{ "\xe2\x81\xa9", "\\u{2069}" },
		/* neighbours that are printable */
		{ "\xe2\x80\x8d", "\xe2\x80\x8d" },
		{ "\xe2\x80\xaf", "\xe2\x80\xaf" },
	};
	size_t	i;

	(void)arg;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_escape(cases[i].in, cases[i].want);
	expect_escape("evil\xe2\x80\xae" "cod.exe", "evil\\u{202e}cod.exe");
}

static void
test_invalid_utf8(void **arg)
{
	(void)arg;
	expect_escape("\xff\xfe", "\\xff\\xfe");
	expect_escape("\xc0\xaf", "\\xc0\\xaf");		/* overlong / */
	expect_escape("\xe0\x80\xaf", "\\xe0\\x80\\xaf");	/* overlong */
	expect_escape("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogate */
	expect_escape("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	expect_escape("\xf0\x80\x80\x80", "\\xf0\\x80\\x80\\x80");
	/* a sequence cut by the end of the string */
	expect_escape("a\xe2\x80", "a\\xe2\\x80");
	expect_escape("\xc3", "\\xc3");
}

/* Cut as strlcpy: never inside an escape or a character. */
static void
test_cut(void **arg)
{
	char	out[8];

	(void)arg;
	assert_int_equal(tt_escape(out, sizeof(out), "abcd\x1b" "ef"), 10);
	assert_string_equal(out, "abcd");
	assert_int_equal(tt_escape(out, sizeof(out), "abc\x1b" "ef"), 9);
	assert_string_equal(out, "abc\\x1b");
	assert_int_equal(tt_escape(out, 7, "abcde\xc3\xa9"), 7);
	assert_string_equal(out, "abcde");
	assert_int_equal(tt_escape(out, 1, "x"), 1);
	assert_string_equal(out, "");
	assert_int_equal(tt_escape(NULL, 0, "\xe2\x80\xae"), 8);
	assert_int_equal(tt_escape(out, sizeof(out), "1234567"), 7);
	assert_string_equal(out, "1234567");
}

/* TT_ESCAPE_SIZE is enough for the worst input of each kind. */
static void
test_worst_case(void **arg)
{
	char	in[64], out[TT_ESCAPE_SIZE(sizeof(in))];
	size_t	i;

	(void)arg;
	memset(in, 0x9b, sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	assert_true(tt_escape(out, sizeof(out), in) < sizeof(out));
	for (i = 0; i + 2 < sizeof(in); i += 2)
		memcpy(in + i, "\xc2\x9b", 2);
	in[i] = '\0';
	assert_true(tt_escape(out, sizeof(out), in) < sizeof(out));
	for (i = 0; i + 3 < sizeof(in); i += 3)
		memcpy(in + i, "\xe2\x80\xae", 3);
	in[i] = '\0';
	assert_true(tt_escape(out, sizeof(out), in) < sizeof(out));
}

static void
test_text_unsafe(void **arg)
{
	size_t	off = 99;

	(void)arg;
	assert_null(tt_text_unsafe("4096 \xc3\xa9 \xe2\x81\xa5", &off));
	assert_string_equal(tt_text_unsafe("ab\x1b", &off),
	    "a control character");
	assert_int_equal(off, 2);
	assert_string_equal(tt_text_unsafe("a\x7f", &off),
	    "a control character");
	assert_string_equal(tt_text_unsafe("\xc3\xa9\xc2\x85", &off),
	    "a C1 control character");
	assert_int_equal(off, 2);
	assert_string_equal(tt_text_unsafe("a\xe2\x81\xa6", &off),
	    "a bidirectional control character");
	assert_string_equal(tt_text_unsafe("a\x85", &off),
	    "a byte that is not UTF-8");
	assert_int_equal(off, 1);
}

static void
test_decode(void **arg)
{
	uint32_t	cp;

	(void)arg;
	assert_int_equal(tt_utf8_decode("A", &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(tt_utf8_decode("\xc2\x85", &cp), 2);
	assert_int_equal(cp, 0x85);
	assert_int_equal(tt_utf8_decode("\xe2\x80\xae", &cp), 3);
	assert_int_equal(cp, 0x202e);
	assert_int_equal(tt_utf8_decode("\xf4\x8f\xbf\xbf", &cp), 4);
	assert_int_equal(cp, 0x10ffff);
	assert_int_equal(tt_utf8_decode("\xc1\xbf", &cp), 0);
	assert_int_equal(tt_utf8_decode("\x80", &cp), 0);
	assert_true(tt_unsafe_char(0x9f));
	assert_false(tt_unsafe_char(0xa0));
	assert_false(tt_unsafe_char(0x2065));
}

/* stderr while fn runs, as a string. */
static const char *
logged(void (*fn)(void))
{
	static char	 buf[4096];
	FILE		*f = tmpfile();
	int		 saved;
	size_t		 n;

	assert_non_null(f);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved != -1 && dup2(fileno(f), STDERR_FILENO) != -1);
	fn();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
log_hostile(void)
{
	log_warnx("reload of %s: %s", "/etc/t\x1b[2J.conf",
	    "key net.\xc2\x9b" "31m\xe2\x80\xae\xff");
	errno = ENOENT;
	log_warn("open %s", "a\nb");
	log_info("%s", "already \\x41 escaped");
}

/* Every log line, its strerror part too, is escaped; one line each. */
static void
test_log_lines(void **arg)
{
	(void)arg;
	log_init(1, 0, "test");
	assert_string_equal(logged(log_hostile),
	    "reload of /etc/t\\x1b[2J.conf: key net.\\u{009b}31m"
	    "\\u{202e}\\xff\n"
	    "open a\\x0ab: No such file or directory\n"
	    "already \\x41 escaped\n");
}

/* tt_strlcat (util.c, beside the escaping): appends, cuts, always ends. */
static void
test_strlcat(void **arg)
{
	char	buf[8] = "ab";

	(void)arg;
	assert_int_equal(tt_strlcat(buf, "cd", sizeof(buf)), 4);
	assert_string_equal(buf, "abcd");
	assert_int_equal(tt_strlcat(buf, "efghij", sizeof(buf)), 10);
	assert_string_equal(buf, "abcdefg");		/* cut, ended */
	assert_int_equal(tt_strlcat(buf, "x", sizeof(buf)), 8);
	assert_string_equal(buf, "abcdefg");		/* full: unchanged */
	memset(buf, 'z', sizeof(buf));			/* not ended at all */
	assert_int_equal(tt_strlcat(buf, "x", sizeof(buf)), 9);
	assert_memory_equal(buf, "zzzzzzzz", sizeof(buf));
}

/*
 * tt_edit_distance: insertions, deletions, changes and neighbours swapped
 * each 1; case counted or not; a word past TT_EDIT_MAX is not compared.
 */
static void
test_edit_distance(void **arg)
{
	char	longer[TT_EDIT_MAX + 2];

	(void)arg;
	assert_int_equal(tt_edit_distance("", "", false), 0);
	assert_int_equal(tt_edit_distance("abc", "", false), 3);
	assert_int_equal(tt_edit_distance("", "ab", false), 2);
	assert_int_equal(tt_edit_distance("rmme", "rmem", false), 1);	/* swap */
	assert_int_equal(tt_edit_distance("kitten", "sitting", false), 3);
	assert_int_equal(tt_edit_distance("rmem_mx", "rmem_max", false), 1);
	assert_int_equal(tt_edit_distance("STATUS", "status", false), 6);
	/* tcptunectl's commands: case ignored */
	assert_int_equal(tt_edit_distance("status", "status", true), 0);
	assert_int_equal(tt_edit_distance("stauts", "status", true), 1);
	assert_int_equal(tt_edit_distance("STATUS", "status", true), 0);
	assert_int_equal(tt_edit_distance("", "help", true), 4);
	assert_int_equal(tt_edit_distance("chek", "check", true), 1);
	assert_int_equal(tt_edit_distance("resmue", "resume", true), 1);
	assert_int_equal(tt_edit_distance("kitten", "sitting", true), 3);
	/* the longest compared, and one past it */
	memset(longer, 'a', sizeof(longer));
	longer[TT_EDIT_MAX] = '\0';
	assert_int_equal(tt_edit_distance(longer, "a", false),
	    TT_EDIT_MAX - 1);
	longer[TT_EDIT_MAX] = 'a';
	longer[TT_EDIT_MAX + 1] = '\0';
	assert_int_equal(tt_edit_distance(longer, "a", true), TT_EDIT_MAX + 1);
}

/*
 * tt_wrap_line, the help's wrapping of a long configured path (make
 * distcheck's --prefix): at a space that fits, else after a '/', each
 * further part at the indent, nothing past the width; a short line as is.
 */
static void
wrapped(const char *line, size_t first, size_t min, size_t width,
    int indent, const char *want)
{
	char	buf[1024];
	FILE	*f = tmpfile();

	assert_non_null(f);
	tt_wrap_line(f, line, strlen(line), first, min, width, indent);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

static void
test_wrap_line(void **state)
{
	(void)state;
	wrapped("  -f config     the file", 20, 4, 14, 6,
	    "  -f config     the\n      file\n");
	wrapped("short", 20, 0, 20, 4, "short\n");
	/* no space that fits: after the last '/' that does */
	wrapped("/a/very/long/configured/path", 12, 0, 12, 2,
	    "/a/very/\n  long/\n  configured/\n  path\n");
	/* one word longer than a line, without a '/': kept whole */
	wrapped("abcdefghijklmnop", 8, 0, 8, 2, "abcdefghijklmnop\n");
	/* nothing cut at or before min: the option's name stays whole */
	wrapped("  -P program    x", 6, 5, 10, 2, "  -P program    x\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_strlcat),
		cmocka_unit_test(test_c0_del),
		cmocka_unit_test(test_c1),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_worst_case),
		cmocka_unit_test(test_text_unsafe),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_log_lines),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_wrap_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
