/*
 * The parse helper's answer (lib/parse_wire.c): a config and a list of
 * file:line errors come through unchanged, and every kind of answer a
 * broken or hostile helper could send is refused as a whole, with a
 * reason: short, long, wrong magic, counts out of range, a string not
 * ended or not zero-filled, a name or value the config reader would not
 * have let through, a key twice.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcptune.h"
#include "parse_wire.h"

#define GOOD \
	"<plist version=\"1.0\"><dict>\n" \
	"<key>CheckInterval</key><integer>30</integer>\n" \
	"<key>Sysctls</key><dict>\n" \
	"<key>net.core.rmem_max</key><integer>4194304</integer>\n" \
	"<key>net.ipv4.tcp_rmem</key><dict><key>Value</key>" \
	"<string>4096 131072 6291456</string><key>Mode</key>" \
	"<string>at-least</string></dict>\n" \
	"</dict></dict></plist>\n"

static struct config *
parse(const char *xml)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_parse(xml, strlen(xml), "t.conf", &errs);
	assert_non_null(cfg);
	errlist_clear(&errs);
	return cfg;
}

/* GOOD as an answer, to spoil. */
static char *
good_answer(size_t *len)
{
	struct config	*cfg = parse(GOOD);
	char		*buf;

	assert_int_equal(parse_wire_encode(cfg, NULL, &buf, len), 0);
	config_free(cfg);
	return buf;
}

/* A field as the helper must send it: the string, then zeros. */
static void
set(char *field, size_t size, const char *s)
{
	memset(field, 0, size);
	strcpy(field, s);
}

static struct pw_key *
key_of(char *buf, size_t i)
{
	return (struct pw_key *)(void *)(buf + sizeof(struct pw_head)) + i;
}

static void
expect_garbage(const char *buf, size_t len, const char *why_part)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		 why[256];

	errlist_init(&errs);
	why[0] = '\0';
	assert_int_equal(parse_wire_decode(buf, len, "t.conf", &cfg,
	    &errs, why, sizeof(why)), -1);
	assert_null(cfg);
	assert_int_equal(errs.n, 0);
	if (strstr(why, why_part) == NULL)
		fail_msg("why \"%s\" lacks \"%s\"", why, why_part);
}

static void
test_config_through(void **state)
{
	struct config	*cfg = parse(GOOD), *got;
	struct errlist	 errs;
	char		*buf, why[256];
	size_t		 len, i;

	(void)state;
	assert_int_equal(parse_wire_encode(cfg, NULL, &buf, &len), 0);
	errlist_init(&errs);
	assert_int_equal(parse_wire_decode(buf, len, "t.conf", &got,
	    &errs, why, sizeof(why)), 0);
	assert_non_null(got);
	assert_int_equal(got->nkeys, cfg->nkeys);
	assert_int_equal(got->check_interval, 30);
	assert_int_equal(got->digest, cfg->digest);
	assert_int_equal(got->set, cfg->set);
	for (i = 0; i < cfg->nkeys; i++) {
		assert_string_equal(got->keys[i].name, cfg->keys[i].name);
		assert_string_equal(got->keys[i].value, cfg->keys[i].value);
		assert_int_equal(got->keys[i].mode, cfg->keys[i].mode);
		assert_int_equal(got->keys[i].line, cfg->keys[i].line);
		assert_int_equal(got->keys[i].numeric, cfg->keys[i].numeric);
	}
	assert_int_equal(got->keys[1].mode, MODE_AT_LEAST);
	config_free(cfg);
	config_free(got);
	free(buf);
}

/* The errors, file:line and all, in their order. */
static void
test_errors_through(void **state)
{
	const char	*bad = "<plist version=\"1.0\"><dict>\n"
	    "<key>Sysctls</key><dict>\n<key>net..x</key><integer>1</integer>\n"
	    "<key>net.core.rmem_max</key><integer>x</integer>\n"
	    "</dict></dict></plist>\n";
	struct errlist	 errs, back;
	struct config	*got;
	char		*buf, why[256];
	size_t		 len, i;

	(void)state;
	errlist_init(&errs);
	assert_null(config_parse(bad, strlen(bad), "/etc/t.conf", &errs));
	assert_true(errs.n >= 2);
	assert_int_equal(parse_wire_encode(NULL, &errs, &buf, &len), 0);
	errlist_init(&back);
	assert_int_equal(parse_wire_decode(buf, len, "/etc/t.conf", &got,
	    &back, why, sizeof(why)), 0);
	assert_null(got);
	assert_int_equal(back.n, errs.n);
	for (i = 0; i < errs.n; i++)
		assert_string_equal(back.msg[i], errs.msg[i]);
	assert_non_null(strstr(back.msg[0], "/etc/t.conf:3: "));
	errlist_clear(&errs);
	errlist_clear(&back);
	free(buf);
}

