/*
 * A fake kernel: the sysctl table of a stock machine, the rules its kernel
 * applies to writes, and faults on demand.  The engine, the bsd backend
 * (through the sysctl(3) shim) and the tests all see the same table.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_kernel.h"

#define FK_MAX_KEYS	64
#define FK_MAX_WRITES	4096

/* xnu: SB_MSIZE_ADJ + MCLBYTES (bsd/sys/socketvar.h, bsd/sys/param.h) */
#define XNU_MSIZE_MCL	(256 + 2048)
/* FreeBSD and xnu: MCLBYTES */
#define BSD_MCLBYTES	2048
/* xnu: sb_max must stay above this (bsd/kern/uipc_socket2.c) */
#define XNU_SB_MIN	18432
/* FreeBSD: MSIZE + MCLBYTES (sys/kern/uipc_sockbuf.c) */
#define FBSD_SB_MIN	(256 + 2048)
/*
 * Linux on x86-64: SOCK_MIN_RCVBUF, SOCK_MIN_SNDBUF (include/net/sock.h;
 * net/core/sysctl_net_core.c gives them as extra1 of rmem_* and wmem_*)
 */
#define LINUX_MIN_RCVBUF	2304
#define LINUX_MIN_SNDBUF	4608

struct fake_key {
	char		name[TT_NAME_MAX];
	enum fake_type	type;
	char		value[TT_VALUE_MAX];
	char		instead[TT_VALUE_MAX];	/* silent clamp */
	bool		writable;
	int		fail_get;
	int		fail_set;
	unsigned	fail_get_left;	/* 0: until cleared */
	unsigned	fail_set_left;
};

struct fake_kernel {
	enum fake_rules	 rules;
	struct fake_key	 keys[FK_MAX_KEYS];
	size_t		 nkeys;
	char		*writes[FK_MAX_WRITES];
	size_t		 nwrites;
};

struct fake_kernel *
fake_kernel_new(enum fake_rules rules)
{
	struct fake_kernel	*fk;

	if ((fk = calloc(1, sizeof(*fk))) == NULL)
		abort();
	fk->rules = rules;
	return fk;
}

void
fake_kernel_free(struct fake_kernel *fk)
{
	if (fk == NULL)
		return;
	fake_kernel_clear_writes(fk);
	free(fk);
}

static struct fake_key *
find_key(struct fake_kernel *fk, const char *name)
{
	size_t	i;

	for (i = 0; i < fk->nkeys; i++)
		if (strcmp(fk->keys[i].name, name) == 0)
			return &fk->keys[i];
	return NULL;
}

int
fake_kernel_add(struct fake_kernel *fk, const char *name, enum fake_type type,
    const char *value, bool writable)
{
	struct fake_key	*k;

	if ((k = find_key(fk, name)) == NULL) {
		if (fk->nkeys == FK_MAX_KEYS)
			return -1;
		k = &fk->keys[fk->nkeys++];
	}
	memset(k, 0, sizeof(*k));
	tt_strlcpy(k->name, name, sizeof(k->name));
	tt_strlcpy(k->value, value, sizeof(k->value));
	k->type = type;
	k->writable = writable;
	return 0;
}

/*
 * A stock Mac of ram_gb of memory on Darwin release ("24.6.0", macOS
 * 15.6; "19.6.0" 10.15): the mbuf pool, maxsockbuf and the autotuning
 * ceilings from the catalogue's one table of RAM by release (xnu_mem,
 * lib/catalogue.c), send/recvspace 128 KiB, and on macOS 11 or later no
 * rfc1323 nor doautosndbuf (gone in xnu-7195): writing them is ENOENT.
 */
