/*
 * The sysctl backend of macOS and FreeBSD, over sysctl(3).
 *
 * A key's type is learned as sysctl(8) learns it, through the two
 * "staff functions" of the kernel's MIB (xnu bsd/kern/kern_newsysctl.c,
 * sysctl_sysctl_name2oid and sysctl_sysctl_oidfmt; FreeBSD
 * sbin/sysctl/sysctl.c, name2oid and oidfmt):
 *   {0,3} with the name as the new value returns the OID,
 *   {0,4,oid...} returns the kind (an int) followed by a format string.
 * The format string, not the kind, gives the width: xnu registers longs
 * (SYSCTL_LONG, "L") with CTLTYPE_INT, and sysctl(8) sizes values from
 * the first letter of the format, 'I' int, 'L' long, 'Q' 64 bits, 'A' a
 * string, with a 'U' after it for unsigned (FreeBSD sbin/sysctl/sysctl.c,
 * show_var).  Values then go in and out with sysctlbyname(3) at exactly
 * that width.
 */
#ifdef HAVE_CONFIG_H		/* none in tests/lint/bsd_compile.sh */
#include "config.h"
#endif

#include <sys/types.h>
#include <sys/sysctl.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptune.h"

#define BSD_FMT_MAX	64	/* oidfmt: "IU", "S,xsockbuf"... */

/*
 * The xnu arithmetic behind the macOS ceilings (high_sb_max, the
 * sendspace limit, sb_max_adj) is in plan.c, which advise uses too.
 */

struct bsd_ctx {
	/*
	 * Apply xnu's ceilings.  Set on macOS; the unit test sets it to
	 * run the macOS arithmetic against a fake kernel on Linux.
	 */
	bool	xnu_rules;
};

struct bsd_oid {
	int		mib[CTL_MAXNAME];
	unsigned int	len;
};

struct bsd_type {
	size_t	size;		/* of one number; 0 for a string */
	bool	is_unsigned;
};

/*
 * One number as the kernel holds it.  Only two widths exist: an int is 4
 * bytes on every platform the daemon runs on, a long 4 or 8, a quad 8.
 */
_Static_assert(sizeof(int) == 4, "int is 4 bytes");
_Static_assert(sizeof(long) == 4 || sizeof(long) == 8, "long is 4 or 8");
union bsd_num {
	int32_t		i;
	uint32_t	u;
	int64_t		q;
	uint64_t	uq;
};

/* sysctl(3) reports failure in errno; keep a stray 0 from reading as OK. */
static int
sys_errno(void)
{
	return errno != 0 ? errno : EIO;
}

/* {0,3}: the OID of a name (xnu kern_newsysctl.c, sysctl_sysctl_name2oid). */
static int
bsd_name2oid(const char *name, struct bsd_oid *oid)
{
	int	qoid[2] = { 0, 3 };
	char	buf[TT_NAME_MAX];
	size_t	len = sizeof(oid->mib);

	/* Copied: the new value of sysctl(3) is not const on macOS. */
	if (tt_strlcpy(buf, name, sizeof(buf)) >= sizeof(buf))
		return ENAMETOOLONG;
	if (sysctl(qoid, 2, oid->mib, &len, buf, strlen(buf)) == -1)
		return sys_errno();
	oid->len = (unsigned int)(len / sizeof(int));
	return oid->len > 0 ? 0 : ENOENT;
}

/*
 * {0,4,oid}: the kind, an int, then the NUL-terminated format (xnu
 * kern_newsysctl.c, sysctl_sysctl_oidfmt: SYSCTL_OUT of oid_kind, then
 * of oid_fmt with its NUL).
 */
static int
bsd_oidfmt(const struct bsd_oid *oid, unsigned int *kind, char *fmt,
    size_t fmtlen)
{
	int		qoid[CTL_MAXNAME + 2];
	unsigned char	buf[sizeof(int) + BSD_FMT_MAX + 1];
	size_t		len = sizeof(buf) - 1;

	qoid[0] = 0;
	qoid[1] = 4;
	memcpy(qoid + 2, oid->mib, oid->len * sizeof(int));
	if (sysctl(qoid, oid->len + 2, buf, &len, NULL, 0) == -1)
		return sys_errno();
	if (len < sizeof(int))
		return EINVAL;
	buf[len] = '\0';
	memcpy(kind, buf, sizeof(*kind));
	tt_strlcpy(fmt, (const char *)buf + sizeof(int), fmtlen);
	return 0;
}

