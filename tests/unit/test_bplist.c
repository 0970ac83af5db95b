/*
 * Binary property lists (lib/bplist.c) through config_parse: a good one
 * reads as its XML twin would, with every check; hostile ones (truncated,
 * references out of range or into the trailer, cycles, sharing that would
 * explode, null and UID objects, bad counts, lone surrogates, control
 * bytes, another version) are refused with a message, never a crash.
 * The files are built here byte by byte, as CFBinaryPList.c lays them out.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcptune.h"

/* ---- a small bplist00 writer: objects, then offsets, then trailer */

#define MAXOBJ	64

struct bw {
	unsigned char	buf[8192];
	size_t		len;
	size_t		off[MAXOBJ];
	size_t		nobj;
};

static void
bytes(struct bw *w, const void *p, size_t n)
{
	assert_true(w->len + n <= sizeof(w->buf));
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void
byte(struct bw *w, unsigned c)
{
	unsigned char	b = (unsigned char)c;

	bytes(w, &b, 1);
}

static void
start(struct bw *w)
{
	memset(w, 0, sizeof(*w));
	bytes(w, "bplist00", 8);
}

/* Begin object number w->nobj; returns its reference. */
static unsigned
obj(struct bw *w)
{
	assert_true(w->nobj < MAXOBJ);
	w->off[w->nobj] = w->len;
	return (unsigned)w->nobj++;
}

static unsigned
str(struct bw *w, const char *s)
{
	unsigned	r = obj(w);
	size_t		n = strlen(s);

	if (n < 15)
		byte(w, 0x50 | (unsigned)n);
	else {
		byte(w, 0x5f);
		byte(w, 0x10);
		byte(w, (unsigned)n);
	}
	bytes(w, s, n);
	return r;
}

static unsigned
u16(struct bw *w, const uint16_t *units, size_t n)
{
	unsigned	r = obj(w);
	size_t		i;

	byte(w, 0x60 | (unsigned)n);
	for (i = 0; i < n; i++) {
		byte(w, units[i] >> 8);
		byte(w, units[i] & 0xff);
	}
	return r;
}

static unsigned
num(struct bw *w, long long v)
{
	unsigned	r = obj(w);
	int		i;

	byte(w, 0x13);			/* 8 bytes, signed */
	for (i = 7; i >= 0; i--)
		byte(w, (unsigned)((unsigned long long)v >> (8 * i)) & 0xff);
	return r;
}

static unsigned
boolean(struct bw *w, bool v)
{
	unsigned	r = obj(w);

	byte(w, v ? 0x09 : 0x08);
	return r;
}

/* refs are written as given: they may name objects made later. */
static unsigned
arr(struct bw *w, const unsigned *refs, size_t n)
{
	unsigned	r = obj(w);
	size_t		i;

	byte(w, 0xa0 | (unsigned)n);
	for (i = 0; i < n; i++)
		byte(w, refs[i]);
	return r;
}

static unsigned
dict(struct bw *w, const unsigned *keys, const unsigned *vals, size_t n)
{
	unsigned	r = obj(w);
	size_t		i;

	byte(w, 0xd0 | (unsigned)n);
	for (i = 0; i < n; i++)
		byte(w, keys[i]);
	for (i = 0; i < n; i++)
		byte(w, vals[i]);
	return r;
}

static void
be64(struct bw *w, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--)
		byte(w, (unsigned)(v >> (8 * i)) & 0xff);
}

/* Offset table (2 bytes an offset), trailer (1-byte references). */
static void
finish(struct bw *w, unsigned top)
{
	size_t	table = w->len, i;

	for (i = 0; i < w->nobj; i++) {
		byte(w, (unsigned)(w->off[i] >> 8));
		byte(w, (unsigned)(w->off[i] & 0xff));
	}
	for (i = 0; i < 6; i++)
		byte(w, 0);
	byte(w, 2);
	byte(w, 1);
	be64(w, w->nobj);
	be64(w, top);
	be64(w, table);
}

/* ---- helpers */

static struct config *
parse(const struct bw *w, struct errlist *errs)
{
	errlist_init(errs);
	return config_parse((const char *)w->buf, w->len, "b.plist", errs);
}

static void
expect_error(const struct bw *w, const char *want)
{
	struct errlist	 errs;
	struct config	*cfg = parse(w, &errs);
	size_t		 i;
	bool		 found = false;

	for (i = 0; i < errs.n; i++)
		if (strstr(errs.msg[i], want) != NULL)
			found = true;
	if (cfg != NULL || !found) {
		for (i = 0; i < errs.n; i++)
			print_message("# got: %s\n", errs.msg[i]);
		print_message("# wanted: %s\n", want);
	}
	assert_null(cfg);
	assert_true(found);
	errlist_clear(&errs);
}

