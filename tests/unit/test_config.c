/*
 * The config parser: every kind of problem with its exact line, all of
 * them listed, good configs of each form, the file checks (type, size,
 * owner), and the XML attacks (entities, external DTDs), which must be
 * refused without reading a file or touching the network.
 */
/*
 * No _POSIX_C_SOURCE here: on macOS and FreeBSD it hides INADDR_LOOPBACK
 * (<netinet/in.h> shows it only to _DARWIN_C_SOURCE / __BSD_VISIBLE) and
 * mkdtemp, which those systems show by default; on Linux configure gives
 * _GNU_SOURCE.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "tcptune.h"

#define APPLE_HEAD \
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
	"<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" " \
	"\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"

/* A plist whose Sysctls dict holds body; its first line is line 3. */
#define SYSCTLS(body) \
	"<plist version=\"1.0\"><dict>\n<key>Sysctls</key><dict>\n" \
	body "</dict></dict></plist>\n"

static char	tmpdir[256];

/* ---- helpers */

static struct config *
parse(const char *xml, struct errlist *errs)
{
	errlist_init(errs);
	return config_parse(xml, strlen(xml), "t.conf", errs);
}

static void
print_errors(const struct errlist *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		print_message("# got: %s\n", errs->msg[i]);
}

/* xml must be refused with exactly the messages in want, in order. */
static void
expect_errors(const char *xml, const char *const *want)
{
	struct errlist	 errs;
	struct config	*cfg;
	size_t		 n, i;

	for (n = 0; want[n] != NULL; n++)
		;
	cfg = parse(xml, &errs);
	if (cfg != NULL || errs.n != n)
		print_errors(&errs);
	assert_null(cfg);
	assert_int_equal(errs.n, n);
	for (i = 0; i < n; i++)
		assert_string_equal(errs.msg[i], want[i]);
	errlist_clear(&errs);
}

static void
expect_error(const char *xml, const char *want)
{
	const char *const	list[] = { want, NULL };

	expect_errors(xml, list);
}

static struct config *
parse_ok(const char *xml)
{
	struct errlist	 errs;
	struct config	*cfg;

	cfg = parse(xml, &errs);
	if (cfg == NULL)
		print_errors(&errs);
	assert_non_null(cfg);
	assert_int_equal(errs.n, 0);
	errlist_clear(&errs);
	return cfg;
}

static void
write_file(const char *path, const char *text, mode_t mode)
{
	int	fd;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd != -1);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void
tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* config_report's output for path, as one string. */
static int
report(const char *path, int flags, bool verbose, char *out, size_t size)
{
	FILE	*f;
	size_t	 n;
	int	 rv;

	f = tmpfile();
	assert_non_null(f);
	rv = config_report(path, flags, NULL, verbose, f, f, NULL);
	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	return rv;
}

static const char good_xml[] = APPLE_HEAD
	"<plist version=\"1.0\">\n"
	"<dict>\n"
	"\t<key>Sysctls</key>\n"
	"\t<dict>\n"
	"\t\t<key>net.inet.tcp.sendspace</key>\n"
	"\t\t<integer>262144</integer>\n"
	"\t\t<key>kern.ipc.maxsockbuf</key>\n"
	"\t\t<integer>16777216</integer>\n"
	"\t</dict>\n"
	"</dict>\n"
	"</plist>\n";

/* ---- good configs */

static void
test_short_forms(void **state)
{
	struct config		*cfg;
	const struct config_key	*k;

	(void)state;
	cfg = parse_ok(APPLE_HEAD
	    "<plist version=\"1.0\">\n"			/* 3 */
	    "<dict>\n"
	    "\t<key>CheckInterval</key>\n"		/* 5 */
	    "\t<integer>30</integer>\n"
	    "\t<key>RestoreOnExit</key>\n"
	    "\t<true/>\n"
	    "\t<key>Sysctls</key>\n"
	    "\t<dict>\n"				/* 10 */
	    "\t\t<key>net.core.rmem_max</key>\n"
	    "\t\t<integer>67108864</integer>\n"
	    "\t\t<key>net.ipv4.tcp_rmem</key>\n"
	    "\t\t<string>4096 131072 67108864</string>\n"
	    "\t\t<key>net.ipv4.tcp_congestion_control</key>\n"	/* 15 */
	    "\t\t<string>bbr</string>\n"
	    "\t</dict>\n"
	    "</dict>\n"
	    "</plist>\n");
	assert_string_equal(cfg->path, "t.conf");
	assert_int_equal(cfg->check_interval, 30);
	assert_true(cfg->restore_on_exit);
	assert_int_equal(cfg->nkeys, 3);
	k = &cfg->keys[0];
	assert_string_equal(k->name, "net.core.rmem_max");
	assert_string_equal(k->value, "67108864");
	assert_true(k->numeric);
	assert_int_equal(k->mode, MODE_ENFORCE);
	assert_int_equal(k->on_reject, REJECT_FAIL);
	assert_int_equal(k->line, 11);
	k = &cfg->keys[1];
	assert_string_equal(k->value, "4096 131072 67108864");
	assert_true(k->numeric);
	assert_int_equal(k->line, 13);
	k = &cfg->keys[2];
	assert_string_equal(k->value, "bbr");
	assert_false(k->numeric);
	assert_int_equal(k->line, 15);
	config_free(cfg);
}

static void
test_per_key_form(void **state)
{
	struct config		*cfg;
	const struct config_key	*k;

	(void)state;
	cfg = parse_ok(SYSCTLS(
	    "<key>kern.ipc.maxsockbuf</key><dict>\n"
	    "  <key>OnReject</key><string>clamp</string>\n"
	    "  <key>Value</key><integer>16777216</integer></dict>\n"
	    "<key>net.ipv4.tcp_wmem</key><dict>\n"
	    "  <key>Value</key><string>4096 16384 67108864</string>\n"
	    "  <key>Mode</key><string>at-least</string>\n"
	    "  <key>OnReject</key><string>clamp</string></dict>\n"
	    "<key>net.ipv4.tcp_congestion_control</key><dict>\n"
	    "  <key>Value</key><string>cubic</string>\n"
	    "  <key>Mode</key><string>once</string>\n"
	    "  <key>OnReject</key><string>fail</string></dict>\n"
	    "<key>net.inet.tcp.sendspace</key><dict>\n"
	    "  <key>Value</key><integer>262144</integer>\n"
	    "  <key>Mode</key><string>enforce</string></dict>\n"));
	assert_int_equal(cfg->nkeys, 4);
	k = config_find(cfg, "kern.ipc.maxsockbuf");
	assert_non_null(k);
	assert_string_equal(k->value, "16777216");
	assert_int_equal(k->mode, MODE_ENFORCE);
	assert_int_equal(k->on_reject, REJECT_CLAMP);
	assert_int_equal(k->line, 3);
	k = config_find(cfg, "net.ipv4.tcp_wmem");
	assert_non_null(k);
	assert_int_equal(k->mode, MODE_AT_LEAST);
	assert_int_equal(k->on_reject, REJECT_CLAMP);
	assert_true(k->numeric);
	assert_int_equal(k->line, 6);
	k = config_find(cfg, "net.ipv4.tcp_congestion_control");
	assert_non_null(k);
	assert_int_equal(k->mode, MODE_ONCE);
	assert_int_equal(k->on_reject, REJECT_FAIL);
	k = config_find(cfg, "net.inet.tcp.sendspace");
	assert_non_null(k);
	assert_int_equal(k->mode, MODE_ENFORCE);
	assert_null(config_find(cfg, "net.inet.tcp.recvspace"));
	config_free(cfg);
}

static void
test_defaults(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse_ok("<plist><dict/></plist>");
	assert_int_equal(cfg->check_interval, TT_CHECK_DEFAULT);
	assert_false(cfg->restore_on_exit);
	assert_int_equal(cfg->nkeys, 0);
	config_free(cfg);
	/* An empty Sysctls dict is allowed and says nothing. */
	cfg = parse_ok(SYSCTLS(""));
	assert_int_equal(cfg->nkeys, 0);
	config_free(cfg);
	cfg = parse_ok("<plist><dict><key>RestoreOnExit</key><false/>"
	    "<key>CheckInterval</key><integer>1</integer></dict></plist>");
	assert_false(cfg->restore_on_exit);
	assert_int_equal(cfg->check_interval, 1);
	config_free(cfg);
	cfg = parse_ok("<plist><dict><key>CheckInterval</key>"
	    "<integer>86400</integer></dict></plist>");
	assert_int_equal(cfg->check_interval, 86400);
	config_free(cfg);
}

