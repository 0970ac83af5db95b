/*
 * The catalogue: every key tcptune knows, per OS, in one table.  check and
 * the daemon's config reader refuse, with the fix, what cannot apply: a
 * key of another OS, a near miss of a known one, the wrong number of
 * numbers, a word not in the list, a number out of range.  Keys in no
 * catalogue stay possible (AllowAnySysctl, or any net.* a kernel has).
 *
 * The ranges are each integer's sane range: the kernel's own bound where
 * it has one (cited), else what its type holds.  Sources:
 *   Linux: net/core/sysctl_net_core.c (rmem_max, wmem_max, *_default:
 *     proc_dointvec_minmax, extra1 min_rcvbuf/min_sndbuf, an int, else
 *     EINVAL), include/net/sock.h (SOCK_MIN_RCVBUF TCP_SKB_MIN_TRUESIZE,
 *     2048 + SKB_DATA_ALIGN(sizeof(struct sk_buff)); SOCK_MIN_SNDBUF
 *     twice that; torvalds/linux master: see LINUX_MIN_RCVBUF below),
 *     net/ipv4/sysctl_net_ipv4.c (tcp_rmem, tcp_wmem: int[3], extra1
 *     SYSCTL_ONE; tcp_adv_win_scale -31..31; tcp_mem: unsigned long[3]),
 *     Documentation/networking/ip-sysctl.rst.
 *   macOS: xnu_facts below, per release (apple-oss-distributions/xnu,
 *     read at xnu-6153.141.1, 7195.141.2, 8020.140.41, 8796.141.3,
 *     10002.81.5, 10063.141.1, 11215.81.4 and 11417.121.6; rfc1323 also
 *     back to xnu-2782).  The skmem ints (autorcvbufmax, autosndbufmax,
 *     autosndbufinc, doautorcvbuf, sack) have format "I": a signed int.
 *   FreeBSD: sys/kern/uipc_sockbuf.c sysctl_handle_sb_max (at least
 *     MSIZE + MCLBYTES, 2304, else EINVAL), sys/netinet/tcp_input.c
 *     (recvspace, recvbuf_max) and tcp_output.c (sendspace, sendbuf_max,
 *     sendbuf_inc): each a VNET int under SYSCTL_INT, so at most INT_MAX
 *     (freebsd/freebsd-src, read at 00786ca6 and a later stored copy).
 *   Windows: backend_win.c's keys and words (MSFT_NetTCPSetting).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalogue.h"
#include "tcptune.h"

#define L	TT_OS_BIT(TT_OS_LINUX)
#define D	TT_OS_BIT(TT_OS_DARWIN)
#define F	TT_OS_BIT(TT_OS_FREEBSD)
#define W	TT_OS_BIT(TT_OS_WINDOWS)
#define INT_TOP		2147483647LL		/* a C int sysctl */
#define MIB		(1024LL * 1024)
#define U32_TOP		4294967295LL		/* a u_int32_t one */
#define SWITCH		CAT_COUNT, 0, 1		/* 0 or 1 */
/*
 * Linux's least rmem_* and wmem_* (SOCK_MIN_RCVBUF, SOCK_MIN_SNDBUF):
 * 2048 + sizeof(struct sk_buff) rounded up to SMP_CACHE_BYTES, 2304 on
 * x86-64, and twice that, 4608.  Seen on x86-64 Linux 6.18: a socket
 * asking SO_RCVBUF 1 and SO_SNDBUF 1 gets 2304 and 4608 (net/core/sock.c
 * clamps to these).  Below them proc_dointvec_minmax refuses the write
 * with EINVAL.  The struct's size follows the architecture and options.
 */
#define LINUX_MIN_RCVBUF	2304LL
#define LINUX_MIN_SNDBUF	(2 * LINUX_MIN_RCVBUF)
/* A key name ending in '.' is a family: "tcp.congestionprovider.NAME". */
#define FAMILY_END	'.'

/*
 * Windows' receive window auto-tuning levels, in the codes of
 * MSFT_NetTCPSetting.AutoTuningLevelLocal (0 Disabled to 4 Experimental),
 * and the window scale each offers in the SYN, -1 for none: Microsoft's
 * "Autotuning levels" table, https://learn.microsoft.com/en-us/
 * windows-server/networking/technologies/network-subsystem/
 * net-sub-performance-tuning-nics#autotuning-levels (docs/DESIGN.md §3
 * Windows).  The one list of the level words: the backend, check,
 * advise and the daemon's reading of connections take them from here.
 */
static const char *const win_levels[] = {
	"disabled", "highlyrestricted", "restricted", "normal",
	"experimental", NULL
};
static const int win_level_scales[] = { -1, 2, 4, 8, 14 };
_Static_assert(NITEMS(win_levels) == NITEMS(win_level_scales) + 1,
    "a window scale for each auto-tuning level");
static const char *const win_onoff[] = { "enabled", "disabled", NULL };
static const char *const win_ts[] = { "disabled", "enabled", "allowed", NULL };
/*
 * MSFT_NetTCPSetting.CongestionProvider's words, in code order (as
 * lib/backend_win.c reads them): Microsoft documents only default, ctcp
 * and dctcp (Set-NetTCPSetting); newreno, ledbat and cubic are not
 * documented by Microsoft, their codes taken from published
 * Get-NetTCPSetting output.
 */
static const char *const win_providers[] = {
	"default", "newreno", "ctcp", "dctcp", "ledbat", "cubic", NULL
};
/* A uint8 switch of the NetTCPIP provider's classes: 0 Disabled, 1 Enabled. */
static const char *const win_switch_codes[] = { "disabled", "enabled", NULL };

/*
 * The Windows keys as lib/backend_win.c serves them, one row each: the
 * words of the CIM property behind a key in the order of its codes (NULL:
 * a value that is no code) and whether tcptune writes it; a name ending
 * in '.' is a family, "tcp.congestionprovider.<template>".  The codes
 * are Microsoft's, from the NetTCPIP provider's class pages (MicrosoftDocs
 * win32, desktop-src/FWP/wmi/nettcpipprov/msft-nettcpsetting.md and
 * msft-netoffloadglobalsetting.md; backend_win.c quotes them):
 * AutoTuningLevelLocal is win_levels; ReceiveSideScaling,
 * ReceiveSegmentCoalescing and ScalingHeuristics 0 Disabled, 1 Enabled;
 * Timestamps 0 Disabled, 1 Enabled, 2 Allowed; CongestionProvider
 * win_providers.  The backend reads and writes its words here, and its
 * "not a Windows key" lists these rows, writable first.
 */
static const struct cat_win_key win_keys[] = {
	{ "tcp.autotuninglevel", win_levels, true },
	{ "offload.rss", win_switch_codes, true },
	{ "tcp.congestionprovider.", win_providers, false },
	{ "tcp.timestamps", win_ts, false },
	{ "tcp.scalingheuristics", win_switch_codes, false },
	{ "qos.tcpautotuninglevel", NULL, false },
	{ "offload.rsc", win_switch_codes, false },
};