/*
 * { CheckInterval: 5, RestoreOnExit: true, Sysctls: { net.a.b: "1 2 3",
 *   net.c.d: { Value: 7, Mode: "at-least" } } }
 */
static unsigned
good(struct bw *w)
{
	unsigned	k[3], v[3], sk[2], sv[2], kk[2], kv[2];

	k[0] = str(w, "CheckInterval");
	v[0] = num(w, 5);
	k[1] = str(w, "RestoreOnExit");
	v[1] = boolean(w, true);
	k[2] = str(w, "Sysctls");
	sk[0] = str(w, "net.a.b");
	sv[0] = str(w, "1 2 3");
	sk[1] = str(w, "net.c.d");
	kk[0] = str(w, "Value");
	kv[0] = num(w, 7);
	kk[1] = str(w, "Mode");
	kv[1] = str(w, "at-least");
	sv[1] = dict(w, kk, kv, 2);
	v[2] = dict(w, sk, sv, 2);
	return dict(w, k, v, 3);
}

/* ---- tests */

static void
test_good(void **arg)
{
	struct bw	 w;
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i;

	(void)arg;
	start(&w);
	finish(&w, good(&w));
	cfg = parse(&w, &errs);
	for (i = 0; i < errs.n; i++)
		print_message("# got: %s\n", errs.msg[i]);
	assert_non_null(cfg);
	assert_int_equal(cfg->check_interval, 5);
	assert_true(cfg->restore_on_exit);
	assert_int_equal(cfg->nkeys, 2);
	assert_string_equal(cfg->keys[0].name, "net.a.b");
	assert_string_equal(cfg->keys[0].value, "1 2 3");
	assert_string_equal(cfg->keys[1].name, "net.c.d");
	assert_string_equal(cfg->keys[1].value, "7");
	assert_int_equal(cfg->keys[1].mode, MODE_AT_LEAST);
	config_free(cfg);
	errlist_clear(&errs);
}

/* The config's own checks run on what the binary file holds. */
static void
test_config_checks_apply(void **arg)
{
	struct bw	w;
	unsigned	k[2], v[2], sk[1], sv[1];

	(void)arg;
	start(&w);
	k[0] = str(&w, "CheckInterval");
	v[0] = num(&w, 0);
	k[1] = str(&w, "Sysctls");
	sk[0] = str(&w, "not a name");
	sv[0] = str(&w, "1");
	v[1] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 2));
	expect_error(&w, "CheckInterval must be between");
	expect_error(&w, "a space is not allowed");
}

static void
test_types_refused(void **arg)
{
	struct bw	w;
	unsigned	k[1], v[1];

	(void)arg;
	start(&w);
	k[0] = str(&w, "CheckInterval");
	v[0] = obj(&w);
	byte(&w, 0x23);			/* an 8-byte real */
	be64(&w, 0x4014000000000000ULL);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "CheckInterval");

	start(&w);
	k[0] = str(&w, "CheckInterval");
	v[0] = obj(&w);
	byte(&w, 0x00);			/* null */
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "binary property list: a null");

	start(&w);
	k[0] = str(&w, "CheckInterval");
	v[0] = obj(&w);
	byte(&w, 0x80);			/* UID */
	byte(&w, 1);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "a UID or a set");
}

static void
test_utf16(void **arg)
{
	struct bw	 w;
	struct errlist	 errs;
	struct config	*cfg;
	unsigned	 k[1], v[1], sk[1], sv[1];
	static const uint16_t name[] = { 'n', 'e', 't', '.', 0xe9, '.', 'x' };
	static const uint16_t lone[] = { 'a', 0xd800, 'b' };
	static const uint16_t pair[] = { 0xd83d, 0xde00 };

	(void)arg;
	/* a UTF-16 key: as UTF-8 it is still not a sysctl name */
	start(&w);
	k[0] = str(&w, "Sysctls");
	sk[0] = u16(&w, name, 7);
	sv[0] = str(&w, "1");
	v[0] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "byte \\xc3 is not allowed");

	start(&w);
	k[0] = str(&w, "Sysctls");
	sk[0] = str(&w, "net.a.b");
	sv[0] = u16(&w, lone, 3);
	v[0] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "a lone UTF-16 surrogate");

	/* a pair is one character: the value is text, and taken */
	start(&w);
	k[0] = str(&w, "Sysctls");
	sk[0] = str(&w, "net.a.b");
	sv[0] = u16(&w, pair, 2);
	v[0] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 1));
	cfg = parse(&w, &errs);
	assert_non_null(cfg);
	assert_string_equal(cfg->keys[0].value, "\xf0\x9f\x98\x80");
	config_free(cfg);
	errlist_clear(&errs);
}