static void
test_lexical(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse_ok("<?xml version=\"1.0\"?>\n"
	    "<?tool ignored?>\n"
	    "<!-- comment -->\n"
	    "<!DOCTYPE plist SYSTEM \"file:///nonexistent/x.dtd\">\n"
	    "<plist><!-- c --><dict>\n"
	    "<key>Sysctls</key><!-- c --><dict>\n"
	    "<key>net.a</key><string>\n\t1\t 2\n 3 </string>\n"
	    "<key>net.b</key><string><![CDATA[4 ]]>&#x35;</string>\n"
	    "<key>net.c</key><integer> +007 </integer>\n"
	    "<key>net.d</key><string>a&amp;b</string>\n"
	    "<key>net.e</key><string>-1 9223372036854775807</string>\n"
	    "<key>net.f</key><integer>9223372036854775807</integer>\n"
	    "<key>net.g</key><integer>0</integer>\n"
	    "</dict></dict></plist>");
	assert_string_equal(config_find(cfg, "net.a")->value, "1 2 3");
	assert_true(config_find(cfg, "net.a")->numeric);
	assert_string_equal(config_find(cfg, "net.b")->value, "4 5");
	assert_string_equal(config_find(cfg, "net.c")->value, "7");
	assert_string_equal(config_find(cfg, "net.d")->value, "a&b");
	assert_false(config_find(cfg, "net.d")->numeric);
	assert_true(config_find(cfg, "net.e")->numeric);
	assert_string_equal(config_find(cfg, "net.f")->value,
	    "9223372036854775807");
	assert_string_equal(config_find(cfg, "net.g")->value, "0");
	assert_int_equal(config_find(cfg, "net.a")->line, 7);
	config_free(cfg);
}

static void
test_digest(void **state)
{
	struct config	*cfg;

	(void)state;
	cfg = parse_ok(good_xml);
	assert_true(cfg->digest == fnv1a64(good_xml, strlen(good_xml)));
	config_free(cfg);
}

static void
test_names(void **state)
{
	static const char *const good[] = {
		"net.ipv4.tcp_rmem", "kern.ipc.maxsockbuf", "a.b",
		"net.ipv4.conf.eth-0.rp_filter", "A_1.b-2", "net.core.9x",
	};
	static const char *const bad[] = {
		"", "net", "net.", ".net", "net..core", "net/ipv4.tcp_rmem",
		"../etc.passwd", "net.ipv4.tcp_rmem/..", "net. core",
		"net.co re", "-net.core", "net.-core", "net.core\n",
		"net.c\xc3\xa9", "net.core.a;b", "net.core.*",
	};
	char	long_name[TT_NAME_MAX + 1];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(sysctl_name_valid(good[i]));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(sysctl_name_valid(bad[i]));
	memset(long_name, 'a', sizeof(long_name));
	long_name[1] = '.';
	long_name[TT_NAME_MAX - 1] = '\0';	/* 127 characters: fits */
	assert_true(sysctl_name_valid(long_name));
	long_name[TT_NAME_MAX - 1] = 'a';
	long_name[TT_NAME_MAX] = '\0';		/* 128: too long */
	assert_false(sysctl_name_valid(long_name));
}

static void
test_enum_names(void **state)
{
	(void)state;
	assert_string_equal(key_mode_name(MODE_ENFORCE), "enforce");
	assert_string_equal(key_mode_name(MODE_ONCE), "once");
	assert_string_equal(key_mode_name(MODE_AT_LEAST), "at-least");
	assert_string_equal(on_reject_name(REJECT_FAIL), "fail");
	assert_string_equal(on_reject_name(REJECT_CLAMP), "clamp");
}

/* ---- every kind of problem, with its line */

