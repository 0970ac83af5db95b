/*
 * tcptunectl advise, the model: the bandwidth-delay product, and what
 * each platform makes of its socket buffer ceilings (units are in
 * advise_units.c).  Nothing here reads the system: the values come in an
 * adv_input (read live by advise.c, or given with --set, or the stock
 * defaults below), so the unit test runs every platform's model anywhere.
 * It returns numbers and identifiers (enum adv_why, enum adv_note_id),
 * never sentences: those are in advise_words.c.
 *
 * The platform facts, with their sources:
 *
 * Linux
 *   The advertised receive window is tcp_win_from_space(rcvbuf).  Before
 *   6.6 that is space - (space >> tcp_adv_win_scale) (half, with the
 *   default 1); from 6.6 it is space * scaling_ratio >> 8, scaling_ratio
 *   measured per connection as skb->len / skb->truesize of what arrives,
 *   starting from TCP_DEFAULT_SCALING_RATIO (torvalds/linux
 *   include/net/tcp.h, __tcp_win_from_space; net/ipv4/tcp_input.c,
 *   tcp_measure_rcv_mss; commit "tcp: get rid of sysctl_tcp_adv_win_scale",
 *   Documentation/networking/ip-sysctl.rst "Obsolete since linux-6.6").
 *   Before 6.6 that is half with the default tcp_adv_win_scale 1.  From
 *   6.6 a connection starts at TCP_DEFAULT_SCALING_RATIO: about 1/4
 *   ((1200 << 8) / SKB_TRUESIZE(4096)) until commit 697a6c8cec03 ("tcp:
 *   increase the default TCP scaling ratio", 2024, also in 6.6 stable),
 *   1/2 since; after its first full segments the kernel measures it
 *   (tcp_measure_rcv_mss), which decides a long transfer's rate.  That
 *   measured ratio is the driver's: payload over the truesize of its
 *   receive skbs.  LINUX_RCV_MEASURED is 160/256, fitted on the "16 MiB
 *   ceilings" row of docs/BENCHMARKS.md alone (557.4 Mbit/s x 150 ms /
 *   16 MiB = 0.623, the nearest u8 ratio 160) and judged on its other
 *   rows; the rate a tcp_rmem[2] allows, and whether it is enough, use
 *   it.  A raised tcp_rmem[2] is sized at the 1/2 a connection starts
 *   from (LINUX_RCV_PLAN: 2 x BDP), which leaves room for a driver whose
 *   packets take more memory than the bench's.
 *   Sending has two ratios.  Autotuning grows sk_sndbuf to
 *   sndbuf_expand x nr_segs x per_mss (net/ipv4/tcp_input.c,
 *   tcp_sndbuf_expand): nr_segs the congestion window in segments (at
 *   least TCP_INIT_CWND and reordering + 1), per_mss the worst-case
 *   memory of one segment (the MSS with MAX_TCP_HEADER and
 *   skb_shared_info rounded up to a power of two, plus struct sk_buff:
 *   2304 bytes for an MSS of 1448 on x86-64), sndbuf_expand 2 ("Cubic
 *   needs 1.7 factor, rounded to 2") or what the congestion control says
 *   (3 for BBR, net/ipv4/tcp_bbr.c, bbr_sndbuf_expand): about 3.2 x the
 *   window, 4.8 x under BBR, so it is tcp_wmem[2] that binds.  A buffer
 *   held at its cap: the program may queue until sk_wmem_queued, the
 *   truesize of every skb not yet acknowledged, reaches sk_sndbuf
 *   (torvalds/linux include/net/sock.h, __sk_stream_memory_free;
 *   net/ipv4/tcp.c, tcp_sendmsg_locked waits in sk_stream_wait_memory),
 *   and a TSO skb carries tens of KB of payload in page fragments for
 *   one skb's overhead (tcp.c, tcp_stream_alloc_skb; tcp_output.c,
 *   tcp_tso_autosize), so nearly all of the cap can be in flight.  The
 *   writer is woken only once a third of the buffer is free
 *   (net/core/stream.c, sk_stream_write_space; sock.h,
 *   sk_stream_min_wspace: free >= queued / 2), so what is queued runs
 *   from 2/3 of the cap back up to all of it: 5/6 on average
 *   (LINUX_SND_CAPPED, derived, not fitted; the "kernel default from
 *   6.16" row, the one bench row held by the send side, measured 0.87).
 *   The rate a tcp_wmem[2] allows, and the least that does (BDP / 5/6),
 *   use that share; a raised tcp_wmem[2] is sized at twice the window
 *   (LINUX_SND_FACTOR), tcptune's headroom, well below what autotuning
 *   would ask for.
 *
 * macOS (xnu)
 *   kern.ipc.maxsockbuf takes at most high_sb_max = nmbclusters << 7,
 *   1/16 of the cluster pool (bsd/kern/uipc_mbuf.c, mbinit), and the pool
 *   comes from RAM: 64 MB below 4 GB, 96 MB from 4 GB, 128 MB from 8 GB,
 *   256 MB from 16 GB, 512 MB from 32 GB (mbuf_default_ncl, ncl_table).
 *   From macOS 14.4 (xnu-10063) a socket buffer may have all of sb_max
 *   (sbreserve clamps to it); up to macOS 14.3 (xnu-10002) at most
 *   sb_max_adj = sb_max * MCLBYTES / (MSIZE + MCLBYTES), 8/9 of it
 *   (bsd/kern/uipc_socket2.c, sbreserve; xnu_whole_sb_max in lib/plan.c
 *   picks the rule from kern.osrelease, which uname gives).
 *   autorcvbufmax/autosndbufmax are taken unchecked and bound each socket
 *   together with that (tcp_input.c, tcp_sbrcv_reserve).
 *
 * FreeBSD
 *   The same sb_max_adj: sbreserve_locked fails above it, and receive
 *   autotuning then stops for good on that socket (sys/kern/uipc_sockbuf.c;
 *   sys/netinet/tcp_input.c, tcp_autorcvbuf), hence maxsockbuf >= 9/8 of
 *   the largest buffer.  recvbuf_max and sendbuf_max default to 2 MiB
 *   (tcp_input.c, tcp_output.c: 2*1024*1024).
 *
 * On the BSDs the advertised window is the free space of the receive
 * buffer in bytes (sbspace), so a buffer of one BDP is a window of one.
 *
 * Windows
 *   No buffer ceiling to raise: the receive window is auto-tuned, and the
 *   auto-tuning level fixes the window scale offered in the SYN, so the
 *   largest window a connection can ever have.  Microsoft's table
 *   ("Performance Tuning Network Adapters", Autotuning levels,
 *   https://learn.microsoft.com/en-us/windows-server/networking/
 *   technologies/network-subsystem/net-sub-performance-tuning-nics
 *   #autotuning-levels): Disabled, no scale factor (the window stays at its
 *   default, at most 65535 bytes); HighlyRestricted, scale factor 2;
 *   Restricted, 4; Normal (the default), 8; Experimental, 14.  A window
 *   field of 65535 shifted by the scale (RFC 7323 section 2) gives the
 *   ceilings: 65535 bytes, 256 KiB, 1 MiB, 16 MiB and 1 GiB (less 2^scale
 *   - 1 bytes each).  The same page's netsh output shows a stock system:
 *   auto-tuning normal, Receive-Side Scaling and Receive Segment
 *   Coalescing enabled, RFC 1323 timestamps disabled, and it advises
 *   "Turning on network adapter offload features is usually beneficial".
 *   The values are the words of backend_win.c's keys.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))
#define KIB		1024LL
#define MIB		(1024LL * KIB)
#define GIB		(1024LL * MIB)

#define XNU_MCLSHIFT	11

/* A raised tcp_wmem[2] per byte of window: tcptune's headroom, above */
#define LINUX_SND_FACTOR	2.0
/* In flight per byte of a send buffer held at tcp_wmem[2]: derived, above */
#define LINUX_SND_CAPPED	(5.0 / 6.0)
/* From 6.6, window per byte of tcp_rmem[2]: measured ratio, fitted above */
#define LINUX_RCV_MEASURED	(160.0 / 256.0)
/* What a raised tcp_rmem[2] is sized for: the starting ratio, above */
#define LINUX_RCV_PLAN		0.5