void
fake_kernel_stock_macos_on(struct fake_kernel *fk, unsigned ram_gb,
    const char *release)
{
	long long	 mem = (long long)ram_gb << 30;
	int		 darwin = atoi(release);
	char		 v[32];

	snprintf(v, sizeof(v), "%lld", catalogue_xnu_mem(darwin, mem)->pool >>
	    11);
	fake_kernel_add(fk, "kern.ipc.nmbclusters", FK_INT, v, false);
	snprintf(v, sizeof(v), "%lld", catalogue_xnu_stock(
	    "kern.ipc.maxsockbuf", darwin, mem));
	fake_kernel_add(fk, "kern.ipc.maxsockbuf", FK_UINT, v, true);
	fake_kernel_add(fk, "net.inet.tcp.sendspace", FK_UINT, "131072", true);
	fake_kernel_add(fk, "net.inet.tcp.recvspace", FK_UINT, "131072", true);
	snprintf(v, sizeof(v), "%lld", catalogue_xnu_stock(
	    "net.inet.tcp.autorcvbufmax", darwin, mem));
	fake_kernel_add(fk, "net.inet.tcp.autorcvbufmax", FK_INT, v, true);
	fake_kernel_add(fk, "net.inet.tcp.autosndbufmax", FK_INT, v, true);
	fake_kernel_add(fk, "net.inet.tcp.autosndbufinc", FK_INT, "8192", true);
	if (darwin < 20)
		fake_kernel_add(fk, "net.inet.tcp.doautosndbuf", FK_INT, "1",
		    true);
	fake_kernel_add(fk, "kern.ostype", FK_STRING, "Darwin", false);
	fake_kernel_add(fk, "kern.osrelease", FK_STRING, release, false);
}

/* macOS 15.6; fake_kernel_poke "23.3.0" for a macOS 14.3 kernel */
void
fake_kernel_stock_macos(struct fake_kernel *fk, unsigned ram_gb)
{
	fake_kernel_stock_macos_on(fk, ram_gb, "24.6.0");
}

/*
 * FreeBSD: maxsockbuf a u_long (sys/kern/uipc_sockbuf.c); the TCP buffer
 * keys VNET ints under SYSCTL_INT (sys/netinet/tcp_input.c,
 * tcp_output.c), 2 MiB ceilings and 8 KiB step by default there.  No
 * recvbuf_inc: current FreeBSD has none.
 */
void
fake_kernel_stock_freebsd(struct fake_kernel *fk)
{
	fake_kernel_add(fk, "kern.ipc.maxsockbuf", FK_ULONG, "2097152", true);
	fake_kernel_add(fk, "net.inet.tcp.sendspace", FK_INT, "32768", true);
	fake_kernel_add(fk, "net.inet.tcp.recvspace", FK_INT, "65536", true);
	fake_kernel_add(fk, "net.inet.tcp.sendbuf_max", FK_INT, "2097152",
	    true);
	fake_kernel_add(fk, "net.inet.tcp.recvbuf_max", FK_INT, "2097152",
	    true);
	fake_kernel_add(fk, "net.inet.tcp.sendbuf_inc", FK_INT, "8192", true);
	fake_kernel_add(fk, "kern.ostype", FK_STRING, "FreeBSD", false);
}

/*
 * As seen from a child network namespace of Linux release ("6.10.0"),
 * its stock tcp_rmem by release:
 * net.core's buffer keys are absent before 6.11 and read only from it
 * (commit 19249c0724f2, net/core/sysctl_net_core.c netns_core_table,
 * mode 0444 outside init_net); tcp_mem, default_qdisc and
 * netdev_max_backlog are never there (init_net's tables only).
 */
void
fake_kernel_stock_linux(struct fake_kernel *fk, const char *release)
{
	static const char *const core[] = {
		"net.core.rmem_max", "net.core.wmem_max",
		"net.core.rmem_default", "net.core.wmem_default"
	};
	int	major = 0, minor = 0;
	size_t	i;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		major = minor = 0;
	fake_kernel_add(fk, "kernel.osrelease", FK_STRING, release, false);
	/* tcp_rmem[2] 32 MiB from 6.16 (commit 572be9bf9d0d), 6 MiB before */
	fake_kernel_add(fk, "net.ipv4.tcp_rmem", FK_STRING, major > 6 ||
	    (major == 6 && minor >= 16) ? "4096 131072 33554432" :
	    "4096 131072 6291456", true);
	fake_kernel_add(fk, "net.ipv4.tcp_wmem", FK_STRING,
	    "4096 16384 4194304", true);
	fake_kernel_add(fk, "net.ipv4.tcp_congestion_control", FK_STRING,
	    "cubic", true);
	if (major < 6 || (major == 6 && minor < 11))
		return;
	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		fake_kernel_add(fk, core[i], FK_INT, "212992", false);
}