static void
test_not_xml(void **state)
{
	static const char *const want[] = {
		"t.conf:3: Opening and ending tag mismatch: dict line 1 and "
		    "plist",
		"t.conf:4: Premature end of data in tag plist line 1",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n<key>a</key>\n</plist>\n", want);
	expect_error("", "t.conf: empty file: expected a <plist> holding a "
	    "<dict>");
}

static void
test_root(void **state)
{
	(void)state;
	expect_error("\n<dict/>", "t.conf:2: the root element must be "
	    "<plist>, not <dict>");
	expect_error("<plist>\n<array/></plist>", "t.conf:2: <plist> must "
	    "hold one <dict>, not <array>");
	expect_error("<plist>\n</plist>", "t.conf:1: <plist> must hold one "
	    "<dict>");
	expect_error("<plist><dict/>\n<dict/></plist>", "t.conf:2: <plist> "
	    "must hold one <dict>, found <dict> after it");
	expect_error("<plist>\nhello<dict/></plist>", "t.conf:2: unexpected "
	    "text \"hello\" in <plist>");
	expect_error("<plist xmlns=\"urn:x\"><dict/></plist>", "t.conf:1: "
	    "attribute \"xmlns\" on <plist> not allowed: a plist has no "
	    "attribute but version on <plist>");
}

static void
test_unknown_keys(void **state)
{
	static const char *const want[] = {
		"t.conf:2: unknown key \"CheckIntervall\" (expected "
		    "CheckInterval, RestoreOnExit, AllowAnySysctl, Sysctls or MetricsTextfileDirectory)",
		"t.conf:4: net.a: unknown key \"mode\" (expected Value, Mode "
		    "or OnReject)",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n"
	    "<key>CheckIntervall</key><integer>5</integer>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.a</key><dict><key>Value</key><integer>1</integer>"
	    "<key>mode</key><string>once</string></dict>\n"
	    "</dict></dict></plist>", want);
}

/*
 * Only the network and socket-buffer sysctls, unless the file says
 * AllowAnySysctl, wherever in the file it says it; a prefix must be whole
 * ("netx." is not "net.").
 */
static void
test_managed_keys(void **state)
{
	static const char *const want[] = {
		"t.conf:3: kernel.core_pattern is not a network or "
		    "socket-buffer sysctl (net.*, kern.ipc.*, tcp.*, offload.*): tcptune changes "
		    "no other unless AllowAnySysctl is <true/>",
		"t.conf:4: netx.a is not a network or socket-buffer sysctl "
		    "(net.*, kern.ipc.*, tcp.*, offload.*): tcptune changes no other unless "
		    "AllowAnySysctl is <true/>",
		NULL
	};
	struct config	*cfg;

	(void)state;
	expect_errors("<plist><dict>\n<key>Sysctls</key><dict>\n"
	    "<key>kernel.core_pattern</key><string>|/tmp/x</string>\n"
	    "<key>netx.a</key><integer>1</integer>\n"
	    "<key>net.a</key><integer>1</integer>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>1</integer>\n"
	    "</dict></dict></plist>", want);
	cfg = parse_ok("<plist><dict><key>Sysctls</key><dict>"
	    "<key>kernel.core_pattern</key><string>core</string></dict>"
	    "<key>AllowAnySysctl</key><true/></dict></plist>");
	assert_true(cfg->allow_any_sysctl);
	config_free(cfg);
	assert_true(sysctl_name_managed("net.core.rmem_max"));
	assert_true(sysctl_name_managed("kern.ipc.maxsockbuf"));
	assert_false(sysctl_name_managed("kern.ipcx"));
	assert_false(sysctl_name_managed("vm.swappiness"));
}

static void
test_wrong_types(void **state)
{
	static const char *const want[] = {
		"t.conf:2: CheckInterval must be an <integer>, not <string>",
		"t.conf:3: RestoreOnExit must be <true/> or <false/>, not "
		    "<string>",
		"t.conf:4: Sysctls must be a <dict>, not <array>",
		NULL
	};
	static const char *const values[] = {
		"t.conf:3: net.a: value must be <integer>, <string> or "
		    "<dict>, not <real>",
		"t.conf:4: net.b: value must be <integer>, <string> or "
		    "<dict>, not <true/>",
		"t.conf:5: net.c: value must be <integer>, <string> or "
		    "<dict>, not <array>",
		"t.conf:6: net.d: Value must be <integer> or <string>, not "
		    "<dict>",
		"t.conf:8: net.e: Mode must be a <string>, not <integer>",
		"t.conf:9: net.f: OnReject must be a <string>, not <false/>",
		"t.conf:10: net.g: <string> must hold text only, not elements",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n"
	    "<key>CheckInterval</key><string>60</string>\n"
	    "<key>RestoreOnExit</key><string>yes</string>\n"
	    "<key>Sysctls</key><array/>\n"
	    "</dict></plist>", want);
	expect_errors(SYSCTLS(
	    "<key>net.a</key><real>1.5</real>\n"
	    "<key>net.b</key><true/>\n"
	    "<key>net.c</key><array/>\n"
	    "<key>net.d</key><dict><key>Value</key><dict/></dict>\n"
	    "<key>net.e</key><dict><key>Value</key><integer>1</integer>\n"
	    "<key>Mode</key><integer>1</integer></dict>\n"
	    "<key>net.f</key><dict><key>Value</key><integer>1</integer>"
	    "<key>OnReject</key><false/></dict>\n"
	    "<key>net.g</key><string>a<b/></string>\n"), values);
}

static void
test_interval(void **state)
{
	(void)state;
	expect_error("<plist><dict>\n<key>CheckInterval</key>\n"
	    "<integer>0</integer></dict></plist>", "t.conf:3: CheckInterval "
	    "must be between 1 and 86400 seconds, not 0");
	expect_error("<plist><dict><key>CheckInterval</key>\n"
	    "<integer>86401</integer></dict></plist>", "t.conf:2: "
	    "CheckInterval must be between 1 and 86400 seconds, not 86401");
	expect_error("<plist><dict><key>CheckInterval</key>\n"
	    "<integer>-5</integer></dict></plist>", "t.conf:2: "
	    "CheckInterval must be between 1 and 86400 seconds, not -5");
	expect_error("<plist><dict><key>CheckInterval</key>\n"
	    "<integer>1m</integer></dict></plist>", "t.conf:2: "
	    "CheckInterval \"1m\" is not a decimal integer");
	expect_error("<plist><dict><key>CheckInterval</key>\n"
	    "<integer/></dict></plist>", "t.conf:2: CheckInterval is an "
	    "empty <integer>");
}

static void
test_duplicates(void **state)
{
	static const char *const want[] = {
		"t.conf:5: net.b: duplicate key \"Value\" (first at line 4)",
		"t.conf:6: duplicate sysctl net.a (first at line 3)",
		"t.conf:7: duplicate key \"Sysctls\" (first at line 2)",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.a</key><integer>1</integer>\n"
	    "<key>net.b</key><dict><key>Value</key><integer>1</integer>\n"
	    "<key>Value</key><integer>2</integer></dict>\n"
	    "<key>net.a</key><integer>2</integer></dict>\n"
	    "<key>Sysctls</key><dict/>\n"
	    "</dict></plist>", want);
}

static void
test_bad_names(void **state)
{
	static const char *const want[] = {
		"t.conf:3: \"net\" is not a sysctl name: it needs at least "
		    "two dot-separated parts",
		"t.conf:4: \"net..core\" is not a sysctl name: it has an "
		    "empty part (a leading, trailing or doubled dot)",
		"t.conf:5: \"net/core.x\" is not a sysctl name: '/' is not "
		    "allowed (only letters, digits, '_', '-' and dots)",
		"t.conf:6: \"../../etc.passwd\" is not a sysctl name: it has "
		    "an empty part (a leading, trailing or doubled dot)",
		"t.conf:7: \"net .core\" is not a sysctl name: a space is not "
		    "allowed (only letters, digits, '_', '-' and dots)",
		"t.conf:8: \"-net.core\" is not a sysctl name: a part starts "
		    "with '-'",
		"t.conf:9: \"net.\\xc3\\xa9\" is not a sysctl name: byte "
		    "\\xc3 is not allowed (only letters, digits, '_', '-' and "
		    "dots)",
		"t.conf:10: \"\" is not a sysctl name: it is empty",
		"t.conf:11: \"net.core\\x0a\" is not a sysctl name: byte "
		    "\\x0a is not allowed (only letters, digits, '_', '-' and "
		    "dots)",
		NULL
	};

	(void)state;
	expect_errors(SYSCTLS(
	    "<key>net</key><integer>1</integer>\n"
	    "<key>net..core</key><integer>1</integer>\n"
	    "<key>net/core.x</key><integer>1</integer>\n"
	    "<key>../../etc.passwd</key><integer>1</integer>\n"
	    "<key>net .core</key><integer>1</integer>\n"
	    "<key>-net.core</key><integer>1</integer>\n"
	    "<key>net.\xc3\xa9</key><integer>1</integer>\n"
	    "<key></key><integer>1</integer>\n"
	    "<key>net.core&#10;</key><integer>1</integer>\n"), want);
}

static void
test_long_name(void **state)
{
	char	xml[1024], name[TT_NAME_MAX + 1], want[512];

	(void)state;
	memset(name, 'b', sizeof(name));
	name[0] = 'a';
	name[1] = '.';
	name[TT_NAME_MAX] = '\0';
	snprintf(xml, sizeof(xml), SYSCTLS("<key>%s</key><integer>1</integer>"
	    "\n"), name);
	snprintf(want, sizeof(want), "t.conf:3: \"a.%.70s...\" is not a "
	    "sysctl name: it is longer than 127 characters", name + 2);
	expect_error(xml, want);
}

static void
test_integers(void **state)
{
	static const char *const want[] = {
		"t.conf:3: net.a: value -1 is negative: sysctl values here "
		    "are 0 or more",
		"t.conf:4: net.b: value 9223372036854775808 does not fit in "
		    "a 64-bit integer",
		"t.conf:5: net.c: value \"0x10\" is not a decimal integer",
		"t.conf:6: net.d: value \"1.5\" is not a decimal integer",
		"t.conf:7: net.e: value is an empty <integer>",
		"t.conf:8: net.f: value \"1 2\" is not a decimal integer",
		"t.conf:9: net.g: value word 99999999999999999999 does not "
		    "fit in a 64-bit integer",
		NULL
	};

	(void)state;
	expect_errors(SYSCTLS(
	    "<key>net.a</key><integer>-1</integer>\n"
	    "<key>net.b</key><integer>9223372036854775808</integer>\n"
	    "<key>net.c</key><integer>0x10</integer>\n"
	    "<key>net.d</key><integer>1.5</integer>\n"
	    "<key>net.e</key><integer>  </integer>\n"
	    "<key>net.f</key><integer>1 2</integer>\n"
	    "<key>net.g</key><string>1 99999999999999999999</string>\n"),
	    want);
}

static void
test_strings(void **state)
{
	static const char *const want[] = {
		"t.conf:3: net.a: empty value",
		"t.conf:4: net.b: empty value",
		"t.conf:6: net.c: value is too long (at most 255 characters "
		    "with white space folded)",
		"t.conf:7: net.d: value contains a control character (\\x7f)",
		"t.conf:8: net.e: value contains a C1 control character "
		    "(\\u{0085})",
		"t.conf:9: net.f: value contains a bidirectional control "
		    "character (\\u{202e})",
		NULL
	};
	char	xml[2048], longv[TT_VALUE_MAX + 1];

	(void)state;
	memset(longv, 'x', sizeof(longv));
	longv[TT_VALUE_MAX] = '\0';		/* 256 characters: too long */
	snprintf(xml, sizeof(xml), SYSCTLS(
	    "<key>net.a</key><string/>\n"
	    "<key>net.b</key><string> \t\n</string>\n"
	    "<key>net.c</key><string>%s</string>\n"
	    "<key>net.d</key><string>a&#127;b</string>\n"
	    "<key>net.e</key><string>1&#x85;</string>\n"
	    "<key>net.f</key><string>1\xe2\x80\xae</string>\n"), longv);
	expect_errors(xml, want);
	/* 255 characters fit, after folding white space. */
	longv[TT_VALUE_MAX - 1] = '\0';
	snprintf(xml, sizeof(xml), SYSCTLS(
	    "<key>net.c</key><string>   %s\n\n</string>\n"), longv);
	config_free(parse_ok(xml));
}

static void
test_choices(void **state)
{
	static const char *const want[] = {
		"t.conf:3: net.a: Value is missing",
		"t.conf:5: net.b: Mode \"always\" is not enforce, once or "
		    "at-least",
		"t.conf:6: net.b: OnReject \"retry\" is not fail or clamp",
		"t.conf:8: net.c: Mode at-least needs a numeric value, not "
		    "\"bbr\"",
		"t.conf:9: net.c: OnReject clamp needs a numeric value, not "
		    "\"bbr\"",
		"t.conf:10: net.d: Mode at-least needs a numeric value, not "
		    "\"4096 max\"",
		NULL
	};

	(void)state;
	expect_errors(SYSCTLS(
	    "<key>net.a</key><dict><key>Mode</key><string>once</string>"
	    "</dict>\n"
	    "<key>net.b</key><dict><key>Value</key><integer>1</integer>\n"
	    "<key>Mode</key><string>always</string>\n"
	    "<key>OnReject</key><string>retry</string></dict>\n"
	    "<key>net.c</key><dict><key>Value</key><string>bbr</string>\n"
	    "<key>Mode</key><string>at-least</string>\n"
	    "<key>OnReject</key><string>clamp</string></dict>\n"
	    "<key>net.d</key><dict><key>Value</key><string>4096 max</string>"
	    "<key>Mode</key><string>at-least</string></dict>\n"), want);
}

static void
test_dict_structure(void **state)
{
	static const char *const want[] = {
		"t.conf:2: expected <key> in <dict>, found <integer>",
		"t.conf:4: key \"net.a\" has no value",
		"t.conf:6: unexpected text \"stray text\" in <dict>",
		"t.conf:7: key \"net.c\" has no value",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n"
	    "<integer>60</integer>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.a</key>\n"
	    "<key>net.b</key><integer>1</integer>\n"
	    "  stray   text\n"
	    "<key>net.c</key>\n"
	    "</dict></dict></plist>", want);
}

static void
test_too_many_keys(void **state)
{
	char	*xml, want[64];
	size_t	 size = 64 * (TT_MAX_KEYS + 10), len;
	int	 i;

	(void)state;
	xml = malloc(size);
	assert_non_null(xml);
	len = (size_t)snprintf(xml, size, "<plist><dict><key>Sysctls</key>"
	    "<dict>\n");
	for (i = 1; i <= TT_MAX_KEYS + 2; i++)
		len += (size_t)snprintf(xml + len, size - len,
		    "<key>net.k%d</key><integer>%d</integer>\n", i, i);
	snprintf(xml + len, size - len, "</dict></dict></plist>\n");
	/* Reported once, at the first key too many. */
	snprintf(want, sizeof(want), "t.conf:%d: too many sysctls (at most "
	    "%d)", TT_MAX_KEYS + 2, TT_MAX_KEYS);
	expect_error(xml, want);
	free(xml);
}

/* Lines past 65535 are right too (libxml2 needs XML_PARSE_BIG_LINES). */
static void
test_big_line_numbers(void **state)
{
	char	*xml;
	size_t	 n = 70000;

	(void)state;
	xml = malloc(n + 200);
	assert_non_null(xml);
	strcpy(xml, "<plist><dict>");
	memset(xml + strlen(xml), '\n', n);
	strcpy(xml + 13 + n, "<key>Foo</key><true/></dict></plist>");
	expect_error(xml, "t.conf:70001: unknown key \"Foo\" (expected "
	    "CheckInterval, RestoreOnExit, AllowAnySysctl, Sysctls or MetricsTextfileDirectory)");
	free(xml);
}

/* One file with many problems: all of them, in line order. */
static void
test_all_errors_listed(void **state)
{
	static const char *const want[] = {
		"t.conf:2: CheckInterval must be between 1 and 86400 seconds, "
		    "not 0",
		"t.conf:3: RestoreOnExit must be <true/> or <false/>, not "
		    "<integer>",
		"t.conf:4: unknown key \"Verbose\" (expected CheckInterval, "
		    "RestoreOnExit, AllowAnySysctl, Sysctls or MetricsTextfileDirectory)",
		"t.conf:6: kern.ipc.maxsockbuf: value -1 is negative: sysctl "
		    "values here are 0 or more",
		"t.conf:8: duplicate sysctl net.a (first at line 7)",
		"t.conf:9: \"net/b\" is not a sysctl name: '/' is not allowed "
		    "(only letters, digits, '_', '-' and dots)",
		"t.conf:10: net.c: empty value",
		"t.conf:11: net.d: Mode \"sometimes\" is not enforce, once or "
		    "at-least",
		"t.conf:12: net.e: value must be <integer>, <string> or "
		    "<dict>, not <real>",
		"t.conf:14: duplicate key \"CheckInterval\" (first at line 2)",
		NULL
	};

	(void)state;
	expect_errors("<plist><dict>\n"
	    "<key>CheckInterval</key><integer>0</integer>\n"
	    "<key>RestoreOnExit</key><integer>1</integer>\n"
	    "<key>Verbose</key><true/>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><integer>-1</integer>\n"
	    "<key>net.a</key><integer>1</integer>\n"
	    "<key>net.a</key><integer>1</integer>\n"
	    "<key>net/b</key><integer>1</integer>\n"
	    "<key>net.c</key><string></string>\n"
	    "<key>net.d</key><dict><key>Value</key><integer>1</integer>"
	    "<key>Mode</key><string>sometimes</string></dict>\n"
	    "<key>net.e</key><real>1</real>\n"
	    "</dict>\n"
	    "<key>CheckInterval</key><integer>60</integer>\n"
	    "</dict></plist>", want);
}

static void
test_parse_size_limit(void **state)
{
	struct errlist	 errs;
	char		*buf;

	(void)state;
	buf = malloc(TT_CONFIG_MAX_BYTES + 1);
	assert_non_null(buf);
	memset(buf, ' ', TT_CONFIG_MAX_BYTES + 1);
	errlist_init(&errs);
	assert_null(config_parse(buf, TT_CONFIG_MAX_BYTES + 1, "t.conf",
	    &errs));
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], "t.conf: larger than 1048576 bytes: "
	    "refusing to parse it");
	errlist_clear(&errs);
	free(buf);
}

