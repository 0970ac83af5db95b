/*
 * Windows: the machine's IPv4 TCP connections (GetTcpTable) and, for
 * each established one, its extended statistics through
 * GetPerTcpConnectionEStats, after SetPerTcpConnectionEStats has turned
 * their collection on (it is off until someone asks, and only an
 * administrator may: the service runs as LocalSystem).  A connection's
 * figures therefore start at the first pass that saw it.  The rules that
 * turn the statistics into a reading are flows_estats.c's.
 *
 * Sources (Microsoft, Win32 API, iphlpapi.h):
 *   GetPerTcpConnectionEStats, SetPerTcpConnectionEStats:
 *     https://learn.microsoft.com/en-us/windows/win32/api/iphlpapi/nf-iphlpapi-getpertcpconnectionestats
 *     https://learn.microsoft.com/en-us/windows/win32/api/iphlpapi/nf-iphlpapi-setpertcpconnectionestats
 *     (the Rw structure's EnableCollection, TcpConnectionEstatsData,
 *     Path, SndCong, Rec, ObsRec; ERROR_ACCESS_DENIED without rights)
 *   GetTcpTable, MIB_TCPROW: addresses and ports in network byte order,
 *     dwState MIB_TCP_STATE_ESTAB.
 */
#include "config.h"

/* iphlpapi.h declares the ESTATS calls only after ws2ipdef.h. */
#include <winsock2.h>
#include <ws2ipdef.h>
#include <windows.h>
#include <iphlpapi.h>
#include <tcpestats.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcptuned.h"
#include "flows.h"

/*
 * "a.b.c.d:port" from MIB_TCPROW's fields, both in network byte order
 * (the port in the low 16 bits): by hand, so that the daemon needs no
 * Winsock for it.
 */
static void
format_v4(DWORD addr, DWORD port, char *buf, size_t len)
{
	const unsigned char	*b = (const unsigned char *)&addr;

	snprintf(buf, len, "%u.%u.%u.%u:%u", b[0], b[1], b[2], b[3],
	    (unsigned)(((port & 0xff) << 8) | ((port >> 8) & 0xff)));
}

/* Collection on, for one kind of statistics (idempotent). */
static void
enable(MIB_TCPROW *row, TCP_ESTATS_TYPE type)
{
	TCP_ESTATS_DATA_RW_v0	rw;	/* every v0 Rw starts with it */

	rw.EnableCollection = TRUE;
	(void)SetPerTcpConnectionEStats(row, type, (PUCHAR)&rw, 0,
	    sizeof(rw), 0);
}

static int
get(MIB_TCPROW *row, TCP_ESTATS_TYPE type, void *rod, ULONG size)
{
	memset(rod, 0, size);
	return GetPerTcpConnectionEStats(row, type, NULL, 0, 0, NULL, 0, 0,
	    rod, 0, size) == NO_ERROR ? 0 : -1;
}

static int
read_row(MIB_TCPROW *row, struct estats_record *e)
{
	TCP_ESTATS_DATA_ROD_v0		data;
	TCP_ESTATS_PATH_ROD_v0		path;
	TCP_ESTATS_SND_CONG_ROD_v0	cong;
	TCP_ESTATS_REC_ROD_v0		rec;
	TCP_ESTATS_OBS_REC_ROD_v0	obs;

	enable(row, TcpConnectionEstatsData);
	enable(row, TcpConnectionEstatsPath);
	enable(row, TcpConnectionEstatsSndCong);
	enable(row, TcpConnectionEstatsRec);
	enable(row, TcpConnectionEstatsObsRec);
	if (get(row, TcpConnectionEstatsData, &data, sizeof(data)) == -1 ||
	    get(row, TcpConnectionEstatsPath, &path, sizeof(path)) == -1 ||
	    get(row, TcpConnectionEstatsSndCong, &cong, sizeof(cong)) == -1 ||
	    get(row, TcpConnectionEstatsRec, &rec, sizeof(rec)) == -1 ||
	    get(row, TcpConnectionEstatsObsRec, &obs, sizeof(obs)) == -1)
		return -1;
	e->DataBytesOut = data.DataBytesOut;
	e->DataBytesIn = data.DataBytesIn;
	e->SmoothedRtt = path.SmoothedRtt;
	e->SndLimTimeRwin = cong.SndLimTimeRwin;
	e->SndLimTimeCwnd = cong.SndLimTimeCwnd;
	e->SndLimTimeSnd = cong.SndLimTimeSnd;
	e->CurCwnd = cong.CurCwnd;
	e->CurRwinSent = rec.CurRwinSent;
	e->MaxRwinSent = rec.MaxRwinSent;
	e->CurRwinRcvd = obs.CurRwinRcvd;
	return 0;
}

static void
take_row(MIB_TCPROW *row, void (*take)(void *, const struct flow_reading *),
    void *arg)
{
	struct estats_record	e;
	struct flow_reading	r;

	memset(&e, 0, sizeof(e));
	format_v4(row->dwLocalAddr, row->dwLocalPort, e.local, sizeof(e.local));
	format_v4(row->dwRemoteAddr, row->dwRemotePort, e.remote,
	    sizeof(e.remote));
	/* No cookie: the four-tuple, unique while the connection lives. */
	e.id = fnv1a64(e.local, strlen(e.local)) ^
	    fnv1a64(e.remote, strlen(e.remote));
	if (read_row(row, &e) == -1)
		return;
	flows_estats_reading(&e, &r);
	take(arg, &r);
}

static int
win_sample(void (*take)(void *, const struct flow_reading *), void *arg,
    char *why, size_t len)
{
	MIB_TCPTABLE	*t = NULL;
	ULONG		 size = 0;
	DWORD		 rv, i;

	while ((rv = GetTcpTable(t, &size, FALSE)) ==
	    ERROR_INSUFFICIENT_BUFFER) {
		free(t);
		if ((t = malloc(size)) == NULL) {
			snprintf(why, len, "GetTcpTable: out of memory");
			return -1;
		}
	}
	if (rv != NO_ERROR) {
		free(t);
		snprintf(why, len, "GetTcpTable: error %lu", (unsigned long)rv);
		return -1;
	}
	for (i = 0; i < t->dwNumEntries; i++)
		if (t->table[i].dwState == MIB_TCP_STATE_ESTAB)
			take_row(&t->table[i], take, arg);
	free(t);
	return 0;
}

static void
win_limits(struct sysctl_backend *be, struct flow_limits *lim)
{
	char	level[TT_VALUE_MAX];

	if (be->get(be, "tcp.autotuninglevel", level, sizeof(level)) != 0)
		level[0] = '\0';
	flows_estats_limits(level, lim);
}

/* A configured level word, as the window it allows. */
static uint64_t
win_wanted(const struct flow_ceiling *c, const char *value)
{
	(void)c;
	return flows_estats_level_window(value);
}

/*
 * No segment count read cheaply, no close notices: every tick gets its
 * pass, bounded by its CPU time (diagnose.c).  This machine's addresses
 * are not listed here: only loopback and a connection to its own address
 * are known to be local (flows.c).
 */
const struct flows_ops flows_os = {
	.name = "estats",
	.cannot_tell = "Windows does not say which user owns a connection "
	    "(only administrators see them) nor tell a full send buffer "
	    "from a program that wrote no more, nor the window scale a "
	    "connection was opened with (which open ones a raised ceiling "
	    "cannot reach); IPv6 connections are not read yet",
	.sample = win_sample,
	.limits = win_limits,
	.wanted = win_wanted,
};
