/*
 * The order in which to apply keys, from the catalogue's column of which
 * ones are ceilings for others (lib/catalogue.c), and the arithmetic of
 * the BSD socket buffer ceilings.
 */
#include "config.h"

#include <stdio.h>

#include "tcptune.h"

/* MSIZE (xnu: SB_MSIZE_ADJ) and MCLBYTES of xnu and FreeBSD (sys/param.h) */
#define BSD_SB_MSIZE	256LL
#define BSD_SB_MCLBYTES	2048LL

/* A key in no catalogue has no ceiling and goes in any order. */
int
sysctl_rank(const char *name)
{
	const struct cat_key	*k = catalogue_find_any(name);

	return k != NULL ? k->rank : 1;
}

const char *
sysctl_capped_by(const char *name)
{
	const struct cat_key	*k = catalogue_find_any(name);

	return k != NULL ? k->capped_by : NULL;
}

/* Stable: keys of one rank keep the order of the config file. */
void
plan_sort(const struct config_key **keys, size_t n)
{
	const struct config_key	*k;
	size_t			 i, j;

	for (i = 1; i < n; i++) {
		k = keys[i];
		for (j = i; j > 0 && sysctl_rank(keys[j - 1]->name) >
		    sysctl_rank(k->name); j--)
			keys[j] = keys[j - 1];
		keys[j] = k;
	}
}

/*
 * xnu's high_sb_max, the most kern.ipc.maxsockbuf will take, for a count
 * of mbuf clusters.  mbinit (bsd/kern/uipc_mbuf.c) sets it to 1/16 of the
 * cluster pool, nmbclusters << (MCLSHIFT - 4), and raises it to 1 MiB
 * when that is under SB_MAX (8 MiB, bsd/sys/socketvar.h) and 1 MiB or
 * less but the pool is larger than 1 MiB.  The pool comes from RAM
 * (mbuf_default_ncl: 128 MiB at 8 GB, 256 MiB at 16, 512 MiB at 32 and
 * more) unless the ncl or mbuf_pool boot-args override it, which is why
 * callers use nmbclusters rather than RAM.  The kernel works in 32 bits;
 * for every pool it can have (under 4 GiB) this gives the same.
 */
long long
xnu_high_sb_max(long long nmbclusters)
{
	const long long	mclshift = 11, mb = 1LL << 20, sb_max = 8 * mb;
	long long	high = nmbclusters << (mclshift - 4);

	if (high < sb_max && high <= mb && (nmbclusters << mclshift) > mb)
		high = mb;
	return high;
}

/*
 * How much of kern.ipc.maxsockbuf (sb_max) one socket buffer may use,
 * which xnu changed in xnu-10063 (macOS 14.4, Darwin 23.4).  Up to
 * xnu-10002 (macOS 14.3), sysctl_tcp_sospace (bsd/netinet/tcp_usrreq.c)
 * refused a sendspace or recvspace above sb_effective_max = (sb_max /
 * (SB_MSIZE_ADJ + MCLBYTES)) * MCLBYTES, and sbreserve
 * (bsd/kern/uipc_socket2.c) failed for a buffer above sb_max_adj =
 * SB_MAX_ADJUST(sb_max) = sb_max * MCLBYTES / (SB_MSIZE_ADJ + MCLBYTES):
 * 8/9 of it, as FreeBSD still does (sys/kern/uipc_sockbuf.c).  From
 * xnu-10063 through xnu-11417 (macOS 15) the first takes new_value <=
 * sb_max and the second clamps the buffer to sb_max instead of failing.
 * SB_MSIZE_ADJ 256, MCLBYTES 2048 (bsd/sys/socketvar.h, bsd/sys/param.h).
 *
 * xnu_whole_sb_max: 1 when the kernel of that kern.osrelease ("23.4.0")
 * lets a buffer have all of sb_max, 0 when 8/9, -1 when unparseable.
 */
int
xnu_whole_sb_max(const char *release)
{
	int	major, minor;

	if (release == NULL || sscanf(release, "%d.%d", &major, &minor) != 2 ||
	    major < 0 || minor < 0)
		return -1;
	return major > 23 || (major == 23 && minor >= 4);
}

/* The most sendspace/recvspace take under sb_max (sysctl_tcp_sospace). */
long long
xnu_sospace_max(long long sb_max, int whole)
{
	return whole ? sb_max :
	    sb_max / (BSD_SB_MSIZE + BSD_SB_MCLBYTES) * BSD_SB_MCLBYTES;
}

/* sb_max_adj: the largest buffer sbreserve gives under sb_max, 8/9. */
long long
bsd_sb_max_adj(long long sb_max)
{
	return sb_max * BSD_SB_MCLBYTES / (BSD_SB_MSIZE + BSD_SB_MCLBYTES);
}

/* The least sb_max whose sb_max_adj holds buf: 9/8 of it, rounded up. */
long long
bsd_sb_max_for(long long buf)
{
	return (buf * (BSD_SB_MSIZE + BSD_SB_MCLBYTES) + BSD_SB_MCLBYTES - 1) /
	    BSD_SB_MCLBYTES;
}