/*
 * Nothing but white space is an empty file too, told as one (a file-wide
 * problem: "file: message", no line).
 */
static void
test_blank_file(void **state)
{
	(void)state;
	expect_error(" \n\t\r\n", "t.conf: empty file: expected a <plist> "
	    "holding a <dict>");
}

/*
 * libxml2 ends its input at a NUL, so a NUL after a good document would
 * hide whatever follows it, and one in a name would cut it short in C.
 */
static void
test_nul_byte(void **state)
{
	static const char	good[] = "<plist><dict/></plist>\n";
	static const char	in_name[] = "<plist><dict>\n<key>Sysctls</key>"
	    "<dict>\n<key>net.ipv4\0/../x</key><integer>1</integer>\n"
	    "</dict></dict></plist>\n";
	struct errlist		errs;
	char			buf[64];

	(void)state;
	memcpy(buf, good, sizeof(good) - 1);
	memcpy(buf + sizeof(good) - 1, "\0<!-- hidden -->", 16);
	errlist_init(&errs);
	assert_null(config_parse(buf, sizeof(good) - 1 + 16, "t.conf",
	    &errs));
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], "t.conf:2: a NUL byte: a config is "
	    "text and holds none");
	errlist_clear(&errs);

	errlist_init(&errs);
	assert_null(config_parse(in_name, sizeof(in_name) - 1, "t.conf",
	    &errs));
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], "t.conf:3: a NUL byte: a config is "
	    "text and holds none");
	errlist_clear(&errs);
}

/* One problem is one line, even when libxml2's message has a newline. */
static void
test_xml_message_one_line(void **state)
{
	(void)state;
	expect_error("<plist><dict>\n<key>net.a\xff\xfe</key>"
	    "<integer>1</integer></dict></plist>\n",
	    "t.conf:2: Input is not proper UTF-8, indicate encoding ! "
	    "Bytes: 0xFF 0xFE 0x3C 0x2F");
}