void
fake_kernel_stock_linux_host(struct fake_kernel *fk)
{
	static const char *const core[] = {
		"net.core.rmem_max", "net.core.wmem_max",
		"net.core.rmem_default", "net.core.wmem_default"
	};
	size_t	i;

	fake_kernel_add(fk, "net.ipv4.tcp_rmem", FK_STRING,
	    "4096 131072 6291456", true);
	fake_kernel_add(fk, "net.ipv4.tcp_wmem", FK_STRING,
	    "4096 16384 4194304", true);
	for (i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		fake_kernel_add(fk, core[i], FK_INT, "212992", true);
}

int
fake_kernel_poke(struct fake_kernel *fk, const char *name, const char *value)
{
	struct fake_key	*k = find_key(fk, name);

	if (k == NULL)
		return -1;
	tt_strlcpy(k->value, value, sizeof(k->value));
	return 0;
}

const char *
fake_kernel_peek(struct fake_kernel *fk, const char *name)
{
	struct fake_key	*k = find_key(fk, name);

	return k ? k->value : NULL;
}

enum fake_type
fake_kernel_type(struct fake_kernel *fk, const char *name, bool *found)
{
	struct fake_key	*k = find_key(fk, name);

	*found = k != NULL;
	return k ? k->type : FK_INT;
}

void
fake_kernel_fail_get(struct fake_kernel *fk, const char *name, int err)
{
	fake_kernel_fail_get_n(fk, name, err, 0);
}

void
fake_kernel_fail_set(struct fake_kernel *fk, const char *name, int err)
{
	fake_kernel_fail_set_n(fk, name, err, 0);
}

void
fake_kernel_fail_get_n(struct fake_kernel *fk, const char *name, int err,
    unsigned n)
{
	struct fake_key	*k = find_key(fk, name);

	if (k != NULL) {
		k->fail_get = err;
		k->fail_get_left = err ? n : 0;
	}
}

void
fake_kernel_fail_set_n(struct fake_kernel *fk, const char *name, int err,
    unsigned n)
{
	struct fake_key	*k = find_key(fk, name);

	if (k != NULL) {
		k->fail_set = err;
		k->fail_set_left = err ? n : 0;
	}
}

/* The fault this access meets, if any; a transient one counts down. */
static int
take_fault(int *fault, unsigned *left)
{
	int	err = *fault;

	if (err != 0 && *left > 0 && --*left == 0)
		*fault = 0;
	return err;
}

void
fake_kernel_store_instead(struct fake_kernel *fk, const char *name,
    const char *value)
{
	struct fake_key	*k = find_key(fk, name);

	if (k != NULL)
		tt_strlcpy(k->instead, value ? value : "", sizeof(k->instead));
}

size_t
fake_kernel_nwrites(struct fake_kernel *fk)
{
	return fk->nwrites;
}

const char *
fake_kernel_write(struct fake_kernel *fk, size_t i)
{
	return i < fk->nwrites ? fk->writes[i] : NULL;
}

void
fake_kernel_clear_writes(struct fake_kernel *fk)
{
	size_t	i;

	for (i = 0; i < fk->nwrites; i++)
		free(fk->writes[i]);
	fk->nwrites = 0;
}

static long long
key_number(struct fake_kernel *fk, const char *name)
{
	struct fake_key	*k = find_key(fk, name);
	long long	 v = 0;

	if (k != NULL)
		parse_ll(k->value, &v);
	return v;
}

/*
 * Whether this xnu lets a buffer have all of sb_max: from xnu-10063
 * (macOS 14.4, kern.osrelease 23.4) on.  Before, sysctl_tcp_sospace
 * (bsd/netinet/tcp_usrreq.c) refused send/recvspace above
 * (sb_max / (SB_MSIZE_ADJ + MCLBYTES)) * MCLBYTES and sbreserve
 * (bsd/kern/uipc_socket2.c) failed above sb_max_adj, 8/9 of sb_max;
 * after, the first takes up to sb_max and the second clamps to it.
 * A kernel without the key is taken as the older one.
 */
static bool
fake_whole_sb_max(struct fake_kernel *fk)
{
	struct fake_key	*k = find_key(fk, "kern.osrelease");
	int		 major, minor;

	if (k == NULL || sscanf(k->value, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 23 || (major == 23 && minor >= 4);
}

long long
fake_kernel_sockbuf_max(struct fake_kernel *fk, long long sb_max)
{
	if (fk->rules == FK_RULES_FREEBSD ||
	    (fk->rules == FK_RULES_XNU && !fake_whole_sb_max(fk)))
		return sb_max * BSD_MCLBYTES / XNU_MSIZE_MCL;
	return sb_max;
}

/* proc_dointvec_minmax under extra1: below it, EINVAL. */
static int
linux_rules_check(const char *name, long long v)
{
	if (strcmp(name, "net.core.rmem_max") == 0 ||
	    strcmp(name, "net.core.rmem_default") == 0)
		return v < LINUX_MIN_RCVBUF ? EINVAL : 0;
	if (strcmp(name, "net.core.wmem_max") == 0 ||
	    strcmp(name, "net.core.wmem_default") == 0)
		return v < LINUX_MIN_SNDBUF ? EINVAL : 0;
	return 0;
}

/* The range checks of the kernels' own sysctl handlers. */
static int
rules_check(struct fake_kernel *fk, const char *name, long long v)
{
	long long	high_sb_max;

	if (fk->rules == FK_RULES_XNU) {
		if (strcmp(name, "kern.ipc.maxsockbuf") == 0) {
			high_sb_max = key_number(fk, "kern.ipc.nmbclusters")
			    << 7;
			if (v <= XNU_SB_MIN || v > high_sb_max)
				return ERANGE;
		}
		/*
		 * bsd/netinet/tcp_usrreq.c, sysctl_tcp_sospace: at most
		 * sb_max from macOS 14.4 on; before, at most
		 * (sb_max / (MSIZE + MCLBYTES)) * MCLBYTES, ~89 % of it.
		 */
		if (strcmp(name, "net.inet.tcp.sendspace") == 0 ||
		    strcmp(name, "net.inet.tcp.recvspace") == 0) {
			long long sb_max = key_number(fk,
			    "kern.ipc.maxsockbuf");

			if (v <= 0 || v > (fake_whole_sb_max(fk) ? sb_max :
			    sb_max / XNU_MSIZE_MCL * BSD_MCLBYTES))
				return ERANGE;
		}
	}
	if (fk->rules == FK_RULES_FREEBSD &&
	    strcmp(name, "kern.ipc.maxsockbuf") == 0 && v < FBSD_SB_MIN)
		return EINVAL;
	if (fk->rules == FK_RULES_LINUX)
		return linux_rules_check(name, v);
	return 0;
}

static int
type_check(enum fake_type type, long long v)
{
	switch (type) {
	case FK_INT:
		return v < INT_MIN || v > INT_MAX ? ERANGE : 0;
	case FK_UINT:
		return v < 0 || v > (long long)UINT_MAX ? ERANGE : 0;
	case FK_ULONG:
		return v < 0 ? EINVAL : 0;
	default:
		return 0;
	}
}

static void
log_write(struct fake_kernel *fk, const char *name, const char *value)
{
	char	*entry;

	if (fk->nwrites == FK_MAX_WRITES)
		return;
	if (asprintf(&entry, "%s=%s", name, value) == -1)
		abort();
	fk->writes[fk->nwrites++] = entry;
}

static int
fake_set_text(struct fake_kernel *fk, const char *name, const char *value)
{
	struct fake_key	*k = find_key(fk, name);
	long long	 v;
	int		 err;

	if (k == NULL)
		return ENOENT;
	if ((err = take_fault(&k->fail_set, &k->fail_set_left)) != 0)
		return err;
	if (!k->writable)
		return fk->rules == FK_RULES_NONE ||
		    fk->rules == FK_RULES_LINUX ? EACCES : EPERM;
	if (k->type != FK_STRING) {
		if (parse_ll(value, &v) == -1)
			return EINVAL;
		if ((err = type_check(k->type, v)) != 0 ||
		    (err = rules_check(fk, name, v)) != 0)
			return err;
	}
	tt_strlcpy(k->value, k->instead[0] ? k->instead : value,
	    sizeof(k->value));
	log_write(fk, name, k->value);
	return 0;
}

static int
fake_get(struct sysctl_backend *be, const char *name, char *buf, size_t len)
{
	struct fake_kernel	*fk = be->ctx;
	struct fake_key		*k = find_key(fk, name);
	int			 err;

	if (k == NULL)
		return ENOENT;
	if ((err = take_fault(&k->fail_get, &k->fail_get_left)) != 0)
		return err;
	if (value_normalize(k->value, buf, len) == -1)
		return EINVAL;
	return 0;
}

static int
fake_set(struct sysctl_backend *be, const char *name, const char *value)
{
	return fake_set_text(be->ctx, name, value);
}

static void
fake_free(struct sysctl_backend *be)
{
	free(be);
}

static int
fake_sockbuf_max(struct sysctl_backend *be, const char *cap, long long capval,
    long long *max)
{
	*max = strcmp(cap, "kern.ipc.maxsockbuf") == 0 ?
	    fake_kernel_sockbuf_max(be->ctx, capval) : capval;
	return 0;
}

struct sysctl_backend *
fake_backend_new(struct fake_kernel *fk)
{
	struct sysctl_backend	*be;

	if ((be = calloc(1, sizeof(*be))) == NULL)
		abort();
	be->name = "fake";
	be->get = fake_get;
	be->set = fake_set;
	be->sockbuf_max = fake_sockbuf_max;
	be->free = fake_free;
	be->ctx = fk;
	return be;
}

static size_t
type_width(enum fake_type type)
{
	return type == FK_INT || type == FK_UINT ? 4 : 8;
}

/*
 * A write as sysctl(3) makes it.  xnu's sysctl_io_number takes 4 or 8
 * bytes for an int, and gives ERANGE when 8 bytes do not fit a signed int
 * (bsd/kern/kern_newsysctl.c); anything else is EINVAL.
 */
int
fake_kernel_set_raw(struct fake_kernel *fk, const char *name,
    const void *buf, size_t len)
{
	struct fake_key	*k = find_key(fk, name);
	char		 text[TT_VALUE_MAX];
	long long	 v;
	int32_t		 i32;
	int64_t		 i64;

	if (k == NULL)
		return ENOENT;
	if (k->type == FK_STRING) {
		if (len >= sizeof(text))
			return EINVAL;
		memcpy(text, buf, len);
		text[len] = '\0';
		return fake_set_text(fk, name, text);
	}
	if (len == 4 && type_width(k->type) == 4) {
		memcpy(&i32, buf, 4);
		v = k->type == FK_UINT ? (long long)(uint32_t)i32 : i32;
	} else if (len == 8) {
		memcpy(&i64, buf, 8);
		v = i64;
		if (type_width(k->type) == 4 && (v < INT_MIN || v > INT_MAX))
			return ERANGE;
	} else
		return EINVAL;
	snprintf(text, sizeof(text), "%lld", v);
	return fake_set_text(fk, name, text);
}

/* A read as sysctl(3) makes it: buf NULL asks for the size. */
int
fake_kernel_get_raw(struct fake_kernel *fk, const char *name, void *buf,
    size_t *len)
{
	struct fake_key	*k = find_key(fk, name);
	long long	 v = 0;
	size_t		 need;
	int32_t		 i32;
	int64_t		 i64;
	int		 err;

	if (k == NULL)
		return ENOENT;
	if ((err = take_fault(&k->fail_get, &k->fail_get_left)) != 0)
		return err;
	need = k->type == FK_STRING ? strlen(k->value) + 1 :
	    type_width(k->type);
	if (buf == NULL) {
		*len = need;
		return 0;
	}
	if (*len < need)
		return ENOMEM;
	*len = need;
	if (k->type == FK_STRING) {
		memcpy(buf, k->value, need);
		return 0;
	}
	parse_ll(k->value, &v);
	if (need == 4) {
		i32 = (int32_t)v;
		memcpy(buf, &i32, 4);
	} else {
		i64 = v;
		memcpy(buf, &i64, 8);
	}
	return 0;
}

size_t
fake_kernel_nkeys(struct fake_kernel *fk)
{
	return fk->nkeys;
}

const char *
fake_kernel_key(struct fake_kernel *fk, size_t i)
{
	return i < fk->nkeys ? fk->keys[i].name : NULL;
}
