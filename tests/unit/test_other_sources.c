/*
 * lib/other_sources.c: the other places that set a key, read under a
 * root laid out here.  systemd-sysctl's order (a name in an earlier
 * directory masks a later one, a link to /dev/null masks, files sorted
 * by name across directories, the last setting wins, /etc/sysctl.conf
 * last), tuned's include chain and a loop in it, bpftune found by its
 * comm, FreeBSD's loader.conf quotes; sysctl_conf_split()'s lines; what
 * other_sources_say() says; garbage passed over.
 */
#include "config.h"

#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tcptune.h"
#include "sources.h"

static char	root[256];

/* root/path with what, directories made as needed. */
static void
put(const char *path, const char *what, size_t len)
{
	char	full[512], *p;
	FILE	*f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (p = full + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(full, 0755);
		*p = '/';
	}
	assert_non_null(f = fopen(full, "wb"));
	assert_int_equal(fwrite(what, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void
put_text(const char *path, const char *text)
{
	put(path, text, strlen(text));
}

static int
setup(void **arg)
{
	(void)arg;
	snprintf(root, sizeof(root), "%s/tt-other.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(root) == NULL ? -1 : 0;
}

static int
teardown(void **arg)
{
	char	cmd[512];

	(void)arg;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* A config of these keys, as the scan sees it. */
static struct config *
config_of(const char *const *names)
{
	struct config	*cfg = calloc(1, sizeof(*cfg));
	size_t		 i;

	assert_non_null(cfg);
	for (cfg->nkeys = 0; names[cfg->nkeys] != NULL; cfg->nkeys++)
		;
	assert_non_null(cfg->keys = calloc(cfg->nkeys, sizeof(*cfg->keys)));
	for (i = 0; i < cfg->nkeys; i++)
		tt_strlcpy(cfg->keys[i].name, names[i], TT_NAME_MAX);
	return cfg;
}

/* What is said of name, after a scan of os under root. */
static const char *
said(enum tt_os os, const char *const *names, const char *name)
{
	static char		 buf[2048];
	struct other_sources	 o;
	struct config		*cfg = config_of(names);

	other_sources_scan(root, os, cfg, NULL, &o);
	other_sources_say(&o, name, buf, sizeof(buf));
	other_sources_free(&o);
	config_free(cfg);
	return buf;
}

static void
test_conf_split(void **arg)
{
	char	line[64], *n, *v;

	(void)arg;
	strcpy(line, "net.core.rmem_max = 4096");
	assert_int_equal(sysctl_conf_split(line, &n, &v), 1);
	assert_string_equal(n, "net.core.rmem_max");
	assert_string_equal(v, " 4096");
	strcpy(line, "-net/ipv4/tcp_rmem=1 2 3");
	assert_int_equal(sysctl_conf_split(line, &n, &v), 1);
	assert_string_equal(n, "net.ipv4.tcp_rmem");
	assert_string_equal(v, "1 2 3");
	strcpy(line, "= 1");
	assert_int_equal(sysctl_conf_split(line, &n, &v), 0);
	strcpy(line, "net.core.rmem_max");
	assert_int_equal(sysctl_conf_split(line, &n, &v), 0);
	strcpy(line, "net core = 1");
	assert_int_equal(sysctl_conf_split(line, &n, &v), 0);
}

static void
test_sysctl_d_order(void **arg)
{
	static const char *const keys[] = {
		"net.core.rmem_max", "net.core.wmem_max", "net.ipv4.tcp_rmem",
		NULL
	};

	(void)arg;
	put_text("/etc/sysctl.d/90-big.conf",
	    "net.ipv4.tcp_rmem = 4096 131072 134217728\n");
	/* masked by /etc's file of the same name: never read */
	put_text("/usr/lib/sysctl.d/90-big.conf",
	    "net.ipv4.tcp_rmem = 1 2 3\nnet.core.wmem_max = 1\n");
	/* sorted by name across directories: 95 is applied after 10 */
	put_text("/usr/lib/sysctl.d/10-low.conf", "net.core.rmem_max = 1\n");
	put_text("/run/sysctl.d/95-run.conf", "\n# c\nnet.core.rmem_max=2\n");
	put_text("/lib/sysctl.d/99-last.conf", "net.core.wmem_max = 3\n");
	/* /etc/sysctl.conf after all of them */
	put_text("/etc/sysctl.conf", "net.core.wmem_max = 4\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.ipv4.tcp_rmem"),
	    "also set by /etc/sysctl.d/90-big.conf:1 to 4096 131072 "
	    "134217728, applied at boot by systemd-sysctl");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.rmem_max"),
	    "also set by /run/sysctl.d/95-run.conf:3 to 2, applied at boot "
	    "by systemd-sysctl");
	assert_non_null(strstr(said(TT_OS_LINUX, keys, "net.core.wmem_max"),
	    "also set by /etc/sysctl.conf:1 to 4, applied at boot by sysctl "
	    "--system"));
	/* a key not in the config is not kept */
	put_text("/etc/sysctl.d/50-vm.conf", "vm.swappiness = 10\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "vm.swappiness"), "");
}

static void
test_null_link_masks(void **arg)
{
	static const char *const keys[] = { "net.core.rmem_max", NULL };
	char	link[512];

	(void)arg;
	put_text("/usr/lib/sysctl.d/60-x.conf", "net.core.rmem_max = 7\n");
	snprintf(link, sizeof(link), "%s/etc/sysctl.d/60-x.conf", root);
	put_text("/etc/sysctl.d/.keep", "");
	assert_int_equal(symlink("/dev/null", link), 0);
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.rmem_max"), "");
}

static void
test_tuned_include(void **arg)
{
	static const char *const keys[] = {
		"net.core.rmem_max", "net.core.wmem_max", NULL
	};

	(void)arg;
	put_text("/etc/tuned/active_profile", "mine\n");
	put_text("/etc/tuned/mine/tuned.conf", "[main]\ninclude = base, "
	    "loop\n[sysctl]\nnet.core.wmem_max=777\n");
	put_text("/usr/lib/tuned/base/tuned.conf",
	    "[sysctl]\nnet.core.wmem_max=111\nnet.core.rmem_max=555\n"
	    "[vm]\nnet.core.rmem_max=9\n");
	/* /etc's profile of a name wins over /usr/lib's */
	put_text("/usr/lib/tuned/mine/tuned.conf",
	    "[sysctl]\nnet.core.wmem_max=1\n");
	put_text("/etc/tuned/loop/tuned.conf", "[main]\ninclude=loop\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.wmem_max"),
	    "also set by /etc/tuned/mine/tuned.conf:4 to 777, applied by "
	    "tuned's active profile");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.rmem_max"),
	    "also set by /usr/lib/tuned/base/tuned.conf:3 to 555, applied "
	    "by tuned's active profile");
}

static void
test_bpftune(void **arg)
{
	static const char *const keys[] = {
		"net.ipv4.tcp_rmem", "net.core.rmem_max", NULL
	};

	(void)arg;
	put_text("/proc/1/comm", "systemd\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.ipv4.tcp_rmem"), "");
	put_text("/proc/812/comm", "bpftune\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.ipv4.tcp_rmem"),
	    "bpftune is running and may change net.ipv4.tcp_rmem");
	/* a key bpftune does not write */
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.rmem_max"), "");
}