/* An integer too long to hold is too long, not "not an integer". */
static void
test_integer_too_long(void **state)
{
	char	xml[600], digits[300];

	(void)state;
	memset(digits, '0', 299);
	digits[298] = '1';
	digits[299] = '\0';
	snprintf(xml, sizeof(xml), SYSCTLS("<key>net.a</key><integer>%s"
	    "</integer>\n"), digits);
	expect_error(xml, "t.conf:3: net.a: value \"0000000000000000000000000"
	    "00000000000000000000000000000000000000000000000...\" is too long "
	    "(at most 255 characters)");
}

/*
 * A file with thousands of errors lists the first 100, then how many more:
 * all of them would flood the log and overflow tcptunectl reload's reply.
 */
static void
test_problem_cap(void **state)
{
	struct errlist	 errs;
	char		*xml, *p;
	size_t		 i, cap = 64 + 5000 * 48;

	(void)state;
	assert_non_null(xml = malloc(cap));
	p = xml + snprintf(xml, cap, "<plist><dict>\n<key>Sysctls</key>"
	    "<dict>\n");
	for (i = 1; i <= 5000; i++)
		p += snprintf(p, cap - (size_t)(p - xml), "<key>bad%zu</key>"
		    "<integer>1</integer>\n", i);
	snprintf(p, cap - (size_t)(p - xml), "</dict></dict></plist>\n");
	errlist_init(&errs);
	assert_null(config_parse(xml, strlen(xml), "t.conf", &errs));
	assert_int_equal(errs.n, 101);
	assert_string_equal(errs.msg[0], "t.conf:3: \"bad1\" is not a sysctl "
	    "name: it needs at least two dot-separated parts");
	assert_string_equal(errs.msg[99], "t.conf:102: \"bad100\" is not a "
	    "sysctl name: it needs at least two dot-separated parts");
	assert_string_equal(errs.msg[100], "t.conf: 4900 more problems not "
	    "listed (only the first 100 are)");
	errlist_clear(&errs);
	free(xml);
}

/* ---- XML attacks: refused, quickly, without reading or connecting */

static void
test_billion_laughs(void **state)
{
	struct timespec	a, b;
	char		xml[4096];
	size_t		len;
	int		i;

	(void)state;
	len = (size_t)snprintf(xml, sizeof(xml), "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE plist [\n<!ENTITY l0 \"lol\">\n");
	for (i = 1; i < 10; i++)
		len += (size_t)snprintf(xml + len, sizeof(xml) - len,
		    "<!ENTITY l%d \"&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;&l%d;"
		    "&l%d;&l%d;\">\n", i, i - 1, i - 1, i - 1, i - 1, i - 1,
		    i - 1, i - 1, i - 1, i - 1, i - 1);
	snprintf(xml + len, sizeof(xml) - len, "]>\n" SYSCTLS(
	    "<key>net.a</key><string>&l9;</string>\n"));
	clock_gettime(CLOCK_MONOTONIC, &a);
	expect_error(xml, "t.conf:3: entity declaration \"l0\" not allowed: "
	    "a tcptune config has no DTD declarations or entities");
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true(b.tv_sec - a.tv_sec < 2);
}

static void
test_declarations(void **state)
{
	(void)state;
	expect_error("<!DOCTYPE plist [\n<!ELEMENT plist ANY>\n]>\n"
	    "<plist><dict/></plist>", "t.conf:2: element declaration "
	    "\"plist\" not allowed: a tcptune config has no DTD declarations "
	    "or entities");
	expect_error("<!DOCTYPE plist [\n<!ATTLIST plist v CDATA \"1\">\n]>\n"
	    "<plist><dict/></plist>", "t.conf:2: attribute declaration "
	    "\"v\" not allowed: a tcptune config has no DTD declarations or "
	    "entities");
	expect_error("<!DOCTYPE plist [\n<!NOTATION n SYSTEM \"x\">\n]>\n"
	    "<plist><dict/></plist>", "t.conf:2: notation declaration \"n\" "
	    "not allowed: a tcptune config has no DTD declarations or "
	    "entities");
}

static void
test_undeclared_entity(void **state)
{
	static const char *const want[] = {
		"t.conf:5: Entity 'x' not defined",
		"t.conf:5: entity reference \"x\" not allowed: a tcptune "
		    "config has no DTD declarations or entities",
		NULL
	};

	(void)state;
	expect_errors(APPLE_HEAD SYSCTLS("<key>net.a</key><string>&x;"
	    "</string>\n"), want);
	expect_error("<plist>\n<dict>&x;</dict></plist>",
	    "t.conf:2: Entity 'x' not defined");
}

/*
 * XInclude is never processed: its namespace is an attribute, refused
 * before libxml2 parses anything, and without one the element is just
 * not a <key>.
 */
static void
test_xinclude(void **state)
{
	static const char *const undeclared[] = {
		"t.conf:2: Namespace prefix xi on include is not defined",
		"t.conf:2: expected <key> in <dict>, found <xi:include>",
		NULL
	};

	(void)state;
	expect_error("<plist><dict>\n<xi:include "
	    "xmlns:xi=\"http://www.w3.org/2001/XInclude\" "
	    "href=\"/etc/passwd\" parse=\"text\"/>\n</dict></plist>",
	    "t.conf:2: attribute \"xmlns:xi\" on <xi:include> not allowed: "
	    "a plist has no attribute but version on <plist>");
	expect_errors("<plist><dict>\n<xi:include/>\n</dict></plist>",
	    undeclared);
}

/* plist_scan() on xml: 0, or -1 at line with want. */
static void
expect_scan(const char *xml, long line, const char *want)
{
	char	why[512];
	long	got = 0;
	int	rv;

	rv = plist_scan(xml, strlen(xml), &got, why, sizeof(why));
	if (want == NULL) {
		if (rv != 0)
			print_message("# refused %s: %ld: %s\n", xml, got, why);
		assert_int_equal(rv, 0);
		return;
	}
	if (rv != -1)
		print_message("# not refused: %s\n", xml);
	assert_int_equal(rv, -1);
	assert_int_equal(got, line);
	assert_string_equal(why, want);
}

#define NOT_ALLOWED(a, e) "attribute \"" a "\" on <" e "> not allowed: " \
	"a plist has no attribute but version on <plist>"

/*
 * What Apple's tools and launchd jobs write passes the scan: the XML
 * declaration, the DOCTYPE, comments, CDATA and PIs, whatever text they
 * hold, and <plist version="1.0"> in any quotes and spacing.
 */
static void
test_scan_good(void **state)
{
	char	deep[32 * 16 + 64];
	int	i;

	(void)state;
	expect_scan(APPLE_HEAD "<plist version=\"1.0\">\n<dict>\n"
	    "\t<key>Label</key>\n\t<string>a</string>\n"
	    "\t<key>On</key>\n\t<true/>\n\t<key>A</key>\n\t<array/>\n"
	    "</dict>\n</plist>\n", 0, NULL);
	expect_scan("\xef\xbb\xbf<?xml version='1.0' encoding='utf-8'?>\n"
	    "<plist\n  version = '1.0' ><dict/></plist>", 0, NULL);
	expect_scan("<!-- <plist a=\"1\" b=\"2\"> -->\n<?pi <x a=\"b\"> ?>\n"
	    "<plist version=\"1.0\"><dict><key>k</key><string><![CDATA["
	    "<plist xmlns:a=\"x\">]]></string></dict></plist>", 0, NULL);
	expect_scan("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist/>",
	    0, NULL);
	expect_scan("<?xml version=\"1.0\" encoding=\"windows-1252\"?>"
	    "<plist/>", 0, NULL);
	expect_scan("<!DOCTYPE plist [\n<!-- a comment -->\n]>\n<plist/>", 0,
	    NULL);
	/* What libxml2 refuses anyway is left to its own words. */
	expect_scan("\x7f" "ELF <plist a=\"b\">", 0, NULL);
	expect_scan("<plist version=\"1.0", 0, NULL);
	/* PLIST_SCAN_DEPTH elements deep, and no more. */
	deep[0] = '\0';
	for (i = 0; i < PLIST_SCAN_DEPTH; i++)
		strcat(deep, "<array>");
	for (i = 0; i < PLIST_SCAN_DEPTH; i++)
		strcat(deep, "</array>");
	expect_scan(deep, 0, NULL);
}