static void
test_short_and_long(void **state)
{
	size_t	 len;
	char	*buf = good_answer(&len), *longer;

	(void)state;
	expect_garbage(buf, 0, "no answer");
	expect_garbage(buf, sizeof(struct pw_head) - 1, "short");
	expect_garbage(buf, len - 1, "length");
	longer = calloc(1, len + 1);
	memcpy(longer, buf, len);
	expect_garbage(longer, len + 1, "length");
	free(longer);
	free(buf);
}

static void
test_head_fields(void **state)
{
	size_t		 len;
	char		*buf = good_answer(&len);
	struct pw_head	*h = (struct pw_head *)(void *)buf;

	(void)state;
	h->magic ^= 1;
	expect_garbage(buf, len, "magic");
	h->magic ^= 1;
	h->version = 1;		/* a helper of another build */
	expect_garbage(buf, len, "magic");
	h->version = PW_VERSION;
	h->nkeys = TT_MAX_KEYS + 1;
	expect_garbage(buf, len, "count");
	h->nkeys = 2;
	h->ok = 0;
	expect_garbage(buf, len, "neither");
	h->ok = 1;
	h->check_interval = 0;
	expect_garbage(buf, len, "setting");
	h->check_interval = TT_CHECK_MAX + 1;
	expect_garbage(buf, len, "setting");
	h->check_interval = 30;
	h->flags = 0x80;
	expect_garbage(buf, len, "setting");
	free(buf);
}

static void
test_key_fields(void **state)
{
	size_t		 len;
	char		*buf = good_answer(&len);
	struct pw_key	 saved, *k = key_of(buf, 0);

	(void)state;
	saved = *k;
	memset(k->name, 'a', sizeof(k->name));	/* not ended */
	expect_garbage(buf, len, "name");
	*k = saved;
	k->name[sizeof(k->name) - 1] = 'x';	/* not zero-filled */
	expect_garbage(buf, len, "name");
	*k = saved;
	set(k->name, sizeof(k->name), "net../x");
	expect_garbage(buf, len, "name");
	*k = saved;
	set(k->name, sizeof(k->name), "kernel.core_pattern");	/* no AllowAnySysctl */
	expect_garbage(buf, len, "name");
	*k = saved;
	set(k->value, sizeof(k->value), " 1  2");
	expect_garbage(buf, len, "normalized");
	*k = saved;
	set(k->value, sizeof(k->value), "a\tb");
	expect_garbage(buf, len, "normalized");
	*k = saved;
	set(k->value, sizeof(k->value), "abc");		/* numeric, not a number */
	expect_garbage(buf, len, "numeric");
	*k = saved;
	k->mode = 3;
	expect_garbage(buf, len, "range");
	*k = saved;
	k->pad = 1;
	expect_garbage(buf, len, "range");
	*k = saved;
	k->line = -1;
	expect_garbage(buf, len, "range");
	*k = saved;
	*key_of(buf, 1) = saved;
	expect_garbage(buf, len, "twice");
	free(buf);
}

static void
test_error_text(void **state)
{
	struct errlist	 errs;
	char		*buf;
	size_t		 len;
	struct pw_error	*e;

	(void)state;
	errlist_init(&errs);
	errlist_add(&errs, "t.conf:1: fine");
	assert_int_equal(parse_wire_encode(NULL, &errs, &buf, &len), 0);
	e = (struct pw_error *)(void *)(buf + sizeof(struct pw_head));
	e->text[4] = '\n';
	expect_garbage(buf, len, "one line");
	e->text[4] = 'f';
	e->text[0] = '\0';
	expect_garbage(buf, len, "one line");
	errlist_clear(&errs);
	free(buf);
}