static void
test_freebsd(void **arg)
{
	static const char *const keys[] = {
		"kern.ipc.maxsockbuf", "net.inet.tcp.sendspace", NULL
	};

	(void)arg;
	put_text("/etc/sysctl.conf", "kern.ipc.maxsockbuf=1 # why\n");
	put_text("/etc/sysctl.conf.local", "kern.ipc.maxsockbuf=2\n");
	put_text("/boot/loader.conf", "net.inet.tcp.sendspace=\"65536\"\n");
	assert_string_equal(said(TT_OS_FREEBSD, keys, "kern.ipc.maxsockbuf"),
	    "also set by /etc/sysctl.conf.local:1 to 2, applied at boot by "
	    "rc.d/sysctl");
	assert_string_equal(said(TT_OS_FREEBSD, keys,
	    "net.inet.tcp.sendspace"), "also set by /boot/loader.conf:1 to "
	    "65536, set at boot by loader(8) as a tunable");
	/* Windows reads none of these, whatever is there */
	assert_string_equal(said(TT_OS_WINDOWS, keys, "kern.ipc.maxsockbuf"),
	    "");
}

/* Garbage, binary, huge, NULs: passed over, the good file still read. */
static void
test_garbage(void **arg)
{
	static const char *const keys[] = { "net.core.rmem_max", NULL };
	char	*big, bytes[4096];
	size_t	 i;
	unsigned seed = 40;

	(void)arg;
	for (i = 0; i < sizeof(bytes); i++) {
		seed = seed * 1103515245u + 12345u;
		bytes[i] = (char)(seed >> 16);
	}
	put("/etc/sysctl.d/10-random.conf", bytes, sizeof(bytes));
	put("/etc/sysctl.d/20-nul.conf", "net.core.rmem_max = 5\n\0\n", 24);
	assert_non_null(big = malloc(OTHER_FILE_MAX + 2));
	memset(big, 'a', OTHER_FILE_MAX + 1);
	memcpy(big, "net.core.rmem_max=6\n", 20);
	put("/etc/sysctl.d/30-big.conf", big, OTHER_FILE_MAX + 1);
	free(big);
	/* a value longer than any (TT_VALUE_MAX), a name with controls */
	memset(bytes, '1', sizeof(bytes));
	memcpy(bytes, "net.core.rmem_max=", 18);
	bytes[TT_VALUE_MAX + 40] = '\n';
	put("/etc/sysctl.d/40-long.conf", bytes, TT_VALUE_MAX + 41);
	put_text("/etc/sysctl.d/50-odd.conf", "= = =\n=\n\n[x]\n"
	    "net.core.rmem_max\x1b]0;x\x07 = 1\n");
	put_text("/etc/sysctl.d/01-good.conf", "net.core.rmem_max = 8\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.core.rmem_max"),
	    "also set by /etc/sysctl.d/01-good.conf:1 to 8, applied at boot "
	    "by systemd-sysctl");
}