/* Attributes, namespaces, depth, DTDs and encodings a plist never has. */
static void
test_scan_refused(void **state)
{
	char	deep[(PLIST_SCAN_DEPTH + 1) * 8 + 8];
	int	i;

	(void)state;
	expect_scan("<plist version=\"1.0\" a=\"\">", 1,
	    NOT_ALLOWED("a", "plist"));
	expect_scan("<plist>\n<dict>\n<key id=\"x\">k</key>", 3,
	    NOT_ALLOWED("id", "key"));
	expect_scan("<plist>\n<dict xmlns:a=\"urn:a\" xmlns:b=\"urn:b\">", 2,
	    NOT_ALLOWED("xmlns:a", "dict"));
	expect_scan("<plist version=\"1.0\"\n version=\"1.0\">", 2,
	    "attribute \"version\" given twice on <plist>");
	expect_scan("<plist version=\"1.0\"a=\"\">", 1, "malformed start tag "
	    "<plist>: expected an attribute, \">\" or \"/>\", not \"a\"");
	expect_scan("<plist version>", 1, "malformed start tag <plist>: "
	    "expected version=\"1.0\"");
	expect_scan("<plist version=\"<plist a=''>\">", 1, "version on "
	    "<plist> is not a version: more than 64 bytes or a '<'");
	/* A comment left open hides nothing: libxml2 goes on after it. */
	expect_scan("<plist><!-- \n<dict a=\"1\">", 2,
	    NOT_ALLOWED("a", "dict"));
	/* Nor a DOCTYPE that libxml2 leaves for the root element. */
	expect_scan("<!DOCTYPE plist\n<plist a=\"1\">", 2,
	    NOT_ALLOWED("a", "plist"));
	expect_scan("<!DOCTYPE plist [\n<plist a=\"1\">]>", 2,
	    "unexpected text in a DOCTYPE: a tcptune config has no DTD "
	    "declarations or entities");
	expect_scan("<!DOCTYPE plist [\n  <!ATTLIST plist version CDATA "
	    "\"1.0\">\n]>", 2, "attribute declaration \"version\" not "
	    "allowed: a tcptune config has no DTD declarations or entities");
	expect_scan("<!DOCTYPE plist [ %pe; ]>", 1, "a parameter entity "
	    "reference in a DOCTYPE: a tcptune config has no DTD declarations "
	    "or entities");
	expect_scan("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n<plist/>", 1,
	    "encoding \"UTF-7\" not read: a plist is UTF-8 (or ASCII, "
	    "ISO-8859-N or windows-125N)");
	/* Applied by libxml2 even when the declaration is not closed. */
	expect_scan("<?xml version=\"1.0\" encoding=\"IBM037\">\n<plist/>",
	    1, "encoding \"IBM037\" not read: a plist is UTF-8 (or ASCII, "
	    "ISO-8859-N or windows-125N)");
	expect_scan("\x4c\x6f\xa7\x94\x93", 1, "EBCDIC text: a plist is "
	    "UTF-8");
	deep[0] = '\0';
	for (i = 0; i <= PLIST_SCAN_DEPTH; i++)
		strcat(deep, i == 1 ? "\n<dict>" : "<dict>");
	expect_scan(deep, 2, "elements nested more than 32 deep: a plist is "
	    "never that deep");
}

/* n attributes on <plist>, as in issue 41: 143,000 in 1 MB. */
static char *
attribute_flood(size_t n, const char *body)
{
	size_t	 i, len, size = n * 12 + strlen(body) + 128;
	char	*buf;

	if ((buf = malloc(size)) == NULL)
		fail();
	len = (size_t)snprintf(buf, size, "<?xml version=\"1.0\"?>\n"
	    "<plist version=\"1.0\"");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, " a%zu=\"\"", i);
	snprintf(buf + len, size - len, ">\n%s</plist>\n", body);
	return buf;
}

/*
 * The flood that costs libxml2 2.9 quadratic time is refused at its first
 * attribute, by config_parse() (check, tcptuned -n, reload, the parse
 * helper) and by the reader of launchd jobs (import) alike: the words are
 * the scan's, not what libxml2 or the config walk would say once it had
 * parsed it all (old code: "unknown key" after a minute of CPU).
 */
static void
test_attribute_flood(void **state)
{
	struct launchd_args	 la;
	struct errlist		 errs;
	char			*xml;

	(void)state;
	xml = attribute_flood(80000, "<dict>\n<key>Label</key>"
	    "<string>x</string>\n</dict>\n");
	assert_true(strlen(xml) <= TT_CONFIG_MAX_BYTES);
	expect_error(xml, "t.conf:2: " NOT_ALLOWED("a0", "plist"));
	errlist_init(&errs);
	assert_int_equal(config_launchd_args(xml, strlen(xml), "job.plist",
	    &la, &errs), -1);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], "job.plist:2: "
	    NOT_ALLOWED("a0", "plist"));
	errlist_clear(&errs);
	free(xml);
}

/* A real launchd job still reads, by the same scan. */
static void
test_launchd_job(void **state)
{
	static const char job[] = APPLE_HEAD "<plist version=\"1.0\">\n"
	    "<dict>\n\t<key>Label</key>\n\t<string>tune</string>\n"
	    "\t<key>ProgramArguments</key>\n\t<array>\n"
	    "\t\t<string>/usr/sbin/sysctl</string>\n"
	    "\t\t<string>-w</string>\n"
	    "\t\t<string>kern.ipc.maxsockbuf=8388608</string>\n"
	    "\t</array>\n\t<key>KeepAlive</key>\n\t<dict>\n"
	    "\t\t<key>PathState</key>\n\t\t<dict>\n"
	    "\t\t\t<key>/tmp/x</key>\n\t\t\t<true/>\n\t\t</dict>\n"
	    "\t</dict>\n\t<key>RunAtLoad</key>\n\t<true/>\n</dict>\n"
	    "</plist>\n";
	struct launchd_args	 la;
	struct errlist		 errs;

	(void)state;
	errlist_init(&errs);
	assert_int_equal(config_launchd_args(job, strlen(job), "job.plist",
	    &la, &errs), 0);
	assert_int_equal(errs.n, 0);
	assert_int_equal(la.argc, 3);
	assert_string_equal(la.argv[2], "kern.ipc.maxsockbuf=8388608");
	assert_int_equal(la.line[2], 11);
	config_launchd_args_free(&la);
}

static void
on_alarm(int sig)
{
	static const char msg[] = "Bail out! the parser opened a FIFO\n";

	(void)sig;
	(void)write(STDOUT_FILENO, msg, sizeof(msg) - 1);
	_exit(1);
}

/*
 * External entities and DTDs name a FIFO with no writer: opening it for
 * reading would block, and the alarm would end the test.  So passing
 * proves the parser never tried to read it.
 */
static void
test_external_not_read(void **state)
{
	char	fifo[300], xml[1024], want[512];

	(void)state;
	tmp_path(fifo, sizeof(fifo), "fifo");
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(10);

	snprintf(xml, sizeof(xml), "<!DOCTYPE plist [\n<!ENTITY x SYSTEM "
	    "\"file://%s\">\n]>\n" SYSCTLS("<key>net.a</key><string>&x;"
	    "</string>\n"), fifo);
	expect_error(xml, "t.conf:2: entity declaration \"x\" not allowed: "
	    "a tcptune config has no DTD declarations or entities");

	snprintf(xml, sizeof(xml), "<!DOCTYPE plist [\n<!ENTITY %% p SYSTEM "
	    "\"%s\">\n%%p;\n]>\n<plist><dict/></plist>", fifo);
	expect_error(xml, "t.conf:2: entity declaration \"p\" not allowed: "
	    "a tcptune config has no DTD declarations or entities");

	/* A DOCTYPE naming an external DTD is fine: it is never read. */
	snprintf(xml, sizeof(xml), "<!DOCTYPE plist SYSTEM \"%s\">\n"
	    "<plist><dict/></plist>", fifo);
	config_free(parse_ok(xml));
	snprintf(xml, sizeof(xml), "<!DOCTYPE plist SYSTEM \"%s\">\n"
	    "<plist><dict><key>a</key>&x;</dict></plist>", fifo);
	snprintf(want, sizeof(want), "t.conf:2: entity reference \"x\" not "
	    "allowed: a tcptune config has no DTD declarations or entities");
	{
		struct errlist	 errs;
		struct config	*cfg = parse(xml, &errs);
		size_t		 i;
		bool		 found = false;

		assert_null(cfg);
		for (i = 0; i < errs.n; i++)
			found |= strcmp(errs.msg[i], want) == 0;
		assert_true(found);
		errlist_clear(&errs);
	}
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	unlink(fifo);
}