/*
 * The width and signedness a format gives, as sysctl(8) reads them
 * (FreeBSD sbin/sysctl/sysctl.c, show_var).  Structs ("S,..."), opaque
 * data and nodes are no sysctl values the daemon can set.
 */
static int
bsd_type_of(unsigned int kind, const char *fmt, struct bsd_type *t)
{
	if ((kind & CTLTYPE) == CTLTYPE_NODE)
		return ENOENT;	/* as xnu's sysctl_root for a bare node */
	t->is_unsigned = fmt[0] != '\0' && fmt[1] == 'U';
	switch (fmt[0]) {
	case 'A':
		t->size = 0;
		return 0;
	case 'I':
		t->size = sizeof(int);
		return 0;
	case 'L':
		t->size = sizeof(long);
		return 0;
	case 'Q':
		t->size = sizeof(int64_t);
		return 0;
	default:
		return ENOTSUP;
	}
}

static int
bsd_lookup(const char *name, struct bsd_type *t)
{
	struct bsd_oid	oid;
	char		fmt[BSD_FMT_MAX];
	unsigned int	kind;
	int		err;

	if ((err = bsd_name2oid(name, &oid)) != 0 ||
	    (err = bsd_oidfmt(&oid, &kind, fmt, sizeof(fmt))) != 0)
		return err;
	return bsd_type_of(kind, fmt, t);
}

/* Decimal only: "010" in a config means ten, never eight. */
static int
parse_signed(const char *s, long long *v)
{
	return parse_ll(s, v) == 0 ? 0 : errno;	/* EINVAL or ERANGE */
}

/* strtoull would take "-1" as ULLONG_MAX: a sign is refused first. */
static int
parse_unsigned(const char *s, unsigned long long *v)
{
	long long	sv;
	char		*end;
	int		err;

	if (*s == '-') {
		/* A negative number is out of range; junk is still junk. */
		err = parse_signed(s, &sv);
		return err == EINVAL ? EINVAL : ERANGE;
	}
	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (*end != '\0')
		return EINVAL;
	return errno == ERANGE ? ERANGE : 0;
}

/*
 * An unsigned value at the key's width.  An "IU" key takes 4 bytes: xnu's
 * sysctl_io_number gives ERANGE for 8 bytes that do not fit a signed int
 * (bsd/kern/kern_newsysctl.c), so 3000000000 must go in as an unsigned int.
 */
static int
encode_unsigned(const struct bsd_type *t, const char *text, union bsd_num *n)
{
	unsigned long long	v;
	int			err;

	if ((err = parse_unsigned(text, &v)) != 0)
		return err;
	if (t->size == 4) {
		if (v > UINT32_MAX)
			return ERANGE;
		n->u = (uint32_t)v;
	} else
		n->uq = v;	/* parse_unsigned kept it within 64 bits */
	return 0;
}

/* The same for a signed key: an "I" key takes INT_MIN..INT_MAX. */
static int
encode_signed(const struct bsd_type *t, const char *text, union bsd_num *n)
{
	long long	v;
	int		err;

	if ((err = parse_signed(text, &v)) != 0)
		return err;
	if (t->size == 4) {
		if (v < INT32_MIN || v > INT32_MAX)
			return ERANGE;
		n->i = (int32_t)v;
	} else
		n->q = v;
	return 0;
}

/* One number of the key's width at p, as decimal text. */
static int
format_number(const struct bsd_type *t, const unsigned char *p, char *out,
    size_t outlen)
{
	union bsd_num	n;

	memcpy(&n, p, t->size);	/* p need not be aligned */
	if (t->size == 4)
		return t->is_unsigned ?
		    snprintf(out, outlen, "%lu", (unsigned long)n.u) :
		    snprintf(out, outlen, "%ld", (long)n.i);
	return t->is_unsigned ?
	    snprintf(out, outlen, "%llu", (unsigned long long)n.uq) :
	    snprintf(out, outlen, "%lld", (long long)n.q);
}