/* Several places of one key, joined; a short buffer cut, not overrun. */
static void
test_say(void **arg)
{
	static const char *const keys[] = { "net.ipv4.tcp_rmem", NULL };
	struct other_sources	 o;
	struct config		*cfg = config_of(keys);
	char			 small[24];

	(void)arg;
	put_text("/etc/sysctl.d/90-a.conf", "net.ipv4.tcp_rmem = 1 2 3\n");
	put_text("/proc/7/comm", "bpftune\n");
	assert_string_equal(said(TT_OS_LINUX, keys, "net.ipv4.tcp_rmem"),
	    "also set by /etc/sysctl.d/90-a.conf:1 to 1 2 3, applied at boot "
	    "by systemd-sysctl; bpftune is running and may change "
	    "net.ipv4.tcp_rmem");
	other_sources_scan(root, TT_OS_LINUX, cfg, NULL, &o);
	memset(small, 'x', sizeof(small));
	other_sources_say(&o, "net.ipv4.tcp_rmem", small, sizeof(small) - 4);
	assert_true(strlen(small) < sizeof(small) - 4);
	assert_int_equal(small[sizeof(small) - 1], 'x');
	other_sources_free(&o);
	config_free(cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_split),
		cmocka_unit_test_setup_teardown(test_sysctl_d_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_null_link_masks, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tuned_include, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bpftune, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freebsd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_say, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