/* DTD and entity URLs on a local listener: no connection may arrive. */
static void
test_no_network(void **state)
{
	struct sockaddr_in	sin;
	socklen_t		slen = sizeof(sin);
	char			xml[1024];
	int			s, c;

	(void)state;
	s = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s != -1);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(s, 8), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&sin, &slen), 0);
	assert_int_equal(fcntl(s, F_SETFL, O_NONBLOCK), 0);

	snprintf(xml, sizeof(xml), "<!DOCTYPE plist SYSTEM "
	    "\"http://127.0.0.1:%d/x.dtd\">\n<plist><dict/></plist>",
	    ntohs(sin.sin_port));
	config_free(parse_ok(xml));
	snprintf(xml, sizeof(xml), "<!DOCTYPE plist [\n<!ENTITY %% p SYSTEM "
	    "\"http://127.0.0.1:%d/p.dtd\">\n%%p;\n]>\n<plist><dict/></plist>",
	    ntohs(sin.sin_port));
	expect_error(xml, "t.conf:2: entity declaration \"p\" not allowed: "
	    "a tcptune config has no DTD declarations or entities");
	config_free(parse_ok(good_xml));	/* Apple's DTD URL */

	c = accept(s, NULL, NULL);
	assert_int_equal(c, -1);
	assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
	close(s);
}

/* ---- config_load: what the file is, and who owns it */

static void
test_load_ok(void **state)
{
	struct errlist	 errs;
	struct config	*cfg;
	char		 path[300];

	(void)state;
	tmp_path(path, sizeof(path), "good.conf");
	write_file(path, good_xml, 0644);
	errlist_init(&errs);
	cfg = config_load(path, 0, &errs);
	assert_non_null(cfg);
	assert_string_equal(cfg->path, path);
	assert_int_equal(cfg->nkeys, 2);
	assert_true(cfg->digest == fnv1a64(good_xml, strlen(good_xml)));
	config_free(cfg);
	errlist_clear(&errs);
	unlink(path);
}

static void
expect_load_error(const char *path, int flags, const char *want)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_load(path, flags, &errs);
	if (cfg != NULL || errs.n != 1)
		print_errors(&errs);
	assert_null(cfg);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msg[0], want);
	errlist_clear(&errs);
}

/* path loads, with flags: every error shown if it does not. */
static void
expect_load_ok(const char *path, int flags)
{
	struct errlist	 errs;
	struct config	*cfg;

	errlist_init(&errs);
	cfg = config_load(path, flags, &errs);
	if (cfg == NULL)
		print_errors(&errs);
	assert_non_null(cfg);
	config_free(cfg);
	errlist_clear(&errs);
}

static void
test_load_not_regular(void **state)
{
	char	path[300], want[600];

	(void)state;
	tmp_path(path, sizeof(path), "missing.conf");
	snprintf(want, sizeof(want), "%s: %s", path, strerror(ENOENT));
	expect_load_error(path, 0, want);

	snprintf(want, sizeof(want), "%s: not a regular file: refusing to "
	    "read it", tmpdir);
	expect_load_error(tmpdir, 0, want);

	/* A FIFO: O_NONBLOCK keeps open(2) from waiting for a writer. */
	tmp_path(path, sizeof(path), "fifo.conf");
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(want, sizeof(want), "%s: not a regular file: refusing to "
	    "read it", path);
	expect_load_error(path, 0, want);
	unlink(path);

	/* A symlink is followed, and what it reaches must be a file. */
	tmp_path(path, sizeof(path), "zero.conf");
	unlink(path);
	assert_int_equal(symlink("/dev/zero", path), 0);
	snprintf(want, sizeof(want), "%s: not a regular file: refusing to "
	    "read it", path);
	expect_load_error(path, 0, want);
	unlink(path);
}

static void
test_load_size(void **state)
{
	char		 path[300], want[600], *buf;
	size_t		 head;
	int		 fd;

	(void)state;
	tmp_path(path, sizeof(path), "big.conf");
	write_file(path, "", 0644);
	assert_int_equal(truncate(path, TT_CONFIG_MAX_BYTES + 1), 0);
	snprintf(want, sizeof(want), "%s: larger than 1048576 bytes: "
	    "refusing to read it", path);
	expect_load_error(path, 0, want);

	/* Exactly the limit is fine: a config padded with a comment. */
	buf = malloc(TT_CONFIG_MAX_BYTES);
	assert_non_null(buf);
	memset(buf, ' ', TT_CONFIG_MAX_BYTES);
	head = strlen("<plist><dict/></plist><!--");
	memcpy(buf, "<plist><dict/></plist><!--", head);
	memcpy(buf + TT_CONFIG_MAX_BYTES - 3, "-->", 3);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd != -1);
	assert_int_equal(write(fd, buf, TT_CONFIG_MAX_BYTES),
	    TT_CONFIG_MAX_BYTES);
	close(fd);
	free(buf);
	expect_load_ok(path, 0);
	unlink(path);
}

/*
 * Not root: the file is the caller's, and the one owner rule
 * (trust_file_owner) believes a process's own files, as sshd's
 * StrictModes does; writable by others, it is refused.
 */
static void
owner_unprivileged(void)
{
	char	path[300], want[600];

	tmp_path(path, sizeof(path), "mine.conf");
	write_file(path, good_xml, 0644);
	expect_load_ok(path, CONFIG_CHECK_OWNER);
	assert_int_equal(chmod(path, 0666), 0);
	snprintf(want, sizeof(want), "%s: must be owned by root and not "
	    "writable by group or others (mode 0666, owner %lu): refusing "
	    "to use it", path, (unsigned long)geteuid());
	expect_load_error(path, CONFIG_CHECK_OWNER, want);
	unlink(path);
}

static void
test_load_owner(void **state)
{
	char		 path[300], want[600];

	(void)state;
	if (geteuid() != 0) {
		owner_unprivileged();
		print_message("# not root: cannot chown test files\n");
		skip();
	}
	tmp_path(path, sizeof(path), "owner.conf");
	write_file(path, good_xml, 0644);

	/* Root's and 0644: fine with the check. */
	expect_load_ok(path, CONFIG_CHECK_OWNER);

	assert_int_equal(chown(path, 65534, (gid_t)-1), 0);
	snprintf(want, sizeof(want), "%s: must be owned by root and not "
	    "writable by group or others (mode 0644, owner 65534): refusing "
	    "to use it", path);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);

	/* tcptunectl check does not ask: anyone's file can be checked. */
	expect_load_ok(path, 0);

	assert_int_equal(chown(path, 0, (gid_t)-1), 0);
	assert_int_equal(chmod(path, 0666), 0);
	snprintf(want, sizeof(want), "%s: must be owned by root and not "
	    "writable by group or others (mode 0666, owner 0): refusing to "
	    "use it", path);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);

	assert_int_equal(chmod(path, 0620), 0);
	snprintf(want, sizeof(want), "%s: must be owned by root and not "
	    "writable by group or others (mode 0620, owner 0): refusing to "
	    "use it", path);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);
	unlink(path);
}

/*
 * The directories that hold the file count too (as sshd's safe_path()):
 * one that others may write to lets them rename another file over it,
 * unless it is root's and sticky, as /tmp.
 */