/* ---- platforms and their keys */

/* What the model reads, per platform; kernel.osrelease comes from uname. */
static const char *const linux_keys[] = {
	"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.core.rmem_max",
	"net.core.wmem_max", "net.ipv4.tcp_adv_win_scale",
	"net.ipv4.tcp_moderate_rcvbuf", "kernel.osrelease", NULL
};
static const char *const darwin_keys[] = {
	"kern.ipc.maxsockbuf", "kern.ipc.nmbclusters",
	"net.inet.tcp.autorcvbufmax", "net.inet.tcp.autosndbufmax",
	"net.inet.tcp.recvspace", "net.inet.tcp.sendspace",
	"net.inet.tcp.doautorcvbuf", "hw.memsize", "kernel.osrelease", NULL
};
static const char *const freebsd_keys[] = {
	"kern.ipc.maxsockbuf", "net.inet.tcp.recvbuf_max",
	"net.inet.tcp.sendbuf_max", "net.inet.tcp.recvbuf_auto",
	"net.inet.tcp.recvspace", NULL
};
/* backend_win.c's keys; all but the first two read only */
static const char *const windows_keys[] = {
	"tcp.autotuninglevel", "offload.rss", "offload.rsc", "tcp.timestamps",
	"tcp.scalingheuristics", "qos.tcpautotuninglevel", NULL
};

#define WIN_NORMAL	3		/* catalogue_win_levels()'s normal */
#define TCP_MAXWIN	65535LL		/* the window field, unscaled */

/*
 * The words of tcp.scalingheuristics, a word key advise reads that the
 * catalogue lacks (backend_win.c's, read only), in the order messages
 * list them; the catalogue has the other keys' words.
 */
static const char *const win_heuristics[] = { "enabled", "disabled", NULL };

/*
 * Stock values, for what could not be read or is not this machine.  Linux:
 * the defaults of recent kernels (Documentation/networking/ip-sysctl.rst;
 * rmem_max 212992 on 64-bit).  macOS: the newest xnu's stock values in the
 * catalogue (lib/catalogue.c, xnu_facts; docs/DESIGN.md), on a 16 GB Mac
 * unless hw.memsize or nmbclusters say otherwise.  FreeBSD: tcp_input.c,
 * tcp_output.c, sockbuf.h.
 */
/*
 * tcp_rmem before Linux 6.16: commit 572be9bf9d0d ("tcp: increase
 * tcp_rmem[2] to 32 MB", net/ipv4/tcp.c, tcp_init) raised the stock top
 * from 6 MiB to 32 MiB.
 */
#define LINUX_RMEM_BEFORE_6_16	"4096 131072 6291456"

static const struct stock {
	enum tt_os	 os;
	const char	*name;
	const char	*value;
} stock[] = {
	/* 6.16 and later; before it, LINUX_RMEM_BEFORE_6_16 (stock_value) */
	{ TT_OS_LINUX, "net.ipv4.tcp_rmem", "4096 131072 33554432" },
	{ TT_OS_LINUX, "net.ipv4.tcp_wmem", "4096 16384 4194304" },
	{ TT_OS_LINUX, "net.core.rmem_max", "212992" },
	{ TT_OS_LINUX, "net.core.wmem_max", "212992" },
	{ TT_OS_LINUX, "net.ipv4.tcp_adv_win_scale", "1" },
	{ TT_OS_LINUX, "net.ipv4.tcp_moderate_rcvbuf", "1" },
	/* the catalogued macOS keys: stock_value() asks lib/catalogue.c */
	{ TT_OS_DARWIN, "hw.memsize", "17179869184" },
	{ TT_OS_FREEBSD, "kern.ipc.maxsockbuf", "2097152" },
	{ TT_OS_FREEBSD, "net.inet.tcp.recvbuf_max", "2097152" },
	{ TT_OS_FREEBSD, "net.inet.tcp.sendbuf_max", "2097152" },
	{ TT_OS_FREEBSD, "net.inet.tcp.recvbuf_auto", "1" },
	{ TT_OS_FREEBSD, "net.inet.tcp.recvspace", "65536" },
	{ TT_OS_WINDOWS, "tcp.autotuninglevel", "normal" },
	{ TT_OS_WINDOWS, "offload.rss", "enabled" },
	{ TT_OS_WINDOWS, "offload.rsc", "enabled" },
	{ TT_OS_WINDOWS, "tcp.timestamps", "disabled" },
	{ TT_OS_WINDOWS, "tcp.scalingheuristics", "disabled" },
	{ TT_OS_WINDOWS, "qos.tcpautotuninglevel", "notconfigured" },
};

const char *const *
adv_os_keys(enum tt_os os)
{
	switch (os) {
	case TT_OS_DARWIN:
		return darwin_keys;
	case TT_OS_FREEBSD:
		return freebsd_keys;
	case TT_OS_WINDOWS:
		return windows_keys;
	default:
		return linux_keys;
	}
}

/* The level named word, whatever the case; -1 for none. */
static int
win_level_find(const char *word)
{
	const char *const	*levels = catalogue_win_levels();
	int			 i;

	for (i = 0; levels[i] != NULL; i++)
		if (adv_ieq(levels[i], word))
			return i;
	return -1;
}

/* The words a Windows key takes, or NULL. */
static const char *const *
key_word_table(const char *name)
{
	const struct cat_key	*k = catalogue_find_any(name);

	if (k != NULL)
		return k->words;
	if (strcmp(name, "tcp.scalingheuristics") == 0)
		return win_heuristics;
	return NULL;
}

/*
 * A key's value as its word, whatever the case ("Normal" is "normal"), or
 * NULL when it takes no such word; value itself for a key of free text.
 */