static void
test_control_and_markup(void **arg)
{
	struct bw	 w;
	struct errlist	 errs;
	struct config	*cfg;
	unsigned	 k[1], v[1], sk[1], sv[1];

	(void)arg;
	start(&w);
	k[0] = str(&w, "Sysctls");
	sk[0] = str(&w, "net.a.b");
	sv[0] = str(&w, "1\x01");
	v[0] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "control byte \\x01");

	/* markup in a string stays text: no element, no entity */
	start(&w);
	k[0] = str(&w, "Sysctls");
	sk[0] = str(&w, "net.a.b");
	sv[0] = str(&w, "a</string><x>&amp;");
	v[0] = dict(&w, sk, sv, 1);
	finish(&w, dict(&w, k, v, 1));
	cfg = parse(&w, &errs);
	assert_non_null(cfg);
	assert_string_equal(cfg->keys[0].value, "a</string><x>&amp;");
	config_free(cfg);
	errlist_clear(&errs);
}

static void
test_structure_attacks(void **arg)
{
	struct bw	w;
	unsigned	refs[2], k[1], v[1], i, prev;

	(void)arg;
	/* an array holding itself */
	start(&w);
	refs[0] = 0;
	finish(&w, arr(&w, refs, 1));
	expect_error(&w, "nested more than");

	/* each array holds the next twice: 2^40 strings if expanded */
	start(&w);
	prev = str(&w, "x");
	for (i = 0; i < 40; i++) {
		refs[0] = refs[1] = prev;
		prev = arr(&w, refs, 2);
	}
	finish(&w, prev);
	expect_error(&w, "nested more than");
	start(&w);
	prev = str(&w, "0123456789abcdef0123456789abcdef");
	for (i = 0; i < 30; i++) {
		refs[0] = refs[1] = prev;
		prev = arr(&w, refs, 2);
	}
	finish(&w, prev);
	expect_error(&w, "larger than");

	/* a reference past the objects */
	start(&w);
	k[0] = str(&w, "CheckInterval");
	v[0] = 40;
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "past the");

	/* a dictionary key that is not a string */
	start(&w);
	k[0] = num(&w, 1);
	v[0] = num(&w, 2);
	finish(&w, dict(&w, k, v, 1));
	expect_error(&w, "key that is not a string");
}

static void
test_bad_files(void **arg)
{
	struct bw	w;
	size_t		cut;

	(void)arg;
	start(&w);
	finish(&w, good(&w));
	w.buf[7] = '1';			/* bplist01 */
	expect_error(&w, "version \"01\"");

	start(&w);
	finish(&w, good(&w));
	w.len = 20;
	expect_error(&w, "truncated");

	/* every cut of a good file is an error, never a crash */
	start(&w);
	finish(&w, good(&w));
	for (cut = 6; cut < w.len; cut++) {
		struct bw	c = w;
		struct errlist	errs;

		c.len = cut;
		assert_null(parse(&c, &errs));
		assert_true(errs.n >= 1);
		errlist_clear(&errs);
	}

	/* the top object out of range */
	start(&w);
	finish(&w, good(&w));
	w.buf[w.len - 9] = 0xff;
	expect_error(&w, "bad trailer");

	/* an object offset pointing into the offset table */
	start(&w);
	finish(&w, good(&w));
	w.buf[w.len - 32 - 2] = 0xff;
	w.buf[w.len - 32 - 1] = 0x00;
	expect_error(&w, "outside the objects");

	/* a count that runs past the objects */
	start(&w);
	(void)obj(&w);
	byte(&w, 0x5f);			/* a string whose count follows: */
	byte(&w, 0x12);			/* a 4-byte integer, 2^31 - 1 */
	byte(&w, 0x7f);
	byte(&w, 0xff);
	byte(&w, 0xff);
	byte(&w, 0xff);
	finish(&w, 0);
	expect_error(&w, "past the object area");
}

/* Every single-byte change of a good file: refused or read, no crash. */
static void
test_mutations(void **arg)
{
	struct bw	w;
	size_t		i;
	unsigned	b;

	(void)arg;
	start(&w);
	finish(&w, good(&w));
	for (i = 0; i < w.len; i++)
		for (b = 0; b < 8; b++) {
			struct bw	m = w;
			struct errlist	errs;
			struct config	*cfg;

			m.buf[i] ^= (unsigned char)(1u << b);
			cfg = parse(&m, &errs);
			assert_true(cfg != NULL || errs.n >= 1);
			config_free(cfg);
			errlist_clear(&errs);
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_config_checks_apply),
		cmocka_unit_test(test_types_refused),
		cmocka_unit_test(test_utf16),
		cmocka_unit_test(test_control_and_markup),
		cmocka_unit_test(test_structure_attacks),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_mutations),
	};

	return cmocka_run_group_tests_name("bplist", tests, NULL, NULL);
}