static void
test_load_dirs(void **state)
{
	char		 dir[300], path[320], link[320], want[5120], real[4096];

	(void)state;
	if (geteuid() != 0) {
		print_message("# not root: cannot chown test directories\n");
		skip();
	}
	tmp_path(dir, sizeof(dir), "sub");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_non_null(realpath(dir, real));
	snprintf(path, sizeof(path), "%s/dirs.conf", dir);
	write_file(path, good_xml, 0644);

	assert_int_equal(chmod(dir, 0777), 0);
	snprintf(want, sizeof(want), "%s: %s is writable by group or others (owner uid 0, "
	    "mode 0777); only root may be able to change it: refusing to use "
	    "it", path, real);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);

	assert_int_equal(chmod(dir, 0775), 0);
	snprintf(want, sizeof(want), "%s: %s is writable by group or others (owner uid 0, "
	    "mode 0775); only root may be able to change it: refusing to use "
	    "it", path, real);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);

	/* Sticky and root's: only root may replace root's file in it. */
	assert_int_equal(chmod(dir, 01777), 0);
	expect_load_ok(path, CONFIG_CHECK_OWNER);

	/* Sticky but someone else's: its owner may replace anything. */
	assert_int_equal(chown(dir, 65534, (gid_t)-1), 0);
	snprintf(want, sizeof(want), "%s: %s is owned by another user (owner uid 65534, "
	    "mode 1777); only root may be able to change it: refusing to use "
	    "it", path, real);
	expect_load_error(path, CONFIG_CHECK_OWNER, want);

	/* tcptunectl check does not ask. */
	expect_load_ok(path, 0);

	/*
	 * A user's link in the file's place, to root's good file in root's
	 * directory: not followed (the check by name followed it and took
	 * the file it reached).  Root's link still is.
	 */
	assert_int_equal(chown(dir, 0, (gid_t)-1), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(link, sizeof(link), "%s/link.conf", dir);
	assert_int_equal(symlink("dirs.conf", link), 0);
	expect_load_ok(link, CONFIG_CHECK_OWNER);
	assert_int_equal(lchown(link, 65534, (gid_t)-1), 0);
	snprintf(want, sizeof(want), "%s: %s/link.conf is a symbolic link "
	    "owned by uid 65534; only root's links are followed: refusing to "
	    "use it", link, real);
	expect_load_error(link, CONFIG_CHECK_OWNER, want);

	unlink(link);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* ---- config_report: what tcptuned -n and tcptunectl check print */

static void
test_report(void **state)
{
	char	path[300], out[4096], want[1024];

	(void)state;
	tmp_path(path, sizeof(path), "report.conf");
	write_file(path, "<plist><dict>\n"
	    "<key>CheckInterval</key><integer>1</integer>\n"
	    "<key>RestoreOnExit</key><true/>\n"
	    "<key>Sysctls</key><dict>\n"
	    "<key>net.inet.tcp.sendspace</key><integer>262144</integer>\n"
	    "<key>net.ipv4.tcp_rmem</key><dict><key>Value</key>"
	    "<string>4096  131072 6291456</string><key>Mode</key>"
	    "<string>at-least</string></dict>\n"
	    "<key>kern.ipc.maxsockbuf</key><dict><key>Value</key>"
	    "<integer>16777216</integer><key>OnReject</key>"
	    "<string>clamp</string></dict>\n"
	    "</dict></dict></plist>\n", 0644);
	assert_int_equal(report(path, 0, false, out, sizeof(out)), 0);
	assert_string_equal(out, "configuration OK\n");
	assert_int_equal(report(path, 0, true, out, sizeof(out)), 0);
	assert_string_equal(out,
	    "check interval: 1 second\n"
	    "restore on exit: yes\n"
	    "apply order (restore runs in reverse):\n"
	    "   1. kern.ipc.maxsockbuf = 16777216 (mode enforce, on reject "
	    "clamp)\n"
	    "   2. net.inet.tcp.sendspace = 262144 (mode enforce, on reject "
	    "fail)\n"
	    "   3. net.ipv4.tcp_rmem = \"4096 131072 6291456\" (mode "
	    "at-least, on reject fail)\n"
	    "configuration OK\n");

	write_file(path, "<plist><dict/></plist>", 0644);
	assert_int_equal(report(path, 0, true, out, sizeof(out)), 0);
	assert_string_equal(out, "check interval: 60 seconds\n"
	    "restore on exit: no\n"
	    "apply order: no sysctls\n"
	    "configuration OK\n");

	write_file(path, "<plist><dict>\n<key>A</key><true/>\n"
	    "<key>B</key><true/></dict></plist>", 0644);
	assert_int_equal(report(path, 0, true, out, sizeof(out)), 1);
	snprintf(want, sizeof(want),
	    "%s:2: unknown key \"A\" (expected CheckInterval, RestoreOnExit, "
	    "AllowAnySysctl, Sysctls or MetricsTextfileDirectory)\n"
	    "%s:3: unknown key \"B\" (expected CheckInterval, RestoreOnExit, "
	    "AllowAnySysctl, Sysctls or MetricsTextfileDirectory)\n", path, path);
	assert_string_equal(out, want);
	unlink(path);

	assert_int_equal(report(path, 0, false, out, sizeof(out)), 1);
	snprintf(want, sizeof(want), "%s: %s\n", path, strerror(ENOENT));
	assert_string_equal(out, want);
}

/*
 * The config a report judged, handed back for check's next step (its
 * other sources) so that the file is parsed once: the keys at their
 * lines when good, NULL when refused.
 */
static void
test_report_keeps(void **state)
{
	char		 path[300];
	struct config	 before, *cfg = &before;	/* must be overwritten */
	FILE		*f = tmpfile();

	(void)state;
	assert_non_null(f);
	tmp_path(path, sizeof(path), "keep.conf");
	write_file(path, "<plist><dict>\n<key>Sysctls</key><dict>\n"
	    "<key>net.ipv4.tcp_rmem</key>\n"
	    "<string>4096 131072 6291456</string>\n"
	    "</dict></dict></plist>\n", 0644);
	assert_int_equal(config_report(path, 0, NULL, false, f, f, &cfg), 0);
	assert_non_null(cfg);
	assert_string_equal(cfg->path, path);
	assert_int_equal(cfg->nkeys, 1);
	assert_string_equal(cfg->keys[0].name, "net.ipv4.tcp_rmem");
	assert_string_equal(cfg->keys[0].value, "4096 131072 6291456");
	assert_int_equal(cfg->keys[0].line, 3);
	config_free(cfg);

	write_file(path, "<plist><dict>\n<key>A</key><true/>\n"
	    "</dict></plist>\n", 0644);
	cfg = &before;
	assert_int_equal(config_report(path, 0, NULL, false, f, f, &cfg), 1);
	assert_null(cfg);
	unlink(path);
	fclose(f);
}

static int
setup(void **state)
{
	const char	*t = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_config.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

/* Files a failed test may have left behind. */
static const char *const tmp_names[] = {
	"fifo", "good.conf", "fifo.conf", "zero.conf", "big.conf",
	"owner.conf", "mine.conf", "report.conf", "sub/dirs.conf", "sub",
};

static int
teardown(void **state)
{
	char	path[300];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(tmp_names) / sizeof(tmp_names[0]); i++) {
		tmp_path(path, sizeof(path), tmp_names[i]);
		if (unlink(path) == -1)
			rmdir(path);
	}
	return rmdir(tmpdir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_forms),
		cmocka_unit_test(test_per_key_form),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_lexical),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_enum_names),
		cmocka_unit_test(test_not_xml),
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_unknown_keys),
		cmocka_unit_test(test_managed_keys),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_choices),
		cmocka_unit_test(test_dict_structure),
		cmocka_unit_test(test_too_many_keys),
		cmocka_unit_test(test_big_line_numbers),
		cmocka_unit_test(test_all_errors_listed),
		cmocka_unit_test(test_parse_size_limit),
		cmocka_unit_test(test_blank_file),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_xml_message_one_line),
		cmocka_unit_test(test_integer_too_long),
		cmocka_unit_test(test_problem_cap),
		cmocka_unit_test(test_billion_laughs),
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_undeclared_entity),
		cmocka_unit_test(test_xinclude),
		cmocka_unit_test(test_scan_good),
		cmocka_unit_test(test_scan_refused),
		cmocka_unit_test(test_attribute_flood),
		cmocka_unit_test(test_launchd_job),
		cmocka_unit_test(test_external_not_read),
		cmocka_unit_test(test_no_network),
		cmocka_unit_test(test_load_ok),
		cmocka_unit_test(test_load_not_regular),
		cmocka_unit_test(test_load_size),
		cmocka_unit_test(test_load_owner),
		cmocka_unit_test(test_load_dirs),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_report_keeps),
	};

	return cmocka_run_group_tests_name("config", tests, setup, teardown);
}