const char *
adv_key_word(const char *name, const char *value)
{
	const char *const	*w = key_word_table(name);

	if (w == NULL)
		return adv_key_words(name) == 0 ? value : NULL;
	for (; *w != NULL; w++)
		if (adv_ieq(*w, value))
			return *w;
	return NULL;
}

/*
 * The words a key takes, for a message refusing another: "a, b or c";
 * "" for a key that takes no fixed words.
 */
void
adv_key_word_choices(const char *name, char *buf, size_t len)
{
	const char *const	*t = key_word_table(name);

	buf[0] = '\0';
	if (t != NULL)
		catalogue_word_list(t, buf, len);
}

/*
 * How many numbers a key holds, as the catalogue has it (3 for Linux
 * vectors, 0 for words); of the keys it lacks, the words are 0.
 */
int
adv_key_words(const char *name)
{
	const struct cat_key	*k = catalogue_find_any(name);

	if (k != NULL)
		return k->nums;
	if (strcmp(name, "kernel.osrelease") == 0 ||
	    strcmp(name, "qos.tcpautotuninglevel") == 0 ||
	    key_word_table(name) != NULL)
		return 0;
	return 1;
}

bool
adv_key_known(enum tt_os os, const char *name)
{
	const char *const	*k;

	for (k = adv_os_keys(os); *k != NULL; k++)
		if (strcmp(*k, name) == 0)
			return true;
	return false;
}

