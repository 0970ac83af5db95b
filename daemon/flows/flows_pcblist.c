/*
 * macOS's net.inet.tcp.pcblist_n, the records netstat(1) reads, into
 * readings: a pure function of the bytes, so tests/unit/test_flows.c
 * checks it on Linux with buffers built from the documented layouts
 * (flows_darwin.c makes the sysctl call).  The buffer is never trusted:
 * a record that runs past its end, or is too short for what is read of
 * it, rejects the whole buffer; nothing is read outside it.
 *
 * Sources (apple-oss-distributions/xnu, xnu-8792 to xnu-11417):
 *   bsd/netinet/in_pcblist.c get_pcblist_n: a struct xinpgen, then per
 *     connection one item of records, each ROUNDUP64'd (8 bytes):
 *     xinpcb_n, xsocket_n, xsockbuf_n (receive), xsockbuf_n (send),
 *     xsockstat_n, xtcpcb_n; then a trailing xinpgen.  Every record
 *     starts with its length and an XSO_* kind (bsd/sys/socketvar.h).
 *     An item starts with its xinpcb_n: one that comes before the last
 *     item was whole starts a new one, so records of two connections
 *     are never mixed.  Skywalk's user-space flows come as items too
 *     (bsd/net/ntstat.c nstat_userland_list_snapshot) with no sequence
 *     numbers in their xtcpcb_n: they read as having moved nothing.
 *   bsd/netinet/in_pcb.h struct xinpgen, struct xinpcb_n; inp_vflag
 *     INP_IPV4 0x1, INP_IPV6 0x2; ports in network byte order.
 *   bsd/sys/socketvar.h struct xsocket_n (so_uid), struct xsockbuf_n
 *     (sb_cc, sb_hiwat), XSO_SOCKET 0x1 ... XSO_TCPCB 0x20.
 *   bsd/netinet/tcp_var.h struct xtcpcb_n; t_srtt is milliseconds
 *     (TCP_RETRANSHZ 1000) scaled by TCP_RTT_SCALE 32 (TCP_RTT_SHIFT 5),
 *     as tcp_xmit_timer in bsd/netinet/tcp_input.c keeps it; rcv_scale,
 *     our window scale, set from request_r_scale only when both SYNs
 *     carried the option (tcp_input.c, TF_RCVD_SCALE and TF_REQ_SCALE),
 *     else 0.
 *   bsd/netinet/tcp_fsm.h TCPS_LISTEN 1 (a listener: its port only),
 *     TCPS_ESTABLISHED 4, CLOSE_WAIT 5, FIN_WAIT_1 6.
 * All of these structures are declared under #pragma pack(4), so a
 * 64-bit field may sit at a 4-byte offset: the offsets below are the
 * packed ones (the test's own copies of the structs check them).
 * apple-oss-distributions/network_cmds netstat.tproj/inet.c protopr
 * walks the buffer the same way (struct xgen_n, ROUNDUP64, the end at a
 * record no longer than a struct xinpgen).
 *
 * Bytes moved come from the sequence numbers (snd_una - iss, rcv_nxt -
 * irs, less the SYN), not from xsockstat_n: its counters changed meaning
 * between releases (whole packets per traffic class up to xnu-10063;
 * since xnu-11215 both so_recv_data_stat and sbcompress add to rxbytes).
 * The sequence numbers are 32 bits: a connection past 4 GiB wraps.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

#define ROUNDUP64(n)	(((n) + 7) & ~(size_t)7)

#define XINPGEN_SIZE	24	/* xig_len, xig_count, xig_gen, xig_sogen */
#define XIG_GEN		8

#define XSO_SOCKET	0x01
#define XSO_RCVBUF	0x02
#define XSO_SNDBUF	0x04
#define XSO_STATS	0x08
#define XSO_INPCB	0x10
#define XSO_TCPCB	0x20
#define XSO_ALL_TCP	0x3f

/* struct xinpcb_n, 104 bytes */
#define XINPCB_SIZE	104
#define INP_FPORT	16
#define INP_LPORT	18
#define INP_GENCNT	28
#define INP_VFLAG	44
#define INP_FADDR	48	/* in6_addr, or in_addr_4in6: v4 at +12 */
#define INP_LADDR	64
#define INP_IPV4	0x1
#define INP_IPV6	0x2

/* struct xsocket_n, 104 bytes */
#define XSOCKET_SIZE	104
#define SO_PROTOCOL	36
#define SO_UID		64

/* struct xsockbuf_n, 32 bytes */
#define XSOCKBUF_SIZE	32
#define SB_CC		8
#define SB_HIWAT	12

/* struct xtcpcb_n, 204 bytes */
#define XTCPCB_SIZE	204
#define T_STATE		36
#define SND_UNA		48
#define ISS		72
#define IRS		76
#define RCV_NXT		80
#define SND_WND		96
#define SND_CWND	100
#define T_SRTT		136
#define RCV_SCALE	167	/* u_char, after snd_scale at 166 */