/* A key may hold several numbers; sysctl(8) prints them space-separated. */
static int
format_numbers(const struct bsd_type *t, const unsigned char *buf,
    size_t len, char *out, size_t outlen)
{
	size_t	off, used = 0;
	int	n;

	if (len == 0 || len % t->size != 0)
		return EINVAL;
	for (off = 0; off < len; off += t->size) {
		if (off > 0) {
			if (used + 1 >= outlen)
				return EOVERFLOW;
			out[used++] = ' ';
		}
		n = format_number(t, buf + off, out + used, outlen - used);
		if (n < 0 || (size_t)n >= outlen - used)
			return EOVERFLOW;
		used += (size_t)n;
	}
	return 0;
}

static int
format_string(const unsigned char *buf, size_t len, char *out, size_t outlen)
{
	const unsigned char	*nul = memchr(buf, '\0', len);
	size_t			 n = nul != NULL ? (size_t)(nul - buf) : len;

	if (n >= outlen)
		return EOVERFLOW;
	memcpy(out, buf, n);
	out[n] = '\0';
	return 0;
}

static int
bsd_read(const char *name, const struct bsd_type *t, char *out,
    size_t outlen)
{
	unsigned char	buf[TT_VALUE_MAX];
	size_t		len = sizeof(buf);

	if (sysctlbyname(name, buf, &len, NULL, 0) == -1)
		/* ENOMEM: more than fits a value here, not a lack of memory */
		return errno == ENOMEM ? EOVERFLOW : sys_errno();
	if (t->size == 0)
		return format_string(buf, len, out, outlen);
	return format_numbers(t, buf, len, out, outlen);
}

static int
bsd_get(struct sysctl_backend *be, const char *name, char *out,
    size_t outlen)
{
	struct bsd_type	t;
	int		err;

	(void)be;
	if ((err = bsd_lookup(name, &t)) != 0)
		return err;
	return bsd_read(name, &t, out, outlen);
}

/*
 * A string goes in without its NUL, as sysctl(8) sends it; xnu's
 * sysctl_io_string terminates it (bsd/kern/kern_newsysctl.c).
 */
static int
bsd_write_string(const char *name, const char *value)
{
	char	buf[TT_VALUE_MAX];

	if (tt_strlcpy(buf, value, sizeof(buf)) >= sizeof(buf))
		return EINVAL;
	if (sysctlbyname(name, NULL, NULL, buf, strlen(buf)) == -1)
		return sys_errno();
	return 0;
}

static int
bsd_set(struct sysctl_backend *be, const char *name, const char *value)
{
	struct bsd_type	t;
	union bsd_num	n;
	int		err;

	(void)be;
	if ((err = bsd_lookup(name, &t)) != 0)
		return err;
	if (t.size == 0)
		return bsd_write_string(name, value);
	memset(&n, 0, sizeof(n));
	/* Range errors are found here, before anything reaches the kernel. */
	err = t.is_unsigned ? encode_unsigned(&t, value, &n) :
	    encode_signed(&t, value, &n);
	if (err != 0)
		return err;
	if (sysctlbyname(name, NULL, NULL, &n, t.size) == -1)
		return sys_errno();
	return 0;
}

/* A number key read for the ceilings. */
static int
bsd_get_ll(const char *name, long long *v)
{
	char	text[TT_VALUE_MAX];
	int	err;

	if ((err = bsd_get(NULL, name, text, sizeof(text))) != 0)
		return err;
	return parse_signed(text, v);
}

/*
 * kern.ipc.maxsockbuf: xnu's sysctl_sb_max (bsd/kern/uipc_socket2.c)
 * takes LOW_SB_MAX < v <= high_sb_max, else ERANGE.  nmbclusters is read
 * rather than RAM: boot-args can change the pool.
 */
static int
xnu_ceiling_maxsockbuf(long long *max, char *why, size_t whylen)
{
	long long	ncl;
	int		err;

	if ((err = bsd_get_ll("kern.ipc.nmbclusters", &ncl)) != 0)
		return err;
	if (ncl <= 0 || ncl > UINT32_MAX)
		return EINVAL;
	*max = xnu_high_sb_max(ncl);
	if (why != NULL && whylen > 0)
		snprintf(why, whylen, "kern.ipc.maxsockbuf is capped at %lld "
		    "by kern.ipc.nmbclusters %lld (1/16 of the mbuf cluster "
		    "pool, set by RAM)", *max, ncl);
	return 0;
}

/*
 * Whether this kernel lets a socket buffer have all of maxsockbuf (macOS
 * 14.4 and later) or 8/9 of it: xnu_whole_sb_max in plan.c, from
 * kern.osrelease.  1 or 0, or an errno when the release cannot be read.
 */
