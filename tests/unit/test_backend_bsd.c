/*
 * The bsd sysctl backend, run on Linux against the sysctl(3) shim
 * (tests/shim), which answers from the fake kernel the way xnu would.
 *
 * lib/backend_bsd.c is included rather than linked: libtcptune.a holds it
 * only where configure picks the bsd backend, and the test needs its
 * statics (the xnu_rules switch) anyway.
 *
 * Built twice: test_backend_bsd_macos has TT_AS_MACOS, so the backend
 * starts with xnu's rules as it does on a Mac (__APPLE__), and every
 * setup must say which rules it wants rather than rely on the default.
 */
#if defined(TT_AS_MACOS) && !defined(__APPLE__)
#define __APPLE__ 1
#endif
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../lib/backend_bsd.c"
#include "fake_kernel.h"

struct fixture {
	struct fake_kernel	*fk;
	struct sysctl_backend	*be;
};

static int
fixture_new(void **state, enum fake_rules rules)
{
	struct fixture	*f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	f->fk = fake_kernel_new(rules);
	shim_kernel = f->fk;
	if ((f->be = backend_bsd_new()) == NULL)
		return -1;
	*state = f;
	return 0;
}

/* A kernel with one key of each type sysctl(8) knows, and no rules. */
static int
setup_types(void **state)
{
	struct fixture	*f;

	if (fixture_new(state, FK_RULES_NONE) == -1)
		return -1;
	f = *state;
	fake_kernel_add(f->fk, "test.int", FK_INT, "-5", true);
	fake_kernel_add(f->fk, "test.uint", FK_UINT, "7", true);
	fake_kernel_add(f->fk, "test.long", FK_LONG, "-7", true);
	fake_kernel_add(f->fk, "test.ulong", FK_ULONG, "9", true);
	fake_kernel_add(f->fk, "test.quad", FK_QUAD, "-11", true);
	fake_kernel_add(f->fk, "test.sub.string", FK_STRING, "hello", true);
	return 0;
}

static int
setup_xnu(void **state)
{
	struct fixture	*f;

	if (fixture_new(state, FK_RULES_XNU) == -1)
		return -1;
	f = *state;
	((struct bsd_ctx *)f->be->ctx)->xnu_rules = true;
	return 0;
}

static int
setup_freebsd(void **state)
{
	struct fixture	*f;

	if (fixture_new(state, FK_RULES_FREEBSD) == -1)
		return -1;
	f = *state;
	/* backend_bsd_new turns xnu's rules on under __APPLE__ */
	((struct bsd_ctx *)f->be->ctx)->xnu_rules = false;
	fake_kernel_stock_freebsd(f->fk);
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	f->be->free(f->be);
	fake_kernel_free(f->fk);
	shim_kernel = NULL;
	free(f);
	return 0;
}