/*
 * AllowAnySysctl read by the daemon from the file's own bytes
 * (parse_wire_says_allow_any): yes only where the file says it in its
 * top dict, as the config reader takes it, and where config_parse reads
 * the file at all the two agree on every case that says yes.
 */
#define TOP(x)	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
	"<plist version=\"1.0\"><dict>" x "</dict></plist>\n"
#define ALLOW	"<key>AllowAnySysctl</key><true/>"
#define SYSCTLS	"<key>Sysctls</key><dict><key>net.core.rmem_max</key>" \
	"<integer>4194304</integer></dict>"

static void
test_allow_any_from_bytes(void **state)
{
	static const struct {
		const char	*xml;
		int		 said;
	} cases[] = {
		{ TOP(ALLOW SYSCTLS), 1 },
		{ TOP(SYSCTLS ALLOW), 1 },
		{ TOP("<!-- c --><key>AllowAnySysctl</key>\n\t<!-- c -->\n"
		    "\t<true/>" SYSCTLS), 1 },
		{ "<plist><dict>" ALLOW "</dict></plist>", 1 },
		{ "\xef\xbb\xbf<plist><dict><key>AllowAnySysctl</key>"
		    "<true></true></dict></plist>", 1 },
		{ TOP(SYSCTLS), 0 },
		{ TOP("<key>AllowAnySysctl</key><false/>" SYSCTLS), 0 },
		{ TOP("<key>AllowAnySysctl</key><string>true</string>"), 0 },
		{ TOP(ALLOW "<key>AllowAnySysctl</key><false/>"), 0 },
		{ TOP(ALLOW ALLOW), 0 },
		{ TOP("<key>AllowAnySysctl</key>"), 0 },
		/* not the top dict's */
		{ TOP("<key>Sysctls</key><dict>" ALLOW "</dict>"), 0 },
		{ TOP("<key>X</key><array><dict>" ALLOW "</dict></array>"),
		    0 },
		{ "<plist><array/><dict>" ALLOW "</dict></plist>", 0 },
		{ "<dict>" ALLOW "</dict>", 0 },	/* the root is a plist */
		{ "<plist><dict></dict><dict>" ALLOW "</dict></plist>", 0 },
		/* hidden from the reader: comment, CDATA, PI, attribute */
		{ TOP("<!-- " ALLOW " -->" SYSCTLS), 0 },
		{ TOP("<key>V</key><string><![CDATA[" ALLOW "]]></string>"), 0 },
		{ TOP("<?pi " ALLOW "?>" SYSCTLS), 0 },
		{ TOP("<key a='>" ALLOW "'>K</key><string/>"), 0 },
		/* cannot be followed: a no */
		{ TOP("<key>Allow<!---->AnySysctl</key><true/>"), 0 },
		{ TOP("<key>x<!--</key>--></key><dict>" ALLOW "</dict>"), 0 },
		{ TOP("<key>Allow&#65;nySysctl</key><true/>"), 0 },
		{ "<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>"
		    "<plist><dict>" ALLOW "</dict></plist>", 0 },
		{ "<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><dict>" ALLOW
		    "</dict></plist>", 0 },
		{ "bplist00" ALLOW, 0 },
		{ TOP(ALLOW "<!-- not closed"), 0 },
		{ "", 0 },
	};
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 i, len;

	(void)state;
	for (i = 0; i < NITEMS(cases); i++) {
		len = strlen(cases[i].xml);
		if (parse_wire_says_allow_any(cases[i].xml, len) !=
		    cases[i].said)
			fail_msg("case %zu: %s: not %d", i, cases[i].xml,
			    cases[i].said);
		/* never yes where the reader says no */
		errlist_init(&errs);
		cfg = config_parse(cases[i].xml, len, "t.conf", &errs);
		if (cases[i].said && (cfg == NULL || !cfg->allow_any_sysctl))
			fail_msg("case %zu: the reader does not allow any",
			    i);
		config_free(cfg);
		errlist_clear(&errs);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_through),
		cmocka_unit_test(test_errors_through),
		cmocka_unit_test(test_short_and_long),
		cmocka_unit_test(test_head_fields),
		cmocka_unit_test(test_key_fields),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_allow_any_from_bytes),
	};

	log_init(1, 0, "test_parse_wire");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