static int
xnu_whole(int *whole)
{
	char	rel[64];
	int	err;

	if ((err = bsd_get(NULL, "kern.osrelease", rel, sizeof(rel))) != 0)
		return err;
	if ((*whole = xnu_whole_sb_max(rel)) == -1)
		return EINVAL;
	return 0;
}

/*
 * net.inet.tcp.sendspace and recvspace: xnu's sysctl_tcp_sospace
 * (bsd/netinet/tcp_usrreq.c) takes 0 < v <= sb_max from macOS 14.4
 * (xnu-10063) on, 0 < v <= (sb_max / (MSIZE + MCLBYTES)) * MCLBYTES,
 * about 89%, before; else ERANGE (xnu_sospace_max in plan.c).
 */
static int
xnu_ceiling_sospace(const char *name, long long *max, char *why,
    size_t whylen)
{
	long long	sb_max;
	int		err, whole;

	if ((err = bsd_get_ll("kern.ipc.maxsockbuf", &sb_max)) != 0)
		return err;
	if (sb_max <= 0)
		return EINVAL;
	if ((err = xnu_whole(&whole)) != 0)
		return err;
	*max = xnu_sospace_max(sb_max, whole);
	if (why != NULL && whylen > 0 && whole)
		snprintf(why, whylen, "%s is capped at %lld by "
		    "kern.ipc.maxsockbuf %lld", name, *max, sb_max);
	else if (why != NULL && whylen > 0)
		snprintf(why, whylen, "%s is capped at %lld by "
		    "kern.ipc.maxsockbuf %lld (before macOS 14.4, the part of "
		    "it left for data after mbuf overhead)", name, *max,
		    sb_max);
	return 0;
}

/*
 * FreeBSD knows no ceiling: sysctl_handle_sb_max (sys/kern/uipc_sockbuf.c)
 * only refuses maxsockbuf below MSIZE + MCLBYTES, with EINVAL, and
 * net.inet.tcp.sendbuf_max and the like are plain unchecked integers.
 */
static int
bsd_ceiling(struct sysctl_backend *be, const char *name, long long *max,
    char *why, size_t whylen)
{
	struct bsd_ctx	*ctx = be->ctx;

	if (!ctx->xnu_rules)
		return ENOENT;
	if (strcmp(name, "kern.ipc.maxsockbuf") == 0)
		return xnu_ceiling_maxsockbuf(max, why, whylen);
	if (strcmp(name, "net.inet.tcp.sendspace") == 0 ||
	    strcmp(name, "net.inet.tcp.recvspace") == 0)
		return xnu_ceiling_sospace(name, max, why, whylen);
	return ENOENT;
}

/*
 * FreeBSD's sbreserve_locked (sys/kern/uipc_sockbuf.c) and xnu's sbreserve
 * before macOS 14.4 fail above sb_max_adj, 8/9 of kern.ipc.maxsockbuf;
 * later xnu clamps a buffer to all of it.
 */
static int
bsd_sockbuf_max(struct sysctl_backend *be, const char *cap, long long capval,
    long long *max)
{
	struct bsd_ctx	*ctx = be->ctx;
	int		 err, whole = 0;

	*max = capval;
	if (strcmp(cap, "kern.ipc.maxsockbuf") != 0)
		return 0;
	if (ctx->xnu_rules && (err = xnu_whole(&whole)) != 0)
		return err;
	if (!whole)
		*max = bsd_sb_max_adj(capval);
	return 0;
}

static void
bsd_free(struct sysctl_backend *be)
{
	if (be == NULL)
		return;
	free(be->ctx);
	free(be);
}

struct sysctl_backend *
backend_bsd_new(void)
{
	struct sysctl_backend	*be;
	struct bsd_ctx		*ctx;

	if ((be = calloc(1, sizeof(*be))) == NULL)
		return NULL;
	if ((ctx = calloc(1, sizeof(*ctx))) == NULL) {
		free(be);
		return NULL;
	}
#ifdef __APPLE__
	ctx->xnu_rules = true;
#endif
	be->name = "bsd";
	be->get = bsd_get;
	be->set = bsd_set;
	be->ceiling = bsd_ceiling;
	be->sockbuf_max = bsd_sockbuf_max;
	be->free = bsd_free;
	be->ctx = ctx;
	return be;
}