/* Linux, macOS, FreeBSD, Windows: the nearest key on each. */
#define NEAR(l, d, f, w)	{ l, d, f, w }
/*
 * The order of writes (plan.c): a ceiling before the keys it caps when
 * raising, after them when restoring.  macOS: sendspace/recvspace above
 * sb_max give ERANGE (bsd/netinet/tcp_usrreq.c, sysctl_tcp_sospace), so
 * maxsockbuf goes first; autoXbufmax are accepted unchecked and capped
 * per socket at sb_max later (tcp_input.c, tcp_output.c, sbreserve in
 * uipc_socket2.c).  FreeBSD: buffers above sb_max_adj fail
 * (sys/kern/uipc_sockbuf.c).  Linux: rmem_max/wmem_max bound
 * SO_RCVBUF/SO_SNDBUF, not the autotuning ceilings in tcp_rmem/tcp_wmem;
 * they go first anyway so a reader never sees the per-socket limit below
 * the auto one.
 */
#define CEILING			0, NULL
#define ANY_ORDER		1, NULL
#define CAPPED_BY_MAXSOCKBUF	1, "kern.ipc.maxsockbuf"

static const struct cat_key keys[] = {
	/* ---- Linux */
	{ "net.core.rmem_max", L, 1, NULL, NULL, CAT_BYTES,
	    LINUX_MIN_RCVBUF, INT_TOP,
	    NULL, "the largest receive buffer SO_RCVBUF may ask for",
	    NEAR(NULL, "kern.ipc.maxsockbuf", "kern.ipc.maxsockbuf",
	    "tcp.autotuninglevel"), CEILING },
	{ "net.core.wmem_max", L, 1, NULL, NULL, CAT_BYTES,
	    LINUX_MIN_SNDBUF, INT_TOP,
	    NULL, "the largest send buffer SO_SNDBUF may ask for",
	    NEAR(NULL, "kern.ipc.maxsockbuf", "kern.ipc.maxsockbuf", NULL),
	    CEILING },
	{ "net.core.rmem_default", L, 1, NULL, NULL, CAT_BYTES,
	    LINUX_MIN_RCVBUF, INT_TOP, NULL,
	    "a new socket's receive buffer (not TCP's)",
	    NEAR(NULL, "net.inet.tcp.recvspace", "net.inet.tcp.recvspace",
	    NULL), ANY_ORDER },
	{ "net.core.wmem_default", L, 1, NULL, NULL, CAT_BYTES,
	    LINUX_MIN_SNDBUF, INT_TOP, NULL,
	    "a new socket's send buffer (not TCP's)",
	    NEAR(NULL, "net.inet.tcp.sendspace", "net.inet.tcp.sendspace",
	    NULL), ANY_ORDER },
	{ "net.ipv4.tcp_rmem", L, 3, "min default max", NULL, CAT_BYTES, 1,
	    INT_TOP, NULL, "TCP receive buffer: least, start, autotuning's "
	    "most",
	    NEAR(NULL, "net.inet.tcp.autorcvbufmax",
	    "net.inet.tcp.recvbuf_max", "tcp.autotuninglevel"), ANY_ORDER },
	{ "net.ipv4.tcp_wmem", L, 3, "min default max", NULL, CAT_BYTES, 1,
	    INT_TOP, NULL, "TCP send buffer: least, start, autotuning's most",
	    NEAR(NULL, "net.inet.tcp.autosndbufmax",
	    "net.inet.tcp.sendbuf_max", NULL), ANY_ORDER },
	{ "net.ipv4.tcp_mem", L, 3, "low pressure high", NULL, CAT_COUNT, 1,
	    LLONG_MAX, NULL, "all TCP sockets' memory, in pages",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "net.ipv4.tcp_adv_win_scale", L, 1, NULL, NULL, CAT_COUNT, -31, 31,
	    NULL, "how much of the buffer is window, not overhead",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "net.ipv4.tcp_moderate_rcvbuf", L, 1, NULL, NULL, SWITCH, NULL,
	    "receive buffer autotuning on (1) or off (0)",
	    NEAR(NULL, "net.inet.tcp.doautorcvbuf",
	    "net.inet.tcp.recvbuf_auto", "tcp.autotuninglevel"), ANY_ORDER },
	{ "net.ipv4.tcp_window_scaling", L, 1, NULL, NULL, SWITCH, NULL,
	    "RFC 7323 window scaling, needed past 64 KiB",
	    NEAR(NULL, "net.inet.tcp.rfc1323", "net.inet.tcp.rfc1323",
	    "tcp.autotuninglevel"), ANY_ORDER },
	{ "net.ipv4.tcp_timestamps", L, 1, NULL, NULL, CAT_COUNT, 0, 2, NULL,
	    "RFC 7323 timestamps: 0 off, 1 on, 2 on without random offset",
	    NEAR(NULL, "net.inet.tcp.rfc1323", "net.inet.tcp.rfc1323",
	    "tcp.timestamps"), ANY_ORDER },
	{ "net.ipv4.tcp_sack", L, 1, NULL, NULL, SWITCH, NULL,
	    "selective acknowledgements",
	    NEAR(NULL, "net.inet.tcp.sack", "net.inet.tcp.sack.enable",
	    NULL), ANY_ORDER },
	{ "net.ipv4.tcp_mtu_probing", L, 1, NULL, NULL, CAT_COUNT, 0, 2, NULL,
	    "packetization-layer path MTU discovery: 0 off, 1 on black "
	    "holes, 2 always",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "net.ipv4.tcp_slow_start_after_idle", L, 1, NULL, NULL, SWITCH,
	    NULL, "restart slow start after an idle period",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "net.ipv4.tcp_congestion_control", L, 0, NULL, NULL, CAT_WORD, 0,
	    0, NULL, "the congestion control of new connections (a loaded "
	    "module: cubic, bbr, ...)",
	    NEAR(NULL, NULL, "net.inet.tcp.cc.algorithm",
	    "tcp.congestionprovider.internet"), ANY_ORDER },
	{ "net.core.default_qdisc", L, 0, NULL, NULL, CAT_WORD, 0, 0, NULL,
	    "the queueing discipline of new interfaces (fq for BBR pacing)",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "net.core.netdev_max_backlog", L, 1, NULL, NULL, CAT_COUNT, 1,
	    INT_TOP, NULL, "packets queued per CPU before the stack takes "
	    "them",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	/* ---- macOS and FreeBSD */
	/* 2304: FreeBSD's least; xnu's (18433) is in xnu_facts. */
	{ "kern.ipc.maxsockbuf", D | F, 1, NULL, NULL, CAT_BYTES, 2304,
	    U32_TOP, "xnu-10063 (macOS 14.4): a buffer may use all of it; "
	    "before, and on FreeBSD, 8/9 of it",
	    "the largest socket buffer, the ceiling of every other",
	    NEAR("net.core.rmem_max", NULL, NULL, "tcp.autotuninglevel"),
	    CEILING },
	{ "net.inet.tcp.sendspace", D | F, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, "macOS takes at most 8/9 of kern.ipc.maxsockbuf up to "
	    "14.3 (xnu-10002), all of it from 14.4 (xnu-10063)",
	    "a new TCP socket's send buffer",
	    NEAR("net.ipv4.tcp_wmem", NULL, NULL, NULL), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.recvspace", D | F, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, "macOS takes at most 8/9 of kern.ipc.maxsockbuf up to "
	    "14.3 (xnu-10002), all of it from 14.4 (xnu-10063)",
	    "a new TCP socket's receive buffer",
	    NEAR("net.ipv4.tcp_rmem", NULL, NULL, NULL), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.rfc1323", D | F, 1, NULL, NULL, SWITCH,
	    "not on macOS 11 or later (xnu-7195 removed it), nor on a "
	    "release kernel of 10.11 to 10.15 (DEBUG kernels only)",
	    "RFC 7323 window scaling and timestamps",
	    NEAR("net.ipv4.tcp_window_scaling", NULL, NULL, NULL), ANY_ORDER },
	/* ---- macOS */
	{ "net.inet.tcp.autorcvbufmax", D, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, "stock 2 MiB, 4 MiB from 4 GB of RAM since macOS 11 "
	    "(xnu-7195), 8 MiB with serverperfmode since 15 (xnu-11215)",
	    "the most receive autotuning grows a buffer to",
	    NEAR("net.ipv4.tcp_rmem", NULL, "net.inet.tcp.recvbuf_max",
	    "tcp.autotuninglevel"), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.autosndbufmax", D, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, "stock 2 MiB, 4 MiB from 4 GB of RAM since macOS 11 "
	    "(xnu-7195), 8 MiB with serverperfmode since 15 (xnu-11215)",
	    "the most send autotuning grows a buffer to",
	    NEAR("net.ipv4.tcp_wmem", NULL, "net.inet.tcp.sendbuf_max",
	    NULL), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.autosndbufinc", D, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, "stock 8 KiB on macOS 10.15 to 15 (xnu-6153 to 11417)",
	    "the step of send autotuning (8 KiB stock)",
	    NEAR(NULL, NULL, "net.inet.tcp.sendbuf_inc", NULL), ANY_ORDER },
	{ "net.inet.tcp.doautorcvbuf", D, 1, NULL, NULL, SWITCH,
	    "stock 1; setting kern.ipc.soqlencomp turns it off",
	    "receive buffer autotuning on (1) or off (0)",
	    NEAR("net.ipv4.tcp_moderate_rcvbuf", NULL,
	    "net.inet.tcp.recvbuf_auto", "tcp.autotuninglevel"), ANY_ORDER },
	{ "net.inet.tcp.doautosndbuf", D, 1, NULL, NULL, SWITCH,
	    "not on macOS 11 or later (xnu-7195 removed it); 1 up to 10.15",
	    "send buffer autotuning on (1) or off (0)",
	    NEAR(NULL, NULL, "net.inet.tcp.sendbuf_auto", NULL), ANY_ORDER },
	{ "net.inet.tcp.sack", D, 1, NULL, NULL, SWITCH,
	    "stock 1 on macOS 10.15 to 15 (xnu-6153 to 11417)",
	    "selective acknowledgements",
	    NEAR("net.ipv4.tcp_sack", NULL, "net.inet.tcp.sack.enable",
	    NULL), ANY_ORDER },
	/* ---- FreeBSD */
	{ "net.inet.tcp.recvbuf_max", F, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, NULL, "the most receive autotuning grows a buffer to",
	    NEAR("net.ipv4.tcp_rmem", "net.inet.tcp.autorcvbufmax", NULL,
	    "tcp.autotuninglevel"), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.sendbuf_max", F, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, NULL, "the most send autotuning grows a buffer to",
	    NEAR("net.ipv4.tcp_wmem", "net.inet.tcp.autosndbufmax", NULL,
	    NULL), CAPPED_BY_MAXSOCKBUF },
	{ "net.inet.tcp.sendbuf_inc", F, 1, NULL, NULL, CAT_BYTES, 1,
	    INT_TOP, NULL, "the step of send autotuning",
	    NEAR(NULL, "net.inet.tcp.autosndbufinc", NULL, NULL), ANY_ORDER },
	{ "net.inet.tcp.recvbuf_auto", F, 1, NULL, NULL, SWITCH, NULL,
	    "receive buffer autotuning on (1) or off (0)",
	    NEAR("net.ipv4.tcp_moderate_rcvbuf", "net.inet.tcp.doautorcvbuf",
	    NULL, "tcp.autotuninglevel"), ANY_ORDER },
	{ "net.inet.tcp.sendbuf_auto", F, 1, NULL, NULL, SWITCH, NULL,
	    "send buffer autotuning on (1) or off (0)",
	    NEAR(NULL, "net.inet.tcp.doautosndbuf", NULL, NULL), ANY_ORDER },
	{ "net.inet.tcp.sack.enable", F, 1, NULL, NULL, SWITCH, NULL,
	    "selective acknowledgements",
	    NEAR("net.ipv4.tcp_sack", "net.inet.tcp.sack", NULL, NULL),
	    ANY_ORDER },
	{ "net.inet.tcp.cc.algorithm", F, 0, NULL, NULL, CAT_WORD, 0, 0, NULL,
	    "the congestion control of new connections (a loaded module)",
	    NEAR("net.ipv4.tcp_congestion_control", NULL, NULL,
	    "tcp.congestionprovider.internet"), ANY_ORDER },
	/* ---- Windows (backend_win.c) */
	{ "tcp.autotuninglevel", W, 0, NULL, win_levels, CAT_WORD, 0, 0,
	    NULL, "how far the receive window may grow (netsh "
	    "autotuninglevel)",
	    NEAR("net.ipv4.tcp_rmem", "net.inet.tcp.autorcvbufmax",
	    "net.inet.tcp.recvbuf_max", NULL), ANY_ORDER },
	{ "offload.rss", W, 0, NULL, win_onoff, CAT_WORD, 0, 0, NULL,
	    "receive side scaling: connections spread over CPUs",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "offload.rsc", W, 0, NULL, win_onoff, CAT_WORD, 0, 0, NULL,
	    "receive segment coalescing (read only)",
	    NEAR(NULL, NULL, NULL, NULL), ANY_ORDER },
	{ "tcp.timestamps", W, 0, NULL, win_ts, CAT_WORD, 0, 0, NULL,
	    "RFC 7323 timestamps (read only)",
	    NEAR("net.ipv4.tcp_timestamps", "net.inet.tcp.rfc1323",
	    "net.inet.tcp.rfc1323", NULL), ANY_ORDER },
	{ "tcp.congestionprovider.", W, 0, NULL, win_providers, CAT_WORD, 0,
	    0, NULL, "a TCP template's congestion control (read only)",
	    NEAR("net.ipv4.tcp_congestion_control", NULL,
	    "net.inet.tcp.cc.algorithm", NULL), ANY_ORDER },
};

/*
 * The macOS keys by xnu release: Darwin majors from, to (0: open), the
 * stock value without boot-args (a value that follows RAM is a CAT_XNU_
 * code, taken from xnu_mem below: maxsockbuf's is 8 MiB only from 8 GB,
 * autorcvbufmax's 4 MiB only from 4 GB), the handler's
 * bound when tighter than the table's.  Each note names its xnu file;
 * the tags are in the comment at the top.  nmbclusters is the mbuf
 * cluster pool (2 KiB each), sb_max kern.ipc.maxsockbuf.
 */
static const struct cat_xnu xnu_facts[] = {
	/*
	 * bsd/sys/socketvar.h SB_MAX, LOW_SB_MAX (2 * 9 * 1024 since
	 * xnu-1456); bsd/kern/uipc_socket2.c sysctl_sb_max; bsd/kern/
	 * uipc_mbuf.c mbinit: high_sb_max = nmbclusters << (MCLSHIFT - 4).
	 */
	{ "kern.ipc.maxsockbuf", 0, 0, CAT_XNU_SB_MAX, 18433, U32_TOP,
	    "stock 8 MiB (SB_MAX) from 8 GB of RAM (16 GB on macOS 10.15), "
	    "else 1/16 of the mbuf pool: 6 MiB from 4 GB (8 on 10.15), 4 "
	    "MiB below (xnu_mem); above 18432 (LOW_SB_MAX) and at most 1/16 "
	    "of the pool, else ERANGE; a buffer may use 8/9 of it up to "
	    "macOS 14.3 (xnu-10002), all of it from 14.4 (xnu-10063)" },
	/*
	 * bsd/netinet/tcp_usrreq.c: tcp_sendspace 1448 * 256, tcp_recvspace
	 * 1448 * 384; bsd/dev/unix_startup.c multiplies both by
	 * nmbclusters / NMBCLUSTERS (x86: 512) and caps them at 128 KiB.
	 * sysctl_tcp_sospace: 0 < v <= sb_effective_max, (sb_max / 2304)
	 * * 2048, up to xnu-10002.81.5; 0 < v <= sb_max from xnu-10063.101.15.
	 */
	{ "net.inet.tcp.sendspace", 19, 0, 128 * 1024, 0, 0,
	    "stock 128 KiB (1448 * 256 scaled by the pool, capped); above 0 "
	    "and at most 8/9 of kern.ipc.maxsockbuf up to macOS 14.3 "
	    "(xnu-10002), all of it from 14.4 (xnu-10063), else ERANGE" },
	{ "net.inet.tcp.recvspace", 19, 0, 128 * 1024, 0, 0,
	    "stock 128 KiB (1448 * 384 scaled by the pool, capped); above 0 "
	    "and at most 8/9 of kern.ipc.maxsockbuf up to macOS 14.3 "
	    "(xnu-10002), all of it from 14.4 (xnu-10063), else ERANGE" },
	/*
	 * bsd/netinet/tcp_subr.c: SYSCTL_INT rfc1323 up to xnu-2782; under
	 * #if (DEVELOPMENT || DEBUG) from xnu-3247 to xnu-6153; from
	 * xnu-7195 neither the sysctl nor tcp_do_rfc1323 exists.
	 */
	{ "net.inet.tcp.rfc1323", 0, 14, 1, 0, 0,
	    "stock 1 (tcp_do_rfc1323) up to macOS 10.10 (xnu-2782)" },
	{ "net.inet.tcp.rfc1323", 15, 19, CAT_XNU_ABSENT, 0, 0,
	    "DEVELOPMENT and DEBUG kernels only on macOS 10.11 to 10.15 "
	    "(xnu-3247 to 6153): a release kernel has no such key" },
	{ "net.inet.tcp.rfc1323", 20, 0, CAT_XNU_ABSENT, 0, 0,
	    "gone from macOS 11 (xnu-7195): the write fails with ENOENT" },
	/*
	 * bsd/netinet/tcp_input.c autorcvbufmax, tcp_output.c autosndbufmax
	 * (the static value) and tcp_init in tcp_subr.c (the raise).
	 * SYSCTL_SKMEM_TCP_INT: skmem_sysctl_handle_int (bsd/net/
	 * skmem_sysctl.c) takes any int, format "I".
	 */
	{ "net.inet.tcp.autorcvbufmax", 19, 19, 2 * MIB, 0, 0,
	    "stock 512 KiB, 2 MiB when nmbclusters > 30720 (xnu-6153); any "
	    "int" },
	{ "net.inet.tcp.autorcvbufmax", 20, 23, 4 * MIB, 0, 0,
	    "stock 2 MiB, 4 MiB from 4 GB of RAM (xnu-7195 to 10063); any "
	    "int" },
	{ "net.inet.tcp.autorcvbufmax", 24, 0, 4 * MIB, 0, 0,
	    "stock 2 MiB, 4 MiB from 4 GB of RAM, 8 MiB there with "
	    "serverperfmode (xnu-11215 on); any int" },
	{ "net.inet.tcp.autosndbufmax", 19, 19, 2 * MIB, 0, 0,
	    "stock 512 KiB, 2 MiB when nmbclusters > 30720 (xnu-6153); any "
	    "int" },
	{ "net.inet.tcp.autosndbufmax", 20, 23, 4 * MIB, 0, 0,
	    "stock 2 MiB, 4 MiB from 4 GB of RAM (xnu-7195 to 10063); any "
	    "int" },
	{ "net.inet.tcp.autosndbufmax", 24, 0, 4 * MIB, 0, 0,
	    "stock 2 MiB, 4 MiB from 4 GB of RAM, 8 MiB there with "
	    "serverperfmode (xnu-11215 on); any int" },
	/* bsd/netinet/tcp_output.c tcp_autosndbuf_inc */
	{ "net.inet.tcp.autosndbufinc", 19, 0, 8 * 1024, 0, 0,
	    "stock 8 KiB (xnu-6153 to 11417); any int" },
	/*
	 * bsd/netinet/tcp_input.c tcp_do_autorcvbuf; bsd/kern/
	 * uipc_socket2.c sysctl_soqlencomp sets it to 0.
	 */
	{ "net.inet.tcp.doautorcvbuf", 19, 0, 1, 0, 0,
	    "stock 1 (xnu-6153 to 11417); a non-zero kern.ipc.soqlencomp "
	    "turns it off" },
	/* bsd/netinet/tcp_output.c tcp_do_autosendbuf, up to xnu-6153 */
	{ "net.inet.tcp.doautosndbuf", 19, 19, 1, 0, 0,
	    "stock 1 (xnu-6153)" },
	{ "net.inet.tcp.doautosndbuf", 20, 0, CAT_XNU_ABSENT, 0, 0,
	    "gone from macOS 11 (xnu-7195): the write fails with ENOENT" },
	/* bsd/netinet/tcp_sack.c tcp_do_sack */
	{ "net.inet.tcp.sack", 19, 0, 1, 0, 0,
	    "stock 1 (xnu-6153 to 11417)" },
};

/*
 * Linux keys of the initial network namespace only.  net/core/
 * sysctl_net_core.c registers net_core_table for init_net alone, and
 * net/ipv4/sysctl_net_ipv4.c does the same with ipv4_table (tcp_mem):
 * a child namespace has no such file (ENOENT).  From Linux 6.11, commit
 * 19249c0724f2 ("net: make net.core.{r,w}mem_{default,max} namespaced")
 * puts those four in netns_core_table, mode 0444 outside init_net, so
 * a write there is EACCES even for root (seen on 6.18 in unshare -n).
 */
static const struct {
	const char	*name;
	int		 ro_major, ro_minor;	/* read-only from; 0: never */
} linux_global[] = {
	{ "net.core.rmem_max", 6, 11 },
	{ "net.core.wmem_max", 6, 11 },
	{ "net.core.rmem_default", 6, 11 },
	{ "net.core.wmem_default", 6, 11 },
	{ "net.core.default_qdisc", 0, 0 },
	{ "net.core.netdev_max_backlog", 0, 0 },
	{ "net.ipv4.tcp_mem", 0, 0 },
};

/*
 * Keys a kernel only reports: mode 0444 in its sysctl table, so a write
 * fails (EACCES) whatever the value, even for root, and a config setting
 * one could never be applied.  Linux: net/ipv4/sysctl_net_ipv4.c
 * (tcp_available_congestion_control, tcp_available_ulp; tcp_ehash_entries
 * and udp_hash_entries, which report the size the child_ keys set for a
 * new namespace) and net/core/sysctl_net_core.c (netdev_rss_key), all
 * .mode = 0444 in torvalds/linux master (read through the code search;
 * /proc/sys/net on Linux 6.18 shows the same files 0444).  instead: the
 * key that sets what it reports, or NULL.
 */
static const struct {
	const char	*name;
	unsigned	 os;
	const char	*instead;
} read_only[] = {
	{ "net.ipv4.tcp_available_congestion_control", L,
	    "net.ipv4.tcp_congestion_control" },
	{ "net.ipv4.tcp_available_ulp", L, NULL },
	{ "net.ipv4.tcp_ehash_entries", L, "net.ipv4.tcp_child_ehash_entries" },
	{ "net.ipv4.udp_hash_entries", L, "net.ipv4.udp_child_hash_entries" },
	{ "net.core.netdev_rss_key", L, NULL },
};

/* A key os's kernel only reports: refused with what to set instead. */
static bool
read_only_key(const char *name, enum tt_os os, char *why, size_t len)
{
	size_t	i;

	for (i = 0; i < NITEMS(read_only); i++) {
		if (strcmp(read_only[i].name, name) != 0 ||
		    !(read_only[i].os & TT_OS_BIT(os)))
			continue;
		if (read_only[i].instead != NULL)
			snprintf(why, len, "%s is read only: set %s instead",
			    name, read_only[i].instead);
		else
			snprintf(why, len, "%s is read only: the kernel only "
			    "reports it", name);
		return true;
	}
	return false;
}

/*
 * A word key whose words the running kernel lists under another key: on
 * Linux the congestion controls registered now, net/ipv4/tcp_cong.c
 * tcp_get_available_congestion_control() behind the 0444
 * tcp_available_congestion_control.  A write of another name makes the
 * kernel try to load module tcp_NAME (tcp_ca_find_autoload(), as root),
 * and fails with ENOENT when there is none.
 */
static const struct {
	const char	*name;
	unsigned	 os;
	const char	*listed_in;
	const char	*module;	/* the module a write tries: prefix */
} kernel_words[] = {
	{ "net.ipv4.tcp_congestion_control", L,
	    "net.ipv4.tcp_available_congestion_control", "tcp_" },
};

/*
 * The key listing the words name's kernel offers now, or NULL; *module
 * the prefix of the module a write of another word tries to load.
 */
const char *
catalogue_words_key(const char *name, enum tt_os os, const char **module)
{
	size_t	i;

	for (i = 0; i < NITEMS(kernel_words); i++)
		if (strcmp(kernel_words[i].name, name) == 0 &&
		    (kernel_words[i].os & TT_OS_BIT(os))) {
			*module = kernel_words[i].module;
			return kernel_words[i].listed_in;
		}
	return NULL;
}

/* Whether word is one of the white-space separated words of list. */
bool
catalogue_word_listed(const char *word, const char *list)
{
	size_t	n = strlen(word);
	const char *w;

	for (w = list; *w != '\0'; w += strcspn(w, " \t\n")) {
		w += strspn(w, " \t\n");
		if (strncmp(w, word, n) == 0 && strchr(" \t\n", w[n]) != NULL)
			return n > 0;
	}
	return false;
}

static bool
linux_global_ro(const char *name, int major, int minor, bool *ever)
{
	size_t	i;

	*ever = false;
	for (i = 0; i < NITEMS(linux_global); i++)
		if (strcmp(linux_global[i].name, name) == 0) {
			*ever = linux_global[i].ro_major != 0;
			return *ever && (major > linux_global[i].ro_major ||
			    (major == linux_global[i].ro_major &&
			    minor >= linux_global[i].ro_minor));
		}
	return false;
}

/* The errno a write of name gets in a child namespace of Linux major.minor. */
int
catalogue_linux_netns(const char *name, int major, int minor)
{
	size_t	i;
	bool	ever;

	if (linux_global_ro(name, major, minor, &ever))
		return EACCES;
	for (i = 0; i < NITEMS(linux_global); i++)
		if (strcmp(linux_global[i].name, name) == 0)
			return ENOENT;
	return 0;
}

/*
 * Why a get or set of name failed with err on the kernel of release
 * ("6.10.3-amd64", as /proc/sys/kernel/osrelease has it), when that is
 * what a child network namespace gives there: true and the words in buf.
 * False for any other failure, which the caller explains its own way.
 */
bool
catalogue_linux_netns_note(const char *name, int err, const char *release,
    char *buf, size_t len)
{
	int	major, minor, want;
	bool	ever;

	if (sscanf(release, "%d.%d", &major, &minor) != 2 ||
	    (want = catalogue_linux_netns(name, major, minor)) == 0 ||
	    (err != want && !(want == EACCES && err == EPERM)))
		return false;
	(void)linux_global_ro(name, major, minor, &ever);
	if (want == EACCES)
		snprintf(buf, len, "a global key, read only in a child network "
		    "namespace from Linux 6.11: set it on the host");
	else if (ever)
		snprintf(buf, len, "a global key, absent from a child network "
		    "namespace before Linux 6.11 (this is %d.%d): set it on "
		    "the host", major, minor);
	else
		snprintf(buf, len, "a global key, which no child network "
		    "namespace has: set it on the host");
	return true;
}

/*
 * RAM to mbuf cluster pool: bsd/kern/uipc_mbuf.c ncl_table (the row of
 * the largest nt_maxmem not above the RAM; mbuf_default_ncl), called from
 * bsd_mbuf_cluster_reserve in bsd/dev/unix_startup.c.  xnu-6153.141.1
 * (macOS 10.15): 64 MB below 8 GB, 96 MB from 8, 128 MB from 16
 * (ncl_table_srv, with serverperfmode, is larger).  xnu-7195.141.2 to
 * 11417.121.6 (macOS 11 to 15): 64 MB below 4 GB, 96 from 4, 128 from 8,
 * 256 from 16, 512 from 32.  mbinit then caps sb_max, the stock
 * maxsockbuf, at high_sb_max = 1/16 of the pool: 4 MiB, 6 MiB, else
 * SB_MAX's 8 MiB.  The autotuning ceilings: tcp_init in
 * bsd/netinet/tcp_subr.c, 2 MiB when nmbclusters > 30720 in xnu-6153
 * (every 64 MB pool), 4 MiB from 4 GB of RAM from xnu-7195 (8 MiB with
 * serverperfmode from xnu-11215, not modelled).
 */
#define MB_POOL(mb)	((long long)(mb) << 20)
static const struct cat_xnu_mem xnu_mem[] = {
	{ 19, 19, 0, MB_POOL(64), 2 * MIB },
	{ 19, 19, 8, MB_POOL(96), 2 * MIB },
	{ 19, 19, 16, MB_POOL(128), 2 * MIB },
	{ 20, 0, 0, MB_POOL(64), 2 * MIB },
	{ 20, 0, 4, MB_POOL(96), 4 * MIB },
	{ 20, 0, 8, MB_POOL(128), 4 * MIB },
	{ 20, 0, 16, MB_POOL(256), 4 * MIB },
	{ 20, 0, 32, MB_POOL(512), 4 * MIB },
};

const struct cat_xnu_mem *
catalogue_xnu_mem_at(size_t i)
{
	return i < NITEMS(xnu_mem) ? &xnu_mem[i] : NULL;
}

/*
 * The row of a Mac of mem bytes on Darwin major darwin (0: the newest;
 * a release older than the table's takes its oldest row).
 */
const struct cat_xnu_mem *
catalogue_xnu_mem(int darwin, long long mem)
{
	const struct cat_xnu_mem	*best = NULL;
	size_t				 i;

	if (darwin != 0 && darwin < xnu_mem[0].from)
		darwin = xnu_mem[0].from;
	for (i = 0; i < NITEMS(xnu_mem); i++) {
		const struct cat_xnu_mem *m = &xnu_mem[i];

		if (darwin == 0 ? m->to != 0 : (darwin < m->from ||
		    (m->to != 0 && darwin > m->to)))
			continue;
		if (best == NULL || mem >= (long long)m->min_gb << 30)
			best = m;
	}
	return best;
}

/*
 * The stock value of a macOS key on a Mac of mem bytes running Darwin
 * major darwin (0: the newest): maxsockbuf and the autotuning ceilings
 * follow RAM and release, the others are xnu_facts' stock.  -1 (as
 * CAT_XNU_ABSENT) when that release has no such key or nothing is known.
 */
long long
catalogue_xnu_stock(const char *name, int darwin, long long mem)
{
	const struct cat_xnu_mem	*m = catalogue_xnu_mem(darwin, mem);
	const struct cat_xnu		*x = catalogue_xnu(name, darwin);

	if (strcmp(name, "kern.ipc.maxsockbuf") == 0)
		return m->pool / 16 < CAT_XNU_SB_MAX ? m->pool / 16 :
		    CAT_XNU_SB_MAX;
	if (strcmp(name, "net.inet.tcp.autorcvbufmax") == 0 ||
	    strcmp(name, "net.inet.tcp.autosndbufmax") == 0)
		return m->autobuf;
	return x != NULL ? x->stock : CAT_XNU_ABSENT;
}

const char *const *
catalogue_win_levels(void)
{
	return win_levels;
}

/* The row of a Windows key backend_win.c serves, or NULL. */
const struct cat_win_key *
catalogue_win_key(const char *name)
{
	size_t	i, len;

	for (i = 0; i < NITEMS(win_keys); i++) {
		len = strlen(win_keys[i].name);
		if (win_keys[i].name[len - 1] == FAMILY_END ?
		    strncmp(name, win_keys[i].name, len) == 0 &&
		    name[len] != '\0' : strcmp(name, win_keys[i].name) == 0)
			return &win_keys[i];
	}
	return NULL;
}

/* win_keys[]'s rows whose writable is w, "a, b" then last, "c". */
static void
win_key_names(bool w, const char *last, char *buf, size_t len)
{
	size_t	i, n = 0, left = 0;

	for (i = 0; i < NITEMS(win_keys); i++)
		left += win_keys[i].writable == w;
	buf[0] = '\0';
	for (i = 0; i < NITEMS(win_keys); i++) {
		if (win_keys[i].writable != w)
			continue;
		if (n++ > 0)
			tt_strlcat(buf, n == left ? last : ", ", len);
		tt_strlcat(buf, win_keys[i].name, len);
		if (win_keys[i].name[strlen(win_keys[i].name) - 1] ==
		    FAMILY_END)
			tt_strlcat(buf, "<template>", len);
	}
}

/*
 * Every Windows key, as the backend's refusal of another names them:
 * "tcp.autotuninglevel, offload.rss and, read-only, tcp.timestamps, ...".
 */
void
catalogue_win_key_list(char *buf, size_t len)
{
	char	ro[CAT_WIN_KEYS_MAX];

	/* "a, b and, read-only, c, d and e": the writable keys' last
	 * "and" is the one before read-only */
	win_key_names(true, ", ", buf, len);
	win_key_names(false, " and ", ro, sizeof(ro));
	if (ro[0] == '\0')
		return;
	if (buf[0] != '\0')
		tt_strlcat(buf, " and, read-only, ", len);
	tt_strlcat(buf, ro, len);
}

/* The window scale of level code i, -1 for none or no such level. */
int
catalogue_win_level_scale(size_t i)
{
	return i < NITEMS(win_level_scales) ? win_level_scales[i] : -1;
}

/*
 * Each OS: its name (configure's TT_PLATFORM, advise's JSON), its label
 * in sentences, the word a user types to --platform, and a key every
 * kernel of it has, whose read says the kernel can be asked at all.
 */
static const struct {
	const char	*name;
	const char	*label;
	const char	*word;
	const char	*always_key;
} os_table[TT_OS_N] = {
	[TT_OS_LINUX] = { "linux", "Linux", "linux", "kernel.osrelease" },
	[TT_OS_DARWIN] = { "darwin", "macOS", "macos", "kern.osrelease" },
	[TT_OS_FREEBSD] = { "freebsd", "FreeBSD", "freebsd",
	    "kern.osrelease" },
	[TT_OS_WINDOWS] = { "windows", "Windows", "windows",
	    "tcp.autotuninglevel" },
};
/*
 * What --platform also takes, as people say it, beside the names; in the
 * order catalogue_os_list() says them.
 */
static const struct {
	const char	*word;
	enum tt_os	 os;
} os_aliases[] = {
	{ "mac", TT_OS_DARWIN }, { "macos", TT_OS_DARWIN },
	{ "osx", TT_OS_DARWIN }, { "win", TT_OS_WINDOWS },
	{ "win10", TT_OS_WINDOWS }, { "win11", TT_OS_WINDOWS },
};

static bool
name_is(const struct cat_key *k, const char *name)
{
	size_t	len = strlen(k->name);

	if (k->name[len - 1] == FAMILY_END)
		return strncmp(k->name, name, len) == 0 && name[len] != '\0';
	return strcmp(k->name, name) == 0;
}

const struct cat_key *
catalogue_at(size_t i)
{
	return i < NITEMS(keys) ? &keys[i] : NULL;
}

const struct cat_xnu *
catalogue_xnu_at(size_t i)
{
	return i < NITEMS(xnu_facts) ? &xnu_facts[i] : NULL;
}

/* What xnu of Darwin major darwin does with name; 0: the newest. */
const struct cat_xnu *
catalogue_xnu(const char *name, int darwin)
{
	const struct cat_xnu	*x;
	size_t			 i;

	for (i = 0; i < NITEMS(xnu_facts); i++) {
		x = &xnu_facts[i];
		if (strcmp(x->name, name) != 0)
			continue;
		if (darwin == 0 ? x->to == 0 : (darwin >= x->from &&
		    (x->to == 0 || darwin <= x->to)))
			return x;
	}
	return NULL;
}

const struct cat_key *
catalogue_find(const char *name, enum tt_os os)
{
	size_t	i;

	for (i = 0; i < NITEMS(keys); i++)
		if ((keys[i].os & TT_OS_BIT(os)) && name_is(&keys[i], name))
			return &keys[i];
	return NULL;
}

const struct cat_key *
catalogue_find_any(const char *name)
{
	size_t	i;

	for (i = 0; i < NITEMS(keys); i++)
		if (name_is(&keys[i], name))
			return &keys[i];
	return NULL;
}

/*
 * The human size of a value of a key whose unit is bytes, for text output
 * beside the bytes, one size a number with sep between them: "4 KiB, 128
 * KiB, 64 MiB" (sep ", ") for tcp_rmem's "4096 131072 67108864"
 * (tt_size_human's form).  False, buf empty, for any other key,
 * a key in no catalogue, or a value that is not the key's integers.
 */
bool
catalogue_size_human(const char *name, const char *value, const char *sep,
    char *buf, size_t len)
{
	const struct cat_key	*k = catalogue_find_any(name);
	char			 num[24], h[32];
	const char		*p = value;
	size_t			 n, used = 0;
	long long		 v;
	int			 i;

	if (len > 0)
		buf[0] = '\0';
	if (k == NULL || k->unit != CAT_BYTES || k->nums < 1 || len == 0)
		return false;
	for (i = 0; i < k->nums; i++) {
		p += strspn(p, " \t");
		if ((n = strspn(p, "0123456789")) == 0 || n >= sizeof(num))
			break;
		memcpy(num, p, n);
		num[n] = '\0';
		p += n;
		if (tt_parse_size(num, &v) == -1)
			break;
		tt_size_human(v, h, sizeof(h));
		if (used + strlen(sep) + strlen(h) >= len)
			break;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    i > 0 ? sep : "", h);
	}
	p += strspn(p, " \t");
	if (i < k->nums || *p != '\0') {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/*
 * The key of os a mistyped name most likely meant: at most 2 edits away
 * (1 for short names, where 2 would match unrelated keys), the nearest.
 */
const struct cat_key *
catalogue_nearest(const char *name, enum tt_os os)
{
	const struct cat_key	*best = NULL;
	size_t			 i, d, bestd = 0, limit;

	limit = strlen(name) >= 10 ? 2 : 1;
	for (i = 0; i < NITEMS(keys); i++) {
		if (!(keys[i].os & TT_OS_BIT(os)) ||
		    keys[i].name[strlen(keys[i].name) - 1] == FAMILY_END)
			continue;
		d = tt_edit_distance(name, keys[i].name, false);
		if (d <= limit && (best == NULL || d < bestd)) {
			best = &keys[i];
			bestd = d;
		}
	}
	return best;
}

int
catalogue_os_parse(const char *word, enum tt_os *os)
{
	size_t	i;

	/* case ignored: people write "Linux", "macOS" (issue 31) */
	for (i = 0; i < TT_OS_N; i++)
		if (strcasecmp(word, os_table[i].name) == 0) {
			*os = (enum tt_os)i;
			return 0;
		}
	for (i = 0; i < NITEMS(os_aliases); i++)
		if (strcasecmp(word, os_aliases[i].word) == 0) {
			*os = os_aliases[i].os;
			return 0;
		}
	return -1;
}

const char *
catalogue_os_label(enum tt_os os)
{
	return os_table[os].label;
}

const char *
catalogue_os_name(enum tt_os os)
{
	return os_table[os].name;
}

const char *
catalogue_os_word(enum tt_os os)
{
	return os_table[os].word;
}

const char *
catalogue_os_always_key(enum tt_os os)
{
	return os_table[os].always_key;
}

/* " (mac, macos, osx)": the aliases of os, or "" when it has none. */
static void
os_aliases_of(enum tt_os os, char *buf, size_t len)
{
	size_t	i;

	buf[0] = '\0';
	for (i = 0; i < NITEMS(os_aliases); i++) {
		if (os_aliases[i].os != os)
			continue;
		tt_strlcat(buf, buf[0] == '\0' ? " (" : ", ", len);
		tt_strlcat(buf, os_aliases[i].word, len);
	}
	if (buf[0] != '\0')
		tt_strlcat(buf, ")", len);
}

/*
 * Every OS the catalogue knows, as a sentence says them: the one list
 * every message and help text naming the OSes takes (issue 33), so that
 * a row of os_table[] or os_aliases[] is the only change for a new one.
 */
void
catalogue_os_list(enum cat_os_style style, char *buf, size_t len)
{
	char	aliases[64];
	size_t	i;

	buf[0] = '\0';
	for (i = 0; i < TT_OS_N; i++) {
		if (i > 0)
			tt_strlcat(buf, i + 1 < TT_OS_N ? ", " :
			    style == CAT_OS_LABELS ? " and " : " or ",
			    len);
		tt_strlcat(buf, style == CAT_OS_LABELS ?
		    os_table[i].label : os_table[i].name, len);
		if (style != CAT_OS_WORDS)
			continue;
		os_aliases_of((enum tt_os)i, aliases, sizeof(aliases));
		tt_strlcat(buf, aliases, len);
	}
}

enum tt_os
catalogue_host_os(void)
{
#if defined(_WIN32)
	return TT_OS_WINDOWS;
#elif defined(__APPLE__)
	return TT_OS_DARWIN;
#elif defined(__FreeBSD__)
	return TT_OS_FREEBSD;
#else
	return TT_OS_LINUX;
#endif
}

/* "macOS/FreeBSD": the OSes that have a key. */
static void
os_list(unsigned mask, char *buf, size_t len)
{
	size_t	i;

	buf[0] = '\0';
	for (i = 0; i < TT_OS_N; i++)
		if (mask & TT_OS_BIT(i)) {
			if (buf[0] != '\0')
				tt_strlcat(buf, "/", len);
			tt_strlcat(buf, os_table[i].label, len);
		}
}

static const char *const count_words[] = {
	"no", "one", "two", "three"
};

static enum cat_verdict
refuse(char *why, size_t len, const char *fmt, ...) TT_PRINTF(3, 4);

static enum cat_verdict
refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return CAT_REFUSED;
}

/* "a", "a or b", "a, b or c" */
void
catalogue_word_list(const char *const *w, char *buf, size_t len)
{
	size_t	i;

	buf[0] = '\0';
	for (i = 0; w[i] != NULL; i++) {
		if (i > 0)
			tt_strlcat(buf, w[i + 1] == NULL ?
			    " or " : ", ", len);
		tt_strlcat(buf, w[i], len);
	}
}

static enum cat_verdict
check_word(const struct cat_key *k, const char *name, const char *value,
    char *why, size_t len)
{
	char	list[160];
	size_t	i;

	if (strchr(value, ' ') != NULL)
		return refuse(why, len, "%s takes one word, not \"%s\"", name,
		    value);
	if (k->words == NULL)
		return CAT_OK;
	for (i = 0; k->words[i] != NULL; i++)
		if (strcmp(value, k->words[i]) == 0)
			return CAT_OK;
	catalogue_word_list(k->words, list, sizeof(list));
	return refuse(why, len, "%s takes %s, not \"%s\"", name, list, value);
}

/* One integer in range: the message shows a size both ways. */
static enum cat_verdict
check_range(const struct cat_key *k, const char *name, long long n,
    char *why, size_t len)
{
	char		 h[32];
	long long	 lim;

	if (n >= k->min && n <= k->max)
		return CAT_OK;
	lim = n < k->min ? k->min : k->max;
	h[0] = '\0';
	/* Only an exact size, or one byte short of one (a type's top). */
	if (k->unit == CAT_BYTES && lim >= 1024 && lim % 1024 == 0)
		tt_size_human(lim, h, sizeof(h));
	else if (k->unit == CAT_BYTES && lim >= 1023 && (lim + 1) % 1024 == 0) {
		tt_size_human(lim + 1, h, sizeof(h) - 4);
		tt_strlcpy(h + strlen(h), " - 1", 5);
	}
	return refuse(why, len, "%s: %lld is out of range: at %s %lld%s%s%s",
	    name, n, n < k->min ? "least" : "most", lim, h[0] ? " (" : "", h,
	    h[0] ? ")" : "");
}

static enum cat_verdict
check_numbers(const struct cat_key *k, const char *name, const char *value,
    char *why, size_t len)
{
	long long	 n[TT_VALUE_MAX_WORDS];
	int		 got, i;

	got = value_numbers(value, n, TT_VALUE_MAX_WORDS);
	if (got < 0)
		return refuse(why, len, "%s takes %s %s%s%s%s, not \"%s\"%s",
		    name, count_words[k->nums], k->unit == CAT_BYTES ? "size" :
		    "number", k->nums > 1 ? "s" : "", k->parts ? ": " : "",
		    k->parts ? k->parts : "", value, k->unit == CAT_BYTES ?
		    " (bytes, or with a binary unit: 256K, 16M, 32MiB, 1G)" :
		    "");
	if (got != k->nums)
		return refuse(why, len, "%s takes %s number%s%s%s, not %d",
		    name, count_words[k->nums], k->nums > 1 ? "s" : "",
		    k->parts ? ": " : "", k->parts ? k->parts : "", got);
	for (i = 0; i < got; i++)
		if (check_range(k, name, n[i], why, len) != CAT_OK)
			return CAT_REFUSED;
	/* min default max: each at least the one before. */
	for (i = 1; i < got; i++)
		if (n[i] < n[i - 1])
			return refuse(why, len, "%s: %lld is less than %lld "
			    "before it: the numbers go %s, each at least the "
			    "one before", name, n[i], n[i - 1], k->parts);
	return CAT_OK;
}

/*
 * A macOS key against the bound of its handler in the newest xnu, where
 * that is tighter than the table's (maxsockbuf: above LOW_SB_MAX).
 */
static enum cat_verdict
check_xnu(const struct cat_key *k, const char *name, const char *value,
    char *why, size_t len)
{
	const struct cat_xnu	*x = catalogue_xnu(name, 0);
	struct cat_key		 b;
	long long		 n[TT_VALUE_MAX_WORDS];
	int			 got, i;

	if (x == NULL || (x->min == 0 && x->max == 0))
		return CAT_OK;
	b = *k;
	b.min = x->min;
	b.max = x->max;
	got = value_numbers(value, n, TT_VALUE_MAX_WORDS);
	for (i = 0; i < got; i++)
		if (check_range(&b, name, n[i], why, len) != CAT_OK)
			return CAT_REFUSED;
	return CAT_OK;
}

/* The key of another OS: name them, and this OS's nearest. */
static enum cat_verdict
other_os(const struct cat_key *k, const char *name, enum tt_os os,
    char *why, size_t len)
{
	char	oses[64];

	os_list(k->os, oses, sizeof(oses));
	if (k->alt[os] != NULL)
		return refuse(why, len, "%s is a%s %s key; on %s use %s", name,
		    strchr("aeiouAEIOU", oses[0]) ? "n" : "", oses,
		    os_table[os].label, k->alt[os]);
	return refuse(why, len, "%s is a%s %s key; %s has no equivalent",
	    name, strchr("aeiouAEIOU", oses[0]) ? "n" : "", oses,
	    os_table[os].label);
}

/*
 * A key and its normalized value, as a config for os has them: CAT_OK,
 * CAT_UNKNOWN (not catalogued, nor a near miss: the caller decides), or
 * CAT_REFUSED with the reason and the fix in why.
 */
enum cat_verdict
catalogue_check(const char *name, const char *value, enum tt_os os,
    char *why, size_t len)
{
	const struct cat_key	*k;

	if ((k = catalogue_find(name, os)) == NULL) {
		if (read_only_key(name, os, why, len))
			return CAT_REFUSED;
		if ((k = catalogue_find_any(name)) != NULL)
			return other_os(k, name, os, why, len);
		if ((k = catalogue_nearest(name, os)) != NULL)
			return refuse(why, len, "%s is not a %s key: did you "
			    "mean %s?", name, os_table[os].label, k->name);
		return CAT_UNKNOWN;
	}
	if (k->nums == 0)
		return check_word(k, name, value, why, len);
	if (check_numbers(k, name, value, why, len) != CAT_OK)
		return CAT_REFUSED;
	return os == TT_OS_DARWIN ? check_xnu(k, name, value, why, len) :
	    CAT_OK;
}