#define TCP_RTT_SHIFT	5
#define TCPS_LISTEN		1
#define TCPS_ESTABLISHED	4
#define TCPS_FIN_WAIT_1		6
#define IPPROTO_TCP_N	6

/* The records of one connection, as they came. */
struct pcb_item {
	const unsigned char	*rec[6];	/* by kind bit: 0 socket ... */
	unsigned		 which;
};

static uint32_t
u32(const unsigned char *p, size_t off)
{
	uint32_t	v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint64_t
u64(const unsigned char *p, size_t off)
{
	uint64_t	v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

/* The records' bit, and how long a record of that kind must be. */
static int
kind_index(uint32_t kind, size_t *need)
{
	static const size_t	size[6] = { XSOCKET_SIZE, XSOCKBUF_SIZE,
				    XSOCKBUF_SIZE, 0, XINPCB_SIZE,
				    XTCPCB_SIZE };
	int			i;

	for (i = 0; i < 6; i++)
		if (kind == (1u << i)) {
			*need = size[i] > 8 ? size[i] : 8;
			return i;
		}
	return -1;
}

static void
format_v4(const unsigned char *a, unsigned port, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3], port);
}

/* RFC 5952: the longest run of two or more zero groups becomes "::". */
static void
format_v6(const unsigned char *a, unsigned port, char *buf, size_t len)
{
	char		s[48];
	unsigned	g[8];
	int		i, run = 0, best = -1, bestlen = 1, n = 0;

	for (i = 0; i < 8; i++) {
		g[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
		run = g[i] == 0 ? run + 1 : 0;
		if (run > bestlen) {
			bestlen = run;
			best = i - run + 1;
		}
	}
	for (i = 0; i < 8; i++) {
		if (i == best) {
			n += snprintf(s + n, sizeof(s) - (size_t)n, "::");
			i += bestlen - 1;
			continue;
		}
		n += snprintf(s + n, sizeof(s) - (size_t)n, "%s%x",
		    n > 0 && s[n - 1] != ':' ? ":" : "", g[i]);
	}
	snprintf(buf, len, "[%s]:%u", s, port);
}

static void
format_addr(const unsigned char *inp, size_t addr, size_t port,
    char *buf, size_t len)
{
	unsigned	p = (unsigned)inp[port] << 8 | inp[port + 1];

	if (inp[INP_VFLAG] & INP_IPV4)
		format_v4(inp + addr + 12, p, buf, len);
	else
		format_v6(inp + addr, p, buf, len);
}

/* Data bytes a sequence span covers: less the SYN's one. */
static uint64_t
seq_bytes(uint32_t now, uint32_t initial)
{
	uint32_t	span = now - initial;

	return span > 0 ? span - 1 : 0;
}

/* One complete item into a reading; false for one not worth taking. */
static bool
item_reading(const struct pcb_item *it, uint64_t gen, struct flow_reading *r)
{
	const unsigned char	*so = it->rec[0], *rcv = it->rec[1];
	const unsigned char	*snd = it->rec[2], *inp = it->rec[4];
	const unsigned char	*tp = it->rec[5];
	uint32_t		 state = u32(tp, T_STATE);
	int32_t			 srtt;

	if (u32(so, SO_PROTOCOL) != IPPROTO_TCP_N ||
	    u64(inp, INP_GENCNT) > gen || (state != TCPS_LISTEN &&
	    (state < TCPS_ESTABLISHED || state > TCPS_FIN_WAIT_1)) ||
	    !(inp[INP_VFLAG] & (INP_IPV4 | INP_IPV6)))
		return false;
	memset(r, 0, sizeof(*r));
	r->id = u64(inp, INP_GENCNT);
	format_addr(inp, INP_LADDR, INP_LPORT, r->local, sizeof(r->local));
	format_addr(inp, INP_FADDR, INP_FPORT, r->remote, sizeof(r->remote));
	r->uid = u32(so, SO_UID);
	r->listening = state == TCPS_LISTEN;
	r->known = FLOW_KNOWS_UID | FLOW_KNOWS_CWND | FLOW_KNOWS_RECEIVED |
	    FLOW_KNOWS_PEER_WND | FLOW_KNOWS_WSCALE;
	r->rcv_wscale = tp[RCV_SCALE];
	r->snd_wscale = tp[RCV_SCALE - 1];
	srtt = (int32_t)u32(tp, T_SRTT);
	r->rtt_us = srtt > 0 ? (uint32_t)(((uint64_t)srtt * 1000) >>
	    TCP_RTT_SHIFT) : 0;
	r->bytes_acked = seq_bytes(u32(tp, SND_UNA), u32(tp, ISS));
	r->bytes_received = seq_bytes(u32(tp, RCV_NXT), u32(tp, IRS));
	r->cwnd_bytes = u32(tp, SND_CWND);
	r->peer_wnd = u32(tp, SND_WND);
	r->rcvbuf = u32(rcv, SB_HIWAT);
	r->rmem_alloc = u32(rcv, SB_CC);
	r->sndbuf = u32(snd, SB_HIWAT);
	return true;
}

/*
 * The records from buf[off] on, until the trailing xinpgen; -1 with why
 * for a buffer that does not hold together.
 */
static int
walk(const unsigned char *buf, size_t len, size_t off, uint64_t gen,
    void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t wlen)
{
	struct pcb_item		it;
	struct flow_reading	r;
	uint32_t		rlen;
	size_t			need;
	int			i, n = 0;

	memset(&it, 0, sizeof(it));
	for (;;) {
		if (len - off < 8) {
			snprintf(why, wlen, "pcblist_n: no trailing xinpgen");
			return -1;
		}
		if ((rlen = u32(buf, off)) <= XINPGEN_SIZE)
			return n;	/* the trailing xinpgen */
		if (rlen > len - off || ROUNDUP64((size_t)rlen) > len - off) {
			snprintf(why, wlen, "pcblist_n: a record of %u bytes "
			    "at %zu runs past the %zu", rlen, off, len);
			return -1;
		}
		i = kind_index(u32(buf, off + 4), &need);
		if (i >= 0 && (1u << i) == XSO_INPCB && it.which != 0)
			memset(&it, 0, sizeof(it));	/* the last was short */
		if (i >= 0 && !(it.which & (1u << i))) {
			if (rlen < need) {
				snprintf(why, wlen, "pcblist_n: a record of "
				    "kind %#x is %u bytes, under %zu",
				    1u << i, rlen, need);
				return -1;
			}
			it.rec[i] = buf + off;
			it.which |= 1u << i;
		}
		off += ROUNDUP64((size_t)rlen);
		if (it.which != XSO_ALL_TCP)
			continue;
		if (item_reading(&it, gen, &r)) {
			take(arg, &r);
			n++;
		}
		memset(&it, 0, sizeof(it));
	}
}

int
flows_pcblist_parse(const void *data, size_t len,
    void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t wlen)
{
	const unsigned char	*buf = data;
	uint32_t		 glen;

	if (len < XINPGEN_SIZE || (glen = u32(buf, 0)) < XINPGEN_SIZE ||
	    ROUNDUP64((size_t)glen) > len) {
		snprintf(why, wlen, "pcblist_n: %zu bytes, no xinpgen", len);
		return -1;
	}
	return walk(buf, len, ROUNDUP64((size_t)glen), u64(buf, XIG_GEN),
	    take, arg, why, wlen);
}

#define TCP_MAXWIN		65535
#define TCP_MAX_WINSHIFT	14
#define TCP_WIN_SCALE		3	/* net.inet.tcp.win_scale_factor */

/*
 * The receive buffer autotuning reaches under autorcvbufmax: the window
 * scale is chosen from autorcvbufmax at connect, the least from
 * tcp_win_scale up with (TCP_MAXWIN + 1) << scale >= it
 * (tcp_set_max_rwinscale, bsd/netinet/tcp_subr.c), and the buffer never
 * grows past TCP_MAXWIN << scale (tcp_sbrcv_reserve,
 * bsd/netinet/tcp_input.c): a 4 MiB autorcvbufmax stops sb_hiwat at
 * 4194240, 64 bytes short of it.
 */
uint64_t
flows_pcblist_rcv_reach(uint64_t autorcv)
{
	unsigned	scale = TCP_WIN_SCALE;

	while (scale < TCP_MAX_WINSHIFT &&
	    ((uint64_t)TCP_MAXWIN + 1) << scale < autorcv)
		scale++;
	return autorcv < (uint64_t)TCP_MAXWIN << scale ? autorcv :
	    (uint64_t)TCP_MAXWIN << scale;
}

/*
 * The ceilings (docs/DESIGN.md §3 macOS): autotuning grows sb_hiwat up
 * to autorcvbufmax (as far as the window scale lets it: rcv_reach) and
 * autosndbufmax (bsd/netinet/tcp_input.c tcp_sbrcv_grow,
 * bsd/netinet/tcp_output.c); a program's own SO_RCVBUF or SO_SNDBUF is
 * sb_hiwat as asked, never past kern.ipc.maxsockbuf (sbreserve,
 * bsd/kern/uipc_socket2.c).  The buffer is the window's bytes: factor 1.
 */
void
flows_pcblist_limits(uint64_t autorcv, uint64_t autosnd, uint64_t maxsockbuf,
    struct flow_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	lim->rcv_auto = (struct flow_ceiling){ "net.inet.tcp.autorcvbufmax",
	    flows_pcblist_rcv_reach(autorcv), 0, 1, false };
	lim->rcv_fixed = (struct flow_ceiling){ "kern.ipc.maxsockbuf",
	    maxsockbuf, 0, 1, false };
	lim->snd_auto = (struct flow_ceiling){ "net.inet.tcp.autosndbufmax",
	    autosnd, 0, 1, false };
	lim->snd_fixed = lim->rcv_fixed;
}