/* The index of name's value, or -1. */
static int
value_index(const struct adv_input *in, const char *name)
{
	size_t	i;

	for (i = 0; i < in->nvalues; i++)
		if (strcmp(in->values[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * Set a value, or with value NULL record err, why it is unknown; a given
 * value replaces a read one.  0, or -1 when there is no room or the value
 * does not fit.
 */
int
adv_input_set(struct adv_input *in, const char *name, const char *value,
    int err, bool given)
{
	struct adv_value	*v;
	int			 i = value_index(in, name);

	if (i >= 0)
		v = &in->values[i];
	else {
		if (in->nvalues == ADV_MAX_VALUES)
			return -1;
		v = &in->values[in->nvalues];
		memset(v, 0, sizeof(*v));
		if (tt_strlcpy(v->name, name, sizeof(v->name)) >=
		    sizeof(v->name))
			return -1;
		in->nvalues++;
	}
	v->given = given;
	v->why[0] = '\0';
	v->err = value == NULL ? (err != 0 ? err : ENOENT) : 0;
	v->value[0] = '\0';
	if (value != NULL && value_normalize(value, v->value,
	    sizeof(v->value)) == -1)
		return -1;
	return 0;
}

/* Why name could not be read, in the backend's words. */
void
adv_input_why(struct adv_input *in, const char *name, const char *why)
{
	int	i = value_index(in, name);

	if (i >= 0)
		tt_strlcpy(in->values[i].why, why, sizeof(in->values[i].why));
}

/* The value known for name, or NULL. */
const char *
adv_input_get(const struct adv_input *in, const char *name)
{
	int	i = value_index(in, name);

	if (i < 0 || in->values[i].err != 0 || in->values[i].value[0] == '\0')
		return NULL;
	return in->values[i].value;
}

/* Whether name's value came from --set rather than from the machine. */
bool
adv_input_given(const struct adv_input *in, const char *name)
{
	int	i = value_index(in, name);

	return i >= 0 && in->values[i].given;
}

/* The Darwin major kernel.osrelease names; 0: not known (the newest). */
static int
darwin_major(const struct adv_input *in)
{
	const char	*rel = adv_input_get(in, "kernel.osrelease");
	int		 major;

	return rel != NULL && sscanf(rel, "%d", &major) == 1 && major > 0 ?
	    major : 0;
}

/*
 * A macOS key's stock value on Darwin major darwin (0: the newest), on
 * this Mac's RAM (hw.memsize, else the stock 16 GB): maxsockbuf is 1/16
 * of the mbuf pool up to SB_MAX, of the pool nmbclusters gives when it
 * was read or given (catalogue_xnu_stock).
 */
static long long
darwin_stock(const struct adv_input *in, const char *name, int darwin)
{
	const char	*text;
	long long	 mem = 16 * GIB, ncl;

	if ((text = adv_input_get(in, "hw.memsize")) != NULL)
		(void)parse_ll(text, &mem);
	if (strcmp(name, "kern.ipc.maxsockbuf") == 0 &&
	    (text = adv_input_get(in, "kern.ipc.nmbclusters")) != NULL &&
	    parse_ll(text, &ncl) == 0 && ncl > 0)
		return xnu_high_sb_max(ncl) < CAT_XNU_SB_MAX ?
		    xnu_high_sb_max(ncl) : CAT_XNU_SB_MAX;
	return catalogue_xnu_stock(name, darwin, mem);
}

/*
 * The stock value of name for in's OS, as text; the caller copies it.  On
 * macOS, that of the release kernel.osrelease names (its Darwin major)
 * and of this Mac's RAM, else of the newest xnu the catalogue knows.
 */
/*
 * Whether kernel.osrelease names a Linux older than major.minor; an
 * unknown release is taken as the newest, as the stock table is.
 */
static bool
linux_before(const struct adv_input *in, int major, int minor)
{
	const char	*rel = adv_input_get(in, "kernel.osrelease");
	int		 ma, mi;

	if (rel == NULL || sscanf(rel, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma < major || (ma == major && mi < minor);
}

static const char *
stock_value(const struct adv_input *in, const char *name)
{
	static char		 xnu[32];
	long long		 v = CAT_XNU_ABSENT;
	enum tt_os		 os = in->os;
	size_t			 i;

	if (os == TT_OS_DARWIN && catalogue_find(name, TT_OS_DARWIN) != NULL) {
		v = darwin_stock(in, name, darwin_major(in));
		if (v == CAT_XNU_ABSENT)
			v = darwin_stock(in, name, 0);
	}
	if (v != CAT_XNU_ABSENT) {
		snprintf(xnu, sizeof(xnu), "%lld", v);
		return xnu;
	}
	if (os == TT_OS_LINUX && strcmp(name, "net.ipv4.tcp_rmem") == 0 &&
	    linux_before(in, 6, 16))
		return LINUX_RMEM_BEFORE_6_16;
	for (i = 0; i < NITEMS(stock); i++)
		if (stock[i].os == os && strcmp(stock[i].name, name) == 0)
			return stock[i].value;
	return NULL;
}

/* ---- arithmetic */

/* The least power of two >= n (n up to 2^62). */
long long
adv_pow2_at_least(long long n)
{
	long long	p = 1;

	while (p < n && p < (1LL << 62))
		p <<= 1;
	return p;
}

/* The least maxsockbuf that holds buf, where a buffer may have all of it or 8/9 (lib/plan.c). */
static long long
sb_max_holding(long long buf, bool whole)
{
	return whole ? buf : bsd_sb_max_for(buf);
}

/* The largest buffer maxsockbuf sb_max lets one socket have. */
static long long
sb_usable(long long sb_max, bool whole)
{
	return whole ? sb_max : bsd_sb_max_adj(sb_max);
}

static long long
ceil_ll(double v)
{
	long long	n;

	if (v >= (double)(1LL << 62))
		return 1LL << 62;
	n = (long long)v;
	return (double)n < v ? n + 1 : n;
}

static long long
min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static long long
max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

/*
 * What to recommend for a ceiling the path needs at least need of: the
 * current value when it suffices (never lower one), else the next power
 * of two, the convention for these keys, but no more than limit.
 */
static long long
raise_to(long long cur, long long need, long long limit)
{
	if (cur >= need)
		return cur;
	return min_ll(adv_pow2_at_least(need), limit);
}

/* One stream in one direction, with its buffer ceiling. */
static void
dir_eval(struct adv_dir *d, const struct adv_result *r, long long buffer,
    double ratio, const char *limit)
{
	double	w = (double)buffer * ratio;

	if (w > (double)ADV_MAX_WINDOW)
		w = (double)ADV_MAX_WINDOW;
	d->buffer = buffer;
	d->window = (long long)w;
	d->rate = w * 8 / r->rtt;
	d->limit = NULL;
	d->window_limited = false;
	if (d->rate >= r->rate * 0.9995)	/* rounding is no limit */
		d->rate = r->rate;
	else if (w >= (double)ADV_MAX_WINDOW)
		d->window_limited = true;
	else
		d->limit = limit;
}

/* Something holds this direction below the rate. */
static bool
dir_held(const struct adv_dir *d)
{
	return d->limit != NULL || d->window_limited;
}

/* ---- building the result */

/* A note, by identifier: advise_words.c has its sentence. */
static void
note(struct adv_result *r, enum adv_note_id id, long long a0, long long a1,
    long long a2)
{
	struct adv_note	*n;

	if (r->nnotes == ADV_MAX_NOTES)
		return;
	n = &r->notes[r->nnotes++];
	n->id = id;
	n->arg[0] = a0;
	n->arg[1] = a1;
	n->arg[2] = a2;
}

struct cur {
	long long	v[3];	/* a scalar is v[0]; a vector all three */
	bool		assumed;
	bool		given;		/* from --set */
	char		text[TT_VALUE_MAX];
};

/*
 * The current value of a key: as read or given, else the stock default
 * (marked assumed).  n numbers are wanted; a value with another count is
 * not believed.
 */
static void
cur_get(const struct adv_input *in, const char *name, int n, struct cur *c)
{
	const char	*text = adv_input_get(in, name);

	memset(c, 0, sizeof(*c));
	if (text != NULL && value_numbers(text, c->v, 3) == n) {
		tt_strlcpy(c->text, text, sizeof(c->text));
		c->given = adv_input_given(in, name);
		return;
	}
	c->assumed = true;
	if ((text = stock_value(in, name)) != NULL &&
	    value_numbers(text, c->v, 3) == n) {
		tt_strlcpy(c->text, text, sizeof(c->text));
		return;
	}
	memset(c->v, 0, sizeof(c->v));
}

static struct adv_key *
add_key(struct adv_result *r, const char *name, enum adv_role role,
    const struct cur *c)
{
	struct adv_key	*k;

	if (r->nkeys == ADV_MAX_KEYS)
		abort();	/* the rows are fixed by this file */
	k = &r->keys[r->nkeys++];
	memset(k, 0, sizeof(*k));
	k->name = name;
	k->role = role;
	k->assumed = c->assumed;
	k->given = c->given;
	tt_strlcpy(k->current, c->text, sizeof(k->current));
	return k;
}

/* The recommendation for a scalar key. */
static void
key_scalar(struct adv_key *k, long long rec, long long needed)
{
	snprintf(k->recommended, sizeof(k->recommended), "%lld", rec);
	k->needed = needed;
	k->change = k->current[0] == '\0' ||
	    !value_equal(k->current, k->recommended);
}

/* For a Linux vector: min and default kept, the maximum raised. */
static void
key_vector(struct adv_key *k, const struct cur *c, long long rec,
    long long needed)
{
	snprintf(k->recommended, sizeof(k->recommended), "%lld %lld %lld",
	    c->v[0], c->v[1], rec);
	k->needed = needed;
	k->change = k->current[0] == '\0' ||
	    !value_equal(k->current, k->recommended);
}

/*
 * Some values could not be read live (their names are in the input); or
 * none could, as on a Windows without the CIM classes (Wine).
 */
static void
unread_note(const struct adv_input *in, struct adv_result *r)
{
	size_t	i, n = 0, tcp = 0, tcp_unread = 0;

	for (i = 0; i < in->nvalues; i++) {
		if (in->values[i].err != 0)
			n++;
		/* the QoS policy value is the registry's, there even under
		 * Wine: "nothing read" speaks of the TCP settings */
		if (strcmp(in->values[i].name, "qos.tcpautotuninglevel") == 0)
			continue;
		tcp++;
		if (in->values[i].err != 0)
			tcp_unread++;
	}
	r->none_read = in->live && tcp_unread > 0 && tcp_unread == tcp;
	if (n > 0)
		note(r, NOTE_UNREAD, (long long)n, 0, 0);
}

/* Notes every platform shares, after its own. */
static void
common_notes(const struct adv_input *in, struct adv_result *r)
{
	size_t	i;
	bool	assumed = false;

	for (i = 0; i < r->nkeys; i++)
		assumed |= r->keys[i].assumed;
	note(r, NOTE_CEILINGS, 0, 0, 0);
	note(r, NOTE_NEW_CONNECTIONS, 0, 0, 0);
	unread_note(in, r);
	if (r->none_read)
		note(r, NOTE_NONE_READ, 0, 0, 0);
	else if (assumed && in->live)
		note(r, NOTE_ASSUMED_LIVE, 0, 0, 0);
	else if (assumed)
		note(r, NOTE_ASSUMED_MODEL, 0, 0, 0);
}

/* ---- Linux */

/* Kernel major and minor from a release such as "6.18.4-arch1". */
static bool
linux_version(const struct adv_input *in, int *major, int *minor)
{
	const char	*rel = adv_input_get(in, "kernel.osrelease");

	return rel != NULL && sscanf(rel, "%d.%d", major, minor) == 2;
}

/* The receive window per byte of tcp_rmem[2], by kernel version. */
static double
linux_rcv_ratio(const struct adv_input *in, struct adv_result *r)
{
	struct cur	 adv;
	int		 major, minor, s;
	bool		 known = linux_version(in, &major, &minor);
	double		 ratio;

	if (!known || major > 6 || (major == 6 && minor >= 6)) {
		note(r, NOTE_LINUX_RCV_SCALED, known, 0, 0);
		r->rcv_size_ratio = LINUX_RCV_PLAN;
		return LINUX_RCV_MEASURED;
	}
	cur_get(in, "net.ipv4.tcp_adv_win_scale", 1, &adv);
	s = (int)(adv.v[0] < -31 ? -31 : adv.v[0] > 31 ? 31 : adv.v[0]);
	/* include/net/tcp.h before 6.6, tcp_win_from_space */
	ratio = s > 0 ? 1.0 - 1.0 / (double)(1LL << s) :
	    1.0 / (double)(1LL << -s);
	note(r, NOTE_LINUX_RCV_ADV_WIN, s, 0, 0);
	r->rcv_size_ratio = ratio;
	return ratio;
}

static void
linux_kernel(const struct adv_input *in, struct adv_result *r)
{
	const char	*rel = adv_input_get(in, "kernel.osrelease");

	snprintf(r->kernel, sizeof(r->kernel), "Linux%s%s",
	    rel ? " " : "", rel ? rel : "");
}

struct linux_cur {
	struct cur	rmem, wmem, rmax, wmax, moderate;
};

/* Receive autotuning off: the buffer stays at tcp_rmem[1]. */
static long long
linux_rcv_buffer(const struct linux_cur *c, long long max, bool moderate)
{
	return moderate ? max : c->rmem.v[1];
}

static void
linux_rows(struct adv_result *r, const struct linux_cur *c, long long rmem,
    long long wmem, long long need_r, long long need_w)
{
	struct adv_key	*k;

	k = add_key(r, "net.ipv4.tcp_rmem", ROLE_CEILING, &c->rmem);
	key_vector(k, &c->rmem, rmem, need_r);
	k->why = WHY_LINUX_RMEM;
	k = add_key(r, "net.ipv4.tcp_wmem", ROLE_CEILING, &c->wmem);
	key_vector(k, &c->wmem, wmem, need_w);
	k->why = WHY_LINUX_WMEM;
	/* raised with the autotuning ceilings, never on their own */
	k = add_key(r, "net.core.rmem_max", ROLE_SOCKOPT, &c->rmax);
	key_scalar(k, rmem != c->rmem.v[2] ? max_ll(c->rmax.v[0], rmem) :
	    c->rmax.v[0], 0);
	k->why = WHY_LINUX_RMEM_MAX;
	k = add_key(r, "net.core.wmem_max", ROLE_SOCKOPT, &c->wmax);
	key_scalar(k, wmem != c->wmem.v[2] ? max_ll(c->wmax.v[0], wmem) :
	    c->wmax.v[0], 0);
	k->why = WHY_LINUX_WMEM_MAX;
	if (c->moderate.v[0] == 0) {
		k = add_key(r, "net.ipv4.tcp_moderate_rcvbuf", ROLE_SWITCH,
		    &c->moderate);
		key_scalar(k, 1, 1);
		k->why = WHY_LINUX_MODERATE_OFF;
	}
}

static void
linux_model(const struct adv_input *in, struct adv_result *r)
{
	struct linux_cur c;
	long long	 need_r, need_w, rmem, wmem;
	bool		 moderate;

	linux_kernel(in, r);
	r->rcv_ratio = linux_rcv_ratio(in, r);
	r->snd_size_ratio = 1.0 / LINUX_SND_FACTOR;
	r->snd_ratio = LINUX_SND_CAPPED;
	note(r, NOTE_LINUX_SND, 0, 0, 0);
	cur_get(in, "net.ipv4.tcp_rmem", 3, &c.rmem);
	cur_get(in, "net.ipv4.tcp_wmem", 3, &c.wmem);
	cur_get(in, "net.core.rmem_max", 1, &c.rmax);
	cur_get(in, "net.core.wmem_max", 1, &c.wmax);
	cur_get(in, "net.ipv4.tcp_moderate_rcvbuf", 1, &c.moderate);
	moderate = c.moderate.v[0] != 0;
	need_r = ceil_ll((double)r->window / r->rcv_ratio);
	/*
	 * A tcp_wmem[2] that lets the window through at its cap is enough;
	 * one that does not is raised to what autotuning plans for.
	 */
	need_w = ceil_ll((double)r->window / r->snd_ratio);
	/* tcp_rmem and tcp_wmem are ints (proc_dointvec_minmax) */
	/* as tcp_wmem below: enough as it is, or raised with headroom */
	rmem = c.rmem.v[2] >= need_r ? c.rmem.v[2] : raise_to(c.rmem.v[2],
	    ceil_ll((double)r->window / r->rcv_size_ratio), INT_MAX);
	wmem = c.wmem.v[2] >= need_w ? c.wmem.v[2] : raise_to(c.wmem.v[2],
	    ceil_ll((double)r->window / r->snd_size_ratio), INT_MAX);
	linux_rows(r, &c, rmem, wmem, need_r, need_w);
	dir_eval(&r->now_rcv, r, linux_rcv_buffer(&c, c.rmem.v[2], moderate),
	    r->rcv_ratio, moderate ? "net.ipv4.tcp_rmem" :
	    "net.ipv4.tcp_moderate_rcvbuf");
	dir_eval(&r->now_snd, r, c.wmem.v[2], r->snd_ratio,
	    "net.ipv4.tcp_wmem");
	dir_eval(&r->rec_rcv, r, rmem, r->rcv_ratio, "net.ipv4.tcp_rmem");
	dir_eval(&r->rec_snd, r, wmem, r->snd_ratio, "net.ipv4.tcp_wmem");
	note(r, NOTE_LINUX_NAMESPACE, 0, 0, 0);
}

/*
 * The maxsockbuf a BSD needs: 9/8 of the largest buffer autotuning may
 * try to reach, so that it gets there.  A buffer left as it was counts
 * only for what the path needs of it: its own headroom is no reason to
 * change anything when the path is already served.
 */
static long long
bsd_sb_target(long long rbuf, long long sbuf, const struct cur *rcur,
    const struct cur *scur, long long need, bool whole)
{
	long long	r = rbuf != rcur->v[0] ? rbuf : min_ll(rbuf, need);
	long long	s = sbuf != scur->v[0] ? sbuf : min_ll(sbuf, need);

	return sb_max_holding(max_ll(r, s), whole);
}

/* ---- macOS */

/*
 * The pools of each class of RAM come from the catalogue's one table of
 * RAM by xnu release (lib/catalogue.c, xnu_mem: ncl_table, tcp_init).
 */

/* Whether row m is of Darwin major darwin (0: the newest). */
static bool
xnu_row_of(const struct cat_xnu_mem *m, int darwin)
{
	const struct cat_xnu_mem	*any = catalogue_xnu_mem(darwin, 0);

	return m->from == any->from && m->to == any->to;
}

/* The RAM that gives a pool of ncl clusters: [min, max) GB, max 0 none. */
static void
xnu_ram_class(int darwin, long long ncl, int *min_gb, int *max_gb)
{
	const struct cat_xnu_mem	*m, *next;
	size_t				 i;

	*min_gb = -1;
	*max_gb = 0;
	for (i = 0; (m = catalogue_xnu_mem_at(i)) != NULL; i++) {
		if (!xnu_row_of(m, darwin) || m->pool >> XNU_MCLSHIFT != ncl)
			continue;
		*min_gb = m->min_gb;
		next = catalogue_xnu_mem_at(i + 1);
		if (next != NULL && xnu_row_of(next, darwin))
			*max_gb = next->min_gb;
	}
}

/* The least RAM, in GB, whose ceiling holds a buffer of buf; 0: none. */
static int
xnu_ram_for(int darwin, long long buf, bool whole)
{
	const struct cat_xnu_mem	*m;
	size_t				 i;

	for (i = 0; (m = catalogue_xnu_mem_at(i)) != NULL; i++)
		if (xnu_row_of(m, darwin) && sb_usable(xnu_high_sb_max(m->pool >>
		    XNU_MCLSHIFT), whole) >= buf)
			return m->min_gb > 0 ? m->min_gb : 1;
	return 0;
}

struct darwin_cur {
	struct cur	sb, ncl, rbuf, sbuf, rspace, sspace, autorcv, mem;
	long long	high;		/* the most maxsockbuf takes here */
	bool		ncl_derived;	/* from hw.memsize, not read */
	bool		release_known;	/* kernel.osrelease was read or given */
};

static void
darwin_cur_get(const struct adv_input *in, struct darwin_cur *c)
{
	memset(c, 0, sizeof(*c));
	cur_get(in, "kern.ipc.maxsockbuf", 1, &c->sb);
	cur_get(in, "net.inet.tcp.autorcvbufmax", 1, &c->rbuf);
	cur_get(in, "net.inet.tcp.autosndbufmax", 1, &c->sbuf);
	cur_get(in, "net.inet.tcp.recvspace", 1, &c->rspace);
	cur_get(in, "net.inet.tcp.sendspace", 1, &c->sspace);
	cur_get(in, "net.inet.tcp.doautorcvbuf", 1, &c->autorcv);
	cur_get(in, "hw.memsize", 1, &c->mem);
	cur_get(in, "kern.ipc.nmbclusters", 1, &c->ncl);
	if (c->ncl.v[0] <= 0) {		/* no stock value: from RAM */
		c->ncl.v[0] = catalogue_xnu_mem(darwin_major(in),
		    c->mem.v[0])->pool >> XNU_MCLSHIFT;
		snprintf(c->ncl.text, sizeof(c->ncl.text), "%lld",
		    c->ncl.v[0]);
		c->ncl_derived = true;
	}
	c->high = xnu_high_sb_max(c->ncl.v[0]);
}

/* macOS 14.4 and later unless kernel.osrelease says older. */
static bool
darwin_whole(const struct adv_input *in, struct darwin_cur *c,
    struct adv_result *r)
{
	const char	*rel = adv_input_get(in, "kernel.osrelease");
	int		 whole = xnu_whole_sb_max(rel);

	c->release_known = whole != -1;
	snprintf(r->kernel, sizeof(r->kernel), "macOS%s%s",
	    c->release_known ? ", Darwin " : "", c->release_known ? rel : "");
	return whole != 0;
}

/*
 * One direction on a BSD: the socket's ceiling is the autotuning maximum,
 * within what maxsockbuf lets a buffer have (all of it on macOS 14.4 and
 * later, 8/9 of it before and on FreeBSD), and the window is all of it.
 */
static void
bsd_dir(struct adv_dir *d, const struct adv_result *r, long long automax,
    long long sb, const char *autoname)
{
	long long	adj = sb_usable(sb, r->sb_whole);

	dir_eval(d, r, min_ll(automax, adj), 1.0, automax <= adj ? autoname :
	    "kern.ipc.maxsockbuf");
}

/*
 * The autotuning ceilings and switch that xnu and FreeBSD both have, each
 * under its own names.
 */
struct autotune_names {
	const char	*rbuf, *sbuf, *autorcv;
};

static const struct autotune_names darwin_autotune = {
	"net.inet.tcp.autorcvbufmax", "net.inet.tcp.autosndbufmax",
	"net.inet.tcp.doautorcvbuf"
};
static const struct autotune_names freebsd_autotune = {
	"net.inet.tcp.recvbuf_max", "net.inet.tcp.sendbuf_max",
	"net.inet.tcp.recvbuf_auto"
};

static void
autotune_rows(struct adv_result *r, const struct autotune_names *n,
    const struct cur *rcur, const struct cur *scur, const struct cur *autorcv,
    long long rbuf, long long sbuf)
{
	struct adv_key	*k;

	k = add_key(r, n->rbuf, ROLE_CEILING, rcur);
	key_scalar(k, rbuf, r->window);
	k->why = WHY_BSD_AUTORCV;
	k = add_key(r, n->sbuf, ROLE_CEILING, scur);
	key_scalar(k, sbuf, r->window);
	k->why = WHY_BSD_AUTOSND;
	if (autorcv->v[0] == 0) {
		k = add_key(r, n->autorcv, ROLE_SWITCH, autorcv);
		key_scalar(k, 1, 1);
		k->why = WHY_BSD_AUTORCV_OFF;
	}
}

static void
darwin_rows(struct adv_result *r, const struct darwin_cur *c, long long sb,
    long long rbuf, long long sbuf)
{
	struct adv_key	*k;

	k = add_key(r, "kern.ipc.maxsockbuf", ROLE_CEILING, &c->sb);
	key_scalar(k, sb, sb_max_holding(r->window, r->sb_whole));
	k->clamp = true;
	k->why = WHY_XNU_MAXSOCKBUF;
	autotune_rows(r, &darwin_autotune, &c->rbuf, &c->sbuf, &c->autorcv,
	    rbuf, sbuf);
	k = add_key(r, "kern.ipc.nmbclusters", ROLE_INFO, &c->ncl);
	key_scalar(k, c->ncl.v[0], 0);
	k->why = WHY_XNU_NMBCLUSTERS;
	k = add_key(r, "net.inet.tcp.recvspace", ROLE_INFO, &c->rspace);
	key_scalar(k, c->rspace.v[0], 0);
	k->why = WHY_XNU_RECVSPACE;
	k = add_key(r, "net.inet.tcp.sendspace", ROLE_INFO, &c->sspace);
	key_scalar(k, c->sspace.v[0], 0);
	k->why = WHY_XNU_SENDSPACE;
}

static void
darwin_notes(struct adv_result *r, const struct darwin_cur *c)
{
	if (c->ncl_derived)
		note(r, NOTE_XNU_NCL_DERIVED, c->ncl.v[0], c->mem.v[0],
		    c->mem.assumed);
	note(r, NOTE_XNU_CEILING, 0, 0, 0);
	if (r->sb_whole)
		note(r, NOTE_XNU_WHOLE, c->release_known, 0, 0);
	else
		note(r, NOTE_XNU_HEADROOM, 0, 0, 0);
	note(r, NOTE_XNU_SHIPPED, 0, 0, 0);
}

static void
darwin_model(const struct adv_input *in, struct adv_result *r)
{
	struct darwin_cur c;
	long long	  rbuf, sbuf, sb;

	r->rcv_ratio = r->rcv_size_ratio = 1.0;
	r->snd_ratio = r->snd_size_ratio = 1.0;
	darwin_cur_get(in, &c);
	r->sb_whole = darwin_whole(in, &c, r);
	r->ncl = c.ncl.v[0];
	r->sb_cap = c.high;
	xnu_ram_class(darwin_major(in), r->ncl, &r->pool_min_gb,
	    &r->pool_max_gb);
	r->ram_for_window = xnu_ram_for(darwin_major(in), r->window,
	    r->sb_whole);
	rbuf = raise_to(c.rbuf.v[0], r->window, INT_MAX);
	sbuf = raise_to(c.sbuf.v[0], r->window, INT_MAX);
	sb = raise_to(c.sb.v[0], bsd_sb_target(rbuf, sbuf, &c.rbuf, &c.sbuf,
	    r->window, r->sb_whole), UINT_MAX);
	/*
	 * sysctl_sb_max refuses more than c.high.  The autotuning ceilings
	 * still get what the path needs, as the shipped config and the
	 * README's values do (32 MiB beside a 16 MiB maxsockbuf): xnu takes
	 * any int there and holds each socket to the smaller of the two
	 * (etc/tcptune.conf.darwin), so they cost nothing and serve in full
	 * on a Mac whose pool allows more.
	 */
	if (sb > c.high)
		sb = max_ll(c.sb.v[0], c.high);
	darwin_rows(r, &c, sb, rbuf, sbuf);
	if (c.autorcv.v[0] != 0)
		bsd_dir(&r->now_rcv, r, c.rbuf.v[0], c.sb.v[0],
		    "net.inet.tcp.autorcvbufmax");
	else
		bsd_dir(&r->now_rcv, r, c.rspace.v[0], c.sb.v[0],
		    "net.inet.tcp.doautorcvbuf");
	bsd_dir(&r->now_snd, r, c.sbuf.v[0], c.sb.v[0],
	    "net.inet.tcp.autosndbufmax");
	bsd_dir(&r->rec_rcv, r, rbuf, sb, "net.inet.tcp.autorcvbufmax");
	bsd_dir(&r->rec_snd, r, sbuf, sb, "net.inet.tcp.autosndbufmax");
	darwin_notes(r, &c);
}

/* ---- FreeBSD */

struct freebsd_cur {
	struct cur	sb, rbuf, sbuf, autorcv, rspace;
};

static void
freebsd_rows(struct adv_result *r, const struct freebsd_cur *c,
    long long sb, long long rbuf, long long sbuf)
{
	struct adv_key	*k;

	k = add_key(r, "kern.ipc.maxsockbuf", ROLE_CEILING, &c->sb);
	key_scalar(k, sb, bsd_sb_max_for(r->window));
	k->why = WHY_FREEBSD_MAXSOCKBUF;
	autotune_rows(r, &freebsd_autotune, &c->rbuf, &c->sbuf, &c->autorcv,
	    rbuf, sbuf);
}

static void
freebsd_model(const struct adv_input *in, struct adv_result *r)
{
	struct freebsd_cur c;
	long long	   rbuf, sbuf, sb;

	snprintf(r->kernel, sizeof(r->kernel), "FreeBSD");
	r->rcv_ratio = r->rcv_size_ratio = 1.0;
	r->snd_ratio = r->snd_size_ratio = 1.0;
	cur_get(in, "kern.ipc.maxsockbuf", 1, &c.sb);
	cur_get(in, "net.inet.tcp.recvbuf_max", 1, &c.rbuf);
	cur_get(in, "net.inet.tcp.sendbuf_max", 1, &c.sbuf);
	cur_get(in, "net.inet.tcp.recvbuf_auto", 1, &c.autorcv);
	cur_get(in, "net.inet.tcp.recvspace", 1, &c.rspace);
	rbuf = raise_to(c.rbuf.v[0], r->window, INT_MAX);
	sbuf = raise_to(c.sbuf.v[0], r->window, INT_MAX);
	/* u_long: the headroom rule is the only limit */
	sb = raise_to(c.sb.v[0], bsd_sb_target(rbuf, sbuf, &c.rbuf, &c.sbuf,
	    r->window, false), 1LL << 62);
	freebsd_rows(r, &c, sb, rbuf, sbuf);
	if (c.autorcv.v[0] != 0)
		bsd_dir(&r->now_rcv, r, c.rbuf.v[0], c.sb.v[0],
		    "net.inet.tcp.recvbuf_max");
	else
		bsd_dir(&r->now_rcv, r, c.rspace.v[0], c.sb.v[0],
		    "net.inet.tcp.recvbuf_auto");
	bsd_dir(&r->now_snd, r, c.sbuf.v[0], c.sb.v[0],
	    "net.inet.tcp.sendbuf_max");
	bsd_dir(&r->rec_rcv, r, rbuf, sb, "net.inet.tcp.recvbuf_max");
	bsd_dir(&r->rec_snd, r, sbuf, sb, "net.inet.tcp.sendbuf_max");
	note(r, NOTE_FREEBSD_HEADROOM, 0, 0, 0);
	note(r, NOTE_FREEBSD_VNET, 0, 0, 0);
}

/* ---- Windows */

int
adv_win_levels(void)
{
	const char *const	*levels = catalogue_win_levels();
	int			 n = 0;

	while (levels[n] != NULL)
		n++;
	return n;
}

const char *
adv_win_level_name(int level)
{
	return level >= 0 && level < adv_win_levels() ?
	    catalogue_win_levels()[level] : "?";
}

/* The window scale a level offers, -1 for none. */
int
adv_win_level_scale(int level)
{
	return level >= 0 ? catalogue_win_level_scale((size_t)level) : -1;
}

/* The largest receive window a level lets a connection have. */
long long
adv_win_level_window(int level)
{
	int	scale = adv_win_level_scale(level);

	return scale < 0 ? TCP_MAXWIN : TCP_MAXWIN << scale;
}

/* A Windows key's word as read or given, else the stock one (assumed). */
static void
word_get(const struct adv_input *in, const char *name, struct cur *c)
{
	const char	*text = adv_input_get(in, name);
	const char	*word = text != NULL ? adv_key_word(name, text) : NULL;

	memset(c, 0, sizeof(*c));
	if (word != NULL)
		c->given = adv_input_given(in, name);
	else {
		c->assumed = true;
		word = stock_value(in, name);
	}
	tt_strlcpy(c->text, word != NULL ? word : "", sizeof(c->text));
}

/* The level of a word from word_get (one of the names): normal else. */
static int
win_level_of(const char *word)
{
	int	level = win_level_find(word);

	return level < 0 ? WIN_NORMAL : level;
}

/* The least level whose window holds need, or -1. */
static int
win_least_level(long long need)
{
	int	i;

	for (i = 0; i < adv_win_levels(); i++)
		if (adv_win_level_window(i) >= need)
			return i;
	return -1;
}

/*
 * The level to recommend: normal, Microsoft's default, whatever the path
 * (a level below it is raised), or experimental when that is the level
 * already (read, or asked for with --set): never lowered, never proposed.
 * netsh's own help for "set global autotuninglevel" warns of experimental:
 * "This can dramatically degrade performance in common scenarios and
 * should only be used for research purposes" (netsh interface tcp set
 * global /?, quoted at
 * https://www.aip.im/2012/10/how-to-disable-receive-window-auto-tuning-level/).
 */
static int
win_recommend(int cur)
{
	return cur > WIN_NORMAL ? cur : WIN_NORMAL;
}

static void
key_word(struct adv_key *k, const char *rec, long long needed)
{
	tt_strlcpy(k->recommended, rec, sizeof(k->recommended));
	k->needed = needed;
	k->change = k->current[0] == '\0' ||
	    strcmp(k->current, k->recommended) != 0;
}

struct win_cur {
	struct cur	level, rss, rsc, ts, heuristics, qos;
};

static void
windows_rows(struct adv_result *r, const struct win_cur *c)
{
	struct adv_key	*k;

	k = add_key(r, "tcp.autotuninglevel", ROLE_CEILING, &c->level);
	key_word(k, adv_win_level_name(r->win_rec), r->window);
	k->why = WHY_WIN_AUTOTUNING;
	k = add_key(r, "offload.rss", ROLE_SWITCH, &c->rss);
	key_word(k, "enabled", 0);
	k->why = WHY_WIN_RSS;
	/* read only: shown, and flagged below, never written */
	k = add_key(r, "offload.rsc", ROLE_INFO, &c->rsc);
	key_word(k, c->rsc.text, 0);
	k->why = WHY_WIN_RSC;
	k = add_key(r, "tcp.timestamps", ROLE_INFO, &c->ts);
	key_word(k, c->ts.text, 0);
	k->why = WHY_WIN_TIMESTAMPS;
}

static void
windows_notes(struct adv_result *r, const struct win_cur *c)
{
	note(r, NOTE_WIN_LEVELS, r->win_level, r->win_least, r->win_rec);
	if (r->win_level < WIN_NORMAL)
		note(r, NOTE_WIN_REDUCED, r->win_level, 0, 0);
	if (r->win_rec > WIN_NORMAL || r->win_least > WIN_NORMAL ||
	    r->win_least < 0)
		note(r, NOTE_WIN_EXPERIMENTAL, r->win_rec > WIN_NORMAL, 0, 0);
	note(r, NOTE_WIN_SEND, 0, 0, 0);
	if (strcmp(c->rss.text, "disabled") == 0)
		note(r, NOTE_WIN_RSS_OFF, 0, 0, 0);
	if (strcmp(c->rsc.text, "disabled") == 0)
		note(r, NOTE_WIN_RSC_OFF, 0, 0, 0);
	if (strcmp(c->ts.text, "enabled") != 0)
		note(r, NOTE_WIN_TIMESTAMPS_OFF,
		    strcmp(c->ts.text, "allowed") == 0 ? 2 : 0, 0, 0);
	if (strcmp(c->heuristics.text, "enabled") == 0)
		note(r, NOTE_WIN_HEURISTICS_ON, 0, 0, 0);
	if (c->qos.text[0] != '\0' && strcmp(c->qos.text, "notconfigured") != 0)
		note(r, NOTE_WIN_QOS_POLICY, 0, 0, 0);
}

/*
 * The receiving side is bounded by the level; nothing tcptune holds bounds
 * the sending side, so it is evaluated at the window the path needs (the
 * TCP window limit still applies).
 */
static void
windows_model(const struct adv_input *in, struct adv_result *r)
{
	struct win_cur	c;

	snprintf(r->kernel, sizeof(r->kernel), "Windows");
	r->rcv_ratio = r->rcv_size_ratio = 1.0;
	r->snd_ratio = r->snd_size_ratio = 1.0;
	word_get(in, "tcp.autotuninglevel", &c.level);
	word_get(in, "offload.rss", &c.rss);
	word_get(in, "offload.rsc", &c.rsc);
	word_get(in, "tcp.timestamps", &c.ts);
	word_get(in, "tcp.scalingheuristics", &c.heuristics);
	word_get(in, "qos.tcpautotuninglevel", &c.qos);
	/* one word, as backend_win.c reads it: "Not Configured" sets nothing */
	if (c.qos.text[0] != '\0' &&
	    value_policy_word(c.qos.text, c.qos.text, sizeof(c.qos.text)) == -1)
		c.qos.text[0] = '\0';
	r->win_level = win_level_of(c.level.text);
	r->win_least = win_least_level(r->window);
	r->win_rec = win_recommend(r->win_level);
	windows_rows(r, &c);
	dir_eval(&r->now_rcv, r, adv_win_level_window(r->win_level), 1.0,
	    "tcp.autotuninglevel");
	dir_eval(&r->rec_rcv, r, adv_win_level_window(r->win_rec), 1.0,
	    "tcp.autotuninglevel");
	dir_eval(&r->now_snd, r, r->window, 1.0, NULL);
	r->rec_snd = r->now_snd;
	windows_notes(r, &c);
}

/* ---- the verdict (its words are in advise_words.c) */

/*
 * Windows: RSS off, or a level below normal that this path happens not
 * to feel, is still advice to change (the tuning guide's, see above).
 */
static bool
switch_off(const struct adv_result *r)
{
	size_t	i;

	if (r->os != TT_OS_WINDOWS)	/* elsewhere a switch holds a rate */
		return false;
	for (i = 0; i < r->nkeys; i++)
		if (r->keys[i].role != ROLE_INFO && r->keys[i].change)
			return true;
	return false;
}

static void
verdict(struct adv_result *r)
{
	double	best = r->rec_rcv.rate < r->rec_snd.rate ? r->rec_rcv.rate :
	    r->rec_snd.rate;

	r->streams = 1;
	if (!dir_held(&r->now_rcv) && !dir_held(&r->now_snd) &&
	    !switch_off(r))
		r->verdict = VERDICT_OK;
	else if (!dir_held(&r->rec_rcv) && !dir_held(&r->rec_snd))
		r->verdict = VERDICT_TUNE;
	else {
		r->verdict = VERDICT_CAPPED;
		r->streams = best > 0 ? (int)ceil_ll(r->rate / best) : 0;
	}
}

const char *
adv_verdict_name(enum adv_verdict v)
{
	switch (v) {
	case VERDICT_OK:
		return "ok";
	case VERDICT_TUNE:
		return "tune";
	case VERDICT_CAPPED:
		return "capped";
	}
	return "?";
}

/*
 * The advice for a path on a platform: the bandwidth-delay product, the
 * window one stream needs, the current and the recommended ceilings, and
 * what one stream reaches with each.
 */
void
adv_model(const struct adv_input *in, struct adv_result *r)
{
	memset(r, 0, sizeof(*r));
	r->os = in->os;
	r->rate = in->rate;
	r->rtt = in->rtt;
	r->live = in->live;
	r->bdp = in->rate / 8 * in->rtt;
	r->window = min_ll(ceil_ll(r->bdp), ADV_MAX_WINDOW);
	switch (in->os) {
	case TT_OS_DARWIN:
		darwin_model(in, r);
		break;
	case TT_OS_FREEBSD:
		freebsd_model(in, r);
		break;
	case TT_OS_WINDOWS:
		windows_model(in, r);
		break;
	default:
		linux_model(in, r);
		break;
	}
	common_notes(in, r);
	verdict(r);
}