static void
assert_get(struct fixture *f, const char *name, const char *want)
{
	char	buf[TT_VALUE_MAX];

	assert_int_equal(f->be->get(f->be, name, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

/* A refused value must not reach the kernel at all. */
static void
assert_set_refused(struct fixture *f, const char *name, const char *value,
    int err)
{
	size_t	before = fake_kernel_nwrites(f->fk);

	assert_int_equal(f->be->set(f->be, name, value), err);
	assert_int_equal(fake_kernel_nwrites(f->fk), before);
}

static void
set_and_read_back(struct fixture *f, const char *name, const char *value)
{
	assert_int_equal(f->be->set(f->be, name, value), 0);
	assert_string_equal(fake_kernel_peek(f->fk, name), value);
	assert_get(f, name, value);
}

/* --- the shim itself: {0,3} and {0,4} as xnu answers them */

static void
test_shim_name2oid(void **state)
{
	int	qoid[2] = { 0, 3 }, oid[CTL_MAXNAME];
	char	name[] = "test.sub.string";
	size_t	len = sizeof(oid);

	(void)state;
	assert_int_equal(sysctl(qoid, 2, oid, &len, name, strlen(name)), 0);
	assert_int_equal(len, 3 * sizeof(int));
	assert_int_equal(oid[0], 100);	/* "test" is no CTL_* top name */
	assert_int_equal(oid[1], 105);	/* sixth under test: after quad */
	assert_int_equal(oid[2], 100);
}

static void
test_shim_name2oid_unknown(void **state)
{
	int	qoid[2] = { 0, 3 }, oid[CTL_MAXNAME];
	char	name[] = "test.nothing";
	size_t	len = sizeof(oid);

	(void)state;
	assert_int_equal(sysctl(qoid, 2, oid, &len, name, strlen(name)), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(sysctl(qoid, 2, oid, &len, name, 0), -1);
	assert_int_equal(errno, ENOENT);
}

static void
oidfmt_of(const char *name, unsigned int *kind, char *fmt, size_t fmtlen)
{
	int		qoid[2] = { 0, 3 }, q[CTL_MAXNAME + 2];
	char		nbuf[TT_NAME_MAX];
	unsigned char	buf[64];
	size_t		len = sizeof(q) - 2 * sizeof(int), blen = sizeof(buf);

	tt_strlcpy(nbuf, name, sizeof(nbuf));
	assert_int_equal(sysctl(qoid, 2, q + 2, &len, nbuf, strlen(nbuf)), 0);
	q[0] = 0;
	q[1] = 4;
	assert_int_equal(sysctl(q, (unsigned int)(len / sizeof(int)) + 2, buf,
	    &blen, NULL, 0), 0);
	memcpy(kind, buf, sizeof(*kind));
	tt_strlcpy(fmt, (char *)buf + sizeof(int), fmtlen);
}

static void
test_shim_oidfmt(void **state)
{
	unsigned int	kind;
	char		fmt[16];

	(void)state;
	oidfmt_of("test.uint", &kind, fmt, sizeof(fmt));
	assert_int_equal(kind & CTLTYPE, CTLTYPE_INT);
	assert_string_equal(fmt, "IU");
	oidfmt_of("test.long", &kind, fmt, sizeof(fmt));
	assert_int_equal(kind & CTLTYPE, CTLTYPE_INT);	/* xnu's SYSCTL_LONG */
	assert_string_equal(fmt, "L");
	oidfmt_of("test.quad", &kind, fmt, sizeof(fmt));
	assert_int_equal(kind & CTLTYPE, CTLTYPE_QUAD);
	assert_string_equal(fmt, "Q");
	oidfmt_of("test.sub.string", &kind, fmt, sizeof(fmt));
	assert_int_equal(kind & CTLTYPE, CTLTYPE_STRING);
	assert_string_equal(fmt, "A");
	oidfmt_of("test.sub", &kind, fmt, sizeof(fmt));
	assert_int_equal(kind & CTLTYPE, CTLTYPE_NODE);
}

/* sysctl_io_number: 8 bytes into an int that do not fit an int: ERANGE. */
static void
test_shim_eight_bytes_into_uint(void **state)
{
	struct fixture	*f = *state;
	int64_t		 v64 = 3000000000LL;
	uint32_t	 v32 = 3000000000U;

	assert_int_equal(sysctlbyname("test.uint", NULL, NULL, &v64,
	    sizeof(v64)), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(sysctlbyname("test.uint", NULL, NULL, &v32,
	    sizeof(v32)), 0);
	assert_string_equal(fake_kernel_peek(f->fk, "test.uint"),
	    "3000000000");
}

/* --- get and set, per type */

static void
test_int(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.int", "-5");
	set_and_read_back(f, "test.int", "2147483647");
	set_and_read_back(f, "test.int", "-2147483648");
	assert_set_refused(f, "test.int", "2147483648", ERANGE);
	assert_set_refused(f, "test.int", "-2147483649", ERANGE);
	assert_set_refused(f, "test.int", "99999999999999999999", ERANGE);
	assert_set_refused(f, "test.int", "12abc", EINVAL);
	assert_set_refused(f, "test.int", "0x10", EINVAL);
	assert_set_refused(f, "test.int", " 1", EINVAL);
	assert_set_refused(f, "test.int", "", EINVAL);
}

/* "IU" goes in as 4 bytes, so values above INT_MAX are fine. */
static void
test_uint(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.uint", "7");
	set_and_read_back(f, "test.uint", "3000000000");
	set_and_read_back(f, "test.uint", "4294967295");
	assert_set_refused(f, "test.uint", "4294967296", ERANGE);
	assert_set_refused(f, "test.uint", "-1", ERANGE);
	assert_set_refused(f, "test.uint", "-x", EINVAL);
	assert_int_equal(f->be->set(f->be, "test.uint", "+8"), 0);
	assert_get(f, "test.uint", "8");
}

static void
test_long(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.long", "-7");
	if (sizeof(long) == 8) {
		set_and_read_back(f, "test.long", "-9000000000");
		assert_set_refused(f, "test.long", "9223372036854775808",
		    ERANGE);
	} else
		assert_set_refused(f, "test.long", "-9000000000", ERANGE);
}

static void
test_ulong(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.ulong", "9");
	if (sizeof(long) == 8)
		set_and_read_back(f, "test.ulong", "5000000000");
	assert_set_refused(f, "test.ulong", "-1", ERANGE);
}

static void
test_quad(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.quad", "-11");
	set_and_read_back(f, "test.quad", "-9000000000000");
	set_and_read_back(f, "test.quad", "9223372036854775807");
	assert_set_refused(f, "test.quad", "9223372036854775808", ERANGE);
}

static void
test_string(void **state)
{
	struct fixture	*f = *state;

	assert_get(f, "test.sub.string", "hello");
	set_and_read_back(f, "test.sub.string", "cubic newreno");
}

/* --- errors */

static void
test_unknown(void **state)
{
	struct fixture	*f = *state;
	char		 buf[TT_VALUE_MAX], why[256];
	long long	 max;

	assert_int_equal(f->be->get(f->be, "test.nothing", buf, sizeof(buf)),
	    ENOENT);
	assert_set_refused(f, "test.nothing", "1", ENOENT);
	assert_set_refused(f, "nothing.at.all", "1", ENOENT);
	assert_int_equal(f->be->ceiling(f->be, "test.nothing", &max, why,
	    sizeof(why)), ENOENT);
}

/* A node is no value: xnu's sysctl_root answers ENOENT for it. */
static void
test_node(void **state)
{
	struct fixture	*f = *state;
	char		 buf[TT_VALUE_MAX];

	assert_int_equal(f->be->get(f->be, "test.sub", buf, sizeof(buf)),
	    ENOENT);
	assert_set_refused(f, "test.sub", "1", ENOENT);
}

static void
test_read_only(void **state)
{
	struct fixture	*f = *state;

	fake_kernel_stock_macos(f->fk, 8);
	assert_set_refused(f, "kern.ipc.nmbclusters", "131072", EPERM);
	assert_set_refused(f, "kern.ostype", "Linux", EPERM);
	assert_get(f, "kern.ostype", "Darwin");
}

/* The kernel's own errors come back as they are. */
static void
test_faults(void **state)
{
	struct fixture	*f = *state;
	char		 buf[TT_VALUE_MAX];

	fake_kernel_fail_get(f->fk, "test.int", EIO);
	assert_int_equal(f->be->get(f->be, "test.int", buf, sizeof(buf)),
	    EIO);
	fake_kernel_fail_set(f->fk, "test.quad", ENOBUFS);
	assert_set_refused(f, "test.quad", "1", ENOBUFS);
}

static void
test_value_too_long(void **state)
{
	struct fixture	*f = *state;
	char		 buf[4];

	assert_int_equal(f->be->get(f->be, "test.sub.string", buf,
	    sizeof(buf)), EOVERFLOW);
	assert_int_equal(f->be->get(f->be, "test.uint", buf, 1), EOVERFLOW);
}

/* --- the macOS ceilings */

/* mbinit's arithmetic, including its 1 MiB floor for small pools. */
static void
test_high_sb_max(void **state)
{
	(void)state;
	assert_int_equal(xnu_high_sb_max(65536), 8388608);
	assert_int_equal(xnu_high_sb_max(131072), 16777216);
	assert_int_equal(xnu_high_sb_max(262144), 33554432);
	assert_int_equal(xnu_high_sb_max(49152), 6291456);	/* 4-8 GB */
	assert_int_equal(xnu_high_sb_max(4096), 1048576);
	assert_int_equal(xnu_high_sb_max(512), 65536);
}

/* The reason the last assert_ceiling was given. */
static char	why[256];

static void
assert_ceiling(struct fixture *f, const char *name, long long want,
    const char *because)
{
	long long	max = 0;

	assert_int_equal(f->be->ceiling(f->be, name, &max, why, sizeof(why)),
	    0);
	assert_int_equal(max, want);
	assert_non_null(strstr(why, because));
}

static void
maxsockbuf_on(void **state, unsigned ram_gb, long long want,
    const char *because)
{
	struct fixture	*f = *state;
	char		 v[32];

	fake_kernel_stock_macos(f->fk, ram_gb);
	assert_ceiling(f, "kern.ipc.maxsockbuf", want, because);
	/* The ceiling itself is taken, one more is not. */
	snprintf(v, sizeof(v), "%lld", want);
	set_and_read_back(f, "kern.ipc.maxsockbuf", v);
	snprintf(v, sizeof(v), "%lld", want + 1);
	assert_set_refused(f, "kern.ipc.maxsockbuf", v, ERANGE);
}

static void
test_ceiling_8gb(void **state)
{
	maxsockbuf_on(state, 8, 8388608, "kern.ipc.maxsockbuf is capped at "
	    "8388608 by kern.ipc.nmbclusters 65536 (1/16 of the mbuf cluster "
	    "pool, set by RAM)");
}

static void
test_ceiling_16gb(void **state)
{
	maxsockbuf_on(state, 16, 16777216, "by kern.ipc.nmbclusters 131072");
}

static void
test_ceiling_32gb(void **state)
{
	maxsockbuf_on(state, 32, 33554432, "by kern.ipc.nmbclusters 262144");
}

/*
 * macOS 14.4 and later (xnu-10063 on): sysctl_tcp_sospace takes up to
 * sb_max itself (bsd/netinet/tcp_usrreq.c).
 */
static void
test_sospace_whole_maxsockbuf(void **state)
{
	struct fixture	*f = *state;

	fake_kernel_stock_macos(f->fk, 16);
	assert_ceiling(f, "net.inet.tcp.sendspace", 8388608,
	    "net.inet.tcp.sendspace is capped at 8388608 by "
	    "kern.ipc.maxsockbuf 8388608");
	assert_null(strstr(why, "mbuf"));
	assert_ceiling(f, "net.inet.tcp.recvspace", 8388608,
	    "net.inet.tcp.recvspace");
	set_and_read_back(f, "net.inet.tcp.sendspace", "8388608");
	assert_set_refused(f, "net.inet.tcp.recvspace", "8388609", ERANGE);
	set_and_read_back(f, "kern.ipc.maxsockbuf", "16777216");
	assert_ceiling(f, "net.inet.tcp.sendspace", 16777216,
	    "by kern.ipc.maxsockbuf 16777216");
	set_and_read_back(f, "net.inet.tcp.recvspace", "16777216");
	/* the first release with the new rule */
	fake_kernel_poke(f->fk, "kern.osrelease", "23.4.0");
	assert_ceiling(f, "net.inet.tcp.sendspace", 16777216, "16777216");
}

/*
 * Up to macOS 14.3 (xnu-10002): sb_effective_max = sb_max / (MSIZE +
 * MCLBYTES) * MCLBYTES, about 89 % of it.
 */
static void
test_sospace_before_14_4(void **state)
{
	struct fixture	*f = *state;

	fake_kernel_stock_macos(f->fk, 16);
	fake_kernel_poke(f->fk, "kern.osrelease", "23.3.0");
	assert_ceiling(f, "net.inet.tcp.sendspace", 7454720,
	    "capped at 7454720 by kern.ipc.maxsockbuf 8388608 (before "
	    "macOS 14.4");
	assert_ceiling(f, "net.inet.tcp.recvspace", 7454720,
	    "net.inet.tcp.recvspace");
	set_and_read_back(f, "net.inet.tcp.sendspace", "7454720");
	assert_set_refused(f, "net.inet.tcp.sendspace", "7454721", ERANGE);
	set_and_read_back(f, "kern.ipc.maxsockbuf", "16777216");
	assert_ceiling(f, "net.inet.tcp.sendspace", 14911488,
	    "by kern.ipc.maxsockbuf 16777216");
	set_and_read_back(f, "net.inet.tcp.recvspace", "14911488");
	fake_kernel_poke(f->fk, "kern.osrelease", "22.6.0");	/* macOS 13 */
	assert_ceiling(f, "net.inet.tcp.sendspace", 14911488, "14911488");
}

/* Without kern.osrelease the rule is unknown: no ceiling is claimed. */
static void
test_sospace_release_unknown(void **state)
{
	struct fixture	*f = *state;
	long long	 max;

	fake_kernel_stock_macos(f->fk, 16);
	fake_kernel_fail_get(f->fk, "kern.osrelease", ENOENT);
	assert_int_equal(f->be->ceiling(f->be, "net.inet.tcp.sendspace",
	    &max, NULL, 0), ENOENT);
	assert_int_equal(f->be->sockbuf_max(f->be, "kern.ipc.maxsockbuf",
	    16777216, &max), ENOENT);
	fake_kernel_fail_get(f->fk, "kern.osrelease", 0);
	fake_kernel_poke(f->fk, "kern.osrelease", "Darwin");
	assert_int_equal(f->be->ceiling(f->be, "net.inet.tcp.sendspace",
	    &max, NULL, 0), EINVAL);
}

/*
 * What one socket buffer can get: sbreserve clamps to sb_max from macOS
 * 14.4 on, failed above sb_max_adj (8/9) before, as FreeBSD still does.
 */
static void
test_sockbuf_max_xnu(void **state)
{
	struct fixture	*f = *state;
	long long	 max;

	fake_kernel_stock_macos(f->fk, 16);
	assert_int_equal(f->be->sockbuf_max(f->be, "kern.ipc.maxsockbuf",
	    16777216, &max), 0);
	assert_int_equal(max, 16777216);
	fake_kernel_poke(f->fk, "kern.osrelease", "23.3.0");
	assert_int_equal(f->be->sockbuf_max(f->be, "kern.ipc.maxsockbuf",
	    16777216, &max), 0);
	assert_int_equal(max, 14913080);	/* 16 MiB * 2048 / 2304 */
	assert_int_equal(max, fake_kernel_sockbuf_max(f->fk, 16777216));
	assert_int_equal(f->be->sockbuf_max(f->be, "net.inet.tcp.sendspace",
	    1000, &max), 0);
	assert_int_equal(max, 1000);
}

/* autoXbufmax: unchecked by xnu, so no ceiling is claimed for them. */
static void
test_no_ceiling_unchecked(void **state)
{
	struct fixture	*f = *state;
	long long	 max;

	fake_kernel_stock_macos(f->fk, 8);
	assert_int_equal(f->be->ceiling(f->be, "net.inet.tcp.autorcvbufmax",
	    &max, NULL, 0), ENOENT);
}

static void
test_ceiling_missing_nmbclusters(void **state)
{
	struct fixture	*f = *state;
	long long	 max;

	fake_kernel_add(f->fk, "kern.ipc.maxsockbuf", FK_UINT, "8388608",
	    true);
	assert_int_equal(f->be->ceiling(f->be, "kern.ipc.maxsockbuf", &max,
	    NULL, 0), ENOENT);
}

/* FreeBSD: sysctl_handle_sb_max has a floor (EINVAL) and no ceiling. */
static void
test_freebsd(void **state)
{
	struct fixture	*f = *state;
	long long	 max;

	assert_false(((struct bsd_ctx *)f->be->ctx)->xnu_rules);
	assert_int_equal(f->be->ceiling(f->be, "kern.ipc.maxsockbuf", &max,
	    NULL, 0), ENOENT);
	/* sb_max_adj: 8/9 (sys/kern/uipc_sockbuf.c, sbreserve_locked) */
	assert_int_equal(f->be->sockbuf_max(f->be, "kern.ipc.maxsockbuf",
	    2097152, &max), 0);
	assert_int_equal(max, 1864135);
	assert_get(f, "kern.ipc.maxsockbuf", "2097152");
	set_and_read_back(f, "kern.ipc.maxsockbuf", "16777216");
	assert_set_refused(f, "kern.ipc.maxsockbuf", "2303", EINVAL);
	assert_set_refused(f, "kern.ipc.maxsockbuf", "-1", ERANGE);
	assert_get(f, "kern.ostype", "FreeBSD");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shim_name2oid,
		    setup_types, teardown),
		cmocka_unit_test_setup_teardown(test_shim_name2oid_unknown,
		    setup_types, teardown),
		cmocka_unit_test_setup_teardown(test_shim_oidfmt,
		    setup_types, teardown),
		cmocka_unit_test_setup_teardown(test_shim_eight_bytes_into_uint,
		    setup_types, teardown),
		cmocka_unit_test_setup_teardown(test_int, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_uint, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_long, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ulong, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_quad, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_string, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unknown, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_node, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_read_only, setup_xnu,
		    teardown),
		cmocka_unit_test_setup_teardown(test_faults, setup_types,
		    teardown),
		cmocka_unit_test_setup_teardown(test_value_too_long,
		    setup_types, teardown),
		cmocka_unit_test(test_high_sb_max),
		cmocka_unit_test_setup_teardown(test_ceiling_8gb, setup_xnu,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ceiling_16gb, setup_xnu,
		    teardown),
		cmocka_unit_test_setup_teardown(test_ceiling_32gb, setup_xnu,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    test_sospace_whole_maxsockbuf, setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(test_sospace_before_14_4,
		    setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(test_sospace_release_unknown,
		    setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(test_sockbuf_max_xnu,
		    setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(test_no_ceiling_unchecked,
		    setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(
		    test_ceiling_missing_nmbclusters, setup_xnu, teardown),
		cmocka_unit_test_setup_teardown(test_freebsd, setup_freebsd,
		    teardown),
	};

	return cmocka_run_group_tests_name("backend_bsd", tests, NULL, NULL);
}
